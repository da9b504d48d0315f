/**
 * Pins: bilateral point rows that hold a point of a body to a world point or to a point of another
 * body (a hand to a ledge, a grab), and a hinge pin that also aligns an axis (a point pin plus the
 * two angular rows that leave only rotation about the axis).
 */
import { pointPosition, pointVelocity } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { RowTag, type RowBuffer } from '../rows/row-buffer.js';
import type { ConstraintSource, StepContext } from './source.js';
import { detMath } from '@sinew/featherstone';

const AXES = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
] as const;

let nextPinId = 1;

/** One end of a pin: a point of a body's link, or a world point (body -1). */
export interface PinTarget {
  /** Body index, or -1 for the world. */
  body: number;
  /** Link of that body (ignored for the world). */
  link: number;
  /** Point in that link's coordinates, or a world point for the world. */
  point: ArrayLike<number>;
}

/** A bilateral point constraint: three rows that hold a point of a body to a world point or to a point of another body (a grab, a hand on a ledge). */
export class PointPin implements ConstraintSource {
  readonly id = nextPinId++;
  enabled = true;
  readonly bodyA: number;
  readonly linkA: number;
  readonly localA: Float64Array;
  target: { body: number; link: number; point: Float64Array };
  /** Which world axes are held (default all three). */
  axes: [boolean, boolean, boolean] = [true, true, true];
  /**
   * Whether the two links the pin joins still collide with each other (default false: a hand and
   * the crate it holds do not push each other apart while the pin holds them together, as in
   * Box2D's collideConnected). Read at each step.
   */
  collideConnected = false;

  constructor(bodyA: number, linkA: number, localA: ArrayLike<number>, target: PinTarget, options: { collideConnected?: boolean } = {}) {
    this.collideConnected = options.collideConnected === true;
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(localA[k]) || !Number.isFinite(target.point[k])) throw new Error('PointPin: points must be 3 finite numbers');
    }
    this.bodyA = bodyA;
    this.linkA = linkA;
    this.localA = Float64Array.from([localA[0], localA[1], localA[2]]);
    this.target = { body: target.body, link: target.link, point: Float64Array.from([target.point[0], target.point[1], target.point[2]]) };
  }

  /** The target as targetMoved last saw it (point, then the body it holds to). */
  private readonly seenTarget = new Float64Array(4).fill(NaN);

  /**
   * Whether the target (its point, or the body it holds to) changed since the last call, however
   * it was changed: a pin the game moves does work on what it holds, so the World's energy account
   * leaves its bodies out for that step. The first call says false.
   */
  targetMoved(): boolean {
    const t = this.target, s = this.seenTarget;
    const moved = s[0] === s[0] && (s[0] !== t.point[0] || s[1] !== t.point[1] || s[2] !== t.point[2] || s[3] !== t.body);
    s[0] = t.point[0]; s[1] = t.point[1]; s[2] = t.point[2]; s[3] = t.body;
    return moved;
  }

  /** Moves a world target (e.g. following the mouse). Refuses non-finite input. */
  setWorldTarget(p: ArrayLike<number>): void {
    if (this.target.body >= 0) throw new Error('PointPin.setWorldTarget: the pin holds to a body, not the world');
    for (let k = 0; k < 3; k++) if (!Number.isFinite(p[k])) throw new Error('PointPin.setWorldTarget: expected 3 finite numbers');
    this.target.point.set([p[0], p[1], p[2]]);
  }

  /**
   * Moves the target point: a world point when the pin holds to the world, else a point in the
   * target link's coordinates (a grab sliding along the held body). Refuses non-finite input,
   * changing nothing.
   */
  setTargetPoint(p: ArrayLike<number>): void {
    for (let k = 0; k < 3; k++) if (typeof p[k] !== 'number' || !Number.isFinite(p[k])) throw new RangeError(`PointPin.setTargetPoint: expected 3 finite numbers, element ${k} is ${p[k]}`);
    this.target.point.set([p[0], p[1], p[2]]);
  }

  /** '' when the pin's points are finite, else which is not. The World asks before each step (the arrays are public). */
  checkInputs(bodies?: readonly Body[]): string {
    const b = bodies?.[this.bodyA];
    const who = `PointPin ${this.id} (body ${b ? `"${b.name}"` : this.bodyA}, link ${this.linkA})`;
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(this.localA[k])) return `${who}: local point [${k}] is ${this.localA[k]}; expected a finite number`;
      if (!Number.isFinite(this.target.point[k])) return `${who}: target point [${k}] is ${this.target.point[k]}; expected a finite number`;
    }
    return '';
  }

  /** World separation vector pA - pB, at the bodies' current poses (allocates nothing). */
  separation(bodies: readonly Body[], out: Float64Array): Float64Array {
    const a = this.pa, b = this.pb;
    pointPosition(bodies[this.bodyA].state, this.linkA, this.localA, a);
    if (this.target.body >= 0) pointPosition(bodies[this.target.body].state, this.target.link, this.target.point, b);
    else b.set(this.target.point);
    for (let k = 0; k < 3; k++) out[k] = a[k] - b[k];
    return out;
  }

  private readonly pa = new Float64Array(3);
  private readonly pb = new Float64Array(3);
  private readonly gap = new Float64Array(3);

  addRows(rows: RowBuffer, ctx: StepContext): void {
    if (!this.enabled) return;
    this.separation(ctx.bodies, this.gap);
    const tb = this.target.body;
    for (let k = 0; k < 3; k++) {
      if (!this.axes[k]) continue;
      const r = rows.addPoint(RowTag.Pin, this.bodyA, this.linkA, this.localA, tb, tb >= 0 ? this.target.link : -1, this.target.point, AXES[k]);
      rows.error[r] = this.gap[k];
      rows.key[r] = (2 * 1048576 + this.id) * 8 + k;
    }
  }
}

/**
 * A hinge to the world: a point pin plus two angular rows keeping the link axis `localAxis` along
 * the world axis `worldAxis`. The angular error of row d is d . (axis_world x axis_link), which
 * grows as the link turns about d (its rate is d . w when aligned).
 */
export class HingePin implements ConstraintSource {
  readonly id = nextPinId++;
  enabled = true;
  readonly pin: PointPin;
  readonly localAxis: Float64Array;
  readonly worldAxis: Float64Array;
  private readonly d1 = new Float64Array(3);
  private readonly d2 = new Float64Array(3);
  private readonly la = new Float64Array(3);

  constructor(body: number, link: number, localPoint: ArrayLike<number>, worldPoint: ArrayLike<number>, localAxis: ArrayLike<number>, worldAxis: ArrayLike<number>) {
    this.pin = new PointPin(body, link, localPoint, { body: -1, link: -1, point: worldPoint });
    const n1 = detMath.hypot(localAxis[0], localAxis[1], localAxis[2]), n2 = detMath.hypot(worldAxis[0], worldAxis[1], worldAxis[2]);
    // Infinity would pass the non-zero test and normalise to NaN
    if (!(n1 > 0 && n1 < Infinity) || !(n2 > 0 && n2 < Infinity)) throw new Error('HingePin: axes must be non-zero and finite');
    this.localAxis = Float64Array.from([localAxis[0] / n1, localAxis[1] / n1, localAxis[2] / n1]);
    this.worldAxis = Float64Array.from([worldAxis[0] / n2, worldAxis[1] / n2, worldAxis[2] / n2]);
    // two directions perpendicular to the world axis
    const a = this.worldAxis;
    const e = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    let x = e[0] - a[0] * (a[0] * e[0] + a[1] * e[1] + a[2] * e[2]);
    let y = e[1] - a[1] * (a[0] * e[0] + a[1] * e[1] + a[2] * e[2]);
    let z = e[2] - a[2] * (a[0] * e[0] + a[1] * e[1] + a[2] * e[2]);
    const n = Math.sqrt(x * x + y * y + z * z);
    x /= n; y /= n; z /= n;
    this.d1.set([x, y, z]);
    this.d2.set([a[1] * z - a[2] * y, a[2] * x - a[0] * z, a[0] * y - a[1] * x]);
  }

  /** '' when the hinge's points are finite (see PointPin.checkInputs). */
  checkInputs(bodies?: readonly Body[]): string {
    return this.pin.checkInputs(bodies);
  }

  addRows(rows: RowBuffer, ctx: StepContext): void {
    if (!this.enabled) return;
    this.pin.addRows(rows, ctx);
    const body = ctx.bodies[this.pin.bodyA];
    const P = body.state.work.pose, po = 12 * this.pin.linkA;
    const l = this.localAxis, la = this.la;
    la[0] = P[po] * l[0] + P[po + 1] * l[1] + P[po + 2] * l[2];
    la[1] = P[po + 3] * l[0] + P[po + 4] * l[1] + P[po + 5] * l[2];
    la[2] = P[po + 6] * l[0] + P[po + 7] * l[1] + P[po + 8] * l[2];
    const a = this.worldAxis;
    const cx = a[1] * la[2] - a[2] * la[1], cy = a[2] * la[0] - a[0] * la[2], cz = a[0] * la[1] - a[1] * la[0];
    for (let k = 0; k < 2; k++) {
      const d = k === 0 ? this.d1 : this.d2;
      const r = rows.addAngular(RowTag.Pin, this.pin.bodyA, this.pin.linkA, -1, -1, d);
      rows.error[r] = d[0] * cx + d[1] * cy + d[2] * cz;
      rows.key[r] = (3 * 1048576 + this.id) * 8 + k;
    }
  }
}

export { pointVelocity };
