/**
 * World.step on piles of humanoid ragdolls (ragdoll-pile.ts: the 20-link, 44-dof humanoid tree of
 * the tests, lying in criss-cross piles of 10), at dt = 1/60 with default options, for 1, 10, 50
 * and 100 ragdolls; the same piles in Rapier (rapier-pile.ts: multibody joints) and in PhysX 5
 * (physx-pile.ts: reduced-coordinate articulations, the WebAssembly build physx-js-webidl), with
 * the same masses, shapes, friction, gravity and time step, in the same run; heap growth per step;
 * and the project's performance targets, met or not.
 *
 * Each pile runs three phases: the fall (from release until the top layer has had time to land:
 * sqrt(2 h / g) plus 0.1 s), the settling (at least 1 s, then until the pile is at rest: every
 * body asleep in an engine that sleeps, at most 10 s; timed, not part of the rest figures), and
 * the rest phase (steps measured on the settled pile). Sinew's runs all come before the other
 * engines are loaded, and one resting ragdoll is timed again after them (see the comment above the
 * runs: a detached ArrayBuffer slows typed-array code). A run with sleep off settles for the 10 s. Every step is timed alone: wall time
 * (median, min, max over the phase's steps) and process CPU time (mean; it counts V8's GC and
 * compiler threads too, so it can exceed the wall time, and a shared machine inflates it less). Sinew's per-phase split (world.stats.ms), contacts, rows, halvings, PGS
 * iterations, islands and sleeping bodies are means per step (halvings: total).
 *
 * A wall-time budget per engine and pile size keeps the default run near two minutes: when a run
 * exceeds it, it stops where it is and the tables say which phase was cut short after how many
 * steps (today Sinew needs far more than the budget for 10 ragdolls and more; Rapier and PhysX
 * have budgets of their own, alike). BENCH_FULL=1 lifts the budgets, BENCH_QUICK=1 halves them and
 * runs 1 and 10 ragdolls only, BENCH_BUDGET_SCALE=<x> multiplies them, BENCH_WORLD_N=1,10 picks
 * the pile sizes.
 *
 * The targets table at the end reads featherstone's figures from bench-output/featherstone.json and
 * the K-build figures from bench-output/kbuild.json (written earlier in `pnpm bench`); timing
 * targets of single calls are judged on CPU time or the fastest sample (a shared machine inflates
 * medians), the step targets on this run's per-step times.
 *
 * Run from the repository root:
 *   pnpm bench packages/constraints/bench/world.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accelerationDeltasForce, forwardDynamics } from '@sinew/featherstone';
import { allocatedPerCall, fmt, measure, printTable, record, repoRoot, writeResults, type Timing } from '../../../bench/harness.js';
import type { World, WorldOptions } from '../src/index.js';
import { pelvisHeights, pileLayout, ragdollModel, ragdollState, sinewPile, topHeight } from './ragdoll-pile.js';
import { loadRapier, rapierPile, type RapierPile } from './rapier-pile.js';
import { loadPhysX, physxPile, type PhysXPile } from './physx-pile.js';

const COMMAND = 'pnpm bench packages/constraints/bench/world.bench.ts';
const QUICK = process.env.BENCH_QUICK === '1';
const FULL = process.env.BENCH_FULL === '1';
const SCALE = Number(process.env.BENCH_BUDGET_SCALE ?? 1) * (QUICK ? 0.5 : 1);
const NS = process.env.BENCH_WORLD_N ? process.env.BENCH_WORLD_N.split(',').map(Number) : QUICK ? [1, 10] : [1, 10, 50, 100];
const DT = 1 / 60;
const G = 9.81;
/** Settling: at least SETTLE_STEPS, then until the pile is at rest, at most SETTLE_MAX_STEPS. */
const SETTLE_STEPS = 60;
const SETTLE_MAX_STEPS = 600;
/** Rest-phase steps by pile size. */
const REST_STEPS = (n: number) => (n <= 1 ? (QUICK ? 120 : 300) : n <= 10 ? (QUICK ? 20 : 60) : 30);
type Engine = 'sinew' | 'rapier' | 'physx';
/** Wall-time budget (s) of one run, by engine and pile size (Rapier and PhysX alike). */
const BUDGET_S = (engine: Engine, n: number) => {
  if (FULL) return Infinity;
  // (Sinew's 100-ragdoll pile reaches its rest phase in about 20 s of wall time: the target at rest is judged there)
  const s = engine === 'sinew' ? (n <= 1 ? 20 : n <= 10 ? 45 : 30) : n <= 1 ? 5 : n <= 10 ? 12 : 8;
  return s * SCALE;
};
const fallSteps = (n: number) => Math.ceil(Math.sqrt((2 * (topHeight(n) - 0.1)) / G) / DT) + 6;

type Phase = 'fall' | 'settle' | 'rest';
const PHASES: Phase[] = ['fall', 'settle', 'rest'];

interface PhaseStats {
  steps: number;
  wallMs: number[];
  /** Process CPU ms of each step. */
  cpuSteps: number[];
  cpuMs: number;
  split: { rows: number; dynamics: number; k: number; solve: number; integrate: number; stabilize: number };
  contacts: number;
  rows: number;
  rowsMax: number;
  halvings: number;
  iterations: number;
  islands: number;
  sleeping: number;
  errors: number;
  firstError: string;
  /** Rapier: collision detection and solver ms (profiler); Rapier and PhysX: awake links at the end. */
  cd: number;
  solver: number;
  awake: number;
}

interface Run {
  engine: Engine;
  n: number;
  variant: string;
  phases: Record<Phase, PhaseStats>;
  planned: Record<Phase, number>;
  simTime: number;
  wallS: number;
  complete: boolean;
  note: string;
  pelvis: { mean: number; max: number };
}

const newPhase = (): PhaseStats => ({
  steps: 0, wallMs: [], cpuSteps: [], cpuMs: 0, split: { rows: 0, dynamics: 0, k: 0, solve: 0, integrate: 0, stabilize: 0 },
  contacts: 0, rows: 0, rowsMax: 0, halvings: 0, iterations: 0, islands: 0, sleeping: 0, errors: 0, firstError: '', cd: 0, solver: 0, awake: 0,
});

/** Steps an engine through the three phases within the budget. */
function runPhases(engine: Engine, n: number, variant: string, step: (p: PhaseStats) => void, finish: (p: PhaseStats) => void, pelvis: () => { mean: number; max: number }, atRest: () => boolean): Run {
  const planned: Record<Phase, number> = { fall: fallSteps(n), settle: SETTLE_MAX_STEPS, rest: REST_STEPS(n) };
  const phases = { fall: newPhase(), settle: newPhase(), rest: newPhase() };
  const budgetMs = BUDGET_S(engine, n) * 1000;
  const start = performance.now();
  let note = '', complete = true, simSteps = 0;
  outer: for (const ph of PHASES) {
    const p = phases[ph];
    for (let k = 0; k < planned[ph]; k++) {
      if (performance.now() - start > budgetMs) {
        complete = false;
        note = `budget ${(budgetMs / 1000).toFixed(0)} s: stopped in the ${ph} phase after ${k} of ${planned[ph]} steps (t = ${(simSteps * DT).toFixed(2)} s)`;
        finish(p);
        break outer;
      }
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      step(p);
      p.wallMs.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      p.cpuSteps.push((c.user + c.system) / 1000);
      p.cpuMs += (c.user + c.system) / 1000;
      p.steps++;
      simSteps++;
      if (ph === 'settle' && p.steps >= SETTLE_STEPS && atRest()) break;
    }
    finish(p);
  }
  return { engine, n, variant, phases, planned, simTime: simSteps * DT, wallS: (performance.now() - start) / 1000, complete, note, pelvis: pelvis() };
}

function runSinew(n: number, variant: string, options: WorldOptions): { run: Run; world: World } {
  const world = sinewPile(n, { timings: true, ...options }, model);
  const ys = new Float64Array(n);
  const run = runPhases('sinew', n, variant, (p) => {
    const st = world.step(DT);
    const s = p.split, m = st.ms;
    s.rows += m.rows; s.dynamics += m.dynamics; s.k += m.k; s.solve += m.solve; s.integrate += m.integrate; s.stabilize += m.stabilize;
    p.contacts += st.contacts; p.rows += st.rows; p.rowsMax = Math.max(p.rowsMax, st.rows); p.halvings += st.halvings;
    p.iterations += st.iterations; p.islands = Math.max(p.islands, st.islands); p.sleeping = st.sleeping;
    if (st.error) { p.errors++; if (!p.firstError) p.firstError = st.error; }
  }, () => {}, () => {
    world.bodies.forEach((b, k) => { ys[k] = b.state.q[1]; });
    return pelvisHeights(ys);
  }, () => world.stats.sleeping === n);
  return { run, world };
}

function runRapier(n: number, variant: string, canSleep: boolean): { run: Run; pile: RapierPile } {
  const states = pileLayout(n).map((p) => ragdollState(model, p));
  const pile = rapierPile(R, model, states, { canSleep, dt: DT });
  pile.world.profilerEnabled = true;
  const run = runPhases('rapier', n, variant, (p) => {
    pile.step();
    p.cd += pile.world.timingCollisionDetection();
    p.solver += pile.world.timingSolver();
  }, (p) => { p.awake = pile.awake(); }, () => pelvisHeights(pile.pelvisY()), () => canSleep && pile.awake() === 0);
  return { run, pile };
}

function runPhysX(n: number, variant: string, canSleep: boolean): { run: Run; pile: PhysXPile } {
  const states = pileLayout(n).map((p) => ragdollState(model, p));
  const pile = physxPile(physx, model, states, { canSleep, dt: DT });
  const run = runPhases('physx', n, variant, () => pile.step(), (p) => { p.awake = pile.awake(); }, () => pelvisHeights(pile.pelvisY()), () => canSleep && pile.awake() === 0);
  physxLowest.set(run, pile.lowestPoint());
  return { run, pile };
}
/** Lowest point of any PhysX link's shapes at the end of a run (m; below 0: into the ground). */
const physxLowest = new Map<Run, number>();

const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const median = (a: number[]) => (a.length ? sorted(a)[a.length >> 1] : NaN);
const msCell = (ms: number) => (Number.isFinite(ms) ? fmt(ms * 1000) : '—');
const mean = (a: number[]) => a.reduce((u, v) => u + v, 0) / Math.max(1, a.length);
function stepCell(p: PhaseStats): string {
  if (p.steps === 0) return 'not reached';
  const s = sorted(p.wallMs);
  return `${msCell(s[s.length >> 1])} (${msCell(s[0])}..${msCell(s[s.length - 1])}), mean ${msCell(mean(s))}`;
}

function recordRun(r: Run): void {
  for (const ph of PHASES) {
    const p = r.phases[ph];
    if (p.steps === 0) continue;
    const s = sorted(p.wallMs);
    const per = (x: number) => x / p.steps;
    record({
      name: `${r.engine} ${r.n} ragdolls (${r.variant}): ${ph} step`,
      medianUs: s[s.length >> 1] * 1000, minUs: s[0] * 1000, maxUs: s[s.length - 1] * 1000, calls: p.steps,
      cpuUs: (p.cpuMs / p.steps) * 1000, plannedSteps: r.planned[ph], complete: r.complete ? 'yes' : r.note,
      ...(r.engine === 'sinew'
        ? {
            msRows: per(p.split.rows), msDynamics: per(p.split.dynamics), msK: per(p.split.k), msSolve: per(p.split.solve), msIntegrate: per(p.split.integrate), msStabilize: per(p.split.stabilize),
            contacts: per(p.contacts), rows: per(p.rows), rowsMax: p.rowsMax, halvings: p.halvings, iterations: per(p.iterations), islands: p.islands, sleeping: p.sleeping, errors: p.errors,
          }
        : r.engine === 'rapier'
          ? { msCollision: per(p.cd), msSolver: per(p.solver), awakeLinks: p.awake }
          : { awakeLinks: p.awake }),
    });
  }
}

console.log(`# World.step on ragdoll piles, and Rapier and PhysX on the same piles (command: ${COMMAND}; node ${process.version})`);
const model = ragdollModel();
console.log(`ragdoll: ${model.nLinks} links, ${model.nv} dofs, ${model.totalMass().toFixed(1)} kg; dt = 1/60 s; budgets ${FULL ? 'lifted (BENCH_FULL=1)' : `x${SCALE}`}`);

// JIT warm-up of each engine on a small pile (two ragdolls touching) before its first measured
// run, so that the first measured run does not time the compiler
const WARM_STEPS = QUICK ? 40 : 90;
{
  const w = sinewPile(2, {}, model);
  for (let i = 0; i < WARM_STEPS; i++) w.step(DT);
}

const runs: Run[] = [];
const worlds = new Map<string, World>();
const rapiers: RapierPile[] = [];
const physxs: PhysXPile[] = [];
/** The variants run on a pile of n: [name, Sinew's options, Rapier's and PhysX's canSleep]. */
function variantsOf(n: number): [string, WorldOptions, boolean][] {
  const variants: [string, WorldOptions, boolean][] = [['default options', {}, true]];
  // a single resting ragdoll falls asleep under the default options: time it awake as well
  if (n === 1) variants.push(['sleep off', { sleep: false }, false]);
  return variants;
}
const wall = (run: Run) => `${run.wallS.toFixed(1)} s wall for ${run.simTime.toFixed(2)} s simulated${run.complete ? '' : ` (${run.note})`}`;
// Every Sinew run comes before Rapier and PhysX are loaded. A WebAssembly memory that grows (as
// theirs do when their worlds are built) detaches its old ArrayBuffer. From the first
// detached ArrayBuffer on, V8's compiled code checks on every typed-array access whether its
// buffer was detached, for the rest of the process. Sinew's step is typed-array code throughout
// and reads about 25 % slower from then on (86 against 109 µs for one resting ragdoll, measured
// both ways). Rapier's and PhysX's steps run inside WebAssembly and do not pay this. Measuring
// Sinew after them would therefore time their side effect. The same resting ragdoll is timed
// once more after the other engines ran (sinewAfterDetach below), for pages that detach buffers
// (a transfer to a worker, any growing WebAssembly memory).
for (const n of NS) {
  for (const [variant, options] of variantsOf(n)) {
    const s = runSinew(n, variant, options);
    runs.push(s.run);
    recordRun(s.run);
    worlds.set(`${n} ${variant}`, s.world);
    console.log(`  ${n} ragdoll(s), ${variant}: Sinew ${wall(s.run)}`);
  }
}
/**
 * One ragdoll resting awake, timed as a game steps it: without the timings setting, the split above,
 * whose dozen clock readings a step (and the numbers they box) cost about 2 µs. The targets table
 * judges this run; the others are printed with their split.
 */
const sinewUntimed: Run | null = (() => {
  if (!NS.includes(1)) return null;
  const s = runSinew(1, 'sleep off, timings off', { sleep: false, timings: false });
  recordRun(s.run);
  console.log(`  1 ragdoll, sleep off, timings off: Sinew ${wall(s.run)}`);
  return s.run;
})();
// (the other engines are loaded only now: see above)
const R = await loadRapier();
const physx = await loadPhysX();
/** The solver PhysX's default scene description gives (read from a scene). */
const PHYSX_SOLVER = (() => {
  const p = physxPile(physx, model, []);
  p.free();
  return p.solver;
})();
console.log(`Rapier ${R.version()}; PhysX ${physx.version} (${PHYSX_SOLVER} solver)`);
{
  const p = rapierPile(R, model, pileLayout(2).map((q) => ragdollState(model, q)), { dt: DT });
  for (let i = 0; i < WARM_STEPS; i++) p.step();
  p.free();
  const x = physxPile(physx, model, pileLayout(2).map((q) => ragdollState(model, q)), { dt: DT });
  for (let i = 0; i < WARM_STEPS; i++) x.step();
  x.free();
}
for (const n of NS) {
  for (const [variant, , canSleep] of variantsOf(n)) {
    const r = runRapier(n, variant, canSleep);
    runs.push(r.run);
    recordRun(r.run);
    rapiers.push(r.pile);
    const x = runPhysX(n, variant, canSleep);
    runs.push(x.run);
    recordRun(x.run);
    physxs.push(x.pile);
    console.log(`  ${n} ragdoll(s), ${variant}: Rapier ${wall(r.run)}; PhysX ${wall(x.run)}`);
  }
}
/**
 * One ragdoll resting awake (sleep off), timed again now that the other engines have run: whether
 * or not their memories grew, a buffer is detached here first (structuredClone with a transfer),
 * so this is Sinew's step in a process where that has happened.
 */
const sinewAfterDetach: Run | null = (() => {
  if (!NS.includes(1)) return null;
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
  const s = runSinew(1, 'sleep off, after a detached ArrayBuffer', { sleep: false, timings: false });
  recordRun(s.run);
  console.log(`  1 ragdoll, sleep off, after a detached ArrayBuffer: Sinew ${wall(s.run)}`);
  return s.run;
})();

const sinewTable: Record<string, string | number>[] = [];
const rapierTable: Record<string, string | number>[] = [];
const physxTable: Record<string, string | number>[] = [];
const cmpTable: Record<string, string | number>[] = [];
for (const r of [...runs, ...(sinewUntimed ? [sinewUntimed] : []), ...(sinewAfterDetach ? [sinewAfterDetach] : [])]) {
  for (const ph of PHASES) {
    const p = r.phases[ph];
    const per = (x: number, d = 2) => (p.steps ? (x / p.steps).toFixed(d) : '—');
    const stepsCell = `${p.steps}/${r.planned[ph]}`;
    if (r.engine === 'sinew') {
      const s = p.split;
      sinewTable.push({
        ragdolls: r.n, options: r.variant, phase: ph, steps: stepsCell,
        'step wall median (min..max), mean': stepCell(p),
        'CPU/step (mean)': p.steps ? msCell(p.cpuMs / p.steps) : '—',
        'ms rows/dyn/k/solve/integ/stab': p.steps && r.variant.indexOf('timings off') < 0 && r !== sinewAfterDetach ? [s.rows, s.dynamics, s.k, s.solve, s.integrate, s.stabilize].map((x) => (x / p.steps).toFixed(2)).join(' / ') : '—',
        contacts: per(p.contacts, 0), 'rows (max)': p.steps ? `${per(p.rows, 0)} (${p.rowsMax})` : '—',
        halvings: p.halvings, iterations: per(p.iterations, 1), islands: p.islands, sleeping: p.sleeping, errors: p.errors,
      });
    } else if (r.engine === 'rapier') {
      rapierTable.push({
        ragdolls: r.n, 'can sleep': r.variant, phase: ph, steps: stepsCell,
        'step wall median (min..max), mean': stepCell(p),
        'CPU/step (mean)': p.steps ? msCell(p.cpuMs / p.steps) : '—',
        'ms collision / solver (profiler)': p.steps ? `${per(p.cd)} / ${per(p.solver)}` : '—',
        'awake links': p.steps ? `${p.awake}/${r.n * model.nLinks}` : '—',
      });
    } else {
      physxTable.push({
        ragdolls: r.n, 'can sleep': r.variant, phase: ph, steps: stepsCell,
        'step wall median (min..max), mean': stepCell(p),
        'CPU/step (mean)': p.steps ? msCell(p.cpuMs / p.steps) : '—',
        'awake links': p.steps ? `${p.awake}/${r.n * model.nLinks}` : '—',
        'lowest shape point at the end': ph === 'rest' ? `${((physxLowest.get(r) ?? NaN) * 1000).toFixed(1)} mm` : '',
      });
    }
  }
}
for (const r of runs) {
  if (r.engine !== 'sinew') continue;
  const q = runs.find((x) => x.engine === 'rapier' && x.n === r.n && x.variant === r.variant)!;
  const x = runs.find((y) => y.engine === 'physx' && y.n === r.n && y.variant === r.variant)!;
  for (const ph of PHASES) {
    const a = r.phases[ph];
    /**
     * Sinew beside another engine on the same steps: the first k of the phase in both (a run cut
     * short has fewer), each engine's wall median, wall mean and CPU mean over them, and Sinew's
     * ratios to the other's.
     */
    const versus = (o: PhaseStats, other: string) => {
      const k = Math.min(a.steps, o.steps);
      const times = (p: PhaseStats) => {
        const w = p.wallMs.slice(0, k);
        return { med: median(w), mean: mean(w), cpu: mean(p.cpuSteps.slice(0, k)) };
      };
      const ta = times(a), to = times(o);
      const rMed = ta.med / to.med, rMean = ta.mean / to.mean, rCpu = ta.cpu / to.cpu;
      if (k) record({ name: `sinew / ${other} ${r.n} ragdolls (${r.variant}): ${ph}`, medianUs: rMed, minUs: NaN, maxUs: NaN, calls: k, meanRatio: rMean, cpuRatio: rCpu });
      const cell = (p: PhaseStats, t: typeof ta) => (k ? `${msCell(t.med)} / ${msCell(t.mean)} / ${msCell(t.cpu)}` : p.steps ? `${p.steps} steps, none to compare` : 'not reached');
      return { k, sinew: cell(a, ta), other: cell(o, to), ratios: k ? `${rMed.toFixed(2)}; ${rMean.toFixed(2)}; ${rCpu.toFixed(2)}` : '—' };
    };
    const vr = versus(q.phases[ph], 'rapier'), vx = versus(x.phases[ph], 'physx');
    const pelvis = (run: Run) => `${run.pelvis.mean.toFixed(2)} / ${run.pelvis.max.toFixed(2)} m`;
    const first = (k: number) => (k ? `first ${k}` : '—');
    cmpTable.push({
      ragdolls: r.n, options: r.variant, phase: ph,
      'steps compared (Rapier; PhysX)': vr.k === vx.k ? first(vr.k) : `${first(vr.k)}; ${first(vx.k)}`,
      'Sinew median / mean / CPU (on those steps)': vr.k === vx.k ? vr.sinew : `${vr.sinew}; ${vx.sinew}`,
      'Rapier median / mean / CPU': vr.other,
      'PhysX median / mean / CPU': vx.other,
      'Sinew / Rapier (median; mean; CPU)': vr.ratios,
      'Sinew / PhysX (median; mean; CPU)': vx.ratios,
      'pelvis height mean / max at the end (Sinew; Rapier; PhysX)': ph === 'rest' ? `${pelvis(r)}; ${pelvis(q)}; ${pelvis(x)}` : '',
    });
  }
}
const cutShort = runs.filter((r) => !r.complete).map((r) => `${r.engine} ${r.n} (${r.variant}): ${r.note}`);
printTable(`Sinew World.step, dt = 1/60, ragdoll piles (joint damping 0.25 s; steps: measured/planned; split, contacts, rows, iterations: means per step; halvings: total) — ${COMMAND}`, sinewTable);
printTable(`Rapier ${R.version()} (multibody joints, no joint limits and no joint damping: not in its JS API; default 4 solver iterations), same piles — ${COMMAND}`, rapierTable);
printTable(`PhysX ${physx.version} (reduced-coordinate articulations; default ${PHYSX_SOLVER} solver, 4 position and 1 velocity iterations, with which joint limits are soft and a pile of 10 or more never falls asleep; swing limited per axis, a box around Sinew's elliptical cone; joint damping by drives), same piles — ${COMMAND}`, physxTable);
printTable(`Sinew beside Rapier and beside PhysX per step, each pair on the same (first k) steps of each phase: wall median, wall mean, process CPU mean — ${COMMAND}`, cmpTable);
if (cutShort.length) console.log(`\ncut short by the time budget (BENCH_FULL=1 runs everything):\n  ${cutShort.join('\n  ')}`);
const errs = runs.filter((r) => r.engine === 'sinew').flatMap((r) => PHASES.map((ph) => r.phases[ph].firstError).filter(Boolean));
if (errs.length) console.log(`\nSinew steps rolled back as non-finite: ${errs.join('; ')}`);

// ---------------------------------------------------------------------------------------------
// Heap growth per step after warm-up (the worlds above, where they ended)
const gc = (globalThis as { gc?: () => void }).gc;
interface Heap { retained: number; allocated: number; steps: number; samples: number; batch: number; warm: number }
/** Wall time (ms) of the warm-up at least, whatever its step count. */
const WARM_MS = 500;
function heapPerStep(world: World, warm: number, steps: number, allocSamples: number): Heap {
  // warm first: code the optimiser has not yet compiled boxes its floating-point temporaries, and a
  // function called once a step takes thousands of steps to become hot. The engine tiers code up by
  // the work it has run, so a step that does little (a world asleep: a few microseconds) needs many
  // more steps: `warm` steps and at least WARM_MS of stepping
  const t0 = performance.now();
  let warmed = 0;
  while (warmed < warm || performance.now() - t0 < WARM_MS) { world.step(DT); warmed++; }
  gc?.();
  // retained: heap growth across collections over `steps` steps and at least WARM_MS of stepping
  // (a few bytes the first step after a forced collection makes are spread over enough steps), in
  // two windows one after the other: a leak grows the heap in both, while a scratch buffer that
  // grows once (the first problem larger than any before, found late) shows in one only, and the
  // smaller of the two is reported
  let retained = Infinity, counted = 0;
  for (let window = 0; window < 2; window++) {
    const before = process.memoryUsage().heapUsed;
    const t1 = performance.now();
    let n = 0;
    while (n < steps || performance.now() - t1 < WARM_MS) { world.step(DT); n++; }
    gc?.();
    retained = Math.min(retained, Math.max(0, process.memoryUsage().heapUsed - before) / n);
    counted += n;
  }
  // bytes allocated per step (harness allocatedPerCall: young-generation growth over batches of
  // steps). Not right after a forced collection: the first step after one allocates while the
  // engine rebuilds what the collection flushed, which a running game never sees.
  const batch = Math.max(1, Math.round(steps / 10));
  for (let i = 0; i < batch; i++) world.step(DT);
  const allocated = allocatedPerCall(() => world.step(DT), batch, allocSamples, 0);
  return { retained, allocated, steps: counted, samples: allocSamples, batch, warm: warmed };
}
const heapTable: Record<string, string | number>[] = [];
const heapResults = new Map<string, Heap>();
for (const [key, world] of worlds) {
  const n = Number(key.split(' ')[0]);
  if (n > 10) continue;
  const steps = n <= 1 ? (QUICK ? 200 : 600) : QUICK ? 5 : 15;
  world.configure({ timings: false }); // the clock allocates; the step itself must not
  const warm = n <= 1 ? (QUICK ? 1000 : 4000) : QUICK ? 50 : 400;
  const h = heapPerStep(world, warm, steps, n <= 1 ? 15 : 5);
  heapResults.set(key, h);
  record({ name: `heap per World.step, ${key}`, medianUs: NaN, minUs: NaN, maxUs: NaN, calls: steps, retainedBytes: h.retained, allocatedBytes: h.allocated, sleeping: world.stats.sleeping });
  heapTable.push({
    world: `${n} ragdoll(s), ${key.slice(String(n).length + 1)}`,
    'bodies asleep': `${world.stats.sleeping}/${world.bodies.length}`,
    'warm-up steps': h.warm,
    'retained per step, after GC (bytes; the smaller of two windows)': `${h.retained.toFixed(3)} (${h.steps} steps in the two)`,
    'allocated per step (bytes, young generation, median of batches)': Number.isFinite(h.allocated) ? `${h.allocated.toFixed(0)} (${h.samples} batches of ${h.batch} steps)` : '—',
  });
}
if (!gc) console.log('\n(run with --expose-gc for heap figures after a forced collection)');
printTable(`Heap per World.step after warm-up (target: 0) — ${COMMAND}`, heapTable);

// ---------------------------------------------------------------------------------------------
// Targets
const root = repoRoot();
const written = new Map<string, string>();
function readRows(file: string): Timing[] | null {
  const p = join(root, 'bench-output', `${file}.json`);
  if (!existsSync(p)) return null;
  try {
    const j = JSON.parse(readFileSync(p, 'utf8')) as { rows: Timing[]; date?: string };
    written.set(file, j.date ?? '?');
    return j.rows;
  } catch {
    return null;
  }
}
const fs = readRows('featherstone');
const kb = readRows('kbuild');
const row = (rows: Timing[] | null, name: string) => rows?.find((r) => r.name === name);
let aba = row(fs, 'humanoid: ABA'), del = row(fs, 'humanoid: AccelerationDeltas');
let fsSource = `bench-output/featherstone.json (${written.get('featherstone')})`;
if (!aba || !del) {
  // featherstone's bench did not run: measure the same calls on its humanoid again
  const { humanoid, humanoidState } = await import('../../featherstone/bench/humanoid.js');
  const hm = humanoid(), hs = humanoidState(hm, 1), out = new Float64Array(hm.nv), f6 = Float64Array.of(0.1, 0, 0.05, 0, 1, 0), hand = hm.linkIndex('handR');
  aba = measure('humanoid: ABA (again)', () => forwardDynamics(hm, hs));
  forwardDynamics(hm, hs);
  del = measure('humanoid: AccelerationDeltas (again)', () => accelerationDeltasForce(hm, hs, hand, f6, 0, out));
  fsSource = 'measured here (no bench-output/featherstone.json)';
}
interface Target { target: string; goal: string; value: string; met: boolean | null; source: string; number: number; status: string }
const targets: Target[] = [];
const add = (target: string, goal: string, value: string, met: boolean | null, source: string, number = NaN, qualifier = '') =>
  targets.push({ target, goal, value, met, source, number, status: (met === null ? 'not measured' : met ? 'met' : 'NOT MET') + qualifier });
/** Steps of a phase rolled back as non-finite make its timing meaningless. */
const rolledBack = (p: PhaseStats) => (p.errors ? ` (INVALID: ${p.errors} steps rolled back)` : '');
// timing targets are judged on the estimators a busy machine inflates least: process CPU time
// where the producing bench measured it, else the fastest sample; the median is printed beside
const abaBest = (aba.cpuUs as number | undefined) ?? aba.minUs;
add('ABA (forwardDynamics), 36-dof humanoid', '<= 8 µs', `${fmt(abaBest)} ${aba.cpuUs ? 'CPU' : 'min'} (median ${fmt(aba.medianUs)}, min ${fmt(aba.minUs)})`, abaBest <= 8, fsSource, abaBest);
const delBest = (del.cpuUs as number | undefined) ?? del.minUs;
const dr = delBest / abaBest;
add('AccelerationDeltas call / ABA, 36-dof humanoid', '< 1/3', `${dr.toFixed(3)} (${fmt(delBest)} / ${fmt(abaBest)} ${aba.cpuUs ? 'CPU' : 'min'}; by medians ${(del.medianUs / aba.medianUs).toFixed(3)})`, dr < 1 / 3, fsSource, dr);
const kr = row(kb, 'm=24: buildK deltas per row / ABA');
const krBest = kr ? ((kr.cpuRatio as number | undefined) ?? kr.minUs) : NaN;
add('K build by deltas per row / ABA, 44-dof tree, 24 rows', '< 1/3', kr ? `${krBest.toFixed(3)} by CPU time (${fmt(kr.deltasPerRowMinUs as number)} per row / ${fmt(kr.abaMinUs as number)} on the fastest samples: ${kr.minUs.toFixed(3)}; by medians ${kr.medianUs.toFixed(3)})` : 'not measured (run kbuild.bench.ts)', kr ? krBest < 1 / 3 : null, `bench-output/kbuild.json (${written.get('kbuild')})`, krBest);
const kp = row(kb, 'm=24: K pipeline testForce / deltas');
const kpBest = kp ? ((kp.cpuRatio as number | undefined) ?? kp.minUs) : NaN;
add('K build testForce / deltas at 24 rows (setRows + ABA + buildK)', '>= 4x', kp ? `${kpBest.toFixed(2)}x by CPU time (fastest samples ${kp.minUs.toFixed(2)}x, medians ${kp.medianUs.toFixed(2)}x; buildK alone ${(kp.buildKCpuRatio as number).toFixed(2)}x by CPU)` : 'not measured (run kbuild.bench.ts)', kp ? kpBest >= 4 : null, `bench-output/kbuild.json (${written.get('kbuild')})`, kpBest);
const one = sinewUntimed;
const oneDef = runs.find((r) => r.engine === 'sinew' && r.n === 1 && r.variant === 'default options');
if (one) {
  const p = one.phases.rest;
  const m = median(p.wallMs);
  const mean = p.wallMs.reduce((x, y) => x + y, 0) / Math.max(1, p.steps);
  add('one ragdoll resting (awake), World.step at 60 Hz', '<= 60 µs', p.steps ? `${msCell(m)} median, ${msCell(sorted(p.wallMs)[0])} min, ${msCell(mean)} mean` : 'not reached', p.steps ? m * 1000 <= 60 : null, 'this run (sleep off, timings off)', m * 1000, rolledBack(p));
}
if (sinewAfterDetach) {
  const p = sinewAfterDetach.phases.rest;
  const m = median(p.wallMs);
  // (not a target of its own: the same step in a process where V8 checks typed arrays for detached
  // buffers, shown for pages that transfer buffers or grow WebAssembly memories)
  targets.push({
    target: 'one ragdoll resting (awake), after an ArrayBuffer was detached in the process', goal: '(shown beside)',
    value: p.steps ? `${msCell(m)} median, ${msCell(sorted(p.wallMs)[0])} min` : 'not reached', met: null,
    source: 'this run (sleep off, timings off; see sinewAfterDetach)', number: m * 1000, status: `information${rolledBack(p)}`,
  });
}
if (oneDef && oneDef.phases.rest.steps) {
  const p = oneDef.phases.rest, m = median(p.wallMs);
  add('one ragdoll resting, default options (asleep after 0.5 s)', '<= 60 µs', `${msCell(m)} median, ${p.sleeping}/1 asleep`, m * 1000 <= 60, 'this run', m * 1000, rolledBack(p));
}
const hundred = runs.find((r) => r.engine === 'sinew' && r.n === 100);
const hundredR = runs.find((r) => r.engine === 'rapier' && r.n === 100);
if (hundred && hundredR) {
  const rest = hundred.phases.rest, restR = hundredR.phases.rest;
  const fall = hundred.phases.fall;
  if (rest.steps) add('100 ragdolls piled, World.step at rest', '<= 8 ms', `${msCell(median(rest.wallMs))} median over ${rest.steps} steps`, median(rest.wallMs) <= 8, 'this run', median(rest.wallMs), rolledBack(rest));
  else add('100 ragdolls piled, World.step at rest', '<= 8 ms', `rest phase not reached within the budget (BENCH_FULL=1); falling phase ${fall.steps ? `${msCell(median(fall.wallMs))} median over its first ${fall.steps} steps` : 'not reached'}`, fall.steps && median(fall.wallMs) > 8 ? false : null, 'this run', fall.steps ? median(fall.wallMs) : NaN, fall.steps ? ' (judged on the fall phase)' : '');
  const ph: Phase = rest.steps && restR.steps ? 'rest' : 'fall';
  const a = hundred.phases[ph], b = hundredR.phases[ph];
  // compare the same steps: the first k steps of the phase in both engines, by process CPU time
  // (the two engines run one after the other, so a change of the machine's load between them
  // would bias wall time) and by wall time
  const k = Math.min(a.steps, b.steps);
  const sum = (x: number[]) => x.slice(0, k).reduce((u, v) => u + v, 0);
  const rc = sum(a.cpuSteps) / sum(b.cpuSteps);
  const rw = median(a.wallMs.slice(0, k)) / median(b.wallMs.slice(0, k));
  add('100 ragdolls: Sinew faster than Rapier (multibody)', 'Sinew / Rapier < 1', k ? `${rc.toFixed(2)} by CPU time, ${rw.toFixed(2)} by median wall time (${ph} phase, first ${k} steps of each: Sinew ${msCell(sum(a.cpuSteps) / k)} CPU per step, Rapier ${msCell(sum(b.cpuSteps) / k)})` : 'not measured', k ? rc < 1 : null, 'this run', rc, ph === 'fall' && k ? ' (fall phase only)' : '');
} else add('100 ragdolls piled', '<= 8 ms and faster than Rapier', 'not run (BENCH_WORLD_N / BENCH_QUICK)', null, '', NaN);
// the step's heap target: nothing allocated in the step (young generation), and the heap retained
// across collections under half a byte a step, the bound of the per-call figures below. Whatever
// a step kept would be an object of 8 bytes or more a step; a few dozen bytes over the tens of
// thousands of steps of a window (a sleeping pile steps in microseconds) is the engine's own
// bookkeeping, not growth with the step count
for (const [key, h] of heapResults) {
  add(`heap growth per World.step, ${key.startsWith('1 ') ? '1 ragdoll' : key.split(' ')[0] + ' ragdolls'} (${key.slice(key.indexOf(' ') + 1)})`, '0 bytes', `${h.retained.toFixed(3)} B retained, ${Number.isFinite(h.allocated) ? h.allocated.toFixed(0) : '?'} B allocated per step`, h.retained < 0.5 && h.allocated === 0, 'this run', h.retained);
}
for (const name of ['ABA (humanoid): heap growth per call (bytes)', 'AccelerationDeltas (humanoid): heap growth per call (bytes)']) {
  const r = row(fs, name);
  if (r) add(`heap growth per call, ${name.split(':')[0]}`, '0 bytes', `${(r.retainedBytes as number).toFixed(3)} B retained, ${(r.allocatedBytes as number).toFixed(3)} B allocated`, (r.retainedBytes as number) < 0.5 && (r.allocatedBytes as number) < 0.5, fsSource, r.retainedBytes as number);
}
for (const t of targets) record({ name: `target: ${t.target}`, medianUs: t.number, minUs: NaN, maxUs: NaN, calls: 0, goal: t.goal, value: t.value, status: t.status, source: t.source });
printTable(`Targets (${COMMAND}; featherstone figures from ${fsSource})`, targets.map((t) => ({ target: t.target, goal: t.goal, measured: t.value, status: t.status, source: t.source })));

for (const p of rapiers) p.free();
for (const p of physxs) p.free();
console.log(`\nwrote ${writeResults('world')}`);
