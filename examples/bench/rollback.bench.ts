/**
 * What rollback costs a game: ten humanoid ragdolls (examples/src/sim/rollback.ts) a second after
 * they were dropped, as a peer that learns an input `delay` frames late replays them: restore a
 * snapshot, then snapshot and step each frame again. Prints the time of one replayed frame and how
 * many fit in a 16 ms frame beside the frame's own step.
 *
 * Run from the repository root:
 *   pnpm bench examples/bench/rollback.bench.ts
 */
import { fmt, measure, printTable, writeResults } from '../../bench/harness.js';
import { rollbackWorld } from '../src/sim/rollback.js';

const table: Record<string, string | number>[] = [];
for (const seconds of [1, 3]) {
  const world = rollbackWorld(10);
  for (let k = 0; k < 60 * seconds; k++) world.step(1 / 60);
  const start = world.snapshot();
  const step = measure(`10 ragdolls at ${seconds} s: restore + step`, () => { world.restore(start); world.step(1 / 60); }, { samples: 21, warmupMs: 500 });
  const restore = measure(`10 ragdolls at ${seconds} s: restore`, () => world.restore(start), { samples: 21, warmupMs: 200 });
  const snap = measure(`10 ragdolls at ${seconds} s: snapshot`, () => world.snapshot(), { samples: 21, warmupMs: 200 });
  // a replayed frame: snapshot and step (the restore once per rollback, counted in each here)
  const replayUs = step.medianUs + snap.medianUs;
  table.push({
    scene: `10 ragdolls, ${seconds} s after the drop`,
    'snapshot bytes': start.length,
    snapshot: fmt(snap.medianUs),
    restore: fmt(restore.medianUs),
    'restore + step': fmt(step.medianUs),
    "frames of rollback per 16 ms (beside the frame's own step)": Math.max(0, Math.floor((16000 - step.medianUs) / replayUs)),
  });
}
printTable('Rollback (pnpm bench examples/bench/rollback.bench.ts)', table);
writeResults('rollback');
