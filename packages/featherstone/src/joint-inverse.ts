/**
 * D^-1 of a joint in the articulated-body algorithm, D = S^T I^A S + armature (Featherstone 2008
 * table 7.1, line "D_i = S_i^T U_i"; the Kokkevis paper's d): a scalar for 1-dof joints, a 3x3
 * closed form for spherical joints, 3x3 blocks for free joints, Gauss-Jordan elimination otherwise. D is symmetric positive
 * definite for a subtree with mass; a singular or non-finite D is reported naming the joint.
 */
import type { Model } from './model.js';
import type { Arr } from './spatial.js';

/**
 * Inverts the symmetric 3x3 matrix M[mo..mo+8] (row-major; its upper triangle is read) by its
 * adjugate into out[oo..oo+8]. Throws naming the joint when it is not positive definite.
 * (Entries are read here, not passed: numbers passed to a call that is not inlined are boxed.)
 */
export function invertSym3(M: Arr, mo: number, out: Arr, oo: number, model: Model, link: number): void {
  const a = M[mo], b = M[mo + 1], c = M[mo + 2], d = M[mo + 4], e = M[mo + 5], f = M[mo + 8];
  const A00 = d * f - e * e, A01 = c * e - b * f, A02 = b * e - c * d, A22 = a * d - b * b;
  const det = a * A00 + b * A01 + c * A02;
  // Sylvester's criterion: leading minors a, ad - b^2, det all positive
  if (!(a > 0 && A22 > 0 && det > 0) || !(det - det === 0)) throw singularJoint(model, link, det);
  const s = 1 / det;
  const i01 = A01 * s, i02 = A02 * s, i12 = (b * c - a * e) * s;
  out[oo] = A00 * s; out[oo + 1] = i01; out[oo + 2] = i02;
  out[oo + 3] = i01; out[oo + 4] = (a * f - c * c) * s; out[oo + 5] = i12;
  out[oo + 6] = i02; out[oo + 7] = i12; out[oo + 8] = A22 * s;
}

/**
 * Inverts the symmetric positive definite 6x6 matrix M[mo..mo+35] = [[A, B], [B^T, C]] (row-major;
 * the upper triangles of A and C and the block B are read) into out[oo..oo+35] by its 3x3 blocks
 * (the Schur complement of C): with K = B C^-1 and S = A - K B^T,
 *   M^-1 = [[S^-1, -S^-1 K], [-K^T S^-1, C^-1 + K^T S^-1 K]].
 * M is positive definite exactly when C and S are. Throws naming the joint otherwise.
 */
export function invertSpd6(M: Arr, mo: number, out: Arr, oo: number, model: Model, link: number): void {
  // C^-1 by its adjugate
  const ca = M[mo + 21], cb = M[mo + 22], cc = M[mo + 23], cd = M[mo + 28], ce = M[mo + 29], cf = M[mo + 35];
  const C00 = cd * cf - ce * ce, C01 = cc * ce - cb * cf, C02 = cb * ce - cc * cd, C22 = ca * cd - cb * cb;
  const cdet = ca * C00 + cb * C01 + cc * C02;
  if (!(ca > 0 && C22 > 0 && cdet > 0) || !(cdet - cdet === 0)) throw singularJoint(model, link, cdet);
  const cs = 1 / cdet;
  const i00 = C00 * cs, i01 = C01 * cs, i02 = C02 * cs, i11 = (ca * cf - cc * cc) * cs, i12 = (cb * cc - ca * ce) * cs, i22 = C22 * cs;
  // K = B C^-1
  const b00 = M[mo + 3], b01 = M[mo + 4], b02 = M[mo + 5];
  const b10 = M[mo + 9], b11 = M[mo + 10], b12 = M[mo + 11];
  const b20 = M[mo + 15], b21 = M[mo + 16], b22 = M[mo + 17];
  const k00 = b00 * i00 + b01 * i01 + b02 * i02, k01 = b00 * i01 + b01 * i11 + b02 * i12, k02 = b00 * i02 + b01 * i12 + b02 * i22;
  const k10 = b10 * i00 + b11 * i01 + b12 * i02, k11 = b10 * i01 + b11 * i11 + b12 * i12, k12 = b10 * i02 + b11 * i12 + b12 * i22;
  const k20 = b20 * i00 + b21 * i01 + b22 * i02, k21 = b20 * i01 + b21 * i11 + b22 * i12, k22 = b20 * i02 + b21 * i12 + b22 * i22;
  // S = A - K B^T (symmetric), then S^-1
  const sa = M[mo] - (k00 * b00 + k01 * b01 + k02 * b02);
  const sb = M[mo + 1] - (k00 * b10 + k01 * b11 + k02 * b12);
  const sc = M[mo + 2] - (k00 * b20 + k01 * b21 + k02 * b22);
  const sd = M[mo + 7] - (k10 * b10 + k11 * b11 + k12 * b12);
  const se = M[mo + 8] - (k10 * b20 + k11 * b21 + k12 * b22);
  const sf = M[mo + 14] - (k20 * b20 + k21 * b21 + k22 * b22);
  const S00 = sd * sf - se * se, S01 = sc * se - sb * sf, S02 = sb * se - sc * sd, S22 = sa * sd - sb * sb;
  const sdet = sa * S00 + sb * S01 + sc * S02;
  if (!(sa > 0 && S22 > 0 && sdet > 0) || !(sdet - sdet === 0)) throw singularJoint(model, link, sdet);
  const ss = 1 / sdet;
  const s00 = S00 * ss, s01 = S01 * ss, s02 = S02 * ss, s11 = (sa * sf - sc * sc) * ss, s12 = (sb * sc - sa * se) * ss, s22 = S22 * ss;
  // top right R = -S^-1 K
  const r00 = -(s00 * k00 + s01 * k10 + s02 * k20), r01 = -(s00 * k01 + s01 * k11 + s02 * k21), r02 = -(s00 * k02 + s01 * k12 + s02 * k22);
  const r10 = -(s01 * k00 + s11 * k10 + s12 * k20), r11 = -(s01 * k01 + s11 * k11 + s12 * k21), r12 = -(s01 * k02 + s11 * k12 + s12 * k22);
  const r20 = -(s02 * k00 + s12 * k10 + s22 * k20), r21 = -(s02 * k01 + s12 * k11 + s22 * k21), r22 = -(s02 * k02 + s12 * k12 + s22 * k22);
  // bottom right C^-1 + K^T S^-1 K = C^-1 - K^T R (symmetric)
  const q00 = i00 - (k00 * r00 + k10 * r10 + k20 * r20), q01 = i01 - (k00 * r01 + k10 * r11 + k20 * r21), q02 = i02 - (k00 * r02 + k10 * r12 + k20 * r22);
  const q11 = i11 - (k01 * r01 + k11 * r11 + k21 * r21), q12 = i12 - (k01 * r02 + k11 * r12 + k21 * r22);
  const q22 = i22 - (k02 * r02 + k12 * r12 + k22 * r22);
  out[oo] = s00; out[oo + 1] = s01; out[oo + 2] = s02; out[oo + 3] = r00; out[oo + 4] = r01; out[oo + 5] = r02;
  out[oo + 6] = s01; out[oo + 7] = s11; out[oo + 8] = s12; out[oo + 9] = r10; out[oo + 10] = r11; out[oo + 11] = r12;
  out[oo + 12] = s02; out[oo + 13] = s12; out[oo + 14] = s22; out[oo + 15] = r20; out[oo + 16] = r21; out[oo + 17] = r22;
  out[oo + 18] = r00; out[oo + 19] = r10; out[oo + 20] = r20; out[oo + 21] = q00; out[oo + 22] = q01; out[oo + 23] = q02;
  out[oo + 24] = r01; out[oo + 25] = r11; out[oo + 26] = r21; out[oo + 27] = q01; out[oo + 28] = q11; out[oo + 29] = q12;
  out[oo + 30] = r02; out[oo + 31] = r12; out[oo + 32] = r22; out[oo + 33] = q02; out[oo + 34] = q12; out[oo + 35] = q22;
}

/**
 * Inverts the symmetric positive definite n x n matrix in A[0..n*n) (row-major) into out[oo..],
 * by Gauss-Jordan elimination with partial pivoting (n <= 6). A is destroyed; `scratch` needs n*n
 * numbers. Throws when the joint's articulated inertia is singular (a massless subtree).
 */
export function invertSmall(A: Arr, n: number, out: Arr, oo: number, scratch: Arr, link: number, model: Model): void {
  if (n === 0) return;
  if (n === 1) {
    if (!(A[0] > 0) || !(A[0] - A[0] === 0)) throw singularJoint(model, link, A[0]);
    out[oo] = 1 / A[0];
    return;
  }
  // augmented identity in scratch[0..n*n)
  const I = scratch;
  for (let r = 0; r < n; r++) for (let k = 0; k < n; k++) I[n * r + k] = r === k ? 1 : 0;
  for (let col = 0; col < n; col++) {
    let piv = col, best = Math.abs(A[n * col + col]);
    for (let r = col + 1; r < n; r++) {
      const m = Math.abs(A[n * r + col]);
      if (m > best) { best = m; piv = r; }
    }
    if (!(best > 0) || !(best - best === 0)) throw singularJoint(model, link, best);
    if (piv !== col) {
      for (let k = 0; k < n; k++) {
        let t = A[n * col + k]; A[n * col + k] = A[n * piv + k]; A[n * piv + k] = t;
        t = I[n * col + k]; I[n * col + k] = I[n * piv + k]; I[n * piv + k] = t;
      }
    }
    const d = 1 / A[n * col + col];
    for (let k = 0; k < n; k++) { A[n * col + k] *= d; I[n * col + k] *= d; }
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = A[n * r + col];
      if (f === 0) continue;
      for (let k = 0; k < n; k++) { A[n * r + k] -= f * A[n * col + k]; I[n * r + k] -= f * I[n * col + k]; }
    }
  }
  for (let k = 0; k < n * n; k++) out[oo + k] = I[k];
}

export function singularJoint(model: Model, link: number, pivot: number): Error {
  return new Error(`forwardDynamics: the articulated inertia of joint "${model.jointNames[link]}" is singular or not finite (pivot ${pivot}); check the masses and inertias of its subtree and the state`);
}
