/**
 * Shape queries (collision/shape-queries.ts): castShape against closed forms (a sphere swept into
 * a plane and into a sphere, a box swept onto a plane at random orientations: the distance of its
 * lowest corner), and intersectShape and castShape against a brute force over random scenes that
 * shares no code with the narrow phase (collision-helpers.ts: exactDepth on the Minkowski
 * difference, bisected along the sweep).
 */
import { describe, expect, it } from 'vitest';
import { RigidBody, ShapeHit, World, type QueryShape } from '../src/index.js';
import { type OracleShape, type V3, add, dot, exactDepth, makePose, matrixOfQuaternion, mulberry32, oracleBox, oracleCapsule, oracleSphere, randomQuaternion, randomRotation, randomUnit, scale, sub, unit } from './collision-helpers.js';

function oracleOf(shape: QueryShape, rotation: ArrayLike<number>, position: ArrayLike<number>): OracleShape {
  const pose = makePose(matrixOfQuaternion(rotation), position);
  if (shape.type === 'sphere') return oracleSphere(pose, shape.radius);
  if (shape.type === 'capsule') return oracleCapsule(pose, shape.radius, shape.halfLength);
  return oracleBox(pose, [shape.halfExtents[0], shape.halfExtents[1], shape.halfExtents[2]]);
}

interface Placed { shape: QueryShape; rotation: number[]; position: V3; oracle: OracleShape; body: number }

/** A world of random spheres, capsules and boxes (bodies, placed before any step) in a 4 m cube, with their oracles. */
function randomScene(rand: () => number, n: number): { world: World; placed: Placed[] } {
  const world = new World({ gravity: [0, 0, 0] });
  const placed: Placed[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3, rotation = randomQuaternion(rand);
    const position: V3 = [4 * rand() - 2, 4 * rand() - 2, 4 * rand() - 2];
    const size = () => 0.1 + 0.3 * rand();
    const shape: QueryShape = kind === 0 ? { type: 'sphere', radius: size() } : kind === 1 ? { type: 'capsule', radius: size(), halfLength: size() } : { type: 'box', halfExtents: [size(), size(), size()] };
    const model = shape.type === 'sphere' ? RigidBody.sphere(shape.radius, { mass: 1 }) : shape.type === 'capsule' ? RigidBody.capsule(shape.halfLength, shape.radius, { mass: 1 }) : RigidBody.box(shape.halfExtents, { mass: 1 });
    const b = world.addBody(model, { position, rotation, name: `s${i}` });
    placed.push({ shape, rotation, position, oracle: oracleOf(shape, rotation, position), body: b.index });
  }
  return { world, placed };
}

function randomQueryShape(rand: () => number, kinds: QueryShape['type'][]): QueryShape {
  const t = kinds[Math.floor(rand() * kinds.length)], size = () => 0.1 + 0.25 * rand();
  return t === 'sphere' ? { type: 'sphere', radius: size() } : t === 'capsule' ? { type: 'capsule', radius: size(), halfLength: size() } : { type: 'box', halfExtents: [size(), size(), size()] };
}

/** First distance along the sweep at which the oracle shapes touch: samples, then bisection to 1e-10; Infinity when none within max. */
function bruteToi(query: QueryShape, rotation: number[], start: V3, d: V3, max: number, target: OracleShape, samples: number): number {
  const depthAt = (t: number): number => exactDepth(oracleOf(query, rotation, add(start, scale(d, t))), target).depth;
  if (depthAt(0) >= 0) return 0;
  let prev = 0;
  for (let k = 1; k <= samples; k++) {
    const t = (max * k) / samples;
    if (depthAt(t) >= 0) {
      let lo = prev, hi = t;
      while (hi - lo > 1e-10) { const mid = 0.5 * (lo + hi); if (depthAt(mid) >= 0) hi = mid; else lo = mid; }
      return hi;
    }
    prev = t;
  }
  return Infinity;
}

describe('castShape against closed forms', () => {
  it('a sphere swept into a plane at random orientations: distance (h - r) / (-n . d), point and normal exact', () => {
    const rand = mulberry32(21);
    for (let trial = 0; trial < 100; trial++) {
      const world = new World();
      const q = randomQuaternion(rand), R = matrixOfQuaternion(q);
      const n: V3 = [R[1], R[4], R[7]], p0: V3 = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const plane = world.addStatic({ geometry: { type: 'plane' }, position: p0, rotation: q });
      const r = 0.05 + rand();
      const h = r + 3 * rand();
      const start = add(p0, add(scale(n, h), scale(randomUnit(rand), 0)));
      let d = randomUnit(rand);
      if (dot(d, n) > -0.2) d = unit(sub(d, scale(n, dot(d, n) + 1)));
      const expected = (h - r) / -dot(n, d);
      const hit = world.castShape({ type: 'sphere', radius: r }, { position: start }, d, expected + 1);
      expect(hit).not.toBeNull();
      expect(Math.abs(hit!.distance - expected)).toBeLessThan(1e-9 * (1 + expected));
      expect(hit!.staticShape).toBe(plane);
      expect(hit!.body).toBe(-1);
      for (let k = 0; k < 3; k++) expect(Math.abs(hit!.normal[k] - n[k])).toBeLessThan(1e-12);
      const centre = add(start, scale(d, expected));
      for (let k = 0; k < 3; k++) expect(Math.abs(hit!.point[k] - (centre[k] - r * n[k]))).toBeLessThan(1e-8);
      // shorter than the distance: no hit
      expect(world.castShape({ type: 'sphere', radius: r }, { position: start }, d, expected * 0.999 - 1e-6)).toBeNull();
    }
  });

  it('a sphere swept into a sphere: the ray against radius r1 + r2, never beyond it, within 1e-6', () => {
    const rand = mulberry32(5);
    let worst = 0;
    for (let trial = 0; trial < 100; trial++) {
      const world = new World({ gravity: [0, 0, 0] });
      const c: V3 = [rand() - 0.5, rand() - 0.5, rand() - 0.5], r2 = 0.1 + rand();
      const target = world.addBody(RigidBody.sphere(r2, { mass: 1 }), { position: c });
      const r1 = 0.05 + 0.5 * rand(), R = r1 + r2;
      const start = add(c, scale(randomUnit(rand), R + 0.01 + 2 * rand()));
      // aim within the sphere of radius R about c
      const aim = add(c, scale(randomUnit(rand), 0.9 * R * rand()));
      const d = unit(sub(aim, start));
      const m = sub(start, c), b = dot(m, d), disc = b * b - (dot(m, m) - R * R);
      const expected = -b - Math.sqrt(disc);
      const out = new ShapeHit();
      const hit = world.castShape({ type: 'sphere', radius: r1 }, { position: start }, d, 10, undefined, out);
      expect(hit).toBe(out);
      expect(hit!.body).toBe(target.index);
      expect(hit!.distance).toBeLessThanOrEqual(expected + 1e-12);
      worst = Math.max(worst, expected - hit!.distance);
      // the normal: out of the sphere hit, through the centre of the query at the hit
      const q = add(start, scale(d, hit!.distance)), nref = unit(sub(q, c));
      for (let k = 0; k < 3; k++) expect(Math.abs(hit!.normal[k] - nref[k])).toBeLessThan(1e-6);
      for (let k = 0; k < 3; k++) expect(Math.abs(hit!.point[k] - (c[k] + r2 * nref[k]))).toBeLessThan(1e-6);
    }
    expect(worst).toBeLessThan(1e-6);
  });

  it('a box swept onto a plane at random orientations: the distance of its lowest corner', () => {
    const rand = mulberry32(9);
    for (let trial = 0; trial < 100; trial++) {
      const world = new World();
      world.addStatic({ geometry: { type: 'plane' } });
      const he: V3 = [0.05 + rand(), 0.05 + rand(), 0.05 + rand()];
      const q = randomQuaternion(rand), R = matrixOfQuaternion(q);
      const start: V3 = [4 * rand() - 2, 2 + 2 * rand(), 4 * rand() - 2];
      let lowest = Infinity;
      for (let c = 0; c < 8; c++) {
        const l = [(c & 1 ? 1 : -1) * he[0], (c & 2 ? 1 : -1) * he[1], (c & 4 ? 1 : -1) * he[2]];
        lowest = Math.min(lowest, start[1] + R[3] * l[0] + R[4] * l[1] + R[5] * l[2]);
      }
      const d = unit([rand() - 0.5, -1, rand() - 0.5]);
      const expected = lowest / -d[1];
      const hit = world.castShape({ type: 'box', halfExtents: he }, { position: start, rotation: q }, d, 10);
      expect(hit).not.toBeNull();
      expect(Math.abs(hit!.distance - expected)).toBeLessThan(1e-9);
      expect(Math.abs(hit!.point[1])).toBeLessThan(1e-9);
      expect([...hit!.normal].map((x) => Math.abs(x))).toEqual([0, 1, 0].map((x) => expect.closeTo(x, 12)));
    }
  });
});

describe('shape queries against a brute force', () => {
  it('intersectShape reports exactly the shapes the Minkowski-difference oracle finds overlapping', () => {
    const rand = mulberry32(77);
    let reported = 0, checked = 0;
    for (let trial = 0; trial < 12; trial++) {
      const { world, placed } = randomScene(rand, 12);
      for (let k = 0; k < 10; k++) {
        const shape = randomQueryShape(rand, ['sphere', 'capsule', 'box']);
        const rotation = randomQuaternion(rand), position: V3 = [4 * rand() - 2, 4 * rand() - 2, 4 * rand() - 2];
        const oracle = oracleOf(shape, rotation, position);
        const got = new Set<number>();
        world.intersectShape(shape, { position, rotation }, (body) => { got.add(body); });
        for (const p of placed) {
          const depth = exactDepth(oracle, p.oracle).depth;
          if (Math.abs(depth) < 1e-9) continue; // touching within rounding: either answer is right
          checked++;
          expect(got.has(p.body)).toBe(depth > 0);
          if (depth > 0) reported++;
        }
      }
    }
    expect(reported).toBeGreaterThan(20);
    expect(checked).toBeGreaterThan(1000);
  });

  it('castShape: the first hit of random sweeps through random scenes is the brute-force time of impact, within 1e-6', () => {
    const rand = mulberry32(123);
    let hits = 0, misses = 0;
    for (let trial = 0; trial < 14; trial++) {
      const { world, placed } = randomScene(rand, 6);
      for (let k = 0; k < 4; k++) {
        const shape = randomQueryShape(rand, trial < 12 ? ['sphere', 'capsule'] : ['box']);
        const rotation = randomQuaternion(rand);
        const start: V3 = [4 * rand() - 2, 4 * rand() - 2, 4 * rand() - 2];
        const d = randomUnit(rand), max = 3;
        let best = Infinity, bestBody = -1;
        for (const p of placed) {
          const t = bruteToi(shape, rotation, start, d, max, p.oracle, shape.type === 'box' ? 30 : 100);
          if (t < best) { best = t; bestBody = p.body; }
        }
        const hit = world.castShape(shape, { position: start, rotation }, d, max);
        if (best === Infinity) {
          expect(hit).toBeNull();
          misses++;
          continue;
        }
        expect(hit).not.toBeNull();
        expect(Math.abs(hit!.distance - best)).toBeLessThan(1e-6);
        if (best > 0) expect(hit!.body).toBe(bestBody);
        hits++;
      }
    }
    expect(hits).toBeGreaterThan(8);
    expect(misses).toBeGreaterThan(8);
  });

  it('filters: a cast sees past an excluded body and a predicate; bad input is refused clearly', () => {
    const world = new World({ gravity: [0, 0, 0] });
    world.addStatic({ geometry: { type: 'plane' } });
    const near = world.addBody(RigidBody.box([0.5, 0.5, 0.5], { mass: 1 }), { position: [0, 2, 0] });
    const sphere = { type: 'sphere', radius: 0.25 } as const, pose = { position: [0, 5, 0] };
    expect(world.castShape(sphere, pose, [0, -1, 0], 10)!.body).toBe(near.index);
    expect(world.castShape(sphere, pose, [0, -1, 0], 10)!.distance).toBeCloseTo(5 - 2.5 - 0.25, 9);
    const past = world.castShape(sphere, pose, [0, -1, 0], 10, { excludeBody: near.index })!;
    expect(past.staticShape).toBeGreaterThanOrEqual(0);
    expect(past.distance).toBeCloseTo(4.75, 9);
    expect(world.castShape(sphere, pose, [0, -1, 0], 10, { predicate: (b) => b < 0 })!.distance).toBeCloseTo(4.75, 9);
    const seen: number[] = [];
    world.intersectShape({ type: 'box', halfExtents: [1, 1.6, 1] }, { position: [0, 0.5, 0] }, (b) => { seen.push(b); });
    expect(seen.sort()).toEqual([-1, near.index].sort());
    expect(() => world.castShape({ type: 'sphere', radius: -1 }, pose, [0, -1, 0], 1)).toThrow(/castShape: sphere radius must be a finite number > 0, got -1/);
    expect(() => world.castShape(sphere, pose, [0, 0, 0], 1)).toThrow(/castShape: direction must be a non-zero vector/);
    expect(() => world.castShape(sphere, { position: [0, NaN, 0] }, [0, -1, 0], 1)).toThrow(/castShape: pose.position must hold three finite numbers/);
    expect(() => world.intersectShape({ type: 'cone' } as never, pose, () => {})).toThrow(/intersectShape: shape.type must be 'sphere', 'capsule' or 'box', got cone/);
  });
});
