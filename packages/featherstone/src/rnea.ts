/**
 * Inverse dynamics by the recursive Newton-Euler algorithm (Featherstone 2008 table 5.1): the
 * joint forces that produce accelerations qdd in the state's q, qd and external forces. It is the
 * exact inverse of forwardDynamics: the passive joint forces (damping, springs) and the armature
 * are accounted for, so inverseDynamics(forwardDynamics(tau)) == tau.
 */
import { forceWorldToLink, passiveForce } from './aba.js';
import { forwardKinematics } from './kinematics.js';
import type { Model } from './model.js';
import { crossForce, mulMat6Vec, xformForceTransposed, xformMotion, type Arr } from './spatial.js';
import type { State } from './state.js';

/** Inverse dynamics by the recursive Newton-Euler algorithm: the joint forces `outTau` that give accelerations `qdd` in the current state (gravity and external forces included). */
export function inverseDynamics(model: Model, state: State, qdd: ArrayLike<number>, outTau: Arr): Arr {
  forwardKinematics(model, state, true);
  const w = state.work;
  const { Xup, v, c, pose, tmp } = w;
  // RNEA writes accelerations and forces into scratch that ABA does not need afterwards: da and dp.
  const a = w.da, f = w.dp;
  const g = state.gravity;
  const n = model.nLinks;
  const S = model.S;
  for (let i = 0; i < n; i++) {
    const vo = 6 * i, so = 36 * i, dof0 = model.vOffset[i];
    const p = model.parent[i];
    if (p < 0) {
      tmp[0] = 0; tmp[1] = 0; tmp[2] = 0; tmp[3] = -g[0]; tmp[4] = -g[1]; tmp[5] = -g[2];
      xformMotion(Xup, 12 * i, tmp, 0, a, vo);
    } else {
      xformMotion(Xup, 12 * i, a, 6 * p, a, vo);
    }
    for (let e = 0; e < 6; e++) {
      let s = c[vo + e];
      for (let k = 0; k < model.jointNv[i]; k++) s += S[so + 6 * k + e] * qdd[dof0 + k];
      a[vo + e] += s;
    }
    // f_i = I a_i + v_i x* I v_i - f^E_i
    mulMat6Vec(model.I, 36 * i, a, vo, f, vo);
    mulMat6Vec(model.I, 36 * i, v, vo, tmp, 0);
    crossForce(v, vo, tmp, 0, tmp, 6);
    forceWorldToLink(pose, 12 * i, state.fext, vo, tmp, 12);
    for (let e = 0; e < 6; e++) f[vo + e] += tmp[6 + e] - tmp[12 + e];
  }
  for (let i = n - 1; i >= 0; i--) {
    const vo = 6 * i, so = 36 * i, dof0 = model.vOffset[i];
    for (let k = 0; k < model.jointNv[i]; k++) {
      let s = 0;
      for (let e = 0; e < 6; e++) s += S[so + 6 * k + e] * f[vo + e];
      const d = dof0 + k;
      outTau[d] = s + model.armature[d] * qdd[d] - passiveForce(model, state, d);
    }
    const p = model.parent[i];
    if (p >= 0) xformForceTransposed(Xup, 12 * i, f, vo, f, 6 * p, true);
  }
  w.dynamicsValid = false;
  return outTau;
}
