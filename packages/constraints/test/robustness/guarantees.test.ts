/**
 * The step's guarantees on game scenes (scenes.ts), each stepped at 60 Hz with default settings
 * but a tight pass budget (maxPasses 3): every state finite and never rolled back; at most 3
 * detection-and-solve passes per sub-step; the same bits whatever order the bodies were added in
 * (forward, reversed, shuffled).
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardKinematics, pointPosition } from '@sinew/featherstone';
import { PointPin, World } from '../../src/index.js';
import { SCENES, buildScene, type Scene } from './scenes.js';

/** A fixed shuffle of 0..n-1 (a linear congruential generator seeded by n). */
function shuffled(n: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  let s = 12345 + n;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

interface RunResult {
  /** q and qd of each spawn at the end (by spawn, not by body). */
  final: Float64Array[];
  maxPasses: number;
  maxHalvings: number;
  finite: boolean;
  recoveries: number;
  rolledBack: number;
}

function run(scene: Scene, order: number[]): RunResult {
  const { world, bodyOf } = buildScene(scene, order, { maxPasses: 3 });
  let maxPasses = 0, maxHalvings = 0, recoveries = 0, rolledBack = 0, finite = true;
  for (let s = 0; s < scene.steps; s++) {
    const st = world.step(1 / 60);
    maxPasses = Math.max(maxPasses, st.passes);
    maxHalvings = Math.max(maxHalvings, st.halvings);
    if (st.recovery) recoveries++;
    if (st.recovery === 'rolled back') rolledBack++;
    for (const b of world.bodies) if (b.state.firstNonFinite() >= 0) finite = false;
  }
  const final = scene.spawns.map((_, k) => {
    const b = world.bodies[bodyOf[k]];
    return Float64Array.from([...b.state.q, ...b.state.qd]);
  });
  return { final, maxPasses, maxHalvings, finite, recoveries, rolledBack };
}

const firstDifference = (a: Float64Array[], b: Float64Array[]): string => {
  for (let k = 0; k < a.length; k++) for (let i = 0; i < a[k].length; i++) {
    if (!Object.is(a[k][i], b[k][i])) return `spawn ${k} coordinate ${i}: ${a[k][i]} vs ${b[k][i]}`;
  }
  return '';
};

describe('robustness: game scenes at 60 Hz, 3 passes a sub-step at most', () => {
  for (const scene of SCENES) {
    (scene.knownFailure ? it.fails : it)(`${scene.name}${scene.knownFailure ? ` (known failure: ${scene.knownFailure})` : ''}: finite, never rolled back, at most maxPasses (3) passes a sub-step, the same bits in forward, reversed and shuffled order`, () => {
      const n = scene.spawns.length;
      const forward = run(scene, Array.from({ length: n }, (_, i) => i));
      const reversed = run(scene, Array.from({ length: n }, (_, i) => n - 1 - i));
      const mixed = run(scene, shuffled(n));
      console.log(`[robustness] ${scene.name}: ${scene.steps} steps, passes per step <= ${forward.maxPasses}, halvings per step <= ${forward.maxHalvings}, recoveries ${forward.recoveries}`);
      expect(forward.finite).toBe(true);
      expect(forward.rolledBack).toBe(0);
      // one sub-step: at most maxPasses passes, each with at most maxHalvings halvings; a step that
      // recovers from a non-finite state adds at most two tries of RECOVERY_SUBSTEPS (4) sub-steps
      const subSteps = forward.recoveries > 0 ? 1 + 4 + 4 : 1;
      expect(forward.maxPasses).toBeLessThanOrEqual(3 * subSteps);
      expect(forward.maxHalvings).toBeLessThanOrEqual(3 * 4 * subSteps);
      expect(firstDifference(forward.final, reversed.final)).toBe('');
      expect(firstDifference(forward.final, mixed.final)).toBe('');
    });
  }
});

describe('robustness: a world never freezes', () => {
  // Known failure: the chain's light links between the pivot and the heavy crate form a fast mode
  // that the pin's tension, taken at the start of the step, drives unstably at 60 Hz; the state
  // grows to 1e195 m (finite) before a step goes non-finite, and no retry from there recovers it
  // (447 of 600 steps rolled back, the chain still from step 152). 8 sub-steps hold the pin to 1e-7 m.
  it.fails('a 3-link chain of 1 kg links holding a 100 kg crate by a pin, unstable at 60 Hz, stays finite and keeps moving: the failed steps are taken again in sub-steps, and no step is rolled back', () => {
    const world = new World();
    const b = new ModelBuilder();
    let parent: string | null = null;
    for (let i = 0; i < 3; i++) {
      b.addLink({ name: `l${i}`, parent, joint: { type: 'revolute', axis: [0, 0, 1], position: i === 0 ? [0, 2, 0] : [0.3, 0, 0] }, mass: 1, com: [0.15, 0, 0], inertia: [0.001, 0.0075, 0.0075, 0, 0, 0] });
      parent = `l${i}`;
    }
    const chain = world.addBody(b.build(), { name: 'chain' });
    forwardKinematics(chain.model, chain.state);
    const end = new Float64Array(3);
    pointPosition(chain.state, 2, [0.3, 0, 0], end);
    const cb = new ModelBuilder();
    cb.addLink({ name: 'crate', parent: null, joint: { type: 'free' }, mass: 100, inertia: [2.7, 2.7, 2.7, 0, 0, 0] });
    const crate = world.addBody(cb.build(), { name: 'crate' });
    crate.state.q.set(end, 0);
    world.addConstraint(new PointPin(chain.index, 2, [0.3, 0, 0], { body: crate.index, link: 0, point: [0, 0, 0] }));
    const recoveries: Record<string, number> = {};
    let lastMoved = -1;
    for (let s = 0; s < 600; s++) {
      const q0 = Float64Array.from(chain.state.q);
      const st = world.step(1 / 60);
      if (st.recovery) recoveries[st.recovery] = (recoveries[st.recovery] ?? 0) + 1;
      expect(chain.state.firstNonFinite()).toBe(-1);
      expect(crate.state.firstNonFinite()).toBe(-1);
      if (chain.state.q.some((x, i) => x !== q0[i])) lastMoved = s;
    }
    console.log(`[robustness] chain and crate: recoveries ${JSON.stringify(recoveries)}, last step that moved the chain ${lastMoved}`);
    // the scene is one that fails: without recovery it went non-finite within the first 60 steps
    expect(Object.keys(recoveries).length).toBeGreaterThan(0);
    expect(recoveries['rolled back'] ?? 0).toBe(0);
    expect(lastMoved).toBe(599);
  });
});
