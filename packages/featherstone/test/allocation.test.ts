/**
 * The dynamics allocate nothing per call (the design's "no allocation in the step"), measured by
 * the young generation's growth over batches of 5000 calls (see young-generation.ts): any object a
 * call made would cost at least 16 bytes per call; the bound is 4 bytes per call. A function
 * passes once three batches in a row are clean, within a budget of 120 batches (a batch that is
 * not clean is a garbage collection inside it, or code not yet optimised, or just deoptimised and
 * waiting for the optimising compiler's thread on a busy machine). Timing is left to the benchmark.
 */
import { describe, expect, it } from 'vitest';
import {
  accelerationDeltas,
  accelerationDeltasForce,
  accelerationDeltasTorque,
  forwardDynamics,
  inverseDynamics,
  massMatrix,
  simulate,
  type TestForce,
} from '../src/index.js';
import { humanoid, humanoidState } from '../bench/humanoid.js';
import { randomModel, randomState, rng } from './random-model.js';
import { describeBatches, youngGenerationGrowth } from './young-generation.js';

describe('no allocation in the dynamics', () => {
  const model = humanoid();
  const state = humanoidState(model, 3);
  state.applyForce(model.linkIndex('footL'), [0, 400, 20], [0.1, 0.05, 0.1]);
  const nv = model.nv;
  const out = new Float64Array(nv);
  const hand = model.linkIndex('handR');
  const f = Float64Array.of(0.1, 0, 0, 0, 1, 0);
  const sources: TestForce[] = [{ link: hand, force: f }, { link: hand, point: [0.3, 1.1, 0.2], direction: [0, 1, 0] }, { dof: 12, torque: 1 }];
  const M = new Float64Array(nv * nv);
  const save = state.save();

  const cases: [string, () => void][] = [
    ['forwardDynamics', () => forwardDynamics(model, state, out)],
    ['accelerationDeltasForce', () => accelerationDeltasForce(model, state, hand, f, 0, out)],
    ['accelerationDeltasTorque', () => accelerationDeltasTorque(model, state, 7, 1, out)],
    ['accelerationDeltas (force, point force, torque)', () => {
      for (const s of sources) accelerationDeltas(model, state, s, out);
    }],
    ['massMatrix', () => massMatrix(model, state, M)],
    ['inverseDynamics', () => inverseDynamics(model, state, out, out)],
    ['simulate (ABA + integration with quaternions)', () => {
      state.restore(save);
      simulate(model, state, 1 / 60, 2);
    }],
  ];
  // every joint type, including free joints below the root and prismatic joints
  const tree = randomModel(rng(4), { links: 24 });
  const treeState = randomState(rng(5), tree);
  const treeOut = new Float64Array(tree.nv);
  cases.push(['forwardDynamics + AccelerationDeltas on a random tree with every joint type', () => {
    forwardDynamics(tree, treeState, treeOut);
    accelerationDeltasForce(tree, treeState, tree.nLinks - 1, f, 0, treeOut);
    accelerationDeltasTorque(tree, treeState, tree.nv - 1, 1, treeOut);
  }]);
  for (const [name, fn] of cases) {
    it(name, () => {
      forwardDynamics(model, state);
      const m = youngGenerationGrowth(fn, { warm: 5000, calls: 5000, bound: 4, attempts: 120 });
      expect(m.perCall, `${name}: young-generation growth per call; ${describeBatches(m)}`).toBeLessThan(4);
    });
  }
});
