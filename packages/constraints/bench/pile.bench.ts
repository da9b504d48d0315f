/**
 * World.step on the peer scenes' 15-part ragdoll pile (peer-ragdoll.ts, from
 * ../shared/bench/peer-scenes/common.mjs): N ragdolls dropped face down in 5 criss-cross layers
 * (pelvis 1.0 to 3.0 m), 300 steps of 1/60 s (5 s) from the release, `new World()` defaults (sleep
 * on), every step timed; and the same pile in Rapier with impulse joints in the same run. Each
 * engine and N runs in a fresh Node process (this script started again with `--child`), warmed up
 * for 1.5 s of wall time on a throw-away copy of the scene first (common.mjs `warmup`).
 *
 * Per run: mean, median, p99 and worst step (wall ms), worst / median, process CPU ms per step;
 * Sinew's passes per step (mean, max), largest sub-steps and halvings of a step, rows (mean, max);
 * at 5 s: kinetic energy, v_rms = sqrt(2 KE / M) ("at rest": below 1 cm/s, as common.mjs) and the
 * fraction of ragdolls (Rapier: rigid bodies) asleep, measured at 5 s from the release.
 *
 * Targets, printed PASS / FAIL: worst step <= 3 x the median of the same run, at every N; no
 * halving cascade (in every step halvings <= maxHalvings x passes); N <= 50 at rest at 5 s; the
 * mean step as a ratio to Rapier's impulse joints no worse than before this table existed
 * (N = 10: 2.3, N = 50: 7.0, N = 100: 5.9).
 *
 * N = 1, 10, 50 and 100 by default (about 2 minutes in all on 2 shared cores, N = 100 a minute of
 * it). BENCH_PILE_N=1,10 picks the sizes; BENCH_PILE_RUNS=3 runs each engine 3 times,
 * alternating (Sinew, Rapier, Sinew, ...), and reports the run with the median mean;
 * BENCH_PILE_LIMIT_FRICTION=0.1 gives Sinew's ball joints that friction on their cones
 * (World option limits.friction; the scene's joints are otherwise undamped).
 *
 * Run from the repository root:
 *   pnpm bench packages/constraints/bench/pile.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 */
import { spawnSync } from 'node:child_process';
import { printTable, record, writeResults } from '../../../bench/harness.js';
import { DT, REST_VRMS, STEPS, RAGDOLL_MASS, peerRagdollModel, rapierImpulsePile, sinewKineticEnergy, sinewPeerPile, warmup } from './peer-ragdoll.js';
import { loadRapier } from './rapier-pile.js';

const NS = process.env.BENCH_PILE_N ? process.env.BENCH_PILE_N.split(',').map(Number) : [1, 10, 50, 100];
const RUNS = Math.max(1, Number(process.env.BENCH_PILE_RUNS ?? 1));
/** Friction on the ball joints' cones (World option limits.friction; default 0, as `new World()`). */
const LIMIT_FRICTION = Number(process.env.BENCH_PILE_LIMIT_FRICTION ?? 0);
const SINEW_OPTIONS = { limits: { friction: LIMIT_FRICTION } };
const env = [process.env.BENCH_PILE_N ? `BENCH_PILE_N=${process.env.BENCH_PILE_N}` : '', process.env.BENCH_PILE_RUNS ? `BENCH_PILE_RUNS=${RUNS}` : '', LIMIT_FRICTION ? `BENCH_PILE_LIMIT_FRICTION=${LIMIT_FRICTION}` : ''].filter(Boolean).join(' ');
const COMMAND = `${env ? env + ' ' : ''}pnpm bench packages/constraints/bench/pile.bench.ts`;
/** Sinew / Rapier-impulse mean step before this benchmark (the step issue). */
const PREVIOUS_RATIO: Record<number, number> = { 10: 2.3, 50: 7.0, 100: 5.9 };
const WARMUP_MS = 1500;

interface Run {
  engine: 'sinew' | 'rapier';
  n: number;
  mean: number; median: number; p99: number; worst: number; worstStep: number; cpuMean: number;
  /** Process CPU ms per step (user + system, every thread): median, p99, worst. */
  cpuMedian: number; cpuP99: number; cpuWorst: number;
  /** Median wall ms of the steps begun with something awake, and how many there were. */
  awakeMedian: number; awakeSteps: number;
  warmupSteps: number;
  passesMean?: number; passesMax?: number; substepsMax?: number; halvingsMax?: number; cascades?: number; rowsMean?: number; rowsMax?: number; recoveries?: number;
  ke: number; vRms: number; asleep: number;
}

function distribution(t: Float64Array): { mean: number; median: number; p99: number; worst: number; worstStep: number } {
  let sum = 0, worst = -Infinity, worstStep = 0;
  for (let i = 0; i < t.length; i++) {
    sum += t[i];
    if (t[i] > worst) { worst = t[i]; worstStep = i; }
  }
  const s = Float64Array.from(t).sort();
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { mean: sum / t.length, median: q(0.5), p99: q(0.99), worst, worstStep };
}

/** CPU figures and the awake steps' median from per-step CPU times and the awake flags. */
function extra(times: Float64Array, cpus: Float64Array, awake: Uint8Array): { cpuMean: number; cpuMedian: number; cpuP99: number; cpuWorst: number; awakeMedian: number; awakeSteps: number } {
  const c = distribution(cpus);
  const aw = times.filter((_, i) => awake[i] === 1);
  return { cpuMean: c.mean, cpuMedian: c.median, cpuP99: c.p99, cpuWorst: c.worst, awakeMedian: aw.length ? distribution(aw).median : NaN, awakeSteps: aw.length };
}

async function child(engine: 'sinew' | 'rapier', n: number): Promise<Run> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const times = new Float64Array(STEPS), cpus = new Float64Array(STEPS);
  const awake = new Uint8Array(STEPS);
  let c0: NodeJS.CpuUsage;
  if (engine === 'sinew') {
    const model = peerRagdollModel();
    const scratch = sinewPeerPile(n, model, SINEW_OPTIONS);
    const warmupSteps = warmup(() => scratch.step(DT), WARMUP_MS);
    const world = sinewPeerPile(n, model, SINEW_OPTIONS);
    const maxHalvings = (world as unknown as { maxHalvings: number }).maxHalvings;
    gc?.();
    let passesSum = 0, passesMax = 0, substepsMax = 0, halvingsMax = 0, cascades = 0, rowsSum = 0, rowsMax = 0, recoveries = 0;
    for (let s = 0; s < STEPS; s++) {
      awake[s] = s === 0 || world.stats.sleeping < n ? 1 : 0;
      c0 = process.cpuUsage();
      const a = performance.now();
      world.step(DT);
      times[s] = performance.now() - a;
      const c = process.cpuUsage(c0);
      cpus[s] = (c.user + c.system) / 1000;
      const st = world.stats;
      passesSum += st.passes; passesMax = Math.max(passesMax, st.passes);
      substepsMax = Math.max(substepsMax, st.substeps);
      halvingsMax = Math.max(halvingsMax, st.halvings);
      if (st.halvings > maxHalvings * st.passes) cascades++;
      rowsSum += st.rows; rowsMax = Math.max(rowsMax, st.rows);
      if (st.recovery) recoveries++;
    }
    const ke = sinewKineticEnergy(world);
    return {
      engine, n, ...distribution(times), ...extra(times, cpus, awake), warmupSteps,
      passesMean: passesSum / STEPS, passesMax, substepsMax, halvingsMax, cascades, rowsMean: rowsSum / STEPS, rowsMax, recoveries,
      ke, vRms: Math.sqrt((2 * ke) / (n * RAGDOLL_MASS)), asleep: world.stats.sleeping / n,
    };
  }
  const R = await loadRapier();
  const scratch = rapierImpulsePile(R, n);
  const warmupSteps = warmup(() => scratch.step(), WARMUP_MS);
  scratch.free();
  const pile = rapierImpulsePile(R, n);
  gc?.();
  const total = pile.bodies.length;
  for (let s = 0; s < STEPS; s++) {
    awake[s] = s === 0 || pile.sleeping() < total ? 1 : 0;
    c0 = process.cpuUsage();
    const a = performance.now();
    pile.step();
    times[s] = performance.now() - a;
    const c = process.cpuUsage(c0);
    cpus[s] = (c.user + c.system) / 1000;
  }
  const ke = pile.kineticEnergy();
  const run: Run = {
    engine, n, ...distribution(times), ...extra(times, cpus, awake), warmupSteps,
    ke, vRms: Math.sqrt((2 * ke) / (n * RAGDOLL_MASS)), asleep: pile.sleeping() / pile.bodies.length,
  };
  pile.free();
  return run;
}

function spawnChild(engine: 'sinew' | 'rapier', n: number): Run {
  const r = spawnSync(process.execPath, ['--expose-gc', process.argv[1], '--child', engine, String(n)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('PILE '));
  if (r.status !== 0 || !line) throw new Error(`pile.bench: ${engine} N=${n} failed (status ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(line.slice(5)) as Run;
}

const f = (x: number | undefined, d = 2) => (x === undefined ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(d));

async function main(): Promise<void> {
  console.log(`# World.step on the 15-part ragdoll pile (command: ${COMMAND}; node ${process.version})`);
  console.log(`# N = ${NS.join(', ')}; ${STEPS} steps of 1/60 s from the release; Sinew new World() defaults (sleep on), Rapier impulse joints (its defaults; ball joints without the swing and twist limits, which its JS API lacks); one engine per Node process, ${WARMUP_MS / 1000} s warm-up; ${RUNS} run(s) per engine${RUNS > 1 ? ' (the run with the median mean shown)' : ''}`);
  const pick = (runs: Run[]) => runs.slice().sort((a, b) => a.mean - b.mean)[runs.length >> 1];
  const results: { n: number; sinew: Run; rapier: Run }[] = [];
  for (const n of NS) {
    const s: Run[] = [], r: Run[] = [];
    for (let k = 0; k < RUNS; k++) {
      s.push(spawnChild('sinew', n));
      r.push(spawnChild('rapier', n));
    }
    results.push({ n, sinew: pick(s), rapier: pick(r) });
    console.log(`  N = ${n}: Sinew ${f(pick(s).mean)} ms, Rapier ${f(pick(r).mean)} ms per step`);
  }

  const table = results.flatMap(({ sinew, rapier }) => [sinew, rapier]).map((r) => ({
    N: r.n,
    engine: r.engine === 'sinew' ? 'Sinew' : 'Rapier impulse',
    'mean ms': f(r.mean), 'median ms': f(r.median), 'p99 ms': f(r.p99), 'worst ms': f(r.worst), 'worst/median': f(r.worst / r.median, 2), 'worst at step': r.worstStep, 'awake steps': r.awakeSteps, 'awake median': f(r.awakeMedian), 'CPU mean/median/p99/worst ms': `${f(r.cpuMean)} / ${f(r.cpuMedian)} / ${f(r.cpuP99)} / ${f(r.cpuWorst)}`,
    'passes mean/max': r.passesMean === undefined ? '–' : `${r.passesMean.toFixed(2)} / ${r.passesMax}`,
    'substeps max': r.substepsMax ?? '–', 'halvings max': r.halvingsMax ?? '–',
    'rows mean/max': r.rowsMean === undefined ? '–' : `${r.rowsMean.toFixed(0)} / ${r.rowsMax}`,
    'KE 5 s (J)': r.ke.toPrecision(3), 'v_rms 5 s (m/s)': r.vRms.toPrecision(3), 'at rest': r.vRms < REST_VRMS ? 'yes' : 'no', 'asleep 5 s': `${(100 * r.asleep).toFixed(0)} %`,
  }));
  printTable(`Ragdoll pile, ${STEPS} steps of 1/60 s from the release (${COMMAND})`, table);

  const ratios = results.map(({ n, sinew, rapier }) => ({
    N: n, 'Sinew mean ms': f(sinew.mean), 'Rapier mean ms': f(rapier.mean), 'ratio': (sinew.mean / rapier.mean).toFixed(2), 'CPU ratio': (sinew.cpuMean / rapier.cpuMean).toFixed(2),
    'before': PREVIOUS_RATIO[n] === undefined ? '–' : PREVIOUS_RATIO[n].toFixed(1),
  }));
  printTable(`Sinew / Rapier impulse mean step (${COMMAND})`, ratios);

  const checks: { target: string; measured: string; ok: boolean }[] = [];
  for (const { n, sinew, rapier } of results) {
    checks.push({ target: `N = ${n}: worst step <= 3 x median`, measured: `${f(sinew.worst)} / ${f(sinew.median)} = ${(sinew.worst / sinew.median).toFixed(2)}`, ok: sinew.worst <= 3 * sinew.median });
    checks.push({ target: `N = ${n}: no halving cascade (halvings <= maxHalvings x passes every step)`, measured: `${sinew.cascades} step(s) over; largest ${sinew.halvingsMax} halvings, ${sinew.passesMax} passes`, ok: sinew.cascades === 0 });
    if (n <= 50) checks.push({ target: `N = ${n}: at rest at 5 s (v_rms < 1 cm/s)`, measured: `v_rms ${sinew.vRms.toPrecision(3)} m/s, ${(100 * sinew.asleep).toFixed(0)} % asleep`, ok: sinew.vRms < REST_VRMS });
    const prev = PREVIOUS_RATIO[n];
    if (prev !== undefined) checks.push({ target: `N = ${n}: mean / Rapier impulse <= ${prev.toFixed(1)}`, measured: (sinew.mean / rapier.mean).toFixed(2), ok: sinew.mean / rapier.mean <= prev });
  }
  console.log(`\n## Targets (${COMMAND})`);
  for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.target}: ${c.measured}`);
  console.log('(wall time on a shared machine; for reference, not judged: worst step / median of the steps begun with something awake, and the CPU-time ratio)');
  for (const { n, sinew, rapier } of results) {
    console.log(`  N = ${n}: worst / awake median ${(sinew.worst / sinew.awakeMedian).toFixed(2)} (${sinew.awakeSteps} awake steps), CPU worst / CPU median ${(sinew.cpuWorst / sinew.cpuMedian).toFixed(2)}, CPU mean / Rapier CPU mean ${(sinew.cpuMean / rapier.cpuMean).toFixed(2)}`);
  }

  for (const { n, sinew, rapier } of results) {
    for (const r of [sinew, rapier]) {
      record({ name: `pile N=${n} ${r.engine}`, medianUs: r.median * 1000, minUs: NaN, maxUs: r.worst * 1000, calls: STEPS, meanMs: r.mean, medianMs: r.median, p99Ms: r.p99, worstMs: r.worst, cpuMs: r.cpuMean, ke: r.ke, vRms: r.vRms, asleep: r.asleep, ...(r.engine === 'sinew' ? { passesMean: r.passesMean!, passesMax: r.passesMax!, substepsMax: r.substepsMax!, halvingsMax: r.halvingsMax!, cascades: r.cascades!, rowsMean: r.rowsMean!, rowsMax: r.rowsMax! } : {}) });
    }
    record({ name: `pile N=${n} ratio sinew/rapier`, medianUs: NaN, minUs: NaN, maxUs: NaN, calls: 0, ratio: sinew.mean / rapier.mean, before: PREVIOUS_RATIO[n] ?? NaN });
  }
  for (const c of checks) record({ name: `target: ${c.target}`, medianUs: NaN, minUs: NaN, maxUs: NaN, calls: 0, value: c.measured, status: c.ok ? 'PASS' : 'FAIL' });
  record({ name: 'command', medianUs: NaN, minUs: NaN, maxUs: NaN, calls: 0, command: COMMAND });
  console.log(`\nwrote ${writeResults('pile')}`);
}

if (process.argv[2] === '--child') {
  const run = await child(process.argv[3] as 'sinew' | 'rapier', Number(process.argv[4]));
  console.log('PILE ' + JSON.stringify(run));
} else {
  await main();
}
