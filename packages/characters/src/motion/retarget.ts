/**
 * Retargeting: turns a clip pose of a skeleton into target joint positions q (and velocities qd)
 * in a featherstone model's layout, through a map from bone names to joint names.
 *
 * Method (world-space deltas): each mapped bone b moves from its rest world rotation B_b^0 to
 * B_b(t); the mapped link i is given the same world-space change, D_i = B_b(t) (B_b^0)^-1 L_i^0,
 * L_i^0 being the link's world rotation in the model's neutral pose. The joint then takes the
 * rotation relative to its parent link's *actual* rotation: rel = R_J^-1 P^-1 D_i. Spherical and
 * free joints take rel whole; a revolute joint takes the twist of rel about its axis (swing-twist
 * decomposition), and what it cannot follow is left to the next mapped joint down the chain.
 * This needs the skeleton's rest pose and the model's neutral pose to face the same way (both
 * T-poses, or a model built from the skeleton, for which q = R_J^-1 * the bone's local rotation).
 */
import { forwardKinematics, JointType, State, type Model } from '@sinew/featherstone';
import { type ClipPose, type MotionClip, type WrapMode } from './clip.js';
import {
  quatConjMultiply, quatFromAxisAngle, quatFromMatrix, quatMultiply, quatNormalize, quatRotate, quatRotateInverse,
  quatTwistAngle,
} from './quat.js';
import type { Skeleton } from './skeleton.js';
import { clipDifferenceStep, differenceWindow, jointVelocityInto } from './velocity.js';

/** Options of a Retargeter: the bone-to-joint map and the scale of the root's translation. */
export interface RetargetOptions {
  /**
   * Bone name -> joint name, or several joint names (parent to child) sharing one bone, e.g. the
   * three hinges of a shoulder. Default: every bone whose name is also a joint of the model.
   */
  map?: Readonly<Record<string, string | readonly string[]>>;
  /** Factor on the root's displacement from its rest position (default 1), for a model of another size. */
  translationScale?: number;
}

/** Turns a clip pose of a skeleton into joint targets q (and qd) of a model, through a map from bone names to joint names. */
export class Retargeter {
  readonly model: Model;
  readonly skeleton: Skeleton;
  /** Bone driving each link, -1 where none. */
  readonly boneOfLink: Int32Array;
  private readonly translationScale: number;
  private readonly jointRot: Float64Array; // R_J per link, 4 each
  private readonly jointPos: Float64Array; // joint origin in the parent link frame, 3 each
  private readonly delta: Float64Array; // (B_b^0)^-1 L_i^0 per link, 4 each
  private readonly restLinkPos: Float64Array; // L_i^0 origin, 3 each
  private readonly restBonePos: Float64Array; // B^0 heads, 3 per bone
  private readonly world: { rotations: Float64Array; positions: Float64Array };
  private readonly linkRot: Float64Array;
  private readonly linkPos: Float64Array;
  private readonly tmp = new Float64Array(8);
  private readonly qa: Float64Array;
  private readonly qb: Float64Array;
  private readonly poseA: ClipPose;
  private readonly poseB: ClipPose;

  constructor(model: Model, skeleton: Skeleton, options: RetargetOptions = {}) {
    this.model = model;
    this.skeleton = skeleton;
    this.translationScale = options.translationScale ?? 1;
    if (!Number.isFinite(this.translationScale)) throw new RangeError(`Retargeter: translationScale ${options.translationScale} is not finite`);
    const n = model.nLinks;
    this.boneOfLink = new Int32Array(n).fill(-1);
    const map = options.map ?? defaultMap(model, skeleton);
    for (const [bone, joints] of Object.entries(map)) {
      const b = skeleton.indexOf(bone);
      if (b < 0) throw new RangeError(`Retargeter: map names bone "${bone}", which skeleton "${skeleton.name}" does not have`);
      for (const j of typeof joints === 'string' ? [joints] : joints) {
        if (!model.hasJoint(j)) throw new RangeError(`Retargeter: map sends bone "${bone}" to joint "${j}", which the model does not have`);
        const link = model.joint(j).link;
        if (this.boneOfLink[link] >= 0) throw new RangeError(`Retargeter: joint "${j}" is mapped from two bones ("${skeleton.bones[this.boneOfLink[link]].name}" and "${bone}")`);
        this.boneOfLink[link] = b;
      }
    }

    this.jointRot = new Float64Array(4 * n);
    this.jointPos = new Float64Array(3 * n);
    const E = new Float64Array(9);
    for (let i = 0; i < n; i++) {
      // treeX holds E = R_J^T row-major; R_J row-major is its transpose
      const o = 12 * i;
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) E[3 * r + c] = model.treeX[o + 3 * c + r];
      quatFromMatrix(E, 0, this.jointRot, 4 * i);
      this.jointPos.set(model.treeX.subarray(o + 9, o + 12), 3 * i);
    }

    // neutral pose of the model and rest pose of the skeleton
    const neutral = new State(model);
    forwardKinematics(model, neutral, false);
    const P = neutral.work.pose;
    const restRot = new Float64Array(4);
    this.restLinkPos = new Float64Array(3 * n);
    this.delta = new Float64Array(4 * n);
    const rest = skeleton.worldPose();
    this.restBonePos = rest.positions;
    for (let i = 0; i < n; i++) {
      quatFromMatrix(P, 12 * i, restRot, 0);
      this.restLinkPos.set(P.subarray(12 * i + 9, 12 * i + 12), 3 * i);
      const b = this.boneOfLink[i];
      if (b >= 0) quatConjMultiply(rest.rotations, 4 * b, restRot, 0, this.delta, 4 * i);
    }

    this.world = { rotations: new Float64Array(4 * skeleton.boneCount), positions: new Float64Array(3 * skeleton.boneCount) };
    this.linkRot = new Float64Array(4 * n);
    this.linkPos = new Float64Array(3 * n);
    this.qa = new Float64Array(model.nq);
    this.qb = new Float64Array(model.nq);
    const mk = () => ({ rotations: new Float64Array(4 * skeleton.boneCount), translations: new Float64Array(3 * skeleton.boneCount) });
    this.poseA = mk();
    this.poseB = mk();
  }

  /** Joint positions q (model layout) reproducing a pose of the skeleton. Unmapped joints take their neutral value. */
  poseToQ(pose: ClipPose, q: Float64Array = new Float64Array(this.model.nq)): Float64Array {
    const m = this.model, n = m.nLinks;
    const W = this.skeleton.worldPose(pose, this.world);
    const JR = this.jointRot, JP = this.jointPos, LR = this.linkRot, LP = this.linkPos, t = this.tmp;
    for (let i = 0; i < n; i++) {
      const p = m.parent[i], qo = m.qOffset[i], type = m.jointType[i];
      // parent rotation P and the joint frame's world rotation P R_J (t[0..3]) and origin (LP)
      if (p < 0) {
        t[0] = JR[4 * i]; t[1] = JR[4 * i + 1]; t[2] = JR[4 * i + 2]; t[3] = JR[4 * i + 3];
        LP[3 * i] = JP[3 * i]; LP[3 * i + 1] = JP[3 * i + 1]; LP[3 * i + 2] = JP[3 * i + 2];
      } else {
        quatMultiply(LR, 4 * p, JR, 4 * i, t, 0);
        quatRotate(LR, 4 * p, JP, 3 * i, LP, 3 * i);
        LP[3 * i] += LP[3 * p]; LP[3 * i + 1] += LP[3 * p + 1]; LP[3 * i + 2] += LP[3 * p + 2];
      }
      const b = this.boneOfLink[i];
      if (b < 0 || type === JointType.fixed || type === JointType.prismatic) {
        // neutral joint: the link frame is the joint frame
        LR[4 * i] = t[0]; LR[4 * i + 1] = t[1]; LR[4 * i + 2] = t[2]; LR[4 * i + 3] = t[3];
        if (type === JointType.revolute || type === JointType.prismatic) q[qo] = 0;
        else if (type === JointType.spherical) { q[qo] = 0; q[qo + 1] = 0; q[qo + 2] = 0; q[qo + 3] = 1; }
        else if (type === JointType.free) { q.fill(0, qo, qo + 6); q[qo + 6] = 1; }
        continue;
      }
      // desired world rotation D = B_b(t) (B_b^0)^-1 L_i^0, then rel = (P R_J)^-1 D into t[4..7]
      quatMultiply(W.rotations, 4 * b, this.delta, 4 * i, LR, 4 * i);
      quatConjMultiply(t, 0, LR, 4 * i, t, 4);
      if (type === JointType.revolute) {
        const ax = m.axis[3 * i], ay = m.axis[3 * i + 1], az = m.axis[3 * i + 2];
        const angle = quatTwistAngle(t, 4, ax, ay, az);
        q[qo] = angle;
        quatFromAxisAngle(ax, ay, az, angle, t, 4);
        quatMultiply(t, 0, t, 4, LR, 4 * i);
        continue;
      }
      if (t[7] < 0) { t[4] = -t[4]; t[5] = -t[5]; t[6] = -t[6]; t[7] = -t[7]; }
      quatNormalize(t, 4);
      if (type === JointType.spherical) {
        q[qo] = t[4]; q[qo + 1] = t[5]; q[qo + 2] = t[6]; q[qo + 3] = t[7];
      } else {
        // free: the desired origin is the rest origin moved by the bone head's displacement;
        // q's position is that origin in the joint frame relative to the joint origin
        const s = this.translationScale;
        const o = 3 * i, bo = 3 * b;
        const dx = this.restLinkPos[o] + s * (W.positions[bo] - this.restBonePos[bo]);
        const dy = this.restLinkPos[o + 1] + s * (W.positions[bo + 1] - this.restBonePos[bo + 1]);
        const dz = this.restLinkPos[o + 2] + s * (W.positions[bo + 2] - this.restBonePos[bo + 2]);
        q[qo + 3] = t[4]; q[qo + 4] = t[5]; q[qo + 5] = t[6]; q[qo + 6] = t[7];
        // t[0..3] still holds the joint frame's world rotation P R_J; the offset goes to t[4..6]
        t[4] = dx - LP[o]; t[5] = dy - LP[o + 1]; t[6] = dz - LP[o + 2];
        quatRotateInverse(t, 0, t, 4, t, 4);
        q[qo] = t[4]; q[qo + 1] = t[5]; q[qo + 2] = t[6];
        LP[o] = dx; LP[o + 1] = dy; LP[o + 2] = dz;
      }
    }
    return q;
  }

  /** q at time t of a clip of this skeleton. */
  sampleQ(clip: MotionClip, t: number, q: Float64Array = new Float64Array(this.model.nq), wrap: WrapMode = clip.wrap): Float64Array {
    this.checkClip(clip);
    return this.poseToQ(clip.sample(t, this.poseA, wrap), q);
  }

  /**
   * qd at time t by central differences of q over `step` seconds (default half the clip's
   * sample interval), on each joint's manifold: spherical and free rotations give body-frame
   * angular velocities, a free joint's origin velocity is expressed in its link frame, revolute
   * angles are differenced modulo 2 pi.
   */
  sampleQd(clip: MotionClip, t: number, qd: Float64Array = new Float64Array(this.model.nv), options: { step?: number; wrap?: WrapMode } = {}): Float64Array {
    this.checkClip(clip);
    const wrap = options.wrap ?? clip.wrap;
    const [a, b] = differenceWindow(clip, t, options.step ?? clipDifferenceStep(clip), wrap);
    const dt = b - a;
    qd.fill(0);
    if (!(dt > 0)) return qd;
    const m = this.model;
    const qa = this.poseToQ(clip.sample(a, this.poseA, wrap), this.qa);
    const qb = this.poseToQ(clip.sample(b, this.poseB, wrap), this.qb);
    jointVelocityInto(m, qa, qb, [dt], 0, this.tmp, qd);
    return qd;
  }

  private checkClip(clip: MotionClip): void {
    if (clip.skeleton !== this.skeleton) throw new RangeError(`Retargeter: clip "${clip.name}" belongs to skeleton "${clip.skeleton.name}", not to "${this.skeleton.name}"`);
  }
}

/** Default map: bones whose names are joint names of the model. */
function defaultMap(model: Model, skeleton: Skeleton): Record<string, string> {
  const map: Record<string, string> = {};
  for (const b of skeleton.bones) if (model.hasJoint(b.name)) map[b.name] = b.name;
  return map;
}
