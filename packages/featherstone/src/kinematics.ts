/**
 * Forward kinematics: link transforms, world poses, spatial velocities, and the kinematics of
 * points on links (positions, velocities, accelerations, Jacobians).
 */
import { jointTransform } from './joints.js';
import type { Model } from './model.js';
import { crossMotion, xformMotion, type Arr } from './spatial.js';
import type { State } from './state.js';

/**
 * Fills work.Xup (parent -> link), work.pose (link -> world), and with velocities, work.v and
 * work.c (c_i = v_i x S_i qd_i: Featherstone 2008 table 7.1, line 8 of the Kokkevis paper's
 * ABM.Accelerations).
 */
export function forwardKinematics(model: Model, state: State, withVelocities = true): void {
  const w = state.work;
  const { Xup, pose, v, c, tmp } = w;
  const { q, qd } = state;
  const n = model.nLinks;
  for (let i = 0; i < n; i++) {
    const t = model.jointType[i];
    const xo = 12 * i;
    // X_J(q) into tmp[0..11], then X_i = X_J X_tree: E = E_J E_T, r = r_T + E_T^T r_J
    jointTransform(t, model.axis, 3 * i, q, model.qOffset[i], tmp, 0);
    composeTransforms(tmp, 0, model.treeX, xo, Xup, xo);
    // world pose: R_i = R_p E_i^T, p_i = p_p + R_p r_i
    const p = model.parent[i];
    if (p < 0) {
      for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) pose[xo + 3 * r + k] = Xup[xo + 3 * k + r];
      pose[xo + 9] = Xup[xo + 9]; pose[xo + 10] = Xup[xo + 10]; pose[xo + 11] = Xup[xo + 11];
    } else {
      const po = 12 * p;
      for (let r = 0; r < 3; r++) {
        const a0 = pose[po + 3 * r], a1 = pose[po + 3 * r + 1], a2 = pose[po + 3 * r + 2];
        for (let k = 0; k < 3; k++) pose[xo + 3 * r + k] = a0 * Xup[xo + 3 * k] + a1 * Xup[xo + 3 * k + 1] + a2 * Xup[xo + 3 * k + 2];
        pose[xo + 9 + r] = pose[po + 9 + r] + a0 * Xup[xo + 9] + a1 * Xup[xo + 10] + a2 * Xup[xo + 11];
      }
    }
    if (!withVelocities) continue;
    // v_i = X_i v_p + S_i qd_i ;  c_i = v_i x (S_i qd_i)
    const vo = 6 * i;
    if (p < 0) v.fill(0, vo, vo + 6);
    else xformMotion(Xup, xo, v, 6 * p, v, vo);
    subspaceTimes(model, i, qd, model.vOffset[i], tmp, 12);
    for (let k = 0; k < 6; k++) v[vo + k] += tmp[12 + k];
    crossMotion(v, vo, tmp, 12, c, vo);
  }
  w.dynamicsValid = false;
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
