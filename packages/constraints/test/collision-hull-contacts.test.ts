/**
 * Convex hull contacts against independent answers:
 * - random poses of hulls against spheres, capsules, boxes and hulls, checked against the
 *   brute-force oracle of collision-helpers.ts (exact depth and optimal normal on the Minkowski
 *   difference, points on the surfaces), as the primitive pairs are in collision-oracle.test.ts;
 * - a hull made of a box's corners gives the contacts of the box itself (box-box, box-plane);
 * - a box-shaped hull on an incline sticks or slides with a = g (sin theta - mu cos theta) on four
 *   points, and a tetrahedron dropped on a triangle-mesh floor and on a heightfield comes to rest
 *   on a face, three points, within 5 mm.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardKinematics, kineticEnergy, type Model, type ShapeDesc } from '@sinew/featherstone';
import { CollisionWorld } from '../src/collision/index.js';
import { FACE_ON_EDGE_COS } from '../src/collision/box-box.js';
import { World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';
import {
  type OracleShape, type V3, add, dot, makePose, mulberry32, norm, oracleBox, oracleCapsule, oracleHull, oracleSphere,
  quatOfMatrix, randomRotation, randomUnit, readContacts, collideAtRandom, placeAt, scale, separationAlong, signedDistance, sortPoints,
} from './collision-helpers.js';

type Kind = 'sphere' | 'capsule' | 'box' | 'hull';
const MARGIN = 0.01;

interface Sized { kind: Kind; desc: ShapeDesc; oracle: (pose: Float64Array) => OracleShape; radius: number }

/** 8 to 12 random points on a random ellipsoid (all on the hull), or a primitive. */
function randomShape(kind: Kind, rand: () => number): Sized {
  if (kind === 'sphere') {
    const r = 0.05 + 0.2 * rand();
    return { kind, desc: { geometry: { type: 'sphere', radius: r } }, oracle: (p) => oracleSphere(p, r), radius: r };
  }
  if (kind === 'capsule') {
    const r = 0.04 + 0.1 * rand(), h = 0.05 + 0.25 * rand();
    return { kind, desc: { geometry: { type: 'capsule', radius: r, halfLength: h } }, oracle: (p) => oracleCapsule(p, r, h), radius: r + h };
  }
  if (kind === 'box') {
    const h: V3 = [0.05 + 0.25 * rand(), 0.05 + 0.25 * rand(), 0.05 + 0.25 * rand()];
    return { kind, desc: { geometry: { type: 'box', halfExtents: h } }, oracle: (p) => oracleBox(p, h), radius: norm(h) };
  }
  const ax: V3 = [0.08 + 0.2 * rand(), 0.08 + 0.2 * rand(), 0.08 + 0.2 * rand()];
  const n = 8 + Math.floor(5 * rand());
  const points: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = randomUnit(rand);
    points.push(u[0] * ax[0], u[1] * ax[1], u[2] * ax[2]);
  }
  return { kind, desc: { geometry: { type: 'convex', points } }, oracle: (p) => oracleHull(p, points), radius: Math.max(...ax) };
}

function checkPair(ka: Kind, kb: Kind, seed: number, cases: number): number {
  const rand = mulberry32(seed);
  let checked = 0;
  // hull-hull and hull-box prefer face axes within a few percent, as box-box does; their separating
  // axes only bound the distance from below, so they may report pairs a little beyond the margin
  const polytopes = (ka === 'hull' || ka === 'box') && (kb === 'hull' || kb === 'box');
  for (let c = 0; c < cases; c++) {
    const A = randomShape(ka, rand), B = randomShape(kb, rand);
    const { oA, oB, truth, contacts } = collideAtRandom(A, B, rand, (r) => -0.008 + 0.05 * r(), MARGIN);
    const ctx = `${ka}-${kb} case ${c}: oracle depth ${truth.depth}`;
    if (truth.depth < -MARGIN - 1e-6) {
      if (!polytopes) expect(contacts, ctx).toHaveLength(0);
      continue;
    }
    if (truth.depth < -MARGIN + 1e-6) continue;
    expect(contacts.length, ctx).toBeGreaterThan(0);
    expect(contacts.length, ctx).toBeLessThanOrEqual(4);
    const slack = 0.06 * Math.abs(truth.depth) + 2e-5;
    let maxDepth = -Infinity;
    for (const k of contacts) {
      expect(Math.abs(norm(k.normal) - 1), ctx).toBeLessThan(1e-12);
      const fn = separationAlong(oA, oB, k.normal);
      expect(fn - truth.depth, ctx).toBeGreaterThan(-1e-6);
      // ... or the normal of a face resting on an edge, within 0.1 rad of the least-overlap axis
      // (box-box.ts FACE_ON_EDGE_COS): the overlap along it counts the shapes' far corners, which
      // the face's clipped points leave out (their depth is checked against the truth below)
      if (!(fn - truth.depth < slack)) expect(dot(k.normal, truth.normal), `${ctx}: neither the least-overlap axis nor within 0.1 rad of it`).toBeGreaterThan(FACE_ON_EDGE_COS);
      expect(k.depth, ctx).toBeLessThanOrEqual(fn + 1e-9);
      // points on the surfaces (a capsule lying along a face: its end sections, inside by r (1 - cos tilt))
      const onA = signedDistance(oA, k.pointA), onB = signedDistance(oB, k.pointB);
      if (ka === 'capsule' && contacts.length > 1) expect(onA, ctx).toBeLessThan(1e-7);
      else expect(Math.abs(onA), ctx).toBeLessThan(1e-7);
      if (kb === 'capsule' && contacts.length > 1) expect(onB, ctx).toBeLessThan(1e-7);
      else expect(Math.abs(onB), ctx).toBeLessThan(1e-7);
      maxDepth = Math.max(maxDepth, k.depth);
    }
    expect(Math.abs(maxDepth - truth.depth), ctx).toBeLessThan(slack);
    checked++;
  }
  return checked;
}

describe('convex hulls against the brute-force oracle', () => {
  const pairs: [Kind, Kind][] = [['hull', 'hull'], ['sphere', 'hull'], ['hull', 'sphere'], ['capsule', 'hull'], ['hull', 'capsule'], ['box', 'hull'], ['hull', 'box']];
  pairs.forEach(([ka, kb], i) => {
    it(`${ka} against ${kb}: depth, normal and surface points on random poses`, () => {
      expect(checkPair(ka, kb, 5000 + i, 25)).toBeGreaterThan(12);
    });
  });
});

const boxCorners = (h: V3) => {
  const pts: number[] = [];
  for (let i = 0; i < 8; i++) pts.push(i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]);
  return pts;
};

describe('a hull of a box is that box', () => {
  it('against a box: the same points, normal and depths as box-box on 40 random poses', () => {
    const rand = mulberry32(77);
    let compared = 0;
    for (let c = 0; c < 40; c++) {
      const h: V3 = [0.05 + 0.2 * rand(), 0.05 + 0.2 * rand(), 0.05 + 0.2 * rand()];
      const hb: V3 = [0.05 + 0.2 * rand(), 0.05 + 0.2 * rand(), 0.05 + 0.2 * rand()];
      const poseA = makePose(randomRotation(rand), [0, 1, 0]);
      const dir = randomUnit(rand), RB = randomRotation(rand);
      const oA = oracleBox(poseA, h);
      const t = placeAt(oA, (s) => oracleBox(makePose(RB, add([0, 1, 0], scale(dir, s))), hb), 1, 0.02 * rand());
      const poseB = makePose(RB, add([0, 1, 0], scale(dir, t)));
      const run = (descA: ShapeDesc) => {
        const w = new CollisionWorld({ margin: MARGIN });
        w.setBody(0, 1); w.setBody(1, 1);
        w.addDynamicShape(0, 0, descA);
        w.addDynamicShape(1, 0, { geometry: { type: 'box', halfExtents: hb } });
        w.detect([poseA, poseB]);
        return sortPoints(readContacts(w.contacts));
      };
      const viaBox = run({ geometry: { type: 'box', halfExtents: h } });
      const viaHull = run({ geometry: { type: 'convex', points: boxCorners(h) } });
      expect(viaHull.length, `case ${c}`).toBe(viaBox.length);
      for (let k = 0; k < viaBox.length; k++) {
        expect(norm(add(viaHull[k].normal, scale(viaBox[k].normal, -1))), `case ${c}`).toBeLessThan(1e-9);
        expect(Math.abs(viaHull[k].depth - viaBox[k].depth), `case ${c}`).toBeLessThan(1e-9);
        expect(norm(add(viaHull[k].pointA, scale(viaBox[k].pointA, -1))), `case ${c}`).toBeLessThan(1e-9);
      }
      if (viaBox.length > 0) compared++;
    }
    expect(compared).toBeGreaterThan(25);
  });

  it('on a plane: the four lowest corners, as box-plane gives them', () => {
    const rand = mulberry32(5);
    for (let c = 0; c < 20; c++) {
      const h: V3 = [0.1, 0.05, 0.2];
      const R = randomRotation(rand);
      const pose = makePose(R, [0, 0.05 + 0.1 * rand(), 0]);
      const run = (desc: ShapeDesc) => {
        const w = new CollisionWorld({ margin: 0.3 });
        w.setBody(0, 1);
        w.addDynamicShape(0, 0, desc);
        w.addStaticShape({ geometry: { type: 'plane' } });
        w.detect([pose]);
        return sortPoints(readContacts(w.contacts));
      };
      const a = run({ geometry: { type: 'box', halfExtents: h } }), b = run({ geometry: { type: 'convex', points: boxCorners(h) } });
      expect(b.length).toBe(a.length);
      for (let k = 0; k < a.length; k++) {
        expect(Math.abs(a[k].depth - b[k].depth)).toBeLessThan(1e-12);
        expect(norm(add(a[k].pointA, scale(b[k].pointA, -1)))).toBeLessThan(1e-12);
      }
    }
  });
});

function hullBody(points: number[], m: number, inertia: number[], mu: number): Model {
  const b = new ModelBuilder();
  b.addLink({ name: 'hull', parent: null, joint: { type: 'free' }, mass: m, inertia, shapes: [{ geometry: { type: 'convex', points }, friction: mu }] });
  return b.build();
}

describe('hulls in the World', () => {
  for (const [mu, deg] of [[0.5, 20], [0.5, 40], [0.2, 25]] as const) {
    const th = (deg * Math.PI) / 180;
    const slides = Math.tan(th) > mu;
    it(`a box-shaped hull on an incline, mu = ${mu}, theta = ${deg} deg: ${slides ? 'slides with a = g (sin - mu cos)' : 'sticks'} (1%), on 4 points`, () => {
      const world = new World({ sleep: false });
      const q = [0, 0, Math.sin(th / 2), Math.cos(th / 2)];
      world.addStatic({ geometry: { type: 'plane' }, rotation: q, friction: mu });
      const [x, y, z] = [0.2, 0.1, 0.15], m = 2;
      const body = world.addBody(hullBody(boxCorners([x, y, z]), m, [(m * (y * y + z * z)) / 3, (m * (x * x + z * z)) / 3, (m * (x * x + y * y)) / 3, 0, 0, 0], mu));
      body.state.q.set([-Math.sin(th) * 0.1, Math.cos(th) * 0.1, 0, ...q]);
      const down = [-Math.cos(th), -Math.sin(th)];
      const along = () => body.state.q[0] * down[0] + body.state.q[1] * down[1];
      const s0 = along();
      let p1 = 0;
      for (let s = 1; s <= 300; s++) {
        world.step(1 / 240);
        expect(world.stats.contacts).toBe(4);
        if (s === 60) p1 = along();
      }
      const a = (2 * (along() - p1)) / (1.25 * 1.25 - 0.25 * 0.25);
      const expected = slides ? 9.81 * (Math.sin(th) - mu * Math.cos(th)) : 0;
      if (slides) expect(Math.abs(a - expected) / expected).toBeLessThan(0.01);
      else expect(Math.abs(along() - s0)).toBeLessThan(1e-6);
    });
  }

  // a regular tetrahedron of edge 0.2 m (vertices on alternate cube corners), 1 kg, solid inertia m a^2 / 20
  const a = 0.2, c = a / (2 * Math.SQRT2);
  const tetra = [c, c, c, c, -c, -c, -c, c, -c, -c, -c, c];
  const tetraModel = () => hullBody(tetra, 1, [(a * a) / 20, (a * a) / 20, (a * a) / 20, 0, 0, 0], 0.8);
  const floors: [string, ShapeDesc][] = [
    ['a triangle-mesh floor', { geometry: { type: 'trimesh', vertices: [-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2, 0, 0, 0], indices: [0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0] } }],
    ['a heightfield', { geometry: { type: 'heightfield', rows: 5, cols: 5, spacingX: 1, spacingZ: 1, heights: new Array(25).fill(0) }, position: [-2, 0, -2] }],
    ['a plane', { geometry: { type: 'plane' } }],
  ];
  for (const [name, floor] of floors) {
    it(`a tetrahedron dropped on ${name} comes to rest on a face: 3 points, within 5 mm, at the height of its face's plane`, () => {
      const world = new World();
      world.addStatic(floor);
      const model = tetraModel();
      const body = world.addBody(model);
      const R = randomRotation(mulberry32(3));
      body.state.q.set([0.13, 0.5, -0.21, ...quatOfMatrix(R)]);
      let deepest = 0;
      for (let s = 0; s < 240; s++) {
        world.step(1 / 60);
        deepest = Math.max(deepest, world.stats.maxPenetration);
      }
      forwardKinematics(model, body.state, true);
      expect(body.sleeping || kineticEnergy(model, body.state) < 1e-6).toBe(true);
      expect(deepest).toBeLessThan(5e-3);
      // resting on a face: three vertices at the floor (within the slop), the fourth a + height above
      const p = body.state.work.pose;
      const heights = [0, 1, 2, 3].map((k) => p[3] * tetra[3 * k] + p[4] * tetra[3 * k + 1] + p[5] * tetra[3 * k + 2] + p[10]).sort((u, v) => u - v);
      for (let k = 0; k < 3; k++) expect(Math.abs(heights[k])).toBeLessThan(2e-3);
      expect(Math.abs(heights[3] - a * Math.sqrt(2 / 3))).toBeLessThan(3e-3);
      if (!body.sleeping) expect(world.stats.contacts).toBe(3);
    });
  }
});

describe('static hulls', () => {
  it('a frictionless ball dropped on a static hull ramp slides down its slope, does not sink, and ends on the ground beyond it', () => {
    // a wedge: 1 m long along x, rising from 0 at x = +0.5 to 0.4 m at x = -0.5, 1 m wide
    const wedge = [-0.5, 0, -0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0, 0.5, -0.5, 0.4, -0.5, -0.5, 0.4, 0.5];
    const world = new World({ sleep: false });
    world.addStatic({ geometry: { type: 'plane' } });
    world.addStatic({ geometry: { type: 'convex', points: wedge }, friction: 0.8 });
    const r = 0.05, m = 1;
    const b = new ModelBuilder();
    b.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: r }, friction: 0 }] });
    const ball = world.addBody(b.build());
    ball.state.q.set([-0.3, 0.6, 0]);
    // the slope's surface height at x and the ball's clearance above it (along the face normal)
    const slope = 0.4, len = Math.hypot(1, slope), nx = slope / len, ny = 1 / len;
    let worst = 0, onRamp = 0;
    for (let s = 0; s < 240; s++) {
      world.step(1 / 60);
      const [x, y] = ball.state.q;
      if (x > -0.45 && x < 0.45 && y < 0.5) {
        const clearance = nx * (x - 0.5) + ny * y - r; // signed distance of the ball from the slope plane
        worst = Math.min(worst, clearance);
        onRamp++;
      }
    }
    expect(onRamp).toBeGreaterThan(5);
    expect(worst).toBeGreaterThan(-2e-3);
    expect(ball.state.q[0]).toBeGreaterThan(0.5);
    expect(Math.abs(ball.state.q[1] - r)).toBeLessThan(2e-3);
  });
});

describe('a humanoid tree with convex feet and hands', () => {
  it('dropped from 1 m, rests within 5 s (KE < 1e-3 J, no contact deeper than 5 mm) with its hull feet and hands touching the ground, then sleeps', () => {
    const world = new World({ substeps: 4 });
    world.addStatic({ geometry: { type: 'plane' } });
    const model = humanoidTree({ convexFeetAndHands: true });
    const body = world.addBody(model);
    body.state.q[1] = 2.0;
    body.state.q.set([0.2, 0.1, 0, 0.9747], 3);
    let deepest = 0;
    const hullLinks = new Set(['l_foot', 'r_foot', 'l_hand', 'r_hand'].map((n) => model.linkIndex(n)));
    let hullContacts = 0;
    for (let s = 0; s < 300; s++) {
      world.step(1 / 60);
      deepest = Math.max(deepest, world.stats.maxPenetration);
      const c = readContacts(world.collision.contacts);
      for (const k of c) if (k.bodyB < 0 && hullLinks.has(k.linkA)) hullContacts++;
    }
    forwardKinematics(model, body.state, true);
    expect(kineticEnergy(model, body.state)).toBeLessThan(1e-3);
    expect(deepest).toBeLessThan(5e-3);
    expect(hullContacts).toBeGreaterThan(0);
    for (let s = 0; s < 60 && !body.sleeping; s++) world.step(1 / 60);
    expect(body.sleeping).toBe(true);
  });
});

describe('bad hulls', () => {
  it('three points, a flat set and a NaN are refused with the shape named', () => {
    const world = new World();
    const make = (points: number[]) => {
      const b = new ModelBuilder();
      b.addLink({ name: 'foot', parent: null, joint: { type: 'free' }, mass: 1, inertia: [0.01, 0.01, 0.01, 0, 0, 0], shapes: [{ geometry: { type: 'convex', points } }] });
      return b.build();
    };
    expect(() => world.addBody(make([0, 0, 0, 1, 0, 0, 0, 1, 0]))).toThrow(/foot|shape/);
    expect(() => world.addBody(make([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]))).toThrow(/coplanar|flat|volume/);
    expect(() => world.addBody(make([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, Number.NaN]))).toThrow(/finite|NaN/);
    expect(world.bodies.length).toBe(0);
  });
});
