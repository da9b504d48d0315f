/**
 * ABM.Accelerations: Featherstone's articulated-body algorithm (forward dynamics) for trees with
 * multi-dof joints, in the form of Featherstone 2008 table 7.1 and of the Kokkevis paper section 3.
 * Gravity enters as a fictitious base acceleration a_0 = -g. The quantities it leaves behind in
 * state.work (X, I^A, U = I^A S (Kokkevis's h), D^-1 (1/d), u, c) are what AccelerationDeltas
 * reuses.
 */
import { invertSmall, invertSpd6, invertSym3, singularJoint } from './joint-inverse.js';
import { JointType } from './joints.js';
import { forwardKinematics } from './kinematics.js';
import type { Model } from './model.js';
import { congruenceInertia, mulMat6Vec, type Arr } from './spatial.js';
import type { State } from './state.js';

export { invertSmall };

/**
 * Joint accelerations qdd for the state's q, qd, joint torques tau, passive joint forces (damping,
 * springs) and external link forces fext. Writes outQdd (length nv) and returns it.
 * `kinematicsCurrent`: the caller ran forwardKinematics(model, state, true) at this q and qd, and
 * its results in state.work are still there (then they are not computed again).
 */
export function forwardDynamics(model: Model, state: State, outQdd: Arr = state.work.qdd, kinematicsCurrent = false): Arr {
  if (!kinematicsCurrent) forwardKinematics(model, state, true);
  jointArmature(model, state);
  articulatedInertias(model, state);
  outwardAccelerations(model, state, outQdd);
  if (outQdd !== state.work.qdd) state.work.qdd.set(outQdd);
  state.work.dynamicsValid = true;
  return outQdd;
}

/** work.jointArmature = armature + h damping, h the state's implicitDampingStep (see State). */
function jointArmature(model: Model, state: State): void {
  const w = state.work, h = w.dampingStep[0];
  if (!(h >= 0) || !(h - h === 0)) throw new RangeError(`implicitDampingStep must be a finite number >= 0, got ${h}`);
  const arm = model.armature, damping = model.damping, out = w.jointArmature;
  for (let d = 0; d < model.nv; d++) out[d] = arm[d] + h * damping[d];
}

/** Generalised passive force of dof d: -damping qd - stiffness (q - springRef). */
export function passiveForce(model: Model, state: State, d: number): number {
  let f = -model.damping[d] * state.qd[d];
  const k = model.stiffness[d];
  if (k !== 0) {
    const i = model.dofLink[d];
    f -= k * (state.q[model.qOffset[i] + (d - model.vOffset[i])] - model.springRef[d]);
  }
  return f;
}

/**
 * Inbound loop (lines 9-19 of ABM.Accelerations; Featherstone 2008 table 7.1, second loop):
 * articulated inertias I^A, bias forces p^A, U = I^A S, D^-1 and u of every joint, with the
 * joint types' subspaces S written out (a 1-dof joint's S is a unit axis and D^-1 a scalar; a
 * spherical joint's S selects the angular half).
 */
function articulatedInertias(model: Model, state: State): void {
  const w = state.work;
  const IA = w.IA, pA = w.pA, v = w.v, pose = w.pose;
  const I = model.I, fext = state.fext;
  const n = model.nLinks;
  // I^A_i = I_i ;  p^A_i = v_i x* I_i v_i - f^x_i, f^x_i the external force in link coordinates:
  // n_l = R^T (n - p x f), f_l = R^T f for a world force [n; f] (moment about the world origin)
  IA.set(I); // one block copy (typed array to typed array: no view, no allocation)
  const mass = model.mass, com = model.com;
  for (let i = 0; i < n; i++) {
    const io = 36 * i, vo = 6 * i, co = 3 * i;
    const w0 = v[vo], w1 = v[vo + 1], w2 = v[vo + 2], l0 = v[vo + 3], l1 = v[vo + 4], l2 = v[vo + 5];
    // h = I v with the rigid-body inertia the model was built with, I = [[I_o, m cx], [m cx^T, m 1]]
    // (eq. 2.63; I_o its upper-left block): h = [I_o w + m c x l; m (l - c x w)]
    const m = mass[i], cx = com[co], cy = com[co + 1], cz = com[co + 2];
    const i00 = I[io], i01 = I[io + 1], i02 = I[io + 2], i11 = I[io + 7], i12 = I[io + 8], i22 = I[io + 14];
    const h0 = i00 * w0 + i01 * w1 + i02 * w2 + m * (cy * l2 - cz * l1);
    const h1 = i01 * w0 + i11 * w1 + i12 * w2 + m * (cz * l0 - cx * l2);
    const h2 = i02 * w0 + i12 * w1 + i22 * w2 + m * (cx * l1 - cy * l0);
    const h3 = m * (l0 - (cy * w2 - cz * w1));
    const h4 = m * (l1 - (cz * w0 - cx * w2));
    const h5 = m * (l2 - (cx * w1 - cy * w0));
    // v x* h (eq. 2.32)
    let p0 = w1 * h2 - w2 * h1 + (l1 * h5 - l2 * h4);
    let p1 = w2 * h0 - w0 * h2 + (l2 * h3 - l0 * h5);
    let p2 = w0 * h1 - w1 * h0 + (l0 * h4 - l1 * h3);
    let p3 = w1 * h5 - w2 * h4;
    let p4 = w2 * h3 - w0 * h5;
    let p5 = w0 * h4 - w1 * h3;
    const fx = fext[vo + 3], fy = fext[vo + 4], fz = fext[vo + 5], nx = fext[vo], ny = fext[vo + 1], nz = fext[vo + 2];
    if (fx !== 0 || fy !== 0 || fz !== 0 || nx !== 0 || ny !== 0 || nz !== 0) {
      const po = 12 * i;
      const px = pose[po + 9], py = pose[po + 10], pz = pose[po + 11];
      const mx = nx - (py * fz - pz * fy), my = ny - (pz * fx - px * fz), mz = nz - (px * fy - py * fx);
      p0 -= pose[po] * mx + pose[po + 3] * my + pose[po + 6] * mz;
      p1 -= pose[po + 1] * mx + pose[po + 4] * my + pose[po + 7] * mz;
      p2 -= pose[po + 2] * mx + pose[po + 5] * my + pose[po + 8] * mz;
      p3 -= pose[po] * fx + pose[po + 3] * fy + pose[po + 6] * fz;
      p4 -= pose[po + 1] * fx + pose[po + 4] * fy + pose[po + 7] * fz;
      p5 -= pose[po + 2] * fx + pose[po + 5] * fy + pose[po + 8] * fz;
    }
    pA[vo] = p0; pA[vo + 1] = p1; pA[vo + 2] = p2; pA[vo + 3] = p3; pA[vo + 4] = p4; pA[vo + 5] = p5;
  }
  const type = model.jointType;
  for (let i = n - 1; i >= 0; i--) {
    switch (type[i]) {
      case JointType.revolute: inboundOneDof(model, state, i, 0); break;
      case JointType.prismatic: inboundOneDof(model, state, i, 3); break;
      case JointType.spherical: inboundSpherical(model, state, i); break;
      case JointType.fixed: inboundFixed(model, state, i); break;
      case JointType.free:
        if (model.parent[i] < 0) inboundFreeRoot(model, state, i);
        else inboundGeneral(model, state, i);
        break;
      default: inboundGeneral(model, state, i);
    }
  }
}

/**
 * A revolute (off = 0) or prismatic (off = 3) joint: S = the unit axis s in the angular or the
 * linear half, so U = I^A S is three columns of I^A times s, D = s . U (+ armature + h damping) a scalar, and
 *   I^a = I^A - U U^T / D,   p^a = p^A + I^a c + U u / D = p^A + I^A c + U (u - U . c) / D
 * (table 7.1, lines for U_i, D_i, u_i, I^a_i, p^a_i), both carried to the parent by X^T.
 */
function inboundOneDof(model: Model, state: State, i: number, off: number): void {
  const w = state.work;
  const IA = w.IA, pA = w.pA, U = w.U;
  const io = 36 * i, vo = 6 * i, d = model.vOffset[i];
  const ax = model.axis, ao = 3 * i;
  const sx = ax[ao], sy = ax[ao + 1], sz = ax[ao + 2];
  // the upper triangle of I^A (symmetric): x<r><c>, r <= c
  const x00 = IA[io], x01 = IA[io + 1], x02 = IA[io + 2], x03 = IA[io + 3], x04 = IA[io + 4], x05 = IA[io + 5];
  const x11 = IA[io + 7], x12 = IA[io + 8], x13 = IA[io + 9], x14 = IA[io + 10], x15 = IA[io + 11];
  const x22 = IA[io + 14], x23 = IA[io + 15], x24 = IA[io + 16], x25 = IA[io + 17];
  const x33 = IA[io + 21], x34 = IA[io + 22], x35 = IA[io + 23];
  const x44 = IA[io + 28], x45 = IA[io + 29];
  const x55 = IA[io + 35];
  let U0: number, U1: number, U2: number, U3: number, U4: number, U5: number;
  if (off === 0) {
    U0 = x00 * sx + x01 * sy + x02 * sz;
    U1 = x01 * sx + x11 * sy + x12 * sz;
    U2 = x02 * sx + x12 * sy + x22 * sz;
    U3 = x03 * sx + x13 * sy + x23 * sz;
    U4 = x04 * sx + x14 * sy + x24 * sz;
    U5 = x05 * sx + x15 * sy + x25 * sz;
  } else {
    U0 = x03 * sx + x04 * sy + x05 * sz;
    U1 = x13 * sx + x14 * sy + x15 * sz;
    U2 = x23 * sx + x24 * sy + x25 * sz;
    U3 = x33 * sx + x34 * sy + x35 * sz;
    U4 = x34 * sx + x44 * sy + x45 * sz;
    U5 = x35 * sx + x45 * sy + x55 * sz;
  }
  U[io] = U0; U[io + 1] = U1; U[io + 2] = U2; U[io + 3] = U3; U[io + 4] = U4; U[io + 5] = U5;
  const D = (off === 0 ? sx * U0 + sy * U1 + sz * U2 : sx * U3 + sy * U4 + sz * U5) + w.jointArmature[d];
  if (!(D > 0) || !Number.isFinite(D)) throw singularJoint(model, i, D);
  const dinv = 1 / D;
  w.Dinv[io] = dinv;
  // u = tau + passive - S^T p^A, passive = -damping qd - stiffness (q - springRef)
  let uu = state.tau[d] - model.damping[d] * state.qd[d] - (sx * pA[vo + off] + sy * pA[vo + off + 1] + sz * pA[vo + off + 2]);
  const stiff = model.stiffness[d];
  if (stiff !== 0) uu -= stiff * (state.q[model.qOffset[i]] - model.springRef[d]);
  w.u[vo] = uu;
  const p = model.parent[i];
  if (p < 0) return;
  const c = w.c;
  const c0 = c[vo], c1 = c[vo + 1], c2 = c[vo + 2], c3 = c[vo + 3], c4 = c[vo + 4], c5 = c[vo + 5];
  const gain = (uu - (U0 * c0 + U1 * c1 + U2 * c2 + U3 * c3 + U4 * c4 + U5 * c5)) * dinv;
  const pa = w.tmp;
  pa[0] = pA[vo] + (x00 * c0 + x01 * c1 + x02 * c2 + x03 * c3 + x04 * c4 + x05 * c5) + U0 * gain;
  pa[1] = pA[vo + 1] + (x01 * c0 + x11 * c1 + x12 * c2 + x13 * c3 + x14 * c4 + x15 * c5) + U1 * gain;
  pa[2] = pA[vo + 2] + (x02 * c0 + x12 * c1 + x22 * c2 + x23 * c3 + x24 * c4 + x25 * c5) + U2 * gain;
  pa[3] = pA[vo + 3] + (x03 * c0 + x13 * c1 + x23 * c2 + x33 * c3 + x34 * c4 + x35 * c5) + U3 * gain;
  pa[4] = pA[vo + 4] + (x04 * c0 + x14 * c1 + x24 * c2 + x34 * c3 + x44 * c4 + x45 * c5) + U4 * gain;
  pa[5] = pA[vo + 5] + (x05 * c0 + x15 * c1 + x25 * c2 + x35 * c3 + x45 * c4 + x55 * c5) + U5 * gain;
  // I^a: upper triangle and the top-right block, which is what congruenceInertia reads
  const Ia = w.tmp2;
  const V0 = U0 * dinv, V1 = U1 * dinv, V2 = U2 * dinv, V3 = U3 * dinv, V4 = U4 * dinv, V5 = U5 * dinv;
  Ia[0] = x00 - V0 * U0; Ia[1] = x01 - V0 * U1; Ia[2] = x02 - V0 * U2;
  Ia[3] = x03 - V0 * U3; Ia[4] = x04 - V0 * U4; Ia[5] = x05 - V0 * U5;
  Ia[7] = x11 - V1 * U1; Ia[8] = x12 - V1 * U2; Ia[9] = x13 - V1 * U3;
  Ia[10] = x14 - V1 * U4; Ia[11] = x15 - V1 * U5;
  Ia[14] = x22 - V2 * U2; Ia[15] = x23 - V2 * U3; Ia[16] = x24 - V2 * U4;
  Ia[17] = x25 - V2 * U5;
  Ia[21] = x33 - V3 * U3; Ia[22] = x34 - V3 * U4; Ia[23] = x35 - V3 * U5;
  Ia[28] = x44 - V4 * U4; Ia[29] = x45 - V4 * U5;
  Ia[35] = x55 - V5 * U5;
  congruenceInertia(w.Xup, 12 * i, Ia, 0, IA, 36 * p, true, w.tmp36);
  addForceTransposed(w.Xup, 12 * i, pa, 0, pA, 6 * p);
}

/**
 * A spherical joint: S = [1; 0] (3 angular columns), so U is the first three columns of I^A,
 * D the upper-left 3x3 block (+ armature), inverted in closed form, and with W = U D^-1:
 *   I^a = I^A - W U^T,   p^a = p^A + I^A c + W (u - U^T c).
 * Spherical joints take damping but no spring.
 */
function inboundSpherical(model: Model, state: State, i: number): void {
  const w = state.work;
  const IA = w.IA, pA = w.pA, U = w.U, Dinv = w.Dinv, u = w.u, tmp = w.tmp;
  const io = 36 * i, vo = 6 * i, d = model.vOffset[i];
  // the upper triangle of I^A (symmetric): x<r><c>, r <= c; U row r = I^A[r][0..2]
  const x00 = IA[io], x01 = IA[io + 1], x02 = IA[io + 2], x03 = IA[io + 3], x04 = IA[io + 4], x05 = IA[io + 5];
  const x11 = IA[io + 7], x12 = IA[io + 8], x13 = IA[io + 9], x14 = IA[io + 10], x15 = IA[io + 11];
  const x22 = IA[io + 14], x23 = IA[io + 15], x24 = IA[io + 16], x25 = IA[io + 17];
  const x33 = IA[io + 21], x34 = IA[io + 22], x35 = IA[io + 23];
  const x44 = IA[io + 28], x45 = IA[io + 29];
  const x55 = IA[io + 35];
  // U = the first three columns of I^A (column-major)
  U[io] = x00; U[io + 1] = x01; U[io + 2] = x02; U[io + 3] = x03; U[io + 4] = x04; U[io + 5] = x05;
  U[io + 6] = x01; U[io + 7] = x11; U[io + 8] = x12; U[io + 9] = x13; U[io + 10] = x14; U[io + 11] = x15;
  U[io + 12] = x02; U[io + 13] = x12; U[io + 14] = x22; U[io + 15] = x23; U[io + 16] = x24; U[io + 17] = x25;
  const arm = w.jointArmature;
  // D into tmp[0..8]
  tmp[0] = x00 + arm[d]; tmp[1] = x01; tmp[2] = x02;
  tmp[4] = x11 + arm[d + 1]; tmp[5] = x12;
  tmp[8] = x22 + arm[d + 2];
  invertSym3(tmp, 0, Dinv, io, model, i);
  const tau = state.tau, qd = state.qd, damping = model.damping;
  const u0 = tau[d] - damping[d] * qd[d] - pA[vo];
  const u1 = tau[d + 1] - damping[d + 1] * qd[d + 1] - pA[vo + 1];
  const u2 = tau[d + 2] - damping[d + 2] * qd[d + 2] - pA[vo + 2];
  u[vo] = u0; u[vo + 1] = u1; u[vo + 2] = u2;
  const p = model.parent[i];
  if (p < 0) return;
  const d00 = Dinv[io], d01 = Dinv[io + 1], d02 = Dinv[io + 2], d11 = Dinv[io + 4], d12 = Dinv[io + 5], d22 = Dinv[io + 8];
  const c = w.c;
  const c0 = c[vo], c1 = c[vo + 1], c2 = c[vo + 2], c3 = c[vo + 3], c4 = c[vo + 4], c5 = c[vo + 5];
  // I^A c and g = u - U^T c (U^T c = columns 0..2 of I^A times c)
  const y0 = x00 * c0 + x01 * c1 + x02 * c2 + x03 * c3 + x04 * c4 + x05 * c5;
  const y1 = x01 * c0 + x11 * c1 + x12 * c2 + x13 * c3 + x14 * c4 + x15 * c5;
  const y2 = x02 * c0 + x12 * c1 + x22 * c2 + x23 * c3 + x24 * c4 + x25 * c5;
  const y3 = x03 * c0 + x13 * c1 + x23 * c2 + x33 * c3 + x34 * c4 + x35 * c5;
  const y4 = x04 * c0 + x14 * c1 + x24 * c2 + x34 * c3 + x44 * c4 + x45 * c5;
  const y5 = x05 * c0 + x15 * c1 + x25 * c2 + x35 * c3 + x45 * c4 + x55 * c5;
  const g0 = u0 - y0, g1 = u1 - y1, g2 = u2 - y2;
  // W = U D^-1 (6 x 3)
  const W00 = x00 * d00 + x01 * d01 + x02 * d02, W01 = x00 * d01 + x01 * d11 + x02 * d12, W02 = x00 * d02 + x01 * d12 + x02 * d22;
  const W10 = x01 * d00 + x11 * d01 + x12 * d02, W11 = x01 * d01 + x11 * d11 + x12 * d12, W12 = x01 * d02 + x11 * d12 + x12 * d22;
  const W20 = x02 * d00 + x12 * d01 + x22 * d02, W21 = x02 * d01 + x12 * d11 + x22 * d12, W22 = x02 * d02 + x12 * d12 + x22 * d22;
  const W30 = x03 * d00 + x13 * d01 + x23 * d02, W31 = x03 * d01 + x13 * d11 + x23 * d12, W32 = x03 * d02 + x13 * d12 + x23 * d22;
  const W40 = x04 * d00 + x14 * d01 + x24 * d02, W41 = x04 * d01 + x14 * d11 + x24 * d12, W42 = x04 * d02 + x14 * d12 + x24 * d22;
  const W50 = x05 * d00 + x15 * d01 + x25 * d02, W51 = x05 * d01 + x15 * d11 + x25 * d12, W52 = x05 * d02 + x15 * d12 + x25 * d22;
  // p^a = p^A + I^A c + W g
  const pa = tmp;
  pa[0] = pA[vo] + y0 + (W00 * g0 + W01 * g1 + W02 * g2);
  pa[1] = pA[vo + 1] + y1 + (W10 * g0 + W11 * g1 + W12 * g2);
  pa[2] = pA[vo + 2] + y2 + (W20 * g0 + W21 * g1 + W22 * g2);
  pa[3] = pA[vo + 3] + y3 + (W30 * g0 + W31 * g1 + W32 * g2);
  pa[4] = pA[vo + 4] + y4 + (W40 * g0 + W41 * g1 + W42 * g2);
  pa[5] = pA[vo + 5] + y5 + (W50 * g0 + W51 * g1 + W52 * g2);
  // I^a = I^A - W U^T: upper triangle and top-right block (what congruenceInertia reads)
  const Ia = w.tmp2;
  Ia[0] = x00 - (W00 * x00 + W01 * x01 + W02 * x02); Ia[1] = x01 - (W00 * x01 + W01 * x11 + W02 * x12);
  Ia[2] = x02 - (W00 * x02 + W01 * x12 + W02 * x22); Ia[3] = x03 - (W00 * x03 + W01 * x13 + W02 * x23);
  Ia[4] = x04 - (W00 * x04 + W01 * x14 + W02 * x24); Ia[5] = x05 - (W00 * x05 + W01 * x15 + W02 * x25);
  Ia[7] = x11 - (W10 * x01 + W11 * x11 + W12 * x12); Ia[8] = x12 - (W10 * x02 + W11 * x12 + W12 * x22);
  Ia[9] = x13 - (W10 * x03 + W11 * x13 + W12 * x23); Ia[10] = x14 - (W10 * x04 + W11 * x14 + W12 * x24);
  Ia[11] = x15 - (W10 * x05 + W11 * x15 + W12 * x25);
  Ia[14] = x22 - (W20 * x02 + W21 * x12 + W22 * x22); Ia[15] = x23 - (W20 * x03 + W21 * x13 + W22 * x23);
  Ia[16] = x24 - (W20 * x04 + W21 * x14 + W22 * x24); Ia[17] = x25 - (W20 * x05 + W21 * x15 + W22 * x25);
  Ia[21] = x33 - (W30 * x03 + W31 * x13 + W32 * x23); Ia[22] = x34 - (W30 * x04 + W31 * x14 + W32 * x24); Ia[23] = x35 - (W30 * x05 + W31 * x15 + W32 * x25);
  Ia[28] = x44 - (W40 * x04 + W41 * x14 + W42 * x24); Ia[29] = x45 - (W40 * x05 + W41 * x15 + W42 * x25);
  Ia[35] = x55 - (W50 * x05 + W51 * x15 + W52 * x25);
  congruenceInertia(w.Xup, 12 * i, Ia, 0, IA, 36 * p, true, w.tmp36);
  addForceTransposed(w.Xup, 12 * i, pa, 0, pA, 6 * p);
}

/** A fixed joint: no degree of freedom, so I^a = I^A and p^a = p^A (c = 0). */
function inboundFixed(model: Model, state: State, i: number): void {
  const p = model.parent[i];
  if (p < 0) return;
  const w = state.work;
  congruenceInertia(w.Xup, 12 * i, w.IA, 36 * i, w.IA, 36 * p, true, w.tmp36);
  addForceTransposed(w.Xup, 12 * i, w.pA, 6 * i, w.pA, 6 * p);
}

/**
 * A free joint on a root link: S = 1, so U = I^A, D = I^A + armature (inverted by 3x3 blocks), and
 * u = tau - damping qd - p^A; there is no parent to pass I^a, p^a to.
 */
function inboundFreeRoot(model: Model, state: State, i: number): void {
  const w = state.work;
  const IA = w.IA, pA = w.pA, U = w.U, u = w.u, tmp = w.tmp;
  const io = 36 * i, vo = 6 * i, d = model.vOffset[i];
  const arm = w.jointArmature, tau = state.tau, qd = state.qd, damping = model.damping;
  for (let k = 0; k < 36; k++) {
    U[io + k] = IA[io + k]; // U column k = I^A column k = I^A row k (symmetric)
    tmp[k] = IA[io + k];
  }
  for (let k = 0; k < 6; k++) {
    tmp[7 * k] += arm[d + k];
    u[vo + k] = tau[d + k] - damping[d + k] * qd[d + k] - pA[vo + k];
  }
  invertSpd6(tmp, 0, w.Dinv, io, model, i);
}

/**
 * Any joint, from its 6 x nv subspace S (used for free joints): U = I^A S, D = S^T U + armature,
 * u = tau + passive - S^T p^A; I^a = I^A - U D^-1 U^T, p^a = p^A + I^a c + U D^-1 u.
 */
function inboundGeneral(model: Model, state: State, i: number): void {
  const w = state.work;
  const IA = w.IA, pA = w.pA, U = w.U, Dinv = w.Dinv, u = w.u, c = w.c, tmp = w.tmp;
  const nv = model.jointNv[i];
  const io = 36 * i, vo = 6 * i, so = 36 * i;
  const S = model.S;
  const dof0 = model.vOffset[i];
  for (let k = 0; k < nv; k++) mulMat6Vec(IA, io, S, so + 6 * k, U, so + 6 * k);
  for (let r = 0; r < nv; r++) {
    for (let k = 0; k < nv; k++) {
      let s = 0;
      for (let e = 0; e < 6; e++) s += S[so + 6 * r + e] * U[so + 6 * k + e];
      tmp[nv * r + k] = s;
    }
    tmp[nv * r + r] += w.jointArmature[dof0 + r];
    let sp = 0;
    for (let e = 0; e < 6; e++) sp += S[so + 6 * r + e] * pA[vo + e];
    // passive force inline (a call returning a number may box it): -damping qd - stiffness (q - ref)
    const d = dof0 + r;
    let f = state.tau[d] - model.damping[d] * state.qd[d];
    const k = model.stiffness[d];
    if (k !== 0) f -= k * (state.q[model.qOffset[i] + r] - model.springRef[d]);
    u[vo + r] = f - sp;
  }
  invertSmall(tmp, nv, Dinv, so, w.tmp2, i, model);
  const p = model.parent[i];
  if (p < 0) return;
  const Ia = w.tmp2; // 36 numbers at 0
  const Ud = tmp; // U D^-1 (6 x nv col-major) at tmp[36..]
  for (let k = 0; k < nv; k++) {
    for (let e = 0; e < 6; e++) {
      let s = 0;
      for (let r = 0; r < nv; r++) s += U[so + 6 * r + e] * Dinv[so + nv * r + k];
      Ud[36 + 6 * k + e] = s;
    }
  }
  for (let r = 0; r < 6; r++) {
    for (let col = r; col < 6; col++) {
      let s = 0;
      for (let k = 0; k < nv; k++) s += Ud[36 + 6 * k + r] * U[so + 6 * k + col];
      const v = IA[io + 6 * r + col] - s;
      Ia[6 * r + col] = v;
      Ia[6 * col + r] = v;
    }
  }
  mulMat6Vec(Ia, 0, c, vo, tmp, 0);
  for (let e = 0; e < 6; e++) {
    let s = 0;
    for (let k = 0; k < nv; k++) s += Ud[36 + 6 * k + e] * u[vo + k];
    tmp[e] += pA[vo + e] + s;
  }
  congruenceInertia(w.Xup, 12 * i, Ia, 0, IA, 36 * p, true, w.tmp36);
  addForceTransposed(w.Xup, 12 * i, tmp, 0, pA, 6 * p);
}

/**
 * Outbound loop (lines 21-25; table 7.1, third loop): a'_i = X_i a_parent + c_i (a_0 = -g),
 * qdd_i = D^-1 (u - U^T a'_i), a_i = a'_i + S qdd_i.
 */
function outwardAccelerations(model: Model, state: State, qdd: Arr): void {
  const w = state.work;
  const U = w.U, Dinv = w.Dinv, u = w.u, c = w.c, a = w.a, X = w.Xup;
  const g = state.gravity;
  const n = model.nLinks;
  const type = model.jointType, parent = model.parent, vOffset = model.vOffset, axis = model.axis;
  const g0 = -g[0], g1 = -g[1], g2 = -g[2];
  for (let i = 0; i < n; i++) {
    const vo = 6 * i, xo = 12 * i, io = 36 * i, p = parent[i];
    let m0 = 0, m1 = 0, m2 = 0, m3 = g0, m4 = g1, m5 = g2;
    if (p >= 0) {
      const po = 6 * p;
      m0 = a[po]; m1 = a[po + 1]; m2 = a[po + 2]; m3 = a[po + 3]; m4 = a[po + 4]; m5 = a[po + 5];
    }
    // X m (eq. 2.24) + c
    const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];
    const t3 = m3 - (ry * m2 - rz * m1), t4 = m4 - (rz * m0 - rx * m2), t5 = m5 - (rx * m1 - ry * m0);
    let a0 = X[xo] * m0 + X[xo + 1] * m1 + X[xo + 2] * m2 + c[vo];
    let a1 = X[xo + 3] * m0 + X[xo + 4] * m1 + X[xo + 5] * m2 + c[vo + 1];
    let a2 = X[xo + 6] * m0 + X[xo + 7] * m1 + X[xo + 8] * m2 + c[vo + 2];
    let a3 = X[xo] * t3 + X[xo + 1] * t4 + X[xo + 2] * t5 + c[vo + 3];
    let a4 = X[xo + 3] * t3 + X[xo + 4] * t4 + X[xo + 5] * t5 + c[vo + 4];
    let a5 = X[xo + 6] * t3 + X[xo + 7] * t4 + X[xo + 8] * t5 + c[vo + 5];
    const t = type[i], d = vOffset[i];
    if (t === JointType.revolute || t === JointType.prismatic) {
      const q = Dinv[io] * (u[vo] - (U[io] * a0 + U[io + 1] * a1 + U[io + 2] * a2 + U[io + 3] * a3 + U[io + 4] * a4 + U[io + 5] * a5));
      qdd[d] = q;
      const ao = 3 * i;
      if (t === JointType.revolute) { a0 += axis[ao] * q; a1 += axis[ao + 1] * q; a2 += axis[ao + 2] * q; }
      else { a3 += axis[ao] * q; a4 += axis[ao + 1] * q; a5 += axis[ao + 2] * q; }
    } else if (t === JointType.spherical) {
      const e0 = u[vo] - (U[io] * a0 + U[io + 1] * a1 + U[io + 2] * a2 + U[io + 3] * a3 + U[io + 4] * a4 + U[io + 5] * a5);
      const e1 = u[vo + 1] - (U[io + 6] * a0 + U[io + 7] * a1 + U[io + 8] * a2 + U[io + 9] * a3 + U[io + 10] * a4 + U[io + 11] * a5);
      const e2 = u[vo + 2] - (U[io + 12] * a0 + U[io + 13] * a1 + U[io + 14] * a2 + U[io + 15] * a3 + U[io + 16] * a4 + U[io + 17] * a5);
      const q0 = Dinv[io] * e0 + Dinv[io + 1] * e1 + Dinv[io + 2] * e2;
      const q1 = Dinv[io + 3] * e0 + Dinv[io + 4] * e1 + Dinv[io + 5] * e2;
      const q2 = Dinv[io + 6] * e0 + Dinv[io + 7] * e1 + Dinv[io + 8] * e2;
      qdd[d] = q0; qdd[d + 1] = q1; qdd[d + 2] = q2;
      a0 += q0; a1 += q1; a2 += q2;
    } else if (t !== JointType.fixed) {
      a[vo] = a0; a[vo + 1] = a1; a[vo + 2] = a2; a[vo + 3] = a3; a[vo + 4] = a4; a[vo + 5] = a5;
      outwardGeneral(model, w, i, qdd);
      continue;
    }
    a[vo] = a0; a[vo + 1] = a1; a[vo + 2] = a2; a[vo + 3] = a3; a[vo + 4] = a4; a[vo + 5] = a5;
  }
}

/** qdd_i = D^-1 (u - U^T a'_i), a_i = a'_i + S qdd_i from S, for any joint (a'_i in a). */
function outwardGeneral(model: Model, w: State['work'], i: number, qdd: Arr): void {
  const U = w.U, Dinv = w.Dinv, u = w.u, a = w.a, tmp = w.tmp, S = model.S;
  const nv = model.jointNv[i];
  const vo = 6 * i, so = 36 * i, dof0 = model.vOffset[i];
  for (let r = 0; r < nv; r++) {
    let s = u[vo + r];
    for (let e = 0; e < 6; e++) s -= U[so + 6 * r + e] * a[vo + e];
    tmp[r] = s;
  }
  for (let r = 0; r < nv; r++) {
    let s = 0;
    for (let k = 0; k < nv; k++) s += Dinv[so + nv * r + k] * tmp[k];
    qdd[dof0 + r] = s;
  }
  for (let k = 0; k < nv; k++) {
    const qk = qdd[dof0 + k];
    for (let e = 0; e < 6; e++) a[vo + e] += S[so + 6 * k + e] * qk;
  }
}

/** out += X^T f (force carried from child to parent coordinates). */
function addForceTransposed(X: Arr, xo: number, f: Arr, fo: number, out: Arr, oo: number): void {
  const nx = f[fo], ny = f[fo + 1], nz = f[fo + 2], gx = f[fo + 3], gy = f[fo + 4], gz = f[fo + 5];
  const Fx = X[xo] * gx + X[xo + 3] * gy + X[xo + 6] * gz;
  const Fy = X[xo + 1] * gx + X[xo + 4] * gy + X[xo + 7] * gz;
  const Fz = X[xo + 2] * gx + X[xo + 5] * gy + X[xo + 8] * gz;
  const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];
  out[oo] += X[xo] * nx + X[xo + 3] * ny + X[xo + 6] * nz + (ry * Fz - rz * Fy);
  out[oo + 1] += X[xo + 1] * nx + X[xo + 4] * ny + X[xo + 7] * nz + (rz * Fx - rx * Fz);
  out[oo + 2] += X[xo + 2] * nx + X[xo + 5] * ny + X[xo + 8] * nz + (rx * Fy - ry * Fx);
  out[oo + 3] += Fx; out[oo + 4] += Fy; out[oo + 5] += Fz;
}

/**
 * A force given in world coordinates [moment about the world origin; force] expressed in link
 * coordinates, with pose (R, p) of the link: n_l = R^T (n - p x f), f_l = R^T f.
 */
export function forceWorldToLink(pose: Arr, po: number, f: Arr, fo: number, out: Arr, oo: number): void {
  const gx = f[fo + 3], gy = f[fo + 4], gz = f[fo + 5];
  const px = pose[po + 9], py = pose[po + 10], pz = pose[po + 11];
  const mx = f[fo] - (py * gz - pz * gy);
  const my = f[fo + 1] - (pz * gx - px * gz);
  const mz = f[fo + 2] - (px * gy - py * gx);
  out[oo] = pose[po] * mx + pose[po + 3] * my + pose[po + 6] * mz;
  out[oo + 1] = pose[po + 1] * mx + pose[po + 4] * my + pose[po + 7] * mz;
  out[oo + 2] = pose[po + 2] * mx + pose[po + 5] * my + pose[po + 8] * mz;
  out[oo + 3] = pose[po] * gx + pose[po + 3] * gy + pose[po + 6] * gz;
  out[oo + 4] = pose[po + 1] * gx + pose[po + 4] * gy + pose[po + 7] * gz;
  out[oo + 5] = pose[po + 2] * gx + pose[po + 5] * gy + pose[po + 8] * gz;
}

/** A force in link coordinates expressed in world coordinates (moment about the world origin). */
export function forceLinkToWorld(pose: Arr, po: number, f: ArrayLike<number>, fo: number, out: Arr, oo: number): void {
  const nx = f[fo], ny = f[fo + 1], nz = f[fo + 2], gx = f[fo + 3], gy = f[fo + 4], gz = f[fo + 5];
  const Fx = pose[po] * gx + pose[po + 1] * gy + pose[po + 2] * gz;
  const Fy = pose[po + 3] * gx + pose[po + 4] * gy + pose[po + 5] * gz;
  const Fz = pose[po + 6] * gx + pose[po + 7] * gy + pose[po + 8] * gz;
  const px = pose[po + 9], py = pose[po + 10], pz = pose[po + 11];
  out[oo] = pose[po] * nx + pose[po + 1] * ny + pose[po + 2] * nz + (py * Fz - pz * Fy);
  out[oo + 1] = pose[po + 3] * nx + pose[po + 4] * ny + pose[po + 5] * nz + (pz * Fx - px * Fz);
  out[oo + 2] = pose[po + 6] * nx + pose[po + 7] * ny + pose[po + 8] * nz + (px * Fy - py * Fx);
  out[oo + 3] = Fx; out[oo + 4] = Fy; out[oo + 5] = Fz;
}
