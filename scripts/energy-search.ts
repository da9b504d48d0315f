/**
 * Energy search: random scenes, seeded (test/robustness/random-scenes.ts: one to five ragdolls,
 * chains, boxes and spheres at random poses and joint speeds over a plane, stairs, a ramp or
 * nothing), each stepped 3 s at 1/60 s with default settings and judged against the step's energy
 * guarantee (no island above its lowest energy by more than B = m |g| (contactSlop + |g| h^2 / 2)
 * summed over the bodies, step/energy-account.ts). Prints the worst scenes: the largest rise above
 * the lowest energy, in joules and in bounds, and whether the state stayed finite. Not a test: a
 * search for the scene nobody wrote (energy-no-gain.test.ts and random-limits.test.ts keep what it
 * found).
 *
 *   node --conditions=sinew-source --import tsx scripts/energy-search.ts [seed=1] [scenes=30] [thin=1]
 *
 * thin=0 leaves out the thin-box chains (their contacts are nearly singular; see the note in
 * energy-no-gain.test.ts).
 */
import { energyBound, mechanicalEnergy } from '../packages/constraints/test/body-measures.js';
import { RandomScenes } from '../packages/constraints/test/robustness/random-scenes.js';

const SEED = Number(process.argv[2] ?? 1);
const SCENES = Number(process.argv[3] ?? 30);
const THIN = process.argv[4] !== '0';
const DT = 1 / 60, STEPS = 180;

if (!Number.isInteger(SEED) || !(SCENES >= 1 && Number.isInteger(SCENES))) {
  console.error('usage: scripts/energy-search.ts [seed: an integer] [scenes >= 1] [thin: 0 or 1]');
  process.exit(1);
}

interface Found { k: number; what: string; drift: number; bounds: number; at: number; finite: boolean; undone: number; held: number }
const found: Found[] = [];
const t0 = performance.now();
const scenes = new RandomScenes(SEED, THIN);
for (let k = 0; k < SCENES; k++) {
  const { world, what } = scenes.next();
  const bound = energyBound(world, DT);
  let low = mechanicalEnergy(world), drift = 0, at = -1, finite = true, undone = 0, held = 0;
  for (let s = 0; s < STEPS; s++) {
    const st = world.step(DT);
    undone += st.undone;
    held += st.stabilizationHeld;
    const e = mechanicalEnergy(world);
    if (!Number.isFinite(e)) { finite = false; break; }
    if (e - low > drift) { drift = e - low; at = s; }
    low = Math.min(low, e);
  }
  found.push({ k, what, drift, bounds: drift / bound, at, finite, undone, held });
}
found.sort((a, b) => b.bounds - a.bounds);
console.log(`# energy search: seed ${SEED}, ${SCENES} scenes${THIN ? '' : ' (no thin-box chains)'}, 3 s each at 1/60 s, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
console.log(`scenes above their bound: ${found.filter((f) => f.bounds > 1).length} of ${SCENES}; the worst:`);
for (const f of found.slice(0, 8)) {
  console.log(`  scene ${f.k} (${f.what}): ${f.drift.toPrecision(4)} J above its lowest energy at step ${f.at} (${f.bounds.toPrecision(3)} bounds)${f.finite ? '' : ', NON-FINITE'}; passes undone ${f.undone}, post-stabilisation held ${f.held}`);
}
