/**
 * Shape queries: which shapes overlap a sphere, capsule or box placed at a pose (intersectShape),
 * and the first hit of such a shape swept along a direction (castShape).
 *
 * Candidates come from the query grid as the other queries' do (SceneQueries.slotsInBox: the
 * shape's bounds, or for a cast the bounds of the whole sweep); each is then tested exactly by the
 * narrow phase's own contact routines (sphere-contacts.ts, capsule-contacts.ts, box-box.ts,
 * plane-contacts.ts, hull-contacts.ts), the query shape as the routine's shape A.
 *
 * A cast is conservative advancement along a translation (B. Mirtich, "Impulse-based Dynamic
 * Simulation of Rigid Body Systems", 1996, ch. 2; as Jolt and Bullet cast convex shapes): the
 * routines, run with a margin, report the separation of the shapes (a lower bound on their
 * distance: the gap along a separating axis) and its normal; moving the shape by that much along
 * the unit direction cannot make it touch, and neither can moving it to where the separation's
 * tangent along the sweep reaches zero (separation / closing rate: a Newton step, which never
 * passes the root of a convex function, and the separation of two convex shapes is convex along
 * a translation), so the cast advances by the longer of the two until the separation is below
 * CAST_TOLERANCE, then takes a last Newton step. Should an advance overshoot into overlap deeper than the tolerance (a routine's
 * separation above the true distance), the last separated and the overlapping distance are
 * bisected to the tolerance. Triangle meshes and heightfields are surfaces, met where the shape
 * touches one of their triangles (surface-queries.ts: the GJK distance to each triangle near the
 * query, and the same advancement along it).
 */
import { boxBoxContact } from './box-box.js';
import { capsuleBoxContact, capsuleCapsuleContact } from './capsule-contacts.js';
import { boxHull, type ConvexHullData } from './hull.js';
import { hullHullContact, roundedHullContact } from './hull-contacts.js';
import { ManifoldBuilder } from './manifold.js';
import { boxPlaneContact, capsulePlaneContact, spherePlaneContact } from './plane-contacts.js';
import { POSE_STRIDE, poseFromArrays } from './pose.js';
import { RayHit, copyVector, readVector, type QueryFilter, type SceneQueries, type ShapeCallback } from './queries.js';
import { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CONVEX, SHAPE_HEIGHTFIELD, SHAPE_PARAM_STRIDE, SHAPE_PLANE, SHAPE_SPHERE, SHAPE_TRIMESH } from './shape-types.js';
import { SurfaceQueries } from './surface-queries.js';
import type { ShapeStore } from './shape-store.js';
import { sphereBoxContact, sphereCapsuleContact, sphereSphereContact } from './sphere-contacts.js';

/** The shape of a shape query: a sphere, a capsule along its local y axis, or a box, as shapes are described. */
export type QueryShape =
  | { type: 'sphere'; radius: number }
  | { type: 'capsule'; radius: number; halfLength: number }
  | { type: 'box'; halfExtents: ArrayLike<number> };

/** Where a query shape is placed: a world position and a rotation quaternion [x, y, z, w] (default identity). */
export interface QueryPose {
  position: ArrayLike<number>;
  rotation?: ArrayLike<number>;
}

/** Distance (m) to which castShape finds the time of impact: the shapes are then apart by less than this. */
export const CAST_TOLERANCE = 1e-7;
/** Most advancement steps of one cast against one shape. */
const CAST_ITERATIONS = 256;

/**
 * The first hit of castShape: the same object as castRay's (RayHit), its distance the distance
 * the shape travels along the unit direction before it touches (0 when it overlaps at the start),
 * its point on the surface of the shape hit, its normal out of that shape (against the sweep), its
 * subShape the triangle of a mesh or heightfield hit. Reused when passed back in: copy what must be kept.
 */
export const ShapeHit = RayHit;
/** The first hit of castShape (see the ShapeHit value). */
export type ShapeHit = RayHit;

/** A sphere's radius into prm[0], checked. */
function readSphere(fn: string, shape: { type: 'sphere'; radius: number }, prm: Float64Array): void {
  prm[0] = shape.radius;
  if (typeof shape.radius !== 'number' || !isPositive(prm, 0)) throw sizeError(fn, 'sphere', 'radius', shape.radius);
}

/** A capsule's radius and half length into prm[0..2), checked. */
function readCapsule(fn: string, shape: { type: 'capsule'; radius: number; halfLength: number }, prm: Float64Array): void {
  prm[0] = shape.radius;
  prm[1] = shape.halfLength;
  if (typeof shape.radius !== 'number' || !isPositive(prm, 0)) throw sizeError(fn, 'capsule', 'radius', shape.radius);
  if (typeof shape.halfLength !== 'number' || !isPositive(prm, 1)) throw sizeError(fn, 'capsule', 'halfLength', shape.halfLength);
}

/** A box's half extents into prm[0..3), checked. */
function readBox(fn: string, shape: { type: 'box'; halfExtents: ArrayLike<number> }, prm: Float64Array): void {
  const h = shape.halfExtents;
  if (h == null || typeof h.length !== 'number' || h.length < 3) throw new RangeError(`${fn}: box halfExtents must hold three numbers > 0, got ${String(h)}`);
  for (let k = 0; k < 3; k++) {
    prm[k] = h[k];
    if (typeof h[k] !== 'number' || !isPositive(prm, k)) throw sizeError(fn, 'box', `halfExtents[${k}]`, h[k]);
  }
}

/** Whether prm[k] (a size just copied from the query shape) is a finite number > 0. */
function isPositive(prm: Float64Array, k: number): boolean {
  return prm[k] > 0 && prm[k] < Infinity;
}

/** The RangeError of a bad size, naming the query, the shape and the size. */
function sizeError(fn: string, type: string, name: string, v: unknown): RangeError {
  return new RangeError(`${fn}: ${type} ${name} must be a finite number > 0, got ${String(v)}`);
}

export class ShapeQueries {
  private readonly scene: SceneQueries;
  private readonly m = new ManifoldBuilder();
  /** Query shape's pose (0..12) and the tested shape's (12..24). */
  private readonly pose = new Float64Array(2 * POSE_STRIDE);
  /** Query shape's parameters (0..3) and the tested shape's (3..6). */
  private readonly prm = new Float64Array(2 * SHAPE_PARAM_STRIDE);
  /**
   * Start of the sweep (the query pose's position, 0..2), unit direction (3..5), best distance (6),
   * closing rate of the last separation (7), where moveTo places the shape (8), the margin of the
   * next separation (9) and its result (10): numbers passed in a typed array, not as arguments or
   * results (a double crossing a call that is not inlined is boxed).
   */
  private readonly sweep = new Float64Array(11);
  /** The caller's vectors, copied: pose position (0..2), rotation (3..6), direction (7..9). */
  private readonly vec = new Float64Array(10);
  private kind = SHAPE_SPHERE;
  private boxHullData: ConvexHullData | null = null;
  private store: ShapeStore | null = null;
  private callback: ShapeCallback | null = null;
  private readonly best = new RayHit();
  private bestSlot = -1;
  private readonly surface = new SurfaceQueries();
  private readonly overlapVisit = (s: number): boolean => {
    const store = this.store as ShapeStore;
    const kind = store.kind[s];
    if (kind === SHAPE_TRIMESH || kind === SHAPE_HEIGHTFIELD) {
      this.surface.begin(this.kind, this.prm, this.pose, store.worldPose, POSE_STRIDE * s);
      if (!this.surface.overlaps(store.mesh[s], store.heightfield[s])) return true;
    } else if (this.separationWith(store, s, 0) > 0) return true;
    return (this.callback as ShapeCallback)(store.body[s], store.link[s], store.handle[s]) !== false;
  };
  private readonly castVisit = (s: number): boolean => {
    const store = this.store as ShapeStore, kind = store.kind[s];
    if (kind === SHAPE_TRIMESH || kind === SHAPE_HEIGHTFIELD) this.castAgainstSurface(store, s);
    else this.castAgainst(store, s);
    return true;
  };

  constructor(scene: SceneQueries) {
    this.scene = scene;
  }

  /** Checks and sets the query shape and its pose; writes its world bounds into the scene's box. */
  private setShape(fn: string, shape: QueryShape, pose: QueryPose): void {
    if (shape == null || typeof shape !== 'object') throw new RangeError(`${fn}: shape must be { type: 'sphere' | 'capsule' | 'box', ... }, got ${String(shape)}`);
    const prm = this.prm;
    // (each kind's sizes are read by a function of its own, straight into prm: a double read from
    // an object in code compiled before that kind was seen, or passed on, is boxed)
    if (shape.type === 'sphere') {
      this.kind = SHAPE_SPHERE;
      readSphere(fn, shape, prm);
    } else if (shape.type === 'capsule') {
      this.kind = SHAPE_CAPSULE;
      readCapsule(fn, shape, prm);
    } else if (shape.type === 'box') {
      this.kind = SHAPE_BOX;
      readBox(fn, shape, prm);
      const bh = this.boxHullData;
      if (bh === null || bh.bounds[3] !== prm[0] || bh.bounds[4] !== prm[1] || bh.bounds[5] !== prm[2]) this.boxHullData = boxHull(prm[0], prm[1], prm[2]);
    } else throw new RangeError(`${fn}: shape.type must be 'sphere', 'capsule' or 'box', got ${String((shape as { type: unknown }).type)}`);
    if (pose == null || typeof pose !== 'object') throw new RangeError(`${fn}: pose must be { position, rotation? }, got ${String(pose)}`);
    const v = this.vec;
    readVector(fn, 'pose.position', pose.position, v, 0, 3);
    const r = pose.rotation;
    if (r !== undefined) {
      if (!copyVector(r, v, 3, 4) || !(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6] > 1e-12)) {
        throw new RangeError(`${fn}: pose.rotation must be a non-zero quaternion [x, y, z, w] of finite numbers, got ${String(r)}`);
      }
    } else { v[3] = 0; v[4] = 0; v[5] = 0; v[6] = 1; }
    poseFromArrays(v, 3, v, 0, this.pose, 0);
    this.bounds();
  }

  /** World bounds of the query shape at pose[0..12) into the scene's box. */
  private bounds(): void {
    const P = this.pose, prm = this.prm, b = this.scene.box;
    for (let k = 0; k < 3; k++) {
      let e: number;
      if (this.kind === SHAPE_SPHERE) e = prm[0];
      else if (this.kind === SHAPE_CAPSULE) e = prm[0] + Math.abs(P[3 * k + 1]) * prm[1];
      else e = Math.abs(P[3 * k]) * prm[0] + Math.abs(P[3 * k + 1]) * prm[1] + Math.abs(P[3 * k + 2]) * prm[2];
      b[k] = P[9 + k] - e;
      b[3 + k] = P[9 + k] + e;
    }
  }

  /**
   * Shapes overlapping (touching counts) the shape at the pose, through callback(body, link,
   * shape) (body and link -1 for statics); return false to stop.
   */
  intersectShape(shape: QueryShape, pose: QueryPose, callback: ShapeCallback, filter?: QueryFilter): void {
    this.setShape('intersectShape', shape, pose);
    if (typeof callback !== 'function') throw new RangeError('intersectShape: callback must be a function');
    if (filter !== undefined && (filter === null || typeof filter !== 'object')) throw new RangeError(`intersectShape: filter must be an object, got ${filter}`);
    this.store = this.scene.withFilter(filter);
    this.callback = callback;
    try {
      this.scene.slotsInBox(this.overlapVisit);
    } finally {
      this.scene.withFilter(undefined);
      this.callback = null;
    }
  }

  /**
   * First hit of the shape swept from the pose along direction (normalised here) within
   * maxDistance, into out (a new ShapeHit without it); null when it hits nothing. A shape
   * overlapping something at the start hits it at distance 0.
   */
  castShape(shape: QueryShape, pose: QueryPose, direction: ArrayLike<number>, maxDistance: number, filter?: QueryFilter, out?: ShapeHit): ShapeHit | null {
    this.setShape('castShape', shape, pose);
    const v = this.vec;
    readVector('castShape', 'direction', direction, v, 7, 3);
    const len = Math.sqrt(v[7] * v[7] + v[8] * v[8] + v[9] * v[9]);
    if (!(len > 1e-300 && len < Infinity)) throw new RangeError(`castShape: direction must be a non-zero vector, got [${v[7]}, ${v[8]}, ${v[9]}]`);
    if (typeof maxDistance !== 'number' || !(maxDistance >= 0 && maxDistance < Infinity)) throw new RangeError(`castShape: maxDistance must be a finite number >= 0, got ${maxDistance}`);
    if (filter !== undefined && (filter === null || typeof filter !== 'object')) throw new RangeError(`castShape: filter must be an object, got ${filter}`);
    const sw = this.sweep, P = this.pose, b = this.scene.box;
    sw[0] = P[9]; sw[1] = P[10]; sw[2] = P[11];
    sw[3] = v[7] / len; sw[4] = v[8] / len; sw[5] = v[9] / len;
    sw[6] = maxDistance;
    // the sweep's bounds: the shape's at the start and at the end
    for (let k = 0; k < 3; k++) {
      const d = sw[3 + k] * maxDistance;
      if (d < 0) b[k] += d; else b[3 + k] += d;
    }
    this.bestSlot = -1;
    this.store = this.scene.withFilter(filter);
    try {
      this.scene.slotsInBox(this.castVisit);
    } finally {
      this.scene.withFilter(undefined);
    }
    if (this.bestSlot < 0) return null;
    return (out ?? new RayHit()).copy(this.best);
  }

  /** The sweep against a triangle mesh or heightfield (surface-queries.ts); keeps the nearest hit (ties: lower handle). */
  private castAgainstSurface(store: ShapeStore, s: number): void {
    const sf = this.surface, sw = this.sweep;
    sf.begin(this.kind, this.prm, this.pose, store.worldPose, POSE_STRIDE * s);
    if (!sf.cast(store.mesh[s], store.heightfield[s], sw)) return;
    const hit = sf.hit, t = hit[0];
    if (this.bestSlot >= 0 && (t > sw[6] || (t === sw[6] && store.handle[s] > store.handle[this.bestSlot]))) return;
    const h = this.best;
    h.body = -1; h.link = -1; h.shape = store.handle[s]; h.staticShape = store.handle[s]; h.subShape = sf.subShape;
    h.point[0] = hit[1]; h.point[1] = hit[2]; h.point[2] = hit[3];
    h.normal[0] = hit[4]; h.normal[1] = hit[5]; h.normal[2] = hit[6];
    h.distanceSlot[0] = t;
    this.bestSlot = s;
    sw[6] = t;
  }

  /** Places the query shape at start + t direction, t = sweep[8]. */
  private moveTo(): void {
    const P = this.pose, sw = this.sweep, t = sw[8];
    P[9] = sw[0] + t * sw[3]; P[10] = sw[1] + t * sw[4]; P[11] = sw[2] + t * sw[5];
  }

  /** Places the query shape back at the start of the sweep. */
  private atStart(): void {
    this.sweep[8] = 0;
    this.moveTo();
  }

  /** The separation from slot s with margin k CAST_TOLERANCE (k an integer: not boxed). */
  private separationWith(store: ShapeStore, s: number, k: number): number {
    const sw = this.sweep;
    sw[9] = k * CAST_TOLERANCE;
    this.separation(store, s);
    return sw[10] > 0 ? 1 : sw[10] === 0 ? 0 : -1;
  }

  /** Conservative advancement of the sweep against slot s; keeps the nearest hit (ties: lower handle). */
  private castAgainst(store: ShapeStore, s: number): void {
    const sw = this.sweep;
    const limit = sw[6]; // the best distance so far (maxDistance before any hit)
    let t = 0, safe = -1, hitAt = -1;
    for (let it = 0; it < CAST_ITERATIONS; it++) {
      sw[8] = t;
      this.moveTo();
      sw[9] = limit - t + CAST_TOLERANCE;
      this.separation(store, s);
      const d = sw[10];
      if (d === Infinity) break; // apart by more than the rest of the sweep
      if (d < -CAST_TOLERANCE && t > 0) { hitAt = t; break; } // overshot: bisect below
      const rate = sw[7];
      if (d <= CAST_TOLERANCE) {
        // a last Newton step on the separation (exact against a plane; second order otherwise)
        if (d > 0 && rate > 1e-9 && t + d / rate <= limit) t += d / rate;
        safe = t; hitAt = t;
        break;
      }
      safe = t;
      // by d (conservative), or by the Newton step d / rate when longer: the separation of convex
      // shapes is convex along a translation, so its tangent meets zero no later than it does
      t += rate > 1e-9 && d / rate > d ? d / rate : d;
      if (t > limit) break;
    }
    if (hitAt < 0) { this.atStart(); return; }
    if (safe < hitAt) {
      // the last separated distance and an overlapping one: bisect to the tolerance
      let lo = safe, hi = hitAt;
      while (hi - lo > CAST_TOLERANCE) {
        const mid = 0.5 * (lo + hi);
        sw[8] = mid;
        this.moveTo();
        if (this.separationWith(store, s, 1) > 0) lo = mid; else hi = mid;
      }
      hitAt = lo;
      sw[8] = hitAt;
      this.moveTo();
      this.separationWith(store, s, 2);
    }
    if (this.bestSlot >= 0 && (hitAt > limit || (hitAt === limit && store.handle[s] > store.handle[this.bestSlot]))) { this.atStart(); return; }
    // the deepest point of the manifold at the hit: its point on the shape hit and the normal out
    // of that shape (the routine's normal runs from its B to its A; its point lies on its A)
    const m = this.m;
    if (m.count === 0) { this.atStart(); return; }
    let k = 0;
    for (let j = 1; j < m.count; j++) if (m.depth[j] > m.depth[k]) k = j;
    let px = m.point[3 * k], py = m.point[3 * k + 1], pz = m.point[3 * k + 2];
    let nx = m.normal[3 * k], ny = m.normal[3 * k + 1], nz = m.normal[3 * k + 2];
    const depth = m.depth[k];
    if (m.flipped) { nx = -nx; ny = -ny; nz = -nz; } // the routine's A is the shape hit
    else { px += nx * depth; py += ny * depth; pz += nz * depth; } // the routine's B is the shape hit
    const h = this.best;
    h.body = store.body[s]; h.link = store.link[s]; h.shape = store.handle[s];
    h.staticShape = store.body[s] < 0 ? store.handle[s] : -1;
    h.subShape = -1;
    h.point[0] = px; h.point[1] = py; h.point[2] = pz;
    h.normal[0] = nx; h.normal[1] = ny; h.normal[2] = nz;
    h.distanceSlot[0] = hitAt;
    this.bestSlot = s;
    sw[6] = hitAt;
    this.atStart();
  }

  /**
   * Separation of the query shape (at pose[0..12)) from slot s by the contact routines run with
   * the margin sweep[9], into sweep[10]: minus the deepest point's depth (<= 0 when they overlap),
   * Infinity when no point is within the margin (apart by more). Leaves the manifold in this.m.
   */
  private separation(store: ShapeStore, s: number): void {
    const m = this.m, P = this.pose, prm = this.prm, W = store.worldPose, o = POSE_STRIDE * s, margin = this.sweep[9];
    for (let i = 0; i < POSE_STRIDE; i++) P[POSE_STRIDE + i] = W[o + i];
    const q = SHAPE_PARAM_STRIDE * s;
    prm[3] = store.params[q]; prm[4] = store.params[q + 1]; prm[5] = store.params[q + 2];
    m.reset();
    m.margin = margin;
    const ka = this.kind, kb = store.kind[s], B = POSE_STRIDE, qb = SHAPE_PARAM_STRIDE;
    if (kb === SHAPE_CONVEX) {
      const hull = store.hull[s] as ConvexHullData;
      if (ka === SHAPE_BOX) hullHullContact(P, 0, this.boxHullData as ConvexHullData, P, B, hull, m);
      else roundedHullContact(P, 0, prm, 0, P, B, hull, m);
    } else if (kb === SHAPE_PLANE) {
      if (ka === SHAPE_SPHERE) spherePlaneContact(P, 0, P, B, prm, 0, m);
      else if (ka === SHAPE_CAPSULE) capsulePlaneContact(P, 0, P, B, prm, 0, m);
      else boxPlaneContact(P, 0, P, B, prm, 0, m);
    } else if (ka === SHAPE_SPHERE) {
      if (kb === SHAPE_SPHERE) sphereSphereContact(P, 0, P, B, prm, 0, qb, m);
      else if (kb === SHAPE_CAPSULE) sphereCapsuleContact(P, 0, P, B, prm, 0, qb, m);
      else if (kb === SHAPE_BOX) sphereBoxContact(P, 0, P, B, prm, 0, qb, m);
      else { this.sweep[10] = Infinity; return; }
    } else if (ka === SHAPE_CAPSULE) {
      if (kb === SHAPE_SPHERE) { m.flipped = true; sphereCapsuleContact(P, B, P, 0, prm, qb, 0, m); }
      else if (kb === SHAPE_CAPSULE) capsuleCapsuleContact(P, 0, P, B, prm, 0, qb, m);
      else if (kb === SHAPE_BOX) capsuleBoxContact(P, 0, P, B, prm, 0, qb, m);
      else { this.sweep[10] = Infinity; return; }
    } else {
      if (kb === SHAPE_SPHERE) { m.flipped = true; sphereBoxContact(P, B, P, 0, prm, qb, 0, m); }
      else if (kb === SHAPE_CAPSULE) { m.flipped = true; capsuleBoxContact(P, B, P, 0, prm, qb, 0, m); }
      else if (kb === SHAPE_BOX) boxBoxContact(P, 0, P, B, prm, 0, qb, m);
      else { this.sweep[10] = Infinity; return; }
    }
    if (m.count === 0) { this.sweep[10] = Infinity; return; }
    let k = 0;
    for (let j = 1; j < m.count; j++) if (m.depth[j] > m.depth[k]) k = j;
    // the rate at which the sweep closes the gap: minus the sweep direction along the normal out of
    // the tested shape (the routine's normal runs from its B to its A)
    const sw = this.sweep, sign = m.flipped ? 1 : -1;
    sw[7] = sign * (m.normal[3 * k] * sw[3] + m.normal[3 * k + 1] * sw[4] + m.normal[3 * k + 2] * sw[5]);
    sw[10] = -m.depth[k];
  }
}
