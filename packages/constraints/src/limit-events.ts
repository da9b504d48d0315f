/**
 * Joint-limit hits, for sounds: a joint that reaches one of its stops faster than a threshold
 * speed (World.limitHitSpeed) gives one event, read with World.drainLimitHits.
 *
 * Read off the joint-limit rows of each detection-and-solve pass (sources/joint-limits.ts): a stop
 * is engaged in a pass when its row is closed (gap <= 0) or pushed (force > 0); it is hit when it
 * is engaged in a step and was not at the end of the step before, at the approach speed its row
 * measured at the start of the pass where it engaged (before any impulse: rad/s for hinges and
 * ball joints, m/s for sliders). A stop that stays engaged (a limb resting at its limit) gives no
 * further event until it leaves it.
 *
 * Stops are named by their row keys (joint-limits.ts, setLimitKey: ((4096 + body) * 65536 + link)
 * * 8 + which, which 0 the lower stop, 1 the upper, 2 a ball joint's swing cone, 3 and 4 its
 * twist's lower and upper stops). Nothing is allocated per step once the arrays have grown.
 */
import type { Body } from './body.js';
import { RowTag, type RowBuffer } from './rows/row-buffer.js';

import { BODY_KEYS, keyBody } from './lifetime.js';

/** Which stop of a joint was hit: a revolute or prismatic joint's lower or upper, a spherical joint's swing cone or twist stops. */
export type LimitStop = 'lower' | 'upper' | 'swing' | 'twist lower' | 'twist upper';
const STOPS: readonly LimitStop[] = ['lower', 'upper', 'swing', 'twist lower', 'twist upper'];

/** One limit hit, as World.drainLimitHits hands it to its callback (one object, reused; numbers through getters). */
export class LimitHit {
  body: Body | null = null;
  /** The joint's name (its link's joint), and which stop. */
  joint = '';
  stop: LimitStop = 'lower';
  /** link, then the time (s) and the approach speed (rad/s or m/s). */
  readonly ints = new Int32Array(1);
  readonly numbers = new Float64Array(2);
  get link(): number { return this.ints[0]; }
  /** Simulated time (s) of the poses where the stop engaged. */
  get time(): number { return this.numbers[0]; }
  /** Approach speed (rad/s, or m/s for a slider) at the stop. */
  get speed(): number { return this.numbers[1]; }
}

export class LimitEventRecorder {
  /** Approach speed (rad/s or m/s) above which reaching a stop is a hit. */
  readonly threshold = new Float64Array(1);
  /** Stops engaged in the last step (their keys), and in the step under way. */
  private prev = new Float64Array(16);
  private prevCount = 0;
  private cur = new Float64Array(16);
  private curCount = 0;
  /** Per row of the pass: its approach speed at the pass's start. */
  private approach = new Float64Array(64);
  private readonly passTime = new Float64Array(1);
  /** Hits queued: key, time, speed (3 each), and the bodies. */
  private q = new Float64Array(48);
  private qBodies: (Body | null)[] = [];
  private queued = 0;
  /** Hits of the step under way (the queue's length at its start), so an attempt taken again drops them. */
  private stepFirst = 0;
  private readonly hit = new LimitHit();

  constructor(private readonly clock: Float64Array, threshold: number) {
    this.threshold[0] = threshold;
  }

  /** A new attempt of the step: what the step had found is forgotten. */
  beginAttempt(): void {
    this.curCount = 0;
    this.queued = this.stepFirst;
  }

  /** A step starts (before its first attempt). */
  beginStep(): void {
    this.stepFirst = this.queued;
  }

  /** After the pass's rows (before any impulse): each limit row's approach speed. */
  detected(rows: RowBuffer): void {
    if (this.approach.length < rows.capacity) this.approach = new Float64Array(rows.capacity);
    for (let j = 0; j < rows.count; j++) if (rows.tag[j] === RowTag.Limit) this.approach[j] = -rows.velocity[j];
    this.passTime[0] = this.clock[0];
  }

  /** After the pass's solve: stops engaged in it; a hit for each newly engaged stop fast enough. */
  solved(rows: RowBuffer, bodies: readonly Body[]): void {
    for (let j = 0; j < rows.count; j++) {
      if (rows.tag[j] !== RowTag.Limit || !(rows.error[j] <= 0 || rows.force[j] > 0)) continue;
      const key = rows.key[j];
      if (this.holds(this.cur, this.curCount, key)) continue;
      if (this.curCount === this.cur.length) this.grow();
      this.cur[this.curCount++] = key;
      if (this.holds(this.prev, this.prevCount, key) || !(this.approach[j] > this.threshold[0])) continue;
      this.push(key, this.approach[j], bodies);
    }
  }

  /** The step is over: its engaged stops become the previous ones. */
  endStep(): void {
    const t = this.prev;
    this.prev = this.cur;
    this.prevCount = this.curCount;
    this.cur = t.length >= this.prev.length ? t : new Float64Array(this.prev.length);
    this.curCount = 0;
    this.stepFirst = this.queued;
  }

  private grow(): void {
    const c = new Float64Array(2 * this.cur.length);
    c.set(this.cur);
    this.cur = c;
  }

  /** Whether keys[0..n) holds key (a scan: a body has a few stops engaged at a time). */
  private holds(keys: Float64Array, n: number, key: number): boolean {
    for (let k = 0; k < n; k++) if (keys[k] === key) return true;
    return false;
  }

  private push(key: number, speed: number, bodies: readonly Body[]): void {
    const o = 3 * this.queued;
    if (o + 3 > this.q.length) { const g = new Float64Array(2 * this.q.length); g.set(this.q); this.q = g; }
    this.q[o] = key; this.q[o + 1] = this.passTime[0]; this.q[o + 2] = speed;
    const body = keyBody(key);
    while (this.qBodies.length <= this.queued) this.qBodies.push(null);
    this.qBodies[this.queued] = body >= 0 && body < bodies.length ? bodies[body] : null;
    this.queued++;
  }

  /** Hands every queued hit to callback (one reused LimitHit), oldest first, and empties the queue. */
  drain(callback: (hit: LimitHit) => void): void {
    const h = this.hit, n = this.queued;
    this.queued = 0;
    this.stepFirst = 0;
    for (let i = 0; i < n; i++) {
      const key = this.q[3 * i];
      const b = this.qBodies[i];
      const link = Math.floor(key / 8) % 65536;
      h.body = b;
      h.ints[0] = link;
      h.joint = b ? b.model.jointNames[link] : '';
      h.stop = STOPS[key % 8] ?? 'lower';
      h.numbers[0] = this.q[3 * i + 1];
      h.numbers[1] = this.q[3 * i + 2];
      callback(h);
    }
    for (let i = 0; i < n; i++) this.qBodies[i] = null;
  }

  /** Body `index` left the world: its stops are forgotten, those of the bodies after it renumbered (allocates; between steps). */
  bodyRemoved(index: number): void {
    let n = 0;
    for (let k = 0; k < this.prevCount; k++) {
      const key = this.prev[k], body = keyBody(key);
      if (body === index) continue;
      this.prev[n++] = body > index ? key - BODY_KEYS : key;
    }
    this.prevCount = n;
  }
}
