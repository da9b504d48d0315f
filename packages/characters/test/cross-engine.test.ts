/**
 * The same bits on every JavaScript engine. The scenes of cross-engine/scenes.ts (four ragdolls
 * dropped in a pile, a chain of hinges and ball joints swung against its limits, spheres at
 * 200-400 m/s fired into two ragdolls, a ragdoll built from a glTF skin (CesiumMan.glb), the
 * humanoid preset following a retargeted CMU walk and shot dead halfway) are bundled once by
 * esbuild and run in V8 (a Node child process), JavaScriptCore (the `bun` dev dependency),
 * QuickJS (quickjs-emscripten, in a Node child process) and, where /usr/bin/chromium exists, Chromium.
 * Every 60 steps each body's q and qd are recorded bit for bit; every engine must give exactly
 * V8's bits, or the test names the first scene, step, body, quantity and index that differed.
 *
 * With the engines' own Math.sin, exp, atan2, hypot... the same bundle differs within the first
 * second (the ECMAScript specification leaves those functions' last bits to each engine); the
 * simulation path uses featherstone's det-math instead (det-math-lint.test.ts keeps it so).
 */
import { buildSync } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, firstDifference, runBun, runChromium, runNode, runQuickJS, type EngineRun } from './cross-engine/engines.js';
import { CHECK_EVERY, SNAPSHOT_STEP, type SceneInput, type SceneResult } from './cross-engine/scenes.js';

// QuickJS interprets about 10-30 times slower than V8 compiles: step counts sized so that the
// whole file takes about a minute on two cores.
const STEPS: SceneInput['steps'] = { pile: 120, chain: 180, bullets: 60, gltf: 60, walk: 60, restored: 60 };
const shared = (p: string) => new URL(`../../../../shared/data/${p}`, import.meta.url);

function parse(run: EngineRun): SceneResult[] {
  try {
    return JSON.parse(run.output) as SceneResult[];
  } catch {
    throw new Error(`${run.engine} printed no result: ${run.output.slice(0, 500)}`);
  }
}

let script = '';
let reference: SceneResult[] = [];

describe('the same bits on every JavaScript engine', () => {
  beforeAll(async () => {
    const entry = fileURLToPath(new URL('./cross-engine/scenes.ts', import.meta.url));
    const bundle = buildSync({
      entryPoints: [entry], bundle: true, write: false, format: 'iife', globalName: '__sinewScenes',
      platform: 'neutral', target: 'es2020', conditions: ['sinew-source'], logLevel: 'warning',
    }).outputFiles[0].text;
    // the pile's snapshot at SNAPSHOT_STEP, taken in V8, which every engine restores and continues
    const snapshotBase64 = (await runNode(`${bundle}\n;__sinewScenes.makeSnapshot()`)).output;
    const input: SceneInput = {
      glbBase64: readFileSync(shared('gltf/CesiumMan.glb')).toString('base64'),
      bvh: readFileSync(shared('bvh/cmu_02_01_walk.bvh'), 'utf8'),
      steps: STEPS,
      snapshotBase64,
    };
    script = `${bundle}\n;JSON.stringify(__sinewScenes.runAll(${JSON.stringify(input)}))`;
    const v8 = await runNode(script);
    reference = parse(v8);
    console.log(`[cross-engine] ${v8.engine}: ${reference.map((r) => `${r.name} ${r.ms} ms`).join(', ')}`);
  }, 300_000);

  it('V8 ran every scene to its last checkpoint, and every scene moved', () => {
    expect(reference.map((r) => r.name)).toEqual(['ragdoll pile', 'chain against its limits', 'bullets into ragdolls', 'glTF ragdoll', 'walk, follow and die', 'ragdoll pile restored from a V8 snapshot']);
    for (const r of reference) {
      const steps = r.checkpoints.map((c) => c.step);
      expect(steps[steps.length - 1], r.name).toBe(Math.max(...steps));
      expect(steps.every((s, i) => i === 0 || s - steps[i - 1] <= CHECK_EVERY), r.name).toBe(true);
      expect(new Set(r.checkpoints.map((c) => c.hash)).size, `${r.name}: states change`).toBe(r.checkpoints.length);
    }
  });

  it('the pile restored from its snapshot at step 60 continues bit for bit like the pile itself (in V8; the other engines must then match V8)', () => {
    const [original, restored] = [reference[0], reference[5]];
    expect(restored.checkpoints.map((c) => c.step)).toEqual([SNAPSHOT_STEP, SNAPSHOT_STEP + 60]);
    for (const c of restored.checkpoints) {
      const same = original.checkpoints.find((o) => o.step === c.step)!;
      expect(c.values, `step ${c.step}`).toEqual(same.values);
      expect(c.time).toBe(same.time);
    }
  });

  it('the comparison names the first step, body, quantity and index that differ', () => {
    const copy = JSON.parse(JSON.stringify(reference)) as SceneResult[];
    const cp = copy[2].checkpoints[1];
    const key = Object.keys(cp.values)[1];
    const v = cp.values[key];
    cp.values[key] = v.slice(0, 16 * 3 + 15) + (v[16 * 3 + 15] === '0' ? '1' : '0') + v.slice(16 * 3 + 16);
    cp.hash = 'changed';
    expect(firstDifference(reference, copy, 'a', 'b')).toMatch(new RegExp(`^scene 'bullets into ragdolls', step ${cp.step} .*: ${key.replace('.', '\\.')}\\[3\\] is `));
    expect(firstDifference(reference, reference, 'a', 'b')).toBeNull();
  });

  it('JavaScriptCore (bun): the same bits as V8', async () => {
    const run = await runBun(script);
    console.log(`[cross-engine] ${run.engine}: ${run.ms.toFixed(0)} ms`);
    expect(firstDifference(reference, parse(run), 'V8', run.engine)).toBeNull();
  }, 300_000);

  it('QuickJS (quickjs-emscripten): the same bits as V8', async () => {
    const run = await runQuickJS(script);
    console.log(`[cross-engine] ${run.engine}: ${run.ms.toFixed(0)} ms`);
    expect(firstDifference(reference, parse(run), 'V8', run.engine)).toBeNull();
  }, 600_000);

  it.skipIf(!existsSync(CHROMIUM))('Chromium (headless): the same bits as V8', async () => {
    const run = await runChromium(script);
    console.log(`[cross-engine] ${run.engine}: ${run.ms.toFixed(0)} ms`);
    expect(firstDifference(reference, parse(run), 'V8', run.engine)).toBeNull();
  }, 300_000);
});
