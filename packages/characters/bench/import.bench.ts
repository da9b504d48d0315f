/**
 * Import time of every BVH and glTF test file, ragdoll building, and per-frame costs of driving a
 * character from a clip: sampling a pose, retargeting it to q, and q + qd together.
 *
 * Run from the repository root:
 *   pnpm bench packages/characters/bench/import.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 */
import { readFileSync } from 'node:fs';
import { fmt, heapGrowthPerCall, measure, printTable, writeResults } from '../../../bench/harness.js';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { importGltf } from '../src/gltf/index.js';
import { ragdollFromSkeleton, Retargeter, type MotionClip, type Skeleton } from '../src/motion/index.js';

const root = new URL('../../../../shared/data/', import.meta.url);
const BVH = [
  ['pirouette.bvh', BVH_SCALE.centimetres],
  ['cmu_02_01_walk.bvh', BVH_SCALE.cmu],
  ['cmu_131_01_start_walk_stop.bvh', BVH_SCALE.cmu],
  ['cmu_131_03_start_hop_stop.bvh', BVH_SCALE.cmu],
] as const;
const GLTF = [['CesiumMan.glb', 1], ['Fox.glb', 0.01], ['RobotExpressive.glb', 1], ['RiggedSimple.gltf', 1]] as const;

const imports: Record<string, string | number>[] = [];
const driven: { name: string; skeleton: Skeleton; clip: MotionClip }[] = [];

for (const [file, scale] of BVH) {
  const text = readFileSync(new URL(`bvh/${file}`, root), 'utf8');
  const r = importBvh(text, { file, scale });
  const t = measure(`import ${file}`, () => importBvh(text, { file, scale }), { samples: 15 });
  imports.push({ file, bytes: text.length, bones: r.skeleton.boneCount, frames: r.frameCount, 'import (median)': fmt(t.medianUs), 'per frame': fmt(t.medianUs / r.frameCount) });
  driven.push({ name: file, skeleton: r.skeleton, clip: r.clip });
}
for (const [file, scale] of GLTF) {
  const bytes = new Uint8Array(readFileSync(new URL(`gltf/${file}`, root)));
  const r = importGltf(bytes, { file, scale });
  const t = measure(`import ${file}`, () => importGltf(bytes, { file, scale }), { samples: 15 });
  const frames = r.clips.reduce((n, c) => n + c.frameCount, 0);
  imports.push({ file, bytes: bytes.length, bones: r.skeleton.boneCount, frames, 'import (median)': fmt(t.medianUs), 'per frame': fmt(t.medianUs / Math.max(1, frames)) });
  const clip = r.clips[r.clips.length > 1 ? 1 : 0];
  if (file !== 'RiggedSimple.gltf') driven.push({ name: `${file} "${clip.name}"`, skeleton: r.skeleton, clip });
}
printTable(`import time (node ${process.version})`, imports);

const perFrame: Record<string, string | number>[] = [];
for (const { name, skeleton, clip } of driven) {
  const build = measure(`ragdoll ${name}`, () => ragdollFromSkeleton(skeleton), { samples: 11 });
  const { model } = ragdollFromSkeleton(skeleton);
  const rt = new Retargeter(model, skeleton);
  const pose = clip.createPose();
  const q = new Float64Array(model.nq), qd = new Float64Array(model.nv);
  let t = clip.startTime;
  const dt = 1 / 60;
  const advance = () => { t += dt; if (t > clip.endTime) t = clip.startTime; return t; };
  const sample = measure(`sample ${name}`, () => clip.sample(advance(), pose));
  const toQ = measure(`retarget q ${name}`, () => rt.sampleQ(clip, advance(), q));
  const toQd = measure(`retarget q+qd ${name}`, () => { rt.sampleQ(clip, advance(), q); rt.sampleQd(clip, t, qd); });
  const heap = heapGrowthPerCall(() => clip.sample(advance(), pose), 20000);
  perFrame.push({
    clip: name,
    bones: skeleton.boneCount,
    'ragdoll build': fmt(build.medianUs),
    'sample pose': fmt(sample.medianUs),
    'pose -> q': fmt(toQ.medianUs),
    'q + qd': fmt(toQd.medianUs),
    'sample heap B/call': heap.toFixed(2),
  });
}
printTable('per frame: clip sampling and retargeting (one call each)', perFrame);
console.log(`\nwritten: ${writeResults('characters-import')}`);
