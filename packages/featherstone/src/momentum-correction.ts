/**
 * Momentum-preserving position update for free-floating trees.
 *
 * In reduced coordinates the momentum of a tree is h(q, qd) = A(q) qd. Semi-implicit Euler sets
 * qd_(k+1) so that h(q_k, qd_(k+1)) = h_k + (external impulse), exactly as the dynamics demand,
 * but then evaluates the next state at q_(k+1): h(q_(k+1), qd_(k+1)) differs by O(dt) whenever the
 * joints move (an arm swinging shifts the centre of mass relative to the root), so a free body's
 * linear and angular momentum drift although no force acts. The correction below changes only the
 * root's six velocity coordinates after the position update, by the rigid motion dv that restores
 * the momentum: I_c dv = h_target - h(q_(k+1), qd_(k+1)), with I_c the composite inertia of the
 * whole subtree at the world origin (world coordinates). Joint rates are untouched, so the
 * correction adds no internal motion.
 */
import { forwardKinematics } from './kinematics.js';
import type { Model } from './model.js';
import type { State } from './state.js';
import { JointType } from './joints.js';
import { invertSmall } from './joint-inverse.js';
import { crossForce, mulMat6Vec, shiftMomentum, xformMotion } from './spatial.js';
import { forceLinkToWorld } from './aba.js';

const h = new Float64Array(6);
const dh = new Float64Array(6);
/** The world centre of mass of the subtree of the last subtreeMomentum call. */
const com = new Float64Array(3);
/** The mass of the subtree of the last subtreeMomentum call. */
const comMass = new Float64Array(1);
/** The centre of mass of each free root's subtree at the start of the step (freeRootMomenta), 3 per root. */
let rootCom = new Float64Array(3);
const Ic = new Float64Array(36);
const IcInv = new Float64Array(36);
const scratch = new Float64Array(72);
const tmp = new Float64Array(12);
const rate = new Float64Array(24);
const Il = new Float64Array(9);
const Iw = new Float64Array(9);
const A = new Float64Array(9);
const B = new Float64Array(9);

/**
 * Spatial momentum (world coordinates, about the world origin) of the subtree rooted at `root`,
 * into out[0..5]; with `composite`, also its composite spatial inertia at the world origin into
 * Ic. Requires forwardKinematics with velocities.
 */
function subtreeMomentum(model: Model, state: State, root: number, out: Float64Array, composite: boolean): void {
  const { pose: P, v } = state.work;
  out.fill(0, 0, 6);
  let mc0 = 0, mc1 = 0, mc2 = 0, mt = 0;
  if (composite) Ic.fill(0);
  for (let i = root; i < model.nLinks; i++) {
    if (i !== root && !model.isAncestor(root, i)) continue;
    const po = 12 * i, vo = 6 * i, m = model.mass[i];
    // world centre of mass, world angular velocity, world velocity of the centre of mass
    const lx = model.com[3 * i], ly = model.com[3 * i + 1], lz = model.com[3 * i + 2];
    const cx = P[po] * lx + P[po + 1] * ly + P[po + 2] * lz + P[po + 9];
    const cy = P[po + 3] * lx + P[po + 4] * ly + P[po + 5] * lz + P[po + 10];
    const cz = P[po + 6] * lx + P[po + 7] * ly + P[po + 8] * lz + P[po + 11];
    const wx = v[vo], wy = v[vo + 1], wz = v[vo + 2];
    const ux = v[vo + 3] + (wy * lz - wz * ly), uy = v[vo + 4] + (wz * lx - wx * lz), uz = v[vo + 5] + (wx * ly - wy * lx);
    const Wx = P[po] * wx + P[po + 1] * wy + P[po + 2] * wz, Wy = P[po + 3] * wx + P[po + 4] * wy + P[po + 5] * wz, Wz = P[po + 6] * wx + P[po + 7] * wy + P[po + 8] * wz;
    const Vx = P[po] * ux + P[po + 1] * uy + P[po + 2] * uz, Vy = P[po + 3] * ux + P[po + 4] * uy + P[po + 5] * uz, Vz = P[po + 6] * ux + P[po + 7] * uy + P[po + 8] * uz;
    // rotational inertia about the centre of mass in world coordinates: R Ic R^T
    const I6 = model.inertiaCom, io = 6 * i;
    Il[0] = I6[io]; Il[1] = I6[io + 3]; Il[2] = I6[io + 4]; Il[3] = I6[io + 3]; Il[4] = I6[io + 1]; Il[5] = I6[io + 5]; Il[6] = I6[io + 4]; Il[7] = I6[io + 5]; Il[8] = I6[io + 2];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) tmp[3 * r + c] = P[po + 3 * r] * Il[c] + P[po + 3 * r + 1] * Il[3 + c] + P[po + 3 * r + 2] * Il[6 + c];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) Iw[3 * r + c] = tmp[3 * r] * P[po + 3 * c] + tmp[3 * r + 1] * P[po + 3 * c + 1] + tmp[3 * r + 2] * P[po + 3 * c + 2];
    // angular momentum about the origin: Iw W + c x m V ; linear: m V
    out[0] += Iw[0] * Wx + Iw[1] * Wy + Iw[2] * Wz + m * (cy * Vz - cz * Vy);
    out[1] += Iw[3] * Wx + Iw[4] * Wy + Iw[5] * Wz + m * (cz * Vx - cx * Vz);
    out[2] += Iw[6] * Wx + Iw[7] * Wy + Iw[8] * Wz + m * (cx * Vy - cy * Vx);
    out[3] += m * Vx; out[4] += m * Vy; out[5] += m * Vz;
    mc0 += m * cx; mc1 += m * cy; mc2 += m * cz; mt += m;
    if (!composite) continue;
    // spatial inertia at the origin: [[Iw + m cx cx^T, m cx], [m cx^T, m 1]] (cx the skew of c)
    const c2 = cx * cx + cy * cy + cz * cz;
    A[0] = Iw[0] + m * (c2 - cx * cx); A[1] = Iw[1] - m * cx * cy; A[2] = Iw[2] - m * cx * cz;
    A[3] = Iw[3] - m * cy * cx; A[4] = Iw[4] + m * (c2 - cy * cy); A[5] = Iw[5] - m * cy * cz;
    A[6] = Iw[6] - m * cz * cx; A[7] = Iw[7] - m * cz * cy; A[8] = Iw[8] + m * (c2 - cz * cz);
    B[0] = 0; B[1] = -m * cz; B[2] = m * cy; B[3] = m * cz; B[4] = 0; B[5] = -m * cx; B[6] = -m * cy; B[7] = m * cx; B[8] = 0;
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        Ic[6 * r + c] += A[3 * r + c];
        Ic[6 * r + 3 + c] += B[3 * r + c];
        Ic[6 * (3 + r) + c] += B[3 * c + r];
      }
      Ic[6 * (3 + r) + 3 + r] += m;
    }
  }
  com[0] = mc0 / mt; com[1] = mc1 / mt; com[2] = mc2 / mt;
  comMass[0] = mt;
}

/**
 * The momentum each free-floating subtree must have after a step of length dt with joint
 * accelerations qdd: its momentum now plus dt times the total external force, which the
 * Newton-Euler equations give as sum_i (I_i a_i + v_i x* I_i v_i) with the true link accelerations
 * a_i (Featherstone 2008, eq. 5.9). Requires forwardKinematics with velocities at the step's
 * start. Writes 6 numbers per free root into out (world coordinates): the angular momentum about
 * the subtree's centre of mass, then the linear momentum. (About the centre of mass, not the
 * origin: the momentum restored after the step must not depend on where the position update put
 * the body. A free body's origin moves along the step's twist, which bends its path by w dt / 2 a
 * step; about a fixed point that error would read as angular momentum, and restoring it would
 * change the body's spin.)
 */
export function freeRootMomenta(model: Model, state: State, qdd: ArrayLike<number>, dt: number, out: Float64Array): void {
  const w = state.work;
  const { Xup, v, c } = w;
  const a = w.dp, f = rate; // dp: scratch no other algorithm needs across this call
  const S = model.S;
  let k = -1;
  for (let i = 0; i < model.nLinks; i++) {
    const p = model.parent[i], vo = 6 * i, so = 36 * i, d0 = model.vOffset[i];
    if (p < 0) {
      a.fill(0, vo, vo + 6);
      if (model.jointType[i] === JointType.free) {
        k++;
        subtreeMomentum(model, state, i, h, false);
        if (rootCom.length < 3 * (k + 1)) { const g = new Float64Array(6 * (k + 1)); g.set(rootCom); rootCom = g; }
        rootCom[3 * k] = com[0]; rootCom[3 * k + 1] = com[1]; rootCom[3 * k + 2] = com[2];
        for (let e = 0; e < 6; e++) out[6 * k + e] = h[e];
      }
    } else xformMotion(Xup, 12 * i, a, 6 * p, a, vo);
    for (let e = 0; e < 6; e++) {
      let s = c[vo + e];
      for (let q = 0; q < model.jointNv[i]; q++) s += S[so + 6 * q + e] * qdd[d0 + q];
      a[vo + e] += s;
    }
    // the link's rate of momentum, in world coordinates, added to its root's total
    mulMat6Vec(model.I, 36 * i, a, vo, f, 0);
    mulMat6Vec(model.I, 36 * i, v, vo, f, 6);
    crossForce(v, vo, f, 6, f, 12);
    for (let e = 0; e < 6; e++) f[e] += f[12 + e];
    forceLinkToWorld(w.pose, 12 * i, f, 0, f, 18);
    if (k >= 0 && rootOf(model, i) === rootIndex(model, k)) for (let e = 0; e < 6; e++) out[6 * k + e] += dt * f[18 + e];
  }
  // moments about each subtree's centre of mass at the start: L_c = L_o - c x p (and the rate of
  // L_c is the moment about c, since c moves along p)
  for (let r = 0; r <= k; r++) shiftMomentum(out, 6 * r, rootCom, 3 * r, -1);
}

function rootOf(model: Model, i: number): number {
  while (model.parent[i] >= 0) i = model.parent[i];
  return i;
}

/** Link index of the k-th free root. */
function rootIndex(model: Model, k: number): number {
  for (let i = 0; i < model.nLinks; i++) {
    if (model.parent[i] === -1 && model.jointType[i] === JointType.free && k-- === 0) return i;
  }
  return -1;
}

/**
 * After the position update, restores each free subtree's momentum to `target` (as written by
 * freeRootMomenta before the update) by changing its root's velocity only. Runs forward
 * kinematics with velocities at the new positions.
 */
export function restoreFreeRootMomenta(model: Model, state: State, target: Float64Array): void {
  forwardKinematics(model, state, true);
  let k = 0;
  for (let r = 0; r < model.nLinks; r++) {
    if (model.parent[r] !== -1 || model.jointType[r] !== JointType.free) continue;
    subtreeMomentum(model, state, r, h, true);
    // the target, its moment about the current centre of mass carried to the origin (L_o = L_c + c x p), less the momentum now
    for (let e = 0; e < 6; e++) dh[e] = target[6 * k + e];
    shiftMomentum(dh, 0, com, 0, 1);
    for (let e = 0; e < 6; e++) h[e] = dh[e] - h[e];
    k++;
    invertSmall(Ic, 6, IcInv, 0, scratch, r, model);
    // dv (world, at the origin) = Ic^-1 dh
    const dv = tmp;
    for (let a = 0; a < 6; a++) {
      let s = 0;
      for (let b = 0; b < 6; b++) s += IcInv[6 * a + b] * h[b];
      dv[a] = s;
    }
    addRootVelocityWorld(model, state, r, dv);
  }
  state.work.dynamicsValid = false;
}

/**
 * Adds a rigid velocity dv (world coordinates: angular velocity, then the velocity of the body
 * point at the world origin) to the free root `root`, i.e. to its whole subtree. Requires forward
 * kinematics (positions) for the root's pose.
 */
export function addRootVelocityWorld(model: Model, state: State, root: number, dv: ArrayLike<number>): void {
  // into the root's coordinates: w_l = R^T w, v_l = R^T (v - p x w)
  const P = state.work.pose, po = 12 * root;
  const px = P[po + 9], py = P[po + 10], pz = P[po + 11];
  const wx = dv[0], wy = dv[1], wz = dv[2];
  const vx = dv[3] - (py * wz - pz * wy), vy = dv[4] - (pz * wx - px * wz), vz = dv[5] - (px * wy - py * wx);
  const qd = state.qd, o = model.vOffset[root];
  qd[o] += P[po] * wx + P[po + 3] * wy + P[po + 6] * wz;
  qd[o + 1] += P[po + 1] * wx + P[po + 4] * wy + P[po + 7] * wz;
  qd[o + 2] += P[po + 2] * wx + P[po + 5] * wy + P[po + 8] * wz;
  qd[o + 3] += P[po] * vx + P[po + 3] * vy + P[po + 6] * vz;
  qd[o + 4] += P[po + 1] * vx + P[po + 4] * vy + P[po + 7] * vz;
  qd[o + 5] += P[po + 2] * vx + P[po + 5] * vy + P[po + 8] * vz;
  state.work.dynamicsValid = false;
}

/** Current spatial momentum (world; angular about the subtree's centre of mass, then linear) of the subtree of each free root, 6 per root. Requires forwardKinematics with velocities. */
export function freeRootCurrentMomenta(model: Model, state: State, out: Float64Array): void {
  let k = 0;
  for (let i = 0; i < model.nLinks; i++) {
    if (model.parent[i] !== -1 || model.jointType[i] !== JointType.free) continue;
    subtreeMomentum(model, state, i, h, false);
    for (let e = 0; e < 6; e++) out[6 * k + e] = h[e];
    shiftMomentum(out, 6 * k, com, 0, -1);
    k++;
  }
}

/**
 * The whole subtree of `root`: its spatial momentum about the world origin (world coordinates:
 * angular, then linear) into h (6), its centre of mass into c[0..2] and its mass into c[3], and
 * its composite spatial inertia at the world origin into I (36, row-major). Requires
 * forwardKinematics with velocities.
 * (A World sums these over the bodies of an island to restore the island's momentum as a whole.)
 */
export function subtreeMomentumAndInertia(model: Model, state: State, root: number, h6: Float64Array, c: Float64Array, I: Float64Array): void {
  subtreeMomentum(model, state, root, h6, true);
  c[0] = com[0]; c[1] = com[1]; c[2] = com[2]; c[3] = comMass[0];
  I.set(Ic);
}

/** Mass of the subtree rooted at `root`. */
export function subtreeMass(model: Model, root: number): number {
  let m = 0;
  for (let i = root; i < model.nLinks; i++) if (i === root || model.isAncestor(root, i)) m += model.mass[i];
  return m;
}

/** Number of free-floating roots of a model (momentum buffers hold 6 numbers each). */
export function freeRootCount(model: Model): number {
  let n = 0;
  for (let i = 0; i < model.nLinks; i++) if (model.parent[i] === -1 && model.jointType[i] === JointType.free) n++;
  return n;
}
