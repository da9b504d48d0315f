/**
 * ABM.Accelerations: Featherstone's articulated-body algorithm (forward dynamics) for trees with
 * multi-dof joints, in the form of Featherstone 2008 table 7.1 and of the Kokkevis paper section 3.
 * Gravity enters as a fictitious base acceleration a_0 = -g. The quantities it leaves behind in
 * state.work (X, I^A, U = I^A S (Kokkevis's h), D^-1 (1/d), u, c) are what AccelerationDeltas
 * reuses.
 */
import { forwardKinematics } from './kinematics.js';
import type { Model } from './model.js';
import { congruenceInertia, crossForce, mulMat6Vec, xformMotion, type Arr } from './spatial.js';
import type { State } from './state.js';

/**
 * Joint accelerations qdd for the state's q, qd, joint torques tau, passive joint forces (damping,
 * springs) and external link forces fext. Writes outQdd (length nv) and returns it.
 */
export function forwardDynamics(model: Model, state: State, outQdd: Arr = state.work.qdd): Arr {
  forwardKinematics(model, state, true);
  articulatedInertias(model, state);
  outwardAccelerations(model, state, outQdd);
  if (outQdd !== state.work.qdd) state.work.qdd.set(outQdd);
  state.work.dynamicsValid = true;
  return outQdd;
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

/** Inbound loop (lines 9-19 of ABM.Accelerations): articulated inertias, bias forces, U, D^-1, u. */
function articulatedInertias(model: Model, state: State): void {
  const w = state.work;
  const { IA, pA, U, Dinv, u, v, c, Xup, tmp, pose } = w;
  const n = model.nLinks;
  const fext = state.fext;
  // I^A_i = I_i ; p^A_i = v_i x* I_i v_i - f^E_i (link coordinates)
  for (let i = 0; i < n; i++) {
    const io = 36 * i, vo = 6 * i;
    IA.set(model.I.subarray(io, io + 36), io);
    mulMat6Vec(model.I, io, v, vo, tmp, 0);
    crossForce(v, vo, tmp, 0, pA, vo);
    forceWorldToLink(pose, 12 * i, fext, vo, tmp, 0);
    for (let k = 0; k < 6; k++) pA[vo + k] -= tmp[k];
  }
  for (let i = n - 1; i >= 0; i--) {
    const nv = model.jointNv[i];
    const io = 36 * i, vo = 6 * i, so = 36 * i;
    const S = model.S;
    const dof0 = model.vOffset[i];
    // U = I^A S (6 x nv, column-major), D = S^T U + armature, u = tau + passive - S^T p^A
    for (let k = 0; k < nv; k++) mulMat6Vec(IA, io, S, so + 6 * k, U, so + 6 * k);
    for (let r = 0; r < nv; r++) {
      for (let k = 0; k < nv; k++) {
        let s = 0;
        for (let e = 0; e < 6; e++) s += S[so + 6 * r + e] * U[so + 6 * k + e];
        tmp[nv * r + k] = s;
      }
      tmp[nv * r + r] += model.armature[dof0 + r];
      let sp = 0;
      for (let e = 0; e < 6; e++) sp += S[so + 6 * r + e] * pA[vo + e];
      u[vo + r] = state.tau[dof0 + r] + passiveForce(model, state, dof0 + r) - sp;
    }
    invertSmall(tmp, nv, Dinv, so, w.tmp2, i, model);
    const p = model.parent[i];
    if (p < 0) continue;
    // I^a = I^A - U D^-1 U^T ; p^a = p^A + I^a c + U D^-1 u   (lines 15-16)
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
      for (let col = 0; col < 6; col++) {
        let s = 0;
        for (let k = 0; k < nv; k++) s += Ud[36 + 6 * k + r] * U[so + 6 * k + col];
        Ia[6 * r + col] = IA[io + 6 * r + col] - s;
      }
    }
    mulMat6Vec(Ia, 0, c, vo, tmp, 0);
    for (let e = 0; e < 6; e++) {
      let s = 0;
      for (let k = 0; k < nv; k++) s += Ud[36 + 6 * k + e] * u[vo + k];
      tmp[e] += pA[vo + e] + s;
    }
    congruenceInertia(Xup, 12 * i, Ia, 0, IA, 36 * p, true, w.tmp36);
    addForceTransposed(Xup, 12 * i, tmp, 0, pA, 6 * p);
  }
}

/** Second outbound loop (lines 21-25): qdd_i = D^-1 (u - U^T a'_i), a_i = a'_i + S qdd_i. */
function outwardAccelerations(model: Model, state: State, qdd: Arr): void {
  const w = state.work;
  const { U, Dinv, u, c, a, Xup, tmp } = w;
  const g = state.gravity;
  const n = model.nLinks;
  const S = model.S;
  for (let i = 0; i < n; i++) {
    const nv = model.jointNv[i];
    const vo = 6 * i, so = 36 * i, dof0 = model.vOffset[i];
    const p = model.parent[i];
    if (p < 0) {
      // a_0 = -g (fictitious base acceleration) seen in link i's frame
      tmp[0] = 0; tmp[1] = 0; tmp[2] = 0; tmp[3] = -g[0]; tmp[4] = -g[1]; tmp[5] = -g[2];
      xformMotion(Xup, 12 * i, tmp, 0, a, vo);
    } else {
      xformMotion(Xup, 12 * i, a, 6 * p, a, vo);
    }
    for (let e = 0; e < 6; e++) a[vo + e] += c[vo + e];
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

/**
 * Inverts the symmetric positive definite n x n matrix in A[0..n*n) (row-major) into out[oo..],
 * by Gauss-Jordan elimination with partial pivoting (n <= 6). A is destroyed. Throws when the
 * joint's articulated inertia is singular (a massless subtree), naming the link.
 */
export function invertSmall(A: Arr, n: number, out: Arr, oo: number, scratch: Arr, link: number, model: Model): void {
  if (n === 0) return;
  if (n === 1) {
    if (!(A[0] > 0) || !Number.isFinite(A[0])) throw singular(model, link, A[0]);
    out[oo] = 1 / A[0];
    return;
  }
  // augmented identity in scratch[0..n*n)
  const I = scratch;
  for (let r = 0; r < n; r++) for (let k = 0; k < n; k++) I[n * r + k] = r === k ? 1 : 0;
  for (let col = 0; col < n; col++) {
    let piv = col, best = Math.abs(A[n * col + col]);
    for (let r = col + 1; r < n; r++) {
      const m = Math.abs(A[n * r + col]);
      if (m > best) { best = m; piv = r; }
    }
    if (!(best > 0) || !Number.isFinite(best)) throw singular(model, link, best);
    if (piv !== col) {
      for (let k = 0; k < n; k++) {
        let t = A[n * col + k]; A[n * col + k] = A[n * piv + k]; A[n * piv + k] = t;
        t = I[n * col + k]; I[n * col + k] = I[n * piv + k]; I[n * piv + k] = t;
      }
    }
    const d = 1 / A[n * col + col];
    for (let k = 0; k < n; k++) { A[n * col + k] *= d; I[n * col + k] *= d; }
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = A[n * r + col];
      if (f === 0) continue;
      for (let k = 0; k < n; k++) { A[n * r + k] -= f * A[n * col + k]; I[n * r + k] -= f * I[n * col + k]; }
    }
  }
  for (let k = 0; k < n * n; k++) out[oo + k] = I[k];
}

function singular(model: Model, link: number, pivot: number): Error {
  return new Error(`forwardDynamics: the articulated inertia of joint "${model.jointNames[link]}" is singular or not finite (pivot ${pivot}); check the masses and inertias of its subtree and the state`);
}
