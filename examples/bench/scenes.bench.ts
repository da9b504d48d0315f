/**
 * Wall time of one step of every example scene (the scene's own sub-steps included) and of its
 * stats(), as the page and the headless demo run them, and how much faster than real time that is.
 *
 * Run from the repository root:
 *   node --expose-gc --conditions=sinew-source --import tsx examples/bench/scenes.bench.ts
 */
import { fmt, measure, printTable, writeResults } from '../../bench/harness.js';
import { readAssets } from '../src/node/demo.js';
import { sceneEntries } from '../src/scenes/index.js';
import { SceneRunner } from '../src/sim/runner.js';

const table: Record<string, string | number>[] = [];
for (const entry of sceneEntries()) {
  const created = entry.create();
  const runner = new SceneRunner(created, { assets: readAssets(created) });
  const scene = runner.scene;
  // Start from a moving state, one simulated second in.
  for (let k = 0; k < Math.round(1 / scene.timeStep); k++) runner.step();
  const step = measure(`${scene.name}: step`, () => scene.step(scene.timeStep), { samples: 21, warmupMs: 300 });
  const stats = measure(`${scene.name}: stats`, () => scene.stats(), { samples: 21 });
  const perSimSecondMs = (step.medianUs + stats.medianUs) / 1000 / scene.timeStep;
  table.push({
    scene: scene.name,
    links: runner.latest.links,
    'time step': `${(scene.timeStep * 1000).toFixed(3)} ms`,
    'step (median)': fmt(step.medianUs),
    'stats (median)': fmt(stats.medianUs),
    'wall ms per simulated s': perSimSecondMs.toFixed(1),
    'x real time': (1000 / perSimSecondMs).toFixed(1),
  });
}
printTable('example scenes: one step of the scene, sub-steps included (node ' + process.version + ')', table);
console.log(`\nwritten: ${writeResults('examples-scenes')}`);
