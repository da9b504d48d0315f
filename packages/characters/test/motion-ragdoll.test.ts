/**
 * Ragdolls from skeletons: link counts, names, total mass, finite capsules, de Leva segment
 * fractions, degenerate (zero-length) bones, capsule inertia against a Monte Carlo integral,
 * and a free fall whose centre of mass drops as g t^2 / 2.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, JointType, simulate, State, type Model } from '@sinew/featherstone';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { importGltf } from '../src/gltf/index.js';
import {
  boneSides, capsuleInertia, classifyBones, DE_LEVA_1996_MALE, detectNameMap, MIXAMO_SEGMENTS, ragdollFromSkeleton, RIGIFY_SEGMENTS, Skeleton,
  VRM_SEGMENTS, type BodySegment, type Ragdoll,
} from '../src/motion/index.js';

const gltf = (f: string) => importGltf(new Uint8Array(readFileSync(new URL(`../../../../shared/data/gltf/${f}`, import.meta.url))), { file: f });
const bvh = (f: string, scale: number) => importBvh(readFileSync(new URL(`../../../../shared/data/bvh/${f}`, import.meta.url), 'utf8'), { file: f, scale });

function checkModel(model: Model, skeleton: Skeleton, mass: number, joints: Ragdoll['joints'] = []): void {
  expect(model.nLinks).toBe(skeleton.boneCount);
  expect(model.linkNames).toEqual(skeleton.bones.map((b) => b.name));
  expect(model.jointNames).toEqual(skeleton.bones.map((b) => b.name));
  expect(model.jointType[0]).toBe(JointType.free);
  // hinges where the anatomical plan has them (knees, elbows), ball joints elsewhere
  for (let i = 1; i < model.nLinks; i++) expect(model.jointType[i]).toBe(joints[i]?.type === 'revolute' ? JointType.revolute : JointType.spherical);
  expect(Math.abs(model.totalMass() - mass) / mass).toBeLessThan(1e-12);
  for (let i = 0; i < model.nLinks; i++) {
    expect(model.mass[i]).toBeGreaterThan(0);
    expect(model.parent[i]).toBe(skeleton.bones[i].parent);
    expect(model.shapes[i].length).toBe(1);
    const g = model.shapes[i][0].geometry;
    expect(g.type).toBe('capsule');
    if (g.type !== 'capsule') continue;
    expect(Number.isFinite(g.radius) && g.radius > 0).toBe(true);
    expect(Number.isFinite(g.halfLength) && g.halfLength >= 0).toBe(true);
    for (const v of [...Array.from(model.shapes[i][0].position!), ...Array.from(model.shapes[i][0].rotation!)]) expect(Number.isFinite(v)).toBe(true);
  }
  expect(model.inertiaCom.every(Number.isFinite) && model.com.every(Number.isFinite)).toBe(true);
}

describe('ragdolls from the glTF characters', () => {
  for (const [file, links, mass] of [['CesiumMan.glb', 19, 62.5], ['RobotExpressive.glb', 43, 80], ['Fox.glb', 24, 12]] as const) {
    it(`${file}: ${links} links, total mass ${mass} kg, finite capsules, joint names kept`, () => {
      const r = gltf(file);
      const rd = ragdollFromSkeleton(r.skeleton, { mass });
      checkModel(rd.model, r.skeleton, mass, rd.joints);
      // bones with skinned vertices have radii measured from them
      const measured = rd.capsules.filter((c) => c.fromVertices).length;
      expect(measured).toBeGreaterThan(links / 2);
    });
  }

  it('CesiumMan: capsule radii measured from the skin are near the mesh (80th percentile of distances)', () => {
    const r = gltf('CesiumMan.glb');
    const rd = ragdollFromSkeleton(r.skeleton);
    r.skeleton.bones.forEach((b, i) => {
      const c = rd.capsules[i];
      if (!c.fromVertices || c.length === 0) return;
      const tip = c.axis.map((a) => a * c.length);
      // an independent count: about 80 % of the owned vertices lie within the radius of the bone segment
      let inside = 0;
      const v = b.vertices!;
      for (let k = 0; k < v.length; k += 3) {
        const bb = tip[0] ** 2 + tip[1] ** 2 + tip[2] ** 2;
        const s = Math.min(1, Math.max(0, (v[k] * tip[0] + v[k + 1] * tip[1] + v[k + 2] * tip[2]) / bb));
        if (Math.hypot(v[k] - s * tip[0], v[k + 1] - s * tip[1], v[k + 2] - s * tip[2]) <= c.radius + 1e-12) inside++;
      }
      const n = v.length / 3;
      expect(inside).toBeGreaterThanOrEqual(Math.floor(0.8 * (n - 1)) + 1);
    });
  });
});

describe('ragdolls from BVH skeletons: de Leva (1996) segment masses', () => {
  for (const [file, scale] of [['cmu_02_01_walk.bvh', BVH_SCALE.cmu], ['cmu_131_01_start_walk_stop.bvh', BVH_SCALE.cmu], ['pirouette.bvh', BVH_SCALE.centimetres]] as const) {
    it(`${file}: each segment (per side) carries its fraction of 75 kg`, () => {
      const r = bvh(file, scale);
      const rd = ragdollFromSkeleton(r.skeleton, { mass: 75 });
      checkModel(rd.model, r.skeleton, 75, rd.joints);
      expect(rd.segments.every((s) => s !== null)).toBe(true);
      const totals = new Map<string, number>();
      const sides = boneSides(r.skeleton);
      expect(sides.filter((x) => x === 'left').length).toBe(sides.filter((x) => x === 'right').length);
      rd.segments.forEach((s, i) => {
        const side = ['upperArm', 'forearm', 'hand', 'thigh', 'shank', 'foot'].includes(s!) ? `:${sides[i]}` : '';
        totals.set(`${s}${side}`, (totals.get(`${s}${side}`) ?? 0) + rd.masses[i]);
      });
      expect(totals.size).toBe(16); // 4 axial segments + 6 limb segments x 2 sides
      for (const [key, m] of totals) {
        const seg = key.split(':')[0] as BodySegment;
        expect(m / 75).toBeCloseTo(DE_LEVA_1996_MALE[seg], 12);
      }
    });
  }

  it('the table is de Leva\'s: the published male figures, summing to 1 over both sides', () => {
    expect(DE_LEVA_1996_MALE).toMatchObject({ head: 0.0694, upperArm: 0.0271, forearm: 0.0162, hand: 0.0061, thigh: 0.1416, shank: 0.0433, foot: 0.0137 });
    const trunk = DE_LEVA_1996_MALE.upperTrunk + DE_LEVA_1996_MALE.middleTrunk + DE_LEVA_1996_MALE.lowerTrunk;
    expect(trunk).toBeCloseTo(0.4346, 12);
    const sum = DE_LEVA_1996_MALE.head + trunk + 2 * (0.0271 + 0.0162 + 0.0061 + 0.1416 + 0.0433 + 0.0137);
    expect(sum).toBeCloseTo(1, 12);
  });

  it('name maps: Mixamo, VRM, rigify and CMU names are told apart and classified', () => {
    const sk = (names: string[]) => new Skeleton('n', names.map((name, i) => ({ name, parent: i - 1, offset: [0, i ? 0.1 : 1, 0] })));
    const mixamo = sk(['mixamorig:Hips', 'mixamorig:Spine', 'mixamorig:Spine1', 'mixamorig:Spine2', 'mixamorig:LeftShoulder', 'mixamorig:LeftArm', 'mixamorig:LeftForeArm', 'mixamorig:LeftHand', 'mixamorig:LeftHandIndex1']);
    expect(detectNameMap(mixamo)?.name).toBe('mixamo');
    expect(classifyBones(mixamo)).toEqual(['lowerTrunk', 'middleTrunk', 'middleTrunk', 'upperTrunk', 'upperTrunk', 'upperArm', 'forearm', 'hand', 'hand']);
    const vrm = sk(['hips', 'spine', 'chest', 'upperChest', 'neck', 'head']);
    expect(detectNameMap(vrm)?.name).toBe('vrm');
    expect(classifyBones(vrm)).toEqual(['lowerTrunk', 'middleTrunk', 'upperTrunk', 'upperTrunk', 'head', 'head']);
    const rigify = sk(['DEF-spine', 'DEF-spine.001', 'DEF-spine.003', 'DEF-thigh.L', 'DEF-thigh.L.001', 'DEF-shin.L', 'DEF-foot.L']);
    expect(detectNameMap(rigify)?.name).toBe('rigify');
    expect(classifyBones(rigify)).toEqual(['lowerTrunk', 'middleTrunk', 'upperTrunk', 'thigh', 'thigh', 'shank', 'foot']);
    // the same word, two meanings: "LeftShoulder" is a clavicle for cgspeed CMU, the upper arm in the 3dsMax release
    expect(classifyBones(bvh('cmu_02_01_walk.bvh', 1).skeleton)[17]).toBe('upperTrunk');
    const max = bvh('cmu_131_01_start_walk_stop.bvh', 1).skeleton;
    expect(classifyBones(max)[max.indexOf('LeftShoulder')]).toBe('upperArm');
    // pluggable: an explicit table or a function
    expect(classifyBones(mixamo, MIXAMO_SEGMENTS)[5]).toBe('upperArm');
    expect(classifyBones(vrm, VRM_SEGMENTS)[5]).toBe('head');
    expect(classifyBones(rigify, RIGIFY_SEGMENTS)[0]).toBe('lowerTrunk');
    expect(classifyBones(vrm, (name) => (name === 'hips' ? 'thigh' : null))).toEqual(['thigh', 'thigh', 'thigh', 'thigh', 'thigh', 'thigh']);
  });
});

describe('degenerate skeletons', () => {
  it('zero-length bones (coincident joints) become spheres; nothing is NaN', () => {
    const r = bvh('cmu_02_01_walk.bvh', BVH_SCALE.cmu);
    const rd = ragdollFromSkeleton(r.skeleton);
    // Hips, Spine1 and the hands have all their children at their own head
    for (const name of ['Hips', 'Spine1', 'LeftHand', 'RightHand']) {
      const c = rd.capsules[r.skeleton.indexOf(name)];
      expect(c.length).toBe(0);
      expect(c.halfLength).toBe(0);
      expect(c.radius).toBeGreaterThan(0);
    }
    const flat = new Skeleton('flat', Array.from({ length: 6 }, (_, i) => ({ name: `b${i}`, parent: i - 1, offset: [0, 0, 0] })));
    const single = new Skeleton('single', [{ name: 'only', parent: -1, offset: [0, 0, 0] }]);
    for (const sk of [flat, single]) {
      const d = ragdollFromSkeleton(sk, { mass: 10 });
      checkModel(d.model, sk, 10, d.joints);
      expect(d.capsules.every((c) => c.radius === 1e-3)).toBe(true);
    }
  });

  it('capsule inertia equals a Monte Carlo integral over the solid capsule (1 % of the largest moment)', () => {
    let seed = 99;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const [r, h] of [[0.1, 0.3], [0.05, 0], [0.2, 0.05], [0.03, 0.5]]) {
      const n = 400000;
      let inside = 0, ixx = 0, iyy = 0;
      const ext = [r, h + r, r];
      for (let k = 0; k < n; k++) {
        const x = (2 * rand() - 1) * ext[0], y = (2 * rand() - 1) * ext[1], z = (2 * rand() - 1) * ext[2];
        const dy = Math.max(0, Math.abs(y) - h);
        if (x * x + dy * dy + z * z > r * r) continue;
        inside++;
        ixx += y * y + z * z;
        iyy += x * x + z * z;
      }
      const [perp, axis] = capsuleInertia(1, r, h);
      expect(Math.abs(ixx / inside - perp)).toBeLessThan(0.01 * Math.max(perp, axis));
      expect(Math.abs(iyy / inside - axis)).toBeLessThan(0.01 * Math.max(perp, axis));
    }
  });

  it('free fall: the ragdoll\'s centre of mass drops by g t^2 / 2 while its joints move', () => {
    const r = gltf('CesiumMan.glb');
    const { model } = ragdollFromSkeleton(r.skeleton, { mass: 70 });
    const state = new State(model);
    state.qd.fill(0.3); // spin every joint
    state.qd.fill(0, 3, 6); // no initial linear velocity of the root
    const com = () => {
      forwardKinematics(model, state, false);
      const P = state.work.pose;
      let y = 0;
      for (let i = 0; i < model.nLinks; i++) {
        const c = model.com.subarray(3 * i, 3 * i + 3);
        y += model.mass[i] * (P[12 * i + 10] + P[12 * i + 6] * c[0] + P[12 * i + 7] * c[1] + P[12 * i + 8] * c[2]);
      }
      return y / model.totalMass();
    };
    // with no initial vertical velocity of the centre of mass, it must fall as a point would
    const y0 = com();
    const dt = 1 / 240;
    let vy0 = 0;
    {
      const s0 = state.clone();
      simulate(model, state, 1e-6, 1);
      vy0 = (com() - y0) / 1e-6;
      state.copyFrom(s0);
    }
    const steps = 120;
    for (let k = 0; k < steps; k++) simulate(model, state, dt, 1);
    expect(state.firstNonFinite()).toBe(-1);
    const t = steps * dt;
    const drop = y0 + vy0 * t - com();
    expect(drop / (0.5 * 9.81 * t * t)).toBeCloseTo(1, 1);
  });
});
