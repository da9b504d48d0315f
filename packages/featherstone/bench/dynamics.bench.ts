/**
 * Timings of ABM.Accelerations (forwardDynamics: kinematics + ABA) and ABM.AccelerationDeltas (one
 * test force on a leaf link, the longest inbound path) on revolute chains of 8 to 256 links and on
 * a 20-link, 36-dof humanoid with a free root; and the heap growth of both per call.
 *
 * Run from the repository root:
 *   pnpm bench packages/featherstone/bench/dynamics.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 * Times are wall time (median, min, max over samples, from bench/harness.ts) and process CPU time
 * (the least over batches), which a busy machine inflates less.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { fmt, heapGrowthPerCall, measure, printTable, record, writeResults, type Timing } from '../../../bench/harness.js';
import { accelerationDeltasForce, forwardDynamics, ModelBuilder, State, type Model } from '../src/index.js';
import { humanoid, humanoidState } from './humanoid.js';

const COMMAND = 'pnpm bench packages/featherstone/bench/dynamics.bench.ts';

/** A chain of `n` revolute links, 0.1 m apart, axes cycling through z, x, y. */
function chain(n: number): Model {
  const b = new ModelBuilder();
  const axes: [number, number, number][] = [[0, 0, 1], [1, 0, 0], [0, 1, 0]];
  for (let i = 0; i < n; i++) {
    b.addLink({
      name: `link${i}`,
      parent: i - 1,
      joint: { type: 'revolute', axis: axes[i % 3], position: i === 0 ? [0, 0, 0] : [0, -0.1, 0] },
      mass: 0.5,
      com: [0, -0.05, 0],
      inertia: [0.0005, 0.0001, 0.0005, 0, 0, 0],
    });
  }
  return b.build();
}

function chainState(model: Model): State {
  const s = new State(model);
  for (let d = 0; d < model.nv; d++) {
    s.q[d] = 0.3 * Math.sin(1.7 * d);
    s.qd[d] = 0.5 * Math.cos(0.9 * d);
  }
  return s;
}

const cell = (t: Timing) => `${fmt(t.medianUs)} (${fmt(t.minUs)}, ${fmt(t.maxUs)})`;

/**
 * Process CPU time per call, the least over `rounds` batches. On a shared machine wall time also
 * counts the time the process waits for a core; CPU time does not.
 */
function cpuPerCall(fn: () => void, rounds = 15): number {
  let calls = 1;
  for (let t0 = performance.now(); performance.now() - t0 < 5; calls *= 2) for (let i = 0; i < calls; i++) fn();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < calls; i++) fn();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / calls);
  }
  return best;
}
const UNIT_FORCE = Float64Array.of(0.1, 0, 0.05, 0, 1, 0); // [moment; force] in link coordinates

interface Bench { aba: Timing; deltas: Timing; abaCpu: number; deltasCpu: number; out: Float64Array }

function bench(label: string, model: Model, state: State, leaf: number): Bench {
  const out = new Float64Array(model.nv);
  const abaCall = () => forwardDynamics(model, state);
  const deltasCall = () => accelerationDeltasForce(model, state, leaf, UNIT_FORCE, 0, out);
  const aba = measure(`${label}: ABA`, abaCall);
  forwardDynamics(model, state);
  const deltas = measure(`${label}: AccelerationDeltas`, deltasCall);
  const abaCpu = cpuPerCall(abaCall);
  forwardDynamics(model, state);
  const deltasCpu = cpuPerCall(deltasCall);
  aba.cpuUs = abaCpu;
  deltas.cpuUs = deltasCpu;
  record({ name: `${label}: AccelerationDeltas / ABA`, medianUs: deltas.medianUs / aba.medianUs, minUs: NaN, maxUs: NaN, calls: 0, cpuRatio: deltasCpu / abaCpu });
  return { aba, deltas, abaCpu, deltasCpu, out };
}

console.log(`# featherstone dynamics benchmark (command: ${COMMAND}; node ${process.version})`);

const chainRows: Record<string, string | number>[] = [];
for (const n of [8, 16, 32, 64, 128, 256]) {
  const model = chain(n);
  const r = bench(`chain ${n}`, model, chainState(model), n - 1);
  chainRows.push({
    links: n,
    'ABA median (min, max)': cell(r.aba),
    'ABA per link': fmt(r.aba.medianUs / n),
    'ABA CPU per link': fmt(r.abaCpu / n),
    'deltas median (min, max)': cell(r.deltas),
    'deltas per link': fmt(r.deltas.medianUs / n),
    'deltas CPU per link': fmt(r.deltasCpu / n),
    'deltas / ABA': (r.deltas.medianUs / r.aba.medianUs).toFixed(3),
  });
}
printTable(`Revolute chains: one ABA call, one AccelerationDeltas call (unit force on the last link) — ${COMMAND}`, chainRows);

const hm = humanoid();
const hs = humanoidState(hm, 1);
const hand = hm.linkIndex('handR');
const h = bench('humanoid', hm, hs, hand);
printTable(`Humanoid (${hm.nLinks} links, ${hm.nv} dofs, free root): AccelerationDeltas with a unit force on the right hand (8 links from the root) — ${COMMAND}`, [
  {
    call: 'ABA (forwardDynamics)',
    'median (min, max)': cell(h.aba),
    'CPU time': fmt(h.abaCpu),
    'per link': fmt(h.aba.medianUs / hm.nLinks),
    'per dof': fmt(h.aba.medianUs / hm.nv),
    'deltas / ABA (median; CPU)': '',
  },
  {
    call: 'AccelerationDeltas',
    'median (min, max)': cell(h.deltas),
    'CPU time': fmt(h.deltasCpu),
    'per link': fmt(h.deltas.medianUs / hm.nLinks),
    'per dof': fmt(h.deltas.medianUs / hm.nv),
    'deltas / ABA (median; CPU)': `${(h.deltas.medianUs / h.aba.medianUs).toFixed(3)}; ${(h.deltasCpu / h.abaCpu).toFixed(3)}`,
  },
]);

/** Young-generation bytes per call over a batch that no collection interrupts (allocation, not retention). */
function allocatedPerCall(fn: () => void, calls = 5000): number {
  const used = () => {
    for (const s of getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size;
    return NaN;
  };
  const gc = (globalThis as { gc?: () => void }).gc;
  let best = Infinity;
  for (let k = 0; k < 5; k++) {
    gc?.();
    const b0 = used(), b1 = used();
    for (let i = 0; i < calls; i++) fn();
    const b2 = used();
    const perCall = (b2 - b1 - (b1 - b0)) / calls;
    if (perCall > -4) best = Math.min(best, Math.max(0, perCall));
  }
  return best;
}

const abaCall = () => forwardDynamics(hm, hs);
const deltasCall = () => accelerationDeltasForce(hm, hs, hand, UNIT_FORCE, 0, h.out);
forwardDynamics(hm, hs);
const heapRows = [
  { call: 'ABA (humanoid)', fn: abaCall },
  { call: 'AccelerationDeltas (humanoid)', fn: deltasCall },
].map(({ call, fn }) => {
  const retained = heapGrowthPerCall(fn, 100_000);
  const allocated = allocatedPerCall(fn);
  record({ name: `${call}: heap growth per call (bytes)`, medianUs: NaN, minUs: NaN, maxUs: NaN, calls: 100_000, retainedBytes: retained, allocatedBytes: allocated });
  return { call, 'heap growth per call over 100k calls (bytes, after GC)': retained.toFixed(3), 'allocated per call (bytes, young generation)': allocated.toFixed(3) };
});
if (!(globalThis as { gc?: unknown }).gc) console.log('\n(run with --expose-gc for heap growth after a forced collection)');
printTable(`Heap growth per call — ${COMMAND}`, heapRows);

console.log(`\nresults: ${writeResults('featherstone')}`);
