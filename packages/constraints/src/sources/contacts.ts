/**
 * Contacts as constraint rows (Kokkevis section 8.1): for every contact point a unilateral normal
 * row (the relative acceleration along the normal may not close the gap, the force may only push)
 * and friction rows bounded by mu times the normal force.
 *
 * Friction: with `frictionDirections` = 2 (default), two tangent rows t1, t2 each bounded by
 * |f_t| <= mu f_n (the four-sided pyramid, a box inscribing the Coulomb cone's corners at
 * sqrt(2) mu); with d > 2, d tangent rows at angles k pi / d, each bounded by mu f_n / d *
 * (pi / 2) so the polygon's mean radius matches the cone; with 1, the paper's single-tangent trick:
 * one row along the current slip direction (or a fixed tangent when the contact is not sliding).
 *
 * A contact's position error is g = -depth (n . (pA - pB)), so separated contacts within the
 * collision margin are rows that only act if the gap would close within the step (speculative).
 */
import { pointVelocity, worldToLocal } from '@sinew/featherstone';
import type { Body } from '../body.js';
import {
  CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_DEPTH, CONTACT_F64_STRIDE, CONTACT_FEATURE, CONTACT_FRICTION, CONTACT_I32_STRIDE,
  CONTACT_LINK_A, CONTACT_LINK_B, CONTACT_NORMAL, CONTACT_POINT_A, CONTACT_POINT_B, CONTACT_RESTITUTION, CONTACT_SHAPE_A,
  CONTACT_SHAPE_B, CONTACT_SUB_SHAPE,
} from '../collision/contact-buffer.js';
import type { CollisionWorld } from '../collision/collision-world.js';
import { RowTag, type RowBuffer } from '../rows/row-buffer.js';
import type { ConstraintSource, StepContext } from './source.js';
import { detMath } from '@sinew/featherstone';

/** Options of the contact rows: the number of friction directions and spin friction. */
export interface ContactOptions {
  /** Tangent rows per contact: 1 (single tangent along the slip), 2 (pyramid, default), up to 6. */
  frictionDirections?: number;
  /**
   * Torsional friction (m, default 0: off, as in most engines): a contact touching a sphere or
   * capsule also resists spinning about its normal with a torque of at most
   * spinFriction * mu * (normal force), as a small contact patch does (MuJoCo's torsional
   * coefficient is typically 0.005). A single-point contact has no other grip on that spin: a
   * ball spinning on the floor spins for ever without it.
   */
  spinFriction?: number;
}

const la = new Float64Array(3);
const lb = new Float64Array(3);
const ca = new Float64Array(3);
const cb = new Float64Array(3);
const pa = new Float64Array(3);
const t1 = new Float64Array(3);
const t2 = new Float64Array(3);
const va = new Float64Array(3);
const vb = new Float64Array(3);
const radii = new Float64Array(2);
/** The contact normal, for tangents() (passed in an array: double arguments to a call that is not inlined are boxed). */
const nrm = new Float64Array(3);

/**
 * rows.setFriction(r, normal, mu * scale), kept here so the optimiser inlines it into addRows:
 * through RowBuffer.setFriction the product mu * scale was boxed on the heap for every friction row
 * (160 bytes a step for one ragdoll, 864 for six).
 */
function setFrictionBounds(rows: RowBuffer, r: number, normal: number, mu: number, scale: number): void {
  rows.lo[r] = -mu * scale;
  rows.hi[r] = mu * scale;
  rows.boundRow[r] = normal;
}

/**
 * Warm-start key of a contact row (negative, so it never meets the keys of other rows). The shape
 * pair sits below the sub-shape (sub + 1: a mesh's triangle + 1, 0 for a convex shape's -1), so that
 * the keys of one body's contacts lie a few times 2^13 apart, not 2^29, and those of convex shapes
 * below 2^37 in size: World.snapshot writes each key as its difference from the one before.
 */
function setContactKey(rows: RowBuffer, row: number, shapeA: number, shapeB: number, sub: number, feature: number, k: number): void {
  // written straight into the row: the key is not a small integer, and a returned one would be boxed
  rows.key[row] = -2 - (((((sub + 1) & 65535) * 4096 + (shapeA & 4095)) * 4096 + (shapeB & 4095)) * 1024 + (feature & 1023)) * 8 - k;
}

/** Contacts as constraint rows: a unilateral normal row per contact point and friction rows bounded by mu times the normal force. */
export class ContactSource implements ConstraintSource {
  frictionDirections: number;
  spinFriction: number;
  /** Contacts found by the last detection. */
  count = 0;
  maxDepth = 0;
  /**
   * Per contact of the last detection (its index in the collision world's buffer), the row index of
   * its normal row in the step's row buffer, or -1 when it made no row (a sensor, both sides
   * asleep, a speculative contact too far to close): contact events and contactForces read the
   * forces the step gave each contact through it. Valid until the World drops rows of sleepers
   * (step/sleep.ts dropSleepingRows renumbers the rows and moves these with them).
   */
  normalRowOf = new Int32Array(64);
  private linkPoses: Float64Array[] = [];

  /** Forgets what it keeps per body (link poses, reaches): after a body was removed or added. */
  bodiesChanged(): void {
    this.linkPoses = [];
    this.reach = [];
  }

  constructor(readonly collision: CollisionWorld, options: ContactOptions = {}) {
    this.frictionDirections = options.frictionDirections ?? 2;
    if (!(Number.isInteger(this.frictionDirections) && this.frictionDirections >= 1 && this.frictionDirections <= 6)) {
      throw new RangeError(`ContactSource: frictionDirections must be an integer from 1 to 6, got ${this.frictionDirections}`);
    }
    this.spinFriction = options.spinFriction ?? 0;
    if (!(this.spinFriction >= 0 && this.spinFriction < Infinity)) throw new RangeError(`ContactSource: spinFriction must be a finite number >= 0, got ${this.spinFriction}`);
  }

  /**
   * Speculative margins: each awake body's shapes look ahead by how far its fastest link point may
   * move in the step (origin speed plus angular speed times the link's reach), so a fast body finds
   * what it will hit before it gets there (no tunnelling through thin walls).
   */
  setSpeculativeMargins(ctx: StepContext): void {
    const bodies = ctx.bodies, h = ctx.h;
    for (const b of bodies) {
      let speed = 0;
      if (!b.sleeping) {
        const v = b.state.work.v, m = b.model;
        for (let i = 0; i < m.nLinks; i++) {
          const o = 6 * i;
          // (Math.hypot would allocate its argument list on every call)
          const w = Math.sqrt(v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2]), u = Math.sqrt(v[o + 3] * v[o + 3] + v[o + 4] * v[o + 4] + v[o + 5] * v[o + 5]);
          const s = u + w * this.linkReach(b, i);
          if (s > speed) speed = s;
        }
      }
      this.collision.setBodyMargin(b.index, 1.5 * speed * h);
    }
  }

  private reach: Float64Array[] = [];
  /** Largest distance of a link's shapes from its origin (bounding radius), cached per body. */
  // (kept small, the cache filled in linkReaches: V8 then inlines it, and the number it returns
  // is not boxed on the heap once per link and step)
  private linkReach(b: Body, link: number): number {
    return (this.reach[b.index] ?? this.linkReaches(b))[link];
  }

  private linkReaches(b: Body): Float64Array {
    const r = new Float64Array(b.model.nLinks);
    for (let i = 0; i < b.model.nLinks; i++) {
      for (const s of b.model.shapes[i]) {
        const p = s.position ?? [0, 0, 0];
        const g = s.geometry;
        const size = g.type === 'sphere' ? g.radius : g.type === 'capsule' ? g.radius + g.halfLength : g.type === 'box' ? detMath.hypot(g.halfExtents[0], g.halfExtents[1], g.halfExtents[2]) : g.type === 'convex' ? convexReach(g.points) : 0.5;
        r[i] = Math.max(r[i], detMath.hypot(p[0], p[1], p[2]) + size);
      }
    }
    this.reach[b.index] = r;
    return r;
  }

  /** Forgets the last detection's contacts (a step in which nothing is awake detects none). */
  clearContacts(): void {
    this.collision.contacts.clear();
    this.count = 0;
    this.maxDepth = 0;
  }

  /** Runs collision detection on the current link poses. Returns the contact count. */
  detect(bodies: readonly Body[]): number {
    if (this.linkPoses.length !== bodies.length) this.linkPoses = bodies.map((b) => b.state.work.pose);
    if (this.collision.shapeCount === 0) { this.count = 0; return 0; }
    for (let i = 0; i < bodies.length; i++) this.collision.setBodyResting(bodies[i].index, bodies[i].sleeping);
    let n = this.collision.detect(this.linkPoses);
    // grow and detect again until nothing is dropped (allocates only when a larger scene appears):
    // the pairs' overflow hides how many contacts the missing pairs make, so one growth may not do
    // (each round at least doubles what overflowed, so this ends)
    while (this.collision.overflowed) {
      this.collision.growToFit();
      n = this.collision.detect(this.linkPoses);
    }
    this.count = n;
    return n;
  }

  /** Detection and rows: detectContacts, then contactRows (a World runs the two as separate stages). */
  addRows(rows: RowBuffer, ctx: StepContext): void {
    this.detectContacts(ctx);
    this.contactRows(rows, ctx);
  }

  /** Collision detection for a step of length ctx.h: speculative margins from the bodies' speeds, then the broad and narrow phases (count, the collision world's contacts). */
  detectContacts(ctx: StepContext): void {
    this.setSpeculativeMargins(ctx);
    this.detect(ctx.bodies);
  }

  /** A normal row and friction rows for each contact of the last detection (detectContacts). */
  contactRows(rows: RowBuffer, ctx: StepContext): void {
    const bodies = ctx.bodies;
    const n = this.count;
    const c = this.collision.contacts;
    const F = c.f64, I = c.i32;
    if (this.normalRowOf.length < n) this.normalRowOf = new Int32Array(2 * n);
    const rowOf = this.normalRowOf, sensor = this.collision.sensorFlags;
    rowOf.fill(-1, 0, n);
    let maxDepth = 0;
    for (let k = 0; k < n; k++) {
      const fo = k * CONTACT_F64_STRIDE, io = k * CONTACT_I32_STRIDE;
      let bA = I[io + CONTACT_BODY_A], bB = I[io + CONTACT_BODY_B];
      if (bA < 0 && bB < 0) continue;
      // a sensor reports overlaps (contact events) and never pushes
      if (sensor[I[io + CONTACT_SHAPE_A]] === 1 || sensor[I[io + CONTACT_SHAPE_B]] === 1) continue;
      const depth = F[fo + CONTACT_DEPTH];
      const A = bA >= 0 ? bodies[bA] : null, B = bB >= 0 ? bodies[bB] : null;
      const sleepingA = !A || A.sleeping, sleepingB = !B || B.sleeping;
      if (sleepingA && sleepingB) continue;
      maxDepth = Math.max(maxDepth, depth);
      // orient so that side A is a body (static geometry only ever on side B)
      let sign = 1;
      let linkA = I[io + CONTACT_LINK_A], linkB = I[io + CONTACT_LINK_B];
      let pAo = fo + CONTACT_POINT_A, pBo = fo + CONTACT_POINT_B;
      if (bA < 0) {
        sign = -1;
        [bA, bB] = [bB, bA];
        [linkA, linkB] = [linkB, linkA];
        [pAo, pBo] = [pBo, pAo];
      }
      const bodyA = bodies[bA];
      const sA = I[io + CONTACT_SHAPE_A], sB = I[io + CONTACT_SHAPE_B], sub = I[io + CONTACT_SUB_SHAPE], feat = I[io + CONTACT_FEATURE];
      const nx = sign * F[fo + CONTACT_NORMAL], ny = sign * F[fo + CONTACT_NORMAL + 1], nz = sign * F[fo + CONTACT_NORMAL + 2];
      // The normal row measures the gap between the shapes' cores (a sphere's centre, a capsule's
      // axis point) less their radii: a rounded shape that rolls keeps its gap (a point of its
      // surface would rise as it turns away, hiding the overlap from the position measures), and
      // the normal force acts along the same line. Friction acts at the touching surface points.
      this.collision.roundingRadii(sign > 0 ? sA : sB, sign > 0 ? sB : sA, radii);
      const rA = radii[0], rB = radii[1];
      pa[0] = F[pAo] + rA * nx; pa[1] = F[pAo + 1] + rA * ny; pa[2] = F[pAo + 2] + rA * nz;
      worldToLocal(bodyA.state, linkA, pa, ca);
      pa[0] = F[pAo]; pa[1] = F[pAo + 1]; pa[2] = F[pAo + 2];
      worldToLocal(bodyA.state, linkA, pa, la);
      if (bB >= 0) {
        pa[0] = F[pBo] - rB * nx; pa[1] = F[pBo + 1] - rB * ny; pa[2] = F[pBo + 2] - rB * nz;
        worldToLocal(bodies[bB].state, linkB, pa, cb);
        pa[0] = F[pBo]; pa[1] = F[pBo + 1]; pa[2] = F[pBo + 2];
        worldToLocal(bodies[bB].state, linkB, pa, lb);
      } else {
        lb[0] = F[pBo]; lb[1] = F[pBo + 1]; lb[2] = F[pBo + 2];
        cb[0] = lb[0] - rB * nx; cb[1] = lb[1] - rB * ny; cb[2] = lb[2] - rB * nz;
      }
      // a speculative contact (a gap wider than the contact margin, found through the bodies'
      // speed margins) is kept only if its surfaces approach fast enough to close the gap within
      // the step: bodies falling side by side need no rows between them
      if (depth < -this.collision.margin) {
        pointVelocity(bodyA.state, linkA, la, va);
        if (bB >= 0) pointVelocity(bodies[bB].state, linkB, lb, vb); else { vb[0] = 0; vb[1] = 0; vb[2] = 0; }
        const approach = -((va[0] - vb[0]) * nx + (va[1] - vb[1]) * ny + (va[2] - vb[2]) * nz);
        // (gravity may add g h to the approach within the step)
        const g = bodyA.state.gravity, gh = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * ctx.h;
        if (-depth > this.collision.margin + 1.5 * ctx.h * (Math.max(0, approach) + gh)) continue;
      }
      t1[0] = nx; t1[1] = ny; t1[2] = nz; // reuse as the normal for addPoint
      const normal = rows.addPoint(RowTag.Contact, bA, linkA, ca, bB, bB >= 0 ? linkB : -1, cb, t1);
      rows.setBounds(normal, 0, Infinity);
      rowOf[k] = normal;
      rows.error[normal] = -depth;
      rows.restitution[normal] = F[fo + CONTACT_RESTITUTION];
      setContactKey(rows, normal, sA, sB, sub, feat, 0);
      const mu = F[fo + CONTACT_FRICTION];
      if (!(mu > 0)) continue;
      nrm[0] = nx; nrm[1] = ny; nrm[2] = nz;
      this.tangents(bodies, bA, linkA, bB, linkB);
      const d = this.frictionDirections;
      if (d === 1) {
        const r = rows.addPoint(RowTag.Friction, bA, linkA, la, bB, bB >= 0 ? linkB : -1, lb, t1);
        setFrictionBounds(rows, r, normal, mu, 1);
        setContactKey(rows, r, sA, sB, sub, feat, 1);
      } else {
        const scale = d === 2 ? 1 : Math.PI / (2 * d);
        const turns = this.tangentTurns(d);
        for (let q = 0; q < d; q++) {
          const cs = turns[2 * q], sn = turns[2 * q + 1];
          va[0] = cs * t1[0] + sn * t2[0]; va[1] = cs * t1[1] + sn * t2[1]; va[2] = cs * t1[2] + sn * t2[2];
          const r = rows.addPoint(RowTag.Friction, bA, linkA, la, bB, bB >= 0 ? linkB : -1, lb, va);
          setFrictionBounds(rows, r, normal, mu, scale);
          setContactKey(rows, r, sA, sB, sub, feat, 1 + q);
        }
      }
      if (this.spinFriction > 0 && (rA > 0 || rB > 0)) {
        // torsional friction: the relative spin of the two links about the normal
        t1[0] = nx; t1[1] = ny; t1[2] = nz;
        const r = rows.addAngular(RowTag.Friction, bA, linkA, bB, bB >= 0 ? linkB : -1, t1);
        setFrictionBounds(rows, r, normal, mu, this.spinFriction);
        setContactKey(rows, r, sA, sB, sub, feat, 7);
      }
    }
    this.maxDepth = maxDepth;
  }

  private turns = new Float64Array(12);
  private turnsFor = 0;
  /** cos and sin of the tangent rows' angles k pi / d, k < d (computed when d changes, not per contact). */
  private tangentTurns(d: number): Float64Array {
    if (this.turnsFor !== d) {
      for (let q = 0; q < d; q++) {
        const ang = (Math.PI * q) / d;
        this.turns[2 * q] = detMath.cos(ang);
        this.turns[2 * q + 1] = detMath.sin(ang);
      }
      this.turnsFor = d;
    }
    return this.turns;
  }

  /**
   * Tangents of a contact: with one friction direction, t1 along the relative slip velocity when
   * sliding; otherwise a fixed basis from the normal.
   */
  private tangents(bodies: readonly Body[], bA: number, linkA: number, bB: number, linkB: number): void {
    const nx = nrm[0], ny = nrm[1], nz = nrm[2];
    if (this.frictionDirections === 1) {
      pointVelocity(bodies[bA].state, linkA, la, va);
      if (bB >= 0) pointVelocity(bodies[bB].state, linkB, lb, vb); else vb.fill(0);
      const rx = va[0] - vb[0], ry = va[1] - vb[1], rz = va[2] - vb[2];
      const vn = rx * nx + ry * ny + rz * nz;
      const tx = rx - vn * nx, ty = ry - vn * ny, tz = rz - vn * nz;
      const tl = Math.sqrt(tx * tx + ty * ty + tz * tz);
      if (tl > 1e-6) {
        t1[0] = tx / tl; t1[1] = ty / tl; t1[2] = tz / tl;
        return;
      }
    }
    // t1 = the world axis least aligned with n, made perpendicular to n; then t2 = n x t1
    const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
    const ex = ax <= ay && ax <= az ? 1 : 0, ey = ex === 0 && ay <= az ? 1 : 0, ez = 1 - ex - ey;
    const en = ex * nx + ey * ny + ez * nz;
    t1[0] = ex - en * nx; t1[1] = ey - en * ny; t1[2] = ez - en * nz;
    const l = Math.sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    t1[0] /= l; t1[1] /= l; t1[2] /= l;
    t2[0] = ny * t1[2] - nz * t1[1];
    t2[1] = nz * t1[0] - nx * t1[2];
    t2[2] = nx * t1[1] - ny * t1[0];
  }
}

/** Largest distance of a hull's points from its origin. */
function convexReach(points: ArrayLike<number>): number {
  let r = 0;
  for (let i = 0; i + 2 < points.length; i += 3) r = Math.max(r, detMath.hypot(points[i], points[i + 1], points[i + 2]));
  return r;
}
