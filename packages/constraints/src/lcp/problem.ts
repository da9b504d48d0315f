/**
 * The mixed linear complementarity problem (box-constrained LCP with friction-coupled bounds) that
 * the K builder hands to the solvers, and a capacity-preallocated container for it.
 *
 * Given A (n x n), b (n), find forces f with measures a = A f + b such that, for every row i with
 * bounds [L_i, U_i],
 *
 *   L_i <= f_i <= U_i,
 *   L_i < f_i < U_i  =>  a_i = 0,
 *   f_i = L_i < U_i  =>  a_i >= 0,
 *   f_i = U_i > L_i  =>  a_i <= 0,
 *   L_i = U_i        =>  f_i = L_i, a_i free.
 *
 * Equivalently f_i = mid(L_i, U_i, f_i - a_i / s_i) for any positive s_i (the natural map, see
 * residual.ts). The bounds are constants, L_i = lo[i], U_i = hi[i], unless boundRow[i] = r >= 0:
 * then L_i = lo[i] * f_r and U_i = hi[i] * f_r (Coulomb friction as a box scaled by the normal
 * force of row r, Kokkevis eqs. 19-21, Cline section 2.7.3).
 *
 * Row kinds, by bounds:
 * - bilateral (joint loops, pins, trajectory rows): lo = -Infinity, hi = +Infinity;
 * - unilateral (contact normals, joint limits at a stop): lo = 0, hi = +Infinity;
 * - bounded (motors with a force limit): finite constant lo <= hi;
 * - friction: boundRow = index of the normal row, lo = -mu, hi = mu.
 */

/** A mixed LCP. A is n x n row-major with stride n: A[i * n + j] is the effect of a unit force on row j on the measure of row i. */
export interface MixedLcp {
  /** Number of rows. */
  readonly n: number;
  /** n * n entries (the array may be longer), row-major. */
  readonly A: Float64Array;
  /** Measure at zero force (n entries). */
  readonly b: Float64Array;
  /** Lower bound, or lower friction coefficient when boundRow[i] >= 0 (n entries). */
  readonly lo: Float64Array;
  /** Upper bound, or upper friction coefficient when boundRow[i] >= 0 (n entries). */
  readonly hi: Float64Array;
  /** -1 for constant bounds, else the row whose force scales this row's bounds (n entries). */
  readonly boundRow: Int32Array;
}

/** Classification of a row by its bounds. */
export const RowKind = {
  /** lo = -Infinity, hi = +Infinity. */
  Free: 0,
  /** Finite lo, hi = +Infinity (contact normals, joint limits). */
  Lower: 1,
  /** lo = -Infinity, finite hi. */
  Upper: 2,
  /** Finite lo < hi. */
  Box: 3,
  /** Finite lo = hi: the force is prescribed. */
  Fixed: 4,
  /** Bounds scaled by the force of another row. */
  Friction: 5,
} as const;
export type RowKind = (typeof RowKind)[keyof typeof RowKind];

/** The kind of row i of a problem (assumes the problem has passed validateMixedLcp). */
export function rowKind(p: MixedLcp, i: number): RowKind {
  if (p.boundRow[i] >= 0) return RowKind.Friction;
  const lo = p.lo[i];
  const hi = p.hi[i];
  const loFinite = lo !== -Infinity;
  const hiFinite = hi !== Infinity;
  if (!loFinite && !hiFinite) return RowKind.Free;
  if (!hiFinite) return RowKind.Lower;
  if (!loFinite) return RowKind.Upper;
  return lo === hi ? RowKind.Fixed : RowKind.Box;
}

/**
 * Checks the structure of a problem in O(n) (sizes, bounds, friction references) and throws an
 * error naming the first bad row and what was expected. Entries of A are not scanned here; the
 * solvers report a non-finite measure with its row.
 */
export function validateMixedLcp(p: MixedLcp): void {
  const n = p.n;
  if (!Number.isInteger(n) || n < 0) throw new Error(`MixedLcp: n must be a non-negative integer, got ${n}`);
  if (p.A.length < n * n) throw new Error(`MixedLcp: A has ${p.A.length} entries, expected at least n*n = ${n * n}`);
  if (p.b.length < n || p.lo.length < n || p.hi.length < n || p.boundRow.length < n) {
    throw new Error(`MixedLcp: b, lo, hi and boundRow need at least n = ${n} entries`);
  }
  for (let i = 0; i < n; i++) {
    const lo = p.lo[i];
    const hi = p.hi[i];
    if (!Number.isFinite(p.b[i])) throw new Error(`MixedLcp row ${i}: b is ${p.b[i]}, expected a finite number`);
    if (Number.isNaN(lo) || Number.isNaN(hi) || lo === Infinity || hi === -Infinity || lo > hi) {
      throw new Error(`MixedLcp row ${i}: bounds [${lo}, ${hi}] are not an interval lo <= hi with lo < +Inf and hi > -Inf`);
    }
    const r = p.boundRow[i];
    if (r === -1) continue;
    if (!Number.isInteger(r) || r < 0 || r >= n || r === i) {
      throw new Error(`MixedLcp row ${i}: boundRow is ${r}, expected -1 or the index of another row in [0, ${n})`);
    }
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo > 0 || hi < 0) {
      throw new Error(`MixedLcp row ${i}: friction coefficients [${lo}, ${hi}] must be finite with lo <= 0 <= hi`);
    }
    if (p.boundRow[r] !== -1) {
      throw new Error(`MixedLcp row ${i}: its normal row ${r} is itself a friction row; expected a row with constant bounds`);
    }
    if (!(p.lo[r] >= 0)) {
      throw new Error(`MixedLcp row ${i}: its normal row ${r} has lower bound ${p.lo[r]}, expected >= 0 so the friction box is never empty`);
    }
  }
}

/**
 * A mixed LCP with storage preallocated to a capacity, reused step after step: resize(n) allocates
 * only when n exceeds every size seen before.
 */
export class LcpProblem implements MixedLcp {
  n = 0;
  A: Float64Array;
  b: Float64Array;
  lo: Float64Array;
  hi: Float64Array;
  boundRow: Int32Array;
  private cap: number;

  constructor(capacity = 0) {
    this.cap = Math.max(0, capacity | 0);
    this.A = new Float64Array(this.cap * this.cap);
    this.b = new Float64Array(this.cap);
    this.lo = new Float64Array(this.cap);
    this.hi = new Float64Array(this.cap);
    this.boundRow = new Int32Array(this.cap);
  }

  /** Largest n that needs no allocation. */
  get capacity(): number {
    return this.cap;
  }

  /**
   * Sets the number of rows to n and resets the problem: A = 0, b = 0, every row bilateral.
   * Storage grows (to at least twice the old capacity) only when n exceeds the capacity.
   */
  resize(n: number): this {
    if (!Number.isInteger(n) || n < 0) throw new Error(`LcpProblem.resize: n must be a non-negative integer, got ${n}`);
    if (n > this.cap) {
      const cap = Math.max(n, 2 * this.cap);
      this.A = new Float64Array(cap * cap);
      this.b = new Float64Array(cap);
      this.lo = new Float64Array(cap);
      this.hi = new Float64Array(cap);
      this.boundRow = new Int32Array(cap);
      this.cap = cap;
    }
    this.n = n;
    this.A.fill(0, 0, n * n);
    this.b.fill(0, 0, n);
    this.lo.fill(-Infinity, 0, n);
    this.hi.fill(Infinity, 0, n);
    this.boundRow.fill(-1, 0, n);
    return this;
  }

  /** Row i is bilateral: any force, measure driven to zero. */
  setBilateral(i: number): void {
    this.setBounds(i, -Infinity, Infinity);
  }

  /** Row i is unilateral: force >= 0, measure >= 0, complementary (contact normal, joint limit). */
  setUnilateral(i: number): void {
    this.setBounds(i, 0, Infinity);
  }

  /** Row i has constant bounds lo <= f_i <= hi (e.g. a motor with a force limit). */
  setBounds(i: number, lo: number, hi: number): void {
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.boundRow[i] = -1;
  }

  /** Row i is a friction row of the contact whose normal is row normalRow: -mu f_n <= f_i <= mu f_n. */
  setFriction(i: number, normalRow: number, mu: number): void {
    this.lo[i] = -mu;
    this.hi[i] = mu;
    this.boundRow[i] = normalRow;
  }

  /** Copies another problem into this one (growing if needed). */
  copyFrom(p: MixedLcp): this {
    const n = p.n;
    this.resize(n);
    this.A.set(p.A.subarray(0, n * n));
    this.b.set(p.b.subarray(0, n));
    this.lo.set(p.lo.subarray(0, n));
    this.hi.set(p.hi.subarray(0, n));
    this.boundRow.set(p.boundRow.subarray(0, n));
    return this;
  }
}
