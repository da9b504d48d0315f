// Runs the pinned pnpm (the version in package.json "packageManager") through npx, so a machine
// with only Node and npm needs nothing installed by hand.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpm = pkg.packageManager; // "pnpm@x.y.z"

export function runPnpm(args, options = {}) {
  const r = spawnSync('npx', ['--yes', pnpm, ...args], { cwd: root, stdio: 'inherit', ...options });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(runPnpm(process.argv.slice(2)));
}
