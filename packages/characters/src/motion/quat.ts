/**
 * Quaternion and rotation helpers on flat float64 arrays with offsets. Quaternions are
 * [x, y, z, w]; q rotates vectors by v' = q v q*. The product a * b applies b first, then a.
 * Rotation matrices are 3x3 row-major (R[3 * row + col]), mapping local to parent coordinates.
 */

import { detMath } from '@sinew/featherstone';
export type Out = Float64Array | number[];

/** out = a * b (Hamilton product), and the row-major rotation matrix of a unit quaternion: featherstone's own. out may alias a or b. */
export { quatMul as quatMultiply, quatToMat as quatToMatrix } from '@sinew/featherstone';

/** out = conj(a) * b: the rotation b seen from a's frame. out may alias a or b. */
export function quatConjMultiply(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Out, oo: number): void {
  const ax = -a[ao], ay = -a[ao + 1], az = -a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[oo] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[oo + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** Normalises in place; returns the norm before normalisation (0 leaves the identity). */
export function quatNormalize(q: Out, o: number): number {
  const n = Math.sqrt(q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3]);
  if (!(n > 0) || !Number.isFinite(n)) {
    q[o] = 0; q[o + 1] = 0; q[o + 2] = 0; q[o + 3] = 1;
    return n;
  }
  q[o] /= n; q[o + 1] /= n; q[o + 2] /= n; q[o + 3] /= n;
  return n;
}

/** Rotation by `angle` radians about the unit axis (x, y, z). */
export function quatFromAxisAngle(x: number, y: number, z: number, angle: number, out: Out, oo: number): void {
  const h = 0.5 * angle, s = detMath.sin(h);
  out[oo] = x * s; out[oo + 1] = y * s; out[oo + 2] = z * s; out[oo + 3] = detMath.cos(h);
}

/**
 * Spherical linear interpolation from a (f = 0) to b (f = 1) along the shorter arc. The angle
 * between the quaternions is taken as 2 atan2(|a - b|, |a + b|), which stays accurate for small
 * angles where acos(a . b) loses half its digits.
 */
export function quatSlerp(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, f: number, out: Out, oo: number): void {
  SLERP_F[0] = f;
  quatSlerpAt(a, ao, b, bo, out, oo);
}

/** The parameter f of quatSlerpAt. */
export const SLERP_F = new Float64Array(1);

/**
 * quatSlerp with its parameter read from SLERP_F[0], and its sines and arc tangent through
 * featherstone's detMath.io: no number crosses a call, so the step's samplers allocate nothing
 * whether or not the engine inlines the calls. The same bits as quatSlerp.
 */
export function quatSlerpAt(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Out, oo: number): void {
  const f = SLERP_F[0], io = detMath.io;
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  const dx = ax - bx, dy = ay - by, dz = az - bz, dw = aw - bw;
  const sx = ax + bx, sy = ay + by, sz = az + bz, sw = aw + bw;
  io[0] = Math.sqrt(dx * dx + dy * dy + dz * dz + dw * dw);
  io[3] = Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw);
  detMath.atan2IO();
  const theta = 2 * io[0];
  let wa: number, wb: number;
  if (theta < 1e-12) {
    wa = 1 - f; wb = f;
  } else {
    io[0] = theta;
    detMath.sinIO();
    const s = io[0];
    io[0] = (1 - f) * theta;
    detMath.sinIO();
    wa = io[0] / s;
    io[0] = f * theta;
    detMath.sinIO();
    wb = io[0] / s;
  }
  out[oo] = wa * ax + wb * bx;
  out[oo + 1] = wa * ay + wb * by;
  out[oo + 2] = wa * az + wb * bz;
  out[oo + 3] = wa * aw + wb * bw;
}

/**
 * Rotation vector (axis * angle, angle in [0, pi]) of q, taking the shorter of q and -q.
 * Near the identity angle / |v| tends to 2 / w, used directly to avoid 0 / 0.
 * (Its arc tangent through detMath.io: it allocates nothing, inlined or not.)
 */
export function quatToRotationVector(q: ArrayLike<number>, qo: number, out: Out, oo: number): void {
  let x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  if (w < 0) {
    x = -x; y = -y; z = -z; w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  let k: number;
  if (s < 1e-12) k = 2 / Math.max(w, 1e-300);
  else {
    const io = detMath.io;
    io[0] = s;
    io[3] = w;
    detMath.atan2IO();
    k = (2 * io[0]) / s;
  }
  out[oo] = x * k; out[oo + 1] = y * k; out[oo + 2] = z * k;
}

/** Unit quaternion of a row-major rotation matrix (Shepperd's method: the largest diagonal term picks the branch). */
export function quatFromMatrix(m: ArrayLike<number>, mo: number, out: Out, oo: number): void {
  const m00 = m[mo], m01 = m[mo + 1], m02 = m[mo + 2];
  const m10 = m[mo + 3], m11 = m[mo + 4], m12 = m[mo + 5];
  const m20 = m[mo + 6], m21 = m[mo + 7], m22 = m[mo + 8];
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(Math.max(1 + m00 - m11 - m22, 0));
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(Math.max(1 + m11 - m00 - m22, 0));
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(Math.max(1 + m22 - m00 - m11, 0));
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  out[oo] = x; out[oo + 1] = y; out[oo + 2] = z; out[oo + 3] = w;
  quatNormalize(out, oo);
}

/** out = q v q* for the vector v. out may alias v. */
export function quatRotate(q: ArrayLike<number>, qo: number, v: ArrayLike<number>, vo: number, out: Out, oo: number): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
  // v' = v + w t + u x t with t = 2 u x v (u the vector part)
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  out[oo] = vx + w * tx + (y * tz - z * ty);
  out[oo + 1] = vy + w * ty + (z * tx - x * tz);
  out[oo + 2] = vz + w * tz + (x * ty - y * tx);
}

/** out = q* v q (the inverse rotation). out may alias v. */
export function quatRotateInverse(q: ArrayLike<number>, qo: number, v: ArrayLike<number>, vo: number, out: Out, oo: number): void {
  const x = -q[qo], y = -q[qo + 1], z = -q[qo + 2], w = q[qo + 3];
  const vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  out[oo] = vx + w * tx + (y * tz - z * ty);
  out[oo + 1] = vy + w * ty + (z * tx - x * tz);
  out[oo + 2] = vz + w * tz + (x * ty - y * tx);
}

/**
 * Twist angle of q about the unit axis a (swing-twist decomposition q = swing * twist with the
 * twist about a): the twist is the normalised projection [(v . a) a, w], so its angle is
 * 2 atan2(v . a, w), wrapped into (-pi, pi].
 */
export function quatTwistAngle(q: ArrayLike<number>, qo: number, ax: number, ay: number, az: number): number {
  const p = q[qo] * ax + q[qo + 1] * ay + q[qo + 2] * az;
  return wrapAngle(2 * detMath.atan2(p, q[qo + 3]));
}

/** The angle wrapped into (-pi, pi]. */
export function wrapAngle(a: number): number {
  if (a > Math.PI || a <= -Math.PI) {
    a = a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
    if (a <= -Math.PI) a += 2 * Math.PI;
  }
  return a;
}

/** Shortest rotation taking the unit vector +Y to the unit vector d (for capsules, whose axis is local Y). */
export function quatFromYTo(dx: number, dy: number, dz: number, out: Out, oo: number): void {
  // q = [Y x d, 1 + Y . d] normalised; for d = -Y any half turn about a horizontal axis.
  const w = 1 + dy;
  if (w < 1e-12) {
    out[oo] = 1; out[oo + 1] = 0; out[oo + 2] = 0; out[oo + 3] = 0;
    return;
  }
  out[oo] = dz; out[oo + 1] = 0; out[oo + 2] = -dx; out[oo + 3] = w;
  quatNormalize(out, oo);
}

/**
 * out = q v q* (or q* v q, inverse) for the quaternion q[qo..qo+4) and the vector v[vo..vo+3):
 * quatRotate and quatRotateInverse for typed arrays alone, for the controllers' per-step code (the
 * helpers above are also called with plain arrays and may run polymorphic, and a step must allocate
 * nothing). The same arithmetic.
 */
export function quatTurnInto(q: Float64Array, qo: number, inverse: boolean, v: Float64Array, vo: number, out: Float64Array, oo: number): void {
  const sg = inverse ? -1 : 1;
  const x = sg * q[qo], y = sg * q[qo + 1], z = sg * q[qo + 2], w = q[qo + 3];
  const vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  out[oo] = vx + w * tx + (y * tz - z * ty);
  out[oo + 1] = vy + w * ty + (z * tx - x * tz);
  out[oo + 2] = vz + w * tz + (x * ty - y * tx);
}
