/**
 * Renderer output for skinned meshes: bone transforms of a ragdoll built from CesiumMan.glb follow
 * the simulation, checked against the skeleton's own forward kinematics of the same clip pose (an
 * independent path: quaternion chain of the imported bones vs. the physics model's link poses),
 * and the skinning matrices agree with the file's inverse bind matrices (at the rest pose, which
 * is CesiumMan's bind pose, every bone's skinning matrix is the same: the mesh node's transform).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { State } from '@sinew/featherstone';
import { importGltf } from '../src/gltf/index.js';
import { Retargeter, SkinBinding, ragdollFromSkeleton, writeLinkMatrices } from '../src/motion/index.js';

const file = 'CesiumMan.glb';
const imported = importGltf(new Uint8Array(readFileSync(new URL(`../../../../shared/data/gltf/${file}`, import.meta.url))), { file });

describe('renderer output', () => {
  const { model } = ragdollFromSkeleton(imported.skeleton, { mass: 70 });
  const skin = new SkinBinding(model, imported.skeleton);
  const n = imported.skeleton.bones.length;

  it('bone matrices equal the skeleton forward kinematics of a clip pose (every bone, 5 times)', () => {
    const clip = imported.clips[0];
    const retarget = new Retargeter(model, imported.skeleton);
    const state = new State(model);
    const out = new Float32Array(16 * n);
    for (const f of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      const t = clip.startTime + f * clip.duration;
      retarget.sampleQ(clip, t, state.q);
      skin.writeBoneMatrices(state, out);
      const world = imported.skeleton.worldPose(clip.sample(t));
      for (let b = 0; b < n; b++) {
        const [x, y, z, w] = world.rotations.subarray(4 * b, 4 * b + 4);
        // column-major rotation of the quaternion, and the head position
        const R = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)];
        for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) expect(Math.abs(out[16 * b + 4 * c + r] - R[3 * c + r])).toBeLessThan(1e-5);
        for (let k = 0; k < 3; k++) expect(Math.abs(out[16 * b + 12 + k] - world.positions[3 * b + k])).toBeLessThan(1e-5);
        expect(out[16 * b + 15]).toBe(1);
      }
    }
  });

  it('skinning matrices at the bind pose are one and the same for every bone (the inverse bind matrices of the file)', () => {
    const state = new State(model);
    const out = new Float64Array(16 * n);
    skin.writeSkinningMatrices(state, out);
    let scale = 0;
    for (let k = 0; k < 16; k++) scale = Math.max(scale, Math.abs(out[k]));
    for (let b = 1; b < n; b++) for (let k = 0; k < 16; k++) expect(Math.abs(out[16 * b + k] - out[k])).toBeLessThan(1e-5 * scale);
  });

  it('link matrices: one per link, and a too-small array is refused', () => {
    const state = new State(model);
    const out = new Float32Array(16 * model.nLinks);
    writeLinkMatrices(model, state, out);
    for (let i = 0; i < model.nLinks; i++) expect(out[16 * i + 15]).toBe(1);
    expect(() => writeLinkMatrices(model, state, new Float32Array(16))).toThrow(/expected at least/);
    expect(() => skin.writeBoneMatrices(state, new Float32Array(8))).toThrow(/16 per bone/);
  });
});
