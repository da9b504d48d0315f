// `npm run pack [-- <dir>]`: writes the installable tarballs of the three packages into one folder
// (default dist/npm), as `npm publish` would upload them. Run after `tsc -b` (the npm script does).
//
// What a tarball holds, and why:
// - dist/**/*.js and dist/**/*.d.ts (ESM JavaScript and declarations), README.md, and for
//   @sinew/characters the JSON Schema of the character format;
// - no src/ and no source maps: the maps tsc writes point into src/, which would make a user's
//   bundler or editor look for files that are not there. The `//# sourceMappingURL=` line that
//   ends each file is removed for the same reason. (Go-to-definition lands in the .d.ts, whose doc
//   comments carry the documentation.)
// - package.json with `workspace:*` dependencies rewritten to the versions of this workspace, and
//   `publishConfig.exports` (the export map without the workspace-only "sinew-source" condition)
//   as `exports`. A user's install pulls the packages' `dependencies`: each other and gl-matrix.
//
// The tarballs are made by `npm pack` from a staging copy (dist/npm/stage/<name>), so what is
// packed is exactly what is listed above.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PACKAGES = ['featherstone', 'constraints', 'characters'];

/** Files under `dir` (recursive), relative to it. */
function walk(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p, base) : [relative(base, p)];
  });
}

/** The package.json a user installs: versions for workspace ranges, the published export map. */
function publishedManifest(pkg, versions) {
  const out = { ...pkg };
  const rewrite = (deps) =>
    deps && Object.fromEntries(Object.entries(deps).map(([name, range]) => {
      if (!String(range).startsWith('workspace:')) return [name, range];
      if (!versions[name]) throw new Error(`pack: ${pkg.name} depends on ${name} (${range}), which is not one of the packed packages`);
      return [name, versions[name]];
    }));
  out.dependencies = rewrite(pkg.dependencies);
  if (pkg.publishConfig?.exports) out.exports = pkg.publishConfig.exports;
  delete out.publishConfig;
  delete out.scripts; // the workspace's build and test scripts do not run outside it
  delete out.devDependencies;
  return out;
}

/** Packs the three packages into `outDir`; returns the tarballs' absolute paths. */
export function packAll(outDir = join(root, 'dist', 'npm')) {
  outDir = resolve(outDir);
  const manifests = PACKAGES.map((p) => JSON.parse(readFileSync(join(root, 'packages', p, 'package.json'), 'utf8')));
  const versions = Object.fromEntries(manifests.map((m) => [m.name, m.version]));
  const stageRoot = join(outDir, 'stage');
  rmSync(stageRoot, { recursive: true, force: true });
  mkdirSync(stageRoot, { recursive: true });
  const tarballs = [];
  PACKAGES.forEach((p, i) => {
    const src = join(root, 'packages', p);
    const dist = join(src, 'dist');
    if (!existsSync(join(dist, 'index.js'))) throw new Error(`pack: ${relative(root, dist)}/index.js is missing; build first (npm run build)`);
    const stage = join(stageRoot, p);
    mkdirSync(stage, { recursive: true });
    for (const f of walk(dist)) {
      if (!f.endsWith('.js') && !f.endsWith('.d.ts')) continue;
      const text = readFileSync(join(dist, f), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
      mkdirSync(dirname(join(stage, 'dist', f)), { recursive: true });
      writeFileSync(join(stage, 'dist', f), text);
    }
    cpSync(join(src, 'README.md'), join(stage, 'README.md'));
    if (existsSync(join(src, 'schema'))) cpSync(join(src, 'schema'), join(stage, 'schema'), { recursive: true });
    const manifest = publishedManifest(manifests[i], versions);
    writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    const r = spawnSync('npm', ['pack', '--silent', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pack: npm pack failed in ${stage}:\n${r.stderr}`);
    tarballs.push(join(outDir, r.stdout.trim().split('\n').pop()));
  });
  return tarballs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ? resolve(process.argv[2]) : join(root, 'dist', 'npm');
  for (const t of packAll(out)) console.log(`${relative(process.cwd(), t)} (${(statSync(t).size / 1024).toFixed(0)} kB)`);
}
