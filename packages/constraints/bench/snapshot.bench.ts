/**
 * Size and time of World.snapshot() (into a caller's buffer) and World.restore() for 1, 10, 50
 * and 100 humanoid ragdolls (test/humanoid-fixture.ts, 20 links, 55 q, 43 qd) lying on a grid on
 * the ground, 2 m apart: while they fall and land (after 20 steps) and at rest (after 240 steps);
 * and for 1, 10, 50 and 100 of the peer scenes' 15-part ragdolls (peer-ragdoll.ts, 39 q, 32 qd)
 * dropped in the criss-cross pile of pile.bench.ts: in the landing (step 45) and at 5 s (step 300).
 *
 * Run from the repository root:
 *   pnpm bench packages/constraints/bench/snapshot.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 * Times are the median and the least over 41 samples of wall time per call (bench/harness.ts): on a
 * machine shared with others the median can swing by half from run to run, the least much less.
 */
import { fmt, measure, printTable, record, writeResults } from '../../../bench/harness.js';
import { World } from '../src/index.js';
import { humanoidTree } from '../test/humanoid-fixture.js';
import { sinewPeerPile } from './peer-ragdoll.js';

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
function measureAt(label: string, n: number, make: (n: number) => World, phases: readonly (readonly [string, number])[]): void {
  const world = make(n);
  let stepped = 0;
  for (const [phase, until] of phases) {
    for (; stepped < until; stepped++) world.step(1 / 60);
    const snap = world.snapshot().slice();
    const out = new Uint8Array(2 * snap.length);
    const other = make(n);
    const tSnap = measure(`snapshot ${label} ${n} ${phase}`, () => { world.snapshot(out); }, { samples: 41 });
    const tRestore = measure(`restore ${label} ${n} ${phase}`, () => { other.restore(snap); }, { samples: 41 });
    const asleep = world.bodies.filter((b) => b.sleeping).length;
    rows.push({
      ragdolls: `${n} ${label}`, phase: `${phase} (step ${until}, ${asleep} asleep)`, bytes: String(snap.length), 'bytes per ragdoll': (snap.length / n).toFixed(0),
      'snapshot (median)': fmt(tSnap.medianUs), 'snapshot (least)': fmt(tSnap.minUs), 'restore (median)': fmt(tRestore.medianUs), 'restore (least)': fmt(tRestore.minUs),
    });
    record({ name: `snapshot bytes ${label} ${n} ${phase}`, medianUs: 0, minUs: 0, maxUs: 0, calls: 1, bytes: snap.length, perRagdoll: snap.length / n });
  }
}
for (const n of [1, 10, 50, 100]) measureAt('humanoid', n, grid, [['landing', 20], ['at rest', 240]]);
for (const n of [1, 10, 50, 100]) measureAt('peer ragdoll', n, (k) => sinewPeerPile(k), [['landing', 45], ['at 5 s', 300]]);
printTable(`World.snapshot / restore (node ${process.version}; command: pnpm bench packages/constraints/bench/snapshot.bench.ts)`, rows);
console.log(`\nresults: ${writeResults('snapshot')}`);
