/**
 * A game installs Sinew: the three packages are built and packed (scripts/pack.mjs, as
 * `npm run pack` does), then installed with plain `npm` into a fresh project in the system's
 * temporary folder, outside the workspace, with nothing else but gl-matrix (the game's own vector
 * library, installed from a tarball of the workspace's copy so that no network is needed). There:
 *
 * - Node ESM (`import`) and CommonJS (`require`, which Node >= 20.19 supports for ES modules) run a
 *   ragdoll drop and print its joint coordinates, which must equal bit for bit the same scene run
 *   here on the workspace's TypeScript sources: the installed code is the code that was tested;
 * - `tsc --strict` type-checks a game's file that passes gl-matrix `vec3` / `quat` and
 *   `Float64Array`s where the API takes vectors, and rejects a file with known type errors (so the
 *   check reads the packages' declarations, not `any`);
 * - esbuild bundles a browser entry, and the bundle run gives the same bits again;
 * - the install holds the three packages and gl-matrix only, and the tarballs hold no sources and
 *   no source maps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import * as constraints from '@sinew/constraints';
import * as characters from '@sinew/characters';
// @ts-expect-error: a plain ES module script of the workspace, without declarations
import { packAll } from '../scripts/pack.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tscBin = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * The scene every variant runs: a humanoid ragdoll on a box floor whose half extents are a
 * gl-matrix-style Float32Array, dropped from 1 m for 60 steps. Returns q and qd as numbers.
 */
const SCENE = `function scene(C, H, halfExtents) {
  const world = new C.World();
  world.addStatic({ geometry: { type: 'box', halfExtents }, position: [0, -0.5, 0] });
  const body = world.addBody(H.characterFromJSON(H.humanoid({ height: 1.8, mass: 75 })).model);
  body.state.q[1] = 1.0;
  for (let i = 0; i < 60; i++) world.step(1 / 60);
  return [...body.state.q, ...body.state.qd];
}`;

type Scene = (c: unknown, h: unknown, halfExtents: ArrayLike<number>) => number[];
const scene = new Function(`return ${SCENE}`)() as Scene;

/**
 * Runs a command to its end without blocking this process (a test worker blocked for long misses
 * the test runner's messages).
 */
function run(cmd: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function ok(cmd: string, args: string[], cwd: string): Promise<string> {
  const r = await run(cmd, args, cwd);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Bits of a list of numbers, so that equality is exact (and -0 / NaN are told apart). */
const bits = (xs: number[]) => Buffer.from(new Float64Array(xs).buffer).toString('hex');

describe('a game installs the packed packages with npm', () => {
  let work: string, game: string, tarballs: string[];
  let expected: string;

  beforeAll(async () => {
    // the packages' dist/ (tsc -b is incremental: quick when `npm test` has just built them)
    await ok(process.execPath, [tscBin, '-b', 'packages/featherstone', 'packages/constraints', 'packages/characters'], root);
    work = mkdtempSync(join(tmpdir(), 'sinew-install-'));
    tarballs = packAll(join(work, 'npm')) as string[];
    // gl-matrix as the game would have it, from the workspace's own copy
    const glDir = dirname(createRequire(join(root, 'packages', 'featherstone', 'package.json')).resolve('gl-matrix/package.json'));
    const glTarball = join(work, 'npm', (await ok('npm', ['pack', '--silent', '--pack-destination', join(work, 'npm'), glDir], work)).trim().split('\n').pop()!);

    game = join(work, 'game');
    mkdirSync(game);
    writeFileSync(join(game, 'package.json'), JSON.stringify({ name: 'a-game', version: '1.0.0', private: true, type: 'module' }, null, 2));
    await ok('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...tarballs, glTarball], game);

    expected = bits(scene(constraints, characters, new Float32Array([10, 0.5, 10])));
  });

  afterAll(() => {
    if (work && existsSync(work)) rmSync(work, { recursive: true, force: true });
  });

  it('writes one tarball per package, with versions for workspace ranges and no sources or source maps', async () => {
    expect(tarballs.map((t) => t.split(/[\\/]/).pop())).toEqual([
      'sinew-featherstone-0.1.0.tgz', 'sinew-constraints-0.1.0.tgz', 'sinew-characters-0.1.0.tgz',
    ]);
    for (const t of tarballs) {
      const files = (await ok('tar', ['tzf', t], work)).trim().split('\n');
      expect(files).toContain('package/dist/index.js');
      expect(files).toContain('package/dist/index.d.ts');
      expect(files.filter((f) => f.startsWith('package/src/') || f.endsWith('.map') || f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    }
    const installed = (name: string) => JSON.parse(readFileSync(join(game, 'node_modules', '@sinew', name, 'package.json'), 'utf8'));
    expect(installed('characters').dependencies).toEqual({ '@sinew/featherstone': '0.1.0', '@sinew/constraints': '0.1.0' });
    expect(installed('constraints').dependencies).toEqual({ '@sinew/featherstone': '0.1.0' });
    expect(installed('featherstone').dependencies).toBeUndefined();
    const text = readFileSync(join(game, 'node_modules', '@sinew', 'constraints', 'dist', 'world.js'), 'utf8');
    expect(text).not.toMatch(/sourceMappingURL/);
    expect(JSON.stringify(installed('constraints').exports)).not.toMatch(/sinew-source|src\//);
  });

  it('installs the three packages and the game\'s gl-matrix, nothing else', () => {
    const lock = JSON.parse(readFileSync(join(game, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const names = Object.keys(lock.packages).filter((k) => k !== '').map((k) => k.replace(/^node_modules\//, '')).sort();
    expect(names).toEqual(['@sinew/characters', '@sinew/constraints', '@sinew/featherstone', 'gl-matrix']);
  });

  it('runs from Node ESM with the same bits as the workspace sources', async () => {
    writeFileSync(join(game, 'esm.mjs'), `import * as C from '@sinew/constraints';
import * as H from '@sinew/characters';
import { vec3 } from 'gl-matrix';
const scene = ${SCENE};
console.log(JSON.stringify(scene(C, H, vec3.fromValues(10, 0.5, 10))));
`);
    const q = JSON.parse(await ok(process.execPath, ['esm.mjs'], game)) as number[];
    expect(bits(q)).toBe(expected);
  });

  it('runs from CommonJS through require (ESM only; Node >= 20.19 requires ES modules)', async () => {
    writeFileSync(join(game, 'cjs.cjs'), `const C = require('@sinew/constraints');
const H = require('@sinew/characters');
const { ConstraintSolver } = require('@sinew/constraints/internals');
const scene = ${SCENE};
console.log(JSON.stringify({ solver: typeof ConstraintSolver, out: scene(C, H, new Float32Array([10, 0.5, 10])) }));
`);
    const r = await run(process.execPath, ['--no-warnings', 'cjs.cjs'], game);
    const [major, minor] = process.versions.node.split('.').map(Number);
    if (major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19)) {
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as { solver: string; out: number[] };
      expect(out.solver).toBe('function');
      expect(bits(out.out)).toBe(expected);
    } else {
      // older Node: the `default` condition resolves, and Node says the package is an ES module
      expect(r.stderr).toMatch(/ERR_REQUIRE_ESM/);
    }
  });

  it('type-checks a game\'s TypeScript under tsc --strict, gl-matrix vectors at the API edge', async () => {
    writeFileSync(join(game, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022'], types: [], noEmit: true },
      include: ['game.ts'],
    }, null, 2));
    writeFileSync(join(game, 'game.ts'), `import { World, type StepStats } from '@sinew/constraints';
import { humanoid, characterFromJSON, type CharacterDescription } from '@sinew/characters';
import { ModelBuilder, type ShapeDesc } from '@sinew/featherstone';
import { RowBuffer } from '@sinew/constraints/internals';
import { vec3, quat, type ReadonlyVec3 } from 'gl-matrix';

const halfExtents: vec3 = vec3.fromValues(5, 0.5, 5);
const tilt: quat = quat.setAxisAngle(quat.create(), [0, 0, 1], 0.1);
const up: ReadonlyVec3 = [0, 1, 0];
const floor: ShapeDesc = { geometry: { type: 'box', halfExtents }, position: vec3.fromValues(0, -0.5, 0), rotation: tilt };
const world = new World({ gravity: new Float64Array([0, -9.81, 0]) });
world.addStatic(floor);
world.addStatic({ geometry: { type: 'trimesh', vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1]), indices: new Uint16Array([0, 2, 1]) }, position: up });
const description: CharacterDescription = humanoid({ height: 1.8, mass: 75 });
const body = world.addBody(characterFromJSON(description).model);
const stats: StepStats = world.step(1 / 60);
const b = new ModelBuilder();
b.addLink({ name: 'box', parent: -1, joint: { type: 'free' }, mass: 1, inertia: [1, 1, 1, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: vec3.fromValues(0.1, 0.1, 0.1) } }] });
const rows: RowBuffer = new RowBuffer(8);
export const result: number = body.state.q[1] + stats.rows + rows.count + b.build().nq;
`);
    const r = await run(process.execPath, [tscBin, '-p', 'tsconfig.json'], game);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);

    // the same check rejects what the declarations forbid
    writeFileSync(join(game, 'wrong.ts'), `import { World } from '@sinew/constraints';
const world = new World();
world.addStatic({ geometry: { type: 'box', halfExtents: 'big' } });
world.step('1/60');
`);
    writeFileSync(join(game, 'tsconfig.wrong.json'), JSON.stringify({ extends: './tsconfig.json', include: ['wrong.ts'] }));
    const w = await run(process.execPath, [tscBin, '-p', 'tsconfig.wrong.json'], game);
    expect(w.status).not.toBe(0);
    expect(w.stdout).toMatch(/wrong\.ts\(3,\d+\): error TS2322/);
    expect(w.stdout).toMatch(/wrong\.ts\(4,\d+\): error TS2345/);
  });

  it('bundles a browser entry with esbuild, and the bundle gives the same bits', async () => {
    writeFileSync(join(game, 'browser.js'), `import { World } from '@sinew/constraints';
import { humanoid, characterFromJSON } from '@sinew/characters';
import { vec3 } from 'gl-matrix';
const scene = ${SCENE};
globalThis.sinewResult = scene({ World }, { humanoid, characterFromJSON }, vec3.fromValues(10, 0.5, 10));
`);
    const r = await esbuild.build({
      absWorkingDir: game, entryPoints: ['browser.js'], outfile: join(game, 'out', 'app.js'), bundle: true,
      platform: 'browser', format: 'esm', target: ['es2022'], minify: true, logLevel: 'silent', metafile: true,
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    // only the installed packages went in, from dist/
    const inputs = Object.keys(r.metafile.inputs);
    expect(inputs.filter((p) => p.includes('@sinew/') && !/node_modules\/@sinew\/[a-z]+\/dist\//.test(p))).toEqual([]);
    expect(inputs.some((p) => p.includes('node_modules/@sinew/characters/dist/'))).toBe(true);
    const g = globalThis as { sinewResult?: number[] };
    delete g.sinewResult;
    await import(pathToFileURL(join(game, 'out', 'app.js')).href);
    expect(bits(g.sinewResult!)).toBe(expected);
  });
});
