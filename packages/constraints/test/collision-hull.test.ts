/**
 * ConvexHullData (collision/hull.ts): topology and geometry of hulls checked against answers that do
 * not come from the hull code (analytic solids, a brute-force facet search, a brute-force support).
 */
import { describe, expect, it } from 'vitest';
import { boxHull, ConvexHullData } from '../src/collision/hull.js';

type V3 = [number, number, number];

function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V3): number => Math.hypot(a[0], a[1], a[2]);

function pointsOf(flat: ArrayLike<number>): V3[] {
  const out: V3[] = [];
  for (let i = 0; i < flat.length; i += 3) out.push([flat[i], flat[i + 1], flat[i + 2]]);
  return out;
}
const flatten = (pts: V3[]): number[] => pts.flat();
const vertex = (h: ConvexHullData, v: number): V3 => [h.vertices[3 * v], h.vertices[3 * v + 1], h.vertices[3 * v + 2]];
const normal = (h: ConvexHullData, f: number): V3 => [h.planes[4 * f], h.planes[4 * f + 1], h.planes[4 * f + 2]];
function face(h: ConvexHullData, f: number): number[] {
  return Array.from(h.faceVertices.subarray(h.faceStart[f], h.faceStart[f + 1]));
}

/** Largest coordinate range of the points. */
function extentOf(pts: V3[]): number {
  let e = 0;
  for (let k = 0; k < 3; k++) e = Math.max(e, Math.max(...pts.map((p) => p[k])) - Math.min(...pts.map((p) => p[k])));
  return e;
}

/** Every structural and geometric property the hull promises, checked from its arrays alone. */
function checkHull(h: ConvexHullData, input: V3[], tol: number): void {
  const V = h.vertexCount, F = h.faceCount, E = h.edgeCount;
  expect(h.vertices.length).toBe(3 * V);
  expect(h.planes.length).toBe(4 * F);
  expect(h.faceStart.length).toBe(F + 1);
  expect(h.faceStart[0]).toBe(0);
  expect(h.faceStart[F]).toBe(h.faceVertices.length);
  expect(h.edges.length).toBe(2 * E);
  expect(h.edgeFaces.length).toBe(2 * E);
  expect(V - E + F).toBe(2);

  // Vertices are input points, each once.
  const keys = new Set<string>();
  for (let v = 0; v < V; v++) {
    const p = vertex(h, v);
    expect(input.some((q) => q[0] === p[0] && q[1] === p[1] && q[2] === p[2])).toBe(true);
    keys.add(p.join(','));
  }
  expect(keys.size).toBe(V);

  const facesOfVertex = new Array<number>(V).fill(0);
  const directed = new Map<string, number>();
  for (let f = 0; f < F; f++) {
    const n = normal(h, f), d = h.planes[4 * f + 3];
    expect(norm(n)).toBeCloseTo(1, 12);
    const poly = face(h, f);
    expect(poly.length).toBeGreaterThanOrEqual(3);
    expect(new Set(poly).size).toBe(poly.length);
    // Every input point inside (or on) the plane.
    for (const p of input) expect(dot(n, p) - d).toBeLessThanOrEqual(tol);
    let area: V3 = [0, 0, 0];
    for (let t = 0; t < poly.length; t++) {
      const a = vertex(h, poly[t]), b = vertex(h, poly[(t + 1) % poly.length]), c = vertex(h, poly[(t + 2) % poly.length]);
      expect(Math.abs(dot(n, b) - d)).toBeLessThanOrEqual(tol);
      // Convex and counter-clockwise about n: each turn is a left turn about n.
      expect(dot(cross(sub(b, a), sub(c, b)), n)).toBeGreaterThan(0);
      const ab = cross(a, b);
      area = [area[0] + ab[0], area[1] + ab[1], area[2] + ab[2]];
      facesOfVertex[poly[t]]++;
      const key = `${poly[t]}>${poly[(t + 1) % poly.length]}`;
      expect(directed.has(key)).toBe(false);
      directed.set(key, f);
    }
    // The polygon's area vector points along the outward normal.
    expect(dot(area, n)).toBeGreaterThan(0);
  }
  for (let v = 0; v < V; v++) expect(facesOfVertex[v]).toBeGreaterThanOrEqual(3);

  // Edges: unique, each walked once each way, by the two faces listed (first: edges[2e] -> edges[2e+1]).
  expect(directed.size).toBe(2 * E);
  const edgeKeys = new Set<string>();
  for (let e = 0; e < E; e++) {
    const a = h.edges[2 * e], b = h.edges[2 * e + 1];
    expect(a).not.toBe(b);
    edgeKeys.add(`${Math.min(a, b)}-${Math.max(a, b)}`);
    const f0 = h.edgeFaces[2 * e], f1 = h.edgeFaces[2 * e + 1];
    expect(f0).not.toBe(f1);
    expect(directed.get(`${a}>${b}`)).toBe(f0);
    expect(directed.get(`${b}>${a}`)).toBe(f1);
  }
  expect(edgeKeys.size).toBe(E);

  // Bounds, radius, center.
  for (let k = 0; k < 3; k++) {
    let lo = Infinity, hi = -Infinity;
    for (const p of input) {
      lo = Math.min(lo, p[k]);
      hi = Math.max(hi, p[k]);
    }
    expect(h.bounds[k]).toBe(lo);
    expect(h.bounds[3 + k]).toBe(hi);
  }
  let r = 0;
  for (let v = 0; v < V; v++) r = Math.max(r, norm(vertex(h, v)));
  expect(Math.abs(h.radius - r)).toBeLessThanOrEqual(1e-14 * r);
  const c: V3 = [h.center[0], h.center[1], h.center[2]];
  for (let k = 0; k < 3; k++) {
    let mean = 0;
    for (let v = 0; v < V; v++) mean += h.vertices[3 * v + k] / V;
    expect(c[k]).toBeCloseTo(mean, 12);
  }
  for (let f = 0; f < F; f++) expect(dot(normal(h, f), c)).toBeLessThan(h.planes[4 * f + 3] - 10 * tol);
}

/** Volume as triangle-fan tetrahedra from the center (signed, so a wrongly oriented face shows). */
function fanVolume(h: ConvexHullData): number {
  const c: V3 = [h.center[0], h.center[1], h.center[2]];
  let vol = 0;
  for (let f = 0; f < h.faceCount; f++) {
    const poly = face(h, f);
    const a = sub(vertex(h, poly[0]), c);
    for (let t = 1; t + 1 < poly.length; t++) {
      vol += dot(a, cross(sub(vertex(h, poly[t]), c), sub(vertex(h, poly[t + 1]), c))) / 6;
    }
  }
  return vol;
}

/** Volume by the divergence theorem: (1/3) sum over faces of d_f * area_f. */
function divergenceVolume(h: ConvexHullData): number {
  let vol = 0;
  for (let f = 0; f < h.faceCount; f++) {
    const poly = face(h, f);
    const o = vertex(h, poly[0]);
    let area = 0;
    for (let t = 1; t + 1 < poly.length; t++) area += norm(cross(sub(vertex(h, poly[t]), o), sub(vertex(h, poly[t + 1]), o))) / 2;
    vol += (h.planes[4 * f + 3] * area) / 3;
  }
  return vol;
}

/**
 * Independent answer for points in general position: every triple with all other points strictly on
 * one side is a triangular facet. Returns the facets (as sorted point-index triples) and the volume
 * (tetrahedra from the centroid of the facet vertices).
 */
function bruteForceFacets(pts: V3[]): { facets: Set<string>; vertices: Set<number>; volume: number } {
  const n = pts.length;
  const facets: number[][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        const nrm = cross(sub(pts[j], pts[i]), sub(pts[k], pts[i]));
        let pos = 0, neg = 0;
        for (let m = 0; m < n && !(pos && neg); m++) {
          if (m === i || m === j || m === k) continue;
          const s = dot(nrm, sub(pts[m], pts[i]));
          if (s > 0) pos++;
          else if (s < 0) neg++;
        }
        if (!(pos && neg)) facets.push([i, j, k]);
      }
    }
  }
  const vertices = new Set(facets.flat());
  const c: V3 = [0, 0, 0];
  for (const v of vertices) for (let k = 0; k < 3; k++) c[k] += pts[v][k] / vertices.size;
  let volume = 0;
  for (const [i, j, k] of facets) volume += Math.abs(dot(sub(pts[i], c), cross(sub(pts[j], c), sub(pts[k], c)))) / 6;
  return { facets: new Set(facets.map((t) => t.join(','))), vertices, volume };
}

function inBall(n: number, seed: number): V3[] {
  const r = mulberry32(seed);
  const out: V3[] = [];
  while (out.length < n) {
    const p: V3 = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
    if (norm(p) <= 1) out.push(p);
  }
  return out;
}

function inBox(n: number, seed: number): V3[] {
  const r = mulberry32(seed);
  const out: V3[] = [];
  for (let i = 0; i < n; i++) out.push([2 * r() - 1, 0.5 * (2 * r() - 1), 0.3 * (2 * r() - 1)]);
  return out;
}

function shuffle<T>(a: T[], seed: number): T[] {
  const r = mulberry32(seed);
  const out = a.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Rotation matrix (rows) from a random unit quaternion. */
function randomRotation(seed: number): number[] {
  const r = mulberry32(seed);
  let w = 2 * r() - 1, x = 2 * r() - 1, y = 2 * r() - 1, z = 2 * r() - 1;
  const l = Math.hypot(w, x, y, z);
  w /= l; x /= l; y /= l; z /= l;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}
const rotate = (m: number[], p: V3): V3 => [
  m[0] * p[0] + m[1] * p[1] + m[2] * p[2], m[3] * p[0] + m[4] * p[1] + m[5] * p[2], m[6] * p[0] + m[7] * p[1] + m[8] * p[2],
];

/** A cube of half extent h: 8 corners, 6 face centers, 12 edge midpoints, interior points, duplicates; shuffled. */
function cubeWithExtras(h: number, seed: number): { pts: V3[]; corners: V3[] } {
  const r = mulberry32(seed);
  const corners: V3[] = [];
  const pts: V3[] = [];
  for (const x of [-1, 0, 1]) {
    for (const y of [-1, 0, 1]) {
      for (const z of [-1, 0, 1]) {
        const nonzero = [x, y, z].filter((c) => c !== 0).length;
        if (nonzero === 0) continue;
        pts.push([x * h, y * h, z * h]);
        if (nonzero === 3) corners.push([x * h, y * h, z * h]);
      }
    }
  }
  for (let i = 0; i < 20; i++) pts.push([h * (1.9 * r() - 0.95), h * (1.9 * r() - 0.95), h * (1.9 * r() - 0.95)]);
  const mixed = shuffle(pts, seed + 1);
  // Duplicates after the originals (the first of equal points is kept): exact copies, and copies
  // moved inward by far less than the duplicate tolerance.
  for (let i = 0; i < 4; i++) mixed.push([...corners[i]] as V3);
  mixed.push(corners[5].map((c) => c * (1 - 1e-13)) as V3);
  mixed.push([0, h, 1e-14 * h]);
  return { pts: mixed, corners };
}

/** Checks the hull is the axis-aligned box of half extents hx, hy, hz. */
function expectBox(h: ConvexHullData, hx: number, hy: number, hz: number): void {
  expect(h.vertexCount).toBe(8);
  expect(h.faceCount).toBe(6);
  expect(h.edgeCount).toBe(12);
  for (let f = 0; f < 6; f++) expect(face(h, f).length).toBe(4);
  const half = [hx, hy, hz];
  const found = new Set<string>();
  for (let f = 0; f < 6; f++) {
    const n = normal(h, f);
    const k = [0, 1, 2].find((a) => Math.abs(n[a]) > 0.5)!;
    const s = Math.sign(n[k]);
    for (let a = 0; a < 3; a++) expect(n[a]).toBeCloseTo(a === k ? s : 0, 14);
    expect(h.planes[4 * f + 3]).toBeCloseTo(half[k], 14);
    found.add(`${s}${k}`);
  }
  expect(found.size).toBe(6);
  for (let v = 0; v < 8; v++) {
    const p = vertex(h, v);
    for (let a = 0; a < 3; a++) expect(Math.abs(p[a])).toBe(half[a]);
  }
  const vol = 8 * hx * hy * hz;
  expect(fanVolume(h)).toBeCloseTo(vol, 14);
  expect(divergenceVolume(h)).toBeCloseTo(vol, 14);
}

function cylinder(k: number, radius: number, halfHeight: number): V3[] {
  const pts: V3[] = [];
  for (let i = 0; i < k; i++) {
    const a = (2 * Math.PI * i) / k;
    pts.push([radius * Math.cos(a), radius * Math.sin(a), -halfHeight], [radius * Math.cos(a), radius * Math.sin(a), halfHeight]);
  }
  return pts;
}

function faceSizes(h: ConvexHullData): number[] {
  const s: number[] = [];
  for (let f = 0; f < h.faceCount; f++) s.push(face(h, f).length);
  return s.sort((a, b) => a - b);
}

describe('ConvexHullData: analytic solids', () => {
  it('a cube with interior, face-center, edge-midpoint and duplicate points has 8 vertices, 6 quads, 12 edges', () => {
    const h = 0.7;
    const { pts, corners } = cubeWithExtras(h, 11);
    const hull = new ConvexHullData(flatten(pts), 'cube');
    expectBox(hull, h, h, h);
    checkHull(hull, pts, 1e-12);
    const got = new Set(Array.from({ length: 8 }, (_, v) => vertex(hull, v).join(',')));
    for (const c of corners) expect(got.has(c.join(','))).toBe(true);
    expect(hull.radius).toBeCloseTo(h * Math.sqrt(3), 14);
    for (let k = 0; k < 3; k++) expect(hull.center[k]).toBeCloseTo(0, 14);
  });

  it('boxHull(0.1, 0.2, 0.3) is the same box', () => {
    const hull = boxHull(0.1, 0.2, 0.3);
    expectBox(hull, 0.1, 0.2, 0.3);
    const corners: V3[] = [];
    for (const x of [-0.1, 0.1]) for (const y of [-0.2, 0.2]) for (const z of [-0.3, 0.3]) corners.push([x, y, z]);
    checkHull(hull, corners, 1e-14);
    expect(Array.from(hull.bounds)).toEqual([-0.1, -0.2, -0.3, 0.1, 0.2, 0.3]);
    expect(hull.radius).toBeCloseTo(Math.sqrt(0.01 + 0.04 + 0.09), 15);
    expect(() => boxHull(0.1, 0, 0.3)).toThrow(/boxHull/);
  });

  it('a regular tetrahedron: 4 triangles with normals opposite the vertices, volume 8/3', () => {
    const pts: V3[] = [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]];
    const hull = new ConvexHullData(flatten(pts), 'tetra');
    checkHull(hull, pts, 1e-12);
    expect([hull.vertexCount, hull.faceCount, hull.edgeCount]).toEqual([4, 4, 6]);
    expect(faceSizes(hull)).toEqual([3, 3, 3, 3]);
    for (let f = 0; f < 4; f++) {
      // The face opposite vertex p has normal -p / |p| and offset 1 / sqrt(3).
      const opposite = [0, 1, 2, 3].find((v) => !face(hull, f).includes(v))!;
      const p = vertex(hull, opposite);
      const n = normal(hull, f);
      for (let k = 0; k < 3; k++) expect(n[k]).toBeCloseTo(-p[k] / Math.sqrt(3), 14);
      expect(hull.planes[4 * f + 3]).toBeCloseTo(1 / Math.sqrt(3), 14);
    }
    expect(fanVolume(hull)).toBeCloseTo(8 / 3, 13);
    expect(divergenceVolume(hull)).toBeCloseTo(8 / 3, 13);
  });

  it('an octahedron: 8 triangles with normals (+-1, +-1, +-1) / sqrt(3), volume 4/3', () => {
    const pts: V3[] = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1], [0, 0, 0], [0.2, 0.1, -0.3]];
    const hull = new ConvexHullData(flatten(pts), 'octa');
    checkHull(hull, pts, 1e-12);
    expect([hull.vertexCount, hull.faceCount, hull.edgeCount]).toEqual([6, 8, 12]);
    expect(faceSizes(hull)).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
    const octants = new Set<string>();
    for (let f = 0; f < 8; f++) {
      const n = normal(hull, f);
      for (let k = 0; k < 3; k++) expect(Math.abs(n[k])).toBeCloseTo(1 / Math.sqrt(3), 14);
      expect(hull.planes[4 * f + 3]).toBeCloseTo(1 / Math.sqrt(3), 14);
      octants.add(n.map(Math.sign).join(','));
    }
    expect(octants.size).toBe(8);
    expect(fanVolume(hull)).toBeCloseTo(4 / 3, 13);
    expect(divergenceVolume(hull)).toBeCloseTo(4 / 3, 13);
  });

  it('a cylinder from two rings of 16 points: two 16-gons and 16 quads', () => {
    const pts = cylinder(16, 1, 0.5);
    const hull = new ConvexHullData(flatten(pts), 'cylinder');
    checkHull(hull, pts, 1e-12);
    expect([hull.vertexCount, hull.faceCount, hull.edgeCount]).toEqual([32, 18, 48]);
    expect(faceSizes(hull)).toEqual([...new Array(16).fill(4), 16, 16]);
    for (let f = 0; f < hull.faceCount; f++) {
      const n = normal(hull, f);
      if (face(hull, f).length === 16) {
        expect(Math.abs(n[2])).toBeCloseTo(1, 14);
        expect(hull.planes[4 * f + 3]).toBeCloseTo(0.5, 14);
      } else {
        expect(n[2]).toBeCloseTo(0, 14);
        expect(hull.planes[4 * f + 3]).toBeCloseTo(Math.cos(Math.PI / 16), 14);
      }
    }
    // Prism over a regular 16-gon: area (16 / 2) sin(2 pi / 16), height 1.
    const vol = 8 * Math.sin(Math.PI / 8);
    expect(fanVolume(hull)).toBeCloseTo(vol, 13);
    expect(divergenceVolume(hull)).toBeCloseTo(vol, 13);
  });

  it('points within the coplanarity tolerance of a face merge into it, even when other triples disagree', () => {
    // D is 5e-8 above the plane of A, B, C (within 1e-7 of the extent 1), but B is 5e-5 off the
    // plane of A, C, D and C 5e-5 off that of A, B, D (the triangle A, D, x is a sliver): the top is
    // still one quad.
    const pts: V3[] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 0.001, 5e-8], [0.5, 0.5, -1]];
    const hull = new ConvexHullData(flatten(pts), 'nearly flat top');
    checkHull(hull, pts, 3e-7);
    expect([hull.vertexCount, hull.faceCount, hull.edgeCount]).toEqual([5, 5, 8]);
    expect(faceSizes(hull)).toEqual([3, 3, 3, 3, 4]);
    const top = [0, 1, 2, 3, 4].find((f) => face(hull, f).length === 4)!;
    expect(normal(hull, top)[2]).toBeCloseTo(1, 8);
  });

  it('a box far from the origin', () => {
    const pts: V3[] = [];
    for (const x of [-1, 1]) for (const y of [-1, 1]) for (const z of [-1, 1]) pts.push([1000 + 0.5 * x, -2000 + 0.25 * y, 3000 + z]);
    pts.push([1000, -2000, 3000], [1000.5, -2000, 3000]);
    const hull = new ConvexHullData(flatten(pts), 'far box');
    checkHull(hull, pts, 1e-9);
    expect([hull.vertexCount, hull.faceCount, hull.edgeCount]).toEqual([8, 6, 12]);
    expect(fanVolume(hull)).toBeCloseTo(1, 9); // 1 x 0.5 x 2
    expect(divergenceVolume(hull)).toBeCloseTo(1, 6);
  });

  it('rotated (rounded coordinates) and single-precision inputs still merge coplanar faces', () => {
    const m = randomRotation(5);
    const { pts } = cubeWithExtras(1, 3);
    const rotated = pts.map((p) => rotate(m, p));
    const hull = new ConvexHullData(flatten(rotated), 'rotated cube');
    checkHull(hull, rotated, 1e-9);
    expect([hull.vertexCount, hull.faceCount, hull.edgeCount]).toEqual([8, 6, 12]);
    expect(fanVolume(hull)).toBeCloseTo(8, 10);

    const single = flatten(rotated.map((p) => rotate(randomRotation(6), p)));
    const f32 = Array.from(Float32Array.from(single));
    const hull32 = new ConvexHullData(f32, 'float32 cube');
    checkHull(hull32, pointsOf(f32), 1e-6);
    expect([hull32.vertexCount, hull32.faceCount, hull32.edgeCount]).toEqual([8, 6, 12]);

    const cyl = cylinder(16, 1, 0.5).map((p) => rotate(m, p));
    const hullCyl = new ConvexHullData(flatten(cyl), 'rotated cylinder');
    checkHull(hullCyl, cyl, 1e-9);
    expect(faceSizes(hullCyl)).toEqual([...new Array(16).fill(4), 16, 16]);
  });
});

describe('ConvexHullData: random point clouds', () => {
  const clouds: [string, V3[]][] = [
    ['50 in a ball', inBall(50, 1)],
    ['200 in a ball', inBall(200, 2)],
    ['50 in a box', inBox(50, 3)],
    ['200 in a box', inBox(200, 4)],
  ];
  for (const [name, pts] of clouds) {
    it(`${name}: a closed convex hull matching a brute-force facet search`, () => {
      const hull = new ConvexHullData(flatten(pts), name);
      checkHull(hull, pts, 1e-9 * extentOf(pts));
      const fan = fanVolume(hull), div = divergenceVolume(hull);
      expect(fan).toBeGreaterThan(0);
      expect(Math.abs(fan - div) / fan).toBeLessThan(1e-9);

      // General position: every face is a triangle, F = 2V - 4, and the facets are exactly the
      // triples with every other point on one side.
      const brute = bruteForceFacets(pts);
      expect(faceSizes(hull).every((s) => s === 3)).toBe(true);
      expect(hull.faceCount).toBe(2 * hull.vertexCount - 4);
      expect(hull.vertexCount).toBe(brute.vertices.size);
      const index = new Map(pts.map((p, i) => [p.join(','), i]));
      const hullFacets = new Set<string>();
      for (let f = 0; f < hull.faceCount; f++) {
        hullFacets.add(face(hull, f).map((v) => index.get(vertex(hull, v).join(','))!).sort((a, b) => a - b).join(','));
      }
      expect(hullFacets).toEqual(brute.facets);
      expect(Math.abs(fan - brute.volume) / brute.volume).toBeLessThan(1e-12);
    });
  }

  it('points on a sphere (all of them hull vertices)', () => {
    const pts = inBall(120, 9).map((p): V3 => {
      const l = norm(p);
      return [p[0] / l, p[1] / l, p[2] / l];
    });
    const hull = new ConvexHullData(flatten(pts), 'sphere');
    checkHull(hull, pts, 1e-9);
    expect(hull.vertexCount).toBe(120);
    expect(hull.faceCount).toBe(2 * 120 - 4);
    expect(Math.abs(fanVolume(hull) - divergenceVolume(hull)) / fanVolume(hull)).toBeLessThan(1e-9);
    expect(fanVolume(hull)).toBeLessThan((4 / 3) * Math.PI);
  });
});

describe('ConvexHullData: scale', () => {
  const sets: [string, V3[]][] = [
    ['cube with extras', cubeWithExtras(1, 21).pts],
    ['cylinder', cylinder(16, 1, 0.5)],
    ['cloud', inBall(50, 22)],
  ];
  for (const [name, pts] of sets) {
    it(`${name}: scaled by 1e-3 and by 1e3 gives the same topology and scaled planes`, () => {
      const base = new ConvexHullData(flatten(pts), name);
      for (const s of [1e-3, 1e3]) {
        const scaled = pts.map((p): V3 => [p[0] * s, p[1] * s, p[2] * s]);
        const hull = new ConvexHullData(flatten(scaled), `${name} x${s}`);
        checkHull(hull, scaled, 1e-9 * extentOf(scaled));
        expect([hull.vertexCount, hull.faceCount, hull.edgeCount]).toEqual([base.vertexCount, base.faceCount, base.edgeCount]);
        expect(faceSizes(hull)).toEqual(faceSizes(base));
        expect(fanVolume(hull) / s ** 3).toBeCloseTo(fanVolume(base), 10);
        expect(hull.radius / s).toBeCloseTo(base.radius, 12);
      }
    });
  }
});

describe('ConvexHullData.support', () => {
  it('matches a brute-force maximum over the vertices for 100 random directions', () => {
    const hull = new ConvexHullData(flatten(inBall(200, 31)), 'support');
    const r = mulberry32(32);
    for (let t = 0; t < 100; t++) {
      const d: V3 = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
      let best = 0;
      for (let v = 1; v < hull.vertexCount; v++) if (dot(vertex(hull, v), d) > dot(vertex(hull, best), d)) best = v;
      expect(hull.support(d[0], d[1], d[2])).toBe(best);
    }
  });

  it('returns the lowest index on ties', () => {
    const hull = boxHull(1, 2, 3);
    for (const d of [[1, 0, 0], [0, -1, 0], [0, 0, 1], [1, 1, 0]] as V3[]) {
      let best = -1;
      let bestDot = -Infinity;
      for (let v = 0; v < 8; v++) {
        const s = dot(vertex(hull, v), d);
        if (s > bestDot) {
          bestDot = s;
          best = v;
        }
      }
      expect(hull.support(d[0], d[1], d[2])).toBe(best);
    }
  });
});

describe('ConvexHullData: errors', () => {
  it('length not a multiple of 3', () => {
    expect(() => new ConvexHullData([0, 0, 0, 1, 0, 0, 0, 1, 0, 0], 'shape A')).toThrow(/^shape A: .*multiple of 3.*length 10/);
  });

  it('a non-finite value names its index', () => {
    const pts = [0, 0, 0, 1, NaN, 0, 0, 1, 0, 0, 0, 1];
    expect(() => new ConvexHullData(pts, 'shape B')).toThrow(/^shape B: .*NaN at index 4/);
    pts[4] = 0;
    pts[11] = Infinity;
    expect(() => new ConvexHullData(pts, 'shape B')).toThrow(/^shape B: .*Infinity at index 11/);
  });

  it('fewer than 4 distinct points', () => {
    expect(() => new ConvexHullData([0, 0, 0, 1, 0, 0, 0, 1, 0], 'shape C')).toThrow(/^shape C: .*at least 4 distinct points.*got 3/);
    expect(() => new ConvexHullData([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0], 'shape C')).toThrow(/^shape C: .*got 3 distinct/);
  });

  it('coplanar and collinear points', () => {
    const r = mulberry32(41);
    const plane: number[] = [];
    for (let i = 0; i < 10; i++) {
      const u = r(), v = r();
      plane.push(u + 2 * v, 3 * u - v, 0.5 * u + 0.25 * v); // all in one plane through the origin
    }
    expect(() => new ConvexHullData(plane, 'shape D')).toThrow(/^shape D: .*one plane.*needs volume/);
    const line: number[] = [];
    for (let i = 0; i < 10; i++) line.push(i, 2 * i, -i);
    expect(() => new ConvexHullData(line, 'shape E')).toThrow(/^shape E: .*one line.*needs volume/);
  });

  it('more than 256 distinct points (duplicates do not count)', () => {
    const pts = flatten(inBall(257, 51));
    expect(() => new ConvexHullData(pts, 'shape F')).toThrow(/^shape F: .*at most 256 points.*simplify the mesh/);
    const withDuplicates = flatten([...inBall(256, 52), ...inBall(100, 52)]);
    expect(new ConvexHullData(withDuplicates, 'shape G').vertexCount).toBeGreaterThan(3);
  });
});
