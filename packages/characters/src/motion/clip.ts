/**
 * Motion clips: local rotations of every bone and local translations (the root's position among
 * them) at sample times, sampled at any time by slerp (rotations) and lerp (translations).
 *
 * Sample times are non-decreasing. Two equal consecutive times mark a jump (a STEP key): the
 * clip is right-continuous there, so sampling exactly at that time gives the later sample.
 */
import { quatNormalize, quatSlerp } from './quat.js';
import type { Skeleton } from './skeleton.js';

/** How a clip is sampled past its end: 'clamp' holds the last frame, 'loop' wraps around. */
export type WrapMode = 'clamp' | 'loop';

/** A pose in the skeleton's local layout: 4 rotation numbers and 3 translation numbers per bone. */
export interface ClipPose {
  rotations: Float64Array;
  translations: Float64Array;
}

/** The samples of a MotionClip: its skeleton, times, local rotations per bone, translations and wrap mode. */
export interface MotionClipData {
  name?: string;
  skeleton: Skeleton;
  /** Sample times in seconds, non-decreasing. */
  times: ArrayLike<number>;
  /** Local rotation of every bone at every sample: frames x bones x [x, y, z, w]. */
  rotations: ArrayLike<number>;
  /** Local translation of every bone at every sample: frames x bones x 3 (default: the rest offsets). */
  translations?: ArrayLike<number>;
  /** Root translation per sample, frames x 3, written over `translations` (default: from translations). */
  rootTranslations?: ArrayLike<number>;
  /** What sampling outside [startTime, endTime] does (default 'clamp'). */
  wrap?: WrapMode;
}

/** Keyframed motion of a Skeleton: per-bone local rotations (and translations) at sample times, sampled by time with 'clamp' or 'loop'. */
export class MotionClip {
  readonly name: string;
  readonly skeleton: Skeleton;
  readonly boneCount: number;
  readonly frameCount: number;
  readonly times: Float64Array;
  /** frames x bones x 4, unit quaternions, each bone's track kept in one hemisphere from sample to sample. */
  readonly rotations: Float64Array;
  /** frames x bones x 3. */
  readonly translations: Float64Array;
  readonly wrap: WrapMode;
  /** Time step when the samples are evenly spaced (relative deviation below 1e-9), else 0. */
  readonly uniformStep: number;

  constructor(data: MotionClipData) {
    const nb = data.skeleton.boneCount;
    const nf = data.times.length;
    const name = data.name ?? 'clip';
    if (nf === 0) throw new RangeError(`MotionClip "${name}": no samples`);
    this.name = name;
    this.skeleton = data.skeleton;
    this.boneCount = nb;
    this.frameCount = nf;
    this.wrap = data.wrap ?? 'clamp';
    this.times = Float64Array.from(data.times);
    for (let k = 0; k < nf; k++) {
      if (!Number.isFinite(this.times[k])) throw new RangeError(`MotionClip "${name}": time ${k} is ${this.times[k]}`);
      if (k > 0 && this.times[k] < this.times[k - 1]) throw new RangeError(`MotionClip "${name}": time ${k} (${this.times[k]}) is before time ${k - 1} (${this.times[k - 1]})`);
    }
    if (data.rotations.length !== nf * nb * 4) throw new RangeError(`MotionClip "${name}": ${data.rotations.length} rotation numbers, expected ${nf} x ${nb} x 4`);
    this.rotations = Float64Array.from(data.rotations);
    for (let i = 0; i < nf * nb; i++) {
      const o = 4 * i;
      const r = this.rotations;
      if (!(Number.isFinite(r[o]) && Number.isFinite(r[o + 1]) && Number.isFinite(r[o + 2]) && Number.isFinite(r[o + 3]))) {
        throw new RangeError(`MotionClip "${name}": rotation of bone ${i % nb} at sample ${Math.floor(i / nb)} is not finite`);
      }
      if (!(quatNormalize(r, o) > 1e-12)) throw new RangeError(`MotionClip "${name}": zero rotation quaternion of bone ${i % nb} at sample ${Math.floor(i / nb)}`);
      // hemisphere continuity along each track: q and -q are the same rotation
      if (i >= nb) {
        const p = o - 4 * nb;
        if (r[o] * r[p] + r[o + 1] * r[p + 1] + r[o + 2] * r[p + 2] + r[o + 3] * r[p + 3] < 0) {
          r[o] = -r[o]; r[o + 1] = -r[o + 1]; r[o + 2] = -r[o + 2]; r[o + 3] = -r[o + 3];
        }
      }
    }
    if (data.translations) {
      if (data.translations.length !== nf * nb * 3) throw new RangeError(`MotionClip "${name}": ${data.translations.length} translation numbers, expected ${nf} x ${nb} x 3`);
      this.translations = Float64Array.from(data.translations);
    } else {
      this.translations = new Float64Array(nf * nb * 3);
      for (let k = 0; k < nf; k++) for (let b = 0; b < nb; b++) this.translations.set(data.skeleton.bones[b].offset, 3 * (k * nb + b));
    }
    if (data.rootTranslations) {
      if (data.rootTranslations.length !== nf * 3) throw new RangeError(`MotionClip "${name}": ${data.rootTranslations.length} root translation numbers, expected ${nf} x 3`);
      for (let k = 0; k < nf; k++) for (let c = 0; c < 3; c++) this.translations[3 * k * nb + c] = data.rootTranslations[3 * k + c];
    }
    for (let i = 0; i < this.translations.length; i++) {
      if (!Number.isFinite(this.translations[i])) throw new RangeError(`MotionClip "${name}": translation of bone ${Math.floor(i / 3) % nb} at sample ${Math.floor(i / (3 * nb))} is not finite`);
    }
    this.uniformStep = uniformStep(this.times);
    Object.freeze(this);
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

  createPose(): ClipPose {
    return { rotations: new Float64Array(4 * this.boneCount), translations: new Float64Array(3 * this.boneCount) };
  }

  /** Copies sample k into out. */
  frame(k: number, out: ClipPose = this.createPose()): ClipPose {
    const nb = this.boneCount;
    out.rotations.set(this.rotations.subarray(4 * nb * k, 4 * nb * (k + 1)));
    out.translations.set(this.translations.subarray(3 * nb * k, 3 * nb * (k + 1)));
    return out;
  }

  /** Maps a time to the clip's range: clamped, or wrapped with period `duration` when looping. */
  localTime(t: number, wrap: WrapMode = this.wrap): number {
    const t0 = this.startTime, d = this.duration;
    if (wrap === 'loop' && d > 0) {
      const u = (t - t0) % d;
      return t0 + (u < 0 ? u + d : u);
    }
    return t < t0 ? t0 : t > t0 + d ? t0 + d : t;
  }

  /**
   * The pose at time t: each bone's rotation slerped and translation lerped between the two
   * samples around t. Allocates nothing when `out` is given.
   */
  sample(t: number, out: ClipPose = this.createPose(), wrap: WrapMode = this.wrap): ClipPose {
    if (!Number.isFinite(t)) throw new RangeError(`MotionClip "${this.name}".sample: time ${t} is not finite`);
    const nf = this.frameCount, nb = this.boneCount;
    if (nf === 1) return this.frame(0, out);
    const u = this.localTime(t, wrap);
    const k = this.segmentAt(u);
    const t0 = this.times[k], t1 = this.times[k + 1];
    let f = t1 > t0 ? (u - t0) / (t1 - t0) : 1;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    const R = this.rotations, T = this.translations;
    const ra = 4 * nb * k, rb = ra + 4 * nb, ta = 3 * nb * k, tb = ta + 3 * nb;
    const rot = out.rotations, tr = out.translations;
    for (let b = 0; b < nb; b++) quatSlerp(R, ra + 4 * b, R, rb + 4 * b, f, rot, 4 * b);
    for (let i = 0; i < 3 * nb; i++) tr[i] = T[ta + i] + f * (T[tb + i] - T[ta + i]);
    return out;
  }

  /** Index k of the segment [times[k], times[k+1]] holding u (u within the clip's range), right-continuous at repeated times. */
  segmentAt(u: number): number {
    const times = this.times, last = this.frameCount - 2;
    let k: number;
    if (this.uniformStep > 0) {
      k = Math.floor((u - times[0]) / this.uniformStep);
      k = k < 0 ? 0 : k > last ? last : k;
      while (k > 0 && times[k] > u) k--;
      while (k < last && times[k + 1] <= u) k++;
      return k;
    }
    // largest k <= last with times[k] <= u
    let lo = 0, hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid] <= u) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

function uniformStep(times: Float64Array): number {
  const n = times.length;
  if (n < 2) return 0;
  const dt = (times[n - 1] - times[0]) / (n - 1);
  if (!(dt > 0)) return 0;
  for (let k = 1; k < n; k++) {
    if (Math.abs(times[k] - (times[0] + k * dt)) > 1e-9 * Math.max(1, Math.abs(times[k]))) return 0;
  }
  return dt;
}
