/**
 * Link accelerations from joint accelerations by kinematics alone (no velocity terms): the change
 * of every link's spatial acceleration (link coordinates) caused by a change dqdd of the joint
 * accelerations at fixed velocities, into work.da.
 */
import type { Body } from '../body.js';

export function linkDeltasFromJointDeltas(body: Body, dqdd: Float64Array): void {
  const { model, state } = body;
  const { Xup, da } = state.work;
  for (let i = 0; i < model.nLinks; i++) {
    const p = model.parent[i], vo = 6 * i, xo = 12 * i;
    if (p < 0) da.fill(0, vo, vo + 6);
    else {
      const m = da, mo = 6 * p;
      const wx = m[mo], wy = m[mo + 1], wz = m[mo + 2];
      const rx = Xup[xo + 9], ry = Xup[xo + 10], rz = Xup[xo + 11];
      const ux = m[mo + 3] - (ry * wz - rz * wy), uy = m[mo + 4] - (rz * wx - rx * wz), uz = m[mo + 5] - (rx * wy - ry * wx);
      da[vo] = Xup[xo] * wx + Xup[xo + 1] * wy + Xup[xo + 2] * wz;
      da[vo + 1] = Xup[xo + 3] * wx + Xup[xo + 4] * wy + Xup[xo + 5] * wz;
      da[vo + 2] = Xup[xo + 6] * wx + Xup[xo + 7] * wy + Xup[xo + 8] * wz;
      da[vo + 3] = Xup[xo] * ux + Xup[xo + 1] * uy + Xup[xo + 2] * uz;
      da[vo + 4] = Xup[xo + 3] * ux + Xup[xo + 4] * uy + Xup[xo + 5] * uz;
      da[vo + 5] = Xup[xo + 6] * ux + Xup[xo + 7] * uy + Xup[xo + 8] * uz;
    }
    const S = model.S, so = 36 * i, v0 = model.vOffset[i];
    for (let k = 0; k < model.jointNv[i]; k++) {
      const q = dqdd[v0 + k];
      for (let e = 0; e < 6; e++) da[vo + e] += S[so + 6 * k + e] * q;
    }
  }
}
