// `pnpm bench` / `npm run bench`: runs every benchmark script (packages/*/bench/*.bench.ts, examples/bench)
// in its own Node process with GC exposed, so each prints its tables and writes bench-output/<name>.json.
// `pnpm bench <filter>` runs only the scripts whose path contains <filter>.
import { readdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const filter = process.argv[2] ?? '';
const dirs = ['packages/featherstone/bench', 'packages/constraints/bench', 'packages/characters/bench', 'examples/bench'];
const files = dirs
  .filter((d) => existsSync(join(root, d)))
  .flatMap((d) => readdirSync(join(root, d)).filter((f) => f.endsWith('.bench.ts')).map((f) => join(d, f)))
  .filter((f) => f.includes(filter));
console.log(`# Sinew benchmarks (command: pnpm bench${filter ? ' ' + filter : ''}; node ${process.version})`);
let failed = 0;
for (const f of files) {
  console.log(`\n# ${f}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--conditions=sinew-source', '--import', 'tsx', f], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
