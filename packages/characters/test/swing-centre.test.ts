/**
 * Swing cones centred off the rest pose (SphericalLimits.swingCentre): the range of a ball joint
 * is that of C^-1 Q, Q the joint's rotation and C the centre, the rotation by the vector
 * c0 u + c1 v about the cone axes u, v.
 *
 * 1. Brute force against an independent definition, written here with rotation matrices and no
 *    quaternion algebra of the packages: C by Rodrigues' formula, M = C^T R(Q), the swing angle
 *    theta = acos(a . M a) and axis n = a x M a / |a x M a|, the twist psi the angle about a of
 *    S^T M (S the shortest turn taking a to M a), and "inside" as
 *    theta^2 ((n.u / s1)^2 + (n.v / s2)^2) <= 1 and psi within the twist range; the excess
 *    max(0, theta - cone, t0 - psi, psi - t1), cone = 1 / sqrt((n.u / s1)^2 + (n.v / s2)^2).
 *    Random limits (twist axis, half-angles, twist range, centre) and 200 random rotations each,
 *    through the characters' sphericalExcess, JointLimits' worstLimitViolation (constraints),
 *    projectIntoLimits (the projection lands inside, and on the boundary when it moves), and the
 *    limit guard's and JointLimits' rows (a joint outside its range gets a row whose error is the
 *    definition's gap).
 * 2. The anatomical hips and shoulders of CesiumMan (shared/data/gltf): a thigh turned about the
 *    body's forward axis leaves its range at 45 degrees of abduction and 30 of adduction (AAOS),
 *    within 0.05 rad (a cone about the rest pose stops both at 37.5); its shoulders keep cones on
 *    the rest pose (see anatomical-joints.ts).
 * 3. A ragdoll hip pushed: CesiumMan's pelvis held (a kinematic link), no gravity, each thigh
 *    pushed by a 60 N m torque about the forward axis, outward and then inward, for 1.5 s at
 *    1/120 s: it stops at 45 and 30 degrees within 0.05 rad.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, ModelBuilder, State, type Model, type SphericalLimits } from '@sinew/featherstone';
import { JointLimits, World, worstLimitViolation } from '@sinew/constraints';
import { RowBuffer } from '@sinew/constraints/internals';
import { importGltf } from '../src/gltf/index.js';
import { ragdollFromSkeleton, type BodySegment } from '../src/motion/index.js';
import { projectIntoLimits, SphericalLimitGuard, sphericalExcess } from '../src/control/index.js';
import { characterFromJSON, characterToJSON } from '../src/format/index.js';

const DEG = Math.PI / 180;
type V = [number, number, number];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: ArrayLike<number>) => Math.sqrt(dot(a, a));
const unit = (a: ArrayLike<number>): V => { const n = norm(a); return [a[0] / n, a[1] / n, a[2] / n]; };
/** 3x3 row-major products. */
const mul = (A: number[], B: number[]) => Array.from({ length: 9 }, (_, k) => { const r = Math.floor(k / 3), c = k % 3; return A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c]; });
const transpose = (A: number[]) => [A[0], A[3], A[6], A[1], A[4], A[7], A[2], A[5], A[8]];
const apply = (A: number[], v: ArrayLike<number>): V => [A[0] * v[0] + A[1] * v[1] + A[2] * v[2], A[3] * v[0] + A[4] * v[1] + A[5] * v[2], A[6] * v[0] + A[7] * v[1] + A[8] * v[2]];
/** Rodrigues: the rotation by angle |r| about r. */
function rodrigues(r: ArrayLike<number>): number[] {
  const th = norm(r);
  if (th < 1e-300) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const [x, y, z] = unit(r), c = Math.cos(th), s = Math.sin(th), t = 1 - c;
  return [t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c, t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c];
}
/** The rotation matrix of the unit quaternion [x, y, z, w]. */
function matrixOf(q: ArrayLike<number>): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  return [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
}
/** The unit quaternion of the rotation vector r, and the Hamilton product a b (for drawing rotations near a centre). */
function quatOf(r: ArrayLike<number>): number[] {
  const th = norm(r);
  if (th === 0) return [0, 0, 0, 1];
  const s = Math.sin(th / 2) / th;
  return [s * r[0], s * r[1], s * r[2], Math.cos(th / 2)];
}
function hamilton(a: number[], b: number[]): number[] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
/** The cone axes as the limits build them from a (u = x - (x.a) a, or z - (z.a) a when a is along x; v = a x u). */
function coneAxes(a: V): [V, V] {
  let u: V = [1 - a[0] * a[0], -a[0] * a[1], -a[0] * a[2]];
  if (norm(u) < 1e-6) u = [-a[2] * a[0], -a[2] * a[1], 1 - a[2] * a[2]];
  u = unit(u);
  return [u, cross(a, u)];
}

interface Limits { a: V; s1: number; s2: number; t0: number; t1: number; c: [number, number] }

/** The definition: swing angle, the cone's half-angle along the swing, twist; and the excess and the gaps. */
function definition(L: Limits, q: ArrayLike<number>) {
  const [u, v] = coneAxes(L.a);
  const C = rodrigues([L.c[0] * u[0] + L.c[1] * v[0], L.c[0] * u[1] + L.c[1] * v[1], L.c[0] * u[2] + L.c[1] * v[2]]);
  const M = mul(transpose(C), matrixOf(q));
  const b = apply(M, L.a);
  const theta = Math.acos(Math.max(-1, Math.min(1, dot(L.a, b))));
  const ax = cross(L.a, b);
  const n = norm(ax) > 1e-12 ? unit(ax) : u;
  const S = rodrigues([n[0] * theta, n[1] * theta, n[2] * theta]);
  const T = mul(transpose(S), M), tu = apply(T, u);
  const psi = Math.atan2(dot(tu, v), dot(tu, u));
  const cone = 1 / Math.sqrt((dot(n, u) / L.s1) ** 2 + (dot(n, v) / L.s2) ** 2);
  return { theta, psi, cone, excess: Math.max(0, theta - cone, L.t0 - psi, psi - L.t1) };
}

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s + 0x6d2b79f5) >>> 0; let t = Math.imul(s ^ (s >>> 15), 1 | s); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}
function randomQuat(r: () => number): number[] {
  // uniform on SO(3) (Shoemake)
  const u1 = r(), u2 = 2 * Math.PI * r(), u3 = 2 * Math.PI * r();
  const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
}

function oneJoint(L: Limits): Model {
  const b = new ModelBuilder();
  b.addLink({ name: 'base', parent: null, joint: { type: 'fixed' }, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
  const limits: SphericalLimits = { twistAxis: L.a, swing: [L.s1, L.s2], twist: [L.t0, L.t1], swingCentre: L.c };
  b.addLink({ name: 'limb', parent: 'base', joint: { type: 'spherical', limits }, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
  return b.build();
}

describe('swing cones centred off the rest pose (SphericalLimits.swingCentre)', () => {
  it('brute force: inside/outside and the excess of 40 random limits x 200 random rotations as the definition computed with matrices says, through sphericalExcess, JointLimits and projectIntoLimits', () => {
    const r = random(7);
    let inside = 0, outside = 0, projected = 0, worst = 0;
    for (let l = 0; l < 40; l++) {
      const L: Limits = {
        a: unit([r() - 0.5, r() - 0.5, r() - 0.5]), s1: 0.2 + 1.2 * r(), s2: 0.2 + 1.2 * r(),
        t0: -0.2 - 1.2 * r(), t1: 0.2 + 1.2 * r(), c: [1.2 * (r() - 0.5), 1.2 * (r() - 0.5)],
      };
      const model = oneJoint(L);
      expect(model.sphericalLimits[1]!.centre).toBeDefined();
      const world = new World({ gravity: [0, 0, 0] });
      const body = world.addBody(model, { name: 'j' });
      for (let k = 0; k < 200; k++) {
        // half the rotations anywhere, half within 1.2 rad of the centre (Q = C exp(w))
        let q = randomQuat(r);
        if (k % 2 === 1) {
          const [u, v] = coneAxes(L.a);
          const qc = quatOf([L.c[0] * u[0] + L.c[1] * v[0], L.c[0] * u[1] + L.c[1] * v[1], L.c[0] * u[2] + L.c[1] * v[2]]);
          const w = unit([r() - 0.5, r() - 0.5, r() - 0.5]), t = 1.2 * r();
          q = hamilton(qc, quatOf([w[0] * t, w[1] * t, w[2] * t]));
        }
        const def = definition(L, q);
        const near = Math.abs(def.theta - def.cone) < 1e-6 || Math.abs(def.psi - L.t0) < 1e-6 || Math.abs(def.psi - L.t1) < 1e-6 || def.theta > Math.PI - 1e-3;
        if (near) continue;
        const e = sphericalExcess(model, q, 1);
        expect(e > 0).toBe(def.excess > 0);
        expect(Math.abs(e - def.excess)).toBeLessThan(1e-9);
        worst = Math.max(worst, Math.abs(e - def.excess));
        body.state.q.set(q);
        expect(Math.abs(worstLimitViolation(body).violation - def.excess)).toBeLessThan(1e-9);
        if (def.excess > 0) outside++; else inside++;
        // the projection: inside the definition's range, on its boundary when it moved
        const p = Float64Array.from(q);
        const moved = projectIntoLimits(model, p);
        const dp = definition(L, p);
        expect(dp.excess).toBeLessThan(1e-9);
        if (moved > 0) { projected++; expect(Math.min(Math.abs(dp.theta - dp.cone), Math.abs(dp.psi - L.t0), Math.abs(dp.psi - L.t1))).toBeLessThan(1e-9); }
      }
    }
    console.log(`[swing centre] 40 limits x 200 rotations: ${inside} inside, ${outside} outside (${projected} projected onto the boundary); largest difference of the excess from the definition ${worst.toExponential(1)} rad`);
    expect(inside).toBeGreaterThan(500);
    expect(outside).toBeGreaterThan(500);
  });

  it('the rows of JointLimits and of the limit guard for a joint past a centred cone carry the definition\'s gap as their error', () => {
    const r = random(11);
    let checked = 0;
    for (let l = 0; l < 20; l++) {
      const L: Limits = { a: unit([r() - 0.5, r() - 0.5, r() - 0.5]), s1: 0.3 + r(), s2: 0.3 + r(), t0: -1.5, t1: 1.5, c: [r() - 0.5, r() - 0.5] };
      const model = oneJoint(L);
      const world = new World({ gravity: [0, 0, 0] });
      const body = world.addBody(model, { name: 'j' });
      for (let k = 0; k < 20; k++) {
        const q = randomQuat(r);
        const def = definition(L, q);
        if (!(def.theta - def.cone > 0.01 && def.theta < 3) || def.psi < L.t0 || def.psi > L.t1) continue;
        body.state.q.set(q);
        forwardKinematics(model, body.state, true);
        for (const src of [new JointLimits(), new SphericalLimitGuard()]) {
          const rows = new RowBuffer(8);
          src.addRows(rows, { bodies: world.bodies, h: 1 / 60 });
          let gap = Infinity;
          for (let j = 0; j < rows.count; j++) if (Math.abs(rows.error[j] - (def.cone - def.theta)) < 1e-9) gap = rows.error[j];
          expect(gap, `${src.constructor.name}: a row with error ${def.cone - def.theta}`).toBeLessThan(0);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('the character format carries swingCentre: read into the model\'s centre, written back the same, and refused by name past pi', () => {
    const desc = (c: unknown) => ({
      format: 'sinew-character', version: 1, name: 'hip',
      links: [
        { name: 'pelvis', parent: null, joint: { type: 'free' }, mass: 10, inertia: [0.1, 0.1, 0.1, 0, 0, 0] },
        { name: 'thigh', parent: 'pelvis', joint: { type: 'spherical', limits: { twistAxis: [1, 0, 0], swing: [0.65, 0.78], twist: [-0.5, 2], swingCentre: c } }, mass: 7, inertia: [0.1, 0.02, 0.1, 0, 0, 0] },
      ],
    });
    const { model } = characterFromJSON(desc([0.13, -0.02]) as never);
    const lim = model.sphericalLimits[1]!;
    expect(lim.swingCentre).toEqual([0.13, -0.02]);
    // the centre's quaternion: the turn by sqrt(0.13^2 + 0.02^2) about 0.13 u - 0.02 v (u = +z, v = a x u = -y for a = +x)
    const th = Math.hypot(0.13, 0.02), k = Math.sin(th / 2) / th;
    const [u, v] = coneAxes([1, 0, 0]);
    for (let c = 0; c < 3; c++) expect(lim.centre![c]).toBeCloseTo(k * (0.13 * u[c] - 0.02 * v[c]), 15);
    const back = characterToJSON(model).links[1].joint.limits as { swingCentre?: number[] };
    expect(back.swingCentre).toEqual([0.13, -0.02]);
    expect(() => characterFromJSON(desc([4, 0]) as never)).toThrow(/swingCentre/);
  });

  // CesiumMan (shared/data/gltf/CesiumMan.glb): its body segments by node, as motion-anatomical.test.ts names them
  const CESIUM_MAN: Record<string, BodySegment> = {
    node_2: 'lowerTrunk', node_11: 'middleTrunk', node_12: 'upperTrunk', node_19: 'head', node_20: 'head',
    node_16: 'upperArm', node_17: 'forearm', node_18: 'hand', node_13: 'upperArm', node_14: 'forearm', node_15: 'hand',
    node_7: 'thigh', node_8: 'shank', node_9: 'foot', node_10: 'foot', node_3: 'thigh', node_4: 'shank', node_5: 'foot', node_6: 'foot',
  };
  const gltf = importGltf(new Uint8Array(readFileSync(new URL('../../../../shared/data/gltf/CesiumMan.glb', import.meta.url))), { file: 'CesiumMan.glb' });
  const rd = ragdollFromSkeleton(gltf.skeleton, { mass: 70, segments: CESIUM_MAN });
  const m = rd.model;
  const role = (r: string) => rd.joints.map((j, k) => (j?.role === r ? k : -1)).filter((k) => k >= 0);
  const child = (i: number) => gltf.skeleton.children[i][0];
  const rest = new State(m);
  forwardKinematics(m, rest, false);
  const P0 = rest.work.pose;
  const head = (P: ArrayLike<number>, i: number): V => [P[12 * i + 9], P[12 * i + 10], P[12 * i + 11]];
  const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  // the body's axes at rest: up against gravity; forward from the feet (foot head toward the toes); left = up x forward
  const up: V = [0, 1, 0];
  const fw = role('ankle').reduce<V>((acc, i) => { const t = sub(head(P0, child(i)), head(P0, i)); return [acc[0] + t[0], 0, acc[2] + t[2]]; }, [0, 0, 0]);
  const forward = unit(fw), left = cross(up, forward);
  /** q of the model with link i's joint turned about the world axis w by phi (from the rest pose, whose link frames are the joint frames). */
  const turned = (i: number, w: V, phi: number): Float64Array => {
    const q = new State(m).q, o = m.qOffset[i];
    const aj = [0, 1, 2].map((c) => P0[12 * i + c] * w[0] + P0[12 * i + 3 + c] * w[1] + P0[12 * i + 6 + c] * w[2]);
    q.set(quatOf([aj[0] * phi, aj[1] * phi, aj[2] * phi]), o);
    return q;
  };
  /** The turn (rad) about w, in the direction `sign`, at which the joint first leaves its range (scanned by 0.5 degrees, then bisected to 1e-6); pi if it never does. */
  const reach = (i: number, w: V, sign: number): number => {
    let lo = 0, hi = 0;
    for (hi = 0.5 * DEG; hi < Math.PI; hi += 0.5 * DEG) { if (sphericalExcess(m, turned(i, w, sign * hi), i) > 0) break; lo = hi; }
    if (hi >= Math.PI) return Math.PI;
    while (hi - lo > 1e-6) { const mid = 0.5 * (lo + hi); if (sphericalExcess(m, turned(i, w, sign * mid), i) === 0) lo = mid; else hi = mid; }
    return lo;
  };
  /** +1 when a turn about w by a small positive angle moves the next joint away from the body's midline (along left), else -1. */
  const outward = (i: number, w: V): number => {
    const s = new State(m);
    s.q.set(turned(i, w, 0.1));
    forwardKinematics(m, s, false);
    const k = child(i), before = dot(sub(head(P0, k), head(P0, 0)), left), after = dot(sub(head(s.work.pose, k), head(P0, 0)), left);
    return Math.abs(after) > Math.abs(before) ? 1 : -1;
  };

  it('CesiumMan\'s anatomical hips leave their range at 45 degrees of abduction and 30 of adduction, about the body\'s forward axis (within 0.05 rad)', () => {
    const hips = role('hip');
    expect(hips.length).toBe(2);
    for (const i of hips) {
      const out = outward(i, forward);
      const abduction = reach(i, forward, out), adduction = reach(i, forward, -out);
      console.log(`[swing centre] CesiumMan ${m.linkNames[i]}: abduction ${(abduction / DEG).toFixed(2)} deg, adduction ${(adduction / DEG).toFixed(2)} deg (AAOS 45, 30)`);
      expect(Math.abs(abduction - 45 * DEG)).toBeLessThan(0.05);
      expect(Math.abs(adduction - 30 * DEG)).toBeLessThan(0.05);
    }
  });

  it('CesiumMan\'s shoulders keep their cones on the rest pose (anatomical-joints.ts: only the hips are centred)', () => {
    const shoulders = role('shoulder');
    expect(shoulders.length).toBe(2);
    for (const i of shoulders) expect(m.sphericalLimits[i]!.swingCentre).toBeUndefined();
  });

  it('a ragdoll hip pushed (CesiumMan, pelvis held, no gravity, 60 N m about the forward axis for 1.5 s at 1/120 s) stops at 45 degrees of abduction and 30 of adduction (within 0.05 rad)', () => {
    for (const i of role('hip')) {
      const out = outward(i, forward);
      for (const [dir, expected] of [[out, 45], [-out, 30]] as const) {
        const world = new World({ gravity: [0, 0, 0] });
        const body = world.addBody(m, { name: 'cesium', selfCollision: false });
        body.setKinematicLinks([0]);
        const st = body.state, vo = m.vOffset[i], k = child(i);
        for (let s = 0; s < 180; s++) {
          // the torque about the world forward axis, in the link frame (the joint's force coordinates)
          forwardKinematics(m, st, false);
          const P = st.work.pose;
          for (let c = 0; c < 3; c++) st.tau[vo + c] = 60 * dir * (P[12 * i + c] * forward[0] + P[12 * i + 3 + c] * forward[1] + P[12 * i + 6 + c] * forward[2]);
          expect(world.step(1 / 120).error).toBe('');
        }
        forwardKinematics(m, st, false);
        // the thigh's turn about forward: the angle between its rest and present directions in the plane normal to forward
        const t0 = sub(head(P0, k), head(P0, i)), t1 = sub(head(st.work.pose, k), head(st.work.pose, i));
        const p0 = sub(t0, [forward[0] * dot(t0, forward), forward[1] * dot(t0, forward), forward[2] * dot(t0, forward)]);
        const p1 = sub(t1, [forward[0] * dot(t1, forward), forward[1] * dot(t1, forward), forward[2] * dot(t1, forward)]);
        const angle = Math.atan2(norm(cross(p0, p1)), dot(p0, p1));
        console.log(`[swing centre] CesiumMan ${m.linkNames[i]} pushed ${dir === out ? 'outward' : 'inward'}: stops at ${(angle / DEG).toFixed(2)} deg (AAOS ${expected})`);
        expect(Math.abs(angle - expected * DEG)).toBeLessThan(0.05);
      }
    }
  });
});
