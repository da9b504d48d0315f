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
import { JointType } from './joints.js';
import type { Arr } from './spatial.js';
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
  const F = state.work.batchForce;
  for (let e = 0; e < 6; e++) F[e] = -f[fo + e];
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
  state.work.batchForce.fill(0, 0, 6);
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
  state.work.batchForce.fill(0, 0, 6);
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

/**
 * The inbound half of AccelerationDeltas alone (lines 6-16), for the constraint solver's implicit
 * mode. The test force is a spatial force f (link coordinates, at fo) on `link`, or, when f is
 * null, a generalised force on the dofs of `link`'s own joint (jointForce at jfo, one number per
 * dof). The joint forces du_i it leaves on the path from `link` to the root are written out along
 * that path, the link's dofs first (last dof first), then each ancestor's: dof indices (plus
 * dofBase: a caller keeping several bodies' dofs in one array gives its offset) into outDof, du
 * into outDu, and D_i^-1 du_i into outDinvDu (as the pass computed it), from index oo. Returns how
 * many.
 *
 * Why this is enough: read as a factorisation, ABA gives M^-1 = L^-1 D^-1 L^-T with D block
 * diagonal (the joints' D_i). The inbound pass, carrying forces to the parent by
 * X_i^T (1 - U_i D_i^-1 S_i^T), applies L^-T; the outbound pass, carrying accelerations to the
 * child by the transpose (1 - S_i D_i^-1 U_i^T) X_i and dividing by D_i, applies L^-1 D^-1. So
 * for two test forces whose inbound passes leave u and u', J M^-1 J'^T = u . D^-1 u', summed over
 * the joints both paths share: no outbound pass per test force. accelerationDeltasOutbound turns a
 * sum of inbound results into accelerations, once.
 */
export function accelerationDeltasInbound(
  model: Model, state: State, link: number, f: ArrayLike<number> | null, fo: number, jointForce: ArrayLike<number> | null, jfo: number,
  outDof: Int32Array, outDu: Float64Array, outDinvDu: Float64Array, oo: number, dofBase = 0,
): number {
  requireDynamics(state);
  const F = state.work.batchForce;
  if (f !== null) for (let e = 0; e < 6; e++) F[e] = -f[fo + e];
  else F.fill(0, 0, 6);
  return inboundPath(model, state, link, 1, f === null ? jointForce : null, jfo, outDof, outDu, outDinvDu, oo, dofBase);
}

/** Most test forces accelerationDeltasInboundBatch takes in one call. */
export const INBOUND_BATCH = 8;

/**
 * accelerationDeltasInbound for `count` (<= INBOUND_BATCH) spatial test forces on one link at once:
 * force v at fo + v * fStride (link coordinates). Each force goes through the same arithmetic as
 * alone, so the results are the same to the bit; the path from `link` to the root is walked once
 * and each joint's quantities (X, U, D^-1) are read once for all of them. Force v's entries are
 * written from oo + v * n, n being the path's dof count, which is returned (the layout of `count`
 * calls of accelerationDeltasInbound in a row).
 */
export function accelerationDeltasInboundBatch(
  model: Model, state: State, link: number, f: ArrayLike<number>, fo: number, fStride: number, count: number,
  outDof: Int32Array, outDu: Float64Array, outDinvDu: Float64Array, oo: number, dofBase = 0,
): number {
  requireDynamics(state);
  if (!(count >= 1 && count <= INBOUND_BATCH)) throw new RangeError(`accelerationDeltasInboundBatch: count must be 1..${INBOUND_BATCH}, got ${count}`);
  const F = state.work.batchForce;
  for (let v = 0; v < count; v++) for (let e = 0; e < 6; e++) F[6 * v + e] = -f[fo + v * fStride + e];
  return inboundPath(model, state, link, count, null, 0, outDof, outDu, outDinvDu, oo, dofBase);
}

/**
 * accelerationDeltasInbound for a pair of spatial test forces on two links of one tree at once
 * (the two sides of a row between two links of one body: f at fa on linkA, f at fb on linkB, link
 * coordinates). The inbound pass is linear in its force, so the two are carried up separately
 * only to the links' lowest common ancestor; there their forces add, and one pass goes on to the
 * root. The entries (written from oo) are linkA's branch, linkB's branch, then the common path,
 * each joint once: u = u_A + u_B, with u . D^-1 u the pair's diagonal entry of J M^-1 J^T.
 * Returns how many. (Links on separate trees of a forest share no ancestor: both paths are written.)
 */
export function accelerationDeltasInboundPair(
  model: Model, state: State, linkA: number, linkB: number, f: ArrayLike<number>, fa: number, fb: number,
  outDof: Int32Array, outDu: Float64Array, outDinvDu: Float64Array, oo: number, dofBase = 0,
): number {
  requireDynamics(state);
  const parent = model.parent, F = state.work.batchForce;
  // (a parent's index is below its children's)
  let a = linkA, b = linkB;
  while (a !== b) if (a > b) a = parent[a]; else b = parent[b];
  const common = a;
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, n = 0;
  for (let side = 0; side < 2; side++) {
    const link = side === 0 ? linkA : linkB, fo = side === 0 ? fa : fb;
    for (let e = 0; e < 6; e++) F[e] = -f[fo + e];
    // the branch below the common ancestor leaves its force, carried up, in F
    if (link !== common) n += inboundPath(model, state, link, 1, null, 0, outDof, outDu, outDinvDu, oo + n, dofBase, common);
    s0 += F[0]; s1 += F[1]; s2 += F[2]; s3 += F[3]; s4 += F[4]; s5 += F[5];
  }
  if (common < 0) return n;
  F[0] = s0; F[1] = s1; F[2] = s2; F[3] = s3; F[4] = s4; F[5] = s5;
  return n + inboundPath(model, state, common, 1, null, 0, outDof, outDu, outDinvDu, oo + n, dofBase);
}

/**
 * AccelerationDeltas for test forces on any number of links and joints at once: spatial forces f
 * (6 per link from fo, link coordinates, [moment; force]; zero where none acts) and joint forces
 * tau (one per dof from to, or null). By linearity the result is the sum of the single calls'
 * (M^-1 of the summed generalised force), in one inbound pass over the whole tree (lines 6-16
 * with every link loaded: a link's dp is minus its own force plus what its children carry up)
 * and one outbound pass (lines 18-22). The delta link accelerations are left in state.work.da.
 * O(n) whatever the number of forces. With outZ, D_i^-1 du_i of every joint goes there too (one
 * per dof from zo): the z = D^-1 sum_i u_i f_i of accelerationDeltasOutboundScaled.
 */
export function accelerationDeltasForces(
  model: Model, state: State, f: ArrayLike<number>, fo: number, tau: ArrayLike<number> | null, to: number, outDqdd: Arr,
  outZ: Arr | null = null, zo = 0,
): Arr {
  requireDynamics(state);
  const w = state.work, dp = w.dp, du = w.du, U = w.U, Dinv = w.Dinv, Xup = w.Xup, n = model.nLinks;
  const type = model.jointType, parent = model.parent, axis = model.axis, vOffset = model.vOffset;
  for (let e = 0, end = 6 * n; e < end; e++) dp[e] = -f[fo + e];
  const tag = ++w.stampCounter;
  for (let i = n - 1; i >= 0; i--) {
    const o = 6 * i, io = 36 * i, t = type[i], p = parent[i], v0 = vOffset[i];
    w.stamp[i] = tag;
    // dp_i, carried up as dp_i + U_i D_i^-1 du_i (lines 6-16). The joint types are written out as
    // in inboundPath, here in one loop over the tree with the force in locals: through one
    // inboundPath call per link the pass took half as long again.
    let a0 = dp[o], a1 = dp[o + 1], a2 = dp[o + 2], a3 = dp[o + 3], a4 = dp[o + 4], a5 = dp[o + 5];
    if (t === JointType.revolute || t === JointType.prismatic) {
      const ao = 3 * i, sx = axis[ao], sy = axis[ao + 1], sz = axis[ao + 2];
      let g = t === JointType.revolute ? -(sx * a0 + sy * a1 + sz * a2) : -(sx * a3 + sy * a4 + sz * a5);
      if (tau !== null) g += tau[to + v0];
      const k = Dinv[io] * g;
      du[o] = g;
      if (outZ !== null) outZ[zo + v0] = k;
      a0 += U[io] * k; a1 += U[io + 1] * k; a2 += U[io + 2] * k; a3 += U[io + 3] * k; a4 += U[io + 4] * k; a5 += U[io + 5] * k;
    } else if (t === JointType.spherical) {
      let g0 = -a0, g1 = -a1, g2 = -a2;
      if (tau !== null) { g0 += tau[to + v0]; g1 += tau[to + v0 + 1]; g2 += tau[to + v0 + 2]; }
      const k0 = Dinv[io] * g0 + Dinv[io + 1] * g1 + Dinv[io + 2] * g2;
      const k1 = Dinv[io + 3] * g0 + Dinv[io + 4] * g1 + Dinv[io + 5] * g2;
      const k2 = Dinv[io + 6] * g0 + Dinv[io + 7] * g1 + Dinv[io + 8] * g2;
      du[o] = g0; du[o + 1] = g1; du[o + 2] = g2;
      if (outZ !== null) { outZ[zo + v0] = k0; outZ[zo + v0 + 1] = k1; outZ[zo + v0 + 2] = k2; }
      a0 += U[io] * k0 + U[io + 6] * k1 + U[io + 12] * k2;
      a1 += U[io + 1] * k0 + U[io + 7] * k1 + U[io + 13] * k2;
      a2 += U[io + 2] * k0 + U[io + 8] * k1 + U[io + 14] * k2;
      a3 += U[io + 3] * k0 + U[io + 9] * k1 + U[io + 15] * k2;
      a4 += U[io + 4] * k0 + U[io + 10] * k1 + U[io + 16] * k2;
      a5 += U[io + 5] * k0 + U[io + 11] * k1 + U[io + 17] * k2;
    } else if (t === JointType.free && p < 0) {
      // S = 1: du = -dp (+ the joint force); nothing above it
      for (let r = 0; r < 6; r++) du[o + r] = -dp[o + r] + (tau !== null ? tau[to + v0 + r] : 0);
      if (outZ !== null) {
        for (let r = 0; r < 6; r++) {
          const ro = io + 6 * r;
          outZ[zo + v0 + r] = Dinv[ro] * du[o] + Dinv[ro + 1] * du[o + 1] + Dinv[ro + 2] * du[o + 2] + Dinv[ro + 3] * du[o + 3] + Dinv[ro + 4] * du[o + 4] + Dinv[ro + 5] * du[o + 5];
        }
      }
      continue;
    } else if (t !== JointType.fixed) {
      // other joints through their S: this joint alone by inboundPath, which carries F up
      const F = w.batchForce;
      F[0] = a0; F[1] = a1; F[2] = a2; F[3] = a3; F[4] = a4; F[5] = a5;
      const nv = inboundPath(model, state, i, 1, tau, to + v0, w.pathDof, w.pathDu, w.pathDinvDu, 0, 0, p);
      // (entries come last dof first)
      for (let r = 0; r < nv; r++) du[o + r] = w.pathDu[nv - 1 - r];
      if (outZ !== null) for (let r = 0; r < nv; r++) outZ[zo + v0 + r] = w.pathDinvDu[nv - 1 - r];
      if (p >= 0) addToParent(dp, 6 * p, F[0], F[1], F[2], F[3], F[4], F[5]);
      continue;
    }
    if (p < 0) continue;
    // dp_parent += X_i^T (dp_i + U_i D_i^-1 du_i)
    const xo = 12 * i;
    const Fx = Xup[xo] * a3 + Xup[xo + 3] * a4 + Xup[xo + 6] * a5;
    const Fy = Xup[xo + 1] * a3 + Xup[xo + 4] * a4 + Xup[xo + 7] * a5;
    const Fz = Xup[xo + 2] * a3 + Xup[xo + 5] * a4 + Xup[xo + 8] * a5;
    const rx = Xup[xo + 9], ry = Xup[xo + 10], rz = Xup[xo + 11];
    addToParent(dp, 6 * p,
      Xup[xo] * a0 + Xup[xo + 3] * a1 + Xup[xo + 6] * a2 + (ry * Fz - rz * Fy),
      Xup[xo + 1] * a0 + Xup[xo + 4] * a1 + Xup[xo + 7] * a2 + (rz * Fx - rx * Fz),
      Xup[xo + 2] * a0 + Xup[xo + 5] * a1 + Xup[xo + 8] * a2 + (rx * Fy - ry * Fx),
      Fx, Fy, Fz);
  }
  outward(model, state, outDqdd);
  return outDqdd;
}

/** dp[po..po+6) += (f0..f5). */
function addToParent(dp: Float64Array, po: number, f0: number, f1: number, f2: number, f3: number, f4: number, f5: number): void {
  dp[po] += f0; dp[po + 1] += f1; dp[po + 2] += f2; dp[po + 3] += f3; dp[po + 4] += f4; dp[po + 5] += f5;
}

/**
 * The outbound half of AccelerationDeltas (lines 18-22) for joint forces du given on every dof
 * (nv numbers at duo, zero where no test force reached): the delta joint accelerations
 * M^-1 J^T f of the test forces whose inbound halves sum to du (accelerationDeltasInbound), in one
 * pass over the tree. The delta link accelerations are left in state.work.da.
 */
export function accelerationDeltasOutbound(model: Model, state: State, du: ArrayLike<number>, duo: number, outDqdd: Arr): Arr {
  return outbound(model, state, du, duo, outDqdd, false);
}

/**
 * accelerationDeltasOutbound given z = D^-1 du joint by joint instead of du (the sum of the
 * inbound halves' D^-1 u entries: what the constraint solver's sweeps keep up to date), which
 * saves gathering du: dqdd_i = z_i - D_i^-1 U_i^T da'_i.
 */
export function accelerationDeltasOutboundScaled(model: Model, state: State, z: ArrayLike<number>, zo: number, outDqdd: Arr): Arr {
  return outbound(model, state, z, zo, outDqdd, true);
}

function outbound(model: Model, state: State, du: ArrayLike<number>, duo: number, outDqdd: Arr, scaled: boolean): Arr {
  requireDynamics(state);
  const w = state.work, tag = ++w.stampCounter;
  for (let i = 0; i < model.nLinks; i++) {
    w.stamp[i] = tag;
    const v0 = model.vOffset[i], vo = 6 * i;
    for (let r = 0; r < model.jointNv[i]; r++) w.du[vo + r] = du[duo + v0 + r];
  }
  outward(model, state, outDqdd, scaled);
  return outDqdd;
}

/**
 * The inbound pass of the full AccelerationDeltas (work.batchForce[0..6) holds dp of `link`): the
 * path's du_i go to work.du, 6 per link, and its links are marked with a fresh stamp, for outward.
 */
function propagateInbound(model: Model, state: State, link: number, jointForce: ArrayLike<number> | null, jfo: number): void {
  const w = state.work;
  const n = inboundPath(model, state, link, 1, jointForce, jfo, w.pathDof, w.pathDu, w.pathDinvDu, 0, 0);
  const tag = ++w.stampCounter;
  for (let i = link; i >= 0; i = model.parent[i]) w.stamp[i] = tag;
  for (let k = 0; k < n; k++) {
    const d = w.pathDof[k], i = model.dofLink[d];
    w.du[6 * i + d - model.vOffset[i]] = w.pathDu[k];
  }
}

/**
 * Inbound loop over `link` and its ancestors up to `stop` (not included; -1: to the root), lines
 * 6-16, for `count` test forces at once (dp of
 * force v in work.batchForce at 6 v, and carried up there):
 *   du_i = -S_i^T dp_i (+ the joint force on `link`),  dp_parent = X_i^T (dp_i + U_i D_i^-1 du_i).
 * Force v's path entries (dof, du_i, D_i^-1 du_i, each link's last dof first) are written from
 * oo + v n, n the path's dof count (returned). 1-dof joints (S a unit axis, D^-1 a scalar),
 * spherical joints (S the angular half, D^-1 3x3) and a free root (S = 1) are written out; other
 * joints go through S.
 */
function inboundPath(
  model: Model, state: State, link: number, count: number, jointForce: ArrayLike<number> | null, jfo: number,
  outDof: Int32Array, outDu: Float64Array, outDinvDu: Float64Array, oo: number, dofBase: number, stop = -1,
): number {
  const w = state.work, F = w.batchForce;
  const U = w.U, Dinv = w.Dinv, Xup = w.Xup;
  const type = model.jointType, parent = model.parent, axis = model.axis, jointNv = model.jointNv;
  let n = 0;
  for (let i = link; i !== stop; i = parent[i]) n += jointNv[i];
  let at = oo;
  for (let i = link; i !== stop; i = parent[i]) {
    // (v0: the joint's first dof as written out, dofBase added)
    const io = 36 * i, t = type[i], p = parent[i], nv = jointNv[i], v0 = model.vOffset[i] + dofBase, xo = 12 * i;
    const jf = jointForce !== null && i === link;
    for (let v = 0; v < count; v++) {
      const fv = 6 * v, ov = at + v * n;
      const d0 = F[fv], d1 = F[fv + 1], d2 = F[fv + 2], d3 = F[fv + 3], d4 = F[fv + 4], d5 = F[fv + 5];
      let a0 = d0, a1 = d1, a2 = d2, a3 = d3, a4 = d4, a5 = d5;
      if (t === JointType.revolute || t === JointType.prismatic) {
        const ao = 3 * i;
        const sx = axis[ao], sy = axis[ao + 1], sz = axis[ao + 2];
        let g = t === JointType.revolute ? -(sx * d0 + sy * d1 + sz * d2) : -(sx * d3 + sy * d4 + sz * d5);
        if (jf) g += jointForce![jfo];
        const k = Dinv[io] * g;
        outDof[ov] = v0; outDu[ov] = g; outDinvDu[ov] = k;
        if (p >= 0) { a0 += U[io] * k; a1 += U[io + 1] * k; a2 += U[io + 2] * k; a3 += U[io + 3] * k; a4 += U[io + 4] * k; a5 += U[io + 5] * k; }
      } else if (t === JointType.spherical) {
        let g0 = -d0, g1 = -d1, g2 = -d2;
        if (jf) { g0 += jointForce![jfo]; g1 += jointForce![jfo + 1]; g2 += jointForce![jfo + 2]; }
        const k0 = Dinv[io] * g0 + Dinv[io + 1] * g1 + Dinv[io + 2] * g2;
        const k1 = Dinv[io + 3] * g0 + Dinv[io + 4] * g1 + Dinv[io + 5] * g2;
        const k2 = Dinv[io + 6] * g0 + Dinv[io + 7] * g1 + Dinv[io + 8] * g2;
        outDof[ov] = v0 + 2; outDu[ov] = g2; outDinvDu[ov] = k2;
        outDof[ov + 1] = v0 + 1; outDu[ov + 1] = g1; outDinvDu[ov + 1] = k1;
        outDof[ov + 2] = v0; outDu[ov + 2] = g0; outDinvDu[ov + 2] = k0;
        if (p >= 0) {
          a0 += U[io] * k0 + U[io + 6] * k1 + U[io + 12] * k2;
          a1 += U[io + 1] * k0 + U[io + 7] * k1 + U[io + 13] * k2;
          a2 += U[io + 2] * k0 + U[io + 8] * k1 + U[io + 14] * k2;
          a3 += U[io + 3] * k0 + U[io + 9] * k1 + U[io + 15] * k2;
          a4 += U[io + 4] * k0 + U[io + 10] * k1 + U[io + 16] * k2;
          a5 += U[io + 5] * k0 + U[io + 11] * k1 + U[io + 17] * k2;
        }
      } else if (t === JointType.free && p < 0) {
        // a free root, the end of every path: S = 1, so du = -dp (+ the joint force) and D^-1 du
        // is one 6x6 product
        let u0 = -d0, u1 = -d1, u2 = -d2, u3 = -d3, u4 = -d4, u5 = -d5;
        if (jf) {
          const j = jointForce!;
          u0 += j[jfo]; u1 += j[jfo + 1]; u2 += j[jfo + 2]; u3 += j[jfo + 3]; u4 += j[jfo + 4]; u5 += j[jfo + 5];
        }
        outDu[ov] = u5; outDu[ov + 1] = u4; outDu[ov + 2] = u3; outDu[ov + 3] = u2; outDu[ov + 4] = u1; outDu[ov + 5] = u0;
        for (let r = 0; r < 6; r++) {
          const o = io + 6 * r, e = ov + 5 - r;
          outDof[e] = v0 + r;
          outDinvDu[e] = Dinv[o] * u0 + Dinv[o + 1] * u1 + Dinv[o + 2] * u2 + Dinv[o + 3] * u3 + Dinv[o + 4] * u4 + Dinv[o + 5] * u5;
        }
      } else if (t !== JointType.fixed) {
        const S = model.S, du = w.tmp;
        for (let r = 0; r < nv; r++) {
          let s = 0;
          for (let e = 0; e < 6; e++) s -= S[io + 6 * r + e] * F[fv + e];
          du[r] = s;
        }
        if (jf) for (let r = 0; r < nv; r++) du[r] += jointForce![jfo + r];
        for (let r = 0; r < nv; r++) {
          let s = 0;
          for (let k = 0; k < nv; k++) s += Dinv[io + nv * r + k] * du[k];
          const e = ov + nv - 1 - r;
          outDof[e] = v0 + r; outDu[e] = du[r]; outDinvDu[e] = s;
          if (p >= 0) {
            a0 += U[io + 6 * r] * s; a1 += U[io + 6 * r + 1] * s; a2 += U[io + 6 * r + 2] * s;
            a3 += U[io + 6 * r + 3] * s; a4 += U[io + 6 * r + 4] * s; a5 += U[io + 6 * r + 5] * s;
          }
        }
      }
      if (p < 0) continue;
      // dp_parent = X^T pa, for the next joint up
      const Fx = Xup[xo] * a3 + Xup[xo + 3] * a4 + Xup[xo + 6] * a5;
      const Fy = Xup[xo + 1] * a3 + Xup[xo + 4] * a4 + Xup[xo + 7] * a5;
      const Fz = Xup[xo + 2] * a3 + Xup[xo + 5] * a4 + Xup[xo + 8] * a5;
      const rx = Xup[xo + 9], ry = Xup[xo + 10], rz = Xup[xo + 11];
      F[fv] = Xup[xo] * a0 + Xup[xo + 3] * a1 + Xup[xo + 6] * a2 + (ry * Fz - rz * Fy);
      F[fv + 1] = Xup[xo + 1] * a0 + Xup[xo + 4] * a1 + Xup[xo + 7] * a2 + (rz * Fx - rx * Fz);
      F[fv + 2] = Xup[xo + 2] * a0 + Xup[xo + 5] * a1 + Xup[xo + 8] * a2 + (rx * Fy - ry * Fx);
      F[fv + 3] = Fx; F[fv + 4] = Fy; F[fv + 5] = Fz;
    }
    at += nv;
  }
  return n;
}

/**
 * Outbound loop over every link, lines 18-22: da'_i = X_i da_parent (da_0 = 0),
 * dqdd_i = D_i^-1 (du_i - U_i^T da'_i) with du_i = 0 off the path, da_i = da'_i + S_i dqdd_i.
 * When `scaled`, work.du holds D_i^-1 du_i: dqdd_i = that - D_i^-1 U_i^T da'_i.
 */
function outward(model: Model, state: State, dqdd: Arr, scaled = false): void {
  const w = state.work;
  const du = w.du, U = w.U, Dinv = w.Dinv, X = w.Xup, stamp = w.stamp, da = w.da;
  const tag = w.stampCounter;
  const type = model.jointType, parent = model.parent, vOffset = model.vOffset, axis = model.axis;
  const n = model.nLinks;
  for (let i = 0; i < n; i++) {
    const vo = 6 * i, io = 36 * i, p = parent[i];
    let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0;
    if (p >= 0) {
      // X m (eq. 2.24)
      const po = 6 * p, xo = 12 * i;
      const m0 = da[po], m1 = da[po + 1], m2 = da[po + 2];
      const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];
      const t3 = da[po + 3] - (ry * m2 - rz * m1), t4 = da[po + 4] - (rz * m0 - rx * m2), t5 = da[po + 5] - (rx * m1 - ry * m0);
      a0 = X[xo] * m0 + X[xo + 1] * m1 + X[xo + 2] * m2;
      a1 = X[xo + 3] * m0 + X[xo + 4] * m1 + X[xo + 5] * m2;
      a2 = X[xo + 6] * m0 + X[xo + 7] * m1 + X[xo + 8] * m2;
      a3 = X[xo] * t3 + X[xo + 1] * t4 + X[xo + 2] * t5;
      a4 = X[xo + 3] * t3 + X[xo + 4] * t4 + X[xo + 5] * t5;
      a5 = X[xo + 6] * t3 + X[xo + 7] * t4 + X[xo + 8] * t5;
    }
    const t = type[i], d = vOffset[i];
    const onPath = stamp[i] === tag;
    if (t === JointType.revolute || t === JointType.prismatic) {
      const ua = U[io] * a0 + U[io + 1] * a1 + U[io + 2] * a2 + U[io + 3] * a3 + U[io + 4] * a4 + U[io + 5] * a5;
      const q = scaled ? (onPath ? du[vo] : 0) - Dinv[io] * ua : Dinv[io] * ((onPath ? du[vo] : 0) - ua);
      dqdd[d] = q;
      const ao = 3 * i;
      if (t === JointType.revolute) { a0 += axis[ao] * q; a1 += axis[ao + 1] * q; a2 += axis[ao + 2] * q; }
      else { a3 += axis[ao] * q; a4 += axis[ao + 1] * q; a5 += axis[ao + 2] * q; }
    } else if (t === JointType.spherical) {
      let e0 = -(U[io] * a0 + U[io + 1] * a1 + U[io + 2] * a2 + U[io + 3] * a3 + U[io + 4] * a4 + U[io + 5] * a5);
      let e1 = -(U[io + 6] * a0 + U[io + 7] * a1 + U[io + 8] * a2 + U[io + 9] * a3 + U[io + 10] * a4 + U[io + 11] * a5);
      let e2 = -(U[io + 12] * a0 + U[io + 13] * a1 + U[io + 14] * a2 + U[io + 15] * a3 + U[io + 16] * a4 + U[io + 17] * a5);
      if (onPath && !scaled) { e0 += du[vo]; e1 += du[vo + 1]; e2 += du[vo + 2]; }
      let q0 = Dinv[io] * e0 + Dinv[io + 1] * e1 + Dinv[io + 2] * e2;
      let q1 = Dinv[io + 3] * e0 + Dinv[io + 4] * e1 + Dinv[io + 5] * e2;
      let q2 = Dinv[io + 6] * e0 + Dinv[io + 7] * e1 + Dinv[io + 8] * e2;
      if (onPath && scaled) { q0 += du[vo]; q1 += du[vo + 1]; q2 += du[vo + 2]; }
      dqdd[d] = q0; dqdd[d + 1] = q1; dqdd[d + 2] = q2;
      a0 += q0; a1 += q1; a2 += q2;
    } else if (t === JointType.free && p < 0) {
      // a free root: S = 1 and no parent motion, so dqdd = D^-1 du (du = 0 off the path) = da
      if (onPath && scaled) for (let r = 0; r < 6; r++) { dqdd[d + r] = du[vo + r]; da[vo + r] = du[vo + r]; }
      else if (onPath) {
        const u0 = du[vo], u1 = du[vo + 1], u2 = du[vo + 2], u3 = du[vo + 3], u4 = du[vo + 4], u5 = du[vo + 5];
        for (let r = 0; r < 6; r++) {
          const o = io + 6 * r;
          const q = Dinv[o] * u0 + Dinv[o + 1] * u1 + Dinv[o + 2] * u2 + Dinv[o + 3] * u3 + Dinv[o + 4] * u4 + Dinv[o + 5] * u5;
          dqdd[d + r] = q; da[vo + r] = q;
        }
      } else for (let r = 0; r < 6; r++) { dqdd[d + r] = 0; da[vo + r] = 0; }
      continue;
    } else if (t !== JointType.fixed) {
      da[vo] = a0; da[vo + 1] = a1; da[vo + 2] = a2; da[vo + 3] = a3; da[vo + 4] = a4; da[vo + 5] = a5;
      outwardGeneral(model, w, i, onPath, scaled, dqdd);
      continue;
    }
    da[vo] = a0; da[vo + 1] = a1; da[vo + 2] = a2; da[vo + 3] = a3; da[vo + 4] = a4; da[vo + 5] = a5;
  }
}

/** dqdd_i and da_i from S, for any joint (da'_i already in da; du holds D^-1 du when `scaled`). */
function outwardGeneral(model: Model, w: State['work'], i: number, onPath: boolean, scaled: boolean, dqdd: Arr): void {
  const du = w.du, U = w.U, Dinv = w.Dinv, da = w.da, S = model.S;
  const tmp = w.tmp2; // at 12..17
  const nv = model.jointNv[i];
  const vo = 6 * i, so = 36 * i, dof0 = model.vOffset[i];
  for (let r = 0; r < nv; r++) {
    let s = onPath && !scaled ? du[vo + r] : 0;
    for (let e = 0; e < 6; e++) s -= U[so + 6 * r + e] * da[vo + e];
    tmp[12 + r] = s;
  }
  for (let r = 0; r < nv; r++) {
    let s = 0;
    for (let k = 0; k < nv; k++) s += Dinv[so + nv * r + k] * tmp[12 + k];
    dqdd[dof0 + r] = onPath && scaled ? s + du[vo + r] : s;
  }
  for (let k = 0; k < nv; k++) {
    const qk = dqdd[dof0 + k];
    for (let e = 0; e < 6; e++) da[vo + e] += S[so + 6 * k + e] * qk;
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
