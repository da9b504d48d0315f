/**
 * A death that crumples: the pose a dying body's fading muscles aim at, and the order in which
 * they let go.
 *
 * A body that loses consciousness standing does not topple like a plank: the knee and hip
 * extensors, which hold the body up against gravity, give first, so the knees and hips fold and
 * the pelvis drops almost straight down; the trunk follows, the neck holds out longest, and the
 * arms (while they still can) reach toward the side of the fall, the protective extension reflex
 * of the upper limbs (the "parachute" reaction, present from infancy on: Bobath & Bobath 1975;
 * for falling adults, hands out ahead in a forward fall and behind in a backward one: Hsiao &
 * Robinovitch 1998, J. Biomech. 31(1):1-9).
 *
 * `crumplePose` turns the body's pose at the moment of death into such targets, for any model
 * whose links are named so that motion/bone-names.ts can tell the body segments (the humanoid
 * preset, ragdolls from glTF or BVH skeletons): knees flexed, hips flexed, every spine joint a
 * little flexed, the neck flexed, elbows slightly bent, ankles and wrists neutral, and the
 * shoulders turned so that each upper arm points down and toward the fall. Directions come from the
 * pose itself: "left" runs from the right hip to the left, "up" is against gravity, "forward" is
 * left x up; flexion turns a segment toward "forward" (the shank toward "back") about the axis
 * segment x forward, which is the body's lateral axis for hanging limbs and an upright trunk, and
 * the vertical for arms held out sideways in a T-pose.
 *
 * `DEATH_TONE` is the order of letting go as a factor per joint group on the follower's tone,
 * which itself fades to the residual over the death's fade time (the neck's schedule).
 */
import { JointType, type Model, type State } from '@sinew/featherstone';
import { boneSide, segmentFromPattern } from '../motion/bone-names.js';
import { quatFromAxisAngle, quatNormalize, quatRotate, quatRotateInverse } from '../motion/quat.js';
import type { BodySegment } from '../motion/segment-mass.js';
import type { JointGroup } from './joint-groups.js';
import { projectIntoLimits } from './joint-range.js';
import { detMath } from '@sinew/featherstone';

/** One stage of letting go: after `delay` seconds the group's tone factor falls smoothly to `level` over `duration` seconds. */
export interface ToneStage {
  delay: number;
  duration: number;
  level: number;
}

/**
 * The order in which a dying body lets go, as a factor per joint group on the follower's tone
 * (which fades to the residual over the fade time): legs first (to 25 % within 0.05 s), then the
 * trunk (to 30 % from 0.1 s over 0.35 s); the arms and the neck keep the follower's tone, so the
 * arms can make their reflex and the neck lets go last.
 */
export const DEATH_TONE: Readonly<Record<JointGroup, ToneStage>> = Object.freeze({
  root: { delay: 0, duration: 0, level: 1 },
  legs: { delay: 0, duration: 0.05, level: 0.25 },
  spine: { delay: 0.1, duration: 0.35, level: 0.3 },
  arms: { delay: 0, duration: 0, level: 1 },
  head: { delay: 0, duration: 0, level: 1 },
  other: { delay: 0.1, duration: 0.35, level: 0.3 },
});

/** The pose a crumpling death aims at (angles in radians; see the module comment). */
export interface CrumpleOptions {
  /** Protective arm reflex toward the fall (default true); false lets the arms hang, elbows slightly bent. */
  armReflex?: boolean;
  /** Knee flexion (default 1.5). */
  kneeFlexion?: number;
  /** Hip flexion (default 1.0). */
  hipFlexion?: number;
  /** Flexion of each spine joint (default 0.2). */
  spineFlexion?: number;
  /** Flexion of each neck or head joint (default 0.3). */
  neckFlexion?: number;
  /** Elbow flexion (default 0.4). */
  elbowFlexion?: number;
  /** Angle of the upper arms from hanging toward the fall: forward falls (default 1.3) and backward ones (default 0.7); sideways in between. */
  reachForward?: number;
  reachBackward?: number;
}

type Vec3 = [number, number, number];

/** The joint role of each link from its segment: hip, knee, ankle, shoulder, elbow, wrist, spine, neck, or null. */
function role(model: Model, link: number): BodySegment | null {
  if (model.parent[link] < 0) return null;
  return segmentFromPattern(model.linkNames[link]) ?? segmentFromPattern(model.jointNames[link]) ?? null;
}

const cross = (a: ArrayLike<number>, b: ArrayLike<number>): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
function unit(a: Vec3): Vec3 | null {
  const n = detMath.hypot(a[0], a[1], a[2]);
  return n > 1e-9 && Number.isFinite(n) ? [a[0] / n, a[1] / n, a[2] / n] : null;
}

/** World rotation (row-major, world-from-link) of link i applied to v. */
function toWorld(pose: ArrayLike<number>, i: number, v: ArrayLike<number>): Vec3 {
  const o = 12 * i;
  return [pose[o] * v[0] + pose[o + 1] * v[1] + pose[o + 2] * v[2], pose[o + 3] * v[0] + pose[o + 4] * v[1] + pose[o + 5] * v[2], pose[o + 6] * v[0] + pose[o + 7] * v[1] + pose[o + 8] * v[2]];
}

/** v (world) in link i's frame. */
function toLink(pose: ArrayLike<number>, i: number, v: ArrayLike<number>): Vec3 {
  const o = 12 * i;
  return [pose[o] * v[0] + pose[o + 3] * v[1] + pose[o + 6] * v[2], pose[o + 1] * v[0] + pose[o + 4] * v[1] + pose[o + 7] * v[2], pose[o + 2] * v[0] + pose[o + 5] * v[1] + pose[o + 8] * v[2]];
}

/** The joint's own rotation Q(q) (link frame -> joint frame) as a quaternion. */
function jointQuat(model: Model, q: ArrayLike<number>, i: number, out: Float64Array): boolean {
  const qo = model.qOffset[i];
  if (model.jointType[i] === JointType.spherical) {
    out[0] = q[qo]; out[1] = q[qo + 1]; out[2] = q[qo + 2]; out[3] = q[qo + 3];
    return true;
  }
  if (model.jointType[i] === JointType.revolute) {
    quatFromAxisAngle(model.axis[3 * i], model.axis[3 * i + 1], model.axis[3 * i + 2], q[qo], out, 0);
    return true;
  }
  return false;
}

/**
 * The direction of link i's bone in its own frame: toward its first child's joint, else toward its
 * centre of mass; null for a link with neither.
 */
function boneDirection(model: Model, i: number): Vec3 | null {
  const kids = model.children[i];
  if (kids.length > 0) {
    let best: Vec3 | null = null, bestLen = 0;
    for (const k of kids) {
      const r: Vec3 = [model.treeX[12 * k + 9], model.treeX[12 * k + 10], model.treeX[12 * k + 11]];
      const l = detMath.hypot(r[0], r[1], r[2]);
      if (l > bestLen) { bestLen = l; best = r; }
    }
    if (best) return unit(best);
  }
  return unit([model.com[3 * i], model.com[3 * i + 1], model.com[3 * i + 2]]);
}

/**
 * The horizontal direction a body is falling in, from its state (forward kinematics with
 * velocities done): the velocity of the upper trunk's centre of mass relative to the slower foot
 * (the one bearing weight), else the lean of the upper trunk over the feet, else null. Unit vector
 * in the plane normal to gravity.
 */
export function fallDirection(model: Model, state: State): [number, number, number] | null {
  const pose = state.work.pose, v = state.work.v;
  const g = model.gravity, gn = detMath.hypot(g[0], g[1], g[2]);
  const up: Vec3 = gn > 0 ? [-g[0] / gn, -g[1] / gn, -g[2] / gn] : [0, 1, 0];
  let trunk = -1, trunkRank = -1;
  const feet: number[] = [];
  const rank: Partial<Record<BodySegment, number>> = { lowerTrunk: 0, middleTrunk: 1, upperTrunk: 2 };
  for (let i = 0; i < model.nLinks; i++) {
    const seg = model.parent[i] < 0 ? (segmentFromPattern(model.linkNames[i]) ?? 'lowerTrunk') : role(model, i);
    if (seg && rank[seg] !== undefined && rank[seg]! > trunkRank) { trunk = i; trunkRank = rank[seg]!; }
    if (seg === 'foot' && (model.parent[i] < 0 || role(model, model.parent[i]) !== 'foot')) feet.push(i);
  }
  if (trunk < 0) trunk = 0;
  const pointVel = (i: number, local: ArrayLike<number>): Vec3 => {
    // world velocity of a point: R (v_o + w x r), the link's spatial velocity in link coordinates
    const o = 6 * i;
    const w = [v[o], v[o + 1], v[o + 2]], c = cross(w, local);
    return toWorld(pose, i, [v[o + 3] + c[0], v[o + 4] + c[1], v[o + 5] + c[2]]);
  };
  const pointPos = (i: number, local: ArrayLike<number>): Vec3 => {
    const r = toWorld(pose, i, local);
    return [r[0] + pose[12 * i + 9], r[1] + pose[12 * i + 10], r[2] + pose[12 * i + 11]];
  };
  const com = (i: number) => model.com.subarray(3 * i, 3 * i + 3);
  const horizontal = (a: Vec3): Vec3 => { const s = dot(a, up); return [a[0] - s * up[0], a[1] - s * up[1], a[2] - s * up[2]]; };
  let vt = pointVel(trunk, com(trunk));
  let support: Vec3 = [0, 0, 0], supportPos: Vec3 | null = null;
  if (feet.length > 0) {
    let slowest = Infinity;
    for (const f of feet) {
      const vf = pointVel(f, com(f)), s = dot(horizontal(vf), horizontal(vf));
      if (s < slowest) { slowest = s; support = vf; supportPos = pointPos(f, com(f)); }
    }
  }
  vt = horizontal([vt[0] - support[0], vt[1] - support[1], vt[2] - support[2]]);
  if (dot(vt, vt) > 0.04) return unit(vt);
  if (supportPos) {
    const p = pointPos(trunk, com(trunk));
    const lean = horizontal([p[0] - supportPos[0], p[1] - supportPos[1], p[2] - supportPos[2]]);
    if (dot(lean, lean) > 1e-4) return unit(lean);
  }
  return null;
}

/**
 * The body's left and forward directions (world, unit, normal to gravity) from its pose (forward
 * kinematics done): left from the right hip's joint to the left's (the thighs' origins; else the
 * root's x axis), forward = left x up.
 */
function bodyAxes(model: Model, state: State): { left: Vec3; forward: Vec3 } {
  const pose = state.work.pose, g = model.gravity, gn = detMath.hypot(g[0], g[1], g[2]);
  const upW: Vec3 = gn > 0 ? [-g[0] / gn, -g[1] / gn, -g[2] / gn] : [0, 1, 0];
  const roles = Array.from({ length: model.nLinks }, (_, i) => role(model, i));
  const origin = (i: number): Vec3 => [pose[12 * i + 9], pose[12 * i + 10], pose[12 * i + 11]];
  let left: Vec3 | null = null;
  const hips = roles.map((r, i) => (r === 'thigh' && roles[model.parent[i]] !== 'thigh' ? i : -1)).filter((i) => i >= 0);
  const lh = hips.find((i) => boneSide(model.linkNames[i]) === 'left' || boneSide(model.jointNames[i]) === 'left');
  const rh = hips.find((i) => boneSide(model.linkNames[i]) === 'right' || boneSide(model.jointNames[i]) === 'right');
  if (lh !== undefined && rh !== undefined) {
    const a = origin(lh), b = origin(rh);
    left = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  }
  if (!left) left = toWorld(pose, 0, [1, 0, 0]);
  const s = dot(left, upW);
  const l = unit([left[0] - s * upW[0], left[1] - s * upW[1], left[2] - s * upW[2]]) ?? [1, 0, 0];
  return { left: l, forward: unit(cross(l, upW)) ?? [0, 0, 1] };
}

/** The body's forward direction (world, horizontal, unit) from its pose: (left x up), left from the right hip to the left. */
export function bodyForward(model: Model, state: State): [number, number, number] {
  return bodyAxes(model, state).forward;
}

/**
 * Targets for a crumpling death (see the module comment) from the body's pose at death: `state`
 * with forward kinematics done; `fall` the horizontal direction of the fall (fallDirection), or
 * null for "forward". The root keeps its q; every joint of an unnamed segment keeps its q; the
 * result is projected into the joint limits.
 */
export function crumplePose(model: Model, state: State, fall: ArrayLike<number> | null, options: CrumpleOptions = {}): Float64Array {
  const q = state.q, pose = state.work.pose;
  const out = Float64Array.from(q);
  const knee = options.kneeFlexion ?? 1.5, hip = options.hipFlexion ?? 1.0, spine = options.spineFlexion ?? 0.2;
  const neck = options.neckFlexion ?? 0.3, elbow = options.elbowFlexion ?? 0.4;
  const reachF = options.reachForward ?? 1.3, reachB = options.reachBackward ?? 0.7;
  const reflex = options.armReflex ?? true;
  for (const [k, v] of Object.entries({ knee, hip, spine, neck, elbow, reachF, reachB })) {
    if (!Number.isFinite(v)) throw new RangeError(`crumplePose: ${k} angle ${v} is not finite`);
  }
  const g = model.gravity, gn = detMath.hypot(g[0], g[1], g[2]);
  const upW: Vec3 = gn > 0 ? [-g[0] / gn, -g[1] / gn, -g[2] / gn] : [0, 1, 0];

  const roles = Array.from({ length: model.nLinks }, (_, i) => role(model, i));
  const { left, forward } = bodyAxes(model, state);
  let fallW: Vec3 = forward;
  if (fall) {
    const f = unit([fall[0], fall[1], fall[2]]);
    if (f) fallW = f;
  }

  const Q = new Float64Array(4), T = new Float64Array(4);
  // the joint frame's rotation in the world applied to v: R_jf v = R_link (Q^-1 v), as the link is the joint frame turned by Q
  const jointToWorld = (i: number, v: ArrayLike<number>): Vec3 => {
    const w = new Float64Array(3);
    quatRotateInverse(Q, 0, v, 0, w, 0);
    return toWorld(pose, i, w);
  };
  const worldToJoint = (i: number, v: ArrayLike<number>): Vec3 => {
    const w = new Float64Array(3);
    quatRotate(Q, 0, toLink(pose, i, v), 0, w, 0);
    return [w[0], w[1], w[2]];
  };

  for (let i = 0; i < model.nLinks; i++) {
    const r = roles[i];
    if (r === null || !jointQuat(model, q, i, Q)) continue;
    const dirL = boneDirection(model, i);
    if (!dirL) continue;
    // the bone's direction at the joint's neutral (q = 0 or identity), in the world
    const dir = jointToWorld(i, dirL);
    let angle = 0, toward: Vec3 | null = null;
    switch (r) {
      case 'thigh': angle = hip; toward = forward; break;
      case 'shank': angle = knee; toward = [-forward[0], -forward[1], -forward[2]]; break;
      case 'lowerTrunk': case 'middleTrunk': case 'upperTrunk': angle = spine; toward = forward; break;
      case 'head': angle = neck; toward = forward; break;
      case 'forearm': angle = elbow; toward = forward; break;
      case 'foot': case 'hand': angle = 0; break;
      case 'upperArm': {
        if (roles[model.parent[i]] === 'upperArm') { angle = 0; break; }
        // the upper arm hangs, or reaches toward the fall
        const along = reflex ? dot(fallW, forward) : 0;
        const reach = reflex ? (along >= 0 ? reachB + (reachF - reachB) * along : reachB) : 0.15;
        const side = reflex ? fallW : forward;
        const c = detMath.cos(reach), sn = detMath.sin(reach);
        const want = worldToJoint(i, [-upW[0] * c + side[0] * sn, -upW[1] * c + side[1] * sn, -upW[2] * c + side[2] * sn]);
        // shortest arc from the rest direction to the wanted one, in the joint frame
        const axis = cross(dirL, want), cosA = dot(dirL, want);
        const a = unit(axis);
        if (model.jointType[i] === JointType.spherical) {
          if (a) quatFromAxisAngle(a[0], a[1], a[2], detMath.atan2(detMath.hypot(axis[0], axis[1], axis[2]), cosA), out, model.qOffset[i]);
          else { out[model.qOffset[i]] = 0; out[model.qOffset[i] + 1] = 0; out[model.qOffset[i] + 2] = 0; out[model.qOffset[i] + 3] = 1; }
        }
        continue;
      }
    }
    const qo = model.qOffset[i];
    if (angle === 0 || !toward) {
      if (model.jointType[i] === JointType.spherical) { out[qo] = 0; out[qo + 1] = 0; out[qo + 2] = 0; out[qo + 3] = 1; }
      else out[qo] = Math.min(model.upper[model.vOffset[i]], Math.max(model.lower[model.vOffset[i]], 0));
      continue;
    }
    // flexion: turn the bone toward `toward` about dir x toward (world), expressed in the joint frame
    let axisW = unit(cross(dir, toward));
    if (!axisW) axisW = dot(dir, upW) > 0 ? left : [-left[0], -left[1], -left[2]];
    if (model.jointType[i] === JointType.revolute) {
      const a = jointToWorld(i, model.axis.subarray(3 * i, 3 * i + 3));
      out[qo] = Math.sign(dot(a, axisW)) * angle;
    } else {
      const a = worldToJoint(i, axisW);
      quatFromAxisAngle(a[0], a[1], a[2], angle, T, 0);
      out.set(T, qo);
      quatNormalize(out, qo);
    }
  }
  projectIntoLimits(model, out);
  return out;
}
