/**
 * Link accelerations from joint accelerations by kinematics alone (no velocity terms): the change
 * of every link's spatial acceleration (link coordinates) caused by a change dqdd of the joint
 * accelerations at fixed velocities, into work.da.
 */
import { xformMotion } from '@sinew/featherstone';
import type { Body } from '../body.js';

export function linkDeltasFromJointDeltas(body: Body, dqdd: Float64Array): void {
  const { model, state } = body;
  const { Xup, da } = state.work;
  for (let i = 0; i < model.nLinks; i++) {
    const p = model.parent[i], vo = 6 * i, xo = 12 * i;
    if (p < 0) da.fill(0, vo, vo + 6);
    else xformMotion(Xup, xo, da, 6 * p, da, vo);
    const S = model.S, so = 36 * i, v0 = model.vOffset[i];
    for (let k = 0; k < model.jointNv[i]; k++) {
      const q = dqdd[v0 + k];
      for (let e = 0; e < 6; e++) da[vo + e] += S[so + 6 * k + e] * q;
    }
  }
}
