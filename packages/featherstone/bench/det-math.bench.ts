/**
 * Time per call of the reproducible elementary functions (src/det-math.ts) against the engine's
 * Math.*, over 4096 arguments from each function's typical simulation range (angles within a few
 * turns, exp of damping factors, log of masses, unit-vector components for acos/asin/atan2,
 * 3-vectors for hypot) and one range of huge angles for sin (the BigInt reduction).
 *
 * Run from the repository root:
 *   pnpm bench packages/featherstone/bench/det-math.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 * Times are the median over samples of wall time per call (bench/harness.ts), in nanoseconds.
 */
import { measure, printTable, record, writeResults } from '../../../bench/harness.js';
import * as dm from '../src/det-math.js';

const N = 4096;
let seed = 12345;
const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296);
const fill = (f: () => number) => Float64Array.from({ length: N }, f);

const angles = fill(() => (rand() - 0.5) * 20);
const huge = fill(() => (rand() + 0.5) * 1e12);
const expArgs = fill(() => (rand() - 0.5) * 40);
const positives = fill(() => rand() * 100 + 1e-3);
const unit = fill(() => rand() * 2 - 1);
const vx = fill(() => rand() - 0.5), vy = fill(() => rand() - 0.5), vz = fill(() => rand() - 0.5);
let sink = 0;

type One = (x: number) => number;
function time1(name: string, f: One, args: Float64Array): number {
  const t = measure(name, () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += f(args[i]);
    sink += s;
  }, { samples: 21 });
  return (t.medianUs * 1000) / N;
}
function timeLoop(name: string, loop: () => number): number {
  const t = measure(name, () => { sink += loop(); }, { samples: 21 });
  return (t.medianUs * 1000) / N;
}

const rows: Record<string, string>[] = [];
function row(name: string, det: number, math: number): void {
  rows.push({ function: name, 'det-math (ns)': det.toFixed(1), 'Math (ns)': math.toFixed(1), ratio: (det / math).toFixed(2) });
  record({ name: `det-math ${name}`, medianUs: det / 1000, minUs: det / 1000, maxUs: det / 1000, calls: N, mathNs: math, detNs: det });
}

const ones: [string, One, One, Float64Array][] = [
  ['sin [-10, 10]', dm.sin, Math.sin, angles],
  ['sin [5e11, 1.5e12]', dm.sin, Math.sin, huge],
  ['cos [-10, 10]', dm.cos, Math.cos, angles],
  ['tan [-10, 10]', dm.tan, Math.tan, angles],
  ['exp [-20, 20]', dm.exp, Math.exp, expArgs],
  ['log (0, 100]', dm.log, Math.log, positives],
  ['atan [-1, 1]', dm.atan, Math.atan, unit],
  ['asin [-1, 1]', dm.asin, Math.asin, unit],
  ['acos [-1, 1]', dm.acos, Math.acos, unit],
  ['cbrt (0, 100]', dm.cbrt, Math.cbrt, positives],
];
for (const [name, f, g, args] of ones) {
  // alternate so that a busy machine slows both alike
  const det = time1(`det ${name}`, f, args), math = time1(`Math ${name}`, g, args);
  row(name, det, math);
}
row('atan2', timeLoop('det atan2', () => { let s = 0; for (let i = 0; i < N; i++) s += dm.atan2(vy[i], vx[i]); return s; }),
  timeLoop('Math atan2', () => { let s = 0; for (let i = 0; i < N; i++) s += Math.atan2(vy[i], vx[i]); return s; }));
row('hypot (3 args)', timeLoop('det hypot3', () => { let s = 0; for (let i = 0; i < N; i++) s += dm.hypot(vx[i], vy[i], vz[i]); return s; }),
  timeLoop('Math hypot3', () => { let s = 0; for (let i = 0; i < N; i++) s += Math.hypot(vx[i], vy[i], vz[i]); return s; }));
row('sqrt(x²+y²+z²) (for scale)', timeLoop('sqrt3', () => { let s = 0; for (let i = 0; i < N; i++) s += Math.sqrt(vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]); return s; }),
  timeLoop('Math hypot3 again', () => { let s = 0; for (let i = 0; i < N; i++) s += Math.hypot(vx[i], vy[i], vz[i]); return s; }));

printTable(`det-math against Math.* (ns per call, median; ${process.version}; command: pnpm bench packages/featherstone/bench/det-math.bench.ts)`, rows);
if (!Number.isFinite(sink)) console.log('(sink)', sink);
console.log(`\nresults: ${writeResults('det-math')}`);
