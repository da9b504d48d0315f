/**
 * The step's guarantees on game scenes (scenes.ts), each stepped at 60 Hz with default settings
 * but a tight pass budget (maxPasses 3): every state finite and never rolled back; at most 3
 * detection-and-solve passes per sub-step; the same bits whatever order the bodies were added in
 * (forward, reversed, shuffled), and after a save at a step of the scene's first half restored into
 * a fresh world.
 */
import { describe, expect, it } from 'vitest';
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

/**
 * Steps a scene built with its bodies added in `order`. With `restoreAt` >= 0 the world is saved
 * after that step and the rest of the run continues in a fresh world built the same way, restored
 * from the save (as a game that reloads).
 */
function run(scene: Scene, order: number[], restoreAt = -1): RunResult {
  let { world, bodyOf } = buildScene(scene, order, { maxPasses: 3 });
  let maxPasses = 0, maxHalvings = 0, recoveries = 0, rolledBack = 0, finite = true;
  for (let s = 0; s < scene.steps; s++) {
    if (s === restoreAt) {
      const saved = structuredClone(world.saveState());
      ({ world, bodyOf } = buildScene(scene, order, { maxPasses: 3 }));
      world.restoreState(saved);
    }
    const st = world.step(1 / 60);
    // per sub-step (the world takes more sub-steps where pins hold heavy loads)
    maxPasses = Math.max(maxPasses, st.passes / st.substeps);
    maxHalvings = Math.max(maxHalvings, st.halvings / st.substeps);
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
    (scene.knownFailure ? it.fails : it)(`${scene.name}${scene.knownFailure ? ` (known failure: ${scene.knownFailure})` : ''}: finite, never rolled back, at most maxPasses (3) passes a sub-step, the same bits in forward, reversed and shuffled order and after a save and restore`, () => {
      const n = scene.spawns.length;
      const forward = run(scene, Array.from({ length: n }, (_, i) => i));
      const reversed = run(scene, Array.from({ length: n }, (_, i) => n - 1 - i));
      const mixed = run(scene, shuffled(n));
      // saved at a step of the scene's first half (a fixed pick per scene), restored into a fresh world
      const at = 1 + ((scene.name.length * 7919) % Math.floor(scene.steps / 2));
      const restored = run(scene, Array.from({ length: n }, (_, i) => i), at);
      console.log(`[robustness] ${scene.name}: ${scene.steps} steps, passes per sub-step <= ${forward.maxPasses}, halvings per sub-step <= ${forward.maxHalvings}, recoveries ${forward.recoveries}`);
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
    });
  }
});
