/**
 * One humanoid preset (1.75 m, 70 kg) following the CMU walk (shared/data/bvh/cmu_02_01_walk.bvh,
 * retargeted with CMU_TO_HUMANOID) on a ground plane at 1/60 s, with new World() defaults: what a
 * game pays per walking character. For the kinematic root (the clip moves the pelvis) and the
 * assisted free root (a bounded force at the pelvis), over the whole clip after 1.5 s of warm-up runs of
 * the same clip: CPU time per step (process.cpuUsage over the run, and the median and p99 of the
 * steps' wall times), the solver's sweeps per step (stats.iterations: mean, median, largest, and
 * the share of steps that ran to the cap of 30, and the median of the residual they left: the
 * natural-map residual of stats.residual, against the default tolerance of 1e-3), passes, halvings
 * and rows per step.
 *
 * Run from the repository root:
 *   pnpm bench packages/characters/bench/walk.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 */
import { readFileSync } from 'node:fs';
import { World } from '@sinew/constraints';
import { printTable, record, writeResults } from '../../../bench/harness.js';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import { CMU_TO_HUMANOID, MotionFollower, retargetClip, type RootMode } from '../src/control/index.js';

const COMMAND = 'pnpm bench packages/characters/bench/walk.bench.ts';
const DT = 1 / 60;
/** Warm-up (ms of fresh walks) before the timed walk of each root mode. */
const WARM_UP_MS = 1500;
const CAP = 30; // the World's default PGS sweeps (WorldOptions.solver)

const bvh = importBvh(readFileSync(new URL('../../../../shared/data/bvh/cmu_02_01_walk.bvh', import.meta.url), 'utf8'), { scale: BVH_SCALE.cmu });
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
const traj = retargetClip(model, bvh.clip, { map: CMU_TO_HUMANOID, frames: [1, bvh.clip.frameCount - 1] }).trajectory;
const STEPS = Math.floor(traj.duration / DT);

interface Run { cpuUs: number; wall: Float64Array; sweeps: Int32Array; residual: Float64Array; passes: number; halvings: number; rows: number }

/** The walk once from its start in a new world (the preset's shapes overlap in walking poses: no self-collision, as in the examples). */
function walk(root: RootMode): Run {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(model, { name: 'walker', selfCollision: false });
  new MotionFollower(world, body, { trajectory: traj, root });
  const wall = new Float64Array(STEPS), sweeps = new Int32Array(STEPS), residual = new Float64Array(STEPS);
  let passes = 0, halvings = 0, rows = 0;
  const c0 = process.cpuUsage();
  for (let s = 0; s < STEPS; s++) {
    const t0 = performance.now();
    const st = world.step(DT);
    wall[s] = (performance.now() - t0) * 1000;
    sweeps[s] = st.iterations;
    residual[s] = st.residual;
    passes += st.passes; halvings += st.halvings; rows += st.rows;
    if (st.error) throw new Error(`walk (${root} root) step ${s}: ${st.error}`);
  }
  const c = process.cpuUsage(c0);
  return { cpuUs: (c.user + c.system) / STEPS, wall, sweeps, residual, passes: passes / STEPS, halvings: halvings / STEPS, rows: rows / STEPS };
}

const quantile = (a: ArrayLike<number>, p: number): number => {
  const s = Array.from(a).sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

console.log(`# One humanoid following the CMU walk at 1/60 s (command: ${COMMAND}; node ${process.version}; ${STEPS} steps, ${traj.duration.toFixed(2)} s of clip)`);
const table: Record<string, string | number>[] = [];
for (const root of ['kinematic', 'assisted'] as const) {
  // warm-up by time, in fresh worlds as the timed one is: one run of the clip leaves V8 compiling
  // through the next (a second run's first steps took 25 ms, the third's 3.5)
  for (const t0 = performance.now(); performance.now() - t0 < WARM_UP_MS; ) walk(root);
  const r = walk(root);
  let sum = 0, atCap = 0, most = 0;
  for (const n of r.sweeps) { sum += n; if (n >= CAP) atCap++; most = Math.max(most, n); }
  const row = {
    root,
    'CPU µs/step (mean)': r.cpuUs.toFixed(1),
    'wall µs/step median / p99': `${quantile(r.wall, 0.5).toFixed(1)} / ${quantile(r.wall, 0.99).toFixed(1)}`,
    'sweeps/step mean / median / max': `${(sum / STEPS).toFixed(1)} / ${quantile(r.sweeps, 0.5)} / ${most}`,
    [`steps at the ${CAP}-sweep cap`]: `${((100 * atCap) / STEPS).toFixed(1)} %`,
    'residual median (tolerance 1e-3)': quantile(r.residual, 0.5).toExponential(1),
    'passes/step': r.passes.toFixed(2),
    'halvings/step': r.halvings.toFixed(2),
    'rows/step': r.rows.toFixed(1),
  };
  table.push(row);
  record({ name: `walk, ${root} root: CPU per step`, medianUs: quantile(r.wall, 0.5), minUs: NaN, maxUs: quantile(r.wall, 0.99), calls: STEPS, cpuUs: r.cpuUs, sweepsMean: sum / STEPS, atCapShare: atCap / STEPS });
}
printTable(`One humanoid preset following the CMU walk with ground contact, 1/60 s, new World() defaults (target: 60 µs a step) — ${COMMAND}`, table);
console.log(`\nwrote ${writeResults('characters-walk')}`);
