/**
 * Test helpers for the collision tests: a seeded random generator, rotations written from scratch
 * (Rodrigues' formula, not the library's quaternion code), contact buffer readers, and an
 * independent geometric oracle for convex shapes built only on support functions, signed distance
 * functions and brute force.
 *
 * Oracle: for convex A and B, depth = min over unit u of f(u) = h_A(-u) + h_B(u), with
 * h_K(u) = max_{x in K} u.x. Moving A by t along u separates the shapes once t >= f(u); the least
 * such t over all u is the penetration depth (and minus the distance when apart), the minimising u
 * the normal that pushes A out of B. exactDepth finds it by brute force on the Minkowski
 * difference of the shapes' cores (sphere = point, capsule = segment, box = 8 corners, hull = its points, each grown
 * by its radius); oracleDepth / roughDepth approximate it by sampling the sphere of directions
 * (used only to place shapes at a wanted depth).
 */
import { CollisionWorld } from '../src/collision/index.js';
import { CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_DEPTH, CONTACT_F64_STRIDE, CONTACT_FEATURE, CONTACT_FRICTION, CONTACT_I32_STRIDE, CONTACT_LINK_A, CONTACT_LINK_B, CONTACT_NORMAL, CONTACT_POINT_A, CONTACT_POINT_B, CONTACT_RESTITUTION, CONTACT_SHAPE_A, CONTACT_SHAPE_B, CONTACT_SUB_SHAPE, type ContactBuffer } from '../src/internals.js';
import type { ShapeDesc } from '@sinew/featherstone';

export type V3 = [number, number, number];

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: ArrayLike<number>, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
export const norm = (a: ArrayLike<number>): number => Math.sqrt(dot(a, a));
export const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const unit = (a: ArrayLike<number>): V3 => scale(a, 1 / norm(a));

/** Rotation matrix (row-major 9) about a unit axis by an angle, by Rodrigues' formula. */
export function rotationAxisAngle(axis: ArrayLike<number>, angle: number): number[] {
  const [x, y, z] = unit(axis);
  const c = Math.cos(angle), s = Math.sin(angle), C = 1 - c;
  return [
    c + x * x * C, x * y * C - z * s, x * z * C + y * s,
    y * x * C + z * s, c + y * y * C, y * z * C - x * s,
    z * x * C - y * s, z * y * C + x * s, c + z * z * C,
  ];
}

/** Quaternion [x, y, z, w] of the same rotation. */
export function quatAxisAngle(axis: ArrayLike<number>, angle: number): [number, number, number, number] {
  const [x, y, z] = unit(axis);
  const s = Math.sin(angle / 2);
  return [x * s, y * s, z * s, Math.cos(angle / 2)];
}

export function matMul(a: number[], b: number[]): number[] {
  const r = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return r;
}

export function randomUnit(rand: () => number): V3 {
  for (;;) {
    const v: V3 = [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1];
    const n = norm(v);
    if (n > 0.1 && n <= 1) return scale(v, 1 / n);
  }
}

export function randomRotation(rand: () => number): number[] {
  return rotationAxisAngle(randomUnit(rand), Math.PI * (2 * rand() - 1));
}

/** A 12-number pose [R row-major, p]. */
export function makePose(R: number[], p: ArrayLike<number>): Float64Array {
  return Float64Array.from([...R, p[0], p[1], p[2]]);
}

export const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Column k of a row-major rotation = local axis k in world. */
export const column = (R: ArrayLike<number>, k: number): V3 => [R[k], R[3 + k], R[6 + k]];

/** Local point -> world by a pose. */
export function toWorld(pose: ArrayLike<number>, l: ArrayLike<number>): V3 {
  return [
    pose[0] * l[0] + pose[1] * l[1] + pose[2] * l[2] + pose[9],
    pose[3] * l[0] + pose[4] * l[1] + pose[5] * l[2] + pose[10],
    pose[6] * l[0] + pose[7] * l[1] + pose[8] * l[2] + pose[11],
  ];
}

// ---------------------------------------------------------------------------------------------
// Oracle shapes

export type OracleShape =
  | { kind: 'sphere'; c: V3; r: number }
  | { kind: 'capsule'; p0: V3; p1: V3; r: number }
  | { kind: 'box'; c: V3; axes: [V3, V3, V3]; h: V3 }
  /** A convex hull: its points and its face planes n . x = d (outward n), found by brute force. */
  | { kind: 'hull'; pts: V3[]; planes: { n: V3; d: number }[] };

/** The hull of local points carried by a pose; its planes from every triple of points with all points on one side. */
export function oracleHull(pose: ArrayLike<number>, local: ArrayLike<number>): OracleShape {
  const pts: V3[] = [];
  for (let i = 0; i < local.length; i += 3) pts.push(toWorld(pose, [local[i], local[i + 1], local[i + 2]]));
  const size = Math.max(...pts.map((p) => norm(sub(p, pts[0]))));
  const eps = 1e-9 * size;
  const planes: { n: V3; d: number }[] = [];
  for (let i = 0; i < pts.length; i++) {
    for (let j = i + 1; j < pts.length; j++) {
      for (let k = j + 1; k < pts.length; k++) {
        const c = cross(sub(pts[j], pts[i]), sub(pts[k], pts[i]));
        if (norm(c) < 1e-9 * size * size) continue;
        let n = unit(c), d = dot(n, pts[i]);
        const side = pts.map((q) => dot(n, q) - d);
        if (side.some((v) => v > eps) && side.some((v) => v < -eps)) continue;
        if (side.some((v) => v > eps)) { n = scale(n, -1); d = -d; }
        if (!planes.some((q) => norm(sub(q.n, n)) < 1e-9 && Math.abs(q.d - d) < eps)) planes.push({ n, d });
      }
    }
  }
  return { kind: 'hull', pts, planes };
}

export function oracleSphere(pose: ArrayLike<number>, r: number): OracleShape {
  return { kind: 'sphere', c: [pose[9], pose[10], pose[11]], r };
}

export function oracleCapsule(pose: ArrayLike<number>, r: number, halfLength: number): OracleShape {
  return { kind: 'capsule', p0: toWorld(pose, [0, -halfLength, 0]), p1: toWorld(pose, [0, halfLength, 0]), r };
}

export function oracleBox(pose: ArrayLike<number>, h: V3): OracleShape {
  return { kind: 'box', c: [pose[9], pose[10], pose[11]], axes: [column(pose, 0), column(pose, 1), column(pose, 2)], h };
}

/** Support function h_K(u) = max over K of u . x. */
export function support(s: OracleShape, u: V3): number {
  if (s.kind === 'sphere') return dot(u, s.c) + s.r * norm(u);
  if (s.kind === 'capsule') return Math.max(dot(u, s.p0), dot(u, s.p1)) + s.r * norm(u);
  if (s.kind === 'hull') return Math.max(...s.pts.map((p) => dot(u, p)));
  return dot(u, s.c) + s.h[0] * Math.abs(dot(u, s.axes[0])) + s.h[1] * Math.abs(dot(u, s.axes[1])) + s.h[2] * Math.abs(dot(u, s.axes[2]));
}

/**
 * Signed distance from x to the shape's surface (negative inside). For a hull: the largest plane
 * distance, which is the distance inside and on the faces, and 0 only on the surface.
 */
export function signedDistance(s: OracleShape, x: V3): number {
  if (s.kind === 'hull') return Math.max(...s.planes.map((q) => dot(q.n, x) - q.d));
  if (s.kind === 'sphere') return norm(sub(x, s.c)) - s.r;
  if (s.kind === 'capsule') {
    const d = sub(s.p1, s.p0);
    const dd = dot(d, d);
    const t = dd > 0 ? Math.min(1, Math.max(0, dot(sub(x, s.p0), d) / dd)) : 0;
    return norm(sub(x, add(s.p0, scale(d, t)))) - s.r;
  }
  const l = sub(x, s.c);
  const q = [0, 1, 2].map((k) => Math.abs(dot(l, s.axes[k])) - s.h[k]);
  const outside = Math.sqrt(q.reduce((acc, v) => acc + Math.max(v, 0) ** 2, 0));
  return outside + Math.min(Math.max(q[0], q[1], q[2]), 0);
}

/** f(u) = h_A(-u) + h_B(u): the translation along u that separates A from B. */
export function separationAlong(a: OracleShape, b: OracleShape, u: V3): number {
  return support(a, scale(u, -1)) + support(b, u);
}

/**
 * Penetration depth (negative: distance) and the normal pushing A out of B, by sampling the unit
 * sphere (Fibonacci lattice) and refining the best samples with a shrinking pattern search.
 */
export function oracleDepth(a: OracleShape, b: OracleShape, samples = 3000, refineSeeds = 6, minStep = 1e-11): { depth: number; normal: V3 } {
  const f = (u: V3) => separationAlong(a, b, u);
  const seeds: { v: number; u: V3 }[] = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < samples; i++) {
    const y = 1 - (2 * (i + 0.5)) / samples;
    const rad = Math.sqrt(1 - y * y);
    const u: V3 = [Math.cos(golden * i) * rad, y, Math.sin(golden * i) * rad];
    seeds.push({ v: f(u), u });
  }
  seeds.sort((p, q) => p.v - q.v);
  let best = seeds[0];
  const dirs = 16;
  for (const seed of seeds.slice(0, refineSeeds)) {
    let u = seed.u, v = seed.v;
    let step = 0.05;
    while (step > minStep) {
      const t1 = unit(cross(u, Math.abs(u[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0]));
      const t2 = cross(u, t1);
      let improved = false;
      for (let k = 0; k < dirs; k++) {
        const ang = (2 * Math.PI * k) / dirs;
        const w = unit(add(u, add(scale(t1, step * Math.cos(ang)), scale(t2, step * Math.sin(ang)))));
        const fw = f(w);
        if (fw < v) {
          v = fw; u = w; improved = true;
        }
      }
      if (!improved) step *= 0.5;
    }
    if (v < best.v) best = { v, u };
  }
  return { depth: best.v, normal: best.u };
}

/** Core points and sweep radius of a shape: the shape is conv(points) grown by the radius. */
function corePoints(s: OracleShape): { pts: V3[]; r: number } {
  if (s.kind === 'sphere') return { pts: [s.c], r: s.r };
  if (s.kind === 'capsule') return { pts: [s.p0, s.p1], r: s.r };
  if (s.kind === 'hull') return { pts: s.pts, r: 0 };
  const pts: V3[] = [];
  for (let i = 0; i < 8; i++) {
    let p = s.c;
    for (let k = 0; k < 3; k++) p = add(p, scale(s.axes[k], (i >> k) & 1 ? s.h[k] : -s.h[k]));
    pts.push(p);
  }
  return { pts, r: 0 };
}

function closestOnSegmentToOrigin(a: V3, b: V3): V3 {
  const d = sub(b, a);
  const dd = dot(d, d);
  const t = dd > 0 ? Math.min(1, Math.max(0, -dot(a, d) / dd)) : 0;
  return add(a, scale(d, t));
}

/**
 * Exact depth by brute force on the Minkowski difference. Both shapes are convex polytopes (a
 * point, a segment, a box) grown by a radius, so f(u) = max over W of u.w + rA + rB with
 * W = {b_j - a_i}. If the origin is inside conv(W), min f is the smallest offset of a supporting
 * plane of W (found from every triple of points); otherwise it is minus the distance from the
 * origin to conv(W) (found over every point, pair and triple).
 */
export function exactDepth(a: OracleShape, b: OracleShape): { depth: number; normal: V3 } {
  const A = corePoints(a), B = corePoints(b);
  const W: V3[] = [];
  for (const pb of B.pts) for (const pa of A.pts) W.push(sub(pb, pa));
  const R = A.r + B.r;
  const n = W.length;
  const scaleW = Math.max(...W.map(norm), 1e-3);
  const eps = 1e-12 * scaleW;
  let minOffset = Infinity, facetNormal: V3 = [0, 1, 0], facets = 0, originOutside = false;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        const c = cross(sub(W[j], W[i]), sub(W[k], W[i]));
        const len = norm(c);
        if (len < 1e-9 * scaleW * scaleW) continue;
        let nrm = scale(c, 1 / len);
        let d = dot(nrm, W[i]);
        let above = 0, below = 0;
        for (const w of W) {
          const s = dot(nrm, w) - d;
          if (s > eps) above++;
          else if (s < -eps) below++;
        }
        if (above > 0 && below > 0) continue;
        if (above > 0) { nrm = scale(nrm, -1); d = -d; }
        facets++;
        if (d < 0) originOutside = true;
        if (d < minOffset) { minOffset = d; facetNormal = nrm; }
      }
    }
  }
  if (facets > 0 && !originOutside) return { depth: minOffset + R, normal: facetNormal };
  // Origin outside: closest point of conv(W) lies on a point, an edge or a triangle of W.
  let best = Infinity, bestP: V3 = W[0];
  const consider = (p: V3) => {
    const d = norm(p);
    if (d < best) { best = d; bestP = p; }
  };
  for (let i = 0; i < n; i++) {
    consider(W[i]);
    for (let j = i + 1; j < n; j++) {
      consider(closestOnSegmentToOrigin(W[i], W[j]));
      for (let k = j + 1; k < n; k++) {
        const c = cross(sub(W[j], W[i]), sub(W[k], W[i]));
        const cc = dot(c, c);
        if (cc < 1e-24) continue;
        // Projection of the origin onto the plane, kept when inside the triangle.
        const p = scale(c, dot(c, W[i]) / cc);
        const inside = [0, 1, 2].every((e) => {
          const P = [W[i], W[j], W[k]];
          return dot(cross(sub(P[(e + 1) % 3], P[e]), sub(p, P[e])), c) >= 0;
        });
        if (inside) consider(p);
      }
    }
  }
  return { depth: R - best, normal: best > 0 ? scale(bestP, -1 / best) : [0, 1, 0] };
}

/** A quick, rough oracle for placing shapes (not for checking). */
export function roughDepth(a: OracleShape, b: OracleShape): number {
  return oracleDepth(a, b, 400, 1, 1e-4).depth;
}

/** A shape for the random-pose checks: its description, its oracle at a pose, a bounding radius. */
export interface PlacedShape {
  desc: ShapeDesc;
  oracle: (pose: Float64Array) => OracleShape;
  radius: number;
}

/**
 * Two shapes at random orientations, B moved from A along a random direction until the rough
 * oracle's depth is about target(rand) (drawn after the poses); the exact oracle's answer and the contacts a CollisionWorld
 * with this margin reports for the pair.
 */
export function collideAtRandom(A: PlacedShape, B: PlacedShape, rand: () => number, target: (rand: () => number) => number, margin: number): { oA: OracleShape; oB: OracleShape; truth: { depth: number; normal: V3 }; contacts: Contact[] } {
  const RA = randomRotation(rand), RB = randomRotation(rand);
  const pa: V3 = [rand() - 0.5, 1 + rand() - 0.5, rand() - 0.5];
  const dir = randomUnit(rand);
  const poseA = makePose(RA, pa);
  const oA = A.oracle(poseA);
  const poseBAt = (t: number) => makePose(RB, add(pa, scale(dir, t)));
  const t = placeAt(oA, (s) => B.oracle(poseBAt(s)), A.radius + B.radius + 0.1, target(rand));
  const poseB = poseBAt(t);
  const oB = B.oracle(poseB);
  const world = new CollisionWorld({ margin });
  world.setBody(0, 1);
  world.setBody(1, 1);
  world.addDynamicShape(0, 0, A.desc);
  world.addDynamicShape(1, 0, B.desc);
  world.detect([poseA, poseB]);
  return { oA, oB, truth: exactDepth(oA, oB), contacts: readContacts(world.contacts) };
}

/** Offset t in [0, tMax] at which the rough oracle's depth of a and bAt(t) is about `target` (bisection). */
export function placeAt(a: OracleShape, bAt: (t: number) => OracleShape, tMax: number, target: number): number {
  let lo = 0, hi = tMax;
  for (let i = 0; i < 18; i++) {
    const mid = 0.5 * (lo + hi);
    if (roughDepth(a, bAt(mid)) > target) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

// ---------------------------------------------------------------------------------------------
// Contact buffer reading

export interface Contact {
  pointA: V3;
  pointB: V3;
  normal: V3;
  depth: number;
  friction: number;
  restitution: number;
  shapeA: number;
  shapeB: number;
  bodyA: number;
  linkA: number;
  bodyB: number;
  linkB: number;
  subShape: number;
  feature: number;
}

export function readContacts(buf: ContactBuffer): Contact[] {
  const out: Contact[] = [];
  for (let i = 0; i < buf.count; i++) {
    const f = i * CONTACT_F64_STRIDE, k = i * CONTACT_I32_STRIDE;
    const F = buf.f64, I = buf.i32;
    out.push({
      pointA: [F[f + CONTACT_POINT_A], F[f + CONTACT_POINT_A + 1], F[f + CONTACT_POINT_A + 2]],
      pointB: [F[f + CONTACT_POINT_B], F[f + CONTACT_POINT_B + 1], F[f + CONTACT_POINT_B + 2]],
      normal: [F[f + CONTACT_NORMAL], F[f + CONTACT_NORMAL + 1], F[f + CONTACT_NORMAL + 2]],
      depth: F[f + CONTACT_DEPTH],
      friction: F[f + CONTACT_FRICTION],
      restitution: F[f + CONTACT_RESTITUTION],
      shapeA: I[k + CONTACT_SHAPE_A],
      shapeB: I[k + CONTACT_SHAPE_B],
      bodyA: I[k + CONTACT_BODY_A],
      linkA: I[k + CONTACT_LINK_A],
      bodyB: I[k + CONTACT_BODY_B],
      linkB: I[k + CONTACT_LINK_B],
      subShape: I[k + CONTACT_SUB_SHAPE],
      feature: I[k + CONTACT_FEATURE],
    });
  }
  return out;
}

/** linkPoses for one body whose links all have the given poses. */
export function linkPoses(...poses: ArrayLike<number>[]): Float64Array {
  const out = new Float64Array(12 * poses.length);
  poses.forEach((p, i) => out.set(Array.from(p), 12 * i));
  return out;
}

/** Sorts points lexicographically (for comparing point sets). */
export function sortPoints<T extends { pointA: V3 }>(cs: T[]): T[] {
  return [...cs].sort((p, q) => p.pointA[0] - q.pointA[0] || p.pointA[1] - q.pointA[1] || p.pointA[2] - q.pointA[2]);
}

/** The cube [-h, h]^3 as a closed, outward-wound triangle mesh. */
export function cubeMesh(h: V3): { vertices: number[]; indices: number[] } {
  const vertices: number[] = [];
  for (let i = 0; i < 8; i++) vertices.push(i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]);
  // Faces as quads (counter-clockwise seen from outside), split into two triangles.
  const quads = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];
  const indices: number[] = [];
  for (const [a, b, c, d] of quads) indices.push(a, b, c, a, c, d);
  return { vertices, indices };
}

/** Quaternion [x, y, z, w] of the rotation part of a pose (Shepperd's method). */
export function quatOfMatrix(m: ArrayLike<number>): [number, number, number, number] {
  const t = m[0] + m[4] + m[8];
  if (t > 0) {
    const s = 2 * Math.sqrt(1 + t);
    return [(m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s, s / 4];
  }
  if (m[0] > m[4] && m[0] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[0] - m[4] - m[8]);
    return [s / 4, (m[1] + m[3]) / s, (m[2] + m[6]) / s, (m[7] - m[5]) / s];
  }
  if (m[4] > m[8]) {
    const s = 2 * Math.sqrt(1 + m[4] - m[0] - m[8]);
    return [(m[1] + m[3]) / s, s / 4, (m[5] + m[7]) / s, (m[2] - m[6]) / s];
  }
  const s = 2 * Math.sqrt(1 + m[8] - m[0] - m[4]);
  return [(m[2] + m[6]) / s, (m[5] + m[7]) / s, s / 4, (m[3] - m[1]) / s];
}

/** Row-major rotation of a unit quaternion [x, y, z, w]. */
export function matrixOfQuaternion(q: ArrayLike<number>): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** A random unit quaternion [x, y, z, w]: a uniform axis and a uniform angle. */
export function randomQuaternion(rand: () => number): [number, number, number, number] {
  const a = randomUnit(rand), angle = 2 * Math.PI * rand(), s = Math.sin(angle / 2);
  return [a[0] * s, a[1] * s, a[2] * s, Math.cos(angle / 2)];
}
