/**
 * The step's guarantees on game scenes (scenes.ts), each stepped at 60 Hz with default settings
 * but a tight pass budget (maxPasses 3): every state finite and never rolled back; at most 3
 * detection-and-solve passes per sub-step; the same bits whatever order the bodies were added in
 * (forward, reversed, shuffled), and after a save at a step of the scene's first half restored into
 * a fresh world.
 */
import { describe, expect, it } from 'vitest';
import { energyBound, mechanicalEnergy } from '../body-measures.js';
import type { World } from '../../src/index.js';
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
  /** Largest rise of the total mechanical energy in one step, and above its lowest value so far (J). */
  rise: number;
  drift: number;
  /** The energy bound of a step: sum over bodies of m |g| (contactSlop + |g| h^2 / 2) (J). */
  bound: number;
}

/**
 * Steps a scene built with its bodies added in `order`. With `restoreAt` >= 0 the world is saved
 * after that step and the rest of the run continues in a fresh world built the same way, restored
 * from the save (as a game that reloads).
 */
async function run(scene: Scene, order: number[], restoreAt = -1): Promise<RunResult> {
  let { world, bodyOf } = buildScene(scene, order, { maxPasses: 3 });
  let maxPasses = 0, maxHalvings = 0, recoveries = 0, rolledBack = 0, finite = true;
  const bound = energyBound(world, 1 / 60);
  let before = mechanicalEnergy(world), low = before, rise = 0, drift = 0;
  for (let s = 0; s < scene.steps; s++) {
    if (s === restoreAt) {
      const saved = structuredClone(world.saveState());
      ({ world, bodyOf } = buildScene(scene, order, { maxPasses: 3 }));
      world.restoreState(saved);
    }
    const st = world.step(1 / 60);
    // (a turn for the test runner now and then: a long computation without one makes its worker time out)
    if (s % 60 === 59) await new Promise((r) => setImmediate(r));
    // per sub-step (the world takes more sub-steps where pins hold heavy loads)
    maxPasses = Math.max(maxPasses, st.passes / st.substeps);
    maxHalvings = Math.max(maxHalvings, st.halvings / st.substeps);
    if (st.recovery) recoveries++;
    if (st.recovery === 'rolled back') rolledBack++;
    for (const b of world.bodies) if (b.state.firstNonFinite() >= 0) finite = false;
    const after = mechanicalEnergy(world);
    rise = Math.max(rise, after - before);
    low = Math.min(low, after);
    drift = Math.max(drift, after - low);
    before = after;
  }
  const final = scene.spawns.map((_, k) => {
    const b = world.bodies[bodyOf[k]];
    return Float64Array.from([...b.state.q, ...b.state.qd]);
  });
  return { final, maxPasses, maxHalvings, finite, recoveries, rolledBack, rise, drift, bound };
}

const firstDifference = (a: Float64Array[], b: Float64Array[]): string => {
  for (let k = 0; k < a.length; k++) for (let i = 0; i < a[k].length; i++) {
    if (!Object.is(a[k][i], b[k][i])) return `spawn ${k} coordinate ${i}: ${a[k][i]} vs ${b[k][i]}`;
  }
  return '';
};

/** Each scene's forward run, for the energy checks of the known failures below. */
const energies = new Map<string, RunResult>();

describe('robustness: game scenes at 60 Hz, 3 passes a sub-step at most', () => {
  for (const scene of SCENES) {
    (scene.knownFailure ? it.fails : it)(`${scene.name}${scene.knownFailure ? ` (known failure: ${scene.knownFailure})` : ''}: finite, never rolled back, at most maxPasses (3) passes a sub-step, the same bits in forward, reversed and shuffled order and after a save and restore`, async () => {
      const n = scene.spawns.length;
      const forward = await run(scene, Array.from({ length: n }, (_, i) => i));
      const reversed = await run(scene, Array.from({ length: n }, (_, i) => n - 1 - i));
      const mixed = await run(scene, shuffled(n));
      // saved at a step of the scene's first half (a fixed pick per scene), restored into a fresh world
      const at = 1 + ((scene.name.length * 7919) % Math.floor(scene.steps / 2));
      const restored = await run(scene, Array.from({ length: n }, (_, i) => i), at);
      energies.set(scene.name, forward);
      console.log(`[robustness] ${scene.name}: ${scene.steps} steps, passes per sub-step <= ${forward.maxPasses}, halvings per sub-step <= ${forward.maxHalvings}, recoveries ${forward.recoveries}; energy rise in a step <= ${forward.rise.toFixed(3)} J, above its lowest <= ${forward.drift.toFixed(3)} J (bound ${forward.bound.toFixed(3)} J${scene.energy ? `; ${'external' in scene.energy ? `not checked: ${scene.energy.external}` : 'known failure'}` : ''})`);
      expect(forward.finite).toBe(true);
      expect(forward.rolledBack).toBe(0);
      // one sub-step: at most maxPasses passes, each with at most maxHalvings halvings; a step that
      // recovers from a non-finite state adds at most two tries of RECOVERY_SUBSTEPS (4) sub-steps
      const subSteps = forward.recoveries > 0 ? 1 + 4 + 4 : 1;
      expect(forward.maxPasses).toBeLessThanOrEqual(3 * subSteps);
      expect(forward.maxHalvings).toBeLessThanOrEqual(3 * 4 * subSteps);
      expect(firstDifference(forward.final, reversed.final)).toBe('');
      expect(firstDifference(forward.final, mixed.final)).toBe('');
      expect(firstDifference(forward.final, restored.final), `restored at step ${at}`).toBe('');
      // no energy from nowhere: a step raises the energy by at most the bound, and never above its
      // lowest value so far by more (step/energy-account.ts boundEnergy)
      // (1e-9 J: the world's account and this sum of the energies round differently)
      if (!scene.energy) {
        expect(forward.rise).toBeLessThanOrEqual(forward.bound + 1e-9);
        expect(forward.drift).toBeLessThanOrEqual(forward.bound + 1e-9);
      }
    });
  }
});

describe('robustness: energy where a scene does not yet keep its bound (known failures)', () => {
  for (const scene of SCENES) {
    const e = scene.energy;
    if (!e || !('knownFailure' in e)) continue;
    it.fails(`${scene.name}: ${e.knownFailure}`, async () => {
      const r = energies.get(scene.name) ?? await run(scene, scene.spawns.map((_, i) => i));
      expect(r.rise).toBeLessThanOrEqual(r.bound + 1e-9);
      expect(r.drift).toBeLessThanOrEqual(r.bound + 1e-9);
    });
  }
});
