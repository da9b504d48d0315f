// Installs the workspace (with its lockfile) when it is missing or older than the lockfile.
// Called first by `npm start`, `npm test` and `npm run bench`.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { runPnpm } from './pnpm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const marker = join(root, 'node_modules', '.modules.yaml');
const lock = join(root, 'pnpm-lock.yaml');
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
if (stale) {
  const args = ['install', existsSync(lock) ? '--frozen-lockfile' : '--no-frozen-lockfile'];
  console.log(`[setup] pnpm ${args.join(' ')}`);
  const status = runPnpm(args);
  if (status !== 0) process.exit(status);
}
