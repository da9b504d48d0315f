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
 * bisected to the tolerance. Triangle meshes and heightfields are not seen by shape queries.
 */
import { boxBoxContact } from './box-box.js';
import { capsuleBoxContact, capsuleCapsuleContact } from './capsule-contacts.js';
import { boxHull, type ConvexHullData } from './hull.js';
import { hullHullContact, roundedHullContact } from './hull-contacts.js';
import { ManifoldBuilder } from './manifold.js';
import { boxPlaneContact, capsulePlaneContact, spherePlaneContact } from './plane-contacts.js';
import { POSE_STRIDE, poseFromQuaternion } from './pose.js';
import { checkVector, type QueryFilter, type SceneQueries, type ShapeCallback } from './queries.js';
import { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CONVEX, SHAPE_PARAM_STRIDE, SHAPE_PLANE, SHAPE_SPHERE } from './shape-types.js';
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

/** The first hit of castShape. Reused when passed back in: copy what must be kept. */
export class ShapeHit {
  /** Body index, -1 for a static shape. */
  body = -1;
  /** Link of the body, -1 for a static shape. */
  link = -1;
  /** Handle of the shape hit. */
  shape = -1;
  /** The shape's handle when it is static, else -1. */
  staticShape = -1;
  /** World point of the hit, on the surface of the shape hit. */
  readonly point = new Float64Array(3);
  /** Unit world normal at the hit, out of the shape hit (against the sweep). */
  readonly normal = new Float64Array(3);
  /** [distance] (a typed array: a double written to an object's field may be put on the heap). */
  readonly distanceSlot = new Float64Array(1);
  /** Distance (m) the shape travels along the unit direction before it touches; 0 when it overlaps at the start. */
  get distance(): number {
    return this.distanceSlot[0];
  }
}

/** v when it is a finite number > 0; a RangeError naming the query, the shape and the size otherwise. */
function positive(fn: string, type: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !(v > 0 && v < Infinity)) throw new RangeError(`${fn}: ${type} ${name} must be a finite number > 0, got ${String(v)}`);
  return v;
}

export class ShapeQueries {
  private readonly scene: SceneQueries;
  private readonly m = new ManifoldBuilder();
  /** Query shape's pose (0..12) and the tested shape's (12..24). */
  private readonly pose = new Float64Array(2 * POSE_STRIDE);
  /** Query shape's parameters (0..3) and the tested shape's (3..6). */
  private readonly prm = new Float64Array(2 * SHAPE_PARAM_STRIDE);
  /** Start of the sweep (the query pose's position), unit direction, best distance, closing rate of the last separation. */
  private readonly sweep = new Float64Array(8);
  private kind = SHAPE_SPHERE;
  private boxHullData: ConvexHullData | null = null;
  private store: ShapeStore | null = null;
  private callback: ShapeCallback | null = null;
  private readonly best = new ShapeHit();
  private bestSlot = -1;
  private readonly overlapVisit = (s: number): boolean => {
    const store = this.store as ShapeStore;
    if (this.separation(store, s, 0) > 0) return true;
    return (this.callback as ShapeCallback)(store.body[s], store.link[s], store.handle[s]) !== false;
  };
  private readonly castVisit = (s: number): boolean => {
    this.castAgainst(this.store as ShapeStore, s);
    return true;
  };

  constructor(scene: SceneQueries) {
    this.scene = scene;
  }

  /** Checks and sets the query shape and its pose; writes its world bounds into the scene's box. */
  private setShape(fn: string, shape: QueryShape, pose: QueryPose): void {
    if (shape == null || typeof shape !== 'object') throw new RangeError(`${fn}: shape must be { type: 'sphere' | 'capsule' | 'box', ... }, got ${String(shape)}`);
    const prm = this.prm;
    if (shape.type === 'sphere') { this.kind = SHAPE_SPHERE; prm[0] = positive(fn, shape.type, 'radius', shape.radius); }
    else if (shape.type === 'capsule') { this.kind = SHAPE_CAPSULE; prm[0] = positive(fn, shape.type, 'radius', shape.radius); prm[1] = positive(fn, shape.type, 'halfLength', shape.halfLength); }
    else if (shape.type === 'box') {
      this.kind = SHAPE_BOX;
      const h = shape.halfExtents;
      if (h == null || typeof h.length !== 'number' || h.length < 3) throw new RangeError(`${fn}: box halfExtents must hold three numbers > 0, got ${String(h)}`);
      prm[0] = positive(fn, shape.type, 'halfExtents[0]', h[0]); prm[1] = positive(fn, shape.type, 'halfExtents[1]', h[1]); prm[2] = positive(fn, shape.type, 'halfExtents[2]', h[2]);
      const bh = this.boxHullData;
      if (bh === null || bh.bounds[3] !== prm[0] || bh.bounds[4] !== prm[1] || bh.bounds[5] !== prm[2]) this.boxHullData = boxHull(prm[0], prm[1], prm[2]);
    } else throw new RangeError(`${fn}: shape.type must be 'sphere', 'capsule' or 'box', got ${String((shape as { type: unknown }).type)}`);
    if (pose == null || typeof pose !== 'object') throw new RangeError(`${fn}: pose must be { position, rotation? }, got ${String(pose)}`);
    checkVector(fn, 'pose.position', pose.position);
    const r = pose.rotation, p = pose.position;
    if (r !== undefined) {
      if (r == null || typeof r.length !== 'number' || r.length < 4 || !(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3] > 1e-12) || !(Math.abs(r[0]) + Math.abs(r[1]) + Math.abs(r[2]) + Math.abs(r[3]) < Infinity)) {
        throw new RangeError(`${fn}: pose.rotation must be a non-zero quaternion [x, y, z, w] of finite numbers, got ${String(r)}`);
      }
      poseFromQuaternion(r[0], r[1], r[2], r[3], p[0], p[1], p[2], this.pose, 0);
    } else poseFromQuaternion(0, 0, 0, 1, p[0], p[1], p[2], this.pose, 0);
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
    checkVector('castShape', 'direction', direction);
    const len = Math.sqrt(direction[0] * direction[0] + direction[1] * direction[1] + direction[2] * direction[2]);
    if (!(len > 1e-300 && len < Infinity)) throw new RangeError(`castShape: direction must be a non-zero vector, got [${direction[0]}, ${direction[1]}, ${direction[2]}]`);
    if (typeof maxDistance !== 'number' || !(maxDistance >= 0 && maxDistance < Infinity)) throw new RangeError(`castShape: maxDistance must be a finite number >= 0, got ${maxDistance}`);
    if (filter !== undefined && (filter === null || typeof filter !== 'object')) throw new RangeError(`castShape: filter must be an object, got ${filter}`);
    const sw = this.sweep, P = this.pose, b = this.scene.box;
    sw[0] = P[9]; sw[1] = P[10]; sw[2] = P[11];
    sw[3] = direction[0] / len; sw[4] = direction[1] / len; sw[5] = direction[2] / len;
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
    const h = out ?? new ShapeHit(), best = this.best;
    h.body = best.body; h.link = best.link; h.shape = best.shape; h.staticShape = best.staticShape;
    h.point.set(best.point); h.normal.set(best.normal); h.distanceSlot[0] = best.distanceSlot[0];
    return h;
  }

  /** Places the query shape at start + t direction. */
  private moveTo(t: number): void {
    const P = this.pose, sw = this.sweep;
    P[9] = sw[0] + t * sw[3]; P[10] = sw[1] + t * sw[4]; P[11] = sw[2] + t * sw[5];
  }

  /** Conservative advancement of the sweep against slot s; keeps the nearest hit (ties: lower handle). */
  private castAgainst(store: ShapeStore, s: number): void {
    const sw = this.sweep;
    const limit = sw[6]; // the best distance so far (maxDistance before any hit)
    let t = 0, safe = -1, hitAt = -1;
    for (let it = 0; it < CAST_ITERATIONS; it++) {
      this.moveTo(t);
      const d = this.separation(store, s, limit - t + CAST_TOLERANCE);
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
    if (hitAt < 0) { this.moveTo(0); return; }
    if (safe < hitAt) {
      // the last separated distance and an overlapping one: bisect to the tolerance
      let lo = safe, hi = hitAt;
      while (hi - lo > CAST_TOLERANCE) {
        const mid = 0.5 * (lo + hi);
        this.moveTo(mid);
        if (this.separation(store, s, CAST_TOLERANCE) > 0) lo = mid; else hi = mid;
      }
      hitAt = lo;
      this.moveTo(hitAt);
      this.separation(store, s, 2 * CAST_TOLERANCE);
    }
    if (this.bestSlot >= 0 && (hitAt > limit || (hitAt === limit && store.handle[s] > store.handle[this.bestSlot]))) { this.moveTo(0); return; }
    // the deepest point of the manifold at the hit: its point on the shape hit and the normal out
    // of that shape (the routine's normal runs from its B to its A; its point lies on its A)
    const m = this.m;
    if (m.count === 0) { this.moveTo(0); return; }
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
    h.point[0] = px; h.point[1] = py; h.point[2] = pz;
    h.normal[0] = nx; h.normal[1] = ny; h.normal[2] = nz;
    h.distanceSlot[0] = hitAt;
    this.bestSlot = s;
    sw[6] = hitAt;
    this.moveTo(0);
  }

  /**
   * Separation of the query shape (at pose[0..12)) from slot s by the contact routines run with
   * the given margin: minus the deepest point's depth (<= 0 when they overlap), Infinity when no
   * point is within the margin (apart by more). Leaves the manifold in this.m.
   */
  private separation(store: ShapeStore, s: number, margin: number): number {
    const m = this.m, P = this.pose, prm = this.prm, W = store.worldPose, o = POSE_STRIDE * s;
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
      else return Infinity;
    } else if (ka === SHAPE_CAPSULE) {
      if (kb === SHAPE_SPHERE) { m.flipped = true; sphereCapsuleContact(P, B, P, 0, prm, qb, 0, m); }
      else if (kb === SHAPE_CAPSULE) capsuleCapsuleContact(P, 0, P, B, prm, 0, qb, m);
      else if (kb === SHAPE_BOX) capsuleBoxContact(P, 0, P, B, prm, 0, qb, m);
      else return Infinity;
    } else {
      if (kb === SHAPE_SPHERE) { m.flipped = true; sphereBoxContact(P, B, P, 0, prm, qb, 0, m); }
      else if (kb === SHAPE_CAPSULE) { m.flipped = true; capsuleBoxContact(P, B, P, 0, prm, qb, 0, m); }
      else if (kb === SHAPE_BOX) boxBoxContact(P, 0, P, B, prm, 0, qb, m);
      else return Infinity;
    }
    if (m.count === 0) return Infinity;
    let k = 0;
    for (let j = 1; j < m.count; j++) if (m.depth[j] > m.depth[k]) k = j;
    // the rate at which the sweep closes the gap: minus the sweep direction along the normal out of
    // the tested shape (the routine's normal runs from its B to its A)
    const sw = this.sweep, sign = m.flipped ? 1 : -1;
    sw[7] = sign * (m.normal[3 * k] * sw[3] + m.normal[3 * k + 1] * sw[4] + m.normal[3 * k + 2] * sw[5]);
    return -m.depth[k];
  }
}
