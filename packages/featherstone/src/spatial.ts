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

/** out = I m for a 6x6 row-major matrix I (at io). */
export function mulMat6Vec(I: Arr, io: number, m: Arr, mo: number, out: Arr, oo: number): void {
  const m0 = m[mo], m1 = m[mo + 1], m2 = m[mo + 2], m3 = m[mo + 3], m4 = m[mo + 4], m5 = m[mo + 5];
  for (let r = 0; r < 6; r++) {
    const k = io + 6 * r;
    out[oo + r] = I[k] * m0 + I[k + 1] * m1 + I[k + 2] * m2 + I[k + 3] * m3 + I[k + 4] * m4 + I[k + 5] * m5;
  }
}

/**
 * out (+)= X^T I X for a symmetric spatial inertia I given in frame B, giving it in frame A.
 * With X = diag(E, E) [[1, 0], [-rx, 1]] and I rotated to A's orientation (Â = E^T A E, etc.):
 *   X^T I X = [[Â + rx B̂^T - (B̂ + rx Ĉ) rx,  B̂ + rx Ĉ], [B̂^T - Ĉ rx,  Ĉ]]   (cf. eq. 2.66)
 * `tmp` needs 36 numbers of scratch.
 */
export function congruenceInertia(X: Arr, xo: number, I: Arr, io: number, out: Arr, oo: number, accumulate: boolean, tmp: Arr): void {
  // tmp[0..8] = Â, tmp[9..17] = B̂, tmp[18..26] = Ĉ; tmp[27..35] scratch for E^T * block.
  rotateBlock(X, xo, I, io, 0, 0, tmp, 0, tmp);
  rotateBlock(X, xo, I, io, 0, 3, tmp, 9, tmp);
  rotateBlock(X, xo, I, io, 3, 3, tmp, 18, tmp);
  const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];
  // P = B̂ + rx Ĉ (3x3); rows of rx: [0,-rz,ry],[rz,0,-rx],[-ry,rx,0]
  for (let c = 0; c < 3; c++) {
    const c0 = tmp[18 + c], c1 = tmp[21 + c], c2 = tmp[24 + c];
    const P0 = tmp[9 + c] + (-rz * c1 + ry * c2);
    const P1 = tmp[12 + c] + (rz * c0 - rx * c2);
    const P2 = tmp[15 + c] + (-ry * c0 + rx * c1);
    tmp[27 + c] = P0; tmp[30 + c] = P1; tmp[33 + c] = P2;
  }
  // top-left = Â + rx B̂^T - P rx
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      // (rx B̂^T)_ij = sum_k rx_ik B̂_jk
      const rxB = rxRow(rx, ry, rz, i, 0) * tmp[9 + 3 * j] + rxRow(rx, ry, rz, i, 1) * tmp[9 + 3 * j + 1] + rxRow(rx, ry, rz, i, 2) * tmp[9 + 3 * j + 2];
      // (P rx)_ij = sum_k P_ik rx_kj
      const Prx = tmp[27 + 3 * i] * rxRow(rx, ry, rz, 0, j) + tmp[27 + 3 * i + 1] * rxRow(rx, ry, rz, 1, j) + tmp[27 + 3 * i + 2] * rxRow(rx, ry, rz, 2, j);
      const v = tmp[3 * i + j] + rxB - Prx;
      const k = oo + 6 * i + j;
      if (accumulate) out[k] += v; else out[k] = v;
    }
  }
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const tr = tmp[27 + 3 * i + j]; // top-right P
      const br = tmp[18 + 3 * i + j];
      const kTR = oo + 6 * i + 3 + j;
      const kBL = oo + 6 * (3 + j) + i; // bottom-left is the transpose of top-right (symmetry)
      const kBR = oo + 6 * (3 + i) + 3 + j;
      if (accumulate) {
        out[kTR] += tr; out[kBL] += tr; out[kBR] += br;
      } else {
        out[kTR] = tr; out[kBL] = tr; out[kBR] = br;
      }
    }
  }
}

function rxRow(rx: number, ry: number, rz: number, i: number, j: number): number {
  // skew(r)_ij
  if (i === j) return 0;
  if (i === 0) return j === 1 ? -rz : ry;
  if (i === 1) return j === 0 ? rz : -rx;
  return j === 0 ? -ry : rx;
}

/** Writes E^T M E into out[oo..oo+8] where M is the 3x3 block of I at (row0, col0). */
function rotateBlock(X: Arr, xo: number, I: Arr, io: number, row0: number, col0: number, out: Arr, oo: number, tmp: Arr): void {
  // T = M E  (stored in tmp[27..35]); then out = E^T T
  for (let i = 0; i < 3; i++) {
    const m0 = I[io + 6 * (row0 + i) + col0], m1 = I[io + 6 * (row0 + i) + col0 + 1], m2 = I[io + 6 * (row0 + i) + col0 + 2];
    for (let j = 0; j < 3; j++) tmp[27 + 3 * i + j] = m0 * X[xo + j] + m1 * X[xo + 3 + j] + m2 * X[xo + 6 + j];
  }
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      out[oo + 3 * i + j] = X[xo + i] * tmp[27 + j] + X[xo + 3 + i] * tmp[30 + j] + X[xo + 6 + i] * tmp[33 + j];
    }
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
export function quatToMat(q: ArrayLike<number>, qo: number, out: Arr, oo: number): void {
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
  const n = Math.hypot(x, y, z, w);
  out[oo] = x / n; out[oo + 1] = y / n; out[oo + 2] = z / n; out[oo + 3] = w / n;
}

/** Hamilton product out = a * b of quaternions [x, y, z, w]. out may alias a or b. */
export function quatMul(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Arr, oo: number): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[oo] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[oo + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}
