/**
 * Issue 20's guarantee 4 on scenes drawn at random (random-loads.ts, seeds 4 and 5: scenes the step
 * was not tuned on; seeds 1 to 3 were the search that found the failures `loads.test.ts` keeps): a limb
 * holding or held by 10 to 150 times its mass keeps every joint within 0.05 rad of its stops and
 * every pin within 1 cm, at 60 Hz for 5 s, with no sub-steps set by the user, and the step never
 * reports an error. Before the pinned links stopped colliding (PointPin.collideConnected) and steps
 * whose loads did not hold were taken again (step/load-check.ts), seeds 1 to 3 failed in 12 of 90
 * scenes, pins opening 2.5 cm to 31 m.
 */
import { describe, expect, it } from 'vitest';
import { worstLimitViolation } from '../../src/index.js';
import { randomLoads } from './random-loads.js';

const SEEDS = [4, 5], SCENES = 30, STEPS = 300;
/** Guarantee 4: joints within 0.05 rad of their stops, pins within 1 cm. */
const LIMIT = 0.05, PIN = 0.01;

for (const SEED of SEEDS) describe(`random pinned loads (seed ${SEED}, ${SCENES} scenes, ${STEPS} steps at 60 Hz, default settings)`, () => {
  let k = 0;
  for (const scene of randomLoads(SEED, SCENES)) {
    const index = k++;
    it(`scene ${index}: ${scene.what}: joints within ${LIMIT} rad of their stops, pins within ${PIN * 100} cm, no step error`, async () => {
      const { world, limb, pins } = scene;
      const sep = new Float64Array(3);
      let limit = 0, gap = 0, errors = 0, finite = true, substeps = 0, retakes = 0;
      for (let s = 0; s < STEPS; s++) {
        const st = world.step(1 / 60);
        if (s % 60 === 59) await new Promise((r) => setImmediate(r));
        if (st.error) errors++;
        substeps = Math.max(substeps, st.substeps);
        retakes += st.loadRetakes;
        limit = Math.max(limit, worstLimitViolation(limb).violation);
        for (const p of pins) { p.separation(world.bodies, sep); gap = Math.max(gap, Math.hypot(sep[0], sep[1], sep[2])); }
        for (const b of world.bodies) if (b.state.firstNonFinite() >= 0) finite = false;
      }
      console.log(`[random loads] seed ${SEED} scene ${index} (${scene.what}): worst joint past its stops ${limit.toFixed(4)} rad, widest pin ${(gap * 1000).toFixed(2)} mm, sub-steps <= ${substeps}, ${retakes} steps taken again`);
      expect(finite).toBe(true);
      expect(errors).toBe(0);
      expect(limit).toBeLessThanOrEqual(LIMIT);
      expect(gap).toBeLessThanOrEqual(PIN);
    }, 120_000);
  }
});
