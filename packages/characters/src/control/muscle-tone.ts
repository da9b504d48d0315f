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
