/**
 * Row orders and permutations of a mixed LCP.
 *
 * Gauss-Seidel converges faster when the rows that carry the structure (bilateral joint and pin
 * rows) are settled first, the one-sided rows (joint limits, contact normals, bounded motors) next,
 * and friction last: a friction row's box is mu times its normal force, so it should be visited
 * after that normal force has been updated in the same sweep.
 *
 * A permutation here is an Int32Array perm with perm[k] = the original index of the row at
 * position k.
 */
import { RowKind, rowKind, type LcpProblem, type MixedLcp } from './problem.js';

/** Priority of a row in the PGS order: 0 bilateral, 1 one-sided or bounded, 2 friction. */
export function pgsRowPriority(p: MixedLcp, i: number): number {
  const kind = rowKind(p, i);
  return kind === RowKind.Free ? 0 : kind === RowKind.Friction ? 2 : 1;
}

/**
 * Fills order[0..n) with the rows of p sorted by pgsRowPriority (stable: rows of equal priority keep
 * their relative order) and returns order. Allocation-free; pass it as PgsOptions.order.
 */
export function pgsRowOrder(p: MixedLcp, order: Int32Array): Int32Array {
  const n = p.n;
  if (order.length < n) throw new Error(`pgsRowOrder: order has ${order.length} entries, expected at least n = ${n}`);
  let k = 0;
  for (let priority = 0; priority <= 2; priority++) {
    for (let i = 0; i < n; i++) if (pgsRowPriority(p, i) === priority) order[k++] = i;
  }
  return order;
}

/** inverse[perm[k]] = k for k < n; returns inverse. Throws if perm[0..n) is not a permutation. */
export function invertPermutation(perm: Int32Array, n: number, inverse: Int32Array): Int32Array {
  if (perm.length < n || inverse.length < n) throw new Error(`invertPermutation: arrays need at least n = ${n} entries`);
  inverse.fill(-1, 0, n);
  for (let k = 0; k < n; k++) {
    const i = perm[k];
    if (i < 0 || i >= n || inverse[i] !== -1) {
      throw new Error(`invertPermutation: perm[${k}] = ${i} is out of range or repeated; expected a permutation of 0..${n - 1}`);
    }
    inverse[i] = k;
  }
  return inverse;
}

/**
 * dst = the rows and columns of src taken in the order perm (dst row k is src row perm[k]); friction
 * references are renumbered. `inverse` is scratch of n entries (filled with the inverse
 * permutation). dst must not be src.
 */
export function permuteMixedLcp(src: MixedLcp, perm: Int32Array, dst: LcpProblem, inverse: Int32Array): LcpProblem {
  if ((dst as MixedLcp) === src) throw new Error('permuteMixedLcp: dst must be a different problem from src');
  const n = src.n;
  invertPermutation(perm, n, inverse);
  dst.resize(n);
  for (let k = 0; k < n; k++) {
    const i = perm[k];
    for (let l = 0; l < n; l++) dst.A[k * n + l] = src.A[i * n + perm[l]];
    dst.b[k] = src.b[i];
    dst.lo[k] = src.lo[i];
    dst.hi[k] = src.hi[i];
    const r = src.boundRow[i];
    dst.boundRow[k] = r < 0 ? -1 : inverse[r];
  }
  return dst;
}

/** out[perm[k]] = x[k] for k < n: takes a vector from permuted back to original row order. */
export function scatterByPermutation(perm: Int32Array, n: number, x: Float64Array, out: Float64Array): Float64Array {
  for (let k = 0; k < n; k++) out[perm[k]] = x[k];
  return out;
}

/** out[k] = x[perm[k]] for k < n: takes a vector from original to permuted row order. */
export function gatherByPermutation(perm: Int32Array, n: number, x: Float64Array, out: Float64Array): Float64Array {
  for (let k = 0; k < n; k++) out[k] = x[perm[k]];
  return out;
}
