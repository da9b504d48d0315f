/**
 * Retargeting a glTF skin onto an articulated body that was not built from it (the humanoid
 * preset): every bone of the skin is assigned a link, and a constant transform per link, computed
 * once from the two rest poses, carries the skin's rest pose onto the model's neutral pose. On the
 * page a bone then follows its link: bone(t) = link(t) link(neutral)^-1 G_link bone(rest).
 *
 * G_link, for a link whose first listed bone (its primary bone) has its head at b and the link's
 * joint at j (both in the rest poses, world coordinates):
 *
 *   G = T(j) Swing Stretch (s A) T(-b)
 *
 * - A, the facing: the rotation that turns the skin's up axis (pelvis to head) and left axis (right
 *   thigh to left thigh) onto the model's; s, the size: the model's height over the skin's (its
 *   skinned vertices' extent along up).
 * - Swing, the shortest rotation that turns the skin's segment direction (after s A) onto the
 *   link's: from the joint to the one child's joint, or to the centre of mass of a leaf (hand,
 *   head) and to the centroid of the vertices its bones own. A link with several children
 *   (pelvis, thorax) keeps the facing alone, and so do the feet (flat on the floor in both poses). This is the per-bone rotation offset of retargeting
 *   between two rest poses (a T-pose or A-pose skin onto a model whose arms hang).
 * - Stretch, along the segment (limbs and spine with one child): the model's segment length over
 *   the skin's, so the skin's elbows and knees land on the model's joints. A leaf whose centroid
 *   lies farther from its joint than the link's centre of mass shrinks uniformly towards it, by at
 *   most 40 % (LEAF_SHRINK).
 *
 * The primary bone's head is then exactly at its link's joint in every pose; the other bones of a
 * link (a neck and a head bone on the head link, fingers on the hand) move rigidly with it. Bones
 * not listed take their parent's link; an unlisted root takes the model's root link.
 */
import type { Skeleton } from '@sinew/characters';
import { forwardKinematics, State, type Model } from '@sinew/featherstone';
import type { SkinBone } from '../sim/scene.js';

/** Which skin bones drive each link: link name to bone names (the first is the link's primary bone). */
export type SkinMap = Readonly<Record<string, readonly string[]>>;

export interface RetargetOptions {
  /** Height of the model in metres (the preset's `height`): the skin is scaled to it. */
  height: number;
  /** Links whose joints give the up axis, from the first to the second (default pelvis to head). */
  up?: readonly [string, string];
  /** Links whose joints give the left axis, from the first to the second (default right thigh to left thigh). */
  left?: readonly [string, string];
  /**
   * Leaves that keep the facing alone instead of swinging onto their centre of mass (default the
   * feet: they stand flat in both rest poses, and a large foot swung onto a small one's centre
   * would tip its sole through the floor).
   */
  flat?: readonly string[];
}

export interface SkinRetarget {
  /** One entry per bone of the skin: its glTF node, its link, and G of that link (column-major 4x4). */
  bones: SkinBone[];
  /** The skin's scale factor s. */
  scale: number;
  /** Link of each bone of the skeleton (index by bone). */
  boneLinks: number[];
}

/**
 * How much a leaf (hand, head) may shrink towards the size of its link: a skin's head is larger
 * than the preset's (CesiumMan's centre 0.23 m above its neck joint against the preset's 0.09 m),
 * but halving it would make a caricature of the character.
 */
const LEAF_SHRINK = 0.4;

type V3 = [number, number, number];
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: ArrayLike<number>) => Math.sqrt(dot(a, a));
const unit = (a: ArrayLike<number>): V3 => { const n = norm(a); return [a[0] / n, a[1] / n, a[2] / n]; };
/** 3x3 matrices, row-major. */
type M3 = number[];
const mul3 = (a: M3, b: M3): M3 => {
  const o = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) o[3 * r + c] += a[3 * r + k] * b[3 * k + c];
  return o;
};
const apply3 = (m: M3, v: ArrayLike<number>): V3 => [
  m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2], m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
];
/** The orthonormal frame with `up` as its second axis and `left` (made orthogonal to up) as its first, as rows. */
function frameRows(up: V3, left: V3): M3 {
  const y = unit(up);
  const x = unit(sub(left, y.map((c) => c * dot(left, y))));
  const z = cross(x, y);
  return [...x, ...y, ...z];
}
const transpose3 = (m: M3): M3 => [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
/** The shortest rotation taking unit vector a to unit vector b (Rodrigues). */
function swing(a: V3, b: V3): M3 {
  const v = cross(a, b), c = dot(a, b);
  if (c < -1 + 1e-9) {
    // opposite: half a turn about any axis orthogonal to a
    const axis = unit(Math.abs(a[0]) < 0.9 ? cross(a, [1, 0, 0]) : cross(a, [0, 1, 0]));
    return [0, 1, 2].flatMap((r) => [0, 1, 2].map((k) => 2 * axis[r] * axis[k] - (r === k ? 1 : 0)));
  }
  const k = 1 / (1 + c);
  return [
    c + k * v[0] * v[0], k * v[0] * v[1] - v[2], k * v[0] * v[2] + v[1],
    k * v[1] * v[0] + v[2], c + k * v[1] * v[1], k * v[1] * v[2] - v[0],
    k * v[2] * v[0] - v[1], k * v[2] * v[1] + v[0], c + k * v[2] * v[2],
  ];
}

/**
 * The skin's bones on the model's links (see the module comment). Throws naming the link or bone
 * when the map names a link or bone that does not exist, or a link of `up`/`left` has no bone.
 */
export function retargetSkin(skeleton: Skeleton, model: Model, map: SkinMap, options: RetargetOptions): SkinRetarget {
  const where = `retargetSkin(${skeleton.name})`;
  const nb = skeleton.bones.length;
  const boneLinks = new Array<number>(nb).fill(-1);
  const primary = new Array<number>(model.nLinks).fill(-1);
  for (const [linkName, names] of Object.entries(map)) {
    if (!model.hasLink(linkName)) throw new RangeError(`${where}: the model has no link "${linkName}"`);
    const link = model.linkIndex(linkName);
    names.forEach((name, k) => {
      const b = skeleton.indexOf(name);
      if (b < 0) throw new RangeError(`${where}: link "${linkName}": the skin has no bone "${name}"`);
      boneLinks[b] = link;
      if (k === 0) primary[link] = b;
    });
  }
  for (let b = 0; b < nb; b++) if (boneLinks[b] < 0) boneLinks[b] = skeleton.bones[b].parent >= 0 ? boneLinks[skeleton.bones[b].parent] : 0;

  // rest poses: the skin's bones in world coordinates, the model's links in its neutral pose
  const rest = skeleton.worldPose();
  const bonePos = (b: number): V3 => [rest.positions[3 * b], rest.positions[3 * b + 1], rest.positions[3 * b + 2]];
  const neutral = new State(model);
  forwardKinematics(model, neutral, false);
  const P = neutral.work.pose;
  const jointPos = (l: number): V3 => [P[12 * l + 9], P[12 * l + 10], P[12 * l + 11]];
  const comPos = (l: number): V3 => {
    const c = [model.com[3 * l], model.com[3 * l + 1], model.com[3 * l + 2]], o = 12 * l;
    return [0, 1, 2].map((r) => P[o + 3 * r] * c[0] + P[o + 3 * r + 1] * c[1] + P[o + 3 * r + 2] * c[2] + P[o + 9 + r]) as V3;
  };
  /** World rest positions of the skinned vertices the bones of each link own, flat xyz. */
  const owned: number[][] = Array.from({ length: model.nLinks }, () => []);
  for (let b = 0; b < nb; b++) {
    const v = skeleton.bones[b].vertices;
    if (!v) continue;
    const q = rest.rotations.subarray(4 * b, 4 * b + 4), p = bonePos(b);
    for (let i = 0; i < v.length; i += 3) {
      const w = rotate(q, v[i], v[i + 1], v[i + 2]);
      owned[boneLinks[b]].push(w[0] + p[0], w[1] + p[1], w[2] + p[2]);
    }
  }
  const need = (name: string): number => {
    if (!model.hasLink(name)) throw new RangeError(`${where}: the model has no link "${name}"`);
    const l = model.linkIndex(name);
    if (primary[l] < 0) throw new RangeError(`${where}: link "${name}" has no bone in the map`);
    return l;
  };
  const [u0, u1] = (options.up ?? ['pelvis', 'head']).map(need);
  const [l0, l1] = (options.left ?? ['thigh_right', 'thigh_left']).map(need);
  const flat = new Set((options.flat ?? ['foot_left', 'foot_right']).filter((n) => model.hasLink(n)).map((n) => model.linkIndex(n)));

  // the facing A and the size s
  const skinFrame = frameRows(sub(bonePos(primary[u1]), bonePos(primary[u0])), sub(bonePos(primary[l1]), bonePos(primary[l0])));
  const modelFrame = frameRows(sub(jointPos(u1), jointPos(u0)), sub(jointPos(l1), jointPos(l0)));
  const A = mul3(transpose3(modelFrame), skinFrame); // skin axes onto model axes
  const upSkin = skinFrame.slice(3, 6);
  let lo = Infinity, hi = -Infinity;
  for (const list of owned) for (let i = 0; i < list.length; i += 3) {
    const h = list[i] * upSkin[0] + list[i + 1] * upSkin[1] + list[i + 2] * upSkin[2];
    lo = Math.min(lo, h);
    hi = Math.max(hi, h);
  }
  if (!(hi > lo)) throw new RangeError(`${where}: the skin owns no vertices to measure its height`);
  if (!(options.height > 0)) throw new RangeError(`${where}: options.height must be a positive number of metres, got ${options.height}`);
  const s = options.height / (hi - lo);
  const sA = A.map((x) => s * x);

  // G per link
  const G: Float64Array[] = [];
  for (let l = 0; l < model.nLinks; l++) {
    const b = primary[l];
    if (b < 0) { G.push(Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)); continue; }
    const children = model.children[l].filter((c) => primary[c] >= 0);
    let L = sA;
    let dSkin: V3 | null = null, dModel: V3 | null = null, stretch = false, leaf = false;
    if (children.length === 1) {
      dSkin = sub(bonePos(primary[children[0]]), bonePos(b));
      dModel = sub(jointPos(children[0]), jointPos(l));
      stretch = true;
    } else if (children.length === 0 && owned[l].length > 0 && !flat.has(l)) {
      const list = owned[l], c: V3 = [0, 0, 0];
      for (let i = 0; i < list.length; i += 3) for (let k = 0; k < 3; k++) c[k] += (3 * list[i + k]) / list.length;
      dSkin = sub(c, bonePos(b));
      dModel = sub(comPos(l), jointPos(l));
      leaf = true;
    }
    if (dSkin && dModel && norm(dSkin) > 1e-6 && norm(dModel) > 1e-6) {
      const d = apply3(sA, dSkin); // the skin's segment after facing and size
      const u = unit(d);
      const sigma = stretch ? norm(dModel) / norm(d) : 1;
      // a leaf larger than its link (a skin's head) shrinks towards it, by at most LEAF_SHRINK
      const lambda = leaf ? Math.min(1, Math.max(1 - LEAF_SHRINK, norm(dModel) / norm(d))) : 1;
      const S = [0, 1, 2].flatMap((r) => [0, 1, 2].map((k) => lambda * (r === k ? 1 : 0) + (sigma - 1) * u[r] * u[k]));
      L = mul3(swing(u, unit(dModel)), mul3(S, sA));
    }
    const j = jointPos(l), Lb = apply3(L, bonePos(b));
    // column-major 4x4
    G.push(Float64Array.of(L[0], L[3], L[6], 0, L[1], L[4], L[7], 0, L[2], L[5], L[8], 0, j[0] - Lb[0], j[1] - Lb[1], j[2] - Lb[2], 1));
  }
  const bones: SkinBone[] = [];
  skeleton.bones.forEach((bone, b) => {
    if (bone.node !== undefined) bones.push({ node: bone.node, link: boneLinks[b], restToModel: G[boneLinks[b]] });
  });
  return { bones, scale: s, boneLinks };
}

/** q (x, y, z, w) applied to a vector. */
function rotate(q: ArrayLike<number>, x: number, y: number, z: number): V3 {
  const [qx, qy, qz, qw] = [q[0], q[1], q[2], q[3]];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

/** Applies a column-major 4x4 to a point. */
export function transformPoint4(m: ArrayLike<number>, p: ArrayLike<number>): V3 {
  return [
    m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
    m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
    m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
  ];
}

/**
 * CesiumMan (glTF, 19 unnamed joints, importGltf names them node_<index>; it faces +X) on the
 * humanoid preset: the pelvis and two spine bones, the neck and head on the head link, shoulder,
 * elbow and wrist of each arm, hip, knee, ankle and toe of each leg.
 */
export const CESIUM_MAN_ON_HUMANOID: SkinMap = {
  pelvis: ['node_2'], abdomen: ['node_11'], thorax: ['node_12'], head: ['node_19', 'node_20'],
  upper_arm_left: ['node_16'], forearm_left: ['node_17'], hand_left: ['node_18'],
  upper_arm_right: ['node_13'], forearm_right: ['node_14'], hand_right: ['node_15'],
  thigh_left: ['node_7'], shank_left: ['node_8'], foot_left: ['node_9', 'node_10'],
  thigh_right: ['node_3'], shank_right: ['node_4'], foot_right: ['node_5', 'node_6'],
};

/**
 * RobotExpressive (glTF, 43 named joints; it faces +Z) on the humanoid preset. Its feet hang from
 * the root bone (an inverse-kinematics rig), so they are named here; its hands have no wrist bone,
 * so the three palm bones and the thumb go to the hand; the shoulders (clavicles) stay on the thorax;
 * its trunk is one rigid piece on the Body bone, which goes with the abdomen.
 */
export const ROBOT_EXPRESSIVE_ON_HUMANOID: SkinMap = {
  pelvis: ['Hips', 'Bone'], abdomen: ['Abdomen', 'Body'], thorax: ['Torso'], head: ['Neck', 'Head'],
  upper_arm_left: ['UpperArm.L'], forearm_left: ['LowerArm.L'], hand_left: ['Palm2.L', 'Palm1.L', 'Palm3.L', 'Thumb.L'],
  upper_arm_right: ['UpperArm.R'], forearm_right: ['LowerArm.R'], hand_right: ['Palm2.R', 'Palm1.R', 'Palm3.R', 'Thumb.R'],
  thigh_left: ['UpperLeg.L'], shank_left: ['LowerLeg.L'], foot_left: ['Foot.L'],
  thigh_right: ['UpperLeg.R'], shank_right: ['LowerLeg.R'], foot_right: ['Foot.R'],
};
