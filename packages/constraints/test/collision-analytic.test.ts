/**
 * Analytic cases with answers written down by hand (or by a brute-force search in the test).
 */
import { describe, expect, it } from 'vitest';
import type { ShapeDesc } from '@sinew/featherstone';
import { CollisionWorld } from '../src/collision/index.js';
import {
  IDENTITY, type Contact, type V3, add, column, cross, dot, makePose, matMul, mulberry32, norm, quatAxisAngle, randomRotation,
  readContacts, rotationAxisAngle, scale, sortPoints, sub, toWorld, unit,
} from './collision-helpers.js';

const MARGIN = 0.01;

/** One dynamic shape on body 0 link 0 at `pose` against one static shape; returns the contacts. */
function againstStatic(dynamic: ShapeDesc, pose: Float64Array, stat: ShapeDesc, margin = MARGIN): Contact[] {
  const w = new CollisionWorld({ margin });
  w.setBody(0, 1);
  w.addDynamicShape(0, 0, dynamic);
  w.addStaticShape(stat);
  w.detect([pose]);
  return readContacts(w.contacts);
}

/** Two dynamic shapes on bodies 0 and 1. */
function pair(a: ShapeDesc, poseA: Float64Array, b: ShapeDesc, poseB: Float64Array, margin = MARGIN): Contact[] {
  const w = new CollisionWorld({ margin });
  w.setBody(0, 1);
  w.setBody(1, 1);
  w.addDynamicShape(0, 0, a);
  w.addDynamicShape(1, 0, b);
  w.detect([poseA, poseB]);
  return readContacts(w.contacts);
}

const plane: ShapeDesc = { geometry: { type: 'plane' } };
const box = (hx: number, hy: number, hz: number): ShapeDesc => ({ geometry: { type: 'box', halfExtents: [hx, hy, hz] } });
const sphere = (r: number): ShapeDesc => ({ geometry: { type: 'sphere', radius: r } });
const capsule = (r: number, h: number): ShapeDesc => ({ geometry: { type: 'capsule', radius: r, halfLength: h } });

function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-12): void {
  for (let i = 0; i < b.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(tol);
}

describe('sphere', () => {
  it('on a plane: depth = r - height, points below the centre and on the plane', () => {
    const c = againstStatic(sphere(0.5), makePose(IDENTITY, [1, 0.4, -2]), plane);
    expect(c).toHaveLength(1);
    expect(c[0].depth).toBeCloseTo(0.1, 15);
    expect(c[0].normal).toEqual([0, 1, 0]);
    expectClose(c[0].pointA, [1, -0.1, -2]);
    expectClose(c[0].pointB, [1, 0, -2]);
  });

  it('on a tilted plane: normal is the plane local +Y in world, depth measured along it', () => {
    const R = rotationAxisAngle([1, 0, 0], 0.3);
    const q = quatAxisAngle([1, 0, 0], 0.3);
    const n = column(R, 1);
    const centre = add([0.2, 0.1, 0.3], scale(n, 0.45));
    const c = againstStatic(sphere(0.5), makePose(IDENTITY, centre), { geometry: { type: 'plane' }, position: [0.2, 0.1, 0.3], rotation: q });
    expect(c).toHaveLength(1);
    expectClose(c[0].normal, n, 1e-15);
    expect(c[0].depth).toBeCloseTo(0.05, 14);
  });

  it('within the margin: negative depth reported; beyond it nothing', () => {
    const near = againstStatic(sphere(0.5), makePose(IDENTITY, [0, 0.506, 0]), plane);
    expect(near).toHaveLength(1);
    expect(near[0].depth).toBeCloseTo(-0.006, 14);
    expect(againstStatic(sphere(0.5), makePose(IDENTITY, [0, 0.511, 0]), plane)).toHaveLength(0);
  });

  it('against a sphere: depth = rA + rB - |cA - cB|, normal from B to A', () => {
    const ca: V3 = [0.3, 1.2, -0.4], cb: V3 = [0.1, 0.9, 0.2];
    const d = norm(sub(ca, cb));
    const c = pair(sphere(0.4), makePose(IDENTITY, ca), sphere(0.35), makePose(IDENTITY, cb));
    expect(c).toHaveLength(1);
    expect(c[0].depth).toBeCloseTo(0.75 - d, 14);
    const n = unit(sub(ca, cb));
    expectClose(c[0].normal, n, 1e-14);
    expectClose(c[0].pointA, sub(ca, scale(n, 0.4)), 1e-14);
    expectClose(c[0].pointB, add(cb, scale(n, 0.35)), 1e-14);
  });
});

describe('capsule', () => {
  it('against a capsule: depth from the brute-force minimum distance of the axes', () => {
    const rand = mulberry32(4);
    for (let k = 0; k < 12; k++) {
      const RA = randomRotation(rand), RB = randomRotation(rand);
      const ha = 0.1 + 0.4 * rand(), hb = 0.1 + 0.4 * rand(), ra = 0.05 + 0.1 * rand(), rb = 0.05 + 0.1 * rand();
      const pa = makePose(RA, [0, 0, 0]);
      const pb = makePose(RB, [0.3 * (rand() - 0.5), 0.3 * (rand() - 0.5), 0.3 * (rand() - 0.5)]);
      const a0 = toWorld(pa, [0, -ha, 0]), a1 = toWorld(pa, [0, ha, 0]);
      const b0 = toWorld(pb, [0, -hb, 0]), b1 = toWorld(pb, [0, hb, 0]);
      // Brute force: a 600 x 600 grid of parameter pairs, then a finer grid around the best.
      const at = (p: V3, q: V3, t: number): V3 => add(p, scale(sub(q, p), t));
      let best = Infinity, bs = 0, bt = 0;
      const search = (s0: number, s1: number, t0: number, t1: number, n: number) => {
        for (let i = 0; i <= n; i++) {
          const s = Math.min(1, Math.max(0, s0 + ((s1 - s0) * i) / n));
          const pA = at(a0, a1, s);
          for (let j = 0; j <= n; j++) {
            const t = Math.min(1, Math.max(0, t0 + ((t1 - t0) * j) / n));
            const d = norm(sub(pA, at(b0, b1, t)));
            if (d < best) { best = d; bs = s; bt = t; }
          }
        }
      };
      search(0, 1, 0, 1, 600);
      for (let w = 2 / 600; w > 1e-9; w /= 20) search(bs - w, bs + w, bt - w, bt + w, 40);
      const c = pair(capsule(ra, ha), pa, capsule(rb, hb), pb, 10);
      expect(c.length).toBeGreaterThanOrEqual(1);
      const deepest = Math.max(...c.map((x) => x.depth));
      expect(Math.abs(deepest - (ra + rb - best))).toBeLessThan(1e-9);
      if (c.length === 1) {
        // The contact point, moved back to A's axis, is on the axis and at the minimum distance from B's axis.
        const onAxis = add(c[0].pointA, scale(c[0].normal, ra));
        const e = sub(a1, a0);
        const along = dot(sub(onAxis, a0), e) / dot(e, e);
        expect(norm(sub(onAxis, at(a0, a1, along)))).toBeLessThan(1e-12);
        const onB = add(c[0].pointB, scale(c[0].normal, -rb));
        expect(Math.abs(norm(sub(onAxis, onB)) - best)).toBeLessThan(1e-9);
        void bt;
      }
    }
  });

  it('lying on a plane gives 2 points at the ends with equal depth; tilted gives 1', () => {
    const lying = makePose(rotationAxisAngle([0, 0, 1], Math.PI / 2), [0.5, 0.095, 0]);
    const c = sortPoints(againstStatic(capsule(0.1, 0.4), lying, plane));
    expect(c).toHaveLength(2);
    expectClose(c[0].pointA, [0.1, -0.005, 0], 1e-15);
    expectClose(c[1].pointA, [0.9, -0.005, 0], 1e-15);
    expect(c[0].depth).toBeCloseTo(0.005, 15);
    expect(c[1].depth).toBeCloseTo(0.005, 15);
    // Tilted by 0.2 rad: the ends are 0.8 sin(0.2) = 0.16 apart in height, the lower one 3 mm deep.
    const tilted = makePose(rotationAxisAngle([0, 0, 1], Math.PI / 2 - 0.2), [0.5, 0.4 * Math.sin(0.2) + 0.1 - 0.003, 0]);
    const t = againstStatic(capsule(0.1, 0.4), tilted, plane);
    expect(t).toHaveLength(1);
    expect(t[0].depth).toBeCloseTo(0.003, 14);
  });

  it('lying across a box face gives 2 points: the ends of the part of the axis over the face', () => {
    // Capsule along X from x = -0.8 to 0.8 over a box 0.5 wide: the axis over the face is [-0.5, 0.5].
    const cap = makePose(rotationAxisAngle([0, 0, 1], Math.PI / 2), [0, 0.3 + 0.1 - 0.002, 0.1]);
    const boxPose = makePose(IDENTITY, [0, 0, 0]);
    const c = sortPoints(pair(capsule(0.1, 0.8), cap, box(0.5, 0.3, 0.4), boxPose));
    expect(c).toHaveLength(2);
    expectClose(c[0].pointB, [-0.5, 0.3, 0.1], 1e-14);
    expectClose(c[1].pointB, [0.5, 0.3, 0.1], 1e-14);
    for (const k of c) {
      expect(k.depth).toBeCloseTo(0.002, 14);
      expectClose(k.normal, [0, 1, 0], 1e-15);
    }
  });

  it('against a parallel capsule gives 2 points at the ends of the overlap', () => {
    const R = rotationAxisAngle([0, 0, 1], Math.PI / 2);
    const a = makePose(R, [0.3, 0.19, 0]);
    const b = makePose(R, [0, 0, 0]);
    const c = sortPoints(pair(capsule(0.1, 0.5), a, capsule(0.1, 0.5), b));
    expect(c).toHaveLength(2);
    // Overlap of [-0.2, 0.8] and [-0.5, 0.5] along x: [-0.2, 0.5].
    expectClose(c[0].pointA, [-0.2, 0.09, 0], 1e-14);
    expectClose(c[1].pointA, [0.5, 0.09, 0], 1e-14);
    for (const k of c) expect(k.depth).toBeCloseTo(0.01, 14);
  });
});

describe('box', () => {
  const corners = (pose: Float64Array, h: V3, filter: (l: V3) => boolean): V3[] => {
    const out: V3[] = [];
    for (let i = 0; i < 8; i++) {
      const l: V3 = [i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]];
      if (filter(l)) out.push(toWorld(pose, l));
    }
    return out;
  };
  const sortV = (vs: V3[]) => [...vs].sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);

  it('resting on a plane: exactly 4 points at the bottom corners, equal depth', () => {
    for (const yaw of [0, 0.4, 1.3]) {
      const h: V3 = [0.3, 0.2, 0.5];
      const pose = makePose(rotationAxisAngle([0, 1, 0], yaw), [0.7, 0.2 - 0.003, -0.2]);
      const c = againstStatic(box(...h), pose, plane);
      expect(c).toHaveLength(4);
      const expected = sortV(corners(pose, h, (l) => l[1] < 0));
      const got = sortV(c.map((k) => k.pointA));
      for (let i = 0; i < 4; i++) expectClose(got[i], expected[i], 1e-14);
      for (const k of c) {
        expect(k.depth).toBeCloseTo(0.003, 14);
        expect(k.normal).toEqual([0, 1, 0]);
      }
    }
  });

  it('tilted about one axis: the 2 corners of the lower edge; about a diagonal: 1 corner', () => {
    const h: V3 = [0.3, 0.2, 0.5];
    const tilt = rotationAxisAngle([1, 0, 0], 0.2);
    // Lowest points are the corners with y = -h and z = +h (rotating about +x lifts -z ... see below).
    const probe = makePose(tilt, [0, 0, 0]);
    const low = Math.min(...corners(probe, h, () => true).map((v) => v[1]));
    const pose = makePose(tilt, [0, -low - 0.002, 0]);
    const c = againstStatic(box(...h), pose, plane);
    expect(c).toHaveLength(2);
    for (const k of c) expect(k.depth).toBeCloseTo(0.002, 14);
    const diag = matMul(rotationAxisAngle([1, 0, 1], 0.3), IDENTITY);
    const probe2 = makePose(diag, [0, 0, 0]);
    const low2 = Math.min(...corners(probe2, h, () => true).map((v) => v[1]));
    const c2 = againstStatic(box(...h), makePose(diag, [0, -low2 - 0.002, 0]), plane);
    expect(c2).toHaveLength(1);
    expect(c2[0].depth).toBeCloseTo(0.002, 14);
  });

  it('small box resting on a big box: 4 points at the small box bottom corners', () => {
    for (const yaw of [0, 0.5]) {
      const small: V3 = [0.2, 0.1, 0.15];
      const top = makePose(rotationAxisAngle([0, 1, 0], yaw), [0.1, 0.5 + 0.1 - 0.004, -0.2]);
      const base = makePose(IDENTITY, [0, 0, 0]);
      const c = pair(box(...small), top, box(1, 0.5, 1), base);
      expect(c).toHaveLength(4);
      const expected = sortV(corners(top, small, (l) => l[1] < 0));
      const got = sortV(c.map((k) => k.pointA));
      for (let i = 0; i < 4; i++) expectClose(got[i], expected[i], 1e-14);
      for (const k of c) {
        expect(k.depth).toBeCloseTo(0.004, 14);
        expectClose(k.normal, [0, 1, 0], 1e-15);
        expect(k.pointB[1]).toBeCloseTo(0.5, 14);
      }
    }
  });

  it('big box on a small box: 4 points at the small box top corners', () => {
    const big = makePose(IDENTITY, [0, 0.1 + 0.5 - 0.004, 0]);
    const small = makePose(rotationAxisAngle([0, 1, 0], 0.3), [0.2, 0, 0.1]);
    const c = pair(box(1, 0.5, 1), big, box(0.2, 0.1, 0.15), small);
    expect(c).toHaveLength(4);
    const expected = sortV(corners(small, [0.2, 0.1, 0.15], (l) => l[1] > 0));
    const got = sortV(c.map((k) => k.pointB));
    for (let i = 0; i < 4; i++) expectClose(got[i], expected[i], 1e-14);
    for (const k of c) expect(k.depth).toBeCloseTo(0.004, 14);
  });

  it('box hanging half off a box edge: the corners of the overlap rectangle', () => {
    // Top box spans x in [0.7, 1.3], the base x in [-1, 1]: the overlap is x in [0.7, 1].
    const top = makePose(IDENTITY, [1, 0.5 + 0.2 - 0.001, 0]);
    const c = pair(box(0.3, 0.2, 0.25), top, box(1, 0.5, 1), makePose(IDENTITY, [0, 0, 0]));
    expect(c).toHaveLength(4);
    const got = sortV(c.map((k) => k.pointB));
    const expected: V3[] = sortV([[0.7, 0.5, -0.25], [0.7, 0.5, 0.25], [1, 0.5, -0.25], [1, 0.5, 0.25]]);
    for (let i = 0; i < 4; i++) expectClose(got[i], expected[i], 1e-14);
  });

  it('edge on edge: one point where the crossed edges meet', () => {
    // A box turned 45 degrees about z (an edge down) across a box turned 45 degrees about x (an edge up).
    const h = 0.2;
    const d = h * Math.SQRT2;
    const upper = makePose(rotationAxisAngle([0, 0, 1], Math.PI / 4), [0, d + d - 0.003, 0]);
    const lower = makePose(rotationAxisAngle([1, 0, 0], Math.PI / 4), [0, 0, 0]);
    const c = pair(box(h, h, h), upper, box(h, h, h), lower);
    expect(c).toHaveLength(1);
    expect(c[0].depth).toBeCloseTo(0.003, 12);
    expectClose(c[0].normal, [0, 1, 0], 1e-12);
    expectClose(c[0].pointA, [0, d - 0.003, 0], 1e-12);
  });
});

/** A flat floor quad [-2, 2]^2 at y = 0 as two triangles. */
const floorMesh: ShapeDesc = {
  geometry: { type: 'trimesh', vertices: [-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2], indices: [0, 2, 1, 0, 3, 2] },
};
/** A flat heightfield over [-2, 2]^2 at y = 0, 9 x 9 samples. */
const flatField: ShapeDesc = {
  geometry: { type: 'heightfield', rows: 9, cols: 9, spacingX: 0.5, spacingZ: 0.5, heights: new Array(81).fill(0) },
  position: [-2, 0, -2],
};

describe('flat meshes equal the plane', () => {
  const poses: [string, ShapeDesc, Float64Array][] = [];
  const rand = mulberry32(11);
  for (let i = 0; i < 6; i++) {
    const yaw = rotationAxisAngle([0, 1, 0], 3 * rand());
    poses.push(['box', box(0.3, 0.2, 0.4), makePose(yaw, [rand() - 0.5, 0.2 - 0.004 * rand(), rand() - 0.5])]);
    poses.push(['sphere', sphere(0.25), makePose(IDENTITY, [rand() - 0.5, 0.25 - 0.004 * rand(), rand() - 0.5])]);
    poses.push(['capsule', capsule(0.1, 0.4), makePose(matMul(yaw, rotationAxisAngle([0, 0, 1], Math.PI / 2)), [rand() - 0.5, 0.1 - 0.004 * rand(), rand() - 0.5])]);
  }
  // A box over the floor diagonal, one tilted about x and one standing on an edge of the heightfield grid.
  poses.push(['box on diagonal', box(0.3, 0.2, 0.3), makePose(rotationAxisAngle([0, 1, 0], 0.7), [0, 0.199, 0])]);
  const tilt = rotationAxisAngle([1, 0, 0], 0.15);
  poses.push(['tilted box', box(0.3, 0.2, 0.4), makePose(tilt, [0.25, 0.2 * Math.cos(0.15) + 0.4 * Math.sin(0.15) - 0.002, 0.5])]);
  poses.push(['box on grid lines', box(0.25, 0.2, 0.25), makePose(IDENTITY, [0.5, 0.198, 0.5])]);

  for (const [name, mesh] of [['trimesh floor', floorMesh], ['flat heightfield', flatField]] as const) {
    it(`${name}: same points, normals and depths as the plane`, () => {
      for (const [what, desc, pose] of poses) {
        const onPlane = sortPoints(againstStatic(desc, pose, plane));
        const onMesh = sortPoints(againstStatic(desc, pose, mesh));
        expect(onMesh.length, what).toBe(onPlane.length);
        expect(onPlane.length, what).toBeGreaterThan(0);
        for (let i = 0; i < onPlane.length; i++) {
          expectClose(onMesh[i].pointA, onPlane[i].pointA, 1e-12);
          expectClose(onMesh[i].normal, onPlane[i].normal, 1e-12);
          expect(Math.abs(onMesh[i].depth - onPlane[i].depth), what).toBeLessThan(1e-12);
        }
      }
    });
  }
});

describe('heightfield terrain', () => {
  /** Closest point of triangle (a, b, c) to p: the plane projection if inside, else the nearest edge point. */
  function closestOnTriangle(p: V3, a: V3, b: V3, c: V3): V3 {
    const n = unit(cross(sub(b, a), sub(c, a)));
    const proj = sub(p, scale(n, dot(sub(p, a), n)));
    const inside = [[a, b], [b, c], [c, a]].every(([u, v]) => dot(cross(sub(v, u), sub(proj, u)), n) >= 0);
    if (inside) return proj;
    let best: V3 = a, bd = Infinity;
    for (const [u, v] of [[a, b], [b, c], [c, a]]) {
      const e = sub(v, u);
      const t = Math.min(1, Math.max(0, dot(sub(p, u), e) / dot(e, e)));
      const q = add(u, scale(e, t));
      const d = norm(sub(p, q));
      if (d < bd) { bd = d; best = q; }
    }
    return best;
  }

  it('sphere on rough terrain: deepest contact = r - distance to the surface (brute force over all triangles)', () => {
    const rand = mulberry32(21);
    const rows = 12, cols = 10, sx = 0.3, sz = 0.25;
    const heights = Array.from({ length: rows * cols }, () => 0.3 * rand());
    const origin: V3 = [-1, 0.2, -1.5];
    const field: ShapeDesc = { geometry: { type: 'heightfield', rows, cols, spacingX: sx, spacingZ: sz, heights }, position: origin };
    const vertex = (r: number, c: number): V3 => [origin[0] + c * sx, origin[1] + heights[r * cols + c], origin[2] + r * sz];
    const tris: [V3, V3, V3][] = [];
    for (let r = 0; r < rows - 1; r++) {
      for (let c = 0; c < cols - 1; c++) {
        tris.push([vertex(r, c), vertex(r + 1, c), vertex(r + 1, c + 1)], [vertex(r, c), vertex(r + 1, c + 1), vertex(r, c + 1)]);
      }
    }
    let checked = 0;
    for (let k = 0; k < 60; k++) {
      const r = 0.1 + 0.2 * rand();
      const x = origin[0] + 0.4 + (cols - 1) * sx * 0.7 * rand(), z = origin[2] + 0.4 + (rows - 1) * sz * 0.7 * rand();
      // Start well above and lower the sphere to a random depth below first touch.
      let bestD = Infinity;
      const centreAt = (y: number): V3 => [x, y, z];
      let y = 2;
      const dist = (p: V3) => Math.min(...tris.map(([a, b, c]) => norm(sub(p, closestOnTriangle(p, a, b, c)))));
      // Surface height under (x, z): the triangle whose xz projection holds it.
      let surface = -Infinity;
      for (const [a, b, c] of tris) {
        const det = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
        const u = ((x - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (z - a[2])) / det;
        const v = ((b[0] - a[0]) * (z - a[2]) - (x - a[0]) * (b[2] - a[2])) / det;
        if (u >= 0 && v >= 0 && u + v <= 1) surface = Math.max(surface, a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]));
      }
      let lo = surface, hi = 2;
      for (let i = 0; i < 40; i++) {
        const mid = 0.5 * (lo + hi);
        if (dist(centreAt(mid)) > r) hi = mid;
        else lo = mid;
      }
      y = hi - 0.03 * rand();
      const centre = centreAt(y);
      bestD = dist(centre);
      const c = againstStatic(sphere(r), makePose(IDENTITY, centre), field);
      expect(c.length).toBeGreaterThan(0);
      const deepest = Math.max(...c.map((q) => q.depth));
      if (Math.abs(deepest - (r - bestD)) > 1e-9) console.log(k, 'r', r, 'centre', centre, 'truth', r - bestD, c);
      expect(Math.abs(deepest - (r - bestD))).toBeLessThan(1e-9);
      for (const q of c) {
        expect(q.depth).toBeLessThanOrEqual(r - bestD + 1e-9);
        expect(q.subShape).toBeGreaterThanOrEqual(0);
        expect(q.subShape).toBeLessThan(2 * (rows - 1) * (cols - 1));
      }
      checked++;
    }
    expect(checked).toBe(60);
  });
});

describe('materials', () => {
  it('friction = sqrt(mu_a mu_b), restitution = max(e_a, e_b) on every contact', () => {
    const w = new CollisionWorld({ margin: MARGIN });
    w.setBody(0, 1);
    w.addDynamicShape(0, 0, { geometry: { type: 'box', halfExtents: [0.3, 0.2, 0.3] }, friction: 0.9, restitution: 0.2 });
    w.addStaticShape({ geometry: { type: 'plane' }, friction: 0.4, restitution: 0.5 });
    w.detect([makePose(IDENTITY, [0, 0.199, 0])]);
    const c = readContacts(w.contacts);
    expect(c).toHaveLength(4);
    for (const k of c) {
      expect(k.friction).toBeCloseTo(0.6, 15);
      expect(k.restitution).toBe(0.5);
    }
  });
});
