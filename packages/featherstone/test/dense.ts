/** Dense linear algebra for the oracles, by mathjs (independent of the code under test). */
import { lusolve, matrix, type Matrix } from 'mathjs';

/** Solves A x = b for a row-major n x n A. */
export function solveDense(A: ArrayLike<number>, b: ArrayLike<number>, n: number): Float64Array {
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) rows.push(Array.from({ length: n }, (_, j) => A[i * n + j]));
  const x = lusolve(matrix(rows), matrix(Array.from({ length: n }, (_, i) => [b[i]]))) as Matrix;
  return Float64Array.from((x.toArray() as number[][]).map((r) => r[0]));
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

/** max |a - b| / max(1, max |b|) */
export function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m / Math.max(1, maxAbs(b));
}
