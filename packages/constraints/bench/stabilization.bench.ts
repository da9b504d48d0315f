/**
 * The Cline thesis 6-link chain experiment (section 5.2.1): pin error over 600 steps of 1 ms with
 * no stabilisation, Baumgarte (alpha 50, 200, 2000) and post-stabilisation. Prints the largest
 * error of each and writes the curves as an SVG plot to bench-output/cline-chain.svg.
 *
 * Run: pnpm bench packages/constraints/bench/stabilization.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { printTable, record, repoRoot, writeResults } from '../../../bench/harness.js';
import { clineSvg, runAllClineModes } from '../test/cline-experiment.js';

const t0 = performance.now();
const runs = runAllClineModes();
const ms = performance.now() - t0;
printTable('Cline 6-link chain, 600 steps of 1 ms (command: pnpm bench stabilization)', runs.map((r) => ({
  mode: r.label,
  'max pin error (mm)': (r.max * 1000).toExponential(3),
  'thesis (mm)': r.label.startsWith('no') ? '~20' : r.label.endsWith('= 50') ? '<= 5' : r.label.endsWith('= 200') ? '<= 3' : r.label.endsWith('2000') ? 'jiggles' : '<= 0.01',
})));
for (const r of runs) record({ name: `cline ${r.label}`, medianUs: 0, minUs: 0, maxUs: 0, calls: r.error.length, maxErrorM: r.max });
const root = repoRoot();
const svg = join(root, 'bench-output', 'cline-chain.svg');
mkdirSync(dirname(svg), { recursive: true });
writeFileSync(svg, clineSvg(runs));
console.log(`\nplot: ${svg} (the five runs took ${ms.toFixed(0)} ms)`);
writeResults('stabilization');
