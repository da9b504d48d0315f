/**
 * Muscle tone: a factor on a character's joint torque limits over time (1 full strength, 0 limp).
 * A schedule of smooth ramps, each from the value at its start to a target over a duration
 * (smoothstep, so the torques change without a jerk): a death fades 1 -> residual over a second,
 * a hit dips to 0.3 in 0.05 s and recovers over half a second.
 */

interface Ramp {
  start: number;
  duration: number;
  from: number;
  to: number;
}

/** A factor on joint torque limits over time (1 full strength, 0 limp), as a schedule of smooth ramps: a death fades it, a hit dips it. */
export class MuscleTone {
  private ramps: Ramp[] = [];
  private base: number;

  constructor(value = 1) {
    this.base = checkTone(value);
  }

  /** Tone at time t (seconds on the caller's clock). */
  at(t: number): number {
    let v = this.base;
    for (const r of this.ramps) {
      if (t <= r.start) break;
      const u = r.duration > 0 ? Math.min(1, (t - r.start) / r.duration) : 1;
      const s = u * u * (3 - 2 * u);
      v = r.from + (r.to - r.from) * s;
    }
    return v;
  }

  /** Sets the tone now, dropping every ramp. */
  set(value: number): void {
    this.base = checkTone(value);
    this.ramps = [];
  }

  /** Ramps from the tone at `start` to `to` over `duration` seconds; later ramps are dropped. */
  rampTo(to: number, duration: number, start: number): this {
    checkTone(to);
    if (!(duration >= 0) || !Number.isFinite(start)) throw new RangeError(`MuscleTone.rampTo: duration ${duration} and start ${start} must be finite, duration >= 0`);
    const from = this.at(start);
    this.ramps = this.ramps.filter((r) => r.start < start);
    // a ramp still running at `start` is overridden from there on: at() takes the last ramp begun
    this.ramps.push({ start, duration, from, to });
    return this;
  }

  /** Numbers snapshot() writes: the base tone, the number of ramps, four per ramp. */
  get snapshotLength(): number {
    return 2 + 4 * this.ramps.length;
  }

  /**
   * The schedule as numbers (the base tone, the number of ramps, then start, duration, from and to
   * of each), written into `out` from `offset` when given; restore() takes it back bit for bit.
   */
  snapshot(out: Float64Array = new Float64Array(this.snapshotLength), offset = 0): Float64Array {
    if (out.length < offset + this.snapshotLength) throw new RangeError(`MuscleTone.snapshot: out holds ${out.length - offset} numbers from offset ${offset}; the schedule needs ${this.snapshotLength}`);
    out[offset] = this.base;
    out[offset + 1] = this.ramps.length;
    let o = offset + 2;
    for (const r of this.ramps) { out[o] = r.start; out[o + 1] = r.duration; out[o + 2] = r.from; out[o + 3] = r.to; o += 4; }
    return out;
  }

  /** The schedule snapshot() wrote (from `offset`); returns the numbers read. Refused, with nothing changed, when they are not a schedule. */
  restore(buf: ArrayLike<number>, offset = 0): number {
    const base = buf[offset], n = buf[offset + 1];
    if (!(base >= 0 && Number.isFinite(base)) || !Number.isInteger(n) || n < 0 || buf.length < offset + 2 + 4 * n) {
      throw new RangeError(`MuscleTone.restore: no tone schedule at offset ${offset} (base ${base}, ${n} ramps, ${buf.length - offset} numbers)`);
    }
    const ramps: Ramp[] = [];
    for (let k = 0, o = offset + 2; k < n; k++, o += 4) {
      const r = { start: buf[o], duration: buf[o + 1], from: buf[o + 2], to: buf[o + 3] };
      if (!(Number.isFinite(r.start) && r.duration >= 0 && Number.isFinite(r.duration) && r.from >= 0 && r.to >= 0)) throw new RangeError(`MuscleTone.restore: ramp ${k} at offset ${o} is not a ramp (start ${r.start}, duration ${r.duration}, from ${r.from}, to ${r.to})`);
      ramps.push(r);
    }
    this.base = base;
    this.ramps = ramps;
    return 2 + 4 * n;
  }

  /** Time (on the caller's clock) when the last ramp ends. */
  get settledAt(): number {
    let t = -Infinity;
    for (const r of this.ramps) t = Math.max(t, r.start + r.duration);
    return t;
  }
}

function checkTone(v: number): number {
  if (!(v >= 0) || !Number.isFinite(v)) throw new RangeError(`MuscleTone: tone must be a finite number >= 0, got ${v}`);
  return v;
}
