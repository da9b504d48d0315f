/**
 * A joint-space trajectory: a model's q at key times (one key per clip frame), sampled at any time
 * by interpolation on each joint's manifold, with velocities and accelerations by central finite
 * differences on the same manifold. It is what a MotionFollower plays: the clip retargeted once,
 * frame by frame, and then corrected in joint space (joint limits, a tilted capture floor, the
 * height above the ground, the start position) where the clip itself cannot be.
 *
 * Conventions are featherstone's (joints.ts): a spherical joint's q is a quaternion and its qd the
 * angular velocity in the link frame; a free joint's q is the position (in its joint frame) and
 * the quaternion, its qd the angular velocity and the origin's velocity, both in the link frame.
 * qdd is the rate of change of those components, as the integrator uses it (qd += h qdd).
 */
import { JointType, type Model } from '@sinew/featherstone';
import type { MotionClip, WrapMode } from '../motion/clip.js';
import {
  quatConjMultiply, quatFromMatrix, quatMultiply, quatNormalize, quatRotate, quatRotateInverse, quatSlerpAt, SLERP_F,
} from '../motion/quat.js';
import type { Retargeter } from '../motion/retarget.js';
import { jointVelocityInto } from '../motion/velocity.js';
import { projectIntoLimits } from './joint-range.js';

/** Options of a JointTrajectory: wrap mode, the difference step of its velocities, and a name. */
export interface JointTrajectoryOptions {
  /** What sampling outside [startTime, endTime] does (default 'clamp'). */
  wrap?: WrapMode;
  /** Step of the central differences for qd and qdd, seconds (default two key intervals, at least 1/240 s). */
  differenceStep?: number;
  name?: string;
}

/** Joint targets of a model over time (q at sample times), sampled with velocities and accelerations for trajectory following. */
export class JointTrajectory {
  readonly model: Model;
  readonly name: string;
  readonly times: Float64Array;
  /** frames x nq. */
  readonly q: Float64Array;
  readonly frameCount: number;
  wrap: WrapMode;
  differenceStep: number;
  private readonly tmp = new Float64Array(8);
  /** The sampler of sampleQ, sampleQd and sampleQdd. */
  private readonly sampler: TrajectorySampler;

  constructor(model: Model, times: ArrayLike<number>, q: ArrayLike<number>, options: JointTrajectoryOptions = {}) {
    const nf = times.length;
    this.name = options.name ?? 'trajectory';
    if (nf === 0) throw new RangeError(`JointTrajectory "${this.name}": no keys`);
    if (q.length !== nf * model.nq) throw new RangeError(`JointTrajectory "${this.name}": ${q.length} numbers of q, expected ${nf} keys x ${model.nq}`);
    this.model = model;
    this.times = Float64Array.from(times);
    this.q = Float64Array.from(q);
    this.frameCount = nf;
    for (let k = 0; k < nf; k++) {
      if (!Number.isFinite(this.times[k]) || (k > 0 && !(this.times[k] > this.times[k - 1]))) {
        throw new RangeError(`JointTrajectory "${this.name}": key times must be finite and increasing (key ${k}: ${this.times[k]})`);
      }
    }
    for (let i = 0; i < this.q.length; i++) if (!Number.isFinite(this.q[i])) throw new RangeError(`JointTrajectory "${this.name}": q of key ${Math.floor(i / model.nq)} is not finite at ${i % model.nq}`);
    this.wrap = options.wrap ?? 'clamp';
    const dt = nf > 1 ? (this.times[nf - 1] - this.times[0]) / (nf - 1) : 1 / 120;
    this.differenceStep = options.differenceStep ?? Math.max(2 * dt, 1 / 240);
    if (!(this.differenceStep > 0)) throw new RangeError(`JointTrajectory "${this.name}": differenceStep must be > 0`);
    this.canonicalize();
    this.sampler = new TrajectorySampler(this);
  }

  /** Retargets every frame of a clip (the Retargeter's q at the clip's sample times). */
  static fromClip(model: Model, clip: MotionClip, retargeter: Retargeter, options: JointTrajectoryOptions = {}): JointTrajectory {
    if (retargeter.model !== model) throw new RangeError('JointTrajectory.fromClip: the retargeter drives another model');
    const times: number[] = [];
    const frames: number[] = [];
    const q = new Float64Array(model.nq);
    for (let k = 0; k < clip.frameCount; k++) {
      const t = clip.times[k];
      if (k > 0 && !(t > times[times.length - 1])) continue; // a jump key (repeated time): keep the first
      retargeter.sampleQ(clip, t, q, 'clamp');
      times.push(t);
      for (let i = 0; i < q.length; i++) frames.push(q[i]);
    }
    return new JointTrajectory(model, times, frames, { wrap: options.wrap ?? clip.wrap, name: options.name ?? clip.name, differenceStep: options.differenceStep });
  }

  get startTime(): number {
    return this.times[0];
  }

  get endTime(): number {
    return this.times[this.frameCount - 1];
  }

  get duration(): number {
    return this.endTime - this.startTime;
  }

  /** The time within [startTime, endTime]: clamped, or wrapped when looping. */
  localTime(t: number, wrap: WrapMode = this.wrap): number {
    const t0 = this.startTime, d = this.duration;
    if (wrap === 'loop' && d > 0) {
      const u = (t - t0) % d;
      return t0 + (u < 0 ? u + d : u);
    }
    return t < t0 ? t0 : t > t0 + d ? t0 + d : t;
  }

  /** q at time t: lerp of angles and positions, slerp of quaternions. */
  sampleQ(t: number, out: Float64Array = new Float64Array(this.model.nq), wrap: WrapMode = this.wrap): Float64Array {
    if (!Number.isFinite(t)) throw new RangeError(`JointTrajectory "${this.name}".sampleQ: time ${t} is not finite`);
    this.sampler.time[0] = t;
    this.sampler.sampleQ(out, wrap);
    return out;
  }

  /**
   * qd at time t: the manifold difference of q(t + h/2) and q(t - h/2) over h (h = differenceStep),
   * slid inside the trajectory at the ends of a clamped one (one-sided there).
   */
  sampleQd(t: number, out: Float64Array = new Float64Array(this.model.nv), wrap: WrapMode = this.wrap): Float64Array {
    this.sampler.time[0] = t;
    this.sampler.sampleQd(out, wrap);
    return out;
  }

  /** qdd at time t: (qd(t + h/2) - qd(t - h/2)) / h, the qd being central differences themselves. */
  sampleQdd(t: number, out: Float64Array = new Float64Array(this.model.nv), wrap: WrapMode = this.wrap): Float64Array {
    this.sampler.time[0] = t;
    this.sampler.sampleQdd(out, wrap);
    return out;
  }

  /** Largest key index k with times[k] <= u (k <= frameCount - 2). */
  segmentAt(u: number): number {
    return segmentAt(this.times, this.frameCount, u);
  }

  /** Unit quaternions, each track kept in one hemisphere from key to key. */
  private canonicalize(): void {
    const m = this.model, nq = m.nq, Q = this.q;
    for (let i = 0; i < m.nLinks; i++) {
      const t = m.jointType[i];
      if (t !== JointType.spherical && t !== JointType.free) continue;
      const qo = m.qOffset[i] + (t === JointType.free ? 3 : 0);
      for (let k = 0; k < this.frameCount; k++) {
        const o = k * nq + qo;
        if (!(quatNormalize(Q, o) > 1e-12)) throw new RangeError(`JointTrajectory "${this.name}": zero quaternion of joint "${m.jointNames[i]}" at key ${k}`);
        if (k > 0) {
          const p = o - nq;
          if (Q[o] * Q[p] + Q[o + 1] * Q[p + 1] + Q[o + 2] * Q[p + 2] + Q[o + 3] * Q[p + 3] < 0) {
            Q[o] = -Q[o]; Q[o + 1] = -Q[o + 1]; Q[o + 2] = -Q[o + 2]; Q[o + 3] = -Q[o + 3];
          }
        }
      }
    }
  }

  /** Projects every key into the model's joint limits (joint-range.ts); returns the largest change (rad or m). */
  clampToLimits(): number {
    let worst = 0;
    for (let k = 0; k < this.frameCount; k++) worst = Math.max(worst, projectIntoLimits(this.model, this.q, k * this.model.nq));
    this.canonicalize();
    return worst;
  }

  /**
   * Moves and turns the whole motion rigidly in the world: each key's root transform T becomes
   * G T with G = (rotation, translation). The root must be a free joint whose parent is the world.
   */
  transformRoot(rotation: ArrayLike<number>, translation: ArrayLike<number>): this {
    const m = this.model;
    if (m.jointType[0] !== JointType.free) throw new RangeError(`JointTrajectory "${this.name}": the root joint "${m.jointNames[0]}" is not a free joint`);
    const { jr, jp } = rootJointFrame(m);
    const tmp = this.tmp, p = new Float64Array(3);
    for (let k = 0; k < this.frameCount; k++) {
      const o = k * m.nq;
      // world origin p = jp + R_J q_pos; world rotation R_J q_rot
      quatRotate(jr, 0, this.q, o, p, 0);
      for (let c = 0; c < 3; c++) p[c] += jp[c];
      quatRotate(rotation, 0, p, 0, p, 0);
      for (let c = 0; c < 3; c++) p[c] += translation[c] - jp[c];
      quatRotateInverse(jr, 0, p, 0, this.q, o);
      // q_rot' = R_J^-1 G R_J q_rot
      quatMultiply(jr, 0, this.q, o + 3, tmp, 0);
      quatMultiply(rotation, 0, tmp, 0, tmp, 4);
      quatConjMultiply(jr, 0, tmp, 4, this.q, o + 3);
      quatNormalize(this.q, o + 3);
    }
    this.canonicalize();
    return this;
  }

  /** World position of the root joint's origin at key k. */
  rootPosition(k: number, out: Float64Array = new Float64Array(3)): Float64Array {
    const m = this.model;
    const { jr, jp } = rootJointFrame(m);
    quatRotate(jr, 0, this.q, k * m.nq + m.qOffset[0], out, 0);
    for (let c = 0; c < 3; c++) out[c] += jp[c];
    return out;
  }
}

/** Rotation (quaternion) and origin of the root's joint frame in the world. */
function rootJointFrame(m: Model): { jr: Float64Array; jp: Float64Array } {
  const E = m.treeX;
  // treeX holds E = R_J^T (row-major); R_J = E^T
  const R = new Float64Array(9);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) R[3 * r + c] = E[3 * c + r];
  const jr = new Float64Array(4);
  quatFromMatrix(R, 0, jr, 0);
  return { jr, jp: Float64Array.from(E.subarray(9, 12)) };
}

/** Largest key index k with times[k] <= u (k <= frameCount - 2). */
function segmentAt(times: Float64Array, frameCount: number, u: number): number {
  let lo = 0, hi = frameCount - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= u) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The sampling of a JointTrajectory (its sampleQ, sampleQd, sampleQdd) with the time in a typed
 * array and its own scratch: a follower's step samples its clip through one of these, the time
 * written to `time[0]`, so that no number crosses a call that the engine may not inline (which
 * would box it: a heap allocation per call). The same arithmetic, so the same bits, as the
 * trajectory's own methods, which call it.
 */
export class TrajectorySampler {
  readonly traj: JointTrajectory;
  /**
   * [0] the time to sample (written by the caller); the rest scratch: [1] the time being read,
   * [2] its local time, [3], [4] the difference window, [5] the difference's time step.
   */
  readonly time = new Float64Array(6);
  private readonly qa: Float64Array;
  private readonly qb: Float64Array;
  private readonly va: Float64Array;
  private readonly vb: Float64Array;
  private readonly tmp = new Float64Array(8);

  constructor(traj: JointTrajectory) {
    this.traj = traj;
    const m = traj.model;
    this.qa = new Float64Array(m.nq);
    this.qb = new Float64Array(m.nq);
    this.va = new Float64Array(m.nv);
    this.vb = new Float64Array(m.nv);
  }

  /** q at time[0] into out (JointTrajectory.sampleQ). */
  sampleQ(out: Float64Array, wrap: WrapMode): void {
    const T = this.time;
    if (!Number.isFinite(T[0])) throw new RangeError(`JointTrajectory "${this.traj.name}".sampleQ: time ${T[0]} is not finite`);
    T[1] = T[0];
    this.qAt(out, wrap);
  }

  /** qd at time[0] into out (JointTrajectory.sampleQd). */
  sampleQd(out: Float64Array, wrap: WrapMode): void {
    const T = this.time, traj = this.traj;
    T[5] = traj.differenceStep;
    this.window(wrap);
    out.fill(0);
    if (!(T[4] > T[3])) return;
    T[1] = T[3];
    this.qAt(this.qa, wrap);
    T[1] = T[4];
    this.qAt(this.qb, wrap);
    T[5] = T[4] - T[3];
    this.difference(this.qa, this.qb, out);
  }

  /** qdd at time[0] into out (JointTrajectory.sampleQdd). */
  sampleQdd(out: Float64Array, wrap: WrapMode): void {
    const T = this.time, h = this.traj.differenceStep;
    T[5] = 2 * h;
    this.window(wrap);
    const a = T[3], b = T[4];
    out.fill(0);
    if (!(b - a > 1.5 * h)) return;
    const mid = 0.5 * (a + b);
    // qd over [a, mid] and [mid, b]
    T[1] = a;
    this.qAt(this.qa, wrap);
    T[1] = mid;
    this.qAt(this.qb, wrap);
    T[5] = mid - a;
    this.difference(this.qa, this.qb, this.va);
    T[1] = b;
    this.qAt(this.qa, wrap);
    T[5] = b - mid;
    this.difference(this.qb, this.qa, this.vb);
    const s = 2 / (b - a);
    for (let d = 0; d < out.length; d++) out[d] = (this.vb[d] - this.va[d]) * s;
  }

  /** time[2] = the local time of time[1] (JointTrajectory.localTime). */
  private local(wrap: WrapMode): void {
    const T = this.time, times = this.traj.times, t = T[1];
    const t0 = times[0], d = times[this.traj.frameCount - 1] - t0;
    if (wrap === 'loop' && d > 0) {
      const u = (t - t0) % d;
      T[2] = t0 + (u < 0 ? u + d : u);
      return;
    }
    T[2] = t < t0 ? t0 : t > t0 + d ? t0 + d : t;
  }

  /** q at time[1] into out. */
  private qAt(out: Float64Array, wrap: WrapMode): void {
    const traj = this.traj, m = traj.model, nq = m.nq, Q = traj.q, T = this.time;
    if (traj.frameCount === 1) {
      for (let k = 0; k < nq; k++) out[k] = Q[k];
      return;
    }
    this.local(wrap);
    const u = T[2];
    const k = segmentAt(traj.times, traj.frameCount, u);
    const t0 = traj.times[k], t1 = traj.times[k + 1];
    let f = (u - t0) / (t1 - t0);
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    SLERP_F[0] = f;
    const a = k * nq, b = a + nq;
    for (let i = 0; i < m.nLinks; i++) {
      const qo = m.qOffset[i];
      switch (m.jointType[i]) {
        case JointType.revolute:
        case JointType.prismatic:
          out[qo] = Q[a + qo] + f * (Q[b + qo] - Q[a + qo]);
          break;
        case JointType.spherical:
          quatSlerpAt(Q, a + qo, Q, b + qo, out, qo);
          break;
        case JointType.free:
          for (let c = 0; c < 3; c++) out[qo + c] = Q[a + qo + c] + f * (Q[b + qo + c] - Q[a + qo + c]);
          quatSlerpAt(Q, a + qo + 3, Q, b + qo + 3, out, qo + 3);
          break;
      }
    }
  }

  /** [t - w/2, t + w/2] (t = time[0], w = time[5]) into time[3], time[4], slid inside the trajectory when it is clamped. */
  private window(wrap: WrapMode): void {
    const T = this.time, traj = this.traj, times = traj.times, t = T[0], w = T[5];
    const start = times[0], end = times[traj.frameCount - 1];
    if (wrap === 'loop' && end - start > 0) {
      T[3] = t - 0.5 * w;
      T[4] = t + 0.5 * w;
      return;
    }
    T[1] = t;
    this.local('clamp');
    const u = T[2];
    let a = u - 0.5 * w, b = u + 0.5 * w;
    if (a < start) { b = Math.min(end, b + start - a); a = start; }
    if (b > end) { a = Math.max(start, a - (b - end)); b = end; }
    T[3] = a;
    T[4] = b;
  }

  /** Velocity carrying qa to qb in time dt = time[5] (featherstone's qd layout; jointVelocityInto). */
  private difference(qa: Float64Array, qb: Float64Array, out: Float64Array): void {
    jointVelocityInto(this.traj.model, qa, qb, this.time, 5, this.tmp, out);
  }
}
