/**
 * Retargeting clips onto featherstone models: spherical joints reproduce the bones' local
 * rotations, the free root reproduces the root's world transform, bone-name maps drive models
 * whose joints are named differently, revolute joints take the twist about their axis, and
 * the target velocities agree with the clip's and with featherstone's integrator.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, integrateJoint, JointType, ModelBuilder, State } from '@sinew/featherstone';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { importGltf } from '../src/gltf/index.js';
import { clipVelocity, MotionClip, ragdollFromSkeleton, Retargeter, Skeleton } from '../src/motion/index.js';

const bvh = importBvh(readFileSync(new URL('../../../../shared/data/bvh/cmu_131_01_start_walk_stop.bvh', import.meta.url), 'utf8'), { scale: BVH_SCALE.cmu });
const fox = importGltf(new Uint8Array(readFileSync(new URL('../../../../shared/data/gltf/Fox.glb', import.meta.url))), { scale: 0.01 });

type Q = number[];
const mulQ = (a: Q, b: Q): Q => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const gap = (a: Q, b: Q) => Math.min(Math.max(...a.map((x, i) => Math.abs(x - b[i]))), Math.max(...a.map((x, i) => Math.abs(x + b[i]))));
/** R_J of a link as a quaternion, from the model's treeX (E = R_J^T, row-major). */
function jointRotation(treeX: Float64Array, link: number): Q {
  const E = treeX.subarray(12 * link, 12 * link + 9);
  // R = E^T; quaternion of R (trace branch is enough away from half turns; fall back by axis)
  const r = (i: number, j: number) => E[3 * j + i];
  const tr = r(0, 0) + r(1, 1) + r(2, 2);
  if (tr > -0.9) {
    const w = Math.sqrt(1 + tr) / 2;
    return [(r(2, 1) - r(1, 2)) / (4 * w), (r(0, 2) - r(2, 0)) / (4 * w), (r(1, 0) - r(0, 1)) / (4 * w), w];
  }
  const k = [0, 1, 2].reduce((m, i) => (r(i, i) > r(m, m) ? i : m), 0);
  const [i, j, l] = [k, (k + 1) % 3, (k + 2) % 3];
  const s = Math.sqrt(1 + r(i, i) - r(j, j) - r(l, l)) * 2;
  const q = [0, 0, 0, (r(l, j) - r(j, l)) / s];
  q[i] = s / 4; q[j] = (r(j, i) + r(i, j)) / s; q[l] = (r(l, i) + r(i, l)) / s;
  return q;
}

describe('retargeting onto a ragdoll built from the same skeleton', () => {
  for (const [label, imp] of [['CMU 131_01 (BVH)', { skeleton: bvh.skeleton, clip: bvh.clip }], ['Fox Walk (glTF)', { skeleton: fox.skeleton, clip: fox.clips[1] }]] as const) {
    it(`${label}: R_J q of each spherical joint is the bone's local rotation; the free root is the root's pose`, () => {
      const { skeleton, clip } = imp;
      const model = ragdollFromSkeleton(skeleton, { joints: 'ball' }).model;
      const rt = new Retargeter(model, skeleton);
      const pose = clip.createPose();
      let worst = 0, worstRoot = 0, checks = 0;
      for (const u of [0, 0.13, 0.5, 0.91, 1]) {
        const t = clip.startTime + u * clip.duration;
        const q = rt.sampleQ(clip, t);
        clip.sample(t, pose);
        for (let i = 1; i < model.nLinks; i++) {
          expect(model.jointType[i]).toBe(JointType.spherical);
          const o = model.qOffset[i];
          const got = mulQ(jointRotation(model.treeX, i), Array.from(q.subarray(o, o + 4)));
          worst = Math.max(worst, gap(got, Array.from(pose.rotations.subarray(4 * i, 4 * i + 4))));
          checks++;
        }
        // free root: position and orientation in the world
        const state = new State(model);
        state.q.set(q);
        forwardKinematics(model, state, false);
        for (let c = 0; c < 3; c++) worstRoot = Math.max(worstRoot, Math.abs(state.work.pose[9 + c] - pose.translations[c]));
        const rootQ = mulQ(jointRotation(model.treeX, 0), Array.from(q.subarray(3, 7)));
        worstRoot = Math.max(worstRoot, gap(rootQ, Array.from(pose.rotations.subarray(0, 4))));
      }
      expect(checks).toBe(5 * (model.nLinks - 1));
      expect(worst).toBeLessThan(1e-12);
      expect(worstRoot).toBeLessThan(1e-12);
    });

    it(`${label}: spherical qd equals the clip's body-frame angular velocity; the free root's qd integrates to q`, () => {
      const { skeleton, clip } = imp;
      const model = ragdollFromSkeleton(skeleton, { joints: 'ball' }).model;
      const rt = new Retargeter(model, skeleton);
      const t = clip.startTime + 0.37 * clip.duration;
      const qd = rt.sampleQd(clip, t);
      const v = clipVelocity(clip, t);
      for (let i = 1; i < model.nLinks; i++) {
        for (let c = 0; c < 3; c++) expect(qd[model.vOffset[i] + c]).toBeCloseTo(v.angular[3 * i + c], 8);
      }
      // the root: q(t - h/2) moved by qd over h lands on q(t + h/2) (the velocity is constant over a clip segment)
      const h = 0.5 * (clip.times[1] - clip.times[0]);
      const k = clip.segmentAt(t);
      const mid = 0.5 * (clip.times[k] + clip.times[k + 1]);
      const qdm = rt.sampleQd(clip, mid, undefined, { step: h });
      const qa = rt.sampleQ(clip, mid - h / 2), qb = rt.sampleQ(clip, mid + h / 2);
      integrateJoint(JointType.free, qa, 0, qdm, 0, h);
      for (let c = 0; c < 3; c++) expect(qa[c]).toBeCloseTo(qb[c], 10);
      expect(gap(Array.from(qa.subarray(3, 7)), Array.from(qb.subarray(3, 7)))).toBeLessThan(1e-10);
    });
  }

  it('a model whose joints are named differently is driven through a bone-name map', () => {
    const renamed = new Skeleton('renamed', bvh.skeleton.bones.map((b) => ({ ...b, name: `rig_${b.name.toLowerCase()}` })));
    const model = ragdollFromSkeleton(renamed, { joints: 'ball' }).model;
    const map = Object.fromEntries(bvh.skeleton.bones.map((b) => [b.name, `rig_${b.name.toLowerCase()}`]));
    const viaMap = new Retargeter(model, bvh.skeleton, { map });
    const direct = new Retargeter(ragdollFromSkeleton(bvh.skeleton, { joints: 'ball' }).model, bvh.skeleton);
    for (const t of [0.1, 2.5, 7]) expect(Array.from(viaMap.sampleQ(bvh.clip, t))).toEqual(Array.from(direct.sampleQ(bvh.clip, t)));
    // with no map, no names match: every joint stays neutral
    const none = new Retargeter(model, bvh.skeleton);
    expect(Array.from(none.boneOfLink).every((b) => b === -1)).toBe(true);
    expect(() => new Retargeter(model, bvh.skeleton, { map: { NoSuchBone: 'rig_hips' } })).toThrow(/does not have/);
    expect(() => new Retargeter(model, bvh.skeleton, { map: { Hips: 'no_joint' } })).toThrow(/does not have/);
  });
});

describe('retargeting onto revolute joints: the twist about the axis', () => {
  // a two-link leg: a free pelvis and a knee hinge about the knee joint frame's X axis
  const leg = new Skeleton('leg', [
    { name: 'pelvis', parent: -1, offset: [0, 1, 0] },
    { name: 'knee', parent: 0, offset: [0, -0.5, 0], rotation: [0, Math.sin(0.15), 0, Math.cos(0.15)] },
  ]);
  const b = new ModelBuilder();
  b.addLink({ name: 'pelvis_link', parent: null, joint: { type: 'free', name: 'pelvis_joint', position: [0, 1, 0] }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
  b.addLink({ name: 'shin', parent: 0, joint: { type: 'revolute', name: 'knee_hinge', axis: [1, 0, 0], position: [0, -0.5, 0], rotation: [0, Math.sin(0.15), 0, Math.cos(0.15)] }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
  const model = b.build();
  const rt = new Retargeter(model, leg, { map: { pelvis: 'pelvis_joint', knee: 'knee_hinge' } });
  const clipOf = (kneeLocal: Q[]) => new MotionClip({
    skeleton: leg,
    times: kneeLocal.map((_, i) => i),
    rotations: kneeLocal.flatMap((q) => [0, 0, 0, 1, ...q]),
    translations: kneeLocal.flatMap(() => [0, 1, 0, 0, -0.5, 0]),
  });
  const rest = [0, Math.sin(0.15), 0, Math.cos(0.15)];

  it('a rotation about the hinge axis comes through exactly', () => {
    for (const angle of [-2.5, -0.3, 0, 0.7, 1.9]) {
      const local = mulQ(rest, [Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)]);
      const q = rt.sampleQ(clipOf([local]), 0);
      expect(q[model.joint('knee_hinge').q]).toBeCloseTo(angle, 12);
    }
  });

  it('any other rotation gives the angle of the closest rotation about the axis (checked by search)', () => {
    let seed = 5;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5;
    for (let trial = 0; trial < 40; trial++) {
      let rel = [rand(), rand(), rand(), rand()];
      rel = rel.map((x) => x / Math.hypot(...rel));
      const angle = rt.sampleQ(clipOf([mulQ(rest, rel)]), 0)[model.joint('knee_hinge').q];
      // the twist maximises |<rel, [sin(th/2) x, cos(th/2)]>| over th
      const score = (th: number) => Math.abs(rel[0] * Math.sin(th / 2) + rel[3] * Math.cos(th / 2));
      let best = 0, bestTh = 0;
      for (let k = 0; k < 20000; k++) {
        const th = -Math.PI + (2 * Math.PI * k) / 20000;
        if (score(th) > best) { best = score(th); bestTh = th; }
      }
      expect(score(angle)).toBeGreaterThanOrEqual(best - 1e-9);
      expect(Math.abs(Math.atan2(Math.sin(angle - bestTh), Math.cos(angle - bestTh)))).toBeLessThan(1e-3);
    }
  });

  it('the hinge rate is the angle difference over time', () => {
    const angles = [0, 0.1, 0.3, 0.6];
    const clip = clipOf(angles.map((a) => mulQ(rest, [Math.sin(a / 2), 0, 0, Math.cos(a / 2)])));
    const qd = rt.sampleQd(clip, 1.5);
    expect(qd[model.joint('knee_hinge').v]).toBeCloseTo(0.2, 10); // (0.3 - 0.1) / 1 s
  });
});
