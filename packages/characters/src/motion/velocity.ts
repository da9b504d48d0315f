/**
 * Velocities of a clip by central finite differences: on the rotation manifold for bone
 * rotations, so that exp(w h / 2) carries the rotation at t - h/2 to the one at t + h/2
 * (w in the bone's own frame, the convention of featherstone's spherical joints), and plainly
 * for translations.
 */
import { type ClipPose, type MotionClip, type WrapMode } from './clip.js';
import { quatConjMultiply, quatToRotationVector } from './quat.js';

/** Options of a clip's velocity by finite differences: the difference step and wrap mode. */
export interface ClipVelocityOptions {
  /** Difference step in seconds (default: half the shortest positive sample interval, or 1/240 s). */
  step?: number;
  wrap?: WrapMode;
}

/** A clip's velocities at one time: each bone's angular and linear rate relative to its parent. */
export interface ClipVelocity {
  /** Body-frame angular velocity of each bone relative to its parent (rad/s), 3 per bone. */
  angular: Float64Array;
  /** Rate of change of each bone's local translation (parent frame, m/s), 3 per bone. */
  linear: Float64Array;
}

/** Default difference step of a clip: half its shortest positive sample interval. */
export function clipDifferenceStep(clip: MotionClip): number {
  let h = Infinity;
  for (let k = 1; k < clip.frameCount; k++) {
    const d = clip.times[k] - clip.times[k - 1];
    if (d > 0 && d < h) h = d;
  }
  return Number.isFinite(h) ? 0.5 * h : 1 / 240;
}

/**
 * The times t - h/2 and t + h/2 of a central difference, slid inside [startTime, endTime] for a
 * clamped clip so that both samples are real motion (one-sided at the ends).
 */
export function differenceWindow(clip: MotionClip, t: number, h: number, wrap: WrapMode): [number, number] {
  if (wrap === 'loop' && clip.duration > 0) return [t - 0.5 * h, t + 0.5 * h];
  const u = clip.localTime(t, 'clamp');
  let a = u - 0.5 * h, b = u + 0.5 * h;
  if (a < clip.startTime) { b = Math.min(clip.endTime, b + clip.startTime - a); a = clip.startTime; }
  if (b > clip.endTime) { a = Math.max(clip.startTime, a - (b - clip.endTime)); b = clip.endTime; }
  return [a, b];
}

/** Scratch poses reused between calls for one clip size. */
const scratch = new Map<number, [ClipPose, ClipPose]>();
function scratchPoses(nb: number): [ClipPose, ClipPose] {
  let s = scratch.get(nb);
  if (!s) {
    const mk = () => ({ rotations: new Float64Array(4 * nb), translations: new Float64Array(3 * nb) });
    s = [mk(), mk()];
    scratch.set(nb, s);
  }
  return s;
}

const dq = new Float64Array(4);

/** Angular (body frame) and linear velocities of every bone of the clip at time t. */
export function clipVelocity(clip: MotionClip, t: number, out?: ClipVelocity, options: ClipVelocityOptions = {}): ClipVelocity {
  const nb = clip.boneCount;
  const res = out ?? { angular: new Float64Array(3 * nb), linear: new Float64Array(3 * nb) };
  const wrap = options.wrap ?? clip.wrap;
  const [a, b] = differenceWindow(clip, t, options.step ?? clipDifferenceStep(clip), wrap);
  const dt = b - a;
  if (!(dt > 0)) {
    res.angular.fill(0);
    res.linear.fill(0);
    return res;
  }
  const [pa, pb] = scratchPoses(nb);
  clip.sample(a, pa, wrap);
  clip.sample(b, pb, wrap);
  for (let i = 0; i < nb; i++) {
    // w = log(qa^-1 qb) / dt: the body-frame rotation carrying qa to qb
    quatConjMultiply(pa.rotations, 4 * i, pb.rotations, 4 * i, dq, 0);
    quatToRotationVector(dq, 0, res.angular, 3 * i);
    for (let c = 0; c < 3; c++) {
      res.angular[3 * i + c] /= dt;
      res.linear[3 * i + c] = (pb.translations[3 * i + c] - pa.translations[3 * i + c]) / dt;
    }
  }
  return res;
}
