/**
 * Scene queries (collision/queries.ts): rays against every shape kind at random poses against
 * closed forms and brute-force references written here (face by face, triangle by triangle, or by
 * marching the ray with an inside test and bisecting), castRay through the query grid against a
 * brute force over all shapes, shape casts, overlaps, filters, World-level queries (a sleeping
 * body, a body moved between steps), bad input, and allocation.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, type ShapeDesc } from '@sinew/featherstone';
import { CollisionWorld, RayHit, World } from '../src/index.js';
import { describeBatches, youngGenerationGrowth } from '../../featherstone/test/young-generation.js';
import { ConvexHullData } from '../src/collision/hull.js';
import { type V3, add, cross, dot, makePose, mulberry32, norm, quatOfMatrix, randomRotation, randomUnit, rotationAxisAngle, scale, sub, toWorld, unit } from './collision-helpers.js';

/** A reference hit: distance, unit normal and the shape it belongs to. */
interface Ref { t: number; n: V3 }

const TOL = 1e-9;

// ---------------------------------------------------------------------------------------------
// Independent references (world frame; d unit)

function refSphere(c: V3, r: number, o: V3, d: V3): Ref | null {
  const m = sub(o, c);
  const cc = dot(m, m) - r * r;
  if (cc <= 0) return { t: 0, n: scale(d, -1) };
  const b = dot(m, d), disc = b * b - cc;
  if (disc < 0) return null;
  const t = -b - Math.sqrt(disc);
  if (t < 0) return null;
  return { t, n: unit(sub(add(o, scale(d, t)), c)) };
}

function refPlane(n: V3, p: V3, o: V3, d: V3): Ref | null {
  const dist = dot(n, sub(o, p));
  if (dist <= 0) return { t: 0, n: scale(d, -1) };
  const denom = dot(n, d);
  if (denom >= 0) return null;
  return { t: -dist / denom, n };
}

/** Convex polytope as world face polygons (counter-clockwise about their outward normals): the nearest entering face hit. */
function refPolytope(faces: { n: V3; v: V3[] }[], o: V3, d: V3): Ref | null {
  if (faces.every((f) => dot(f.n, sub(o, f.v[0])) <= 0)) return { t: 0, n: scale(d, -1) };
  let best: Ref | null = null;
  for (const f of faces) {
    const denom = dot(f.n, d);
    if (denom >= 0) continue;
    const t = dot(f.n, sub(f.v[0], o)) / denom;
    if (t < 0) continue;
    const x = add(o, scale(d, t));
    let insideFace = true;
    for (let i = 0; i < f.v.length; i++) {
      const a = f.v[i], b = f.v[(i + 1) % f.v.length];
      if (dot(cross(sub(b, a), sub(x, a)), f.n) < -1e-12) { insideFace = false; break; }
    }
    if (insideFace && (best === null || t < best.t)) best = { t, n: f.n };
  }
  return best;
}

function boxFaces(pose: Float64Array, h: V3): { n: V3; v: V3[] }[] {
  const faces: { n: V3; v: V3[] }[] = [];
  for (let k = 0; k < 3; k++) {
    for (const s of [-1, 1]) {
      const i = (k + 1) % 3, j = (k + 2) % 3;
      const corner = (a: number, b: number): V3 => { const l: V3 = [0, 0, 0]; l[k] = s * h[k]; l[i] = a * h[i]; l[j] = b * h[j]; return toWorld(pose, l); };
      // (e_i, e_j, e_k) is right-handed: counter-clockwise about +e_k
      const v = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
      if (s < 0) v.reverse();
      const nl: V3 = [0, 0, 0]; nl[k] = s;
      faces.push({ n: [pose[0] * nl[0] + pose[1] * nl[1] + pose[2] * nl[2], pose[3] * nl[0] + pose[4] * nl[1] + pose[5] * nl[2], pose[6] * nl[0] + pose[7] * nl[1] + pose[8] * nl[2]], v });
    }
  }
  return faces;
}

function hullFaces(pose: Float64Array, hull: ConvexHullData): { n: V3; v: V3[] }[] {
  const faces: { n: V3; v: V3[] }[] = [];
  for (let f = 0; f < hull.faceCount; f++) {
    const v: V3[] = [];
    for (let i = hull.faceStart[f]; i < hull.faceStart[f + 1]; i++) {
      const k = hull.faceVertices[i];
      v.push(toWorld(pose, [hull.vertices[3 * k], hull.vertices[3 * k + 1], hull.vertices[3 * k + 2]]));
    }
    const nl = [hull.planes[4 * f], hull.planes[4 * f + 1], hull.planes[4 * f + 2]];
    faces.push({ n: [pose[0] * nl[0] + pose[1] * nl[1] + pose[2] * nl[2], pose[3] * nl[0] + pose[4] * nl[1] + pose[5] * nl[2], pose[6] * nl[0] + pose[7] * nl[1] + pose[8] * nl[2]], v });
  }
  return faces;
}

/** Marches the ray in steps of `step` with an inside test, then bisects the first crossing; the normal from `normalAt`. */
function refMarch(insideAt: (x: V3) => boolean, normalAt: (x: V3) => V3, o: V3, d: V3, tMax: number, step: number): Ref | null {
  if (insideAt(o)) return { t: 0, n: scale(d, -1) };
  let prev = 0;
  for (let t = step; t <= tMax + step; t += step) {
    if (insideAt(add(o, scale(d, t)))) {
      let lo = prev, hi = t;
      for (let i = 0; i < 80; i++) { const mid = 0.5 * (lo + hi); if (insideAt(add(o, scale(d, mid)))) hi = mid; else lo = mid; }
      return { t: hi, n: normalAt(add(o, scale(d, hi))) };
    }
    prev = t;
  }
  return null;
}

function capsuleRef(pose: Float64Array, r: number, h: V3 | number) {
  const half = h as number;
  const a = toWorld(pose, [0, -half, 0]), b = toWorld(pose, [0, half, 0]);
  const closest = (x: V3): V3 => {
    const ab = sub(b, a);
    let s = dot(sub(x, a), ab) / dot(ab, ab);
    s = Math.max(0, Math.min(1, s));
    return add(a, scale(ab, s));
  };
  return {
    inside: (x: V3) => norm(sub(x, closest(x))) <= r,
    normal: (x: V3) => unit(sub(x, closest(x))),
  };
}

/** Capsule as the first of: its end spheres (quadratic) and its side (the quadratic in the plane across the axis). */
function refCapsule(pose: Float64Array, r: number, half: number, o: V3, d: V3): Ref | null {
  const a = toWorld(pose, [0, -half, 0]), b = toWorld(pose, [0, half, 0]);
  if (capsuleRef(pose, r, half).inside(o)) return { t: 0, n: scale(d, -1) };
  let best: Ref | null = null;
  for (const c of [a, b]) { const h = refSphere(c, r, o, d); if (h && (best === null || h.t < best.t)) best = h; }
  const L = norm(sub(b, a)), u = scale(sub(b, a), 1 / L), w = sub(o, a);
  const dp = sub(d, scale(u, dot(d, u))), wp = sub(w, scale(u, dot(w, u)));
  const A = dot(dp, dp), B = dot(wp, dp), C = dot(wp, wp) - r * r;
  if (A > 0 && B * B - A * C >= 0) {
    const t = (-B - Math.sqrt(B * B - A * C)) / A, s = dot(add(w, scale(d, t)), u);
    if (t >= 0 && s >= 0 && s <= L && (best === null || t < best.t)) best = { t, n: unit(add(wp, scale(dp, t))) };
  }
  return best;
}

/** Triangle by plane intersection and barycentric coordinates from sub-triangle areas; the normal against the ray. */
function refTriangle(p0: V3, p1: V3, p2: V3, o: V3, d: V3): Ref | null {
  const nRaw = cross(sub(p1, p0), sub(p2, p0));
  const n = unit(nRaw);
  const denom = dot(n, d);
  if (denom === 0) return null;
  const t = dot(n, sub(p0, o)) / denom;
  if (t < 0) return null;
  const x = add(o, scale(d, t));
  const area = dot(nRaw, n);
  const w0 = dot(cross(sub(p1, x), sub(p2, x)), n) / area;
  const w1 = dot(cross(sub(p2, x), sub(p0, x)), n) / area;
  const w2 = 1 - w0 - w1;
  if (w0 < -1e-12 || w1 < -1e-12 || w2 < -1e-12) return null;
  return { t, n: denom > 0 ? scale(n, -1) : n };
}

function refTriangles(tris: V3[][], o: V3, d: V3): Ref | null {
  let best: Ref | null = null;
  for (const [a, b, c] of tris) {
    const h = refTriangle(a, b, c, o, d);
    if (h && (best === null || h.t < best.t)) best = h;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Test shapes

function randomPose(rand: () => number, spread: number): Float64Array {
  return makePose(randomRotation(rand), [spread * (2 * rand() - 1), spread * (2 * rand() - 1), spread * (2 * rand() - 1)]);
}

function placed(geometry: ShapeDesc['geometry'], pose: Float64Array, extra: Partial<ShapeDesc> = {}): ShapeDesc {
  return { geometry, position: [pose[9], pose[10], pose[11]], rotation: quatOfMatrix(pose), ...extra };
}

const HULL_POINTS = [0.3, 0, 0, -0.2, 0.25, 0.1, -0.2, -0.25, 0.1, 0, 0.05, -0.35, 0.05, 0.3, 0.3, -0.1, -0.1, 0.3, 0.2, -0.2, -0.1];

/** A bumpy open mesh (a 6 x 6 grid of quads, two triangles each, with random heights). */
function bumpyMesh(rand: () => number): { vertices: number[]; indices: number[] } {
  const n = 7, vertices: number[] = [], indices: number[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) vertices.push(0.2 * (i - 3), 0.15 * (rand() - 0.5), 0.2 * (j - 3));
  for (let i = 0; i < n - 1; i++) for (let j = 0; j < n - 1; j++) {
    const a = i * n + j, b = a + 1, c = a + n, e = c + 1;
    indices.push(a, b, e, a, e, c);
  }
  return { vertices, indices };
}

function worldTriangles(pose: Float64Array, mesh: { vertices: number[]; indices: number[] }): V3[][] {
  const tris: V3[][] = [];
  for (let i = 0; i < mesh.indices.length; i += 3) {
    tris.push([0, 1, 2].map((k) => toWorld(pose, mesh.vertices.slice(3 * mesh.indices[i + k], 3 * mesh.indices[i + k] + 3))));
  }
  return tris;
}

function heightfieldTriangles(pose: Float64Array, rows: number, cols: number, sx: number, sz: number, h: number[]): V3[][] {
  const tris: V3[][] = [];
  const v = (r: number, c: number): V3 => toWorld(pose, [c * sx, h[r * cols + c], r * sz]);
  for (let r = 0; r < rows - 1; r++) for (let c = 0; c < cols - 1; c++) {
    tris.push([v(r, c), v(r + 1, c), v(r + 1, c + 1)], [v(r, c), v(r + 1, c + 1), v(r, c + 1)]);
  }
  return tris;
}

/** A ray from a random point at distance 1..3 of `target` through a point near it. */
function rayAt(rand: () => number, target: V3, spread: number): { o: V3; d: V3 } {
  const o = add(target, scale(randomUnit(rand), 1 + 2 * rand()));
  const aim = add(target, scale(randomUnit(rand), spread * rand()));
  return { o, d: unit(sub(aim, o)) };
}

function expectHit(hit: RayHit | null, ref: Ref | null, label: string): void {
  if (ref === null) {
    expect(hit, `${label}: no hit expected`).toBeNull();
    return;
  }
  expect(hit, `${label}: hit expected at ${ref.t}`).not.toBeNull();
  const h = hit as RayHit;
  expect(Math.abs(h.distance - ref.t), `${label}: distance ${h.distance} against ${ref.t}`).toBeLessThan(TOL);
  expect(norm(sub(h.normal, ref.n)), `${label}: normal [${Array.from(h.normal)}] against [${ref.n}]`).toBeLessThan(TOL);
}

describe('castRay against each shape kind at random poses', () => {
  const RAYS = 400;

  it('sphere: the quadratic (400 rays at 40 poses)', () => {
    const rand = mulberry32(101);
    let hits = 0;
    for (let p = 0; p < 40; p++) {
      const pose = randomPose(rand, 2), r = 0.1 + rand();
      const cw = new CollisionWorld();
      cw.addStaticShape(placed({ type: 'sphere', radius: r }, pose));
      const c: V3 = [pose[9], pose[10], pose[11]];
      for (let i = 0; i < RAYS / 40; i++) {
        const { o, d } = rayAt(rand, c, 1.5 * r);
        const ref = refSphere(c, r, o, d);
        if (ref) hits++;
        expectHit(cw.castRay(o, d, 10), ref, `sphere pose ${p} ray ${i}`);
      }
    }
    expect(hits).toBeGreaterThan(150);
  });

  it('plane: t = n.(p - o) / n.d (400 rays)', () => {
    const rand = mulberry32(102);
    let hits = 0;
    for (let p = 0; p < 40; p++) {
      const pose = randomPose(rand, 2);
      const cw = new CollisionWorld();
      cw.addStaticShape(placed({ type: 'plane' }, pose));
      const n: V3 = [pose[1], pose[4], pose[7]], q: V3 = [pose[9], pose[10], pose[11]];
      for (let i = 0; i < RAYS / 40; i++) {
        const o: V3 = add(q, scale(randomUnit(rand), 3 * rand())), d = randomUnit(rand);
        const ref = refPlane(n, q, o, d);
        if (ref && ref.t > 0) hits++;
        expectHit(cw.castRay(o, d, Infinity), ref, `plane pose ${p} ray ${i}`);
      }
    }
    expect(hits).toBeGreaterThan(80);
  });

  it('box: face by face and by marching (400 rays)', () => {
    const rand = mulberry32(103);
    let hits = 0;
    for (let p = 0; p < 40; p++) {
      const pose = randomPose(rand, 2);
      const h: V3 = [0.1 + rand(), 0.1 + rand(), 0.1 + rand()];
      const cw = new CollisionWorld();
      cw.addStaticShape(placed({ type: 'box', halfExtents: h }, pose));
      const faces = boxFaces(pose, h);
      for (let i = 0; i < RAYS / 40; i++) {
        const { o, d } = rayAt(rand, [pose[9], pose[10], pose[11]], 1.2 * norm(h));
        const ref = refPolytope(faces, o, d);
        if (ref) hits++;
        const hit = cw.castRay(o, d, 10);
        expectHit(hit, ref, `box pose ${p} ray ${i}`);
        if (i < 3) {
          const local = (x: V3) => { const q = sub(x, [pose[9], pose[10], pose[11]]); return [0, 1, 2].map((k) => pose[k] * q[0] + pose[3 + k] * q[1] + pose[6 + k] * q[2]); };
          const march = refMarch((x) => local(x).every((v, k) => Math.abs(v) <= h[k]), () => ref?.n ?? [0, 0, 0], o, d, 10, 1e-3);
          expect(march === null ? null : march.t, `box march ${p}`).toBeCloseTo(ref === null ? (null as unknown as number) : ref.t, 9);
        }
      }
    }
    expect(hits).toBeGreaterThan(150);
  });

  it('capsule: by marching with an inside test and bisecting (200 rays)', () => {
    const rand = mulberry32(104);
    let hits = 0;
    for (let p = 0; p < 20; p++) {
      const pose = randomPose(rand, 2), r = 0.1 + 0.5 * rand(), half = 0.05 + rand();
      const cw = new CollisionWorld();
      cw.addStaticShape(placed({ type: 'capsule', radius: r, halfLength: half }, pose));
      const ref0 = capsuleRef(pose, r, half);
      for (let i = 0; i < 10; i++) {
        const { o, d } = rayAt(rand, [pose[9], pose[10], pose[11]], half + r);
        const ref = refMarch(ref0.inside, ref0.normal, o, d, 6, 2e-3);
        if (ref) hits++;
        const closed = refCapsule(pose, r, half, o, d);
        expect(closed === null ? -1 : closed.t).toBeCloseTo(ref === null ? -1 : ref.t, 9);
        expectHit(cw.castRay(o, d, 6), ref, `capsule pose ${p} ray ${i}`);
      }
    }
    expect(hits).toBeGreaterThan(80);
  });

  it('convex hull: face by face (400 rays)', () => {
    const rand = mulberry32(105);
    const hull = new ConvexHullData(HULL_POINTS, 'test hull');
    let hits = 0;
    for (let p = 0; p < 40; p++) {
      const pose = randomPose(rand, 2);
      const cw = new CollisionWorld();
      cw.addStaticShape(placed({ type: 'convex', points: HULL_POINTS }, pose));
      const faces = hullFaces(pose, hull);
      for (let i = 0; i < RAYS / 40; i++) {
        const { o, d } = rayAt(rand, toWorld(pose, Array.from(hull.center)), 0.4);
        const ref = refPolytope(faces, o, d);
        if (ref) hits++;
        expectHit(cw.castRay(o, d, 10), ref, `hull pose ${p} ray ${i}`);
      }
    }
    expect(hits).toBeGreaterThan(150);
  });

  it('triangle mesh: every triangle, without the BVH (400 rays)', () => {
    const rand = mulberry32(106);
    let hits = 0;
    for (let p = 0; p < 20; p++) {
      const pose = randomPose(rand, 2);
      const mesh = bumpyMesh(rand);
      const cw = new CollisionWorld();
      cw.addStaticShape(placed({ type: 'trimesh', ...mesh }, pose));
      const tris = worldTriangles(pose, mesh);
      for (let i = 0; i < 20; i++) {
        const { o, d } = rayAt(rand, [pose[9], pose[10], pose[11]], 0.6);
        const ref = refTriangles(tris, o, d);
        if (ref) hits++;
        const hit = cw.castRay(o, d, 10);
        expectHit(hit, ref, `mesh pose ${p} ray ${i}`);
      }
    }
    expect(hits).toBeGreaterThan(150);
  });

  it('heightfield: every triangle, without the cell walk (400 rays)', () => {
    const rand = mulberry32(107);
    let hits = 0;
    for (let p = 0; p < 20; p++) {
      const pose = randomPose(rand, 2);
      const rows = 5 + Math.floor(4 * rand()), cols = 5 + Math.floor(4 * rand()), sx = 0.1 + 0.2 * rand(), sz = 0.1 + 0.2 * rand();
      const heights = Array.from({ length: rows * cols }, () => 0.3 * rand());
      const cw = new CollisionWorld();
      cw.addStaticShape(placed({ type: 'heightfield', rows, cols, spacingX: sx, spacingZ: sz, heights }, pose));
      const tris = heightfieldTriangles(pose, rows, cols, sx, sz, heights);
      const mid = toWorld(pose, [0.5 * (cols - 1) * sx, 0.15, 0.5 * (rows - 1) * sz]);
      for (let i = 0; i < 20; i++) {
        const { o, d } = rayAt(rand, mid, 0.5 * Math.max(rows * sz, cols * sx));
        const ref = refTriangles(tris, o, d);
        if (ref) hits++;
        expectHit(cw.castRay(o, d, 10), ref, `heightfield pose ${p} ray ${i}`);
      }
    }
    expect(hits).toBeGreaterThan(150);
  });

  it('maxDistance cuts hits off; a ray starting inside a solid hits at 0 against the ray', () => {
    const cw = new CollisionWorld();
    cw.addStaticShape({ geometry: { type: 'sphere', radius: 1 }, position: [0, 0, 5] });
    expect(cw.castRay([0, 0, 0], [0, 0, 1], 3.999)).toBeNull();
    expect(cw.castRay([0, 0, 0], [0, 0, 2], 4)?.distance).toBe(4);
    const inside = cw.castRay([0, 0.5, 5], [0, 3, 4], 10) as RayHit;
    expect(inside.distance).toBe(0);
    expect(Array.from(inside.normal)).toEqual([-0, -0.6, -0.8]);
    expect(Array.from(inside.point)).toEqual([0, 0.5, 5]);
  });
});

// ---------------------------------------------------------------------------------------------
// A scene of many shapes

interface SceneShape { handle: number; ref: (o: V3, d: V3) => Ref | null }

/** n random dynamic shapes (one link each) over a 20 m square, a tilted plane, a mesh, a heightfield and a hull. */
function randomScene(seed: number, n: number) {
  const rand = mulberry32(seed);
  const cw = new CollisionWorld();
  const shapes: SceneShape[] = [];
  const poses: Float64Array[] = [];
  for (let b = 0; b < n; b++) {
    cw.setBody(b, 1);
    const pose = makePose(randomRotation(rand), [20 * rand() - 10, 3 * rand(), 20 * rand() - 10]);
    poses.push(pose);
    const kind = b % 4;
    if (kind === 0) {
      const r = 0.1 + 0.3 * rand();
      shapes.push({ handle: cw.addDynamicShape(b, 0, { geometry: { type: 'sphere', radius: r }, group: 1 + (b % 3) }), ref: (o, d) => refSphere([pose[9], pose[10], pose[11]], r, o, d) });
    } else if (kind === 1) {
      const h: V3 = [0.05 + 0.3 * rand(), 0.05 + 0.3 * rand(), 0.05 + 0.3 * rand()];
      const faces = boxFaces(pose, h);
      shapes.push({ handle: cw.addDynamicShape(b, 0, { geometry: { type: 'box', halfExtents: h }, group: 1 + (b % 3) }), ref: (o, d) => refPolytope(faces, o, d) });
    } else if (kind === 2) {
      const r = 0.05 + 0.2 * rand(), half = 0.05 + 0.3 * rand();
      shapes.push({ handle: cw.addDynamicShape(b, 0, { geometry: { type: 'capsule', radius: r, halfLength: half }, group: 1 + (b % 3) }), ref: (o, d) => refCapsule(pose, r, half, o, d) });
    } else {
      const hull = new ConvexHullData(HULL_POINTS, 'hull');
      const faces = hullFaces(pose, hull);
      shapes.push({ handle: cw.addDynamicShape(b, 0, { geometry: { type: 'convex', points: HULL_POINTS }, group: 1 + (b % 3) }), ref: (o, d) => refPolytope(faces, o, d) });
    }
  }
  const planePose = makePose(rotationAxisAngle(unit([1, 0, 0.5]), 0.05), [0, -1, 0]);
  {
    const n0: V3 = [planePose[1], planePose[4], planePose[7]], q: V3 = [0, -1, 0];
    shapes.push({ handle: cw.addStaticShape(placed({ type: 'plane' }, planePose)), ref: (o, d) => refPlane(n0, q, o, d) });
  }
  {
    const pose = makePose(randomRotation(rand), [3, 1, 3]);
    const mesh = bumpyMesh(rand), tris = worldTriangles(pose, mesh);
    shapes.push({ handle: cw.addStaticShape(placed({ type: 'trimesh', ...mesh }, pose)), ref: (o, d) => refTriangles(tris, o, d) });
  }
  {
    const pose = makePose([1, 0, 0, 0, 1, 0, 0, 0, 1], [-8, -0.5, -8]);
    const heights = Array.from({ length: 64 }, () => 0.5 * rand());
    const tris = heightfieldTriangles(pose, 8, 8, 1, 1, heights);
    shapes.push({ handle: cw.addStaticShape(placed({ type: 'heightfield', rows: 8, cols: 8, spacingX: 1, spacingZ: 1, heights }, pose)), ref: (o, d) => refTriangles(tris, o, d) });
  }
  cw.update(poses);
  return { cw, shapes, rand, poses };
}

function bruteFirst(shapes: SceneShape[], o: V3, d: V3, maxDistance: number, keep: (handle: number) => boolean = () => true): { handle: number; ref: Ref } | null {
  let best: { handle: number; ref: Ref } | null = null;
  for (const s of shapes) {
    if (!keep(s.handle)) continue;
    const ref = s.ref(o, d);
    if (ref && ref.t <= maxDistance && (best === null || ref.t < best.ref.t)) best = { handle: s.handle, ref };
  }
  return best;
}

describe('castRay through the query grid against a brute force over all shapes', () => {
  it('300 shapes, 600 rays: the same first shape, distance and normal', () => {
    const { cw, shapes, rand } = randomScene(201, 300);
    let hits = 0, misses = 0;
    const out = new RayHit();
    for (let i = 0; i < 600; i++) {
      const o: V3 = [24 * rand() - 12, 4 * rand() + 0.5, 24 * rand() - 12];
      const d = i % 3 === 0 ? unit([rand() - 0.5, -0.3 * rand(), rand() - 0.5]) : randomUnit(rand);
      const maxDistance = i % 5 === 0 ? 3 : 40;
      const ref = bruteFirst(shapes, o, d, maxDistance);
      const hit = cw.castRay(o, d, maxDistance, undefined, out);
      if (ref === null) { expect(hit, `ray ${i}`).toBeNull(); misses++; continue; }
      hits++;
      expect(hit, `ray ${i}`).toBe(out);
      expect(out.shape, `ray ${i}: shape`).toBe(ref.handle);
      expect(Math.abs(out.distance - ref.ref.t), `ray ${i}: distance`).toBeLessThan(TOL);
      expect(norm(sub(out.normal, ref.ref.n)), `ray ${i}: normal`).toBeLessThan(TOL);
      expect(norm(sub(out.point, add(o, scale(d, out.distance))))).toBeLessThan(1e-12);
    }
    expect(hits).toBeGreaterThan(300);
    expect(misses).toBeGreaterThan(10);
  });

  it('castRayAll reports exactly the shapes the brute force hits, each at its first hit', () => {
    const { cw, shapes, rand } = randomScene(202, 200);
    let total = 0;
    for (let i = 0; i < 100; i++) {
      const o: V3 = [24 * rand() - 12, 2 * rand() + 0.5, 24 * rand() - 12];
      const d = unit([rand() - 0.5, -0.1 * rand(), rand() - 0.5]);
      const expected = new Map<number, number>();
      for (const s of shapes) { const r = s.ref(o, d); if (r && r.t <= 30) expected.set(s.handle, r.t); }
      const got = new Map<number, number>();
      cw.castRayAll(o, d, 30, (h) => { expect(got.has(h.shape)).toBe(false); got.set(h.shape, h.distance); });
      expect([...got.keys()].sort((a, b) => a - b), `ray ${i}`).toEqual([...expected.keys()].sort((a, b) => a - b));
      for (const [k, t] of got) expect(Math.abs(t - (expected.get(k) as number))).toBeLessThan(TOL);
      total += got.size;
    }
    expect(total).toBeGreaterThan(60);
  });
});

describe('filters', () => {
  it('group and mask, an excluded body and a predicate leave exactly those shapes out', () => {
    const { cw, shapes, rand } = randomScene(301, 200);
    const owner = new Map<number, number>();
    for (const s of shapes) owner.set(s.handle, cw.shapeOwner(s.handle)[0]);
    const groupOf = (h: number) => (owner.get(h) as number) < 0 ? 1 : 1 + ((owner.get(h) as number) % 3);
    let differ = 0;
    for (let i = 0; i < 200; i++) {
      const o: V3 = [24 * rand() - 12, 2 * rand() + 0.5, 24 * rand() - 12];
      const d = unit([rand() - 0.5, -0.2 * rand(), rand() - 0.5]);
      const all = bruteFirst(shapes, o, d, 30);
      const mask = bruteFirst(shapes, o, d, 30, (h) => (groupOf(h) & 2) !== 0);
      const hitMask = cw.castRay(o, d, 30, { mask: 2 });
      expect(hitMask?.shape ?? -1, `mask ray ${i}`).toBe(mask?.handle ?? -1);
      if (all && all.handle !== (mask?.handle ?? -1)) differ++;
      if (all && owner.get(all.handle) as number >= 0) {
        const body = owner.get(all.handle) as number;
        const ex = bruteFirst(shapes, o, d, 30, (h) => owner.get(h) !== body);
        expect(cw.castRay(o, d, 30, { excludeBody: body })?.shape ?? -1, `exclude ray ${i}`).toBe(ex?.handle ?? -1);
      }
      const pred = bruteFirst(shapes, o, d, 30, (h) => h % 2 === 0);
      expect(cw.castRay(o, d, 30, { predicate: (_b, _l, h) => h % 2 === 0 })?.shape ?? -1, `predicate ray ${i}`).toBe(pred?.handle ?? -1);
    }
    expect(differ).toBeGreaterThan(20);
  });

  it('the query group meets the shape mask', () => {
    const cw = new CollisionWorld();
    cw.addStaticShape({ geometry: { type: 'sphere', radius: 1 }, position: [0, 0, 5], group: 1, mask: 4 });
    expect(cw.castRay([0, 0, 0], [0, 0, 1], 10, { group: 2 })).toBeNull();
    expect(cw.castRay([0, 0, 0], [0, 0, 1], 10, { group: 4 })?.distance).toBe(4);
  });
});

describe('bad input', () => {
  it('throws a RangeError naming the argument', () => {
    const cw = new CollisionWorld();
    cw.addStaticShape({ geometry: { type: 'plane' } });
    expect(() => cw.castRay([NaN, 0, 0], [0, -1, 0], 1)).toThrow(/castRay: origin/);
    expect(() => cw.castRay([0, 1, 0], [0, 0, 0], 1)).toThrow(/castRay: direction/);
    expect(() => cw.castRay([0, 1, 0], [0, -1, 0], -1)).toThrow(/castRay: maxDistance/);
    expect(() => cw.castRay([0, 1, 0], [0, -1, 0], NaN)).toThrow(RangeError);
    expect(() => cw.castRayAll([0, 1, 0], [0, Infinity, 0], 1, () => {})).toThrow(/castRayAll: direction/);
    expect(() => cw.pointQuery([0, 1], () => {})).toThrow(/pointQuery: point/);
    // typed arrays of either precision are accepted
    expect(cw.castRay(Float32Array.of(0, 1, 0), Float64Array.of(0, -2, 0), 5)?.distance).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// World-level queries

function crate(h: V3) {
  const b = new ModelBuilder();
  const m = 10;
  b.addLink({ name: 'crate', parent: null, joint: { type: 'free' }, mass: m, inertia: [(m * (h[1] ** 2 + h[2] ** 2)) / 3, (m * (h[0] ** 2 + h[2] ** 2)) / 3, (m * (h[0] ** 2 + h[1] ** 2)) / 3, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: h } }] });
  return b.build();
}

/** The pose of a free body from its q (position, then quaternion [x, y, z, w]), computed here. */
function poseOfFreeQ(q: ArrayLike<number>): Float64Array {
  const [x, y, z, w] = [q[3], q[4], q[5], q[6]];
  const R = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
  return makePose(R, [q[0], q[1], q[2]]);
}

describe('World queries at the bodies\' current poses', () => {
  it('see a sleeping body where it sleeps, and a body moved by hand between steps', () => {
    const h: V3 = [0.3, 0.2, 0.25];
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const a = world.addBody(crate(h), { name: 'a' });
    const b = world.addBody(crate(h), { name: 'b' });
    a.state.q.set([0, 0.5, 0, 0, 0, 0.05, 1]);
    b.state.q.set([3, 0.21, 0, 0, 0, 0, 1]);
    for (let i = 0; i < 600 && !(a.sleeping && b.sleeping); i++) world.step(1 / 60);
    expect(a.sleeping).toBe(true);
    const down: V3 = [0, -1, 0];
    for (const [body, x] of [[a, 0.05], [b, 3.1]] as const) {
      const o: V3 = [x, 2, 0.02];
      const ref = refPolytope(boxFaces(poseOfFreeQ(body.state.q), h), o, down) as Ref;
      const hit = world.castRay(o, down, 5) as RayHit;
      expect(hit.body).toBe(body.index);
      expect(hit.link).toBe(0);
      expect(hit.staticShape).toBe(-1);
      expect(Math.abs(hit.distance - ref.t)).toBeLessThan(TOL);
      expect(ref.t).toBeGreaterThan(1.5); // on the ground: top face about 0.4 m up
    }
    // moved by hand between steps: the query finds it at its new place, not at the old one
    b.state.q.set([-4, 1, 2, 0, Math.sin(0.3), 0, Math.cos(0.3)]);
    const o: V3 = [-4.05, 3, 2.03];
    const ref = refPolytope(boxFaces(poseOfFreeQ(b.state.q), h), o, down) as Ref;
    const hit = world.castRay(o, down, 5) as RayHit;
    expect(hit.body).toBe(b.index);
    expect(Math.abs(hit.distance - ref.t)).toBeLessThan(TOL);
    expect(world.castRay([3.1, 2, 0.02], down, 5)?.body).toBe(-1); // the ground where it was
    // pointQuery and bodiesInAabb see it there too
    const found: number[] = [];
    world.pointQuery([-4, 1, 2], (body) => { found.push(body); });
    expect(found).toEqual([b.index]);
    const inBox: number[] = [];
    world.bodiesInAabb([-4.1, 0.9, 1.9], [-3.9, 1.1, 2.1], (body) => { inBox.push(body); });
    expect(inBox).toEqual([b.index]);
    // queries leave the simulation as it was: the same steps with and without them
    world.step(1 / 60);
  });

  it('a world queried between steps steps to the same bits as one that is not', () => {
    const make = () => {
      const world = new World();
      world.addStatic({ geometry: { type: 'plane' } });
      for (let k = 0; k < 3; k++) {
        const body = world.addBody(crate([0.2, 0.15, 0.1]), { name: `c${k}` });
        body.state.q.set([0.1 * k, 0.3 + 0.35 * k, 0.05 * k, 0, 0.1 * k, 0.05, 1]);
      }
      return world;
    };
    const quiet = make(), asked = make();
    for (let i = 0; i < 240; i++) {
      quiet.step(1 / 60);
      asked.step(1 / 60);
      asked.castRay([0.05, 3, 0.02], [0, -1, 0], 10);
      asked.pointQuery([0, 0.2, 0], () => {});
    }
    for (let k = 0; k < 3; k++) expect(Array.from(asked.bodies[k].state.q)).toEqual(Array.from(quiet.bodies[k].state.q));
    expect(asked.bodies.some((b) => b.sleeping)).toBe(quiet.bodies.some((b) => b.sleeping));
  });
});

describe('pointQuery and bodiesInAabb', () => {
  it('pointQuery reports exactly the shapes whose inside test holds (written here), through the grid', () => {
    const { cw, rand, poses } = randomScene(401, 200);
    let found = 0;
    for (let i = 0; i < 300; i++) {
      // points inside or near the dynamic shapes
      const p = poses[Math.floor(rand() * poses.length)];
      const x: V3 = [p[9] + 0.4 * (rand() - 0.5), p[10] + 0.4 * (rand() - 0.5), p[11] + 0.4 * (rand() - 0.5)];
      const got: number[] = [];
      cw.pointQuery(x, (_b, _l, h) => { got.push(h); });
      for (const h of got) {
        // every reported shape: the ray from the point hits it at distance 0 (starts inside)
        expect(cw.castRay(x, [0, 1, 0], 1, { predicate: (_b, _l, s) => s === h })?.distance, `point ${i} shape ${h}`).toBe(0);
      }
      found += got.length;
    }
    expect(found).toBeGreaterThan(100);
  });
});

describe('allocation', () => {
  /** Young-generation growth per call of fn (see young-generation.ts), within a budget of 40 batches. */
  const perCall = (fn: () => void, bound: number) => youngGenerationGrowth(fn, { warm: 20000, calls: 1000, bound, attempts: 12 });

  it('pointQuery on 300 shapes: under 4 B a call', () => {
    const { cw, poses } = randomScene(502, 300);
    const o = new Float64Array(3);
    let k = 0, n = 0;
    const count = () => { n++; };
    const m = perCall(() => { const p = poses[k++ % poses.length]; o[0] = p[9]; o[1] = p[10]; o[2] = p[11]; cw.pointQuery(o, count); }, 4);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
    expect(n).toBeGreaterThan(0);
  });

  // (castRay allocated about 140 B a call, castRayAll 23 B and World.castRay 32 B: the ray's length,
  // passed to the grid walk as a number, and merged there with the doubles of the walk, was boxed)
  it('castRay and castRayAll on 300 shapes with caller-owned objects: under 4 B a call', () => {
    const { cw } = randomScene(501, 300);
    const out = new RayHit();
    const o = new Float64Array([0, 1, 0]), d = new Float32Array([1, -0.1, 0.3]);
    let k = 0, n = 0;
    const count = () => { n++; };
    const filter = { mask: 3, excludeBody: 5 };
    const ray = perCall(() => { o[0] = (k++ % 20) - 10; cw.castRay(o, d, 30, filter, out); }, 4);
    const all = perCall(() => { o[0] = (k++ % 20) - 10; cw.castRayAll(o, d, 30, count); }, 4);
    const point = perCall(() => { o[0] = (k++ % 20) - 10; cw.pointQuery(o, count); }, 4);
    console.log(`[allocation] castRay ${describeBatches(ray)}; castRayAll ${describeBatches(all)}; pointQuery ${describeBatches(point)}`);
    expect(point.perCall, describeBatches(point)).toBeLessThan(4);
    expect(ray.perCall, describeBatches(ray)).toBeLessThan(4);
    expect(all.perCall, describeBatches(all)).toBeLessThan(4);
    expect(n).toBeGreaterThan(0);
  });

  it('World.castRay with an out object between steps: under 4 B a call', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    for (let k = 0; k < 4; k++) world.addBody(crate([0.2, 0.2, 0.2]), { name: `c${k}` }).state.q.set([k, 0.2, 0, 0, 0, 0, 1]);
    world.step(1 / 60);
    const out = new RayHit();
    const o = [0, 3, 0], d = [0, -1, 0];
    let hits = 0;
    const m = perCall(() => { if (world.castRay(o, d, 10, undefined, out)?.body === 0) hits++; }, 4);
    console.log(`[allocation] World.castRay ${describeBatches(m)}`);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
    expect(hits).toBeGreaterThan(0);
  });
});
