/**
 * ABA (ABM.Accelerations: forwardDynamics, kinematics included) and AccelerationDeltas on MuJoCo's
 * humanoid (shared/data/mjcf/humanoid.xml: 16 links, free root and 21 hinges, 27 dofs) imported
 * with importMJCF, and on dm_control's CMU humanoid when it imports; with the import time and the
 * heap growth per call.
 *
 * AccelerationDeltas is timed three ways: a spatial unit force on the deepest leaf link (the
 * longest inbound path), a unit force at a point of that link along a world direction (what a
 * contact row costs), and a unit torque on the last dof. The state is a random pose within the
 * joint ranges with random velocities, the same on every run.
 *
 * Run from the repository root:
 *   pnpm bench packages/characters/bench/mjcf-dynamics.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 * BENCH_QUICK=1 takes fewer samples.
 */
import { existsSync, readFileSync } from 'node:fs';
import { accelerationDeltasForce, accelerationDeltasPointForce, accelerationDeltasTorque, forwardDynamics, forwardKinematics, JointType, State, type Model } from '@sinew/featherstone';
import { fmt, heapGrowthPerCall, measure, printTable, record, writeResults, type Timing } from '../../../bench/harness.js';
import { importMJCF } from '../src/index.js';

const COMMAND = 'pnpm bench packages/characters/bench/mjcf-dynamics.bench.ts';
const QUICK = process.env.BENCH_QUICK === '1';
const SAMPLES = QUICK ? 11 : 31;
const root = new URL('../../../../shared/data/mjcf/', import.meta.url);
const FILES = ['humanoid.xml', 'dm_control/humanoid_CMU.xml'];

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

function randomState(model: Model, r: () => number): State {
  const s = new State(model);
  for (let i = 0; i < model.nLinks; i++) {
    const o = model.qOffset[i], v = model.vOffset[i], t = model.jointType[i];
    if (t === JointType.revolute || t === JointType.prismatic) {
      const lo = Number.isFinite(model.lower[v]) ? model.lower[v] : -0.5, hi = Number.isFinite(model.upper[v]) ? model.upper[v] : 0.5;
      s.q[o] = lo + (hi - lo) * r();
    } else if (t === JointType.free) {
      s.q[o] = r() - 0.5; s.q[o + 1] = 1 + 0.3 * r(); s.q[o + 2] = r() - 0.5;
      const x = r() - 0.5, y = r() - 0.5, z = r() - 0.5, n = Math.hypot(x, y, z, 1);
      s.q[o + 3] = x / n; s.q[o + 4] = y / n; s.q[o + 5] = z / n; s.q[o + 6] = 1 / n;
    } else if (t === JointType.spherical) {
      const x = 0.3 * (r() - 0.5), y = 0.3 * (r() - 0.5), z = 0.3 * (r() - 0.5), n = Math.hypot(x, y, z, 1);
      s.q[o] = x / n; s.q[o + 1] = y / n; s.q[o + 2] = z / n; s.q[o + 3] = 1 / n;
    }
  }
  for (let d = 0; d < model.nv; d++) s.qd[d] = r() - 0.5;
  forwardKinematics(model, s);
  return s;
}

/** Process CPU time per call (µs), the least over rounds of ~5 ms batches (a busy machine inflates it less than wall time). */
function cpuPerCall(fn: () => void, rounds = QUICK ? 5 : 15): number {
  let calls = 1;
  for (let t0 = performance.now(); performance.now() - t0 < 5; calls *= 2) for (let i = 0; i < calls; i++) fn();
  let best = Infinity;
  for (let k = 0; k < rounds; k++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < calls; i++) fn();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / calls);
  }
  return best;
}

const cell = (t: Timing) => `${fmt(t.medianUs)} (${fmt(t.minUs)}..${fmt(t.maxUs)})`;

console.log(`# MJCF humanoids: ABA and AccelerationDeltas (command: ${COMMAND}; node ${process.version})`);
const table: Record<string, string | number>[] = [];
const heapTable: Record<string, string | number>[] = [];
for (const file of FILES) {
  const url = new URL(file, root);
  if (!existsSync(url)) { console.log(`(${file} not found: skipped)`); continue; }
  const text = readFileSync(url, 'utf8');
  let imp;
  try {
    imp = importMJCF(text, { fileName: file, readInclude: (name: string) => readFileSync(new URL(name, url), 'utf8') });
  } catch (e) {
    console.log(`(${file} did not import: ${(e as Error).message})`);
    continue;
  }
  const importT = measure(`${file}: importMJCF`, () => importMJCF(text, { fileName: file, readInclude: (name: string) => readFileSync(new URL(name, url), 'utf8') }), { samples: QUICK ? 5 : 11 });
  const model = imp.model;
  const state = randomState(model, rng(7));
  // the deepest link: the longest inbound path for AccelerationDeltas
  const depth = new Int32Array(model.nLinks);
  let leaf = 0;
  for (let i = 0; i < model.nLinks; i++) {
    depth[i] = model.parent[i] < 0 ? 1 : depth[model.parent[i]] + 1;
    if (depth[i] > depth[leaf]) leaf = i;
  }
  const out = new Float64Array(model.nv);
  const f6 = Float64Array.of(0.1, 0, 0.05, 0, 1, 0);
  const point = Float64Array.of(0.02, -0.05, 0.01), dir = Float64Array.of(0, 1, 0);
  const aba = () => forwardDynamics(model, state);
  const dForce = () => accelerationDeltasForce(model, state, leaf, f6, 0, out);
  const dPoint = () => accelerationDeltasPointForce(model, state, leaf, point, dir, out);
  const dTorque = () => accelerationDeltasTorque(model, state, model.nv - 1, 1, out);
  const tAba = measure(`${file}: ABA`, aba, { samples: SAMPLES });
  tAba.cpuUs = cpuPerCall(aba);
  forwardDynamics(model, state);
  const tF = measure(`${file}: AccelerationDeltas (spatial force on the deepest leaf)`, dForce, { samples: SAMPLES });
  tF.cpuUs = cpuPerCall(dForce);
  const tP = measure(`${file}: AccelerationDeltas (point force on the deepest leaf)`, dPoint, { samples: SAMPLES });
  tP.cpuUs = cpuPerCall(dPoint);
  const tT = measure(`${file}: AccelerationDeltas (torque on the last dof)`, dTorque, { samples: SAMPLES });
  tT.cpuUs = cpuPerCall(dTorque);
  record({ name: `${file}: AccelerationDeltas (leaf force) / ABA`, medianUs: tF.medianUs / tAba.medianUs, minUs: tF.minUs / tAba.minUs, maxUs: NaN, calls: 0, cpuRatio: (tF.cpuUs as number) / (tAba.cpuUs as number), nLinks: model.nLinks, nv: model.nv });
  const name = `${imp.name} (${file})`;
  table.push({
    model: name, links: model.nLinks, dofs: model.nv, 'leaf depth': `${depth[leaf]} (${model.linkNames[leaf]})`,
    importMJCF: fmt(importT.medianUs),
    'ABA median (min..max)': cell(tAba), 'ABA CPU': fmt(tAba.cpuUs as number), 'ABA per dof': fmt(tAba.medianUs / model.nv),
    'deltas: leaf force': cell(tF), 'deltas: point force': cell(tP), 'deltas: torque': cell(tT),
    'deltas / ABA (median; CPU)': `${(tF.medianUs / tAba.medianUs).toFixed(3)}; ${((tF.cpuUs as number) / (tAba.cpuUs as number)).toFixed(3)}`,
  });
  forwardDynamics(model, state);
  const heapCalls = QUICK ? 20_000 : 100_000;
  const hA = heapGrowthPerCall(aba, heapCalls);
  forwardDynamics(model, state);
  const hD = heapGrowthPerCall(dPoint, heapCalls);
  record({ name: `${file}: heap growth per call (bytes)`, medianUs: NaN, minUs: NaN, maxUs: NaN, calls: heapCalls, abaBytes: hA, deltasBytes: hD });
  heapTable.push({ model: name, 'ABA: retained bytes per call': hA.toFixed(3), 'deltas (point force): retained bytes per call': hD.toFixed(3), calls: heapCalls });
}
printTable(`MJCF humanoids imported with importMJCF: one ABA call (forwardDynamics, kinematics included), one AccelerationDeltas call; median (min..max) over ${SAMPLES} samples — ${COMMAND}`, table);
printTable(`Heap growth per call after warm-up, after a forced GC — ${COMMAND}`, heapTable);
console.log(`\nwrote ${writeResults('characters-mjcf')}`);
