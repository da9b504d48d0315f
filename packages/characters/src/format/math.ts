/**
 * Small float64 geometry used by the character formats and presets: quaternions [x, y, z, w],
 * 3-vectors, row-major 3x3 matrices, rigid transforms and rotational inertias. Plain arrays, no
 * allocation concerns: these run once when a character is built, never in the step.
 */

import { detMath } from '@sinew/featherstone';

/** A 3-vector [x, y, z]. */
export type Vec3 = [number, number, number];
/** A quaternion [x, y, z, w]. */
export type Quat = [number, number, number, number];
/** Row-major 3x3 matrix. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];
/** Rotational inertia [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (the layout of the featherstone Model). */
export type Inertia6 = [number, number, number, number, number, number];

export const IDENTITY_QUAT: Readonly<Quat> = [0, 0, 0, 1];

export function add3(a: readonly number[], b: readonly number[]): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}
export function sub3(a: readonly number[], b: readonly number[]): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
export function scale3(a: readonly number[], s: number): Vec3 {
  return [a[0] * s, a[1] * s, a[2] * s];
}
export function dot3(a: readonly number[], b: readonly number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
export function cross3(a: readonly number[], b: readonly number[]): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
export function norm3(a: readonly number[]): number {
  return detMath.hypot(a[0], a[1], a[2]);
}
export function normalize3(a: readonly number[]): Vec3 {
  const n = norm3(a);
  return [a[0] / n, a[1] / n, a[2] / n];
}

/** Hamilton product a * b. */
export function quatMul(a: readonly number[], b: readonly number[]): Quat {
  const [ax, ay, az, aw] = a, [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}
export function quatConj(q: readonly number[]): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}
export function quatNormalize(q: readonly number[]): Quat {
  const n = detMath.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}
/** Rotation by `angle` (radians) about the unit `axis`. */
export function quatAxisAngle(axis: readonly number[], angle: number): Quat {
  const s = detMath.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, detMath.cos(angle / 2)];
}
/** v rotated by the unit quaternion q. */
export function quatRotate(q: readonly number[], v: readonly number[]): Vec3 {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}
/** Row-major rotation matrix of a unit quaternion (maps local to parent coordinates). */
export function quatToMat3(q: readonly number[]): Mat3 {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}
/** Unit quaternion of a row-major rotation matrix (Shepperd's method), with w >= 0. */
export function mat3ToQuat(m: readonly number[]): Quat {
  const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m;
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  if (q[3] < 0) q = [-q[0], -q[1], -q[2], -q[3]];
  return quatNormalize(q);
}
/** The shortest rotation taking unit vector a to unit vector b. */
export function quatFromTo(a: readonly number[], b: readonly number[]): Quat {
  const c = cross3(a, b);
  const d = dot3(a, b);
  const s = norm3(c);
  if (s < 1e-14) {
    if (d > 0) return [0, 0, 0, 1];
    // opposite: half a turn about any axis perpendicular to a
    const p = Math.abs(a[0]) < 0.9 ? normalize3(cross3(a, [1, 0, 0])) : normalize3(cross3(a, [0, 1, 0]));
    return [p[0], p[1], p[2], 0];
  }
  return quatAxisAngle([c[0] / s, c[1] / s, c[2] / s], detMath.atan2(s, d));
}

export function mat3Mul(a: readonly number[], b: readonly number[]): Mat3 {
  const o = new Array<number>(9) as Mat3;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) o[3 * r + c] = a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c];
  return o;
}
export function mat3Transpose(a: readonly number[]): Mat3 {
  return [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];
}

/** A rigid transform: x_parent = rotate(q, x_local) + p. */
export interface Pose {
  p: Vec3;
  q: Quat;
}
export const IDENTITY_POSE: Readonly<Pose> = { p: [0, 0, 0], q: [0, 0, 0, 1] };

/** a after b: maps b's local coordinates through b, then through a. */
export function composePose(a: Pose, b: Pose): Pose {
  return { p: add3(a.p, quatRotate(a.q, b.p)), q: quatMul(a.q, b.q) };
}
export function invertPose(a: Pose): Pose {
  const qi = quatConj(a.q);
  return { p: scale3(quatRotate(qi, a.p), -1), q: qi };
}
export function transformPoint(a: Pose, v: readonly number[]): Vec3 {
  return add3(a.p, quatRotate(a.q, v));
}

export function inertiaToMat3(I: readonly number[]): Mat3 {
  return [I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]];
}
export function mat3ToInertia(m: readonly number[]): Inertia6 {
  return [m[0], m[4], m[8], (m[1] + m[3]) / 2, (m[2] + m[6]) / 2, (m[5] + m[7]) / 2];
}
/** R I R^T: an inertia given in a frame rotated by q, expressed in the outer frame. */
export function rotateInertia(q: readonly number[], I: readonly number[]): Inertia6 {
  const R = quatToMat3(q);
  return mat3ToInertia(mat3Mul(mat3Mul(R, inertiaToMat3(I)), mat3Transpose(R)));
}

/** Mass, centre of mass and rotational inertia about the centre of mass, in one frame. */
export interface MassProps {
  mass: number;
  com: Vec3;
  inertia: Inertia6;
}
export const NO_MASS: Readonly<MassProps> = { mass: 0, com: [0, 0, 0], inertia: [0, 0, 0, 0, 0, 0] };

/** Parallel-axis term m ([c]^T [c]) = m (|c|^2 1 - c c^T) of a point mass at c. */
function pointInertia(m: number, c: readonly number[]): Inertia6 {
  const [x, y, z] = c;
  return [m * (y * y + z * z), m * (x * x + z * z), m * (x * x + y * y), -m * x * y, -m * x * z, -m * y * z];
}

/** Sum of rigid bodies (all in one frame): total mass, joint centre of mass, inertia about it (parallel-axis theorem). */
export function combineMass(parts: readonly MassProps[]): MassProps {
  let m = 0;
  const c: Vec3 = [0, 0, 0];
  for (const p of parts) {
    m += p.mass;
    for (let k = 0; k < 3; k++) c[k] += p.mass * p.com[k];
  }
  if (!(m > 0)) return { mass: 0, com: [0, 0, 0], inertia: [0, 0, 0, 0, 0, 0] };
  for (let k = 0; k < 3; k++) c[k] /= m;
  const I: Inertia6 = [0, 0, 0, 0, 0, 0];
  for (const p of parts) {
    const d = pointInertia(p.mass, sub3(p.com, c));
    for (let k = 0; k < 6; k++) I[k] += p.inertia[k] + d[k];
  }
  return { mass: m, com: c, inertia: I };
}

/** Mass properties moved into an outer frame by the pose (pose maps local to outer coordinates). */
export function transformMass(pose: Pose, mp: MassProps): MassProps {
  return { mass: mp.mass, com: transformPoint(pose, mp.com), inertia: rotateInertia(pose.q, mp.inertia) };
}

/**
 * Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations (Golub & Van Loan,
 * Matrix Computations, section 8.5). Returns eigenvalues and the row-major matrix whose columns
 * are the eigenvectors: A = V diag(values) V^T.
 */
export function symmetricEigen3(A: readonly number[]): { values: Vec3; vectors: Mat3 } {
  const a = A.slice(0, 9) as Mat3;
  let v: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[1]) + Math.abs(a[2]) + Math.abs(a[5]);
    const scale = Math.abs(a[0]) + Math.abs(a[4]) + Math.abs(a[8]);
    if (off <= 1e-300 || off < 1e-17 * scale) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]] as const) {
      const apq = a[3 * p + q];
      if (apq === 0) continue;
      const theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      // a <- J^T a J, v <- v J with J the rotation in the (p, q) plane
      const J: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
      J[3 * p + p] = c; J[3 * q + q] = c; J[3 * p + q] = s; J[3 * q + p] = -s;
      const na = mat3Mul(mat3Mul(mat3Transpose(J), a), J);
      for (let k = 0; k < 9; k++) a[k] = na[k];
      a[3 * p + q] = 0; a[3 * q + p] = 0;
      v = mat3Mul(v, J);
    }
  }
  return { values: [a[0], a[4], a[8]], vectors: v };
}

/** True when [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] is positive definite (Sylvester's criterion, relative tolerance). */
export function isPositiveDefiniteInertia(I: readonly number[]): boolean {
  const [a, b, c, d, e, f] = I;
  const m2 = a * b - d * d;
  const m3 = a * (b * c - f * f) - d * (d * c - f * e) + e * (d * f - b * e);
  const s = Math.max(Math.abs(a), Math.abs(b), Math.abs(c), 1e-300);
  return a > 0 && m2 > 1e-14 * s * s && m3 > 1e-14 * s * s * s;
}
