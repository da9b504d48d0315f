/**
 * Small benchmark harness shared by the packages' bench scripts: runs a function in batches until
 * the batches are stable, reports median, min and max per call, and collects rows for a JSON file.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Timing {
  name: string;
  medianUs: number;
  minUs: number;
  maxUs: number;
  calls: number;
  [extra: string]: number | string;
}

const rows: Timing[] = [];

/** Times `fn` (called `inner` times per sample) over `samples` samples after a warm-up; microseconds per call. */
export function measure(name: string, fn: () => void, opts: { samples?: number; inner?: number; warmupMs?: number } = {}): Timing {
  const samples = opts.samples ?? 31;
  let inner = opts.inner ?? 0;
  const warmEnd = performance.now() + (opts.warmupMs ?? 150);
  let warmCalls = 0;
  while (performance.now() < warmEnd) {
    fn();
    warmCalls++;
  }
  if (inner <= 0) {
    // Size a sample to about 5 ms.
    const perCall = (opts.warmupMs ?? 150) / Math.max(1, warmCalls);
    inner = Math.max(1, Math.round(5 / Math.max(perCall, 1e-6)));
  }
  const t = new Float64Array(samples);
  for (let s = 0; s < samples; s++) {
    const t0 = performance.now();
    for (let k = 0; k < inner; k++) fn();
    t[s] = ((performance.now() - t0) * 1000) / inner;
  }
  const sorted = Array.from(t).sort((a, b) => a - b);
  const timing: Timing = {
    name,
    medianUs: sorted[samples >> 1],
    minUs: sorted[0],
    maxUs: sorted[samples - 1],
    calls: samples * inner,
  };
  rows.push(timing);
  return timing;
}

/** Records a row computed by the caller (e.g. a ratio or a count). */
export function record(row: Timing): void {
  rows.push(row);
}

export function fmt(us: number): string {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(2)} µs`;
}

/** Prints a table of rows: each row an object of printable cells. */
export function printTable(title: string, table: Record<string, string | number>[]): void {
  console.log(`\n## ${title}`);
  if (table.length === 0) return;
  const cols = Object.keys(table[0]);
  const cells = table.map((r) => cols.map((c) => String(r[c])));
  const width = cols.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (vals: string[]) => '| ' + vals.map((v, i) => v.padEnd(width[i])).join(' | ') + ' |';
  console.log(line(cols));
  console.log('| ' + width.map((w) => '-'.repeat(w)).join(' | ') + ' |');
  for (const r of cells) console.log(line(r));
}

/**
 * Heap growth in bytes per call of `fn` over `calls` calls after warm-up (after forced GC when
 * exposed), in two windows of `calls` calls one after the other: the smaller is returned. A leak
 * grows the heap in both; something that grows once (a buffer meeting its largest problem, code
 * compiled late) shows in one only.
 */
export function heapGrowthPerCall(fn: () => void, calls = 100_000): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 1000; i++) fn();
  let least = Infinity;
  for (let window = 0; window < 2; window++) {
    gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < calls; i++) fn();
    const after = process.memoryUsage().heapUsed;
    gc?.();
    const afterGc = process.memoryUsage().heapUsed;
    // Without a forced GC the difference counts garbage too; with it, only what was retained.
    least = Math.min(least, Math.max(0, (gc ? afterGc : after) - before) / calls);
  }
  return least;
}

/** Bytes used in V8's young generation (new space). */
function youngGeneration(): number {
  for (const s of getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size;
  return NaN;
}

/**
 * Bytes allocated per call of `fn` after warm-up: the young generation's growth over a batch of
 * `calls` calls less its growth over an empty batch (the measurement's own), the median of
 * `batches` batches; a batch with a scavenge inside shows as a drop and is left out (NaN when all
 * are). Garbage counts: this is what a call allocates, kept or not.
 */
export function allocatedPerCall(fn: () => void, calls = 1000, batches = 15, warm = 2000): number {
  for (let i = 0; i < warm; i++) fn();
  const per: number[] = [];
  for (let k = 0; k < batches; k++) {
    const b0 = youngGeneration();
    const b1 = youngGeneration();
    for (let i = 0; i < calls; i++) fn();
    const b2 = youngGeneration();
    if (b2 >= b1) per.push((b2 - b1 - (b1 - b0)) / calls);
  }
  per.sort((a, b) => a - b);
  return per.length ? per[per.length >> 1] : NaN;
}

/** Writes every row measured in this process to bench-output/<file>.json. */
export function writeResults(file: string): string {
  const root = repoRoot();
  const out = join(root, 'bench-output', `${file}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ node: process.version, date: new Date().toISOString(), rows }, null, 2));
  return out;
}

/**
 * The repository root: the nearest folder above this module holding pnpm-workspace.yaml (a bench
 * script runs from its source or from the bundle `pnpm bench` builds beside it).
 */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('bench: no pnpm-workspace.yaml above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  return dir;
}
