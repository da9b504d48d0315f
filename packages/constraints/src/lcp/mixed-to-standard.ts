/**
 * Exact reformulation of the mixed LCP (problem.ts) as a standard LCP w = M z + q, w, z >= 0,
 * w'z = 0, so that Lemke's method (lemke.ts) can serve as a reference solver for it.
 *
 * Every force is an affine function of the new variables, f = c + T z, so the measures are
 * a = A T z + (A c + b). Each row i of the mixed problem contributes variables and complementarity
 * rows as follows (a_i always means that affine expression):
 *
 * - Free (bilateral), f_i = p - m (split, Cline 2.7.2 solves for them instead; the split also
 *   works when the free block of A is singular):
 *       w_p =  a_i >= 0  _|_  p >= 0,
 *       w_m = -a_i >= 0  _|_  m >= 0,           which together give a_i = 0.
 * - Lower bound only, f_i = lo + s:       w_s =  a_i >= 0  _|_  s >= 0.
 * - Upper bound only, f_i = hi - s:       w_s = -a_i >= 0  _|_  s >= 0.
 * - Box lo < hi, f_i = lo + s, with a multiplier u of the upper bound:
 *       w_s = a_i + u >= 0        _|_  s >= 0,
 *       w_u = (hi - lo) - s >= 0  _|_  u >= 0.
 *   (s interior: u = 0 and a_i = 0; s = 0: a_i >= 0; s = hi - lo: a_i = -u <= 0.)
 * - Fixed lo = hi: f_i = lo, no variable (its measure is unconstrained).
 * - Friction, bounds lo*f_n <= f_i <= hi*f_n with f_n = f_r the normal force (itself affine in z),
 *   f_i = p - m. When lo = -hi (Coulomb, Kokkevis eqs. 19-21 with both directions, the
 *   Anitescu-Potra form of Cline 2.7.3) one slack lambda serves both directions:
 *       w_p = a_i + lambda >= 0          _|_  p >= 0,
 *       w_m = -a_i + lambda >= 0         _|_  m >= 0,
 *       w_l = hi f_n - p - m >= 0        _|_  lambda >= 0.
 *   (lambda > 0 forces p + m = hi f_n and one of p, m to zero, so f_i is at a bound with a_i of the
 *   opposing sign; lambda = 0 forces a_i = 0 with |f_i| <= p + m <= hi f_n.)
 *   For asymmetric coefficients each direction has its own slack:
 *       w_p = a_i + sigma >= 0  _|_  p,     w_sigma = hi f_n - p >= 0   _|_  sigma,
 *       w_m = -a_i + tau >= 0   _|_  m,     w_tau   = -lo f_n - m >= 0  _|_  tau.
 *   With lo = hi = 0 the row is fixed at zero.
 * In every case the cross terms of a multiplier and its bound cancel in z'Mz, leaving
 * z'Mz = (Tz)'A(Tz) + (friction slacks) * mu * (normal force) >= 0 for z >= 0: M is copositive when
 * A is positive semidefinite. This is the structure for which Anitescu and Potra (1997) show that
 * Lemke's method ends with a solution of the friction problem (Cline 2.7.3).
 *
 * Solutions map back by f = c + T z; every solution of the standard LCP gives a solution of the
 * mixed one and conversely.
 */
import { RowKind, rowKind, validateMixedLcp, type MixedLcp } from './problem.js';

/** A standard LCP built from a mixed one, with the affine map back to the mixed forces. */
export interface StandardLcpForm {
  /** Number of standard variables. */
  m: number;
  /** m x m row-major. */
  M: Float64Array;
  q: Float64Array;
  /** f = forceOffset + forceMap z; forceMap is n x m row-major. */
  forceOffset: Float64Array;
  forceMap: Float64Array;
}

/** Builds the standard LCP equivalent to the mixed LCP p (equations in the module comment). */
export function mixedToStandardLcp(p: MixedLcp): StandardLcpForm {
  validateMixedLcp(p);
  const n = p.n;

  // Variable layout: first the force variables of each row, then the multipliers.
  const first = new Int32Array(n).fill(-1); // first force variable of row i
  const second = new Int32Array(n).fill(-1); // second force variable (p - m split)
  const multiplierA = new Int32Array(n).fill(-1); // u, lambda or sigma
  const multiplierB = new Int32Array(n).fill(-1); // tau
  const kind = new Int32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    let k: number = rowKind(p, i);
    if (k === RowKind.Friction && p.lo[i] === 0 && p.hi[i] === 0) k = RowKind.Fixed;
    kind[i] = k;
    if (k === RowKind.Free || k === RowKind.Friction) {
      first[i] = m++;
      second[i] = m++;
    } else if (k !== RowKind.Fixed) {
      first[i] = m++;
    }
  }
  for (let i = 0; i < n; i++) {
    if (kind[i] === RowKind.Box) multiplierA[i] = m++;
    else if (kind[i] === RowKind.Friction) {
      multiplierA[i] = m++;
      if (p.lo[i] !== -p.hi[i]) multiplierB[i] = m++;
    }
  }

  // f = c + T z.
  const c = new Float64Array(n);
  const T = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    switch (kind[i]) {
      case RowKind.Free:
      case RowKind.Friction:
        T[i * m + first[i]] = 1;
        T[i * m + second[i]] = -1;
        break;
      case RowKind.Lower:
      case RowKind.Box:
        c[i] = p.lo[i];
        T[i * m + first[i]] = 1;
        break;
      case RowKind.Upper:
        c[i] = p.hi[i];
        T[i * m + first[i]] = -1;
        break;
      case RowKind.Fixed:
        // Friction rows with lo = hi = 0 keep c = 0; constant fixed rows sit at lo.
        c[i] = p.boundRow[i] >= 0 ? 0 : p.lo[i];
        break;
    }
  }

  // a = AT z + ac.
  const AT = new Float64Array(n * m);
  const ac = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = p.b[i];
    for (let j = 0; j < n; j++) s += p.A[i * n + j] * c[j];
    ac[i] = s;
    for (let j = 0; j < n; j++) {
      const aij = p.A[i * n + j];
      if (aij === 0) continue;
      for (let k = 0; k < m; k++) AT[i * m + k] += aij * T[j * m + k];
    }
  }

  const M = new Float64Array(m * m);
  const q = new Float64Array(m);
  /** Row k of the standard LCP += sign * a_i. */
  const addMeasure = (k: number, i: number, sign: number): void => {
    for (let l = 0; l < m; l++) M[k * m + l] += sign * AT[i * m + l];
    q[k] += sign * ac[i];
  };
  /** Row k += coefficient * f_r (f_r affine in z). */
  const addForce = (k: number, r: number, coefficient: number): void => {
    for (let l = 0; l < m; l++) M[k * m + l] += coefficient * T[r * m + l];
    q[k] += coefficient * c[r];
  };

  for (let i = 0; i < n; i++) {
    const s = first[i];
    switch (kind[i]) {
      case RowKind.Free:
        addMeasure(s, i, 1);
        addMeasure(second[i], i, -1);
        break;
      case RowKind.Lower:
        addMeasure(s, i, 1);
        break;
      case RowKind.Upper:
        addMeasure(s, i, -1);
        break;
      case RowKind.Box: {
        const u = multiplierA[i];
        addMeasure(s, i, 1);
        M[s * m + u] += 1;
        q[u] += p.hi[i] - p.lo[i];
        M[u * m + s] -= 1;
        break;
      }
      case RowKind.Friction: {
        const plus = s;
        const minus = second[i];
        const r = p.boundRow[i];
        const sigma = multiplierA[i];
        const tau = multiplierB[i] >= 0 ? multiplierB[i] : sigma;
        addMeasure(plus, i, 1);
        M[plus * m + sigma] += 1;
        addMeasure(minus, i, -1);
        M[minus * m + tau] += 1;
        if (tau === sigma) {
          // hi f_n - p - m
          addForce(sigma, r, p.hi[i]);
          M[sigma * m + plus] -= 1;
          M[sigma * m + minus] -= 1;
        } else {
          // hi f_n - p, -lo f_n - m
          addForce(sigma, r, p.hi[i]);
          M[sigma * m + plus] -= 1;
          addForce(tau, r, -p.lo[i]);
          M[tau * m + minus] -= 1;
        }
        break;
      }
    }
  }
  return { m, M, q, forceOffset: c, forceMap: T };
}

/** f = forceOffset + forceMap z (first n entries of f). */
export function forcesFromStandardSolution(form: StandardLcpForm, n: number, z: Float64Array, f: Float64Array): Float64Array {
  const m = form.m;
  for (let i = 0; i < n; i++) {
    let s = form.forceOffset[i];
    for (let k = 0; k < m; k++) s += form.forceMap[i * m + k] * z[k];
    f[i] = s;
  }
  return f;
}
