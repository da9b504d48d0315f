/**
 * Rest-pose alignment for retargeting. The Retargeter (motion/retarget.ts) gives each mapped link
 * the same world-space change as its bone, D_i = B_b(t) (B_b^0)^-1 L_i^0, which is right only when
 * the skeleton's rest pose and the model's neutral pose look the same. Mocap skeletons rest in a
 * T-pose (CMU: arms straight out, legs spread about 20 degrees), while the humanoid preset stands
 * with arms hanging and legs straight. Without alignment a walking arm (hanging, rotated about 90
 * degrees from the T-pose) would be turned 90 degrees away from the preset's hanging arm.
 *
 * alignSkeletonRest builds a copy of the skeleton whose rest pose is the model's neutral pose as
 * far as bone directions go: each mapped bone's rest world rotation W_b is replaced by C_b W_b,
 * C_b being the shortest rotation that turns the bone's rest direction onto its link's neutral
 * direction. Directions: to the mean head of the nearest mapped descendant bones, matched with the
 * mean origin of their links (a limb: the next joint down the chain; the chest: shoulders and
 * neck). A mapped bone with no mapped descendant (hand, foot, head) takes the correction of its
 * parent: it keeps its rest pose relative to the limb it ends. This matters for feet: CMU's rest
 * pose spreads each leg 20 degrees, foot included, so a foot flat on the floor in the clip is
 * rolled 20 degrees from its rest rotation, and un-spreading the leg must un-roll the foot with it.
 * The root keeps its rest rotation (both must face the same way; Y up). Offsets are kept, so the
 * aligned rest pose has the skeleton's own bone lengths.
 *
 * A T-pose says nothing about which way an elbow bends. With `hingeClip`, a limb whose link carries
 * a hinge (the upper arm above the elbow, the thigh above the knee) is also turned about its own
 * direction, together with the hinge bone, so that the mean rotation axis of the hinge bone over the
 * clip lands on the model's hinge axis (CMU 02_01: the elbows need about 30 degrees; without it the
 * forearms of the preset point up to 29 degrees away from the actor's).
 *
 * A clip's samples hold absolute local rotations, so they mean the same motion on the aligned
 * skeleton: clipOnSkeleton re-attaches the samples to it.
 */
import { forwardKinematics, State, type Model } from '@sinew/featherstone';
import { MotionClip } from '../motion/clip.js';
import { quatConjMultiply, quatFromAxisAngle, quatMultiply, quatNormalize, quatRotate, quatToRotationVector } from '../motion/quat.js';
import { Skeleton, type BoneDesc } from '../motion/skeleton.js';
import { detMath } from '@sinew/featherstone';

/** Bone name -> joint name (or several joints, parent to child, sharing one bone), as the Retargeter takes it. */
export type BoneMap = Readonly<Record<string, string | readonly string[]>>;

/** A skeleton whose rest pose is aligned to a model's neutral pose, with each bone's correction. */
export interface RestAlignment {
  /** The skeleton with its rest pose aligned to the model's neutral pose (same bones, offsets and order). */
  skeleton: Skeleton;
  /** World-space correction C_b per bone (4 per bone; identity for the root and unmapped bones with no mapped ancestor). */
  corrections: Float64Array;
  /** Angle of each bone's correction in radians (0 where none), for reports. */
  angles: Float64Array;
}

/** Options of the rest alignment: root position, bones to keep as they are, and the clip of hinges. */
export interface RestAlignmentOptions {
  /** Root bone position of the aligned skeleton's rest pose (default: the skeleton's own root offset). */
  rootOffset?: ArrayLike<number>;
  /** Bones whose rest rotation is kept as it is (no correction of their own). */
  keep?: readonly string[];
  /**
   * A clip of the skeleton to read hinge axes from. A limb bone whose model link carries a hinge
   * (revolute) child is then also turned about its own direction, with the hinge bone, so that the
   * mean axis of the hinge bone's rotation relative to the limb over the clip lands on the model's
   * hinge axis (mocap skeletons' T-pose frames say nothing about which way an elbow bends).
   */
  hingeClip?: MotionClip;
}

/** First joint of a map entry. */
function firstJoint(j: string | readonly string[]): string {
  return typeof j === 'string' ? j : j[0];
}

/** Shortest rotation taking unit vector a to unit vector b, written to out[oo..oo+3]. */
function shortestArc(a: ArrayLike<number>, b: ArrayLike<number>, out: Float64Array, oo: number): void {
  const d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  let x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  let w = 1 + d;
  if (w < 1e-9) {
    // opposite: a half turn about any axis perpendicular to a
    const e = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    x = a[1] * e[2] - a[2] * e[1]; y = a[2] * e[0] - a[0] * e[2]; z = a[0] * e[1] - a[1] * e[0];
    w = 0;
  }
  out[oo] = x; out[oo + 1] = y; out[oo + 2] = z; out[oo + 3] = w;
  quatNormalize(out, oo);
}

function normalize3(v: number[]): number[] | null {
  const n = detMath.hypot(v[0], v[1], v[2]);
  return n > 1e-9 ? [v[0] / n, v[1] / n, v[2] / n] : null;
}

/**
 * A copy of `skeleton` whose rest pose matches the model's neutral pose (see the module comment).
 * `map` is the Retargeter's bone map.
 */
export function alignSkeletonRest(skeleton: Skeleton, model: Model, map: BoneMap, options: RestAlignmentOptions = {}): RestAlignment {
  const nb = skeleton.boneCount;
  const linkOfBone = new Int32Array(nb).fill(-1);
  for (const [bone, joints] of Object.entries(map)) {
    const b = skeleton.indexOf(bone);
    if (b < 0) throw new RangeError(`alignSkeletonRest: map names bone "${bone}", which skeleton "${skeleton.name}" does not have`);
    linkOfBone[b] = model.joint(firstJoint(joints)).link;
  }
  const keep = new Set(options.keep ?? []);
  const rest = skeleton.worldPose();
  const neutral = new State(model);
  forwardKinematics(model, neutral, false);
  const P = neutral.work.pose;
  const origin = (i: number) => [P[12 * i + 9], P[12 * i + 10], P[12 * i + 11]];
  const head = (b: number) => [rest.positions[3 * b], rest.positions[3 * b + 1], rest.positions[3 * b + 2]];

  // nearest mapped descendants of each bone
  const nearestMapped = (b: number): number[] => {
    const out: number[] = [];
    const walk = (c: number) => {
      for (const k of skeleton.children[c]) {
        if (linkOfBone[k] >= 0) out.push(k);
        else walk(k);
      }
    };
    walk(b);
    return out;
  };
  const C = new Float64Array(4 * nb);
  const angles = new Float64Array(nb);
  const inherit = new Uint8Array(nb);
  for (let b = 0; b < nb; b++) C[4 * b + 3] = 1;
  for (let b = 1; b < nb; b++) {
    const i = linkOfBone[b];
    if (i < 0 || keep.has(skeleton.bones[b].name)) continue;
    const kids = nearestMapped(b);
    if (kids.length === 0) { inherit[b] = 1; continue; }
    const hs = [0, 0, 0], om = [0, 0, 0];
    for (const k of kids) {
      const hk = head(k), ok = origin(linkOfBone[k]);
      for (let c = 0; c < 3; c++) { hs[c] += hk[c] / kids.length; om[c] += ok[c] / kids.length; }
    }
    const hb = head(b), ob = origin(i);
    const ds = normalize3([hs[0] - hb[0], hs[1] - hb[1], hs[2] - hb[2]]);
    const dm = normalize3([om[0] - ob[0], om[1] - ob[1], om[2] - ob[2]]);
    if (!ds || !dm) continue;
    shortestArc(ds, dm, C, 4 * b);
    angles[b] = 2 * detMath.atan2(detMath.hypot(C[4 * b], C[4 * b + 1], C[4 * b + 2]), Math.abs(C[4 * b + 3]));
  }
  if (options.hingeClip) alignHinges(skeleton, model, linkOfBone, rest.rotations, options.hingeClip, C, angles, keep);
  // end bones (hand, foot, head) and unmapped bones take their parent's correction
  for (let b = 1; b < nb; b++) {
    if (linkOfBone[b] >= 0 && !inherit[b]) continue;
    const p = skeleton.bones[b].parent;
    C.copyWithin(4 * b, 4 * p, 4 * p + 4);
    if (linkOfBone[b] >= 0) angles[b] = angles[p] > 0 ? 2 * detMath.atan2(detMath.hypot(C[4 * b], C[4 * b + 1], C[4 * b + 2]), Math.abs(C[4 * b + 3])) : 0;
  }

  // new world rest rotations W'_b = C_b W_b; local rest r'_b = W'_parent^-1 W'_b
  const Wn = new Float64Array(4 * nb);
  for (let b = 0; b < nb; b++) quatMultiply(C, 4 * b, rest.rotations, 4 * b, Wn, 4 * b);
  const local = new Float64Array(4);
  const bones: BoneDesc[] = skeleton.bones.map((bone) => {
    if (bone.parent < 0) local.set(Wn.subarray(0, 4));
    else quatConjMultiply(Wn, 4 * bone.parent, Wn, 4 * bone.index, local, 0);
    quatNormalize(local, 0);
    const offset = bone.parent < 0 && options.rootOffset ? Array.from(options.rootOffset).slice(0, 3) : Array.from(bone.offset);
    const desc: BoneDesc = { name: bone.name, parent: bone.parent, offset, rotation: Array.from(local), endSites: bone.endSites.map((e) => Array.from(e)) };
    if (bone.node !== undefined) desc.node = bone.node;
    if (bone.inverseBind) desc.inverseBind = bone.inverseBind;
    if (bone.vertices) desc.vertices = bone.vertices;
    return desc;
  });
  return { skeleton: new Skeleton(`${skeleton.name} (aligned to ${model.linkNames[0]} model)`, bones), corrections: C, angles };
}

/** The same samples (times, local rotations and translations) on another skeleton with the same bones in the same order. */
export function clipOnSkeleton(clip: MotionClip, skeleton: Skeleton, options: { wrap?: MotionClip['wrap']; name?: string } = {}): MotionClip {
  if (skeleton.boneCount !== clip.boneCount) throw new RangeError(`clipOnSkeleton: clip "${clip.name}" has ${clip.boneCount} bones, skeleton "${skeleton.name}" ${skeleton.boneCount}`);
  for (let b = 0; b < skeleton.boneCount; b++) {
    if (skeleton.bones[b].name !== clip.skeleton.bones[b].name) throw new RangeError(`clipOnSkeleton: bone ${b} is "${clip.skeleton.bones[b].name}" in the clip, "${skeleton.bones[b].name}" in the skeleton`);
  }
  return new MotionClip({
    name: options.name ?? clip.name,
    skeleton,
    times: clip.times,
    rotations: clip.rotations,
    translations: clip.translations,
    wrap: options.wrap ?? clip.wrap,
  });
}

/**
 * Twists the corrections of (limb, hinge) bone pairs about the limb's aligned direction so that
 * the clip's mean hinge axis maps onto the model's (see RestAlignmentOptions.hingeClip). The
 * relative rotation of the hinge bone in world rest terms is s(t) = W_U0 B_U(t)^-1 B_F(t) W_F0^-1
 * (identity at rest); with a common correction C on both bones the model sees C s(t) C^-1, a
 * rotation about C a when s(t) turns about a.
 */
function alignHinges(skeleton: Skeleton, model: Model, linkOfBone: Int32Array, restRot: Float64Array, clip: MotionClip, C: Float64Array, angles: Float64Array, keep: Set<string>): void {
  if (clip.skeleton.boneCount !== skeleton.boneCount) throw new RangeError(`alignSkeletonRest: hingeClip "${clip.name}" is not a clip of skeleton "${skeleton.name}"`);
  const neutral = new State(model);
  forwardKinematics(model, neutral, false);
  const P = neutral.work.pose;
  const pose = clip.createPose();
  const W = { rotations: new Float64Array(4 * skeleton.boneCount), positions: new Float64Array(3 * skeleton.boneCount) };
  const t = new Float64Array(8), rv = new Float64Array(3);
  for (let f = 0; f < skeleton.boneCount; f++) {
    const j = linkOfBone[f];
    if (j < 0 || model.jointType[j] !== 1 /* revolute */ || keep.has(skeleton.bones[f].name)) continue;
    const ui = model.parent[j];
    let u = skeleton.bones[f].parent;
    while (u >= 0 && linkOfBone[u] < 0) u = skeleton.bones[u].parent;
    if (u < 0 || linkOfBone[u] !== ui || model.jointType[ui] === 4 /* free */ || keep.has(skeleton.bones[u].name)) continue;
    // mean rotation axis of s(t) over the clip (angle-weighted, sign-aligned)
    const a = [0, 0, 0];
    for (let k = 0; k < clip.frameCount; k++) {
      skeleton.worldPose(clip.frame(k, pose), W);
      quatConjMultiply(W.rotations, 4 * u, W.rotations, 4 * f, t, 0); // B_U^-1 B_F
      quatMultiply(restRot, 4 * u, t, 0, t, 4); // W_U0 B_U^-1 B_F
      t[0] = -restRot[4 * f]; t[1] = -restRot[4 * f + 1]; t[2] = -restRot[4 * f + 2]; t[3] = restRot[4 * f + 3];
      quatMultiply(t, 4, t, 0, t, 0); // s = (...) W_F0^-1
      quatToRotationVector(t, 0, rv, 0);
      const sign = a[0] * rv[0] + a[1] * rv[1] + a[2] * rv[2] < 0 ? -1 : 1;
      a[0] += sign * rv[0]; a[1] += sign * rv[1]; a[2] += sign * rv[2];
    }
    const an = detMath.hypot(a[0], a[1], a[2]);
    if (!(an > 1e-6)) continue;
    // the model's hinge axis in the world at q = 0, and the limb's aligned direction
    const ax = model.axis, o = 12 * j;
    const e = [0, 1, 2].map((r) => P[o + 3 * r] * ax[3 * j] + P[o + 3 * r + 1] * ax[3 * j + 1] + P[o + 3 * r + 2] * ax[3 * j + 2]);
    const d = normalize3([P[o + 9] - P[12 * ui + 9], P[o + 10] - P[12 * ui + 10], P[o + 11] - P[12 * ui + 11]]);
    if (!d) continue;
    const a1 = [0, 0, 0];
    quatRotate(C, 4 * u, [a[0] / an, a[1] / an, a[2] / an], 0, a1, 0);
    const proj = (v: number[]) => { const k = v[0] * d[0] + v[1] * d[1] + v[2] * d[2]; return normalize3([v[0] - k * d[0], v[1] - k * d[1], v[2] - k * d[2]]); };
    const pa = proj(a1), pe = proj(e);
    if (!pa || !pe) continue;
    const cx = pa[1] * pe[2] - pa[2] * pe[1], cy = pa[2] * pe[0] - pa[0] * pe[2], cz = pa[0] * pe[1] - pa[1] * pe[0];
    const phi = detMath.atan2(cx * d[0] + cy * d[1] + cz * d[2], pa[0] * pe[0] + pa[1] * pe[1] + pa[2] * pe[2]);
    quatFromAxisAngle(d[0], d[1], d[2], phi, t, 0);
    quatMultiply(t, 0, C, 4 * u, C, 4 * u);
    C.copyWithin(4 * f, 4 * u, 4 * u + 4);
    for (const b of [u, f]) angles[b] = 2 * detMath.atan2(detMath.hypot(C[4 * b], C[4 * b + 1], C[4 * b + 2]), Math.abs(C[4 * b + 3]));
  }
}
