/**
 * Velocities of a clip by central finite differences: on the rotation manifold for bone
 * rotations, so that exp(w h / 2) carries the rotation at t - h/2 to the one at t + h/2
 * (w in the bone's own frame, the convention of featherstone's spherical joints), and plainly
 * for translations.
 */
import { detMath, JointType, type Model } from '@sinew/featherstone';
import { type ClipPose, type MotionClip, type WrapMode } from './clip.js';
import { quatConjMultiply, quatMultiply, quatRotateInverse, quatToRotationVector } from './quat.js';

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

/**
 * The joint velocities (featherstone's qd layout) that carry the model's q from qa to qb in time
 * dt = time[at] (read from the array: a double passed to a call that is not inlined is boxed):
 * revolute angles differenced modulo 2 pi (wrapAngle), prismatic offsets plainly, rotations as
 * the rotation vector of qa^-1 qb over dt (body frame), and a free joint's origin velocity in its
 * link frame at the rotation halfway (featherstone's integrator takes the midpoint too). `tmp`
 * holds 8 numbers; sine, cosine and hypot go through detMath.io, so nothing is allocated.
 */
export function jointVelocityInto(m: Model, qa: ArrayLike<number>, qb: ArrayLike<number>, time: ArrayLike<number>, at: number, tmp: Float64Array, out: Float64Array): void {
  const io = detMath.io, dt = time[at];
  for (let i = 0; i < m.nLinks; i++) {
    const qo = m.qOffset[i], vo = m.vOffset[i];
    switch (m.jointType[i]) {
      case JointType.revolute: {
        // the change wrapped into (-pi, pi] (wrapAngle, written out: a returned double is boxed)
        let a = qb[qo] - qa[qo];
        if (a > Math.PI || a <= -Math.PI) {
          a = a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
          if (a <= -Math.PI) a += 2 * Math.PI;
        }
        out[vo] = a / dt;
        break;
      }
      case JointType.prismatic:
        out[vo] = (qb[qo] - qa[qo]) / dt;
        break;
      case JointType.spherical:
        quatConjMultiply(qa, qo, qb, qo, tmp, 0);
        quatToRotationVector(tmp, 0, out, vo);
        for (let c = 0; c < 3; c++) out[vo + c] /= dt;
        break;
      case JointType.free: {
        quatConjMultiply(qa, qo + 3, qb, qo + 3, tmp, 0);
        quatToRotationVector(tmp, 0, out, vo);
        for (let c = 0; c < 3; c++) out[vo + c] /= dt;
        // origin velocity in the link frame: R(q_mid)^T dp/dt, q_mid the rotation halfway
        tmp[4] = (qb[qo] - qa[qo]) / dt; tmp[5] = (qb[qo + 1] - qa[qo + 1]) / dt; tmp[6] = (qb[qo + 2] - qa[qo + 2]) / dt;
        const sx = 0.5 * out[vo] * dt, sy = 0.5 * out[vo + 1] * dt, sz = 0.5 * out[vo + 2] * dt;
        io[0] = sx; io[1] = sy; io[2] = sz; io[3] = 0;
        detMath.hypotIO();
        const th = io[0];
        // the turn by th about (sx, sy, sz) / th (quatFromAxisAngle)
        const x = th > 0 ? sx / th : 1, y = th > 0 ? sy / th : 0, z = th > 0 ? sz / th : 0, h = 0.5 * th;
        io[0] = h;
        detMath.sinIO();
        const s = io[0];
        io[0] = h;
        detMath.cosIO();
        tmp[0] = x * s; tmp[1] = y * s; tmp[2] = z * s; tmp[3] = io[0];
        quatMultiply(qa, qo + 3, tmp, 0, tmp, 0);
        quatRotateInverse(tmp, 0, tmp, 4, out, vo + 3);
        break;
      }
    }
  }
}
