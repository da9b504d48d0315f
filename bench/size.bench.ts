/**
 * What Sinew adds to a game's bundle: each entry below is bundled by esbuild for the browser (ESM,
 * minified, as a game ships it) and its size printed minified and gzipped (zlib level 9). The
 * packages are bundled from their TypeScript sources (the workspace's "sinew-source" condition),
 * which compile to the same code as the published dist/. The column "no sideEffects" bundles the
 * same entry with esbuild told to ignore the packages' `"sideEffects": false` (ignoreAnnotations),
 * to show what that flag saves.
 *
 * Run from the repository root:
 *   pnpm bench bench/size.bench.ts (or `npm run bench -- size`)
 */
import { gzipSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { printTable, repoRoot } from './harness.js';

const COMMAND = 'pnpm bench bench/size.bench.ts';

const ENTRIES: { name: string; what: string; code: string }[] = [
  {
    name: 'minimal',
    what: 'featherstone only: ModelBuilder, State, forwardDynamics, integrateSemiImplicit (a pendulum, no World)',
    code: `export { ModelBuilder, State, forwardDynamics, integrateSemiImplicit } from '@sinew/featherstone';`,
  },
  {
    name: 'world',
    what: 'World (rigid shapes on a floor, no characters)',
    code: `export { World } from '@sinew/constraints';`,
  },
  {
    name: 'typical game',
    what: 'World + humanoid preset + ragdoll death scene (characterFromJSON, startDeathScene)',
    code: `export { World } from '@sinew/constraints';
export { humanoid, characterFromJSON, startDeathScene } from '@sinew/characters';`,
  },
  {
    name: 'importers',
    what: 'World + the BVH, glTF and MJCF importers, retargeting and motion following',
    code: `export { World } from '@sinew/constraints';
export { importBvh, importGltf, importMJCF, retargetClip, MotionFollower, characterFromJSON } from '@sinew/characters';`,
  },
  {
    name: 'everything',
    what: 'every export of the three packages and @sinew/constraints/internals',
    code: `export * as featherstone from '@sinew/featherstone';
export * as constraints from '@sinew/constraints';
export * as internals from '@sinew/constraints/internals';
export * as characters from '@sinew/characters';`,
  },
];

async function bundle(code: string, ignoreAnnotations: boolean): Promise<Uint8Array> {
  const r = await esbuild.build({
    stdin: { contents: code, resolveDir: join(repoRoot(), 'examples'), loader: 'js', sourcefile: 'entry.js' },
    bundle: true, write: false, format: 'esm', platform: 'browser', target: ['es2022'],
    conditions: ['sinew-source'], minify: true, legalComments: 'none', logLevel: 'silent', ignoreAnnotations,
  });
  return r.outputFiles[0].contents;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const rows: Record<string, string | number>[] = [];
const json: Record<string, string | number>[] = [];
for (const e of ENTRIES) {
  const min = await bundle(e.code, false);
  const gz = gzipSync(min, { level: 9 });
  const plain = await bundle(e.code, true);
  rows.push({ bundle: e.name, minified: kb(min.length), gzipped: kb(gz.length), 'no sideEffects (min)': kb(plain.length), imports: e.what });
  json.push({ name: e.name, imports: e.what, minifiedBytes: min.length, gzippedBytes: gz.length, minifiedBytesIgnoringSideEffects: plain.length });
}
console.log(`# Bundle sizes (command: ${COMMAND}; esbuild ${esbuild.version}, browser ESM, minified; gzip level 9)`);
printTable('What a game bundle holds of Sinew', rows);
const out = join(repoRoot(), 'bench-output', 'size.json');
mkdirSync(join(repoRoot(), 'bench-output'), { recursive: true });
writeFileSync(out, JSON.stringify({ node: process.version, date: new Date().toISOString(), command: COMMAND, rows: json }, null, 2));
console.log(`\nwrote ${out}`);
