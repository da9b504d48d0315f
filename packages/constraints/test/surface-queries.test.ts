/**
 * Shape queries against triangle meshes and heightfields (collision/surface-queries.ts, gjk.ts):
 * castShape and intersectShape of spheres, capsules and boxes at random poses against random
 * bumpy meshes and heightfields at random poses, checked against an oracle written here that
 * shares no code with the library: the distance from the query's core (a point, a segment, a box)
 * to each triangle by closed forms over the features (point-triangle by projection, segment-segment
 * by the minimum of their quadratic over the unit square, a crossing test for intersection), and
 * along a sweep the first touch of each triangle found from the convexity of that distance in the
 * travelled length: golden-section search for its minimum, then bisection to 1e-11. The cast's
 * time of impact is the minimum over every triangle (no BVH, no cell range). Then the same through
 * a World on a level with bodies (the nearest of each shape alone), and allocation.
 */
import { describe, expect, it } from 'vitest';
import { CollisionWorld, RayHit, RigidBody, ShapeHit, World, type QueryShape } from '../src/index.js';
import { describeBatches, youngGenerationGrowth } from '../../featherstone/test/young-generation.js';
import { type V3, add, cross, dot, makePose, matrixOfQuaternion, mulberry32, norm, quatOfMatrix, randomQuaternion, randomRotation, randomUnit, scale, sub, toWorld, unit } from './collision-helpers.js';

// ---------------------------------------------------------------------------------------------
// Oracle: distances by closed forms over features

function pointSegment(p: V3, a: V3, b: V3): number {
  const e = sub(b, a), ee = dot(e, e);
  const s = ee > 0 ? Math.min(1, Math.max(0, dot(sub(p, a), e) / ee)) : 0;
  return norm(sub(p, add(a, scale(e, s))));
}

/** Distance between segments: the minimum of |p(s) - q(u)|^2 over the unit square, inside or on its four sides. */
function segmentSegment(p0: V3, p1: V3, q0: V3, q1: V3): number {
  const d1 = sub(p1, p0), d2 = sub(q1, q0), r = sub(p0, q0);
  const a = dot(d1, d1), e = dot(d2, d2), b = dot(d1, d2), c = dot(d1, r), f = dot(d2, r);
  let best = Math.min(pointSegment(p0, q0, q1), pointSegment(p1, q0, q1), pointSegment(q0, p0, p1), pointSegment(q1, p0, p1));
  const det = a * e - b * b;
  if (det > 1e-14 * a * e) {
    // stationary point of |r + s d1 - u d2|^2: a s - b u = -c, b s - e u = -f
    const s = (b * f - c * e) / det, u = (a * f - b * c) / det;
    if (s >= 0 && s <= 1 && u >= 0 && u <= 1) best = Math.min(best, norm(sub(add(p0, scale(d1, s)), add(q0, scale(d2, u)))));
  }
  return best;
}

function pointTriangle(p: V3, t: V3[]): number {
  const [a, b, c] = t;
  const n = unit(cross(sub(b, a), sub(c, a)));
  const h = dot(sub(p, a), n), x = sub(p, scale(n, h));
  const inside = [0, 1, 2].every((k) => dot(cross(sub(t[(k + 1) % 3], t[k]), sub(x, t[k])), n) >= 0);
  if (inside) return Math.abs(h);
  return Math.min(pointSegment(p, a, b), pointSegment(p, b, c), pointSegment(p, c, a));
}

/** Whether segment p0 p1 crosses (or touches) the triangle. */
function segmentCrossesTriangle(p0: V3, p1: V3, t: V3[]): boolean {
  const [a, b, c] = t;
  const n = cross(sub(b, a), sub(c, a));
  const h0 = dot(sub(p0, a), n), h1 = dot(sub(p1, a), n);
  if ((h0 > 0 && h1 > 0) || (h0 < 0 && h1 < 0) || h0 === h1) return false;
  const x = add(p0, scale(sub(p1, p0), h0 / (h0 - h1)));
  return [0, 1, 2].every((k) => dot(cross(sub(t[(k + 1) % 3], t[k]), sub(x, t[k])), n) >= 0);
}

/** A query's core at a position: its points (1 sphere, 2 capsule, 8 box), edges, and for a box its frame. */
interface Core { pts: V3[]; edges: [V3, V3][]; box?: { c: V3; axes: V3[]; h: V3 }; r: number }

function coreOf(shape: QueryShape, R: number[], c: V3): Core {
  const axis = (k: number): V3 => [R[k], R[3 + k], R[6 + k]];
  if (shape.type === 'sphere') return { pts: [c], edges: [], r: shape.radius };
  if (shape.type === 'capsule') {
    const p0 = add(c, scale(axis(1), -shape.halfLength)), p1 = add(c, scale(axis(1), shape.halfLength));
    return { pts: [p0, p1], edges: [[p0, p1]], r: shape.radius };
  }
  const h: V3 = [shape.halfExtents[0], shape.halfExtents[1], shape.halfExtents[2]];
  const axes = [axis(0), axis(1), axis(2)];
  const corner = (i: number): V3 => add(add(add(c, scale(axes[0], i & 1 ? h[0] : -h[0])), scale(axes[1], i & 2 ? h[1] : -h[1])), scale(axes[2], i & 4 ? h[2] : -h[2]));
  const pts = Array.from({ length: 8 }, (_, i) => corner(i));
  const edges: [V3, V3][] = [];
  for (let i = 0; i < 8; i++) for (let k = 0; k < 3; k++) if (!(i & (1 << k))) edges.push([pts[i], pts[i | (1 << k)]]);
  return { pts, edges, box: { c, axes, h }, r: 0 };
}

function pointBox(p: V3, box: { c: V3; axes: V3[]; h: V3 }): number {
  const l = sub(p, box.c);
  let s = 0;
  for (let k = 0; k < 3; k++) { const x = Math.abs(dot(l, box.axes[k])) - box.h[k]; if (x > 0) s += x * x; }
  return Math.sqrt(s);
}

/** Whether segment p0 p1 meets the box (slabs in the box frame). */
function segmentMeetsBox(p0: V3, p1: V3, box: { c: V3; axes: V3[]; h: V3 }): boolean {
  let t0 = 0, t1 = 1;
  for (let k = 0; k < 3; k++) {
    const o = dot(sub(p0, box.c), box.axes[k]), d = dot(sub(p1, p0), box.axes[k]);
    if (d === 0) { if (Math.abs(o) > box.h[k]) return false; continue; }
    let ta = (-box.h[k] - o) / d, tb = (box.h[k] - o) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta); t1 = Math.min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

/** Distance from a core to a triangle; -1 when they meet. */
function coreTriangle(core: Core, t: V3[]): number {
  const triEdges: [V3, V3][] = [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]];
  if (core.box) {
    if (triEdges.some(([a, b]) => segmentMeetsBox(a, b, core.box!))) return -1;
    if (core.edges.some(([a, b]) => segmentCrossesTriangle(a, b, t))) return -1;
    let best = Math.min(...core.pts.map((p) => pointTriangle(p, t)), ...t.map((p) => pointBox(p, core.box!)));
    for (const [a, b] of core.edges) for (const [c, d] of triEdges) best = Math.min(best, segmentSegment(a, b, c, d));
    return best;
  }
  if (core.edges.length === 1) {
    const [a, b] = core.edges[0];
    if (segmentCrossesTriangle(a, b, t)) return -1;
    return Math.min(pointTriangle(a, t), pointTriangle(b, t), ...triEdges.map(([c, d]) => segmentSegment(a, b, c, d)));
  }
  const d = pointTriangle(core.pts[0], t);
  return d === 0 ? -1 : d;
}

/**
 * First length t in [0, max] at which the shape moved from start along d touches the triangle:
 * f(t) = distance - radius is convex in t (and where the cores meet, lower still: -1 - radius),
 * so its minimum is found by golden section and its first zero by bisection below it; Infinity
 * when it never reaches zero. A triangle whose bounding sphere stays farther from the sweep's
 * segment than the two bounding radii is never touched (Infinity without search).
 */
function oracleToi(shape: QueryShape, R: number[], start: V3, d: V3, max: number, t: V3[]): number {
  const g0 = scale(add(add(t[0], t[1]), t[2]), 1 / 3), rt = Math.max(...t.map((v) => norm(sub(v, g0))));
  const rq = shape.type === 'sphere' ? shape.radius : shape.type === 'capsule' ? shape.radius + shape.halfLength : norm(shape.halfExtents as V3);
  if (pointSegment(g0, start, add(start, scale(d, max))) > rt + rq + 1e-3) return Infinity;
  const f = (s: number): number => { const core = coreOf(shape, R, add(start, scale(d, s))); return coreTriangle(core, t) - core.r; };
  if (f(0) <= 0) return 0;
  let lo = 0, hi = max;
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = f(x1), f2 = f(x2);
  for (let k = 0; k < 80 && hi - lo > 1e-12; k++) {
    if (f1 <= 0 || f2 <= 0) break;
    if (f1 < f2) { hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = f(x1); } else { lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = f(x2); }
  }
  let m = f1 <= f2 ? x1 : x2;
  if (f(m) > 0) {
    if (f(max) <= 0) m = max; else return Infinity;
  }
  let a = 0, b = m;
  while (b - a > 1e-11) { const mid = 0.5 * (a + b); if (f(mid) <= 0) b = mid; else a = mid; }
  return b;
}

// ---------------------------------------------------------------------------------------------
// Scenes

function randomQueryShape(rand: () => number, type: QueryShape['type']): QueryShape {
  const size = () => 0.05 + 0.2 * rand();
  return type === 'sphere' ? { type, radius: size() } : type === 'capsule' ? { type, radius: size(), halfLength: size() } : { type, halfExtents: [size(), size(), size()] };
}

/** A bumpy mesh: an n x n grid of quads with random heights, two triangles each. */
function bumpyMesh(rand: () => number, n: number, spacing: number, bump: number): { vertices: number[]; indices: number[] } {
  const vertices: number[] = [], indices: number[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) vertices.push(spacing * (i - n / 2), bump * (rand() - 0.5), spacing * (j - n / 2));
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const a = i * (n + 1) + j, b = a + 1, c = a + n + 1, e = c + 1;
    indices.push(a, b, e, a, e, c);
  }
  return { vertices, indices };
}

interface Surface { cw: CollisionWorld; tris: V3[][]; pose: Float64Array; centre: V3; extent: number; below?: (x: V3) => boolean }

function meshSurface(rand: () => number): Surface {
  const pose = makePose(randomRotation(rand), [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1]);
  const mesh = bumpyMesh(rand, 6, 0.25, 0.3);
  const cw = new CollisionWorld();
  cw.addStaticShape({ geometry: { type: 'trimesh', ...mesh }, position: [pose[9], pose[10], pose[11]], rotation: quatOfMatrix(pose) });
  const tris: V3[][] = [];
  for (let i = 0; i < mesh.indices.length; i += 3) tris.push([0, 1, 2].map((k) => toWorld(pose, mesh.vertices.slice(3 * mesh.indices[i + k], 3 * mesh.indices[i + k] + 3))));
  return { cw, tris, pose, centre: [pose[9], pose[10], pose[11]], extent: 0.75 };
}

function fieldSurface(rand: () => number): Surface {
  const pose = makePose(randomRotation(rand), [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1]);
  const rows = 5 + Math.floor(4 * rand()), cols = 5 + Math.floor(4 * rand()), sx = 0.15 + 0.15 * rand(), sz = 0.15 + 0.15 * rand();
  const heights = Array.from({ length: rows * cols }, () => 0.4 * rand());
  const cw = new CollisionWorld();
  cw.addStaticShape({ geometry: { type: 'heightfield', rows, cols, spacingX: sx, spacingZ: sz, heights }, position: [pose[9], pose[10], pose[11]], rotation: quatOfMatrix(pose) });
  const local = (r: number, c: number): V3 => [c * sx, heights[r * cols + c], r * sz];
  const tris: V3[][] = [], localTris: V3[][] = [];
  for (let r = 0; r < rows - 1; r++) for (let c = 0; c < cols - 1; c++) {
    localTris.push([local(r, c), local(r + 1, c), local(r + 1, c + 1)], [local(r, c), local(r + 1, c + 1), local(r, c + 1)]);
  }
  for (const t of localTris) tris.push(t.map((v) => toWorld(pose, v)));
  // in the solid: not below the lowest height, and below the surface height of the triangle whose
  // (x, z) projection holds the point
  const lowest = Math.min(...heights);
  const below = (x: V3): boolean => {
    const d = sub(x, [pose[9], pose[10], pose[11]]);
    const l: V3 = [pose[0] * d[0] + pose[3] * d[1] + pose[6] * d[2], pose[1] * d[0] + pose[4] * d[1] + pose[7] * d[2], pose[2] * d[0] + pose[5] * d[1] + pose[8] * d[2]];
    for (const [a, b, c] of localTris) {
      const area = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
      const w1 = ((l[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (l[2] - a[2])) / area;
      const w2 = ((b[0] - a[0]) * (l[2] - a[2]) - (l[0] - a[0]) * (b[2] - a[2])) / area;
      if (w1 < 0 || w2 < 0 || w1 + w2 > 1) continue;
      return l[1] >= lowest && l[1] <= a[1] + w1 * (b[1] - a[1]) + w2 * (c[1] - a[1]);
    }
    return false;
  };
  const centre = toWorld(pose, [0.5 * (cols - 1) * sx, 0.2, 0.5 * (rows - 1) * sz]);
  return { cw, tris, pose, centre, extent: 0.5 * Math.max((cols - 1) * sx, (rows - 1) * sz), below };
}

function checkCasts(make: (rand: () => number) => Surface, seed: number, type: QueryShape['type'], surfaces: number, casts: number): { hits: number; misses: number } {
  const rand = mulberry32(seed);
  let hits = 0, misses = 0;
  const out = new ShapeHit();
  for (let p = 0; p < surfaces; p++) {
    const s = make(rand);
    for (let i = 0; i < casts; i++) {
      const shape = randomQueryShape(rand, type), q = randomQuaternion(rand), R = matrixOfQuaternion(q);
      const start = add(s.centre, scale(randomUnit(rand), s.extent * (0.6 + 1.2 * rand())));
      const aim = add(s.centre, scale(randomUnit(rand), s.extent * rand()));
      const d = unit(sub(aim, start)), max = 2.5 * s.extent;
      const tois = s.tris.map((t) => oracleToi(shape, R, start, d, max, t));
      const best = Math.min(...tois);
      const hit = s.cw.castShape(shape, { position: start, rotation: q }, d, max, undefined, out);
      const label = `${type} surface ${p} cast ${i}`;
      if (best === Infinity) {
        expect(hit, `${label}: no hit expected`).toBeNull();
        misses++;
        continue;
      }
      expect(hit, `${label}: hit expected at ${best}`).toBe(out);
      expect(Math.abs(out.distance - best), `${label}: distance ${out.distance} against ${best}`).toBeLessThan(1e-6);
      // the triangle reported is one the oracle finds first (to the same tolerance)
      expect(tois[out.subShape] - best, `${label}: triangle ${out.subShape}`).toBeLessThan(1e-6);
      expect(out.body).toBe(-1);
      expect(out.staticShape).toBe(0);
      if (best > 0) {
        // the point lies on that triangle, the shape at the hit touches it there, the normal is unit and against the sweep
        const core = coreOf(shape, R, add(start, scale(d, out.distance)));
        expect(pointTriangle([out.point[0], out.point[1], out.point[2]], s.tris[out.subShape]), `${label}: point on the triangle`).toBeLessThan(1e-6);
        expect(Math.abs(norm(out.normal) - 1)).toBeLessThan(1e-9);
        expect(dot(out.normal, d), `${label}: normal against the sweep`).toBeLessThanOrEqual(1e-9);
        // the plane through the point with that normal separates the triangle (behind it) from the
        // shape at the hit (in front, touching it)
        const n: V3 = [out.normal[0], out.normal[1], out.normal[2]], at: V3 = [out.point[0], out.point[1], out.point[2]];
        for (const v of s.tris[out.subShape]) expect(dot(n, sub(v, at)), `${label}: triangle behind the normal`).toBeLessThan(1e-6);
        const lowest = core.box
          ? dot(n, sub(core.box.c, at)) - [0, 1, 2].reduce((acc, k) => acc + Math.abs(dot(n, core.box!.axes[k])) * core.box!.h[k], 0)
          : Math.min(...core.pts.map((x) => dot(n, sub(x, at)))) - core.r;
        expect(Math.abs(lowest), `${label}: the shape touches the plane`).toBeLessThan(1e-6);
        if (shape.type === 'sphere') {
          // a sphere touches at its centre minus radius times the normal
          for (let k = 0; k < 3; k++) expect(Math.abs(core.pts[0][k] - shape.radius * out.normal[k] - out.point[k]), `${label}: sphere point`).toBeLessThan(1e-6);
        }
      }
      hits++;
    }
  }
  return { hits, misses };
}

describe('castShape against triangle meshes and heightfields, against the oracle over every triangle', () => {
  // (in parts of 5 poses: a box's oracle is slow, and a test runs at one stretch)
  for (const type of ['sphere', 'capsule', 'box'] as const) {
    for (const [name, make, seed] of [['a bumpy mesh', meshSurface, 11], ['a heightfield', fieldSurface, 31]] as const) {
      for (let part = 0; part < 3; part++) {
        it(`${type} against ${name} (poses ${5 * part} to ${5 * part + 4}, 12 casts each)`, () => {
          const { hits, misses } = checkCasts(make, seed + type.length + 100 * part, type, 5, 12);
          expect(hits).toBeGreaterThan(25);
          expect(hits + misses).toBe(60);
        });
      }
    }
  }
});

describe('intersectShape against triangle meshes and heightfields', () => {
  for (const [name, make] of [['mesh', meshSurface], ['heightfield', fieldSurface]] as const) {
    it(`${name}: reported exactly when the oracle finds a triangle within the radius (or, for a heightfield, the position below its surface)`, () => {
      const rand = mulberry32(name.length * 7);
      let reported = 0, checked = 0, belowOnly = 0;
      for (let p = 0; p < 20; p++) {
        const s = make(rand);
        for (let i = 0; i < 30; i++) {
          const type = (['sphere', 'capsule', 'box'] as const)[i % 3];
          const shape = randomQueryShape(rand, type), q = randomQuaternion(rand), R = matrixOfQuaternion(q);
          const at = add(s.centre, scale(randomUnit(rand), s.extent * 1.2 * rand()));
          const core = coreOf(shape, R, at);
          // (cores that meet: -1 - radius)
          const gap = Math.min(...s.tris.map((t) => coreTriangle(core, t))) - core.r;
          const below = s.below !== undefined && s.below(at);
          if (Math.abs(gap) < 1e-9) continue; // touching within rounding: either answer is right
          let got = false;
          s.cw.intersectShape(shape, { position: at, rotation: q }, () => { got = true; });
          expect(got, `${name} ${p} query ${i}: gap ${gap}, below ${below}`).toBe(gap < 0 || below);
          checked++;
          if (got) reported++;
          if (below && gap > 0) belowOnly++;
        }
      }
      expect(checked).toBeGreaterThan(550);
      expect(reported).toBeGreaterThan(100);
      expect(checked - reported).toBeGreaterThan(100);
      if (name === 'heightfield') expect(belowOnly).toBeGreaterThan(5);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Through the World's broad phase

function level(rand: () => number, bodies = 40): { world: World; shapes: number } {
  const world = new World({ gravity: [0, 0, 0] });
  world.addStatic({ geometry: { type: 'plane' }, position: [0, -1, 0] });
  const mesh = bumpyMesh(rand, 12, 0.5, 0.4);
  world.addStatic({ geometry: { type: 'trimesh', ...mesh }, position: [-3, 0, 0] });
  const rows = 16, cols = 16;
  world.addStatic({ geometry: { type: 'heightfield', rows, cols, spacingX: 0.4, spacingZ: 0.4, heights: Array.from({ length: rows * cols }, () => 0.5 * rand()) }, position: [0, -0.2, -3] });
  for (let k = 0; k < bodies; k++) {
    const model = k % 2 === 0 ? RigidBody.capsule(0.2, 0.1, { mass: 1 }) : RigidBody.box([0.15, 0.1, 0.2], { mass: 1 });
    world.addBody(model, { position: [8 * rand() - 6, 0.3 + rand(), 8 * rand() - 6], rotation: randomQuaternion(rand), name: `b${k}` });
  }
  return { world, shapes: 3 + bodies };
}

describe('World.castShape and intersectShape through the broad phase on a level', () => {
  it('the hit of all shapes is the nearest of the hits of each shape alone; overlaps are the union of each alone', () => {
    const rand = mulberry32(2024);
    const { world, shapes } = level(rand);
    let surfaceHits = 0;
    for (let i = 0; i < 120; i++) {
      const shape = randomQueryShape(rand, (['sphere', 'capsule', 'box'] as const)[i % 3]), q = randomQuaternion(rand);
      const start: V3 = [8 * rand() - 7, 0.5 + 1.5 * rand(), 8 * rand() - 7];
      const d = unit([rand() - 0.5, -0.8 * rand(), rand() - 0.5]), max = 6;
      const hit = world.castShape(shape, { position: start, rotation: q }, d, max);
      let best = Infinity, bestShape = -1;
      for (let h = 0; h < shapes; h++) {
        const one = world.castShape(shape, { position: start, rotation: q }, d, max, { predicate: (_b, _l, s) => s === h });
        if (one && one.distance < best) { best = one.distance; bestShape = h; }
      }
      if (best === Infinity) { expect(hit).toBeNull(); continue; }
      expect(Math.abs(hit!.distance - best)).toBeLessThan(1e-9);
      expect(hit!.shape).toBe(bestShape);
      if (bestShape === 1 || bestShape === 2) surfaceHits++;
      const all = new Set<number>();
      world.intersectShape(shape, { position: start, rotation: q }, (_b, _l, s) => { all.add(s); });
      for (let h = 0; h < shapes; h++) {
        let alone = false;
        world.intersectShape(shape, { position: start, rotation: q }, () => { alone = true; }, { predicate: (_b, _l, s) => s === h });
        expect(all.has(h), `query ${i} shape ${h}`).toBe(alone);
      }
    }
    expect(surfaceHits).toBeGreaterThan(20);
  });
});

describe('casts that start touching', () => {
  it('a shape overlapping a mesh or heightfield at the start hits it at 0 (maxDistance 0 too), against the sweep; one apart by 1 mm does not with maxDistance 0', () => {
    const rand = mulberry32(5);
    for (const make of [meshSurface, fieldSurface]) {
      for (let p = 0; p < 10; p++) {
        const s = make(rand);
        // a sphere centred on a random triangle's centroid, and one 1 mm off it along its normal plus the radius
        const t = s.tris[Math.floor(rand() * s.tris.length)];
        const g = scale(add(add(t[0], t[1]), t[2]), 1 / 3), n = unit(cross(sub(t[1], t[0]), sub(t[2], t[0])));
        const r = 0.02 + 0.05 * rand(), d = randomUnit(rand);
        for (const max of [0, 1]) {
          const hit = s.cw.castShape({ type: 'sphere', radius: r }, { position: g }, d, max);
          expect(hit).not.toBeNull();
          expect(hit!.distance).toBe(0);
        }
        const apart = add(g, scale(n, r + 1e-3));
        const clear = s.tris.every((u) => pointTriangle(apart, u) > r + 1e-4);
        if (clear) expect(s.cw.castShape({ type: 'sphere', radius: r }, { position: apart }, d, 0)).toBeNull();
      }
    }
  });
});

describe('allocation', () => {
  // (warmed long: the contact routines a query meets only now and then are compiled late, and
  // until then their doubles are boxed)
  const perCall = (fn: () => void, bound: number) => youngGenerationGrowth(fn, { warm: 60000, calls: 1000, bound, attempts: 12 });

  it('castShape and intersectShape on the level with caller-owned objects, the three kinds in turn: under 4 B a call', () => {
    const rand = mulberry32(9);
    const { world } = level(rand);
    const out = new RayHit();
    const pose = { position: new Float64Array([-3, 1, 0]), rotation: new Float64Array([0, 0, 0, 1]) };
    const d = new Float64Array([0.2, -1, 0.1]);
    const shapes: QueryShape[] = [{ type: 'box', halfExtents: [0.2, 0.1, 0.3] }, { type: 'sphere', radius: 0.2 }, { type: 'capsule', radius: 0.1, halfLength: 0.3 }];
    let k = 0, hits = 0, found = 0;
    const count = () => { found++; };
    // (a sphere's or capsule's size read from its description once came boxed, 16 B, when the
    // query had been compiled before that kind was seen: readSphere, readCapsule; the GJK's and
    // the segment routines' doubles passed to calls, 60 B: gjk.ts, geometry.ts)
    const cast = perCall(() => {
      const i = k++;
      pose.position[0] = (i & 1) === 0 ? -3 + 0.01 * (i % 50) : 0.5 + 0.01 * (i % 50);
      pose.position[1] = 1;
      pose.position[2] = (i & 1) === 0 ? 0 : -2.5;
      if (world.castShape(shapes[i % 3], pose, d, 3, undefined, out)) hits++;
    }, 4);
    const overlap = perCall(() => {
      const i = k++;
      pose.position[0] = (i & 1) === 0 ? -3 + 0.01 * (i % 50) : 0.5 + 0.01 * (i % 50);
      pose.position[1] = 0.1;
      pose.position[2] = (i & 1) === 0 ? 0 : -2.5;
      world.intersectShape(shapes[i % 3], pose, count);
    }, 4);
    console.log(`[allocation] castShape ${describeBatches(cast)}; intersectShape ${describeBatches(overlap)}`);
    expect(cast.perCall, describeBatches(cast)).toBeLessThan(4);
    expect(overlap.perCall, describeBatches(overlap)).toBeLessThan(4);
    expect(hits).toBeGreaterThan(1000);
    expect(found).toBeGreaterThan(1000);
  });
});
