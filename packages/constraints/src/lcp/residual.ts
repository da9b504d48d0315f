/**
 * Bounds, measures and the residual of a mixed LCP (problem.ts).
 *
 * Residual. With s_i > 0 a per-row scale, the natural map
 *
 *   r_i(f) = s_i * ( f_i - mid(L_i, U_i, f_i - a_i / s_i) ),   a = A f + b,
 *
 * is zero for every i exactly when f solves the mixed LCP (f_i is its own projection on the box
 * after a step against the measure: the natural-map form of a box-constrained complementarity
 * problem). We take
 * s_i = A_ii, so r_i is in the units of the measure (an acceleration, a velocity) and reads:
 *   - a row strictly inside its bounds: r_i = a_i;
 *   - a row at a bound with a wrong-signed measure: r_i = that measure, capped by s_i times the
 *     width of the box (a push the bound cannot absorb);
 *   - a force outside its bounds: r_i >= s_i times the violation.
 * r_i is also the change one unrelaxed projected Gauss-Seidel update would make to f_i, times A_ii.
 * A row whose diagonal is not above diagonalEpsilon * max_j A_jj (a row no force can move) is
 * scaled by max_j A_jj instead (1 when every diagonal is zero), so its residual still reads
 * |a_i| when its force is free and is not hidden by a vanishing scale.
 * The residual of the problem is max_i |r_i|.
 */
import type { MixedLcp } from './problem.js';

/** Rows whose diagonal is at most this times the largest diagonal count as having no self-effect. */
export const DEFAULT_DIAGONAL_EPSILON = 1e-12;

/** mid(lo, hi, x) = max(lo, min(hi, x)): x projected on [lo, hi]. */
export function clampToBounds(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** L_i at forces f (friction rows scale by the force of their normal row). */
export function lowerBound(p: MixedLcp, f: Float64Array, i: number): number {
  const r = p.boundRow[i];
  return r < 0 ? p.lo[i] : p.lo[i] * f[r];
}

/** U_i at forces f. */
export function upperBound(p: MixedLcp, f: Float64Array, i: number): number {
  const r = p.boundRow[i];
  return r < 0 ? p.hi[i] : p.hi[i] * f[r];
}

/** a = A f + b for the first n entries of a; returns a. */
export function computeMeasures(p: MixedLcp, f: Float64Array, a: Float64Array): Float64Array {
  const n = p.n;
  const A = p.A;
  for (let i = 0; i < n; i++) {
    let s = p.b[i];
    const row = i * n;
    for (let j = 0; j < n; j++) s += A[row + j] * f[j];
    a[i] = s;
  }
  return a;
}

/** The largest diagonal entry of A (0 for an empty problem). */
export function maxDiagonal(p: MixedLcp): number {
  const n = p.n;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const d = p.A[i * n + i];
    if (d > m) m = d;
  }
  return m;
}

/** The scale s_i of row i in the residual: A_ii, or the largest diagonal when A_ii is negligible. */
export function residualScale(p: MixedLcp, i: number, maxDiag: number, diagonalEpsilon: number): number {
  const d = p.A[i * p.n + i];
  if (d > diagonalEpsilon * maxDiag && d > 0) return d;
  return maxDiag > 0 ? maxDiag : 1;
}

/** |r_i| for row i, given the measures a = A f + b and the row's scale s. */
export function rowResidual(p: MixedLcp, f: Float64Array, a: Float64Array, i: number, s: number): number {
  const fi = f[i];
  const projected = clampToBounds(fi - a[i] / s, lowerBound(p, f, i), upperBound(p, f, i));
  return Math.abs(s * (fi - projected));
}

/** max_i |r_i(f)|, the natural-map residual described above, given a = A f + b. */
export function naturalMapResidual(
  p: MixedLcp,
  f: Float64Array,
  a: Float64Array,
  diagonalEpsilon: number = DEFAULT_DIAGONAL_EPSILON,
): number {
  const out = new Float64Array(1);
  naturalMapResidualInto(p, f, a, out, diagonalEpsilon);
  return out[0];
}

/**
 * naturalMapResidual into out[0], allocating nothing: for a solver's loop (a number returned by a
 * call that is not inlined is boxed on the heap), its rows' scales and residuals written out here
 * as residualScale and rowResidual give them.
 */
export function naturalMapResidualInto(
  p: MixedLcp,
  f: Float64Array,
  a: Float64Array,
  out: Float64Array,
  diagonalEpsilon: number = DEFAULT_DIAGONAL_EPSILON,
): void {
  const n = p.n, A = p.A, lo = p.lo, hi = p.hi, boundRow = p.boundRow;
  let maxDiag = 0;
  for (let i = 0; i < n; i++) { const d = A[i * n + i]; if (d > maxDiag) maxDiag = d; }
  const floor = diagonalEpsilon * maxDiag, fallback = maxDiag > 0 ? maxDiag : 1;
  let worst = 0, notFinite = false;
  for (let i = 0; i < n; i++) {
    const d = A[i * n + i], s = d > floor && d > 0 ? d : fallback;
    const r = boundRow[i], L = r < 0 ? lo[i] : lo[i] * f[r], U = r < 0 ? hi[i] : hi[i] * f[r];
    const fi = f[i];
    let x = fi - a[i] / s;
    if (x < L) x = L; else if (x > U) x = U;
    const e = s * (fi - x), res = e < 0 ? -e : e;
    if (res > worst) worst = res;
    // A non-finite state never reads as converged.
    else if (res !== res) { notFinite = true; break; }
  }
  out[0] = worst;
  if (notFinite) out[0] = NaN;
}
