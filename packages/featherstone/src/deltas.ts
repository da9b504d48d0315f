/**
 * ABM.AccelerationDeltas (Kokkevis, "Practical Physics for Articulated Characters", section 4.3):
 * the change in every joint acceleration caused by a test force on one link, or a test torque on
 * one dof, computed from the quantities the last forwardDynamics call left behind (X, U = h,
 * D^-1 = 1/d), in O(n) without re-running ABA.
 *
 * Inbound, only the ancestors of the loaded link see a change of bias force:
 *   dp_l = -f_l,  du_i = -S_i^T dp_i,  dp_parent = X_i^T (dp_i + U_i D_i^-1 du_i)   (lines 6-16)
 * Outbound, every link's acceleration changes:
 *   dqdd_i = D_i^-1 (du_i - U_i^T X_i da_parent),  da_i = X_i da_parent + S_i dqdd_i   (lines 18-22)
 * (du_i is zero off the path). No velocity-product or gravity terms appear: they are unchanged.
 *
 * Forces here are Featherstone's [moment; force]; the paper writes [force; moment] with a spatial
 * transpose, which is the same pairing.
 *
 * The slow reference of section 4.2 (the test-force method, two ABA calls per column) is here too.
 */
import { forceLinkToWorld, forwardDynamics } from './aba.js';
import type { Model } from './model.js';
import { xformMotion, type Arr } from './spatial.js';
import type { State } from './state.js';

function requireDynamics(state: State): void {
  if (!state.work.dynamicsValid) {
    throw new Error('accelerationDeltas: call forwardDynamics on this state first (its articulated inertias are reused)');
  }
}

/**
 * Delta joint accelerations (outDqdd, length nv) for a spatial test force f (6 numbers at fo, link
 * coordinates, [moment about the link origin; force]) on link `link`. The delta link spatial
 * accelerations (link coordinates) are left in state.work.da.
 */
export function accelerationDeltasForce(model: Model, state: State, link: number, f: ArrayLike<number>, fo: number, outDqdd: Arr): Arr {
  requireDynamics(state);
  const w = state.work;
  const dp = w.dp, lo = 6 * link;
  for (let e = 0; e < 6; e++) dp[lo + e] = -f[fo + e];
  propagateInbound(model, state, link, null, 0);
  outward(model, state, outDqdd);
  return outDqdd;
}

/**
 * Delta joint accelerations for a test torque of `magnitude` on dof `dof` (the Kokkevis variant:
 * dp_l = 0 and du_l gains the torque).
 */
export function accelerationDeltasTorque(model: Model, state: State, dof: number, magnitude: number, outDqdd: Arr): Arr {
  requireDynamics(state);
  const link = model.dofLink[dof];
  const jf = state.work.tmp2; // joint force vector at 66..71
  jf.fill(0, 66, 72);
  jf[66 + dof - model.vOffset[link]] = magnitude;
  state.work.dp.fill(0, 6 * link, 6 * link + 6);
  propagateInbound(model, state, link, jf, 66);
  outward(model, state, outDqdd);
  return outDqdd;
}

/**
 * Delta joint accelerations for a generalised force vector on all the dofs of one joint (nv
 * numbers at vo, e.g. a torque vector on a spherical joint in its link frame). The joint force acts
 * between the link and its parent, like a motor.
 */
export function accelerationDeltasJointForce(model: Model, state: State, link: number, force: ArrayLike<number>, fo: number, outDqdd: Arr): Arr {
  requireDynamics(state);
  state.work.dp.fill(0, 6 * link, 6 * link + 6);
  propagateInbound(model, state, link, force, fo);
  outward(model, state, outDqdd);
  return outDqdd;
}

/**
 * Delta joint accelerations for a unit force along world direction `dir` applied at the world point
 * `point` on link `link`.
 */
export function accelerationDeltasPointForce(model: Model, state: State, link: number, point: ArrayLike<number>, dir: ArrayLike<number>, outDqdd: Arr): Arr {
  const f6 = state.work.tmp2; // 6 numbers at 60
  pointForceToLink(state, link, point, dir, f6, 60);
  return accelerationDeltasForce(model, state, link, f6, 60, outDqdd);
}

/**
 * The spatial force (link coordinates) of a force `dir` (world) applied at world point `point` on
 * link `link`: f_l = R^T dir, n_l = (R^T (point - p)) x f_l.
 */
export function pointForceToLink(state: State, link: number, point: ArrayLike<number>, dir: ArrayLike<number>, out: Arr, oo: number): void {
  const P = state.work.pose, po = 12 * link;
  const fx = P[po] * dir[0] + P[po + 3] * dir[1] + P[po + 6] * dir[2];
  const fy = P[po + 1] * dir[0] + P[po + 4] * dir[1] + P[po + 7] * dir[2];
  const fz = P[po + 2] * dir[0] + P[po + 5] * dir[1] + P[po + 8] * dir[2];
  const dx = point[0] - P[po + 9], dy = point[1] - P[po + 10], dz = point[2] - P[po + 11];
  const rx = P[po] * dx + P[po + 3] * dy + P[po + 6] * dz;
  const ry = P[po + 1] * dx + P[po + 4] * dy + P[po + 7] * dz;
  const rz = P[po + 2] * dx + P[po + 5] * dy + P[po + 8] * dz;
  out[oo] = ry * fz - rz * fy;
  out[oo + 1] = rz * fx - rx * fz;
  out[oo + 2] = rx * fy - ry * fx;
  out[oo + 3] = fx; out[oo + 4] = fy; out[oo + 5] = fz;
}

/** Inbound loop over the ancestors of `link` (dp of `link` already set). Marks them with a fresh stamp. */
function propagateInbound(model: Model, state: State, link: number, jointForce: ArrayLike<number> | null, jfo: number): void {
  const w = state.work;
  const { dp, du, U, Dinv, Xup, stamp } = w;
  const S = model.S;
  const tag = ++w.stampCounter;
  const pa = w.tmp2; // 6 numbers at 0, U D^-1 du scratch at 6
  for (let i = link; i >= 0; i = model.parent[i]) {
    stamp[i] = tag;
    const nv = model.jointNv[i];
    const vo = 6 * i, so = 36 * i;
    for (let r = 0; r < nv; r++) {
      let s = 0;
      for (let e = 0; e < 6; e++) s -= S[so + 6 * r + e] * dp[vo + e];
      du[vo + r] = s;
    }
    if (jointForce !== null && i === link) for (let r = 0; r < nv; r++) du[vo + r] += jointForce[jfo + r];
    const p = model.parent[i];
    if (p < 0) break;
    // pa = dp + U D^-1 du
    for (let r = 0; r < nv; r++) {
      let s = 0;
      for (let k = 0; k < nv; k++) s += Dinv[so + nv * r + k] * du[vo + k];
      pa[6 + r] = s;
    }
    for (let e = 0; e < 6; e++) {
      let s = dp[vo + e];
      for (let r = 0; r < nv; r++) s += U[so + 6 * r + e] * pa[6 + r];
      pa[e] = s;
    }
    // dp_parent = X^T pa (one child on the path: assignment, not accumulation)
    const xo = 12 * i;
    const Fx = Xup[xo] * pa[3] + Xup[xo + 3] * pa[4] + Xup[xo + 6] * pa[5];
    const Fy = Xup[xo + 1] * pa[3] + Xup[xo + 4] * pa[4] + Xup[xo + 7] * pa[5];
    const Fz = Xup[xo + 2] * pa[3] + Xup[xo + 5] * pa[4] + Xup[xo + 8] * pa[5];
    const rx = Xup[xo + 9], ry = Xup[xo + 10], rz = Xup[xo + 11];
    const po = 6 * p;
    dp[po] = Xup[xo] * pa[0] + Xup[xo + 3] * pa[1] + Xup[xo + 6] * pa[2] + (ry * Fz - rz * Fy);
    dp[po + 1] = Xup[xo + 1] * pa[0] + Xup[xo + 4] * pa[1] + Xup[xo + 7] * pa[2] + (rz * Fx - rx * Fz);
    dp[po + 2] = Xup[xo + 2] * pa[0] + Xup[xo + 5] * pa[1] + Xup[xo + 8] * pa[2] + (rx * Fy - ry * Fx);
    dp[po + 3] = Fx; dp[po + 4] = Fy; dp[po + 5] = Fz;
  }
}

function outward(model: Model, state: State, dqdd: Arr): void {
  const w = state.work;
  const { du, U, Dinv, Xup, stamp, da } = w;
  const tag = w.stampCounter;
  const S = model.S;
  const tmp = w.tmp2; // at 12..17
  const n = model.nLinks;
  for (let i = 0; i < n; i++) {
    const nv = model.jointNv[i];
    const vo = 6 * i, so = 36 * i, dof0 = model.vOffset[i];
    const p = model.parent[i];
    if (p < 0) da.fill(0, vo, vo + 6);
    else xformMotion(Xup, 12 * i, da, 6 * p, da, vo);
    const onPath = stamp[i] === tag;
    for (let r = 0; r < nv; r++) {
      let s = onPath ? du[vo + r] : 0;
      for (let e = 0; e < 6; e++) s -= U[so + 6 * r + e] * da[vo + e];
      tmp[12 + r] = s;
    }
    for (let r = 0; r < nv; r++) {
      let s = 0;
      for (let k = 0; k < nv; k++) s += Dinv[so + nv * r + k] * tmp[12 + k];
      dqdd[dof0 + r] = s;
    }
    for (let k = 0; k < nv; k++) {
      const qk = dqdd[dof0 + k];
      if (qk === 0) continue;
      for (let e = 0; e < 6; e++) da[vo + e] += S[so + 6 * k + e] * qk;
    }
  }
}

/**
 * The test-force method of section 4.2 (reference): applies the spatial force f (link coordinates)
 * to link `link`, runs ABA again, and returns qdd_t - qdd_0 in outDqdd. The state's forces and its
 * ABA quantities are restored afterwards (forwardDynamics is re-run).
 */
export function testForceDeltasForce(model: Model, state: State, link: number, f: ArrayLike<number>, fo: number, outDqdd: Arr): Arr {
  const w = state.work;
  const qdd0 = w.qddScratch;
  forwardDynamics(model, state, qdd0);
  const fw = w.tmp2;
  forceLinkToWorld(w.pose, 12 * link, f, fo, fw, 48);
  const ext = state.fext, eo = 6 * link;
  const saved0 = ext[eo], saved1 = ext[eo + 1], saved2 = ext[eo + 2], saved3 = ext[eo + 3], saved4 = ext[eo + 4], saved5 = ext[eo + 5];
  for (let e = 0; e < 6; e++) ext[eo + e] += fw[48 + e];
  forwardDynamics(model, state, outDqdd);
  ext[eo] = saved0; ext[eo + 1] = saved1; ext[eo + 2] = saved2; ext[eo + 3] = saved3; ext[eo + 4] = saved4; ext[eo + 5] = saved5;
  for (let d = 0; d < model.nv; d++) outDqdd[d] -= qdd0[d];
  forwardDynamics(model, state);
  return outDqdd;
}

/** The test-force method for a torque of `magnitude` on dof `dof`. */
export function testForceDeltasTorque(model: Model, state: State, dof: number, magnitude: number, outDqdd: Arr): Arr {
  const qdd0 = state.work.qddScratch;
  forwardDynamics(model, state, qdd0);
  const saved = state.tau[dof];
  state.tau[dof] += magnitude;
  forwardDynamics(model, state, outDqdd);
  state.tau[dof] = saved;
  for (let d = 0; d < model.nv; d++) outDqdd[d] -= qdd0[d];
  forwardDynamics(model, state);
  return outDqdd;
}

/** What a test force acts on: a spatial force on a link (link coordinates), a unit force at a world point along a world direction, or a torque on a dof. */
export type TestForce =
  | { link: number; force: ArrayLike<number> }
  | { link: number; point: ArrayLike<number>; direction: ArrayLike<number> }
  | { dof: number; torque?: number };

/**
 * ABM.AccelerationDeltas of the Kokkevis paper: the change of all joint accelerations caused by
 * one test force, from the quantities of the last forwardDynamics call. O(n).
 */
export function accelerationDeltas(model: Model, state: State, source: TestForce, outDqdd: Arr): Arr {
  if ('dof' in source) return accelerationDeltasTorque(model, state, source.dof, source.torque ?? 1, outDqdd);
  if ('force' in source) return accelerationDeltasForce(model, state, source.link, source.force, 0, outDqdd);
  return accelerationDeltasPointForce(model, state, source.link, source.point, source.direction, outDqdd);
}

/** The same deltas by the test-force method (section 4.2): two ABA calls. A reference for tests and benchmarks. */
export function testForceDeltas(model: Model, state: State, source: TestForce, outDqdd: Arr): Arr {
  if ('dof' in source) return testForceDeltasTorque(model, state, source.dof, source.torque ?? 1, outDqdd);
  if ('force' in source) return testForceDeltasForce(model, state, source.link, source.force, 0, outDqdd);
  const f6 = new Float64Array(6);
  pointForceToLink(state, source.link, source.point, source.direction, f6, 0);
  return testForceDeltasForce(model, state, source.link, f6, 0, outDqdd);
}
