/**
 * Random poses checked against an independent oracle (collision-helpers.ts: the exact depth and
 * normal by brute force on the Minkowski difference, signed distance functions). Shapes are placed
 * so the oracle's depth lies between a little apart and a shallow overlap, the regime where
 * contacts are used; every contact must then:
 * - have a unit normal along which the separating translation f(n) equals the oracle's minimum
 *   (the normal is an optimal push-out direction; box-box within its face preference),
 * - have depth no larger than f(n), with the deepest point matching the oracle's depth,
 * - have pointA on A's surface and pointB on B's surface (signed distances ~ 0).
 * Against a triangle mesh of a box, the deepest contact must match the solid box; other triangles'
 * contacts may carry their own face normals but never claim more overlap than the solid has.
 */
import { describe, expect, it } from 'vitest';
import type { ShapeDesc } from '@sinew/featherstone';
import { CollisionWorld } from '../src/collision/index.js';
import { FACE_ON_EDGE_COS } from '../src/collision/box-box.js';
import {
  type OracleShape, type V3, add, dot, exactDepth, makePose, mulberry32, norm, oracleBox, oracleCapsule, oracleSphere,
  cubeMesh, quatOfMatrix, randomRotation, randomUnit, readContacts, collideAtRandom, roughDepth, scale, separationAlong, signedDistance, sub, support,
} from './collision-helpers.js';

type Kind = 'sphere' | 'capsule' | 'box';
const MARGIN = 0.01;

interface Sized {
  kind: Kind;
  desc: ShapeDesc;
  oracle: (pose: Float64Array) => OracleShape;
  radius: number; // bounding radius
}

/**
 * A contact point lies on the shape's surface. The one exception is a capsule lying along the other
 * surface (a manifold of two points): its points are the points of the end cross-sections nearest
 * the other shape, inside the capsule by at most r (1 - cos theta), theta the tilt of its axis from
 * the contact plane (sin theta = |axis . n|).
 */
function expectOnSurface(s: OracleShape, p: V3, n: V3, manyPoints: boolean, ctx: string): void {
  const d = signedDistance(s, p);
  if (s.kind === 'capsule' && manyPoints) {
    const axis = sub(s.p1, s.p0);
    const sin = Math.abs(dot(axis, n)) / norm(axis);
    expect(d, ctx).toBeLessThan(1e-7);
    expect(d, ctx).toBeGreaterThan(-s.r * (1 - Math.sqrt(1 - sin * sin)) - 1e-7);
  } else {
    expect(Math.abs(d), ctx).toBeLessThan(1e-7);
  }
}

function randomShape(kind: Kind, rand: () => number): Sized {
  if (kind === 'sphere') {
    const r = 0.05 + 0.25 * rand();
    return { kind, desc: { geometry: { type: 'sphere', radius: r } }, oracle: (p) => oracleSphere(p, r), radius: r };
  }
  if (kind === 'capsule') {
    const r = 0.04 + 0.12 * rand(), h = 0.05 + 0.3 * rand();
    return { kind, desc: { geometry: { type: 'capsule', radius: r, halfLength: h } }, oracle: (p) => oracleCapsule(p, r, h), radius: r + h };
  }
  const h: V3 = [0.05 + 0.3 * rand(), 0.05 + 0.3 * rand(), 0.05 + 0.3 * rand()];
  return { kind, desc: { geometry: { type: 'box', halfExtents: h } }, oracle: (p) => oracleBox(p, h), radius: norm(h) };
}

function checkPair(ka: Kind, kb: Kind, seed: number, cases: number) {
  const rand = mulberry32(seed);
  let checked = 0, worstDepth = 0, worstNormal = 0;
  for (let c = 0; c < cases; c++) {
    const A = randomShape(ka, rand), B = randomShape(kb, rand);
    const { oA, oB, truth, contacts } = collideAtRandom(A, B, rand, (r) => -0.008 + 0.06 * r(), MARGIN);
    const ctx = `${ka}-${kb} case ${c}: oracle depth ${truth.depth}`;

    if (truth.depth < -MARGIN - 1e-6) {
      // Apart by more than the margin: only box-box may report (its separating axes bound the distance from below).
      if (!(ka === 'box' && kb === 'box')) expect(contacts, ctx).toHaveLength(0);
      continue;
    }
    if (truth.depth < -MARGIN + 1e-6) continue; // too close to the margin to call
    expect(contacts.length, ctx).toBeGreaterThan(0);
    expect(contacts.length, ctx).toBeLessThanOrEqual(4);
    let maxDepth = -Infinity;
    for (const k of contacts) {
      expect(k.shapeA, ctx).toBe(0);
      expect(k.shapeB, ctx).toBe(1);
      expect(Math.abs(norm(k.normal) - 1), ctx).toBeLessThan(1e-12);
      const fn = separationAlong(oA, oB, k.normal);
      // The normal is (near) optimal: box-box prefers face axes within a few percent.
      const slack = ka === 'box' && kb === 'box' ? 0.06 * Math.abs(truth.depth) + 2e-5 : 1e-6;
      expect(fn - truth.depth, ctx).toBeGreaterThan(-1e-6);
      // ... or the normal of a face resting on an edge, within 0.1 rad of the least-overlap axis
      // (box-box.ts FACE_ON_EDGE_COS): the overlap along it counts the shapes' far corners, which
      // the face's clipped points leave out (their depth is checked against the truth below)
      if (!(fn - truth.depth < slack)) expect(dot(k.normal, truth.normal), `${ctx}: neither the least-overlap axis nor within 0.1 rad of it`).toBeGreaterThan(FACE_ON_EDGE_COS);
      worstNormal = Math.max(worstNormal, fn - truth.depth);
      expect(k.depth, ctx).toBeLessThanOrEqual(fn + 1e-9);
      expectOnSurface(oA, k.pointA, k.normal, contacts.length > 1, `${ctx} pointA on A`);
      expectOnSurface(oB, k.pointB, k.normal, contacts.length > 1, `${ctx} pointB on B`);
      maxDepth = Math.max(maxDepth, k.depth);
    }
    const tolerance = ka === 'box' && kb === 'box' ? 0.06 * Math.abs(truth.depth) + 2e-5 : 1e-6;
    expect(Math.abs(maxDepth - truth.depth), ctx).toBeLessThan(tolerance);
    worstDepth = Math.max(worstDepth, Math.abs(maxDepth - truth.depth));
    checked++;
  }
  return { checked, worstDepth, worstNormal };
}

describe('narrow phase against the support-function oracle', () => {
  const kinds: Kind[] = ['sphere', 'capsule', 'box'];
  let seed = 1;
  for (const ka of kinds) {
    for (const kb of kinds) {
      const s = seed++;
      it(`${ka} against ${kb}: depth, normal and surface points`, () => {
        const r = checkPair(ka, kb, 1000 + s, 30);
        expect(r.checked).toBeGreaterThan(15);
      });
    }
  }
});

describe('against a static plane', () => {
  for (const kind of ['sphere', 'capsule', 'box'] as Kind[]) {
    it(`${kind}: depth = -(lowest point), every contact within the margin, normal +Y`, () => {
      const rand = mulberry32(77 + kind.length);
      for (let c = 0; c < 40; c++) {
        const A = randomShape(kind, rand);
        const R = randomRotation(rand);
        const probe = A.oracle(makePose(R, [0, 0, 0]));
        const lowest = -support(probe, [0, -1, 0]);
        const height = -lowest - 0.01 + 0.05 * rand();
        const pose = makePose(R, [rand(), height, rand()]);
        const oA = A.oracle(pose);
        const world = new CollisionWorld({ margin: MARGIN });
        world.setBody(0, 1);
        world.addDynamicShape(0, 0, A.desc);
        world.addStaticShape({ geometry: { type: 'plane' } });
        world.detect([pose]);
        const contacts = readContacts(world.contacts);
        const depth = support(oA, [0, -1, 0]); // -(min y)
        if (depth < -MARGIN) {
          expect(contacts).toHaveLength(0);
          continue;
        }
        expect(contacts.length).toBeGreaterThan(0);
        expect(Math.max(...contacts.map((k) => k.depth))).toBeCloseTo(depth, 12);
        for (const k of contacts) {
          expect(k.normal).toEqual([0, 1, 0]);
          expect(Math.abs(signedDistance(oA, k.pointA))).toBeLessThan(1e-9);
          expect(k.pointB[1]).toBeCloseTo(0, 12);
          expect(k.depth).toBeCloseTo(-k.pointA[1], 12);
          expect(k.depth).toBeGreaterThanOrEqual(-MARGIN);
        }
      }
    });
  }
});

describe('against a static triangle mesh of a box', () => {
  for (const kind of ['sphere', 'capsule', 'box'] as Kind[]) {
    it(`${kind}: the deepest contact matches the oracle for the solid box, points on both surfaces`, () => {
      const rand = mulberry32(500 + kind.length);
      const h: V3 = [0.4, 0.3, 0.5];
      const meshPose = makePose(randomRotation(rand), [0.2, 0.5, -0.1]);
      const oB = oracleBox(meshPose, h);
      let checked = 0;
      for (let c = 0; c < 40; c++) {
        const A = randomShape(kind, rand);
        const RA = randomRotation(rand);
        const dir = randomUnit(rand);
        const center: V3 = [0.2, 0.5, -0.1];
        const poseAt = (t: number) => makePose(RA, add(center, scale(dir, t)));
        // A moves out from the mesh centre along dir.
        let lo = 0, hi = 2;
        const target = -0.005 + 0.04 * rand();
        for (let i = 0; i < 18; i++) {
          const mid = 0.5 * (lo + hi);
          if (roughDepth(A.oracle(poseAt(mid)), oB) > target) lo = mid;
          else hi = mid;
        }
        const poseA = poseAt(0.5 * (lo + hi));
        const oA = A.oracle(poseA);
        const truth = exactDepth(oA, oB);
        const world = new CollisionWorld({ margin: MARGIN });
        world.setBody(0, 1);
        world.addDynamicShape(0, 0, A.desc);
        const [qx, qy, qz, qw] = quatOfMatrix(meshPose);
        world.addStaticShape({ geometry: { type: 'trimesh', ...cubeMesh(h) }, position: [meshPose[9], meshPose[10], meshPose[11]], rotation: [qx, qy, qz, qw] });
        world.detect([poseA]);
        const contacts = readContacts(world.contacts);
        const ctx = `${kind} case ${c}: oracle depth ${truth.depth}`;
        if (truth.depth < -MARGIN + 1e-6) continue;
        expect(contacts.length, ctx).toBeGreaterThan(0);
        expect(contacts.length, ctx).toBeLessThanOrEqual(4);
        const slack = kind === 'box' ? 0.12 * Math.abs(truth.depth) + 2e-5 : 1e-6;
        const deepest = contacts.reduce((p, q) => (q.depth > p.depth ? q : p));
        expect(Math.abs(deepest.depth - truth.depth), ctx).toBeLessThan(slack);
        expect(separationAlong(oA, oB, deepest.normal) - truth.depth, ctx).toBeLessThan(slack);
        for (const k of contacts) {
          // Other triangles' contacts may carry their own face normals (a box across an edge
          // touches two faces), but none claims more overlap than the solid has along its normal.
          expect(k.depth, ctx).toBeLessThanOrEqual(separationAlong(oA, oB, k.normal) + 1e-9);
          expectOnSurface(oA, k.pointA, k.normal, contacts.length > 1, `${ctx} pointA on A`);
          expectOnSurface(oB, k.pointB, k.normal, contacts.length > 1, `${ctx} pointB on B`);
          expect(k.subShape, ctx).toBeGreaterThanOrEqual(0);
        }
        checked++;
      }
      expect(checked).toBeGreaterThan(20);
    });
  }
});

