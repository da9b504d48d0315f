/**
 * Get-up: a ragdoll lying at rest, face up or face down, stands up through a sequence of key
 * poses, physically: its joints are driven toward the poses by a MotionFollower (bounded drive
 * rows solved with the contacts and the joint limits in one LCP), so hands, knees and feet push
 * against the ground, and the root is helped along the path by a bounded assist force and torque
 * (the way game engines make a powered ragdoll get up: the root partially driven toward the
 * animation by a limited force, while the limbs stay physical), faded out once the body stands.
 *
 * Which side it lies on comes from the pelvis's and thorax's forward axes (link +Z of the humanoid
 * preset): pointing up on average is face up. The heading comes from the direction from the pelvis
 * to the thorax along the floor (the head's side): lying face down the character stands up facing
 * that way; face up it sits up facing its feet.
 *
 * The key poses (FACE_DOWN_KEYS, FACE_UP_KEYS) are authored here, by hand, for the humanoid
 * preset's joints (presets/humanoid.ts); no motion data went into them. Their sequence follows the
 * components of rising from the floor described by VanSant (1988, "Rising from a supine position
 * to erect stance: description of adult movement and a developmental hypothesis", Phys. Ther.
 * 68(2):185-192): the arms push, the trunk comes up, the legs gather under the body and rise out of
 * a squat. Face down: push up onto hands and knees, lift the hips onto hands and feet, roll up over
 * the feet to standing. Face up: sit up, tuck the feet in under the knees, lean forward over them
 * into a crouch and stand. The angles keep inside the preset's ranges of motion (AAOS: its hip cone
 * allows 75 degrees of flexion, its ankle 35 of dorsiflexion), which is why the crouches lean the
 * pelvis forward rather than flex the hips further, and the supporting elbows stay bent (0.25-0.3
 * rad) rather than locked against their stops. Heights are not authored: each key's pelvis is set
 * so that its lowest shape point touches the floor, and each key's horizontal place so that its
 * anchor (the feet or the knees) stays where the previous key had it, so the supports do not slide.
 *
 * The root assist is a PD force and torque at the pelvis toward the path's root (critically damped
 * for the whole body's mass and a standing body's moment of inertia, settle time 0.3 s), each
 * bounded in magnitude (default half the body weight, and half the body weight times 1 m), with the
 * path's place on the floor shifted by however far the current anchors have slipped from where the
 * path put them. It fades to nothing over 0.3 s once the last key is reached: the body then stands
 * on its own joints and feet. Without it the preset's muscles (DEFAULT_MAX_TORQUES, and its 75
 * degree hips) do not lift the body off the floor along these keys.
 *
 * The first key is the ragdoll's own pose at the start, and the path between keys is the quintic
 * smootherstep (6u^5 - 15u^4 + 10u^3: zero velocity and acceleration at each key), so the targets
 * start at the body's pose with zero velocity and zero acceleration: the hand-over from the
 * ragdoll at rest does not pop.
 */
import { forwardKinematics, JointType, State, type Model } from '@sinew/featherstone';
import type { Body, World } from '@sinew/constraints';
import { detMath } from '@sinew/featherstone';
import { quatFromAxisAngle, quatMultiply, quatNormalize, quatRotate, quatRotateInverse, quatSlerp, quatToRotationVector, quatConjMultiply, quatTurnInto } from '../motion/quat.js';
import { JointTrajectory } from './joint-trajectory.js';
import { MotionFollower } from './motion-follower.js';
import { projectIntoLimits } from './joint-range.js';
import { lowestShapePoint } from './shape-bounds.js';
import type { JointGroup, PerGroup } from './joint-groups.js';

/** 'GUS1' read as a little-endian 32-bit number: the first number of a GetUp snapshot. */
const GETUP_MAGIC = 0x31535547;
/** Numbers before a get-up snapshot's follower snapshot. */
const GETUP_HEAD = 10;

/** Which way a body lies: 'faceUp' (supine) or 'faceDown' (prone). */
export type LyingSide = 'faceUp' | 'faceDown';

/**
 * One authored key pose of a get-up, in the character's own sagittal terms (radians; left, right
 * pairs). Flexion is positive: trunk, neck, hip and shoulder flexion bring the segment forward,
 * knee and elbow flexion fold the hinge, ankle dorsiflexion lifts the toes (negative: plantar
 * flexion). `pitch` leans the pelvis forward from upright (pi/2: lying face down, -pi/2: face up).
 */
export interface GetUpKey {
  /** What the pose is (for figures and debugging). */
  name: string;
  /** Seconds from the start of the get-up at which the pose is reached. */
  at: number;
  pitch: number;
  /** Flexion of each of the two spine joints (lumbar, thoracic). */
  spine: number;
  neck: number;
  hip: readonly [number, number];
  knee: readonly [number, number];
  ankle: readonly [number, number];
  shoulder: readonly [number, number];
  /** Shoulder abduction (the arms out to the sides), default 0. */
  shoulderAbduction?: number;
  elbow: readonly [number, number];
  /** What stays where the previous key had it, fixing the pose's place on the floor: the ankles or the knees. */
  anchor: 'feet' | 'knees';
}

/** Face down: hands and knees, hands and feet with the hips high, roll up over the feet, stand (see the module comment). */
export const FACE_DOWN_KEYS: readonly GetUpKey[] = Object.freeze([
  { name: 'hands and knees', at: 0.7, pitch: 1.25, spine: 0.1, neck: -0.5, hip: [1.25, 1.25], knee: [1.6, 1.6], ankle: [-0.6, -0.6], shoulder: [1.45, 1.45], elbow: [0.3, 0.3], anchor: 'knees' },
  { name: 'hands and feet', at: 1.4, pitch: 1.35, spine: 0.3, neck: -0.3, hip: [1.3, 1.3], knee: [0.45, 0.45], ankle: [0.55, 0.55], shoulder: [1.9, 1.9], elbow: [0.25, 0.25], anchor: 'feet' },
  { name: 'rise', at: 2.0, pitch: 0.6, spine: 0.25, neck: 0, hip: [0.65, 0.65], knee: [0.35, 0.35], ankle: [0.3, 0.3], shoulder: [0.6, 0.6], elbow: [0.2, 0.2], anchor: 'feet' },
  { name: 'stand', at: 2.5, pitch: 0.05, spine: 0, neck: 0, hip: [0, 0], knee: [0, 0], ankle: [0.05, 0.05], shoulder: [0, 0], elbow: [0.1, 0.1], anchor: 'feet' },
] satisfies GetUpKey[]);

/** Face up: sit up, feet tucked in under the knees, crouch over the feet, stand (see the module comment). */
export const FACE_UP_KEYS: readonly GetUpKey[] = Object.freeze([
  { name: 'sit up', at: 0.6, pitch: -0.35, spine: 0.35, neck: 0.3, hip: [1.2, 1.2], knee: [0.2, 0.2], ankle: [0, 0], shoulder: [0.9, 0.9], elbow: [0.3, 0.3], anchor: 'feet' },
  { name: 'feet tucked', at: 1.2, pitch: -0.1, spine: 0.45, neck: 0.3, hip: [1.3, 1.3], knee: [2.0, 2.0], ankle: [0.6, 0.6], shoulder: [1.2, 1.2], elbow: [0.2, 0.2], anchor: 'feet' },
  { name: 'crouch', at: 1.9, pitch: 0.45, spine: 0.4, neck: 0, hip: [1.3, 1.3], knee: [1.45, 1.45], ankle: [0.6, 0.6], shoulder: [1.2, 1.2], elbow: [0.2, 0.2], anchor: 'feet' },
  { name: 'stand', at: 2.5, pitch: 0.05, spine: 0, neck: 0, hip: [0, 0], knee: [0, 0], ankle: [0.05, 0.05], shoulder: [0, 0], elbow: [0.1, 0.1], anchor: 'feet' },
] satisfies GetUpKey[]);

/** Options of a GetUp: the side (else detected), timing, the final pose, the root assist and the drives. */
export interface GetUpOptions {
  /** Which way the body lies (default: detected from the pelvis and thorax, `lyingSide`). */
  side?: LyingSide;
  /** Key poses to go through after the body's own (default FACE_DOWN_KEYS or FACE_UP_KEYS by side); the last one is replaced by `pose` when given. */
  keys?: readonly GetUpKey[];
  /** Speed factor on the key times (default 1: standing at 2.5 s; 1.25 stands at 2 s). */
  speed?: number;
  /**
   * The pose to end in (a q of the model: a standing pose, or a clip's first frame to hand over to):
   * its joints are the last key's; its root's height and tilt are kept, its heading and place on the
   * floor are the get-up's. Default: the last key's (the neutral standing pose).
   */
  pose?: ArrayLike<number>;
  /**
   * Bounds of the root assist: the largest force (N, default 0.5 m g: half the body weight) and
   * torque (N m, default 0.5 m g x 1 m) the assist applies at the pelvis, its settle time (s,
   * default 0.3: PD gains for the whole body's mass), and the seconds over which it fades to
   * nothing once the last key is reached (default 0.3). `{ force: 0, torque: 0 }`: no assist.
   */
  assist?: { force?: number; torque?: number; settleTime?: number; fadeTime?: number };
  /** Drive settle times per joint group (s; MotionFollower's). */
  settleTime?: PerGroup<number>;
  /** Drive torque limits per joint group (N m; MotionFollower's, default DEFAULT_MAX_TORQUES). */
  maxTorque?: PerGroup<number>;
}

/** Joints the authored key poses set, by the humanoid preset's names. */
const KEY_JOINTS = ['lumbar', 'thoracic', 'neck', 'hip_left', 'hip_right', 'knee_left', 'knee_right', 'ankle_left', 'ankle_right',
  'shoulder_left', 'shoulder_right', 'elbow_left', 'elbow_right'] as const;

const FORWARD_LINKS = ['pelvis', 'thorax'] as const;

/**
 * Which way a body lies, from its pose (forward kinematics done): the mean of the pelvis's and the
 * thorax's forward axes (link +Z, the humanoid preset's front) pointing up is face up, else face down.
 */
export function lyingSide(model: Model, state: State): LyingSide {
  const P = state.work.pose;
  let up = 0;
  for (const name of FORWARD_LINKS) {
    const i = model.linkIndex(name);
    up += P[12 * i + 5]; // world y of the link's z axis (row 1, column 2 of world-from-link)
  }
  return up > 0 ? 'faceUp' : 'faceDown';
}

/** Writes the quaternion Ry(yaw) Rx(pitch) at out[o]. */
function yawPitch(yaw: number, pitch: number, out: Float64Array, o: number, tmp: Float64Array): void {
  quatFromAxisAngle(0, 1, 0, yaw, tmp, 0);
  quatFromAxisAngle(1, 0, 0, pitch, tmp, 4);
  quatMultiply(tmp, 0, tmp, 4, out, o);
}

/**
 * The key pose's q for the humanoid preset: root at the horizontal origin, heading `yaw`, joints
 * from the key (projected into the limits), then the root lifted so that its lowest shape point
 * lies on `floor` and moved along the floor so that its anchor points (ankles or knees) lie where
 * `anchorAt` holds them (x, z), when given.
 */
function keyPose(model: Model, key: GetUpKey, yaw: number, floor: number, anchorAt: Float64Array | null, st: State, final: ArrayLike<number> | null): Float64Array {
  const q = new Float64Array(model.nq);
  const tmp = new Float64Array(8);
  const j = (name: string) => model.joint(name);
  for (let i = 0; i < model.nLinks; i++) if (model.jointType[i] === JointType.spherical) q[model.qOffset[i] + 3] = 1;
  if (final) q.set(final);
  const root = j(model.jointNames[0]);
  yawPitch(yaw, key.pitch, q, root.q + 3, tmp);
  if (!final) {
    const sph = (name: string, ax: number, ay: number, az: number, angle: number, ax2 = 0, ay2 = 0, az2 = 0, angle2 = 0) => {
      quatFromAxisAngle(ax, ay, az, angle, tmp, 0);
      quatFromAxisAngle(ax2 || 1, ay2, az2, angle2, tmp, 4);
      quatMultiply(tmp, 0, tmp, 4, q, j(name).q);
    };
    sph('lumbar', 1, 0, 0, key.spine);
    sph('thoracic', 1, 0, 0, key.spine);
    sph('neck', 1, 0, 0, key.neck);
    const abd = key.shoulderAbduction ?? 0;
    for (let s = 0; s < 2; s++) {
      const side = s === 0 ? 'left' : 'right', sign = s === 0 ? 1 : -1;
      sph(`hip_${side}`, -1, 0, 0, key.hip[s]);
      q[j(`knee_${side}`).q] = key.knee[s];
      sph(`ankle_${side}`, -1, 0, 0, key.ankle[s]);
      sph(`shoulder_${side}`, -1, 0, 0, key.shoulder[s], 0, 0, 1, sign * abd);
      q[j(`elbow_${side}`).q] = key.elbow[s];
    }
    projectIntoLimits(model, q);
  } else {
    // the final pose's own rotation, turned about +Y from its own heading to the get-up's
    const fz = new Float64Array(3);
    quatRotate(final, root.q + 3, [0, 0, 1], 0, fz, 0);
    quatFromAxisAngle(0, 1, 0, yaw - detMath.atan2(fz[0], fz[2]), tmp, 0);
    quatMultiply(tmp, 0, final, root.q + 3, q, root.q + 3);
    quatNormalize(q, root.q + 3);
  }
  st.q.set(q);
  forwardKinematics(model, st, false);
  q[root.q + 1] += floor - lowestShapePoint(model, st);
  if (anchorAt) {
    const a = anchorPoint(model, st, key.anchor);
    q[root.q] += anchorAt[0] - a[0];
    q[root.q + 2] += anchorAt[1] - a[1];
  }
  return q;
}

/** The mean (x, z) of the ankles' or knees' joint centres (forward kinematics done). */
function anchorPoint(model: Model, st: State, anchor: 'feet' | 'knees'): Float64Array {
  const P = st.work.pose, out = new Float64Array(2);
  for (const side of ['left', 'right']) {
    const i = model.linkIndex(anchor === 'feet' ? `foot_${side}` : `shank_${side}`);
    out[0] += 0.5 * P[12 * i + 9];
    out[1] += 0.5 * P[12 * i + 11];
  }
  return out;
}

/** Quintic smootherstep: 0 -> 1 with zero velocity and acceleration at both ends. */
function smootherstep(u: number): number {
  const c = u < 0 ? 0 : u > 1 ? 1 : u;
  return c * c * c * (c * (6 * c - 15) + 10);
}

/**
 * A ragdoll gets up: `new GetUp(world, body)` from a body lying at rest, then `getUp.update(dt)`
 * before every `world.step(dt)`; `done` once it stands on its own (the assist faded out). The body
 * must not be driven by another controller meanwhile: a MotionFollower still driving it is refused
 * (remove a dead one first).
 */
export class GetUp {
  readonly world: World;
  readonly body: Body;
  readonly model: Model;
  /** The side the body lay on at the start. */
  readonly side: LyingSide;
  /** The heading the character stands up facing (radians about +Y from +Z). */
  readonly heading: number;
  /** The path: the body's pose at the start, then the key poses (smootherstep between them), as a trajectory from 0 s. */
  readonly trajectory: JointTrajectory;
  /** Key times (s from the start; the first 0, the body's own pose) and names. */
  readonly keyTimes: readonly number[];
  readonly keyNames: readonly string[];
  /** The joint drives toward the path (root not driven: the assist below helps it). */
  readonly follower: MotionFollower;
  /** The assist's bounds: force (N, magnitude), torque (N m, magnitude); and its fade time (s). */
  readonly assistForce: number;
  readonly assistTorque: number;
  readonly assistFade: number;
  /**
   * Figures of the assist, updated by `update`: [0] force of the last update (N), [1] its torque
   * (N m), [2] the largest force so far, [3] the largest torque so far, [4] the impulse so far
   * (integral of |F| dt, N s).
   */
  readonly assistFigures = new Float64Array(5);
  private readonly kp: number;
  private readonly kd: number;
  private readonly inertia: number;
  private readonly mass: number;
  private readonly rootQ: number;
  private readonly rootV: number;
  /** The key poses (keys x nq, the first the body's own) and their times (s). */
  private readonly keyQ: Float64Array;
  private readonly keyT: Float64Array;
  private readonly r12 = new Float64Array(12);
  /** [0] World time at the start (kept in a typed array: the step reads it, unboxed). */
  private readonly times = new Float64Array(1);
  private readonly v3 = new Float64Array(12);
  /** The anchor's links per key segment, the path's frame times and where each frame puts its anchor (x, z). */
  private readonly anchorLinks: Int32Array;
  private readonly frameTimes: Float64Array;
  private readonly frameAnchor: Float64Array;
  /** The path's root (position, quaternion) at the current time, and each key segment's turn R_a log(Q_a^-1 Q_b) (world). */
  private readonly tq = new Float64Array(7);
  private readonly segmentTurn: Float64Array;

  constructor(world: World, body: Body, options: GetUpOptions = {}) {
    const m = body.model;
    this.world = world;
    this.body = body;
    this.model = m;
    if (m.jointType[0] !== JointType.free) throw new RangeError(`GetUp: body "${body.name}": the root joint must be free`);
    const X = m.treeX;
    if (Math.abs(X[0] - 1) + Math.abs(X[4] - 1) + Math.abs(X[8] - 1) > 1e-12) throw new RangeError(`GetUp: body "${body.name}": the root's joint frame must be upright (unrotated), as the humanoid preset's`);
    for (const name of [...KEY_JOINTS, ...FORWARD_LINKS.map((l) => m.jointNames[m.linkIndex(l)])]) {
      if (!m.jointNames.includes(name)) throw new RangeError(`GetUp: body "${body.name}" has no joint "${name}": the key poses are authored for the humanoid preset's joints`);
    }
    for (const side of ['left', 'right']) for (const l of [`foot_${side}`, `shank_${side}`]) m.linkIndex(l);
    for (const src of world.sources) {
      if (src instanceof MotionFollower && src.bodyRef === body && src.enabled) {
        throw new RangeError(`GetUp: body "${body.name}" is still driven by a MotionFollower: remove it first (follower.remove())`);
      }
    }
    const speed = options.speed ?? 1;
    if (!(speed > 0 && Number.isFinite(speed))) throw new RangeError(`GetUp: speed ${speed} must be finite and > 0`);
    const g = detMath.hypot(world.gravity[0], world.gravity[1], world.gravity[2]);
    this.mass = m.totalMass();
    this.assistForce = options.assist?.force ?? 0.5 * this.mass * g;
    this.assistTorque = options.assist?.torque ?? 0.5 * this.mass * g;
    this.assistFade = options.assist?.fadeTime ?? 0.3;
    const settle = options.assist?.settleTime ?? 0.3;
    for (const [k, v] of [['force', this.assistForce], ['torque', this.assistTorque], ['fadeTime', this.assistFade]] as const) {
      if (!(v >= 0 && Number.isFinite(v))) throw new RangeError(`GetUp: assist.${k} ${v} must be finite and >= 0`);
    }
    if (!(settle > 0 && Number.isFinite(settle))) throw new RangeError(`GetUp: assist.settleTime ${settle} must be finite and > 0`);
    if (options.pose && options.pose.length !== m.nq) throw new RangeError(`GetUp: pose has ${options.pose.length} numbers; expected the model's nq = ${m.nq}`);
    if (options.pose) for (let k = 0; k < m.nq; k++) if (!Number.isFinite(options.pose[k])) throw new RangeError(`GetUp: pose[${k}] is not finite`);
    const w = 3.889720169867429 / settle; // critically damped, within 10 % at the settle time (drives.ts)
    this.kp = w * w;
    this.kd = 2 * w;
    // a standing body's moment of inertia about a horizontal axis through its centre, m (h / 2)^2
    // with h the pelvis's standing height (the root joint's): 15 kg m^2 for the 70 kg, 1.75 m preset
    this.inertia = this.mass * (0.5 * X[10]) * (0.5 * X[10]);
    this.rootQ = m.qOffset[0];
    this.rootV = m.vOffset[0];

    // where and how it lies
    const st = body.state;
    forwardKinematics(m, st, true);
    this.side = options.side ?? lyingSide(m, st);
    if (this.side !== 'faceUp' && this.side !== 'faceDown') throw new RangeError(`GetUp: side "${String(this.side)}": expected 'faceUp' or 'faceDown'`);
    const P = st.work.pose, pel = m.linkIndex('pelvis'), tho = m.linkIndex('thorax');
    let hx = P[12 * tho + 9] - P[12 * pel + 9], hz = P[12 * tho + 11] - P[12 * pel + 11];
    if (hx * hx + hz * hz < 1e-6) { hx = P[12 * pel + 1]; hz = P[12 * pel + 7]; } // upright trunk: the pelvis's up axis
    const s = this.side === 'faceDown' ? 1 : -1;
    this.heading = detMath.atan2(s * hx, s * hz);
    const floor = lowestShapePoint(m, st);
    const start = Float64Array.from(st.q);

    // the keys
    const keys = options.keys ?? (this.side === 'faceDown' ? FACE_DOWN_KEYS : FACE_UP_KEYS);
    if (keys.length === 0) throw new RangeError('GetUp: keys is empty');
    const times = [0], names = ['lying'], poses: Float64Array[] = [start];
    const scratch = new State(m);
    scratch.q.set(start);
    forwardKinematics(m, scratch, false);
    let last = 0;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k], at = key.at / speed;
      if (!(at > last && Number.isFinite(at))) throw new RangeError(`GetUp: key ${k} ("${key.name}"): time ${key.at} must be finite and after the previous key's`);
      const anchorAt = anchorPoint(m, scratch, key.anchor);
      const q = keyPose(m, key, this.heading, floor, anchorAt, scratch, k === keys.length - 1 && options.pose ? options.pose : null);
      scratch.q.set(q);
      forwardKinematics(m, scratch, false);
      times.push(at);
      names.push(key.name);
      poses.push(q);
      last = at;
    }
    this.keyTimes = times;
    this.keyT = Float64Array.from(times);
    this.keyQ = new Float64Array(times.length * m.nq);
    poses.forEach((p, k) => this.keyQ.set(p, k * m.nq));
    this.keyNames = names;
    this.anchorLinks = new Int32Array(2 * keys.length);
    for (let k = 0; k < keys.length; k++) {
      const a = keys[k].anchor === 'feet' ? 'foot' : 'shank';
      this.anchorLinks[2 * k] = m.linkIndex(`${a}_left`);
      this.anchorLinks[2 * k + 1] = m.linkIndex(`${a}_right`);
    }

    // the path, sampled at 1/120 s with smootherstep between keys
    const dt = 1 / 120, n = Math.ceil(last / dt) + 1;
    const tt = new Float64Array(n), qq = new Float64Array(n * m.nq);
    let seg = 0;
    for (let f = 0; f < n; f++) {
      const t = Math.min(f * dt, last);
      tt[f] = t;
      while (seg < times.length - 2 && t > times[seg + 1]) seg++;
      const u = smootherstep((t - times[seg]) / (times[seg + 1] - times[seg]));
      interpolatePose(m, poses[seg], 0, poses[seg + 1], 0, u, qq.subarray(f * m.nq, (f + 1) * m.nq));
    }
    if (n > 1 && tt[n - 1] <= tt[n - 2]) tt[n - 1] = tt[n - 2] + dt;
    // where each frame puts its segment's anchor (the mean of the ankles or knees, x and z)
    this.frameAnchor = new Float64Array(2 * n);
    seg = 0;
    for (let f = 0; f < n; f++) {
      while (seg < times.length - 2 && tt[f] > times[seg + 1]) seg++;
      scratch.q.set(qq.subarray(f * m.nq, (f + 1) * m.nq));
      forwardKinematics(m, scratch, false);
      const P = scratch.work.pose, a0 = 12 * this.anchorLinks[2 * seg], a1 = 12 * this.anchorLinks[2 * seg + 1];
      this.frameAnchor[2 * f] = 0.5 * (P[a0 + 9] + P[a1 + 9]);
      this.frameAnchor[2 * f + 1] = 0.5 * (P[a0 + 11] + P[a1 + 11]);
    }
    this.frameTimes = tt;
    this.trajectory = new JointTrajectory(m, tt, qq, { name: `get up (${this.side})`, differenceStep: 2 * dt });
    this.times[0] = world.time;
    this.segmentTurn = new Float64Array(3 * (times.length - 1));
    for (let k = 0; k + 1 < times.length; k++) rotationError(poses[k], this.rootQ + 3, poses[k + 1], this.rootQ + 3, this.segmentTurn, 3 * k);
    this.follower = new MotionFollower(world, body, {
      trajectory: this.trajectory, root: 'free', initialize: false, startTime: 0, wrap: 'clamp',
      ...(options.settleTime ? { settleTime: options.settleTime } : {}),
      ...(options.maxTorque ? { maxTorque: options.maxTorque } : {}),
    });
    world.wake(body);
  }

  /** Seconds since the get-up started (World time). */
  get time(): number {
    return this.world.time - this.times[0];
  }

  /** Seconds at which the last key pose (standing) is reached. */
  get duration(): number {
    return this.keyTimes[this.keyTimes.length - 1];
  }

  /** True once the last key pose's time has passed and the assist has faded out: the body stands on its own, its joints held on the final pose. */
  get done(): boolean {
    return this.time >= this.duration + this.assistFade;
  }

  /**
   * Before each `world.step(dt)`: adds the root assist, a PD force and torque at the pelvis toward
   * the path's root position and orientation, each bounded (its magnitude) by the assist's bounds
   * times the fade, to the body's joint forces. Allocation-free.
   */
  update(dt: number): void {
    const F = this.assistFigures;
    F[0] = 0;
    F[1] = 0;
    // the assist's scale: 1 until the last key, then down to 0 over the fade time (from the typed arrays: nothing boxed)
    const kt0 = this.keyT, over = (this.world.time - this.times[0]) - kt0[kt0.length - 1];
    let scale = 1;
    if (over > 0) scale = this.assistFade > 0 ? Math.max(0, 1 - over / this.assistFade) : 0;
    if (scale <= 0 || !this.follower.enabled) return;
    const st = this.body.state, ro = this.rootQ, vo = this.rootV, nq = this.model.nq;
    const kt = this.keyT, ft = this.frameTimes, nf = ft.length, Q = this.trajectory.q;
    let t = this.world.time - this.times[0];
    t = t < 0 ? 0 : t > kt[kt.length - 1] ? kt[kt.length - 1] : t;
    // the path's root at t: between its frames (1/120 s apart) positions lerped and rotations
    // nlerped (as good as a slerp over such small turns, and free of trigonometry)
    let f = Math.floor(t * 120);
    f = f < 0 ? 0 : f > nf - 2 ? nf - 2 : f;
    const c = (t - ft[f]) / (ft[f + 1] - ft[f]), fa = f * nq + ro, fb = fa + nq;
    const tq = this.tq;
    for (let k = 0; k < 3; k++) tq[k] = Q[fa + k] + c * (Q[fb + k] - Q[fa + k]);
    const sg = Q[fa + 3] * Q[fb + 3] + Q[fa + 4] * Q[fb + 4] + Q[fa + 5] * Q[fb + 5] + Q[fa + 6] * Q[fb + 6] < 0 ? -1 : 1;
    let n = 0;
    for (let k = 3; k < 7; k++) { tq[k] = Q[fa + k] + c * (sg * Q[fb + k] - Q[fa + k]); n += tq[k] * tq[k]; }
    n = 1 / Math.sqrt(n);
    for (let k = 3; k < 7; k++) tq[k] *= n;
    // its rate from the keys themselves: the segment's smootherstep ds/dt times the segment's
    // change (a slerp turns about a fixed axis: its world rate is R_a log(Q_a^-1 Q_b) ds/dt all along)
    let seg = 0;
    while (seg < kt.length - 2 && t > kt[seg + 1]) seg++;
    const T = kt[seg + 1] - kt[seg];
    let u = (t - kt[seg]) / T;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    const ds = (30 * u * u * (u - 1) * (u - 1)) / T;
    const K = this.keyQ, a = seg * nq + ro, b = a + nq, W = this.segmentTurn;
    const v = this.v3, q = st.q, qd = st.qd;
    // world velocities: current v[0..2] linear, v[3..5] angular; target v[6..8], v[9..11]
    quatTurnInto(q, ro + 3, false, qd, vo + 3, v, 0);
    quatTurnInto(q, ro + 3, false, qd, vo, v, 3);
    for (let k = 0; k < 3; k++) {
      v[6 + k] = (K[b + k] - K[a + k]) * ds;
      v[9 + k] = W[3 * seg + k] * ds;
    }
    // the path's root moved along the floor by the anchor's slip: the supports (the segment's key's
    // anchor: ankles or knees) where they are rather than where the path put them
    const A = this.frameAnchor, BP = st.work.pose, a0 = 12 * this.anchorLinks[2 * seg], a1 = 12 * this.anchorLinks[2 * seg + 1];
    tq[0] += 0.5 * (BP[a0 + 9] + BP[a1 + 9]) - (A[2 * f] + c * (A[2 * f + 2] - A[2 * f]));
    tq[2] += 0.5 * (BP[a0 + 11] + BP[a1 + 11]) - (A[2 * f + 1] + c * (A[2 * f + 3] - A[2 * f + 1]));
    const kp = this.kp, kd = this.kd;
    // force: m (kp (p_d - p) + kd (v_d - v)), bounded in magnitude
    let fx = this.mass * (kp * (tq[0] - q[ro]) + kd * (v[6] - v[0]));
    let fy = this.mass * (kp * (tq[1] - q[ro + 1]) + kd * (v[7] - v[1]));
    let fz = this.mass * (kp * (tq[2] - q[ro + 2]) + kd * (v[8] - v[2]));
    const fn = Math.sqrt(fx * fx + fy * fy + fz * fz), fmax = this.assistForce * scale;
    if (fn > fmax) { const r = fmax / fn; fx *= r; fy *= r; fz *= r; }
    // torque: I (kp e + kd (w_d - w)), bounded in magnitude; e = 2 vec(Q_d Q^-1) (world; the sign
    // of its w taken positive): the rotation vector's direction, its length 2 sin(angle / 2), the
    // usual quaternion feedback, free of trigonometry
    const wx = v[9] - v[3], wy = v[10] - v[4], wz = v[11] - v[5];
    const e = this.r12;
    quatConjMultiply(q, ro + 3, tq, 3, e, 8); // Q^-1 Q_d: the error in the link frame
    const es = e[11] < 0 ? -2 : 2;
    e[8] *= es; e[9] *= es; e[10] *= es;
    quatTurnInto(q, ro + 3, false, e, 8, e, 0);
    let tx = this.inertia * (kp * e[0] + kd * wx);
    let ty = this.inertia * (kp * e[1] + kd * wy);
    let tz = this.inertia * (kp * e[2] + kd * wz);
    const tn = Math.sqrt(tx * tx + ty * ty + tz * tz), tmax = this.assistTorque * scale;
    if (tn > tmax) { const r = tmax / tn; tx *= r; ty *= r; tz *= r; }
    // into the free joint's force coordinates: [moment; force] in the link frame, about its origin
    e[3] = fx; e[4] = fy; e[5] = fz; e[6] = tx; e[7] = ty; e[8] = tz;
    quatTurnInto(q, ro + 3, true, e, 3, e, 3);
    quatTurnInto(q, ro + 3, true, e, 6, e, 6);
    st.tau[vo] += e[6]; st.tau[vo + 1] += e[7]; st.tau[vo + 2] += e[8];
    st.tau[vo + 3] += e[3]; st.tau[vo + 4] += e[4]; st.tau[vo + 5] += e[5];
    st.work.dynamicsValid = false;
    const af = Math.sqrt(fx * fx + fy * fy + fz * fz), at = Math.sqrt(tx * tx + ty * ty + tz * tz);
    F[0] = af;
    F[1] = at;
    if (af > F[2]) F[2] = af;
    if (at > F[3]) F[3] = at;
    F[4] += af * dt;
  }

  /**
   * What the get-up carries from step to step, as numbers, for a rollback with World.snapshot: its
   * start time (its phase is the World's time since), the assist's figures, a check number of its
   * path, and its follower's snapshot (MotionFollower.snapshot). Layout: GETUP_MAGIC, version, nq,
   * path check, start time, the five figures, then the follower's numbers. Written into `out` when
   * it is long enough (the snapshot is then the subarray returned).
   *
   * The path is built from the pose the body lay in when the get-up began, so restore() takes a
   * snapshot into a GetUp built from that same pose (in a World restored to the moment the get-up
   * began, say): one built from another pose is refused.
   */
  snapshot(out?: Float64Array): Float64Array {
    const fs = this.follower.snapshot();
    const n = GETUP_HEAD + fs.length;
    const f = out && out.length >= n ? out.subarray(0, n) : new Float64Array(n);
    f[0] = GETUP_MAGIC; f[1] = 1; f[2] = this.model.nq; f[3] = this.pathCheck();
    f[4] = this.times[0];
    f.set(this.assistFigures, 5);
    f.set(fs, GETUP_HEAD);
    return f;
  }

  /** Takes back what snapshot() wrote; refused with a RangeError, before anything changes, when it is not a snapshot of a get-up along this one's path. */
  restore(snapshot: Float64Array): void {
    const f = snapshot;
    const fail = (why: string): never => { throw new RangeError(`GetUp.restore: ${why}`); };
    if (!(f instanceof Float64Array)) fail('expected the Float64Array that GetUp.snapshot returned');
    if (f.length < GETUP_HEAD || f[0] !== GETUP_MAGIC) fail(`number 0 does not start a get-up snapshot (${f.length} numbers)`);
    if (f[1] !== 1) fail(`snapshot version ${f[1]}; this get-up reads version 1`);
    if (f[2] !== this.model.nq) fail(`the snapshot is of a model with ${f[2]} q; body "${this.body.name}" has ${this.model.nq}`);
    if (f[3] !== this.pathCheck()) fail(`the snapshot's get-up went along another path (built from another lying pose); build this GetUp from the pose the snapshot's began in`);
    if (!Number.isFinite(f[4])) fail(`start time ${f[4]} is not finite`);
    this.follower.restore(f.subarray(GETUP_HEAD));
    this.times[0] = f[4];
    this.assistFigures.set(f.subarray(5, GETUP_HEAD));
  }

  /** FNV-1a of the key poses' bits: the same path gives the same number. */
  private pathCheck(): number {
    const u = new Uint32Array(this.keyQ.buffer, this.keyQ.byteOffset, 2 * this.keyQ.length);
    let h = 0x811c9dc5;
    for (let i = 0; i < u.length; i++) h = Math.imul(h ^ u[i], 0x01000193) >>> 0;
    return h;
  }

  /** Removes the drives (the body is a ragdoll again, or ready for another controller). */
  remove(): void {
    this.follower.remove();
  }
}

/** Rotation vector (world) of R_b R_a^T for unit quaternions a and b, into out[oo..oo+2]. */
function rotationError(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Float64Array, oo: number): void {
  // conj(a) b is the turn in a's frame; its rotation vector rotated into the world
  const tmp = new Float64Array(4);
  quatConjMultiply(a, ao, b, bo, tmp, 0);
  quatToRotationVector(tmp, 0, tmp, 0);
  quatRotate(a, ao, tmp, 0, out, oo);
}

/** out = a + u (b - a) on each joint's manifold (slerp of the unit quaternions, unit to rounding), a and b read at offsets ao and bo. */
function interpolatePose(m: Model, a: Float64Array, ao: number, b: Float64Array, bo: number, u: number, out: Float64Array): void {
  for (let i = 0; i < m.nLinks; i++) {
    const qo = m.qOffset[i];
    switch (m.jointType[i]) {
      case JointType.spherical: quatSlerp(a, ao + qo, b, bo + qo, u, out, qo); break;
      case JointType.free:
        for (let k = 0; k < 3; k++) out[qo + k] = a[ao + qo + k] + u * (b[bo + qo + k] - a[ao + qo + k]);
        quatSlerp(a, ao + qo + 3, b, bo + qo + 3, u, out, qo + 3);
        break;
      default: for (let k = 0; k < m.jointNq[i]; k++) out[qo + k] = a[ao + qo + k] + u * (b[bo + qo + k] - a[ao + qo + k]);
    }
  }
}
