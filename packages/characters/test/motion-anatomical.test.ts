/**
 * Anatomical joints for ragdolls from glTF skins (motion/anatomical-joints.ts, ragdollFromSkeleton's
 * default `joints: 'anatomical'`), on CesiumMan, RobotExpressive and Fox (shared/data/gltf; licences
 * in shared/data/SOURCES.md).
 *
 * Structure, checked by forward kinematics against geometry the test computes from the bone
 * heads itself: knees and elbows are hinges that straighten the limb at their lower stop and bend it
 * by the AAOS maximum (135 and 150 degrees) at their upper one, whatever the skin's rest bend; hips
 * flex the thigh 120 degrees forward and extend it 30 backward at their twist stops; the spine's
 * joints share the thoracolumbar range (flexion 80, extension 25 degrees in all).
 *
 * A fall: each character stands 5 cm above the floor in its rest pose, tipping over (1.5 rad/s),
 * and is simulated at 1/120 s until it sleeps (at most 10 s). At rest every joint is within its
 * range, every knee and elbow is bent between straight and its maximum and in its hinge's plane
 * (the angle of the distal bone out of the plane normal to the hinge axis, the axis carried by the
 * proximal bone), and no two links interpenetrate (self contacts over the last second). The same
 * fall of the ragdoll made with `joints: 'ball'` and one cone at every joint (55 degrees, +-30 of
 * twist, as the examples page had it) ends with knees or elbows bent 10 degrees and more out of
 * their plane: the rubbery C shapes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, JointType, kineticEnergy, State, type Model } from '@sinew/featherstone';
import { World } from '@sinew/constraints';
import { CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_DEPTH, CONTACT_F64_STRIDE, CONTACT_I32_STRIDE } from '@sinew/constraints/internals';
import { importGltf } from '../src/gltf/index.js';
import { ragdollFromSkeleton, type BodySegment, type Ragdoll, type Skeleton } from '../src/motion/index.js';
import { excludeOverlappingLinkPairs, jointLimitExcess } from '../src/control/index.js';

const DEG = Math.PI / 180;
/** CesiumMan's nodes have no names: its body segments by node (as the examples page names them). */
const CESIUM_MAN_SEGMENTS: Record<string, BodySegment> = {
  node_2: 'lowerTrunk', node_11: 'middleTrunk', node_12: 'upperTrunk', node_19: 'head', node_20: 'head',
  node_16: 'upperArm', node_17: 'forearm', node_18: 'hand', node_13: 'upperArm', node_14: 'forearm', node_15: 'hand',
  node_7: 'thigh', node_8: 'shank', node_9: 'foot', node_10: 'foot', node_3: 'thigh', node_4: 'shank', node_5: 'foot', node_6: 'foot',
};
interface Character { file: string; mass: number; scale?: number; segments?: Record<string, BodySegment> }
const CHARACTERS: Character[] = [
  { file: 'CesiumMan.glb', mass: 70, segments: CESIUM_MAN_SEGMENTS },
  { file: 'RobotExpressive.glb', mass: 70 },
  // the Fox is modelled in centimetres
  { file: 'Fox.glb', mass: 12, scale: 0.01 },
];
const load = (c: Character) => importGltf(new Uint8Array(readFileSync(new URL(`../../../../shared/data/gltf/${c.file}`, import.meta.url))), { file: c.file, ...(c.scale ? { scale: c.scale } : {}) });

type V = number[];
const sub = (a: V, b: V) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);
const unit = (a: V) => a.map((x) => x / norm(a));
const angle = (a: V, b: V) => Math.atan2(norm(cross(a, b)), dot(a, b));

/** World position of each link origin (= bone head) of a model state. */
function heads(model: Model, s: State): V[] {
  forwardKinematics(model, s, false);
  const P = s.work.pose;
  return Array.from({ length: model.nLinks }, (_, i) => [P[12 * i + 9], P[12 * i + 10], P[12 * i + 11]]);
}

/** The only child of bone i, else -1 (the next bone of a limb chain). */
function next(skeleton: Skeleton, i: number): number {
  const kids = skeleton.children[i];
  return kids.length === 1 ? kids[0] : -1;
}

/** World direction of link i's bone: its capsule's axis (head toward tip: the mean of its children's heads, or toward its vertices for a leaf). */
function boneDir(rd: Ragdoll, s: State, i: number): V {
  const P = s.work.pose, o = 12 * i, a = rd.capsules[i].axis;
  return [0, 1, 2].map((row) => P[o + 3 * row] * a[0] + P[o + 3 * row + 1] * a[1] + P[o + 3 * row + 2] * a[2]);
}

describe('anatomical joints of ragdolls from glTF skins', () => {
  for (const c of CHARACTERS) {
    it(`${c.file}: knees and elbows are hinges from straight to 135 / 150 degrees of bend, by forward kinematics`, () => {
      const r = load(c);
      const rd = ragdollFromSkeleton(r.skeleton, { mass: c.mass, ...(c.segments ? { segments: c.segments } : {}) });
      const m = rd.model;
      const hinges = rd.joints.map((j, i) => (j?.type === 'revolute' ? i : -1)).filter((i) => i >= 0);
      // both knees and both elbows (the Fox's hind knees and front elbows)
      expect(hinges.filter((i) => rd.joints[i]!.role === 'knee').length).toBe(2);
      expect(hinges.filter((i) => rd.joints[i]!.role === 'elbow').length).toBe(2);
      const report: string[] = [];
      for (const i of hinges) {
        expect(m.jointType[i]).toBe(JointType.revolute);
        const p = m.parent[i];
        const max = rd.joints[i]!.role === 'knee' ? 135 : 150;
        const bendAt = (q: number) => {
          const s = new State(m);
          s.q[m.qOffset[i]] = q;
          forwardKinematics(m, s, false);
          // the bend: angle between the proximal and the distal bone
          return angle(boneDir(rd, s, p), boneDir(rd, s, i));
        };
        const d = m.vOffset[i];
        const rest = bendAt(0), lo = bendAt(m.lower[d]), hi = bendAt(m.upper[d]);
        report.push(`${m.linkNames[i]} (${rd.joints[i]!.role}) rest ${(rest / DEG).toFixed(1)}, stops ${(lo / DEG).toFixed(1)} and ${(hi / DEG).toFixed(1)} deg`);
        // a limb bent less than 10 degrees at rest counts as straight: its lower stop is the rest pose
        if (rest > 10 * DEG) {
          expect(lo / DEG).toBeLessThan(0.5);
          expect(Math.abs(hi / DEG - max)).toBeLessThan(0.5);
        } else {
          expect(lo).toBeCloseTo(rest, 9);
          expect(Math.abs(hi / DEG - max)).toBeLessThan(rest / DEG + 0.5);
        }
        // the range is the rest bend's complement: rest at q = 0 lies inside it
        expect(m.lower[d]).toBeLessThanOrEqual(0);
        expect(m.upper[d]).toBeGreaterThan(0);
      }
      console.log(`${c.file}: ${report.join('; ')}`);
    });
  }

  it('hips flex the thigh 120 degrees forward and extend it 30 backward at their twist stops (CesiumMan and Fox, forward from the feet)', () => {
    for (const c of [CHARACTERS[0], CHARACTERS[2]]) {
      const r = load(c);
      const rd = ragdollFromSkeleton(r.skeleton, { mass: c.mass, ...(c.segments ? { segments: c.segments } : {}) });
      const m = rd.model, s0 = new State(m), h0 = heads(m, s0);
      // forward: the feet's horizontal direction (foot head to toe head), from the rest pose
      const feet = rd.joints.map((j, i) => (j?.role === 'ankle' ? i : -1)).filter((i) => i >= 0);
      const f = unit(feet.reduce((acc, i) => { const t = sub(h0[next(r.skeleton, i)], h0[i]); return [acc[0] + t[0], 0, acc[2] + t[2]]; }, [0, 0, 0]));
      for (const i of rd.joints.map((j, k) => (j?.role === 'hip' ? k : -1)).filter((k) => k >= 0)) {
        const L = m.sphericalLimits[i]!, a = L.twistAxis, k = next(r.skeleton, i);
        const flexion = (psi: number) => {
          const s = new State(m), o = m.qOffset[i];
          s.q.set([a[0] * Math.sin(psi / 2), a[1] * Math.sin(psi / 2), a[2] * Math.sin(psi / 2), Math.cos(psi / 2)], o);
          const h = heads(m, s), t = sub(h[k], h[i]);
          // signed angle of the thigh from straight down, forward positive
          return Math.atan2(dot(t, f), -t[1]);
        };
        expect(flexion(L.twist[1]) / DEG).toBeCloseTo(120, 0);
        expect(flexion(L.twist[0]) / DEG).toBeCloseTo(-30, 0);
      }
    }
  });

  it('the spine\'s joints share the bend: their flexion and extension stops add up to the thoracolumbar 80 and 25 degrees (CesiumMan, Fox)', () => {
    for (const c of [CHARACTERS[0], CHARACTERS[2]]) {
      const rd = ragdollFromSkeleton(load(c).skeleton, { mass: c.mass, ...(c.segments ? { segments: c.segments } : {}) });
      const spine = rd.joints.map((j, i) => (j?.role === 'spine' ? i : -1)).filter((i) => i >= 0);
      expect(spine.length).toBeGreaterThanOrEqual(2);
      const lims = spine.map((i) => rd.model.sphericalLimits[i]!);
      expect(lims.reduce((s, l) => s + l.twist[1], 0) / DEG).toBeCloseTo(80, 9);
      expect(lims.reduce((s, l) => s - l.twist[0], 0) / DEG).toBeCloseTo(25, 9);
      // equal shares
      for (const l of lims) expect(l.twist[1]).toBeCloseTo(lims[0].twist[1], 12);
    }
  });

  /** The fall (module comment): measures at rest. */
  async function fall(c: Character, mode: 'anatomical' | 'ball') {
    const r = load(c);
    const rd: Ragdoll = ragdollFromSkeleton(r.skeleton, {
      mass: c.mass, friction: 0.8, joints: mode, ...(c.segments ? { segments: c.segments } : {}),
      ...(mode === 'ball' ? { limits: (_b: unknown, _s: unknown, axis: [number, number, number]) => ({ twistAxis: axis, swing: 0.95, twist: [-0.5, 0.5] as [number, number] }) } : {}),
    });
    const plan = mode === 'anatomical' ? rd.joints : ragdollFromSkeleton(r.skeleton, { mass: c.mass, ...(c.segments ? { segments: c.segments } : {}) }).joints;
    const m = rd.model;
    const world = new World({ solver: { maxIterations: 100 } });
    world.addStatic({ geometry: { type: 'plane' } });
    const body = world.addBody(m, { name: c.file });
    const excluded = excludeOverlappingLinkPairs(world, body);
    const st = body.state;
    const lowest = Math.min(...heads(m, new State(m)).map((h) => h[1]));
    st.q[1] += 0.05 - lowest;
    forwardKinematics(m, st, true);
    // tipping over: 1.5 rad/s about the world z axis (free root qd: angular velocity in the link frame)
    const P = st.work.pose;
    for (let k = 0; k < 3; k++) st.qd[k] = P[6 + k] * 1.5;
    const h = 1 / 120;
    let steps = 0, deepest = 0, worstOnTheWay = 0;
    while (!body.sleeping && steps < 10 / h) {
      // let the test runner's worker answer now and then (a long synchronous test times its RPC out on a loaded machine)
      if (steps % 60 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const res = world.step(h);
      expect(res.error).toBe('');
      steps++;
      worstOnTheWay = Math.max(worstOnTheWay, ...Object.values(jointLimitExcess(m, st.q)));
      const C = world.collision.contacts;
      for (let k = 0; k < C.count; k++) {
        const io = k * CONTACT_I32_STRIDE;
        if (C.i32[io + CONTACT_BODY_A] === body.index && C.i32[io + CONTACT_BODY_B] === body.index) deepest = Math.max(deepest, C.f64[k * CONTACT_F64_STRIDE + CONTACT_DEPTH]);
      }
      if (kineticEnergy(m, st) > 1) deepest = 0; // self contacts while at (or near) rest only
    }
    for (const x of st.q) expect(Number.isFinite(x)).toBe(true);
    // knees and elbows: bend (signed about the hinge axis carried by the proximal bone) and angle out of the hinge's plane
    const Pw = st.work.pose;
    const hinges: { name: string; role: string; bend: number; outOfPlane: number }[] = [];
    plan.forEach((j, i) => {
      if (j?.type !== 'revolute') return;
      const p = m.parent[i], b = r.skeleton.bones[i];
      // the axis in the parent's frame: the joint frame's rotation (the bone's rest rotation) applied to it
      const [x, y, z, w] = b.rotation, v = j.axis;
      const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
      const ap = [v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]), v[2] + w * t[2] + (x * t[1] - y * t[0])];
      const o = 12 * p, aw = [0, 1, 2].map((row) => Pw[o + 3 * row] * ap[0] + Pw[o + 3 * row + 1] * ap[1] + Pw[o + 3 * row + 2] * ap[2]);
      const pd = boneDir(rd, st, p), d = boneDir(rd, st, i);
      hinges.push({ name: m.linkNames[i], role: j.role, bend: Math.atan2(dot(cross(pd, d), aw), dot(pd, d)), outOfPlane: Math.asin(Math.abs(dot(unit(d), aw))) });
    });
    return {
      seconds: steps * h, asleep: body.sleeping, restLimit: Math.max(0, ...Object.values(jointLimitExcess(m, st.q))), worstOnTheWay, deepest, hinges, excluded: excluded.length,
    };
  }

  for (const c of CHARACTERS) {
    it(`${c.file} at rest after a fall: every joint within its range, knees and elbows bent within their hinge's plane and range, no link through another`, async () => {
      const a = await fall(c, 'anatomical');
      const b = await fall(c, 'ball');
      const show = (x: Awaited<ReturnType<typeof fall>>) => `${x.asleep ? 'asleep' : 'awake'} after ${x.seconds.toFixed(2)} s, limits ${(x.restLimit / DEG).toFixed(3)} deg past at rest (${(x.worstOnTheWay / DEG).toFixed(2)} on the way), ` +
        `deepest self contact at rest ${(x.deepest * 1000).toFixed(1)} mm, ${x.excluded} pairs excluded; ` + x.hinges.map((hg) => `${hg.name} ${hg.role} ${(hg.bend / DEG).toFixed(0)} deg, ${(hg.outOfPlane / DEG).toFixed(1)} out of plane`).join(', ');
      console.log(`${c.file}\n  anatomical: ${show(a)}\n  one cone at every ball joint: ${show(b)}`);
      expect(a.asleep).toBe(true);
      expect(a.restLimit / DEG).toBeLessThan(1);
      for (const hg of a.hinges) {
        expect(hg.outOfPlane / DEG).toBeLessThan(1);
        expect(hg.bend / DEG).toBeGreaterThan(-1);
        expect(hg.bend / DEG).toBeLessThan((hg.role === 'knee' ? 135 : 150) + 1);
      }
      expect(a.excluded).toBe(0);
      expect(a.deepest).toBeLessThan(0.005);
      // the ball-joint ragdoll bends a knee or an elbow sideways
      expect(Math.max(...b.hinges.map((hg) => hg.outOfPlane)) / DEG).toBeGreaterThan(10);
    });
  }
});
