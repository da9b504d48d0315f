/**
 * choleskyFactor / choleskySolve against the defining identities: L L^T = A and A x = b for random
 * symmetric positive definite matrices (A = B B^T + I), and the index of the first bad pivot for a
 * singular matrix and one with an overflowed entry.
 */
import { describe, expect, it } from 'vitest';
import { choleskyFactor, choleskySolve } from '../src/index.js';
import { rng } from './random-model.js';

describe('Cholesky', () => {
  it('factors random SPD matrices (L L^T = A to 1e-12) and solves A x = b (to 1e-10), in place too', () => {
    const r = rng(11);
    for (let t = 0; t < 50; t++) {
      const n = 1 + Math.floor(r() * 12);
      const B = Float64Array.from({ length: n * n }, () => r() * 2 - 1);
      const A = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        let s = i === j ? 1 : 0;
        for (let k = 0; k < n; k++) s += B[i * n + k] * B[j * n + k];
        A[i * n + j] = s;
      }
      const L = new Float64Array(n * n);
      expect(choleskyFactor(A, n, L)).toBe(-1);
      for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let k = 0; k <= j; k++) s += L[i * n + k] * L[j * n + k];
        expect(Math.abs(s - A[i * n + j])).toBeLessThan(1e-12 * (1 + Math.abs(A[i * n + j])));
      }
      const b = Float64Array.from({ length: n }, () => r() * 2 - 1);
      const x = new Float64Array(n);
      choleskySolve(L, n, b, x);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += A[i * n + k] * x[k];
        expect(Math.abs(s - b[i])).toBeLessThan(1e-10);
      }
      // in place: the factor over A, the solution over b
      const A2 = Float64Array.from(A), b2 = Float64Array.from(b);
      expect(choleskyFactor(A2, n, A2)).toBe(-1);
      choleskySolve(A2, n, b2, b2);
      for (let i = 0; i < n; i++) expect(b2[i]).toBe(x[i]);
    }
  });

  it('returns the first row whose pivot is out of range', () => {
    // rows 0 and 1 equal: the second pivot is 0
    const S = Float64Array.of(1, 1, 0, 1, 1, 0, 0, 0, 1);
    expect(choleskyFactor(S, 3, new Float64Array(9))).toBe(1);
    // nearly singular: refused by a relative floor
    const N = Float64Array.of(1, 1, 1, 1 + 1e-14);
    expect(choleskyFactor(N, 2, new Float64Array(4))).toBe(-1);
    expect(choleskyFactor(N, 2, new Float64Array(4), 1e-12)).toBe(1);
    // an overflowed diagonal: refused only with a finite ceiling
    const O = Float64Array.of(1, 0, 0, Infinity);
    expect(choleskyFactor(O, 2, new Float64Array(4))).toBe(-1);
    expect(choleskyFactor(O, 2, new Float64Array(4), 0, Number.MAX_VALUE)).toBe(1);
  });
});
