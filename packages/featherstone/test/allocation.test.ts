/**
 * The dynamics allocate nothing per call (the design's "the step allocates nothing"). Measured
 * as the growth of V8's young generation over a batch of calls, minus the growth over an empty
 * batch (what the measurement itself allocates, which varies by a kilobyte or two). Any object a
 * call made would cost at least 16 bytes per call; the bound is 4 bytes per call. A garbage
 * collection inside a batch shows up as a batch that is not clean, and so does code that the
 * optimising compiler has not yet replaced (interpreted code boxes its floating-point
 * temporaries): a function passes once three batches in a row are clean, within a budget of
 * attempts. Timing is left to the benchmark.
 */
import { getHeapSpaceStatistics } from 'node:v8';
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

function youngGenerationUsed(): number {
  for (const s of getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size;
  throw new Error('no new_space in this V8');
}

/** Bytes per call, from the first run of three clean batches; Infinity if none within the budget. */
function bytesPerCall(fn: () => void, calls = 5000, attempts = 40): number {
  for (let i = 0; i < 5000; i++) fn();
  let streak = 0, worst = 0;
  for (let k = 0; k < attempts; k++) {
    const b0 = youngGenerationUsed();
    const b1 = youngGenerationUsed(); // the cost of one measurement
    for (let i = 0; i < calls; i++) fn();
    const b2 = youngGenerationUsed();
    const perCall = (b2 - b1 - (b1 - b0)) / calls;
    if (process.env.ALLOC_DEBUG) console.log(perCall);
    if (Math.abs(perCall) < 4) {
      worst = Math.max(worst, Math.abs(perCall));
      if (++streak === 3) return worst;
    } else {
      streak = 0;
      worst = 0;
    }
  }
  return Infinity;
}

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
      const b = bytesPerCall(fn);
      expect(b, `${name}: young-generation growth per call`).toBeLessThan(4);
    });
  }
});
