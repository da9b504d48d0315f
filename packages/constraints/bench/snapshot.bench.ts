/**
 * Size and time of World.snapshot() (into a caller's buffer) and World.restore() for 1, 10, 50
 * and 100 humanoid ragdolls (test/humanoid-fixture.ts, 20 links, 55 q, 43 qd) lying on a grid on
 * the ground, 2 m apart: while they fall and land (after 20 steps: warm starts, no kept K) and
 * at rest (after 240 steps: the solver keeps each resting island's K, which the snapshot carries).
 *
 * Run from the repository root:
 *   pnpm bench packages/constraints/bench/snapshot.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 * Times are the median over samples of wall time per call (bench/harness.ts).
 */
import { fmt, measure, printTable, record, writeResults } from '../../../bench/harness.js';
import { World } from '../src/index.js';
import { humanoidTree } from '../test/humanoid-fixture.js';

const S = Math.SQRT1_2;
function grid(n: number): World {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const model = humanoidTree({ dampingTime: 0.25 });
  const side = Math.ceil(Math.sqrt(n));
  for (let i = 0; i < n; i++) {
    const b = world.addBody(model, { name: `ragdoll${i}` });
    b.state.q.set([2 * (i % side), 0.3, 2.2 * Math.floor(i / side), -S, 0, 0, S]);
  }
  return world;
}

const rows: Record<string, string>[] = [];
for (const n of [1, 10, 50, 100]) {
  const world = grid(n);
  let stepped = 0;
  for (const [phase, until] of [['landing', 20], ['at rest', 240]] as const) {
    for (; stepped < until; stepped++) world.step(1 / 60);
    const snap = world.snapshot();
    const out = new Uint8Array(2 * snap.length);
    const other = grid(n);
    const tSnap = measure(`snapshot ${n} ${phase}`, () => { world.snapshot(out); }, { samples: 15 });
    const tRestore = measure(`restore ${n} ${phase}`, () => { other.restore(snap); }, { samples: 15 });
    const kept = world.saveState().solver != null;
    rows.push({
      ragdolls: String(n), phase, 'kept K': kept ? 'yes' : 'no', bytes: String(snap.length), 'bytes per ragdoll': (snap.length / n).toFixed(0),
      'snapshot (median)': fmt(tSnap.medianUs), 'restore (median)': fmt(tRestore.medianUs),
    });
    record({ name: `snapshot bytes ${n} ${phase}`, medianUs: 0, minUs: 0, maxUs: 0, calls: 1, bytes: snap.length, perRagdoll: snap.length / n });
  }
}
printTable(`World.snapshot / restore (node ${process.version}; command: pnpm bench packages/constraints/bench/snapshot.bench.ts)`, rows);
console.log(`\nresults: ${writeResults('snapshot')}`);
