/**
 * Convex hull of a small point set, built once when a shape is registered (never in a simulation
 * step) and kept in flat typed arrays for the collision routines (support mapping, face and edge
 * queries, clipping).
 *
 * Robustness matters more than speed here (at most 256 points, built once). Every tolerance is
 * relative to the set's largest extent, so a set scaled up or down gives the same topology.
 *  1. Validate, merge duplicate points (closer than 1e-9 of the extent).
 *  2. Find candidate face planes: planes through three points (not nearly collinear) with every point
 *     on their inner side within the tolerance; a candidate face is the set of points within the
 *     tolerance of its plane. Gift wrapping finds them in O(n * faces): cross each polygon edge of a
 *     known face to the next face by rotating a plane about the edge. If that result fails the checks
 *     of step 4, a brute-force search over all triples decides (O(n^3) with an early exit per triple).
 *     Points deep inside the hull of the extreme points in 26 directions are dropped first.
 *  3. Candidate faces sharing three non-collinear points lie in one plane within the tolerance and
 *     are merged; each face polygon is the 2D convex hull of its points with interior points and
 *     points in the middle of an edge dropped, so every polygon is strictly convex. Normals are
 *     refitted to the polygons.
 *  4. The result is checked as a whole: every edge on exactly two faces, walked in opposite
 *     directions; Euler V - E + F = 2; strictly convex faces; every vertex on three faces or more;
 *     every input point inside every face plane. A point right at the tolerance can make two faces
 *     disagree; then the hull is rebuilt with another tolerance (coarser first, then finer), and
 *     only if every level fails is an internal error thrown. Inconsistent data is never returned.
 */

import { detMath } from '@sinew/featherstone';
const MAX_HULL_POINTS = 256;
/** Points closer than this (relative to the largest extent) are one point. */
const DUPLICATE_REL = 1e-9;
/**
 * Plane / line tolerances tried in turn (relative to the largest extent). 1e-7 merges faces that
 * are coplanar up to rounding (also of single-precision data); the others are fallbacks for point
 * sets with a point right at that tolerance (coarser) or very flat sets (finer).
 */
const TOLERANCE_LEVELS = [1e-7, 1e-6, 1e-5, 1e-9, 1e-11];

function fail(where: string, what: string): never {
  throw new Error(`${where}: ${what}`);
}

/** Result of one build attempt; indices refer to the deduplicated points. */
interface BuiltHull {
  /** Deduplicated point index of each hull vertex (ascending). */
  vertexPoint: number[];
  faceStart: Int32Array;
  /** In hull vertex indices. */
  faceVertices: Int32Array;
  /** Unit outward normals, 3 per face (d is computed by the caller from the vertices). */
  normals: Float64Array;
  edges: Int32Array;
  edgeFaces: Int32Array;
}

export class ConvexHullData {
  /** Hull vertices (only points on the hull; duplicates and interior points dropped), 3 per vertex, in the shape's local frame. */
  readonly vertexCount: number;
  readonly vertices: Float64Array;
  /** Faces: coplanar triangles merged into one convex polygon per plane (a cube has 6 quad faces, not 12 triangles). */
  readonly faceCount: number;
  /** 4 per face: unit outward normal nx, ny, nz and offset d, with n . x = d for points x on the face and n . x <= d inside. */
  readonly planes: Float64Array;
  /** faceStart[f] .. faceStart[f + 1] index faceVertices; length faceCount + 1. */
  readonly faceStart: Int32Array;
  /** Vertex indices of each face polygon, counter-clockwise seen from outside (right-handed about the outward normal). */
  readonly faceVertices: Int32Array;
  /** Unique edges: 2 vertex indices each (edges[2e], edges[2e+1]). Here edges[2e] < edges[2e+1]. */
  readonly edgeCount: number;
  readonly edges: Int32Array;
  /**
   * The two faces sharing each edge: 2 per edge. edgeFaces[2e] is the face whose counter-clockwise
   * polygon walks edges[2e] -> edges[2e+1]; edgeFaces[2e+1] walks it the other way.
   */
  readonly edgeFaces: Int32Array;
  /** Local bounds [minx, miny, minz, maxx, maxy, maxz]. */
  readonly bounds: Float64Array;
  /** Largest distance of a vertex from the local origin. */
  readonly radius: number;
  /** Centroid of the vertices (a point strictly inside the hull). */
  readonly center: Float64Array;

  constructor(points: ArrayLike<number>, where: string) {
    const { p, n, inputCount, ext } = readPoints(points, where);
    checkVolume(p, n, ext, inputCount, where);

    let built: BuiltHull | null = null;
    let problem = '';
    for (const rel of TOLERANCE_LEVELS) {
      const r = buildHull(p, n, ext, rel);
      if (typeof r !== 'string') {
        built = r;
        break;
      }
      if (problem === '') problem = r;
    }
    if (built === null) {
      fail(where, `internal error: could not build a consistent convex hull of ${n} distinct points (${problem}); `
        + 'the set is nearly degenerate (very flat, or with points almost on top of each other); simplify the mesh first');
    }

    const V = built.vertexPoint.length;
    this.vertexCount = V;
    this.vertices = new Float64Array(3 * V);
    for (let v = 0; v < V; v++) {
      const i = built.vertexPoint[v];
      this.vertices[3 * v] = p[3 * i];
      this.vertices[3 * v + 1] = p[3 * i + 1];
      this.vertices[3 * v + 2] = p[3 * i + 2];
    }
    this.faceCount = built.faceStart.length - 1;
    this.faceStart = built.faceStart;
    this.faceVertices = built.faceVertices;
    this.planes = new Float64Array(4 * this.faceCount);
    for (let f = 0; f < this.faceCount; f++) {
      const nx = built.normals[3 * f], ny = built.normals[3 * f + 1], nz = built.normals[3 * f + 2];
      // d = mean of n . v over the face's vertices (they agree to within the tolerance).
      let d = 0;
      const s = this.faceStart[f], e = this.faceStart[f + 1];
      for (let k = s; k < e; k++) {
        const v = 3 * this.faceVertices[k];
        d += nx * this.vertices[v] + ny * this.vertices[v + 1] + nz * this.vertices[v + 2];
      }
      this.planes[4 * f] = nx;
      this.planes[4 * f + 1] = ny;
      this.planes[4 * f + 2] = nz;
      this.planes[4 * f + 3] = d / (e - s);
    }
    this.edgeCount = built.edges.length / 2;
    this.edges = built.edges;
    this.edgeFaces = built.edgeFaces;

    this.bounds = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    this.center = new Float64Array(3);
    let r2 = 0;
    for (let v = 0; v < V; v++) {
      let l2 = 0;
      for (let k = 0; k < 3; k++) {
        const x = this.vertices[3 * v + k];
        if (x < this.bounds[k]) this.bounds[k] = x;
        if (x > this.bounds[3 + k]) this.bounds[3 + k] = x;
        this.center[k] += x;
        l2 += x * x;
      }
      if (l2 > r2) r2 = l2;
    }
    for (let k = 0; k < 3; k++) this.center[k] /= V;
    this.radius = Math.sqrt(r2);
  }

  /** Index of the vertex with the largest dot product with (dx, dy, dz) (ties: lowest index). */
  support(dx: number, dy: number, dz: number): number {
    const v = this.vertices;
    let best = 0;
    let bestDot = dx * v[0] + dy * v[1] + dz * v[2];
    for (let i = 1, o = 3; i < this.vertexCount; i++, o += 3) {
      const s = dx * v[o] + dy * v[o + 1] + dz * v[o + 2];
      if (s > bestDot) {
        bestDot = s;
        best = i;
      }
    }
    return best;
  }
}

/** The hull of a box with these half extents (8 vertices, 6 quad faces, 12 edges). */
export function boxHull(hx: number, hy: number, hz: number): ConvexHullData {
  for (const h of [hx, hy, hz]) {
    if (typeof h !== 'number' || !Number.isFinite(h) || h <= 0) {
      fail('boxHull', `half extents must be finite numbers > 0, got (${String(hx)}, ${String(hy)}, ${String(hz)})`);
    }
  }
  const pts: number[] = [];
  for (let i = 0; i < 8; i++) pts.push(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
  return new ConvexHullData(pts, 'boxHull');
}

// ---------------------------------------------------------------------------------------------
// Input

/** Validates the input and merges duplicates (keeping the first of each). */
function readPoints(points: ArrayLike<number>, where: string): { p: Float64Array; n: number; inputCount: number; ext: number } {
  if (points === null || typeof points !== 'object' || typeof points.length !== 'number') {
    fail(where, `points must be a flat array [x0, y0, z0, x1, y1, z1, ...] of finite numbers, got ${points === null ? 'null' : typeof points}`);
  }
  const len = points.length;
  if (len % 3 !== 0) {
    fail(where, `points must be a flat array [x0, y0, z0, x1, y1, z1, ...] whose length is a multiple of 3, got length ${len}`);
  }
  const inputCount = len / 3;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < len; i++) {
    const x = points[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      fail(where, `every coordinate must be a finite number, got ${String(x)} at index ${i} (point ${Math.floor(i / 3)}, ${'xyz'[i % 3]})`);
    }
    const k = i % 3;
    if (x < lo[k]) lo[k] = x;
    if (x > hi[k]) hi[k] = x;
  }
  const ext = inputCount === 0 ? 0 : Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const eps2 = detMath.sq(DUPLICATE_REL * ext);
  const p = new Float64Array(3 * MAX_HULL_POINTS);
  let n = 0;
  for (let i = 0; i < inputCount; i++) {
    const x = points[3 * i], y = points[3 * i + 1], z = points[3 * i + 2];
    let dup = false;
    for (let j = 0; j < n && !dup; j++) {
      const dx = x - p[3 * j], dy = y - p[3 * j + 1], dz = z - p[3 * j + 2];
      dup = dx * dx + dy * dy + dz * dz <= eps2;
    }
    if (dup) continue;
    if (n === MAX_HULL_POINTS) {
      fail(where, `a convex hull takes at most ${MAX_HULL_POINTS} points, got more than ${MAX_HULL_POINTS} distinct points `
        + `(${inputCount} given); simplify the mesh first`);
    }
    p[3 * n] = x;
    p[3 * n + 1] = y;
    p[3 * n + 2] = z;
    n++;
  }
  if (n < 4) {
    fail(where, `a convex hull needs at least 4 distinct points not all in one plane, got ${n} distinct point${n === 1 ? '' : 's'} (${inputCount} given)`);
  }
  return { p: p.subarray(0, 3 * n), n, inputCount, ext };
}

/** Throws when the points are collinear or coplanar (within the first tolerance): a hull needs volume. */
function checkVolume(p: Float64Array, n: number, ext: number, inputCount: number, where: string): void {
  const tol = TOLERANCE_LEVELS[0] * ext;
  // a: point 0; b: farthest from a; c: farthest from line ab; then the largest distance from plane abc.
  // For a flat set that distance is (up to a small factor) its thickness.
  let b = 0, best = -1;
  for (let i = 1; i < n; i++) {
    const d2 = detMath.sq(p[3 * i] - p[0]) + detMath.sq(p[3 * i + 1] - p[1]) + detMath.sq(p[3 * i + 2] - p[2]);
    if (d2 > best) {
      best = d2;
      b = i;
    }
  }
  const ux = p[3 * b] - p[0], uy = p[3 * b + 1] - p[1], uz = p[3 * b + 2] - p[2];
  const ul = detMath.hypot(ux, uy, uz);
  let c = 0, lineDist = -1;
  for (let i = 1; i < n; i++) {
    const wx = p[3 * i] - p[0], wy = p[3 * i + 1] - p[1], wz = p[3 * i + 2] - p[2];
    const d = detMath.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx) / ul;
    if (d > lineDist) {
      lineDist = d;
      c = i;
    }
  }
  if (lineDist <= tol) {
    fail(where, `all ${n} distinct points (${inputCount} given) lie on one line (largest distance from it ${lineDist} `
      + `for an extent of ${ext}); a convex hull needs volume: expected at least 4 points not in one plane`);
  }
  const vx = p[3 * c] - p[0], vy = p[3 * c + 1] - p[1], vz = p[3 * c + 2] - p[2];
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const nl = detMath.hypot(nx, ny, nz);
  nx /= nl;
  ny /= nl;
  nz /= nl;
  let planeDist = 0;
  for (let i = 1; i < n; i++) {
    const d = Math.abs(nx * (p[3 * i] - p[0]) + ny * (p[3 * i + 1] - p[1]) + nz * (p[3 * i + 2] - p[2]));
    if (d > planeDist) planeDist = d;
  }
  if (planeDist <= tol) {
    fail(where, `all ${n} distinct points (${inputCount} given) lie in one plane (largest distance from it ${planeDist} `
      + `for an extent of ${ext}); a convex hull needs volume: expected at least 4 points not in one plane`);
  }
}

// ---------------------------------------------------------------------------------------------
// Build

/** Hull of the working points q (indices into q), checked as a closed convex polyhedron. */
interface CoreHull {
  /** Face polygons, counter-clockwise about the outward normal. */
  polys: number[][];
  /** Unit outward normals, 3 per face. */
  normals: number[];
  /** Plane offsets (mean of n . v over the face's vertices). */
  offsets: number[];
  /** Point pairs (smaller index first), 2 per edge. */
  edges: number[];
  /** 2 per edge: the face walking it smaller -> larger index, then the face walking it back. */
  edgeFaces: number[];
}

/** From this many points on, points deep inside the hull of a few extreme points are dropped first. */
const FILTER_MIN_POINTS = 32;

/** One attempt with plane and line tolerance rel * ext; returns what went wrong as a string on failure. */
function buildHull(p: Float64Array, nAll: number, ext: number, rel: number): BuiltHull | string {
  const tol = rel * ext;

  // Work relative to the bounds' center (fewer cancellation errors for sets far from the origin),
  // and on one representative per cluster of points closer than tol: at this tolerance they cannot
  // be told apart, and keeping both would let neighbouring faces pick different ones.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < nAll; i++) {
    for (let k = 0; k < 3; k++) {
      const x = p[3 * i + k];
      if (x < lo[k]) lo[k] = x;
      if (x > hi[k]) hi[k] = x;
    }
  }
  const cx = 0.5 * (lo[0] + hi[0]), cy = 0.5 * (lo[1] + hi[1]), cz = 0.5 * (lo[2] + hi[2]);
  const rep: number[] = [];
  const qa: number[] = [];
  for (let i = 0; i < nAll; i++) {
    const x = p[3 * i] - cx, y = p[3 * i + 1] - cy, z = p[3 * i + 2] - cz;
    let near = false;
    for (let j = 0; j < rep.length && !near; j++) near = detMath.sq(x - qa[3 * j]) + detMath.sq(y - qa[3 * j + 1]) + detMath.sq(z - qa[3 * j + 2]) <= tol * tol;
    if (near) continue;
    rep.push(i);
    qa.push(x, y, z);
  }
  const n = rep.length;
  if (n < 4) return `only ${n} points remain after merging points closer than ${tol}`;
  const q = Float64Array.from(qa);

  // Points deep inside the hull of the extreme points in 26 directions cannot be hull vertices:
  // drop them first (this matters most for the O(n^3) fallback search). That small hull passed the
  // same checks as the final one, so its face planes bound it; the margin keeps every point
  // anywhere near its surface.
  let active: number[] = [];
  for (let m = 0; m < n; m++) active.push(m);
  if (n >= FILTER_MIN_POINTS) {
    const ext26 = extremePoints(q, n);
    const inner = hullOf(subset(q, ext26), tol);
    if (typeof inner !== 'string') {
      const margin = 100 * tol;
      active = active.filter((m) => {
        for (let f = 0; f < inner.offsets.length; f++) {
          const s = inner.normals[3 * f] * q[3 * m] + inner.normals[3 * f + 1] * q[3 * m + 1] + inner.normals[3 * f + 2] * q[3 * m + 2];
          if (s > inner.offsets[f] - margin) return true;
        }
        return false;
      });
    }
  }
  const core = hullOf(subset(q, active), tol);
  if (typeof core === 'string') return core;
  const F = core.polys.length;

  // Every point (also those merged into a representative or filtered out) inside every face plane.
  const checkTol = 3 * tol;
  for (let f = 0; f < F; f++) {
    const nx = core.normals[3 * f], ny = core.normals[3 * f + 1], nz = core.normals[3 * f + 2], d = core.offsets[f];
    for (let i = 0; i < nAll; i++) {
      const s = nx * (p[3 * i] - cx) + ny * (p[3 * i + 1] - cy) + nz * (p[3 * i + 2] - cz) - d;
      if (s > checkTol) return `point ${i} outside face ${f} by ${s}`;
    }
  }

  // Hull vertices: the points used by some face, re-indexed in input order. `active` is ascending,
  // so the re-indexing keeps the order of each edge's ends (smaller first).
  const used = new Uint8Array(active.length);
  for (const poly of core.polys) for (const v of poly) used[v] = 1;
  const vertexOf = new Int32Array(active.length).fill(-1);
  const vertexPoint: number[] = [];
  for (let a = 0; a < active.length; a++) {
    if (!used[a]) continue;
    vertexOf[a] = vertexPoint.length;
    vertexPoint.push(rep[active[a]]);
  }
  const faceStart = new Int32Array(F + 1);
  let total = 0;
  for (let f = 0; f < F; f++) {
    faceStart[f] = total;
    total += core.polys[f].length;
  }
  faceStart[F] = total;
  const faceVertices = new Int32Array(total);
  for (let f = 0; f < F; f++) {
    // Start each polygon at its lowest vertex index (deterministic; the cyclic order is kept).
    const poly = core.polys[f].map((a) => vertexOf[a]);
    let first = 0;
    for (let t = 1; t < poly.length; t++) if (poly[t] < poly[first]) first = t;
    for (let t = 0; t < poly.length; t++) faceVertices[faceStart[f] + t] = poly[(first + t) % poly.length];
  }
  return {
    vertexPoint,
    faceStart,
    faceVertices,
    normals: Float64Array.from(core.normals),
    edges: Int32Array.from(core.edges, (a) => vertexOf[a]),
    edgeFaces: Int32Array.from(core.edgeFaces),
  };
}

function subset(q: Float64Array, idx: number[]): Float64Array {
  const out = new Float64Array(3 * idx.length);
  for (let t = 0; t < idx.length; t++) {
    out[3 * t] = q[3 * idx[t]];
    out[3 * t + 1] = q[3 * idx[t] + 1];
    out[3 * t + 2] = q[3 * idx[t] + 2];
  }
  return out;
}

/** Ascending indices of the points with the largest dot product with each of the 26 directions {-1, 0, 1}^3 \ 0. */
function extremePoints(q: Float64Array, n: number): number[] {
  const pick = new Uint8Array(n);
  for (let dx = -1; dx <= 1; dx++) {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dz = -1; dz <= 1; dz++) {
        if (dx === 0 && dy === 0 && dz === 0) continue;
        let best = 0, bestDot = -Infinity;
        for (let m = 0; m < n; m++) {
          const s = dx * q[3 * m] + dy * q[3 * m + 1] + dz * q[3 * m + 2];
          if (s > bestDot) {
            bestDot = s;
            best = m;
          }
        }
        pick[best] = 1;
      }
    }
  }
  const out: number[] = [];
  for (let m = 0; m < n; m++) if (pick[m]) out.push(m);
  return out;
}

/** Candidate faces (from gift wrapping or the triple search): the points on each supporting plane, and its outward normal. */
interface Candidates {
  sets: number[][];
  bits: Uint32Array[];
  normals: number[];
}

/**
 * Every well-shaped triple whose plane has all points on one side (within tol) gives a candidate
 * face: the points within tol of that plane.
 */
function findFacePlanes(q: Float64Array, n: number, tol: number): Candidates {
  const words = (n + 31) >>> 5;
  const sets: number[][] = [];
  const bits: Uint32Array[] = [];
  const normals: number[] = [];
  const seen = new Set<string>();
  // Candidates containing both points of pair (i, j), i < j: a triple lying in a known candidate
  // face is skipped (it would give the same face again, or one merged with it later).
  const pairFaces: (number[] | undefined)[] = new Array(n * n).fill(undefined);
  const tol2 = tol * tol;
  const onPlane: number[] = [];
  let hintA = 0, hintB = 0;

  for (let i = 0; i < n; i++) {
    const xi = q[3 * i], yi = q[3 * i + 1], zi = q[3 * i + 2];
    for (let j = i + 1; j < n; j++) {
      const ax = q[3 * j] - xi, ay = q[3 * j + 1] - yi, az = q[3 * j + 2] - zi;
      const a2 = ax * ax + ay * ay + az * az;
      const pf = pairFaces[i * n + j];
      for (let k = j + 1; k < n; k++) {
        if (pf !== undefined && inAnyCandidate(pf, bits, k)) continue;
        const bx = q[3 * k] - xi, by = q[3 * k + 1] - yi, bz = q[3 * k + 2] - zi;
        let nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
        const c2 = nx * nx + ny * ny + nz * nz;
        // |a x b| / longest edge is the triangle's smallest height: skip (nearly) collinear triples,
        // whose plane is poorly determined. Every face has a well-shaped triple of its own.
        const b2 = bx * bx + by * by + bz * bz;
        const e2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay) + (bz - az) * (bz - az);
        if (c2 <= tol2 * Math.max(a2, b2, e2)) continue;
        const inv = 1 / Math.sqrt(c2);
        nx *= inv;
        ny *= inv;
        nz *= inv;
        // Quick reject: the two points that last showed a plane to cut the set often cut this one
        // too (consecutive triples have similar planes).
        const sa = nx * (q[3 * hintA] - xi) + ny * (q[3 * hintA + 1] - yi) + nz * (q[3 * hintA + 2] - zi);
        const sb = nx * (q[3 * hintB] - xi) + ny * (q[3 * hintB + 1] - yi) + nz * (q[3 * hintB + 2] - zi);
        if ((sa > tol && sb < -tol) || (sa < -tol && sb > tol)) continue;
        let above = false, below = false;
        for (let m = 0; m < n; m++) {
          const s = nx * (q[3 * m] - xi) + ny * (q[3 * m + 1] - yi) + nz * (q[3 * m + 2] - zi);
          if (s > tol) {
            above = true;
            hintA = m;
            if (below) break;
          } else if (s < -tol) {
            below = true;
            hintB = m;
            if (above) break;
          }
        }
        // Points on both sides: not a supporting plane. On neither side: every point within tol of
        // this plane (a nearly flat set); no face either.
        if (above === below) continue;
        onPlane.length = 0;
        for (let m = 0; m < n; m++) {
          const s = nx * (q[3 * m] - xi) + ny * (q[3 * m + 1] - yi) + nz * (q[3 * m + 2] - zi);
          if (Math.abs(s) <= tol) onPlane.push(m);
        }
        const key = onPlane.join(',');
        if (seen.has(key)) continue;
        seen.add(key);
        const id = sets.length;
        const b = new Uint32Array(words);
        for (const m of onPlane) b[m >>> 5] |= 1 << (m & 31);
        sets.push(onPlane.slice());
        bits.push(b);
        // Outward: every point has n . (x - x_i) <= tol.
        const sign = above ? -1 : 1;
        normals.push(sign * nx, sign * ny, sign * nz);
        for (let u = 0; u < onPlane.length; u++) {
          for (let w = u + 1; w < onPlane.length; w++) {
            const pair = onPlane[u] * n + onPlane[w];
            const list = pairFaces[pair];
            if (list === undefined) pairFaces[pair] = [id];
            else list.push(id);
          }
        }
      }
    }
  }
  return { sets, bits, normals };
}

/**
 * The hull of all the points q (flat xyz), with its topology and geometry checked; a string says
 * what failed. Gift wrapping finds the face planes in O(n * faces); if its result does not pass the
 * checks (points right at the tolerance), the brute-force triple search decides.
 */
function hullOf(q: Float64Array, tol: number): CoreHull | string {
  const n = q.length / 3;
  if (n < 4) return `${n} points`;
  const wrapped = wrapFacePlanes(q, n, tol);
  if (wrapped !== null) {
    const r = hullFromCandidates(q, wrapped, tol);
    if (typeof r !== 'string') return r;
  }
  return hullFromCandidates(q, findFacePlanes(q, n, tol), tol);
}

function newCandidates(): Candidates {
  return { sets: [], bits: [], normals: [] };
}

/** Adds the candidate face of the plane through point i with outward unit normal n: the points within tol of it (returned). */
function addCandidate(cand: Candidates, q: Float64Array, n: number, i: number, nx: number, ny: number, nz: number, tol: number): number[] {
  const xi = q[3 * i], yi = q[3 * i + 1], zi = q[3 * i + 2];
  const set: number[] = [];
  const bits = new Uint32Array((n + 31) >>> 5);
  for (let m = 0; m < n; m++) {
    const s = nx * (q[3 * m] - xi) + ny * (q[3 * m + 1] - yi) + nz * (q[3 * m + 2] - zi);
    if (Math.abs(s) <= tol) {
      set.push(m);
      bits[m >>> 5] |= 1 << (m & 31);
    }
  }
  cand.sets.push(set);
  cand.bits.push(bits);
  cand.normals.push(nx, ny, nz);
  return set;
}

/**
 * Which side of the plane through point i with unit normal n the points lie on: 1 when none is above
 * it by more than tol, -1 when none is below by more than tol, 0 when it cuts the set (or both).
 */
function sideOfPlane(q: Float64Array, n: number, i: number, nx: number, ny: number, nz: number, tol: number): number {
  const xi = q[3 * i], yi = q[3 * i + 1], zi = q[3 * i + 2];
  let above = false, below = false;
  for (let m = 0; m < n; m++) {
    const s = nx * (q[3 * m] - xi) + ny * (q[3 * m + 1] - yi) + nz * (q[3 * m + 2] - zi);
    if (s > tol) above = true;
    else if (s < -tol) below = true;
    else continue;
    if (above && below) return 0;
  }
  return above === below ? 0 : above ? -1 : 1;
}

/**
 * Gift wrapping: from a first face, cross each polygon edge a -> b to the face beyond it (which walks
 * b -> a) by rotating a plane about the edge's line until no point is outside it. Null when a step
 * fails; whether the faces found close up consistently is checked by the caller.
 */
function wrapFacePlanes(q: Float64Array, n: number, tol: number): Candidates | null {
  const cand = newCandidates();
  const seen = new Set<string>();
  const walked = new Set<number>();
  const queue: number[] = [];
  const addFace = (i: number, nx: number, ny: number, nz: number): boolean => {
    const before = cand.sets.length;
    const set = addCandidate(cand, q, n, i, nx, ny, nz, tol);
    const key = set.join(',');
    if (seen.has(key)) {
      cand.sets.length = before;
      cand.bits.length = before;
      cand.normals.length = 3 * before;
      return true;
    }
    seen.add(key);
    const poly = facePolygon(q, set, nx, ny, nz, tol);
    if (poly === null) return false;
    for (let t = 0; t < poly.length; t++) {
      const a = poly[t], b = poly[(t + 1) % poly.length];
      if (walked.has(a * n + b)) return false;
      walked.add(a * n + b);
      queue.push(a, b);
    }
    return true;
  };

  // First face: a supporting plane through the point with the smallest x and two others.
  let i0 = 0;
  for (let m = 1; m < n; m++) if (q[3 * m] < q[3 * i0]) i0 = m;
  let found = false;
  for (let j = 0; j < n && !found; j++) {
    for (let k = j + 1; k < n && !found; k++) {
      if (j === i0 || k === i0) continue;
      const ax = q[3 * j] - q[3 * i0], ay = q[3 * j + 1] - q[3 * i0 + 1], az = q[3 * j + 2] - q[3 * i0 + 2];
      const bx = q[3 * k] - q[3 * i0], by = q[3 * k + 1] - q[3 * i0 + 1], bz = q[3 * k + 2] - q[3 * i0 + 2];
      let nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
      const c = detMath.hypot(nx, ny, nz);
      const longest = Math.sqrt(Math.max(ax * ax + ay * ay + az * az, bx * bx + by * by + bz * bz, detMath.sq(bx - ax) + detMath.sq(by - ay) + detMath.sq(bz - az)));
      if (c <= tol * longest) continue;
      nx /= c;
      ny /= c;
      nz /= c;
      const side = sideOfPlane(q, n, i0, nx, ny, nz, tol);
      if (side === 0) continue;
      if (!addFace(i0, side * nx, side * ny, side * nz)) return null;
      found = true;
    }
  }
  if (!found) return null;

  for (let h = 0; h < queue.length; h += 2) {
    const a = queue[h], b = queue[h + 1];
    if (walked.has(b * n + a)) continue;
    if (cand.sets.length > 4 * n) return null;
    // The face beyond walks b -> a; with a third point c its outward normal is along (a - b) x (c - a).
    // Points within tol of the edge's line do not define a plane about it and are skipped.
    const ex = q[3 * a] - q[3 * b], ey = q[3 * a + 1] - q[3 * b + 1], ez = q[3 * a + 2] - q[3 * b + 2];
    const el = detMath.hypot(ex, ey, ez);
    let nx = 0, ny = 0, nz = 0, have = false;
    // Rotate: whenever a point is outside the current plane by more than tol, the plane through it
    // is the new candidate. Points outside after a pass (possible only through the tolerance) get
    // more passes; the last pass must find none.
    for (let pass = 0; pass < 4; pass++) {
      let moved = false;
      for (let m = 0; m < n; m++) {
        const wx = q[3 * m] - q[3 * a], wy = q[3 * m + 1] - q[3 * a + 1], wz = q[3 * m + 2] - q[3 * a + 2];
        if (have && nx * wx + ny * wy + nz * wz <= tol) continue;
        const cx = ey * wz - ez * wy, cy = ez * wx - ex * wz, cz = ex * wy - ey * wx;
        const cl = detMath.hypot(cx, cy, cz);
        if (cl <= tol * el) continue;
        nx = cx / cl;
        ny = cy / cl;
        nz = cz / cl;
        have = true;
        moved = true;
      }
      if (!moved) break;
      if (pass === 3) return null;
    }
    if (!have) return null;
    if (!addFace(a, nx, ny, nz)) return null;
  }
  return cand;
}

/** Faces from candidate face planes (merged, polygons, edges), checked; a string says what failed. */
function hullFromCandidates(q: Float64Array, cand: Candidates, tol: number): CoreHull | string {
  const n = q.length / 3;
  const words = (n + 31) >>> 5;
  const C = cand.sets.length;
  if (C < 4) return `found ${C} face planes, a closed hull needs at least 4`;

  // Merge candidates sharing three non-collinear points: they are one plane within the tolerance.
  // (Candidates sharing only points on a line meet at an edge or a vertex.)
  const parent = new Int32Array(C);
  for (let c = 0; c < C; c++) parent[c] = c;
  const root = (c: number): number => {
    while (parent[c] !== c) {
      parent[c] = parent[parent[c]];
      c = parent[c];
    }
    return c;
  };
  // Shared point counts through the candidates of each point (each point is on a few candidates).
  const pointCands: number[][] = [];
  for (let m = 0; m < n; m++) pointCands.push([]);
  for (let c = 0; c < C; c++) for (const m of cand.sets[c]) pointCands[m].push(c);
  const sharedCount = new Int32Array(C);
  const touched: number[] = [];
  const shared: number[] = [];
  for (let f = 0; f < C; f++) {
    touched.length = 0;
    for (const m of cand.sets[f]) {
      for (const g of pointCands[m]) {
        if (g <= f) continue;
        if (sharedCount[g]++ === 0) touched.push(g);
      }
    }
    for (const g of touched) {
      const count = sharedCount[g];
      sharedCount[g] = 0;
      if (count < 3) continue;
      const bg = cand.bits[g];
      shared.length = 0;
      for (const m of cand.sets[f]) if (bg[m >>> 5] & (1 << (m & 31))) shared.push(m);
      if (!collinear(q, shared, tol)) {
        const rf = root(f), rg = root(g);
        if (rf !== rg) parent[Math.max(rf, rg)] = Math.min(rf, rg);
      }
    }
  }

  // One face per group (in order of first candidate): polygon of the union of its point sets.
  const polys: number[][] = [];
  const normals: number[] = [];
  const offsets: number[] = [];
  const groups: number[][] = [];
  const groupOf = new Int32Array(C).fill(-1);
  for (let c = 0; c < C; c++) {
    const r = root(c); // the smallest candidate of its group, so groups come in order of first candidate
    if (groupOf[r] < 0) {
      groupOf[r] = groups.length;
      groups.push([]);
    }
    groups[groupOf[r]].push(c);
  }
  for (const group of groups) {
    let ex = 0, ey = 0, ez = 0;
    for (const g of group) {
      ex += cand.normals[3 * g];
      ey += cand.normals[3 * g + 1];
      ez += cand.normals[3 * g + 2];
    }
    const el = detMath.hypot(ex, ey, ez);
    if (!(el > 0)) return 'merged face planes with opposite normals';
    ex /= el;
    ey /= el;
    ez /= el;
    let members = cand.sets[group[0]];
    if (group.length > 1) {
      const union = new Uint32Array(words);
      for (const g of group) for (let w = 0; w < words; w++) union[w] |= cand.bits[g][w];
      members = [];
      for (let m = 0; m < n; m++) if (union[m >>> 5] & (1 << (m & 31))) members.push(m);
    }
    const poly = facePolygon(q, members, ex, ey, ez, tol);
    if (poly === null) return 'a face plane whose points lie on one line';
    // Refit the normal to the polygon (Newell: the polygon's area vector), which is exact for a
    // planar polygon and a least-squares-like fit for one merged within the tolerance.
    let fx = 0, fy = 0, fz = 0, mx = 0, my = 0, mz = 0;
    for (const v of poly) {
      mx += q[3 * v];
      my += q[3 * v + 1];
      mz += q[3 * v + 2];
    }
    mx /= poly.length;
    my /= poly.length;
    mz /= poly.length;
    for (let t = 0; t < poly.length; t++) {
      const a = poly[t], b = poly[(t + 1) % poly.length];
      const x0 = q[3 * a] - mx, y0 = q[3 * a + 1] - my, z0 = q[3 * a + 2] - mz;
      const x1 = q[3 * b] - mx, y1 = q[3 * b + 1] - my, z1 = q[3 * b + 2] - mz;
      fx += y0 * z1 - z0 * y1;
      fy += z0 * x1 - x0 * z1;
      fz += x0 * y1 - y0 * x1;
    }
    const fl = detMath.hypot(fx, fy, fz);
    if (!(fl > 0) || fx * ex + fy * ey + fz * ez <= 0) return 'a face polygon not counter-clockwise about its outward normal';
    fx /= fl;
    fy /= fl;
    fz /= fl;
    polys.push(poly);
    normals.push(fx, fy, fz);
    offsets.push(fx * mx + fy * my + fz * mz);
  }
  const F = polys.length;

  // Edges: each must be walked once in each direction (a closed, consistently oriented surface).
  const edgeId = new Map<number, number>();
  const edges: number[] = [];
  const edgeFaces: number[] = [];
  const degree = new Int32Array(n);
  for (let f = 0; f < F; f++) {
    const poly = polys[f];
    for (let t = 0; t < poly.length; t++) {
      const a = poly[t], b = poly[(t + 1) % poly.length];
      degree[a]++;
      const lo = Math.min(a, b), hi = Math.max(a, b);
      let e = edgeId.get(lo * n + hi);
      if (e === undefined) {
        e = edges.length / 2;
        edgeId.set(lo * n + hi, e);
        edges.push(lo, hi);
        edgeFaces.push(-1, -1);
      }
      const slot = 2 * e + (a < b ? 0 : 1);
      if (edgeFaces[slot] !== -1) return `edge ${a}-${b} walked twice in the same direction (faces ${edgeFaces[slot]} and ${f})`;
      edgeFaces[slot] = f;
    }
  }
  const E = edges.length / 2;
  for (let e = 0; e < E; e++) {
    if (edgeFaces[2 * e] === -1 || edgeFaces[2 * e + 1] === -1) {
      return `edge ${edges[2 * e]}-${edges[2 * e + 1]} has one face, every edge of a closed convex hull has exactly two`;
    }
    if (edgeFaces[2 * e] === edgeFaces[2 * e + 1]) return `edge ${edges[2 * e]}-${edges[2 * e + 1]} has the same face on both sides`;
  }
  let V = 0;
  for (let m = 0; m < n; m++) {
    if (degree[m] === 0) continue;
    V++;
    if (degree[m] < 3) return `vertex ${m} on ${degree[m]} faces, expected at least 3`;
  }
  if (V - E + F !== 2) return `Euler characteristic V - E + F = ${V} - ${E} + ${F} = ${V - E + F}, expected 2`;

  // Geometry: strictly convex polygons about the refitted normal, vertices on their plane, and
  // every point inside every face plane.
  const checkTol = 3 * tol;
  for (let f = 0; f < F; f++) {
    const nx = normals[3 * f], ny = normals[3 * f + 1], nz = normals[3 * f + 2], d = offsets[f];
    const poly = polys[f];
    const m = poly.length;
    for (let t = 0; t < m; t++) {
      const a = poly[t], b = poly[(t + 1) % m], c = poly[(t + 2) % m];
      if (Math.abs(nx * q[3 * b] + ny * q[3 * b + 1] + nz * q[3 * b + 2] - d) > checkTol) return `face ${f}: a vertex off the face plane`;
      const ux = q[3 * b] - q[3 * a], uy = q[3 * b + 1] - q[3 * a + 1], uz = q[3 * b + 2] - q[3 * a + 2];
      const wx = q[3 * c] - q[3 * b], wy = q[3 * c + 1] - q[3 * b + 1], wz = q[3 * c + 2] - q[3 * b + 2];
      const turn = nx * (uy * wz - uz * wy) + ny * (uz * wx - ux * wz) + nz * (ux * wy - uy * wx);
      if (!(turn > 0)) return `face ${f}: polygon not strictly convex`;
    }
    for (let i = 0; i < n; i++) {
      const s = nx * q[3 * i] + ny * q[3 * i + 1] + nz * q[3 * i + 2] - d;
      if (s > checkTol) return `point ${i} outside face ${f} by ${s}`;
    }
  }
  return { polys, normals, offsets, edges, edgeFaces };
}

function inAnyCandidate(list: number[], bits: Uint32Array[], k: number): boolean {
  const w = k >>> 5, b = 1 << (k & 31);
  for (const c of list) if (bits[c][w] & b) return true;
  return false;
}

/** Whether all the points lie within tol of one line (the line through the two farthest apart, roughly). */
function collinear(q: Float64Array, idx: number[], tol: number): boolean {
  const a = idx[0];
  let b = a, best = -1;
  for (const m of idx) {
    const d2 = detMath.sq(q[3 * m] - q[3 * a]) + detMath.sq(q[3 * m + 1] - q[3 * a + 1]) + detMath.sq(q[3 * m + 2] - q[3 * a + 2]);
    if (d2 > best) {
      best = d2;
      b = m;
    }
  }
  if (best <= tol * tol) return true;
  const ux = q[3 * b] - q[3 * a], uy = q[3 * b + 1] - q[3 * a + 1], uz = q[3 * b + 2] - q[3 * a + 2];
  const ul = Math.sqrt(best);
  for (const m of idx) {
    const wx = q[3 * m] - q[3 * a], wy = q[3 * m + 1] - q[3 * a + 1], wz = q[3 * m + 2] - q[3 * a + 2];
    if (detMath.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx) / ul > tol) return false;
  }
  return true;
}

/**
 * Strictly convex polygon of the points `idx` (on one plane with outward normal n), counter-clockwise
 * about n: the 2D convex hull in a basis (u, w) of the plane with u x w = n, where a point within tol
 * of the line through its neighbours (or inside it) is dropped. Null when fewer than 3 corners remain.
 *
 * Gift wrapping (Jarvis march) rather than a sorted sweep: with a tolerance, sorting by coordinate can
 * put the middle one of three nearly collinear points first, and a sweep would then drop an end.
 * Wrapping instead compares each candidate with the best so far and, among points collinear within
 * tol, always moves to the farthest, so edge midpoints are never picked.
 */
function facePolygon(q: Float64Array, idx: number[], nx: number, ny: number, nz: number, tol: number): number[] | null {
  // u = (axis least aligned with n) x n, normalized; w = n x u.
  const absX = Math.abs(nx), absY = Math.abs(ny), absZ = Math.abs(nz);
  let ux: number, uy: number, uz: number;
  if (absX <= absY && absX <= absZ) {
    ux = 0; uy = nz; uz = -ny; // (1,0,0) x n
  } else if (absY <= absZ) {
    ux = -nz; uy = 0; uz = nx; // (0,1,0) x n
  } else {
    ux = ny; uy = -nx; uz = 0; // (0,0,1) x n
  }
  const ul = detMath.hypot(ux, uy, uz);
  ux /= ul;
  uy /= ul;
  uz /= ul;
  const wx = ny * uz - nz * uy, wy = nz * ux - nx * uz, wz = nx * uy - ny * ux;
  const o = idx[0];
  const pts = idx.map((m) => {
    const dx = q[3 * m] - q[3 * o], dy = q[3 * m + 1] - q[3 * o + 1], dz = q[3 * m + 2] - q[3 * o + 2];
    return { m, x: dx * ux + dy * uy + dz * uz, y: dx * wx + dy * wy + dz * wz };
  });
  type P = (typeof pts)[number];
  // Start at the smallest x (a point on the boundary; if it is in the middle of an edge, the march
  // passes it by and the loop is cut where it closes).
  let start = 0;
  for (let t = 1; t < pts.length; t++) if (pts[t].x < pts[start].x || (pts[t].x === pts[start].x && pts[t].y < pts[start].y)) start = t;
  const poly: P[] = [];
  const at = new Map<number, number>();
  let cur = start, closed = false;
  for (let guard = 0; guard <= pts.length && !closed; guard++) {
    const seenAt = at.get(cur);
    if (seenAt !== undefined) {
      poly.splice(0, seenAt);
      closed = true;
      break;
    }
    at.set(cur, poly.length);
    poly.push(pts[cur]);
    const c = pts[cur];
    let best = -1;
    for (let t = 0; t < pts.length; t++) {
      if (t === cur) continue;
      if (best < 0) {
        best = t;
        continue;
      }
      const bx = pts[best].x - c.x, by = pts[best].y - c.y, mx = pts[t].x - c.x, my = pts[t].y - c.y;
      const cr = bx * my - by * mx; // > 0: candidate t is left of cur -> best
      const lb = detMath.hypot(bx, by), lm = detMath.hypot(mx, my);
      // Distance of the nearer of the two from the line through cur and the farther one.
      if (Math.abs(cr) <= tol * Math.max(lb, lm)) {
        if (lm > lb) best = t;
      } else if (cr < 0) {
        best = t; // right of cur -> best: best was not on the boundary
      }
    }
    cur = best;
  }
  if (!closed || poly.length < 3) return null;
  // Clean up cyclically until every corner turns left by more than the tolerance: the distance of
  // corner b from the line a -> c of its neighbours is more than tol.
  const keep = (a: P, b: P, c: P): boolean => {
    const cr = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    return cr > tol * detMath.hypot(c.x - a.x, c.y - a.y);
  };
  let changed = true;
  while (changed && poly.length >= 3) {
    changed = false;
    for (let t = 0; t < poly.length && poly.length >= 3; t++) {
      const a = poly[(t + poly.length - 1) % poly.length], c = poly[(t + 1) % poly.length];
      if (!keep(a, poly[t], c)) {
        poly.splice(t, 1);
        changed = true;
        t--;
      }
    }
  }
  return poly.length >= 3 ? poly.map((pt) => pt.m) : null;
}
