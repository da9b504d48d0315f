/**
 * The joint-space mass matrix by the composite-rigid-body algorithm (Featherstone 2008 table 6.2),
 * armature included on the diagonal. outM is nv x nv, row-major.
 */
import { forwardKinematics } from './kinematics.js';
import type { Model } from './model.js';
import { congruenceInertia, mulMat6Vec, xformForceTransposed, type Arr } from './spatial.js';
import type { State } from './state.js';

/** The joint-space mass matrix M(q) by the composite-rigid-body algorithm, written row-major into `outM` (nv x nv). */
export function massMatrix(model: Model, state: State, outM: Arr): Arr {
  const nv = model.nv;
  if (outM.length < nv * nv) throw new RangeError(`massMatrix: output of ${outM.length} numbers, expected ${nv * nv}`);
  const valid = state.work.dynamicsValid;
  forwardKinematics(model, state, false);
  // Kinematics without velocities does not change what ABA left for AccelerationDeltas.
  state.work.dynamicsValid = valid;
  const w = state.work;
  const { Ic, Xup, tmp, tmp36 } = w;
  const n = model.nLinks;
  const S = model.S;
  Ic.set(model.I); // one block copy (same length: no view, no allocation)
  for (let i = n - 1; i >= 0; i--) {
    const p = model.parent[i];
    if (p >= 0) congruenceInertia(Xup, 12 * i, Ic, 36 * i, Ic, 36 * p, true, tmp36);
  }
  outM.fill(0, 0, nv * nv);
  for (let i = 0; i < n; i++) {
    const ni = model.jointNv[i], di = model.vOffset[i], so = 36 * i;
    for (let k = 0; k < ni; k++) {
      // F = Ic_i S_ik, carried up the tree: M[dj, di+k] = S_j^T F
      mulMat6Vec(Ic, 36 * i, S, so + 6 * k, tmp, 0);
      for (let r = 0; r <= k; r++) {
        let s = 0;
        for (let e = 0; e < 6; e++) s += S[so + 6 * r + e] * tmp[e];
        outM[(di + r) * nv + di + k] = s;
        outM[(di + k) * nv + di + r] = s;
      }
      outM[(di + k) * nv + di + k] += model.armature[di + k];
      let j = i;
      while (model.parent[j] >= 0) {
        xformForceTransposed(Xup, 12 * j, tmp, 0, tmp, 6, false);
        for (let e = 0; e < 6; e++) tmp[e] = tmp[6 + e];
        j = model.parent[j];
        const nj = model.jointNv[j], dj = model.vOffset[j], sj = 36 * j;
        for (let r = 0; r < nj; r++) {
          let s = 0;
          for (let e = 0; e < 6; e++) s += S[sj + 6 * r + e] * tmp[e];
          outM[(dj + r) * nv + di + k] = s;
          outM[(di + k) * nv + dj + r] = s;
        }
      }
    }
  }
  return outM;
}
