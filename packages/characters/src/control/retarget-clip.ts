/**
 * One call from an imported clip to a joint trajectory of a model (what a MotionFollower plays):
 *
 * 1. rest-pose alignment: the skeleton's rest pose (a mocap T-pose) is turned into the model's
 *    neutral pose bone by bone, limbs also about their own axes so that elbows and knees bend about
 *    the model's hinge axes (rest-alignment.ts);
 * 2. size: the root's translation is scaled by the ratio of standing root heights, the model's (its
 *    root joint origin above its lowest shape point at q = 0) over the skeleton's (root head above
 *    its lowest bone head or End Site in the aligned rest pose);
 * 3. every frame is retargeted (Retargeter.sampleQ) into a JointTrajectory;
 * 4. joint space corrections: targets projected into the joint limits; the floor levelled (mocap
 *    floors are often tilted by a degree: a plane is fitted to the lowest point of the model's
 *    shapes frame by frame, lower envelope, and the whole motion turned so that plane is level);
 *    the start put above the world origin; the motion put on the floor y = `ground`, frame by frame
 *    where a foot stands (see `grounding`).
 */
import { forwardKinematics, State, type Model } from '@sinew/featherstone';
import { MotionClip, type WrapMode } from '../motion/clip.js';
import { Retargeter } from '../motion/retarget.js';
import type { Skeleton } from '../motion/skeleton.js';
import { JointTrajectory } from './joint-trajectory.js';
import { alignSkeletonRest, clipOnSkeleton, type BoneMap, type RestAlignment } from './rest-alignment.js';
import { lowestShape, lowestShapePoint, shapeBottom } from './shape-bounds.js';
import { detMath } from '@sinew/featherstone';

/** Options of `retargetClip`: the bone map, the frames to use, rest alignment, root scale, limits and floor levelling. */
export interface ClipRetargetOptions {
  /** Bone name -> joint name(s) of the model (e.g. CMU_TO_HUMANOID). */
  map: BoneMap;
  /** Frames [first, last] of the clip to use (default all). CMU's cgspeed BVH files hold a reference pose in frame 0: start at 1. */
  frames?: readonly [number, number];
  /** Turn the skeleton's rest pose into the model's neutral pose first (default true). */
  alignRest?: boolean;
  /** Also turn limbs about their axes so that the clip's hinge axes (elbows, knees) land on the model's (default true). */
  alignHinges?: boolean;
  /** Bones whose rest rotation the alignment keeps as it is. */
  keep?: readonly string[];
  /** Factor on the root's translation (default: ratio of standing root heights, model over skeleton). */
  translationScale?: number;
  /** Project every frame into the model's joint limits (default true). */
  clampToLimits?: boolean;
  /** Level a tilted capture floor (default true). */
  levelFloor?: boolean;
  /** Height of the floor the motion stands on (default 0); false leaves the height as scaled. */
  ground?: number | false;
  /**
   * How the motion is put on the floor:
   * - 'stance' (default): frame by frame. A frame whose lowest slow link (a stance foot: its lowest
   *   point moving slower than `stanceSpeed` over the floor, its lowest point within 5 cm of the floor) is moved up or down so
   *   that link's lowest point is on the floor (a swing foot passing lower, scraping, is left to the
   *   contacts); frames in between (a jump, a run's flight) take offsets interpolated
   *   from their neighbours; the offsets are smoothed over `groundSmoothing` seconds. The model's
   *   feet do not roll on the floor exactly as the actor's did (other proportions, a box for a foot),
   *   so without this the stance foot floats a centimetre or two above the floor in most frames.
   * - 'lowest': one offset for the whole clip: its lowest frame touches the floor, the others are above.
   */
  grounding?: 'stance' | 'lowest';
  /** Speed (m/s) below which the lowest link of a frame counts as a stance foot (default 0.5). */
  stanceSpeed?: number;
  /** Width of the moving average over the per-frame offsets, seconds (default 0.1). */
  groundSmoothing?: number;
  /** 'start' (default): the root starts above the world origin (x = z = 0); 'clip': the clip's own horizontal path, scaled. */
  origin?: 'start' | 'clip';
  /** Wrap mode of the trajectory (default: the clip's). */
  wrap?: WrapMode;
  /** Finite-difference step of the trajectory's qd and qdd (default two frames). */
  differenceStep?: number;
}

/** What `retargetClip` returns: the joint trajectory, the aligned clip and skeleton, the retargeter, and how the clip was scaled and levelled. */
export interface RetargetedClip {
  /** The model's joint targets, frame by frame: give this to a MotionFollower. */
  trajectory: JointTrajectory;
  /** The clip's frames on the aligned skeleton, and the Retargeter that reads them. */
  clip: MotionClip;
  skeleton: Skeleton;
  retargeter: Retargeter;
  translationScale: number;
  /** Angle (rad) by which the floor was levelled, and the rotation that levelled it (quaternion, applied to the whole motion about the world origin). */
  floorTilt: number;
  floorRotation: Float64Array;
  /** Largest change (rad) made by the projection into the joint limits. */
  limitCorrection: number;
  alignment: RestAlignment | null;
}

/** Standing height of a model: root joint origin above the lowest shape point, at q = 0. */
export function modelStandingHeight(model: Model): number {
  const s = new State(model);
  forwardKinematics(model, s, false);
  const h = s.work.pose[10] - lowestShapePoint(model, s);
  if (!(h > 0) || !Number.isFinite(h)) throw new RangeError('modelStandingHeight: the model has no shapes below its root');
  return h;
}

/** Standing height of a skeleton: root head above its lowest bone head or End Site in the rest pose. */
export function skeletonStandingHeight(skeleton: Skeleton): number {
  const W = skeleton.worldPose();
  let lo = Infinity;
  for (let b = 0; b < skeleton.boneCount; b++) {
    lo = Math.min(lo, W.positions[3 * b + 1]);
    const o = 4 * b, R = W.rotations;
    for (const e of skeleton.bones[b].endSites) {
      // y of R e
      const x = R[o], y = R[o + 1], z = R[o + 2], w = R[o + 3];
      const tx = 2 * (y * e[2] - z * e[1]), tz = 2 * (x * e[1] - y * e[0]), ty = 2 * (z * e[0] - x * e[2]);
      lo = Math.min(lo, W.positions[3 * b + 1] + e[1] + w * ty + (z * tx - x * tz));
    }
  }
  const h = W.positions[1] - lo;
  if (!(h > 0)) throw new RangeError(`skeletonStandingHeight: skeleton "${skeleton.name}" has nothing below its root`);
  return h;
}

/** Frames [first, last] of a clip as a clip of their own (times kept). */
export function clipFrames(clip: MotionClip, first: number, last: number): MotionClip {
  if (!(Number.isInteger(first) && Number.isInteger(last) && first >= 0 && last < clip.frameCount && first <= last)) {
    throw new RangeError(`clipFrames: frames [${first}, ${last}] outside clip "${clip.name}" (0..${clip.frameCount - 1})`);
  }
  const nb = clip.boneCount;
  return new MotionClip({
    name: clip.name,
    skeleton: clip.skeleton,
    times: clip.times.subarray(first, last + 1),
    rotations: clip.rotations.subarray(4 * nb * first, 4 * nb * (last + 1)),
    translations: clip.translations.subarray(3 * nb * first, 3 * nb * (last + 1)),
    wrap: clip.wrap,
  });
}

/** Least-squares plane y = c0 + c1 x + c2 z through the lower envelope of points (x, y, z). */
function fitFloor(xs: number[], ys: number[], zs: number[]): [number, number, number] {
  let use = xs.map(() => true);
  let c: [number, number, number] = [0, 0, 0];
  for (let iter = 0; iter < 5; iter++) {
    // normal equations of [1 x z] c = y over the used points
    const A = new Float64Array(9), b = new Float64Array(3);
    for (let k = 0; k < xs.length; k++) {
      if (!use[k]) continue;
      const r = [1, xs[k], zs[k]];
      for (let i = 0; i < 3; i++) {
        b[i] += r[i] * ys[k];
        for (let j = 0; j < 3; j++) A[3 * i + j] += r[i] * r[j];
      }
    }
    const sol = solve3(A, b);
    if (!sol) break;
    c = sol;
    const res = ys.map((y, k) => y - (c[0] + c[1] * xs[k] + c[2] * zs[k]));
    const sorted = res.slice().sort((p, q) => p - q);
    const median = sorted[Math.floor(sorted.length / 2)];
    use = res.map((r) => r <= median);
  }
  return c;
}

/** Solves the 3 x 3 system A x = b (Cramer); null when singular (all points on a line). */
function solve3(A: Float64Array, b: Float64Array): [number, number, number] | null {
  const det = (m: ArrayLike<number>) => m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  const d = det(A);
  if (!(Math.abs(d) > 1e-12 * Math.max(1, Math.abs(A[0] * A[4] * A[8])))) return null;
  const out: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const M = Float64Array.from(A);
    for (let r = 0; r < 3; r++) M[3 * r + c] = b[r];
    out[c] = det(M) / d;
  }
  return out;
}

/** Retargets a motion clip to a model once: rest alignment, root path scaled, floor levelled, every frame turned into joint targets. */
export function retargetClip(model: Model, clip: MotionClip, options: ClipRetargetOptions): RetargetedClip {
  const map = options.map;
  const source = options.frames ? clipFrames(clip, options.frames[0], options.frames[1]) : clip;
  const al = alignSkeletonRest(clip.skeleton, model, options.alignRest === false ? {} : map, {
    rootOffset: [0, 0, 0],
    keep: options.keep,
    hingeClip: options.alignRest === false || options.alignHinges === false ? undefined : source,
  });
  const hSkel = skeletonStandingHeight(al.skeleton);
  const scale = options.translationScale ?? modelStandingHeight(model) / hSkel;
  if (!(Number.isFinite(scale) && scale > 0)) throw new RangeError(`retargetClip: translationScale ${scale} is not a positive number`);
  // the root's rest at its standing height: a clip whose floor is y = 0 stands the model at its own height
  const aligned = alignSkeletonRest(clip.skeleton, model, options.alignRest === false ? {} : map, {
    rootOffset: [0, hSkel, 0],
    keep: options.keep,
    hingeClip: options.alignRest === false || options.alignHinges === false ? undefined : source,
  });
  const wrap = options.wrap ?? clip.wrap;
  const onAligned = clipOnSkeleton(source, aligned.skeleton, { wrap });
  const retargeter = new Retargeter(model, aligned.skeleton, { map, translationScale: scale });
  const trajectory = JointTrajectory.fromClip(model, onAligned, retargeter, { wrap, differenceStep: options.differenceStep });
  const limitCorrection = options.clampToLimits === false ? 0 : trajectory.clampToLimits();

  const state = new State(model);
  const lowest = () => {
    const xs: number[] = [], ys: number[] = [], zs: number[] = [];
    for (let k = 0; k < trajectory.frameCount; k++) {
      state.q.set(trajectory.q.subarray(k * model.nq, (k + 1) * model.nq));
      forwardKinematics(model, state, false);
      const lo = lowestShape(model, state);
      const P = state.work.pose;
      xs.push(P[12 * lo.link + 9]); ys.push(lo.y); zs.push(P[12 * lo.link + 11]);
    }
    return { xs, ys, zs };
  };
  let floorTilt = 0;
  const floorRotation = Float64Array.of(0, 0, 0, 1);
  if (options.levelFloor !== false && trajectory.frameCount >= 3) {
    const { xs, ys, zs } = lowest();
    const c = fitFloor(xs, ys, zs);
    // turn the floor's normal (-c1, 1, -c2) onto +Y
    const n = [-c[1], 1, -c[2]], nn = detMath.hypot(n[0], n[1], n[2]);
    const ax = -n[2] / nn, az = n[0] / nn, w = 1 + n[1] / nn; // (n x Y, 1 + n . Y)
    const qn = detMath.hypot(ax, az, w);
    floorTilt = detMath.acos(Math.min(1, n[1] / nn));
    floorRotation.set([ax / qn, 0, az / qn, w / qn]);
    if (floorTilt > 0) trajectory.transformRoot(floorRotation, [0, 0, 0]);
  }
  if (options.origin !== 'clip') {
    const p = trajectory.rootPosition(0);
    trajectory.transformRoot([0, 0, 0, 1], [-p[0], 0, -p[2]]);
  }
  if (options.ground !== false) {
    const floor = options.ground ?? 0;
    const { ys } = lowest();
    trajectory.transformRoot([0, 0, 0, 1], [0, floor - Math.min(...ys), 0]);
    if ((options.grounding ?? 'stance') === 'stance') {
      const nf = trajectory.frameCount, T = trajectory.times;
      const vmax = options.stanceSpeed ?? 0.5;
      // per frame and link: the lowest point of the link's shapes, and where it is
      const n = model.nLinks;
      const low = new Float64Array(nf * n), px = new Float64Array(nf * n), pz = new Float64Array(nf * n), at = new Float64Array(3);
      for (let k = 0; k < nf; k++) {
        state.q.set(trajectory.q.subarray(k * model.nq, (k + 1) * model.nq));
        forwardKinematics(model, state, false);
        for (let i = 0; i < n; i++) {
          let lo = Infinity;
          for (const sh of model.shapes[i]) {
            if (shapeBottom(state, i, sh, at) < lo) { lo = at[1]; px[k * n + i] = at[0]; pz[k * n + i] = at[2]; }
          }
          low[k * n + i] = lo;
        }
      }
      // a frame's support: its lowest slow link (a stance foot), if within 5 cm of the floor
      const offset = new Float64Array(nf).fill(NaN);
      for (let k = 0; k < nf; k++) {
        const a = Math.max(0, k - 1), b = Math.min(nf - 1, k + 1);
        let best = Infinity;
        for (let i = 0; i < n; i++) {
          const y = low[k * n + i];
          if (!(y < best)) continue;
          const speed = b > a ? detMath.hypot(px[b * n + i] - px[a * n + i], pz[b * n + i] - pz[a * n + i]) / (T[b] - T[a]) : 0;
          if (speed < vmax) best = y;
        }
        if (best - floor < 0.05) offset[k] = floor - best;
      }
      fillGaps(offset, T);
      const smoothed = movingAverage(offset, T, options.groundSmoothing ?? 0.1);
      const p = new Float64Array(3);
      for (let k = 0; k < nf; k++) {
        trajectory.rootPosition(k, p);
        p[1] += smoothed[k];
        setRootPosition(trajectory, k, p);
      }
    }
  }
  return { trajectory, clip: onAligned, skeleton: aligned.skeleton, retargeter, translationScale: scale, floorTilt, floorRotation, limitCorrection, alignment: aligned };
}

/** Replaces NaN entries by linear interpolation in time between the nearest numbers (ends: held); all NaN becomes 0. */
function fillGaps(v: Float64Array, t: Float64Array): void {
  const n = v.length;
  let prev = -1;
  for (let k = 0; k <= n; k++) {
    if (k < n && Number.isNaN(v[k])) continue;
    // gap (prev, k)
    for (let j = prev + 1; j < k; j++) {
      if (prev < 0 && k >= n) v[j] = 0;
      else if (prev < 0) v[j] = v[k];
      else if (k >= n) v[j] = v[prev];
      else v[j] = v[prev] + ((v[k] - v[prev]) * (t[j] - t[prev])) / (t[k] - t[prev]);
    }
    prev = k;
  }
}

/** Centred moving average over a window of `width` seconds (shrunk at the ends). */
function movingAverage(v: Float64Array, t: Float64Array, width: number): Float64Array {
  const n = v.length, out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let s = 0, c = 0;
    for (let j = k; j >= 0 && t[k] - t[j] <= width / 2; j--) { s += v[j]; c++; }
    for (let j = k + 1; j < n && t[j] - t[k] <= width / 2; j++) { s += v[j]; c++; }
    out[k] = s / c;
  }
  return out;
}

/** Writes the world position of the root joint's origin at key k (inverse of rootPosition). */
function setRootPosition(tr: JointTrajectory, k: number, p: Float64Array): void {
  const cur = tr.rootPosition(k);
  const m = tr.model, o = k * m.nq + m.qOffset[0];
  // the root's joint frame is fixed: a world displacement d moves q by R_J^T d
  const d = [p[0] - cur[0], p[1] - cur[1], p[2] - cur[2]];
  const E = m.treeX; // E = R_J^T row-major
  for (let r = 0; r < 3; r++) tr.q[o + r] += E[3 * r] * d[0] + E[3 * r + 1] * d[1] + E[3 * r + 2] * d[2];
}
