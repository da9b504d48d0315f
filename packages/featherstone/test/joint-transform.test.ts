/**
 * forwardKinematics writes each joint type's transform out inline; joints.ts keeps the same
 * formulas as jointTransform (exported) and motionSubspace. Both must agree: X_i == X_J(q) X_tree
 * by jointTransform and composeTransforms, and v_i - X_i v_parent == S_i qd_i by motionSubspace.
 */
import { describe, expect, it } from 'vitest';
import { composeTransforms, forwardKinematics, jointTransform, subspaceTimes, xformMotion } from '../src/index.js';
import { randomModel, randomState, rng } from './random-model.js';

describe('forwardKinematics == jointTransform / motionSubspace', () => {
  it('for every link of 100 random trees', () => {
    const r = rng(314);
    const XJ = new Float64Array(12), X = new Float64Array(12), m = new Float64Array(6), vJ = new Float64Array(6);
    for (let trial = 0; trial < 100; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 15) });
      const s = randomState(r, model);
      forwardKinematics(model, s);
      const { Xup, v } = s.work;
      for (let i = 0; i < model.nLinks; i++) {
        jointTransform(model.jointType[i], model.axis, 3 * i, s.q, model.qOffset[i], XJ, 0);
        composeTransforms(XJ, 0, model.treeX, 12 * i, X, 0);
        for (let k = 0; k < 12; k++) expect(Math.abs(Xup[12 * i + k] - X[k])).toBeLessThan(1e-14);
        const p = model.parent[i];
        if (p >= 0) xformMotion(Xup, 12 * i, v, 6 * p, m, 0);
        else m.fill(0);
        subspaceTimes(model, i, s.qd, model.vOffset[i], vJ, 0);
        for (let k = 0; k < 6; k++) expect(Math.abs(v[6 * i + k] - m[k] - vJ[k])).toBeLessThan(1e-13);
      }
    }
  });
});
