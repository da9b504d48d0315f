/**
 * Contact events: after each World.step, which pairs of (body, link) or static shape began to
 * touch, went on touching, or stopped, drained by the game (World.drainContactEvents) as Rapier's
 * EventQueue or Box2D v3's contact begin / end events are; and the force of each contact point of
 * the last pass (World.contactForces).
 *
 * The events are read off the contacts the step used: the collision world's contact buffer of each
 * detection-and-solve pass and the normal row ContactSource made for each contact
 * (ContactSource.normalRowOf). A pair touches in a step when, in some pass of it, one of its
 * contact points overlaps (depth >= 0) or its normal row pushed (a speculative contact closing
 * within the pass); a sensor pair (ShapeDesc.sensor) when one of its points overlaps (depth > 0).
 * Per pair and step: the normal impulse (the sum over the step's passes of each normal row's force
 * times the pass length, plus the impulses of impacts), the relative normal speed at which its
 * surfaces approached at the start of the pass in which it first touched (>= 0 approaching), and
 * the deepest point (on side A's surface), with the normal from B to A and the depth.
 *
 * A pair is identified by its two sides; side A is the one with the smaller code (static shapes are
 * always side B): a body link codes as body * 1024 + link, a static shape as 2^25 + its handle. The
 * overlaps of sensors between two sides are a pair of their own (a link's sensor halo and its
 * solid shape touching the same ground are two pairs).
 * Pairs whose bodies all sleep (or lean on statics) are not detected; they stay touching without
 * events until one of their bodies wakes. A pair of a body or static that is removed, or of a body
 * disabled, ends.
 *
 * Nothing is allocated per event or per step once the tables have grown to the largest scene seen:
 * the queue, the pair tables and the per-contact scratch are typed arrays, and the game's callback
 * gets one reused ContactEvent.
 */
import { pointVelocity, worldToLocal } from '@sinew/featherstone';
import type { Body } from './body.js';
import {
  CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_DEPTH, CONTACT_F64_STRIDE, CONTACT_I32_STRIDE, CONTACT_LINK_A, CONTACT_LINK_B,
  CONTACT_NORMAL, CONTACT_POINT_A, CONTACT_POINT_B, CONTACT_SHAPE_A, CONTACT_SHAPE_B, type ContactBuffer,
} from './collision/contact-buffer.js';
import { RowTag, type RowBuffer } from './rows/row-buffer.js';
import type { ContactSource } from './sources/contacts.js';

/** A pair began touching this step, went on touching, or stopped. */
export type ContactEventType = 'began' | 'persisted' | 'ended';

/**
 * One contact event, as World.drainContactEvents hands it to its callback: one object, reused
 * (copy what you keep). Its numbers live in typed arrays (a number written to an object's field
 * may be put on the heap at every write) and are read through getters.
 */
export class ContactEvent {
  type: ContactEventType = 'began';
  /** Side A: a body (and link), never a static shape. */
  bodyA: Body | null = null;
  /** Side B: a body and link, or null for a static shape (its handle in shapeB). */
  bodyB: Body | null = null;
  /** linkA, shapeA, linkB, shapeB, sensor. */
  readonly ints = new Int32Array(5);
  /** impulse, speed, depth, time, then the point (3) and the normal (3). */
  readonly numbers = new Float64Array(10);
  /** Deepest point on side A's surface (world). */
  readonly point = this.numbers.subarray(4, 7);
  /** The normal from B to A at the deepest point. */
  readonly normal = this.numbers.subarray(7, 10);
  get linkA(): number { return this.ints[0]; }
  /** Shape handle of side A's deepest point. */
  get shapeA(): number { return this.ints[1]; }
  /** -1 for a static shape. */
  get linkB(): number { return this.ints[2]; }
  get shapeB(): number { return this.ints[3]; }
  /** Whether a shape of the pair is a sensor (it overlaps; nothing pushed). */
  get sensor(): boolean { return this.ints[4] === 1; }
  /** Normal impulse of the step (N s; 0 for 'ended' and for sensors). */
  get impulse(): number { return this.numbers[0]; }
  /** Relative normal speed (m/s, > 0 approaching) of the pair's fastest point at the start of the pass where it first touched in the step (0 for 'ended'). */
  get speed(): number { return this.numbers[1]; }
  /** Depth at the deepest point (m, > 0 overlapping, < 0 a gap a speculative contact closed). */
  get depth(): number { return this.numbers[2]; }
  /** Simulated time (s) of the poses where the pair was found touching ('began', 'persisted') or no longer touching ('ended': the step's start; a removal's time). */
  get time(): number { return this.numbers[3]; }
}

/** One contact point's force, as World.contactForces hands it to its callback (one object, reused; numbers read through getters, as ContactEvent's). */
export class ContactForce {
  bodyA: Body | null = null;
  bodyB: Body | null = null;
  /** linkA, shapeA, linkB, shapeB. */
  readonly ints = new Int32Array(4);
  /** normalForce, depth, then the point (3), the normal (3) and the force (3). */
  readonly numbers = new Float64Array(11);
  /** The point on side A's surface (world). */
  readonly point = this.numbers.subarray(2, 5);
  /** The normal from B to A. */
  readonly normal = this.numbers.subarray(5, 8);
  /** The whole force on side A (normal plus friction, N, world); B gets the opposite. */
  readonly force = this.numbers.subarray(8, 11);
  get linkA(): number { return this.ints[0]; }
  get shapeA(): number { return this.ints[1]; }
  get linkB(): number { return this.ints[2]; }
  get shapeB(): number { return this.ints[3]; }
  /** Normal force (N, >= 0). */
  get normalForce(): number { return this.numbers[0]; }
  get depth(): number { return this.numbers[1]; }
}

const STATIC_SIDE = 2 ** 25;
/** Side codes are below 2^26; a pair's key is codeA * 2^27 + codeB, plus 2^26 for a sensor pair. */
const SIDE_SPAN = 2 ** 27;
const SENSOR_PAIR = 2 ** 26;

/** Numbers per pair that ContactEventRecorder.writeTouching writes: key, sides (6), point (3), normal (3), impulse, speed, depth, flags, time. */
export const PAIR_SLOTS = 18;

/** Pairs of one step: open addressing over their keys, fields in typed arrays, in order of first appearance. */
class PairTable {
  n = 0;
  key = new Float64Array(0);
  /** body, link, shape of side A then B, 6 per pair. */
  side = new Int32Array(0);
  impulse = new Float64Array(0);
  speed = new Float64Array(0);
  depth = new Float64Array(0);
  point = new Float64Array(0);
  normal = new Float64Array(0);
  /** bit 0 touching, bit 1 sensor. */
  flags = new Uint8Array(0);
  time = new Float64Array(0);
  private slots = new Int32Array(0);
  private mask = -1;
  /**
   * The key find() and add() look for: keys are not small integers, and a double handed to a call
   * that is not inlined is put on the heap; written here, it is not.
   */
  readonly probe = new Float64Array(1);

  constructor(capacity = 16) {
    this.grow(capacity);
  }

  private grow(capacity: number): void {
    const keep = this.n;
    const copy = <T extends Float64Array | Int32Array | Uint8Array>(a: T, per: number): T => {
      const b = new (a.constructor as new (n: number) => T)(capacity * per);
      b.set(a.subarray(0, keep * per));
      return b;
    };
    this.key = copy(this.key, 1); this.side = copy(this.side, 6); this.impulse = copy(this.impulse, 1); this.speed = copy(this.speed, 1);
    this.depth = copy(this.depth, 1); this.point = copy(this.point, 3); this.normal = copy(this.normal, 3); this.flags = copy(this.flags, 1); this.time = copy(this.time, 1);
    let size = 16;
    while (size < 2 * capacity) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let p = 0; p < keep; p++) this.insert(p);
  }

  /** Slot of the key at keys[i] (read from the array: a double argument would be put on the heap). */
  private hash(keys: Float64Array, i: number): number {
    const key = keys[i];
    let h = (key >>> 0) ^ Math.imul((key / 4294967296) >>> 0, 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) & this.mask;
  }

  private insert(p: number): void {
    let i = this.hash(this.key, p);
    while (this.slots[i] !== 0) i = (i + 1) & this.mask;
    this.slots[i] = p + 1;
  }

  clear(): void {
    this.n = 0;
    this.slots.fill(0);
  }

  /** The pair whose key is probe[0], or -1. */
  find(): number {
    const key = this.probe[0];
    for (let i = this.hash(this.probe, 0); this.slots[i] !== 0; i = (i + 1) & this.mask) {
      const p = this.slots[i] - 1;
      if (this.key[p] === key) return p;
    }
    return -1;
  }

  /** A new pair of key probe[0] (not present) with zeroed accumulators; returns its index. */
  add(): number {
    if (this.n === this.key.length) this.grow(2 * this.key.length);
    const p = this.n++;
    this.key[p] = this.probe[0];
    this.impulse[p] = 0; this.speed[p] = 0; this.depth[p] = -Infinity; this.flags[p] = 0; this.time[p] = 0;
    this.insert(p);
    return p;
  }

  /** Copies pair p of another table in (a new pair); returns its index here. */
  copyFrom(t: PairTable, p: number): number {
    this.probe[0] = t.key[p];
    const q = this.add();
    for (let e = 0; e < 6; e++) this.side[6 * q + e] = t.side[6 * p + e];
    for (let e = 0; e < 3; e++) { this.point[3 * q + e] = t.point[3 * p + e]; this.normal[3 * q + e] = t.normal[3 * p + e]; }
    this.impulse[q] = t.impulse[p]; this.speed[q] = t.speed[p]; this.depth[q] = t.depth[p]; this.flags[q] = t.flags[p]; this.time[q] = t.time[p];
    return q;
  }
}

/** Whether a side stays put undetected: a static shape, or a sleeping body that is not disabled. */
function quiet(bodies: readonly Body[], body: number): boolean {
  return body < 0 || (bodies[body].sleeping && !bodies[body].disabledApplied);
}

const va = new Float64Array(3);
const vb = new Float64Array(3);
const local = new Float64Array(3);
const pt = new Float64Array(3);

/** The World's recorder of contact events (created when World.contactEvents is turned on). */
export class ContactEventRecorder {
  /** The world's clock: [0] the simulated time (read here, not passed: a double argument would be boxed). */
  constructor(private readonly clock: Float64Array) {}

  private cur = new PairTable();
  private prev = new PairTable();
  /** Per contact of the current pass: its pair in cur (-1: none) and its approach speed. */
  private contactPair = new Int32Array(64);
  private contactSpeed = new Float64Array(64);
  private contactImpulse = new Float64Array(64);
  /** Per row of the current pass: the contact whose normal row it is (-1: none). */
  private rowContact = new Int32Array(64);
  private contactCount = 0;

  // the queue: 16 numbers per event, and the bodies of its two sides
  private q = new Float64Array(16 * 64);
  private qBodies: (Body | null)[] = [];
  private queued = 0;
  private readonly event = new ContactEvent();
  private readonly forceOut = new ContactForce();

  /** A new attempt of the step (the step starts, or is taken again after a failure): the step's pairs so far are forgotten. */
  beginAttempt(): void {
    this.stepStart[0] = this.clock[0];
    this.cur.clear();
    this.contactCount = 0;
  }

  /**
   * After the pass's detection and rows (kinematics of the awake bodies current, before any
   * impulse): each contact's pair, its approach speed, the pairs' deepest points.
   */
  detected(contacts: ContactSource, rows: RowBuffer, bodies: readonly Body[]): void {
    const buf: ContactBuffer = contacts.collision.contacts;
    const n = contacts.count, F = buf.f64, I = buf.i32, sensorOf = contacts.collision.sensorFlags;
    if (this.contactPair.length < n) { this.contactPair = new Int32Array(2 * n); this.contactSpeed = new Float64Array(2 * n); this.contactImpulse = new Float64Array(2 * n); }
    if (this.rowContact.length < rows.capacity) this.rowContact = new Int32Array(rows.capacity);
    this.rowContact.fill(-1, 0, rows.count);
    this.contactCount = n;
    const cur = this.cur, rowOf = contacts.normalRowOf;
    for (let k = 0; k < n; k++) {
      const fo = k * CONTACT_F64_STRIDE, io = k * CONTACT_I32_STRIDE;
      this.contactPair[k] = -1;
      this.contactImpulse[k] = 0;
      const b0 = I[io + CONTACT_BODY_A], b1 = I[io + CONTACT_BODY_B];
      if (b0 < 0 && b1 < 0) continue;
      const s0 = I[io + CONTACT_SHAPE_A], s1 = I[io + CONTACT_SHAPE_B];
      const asleep0 = b0 < 0 || bodies[b0].sleeping, asleep1 = b1 < 0 || bodies[b1].sleeping;
      if (asleep0 && asleep1) continue;
      const l0 = I[io + CONTACT_LINK_A], l1 = I[io + CONTACT_LINK_B];
      const c0 = b0 >= 0 ? b0 * 1024 + l0 : STATIC_SIDE + s0, c1 = b1 >= 0 ? b1 * 1024 + l1 : STATIC_SIDE + s1;
      const swap = c1 < c0;
      // (a sensor's overlaps are a pair of their own, apart from the solid shapes of the same sides)
      const sensor = sensorOf[s0] === 1 || sensorOf[s1] === 1;
      cur.probe[0] = (swap ? c1 * SIDE_SPAN + c0 : c0 * SIDE_SPAN + c1) + (sensor ? SENSOR_PAIR : 0);
      let p = cur.find();
      if (p < 0) {
        p = cur.add();
        const o = 6 * p;
        cur.side[o] = swap ? b1 : b0; cur.side[o + 1] = swap ? l1 : l0;
        cur.side[o + 3] = swap ? b0 : b1; cur.side[o + 4] = swap ? l0 : l1;
      }
      this.contactPair[k] = p;
      if (sensor) cur.flags[p] |= 2;
      // the point on side A's surface and the normal from B to A (the buffer's normal points from its B to its A)
      const sign = swap ? -1 : 1;
      const pa = swap ? fo + CONTACT_POINT_B : fo + CONTACT_POINT_A, pb = swap ? fo + CONTACT_POINT_A : fo + CONTACT_POINT_B;
      const nx = sign * F[fo + CONTACT_NORMAL], ny = sign * F[fo + CONTACT_NORMAL + 1], nz = sign * F[fo + CONTACT_NORMAL + 2];
      const depth = F[fo + CONTACT_DEPTH];
      // approach speed: -(vA - vB) . n at the two surface points
      const bA = swap ? b1 : b0, bB = swap ? b0 : b1, lA = swap ? l1 : l0, lB = swap ? l0 : l1;
      this.sideVelocity(bodies, bA, lA, F, pa, va);
      this.sideVelocity(bodies, bB, lB, F, pb, vb);
      const approach = -((va[0] - vb[0]) * nx + (va[1] - vb[1]) * ny + (va[2] - vb[2]) * nz);
      this.contactSpeed[k] = approach;
      if (depth > cur.depth[p]) {
        cur.depth[p] = depth;
        cur.point[3 * p] = F[pa]; cur.point[3 * p + 1] = F[pa + 1]; cur.point[3 * p + 2] = F[pa + 2];
        cur.normal[3 * p] = nx; cur.normal[3 * p + 1] = ny; cur.normal[3 * p + 2] = nz;
        cur.side[6 * p + 2] = swap ? s1 : s0;
        cur.side[6 * p + 5] = swap ? s0 : s1;
      }
      const j = rowOf[k];
      if (j >= 0) this.rowContact[j] = k;
    }
    // the pass's time, for the pairs that touch in it (solved)
    this.passTime[0] = this.clock[0];
  }

  private readonly passTime = new Float64Array(1);
  /** The time the step started at (its first detection's poses): the time of the step's 'ended' events. */
  private readonly stepStart = new Float64Array(1);

  /** World velocity of a side's surface point (zero for a static shape or a sleeping body). */
  private sideVelocity(bodies: readonly Body[], b: number, link: number, F: Float64Array, at: number, out: Float64Array): void {
    if (b < 0 || bodies[b].sleeping) { out[0] = 0; out[1] = 0; out[2] = 0; return; }
    const st = bodies[b].state;
    pt[0] = F[at]; pt[1] = F[at + 1]; pt[2] = F[at + 2];
    worldToLocal(st, link, pt, local);
    pointVelocity(st, link, local, out);
  }

  /** The impulses of an impact solve (rows.force holds impulses before the World restores the forces), for rows[0..count) listed by `rowAt`. */
  impacts(rows: RowBuffer, m: number, rowAt: (c: number) => number): void {
    for (let c = 0; c < m; c++) {
      const j = rowAt(c);
      if (rows.tag[j] !== RowTag.Contact) continue;
      const k = this.rowContact[j];
      if (k >= 0) this.contactImpulse[k] += rows.force[j];
    }
  }

  /** After the pass's integration of length h: the normal impulses, and which pairs touched. */
  solved(rows: RowBuffer, contacts: ContactSource, h: number): void {
    const cur = this.cur, rowOf = contacts.normalRowOf, F = contacts.collision.contacts.f64;
    for (let k = 0; k < this.contactCount; k++) {
      const p = this.contactPair[k];
      if (p < 0) continue;
      const depth = F[k * CONTACT_F64_STRIDE + CONTACT_DEPTH];
      const j = rowOf[k];
      const f = j >= 0 ? rows.force[j] : 0;
      const impulse = f * h + this.contactImpulse[k];
      cur.impulse[p] += impulse;
      const sensor = (cur.flags[p] & 2) !== 0;
      const touching = sensor ? depth > 0 : depth >= 0 || impulse > 0;
      if (!touching) continue;
      if ((cur.flags[p] & 1) === 0) {
        // first touch in the step: the speed and time of this pass (the fastest of its points in it)
        cur.flags[p] |= 1;
        cur.speed[p] = this.contactSpeed[k];
        cur.time[p] = this.passTime[0];
      } else if (cur.time[p] === this.passTime[0] && this.contactSpeed[k] > cur.speed[p]) cur.speed[p] = this.contactSpeed[k];
    }
  }

  /** The step is over: began / persisted / ended into the queue; the step's pairs become the previous ones. */
  endStep(bodies: readonly Body[]): void {
    const cur = this.cur, prev = this.prev;
    for (let p = 0; p < cur.n; p++) {
      if ((cur.flags[p] & 1) === 0) continue;
      prev.probe[0] = cur.key[p];
      const was = prev.find();
      this.push(was >= 0 && (prev.flags[was] & 1) !== 0 ? 1 : 0, cur, p, bodies, 1);
    }
    for (let p = 0; p < prev.n; p++) {
      if ((prev.flags[p] & 1) === 0) continue;
      cur.probe[0] = prev.key[p];
      const now = cur.find();
      if (now >= 0 && (cur.flags[now] & 1) !== 0) continue;
      // asleep: not detected, still touching
      const a = prev.side[6 * p], b = prev.side[6 * p + 3];
      if (quiet(bodies, a) && quiet(bodies, b)) {
        const q = now >= 0 ? now : cur.copyFrom(prev, p);
        if (now >= 0) { cur.flags[q] = prev.flags[p]; cur.time[q] = prev.time[p]; }
        cur.impulse[q] = 0;
        continue;
      }
      this.push(2, prev, p, bodies, 2);
    }
    this.prev = cur;
    this.cur = prev;
    this.cur.clear();
  }

  /** The pairs the next step compares its own with (World.snapshot writes them, PAIR_SLOTS numbers each). */
  get touchingCount(): number {
    return this.prev.n;
  }

  /** Writes the pairs the next step compares its own with, PAIR_SLOTS numbers each, into out from `at` (World.snapshot). */
  writeTouching(out: Float64Array, at: number): void {
    const t = this.prev;
    for (let p = 0, o = at; p < t.n; p++, o += PAIR_SLOTS) {
      out[o] = t.key[p];
      for (let e = 0; e < 6; e++) out[o + 1 + e] = t.side[6 * p + e];
      for (let e = 0; e < 3; e++) { out[o + 7 + e] = t.point[3 * p + e]; out[o + 10 + e] = t.normal[3 * p + e]; }
      out[o + 13] = t.impulse[p]; out[o + 14] = t.speed[p]; out[o + 15] = t.depth[p]; out[o + 16] = t.flags[p]; out[o + 17] = t.time[p];
    }
  }

  /** Takes back what writeTouching wrote (`n` pairs from `at` of `from`) as the pairs the next step compares its own with (World.restore). */
  readTouching(from: Float64Array, at: number, n: number): void {
    const t = new PairTable(Math.max(16, n));
    for (let p = 0, o = at; p < n; p++, o += PAIR_SLOTS) {
      t.probe[0] = from[o];
      const q = t.add();
      for (let e = 0; e < 6; e++) t.side[6 * q + e] = from[o + 1 + e];
      for (let e = 0; e < 3; e++) { t.point[3 * q + e] = from[o + 7 + e]; t.normal[3 * q + e] = from[o + 10 + e]; }
      t.impulse[q] = from[o + 13]; t.speed[q] = from[o + 14]; t.depth[q] = from[o + 15]; t.flags[q] = from[o + 16]; t.time[q] = from[o + 17];
    }
    this.prev = t;
    this.cur.clear();
  }

  /** Queues an event of pair p of table t (0 began, 1 persisted, 2 ended), at the time of: 1 the pair, 2 the step's start, 0 the clock. */
  private push(type: number, t: PairTable, p: number, bodies: readonly Body[], at: number): void {
    const o = 16 * this.queued;
    if (o + 16 > this.q.length) {
      const grown = new Float64Array(2 * this.q.length);
      grown.set(this.q);
      this.q = grown;
    }
    const q = this.q, s = 6 * p;
    q[o] = type;
    q[o + 1] = t.side[s + 1]; q[o + 2] = t.side[s + 2]; q[o + 3] = t.side[s + 4]; q[o + 4] = t.side[s + 5];
    q[o + 5] = type === 2 ? 0 : t.impulse[p];
    q[o + 6] = type === 2 ? 0 : t.speed[p];
    for (let e = 0; e < 3; e++) { q[o + 7 + e] = t.point[3 * p + e]; q[o + 10 + e] = t.normal[3 * p + e]; }
    q[o + 13] = t.depth[p];
    q[o + 14] = (t.flags[p] & 2) !== 0 ? 1 : 0;
    q[o + 15] = at === 1 ? t.time[p] : at === 2 ? this.stepStart[0] : this.clock[0];
    const a = t.side[s], b = t.side[s + 3];
    const k = 2 * this.queued;
    // (the array of bodies grows once to the largest queue; writing a slot allocates nothing)
    while (this.qBodies.length < k + 2) this.qBodies.push(null);
    this.qBodies[k] = a >= 0 ? bodies[a] : null;
    this.qBodies[k + 1] = b >= 0 ? bodies[b] : null;
    this.queued++;
  }

  /** Events queued since the last drain. */
  get pending(): number {
    return this.queued;
  }

  /** Hands every queued event to callback (one reused object), oldest first, and empties the queue. */
  drain(callback: (event: ContactEvent) => void): void {
    const e = this.event, q = this.q, ints = e.ints, nums = e.numbers;
    const n = this.queued;
    this.queued = 0;
    for (let i = 0; i < n; i++) {
      const o = 16 * i;
      e.type = q[o] === 0 ? 'began' : q[o] === 1 ? 'persisted' : 'ended';
      e.bodyA = this.qBodies[2 * i]; e.bodyB = this.qBodies[2 * i + 1];
      ints[0] = q[o + 1]; ints[1] = q[o + 2]; ints[2] = q[o + 3]; ints[3] = q[o + 4]; ints[4] = q[o + 14];
      nums[0] = q[o + 5]; nums[1] = q[o + 6]; nums[2] = q[o + 13]; nums[3] = q[o + 15];
      for (let k = 0; k < 6; k++) nums[4 + k] = q[o + 7 + k];
      callback(e);
    }
    for (let k = 0; k < 2 * n; k++) this.qBodies[k] = null;
  }

  /**
   * Body `index` leaves the world (called before the world renumbers its bodies): its touching
   * pairs end now, and the pairs of the bodies after it are renumbered. Allocates (between steps).
   */
  bodyRemoved(index: number, bodies: readonly Body[]): void {
    this.dropPairs((a, b) => a === index || b === index, bodies, (side) => (side > index ? side - 1 : side));
  }

  /** A static shape is removed: its touching pairs end now. */
  staticRemoved(handle: number, bodies: readonly Body[]): void {
    this.dropPairs((_a, b, _sa, sb) => b < 0 && sb === handle, bodies, (side) => side);
  }

  private dropPairs(gone: (a: number, b: number, sa: number, sb: number) => boolean, bodies: readonly Body[], renumber: (body: number) => number): void {
    const prev = this.prev, kept = new PairTable(Math.max(16, prev.n));
    for (let p = 0; p < prev.n; p++) {
      const s = 6 * p, a = prev.side[s], b = prev.side[s + 3];
      if (gone(a, b, prev.side[s + 2], prev.side[s + 5])) {
        if ((prev.flags[p] & 1) !== 0) this.push(2, prev, p, bodies, 0);
        continue;
      }
      const ra = a >= 0 ? renumber(a) : a, rb = b >= 0 ? renumber(b) : b;
      const ca = ra >= 0 ? ra * 1024 + prev.side[s + 1] : STATIC_SIDE + prev.side[s + 2];
      const cb = (rb >= 0 ? rb * 1024 + prev.side[s + 4] : STATIC_SIDE + prev.side[s + 5]) + ((prev.flags[p] & 2) !== 0 ? SENSOR_PAIR : 0);
      const q = kept.copyFrom(prev, p);
      kept.side[6 * q] = ra; kept.side[6 * q + 3] = rb;
      // (the sides keep their order: renumbering keeps the order of body codes, and statics stay last)
      kept.key[q] = ca * SIDE_SPAN + cb;
    }
    // the keys changed: insert them afresh
    const fresh = new PairTable(Math.max(16, kept.n));
    for (let p = 0; p < kept.n; p++) fresh.copyFrom(kept, p);
    this.prev = fresh;
  }

  /**
   * Calls back for every contact point of the last pass that had a normal row: its points, normal,
   * depth and the force on side A (normal and friction rows of the contact; rows hold forces in N).
   */
  forces(contacts: ContactSource, rows: RowBuffer, bodies: readonly Body[], callback: (c: ContactForce) => void): void {
    const out = this.forceOut, buf = contacts.collision.contacts, F = buf.f64, I = buf.i32, rowOf = contacts.normalRowOf;
    for (let k = 0; k < contacts.count; k++) {
      const j = rowOf[k];
      if (j < 0 || j >= rows.count || rows.tag[j] !== RowTag.Contact) continue;
      const fo = k * CONTACT_F64_STRIDE, io = k * CONTACT_I32_STRIDE;
      const b0 = I[io + CONTACT_BODY_A];
      // ContactSource puts a body on its rows' side A: a static side A of the buffer is swapped
      const swap = b0 < 0;
      const sign = swap ? -1 : 1;
      const bA = swap ? I[io + CONTACT_BODY_B] : b0, bB = swap ? b0 : I[io + CONTACT_BODY_B];
      const ints = out.ints, nums = out.numbers;
      out.bodyA = bodies[bA]; out.bodyB = bB >= 0 ? bodies[bB] : null;
      ints[0] = swap ? I[io + CONTACT_LINK_B] : I[io + CONTACT_LINK_A]; ints[1] = swap ? I[io + CONTACT_SHAPE_B] : I[io + CONTACT_SHAPE_A];
      ints[2] = swap ? I[io + CONTACT_LINK_A] : I[io + CONTACT_LINK_B]; ints[3] = swap ? I[io + CONTACT_SHAPE_A] : I[io + CONTACT_SHAPE_B];
      const pa = swap ? fo + CONTACT_POINT_B : fo + CONTACT_POINT_A;
      nums[0] = rows.force[j];
      nums[1] = F[fo + CONTACT_DEPTH];
      for (let e = 0; e < 3; e++) {
        nums[2 + e] = F[pa + e];
        nums[5 + e] = sign * F[fo + CONTACT_NORMAL + e];
        nums[8 + e] = rows.dir[3 * j + e] * rows.force[j];
      }
      // its friction rows follow it, bound to it
      for (let r = j + 1; r < rows.count && rows.boundRow[r] === j; r++) {
        if (rows.type[r] !== rows.type[j]) continue; // (a torsional row: a moment, not a force at the point)
        for (let e = 0; e < 3; e++) nums[8 + e] += rows.dir[3 * r + e] * rows.force[r];
      }
      callback(out);
    }
  }
}
