// `pnpm bench` / `npm run bench`: runs every benchmark script (packages/*/bench/*.bench.ts, examples/bench, bench/)
// in its own Node process with GC exposed, so each prints its tables and writes bench-output/<name>.json.
// Each script is first bundled by esbuild (ESM, the packages' TypeScript sources inlined, npm
// dependencies left as imports) into <name>.bundle.mjs beside it, so the figures are those of the code
// as an application ships it, not of a development-time TypeScript loader (whose per-module export
// getters cost up to 2x in the step).
// `pnpm bench <filter>` runs only the scripts whose path contains <filter>.
// At the end: a summary table (each script's exit status, wall time and the JSON files it wrote) and
// the performance targets as world.bench.ts judged them, both written to bench-output/summary.json.
import { readdirSync, existsSync, statSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const filter = process.argv[2] ?? '';
const dirs = ['packages/featherstone/bench', 'packages/constraints/bench', 'packages/characters/bench', 'examples/bench', 'bench'];
const files = dirs
  .filter((d) => existsSync(join(root, d)))
  .flatMap((d) => readdirSync(join(root, d)).filter((f) => f.endsWith('.bench.ts')).map((f) => join(d, f)))
  .filter((f) => f.includes(filter));
const command = `pnpm bench${filter ? ' ' + filter : ''}`;
console.log(`# Sinew benchmarks (command: ${command}; node ${process.version})`);
const outDir = join(root, 'bench-output');

/** JSON files in bench-output modified at or after `since` (ms since the epoch). */
function writtenSince(since) {
  if (!existsSync(outDir)) return [];
  return readdirSync(outDir)
    .filter((f) => f.endsWith('.json') && f !== 'summary.json')
    .filter((f) => statSync(join(outDir, f)).mtimeMs >= since - 1)
    .sort();
}

const started = Date.now();
const scripts = [];
let failed = 0;
for (const f of files) {
  console.log(`\n# ${f}`);
  const t0 = Date.now();
  const bundle = f.replace(/\.ts$/, '.bundle.mjs');
  buildSync({
    entryPoints: [join(root, f)], outfile: join(root, bundle), bundle: true, platform: 'node', format: 'esm', target: 'node20',
    conditions: ['sinew-source'], external: ['@dimforge/*', 'physx-js-webidl', 'mujoco-js', 'jolt-physics', 'cannon-es', 'mathjs', 'three', 'playwright-core', 'esbuild', 'tsx'], logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const r = spawnSync(process.execPath, ['--expose-gc', bundle], { cwd: root, stdio: 'inherit' });
  const status = r.status === 0 ? 'ok' : r.status === null ? `killed (${r.signal})` : `exit ${r.status}`;
  if (r.status !== 0) failed++;
  scripts.push({ script: f, status, seconds: (Date.now() - t0) / 1000, json: writtenSince(t0).map((j) => `bench-output/${j}`) });
}

/** Rows of a JSON file written by this run (null when absent or stale). */
function rowsOf(name) {
  const p = join(outDir, `${name}.json`);
  if (!existsSync(p) || statSync(p).mtimeMs < started - 1) return null;
  try {
    return JSON.parse(readFileSync(p, 'utf8')).rows ?? null;
  } catch {
    return null;
  }
}

function printTable(title, table) {
  console.log(`\n## ${title}`);
  if (table.length === 0) {
    console.log('(none)');
    return;
  }
  const cols = Object.keys(table[0]);
  const cells = table.map((r) => cols.map((c) => String(r[c] ?? '')));
  const width = cols.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (vals) => '| ' + vals.map((v, i) => v.padEnd(width[i])).join(' | ') + ' |';
  console.log(line(cols));
  console.log('| ' + width.map((w) => '-'.repeat(w)).join(' | ') + ' |');
  for (const r of cells) console.log(line(r));
}

const worldRows = rowsOf('world');
const targets = (worldRows ?? [])
  .filter((r) => typeof r.name === 'string' && r.name.startsWith('target: '))
  .map((r) => ({ target: r.name.slice('target: '.length), goal: r.goal, measured: r.value, status: r.status, source: r.source }));

console.log(`\n# Summary (command: ${command}; node ${process.version}; ${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
printTable(`Benchmark scripts (${command})`, scripts.map((s) => ({ script: s.script, status: s.status, 'wall time': `${s.seconds.toFixed(1)} s`, 'wrote': s.json.join(', ') || '—' })));
if (targets.length) printTable(`Performance targets (from bench-output/world.json, written by packages/constraints/bench/world.bench.ts in this run)`, targets);
else console.log('\n(no targets: packages/constraints/bench/world.bench.ts did not run or did not finish in this run)');

mkdirSync(outDir, { recursive: true });
const summary = { command, node: process.version, date: new Date().toISOString(), seconds: (Date.now() - started) / 1000, failed, scripts, targets };
writeFileSync(join(outDir, 'summary.json'), JSON.stringify(summary, null, 2));
console.log(`\nwrote ${join(outDir, 'summary.json')}`);
process.exit(failed ? 1 : 0);
