/**
 * Spatial algebra on flat Float64Arrays, in the convention of Featherstone, "Rigid Body Dynamics
 * Algorithms" (2008), chapter 2:
 *
 * - a motion vector is [angular; linear] = [w; v], a force vector is [moment; force] = [n; f];
 *   their pairing is the plain dot product;
 * - a transform X from frame A to frame B is stored in short form (E, r), 12 numbers at an offset:
 *   E (3x3, row-major) rotates A coordinates into B coordinates, r is B's origin in A coordinates.
 *   Motion:  w_B = E w_A,            v_B = E (v_A - r x w_A)         (eq. 2.24)
 *   Force:   n_B = E (n_A - r x f_A), f_B = E f_A
 *   Force back from B to A (X^T):  f_A = E^T f_B, n_A = E^T n_B + r x f_A
 * - spatial inertias are 6x6 row-major (36 numbers) with blocks [[A, B], [B^T, C]].
 *
 * Every function writes into an output array at an offset and allocates nothing. Outputs may not
 * alias inputs unless a function says so.
 */

export type Arr = Float64Array;

/** out = X m: transform a motion vector m (at mo) by X (at xo). */
export function xformMotion(X: Arr, xo: number, m: Arr, mo: number, out: Arr, oo: number): void {
  const wx = m[mo], wy = m[mo + 1], wz = m[mo + 2];
  const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];
  // v - r x w
  const ux = m[mo + 3] - (ry * wz - rz * wy);
  const uy = m[mo + 4] - (rz * wx - rx * wz);
  const uz = m[mo + 5] - (rx * wy - ry * wx);
  out[oo] = X[xo] * wx + X[xo + 1] * wy + X[xo + 2] * wz;
  out[oo + 1] = X[xo + 3] * wx + X[xo + 4] * wy + X[xo + 5] * wz;
  out[oo + 2] = X[xo + 6] * wx + X[xo + 7] * wy + X[xo + 8] * wz;
  out[oo + 3] = X[xo] * ux + X[xo + 1] * uy + X[xo + 2] * uz;
  out[oo + 4] = X[xo + 3] * ux + X[xo + 4] * uy + X[xo + 5] * uz;
  out[oo + 5] = X[xo + 6] * ux + X[xo + 7] * uy + X[xo + 8] * uz;
}

/** out (+)= X^T f: carry a force from frame B back to frame A (child to parent). */
export function xformForceTransposed(X: Arr, xo: number, f: Arr, fo: number, out: Arr, oo: number, accumulate: boolean): void {
  const nx = f[fo], ny = f[fo + 1], nz = f[fo + 2];
  const gx = f[fo + 3], gy = f[fo + 4], gz = f[fo + 5];
  // E^T f and E^T n
  const Fx = X[xo] * gx + X[xo + 3] * gy + X[xo + 6] * gz;
  const Fy = X[xo + 1] * gx + X[xo + 4] * gy + X[xo + 7] * gz;
  const Fz = X[xo + 2] * gx + X[xo + 5] * gy + X[xo + 8] * gz;
  const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];
  const Nx = X[xo] * nx + X[xo + 3] * ny + X[xo + 6] * nz + (ry * Fz - rz * Fy);
  const Ny = X[xo + 1] * nx + X[xo + 4] * ny + X[xo + 7] * nz + (rz * Fx - rx * Fz);
  const Nz = X[xo + 2] * nx + X[xo + 5] * ny + X[xo + 8] * nz + (rx * Fy - ry * Fx);
  if (accumulate) {
    out[oo] += Nx; out[oo + 1] += Ny; out[oo + 2] += Nz;
    out[oo + 3] += Fx; out[oo + 4] += Fy; out[oo + 5] += Fz;
  } else {
    out[oo] = Nx; out[oo + 1] = Ny; out[oo + 2] = Nz;
    out[oo + 3] = Fx; out[oo + 4] = Fy; out[oo + 5] = Fz;
  }
}

/** out = X f: transform a force vector from frame A into frame B. */
export function xformForce(X: Arr, xo: number, f: Arr, fo: number, out: Arr, oo: number): void {
  const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];
  const gx = f[fo + 3], gy = f[fo + 4], gz = f[fo + 5];
  const mx = f[fo] - (ry * gz - rz * gy);
  const my = f[fo + 1] - (rz * gx - rx * gz);
  const mz = f[fo + 2] - (rx * gy - ry * gx);
  out[oo] = X[xo] * mx + X[xo + 1] * my + X[xo + 2] * mz;
  out[oo + 1] = X[xo + 3] * mx + X[xo + 4] * my + X[xo + 5] * mz;
  out[oo + 2] = X[xo + 6] * mx + X[xo + 7] * my + X[xo + 8] * mz;
  out[oo + 3] = X[xo] * gx + X[xo + 1] * gy + X[xo + 2] * gz;
  out[oo + 4] = X[xo + 3] * gx + X[xo + 4] * gy + X[xo + 5] * gz;
  out[oo + 5] = X[xo + 6] * gx + X[xo + 7] * gy + X[xo + 8] * gz;
}

/** out = a x_m b (motion cross motion), eq. 2.31: [wa x wb; wa x vb + va x wb]. */
export function crossMotion(a: Arr, ao: number, b: Arr, bo: number, out: Arr, oo: number): void {
  const wx = a[ao], wy = a[ao + 1], wz = a[ao + 2], vx = a[ao + 3], vy = a[ao + 4], vz = a[ao + 5];
  const px = b[bo], py = b[bo + 1], pz = b[bo + 2], qx = b[bo + 3], qy = b[bo + 4], qz = b[bo + 5];
  out[oo] = wy * pz - wz * py;
  out[oo + 1] = wz * px - wx * pz;
  out[oo + 2] = wx * py - wy * px;
  out[oo + 3] = wy * qz - wz * qy + (vy * pz - vz * py);
  out[oo + 4] = wz * qx - wx * qz + (vz * px - vx * pz);
  out[oo + 5] = wx * qy - wy * qx + (vx * py - vy * px);
}

/** out = a x* f (motion cross force), eq. 2.32: [wa x n + va x f; wa x f]. */
export function crossForce(a: Arr, ao: number, f: Arr, fo: number, out: Arr, oo: number): void {
  const wx = a[ao], wy = a[ao + 1], wz = a[ao + 2], vx = a[ao + 3], vy = a[ao + 4], vz = a[ao + 5];
  const nx = f[fo], ny = f[fo + 1], nz = f[fo + 2], gx = f[fo + 3], gy = f[fo + 4], gz = f[fo + 5];
  out[oo] = wy * nz - wz * ny + (vy * gz - vz * gy);
  out[oo + 1] = wz * nx - wx * nz + (vz * gx - vx * gz);
  out[oo + 2] = wx * ny - wy * nx + (vx * gy - vy * gx);
  out[oo + 3] = wy * gz - wz * gy;
  out[oo + 4] = wz * gx - wx * gz;
  out[oo + 5] = wx * gy - wy * gx;
}

/**
 * Moves the point a world spatial momentum h = [L; p] (at ho) is taken about, from the origin to c
 * (at co) when sign = -1 (L <- L - c x p), or back from c to the origin when sign = 1.
 */
export function shiftMomentum(h: Arr, ho: number, c: ArrayLike<number>, co: number, sign: 1 | -1): void {
  const cx = c[co], cy = c[co + 1], cz = c[co + 2], px = h[ho + 3], py = h[ho + 4], pz = h[ho + 5];
  h[ho] += sign * (cy * pz - cz * py);
  h[ho + 1] += sign * (cz * px - cx * pz);
  h[ho + 2] += sign * (cx * py - cy * px);
}

/** out = I m for a 6x6 row-major matrix I (at io). */
export function mulMat6Vec(I: Arr, io: number, m: Arr, mo: number, out: Arr, oo: number): void {
  const m0 = m[mo], m1 = m[mo + 1], m2 = m[mo + 2], m3 = m[mo + 3], m4 = m[mo + 4], m5 = m[mo + 5];
  for (let r = 0; r < 6; r++) {
    const k = io + 6 * r;
    out[oo + r] = I[k] * m0 + I[k + 1] * m1 + I[k + 2] * m2 + I[k + 3] * m3 + I[k + 4] * m4 + I[k + 5] * m5;
  }
}

/**
 * out (+)= X^T I X for a symmetric spatial inertia I given in frame B, giving it in frame A
 * (Featherstone 2008, eq. 2.66 and section 2.15). With I = [[A, B], [B^T, C]] and its blocks
 * first rotated to A's orientation (Â = E^T A E, B̂ = E^T B E, Ĉ = E^T C E), then moved by r:
 *   X^T I X = [[Â + rx B̂^T - P rx,  P], [P^T,  Ĉ]],   P = B̂ + rx Ĉ
 * (rx the cross-product matrix of r). Only the upper triangles of A and C and the block B are
 * read: I must be symmetric; the output is written whole and is exactly symmetric. `tmp` (36
 * numbers of scratch) is not used.
 */
export function congruenceInertia(X: Arr, xo: number, I: Arr, io: number, out: Arr, oo: number, accumulate: boolean, tmp: Arr): void {
  void tmp;
  const e00 = X[xo], e01 = X[xo + 1], e02 = X[xo + 2];
  const e10 = X[xo + 3], e11 = X[xo + 4], e12 = X[xo + 5];
  const e20 = X[xo + 6], e21 = X[xo + 7], e22 = X[xo + 8];
  const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];

  // Â = E^T A E (T = A E, then E^T T, upper triangle)
  let m00 = I[io], m01 = I[io + 1], m02 = I[io + 2], m11 = I[io + 7], m12 = I[io + 8], m22 = I[io + 14];
  let t00 = m00 * e00 + m01 * e10 + m02 * e20, t01 = m00 * e01 + m01 * e11 + m02 * e21, t02 = m00 * e02 + m01 * e12 + m02 * e22;
  let t10 = m01 * e00 + m11 * e10 + m12 * e20, t11 = m01 * e01 + m11 * e11 + m12 * e21, t12 = m01 * e02 + m11 * e12 + m12 * e22;
  let t20 = m02 * e00 + m12 * e10 + m22 * e20, t21 = m02 * e01 + m12 * e11 + m22 * e21, t22 = m02 * e02 + m12 * e12 + m22 * e22;
  const a00 = e00 * t00 + e10 * t10 + e20 * t20, a01 = e00 * t01 + e10 * t11 + e20 * t21, a02 = e00 * t02 + e10 * t12 + e20 * t22;
  const a11 = e01 * t01 + e11 * t11 + e21 * t21, a12 = e01 * t02 + e11 * t12 + e21 * t22;
  const a22 = e02 * t02 + e12 * t12 + e22 * t22;

  // Ĉ = E^T C E
  m00 = I[io + 21]; m01 = I[io + 22]; m02 = I[io + 23]; m11 = I[io + 28]; m12 = I[io + 29]; m22 = I[io + 35];
  t00 = m00 * e00 + m01 * e10 + m02 * e20; t01 = m00 * e01 + m01 * e11 + m02 * e21; t02 = m00 * e02 + m01 * e12 + m02 * e22;
  t10 = m01 * e00 + m11 * e10 + m12 * e20; t11 = m01 * e01 + m11 * e11 + m12 * e21; t12 = m01 * e02 + m11 * e12 + m12 * e22;
  t20 = m02 * e00 + m12 * e10 + m22 * e20; t21 = m02 * e01 + m12 * e11 + m22 * e21; t22 = m02 * e02 + m12 * e12 + m22 * e22;
  const c00 = e00 * t00 + e10 * t10 + e20 * t20, c01 = e00 * t01 + e10 * t11 + e20 * t21, c02 = e00 * t02 + e10 * t12 + e20 * t22;
  const c11 = e01 * t01 + e11 * t11 + e21 * t21, c12 = e01 * t02 + e11 * t12 + e21 * t22;
  const c22 = e02 * t02 + e12 * t12 + e22 * t22;

  // B̂ = E^T B E (full)
  const b00 = I[io + 3], b01 = I[io + 4], b02 = I[io + 5];
  const b10 = I[io + 9], b11 = I[io + 10], b12 = I[io + 11];
  const b20 = I[io + 15], b21 = I[io + 16], b22 = I[io + 17];
  t00 = b00 * e00 + b01 * e10 + b02 * e20; t01 = b00 * e01 + b01 * e11 + b02 * e21; t02 = b00 * e02 + b01 * e12 + b02 * e22;
  t10 = b10 * e00 + b11 * e10 + b12 * e20; t11 = b10 * e01 + b11 * e11 + b12 * e21; t12 = b10 * e02 + b11 * e12 + b12 * e22;
  t20 = b20 * e00 + b21 * e10 + b22 * e20; t21 = b20 * e01 + b21 * e11 + b22 * e21; t22 = b20 * e02 + b21 * e12 + b22 * e22;
  const B00 = e00 * t00 + e10 * t10 + e20 * t20, B01 = e00 * t01 + e10 * t11 + e20 * t21, B02 = e00 * t02 + e10 * t12 + e20 * t22;
  const B10 = e01 * t00 + e11 * t10 + e21 * t20, B11 = e01 * t01 + e11 * t11 + e21 * t21, B12 = e01 * t02 + e11 * t12 + e21 * t22;
  const B20 = e02 * t00 + e12 * t10 + e22 * t20, B21 = e02 * t01 + e12 * t11 + e22 * t21, B22 = e02 * t02 + e12 * t12 + e22 * t22;

  // P = B̂ + rx Ĉ; rows of rx: [0, -rz, ry], [rz, 0, -rx], [-ry, rx, 0]
  const P00 = B00 - rz * c01 + ry * c02, P01 = B01 - rz * c11 + ry * c12, P02 = B02 - rz * c12 + ry * c22;
  const P10 = B10 + rz * c00 - rx * c02, P11 = B11 + rz * c01 - rx * c12, P12 = B12 + rz * c02 - rx * c22;
  const P20 = B20 - ry * c00 + rx * c01, P21 = B21 - ry * c01 + rx * c11, P22 = B22 - ry * c02 + rx * c12;

  // top left = Â + rx B̂^T - P rx (symmetric): (rx B̂^T)_ij = rx_i . B̂_j (row i of rx, row j of B̂);
  // (P rx)_ij = P_i . column j of rx, columns of rx: [0, rz, -ry], [-rz, 0, rx], [ry, -rx, 0]
  const T00 = a00 + (-rz * B01 + ry * B02) - (rz * P01 - ry * P02);
  const T01 = a01 + (-rz * B11 + ry * B12) - (-rz * P00 + rx * P02);
  const T02 = a02 + (-rz * B21 + ry * B22) - (ry * P00 - rx * P01);
  const T11 = a11 + (rz * B10 - rx * B12) - (-rz * P10 + rx * P12);
  const T12 = a12 + (rz * B20 - rx * B22) - (ry * P10 - rx * P11);
  const T22 = a22 + (-ry * B20 + rx * B21) - (ry * P20 - rx * P21);

  if (accumulate) {
    out[oo] += T00; out[oo + 1] += T01; out[oo + 2] += T02; out[oo + 3] += P00; out[oo + 4] += P01; out[oo + 5] += P02;
    out[oo + 6] += T01; out[oo + 7] += T11; out[oo + 8] += T12; out[oo + 9] += P10; out[oo + 10] += P11; out[oo + 11] += P12;
    out[oo + 12] += T02; out[oo + 13] += T12; out[oo + 14] += T22; out[oo + 15] += P20; out[oo + 16] += P21; out[oo + 17] += P22;
    out[oo + 18] += P00; out[oo + 19] += P10; out[oo + 20] += P20; out[oo + 21] += c00; out[oo + 22] += c01; out[oo + 23] += c02;
    out[oo + 24] += P01; out[oo + 25] += P11; out[oo + 26] += P21; out[oo + 27] += c01; out[oo + 28] += c11; out[oo + 29] += c12;
    out[oo + 30] += P02; out[oo + 31] += P12; out[oo + 32] += P22; out[oo + 33] += c02; out[oo + 34] += c12; out[oo + 35] += c22;
  } else {
    out[oo] = T00; out[oo + 1] = T01; out[oo + 2] = T02; out[oo + 3] = P00; out[oo + 4] = P01; out[oo + 5] = P02;
    out[oo + 6] = T01; out[oo + 7] = T11; out[oo + 8] = T12; out[oo + 9] = P10; out[oo + 10] = P11; out[oo + 11] = P12;
    out[oo + 12] = T02; out[oo + 13] = T12; out[oo + 14] = T22; out[oo + 15] = P20; out[oo + 16] = P21; out[oo + 17] = P22;
    out[oo + 18] = P00; out[oo + 19] = P10; out[oo + 20] = P20; out[oo + 21] = c00; out[oo + 22] = c01; out[oo + 23] = c02;
    out[oo + 24] = P01; out[oo + 25] = P11; out[oo + 26] = P21; out[oo + 27] = c01; out[oo + 28] = c11; out[oo + 29] = c12;
    out[oo + 30] = P02; out[oo + 31] = P12; out[oo + 32] = P22; out[oo + 33] = c02; out[oo + 34] = c12; out[oo + 35] = c22;
  }
}

/**
 * Spatial inertia at a link's origin of a rigid body with mass m, centre of mass c and rotational
 * inertia Ic about the centre of mass (eq. 2.63): [[Ic + m cx cx^T, m cx], [m cx^T, m 1]].
 * Ic is given as [Ixx, Iyy, Izz, Ixy, Ixz, Iyz].
 */
export function rigidBodyInertia(m: number, cx: number, cy: number, cz: number, Ic: ArrayLike<number>, out: Arr, oo: number): void {
  const Ixx = Ic[0], Iyy = Ic[1], Izz = Ic[2], Ixy = Ic[3], Ixz = Ic[4], Iyz = Ic[5];
  // cx cx^T = c c^T - |c|^2 1  => Ic + m cx cx^T = Ic + m (|c|^2 1 - c c^T)
  const c2 = cx * cx + cy * cy + cz * cz;
  const A = [
    Ixx + m * (c2 - cx * cx), Ixy - m * cx * cy, Ixz - m * cx * cz,
    Ixy - m * cx * cy, Iyy + m * (c2 - cy * cy), Iyz - m * cy * cz,
    Ixz - m * cx * cz, Iyz - m * cy * cz, Izz + m * (c2 - cz * cz),
  ];
  // m cx (skew of c)
  const B = [0, -m * cz, m * cy, m * cz, 0, -m * cx, -m * cy, m * cx, 0];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      out[oo + 6 * i + j] = A[3 * i + j];
      out[oo + 6 * i + 3 + j] = B[3 * i + j];
      out[oo + 6 * (3 + i) + j] = B[3 * j + i]; // (m cx)^T
      out[oo + 6 * (3 + i) + 3 + j] = i === j ? m : 0;
    }
  }
}

/** Rotation matrix (row-major, maps local to parent) of a unit quaternion [x, y, z, w] at qo. */
export function quatToMat(q: ArrayLike<number>, qo: number, out: Arr | number[], oo: number): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[oo] = 1 - 2 * (yy + zz); out[oo + 1] = 2 * (xy - wz); out[oo + 2] = 2 * (xz + wy);
  out[oo + 3] = 2 * (xy + wz); out[oo + 4] = 1 - 2 * (xx + zz); out[oo + 5] = 2 * (yz - wx);
  out[oo + 6] = 2 * (xz - wy); out[oo + 7] = 2 * (yz + wx); out[oo + 8] = 1 - 2 * (xx + yy);
}

/** Unit quaternion [x, y, z, w] of a row-major rotation matrix (Shepperd's method). */
export function matToQuat(m: ArrayLike<number>, mo: number, out: Arr, oo: number): void {
  const m00 = m[mo], m01 = m[mo + 1], m02 = m[mo + 2];
  const m10 = m[mo + 3], m11 = m[mo + 4], m12 = m[mo + 5];
  const m20 = m[mo + 6], m21 = m[mo + 7], m22 = m[mo + 8];
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  out[oo] = x / n; out[oo + 1] = y / n; out[oo + 2] = z / n; out[oo + 3] = w / n;
}

/** Hamilton product out = a * b of quaternions [x, y, z, w]. out may alias a or b. */
export function quatMul(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Arr | number[], oo: number): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[oo] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[oo + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}
