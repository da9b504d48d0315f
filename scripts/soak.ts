/**
 * Soak run: N humanoid ragdolls (the characters package's preset, with ragdoll joint damping of
 * time constant 0.25 s) dropped in a pile on the ground
 * and stepped at 1/60 s for M simulated minutes. Every simulated 10 s it prints the energy, the
 * deepest penetration into the ground and between bodies, the worst joint-limit violation, how
 * many ragdolls sleep, the rolled-back (non-finite) steps, the step time and the heap in use, so
 * that drift, creeping penetration, explosions and leaks show up over a long run. Not a test.
 *
 *   node --conditions=sinew-source --import tsx scripts/soak.ts [ragdolls=20] [minutes=5] [stir=30]
 *
 * or, about twice as fast (bundled as `pnpm bench` bundles its scripts):
 *   npx esbuild scripts/soak.ts --bundle --platform=node --format=esm --conditions=sinew-source --outfile=scripts/soak.bundle.mjs
 *   node scripts/soak.bundle.mjs 20 5 30
 *
 * stir: every `stir` simulated seconds one ragdoll (in turn) is kicked upward for 0.1 s (external
 * work, which also wakes the pile), so the run is not just a sleeping pile; 0 turns it off.
 */
import { characterFromJSON, humanoid } from '../packages/characters/src/index.js';
import { World, type Body } from '../packages/constraints/src/index.js';
import { forwardKinematics, kineticEnergy, potentialEnergy, setJointDampingTimeConstant, type Model } from '../packages/featherstone/src/index.js';
import { limitViolation, lowestPoint } from '../packages/constraints/test/body-measures.js';

const N = Number(process.argv[2] ?? 20);
const MINUTES = Number(process.argv[3] ?? 5);
const STIR = Number(process.argv[4] ?? 30);
const DT = 1 / 60;
const REPORT_EVERY = 10; // simulated seconds

if (!(N >= 1 && Number.isInteger(N)) || !(MINUTES > 0) || !(STIR >= 0)) {
  console.error('usage: scripts/soak.ts [ragdolls >= 1] [minutes > 0] [stir seconds >= 0]');
  process.exit(2);
}

/** mulberry32, so that a run reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// the pile: ragdolls dropped one above another over a 1 m square, turned at random about a random axis
const model: Model = characterFromJSON(humanoid()).model;
setJointDampingTimeConstant(model, 0.25); // a ragdoll's joint damping (ragdollFromSkeleton's default)
const world = new World();
world.addStatic({ geometry: { type: 'plane' } });
const r = rng(1);
for (let k = 0; k < N; k++) {
  const b = world.addBody(model, { name: `ragdoll${k}` });
  const ax = [r() - 0.5, r() - 0.5, r() - 0.5];
  const n = Math.hypot(ax[0], ax[1], ax[2]);
  const ang = Math.PI * r();
  const s = Math.sin(ang / 2) / n;
  b.state.q.set([r() - 0.5, 1.2 + 0.7 * k, r() - 0.5, ax[0] * s, ax[1] * s, ax[2] * s, Math.cos(ang / 2)]);
  forwardKinematics(b.model, b.state, true);
}

const total = Math.round((MINUTES * 60) / DT);
const perReport = Math.round(REPORT_EVERY / DT);
const stirSteps = STIR > 0 ? Math.round(STIR / DT) : 0;
const kickSteps = Math.round(0.1 / DT);
const mass = model.totalMass();
console.log(`soak: ${N} ragdolls (${model.nLinks} links, ${model.nv} dofs, ${mass} kg each), ${MINUTES} simulated min at 1/60 s (${total} steps), report every ${REPORT_EVERY} s, stir ${STIR > 0 ? `every ${STIR} s` : 'off'}; node ${process.version}`);
console.log('   t(s)   wall(s)  ms/step(avg,max)   KE(J)      PE(J)      E(J)   ground pen(m) contact pen(m) limit viol(rad)  asleep  rolled back  non-finite  heap(MB)');

const t0 = performance.now();
let step = 0;
/** The run's worst figures so far (also printed when the run is interrupted with Ctrl-C or SIGTERM). */
function summary(what: string): void {
  const wall = (performance.now() - t0) / 1000;
  console.log(`${what} in ${wall.toFixed(1)} s wall (${((wall * 1000) / Math.max(1, step)).toFixed(2)} ms/step over ${step} steps, worst step ${Math.max(worstMs, periodMax).toFixed(0)} ms); worst ground penetration ${Math.max(worstGround, periodGround).toFixed(4)} m, worst contact penetration ${Math.max(worstPen, periodPen).toFixed(4)} m, worst limit violation ${Math.max(worstLimit, periodLimit).toFixed(4)} rad; ${totalRolledBack + rolledBack} steps rolled back; ${kicks} kicks; heap ${(heap0 / 1048576).toFixed(1)} -> ${(process.memoryUsage().heapUsed / 1048576).toFixed(1)} MB`);
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    summary(`interrupted at ${(step * DT).toFixed(1)} simulated s`);
    process.exit(130);
  });
}
let periodMs = 0, periodMax = 0, periodPen = 0, periodGround = 0, periodLimit = 0, rolledBack = 0, nonFinite = 0;
let worstGround = 0, worstPen = 0, worstLimit = 0, totalRolledBack = 0, worstMs = 0;
let kicked = -1, kickUntil = -1, kicks = 0;
const heap0 = process.memoryUsage().heapUsed;
for (let i = 1; i <= total; i++) {
  step = i;
  if (stirSteps > 0 && i % stirSteps === 0) { kicked = kicks++ % N; kickUntil = i + kickSteps; }
  if (i < kickUntil) {
    const b = world.bodies[kicked];
    const p = b.state.work.pose;
    // 1.5 g upward on the pelvis, at its origin, for 0.1 s
    b.state.applyForce(0, [0, 1.5 * 9.81 * mass, 0], [p[9], p[10], p[11]]);
  }
  const ts = performance.now();
  const s = world.step(DT);
  const ms = performance.now() - ts;
  periodMs += ms;
  periodMax = Math.max(periodMax, ms);
  periodPen = Math.max(periodPen, s.maxPenetration);
  if (s.error) { rolledBack++; if (totalRolledBack + rolledBack <= 3) console.log(`  rolled back at t = ${(i * DT).toFixed(2)} s: ${s.error}`); }
  if (i % 6 === 0 || i % perReport === 0) {
    // every 0.1 s: geometry and limits (cheap enough, and a creeping drift cannot hide)
    for (const b of world.bodies) {
      if (b.state.firstNonFinite() >= 0) nonFinite++;
      periodGround = Math.max(periodGround, -lowestPoint(b));
      periodLimit = Math.max(periodLimit, limitViolation(b));
    }
  }
  if (i % perReport === 0) {
    let ke = 0, pe = 0;
    for (const b of world.bodies) {
      forwardKinematics(b.model, b.state, true);
      ke += kineticEnergy(b.model, b.state);
      pe += potentialEnergy(b.model, b.state);
    }
    const heap = process.memoryUsage().heapUsed / 1048576;
    const line = [
      (i * DT).toFixed(0).padStart(6), ((performance.now() - t0) / 1000).toFixed(1).padStart(8),
      `${(periodMs / perReport).toFixed(2)},${periodMax.toFixed(0)}`.padStart(17),
      ke.toFixed(2).padStart(10), pe.toFixed(1).padStart(10), (ke + pe).toFixed(1).padStart(10),
      Math.max(0, periodGround).toFixed(4).padStart(14), periodPen.toFixed(4).padStart(14), Math.max(0, periodLimit).toFixed(4).padStart(15),
      `${s.sleeping}/${N}`.padStart(7), String(rolledBack).padStart(12), String(nonFinite).padStart(11), heap.toFixed(1).padStart(9),
    ];
    console.log(line.join(' '));
    worstGround = Math.max(worstGround, periodGround);
    worstPen = Math.max(worstPen, periodPen);
    worstLimit = Math.max(worstLimit, periodLimit);
    worstMs = Math.max(worstMs, periodMax);
    totalRolledBack += rolledBack;
    periodMs = 0; periodMax = 0; periodPen = 0; periodGround = 0; periodLimit = 0; rolledBack = 0; nonFinite = 0;
    // let the event loop run (Ctrl-C, SIGTERM) once per report
    await new Promise((resolve) => setImmediate(resolve));
  }
}
summary(`done: ${MINUTES} simulated min`);
