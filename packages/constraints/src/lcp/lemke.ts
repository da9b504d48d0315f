/**
 * Lemke's complementary pivot method for the standard LCP (Cline, section 2.7.1, eqs. 2.34-2.39):
 *
 *   w = M z + q,   w >= 0,   z >= 0,   w_i z_i = 0.
 *
 * An artificial variable z0 with covering vector e = (1, ..., 1) is added (eq. 2.35), giving the
 * system [I  -M  -e] [w; z; z0] = q (eq. 2.36, columns reordered). The basis starts as all w with
 * w_t swapped for z0, t the index of the most negative q_t (eq. 2.37), which makes the basic
 * solution feasible. Each pivot brings in the complement of the variable that left last; the
 * leaving variable is chosen by the minimum ratio test on B^-1 q / B^-1 c (eq. 2.39). The method
 * stops when z0 leaves (a solution), when no entry of B^-1 c is positive (ray termination: for a
 * copositive-plus M, e.g. positive semidefinite, the LCP then has no solution), or at a pivot cap.
 *
 * Numerical care (Cline, section 4.8.3):
 * - an entry of d = B^-1 c takes part in the ratio test only if d_i > pivotTolerance * max_j |d_j|,
 *   so round-off-sized pivots (the "tiny over tiny" ratios of 4.8.3) are never chosen;
 * - ties in the ratio test are broken by the lexicographic minimum ratio test (2.7.1, [Mur88]):
 *   among the tied rows compare B^-1[i][0] / d_i, then B^-1[i][1] / d_i, ... This is the
 *   symbolic perturbation q + (eps, eps^2, ...) and rules out cycling on degenerate problems.
 *   Ratios within tieTolerance * max(1, |ratio|) count as tied (the "near tie" of 4.8.3 goes to the
 *   next level), and when z0 is among the tied rows at the first level it leaves at once;
 * - the first pivot breaks ties in min q by taking the largest index, which is what the
 *   lexicographic rule gives for the initial basis I;
 * - B^-1 is updated by one Gauss-Jordan pivot per step (the rank-one update of eq. 4.21) and
 *   recomputed from the basis columns with partial pivoting every refactorInterval pivots and once
 *   more at the end, so round-off does not accumulate into the answer;
 * - the number of pivots is capped (maxPivots).
 *
 * This is the reference solver for small problems (tests, debugging); it allocates.
 */

export type LemkeStatus = 'solved' | 'rayTermination' | 'pivotCap';

/** Options of Lemke's method: pivot budget, pivot and tie tolerances, refactorisation interval. */
export interface LemkeOptions {
  /** Pivot cap (default 50 * (n + 1)). */
  maxPivots?: number;
  /** Relative threshold of a usable pivot element (default 1e-11). */
  pivotTolerance?: number;
  /** Relative difference under which two ratios count as tied (default 1e-10). */
  tieTolerance?: number;
  /** Recompute B^-1 from scratch every this many pivots (default max(10, n)). */
  refactorInterval?: number;
}

/** What Lemke's method returns: status, the solution z and w, pivots taken and complementarity error. */
export interface LemkeResult {
  status: LemkeStatus;
  /** Solution z (or the last basic values of z when not solved). */
  z: Float64Array;
  /** w = M z + q recomputed from the returned z. */
  w: Float64Array;
  /** Pivots performed, the first (bringing in z0) included. */
  pivots: number;
  /** max_i |min(z_i, w_i)| with the w above: 0 for an exact solution (z >= 0 by construction). */
  complementarityError: number;
}

/** Solves the standard LCP w = M z + q (M n x n row-major) by Lemke's method. */
export function solveLcpLemke(n: number, M: Float64Array, q: Float64Array, options: LemkeOptions = {}): LemkeResult {
  if (!Number.isInteger(n) || n < 0) throw new Error(`solveLcpLemke: n must be a non-negative integer, got ${n}`);
  if (M.length < n * n || q.length < n) throw new Error(`solveLcpLemke: M needs n*n = ${n * n} entries and q needs n = ${n}`);
  for (let i = 0; i < n * n; i++) {
    if (!Number.isFinite(M[i])) throw new Error(`solveLcpLemke: M[${Math.floor(i / n)}][${i % n}] is ${M[i]}, expected a finite number`);
  }
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(q[i])) throw new Error(`solveLcpLemke: q[${i}] is ${q[i]}, expected a finite number`);
  }
  const maxPivots = options.maxPivots ?? 50 * (n + 1);
  const pivotTolerance = options.pivotTolerance ?? 1e-11;
  const tieTolerance = options.tieTolerance ?? 1e-10;
  const refactorInterval = options.refactorInterval ?? Math.max(10, n);
  return new LemkeTableau(n, M, q, pivotTolerance, tieTolerance).run(maxPivots, refactorInterval);
}

/** Basis state of Lemke's method. Variable ids: w_j = j, z_j = n + j, z0 = 2n. */
class LemkeTableau {
  private readonly basis: Int32Array;
  /** B^-1, n x n row-major. */
  private readonly Binv: Float64Array;
  /** Basic values x = B^-1 q. */
  private readonly x: Float64Array;
  private readonly d: Float64Array;
  private readonly candidates: Int32Array;
  private readonly z0: number;

  constructor(
    private readonly n: number,
    private readonly M: Float64Array,
    private readonly q: Float64Array,
    private readonly pivotTolerance: number,
    private readonly tieTolerance: number,
  ) {
    this.basis = new Int32Array(n);
    this.Binv = new Float64Array(n * n);
    this.x = new Float64Array(n);
    this.d = new Float64Array(n);
    this.candidates = new Int32Array(n);
    this.z0 = 2 * n;
  }

  run(maxPivots: number, refactorInterval: number): LemkeResult {
    const { n, q, basis, Binv, x } = this;
    for (let i = 0; i < n; i++) {
      basis[i] = i;
      Binv[i * n + i] = 1;
      x[i] = q[i];
    }
    let qMin = Infinity;
    for (let i = 0; i < n; i++) if (q[i] < qMin) qMin = q[i];
    if (!(qMin < 0)) return this.finish('solved', 0);

    // Initial pivot: z0 enters in row t, the most negative q (ties: the largest index).
    let t = -1;
    const qTie = this.tieTolerance * Math.max(1, Math.abs(qMin));
    for (let i = 0; i < n; i++) if (q[i] - qMin <= qTie) t = i;
    this.computeColumn(this.z0);
    this.pivot(t, this.z0);
    let pivots = 1;
    let entering = n + t; // complement of w_t

    for (;;) {
      if (pivots >= maxPivots) return this.finish('pivotCap', pivots);
      this.computeColumn(entering);
      const r = this.ratioTest();
      if (r < 0) return this.finish('rayTermination', pivots);
      const leaving = basis[r];
      this.pivot(r, entering);
      pivots++;
      if (leaving === this.z0) {
        this.refactor();
        return this.finish('solved', pivots);
      }
      entering = leaving < n ? leaving + n : leaving - n;
      if (pivots % refactorInterval === 0) this.refactor();
    }
  }

  /** d = B^-1 c for the column c of variable v in [I  -M  -e]. */
  private computeColumn(v: number): void {
    const { n, M, Binv, d } = this;
    if (v < n) {
      for (let i = 0; i < n; i++) d[i] = Binv[i * n + v];
    } else if (v < 2 * n) {
      const j = v - n;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = 0; k < n; k++) s -= Binv[i * n + k] * M[k * n + j];
        d[i] = s;
      }
    } else {
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = 0; k < n; k++) s -= Binv[i * n + k];
        d[i] = s;
      }
    }
  }

  /** Lexicographic minimum ratio test on d; returns the pivot row or -1 (ray termination). */
  private ratioTest(): number {
    const { n, d, x, Binv, candidates } = this;
    let dMax = 0;
    for (let i = 0; i < n; i++) dMax = Math.max(dMax, Math.abs(d[i]));
    if (!(dMax > 0)) return -1;
    const threshold = this.pivotTolerance * dMax;
    let count = 0;
    for (let i = 0; i < n; i++) if (d[i] > threshold) candidates[count++] = i;
    if (count === 0) return -1;

    // Level 0: B^-1 q / d (basic values below zero are round-off and count as zero).
    count = this.keepMinimumRatios(count, (i) => Math.max(x[i], 0) / d[i]);
    for (let c = 0; c < count; c++) if (this.basis[candidates[c]] === this.z0) return candidates[c];
    // Levels 1..n: columns of B^-1.
    for (let level = 0; level < n && count > 1; level++) {
      count = this.keepMinimumRatios(count, (i) => Binv[i * n + level] / d[i]);
    }
    return candidates[0];
  }

  /** Keeps the candidates whose ratio is (within tolerance) the minimum, in index order. */
  private keepMinimumRatios(count: number, ratio: (i: number) => number): number {
    const candidates = this.candidates;
    let min = Infinity;
    for (let c = 0; c < count; c++) min = Math.min(min, ratio(candidates[c]));
    const tie = min + this.tieTolerance * Math.max(1, Math.abs(min));
    let kept = 0;
    for (let c = 0; c < count; c++) {
      const i = candidates[c];
      if (ratio(i) <= tie) candidates[kept++] = i;
    }
    return kept;
  }

  /** Brings the variable whose column is in d into the basis at row r (Gauss-Jordan step). */
  private pivot(r: number, entering: number): void {
    const { n, d, x, Binv } = this;
    const p = d[r];
    const theta = x[r] / p;
    for (let i = 0; i < n; i++) if (i !== r) x[i] -= d[i] * theta;
    x[r] = theta;
    const rowR = r * n;
    for (let k = 0; k < n; k++) Binv[rowR + k] /= p;
    for (let i = 0; i < n; i++) {
      if (i === r || d[i] === 0) continue;
      const di = d[i];
      const rowI = i * n;
      for (let k = 0; k < n; k++) Binv[rowI + k] -= di * Binv[rowR + k];
    }
    this.basis[r] = entering;
  }

  /**
   * Recomputes B^-1 from the basis columns (Gauss-Jordan with partial pivoting) and x = B^-1 q.
   * Keeps the updated inverse if the basis is numerically singular.
   */
  private refactor(): void {
    const { n, M, q, basis } = this;
    // [B | I] -> [I | B^-1]
    const w = 2 * n;
    const T = new Float64Array(n * w);
    for (let c = 0; c < n; c++) {
      const v = basis[c];
      for (let i = 0; i < n; i++) {
        T[i * w + c] = v < n ? (i === v ? 1 : 0) : v < 2 * n ? -M[i * n + (v - n)] : -1;
      }
    }
    for (let i = 0; i < n; i++) T[i * w + n + i] = 1;
    for (let c = 0; c < n; c++) {
      let best = c;
      for (let i = c + 1; i < n; i++) if (Math.abs(T[i * w + c]) > Math.abs(T[best * w + c])) best = i;
      const pivot = T[best * w + c];
      if (!(Math.abs(pivot) > 1e-300)) return;
      if (best !== c) {
        for (let k = 0; k < w; k++) {
          const tmp = T[c * w + k];
          T[c * w + k] = T[best * w + k];
          T[best * w + k] = tmp;
        }
      }
      for (let k = 0; k < w; k++) T[c * w + k] /= pivot;
      for (let i = 0; i < n; i++) {
        const f = T[i * w + c];
        if (i === c || f === 0) continue;
        for (let k = 0; k < w; k++) T[i * w + k] -= f * T[c * w + k];
      }
    }
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let k = 0; k < n; k++) {
        const v = T[i * w + n + k];
        this.Binv[i * n + k] = v;
        s += v * q[k];
      }
      this.x[i] = s;
    }
  }

  private finish(status: LemkeStatus, pivots: number): LemkeResult {
    const { n, M, q, basis, x } = this;
    const z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = basis[i];
      if (v >= n && v < 2 * n) z[v - n] = Math.max(x[i], 0);
    }
    const w = new Float64Array(n);
    let complementarityError = 0;
    for (let i = 0; i < n; i++) {
      let s = q[i];
      for (let j = 0; j < n; j++) s += M[i * n + j] * z[j];
      w[i] = s;
      complementarityError = Math.max(complementarityError, Math.abs(Math.min(z[i], s)));
    }
    return { status, z, w, pivots, complementarityError };
  }
}
