/**
 * Energy search: random scenes, seeded, each stepped 3 s at 1/60 s with default settings and
 * judged against the step's energy guarantee (no island above its lowest energy by more than
 * B = m |g| (contactSlop + |g| h^2 / 2) summed over the bodies, step/energy-account.ts). A scene is
 * one to five bodies (the humanoid fixture, the 15-part peer ragdoll, a chain of 5 to 34 boxes with
 * or without limits, a chain of 10 to 29 thin boxes of 5 cm by 5 mm with none, a box, a sphere)
 * at random poses and joint speeds, over a plane, a flight of stairs, a ramp or nothing. Prints the
 * worst scenes: the largest rise above the lowest energy, in joules and in bounds, and whether the
 * state stayed finite. Not a test: a search for the scene nobody wrote (energy-no-gain.test.ts
 * keeps what it found).
 *
 *   node --conditions=sinew-source --import tsx scripts/energy-search.ts [seed=1] [scenes=30] [thin=1]
 *
 * thin=0 leaves out the thin-box chains (their contacts are nearly singular; see the note in
 * energy-no-gain.test.ts).
 */
import type { Model } from '../packages/featherstone/src/index.js';
import { World } from '../packages/constraints/src/index.js';
import { peerRagdollModel } from '../packages/constraints/bench/peer-ragdoll.js';
import { energyBound, mechanicalEnergy } from '../packages/constraints/test/body-measures.js';
import { rodChain } from '../packages/constraints/test/chain-fixture.js';
import { humanoidTree } from '../packages/constraints/test/humanoid-fixture.js';
import { boxModel, sphereModel, turn } from '../packages/constraints/test/robustness/scenes.js';

const SEED = Number(process.argv[2] ?? 1);
const SCENES = Number(process.argv[3] ?? 30);
const THIN = process.argv[4] !== '0';
const DT = 1 / 60, STEPS = 180;

if (!Number.isInteger(SEED) || !(SCENES >= 1 && Number.isInteger(SCENES))) {
  console.error('usage: scripts/energy-search.ts [seed: an integer] [scenes >= 1] [thin: 0 or 1]');
  process.exit(1);
}

// a linear congruential generator: the same scenes from the same seed on every machine
let seed = SEED;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const R = (a: number, b: number): number => a + (b - a) * rnd();

const KINDS = ['humanoid', 'peer', 'chain', 'box', 'sphere', 'thin chain'] as const;

function modelOf(kind: (typeof KINDS)[number]): Model {
  switch (kind) {
    case 'humanoid': return humanoidTree();
    case 'peer': return peerRagdollModel();
    case 'chain': return rodChain({ links: 5 + Math.floor(R(0, 30)), length: R(0.05, 0.2), mass: R(0.05, 1), root: 'free', limits: rnd() < 0.5 ? { lower: -1, upper: 1 } : undefined });
    case 'thin chain': return rodChain({ links: 10 + Math.floor(R(0, 20)), length: 0.05, mass: 0.1, root: 'free' });
    case 'box': return boxModel(R(0.5, 50), [R(0.05, 0.4), R(0.02, 0.4), R(0.05, 0.4)], R(0, 1));
    case 'sphere': return sphereModel(R(0.1, 20), R(0.05, 0.3), R(0, 1));
  }
}

function scene(): { world: World; what: string } {
  const world = new World(rnd() < 0.5 ? { sleep: false } : {});
  const g = rnd();
  let ground = 'nothing';
  if (g < 0.4) { world.addStatic({ geometry: { type: 'plane' } }); ground = 'a plane'; }
  else if (g < 0.7) {
    world.addStatic({ geometry: { type: 'plane' } });
    for (let i = 0; i < 6; i++) world.addStatic({ geometry: { type: 'box', halfExtents: [1.5, 0.1 * (i + 1), 0.15] }, position: [0, 0.1 * (i + 1), -0.3 * i] });
    ground = 'stairs';
  } else if (g < 0.85) {
    const t = Math.tan(R(0.2, 0.6));
    world.addStatic({ geometry: { type: 'trimesh', vertices: [-4, 4 * t, -3, 4, -4 * t, -3, 4, -4 * t, 3, -4, 4 * t, 3], indices: [0, 2, 1, 0, 3, 2] }, friction: R(0, 1) });
    ground = 'a ramp';
  }
  const kinds: string[] = [];
  const n = 1 + Math.floor(R(0, 5));
  for (let i = 0; i < n; i++) {
    const kind = KINDS[Math.floor(R(0, THIN ? 6 : 5))];
    kinds.push(kind);
    const b = world.addBody(modelOf(kind));
    const axis = [R(-1, 1), R(-1, 1), R(-1, 1)];
    const len = Math.hypot(axis[0], axis[1], axis[2]);
    const rotation = turn([axis[0] / len, axis[1] / len, axis[2] / len], R(0, 6.28));
    b.state.q.set([R(-1, 1), R(0.3, 2.5), R(-1, 1)], 0);
    b.state.q.set(rotation, 3);
    for (let k = 0; k < b.model.nv; k++) b.state.qd[k] = R(-1, 1) * (k < 6 ? 3 : R(0, 8));
  }
  return { world, what: `${kinds.join(', ')} over ${ground}` };
}

interface Found { k: number; what: string; drift: number; bounds: number; at: number; finite: boolean; undone: number; held: number }
const found: Found[] = [];
const t0 = performance.now();
for (let k = 0; k < SCENES; k++) {
  const { world, what } = scene();
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
