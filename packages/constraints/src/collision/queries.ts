/**
 * Scene queries over the collision world's shapes as its last update placed them: rays (first hit
 * or every hit), the shapes containing a point, the shapes whose bounds meet a box. Read-only for
 * the scene; no allocation when the caller passes the output object (callbacks get a hit object
 * that is reused from call to call: copy what must outlive the callback).
 *
 * Everything goes through the query grid (query-grid.ts, the broad phase's grid: cell-grid.ts): a ray walks
 * only the cells it crosses, in order along the ray (2D DDA over the (x, z) cells: J. Amanatides and
 * A. Woo, "A Fast Voxel Traversal Algorithm for Ray Tracing", 1987), tests each shape's bounds by
 * slabs (aabb.ts clipRay) and then the shape exactly (ray.ts); a
 * first-hit ray stops at the first cell that begins beyond the nearest hit found. Large shapes and
 * planes (infinite bounds) are tested directly.
 */
import { AABB_STRIDE, clipRay } from './aabb.js';
import { QueryGrid } from './query-grid.js';
import { rayBox, rayCapsule, rayHalfSpace, rayHeightfield, rayHull, rayMesh, raySphere } from './ray.js';
import { POSE_STRIDE } from './pose.js';
import type { ShapeStore } from './shape-store.js';
import type { ConvexHullData } from './hull.js';
import type { HeightfieldData } from './heightfield.js';
import type { TriangleMeshData } from './mesh.js';
import { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CONVEX, SHAPE_HEIGHTFIELD, SHAPE_PARAM_STRIDE, SHAPE_PLANE, SHAPE_SPHERE, SHAPE_TRIMESH } from './shape-types.js';

/** Which shapes a query sees. */
export interface QueryFilter {
  /**
   * Groups the query belongs to (default all bits): a shape is seen only when (shape mask & group)
   * != 0, as two shapes collide (filter.ts).
   */
  group?: number;
  /** Groups the query sees (default all bits): a shape is seen only when (shape group & mask) != 0. */
  mask?: number;
  /** Shapes of this body are not seen. */
  excludeBody?: number;
  /** Shapes for which this returns false are not seen (body -1 and link -1 for static shapes). */
  predicate?: (body: number, link: number, shape: number) => boolean;
}

/** A query's hit. Reused: copy what must be kept. */
export class RayHit {
  /** Body index, -1 for a static shape. */
  body = -1;
  /** Link of the body, -1 for a static shape. */
  link = -1;
  /** Handle of the shape hit. */
  shape = -1;
  /** The shape's handle when it is static, else -1. */
  staticShape = -1;
  /** Triangle hit of a triangle mesh (its index in the description) or heightfield, else -1. */
  subShape = -1;
  /** World point of the hit. */
  readonly point = new Float64Array(3);
  /** Unit world normal at the hit, outward of the shape, against the ray (see castRay). */
  readonly normal = new Float64Array(3);
  /** [distance] (a typed array: a double written to an object's field may be put on the heap). */
  readonly distanceSlot = new Float64Array(1);
  /** Distance along the (unit) direction from the origin (m). */
  get distance(): number {
    return this.distanceSlot[0];
  }
  /** Copies another hit into this one. */
  copy(h: RayHit): this {
    this.body = h.body; this.link = h.link; this.shape = h.shape; this.staticShape = h.staticShape; this.subShape = h.subShape;
    this.point.set(h.point); this.normal.set(h.normal); this.distanceSlot[0] = h.distanceSlot[0];
    return this;
  }
}

/** Callback of castRayAll: return false to stop. */
export type RayHitCallback = (hit: RayHit) => boolean | void;
/** Callback of the shape queries, per shape found (body and link -1 for static shapes): return false to stop. */
export type ShapeCallback = (body: number, link: number, shape: number) => boolean | void;

const ALL = 0xffffffff;

/**
 * Copies the caller's vector v (n = 3 numbers, or 4 for a quaternion) into out[o..o+n) and checks
 * them: a RangeError unless v holds n finite numbers. Each kind of array is read by its own loop:
 * a read that has met several kinds (Float64Array, Float32Array, Array) hands its number over
 * boxed on the heap, which a query called every frame must not do.
 */
export function readVector(fn: string, name: string, v: ArrayLike<number> | null | undefined, out: Float64Array, o: number, n: number): void {
  if (copyVector(v, out, o, n)) return;
  const what = n === 3 ? 'three finite numbers' : `${n} finite numbers`;
  throw new RangeError(`${fn}: ${name} must hold ${what}, got ${v == null ? String(v) : `[${Array.prototype.slice.call(v, 0, n).join(', ')}]`}`);
}

/** readVector without the error: whether v held n finite numbers (copied into out[o..o+n)). */
export function copyVector(v: ArrayLike<number> | null | undefined, out: Float64Array, o: number, n: number): boolean {
  if (v instanceof Float64Array && v.length >= n) for (let k = 0; k < n; k++) out[o + k] = v[k];
  else if (v instanceof Float32Array && v.length >= n) for (let k = 0; k < n; k++) out[o + k] = v[k];
  else if (Array.isArray(v) && v.length >= n) {
    for (let k = 0; k < n; k++) {
      const x: unknown = v[k];
      out[o + k] = typeof x === 'number' ? x : NaN;
    }
  } else if (v != null && typeof v.length === 'number' && v.length >= n) {
    for (let k = 0; k < n; k++) {
      const x: unknown = v[k];
      out[o + k] = typeof x === 'number' ? x : NaN;
    }
  } else return false;
  for (let k = 0; k < n; k++) if (!(out[o + k] - out[o + k] === 0)) return false; // not finite
  return true;
}

/** Checks origin and direction and writes origin and the unit direction into ray[0..6). */
function setRay(fn: string, origin: ArrayLike<number>, v: ArrayLike<number>, ray: Float64Array): void {
  readVector(fn, 'origin', origin, ray, 0, 3);
  readVector(fn, 'direction', v, ray, 3, 3);
  const len = Math.sqrt(ray[3] * ray[3] + ray[4] * ray[4] + ray[5] * ray[5]);
  if (!(len > 1e-300 && len < Infinity)) throw new RangeError(`${fn}: direction must be a non-zero vector, got [${ray[3]}, ${ray[4]}, ${ray[5]}]`);
  ray[3] /= len; ray[4] /= len; ray[5] /= len;
}

function checkMaxDistance(fn: string, maxDistance: number): void {
  if (typeof maxDistance !== 'number' || !(maxDistance >= 0)) throw new RangeError(`${fn}: maxDistance must be a number >= 0 (Infinity allowed), got ${maxDistance}`);
}

export class SceneQueries {
  readonly grid = new QueryGrid();
  private store: ShapeStore | null = null;
  /** Ray: origin, unit direction (0..5), and per-shape result [t, nx, ny, nz, subShape] (8..12). */
  private readonly ray = new Float64Array(6);
  private readonly res = new Float64Array(5);
  /** The ray in a shape's frame and tMax, then scratch parameters (ray.ts). */
  private readonly localRay = new Float64Array(11);
  private readonly tri = new Float64Array(9);
  private readonly best = new RayHit();
  private readonly scratchHit = new RayHit();
  /** [best distance] of the running first-hit query. */
  private readonly bestT = new Float64Array(1);
  /** The span of the ray inside a box (clipRay). */
  private readonly span = new Float64Array(2);
  /** The ray's maxDistance, for walk. */
  private readonly rayMax = new Float64Array(1);
  private bestSlot = -1;
  private filter: QueryFilter | undefined = undefined;
  private allCallback: RayHitCallback | null = null;
  private stopped = false;

  /** The store to query; its bounds changed (the grid is rebuilt when next needed). */
  invalidate(store: ShapeStore): void {
    this.store = store;
    this.grid.current = false;
  }

  private ready(): ShapeStore {
    const store = this.store as ShapeStore;
    if (!this.grid.current) this.grid.build(store);
    return store;
  }

  /** Whether slot s passes the filter. */
  private passes(store: ShapeStore, s: number): boolean {
    const f = this.filter;
    if (store.disabled[s] === 1) return false;
    if (f === undefined) return true;
    const group = f.group ?? ALL, mask = f.mask ?? ALL;
    if ((store.group[s] & mask) === 0 || (store.mask[s] & group) === 0) return false;
    const body = store.body[s];
    if (f.excludeBody !== undefined && body === f.excludeBody && body >= 0) return false;
    if (f.predicate !== undefined && !f.predicate(body, store.link[s], store.handle[s])) return false;
    return true;
  }

  /**
   * First hit along the ray origin + t direction / |direction|, t in [0, maxDistance], into out
   * (a new RayHit without it); null when nothing is hit. A ray starting inside a solid convex
   * shape (sphere, capsule, box, convex hull, below a plane) hits it at distance 0 with the normal
   * opposite the ray; meshes and heightfields are surfaces, hit from either side with the
   * triangle's normal turned against the ray. Equal distances go to the lower shape handle.
   */
  castRay(origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, filter?: QueryFilter, out?: RayHit): RayHit | null {
    setRay('castRay', origin, direction, this.ray);
    checkMaxDistance('castRay', maxDistance);
    if (filter !== undefined && (filter === null || typeof filter !== 'object')) throw new RangeError(`castRay: filter must be an object, got ${filter}`);
    this.filter = filter;
    this.allCallback = null;
    this.bestSlot = -1;
    this.bestT[0] = maxDistance;
    this.rayMax[0] = maxDistance;
    this.walk();
    this.filter = undefined;
    if (this.bestSlot < 0) return null;
    return (out ?? new RayHit()).copy(this.best);
  }

  /** Every shape the ray hits (each once, at its first hit), in no particular order, through callback. */
  castRayAll(origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, callback: RayHitCallback, filter?: QueryFilter): void {
    setRay('castRayAll', origin, direction, this.ray);
    checkMaxDistance('castRayAll', maxDistance);
    if (typeof callback !== 'function') throw new RangeError('castRayAll: callback must be a function');
    this.filter = filter;
    this.allCallback = callback;
    this.stopped = false;
    this.bestSlot = -1;
    this.bestT[0] = maxDistance;
    this.rayMax[0] = maxDistance;
    try {
      this.walk();
    } finally {
      this.filter = undefined;
      this.allCallback = null;
    }
  }

  /** Tests slot s against the current ray; keeps the nearest hit or reports it. */
  private test(store: ShapeStore, s: number): void {
    if (this.stopped || !this.passes(store, s)) return;
    const tMax = this.bestT[0];
    if (!this.exactRay(store, s)) return;
    const res = this.res, t = res[0];
    if (this.allCallback === null) {
      if (this.bestSlot >= 0 && (t > tMax || (t === tMax && store.handle[s] > store.handle[this.bestSlot]))) return;
      this.bestSlot = s;
      this.bestT[0] = t;
      this.fill(store, s, this.best);
    } else {
      const h = this.scratchHit;
      this.fill(store, s, h);
      if (this.allCallback(h) === false) this.stopped = true;
    }
  }

  private fill(store: ShapeStore, s: number, h: RayHit): void {
    const r = this.ray, res = this.res, t = res[0];
    const body = store.body[s];
    h.body = body;
    h.link = store.link[s];
    h.shape = store.handle[s];
    h.staticShape = body < 0 ? store.handle[s] : -1;
    h.subShape = res[4] | 0;
    h.distanceSlot[0] = t;
    h.point[0] = r[0] + t * r[3]; h.point[1] = r[1] + t * r[4]; h.point[2] = r[2] + t * r[5];
    h.normal[0] = res[1]; h.normal[1] = res[2]; h.normal[2] = res[3];
  }

  /** Whether the ray meets the bounds at aabb[o..o+6) within [0, best distance] (aabb.ts clipRay). */
  private meets(aabb: Float64Array, o: number): boolean {
    const span = this.span;
    span[0] = 0; span[1] = this.bestT[0];
    return clipRay(this.ray, aabb, o, span, 0);
  }

  /** Planes, large shapes, then the grid cells along the ray. */
  private walk(): void {
    const store = this.ready(), g = this.grid, r = this.ray;
    const ox = r[0], oy = r[1], oz = r[2], dx = r[3], dy = r[4], dz = r[5];
    const q = g.nextStamp();
    for (let k = 0; k < g.planeCount; k++) this.test(store, g.planes[k]);
    for (let k = 0; k < g.largeCount; k++) {
      const s = g.large[k];
      if (this.meets(store.aabb, AABB_STRIDE * s)) this.test(store, s);
    }
    // the ray within the grid's bounds (none when the grid is empty)
    const b = g.bounds;
    if (!(b[0] <= b[3])) return;
    // (the ray's length read from an array: a number argument, or a phi of one with the doubles
    // below, was boxed on the heap once or twice a ray)
    const span = this.span;
    span[0] = 0; span[1] = this.rayMax[0];
    if (!clipRay(r, b, 0, span, 0)) return;
    const t0 = span[0], t1 = span[1];
    if (t0 > this.bestT[0]) return;
    const cell = g.cell[0];
    let cx = Math.floor((ox + t0 * dx) / cell) | 0, cz = Math.floor((oz + t0 * dz) / cell) | 0;
    const stepX = dx > 0 ? 1 : dx < 0 ? -1 : 0, stepZ = dz > 0 ? 1 : dz < 0 ? -1 : 0;
    const dtX = stepX !== 0 ? cell / Math.abs(dx) : Infinity, dtZ = stepZ !== 0 ? cell / Math.abs(dz) : Infinity;
    let nextX = stepX > 0 ? ((cx + 1) * cell - ox) / dx : stepX < 0 ? (cx * cell - ox) / dx : Infinity;
    let nextZ = stepZ > 0 ? ((cz + 1) * cell - oz) / dz : stepZ < 0 ? (cz * cell - oz) / dz : Infinity;
    const aabb = store.aabb, slot = g.entrySlot, ex = g.entryX, ez = g.entryZ, stamp = g.stamp;
    const hashMask = g.mask;
    for (;;) {
      const bk = (Math.imul(cx, 73856093) ^ Math.imul(cz, 19349663)) & hashMask;
      for (let i = g.bucketStart[bk], end = g.bucketStart[bk + 1]; i < end; i++) {
        const e = g.bucketed[i];
        if (ex[e] !== cx || ez[e] !== cz) continue;
        const s = slot[e];
        if (stamp[s] === q) continue;
        stamp[s] = q;
        if (this.meets(aabb, AABB_STRIDE * s)) this.test(store, s);
      }
      if (this.stopped) return;
      // the next cell begins where this one ends: stop once that is past the nearest hit
      const exit = nextX < nextZ ? nextX : nextZ;
      const limit = this.allCallback === null ? Math.min(this.bestT[0], t1) : t1;
      if (!(exit <= limit * (1 + 1e-12) + 1e-12)) return;
      if (nextX < nextZ) { cx = (cx + stepX) | 0; nextX += dtX; } else { cz = (cz + stepZ) | 0; nextZ += dtZ; }
    }
  }

  /** Exact ray test of slot s (world ray, unit direction); result in res (world normal). */
  private exactRay(store: ShapeStore, s: number): boolean {
    const r = this.ray, tMax = this.bestT[0];
    const ox = r[0], oy = r[1], oz = r[2], dx = r[3], dy = r[4], dz = r[5];
    const P = store.worldPose, o = POSE_STRIDE * s;
    // local = R^T (x - p)
    const px = ox - P[o + 9], py = oy - P[o + 10], pz = oz - P[o + 11];
    const lx = P[o] * px + P[o + 3] * py + P[o + 6] * pz;
    const ly = P[o + 1] * px + P[o + 4] * py + P[o + 7] * pz;
    const lz = P[o + 2] * px + P[o + 5] * py + P[o + 8] * pz;
    const ux = P[o] * dx + P[o + 3] * dy + P[o + 6] * dz;
    const uy = P[o + 1] * dx + P[o + 4] * dy + P[o + 7] * dz;
    const uz = P[o + 2] * dx + P[o + 5] * dy + P[o + 8] * dz;
    const res = this.res, prm = store.params, po = SHAPE_PARAM_STRIDE * s, lr = this.localRay;
    lr[0] = lx; lr[1] = ly; lr[2] = lz; lr[3] = ux; lr[4] = uy; lr[5] = uz; lr[6] = tMax;
    res[4] = -1;
    let hit: boolean;
    switch (store.kind[s]) {
      case SHAPE_SPHERE: lr[7] = 0; lr[8] = 0; lr[9] = 0; lr[10] = prm[po]; hit = raySphere(lr, res); break;
      case SHAPE_CAPSULE: hit = rayCapsule(lr, prm, po, res); break;
      case SHAPE_BOX: hit = rayBox(lr, prm, po, res); break;
      case SHAPE_CONVEX: hit = rayHull(lr, store.hull[s] as ConvexHullData, res); break;
      case SHAPE_PLANE: hit = rayHalfSpace(lr, res); break;
      case SHAPE_TRIMESH: {
        const mesh = store.mesh[s] as TriangleMeshData;
        hit = rayMesh(lr, mesh, this.tri, res);
        if (hit) res[4] = mesh.sourceTriangle[res[4]];
        break;
      }
      case SHAPE_HEIGHTFIELD: hit = rayHeightfield(lr, store.heightfield[s] as HeightfieldData, this.tri, res); break;
      default: hit = false;
    }
    if (!hit) return false;
    // world normal = R n
    const nx = res[1], ny = res[2], nz = res[3];
    res[1] = P[o] * nx + P[o + 1] * ny + P[o + 2] * nz;
    res[2] = P[o + 3] * nx + P[o + 4] * ny + P[o + 5] * nz;
    res[3] = P[o + 6] * nx + P[o + 7] * ny + P[o + 8] * nz;
    return true;
  }

  /**
   * Shapes containing the point (on the boundary counts): solids (sphere, capsule, box, convex
   * hull, below a plane, below a heightfield's surface over its cells and not below its lowest
   * height). A triangle mesh is a surface and contains no point.
   */
  pointQuery(point: ArrayLike<number>, callback: ShapeCallback, filter?: QueryFilter): void {
    const pt = this.ray;
    readVector('pointQuery', 'point', point, pt, 0, 3);
    if (typeof callback !== 'function') throw new RangeError('pointQuery: callback must be a function');
    const store = this.ready(), g = this.grid;
    const x = pt[0], z = pt[2];
    const q = g.nextStamp();
    this.filter = filter;
    try {
      for (let k = 0; k < g.planeCount; k++) if (!this.pointIn(store, g.planes[k], callback)) return;
      for (let k = 0; k < g.largeCount; k++) if (!this.pointIn(store, g.large[k], callback)) return;
      const cell = g.cell[0], fx = Math.floor(x / cell), fz = Math.floor(z / cell);
      if (!(Math.abs(fx) <= 0x40000000 && Math.abs(fz) <= 0x40000000)) return;
      const cx = fx | 0, cz = fz | 0;
      const bk = (Math.imul(cx, 73856093) ^ Math.imul(cz, 19349663)) & g.mask;
      for (let i = g.bucketStart[bk], end = g.bucketStart[bk + 1]; i < end; i++) {
        const e = g.bucketed[i];
        if (g.entryX[e] !== cx || g.entryZ[e] !== cz) continue;
        const s = g.entrySlot[e];
        if (g.stamp[s] === q) continue;
        g.stamp[s] = q;
        if (!this.pointIn(store, s, callback)) return;
      }
    } finally {
      this.filter = undefined;
    }
  }

  /** Reports slot s when it passes the filter and contains the point ray[0..3); false when the callback stops. */
  private pointIn(store: ShapeStore, s: number, callback: ShapeCallback): boolean {
    const a = store.aabb, o = AABB_STRIDE * s, pt = this.ray, x = pt[0], y = pt[1], z = pt[2];
    if (store.bounded[s] && (x < a[o] || x > a[o + 3] || y < a[o + 1] || y > a[o + 4] || z < a[o + 2] || z > a[o + 5])) return true;
    if (!this.passes(store, s) || !containsPoint(store, s, pt)) return true;
    return callback(store.body[s], store.link[s], store.handle[s]) !== false;
  }

  /**
   * Shapes whose bounds (as the broad phase holds them: grown by the contact margin) meet the box
   * [min, max]; planes whose solid side it reaches.
   */
  bodiesInAabb(min: ArrayLike<number>, max: ArrayLike<number>, callback: ShapeCallback, filter?: QueryFilter): void {
    const box = this.box;
    readVector('bodiesInAabb', 'min', min, box, 0, 3);
    readVector('bodiesInAabb', 'max', max, box, 3, 3);
    if (!(box[0] <= box[3] && box[1] <= box[4] && box[2] <= box[5])) throw new RangeError(`bodiesInAabb: min must not exceed max on any axis, got min [${min[0]}, ${min[1]}, ${min[2]}] and max [${max[0]}, ${max[1]}, ${max[2]}]`);
    if (typeof callback !== 'function') throw new RangeError('bodiesInAabb: callback must be a function');
    this.filter = filter;
    this.shapeCallback = callback;
    try {
      this.slotsInBox(this.reportSlot);
    } finally {
      this.filter = undefined;
      this.shapeCallback = null;
    }
  }

  /** The box [min xyz, max xyz] slotsInBox looks in (set by the caller). */
  readonly box = new Float64Array(6);
  private shapeCallback: ShapeCallback | null = null;
  private readonly reportSlot = (s: number): boolean => {
    const store = this.store as ShapeStore;
    return (this.shapeCallback as ShapeCallback)(store.body[s], store.link[s], store.handle[s]) !== false;
  };

  /**
   * Every slot passing the current filter whose bounds (grown by the contact margin) meet the box
   * `this.box`, planes whose solid side it reaches, through visit(slot) (return false to stop).
   * The filter is the one the caller set with `withFilter`.
   */
  slotsInBox(visit: (s: number) => boolean): void {
    const store = this.ready(), g = this.grid, a = store.aabb, box = this.box;
    const q = g.nextStamp();
    const x0 = box[0], y0 = box[1], z0 = box[2], x1 = box[3], y1 = box[4], z1 = box[5];
    for (let k = 0; k < g.planeCount; k++) {
      const s = g.planes[k], P = store.worldPose, o = POSE_STRIDE * s;
      // the box's lowest corner along the plane normal against the plane
      const nx = P[o + 1], ny = P[o + 4], nz = P[o + 7];
      const lo = nx * (nx > 0 ? x0 : x1) + ny * (ny > 0 ? y0 : y1) + nz * (nz > 0 ? z0 : z1);
      if (lo > nx * P[o + 9] + ny * P[o + 10] + nz * P[o + 11] + 0) continue;
      if (this.passes(store, s) && !visit(s)) return;
    }
    const cell = g.cell[0];
    const cx0 = Math.floor(x0 / cell), cx1 = Math.floor(x1 / cell), cz0 = Math.floor(z0 / cell), cz1 = Math.floor(z1 / cell);
    const few = cx1 - cx0 < 64 && cz1 - cz0 < 64 && (cx1 - cx0 + 1) * (cz1 - cz0 + 1) <= 256;
    for (let k = 0; k < g.largeCount; k++) if (!this.visitBounded(store, g.large[k], visit)) return;
    if (!few) {
      for (let s = 0; s < store.slotCount; s++) {
        if (!store.bounded[s] || g.stamp[s] === q) continue;
        g.stamp[s] = q;
        if (!g.isLarge(s, g.largeCount) && !this.visitBounded(store, s, visit)) return;
      }
      return;
    }
    for (let cx = cx0; cx <= cx1; cx++) {
      for (let cz = cz0; cz <= cz1; cz++) {
        const bk = g.bucket(cx, cz);
        for (let i = g.bucketStart[bk], end = g.bucketStart[bk + 1]; i < end; i++) {
          const e = g.bucketed[i];
          if (g.entryX[e] !== cx || g.entryZ[e] !== cz) continue;
          const s = g.entrySlot[e];
          if (g.stamp[s] === q) continue;
          g.stamp[s] = q;
          if (!this.visitBounded(store, s, visit)) return;
        }
      }
    }
  }

  private visitBounded(store: ShapeStore, s: number, visit: (s: number) => boolean): boolean {
    const a = store.aabb, o = AABB_STRIDE * s, b = this.box;
    if (a[o] > b[3] || a[o + 3] < b[0] || a[o + 1] > b[4] || a[o + 4] < b[1] || a[o + 2] > b[5] || a[o + 5] < b[2]) return true;
    if (!this.passes(store, s)) return true;
    return visit(s);
  }

  /** Sets the filter the next slotsInBox applies (undefined: none); the caller clears it after. */
  withFilter(filter: QueryFilter | undefined): ShapeStore {
    this.filter = filter;
    return this.ready();
  }
}

/** Whether slot s contains the world point at point[0..3). */
export function containsPoint(store: ShapeStore, s: number, point: Float64Array): boolean {
  const x = point[0], y = point[1], z = point[2];
  const P = store.worldPose, o = POSE_STRIDE * s;
  const px = x - P[o + 9], py = y - P[o + 10], pz = z - P[o + 11];
  const lx = P[o] * px + P[o + 3] * py + P[o + 6] * pz;
  const ly = P[o + 1] * px + P[o + 4] * py + P[o + 7] * pz;
  const lz = P[o + 2] * px + P[o + 5] * py + P[o + 8] * pz;
  const prm = store.params, po = SHAPE_PARAM_STRIDE * s;
  switch (store.kind[s]) {
    case SHAPE_SPHERE: return lx * lx + ly * ly + lz * lz <= prm[po] * prm[po];
    case SHAPE_CAPSULE: {
      const h = prm[po + 1], cy = ly < -h ? -h : ly > h ? h : ly, r = prm[po];
      return lx * lx + (ly - cy) * (ly - cy) + lz * lz <= r * r;
    }
    case SHAPE_BOX: return Math.abs(lx) <= prm[po] && Math.abs(ly) <= prm[po + 1] && Math.abs(lz) <= prm[po + 2];
    case SHAPE_CONVEX: {
      const pl = (store.hull[s] as ConvexHullData).planes;
      for (let f = 0; f < pl.length; f += 4) if (pl[f] * lx + pl[f + 1] * ly + pl[f + 2] * lz > pl[f + 3]) return false;
      return true;
    }
    case SHAPE_PLANE: return ly <= 0;
    case SHAPE_HEIGHTFIELD: {
      point[3] = lx; point[4] = ly; point[5] = lz;
      return (store.heightfield[s] as HeightfieldData).contains(point, 3);
    }
    default: return false;
  }
}
