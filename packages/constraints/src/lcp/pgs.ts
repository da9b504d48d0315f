/**
 * Projected Gauss-Seidel (with over-relaxation) for the mixed LCP of problem.ts: the solver of the
 * simulation step (Kokkevis section 4: iterative, usable when interrupted, graceful on singular
 * systems).
 *
 * One sweep visits the rows in order; row i takes the Gauss-Seidel value for its own equation
 * a_i = 0 given the current forces of all other rows, relaxed by omega and projected on its bounds:
 *
 *   f_i <- mid(L_i, U_i, f_i - omega * a_i / A_ii),
 *
 * with L_i, U_i from the current normal force for friction rows. For symmetric A and constant
 * bounds this is coordinate descent on 1/2 f'Af + b'f over the box: every step with 0 < omega < 2
 * lowers that energy, and for positive definite A the sweeps converge to the solution (Cottle, Pang
 * and Stone, chapter 5). With friction the box moves with the normal forces and convergence is not
 * guaranteed, though it is the rule for moderate mu.
 * The measures a = A f + b are computed once per solve and then kept current: a change d of f_i adds
 * d * (column i of A) to a, so a sweep costs O(n^2) like a row-by-row dot product, and after each
 * sweep the residual of the current forces (residual.ts) is available in O(n) for the early exit.
 * (The kept measures carry the round-off of the updates, far below any useful tolerance.)
 *
 * Singular and contradictory systems. Duplicated rows and rank-deficient PSD matrices are
 * consistent and converge like any other. Rows that contradict each other (two bilateral rows
 * asking one measure for two values) have no solution: plain Gauss-Seidel then lets the last row
 * visited win and the opposing forces grow by about |conflict| / A_ii per sweep, so they stay
 * finite for a finite iteration count but keep growing across warm-started steps. The option
 * `regularisation` (gamma) replaces A by A + gamma * diag(A) in the iteration (constraint force
 * mixing): every row then has a solution, the iterates of a problem with constant bounds satisfy
 * E(f) <= E(f0) for E(f) = 1/2 f'(A + gamma D)f + b'f, hence ||f||_2 <= 2 ||b||_2 / (gamma min_i A_ii)
 * from f0 = 0, and the measures of the conflicting rows settle at their least-squares compromise
 * (up to O(gamma)).
 * The price is a bias of order gamma on consistent problems. The residual is always that of the
 * unregularised problem, so a conflict is reported, never hidden.
 *
 * Zero diagonal. A row with A_ii <= diagonalEpsilon * max_j A_jj has (numerically) no effect on its
 * own measure: no force can correct it. Its force is held at mid(L_i, U_i, 0), the admissible force
 * nearest zero, and its residual is scaled as described in residual.ts.
 *
 * Row order matters for Gauss-Seidel: rows visited early are corrected by the rows after them.
 * Friction bounds use the current normal force, so normals should come before their friction rows;
 * row-order.ts builds such an order (bilateral rows, then bounded ones, then friction) and solve()
 * takes it through options.order without permuting the matrix. Friction rows visited before their
 * normal are re-projected at the end of each sweep, so the returned forces are always within bounds.
 *
 * solve() allocates nothing once the solver's capacity covers the problem: all scratch is sized in
 * the constructor (grown, once, when a larger problem arrives) and the result object is reused.
 */
import { DEFAULT_DIAGONAL_EPSILON, computeMeasures } from './residual.js';
import { validateMixedLcp, type MixedLcp } from './problem.js';

/** Options of PgsSolver.solve. Every field is optional; defaults are given in DEFAULT_PGS_OPTIONS. */
export interface PgsOptions {
  /** Maximum number of sweeps (default 100). */
  maxIterations?: number;
  /** Stop when the residual (measure units, residual.ts) is at most this (default 1e-9). */
  tolerance?: number;
  /** Over-relaxation factor omega, 0 < omega < 2 (default 1: plain Gauss-Seidel). */
  sor?: number;
  /** Relative diagonal regularisation gamma >= 0 (default 0); see the module comment. */
  regularisation?: number;
  /** Threshold of a negligible diagonal, relative to the largest (default 1e-12). */
  diagonalEpsilon?: number;
  /** Order in which a sweep visits the rows: a permutation of 0..n-1 (default: 0, 1, ..., n-1). */
  order?: Int32Array | null;
  /**
   * A is symmetric (a constraint matrix J M^-1 J^T): a force change then updates the measures
   * from row i of A (contiguous memory) instead of column i (default false).
   */
  symmetric?: boolean;
}

/** The defaults of PgsOptions. */
export const DEFAULT_PGS_OPTIONS: Readonly<Required<PgsOptions>> = Object.freeze({
  maxIterations: 100,
  tolerance: 1e-9,
  sor: 1,
  regularisation: 0,
  diagonalEpsilon: DEFAULT_DIAGONAL_EPSILON,
  order: null,
  symmetric: false,
});

/** Outcome of a solve. One object per solver, overwritten by every solve. */
export class PgsResult {
  /** Sweeps performed (0 when the warm start already met the tolerance). */
  iterations = 0;
  /** Natural-map residual of the returned forces (residual.ts), in measure units; NaN if non-finite. */
  residual = NaN;
  /** residual <= tolerance. */
  converged = false;
  /** Row with the largest residual (-1 for an empty problem). */
  worstRow = -1;
}

/** Projected Gauss-Seidel on the mixed LCP, with preallocated scratch: free, unilateral and friction-bounded rows. */
export class PgsSolver {
  /** The result of the last solve; the same object every time. */
  readonly result = new PgsResult();
  private cap = 0;
  private a = new Float64Array(0);
  private invDiag = new Float64Array(0);
  private scale = new Float64Array(0);
  private noEffect = new Uint8Array(0);
  private mark = new Int32Array(0);
  private markStamp = 0;
  /** The options of the current solve: [tolerance, omega, gamma, diagonalEpsilon, maxIterations, symmetric (0 or 1)]. */
  private readonly settings = new Float64Array(6);
  /** The solver's options (setOptions), same layout, and its row order. */
  private readonly defaults = new Float64Array(6);
  private defaultOrder: Int32Array | null = null;
  /** [residual of the current forces]; kept out of the result object until the solve ends. */
  private readonly current = new Float64Array(1);
  private currentWorstRow = -1;

  /** A solver for problems of up to `capacity` rows without allocation, with the given options. */
  constructor(capacity = 0, options: PgsOptions = DEFAULT_PGS_OPTIONS) {
    this.reserve(capacity);
    this.setOptions(options);
  }

  /** Largest n solved without allocation. */
  get capacity(): number {
    return this.cap;
  }

  /** The measures a = A f + b of the forces returned by the last solve (first n entries). */
  get measures(): Float64Array {
    return this.a;
  }

  /** Grows the scratch to hold problems of n rows (never shrinks). */
  reserve(n: number): void {
    if (n <= this.cap) return;
    const cap = Math.max(n, 2 * this.cap);
    this.a = new Float64Array(cap);
    this.invDiag = new Float64Array(cap);
    this.scale = new Float64Array(cap);
    this.noEffect = new Uint8Array(cap);
    this.mark = new Int32Array(cap);
    this.markStamp = 0;
    this.cap = cap;
  }

  /**
   * Sets the solver's options, used by every later solve that does not override them. Fields left
   * out take the values of DEFAULT_PGS_OPTIONS. Throws on an invalid value (and keeps the old ones).
   */
  setOptions(options: PgsOptions): void {
    const settings = this.settings;
    settings[0] = options.tolerance ?? DEFAULT_PGS_OPTIONS.tolerance;
    settings[1] = options.sor ?? DEFAULT_PGS_OPTIONS.sor;
    settings[2] = options.regularisation ?? DEFAULT_PGS_OPTIONS.regularisation;
    settings[3] = options.diagonalEpsilon ?? DEFAULT_PGS_OPTIONS.diagonalEpsilon;
    settings[4] = options.maxIterations ?? DEFAULT_PGS_OPTIONS.maxIterations;
    settings[5] = options.symmetric === true ? 1 : 0;
    this.checkSettings();
    for (let k = 0; k < 6; k++) this.defaults[k] = settings[k];
    this.defaultOrder = options.order ?? null;
  }

  /**
   * Solves the mixed LCP p in place: f holds the warm start on entry (projected on the bounds
   * first) and the forces on return. Returns this.result.
   *
   * options, when given, override the solver's options (constructor, setOptions) for this call;
   * fields left out keep the solver's values. Reading numbers out of option objects of many
   * different shapes can make V8 copy them onto the heap, so a loop that must not allocate either
   * passes option objects of one shape, or sets the options once and calls solve(p, f).
   */
  solve(p: MixedLcp, f: Float64Array, options?: PgsOptions): PgsResult {
    validateMixedLcp(p);
    const n = p.n;
    if (f.length < n) throw new Error(`PgsSolver.solve: f has ${f.length} entries, expected at least n = ${n}`);
    const settings = this.settings;
    const defaults = this.defaults;
    let order = this.defaultOrder;
    if (options === undefined) {
      for (let k = 0; k < 6; k++) settings[k] = defaults[k];
    } else {
      settings[0] = options.tolerance ?? defaults[0];
      settings[1] = options.sor ?? defaults[1];
      settings[2] = options.regularisation ?? defaults[2];
      settings[3] = options.diagonalEpsilon ?? defaults[3];
      settings[4] = options.maxIterations ?? defaults[4];
      settings[5] = options.symmetric === undefined ? defaults[5] : options.symmetric === true ? 1 : 0;
      if (options.order !== undefined) order = options.order;
      this.checkSettings();
    }
    this.reserve(n);
    if (order !== null) this.checkPermutation(order, n);
    // The numeric work runs in a method that never sees an options object and takes no number
    // argument, so nothing there is polymorphic in the caller's objects and no number is boxed.
    return this.run(p, f, order);
  }

  /** Throws unless settings = [tolerance, omega, gamma, diagonalEpsilon, maxIterations] are valid. */
  private checkSettings(): void {
    const s = this.settings;
    if (!(s[0] >= 0)) throw this.settingError('tolerance must be >= 0', 0);
    if (!(s[1] > 0 && s[1] < 2)) throw this.settingError('sor (omega) must be in (0, 2)', 1);
    if (!(s[2] >= 0 && s[2] < Infinity)) throw this.settingError('regularisation must be finite and >= 0', 2);
    if (!(s[3] >= 0)) throw this.settingError('diagonalEpsilon must be >= 0', 3);
    if (!(s[4] >= 0 && s[4] < Infinity && Math.floor(s[4]) === s[4])) {
      throw this.settingError('maxIterations must be a non-negative integer', 4);
    }
  }

  private settingError(what: string, k: number): Error {
    return new Error(`PgsSolver options: ${what}, got ${this.settings[k]}`);
  }

  /** The solve proper, on validated input; settings = [tolerance, omega, gamma, diagonalEpsilon, maxIterations]. */
  private run(p: MixedLcp, f: Float64Array, order: Int32Array | null): PgsResult {
    const n = p.n;
    const settings = this.settings;
    const tolerance = settings[0];
    const omega = settings[1];
    const gamma = settings[2];
    const diagonalEpsilon = settings[3];
    const maxIterations = settings[4];
    // a change of f_i adds delta * (column i of A) to the measures; for symmetric A, column i is row i
    const colStep = settings[5] === 1 ? 1 : n;
    // Finiteness is tested as x - x === 0 (NaN for NaN and +-Infinity) in this method: a call to a
    // number builtin that the optimiser does not inline would box its argument.
    for (let i = 0; i < n; i++) {
      const x = f[i];
      if (!(x - x === 0)) throw new Error(`PgsSolver.solve: warm start f[${i}] is ${x}, expected a finite number`);
    }
    const A = p.A;
    const lo = p.lo;
    const hi = p.hi;
    const boundRow = p.boundRow;
    const a = this.a;
    const invDiag = this.invDiag;
    const scale = this.scale;
    const noEffect = this.noEffect;

    // Diagonal: inverse of the (regularised) diagonal for the update, scale for the residual.
    let maxDiag = 0;
    for (let i = 0; i < n; i++) {
      const d = A[i * n + i];
      if (!(d - d === 0)) throw new Error(`PgsSolver.solve: A[${i}][${i}] is ${d}, expected a finite number`);
      if (d > maxDiag) maxDiag = d;
    }
    const floor = diagonalEpsilon * maxDiag;
    const fallbackScale = maxDiag > 0 ? maxDiag : 1;
    for (let i = 0; i < n; i++) {
      const d = A[i * n + i];
      if (d > floor && d > 0) {
        noEffect[i] = 0;
        invDiag[i] = 1 / (d * (1 + gamma));
        scale[i] = d;
      } else {
        noEffect[i] = 1;
        invDiag[i] = 0;
        scale[i] = fallbackScale;
      }
    }

    // Warm start projected on the bounds: constant-bound rows first, then friction rows, whose
    // bounds depend on the (projected) normal forces. (Bounds are computed inline here and below:
    // the hot loops call no helper that returns a number, so nothing is boxed.)
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < n; i++) {
        const r = boundRow[i];
        if ((r >= 0) !== (pass === 1)) continue;
        const L = r < 0 ? lo[i] : lo[i] * f[r];
        const U = r < 0 ? hi[i] : hi[i] * f[r];
        let x = noEffect[i] === 1 ? 0 : f[i];
        if (x < L) x = L;
        else if (x > U) x = U;
        f[i] = x;
      }
    }

    computeMeasures(p, f, a);
    for (let i = 0; i < n; i++) {
      const x = a[i];
      if (!(x - x === 0)) {
        throw new Error(`PgsSolver.solve: measure of row ${i} is ${a[i]}; row ${i} of A or b[${i}] holds a non-finite number`);
      }
    }

    const current = this.current;
    let iterations = 0;
    this.updateResidual(p, f);
    // Stop at the tolerance, at the cap, or on a NaN residual (current[0] !== current[0]).
    while (!(current[0] <= tolerance) && iterations < maxIterations && current[0] === current[0]) {
      for (let k = 0; k < n; k++) {
        const i = order === null ? k : order[k];
        const r = boundRow[i];
        const L = r < 0 ? lo[i] : lo[i] * f[r];
        const U = r < 0 ? hi[i] : hi[i] * f[r];
        const fi = f[i];
        let x = noEffect[i] === 1 ? 0 : fi - omega * (a[i] + gamma * scale[i] * fi) * invDiag[i];
        if (x < L) x = L;
        else if (x > U) x = U;
        const delta = x - fi;
        if (delta !== 0) {
          f[i] = x;
          for (let j = 0, col = colStep === 1 ? i * n : i; j < n; j++, col += colStep) a[j] += A[col] * delta;
        }
      }
      // Friction rows visited before their normal may have left their (new) box.
      for (let i = 0; i < n; i++) {
        const r = boundRow[i];
        if (r < 0) continue;
        const L = lo[i] * f[r];
        const U = hi[i] * f[r];
        const fi = f[i];
        const x = fi < L ? L : fi > U ? U : fi;
        const delta = x - fi;
        if (delta !== 0) {
          f[i] = x;
          for (let j = 0, col = colStep === 1 ? i * n : i; j < n; j++, col += colStep) a[j] += A[col] * delta;
        }
      }
      iterations++;
      this.updateResidual(p, f);
    }
    const result = this.result;
    result.iterations = iterations;
    result.residual = current[0];
    result.converged = current[0] <= tolerance;
    result.worstRow = this.currentWorstRow;
    return result;
  }

  /** Sets the residual of the forces f (given the current measures) and its worst row. */
  private updateResidual(p: MixedLcp, f: Float64Array): void {
    const n = p.n;
    const lo = p.lo;
    const hi = p.hi;
    const boundRow = p.boundRow;
    const a = this.a;
    const scale = this.scale;
    let worst = 0;
    let worstRow = n > 0 ? 0 : -1;
    let notFinite = false;
    for (let i = 0; i < n; i++) {
      const r = boundRow[i];
      const L = r < 0 ? lo[i] : lo[i] * f[r];
      const U = r < 0 ? hi[i] : hi[i] * f[r];
      const s = scale[i];
      const fi = f[i];
      let x = fi - a[i] / s;
      if (x < L) x = L;
      else if (x > U) x = U;
      const res = Math.abs(s * (fi - x));
      if (res > worst) {
        worst = res;
        worstRow = i;
      } else if (res !== res) {
        notFinite = true;
        worstRow = i;
        break;
      }
    }
    // (NaN is kept out of `worst`: merging a NaN constant into it made V8 box it on every call.)
    this.current[0] = worst;
    if (notFinite) this.current[0] = NaN;
    this.currentWorstRow = worstRow;
  }

  /** Throws unless order[0..n) is a permutation of 0..n-1. */
  private checkPermutation(order: Int32Array, n: number): void {
    if (order.length < n) throw new Error(`PgsSolver.solve: order has ${order.length} entries, expected at least n = ${n}`);
    if (this.markStamp >= 0x7fffffff) {
      this.mark.fill(0);
      this.markStamp = 0;
    }
    const stamp = ++this.markStamp;
    const mark = this.mark;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      if (i < 0 || i >= n || mark[i] === stamp) {
        throw new Error(`PgsSolver.solve: order[${k}] = ${i} is out of range or repeated; expected a permutation of 0..${n - 1}`);
      }
      mark[i] = stamp;
    }
  }
}
