/**
 * Broad phase and filtering: the pair list equals an O(n^2) check of every shape pair (bounds
 * overlap plus the filter rules, both written here from the rules, not from the library), bounds
 * contain the shapes and are tight, and each filter rule holds on its own.
 */
import { describe, expect, it } from 'vitest';
import type { ShapeDesc } from '@sinew/featherstone';
import { CollisionWorld } from '../src/collision/index.js';
import {
  IDENTITY, type V3, add, column, dot, makePose, matMul, mulberry32, randomRotation, randomUnit, rotationAxisAngle, scale,
  toWorld, unit,
} from './collision-helpers.js';

const MARGIN = 0.01;

/** Rotation matrix of a unit quaternion [x, y, z, w], from its axis and angle. */
function matrixOfQuaternion(q: ArrayLike<number>): number[] {
  const s = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
  if (s < 1e-15) return IDENTITY;
  return rotationAxisAngle([q[0] / s, q[1] / s, q[2] / s], 2 * Math.atan2(s, q[3]));
}

function quaternionOfAxisAngle(axis: V3, angle: number): [number, number, number, number] {
  const u = unit(axis);
  return [u[0] * Math.sin(angle / 2), u[1] * Math.sin(angle / 2), u[2] * Math.sin(angle / 2), Math.cos(angle / 2)];
}

interface Registered {
  handle: number;
  body: number;
  link: number;
  desc: ShapeDesc;
  group: number;
  mask: number;
}

interface Scene {
  world: CollisionWorld;
  shapes: Registered[];
  poses: Float64Array[];
  selfCollision: boolean[];
  excluded: Set<string>[];
}

function randomDynamic(rand: () => number): ShapeDesc {
  const kind = Math.floor(3 * rand());
  const position = [0.2 * (rand() - 0.5), 0.2 * (rand() - 0.5), 0.2 * (rand() - 0.5)];
  const rotation = quaternionOfAxisAngle(randomUnit(rand), 3 * rand());
  const groups = [1, 2, 4, 1 | 2];
  const group = groups[Math.floor(4 * rand())];
  const mask = rand() < 0.6 ? 0xffffffff : groups[Math.floor(4 * rand())];
  if (kind === 0) return { geometry: { type: 'sphere', radius: 0.05 + 0.2 * rand() }, position, rotation, group, mask };
  if (kind === 1) return { geometry: { type: 'capsule', radius: 0.04 + 0.1 * rand(), halfLength: 0.3 * rand() }, position, rotation, group, mask };
  return { geometry: { type: 'box', halfExtents: [0.05 + 0.2 * rand(), 0.05 + 0.2 * rand(), 0.05 + 0.2 * rand()] }, position, rotation, group, mask };
}

/** allPairsUpTo: 0 sends every scene through the grid; the default tests all pairs in small scenes. */
function buildScene(seed: number, bodies: number, allPairsUpTo?: number): Scene {
  const rand = mulberry32(seed);
  const world = new CollisionWorld({ margin: MARGIN, pairCapacity: 8, allPairsUpTo });
  const shapes: Registered[] = [];
  const poses: Float64Array[] = [];
  const selfCollision: boolean[] = [];
  const excluded: Set<string>[] = [];
  for (let b = 0; b < bodies; b++) {
    const links = 3 + Math.floor(6 * rand());
    const self = rand() < 0.7;
    const pairs: [number, number][] = [];
    for (let l = 1; l < links; l++) if (rand() < 0.5) pairs.push([l - 1, l]);
    world.setBody(b, links, { selfCollision: self, excludedLinkPairs: pairs });
    selfCollision.push(self);
    excluded.push(new Set(pairs.flatMap(([i, j]) => [`${i},${j}`, `${j},${i}`])));
    const root: V3 = [4 * rand(), 0.2 + rand(), 4 * rand()];
    const lp = new Float64Array(12 * links);
    for (let l = 0; l < links; l++) {
      lp.set(makePose(randomRotation(rand), add(root, [0.5 * (rand() - 0.5), 0.6 * rand(), 0.5 * (rand() - 0.5)])), 12 * l);
      const n = Math.floor(3 * rand());
      for (let k = 0; k < n; k++) {
        const desc = randomDynamic(rand);
        const handle = world.addDynamicShape(b, l, desc);
        shapes.push({ handle, body: b, link: l, desc, group: desc.group ?? 1, mask: desc.mask ?? 0xffffffff });
      }
    }
    poses.push(lp);
  }
  // Two long dynamic capsules crossing the scene (large in the grid), one far away.
  for (const [b, at] of [[bodies, [2, 0.5, 2]], [bodies + 1, [2.5, 0.6, 2]], [bodies + 2, [1e5, 0, 1e5]]] as [number, V3][]) {
    world.setBody(b, 1);
    selfCollision.push(true);
    excluded.push(new Set());
    const desc: ShapeDesc = { geometry: { type: 'capsule', radius: 0.1, halfLength: 4 }, rotation: quaternionOfAxisAngle([1, 0, 1], 1.3) };
    shapes.push({ handle: world.addDynamicShape(b, 0, desc), body: b, link: 0, desc, group: 1, mask: 0xffffffff });
    poses.push(makePose(rotationAxisAngle([0, 1, 0], 0.2 * b), at));
  }
  const statics: ShapeDesc[] = [
    { geometry: { type: 'plane' }, position: [0, 0.1, 0], rotation: quaternionOfAxisAngle([1, 0, 1], 0.1) },
    { geometry: { type: 'box', halfExtents: [1, 0.3, 0.5] }, position: [1, 0.4, 2], rotation: quaternionOfAxisAngle([0, 1, 0], 0.5), group: 2 },
    { geometry: { type: 'sphere', radius: 0.5 }, position: [3, 0.6, 1] },
    { geometry: { type: 'capsule', radius: 0.2, halfLength: 1 }, position: [2, 0.8, 3], rotation: quaternionOfAxisAngle([0, 0, 1], 1.2) },
    { geometry: { type: 'trimesh', vertices: [0, 0.3, 0, 2, 0.5, 0, 2, 0.2, 2, 0, 0.6, 2], indices: [0, 2, 1, 0, 3, 2] }, position: [0.5, 0, 0.5] },
    { geometry: { type: 'heightfield', rows: 4, cols: 5, spacingX: 0.5, spacingZ: 0.5, heights: Array.from({ length: 20 }, () => 0.5 * rand()) }, position: [2, 0, 0], mask: 1 },
    // Bigger than the grid takes: tested against every shape instead.
    { geometry: { type: 'box', halfExtents: [20, 0.2, 0.4] }, position: [0, 0.5, 3] },
    { geometry: { type: 'sphere', radius: 0.3 }, position: [1e5, 0, 1e5] },
  ];
  for (const desc of statics) {
    const handle = world.addStaticShape(desc);
    shapes.push({ handle, body: -1, link: -1, desc, group: desc.group ?? 1, mask: desc.mask ?? 0xffffffff });
  }
  return { world, shapes, poses, selfCollision, excluded };
}

/** The filter rules, written out. */
function allowed(s: Scene, a: Registered, b: Registered): boolean {
  if (a.body < 0 && b.body < 0) return false;
  if (((a.group & b.mask) >>> 0) === 0 || ((b.group & a.mask) >>> 0) === 0) return false;
  if (a.body >= 0 && a.body === b.body) {
    if (a.link === b.link) return false;
    if (!s.selfCollision[a.body]) return false;
    if (s.excluded[a.body].has(`${a.link},${b.link}`)) return false;
  }
  return true;
}

function overlaps(s: Scene, a: Registered, b: Registered): boolean {
  const box = new Float64Array(6);
  if (a.desc.geometry.type === 'plane' || b.desc.geometry.type === 'plane') {
    const [p, o] = a.desc.geometry.type === 'plane' ? [a, b] : [b, a];
    const n = column(matrixOfQuaternion(p.desc.rotation ?? [0, 0, 0, 1]), 1);
    const at = p.desc.position ?? [0, 0, 0];
    s.world.getShapeAabb(o.handle, box);
    let lowest = Infinity;
    for (let i = 0; i < 8; i++) {
      const corner: V3 = [box[i & 1 ? 3 : 0], box[i & 2 ? 4 : 1], box[i & 4 ? 5 : 2]];
      lowest = Math.min(lowest, dot(n, [corner[0] - at[0], corner[1] - at[1], corner[2] - at[2]]));
    }
    return lowest <= 0;
  }
  const ba = s.world.getShapeAabb(a.handle, new Float64Array(6));
  const bb = s.world.getShapeAabb(b.handle, box);
  for (let k = 0; k < 3; k++) if (ba[k] > bb[3 + k] || bb[k] > ba[3 + k]) return false;
  return true;
}

describe('broad phase', () => {
  it.each([['the grid', 0], ['every two shapes in small scenes (default)', undefined]])('pair set equals the O(n^2) check on random scenes, across updates: %s', (_, allPairsUpTo) => {
    for (const [seed, bodies] of [[1, 4], [2, 12], [3, 30]] as const) {
      const s = buildScene(seed, bodies, allPairsUpTo);
      const rand = mulberry32(seed + 100);
      for (let frame = 0; frame < 3; frame++) {
        s.world.update(s.poses);
        s.world.findPairs();
        if (s.world.overflowed) {
          s.world.growToFit();
          s.world.findPairs();
        }
        expect(s.world.overflowed).toBe(false);
        const got = new Set<string>();
        for (let i = 0; i < s.world.pairCount; i++) {
          const a = s.world.pairShapeA(i), b = s.world.pairShapeB(i);
          const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
          expect(got.has(key)).toBe(false);
          got.add(key);
        }
        const expected = new Set<string>();
        for (let i = 0; i < s.shapes.length; i++) {
          for (let j = i + 1; j < s.shapes.length; j++) {
            const a = s.shapes[i], b = s.shapes[j];
            if (allowed(s, a, b) && overlaps(s, a, b)) expected.add(`${Math.min(a.handle, b.handle)}-${Math.max(a.handle, b.handle)}`);
          }
        }
        expect([...got].sort()).toEqual([...expected].sort());
        expect(expected.size).toBeGreaterThan(bodies);
        // Move everything a little for the next frame.
        for (const lp of s.poses) for (let i = 0; i < lp.length; i += 12) lp[i + 9] += 0.3 * (rand() - 0.5);
      }
    }
  });

  it.each([['the grid', 0], ['every two shapes in small scenes (default)', undefined]])('resting bodies keep their shapes where the first update after put them, and pairs of two shapes that cannot move are left out (O(n^2) check): %s', (_, allPairsUpTo) => {
    const s = buildScene(5, 12, allPairsUpTo);
    const rand = mulberry32(500);
    const resting = new Set<number>();
    const frozen = new Map<number, Float64Array>();
    for (let frame = 0; frame < 4; frame++) {
      if (frame === 1) for (let b = 0; b < 12; b += 2) { resting.add(b); s.world.setBodyResting(b, true); }
      if (frame === 3) { resting.delete(4); s.world.setBodyResting(4, false); }
      s.world.update(s.poses);
      for (const sh of s.shapes) {
        if (sh.body < 0) continue;
        const pose = s.world.getShapeWorldPose(sh.handle, new Float64Array(12));
        if (!resting.has(sh.body)) { frozen.delete(sh.handle); continue; }
        const first = frozen.get(sh.handle);
        if (first) expect(Array.from(pose)).toEqual(Array.from(first));
        else frozen.set(sh.handle, pose);
      }
      s.world.findPairs();
      if (s.world.overflowed) { s.world.growToFit(); s.world.findPairs(); }
      const got = new Set<string>();
      for (let i = 0; i < s.world.pairCount; i++) {
        const a = s.world.pairShapeA(i), b = s.world.pairShapeB(i);
        got.add(`${Math.min(a, b)}-${Math.max(a, b)}`);
      }
      const still = (r: Registered) => r.body < 0 || resting.has(r.body);
      const expected = new Set<string>();
      for (let i = 0; i < s.shapes.length; i++) {
        for (let j = i + 1; j < s.shapes.length; j++) {
          const a = s.shapes[i], b = s.shapes[j];
          if (still(a) && still(b)) continue;
          if (allowed(s, a, b) && overlaps(s, a, b)) expected.add(`${Math.min(a.handle, b.handle)}-${Math.max(a.handle, b.handle)}`);
        }
      }
      expect([...got].sort()).toEqual([...expected].sort());
      expect(expected.size).toBeGreaterThan(6);
      for (const lp of s.poses) for (let i = 0; i < lp.length; i += 12) lp[i + 9] += 0.3 * (rand() - 0.5);
    }
    expect(frozen.size).toBeGreaterThan(0);
  });

  it('bounds contain every shape and exceed its extent by exactly the margin', () => {
    const s = buildScene(7, 6);
    s.world.update(s.poses);
    const rand = mulberry32(70);
    for (const sh of s.shapes) {
      if (sh.body < 0) continue;
      const link = s.poses[sh.body].subarray(12 * sh.link, 12 * sh.link + 12);
      const local = makePose(matrixOfQuaternion(sh.desc.rotation ?? [0, 0, 0, 1]), sh.desc.position ?? [0, 0, 0]);
      const pose = makePose(matMul(Array.from(link.subarray(0, 9)), Array.from(local.subarray(0, 9))), toWorld(link, [local[9], local[10], local[11]]));
      const world = s.world.getShapeWorldPose(sh.handle, new Float64Array(12));
      for (let i = 0; i < 12; i++) expect(Math.abs(world[i] - pose[i])).toBeLessThan(1e-14);
      // Extreme points along each axis, from the shape's own description.
      const g = sh.desc.geometry;
      const support = (u: V3): number => {
        const c: V3 = [pose[9], pose[10], pose[11]];
        if (g.type === 'sphere') return dot(u, c) + g.radius;
        if (g.type === 'capsule') {
          const a = column(pose, 1);
          return dot(u, c) + g.halfLength * Math.abs(dot(u, a)) + g.radius;
        }
        if (g.type === 'box') return dot(u, c) + [0, 1, 2].reduce((acc, k) => acc + g.halfExtents[k] * Math.abs(dot(u, column(pose, k))), 0);
        throw new Error('unexpected');
      };
      const box = s.world.getShapeAabb(sh.handle, new Float64Array(6));
      for (let k = 0; k < 3; k++) {
        const e: V3 = [0, 0, 0];
        e[k] = 1;
        expect(box[3 + k]).toBeCloseTo(support(e) + MARGIN, 12);
        expect(box[k]).toBeCloseTo(-support(scale(e, -1)) - MARGIN, 12);
      }
      // Random points of the shape's surface lie inside.
      for (let t = 0; t < 50; t++) {
        let p: V3;
        if (g.type === 'sphere') p = add([pose[9], pose[10], pose[11]], scale(randomUnit(rand), g.radius));
        else if (g.type === 'capsule') p = add(toWorld(pose, [0, g.halfLength * (2 * rand() - 1), 0]), scale(randomUnit(rand), g.radius));
        else if (g.type === 'box') {
          const l: V3 = [g.halfExtents[0] * (2 * rand() - 1), g.halfExtents[1] * (2 * rand() - 1), g.halfExtents[2] * (2 * rand() - 1)];
          const k = Math.floor(3 * rand());
          l[k] = rand() < 0.5 ? -g.halfExtents[k] : g.halfExtents[k];
          p = toWorld(pose, l);
        } else throw new Error('unexpected');
        for (let k = 0; k < 3; k++) {
          expect(p[k]).toBeGreaterThanOrEqual(box[k] + MARGIN - 1e-12);
          expect(p[k]).toBeLessThanOrEqual(box[3 + k] - MARGIN + 1e-12);
        }
      }
    }
  });
});

describe('filtering', () => {
  const sphere = (extra: Partial<ShapeDesc> = {}): ShapeDesc => ({ geometry: { type: 'sphere', radius: 0.5 }, ...extra });
  const at = (x: number) => makePose(IDENTITY, [x, 1, 0]);
  const pairCount = (w: CollisionWorld, poses: Float64Array[]) => {
    w.update(poses);
    return w.findPairs();
  };

  it('two shapes on the same link never pair', () => {
    const w = new CollisionWorld();
    w.setBody(0, 1);
    w.addDynamicShape(0, 0, sphere());
    w.addDynamicShape(0, 0, sphere());
    expect(pairCount(w, [at(0)])).toBe(0);
  });

  it('links of one body pair only with self-collision on and the pair not excluded', () => {
    const make = (self: boolean, exclude: boolean) => {
      const w = new CollisionWorld();
      w.setBody(0, 3, { selfCollision: self, excludedLinkPairs: exclude ? [[2, 0]] : [] });
      w.addDynamicShape(0, 0, sphere());
      w.addDynamicShape(0, 2, sphere());
      const lp = new Float64Array(36);
      lp.set(at(0), 0); lp.set(at(0.3), 12); lp.set(at(0.6), 24);
      return pairCount(w, [lp]);
    };
    expect(make(true, false)).toBe(1);
    expect(make(false, false)).toBe(0);
    expect(make(true, true)).toBe(0);
  });

  it('setSelfCollision and excludeLinkPair take effect after the world is built', () => {
    const w = new CollisionWorld();
    w.setBody(0, 2);
    w.addDynamicShape(0, 0, sphere());
    w.addDynamicShape(0, 1, sphere());
    const lp = new Float64Array(24);
    lp.set(at(0), 0); lp.set(at(0.5), 12);
    expect(pairCount(w, [lp])).toBe(1);
    w.setSelfCollision(0, false);
    expect(pairCount(w, [lp])).toBe(0);
    w.setSelfCollision(0, true);
    expect(pairCount(w, [lp])).toBe(1);
    w.excludeLinkPair(0, 1, 0);
    expect(pairCount(w, [lp])).toBe(0);
  });

  it('group and mask: (gA & mB) != 0 and (gB & mA) != 0', () => {
    const cases: [number, number, number, number, boolean][] = [
      [1, 2, 2, 1, true],
      [1, 2, 2, 4, false],
      [1, 0xffffffff, 2, 0xfffffffe, false],
      [0x80000000, 0x80000000, 0x80000000, 0x80000000, true],
      [3, 1, 1, 2, true],
    ];
    for (const [ga, ma, gb, mb, expected] of cases) {
      const w = new CollisionWorld();
      w.setBody(0, 1);
      w.setBody(1, 1);
      w.addDynamicShape(0, 0, sphere({ group: ga, mask: ma }));
      w.addDynamicShape(1, 0, sphere({ group: gb, mask: mb }));
      expect(pairCount(w, [at(0), at(0.5)])).toBe(expected ? 1 : 0);
    }
  });

  it('static shapes never pair with each other; a static plane pairs with dynamics near it', () => {
    const w = new CollisionWorld();
    w.addStaticShape(sphere({ position: [0, 0, 0] }));
    w.addStaticShape(sphere({ position: [0.1, 0, 0] }));
    w.addStaticShape({ geometry: { type: 'plane' } });
    w.setBody(0, 1);
    w.addDynamicShape(0, 0, { geometry: { type: 'sphere', radius: 0.1 } });
    w.update([makePose(IDENTITY, [5, 0.105, 5])]);
    expect(w.findPairs()).toBe(1);
    expect([w.pairShapeA(0), w.pairShapeB(0)]).toEqual([3, 2]);
    w.update([makePose(IDENTITY, [5, 0.125, 5])]);
    expect(w.findPairs()).toBe(0);
  });
});
