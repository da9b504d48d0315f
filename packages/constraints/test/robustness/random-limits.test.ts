/**
 * Joint limits hold, and no island's joints stand still, in the random scenes where they did not
 * (test/robustness/random-scenes.ts, found by scripts/energy-search.ts and a search of the same
 * scenes for the worst joint past its stop). In the first four, chains of 5-34 boxes with limits
 * of +-1 rad fell among ragdolls, boxes and spheres. Post-stabilisation's Newton step turned a
 * joint of a short link without bound while its origin moved little (its reach bounded link
 * origins only): joints ended 2.2 to 1,891 rad past their stops. A chain so held past its stops
 * met a limit row every pass that the energy account undid, and its joints stood still for 37
 * steps (seed 4, scene 6). In the last three (with the thin-box chains), the humanoid fixture's
 * ball joints went past their cones the same way: a hip 0.995 rad in the first step of a fall onto
 * stairs. Post-stabilisation now holds every limited joint within 0.05 rad of its stops, or where
 * the step found it if that was further (stabilize.ts MAX_PAST, stops.ts), and so does a pass that
 * takes its length unchecked (backtrack.ts holdAtStops).
 */
import { describe, expect, it } from 'vitest';
import { worstLimitViolation } from '../../src/index.js';
import { RandomScenes } from './random-scenes.js';

const DT = 1 / 60, STEPS = 180;
/** How far past its stops a joint may end (rad): measured 0.021-0.062 rad in these scenes, against 2.2 to 1,891 rad before. */
const PAST = 0.1;
/** Steps in a row a body's joints may stand still while it is awake: a pass the energy account undoes halves the island's motion and takes it again. */
const STILL = 10;

/**
 * seed, scene, whether the scenes have thin-box chains, what the worst joint did before the turn
 * was bounded (rad past its stop), and why its joints may still stand still for longer than STILL
 * steps (a known failure), if they may.
 */
const FOUND: [number, number, boolean, number, string?][] = [
  // (a free chain of 31 links flung spinning, 2,570 J of kinetic energy, stood still for 16 steps
  // while the energy account undid its passes; 7 since the step holds joints at its start's stops)
  [3, 18, false, 1891.6],
  [3, 6, false, 25.4], [4, 6, false, 63.0], [7, 28, false, 2.18],
  [11, 22, true, 0.995],
  [13, 10, true, 0.421],
  // (a chain of 10 thin boxes, 5 cm by 5 mm, on the stairs stood still for 16 steps while the energy
  // account undid its passes, at the nearly singular contacts of thin boxes; 8 now)
  [13, 25, true, 0.253],
];

describe('random scenes with limited chains: limits hold, and joints keep moving', () => {
  for (const [seed, k, thin, before, standsStill] of FOUND) {
    it(`seed ${seed}${thin ? ' (thin chains)' : ''}, scene ${k}: every joint within ${PAST} rad of its stops for 3 s (it was ${before} rad past), and ${standsStill ? `(a known failure) a body's joints stand still for more than ${STILL} steps while it is awake: ${standsStill}` : `no body's joints stand still for more than ${STILL} steps while it is awake`}`, () => {
      const { world, what } = RandomScenes.scene(seed, k, thin);
      let worst = 0, worstAt = -1, undone = 0, longest = 0;
      const still = world.bodies.map(() => 0);
      for (let s = 0; s < STEPS; s++) {
        const before = world.bodies.map((b) => b.state.q.slice());
        const st = world.step(DT);
        expect(st.error, `step ${s}`).toBe('');
        undone += st.undone;
        world.bodies.forEach((b, i) => {
          const v = worstLimitViolation(b).violation;
          if (v > worst) { worst = v; worstAt = s; }
          // the joints past a free root (which its group's momentum carries on) of a body awake
          // stand still when not one of them moved over the step while they turn (a joint at
          // 1e-9 rad/s moves 1.7e-11 rad in a step, far above the last bit of q): its passes were
          // undone. (A body at rest, its joints at 1e-15 rad/s with sleep off, is not frozen.)
          const m = b.model, q0 = m.jointNq[0] === 7 ? 7 : 0, v0 = m.jointNq[0] === 7 ? 6 : 0;
          let moved = 0, turning = 0;
          for (let j = q0; j < m.nq; j++) moved = Math.max(moved, Math.abs(b.state.q[j] - before[i][j]));
          for (let j = v0; j < m.nv; j++) turning = Math.max(turning, Math.abs(b.state.qd[j]));
          still[i] = !b.sleeping && m.nq > q0 && moved === 0 && turning > 1e-9 ? still[i] + 1 : 0;
          longest = Math.max(longest, still[i]);
        });
      }
      console.log(`[random-limits] seed ${seed} scene ${k} (${what}): worst joint ${worst.toFixed(3)} rad past its stop at step ${worstAt}; passes undone ${undone}; longest a body's joints stood still: ${longest} steps`);
      expect(worst).toBeLessThan(PAST);
      // (a known failure is expected to fail, so that its mend is noticed)
      if (standsStill) expect(longest, standsStill).toBeGreaterThan(STILL);
      else expect(longest).toBeLessThanOrEqual(STILL);
    });
  }
});

describe('random crash scenes none of the tests above was written for: limits hold', () => {
  // seeds 5, 6 and 8, 20 scenes each (one to five ragdolls, limited chains, thin chains, boxes and
  // spheres thrown at random poses and speeds onto a plane, stairs, a ramp or nothing), 3 s at
  // 60 Hz with default settings. Before the step held joints at its start's stops (stops.ts):
  // 3 of the 60 ended beyond 0.1 rad, the worst 0.25 rad; 25 beyond 0.05 rad then and now.
  for (const seed of [5, 6, 8]) {
    it(`seed ${seed}: every joint of every scene within ${PAST} rad of its stops`, async () => {
      const scenes = new RandomScenes(seed, true);
      const worst: string[] = [];
      let most = 0;
      for (let k = 0; k < 20; k++) {
        const { world, what } = scenes.next();
        let w = 0;
        for (let s = 0; s < STEPS; s++) {
          expect(world.step(DT).error, `scene ${k} step ${s}`).toBe('');
          for (const b of world.bodies) w = Math.max(w, worstLimitViolation(b).violation);
        }
        most = Math.max(most, w);
        if (w > 0.05) worst.push(`scene ${k} (${what}): ${w.toFixed(3)} rad`);
        await new Promise((r) => setImmediate(r));
      }
      console.log(`[random-limits] seed ${seed}: 20 scenes, the worst joint ${most.toFixed(6)} rad past its stop; beyond 0.05 rad: ${worst.length ? worst.join('; ') : 'none'}`);
      expect(most).toBeLessThanOrEqual(PAST);
    });
  }
});
