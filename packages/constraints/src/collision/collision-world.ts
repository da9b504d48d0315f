/**
 * The collision scene: shapes attached to (body, link) pairs and static shapes in the world.
 *
 * Set-up (allocates): setBody, addDynamicShape, addStaticShape, setStaticPose, growToFit.
 * Per step (allocates nothing): update(linkPoses) -> findPairs() (broad phase, broadphase.ts) ->
 * generateContacts() (narrow phase, narrowphase.ts), or detect() for all three.
 * The first update after a registration change rebuilds the flat arrays; call prepare() at set-up
 * to do that outside the step.
 */
import type { ShapeDesc } from '@sinew/featherstone';
import { AABB_STRIDE, growAabb, primitiveAabb, transformedAabb } from './aabb.js';
import { GridBroadPhase } from './broadphase.js';
import { ContactBuffer } from './contact-buffer.js';
import { CollisionFilter } from './filter.js';
import { NarrowPhase } from './narrowphase.js';
import { composePoses, poseFromQuaternion, poseIsFinite, POSE_STRIDE } from './pose.js';
import { CollisionShapeError, compileShape, type CompiledShape } from './shape-validation.js';
import { ShapeStore } from './shape-store.js';
import { boxHull, type ConvexHullData } from './hull.js';
import { RayHit, SceneQueries, type QueryFilter, type RayHitCallback, type ShapeCallback } from './queries.js';
import { ShapeHit, ShapeQueries, type QueryPose, type QueryShape } from './shape-queries.js';
import { drawShape, type DebugLineWriter } from './debug-shapes.js';
import { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CONVEX, SHAPE_HEIGHTFIELD, SHAPE_KIND_NAMES, SHAPE_PARAM_STRIDE, SHAPE_PLANE, SHAPE_SPHERE, SHAPE_TRIMESH, type ShapeKind } from './shape-types.js';

/** Options of the collision world: contact margin, contact and pair capacities, and the size below which all pairs are tested. */
export interface CollisionWorldOptions {
  /**
   * Contact margin (m, default 0.005): pairs closer than this report contacts with negative depth,
   * so resting contacts persist from step to step.
   */
  margin?: number;
  /** Initial contact buffer capacity (default 1024 points). */
  contactCapacity?: number;
  /** Initial broad-phase pair capacity (default 1024 pairs). */
  pairCapacity?: number;
  /**
   * Scenes of at most this many shapes with finite bounds test every two of them in the broad
   * phase instead of going through its grid (default 64); the pairs are the same either way.
   */
  allPairsUpTo?: number;
}

/** Collision options of one body: whether its links collide with each other, and link pairs that never do. */
export interface BodyCollisionOptions {
  /** Whether links of this body collide with each other (default true; excluded pairs never do). */
  selfCollision?: boolean;
  /** Link pairs of this body that never collide (the World passes parent-child pairs). */
  excludedLinkPairs?: ReadonlyArray<readonly [number, number]>;
}

interface BodyRecord {
  linkCount: number;
  selfCollision: boolean;
  excluded: Array<readonly [number, number]>;
  /** Whether the body's shapes collide at all (setBodyEnabled). */
  enabled?: boolean;
}

interface ShapeRecord {
  handle: number;
  /** -1 for static shapes. */
  body: number;
  link: number;
  compiled: CompiledShape;
  /** Removed (removeShape, removeBody): its handle is never given again and names nothing. */
  removed?: boolean;
  /** Whether the shape collides and is seen by queries (setShapeEnabled; default true). */
  enabled?: boolean;
}

/** The collision side of a World: shapes on links and in the world, the broad phase, the narrow phase filling the contact buffer, and scene queries. */
export class CollisionWorld {
  readonly margin: number;
  readonly contacts: ContactBuffer;
  private readonly bodies: (BodyRecord | undefined)[] = [];
  private readonly records: ShapeRecord[] = [];
  private readonly filter = new CollisionFilter();
  private readonly broad: GridBroadPhase;
  private readonly narrow: NarrowPhase;
  private store = new ShapeStore(0, 0);
  /** Slot of each shape handle. */
  private slotOf = new Int32Array(0);
  private dirty = true;
  private bodyMargin = new Float64Array(0);
  /** 1 for bodies at rest (asleep): pairs of resting or static shapes only are not collided. */
  private bodyResting = new Uint8Array(0);

  constructor(options: CollisionWorldOptions = {}) {
    const margin = options.margin ?? 0.005;
    if (!(Number.isFinite(margin) && margin >= 0)) throw new Error(`CollisionWorld: margin must be a finite number >= 0, got ${margin}`);
    this.margin = margin;
    const cc = options.contactCapacity ?? 1024, pc = options.pairCapacity ?? 1024;
    if (!(Number.isInteger(cc) && cc >= 0)) throw new Error(`CollisionWorld: contactCapacity must be an integer >= 0, got ${cc}`);
    if (!(Number.isInteger(pc) && pc >= 0)) throw new Error(`CollisionWorld: pairCapacity must be an integer >= 0, got ${pc}`);
    this.contacts = new ContactBuffer(cc);
    this.broad = new GridBroadPhase(pc);
    const all = options.allPairsUpTo ?? 64;
    if (!(Number.isInteger(all) && all >= 0)) throw new Error(`CollisionWorld: allPairsUpTo must be an integer >= 0, got ${all}`);
    this.broad.allPairsUpTo = all;
    this.narrow = new NarrowPhase(margin);
  }

  private bodyRank: number[] = [];

  /**
   * The order of bodies in the shape slots (rank[body], a permutation; default: body index): the
   * pair list and the contacts follow it, so a world that ranks its bodies by name finds the same
   * contacts in the same order however its bodies were added.
   */
  setBodyOrder(rank: ArrayLike<number>): void {
    this.bodyRank = Array.from(rank);
    this.dirty = true;
  }

  /** Declares body `body` (a character index, any order) with `linkCount` links. */
  setBody(body: number, linkCount: number, options: BodyCollisionOptions = {}): void {
    if (!Number.isInteger(body) || body < 0) throw new Error(`CollisionWorld.setBody: body must be an integer >= 0, got ${body}`);
    if (!Number.isInteger(linkCount) || linkCount < 1) throw new Error(`CollisionWorld.setBody(${body}): linkCount must be an integer >= 1, got ${linkCount}`);
    const old = this.bodies[body];
    if (old !== undefined && linkCount < old.linkCount) {
      for (const r of this.records) {
        if (r.body === body && r.link >= linkCount) {
          throw new Error(`CollisionWorld.setBody(${body}): linkCount ${linkCount} is too small for ${r.compiled.label} on link ${r.link}`);
        }
      }
    }
    const rec: BodyRecord = { linkCount, selfCollision: options.selfCollision ?? true, excluded: [] };
    this.bodies[body] = rec;
    for (const [i, j] of options.excludedLinkPairs ?? []) this.excludeLinkPair(body, i, j);
    this.dirty = true;
  }

  /**
   * Speculative margin of a body's shapes (m, >= 0), added to the contact margin for the next
   * updates: a body that may move d within the coming step reports contacts up to d away, so
   * nothing it could hit within the step is missed (continuous collision by speculative contacts).
   */
  setBodyMargin(body: number, margin: number): void {
    if (!(margin >= 0 && margin < Infinity)) throw new Error(`CollisionWorld.setBodyMargin(${body}): margin must be a finite number >= 0, got ${margin}`);
    if (body >= this.bodyMargin.length) {
      const grown = new Float64Array(Math.max(body + 1, 2 * this.bodyMargin.length));
      grown.set(this.bodyMargin);
      this.bodyMargin = grown;
    }
    this.bodyMargin[body] = margin;
  }

  /**
   * Marks a body as resting (asleep) or not. A resting body does not move: the first update after
   * it was marked places its shapes, and later updates leave them there (its link poses are not
   * read) until it is marked moving again. Pairs whose shapes all belong to resting bodies or to
   * static geometry are left out by the broad phase: nothing there moves, so a sleeping pile costs
   * no contact generation. A pair with one moving body is collided as always (that is how a
   * sleeper is found to be touched).
   */
  setBodyResting(body: number, resting: boolean): void {
    if (body >= this.bodyResting.length) {
      if (!resting) return;
      const size = Math.max(body + 1, 2 * this.bodyResting.length);
      const grown = new Uint8Array(size);
      grown.set(this.bodyResting);
      this.bodyResting = grown;
      const posed = new Uint8Array(size);
      posed.set(this.restingPosed);
      this.restingPosed = posed;
    }
    this.bodyResting[body] = resting ? 1 : 0;
    if (!resting) this.restingPosed[body] = 0;
  }

  /** Per body: resting, and its shapes' world poses and bounds are those of an update since (update skips them). */
  private restingPosed = new Uint8Array(0);

  /**
   * Makes the next update place every shape again, resting bodies' too: for when link poses
   * changed without the bodies being marked moving (a world's saved state restored over it, a
   * sleeper moved and kept asleep).
   */
  repose(): void {
    this.restingPosed.fill(0);
  }

  /** Turns collisions between links of the same body on or off. */
  setSelfCollision(body: number, enabled: boolean): void {
    const rec = this.body(body, 'setSelfCollision');
    rec.selfCollision = enabled;
    if (!this.dirty && body < this.filter.selfCollision.length) this.filter.selfCollision[body] = enabled ? 1 : 0;
  }

  /** No link pairs joined by pins (before the step adds those of its pins, addPinnedPair). */
  clearPinnedPairs(): void {
    this.filter.clearPinned();
  }

  /** Link linkA of bodyA and link linkB of bodyB are joined by a pin: they do not collide (CollisionFilter.pinned). */
  addPinnedPair(bodyA: number, linkA: number, bodyB: number, linkB: number): void {
    this.filter.addPinned(bodyA, linkA, bodyB, linkB);
  }

  /** Links linkA and linkB of `body` never collide with each other. */
  excludeLinkPair(body: number, linkA: number, linkB: number): void {
    const rec = this.body(body, 'excludeLinkPair');
    for (const l of [linkA, linkB]) {
      if (!Number.isInteger(l) || l < 0 || l >= rec.linkCount) {
        throw new Error(`CollisionWorld.excludeLinkPair: link ${l} of body ${body} must be an integer in [0, ${rec.linkCount - 1}]`);
      }
    }
    rec.excluded.push([linkA, linkB]);
    if (!this.dirty && body < this.filter.linkCount.length) {
      const m = this.filter.linkCount[body], o = this.filter.excludedOffset[body];
      this.filter.excluded[o + linkA * m + linkB] = 1;
      this.filter.excluded[o + linkB * m + linkA] = 1;
    }
  }

  /**
   * Attaches a shape to link `link` of body `body` (declared by setBody); desc.position and
   * desc.rotation place it in the link frame. Returns the shape's handle.
   */
  addDynamicShape(body: number, link: number, desc: ShapeDesc, name?: string): number {
    const handle = this.records.length;
    const label = `shape ${handle} (body ${body}, link ${link}${name ? `, "${name}"` : ''})`;
    const rec = this.bodies[body];
    if (!Number.isInteger(body) || body < 0 || rec === undefined) {
      throw new CollisionShapeError(`${label}: body ${body} is not declared; call setBody(${body}, linkCount) first`);
    }
    if (!Number.isInteger(link) || link < 0 || link >= rec.linkCount) {
      throw new CollisionShapeError(`${label}: link must be an integer in [0, ${rec.linkCount - 1}] for body ${body}, got ${link}`);
    }
    const compiled = compileShape(desc, label, false);
    this.records.push({ handle, body, link, compiled });
    this.setSensorFlag(handle, desc.sensor === true);
    this.dirty = true;
    return handle;
  }

  /** Adds a static shape; desc.position and desc.rotation are its world pose. Returns its handle. */
  addStaticShape(desc: ShapeDesc, name?: string): number {
    const handle = this.records.length;
    const label = `static shape ${handle}${name ? ` "${name}"` : ''}`;
    const compiled = compileShape(desc, label, true);
    this.records.push({ handle, body: -1, link: -1, compiled });
    this.setSensorFlag(handle, desc.sensor === true);
    this.dirty = true;
    return handle;
  }

  /** Moves a static shape (set-up time, or between steps for a kinematic prop). */
  setStaticPose(handle: number, position: ArrayLike<number>, rotation: ArrayLike<number> = [0, 0, 0, 1]): void {
    const rec = this.records[handle];
    if (rec === undefined || rec.body >= 0) throw new Error(`CollisionWorld.setStaticPose: ${handle} is not a static shape handle`);
    if (rec.removed) throw new Error(`CollisionWorld.setStaticPose: ${rec.compiled.label} was removed`);
    const p = position, q = rotation;
    const ok = p.length === 3 && q.length === 4 && [p[0], p[1], p[2], q[0], q[1], q[2], q[3]].every(Number.isFinite) && q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-18;
    if (!ok) throw new CollisionShapeError(`${rec.compiled.label}: pose must be a finite position [x, y, z] and a non-zero quaternion [x, y, z, w]`);
    poseFromQuaternion(q[0], q[1], q[2], q[3], p[0], p[1], p[2], rec.compiled.localPose, 0);
    if (!this.dirty) {
      const s = this.slotOf[handle];
      this.store.localPose.set(rec.compiled.localPose, POSE_STRIDE * s);
      this.placeStatic(s);
      this.queries.invalidate(this.store);
    }
  }

  /** Handles given so far (removed shapes included: a handle is never given twice). */
  get shapeCount(): number {
    return this.records.length;
  }

  /** Kind of a shape ('sphere', 'capsule', ...). */
  shapeKind(handle: number): ShapeKind {
    return SHAPE_KIND_NAMES[this.record(handle).compiled.kind];
  }

  /** Builds the flat arrays now (otherwise the next update does). Allocates. */
  prepare(): void {
    if (!this.dirty) return;
    const dynamic = this.records.filter((r) => r.body >= 0 && !r.removed);
    const statics = this.records.filter((r) => r.body < 0 && !r.removed);
    // Canonical order: (body rank, link, handle) - handles on one link keep their registration order.
    const rank = (b: number) => this.bodyRank[b] ?? b;
    dynamic.sort((p, q) => rank(p.body) - rank(q.body) || p.link - q.link || p.handle - q.handle);
    const ordered = dynamic.concat(statics);
    const store = new ShapeStore(ordered.length, dynamic.length);
    this.slotOf = new Int32Array(this.records.length).fill(-1);
    // boxes meet hulls as hulls: their hulls are built only when there are hulls to meet
    const anyHull = ordered.some((r) => r.compiled.kind === SHAPE_CONVEX);
    for (let s = 0; s < ordered.length; s++) {
      const r = ordered[s], c = r.compiled;
      this.slotOf[r.handle] = s;
      store.kind[s] = c.kind;
      store.body[s] = r.body;
      store.link[s] = r.link;
      store.handle[s] = r.handle;
      store.params.set(c.params, SHAPE_PARAM_STRIDE * s);
      store.localPose.set(c.localPose, POSE_STRIDE * s);
      store.friction[s] = c.friction;
      store.frictionCombine[s] = c.frictionCombine;
      store.restitution[s] = c.restitution;
      store.disabled[s] = this.collides(r) ? 0 : 1;
      store.group[s] = this.collides(r) ? c.group : 0;
      store.mask[s] = this.collides(r) ? c.mask : 0;
      store.bounded[s] = c.kind === SHAPE_PLANE ? 0 : 1;
      store.mesh[s] = c.mesh;
      store.heightfield[s] = c.heightfield;
      store.hull[s] = c.hull ?? (c.kind === SHAPE_BOX && anyHull ? boxHull(c.params[0], c.params[1], c.params[2]) : null);
    }
    this.store = store;
    this.queries.invalidate(store);
    this.restingPosed.fill(0); // a new store: every shape is placed by the next update
    for (let s = store.dynamicCount; s < store.slotCount; s++) this.placeStatic(s);
    const n = this.bodies.length;
    const linkCounts: number[] = [], self: boolean[] = [], excluded: Array<ReadonlyArray<readonly [number, number]>> = [];
    for (let b = 0; b < n; b++) {
      const rec = this.bodies[b];
      linkCounts.push(rec?.linkCount ?? 0);
      self.push(rec?.selfCollision ?? true);
      excluded.push(rec?.excluded ?? []);
    }
    this.filter.setBodies(n, linkCounts, self, excluded);
    this.broad.setShapes(store);
    this.dirty = false;
  }

  /**
   * Computes the world pose and bounds of every dynamic shape from its link's pose:
   * linkPoses[body] holds 12 numbers per link (R row-major, then p; world = R local + p).
   */
  update(linkPoses: ArrayLike<ArrayLike<number>>): void {
    if (this.dirty) this.prepare();
    const st = this.store, margin = this.margin;
    const posed = this.restingPosed, np = posed.length;
    for (let s = 0; s < st.dynamicCount; s++) {
      const body = st.body[s], link = st.link[s];
      if (body < np && posed[body] === 1) continue; // resting, placed by an earlier update
      const lp = linkPoses[body];
      if (lp === undefined || lp === null || lp.length < POSE_STRIDE * (link + 1)) {
        const need = POSE_STRIDE * (this.bodies[body] as BodyRecord).linkCount;
        throw new Error(`CollisionWorld.update: linkPoses[${body}] must hold 12 numbers per link (${need} numbers for body ${body}), got ${lp == null ? String(lp) : `${lp.length} numbers`}`);
      }
      if (!poseIsFinite(lp, POSE_STRIDE * link)) {
        throw new Error(`CollisionWorld.update: the pose of body ${body} link ${link} is not finite (numbers ${POSE_STRIDE * link}..${POSE_STRIDE * link + 11} of linkPoses[${body}])`);
      }
      composePoses(lp, POSE_STRIDE * link, st.localPose, POSE_STRIDE * s, st.worldPose, POSE_STRIDE * s);
      const extra = body < this.bodyMargin.length ? this.bodyMargin[body] : 0;
      st.extraMargin[s] = extra;
      const o = AABB_STRIDE * s, grow = margin + extra;
      if (st.kind[s] === SHAPE_CONVEX) {
        transformedAabb((st.hull[s] as ConvexHullData).bounds, st.worldPose, POSE_STRIDE * s, grow, st.aabb, o);
        continue;
      }
      primitiveAabb(st.kind[s], st.worldPose, POSE_STRIDE * s, st.params, SHAPE_PARAM_STRIDE * s, st.aabb, o);
      st.aabb[o] -= grow; st.aabb[o + 1] -= grow; st.aabb[o + 2] -= grow;
      st.aabb[o + 3] += grow; st.aabb[o + 4] += grow; st.aabb[o + 5] += grow;
    }
    posed.set(this.bodyResting);
    this.queries.invalidate(st);
  }

  /** Broad phase over the poses of the last update. Returns the pair count. */
  findPairs(): number {
    if (this.dirty) throw new Error('CollisionWorld.findPairs: shapes changed since the last update; call update(linkPoses) first');
    return this.broad.findPairs(this.store, this.filter, this.bodyResting);
  }

  get pairCount(): number {
    return this.broad.count;
  }

  /** Shape handles of broad-phase pair i (sorted by canonical slot order). */
  pairShapeA(i: number): number {
    return this.store.handle[this.broad.pairs[2 * i]];
  }

  pairShapeB(i: number): number {
    return this.store.handle[this.broad.pairs[2 * i + 1]];
  }

  /** Narrow phase over the last broad-phase pairs into `contacts`. Returns the contact count. */
  generateContacts(): number {
    this.contacts.clear();
    this.narrow.run(this.store, this.broad.pairs, this.broad.count, this.contacts, this.bodyResting);
    return this.contacts.count;
  }

  /** update + findPairs + generateContacts. Returns the contact count. */
  detect(linkPoses: ArrayLike<ArrayLike<number>>): number {
    this.update(linkPoses);
    this.findPairs();
    return this.generateContacts();
  }

  /** True when the last pass dropped pairs or contacts for lack of room. */
  get overflowed(): boolean {
    return this.broad.overflowed || this.contacts.overflowed;
  }

  /** Grows the pair and contact buffers to what the last pass needed (allocates; between steps). Returns whether it grew. */
  growToFit(): boolean {
    let grew = false;
    if (this.broad.overflowed) {
      this.broad.reserve(Math.max(this.broad.required, 2 * this.broad.capacity));
      grew = true;
    }
    if (this.contacts.overflowed) {
      this.contacts.reserve(Math.max(this.contacts.required, 2 * this.contacts.capacity), Math.max(this.contacts.manifoldsRequired, 2 * this.contacts.manifoldCapacity));
      grew = true;
    }
    return grew;
  }

  /**
   * The radius by which a shape rounds its core: a sphere's radius (core: its centre), a
   * capsule's (core: its axis segment); 0 for other shapes. Valid after an update.
   */
  roundingRadius(handle: number): number {
    const s = this.slotOf[handle];
    const k = this.store.kind[s];
    return k === SHAPE_SPHERE || k === SHAPE_CAPSULE ? this.store.params[SHAPE_PARAM_STRIDE * s] : 0;
  }

  /** roundingRadius of two shapes into out[0] and out[1] (no boxed return). */
  roundingRadii(handleA: number, handleB: number, out: Float64Array): void {
    out[0] = this.roundingRadius(handleA);
    out[1] = this.roundingRadius(handleB);
  }

  /** Copies the world bounds of a shape (grown by the margin) as [min xyz, max xyz]; planes give infinities. */
  getShapeAabb(handle: number, out: Float64Array): Float64Array {
    this.record(handle);
    if (this.dirty) throw new Error('CollisionWorld.getShapeAabb: shapes changed since the last update');
    const s = this.slotOf[handle];
    if (!this.store.bounded[s]) {
      out[0] = out[1] = out[2] = -Infinity;
      out[3] = out[4] = out[5] = Infinity;
    } else {
      for (let i = 0; i < AABB_STRIDE; i++) out[i] = this.store.aabb[AABB_STRIDE * s + i];
    }
    return out;
  }

  /** Copies a shape's world pose (12 numbers) as of the last update. */
  getShapeWorldPose(handle: number, out: Float64Array): Float64Array {
    this.record(handle);
    if (this.dirty) throw new Error('CollisionWorld.getShapeWorldPose: shapes changed since the last update');
    const s = this.slotOf[handle];
    for (let i = 0; i < POSE_STRIDE; i++) out[i] = this.store.worldPose[POSE_STRIDE * s + i];
    return out;
  }

  /** Body and link a shape is attached to ([-1, -1] for static shapes). */
  shapeOwner(handle: number): [number, number] {
    const r = this.record(handle);
    return [r.body, r.link];
  }

  private readonly queries = new SceneQueries();
  private readonly shapeQueries = new ShapeQueries(this.queries);

  /** Whether shapes were registered since the last update (a query needs an update first). */
  get needsUpdate(): boolean {
    return this.dirty;
  }

  /** The shapes as the last update placed them, for a query (a scene of static shapes only is placed here). */
  private queryReady(fn: string): void {
    if (!this.dirty) return;
    if (this.records.every((r) => r.body < 0)) { this.prepare(); return; }
    throw new Error(`CollisionWorld.${fn}: shapes changed since the last update; call update(linkPoses) first`);
  }

  /**
   * First shape hit by the ray origin + t direction / |direction|, t in [0, maxDistance], as the
   * last update placed the shapes (queries.ts): into out (a new RayHit without it), or null.
   * A ray starting inside a solid convex shape hits it at distance 0 with the normal opposite
   * the ray. Throws a RangeError on a non-finite origin, a zero direction or a negative maxDistance.
   */
  castRay(origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, filter?: QueryFilter, out?: RayHit): RayHit | null {
    this.queryReady('castRay');
    return this.queries.castRay(origin, direction, maxDistance, filter, out);
  }

  /** Every shape the ray hits, each at its first hit, through callback (return false to stop); the hit object is reused. */
  castRayAll(origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, callback: RayHitCallback, filter?: QueryFilter): void {
    this.queryReady('castRayAll');
    this.queries.castRayAll(origin, direction, maxDistance, callback, filter);
  }

  /** Shapes containing the point (queries.ts), through callback(body, link, shape); body and link -1 for statics. */
  pointQuery(point: ArrayLike<number>, callback: ShapeCallback, filter?: QueryFilter): void {
    this.queryReady('pointQuery');
    this.queries.pointQuery(point, callback, filter);
  }

  /** Shapes whose bounds meet the box [min, max], through callback(body, link, shape). */
  bodiesInAabb(min: ArrayLike<number>, max: ArrayLike<number>, callback: ShapeCallback, filter?: QueryFilter): void {
    this.queryReady('bodiesInAabb');
    this.queries.bodiesInAabb(min, max, callback, filter);
  }

  /** Shapes overlapping a sphere, capsule or box at a pose (shape-queries.ts), through callback(body, link, shape). */
  intersectShape(shape: QueryShape, pose: QueryPose, callback: ShapeCallback, filter?: QueryFilter): void {
    this.queryReady('intersectShape');
    this.shapeQueries.intersectShape(shape, pose, callback, filter);
  }

  /** First hit of a sphere, capsule or box swept from a pose along direction within maxDistance (shape-queries.ts), or null. */
  castShape(shape: QueryShape, pose: QueryPose, direction: ArrayLike<number>, maxDistance: number, filter?: QueryFilter, out?: ShapeHit): ShapeHit | null {
    this.queryReady('castShape');
    return this.shapeQueries.castShape(shape, pose, direction, maxDistance, filter, out);
  }

  /**
   * Outlines of the enabled shapes as the last update placed them (debug-shapes.ts), in three
   * colours: statics grey (0.6, 0.6, 0.6), awake bodies green (0.3, 0.9, 0.4), resting bodies
   * blue (0.4, 0.5, 0.9).
   */
  drawShapes(w: DebugLineWriter): void {
    const st = this.store, resting = this.bodyResting;
    for (let s = 0; s < st.slotCount; s++) {
      if (st.disabled[s] === 1) continue;
      const body = st.body[s];
      if (body < 0) w.setColour(0.6, 0.6, 0.6);
      else if (body < resting.length && resting[body] === 1) w.setColour(0.4, 0.5, 0.9);
      else w.setColour(0.3, 0.9, 0.4);
      drawShape(st, s, w);
    }
  }

  private placeStatic(s: number): void {
    const st = this.store, o = POSE_STRIDE * s;
    for (let i = 0; i < POSE_STRIDE; i++) st.worldPose[o + i] = st.localPose[o + i];
    const kind = st.kind[s];
    if (kind === SHAPE_PLANE) return;
    const local = kind === SHAPE_TRIMESH ? st.mesh[s]?.bounds : kind === SHAPE_HEIGHTFIELD ? st.heightfield[s]?.bounds : kind === SHAPE_CONVEX ? st.hull[s]?.bounds : undefined;
    if (local !== undefined) transformedAabb(local, st.worldPose, o, this.margin, st.aabb, AABB_STRIDE * s);
    else {
      primitiveAabb(kind, st.worldPose, o, st.params, SHAPE_PARAM_STRIDE * s, st.aabb, AABB_STRIDE * s);
      growAabb(st.aabb, AABB_STRIDE * s, this.margin);
    }
  }

  private record(handle: number): ShapeRecord {
    const r = this.records[handle];
    if (r === undefined) throw new Error(`CollisionWorld: no shape with handle ${handle} (there are ${this.records.length})`);
    if (r.removed) throw new Error(`CollisionWorld: ${r.compiled.label} was removed`);
    return r;
  }

  // ---- lifetime: removing shapes and bodies, turning shapes off, sensors ----

  /** Per handle, 1 for a sensor (reports overlaps, never pushes: ContactSource makes no rows for it). */
  sensorFlags = new Uint8Array(16);

  private setSensorFlag(handle: number, on: boolean): void {
    if (handle >= this.sensorFlags.length) {
      const grown = new Uint8Array(Math.max(handle + 1, 2 * this.sensorFlags.length));
      grown.set(this.sensorFlags);
      this.sensorFlags = grown;
    }
    this.sensorFlags[handle] = on ? 1 : 0;
  }

  /** Makes a shape a sensor (it reports overlaps and never pushes) or a solid shape again. */
  setSensor(handle: number, sensor: boolean): void {
    this.record(handle);
    this.setSensorFlag(handle, sensor);
  }

  /** Whether a shape is a sensor. */
  isSensor(handle: number): boolean {
    this.record(handle);
    return this.sensorFlags[handle] === 1;
  }

  /** Whether a shape (still registered) collides: its own switch and its body's. */
  private collides(r: ShapeRecord): boolean {
    if (r.enabled === false) return false;
    return r.body < 0 || this.bodies[r.body]?.enabled !== false;
  }

  /** Writes a registered shape's group and mask into the store (0 and 0 while it does not collide). */
  private applyCollides(r: ShapeRecord): void {
    if (this.dirty) return;
    const s = this.slotOf[r.handle];
    if (s < 0) return;
    const on = this.collides(r);
    this.store.disabled[s] = on ? 0 : 1;
    this.store.group[s] = on ? r.compiled.group : 0;
    this.store.mask[s] = on ? r.compiled.mask : 0;
    this.queries.invalidate(this.store);
  }

  /**
   * Turns a shape's collisions on or off (a link's shape or a static): while off it meets nothing
   * and no query sees it; it keeps its place and handle.
   */
  setShapeEnabled(handle: number, enabled: boolean): void {
    const r = this.record(handle);
    r.enabled = enabled;
    this.applyCollides(r);
  }

  /** Whether a shape's own collision switch is on (setShapeEnabled). */
  shapeEnabled(handle: number): boolean {
    return this.record(handle).enabled !== false;
  }

  /** Turns the collisions of every shape of a body on or off (a disabled body). */
  setBodyEnabled(body: number, enabled: boolean): void {
    const rec = this.body(body, 'setBodyEnabled');
    rec.enabled = enabled;
    for (const r of this.records) if (r.body === body && !r.removed) this.applyCollides(r);
  }

  /** Whether a handle names a shape that was removed. */
  isRemoved(handle: number): boolean {
    return this.records[handle]?.removed === true;
  }

  /** Removes a static shape: its handle names nothing from now on (and is never given again). */
  removeStaticShape(handle: number): void {
    const r = this.records[handle];
    if (r === undefined || r.body >= 0) throw new Error(`CollisionWorld.removeStaticShape: ${handle} is not a static shape handle`);
    if (r.removed) throw new Error(`CollisionWorld.removeStaticShape: ${r.compiled.label} was already removed`);
    r.removed = true;
    this.dirty = true;
  }

  /**
   * Removes body `body` and its shapes; bodies after it move down one index (as the World's
   * bodies do), their shapes keep their handles. Allocates (the next update rebuilds the store).
   */
  removeBody(body: number): void {
    this.body(body, 'removeBody');
    for (const r of this.records) {
      if (r.removed || r.body < 0) continue;
      if (r.body === body) r.removed = true;
      else if (r.body > body) r.body--;
    }
    this.bodies.splice(body, 1);
    const shift = (a: Float64Array | Uint8Array): void => {
      if (body >= a.length) return;
      a.copyWithin(body, body + 1);
      a[a.length - 1] = 0;
    };
    shift(this.bodyMargin); shift(this.bodyResting); shift(this.restingPosed);
    if (this.bodyRank.length > body) {
      const gone = this.bodyRank[body];
      this.bodyRank.splice(body, 1);
      for (let b = 0; b < this.bodyRank.length; b++) if (this.bodyRank[b] > gone) this.bodyRank[b]--;
    }
    this.dirty = true;
  }

  /** The handles of the shapes on a body's links (in registration order). */
  bodyShapes(body: number): number[] {
    const out: number[] = [];
    for (const r of this.records) if (r.body === body && !r.removed) out.push(r.handle);
    return out;
  }

  private body(body: number, fn: string): BodyRecord {
    const rec = this.bodies[body];
    if (rec === undefined) throw new Error(`CollisionWorld.${fn}: body ${body} is not declared; call setBody(${body}, linkCount) first`);
    return rec;
  }
}
