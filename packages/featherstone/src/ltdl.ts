/**
 * The sparse L^T D L factorisation of a tree's joint-space inertia matrix (Featherstone,
 * "Efficient factorization of the joint-space inertia matrix for branched kinematic trees", 2005;
 * Rigid Body Dynamics Algorithms, 2008, section 6.5 and table 6.3).
 *
 * Number the dofs so that every dof's parent dof lambda(i) comes before it (a multi-dof joint's
 * dofs form a chain, its first dof hangs from the last dof of the nearest ancestor joint that has
 * dofs). Then M_ij is zero unless one of i, j is an ancestor of the other, and M = L^T D L with L
 * unit lower triangular, D diagonal, and L_ij non-zero only where j is an ancestor of i: the
 * factorisation fills nothing in. It costs sum over dofs of (ancestor count)^2, and the solves
 * cost one pass along the ancestors of each non-zero.
 *
 * One property makes constraint matrices cheap: a vector supported on the path from some dof to
 * the root stays on that path under L^-T. A row Jacobian J_r (which touches only the dofs between
 * its link and the root) gives Y_r = L^-T J_r^T on the same few dofs, and
 *   K = J M^-1 J^T = Y^T D^-1 Y,   M^-1 J^T f = L^-1 D^-1 Y f.
 *
 * Storage is by paths: the ancestors of dof q, nearest first, are pathDofs[pathStart[q] ..
 * pathStart[q + 1]), and L[pathStart[q] + t] is L between q and its t-th ancestor. The path of an
 * ancestor is a tail of its descendant's path, so every inner loop runs over consecutive numbers.
 */
import type { Model } from './model.js';
import type { Arr } from './spatial.js';

/**
 * The parent dof lambda(d) of each dof (-1 at a root): the previous dof of the same joint, or the
 * last dof of the nearest ancestor joint with dofs.
 */
export function dofParents(model: Model, out: Int32Array = new Int32Array(model.nv)): Int32Array {
  for (let i = 0; i < model.nLinks; i++) {
    const v0 = model.vOffset[i], n = model.jointNv[i];
    if (n === 0) continue;
    let a = model.parent[i];
    while (a >= 0 && model.jointNv[a] === 0) a = model.parent[a];
    out[v0] = a < 0 ? -1 : model.vOffset[a] + model.jointNv[a] - 1;
    for (let k = 1; k < n; k++) out[v0 + k] = v0 + k - 1;
  }
  return out;
}

export class SparseLTDL {
  readonly nv: number;
  /** lambda: the parent dof of each dof (-1 at a root). */
  readonly parent: Int32Array;
  /** Where each dof's path of ancestors starts in pathDofs and L (nv + 1 entries). */
  readonly pathStart: Int32Array;
  /** The ancestors of each dof, nearest first. */
  readonly pathDofs: Int32Array;
  /** The strict lower triangle of L, by paths (after factor). */
  readonly L: Float64Array;
  /** The diagonal D (after factor). */
  readonly D: Float64Array;

  constructor(model: Model) {
    const nv = model.nv;
    this.nv = nv;
    this.parent = dofParents(model);
    this.pathStart = new Int32Array(nv + 1);
    for (let q = 0; q < nv; q++) {
      let n = 0;
      for (let j = this.parent[q]; j >= 0; j = this.parent[j]) n++;
      this.pathStart[q + 1] = this.pathStart[q] + n;
    }
    this.pathDofs = new Int32Array(this.pathStart[nv]);
    for (let q = 0; q < nv; q++) {
      let t = this.pathStart[q];
      for (let j = this.parent[q]; j >= 0; j = this.parent[j]) this.pathDofs[t++] = j;
    }
    this.L = new Float64Array(this.pathStart[nv]);
    this.D = new Float64Array(nv);
  }

  /** Number of ancestors of dof q. */
  depth(q: number): number {
    return this.pathStart[q + 1] - this.pathStart[q];
  }

  /**
   * Factorises M (nv x nv, row-major, symmetric with the branch-induced sparsity above; only
   * entries on the paths are read) into L^T D L (table 6.3, "LTDL"). Returns -1, or the first dof
   * (counting from the leaves) whose pivot is not above minPivot: the matrix is then not positive
   * definite to working precision.
   */
  factor(M: ArrayLike<number>, minPivot = 0): number {
    const nv = this.nv, L = this.L, D = this.D, start = this.pathStart, path = this.pathDofs;
    for (let q = 0; q < nv; q++) {
      D[q] = M[q * nv + q];
      for (let t = start[q]; t < start[q + 1]; t++) L[t] = M[q * nv + path[t]];
    }
    for (let k = nv - 1; k >= 0; k--) {
      const dk = D[k];
      if (!(dk > minPivot)) return k;
      const sk = start[k], ek = start[k + 1];
      for (let t = sk; t < ek; t++) {
        // dof i = path[t] and every dof above it lose k's contribution: M_ij -= (M_ki / M_kk) M_kj,
        // where the M_kj are the entries of k's path after t (i's path is their tail)
        const i = path[t], mki = L[t], a = mki / dk;
        D[i] -= a * mki;
        const si = start[i], n = start[i + 1] - si, off = t + 1 - si;
        for (let u = si; u < si + n; u++) L[u] -= a * L[u + off];
        L[t] = a;
      }
    }
    return -1;
  }

  /**
   * x = L^-T x in place for a vector on the path from dof q0 to the root, stored along that path:
   * y[yo + t] is the value at the t-th dof of [q0, its ancestors...] (q0 first). O(depth^2 / 2).
   */
  solveLTransposedOnPath(q0: number, y: Arr, yo: number): void {
    const L = this.L, start = this.pathStart;
    const c = 1 + start[q0 + 1] - start[q0];
    let q = q0;
    for (let t = 0; t < c - 1; t++) {
      const yt = y[yo + t];
      // the path of the t-th dof is the path of q0 after t: L[start[q] + (u - t - 1)] pairs with y[u]
      if (yt !== 0) {
        const off = start[q] - t - 1 - yo;
        for (let u = yo + t + 1; u < yo + c; u++) y[u] -= L[u + off] * yt;
      }
      q = this.parent[q];
    }
  }

  /** x = L^-T x in place (x dense, nv numbers from xo): back substitution from the leaves, zeros skipped. */
  solveLTransposed(x: Arr, xo = 0): void {
    const L = this.L, start = this.pathStart, path = this.pathDofs;
    for (let i = this.nv - 1; i >= 0; i--) {
      const xi = x[xo + i];
      if (xi === 0) continue;
      for (let t = start[i]; t < start[i + 1]; t++) x[xo + path[t]] -= L[t] * xi;
    }
  }

  /** x = L^-1 x in place (x dense): forward substitution from the root, each dof reading its path. */
  solveL(x: Arr, xo = 0): void {
    const L = this.L, start = this.pathStart, path = this.pathDofs;
    for (let i = 0; i < this.nv; i++) {
      let s = x[xo + i];
      for (let t = start[i]; t < start[i + 1]; t++) s -= L[t] * x[xo + path[t]];
      x[xo + i] = s;
    }
  }

  /** x = M^-1 x from the factor: L^-1 D^-1 L^-T x. */
  solve(x: Arr, xo = 0): void {
    this.solveLTransposed(x, xo);
    for (let i = 0; i < this.nv; i++) x[xo + i] /= this.D[i];
    this.solveL(x, xo);
  }
}
