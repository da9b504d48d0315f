/**
 * Forward kinematics: link transforms, world poses, spatial velocities, and the kinematics of
 * points on links (positions, velocities, accelerations, Jacobians).
 */
import { JointType } from './joints.js';
import type { Model } from './model.js';
import type { Arr } from './spatial.js';
import type { State } from './state.js';
import * as detMath from './det-math.js';

/**
 * Fills work.Xup (parent -> link), work.pose (link -> world), and with velocities, work.v and
 * work.c (c_i = v_i x S_i qd_i: Featherstone 2008 table 7.1, line 8 of the Kokkevis paper's
 * ABM.Accelerations).
 *
 * X_i = X_J(q_i) X_tree,i in short form (E, r): E = E_J E_T, r = r_T + E_T^T r_J; the joint
 * transform is written out per joint type (joints.ts, jointTransform, holds the same formulas).
 * World pose: R_i = R_parent E_i^T, p_i = p_parent + R_parent r_i.
 * Velocity: v_i = X_i v_parent + v_J, v_J = S_i qd_i; c_i = v_i x v_J (eq. 2.31).
 *
 * The results depend on q (and qd) only: a call at the q (and qd) of the last call, bit for bit
 * (the sign of a zero included), finds them already in the workspace and returns at once.
 */
export function forwardKinematics(model: Model, state: State, withVelocities = true): void {
  const w = state.work;
  if (w.kinematicsLevel >= (withVelocities ? 2 : 1) && sameBits(state.q, w.kinematicsQ) && (!withVelocities || sameBits(state.qd, w.kinematicsQd))) {
    w.dynamicsValid = false;
    return;
  }
  computeKinematics(model, state, withVelocities);
}

/** forwardKinematics's computation (it returns early when the workspace already holds it). */
function computeKinematics(model: Model, state: State, withVelocities: boolean): void {
  const w = state.work;
  const Xup = w.Xup, pose = w.pose, v = w.v, c = w.c;
  const q = state.q, qd = state.qd;
  const n = model.nLinks;
  const type = model.jointType, parent = model.parent, qOffset = model.qOffset, vOffset = model.vOffset;
  const axis = model.axis, T = model.treeX;
  for (let i = 0; i < n; i++) {
    const t = type[i], xo = 12 * i, qo = qOffset[i], ao = 3 * i;
    // X_J: E_J (row-major j00..j22) and r_J
    let j00 = 1, j01 = 0, j02 = 0, j10 = 0, j11 = 1, j12 = 0, j20 = 0, j21 = 0, j22 = 1;
    let rj0 = 0, rj1 = 0, rj2 = 0;
    if (t === JointType.revolute) {
      // E_J = R(axis, q)^T (Rodrigues)
      const x = axis[ao], y = axis[ao + 1], z = axis[ao + 2];
      const cq = detMath.cos(q[qo]), sq = detMath.sin(q[qo]), k = 1 - cq;
      j00 = k * x * x + cq; j01 = k * x * y + sq * z; j02 = k * x * z - sq * y;
      j10 = k * x * y - sq * z; j11 = k * y * y + cq; j12 = k * y * z + sq * x;
      j20 = k * x * z + sq * y; j21 = k * y * z - sq * x; j22 = k * z * z + cq;
    } else if (t === JointType.spherical || t === JointType.free) {
      // E_J = R(quaternion)^T; a free joint also moves the origin to its position coordinates
      const o = t === JointType.free ? qo + 3 : qo;
      const x = q[o], y = q[o + 1], z = q[o + 2], qw = q[o + 3];
      const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = qw * x, wy = qw * y, wz = qw * z;
      j00 = 1 - 2 * (yy + zz); j10 = 2 * (xy - wz); j20 = 2 * (xz + wy);
      j01 = 2 * (xy + wz); j11 = 1 - 2 * (xx + zz); j21 = 2 * (yz - wx);
      j02 = 2 * (xz - wy); j12 = 2 * (yz + wx); j22 = 1 - 2 * (xx + yy);
      if (t === JointType.free) { rj0 = q[qo]; rj1 = q[qo + 1]; rj2 = q[qo + 2]; }
    } else if (t === JointType.prismatic) {
      const dq = q[qo];
      rj0 = axis[ao] * dq; rj1 = axis[ao + 1] * dq; rj2 = axis[ao + 2] * dq;
    }
    // X_i = X_J X_T
    const t00 = T[xo], t01 = T[xo + 1], t02 = T[xo + 2], t10 = T[xo + 3], t11 = T[xo + 4], t12 = T[xo + 5];
    const t20 = T[xo + 6], t21 = T[xo + 7], t22 = T[xo + 8];
    const e00 = j00 * t00 + j01 * t10 + j02 * t20, e01 = j00 * t01 + j01 * t11 + j02 * t21, e02 = j00 * t02 + j01 * t12 + j02 * t22;
    const e10 = j10 * t00 + j11 * t10 + j12 * t20, e11 = j10 * t01 + j11 * t11 + j12 * t21, e12 = j10 * t02 + j11 * t12 + j12 * t22;
    const e20 = j20 * t00 + j21 * t10 + j22 * t20, e21 = j20 * t01 + j21 * t11 + j22 * t21, e22 = j20 * t02 + j21 * t12 + j22 * t22;
    const r0 = T[xo + 9] + t00 * rj0 + t10 * rj1 + t20 * rj2;
    const r1 = T[xo + 10] + t01 * rj0 + t11 * rj1 + t21 * rj2;
    const r2 = T[xo + 11] + t02 * rj0 + t12 * rj1 + t22 * rj2;
    Xup[xo] = e00; Xup[xo + 1] = e01; Xup[xo + 2] = e02;
    Xup[xo + 3] = e10; Xup[xo + 4] = e11; Xup[xo + 5] = e12;
    Xup[xo + 6] = e20; Xup[xo + 7] = e21; Xup[xo + 8] = e22;
    Xup[xo + 9] = r0; Xup[xo + 10] = r1; Xup[xo + 11] = r2;
    // world pose
    const p = parent[i];
    if (p < 0) {
      pose[xo] = e00; pose[xo + 1] = e10; pose[xo + 2] = e20;
      pose[xo + 3] = e01; pose[xo + 4] = e11; pose[xo + 5] = e21;
      pose[xo + 6] = e02; pose[xo + 7] = e12; pose[xo + 8] = e22;
      pose[xo + 9] = r0; pose[xo + 10] = r1; pose[xo + 11] = r2;
    } else {
      const po = 12 * p;
      for (let row = 0; row < 3; row++) {
        const a0 = pose[po + 3 * row], a1 = pose[po + 3 * row + 1], a2 = pose[po + 3 * row + 2];
        pose[xo + 3 * row] = a0 * e00 + a1 * e01 + a2 * e02;
        pose[xo + 3 * row + 1] = a0 * e10 + a1 * e11 + a2 * e12;
        pose[xo + 3 * row + 2] = a0 * e20 + a1 * e21 + a2 * e22;
        pose[xo + 9 + row] = pose[po + 9 + row] + a0 * r0 + a1 * r1 + a2 * r2;
      }
    }
    if (!withVelocities) continue;
    // v_J = S_i qd_i
    const vo = 6 * i, d = vOffset[i];
    let u0 = 0, u1 = 0, u2 = 0, u3 = 0, u4 = 0, u5 = 0;
    if (t === JointType.revolute) {
      const r = qd[d];
      u0 = axis[ao] * r; u1 = axis[ao + 1] * r; u2 = axis[ao + 2] * r;
    } else if (t === JointType.spherical) {
      u0 = qd[d]; u1 = qd[d + 1]; u2 = qd[d + 2];
    } else if (t === JointType.prismatic) {
      const r = qd[d];
      u3 = axis[ao] * r; u4 = axis[ao + 1] * r; u5 = axis[ao + 2] * r;
    } else if (t === JointType.free) {
      u0 = qd[d]; u1 = qd[d + 1]; u2 = qd[d + 2]; u3 = qd[d + 3]; u4 = qd[d + 4]; u5 = qd[d + 5];
    }
    // v_i = X_i v_parent + v_J (eq. 2.24)
    let w0 = u0, w1 = u1, w2 = u2, l0 = u3, l1 = u4, l2 = u5;
    if (p >= 0) {
      const po = 6 * p;
      const m0 = v[po], m1 = v[po + 1], m2 = v[po + 2];
      const n0 = v[po + 3] - (r1 * m2 - r2 * m1), n1 = v[po + 4] - (r2 * m0 - r0 * m2), n2 = v[po + 5] - (r0 * m1 - r1 * m0);
      w0 += e00 * m0 + e01 * m1 + e02 * m2; w1 += e10 * m0 + e11 * m1 + e12 * m2; w2 += e20 * m0 + e21 * m1 + e22 * m2;
      l0 += e00 * n0 + e01 * n1 + e02 * n2; l1 += e10 * n0 + e11 * n1 + e12 * n2; l2 += e20 * n0 + e21 * n1 + e22 * n2;
    }
    v[vo] = w0; v[vo + 1] = w1; v[vo + 2] = w2; v[vo + 3] = l0; v[vo + 4] = l1; v[vo + 5] = l2;
    // c_i = v_i x v_J (eq. 2.31)
    c[vo] = w1 * u2 - w2 * u1;
    c[vo + 1] = w2 * u0 - w0 * u2;
    c[vo + 2] = w0 * u1 - w1 * u0;
    c[vo + 3] = w1 * u5 - w2 * u4 + (l1 * u2 - l2 * u1);
    c[vo + 4] = w2 * u3 - w0 * u5 + (l2 * u0 - l0 * u2);
    c[vo + 5] = w0 * u4 - w1 * u3 + (l0 * u1 - l1 * u0);
  }
  const kq = w.kinematicsQ;
  for (let k = 0; k < q.length; k++) kq[k] = q[k];
  if (withVelocities) {
    const kqd = w.kinematicsQd;
    for (let k = 0; k < qd.length; k++) kqd[k] = qd[k];
  }
  w.kinematicsLevel = withVelocities ? 2 : 1;
  w.energiesValid = false;
  w.dynamicsValid = false;
}

/** Whether a and b (of a's length) hold the same doubles, a zero's sign included (a NaN equals nothing). */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  for (let k = 0; k < a.length; k++) {
    const x = a[k], y = b[k];
    if (x !== y || (x === 0 && 1 / x !== 1 / y)) return false;
  }
  return true;
}

/** out = A B for short-form transforms (A after B): E = E_A E_B, r = r_B + E_B^T r_A. */
export function composeTransforms(A: Arr, ao: number, B: Arr, bo: number, out: Arr, oo: number): void {
  for (let r = 0; r < 3; r++) {
    const a0 = A[ao + 3 * r], a1 = A[ao + 3 * r + 1], a2 = A[ao + 3 * r + 2];
    for (let k = 0; k < 3; k++) out[oo + 3 * r + k] = a0 * B[bo + k] + a1 * B[bo + 3 + k] + a2 * B[bo + 6 + k];
  }
  const rx = A[ao + 9], ry = A[ao + 10], rz = A[ao + 11];
  out[oo + 9] = B[bo + 9] + B[bo] * rx + B[bo + 3] * ry + B[bo + 6] * rz;
  out[oo + 10] = B[bo + 10] + B[bo + 1] * rx + B[bo + 4] * ry + B[bo + 7] * rz;
  out[oo + 11] = B[bo + 11] + B[bo + 2] * rx + B[bo + 5] * ry + B[bo + 8] * rz;
}

/** out[oo..oo+5] = S_i x[xo..] (the joint's motion for the given dof values). */
export function subspaceTimes(model: Model, i: number, x: ArrayLike<number>, xo: number, out: Arr, oo: number): void {
  const nv = model.jointNv[i];
  const S = model.S, so = 36 * i;
  for (let r = 0; r < 6; r++) {
    let s = 0;
    for (let k = 0; k < nv; k++) s += S[so + 6 * k + r] * x[xo + k];
    out[oo + r] = s;
  }
}

/** World position of a point given in link coordinates. Requires forwardKinematics. */
export function pointPosition(state: State, link: number, local: ArrayLike<number>, out: Arr, oo = 0): void {
  const P = state.work.pose, po = 12 * link;
  const x = local[0], y = local[1], z = local[2];
  out[oo] = P[po] * x + P[po + 1] * y + P[po + 2] * z + P[po + 9];
  out[oo + 1] = P[po + 3] * x + P[po + 4] * y + P[po + 5] * z + P[po + 10];
  out[oo + 2] = P[po + 6] * x + P[po + 7] * y + P[po + 8] * z + P[po + 11];
}

/** Link coordinates of a world point. Requires forwardKinematics. */
export function worldToLocal(state: State, link: number, world: ArrayLike<number>, out: Arr, oo = 0): void {
  const P = state.work.pose, po = 12 * link;
  const x = world[0] - P[po + 9], y = world[1] - P[po + 10], z = world[2] - P[po + 11];
  out[oo] = P[po] * x + P[po + 3] * y + P[po + 6] * z;
  out[oo + 1] = P[po + 1] * x + P[po + 4] * y + P[po + 7] * z;
  out[oo + 2] = P[po + 2] * x + P[po + 5] * y + P[po + 8] * z;
}

/** World velocity of a point given in link coordinates: R (v_o + w x r). Requires forwardKinematics with velocities. */
export function pointVelocity(state: State, link: number, local: ArrayLike<number>, out: Arr, oo = 0): void {
  const v = state.work.v, vo = 6 * link;
  pointLinear(state.work.pose, 12 * link, v, vo, local, out, oo);
}

/**
 * World acceleration of a point given in link coordinates, from link spatial accelerations `acc`
 * (6 per link, link coordinates, as left by forwardDynamics in work.a). The classical acceleration
 * is a_o + dw x r + w x (v_o + w x r) (spatial to classical acceleration, Featherstone 2008 section 2.11), and the
 * base-acceleration offset -g that the dynamics use for gravity is added back.
 */
export function pointAcceleration(state: State, link: number, local: ArrayLike<number>, out: Arr, oo = 0, acc: Arr = state.work.a): void {
  const w = state.work, vo = 6 * link, po = 12 * link;
  const v = w.v;
  const wx = v[vo], wy = v[vo + 1], wz = v[vo + 2];
  const rx = local[0], ry = local[1], rz = local[2];
  // velocity of the point in link coords: v_o + w x r
  const px = v[vo + 3] + (wy * rz - wz * ry);
  const py = v[vo + 4] + (wz * rx - wx * rz);
  const pz = v[vo + 5] + (wx * ry - wy * rx);
  const ax = acc[vo + 3] + (acc[vo + 1] * rz - acc[vo + 2] * ry) + (wy * pz - wz * py);
  const ay = acc[vo + 4] + (acc[vo + 2] * rx - acc[vo] * rz) + (wz * px - wx * pz);
  const az = acc[vo + 5] + (acc[vo] * ry - acc[vo + 1] * rx) + (wx * py - wy * px);
  const P = w.pose;
  const g = state.gravity;
  out[oo] = P[po] * ax + P[po + 1] * ay + P[po + 2] * az + g[0];
  out[oo + 1] = P[po + 3] * ax + P[po + 4] * ay + P[po + 5] * az + g[1];
  out[oo + 2] = P[po + 6] * ax + P[po + 7] * ay + P[po + 8] * az + g[2];
}

/** R (m_lin + m_ang x r) for a motion vector m in link coordinates: the linear motion of a point. */
export function pointLinear(pose: Arr, po: number, m: Arr, mo: number, local: ArrayLike<number>, out: Arr, oo: number): void {
  const wx = m[mo], wy = m[mo + 1], wz = m[mo + 2];
  const rx = local[0], ry = local[1], rz = local[2];
  const x = m[mo + 3] + (wy * rz - wz * ry);
  const y = m[mo + 4] + (wz * rx - wx * rz);
  const z = m[mo + 5] + (wx * ry - wy * rx);
  out[oo] = pose[po] * x + pose[po + 1] * y + pose[po + 2] * z;
  out[oo + 1] = pose[po + 3] * x + pose[po + 4] * y + pose[po + 5] * z;
  out[oo + 2] = pose[po + 6] * x + pose[po + 7] * y + pose[po + 8] * z;
}

/**
 * Point Jacobian: out (3 x nv, row-major) maps qd to the world velocity of the point (link
 * coordinates `local`) on link `link`. Requires forwardKinematics.
 */
export function pointJacobian(model: Model, state: State, link: number, local: ArrayLike<number>, out: Arr): void {
  const nv = model.nv;
  out.fill(0, 0, 3 * nv);
  const P = state.work.pose;
  const tmp = state.work.tmp;
  pointPosition(state, link, local, tmp, 0);
  const X = tmp[0], Y = tmp[1], Z = tmp[2];
  for (let j = link; j >= 0; j = model.parent[j]) {
    const po = 12 * j;
    const dx = X - P[po + 9], dy = Y - P[po + 10], dz = Z - P[po + 11];
    for (let k = 0; k < model.jointNv[j]; k++) {
      const so = 36 * j + 6 * k;
      const S = model.S;
      // world angular and linear parts of the column
      const wx = P[po] * S[so] + P[po + 1] * S[so + 1] + P[po + 2] * S[so + 2];
      const wy = P[po + 3] * S[so] + P[po + 4] * S[so + 1] + P[po + 5] * S[so + 2];
      const wz = P[po + 6] * S[so] + P[po + 7] * S[so + 1] + P[po + 8] * S[so + 2];
      const vx = P[po] * S[so + 3] + P[po + 1] * S[so + 4] + P[po + 2] * S[so + 5];
      const vy = P[po + 3] * S[so + 3] + P[po + 4] * S[so + 4] + P[po + 5] * S[so + 5];
      const vz = P[po + 6] * S[so + 3] + P[po + 7] * S[so + 4] + P[po + 8] * S[so + 5];
      const col = model.vOffset[j] + k;
      out[col] = vx + (wy * dz - wz * dy);
      out[nv + col] = vy + (wz * dx - wx * dz);
      out[2 * nv + col] = vz + (wx * dy - wy * dx);
    }
  }
}

/**
 * Link Jacobian: out (6 x nv, row-major) maps qd to the link's angular velocity (rows 0-2) and the
 * velocity of its origin (rows 3-5), both in world coordinates. Requires forwardKinematics.
 */
export function linkJacobian(model: Model, state: State, link: number, out: Arr): void {
  const nv = model.nv;
  out.fill(0, 0, 6 * nv);
  const P = state.work.pose;
  const X = P[12 * link + 9], Y = P[12 * link + 10], Z = P[12 * link + 11];
  for (let j = link; j >= 0; j = model.parent[j]) {
    const po = 12 * j;
    const dx = X - P[po + 9], dy = Y - P[po + 10], dz = Z - P[po + 11];
    for (let k = 0; k < model.jointNv[j]; k++) {
      const so = 36 * j + 6 * k;
      const S = model.S;
      const wx = P[po] * S[so] + P[po + 1] * S[so + 1] + P[po + 2] * S[so + 2];
      const wy = P[po + 3] * S[so] + P[po + 4] * S[so + 1] + P[po + 5] * S[so + 2];
      const wz = P[po + 6] * S[so] + P[po + 7] * S[so + 1] + P[po + 8] * S[so + 2];
      const vx = P[po] * S[so + 3] + P[po + 1] * S[so + 4] + P[po + 2] * S[so + 5];
      const vy = P[po + 3] * S[so + 3] + P[po + 4] * S[so + 4] + P[po + 5] * S[so + 5];
      const vz = P[po + 6] * S[so + 3] + P[po + 7] * S[so + 4] + P[po + 8] * S[so + 5];
      const col = model.vOffset[j] + k;
      out[col] = wx; out[nv + col] = wy; out[2 * nv + col] = wz;
      out[3 * nv + col] = vx + (wy * dz - wz * dy);
      out[4 * nv + col] = vy + (wz * dx - wx * dz);
      out[5 * nv + col] = vz + (wx * dy - wy * dx);
    }
  }
}

/** Writes link i's world transform as a column-major 4x4 matrix (three.js Matrix4.elements order) at out[oo]. */
export function linkMatrix4(state: State, link: number, out: Float32Array | Float64Array, oo = 0): void {
  const P = state.work.pose, po = 12 * link;
  out[oo] = P[po]; out[oo + 1] = P[po + 3]; out[oo + 2] = P[po + 6]; out[oo + 3] = 0;
  out[oo + 4] = P[po + 1]; out[oo + 5] = P[po + 4]; out[oo + 6] = P[po + 7]; out[oo + 7] = 0;
  out[oo + 8] = P[po + 2]; out[oo + 9] = P[po + 5]; out[oo + 10] = P[po + 8]; out[oo + 11] = 0;
  out[oo + 12] = P[po + 9]; out[oo + 13] = P[po + 10]; out[oo + 14] = P[po + 11]; out[oo + 15] = 1;
}
