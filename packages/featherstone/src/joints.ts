/**
 * Joint models. Each joint type knows its position and velocity sizes, its motion subspace S (in
 * the child link's frame, constant for every type here, so the velocity-product term c_J is zero),
 * its transform X_J(q) from the joint frame to the link frame, and how q moves along qd.
 *
 * q layout per joint:  revolute [angle], prismatic [offset], spherical [qx, qy, qz, qw],
 *                      free [px, py, pz, qx, qy, qz, qw], fixed [].
 * qd layout per joint: revolute/prismatic [rate], spherical [wx, wy, wz] (angular velocity in the
 *                      link frame), free [wx, wy, wz, vx, vy, vz] (angular velocity and the link
 *                      origin's velocity, both in the link frame), fixed [].
 */
import { quatMul, quatToMat, type Arr } from './spatial.js';
import * as detMath from './det-math.js';

/** Joint type codes as stored in a Model (`model.jointType[i]`), by name. */
export const JointType = {
  fixed: 0,
  revolute: 1,
  prismatic: 2,
  spherical: 3,
  free: 4,
} as const;
/** A joint type's name: 'fixed', 'revolute', 'prismatic', 'spherical' or 'free'. */
export type JointTypeName = keyof typeof JointType;
/** A joint type code, one of the values of `JointType`. */
export type JointTypeCode = (typeof JointType)[JointTypeName];

/** Joint type names indexed by their code (`JOINT_TYPE_NAMES[JointType.free] === "free"`). */
export const JOINT_TYPE_NAMES: readonly JointTypeName[] = ['fixed', 'revolute', 'prismatic', 'spherical', 'free'];

/** Position-coordinate count of a joint type. */
export const JOINT_NQ: readonly number[] = [0, 1, 1, 4, 7];
/** Velocity-coordinate (degree of freedom) count of a joint type. */
export const JOINT_NV: readonly number[] = [0, 1, 1, 3, 6];

/**
 * Writes the joint's motion subspace S (6 x nv, column-major: column k at out[oo + 6k]) in the link
 * frame. `axis` is the unit joint axis for revolute and prismatic joints.
 */
export function motionSubspace(type: number, axis: ArrayLike<number>, ao: number, out: Arr, oo: number): void {
  const nv = JOINT_NV[type];
  out.fill(0, oo, oo + 6 * nv);
  switch (type) {
    case JointType.revolute:
      out[oo] = axis[ao]; out[oo + 1] = axis[ao + 1]; out[oo + 2] = axis[ao + 2];
      break;
    case JointType.prismatic:
      out[oo + 3] = axis[ao]; out[oo + 4] = axis[ao + 1]; out[oo + 5] = axis[ao + 2];
      break;
    case JointType.spherical:
      for (let k = 0; k < 3; k++) out[oo + 6 * k + k] = 1;
      break;
    case JointType.free:
      for (let k = 0; k < 6; k++) out[oo + 6 * k + k] = 1;
      break;
  }
}

/**
 * Writes X_J(q) in short form (E, r) at out[oo..oo+11]: E rotates joint-frame coordinates into
 * link-frame coordinates, r is the link origin in joint-frame coordinates.
 */
export function jointTransform(type: number, axis: ArrayLike<number>, ao: number, q: ArrayLike<number>, qo: number, out: Arr, oo: number): void {
  switch (type) {
    case JointType.revolute: {
      // E = R(axis, q)^T (Rodrigues), r = 0
      const x = axis[ao], y = axis[ao + 1], z = axis[ao + 2];
      const c = detMath.cos(q[qo]), s = detMath.sin(q[qo]), t = 1 - c;
      out[oo] = t * x * x + c; out[oo + 1] = t * x * y + s * z; out[oo + 2] = t * x * z - s * y;
      out[oo + 3] = t * x * y - s * z; out[oo + 4] = t * y * y + c; out[oo + 5] = t * y * z + s * x;
      out[oo + 6] = t * x * z + s * y; out[oo + 7] = t * y * z - s * x; out[oo + 8] = t * z * z + c;
      out[oo + 9] = 0; out[oo + 10] = 0; out[oo + 11] = 0;
      break;
    }
    case JointType.prismatic: {
      const d = q[qo];
      identity3(out, oo);
      out[oo + 9] = axis[ao] * d; out[oo + 10] = axis[ao + 1] * d; out[oo + 11] = axis[ao + 2] * d;
      break;
    }
    case JointType.spherical:
      transposedQuatMat(q, qo, out, oo);
      out[oo + 9] = 0; out[oo + 10] = 0; out[oo + 11] = 0;
      break;
    case JointType.free:
      transposedQuatMat(q, qo + 3, out, oo);
      out[oo + 9] = q[qo]; out[oo + 10] = q[qo + 1]; out[oo + 11] = q[qo + 2];
      break;
    default:
      identity3(out, oo);
      out[oo + 9] = 0; out[oo + 10] = 0; out[oo + 11] = 0;
  }
}

function identity3(out: Arr, oo: number): void {
  out[oo] = 1; out[oo + 1] = 0; out[oo + 2] = 0;
  out[oo + 3] = 0; out[oo + 4] = 1; out[oo + 5] = 0;
  out[oo + 6] = 0; out[oo + 7] = 0; out[oo + 8] = 1;
}

function transposedQuatMat(q: ArrayLike<number>, qo: number, out: Arr, oo: number): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[oo] = 1 - 2 * (yy + zz); out[oo + 3] = 2 * (xy - wz); out[oo + 6] = 2 * (xz + wy);
  out[oo + 1] = 2 * (xy + wz); out[oo + 4] = 1 - 2 * (xx + zz); out[oo + 7] = 2 * (yz - wx);
  out[oo + 2] = 2 * (xz - wy); out[oo + 5] = 2 * (yz + wx); out[oo + 8] = 1 - 2 * (xx + yy);
}

const scratchQuat = new Float64Array(8);

/**
 * Advances a joint's q by velocity qd over dt, on the manifold for quaternions:
 * orientation' = orientation * exp(w dt / 2) with w in the link frame (body-fixed angular velocity),
 * renormalised. A free joint's position moves by R(orientation) v dt, v being the link-frame
 * velocity of the link origin (the rotation is taken at the midpoint orientation).
 */
export function integrateJoint(type: number, q: Arr, qo: number, qd: ArrayLike<number>, vo: number, dt: number): void {
  switch (type) {
    case JointType.revolute:
    case JointType.prismatic:
      q[qo] += qd[vo] * dt;
      break;
    case JointType.spherical:
      rotateQuatByBodyRate(q, qo, qd, vo, dt, false);
      break;
    case JointType.free: {
      const s = scratchQuat;
      // midpoint orientation for the translation
      s[4] = q[qo + 3]; s[5] = q[qo + 4]; s[6] = q[qo + 5]; s[7] = q[qo + 6];
      rotateQuatByBodyRate(s, 4, qd, vo, dt, true);
      const x = s[4], y = s[5], z = s[6], w = s[7];
      const vx = qd[vo + 3], vy = qd[vo + 4], vz = qd[vo + 5];
      // R v with R from the midpoint quaternion
      const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
      q[qo] += (vx + w * tx + (y * tz - z * ty)) * dt;
      q[qo + 1] += (vy + w * ty + (z * tx - x * tz)) * dt;
      q[qo + 2] += (vz + w * tz + (x * ty - y * tx)) * dt;
      rotateQuatByBodyRate(q, qo + 3, qd, vo, dt, false);
      break;
    }
  }
}

/**
 * s[0..3] <- exp of the pure quaternion (s[0], s[1], s[2]): [sin(th) a / th, cos(th)], th = |a|,
 * with sin(th) / th by its series near 0. In and out through the array, and sine and cosine through
 * detMath.io: numbers passed to or returned from a call that is not inlined are boxed on the heap.
 */
export function expPureQuaternion(s: Arr): void {
  const ax = s[0], ay = s[1], az = s[2];
  const th = Math.sqrt(ax * ax + ay * ay + az * az);
  const io = detMath.io;
  let k: number;
  if (th < 1e-8) k = 1 - (th * th) / 6;
  else {
    io[0] = th;
    detMath.sinIO();
    k = io[0] / th;
  }
  io[0] = th;
  detMath.cosIO();
  s[0] = ax * k; s[1] = ay * k; s[2] = az * k; s[3] = io[0];
}

/**
 * q <- q * exp(w h / 2), w = qd[vo..vo+2] (link frame), h = dt or dt / 2 (halfStep). The rates are
 * read here rather than passed: numbers computed by a caller and passed to a call that is not
 * inlined are boxed on the heap.
 */
function rotateQuatByBodyRate(q: Arr, qo: number, qd: ArrayLike<number>, vo: number, dt: number, halfStep: boolean): void {
  const s = scratchQuat;
  const f = halfStep ? 0.25 : 0.5;
  s[0] = qd[vo] * dt * f; s[1] = qd[vo + 1] * dt * f; s[2] = qd[vo + 2] * dt * f;
  expPureQuaternion(s);
  quatMul(q, qo, s, 0, q, qo);
  // (Math.hypot would allocate its argument list on every call.)
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  q[qo] = x / n; q[qo + 1] = y / n; q[qo + 2] = z / n; q[qo + 3] = w / n;
}

/** Writes the neutral position of a joint (zero angle, identity orientation, origin). */
export function neutralJointQ(type: number, q: Arr, qo: number): void {
  switch (type) {
    case JointType.revolute:
    case JointType.prismatic:
      q[qo] = 0;
      break;
    case JointType.spherical:
      q[qo] = 0; q[qo + 1] = 0; q[qo + 2] = 0; q[qo + 3] = 1;
      break;
    case JointType.free:
      q.fill(0, qo, qo + 6);
      q[qo + 6] = 1;
      break;
  }
}

export { quatToMat };
