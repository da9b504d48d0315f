/**
 * Cholesky factorisation and solve of small dense symmetric positive definite systems (row-major
 * n x n): mass matrices, constraint matrices of bilateral rows, impulse responses. O(n^3 / 6);
 * allocates nothing.
 */
import type { Arr } from './spatial.js';

/**
 * The lower-triangular factor L of A = L L^T, written into the lower triangle of L (L may be A
 * itself: A's lower triangle is read before it is overwritten). Returns -1, or the first row j
 * whose pivot is not in (minPivot, maxPivot] (L is then valid only above row j): minPivot > 0
 * refuses nearly singular matrices, maxPivot < Infinity refuses overflowed ones.
 */
export function choleskyFactor(A: ArrayLike<number>, n: number, L: Arr, minPivot = 0, maxPivot = Infinity): number {
  for (let j = 0; j < n; j++) {
    let d = A[j * n + j];
    for (let k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    if (!(d > minPivot && d <= maxPivot)) return j;
    const r = Math.sqrt(d);
    L[j * n + j] = r;
    for (let i = j + 1; i < n; i++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / r;
    }
  }
  return -1;
}

/** x = A^-1 b from the factor L of choleskyFactor (forward, then back substitution; x may be b). */
export function choleskySolve(L: ArrayLike<number>, n: number, b: ArrayLike<number>, x: Arr): void {
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
}
