/**
 * Motion following (Kokkevis section 8.3): a character of a World plays a motion clip by joint
 * drives, so it moves like the clip while it still reacts to the ground, to hits and to its own
 * joint limits.
 *
 * Every World step (and sub-step) the follower reads the clip at its own time t, retargeted to the
 * model (a JointTrajectory), into the targets of a TrajectoryFollower (constraints package): q_d,
 * qd_d by central differences and qdd_d by differences of those (or zero), driving each dof toward
 * qdd = Kp (q_d - q) + Kd (qd_d - qd) + qdd_d with gains from a settle time per joint group and a
 * maximum torque per dof. The row is solved with the contacts and limits in one LCP, so a bounded
 * drive gives way where the ground or a limit says no.
 *
 * The root (a free joint) has three modes:
 *  - 'kinematic': its six dofs are driven without bound: the character follows the clip's root path
 *    (to the solver's precision, whatever the contacts: a character on rails, no balance needed);
 *  - 'assisted': driven by a bounded virtual force and torque (by default 50 % of body weight and
 *    50 % of body weight times a metre): a hand of god that keeps the character near the path and
 *    upright but can be overpowered by a hit;
 *  - 'free': not driven at all (a ragdoll with muscles: it must balance by itself, and falls).
 *
 * Time: the follower is a ConstraintSource of the World; it advances its clip time by the World's
 * own time (times playbackRate), so sub-steps and halved steps read the clip at the right moment.
 *
 * Muscle tone (MuscleTone) scales every joint's torque limit: hit() dips it and recovers, die()
 * fades it to a residual and lets the root go.
 */
import { forwardKinematics, JointType, type Model } from '@sinew/featherstone';
import { gainsFromSettleTime, TrajectoryFollower, type Body, type ConstraintSource, type StepContext, type World } from '@sinew/constraints';
import type { RowBuffer } from '@sinew/constraints/internals';
import type { MotionClip, WrapMode } from '../motion/clip.js';
import type { Retargeter } from '../motion/retarget.js';
import { applyImpulse, impulseAsForce } from './impulse.js';
import { JointTrajectory, TrajectorySampler } from './joint-trajectory.js';
import { ArmReflex } from './arm-reflex.js';
import { InverseDynamicsFeedForward } from './feed-forward.js';
import { bodyForward, crumplePose, DEATH_TONE, fallDirection, type CrumpleOptions, type ToneStage } from './crumple.js';
import { groupValue, JOINT_GROUPS, jointGroups, type JointGroup, type PerGroup } from './joint-groups.js';
import { projectIntoLimits } from './joint-range.js';
import { ensureSphericalLimitGuard } from './limit-guard.js';
import { MuscleTone } from './muscle-tone.js';
import { quatSlerpAt, SLERP_F } from '../motion/quat.js';
import { detMath } from '@sinew/featherstone';

/** How a MotionFollower drives the root: 'kinematic' (follows the clip's root path), 'assisted' (bounded virtual force and torque) or 'free' (not driven). */
export type RootMode = 'kinematic' | 'assisted' | 'free';

/** Settle times (s) of the drives per group: the time a joint alone takes to cover 90 % of a step, critically damped. */
export const DEFAULT_SETTLE_TIMES: Record<JointGroup, number> = { root: 0.05, spine: 0.08, head: 0.1, arms: 0.1, legs: 0.06, other: 0.1 };

/**
 * Torque limits (N m per dof) per group, of the order of adult peak isometric joint torques
 * (hip and knee extensors 150-250 N m, trunk 150-200, shoulder and elbow 50-80, neck 30-50).
 */
export const DEFAULT_MAX_TORQUES: Record<JointGroup, number> = { root: Infinity, spine: 200, head: 40, arms: 60, legs: 250, other: 60 };

/** Options of a MotionFollower: the motion, playback, root mode and assist, settle time, torque limits per group, feedforward and the limit guard. */
export interface MotionFollowerOptions {
  /** The motion as joint targets of the body's model (retargetClip(...).trajectory), or... */
  trajectory?: JointTrajectory;
  /** ...a clip and the Retargeter that reads it (every frame is retargeted once, at construction). */
  clip?: MotionClip;
  retargeter?: Retargeter;
  /** Loop or clamp the clip (default: the trajectory's). */
  wrap?: WrapMode;
  /** Clip time at the World's current time (default: the trajectory's start). */
  startTime?: number;
  /** Clip seconds per World second (default 1). */
  playbackRate?: number;
  /** Root mode (default 'kinematic'). */
  root?: RootMode;
  /** Bounds of the 'assisted' root: force per axis (N) and torque per axis (N m). Default 0.5 m g and 0.5 m g x 1 m. */
  assist?: { force?: number; torque?: number };
  /** Settle time per joint group, seconds (default DEFAULT_SETTLE_TIMES). */
  settleTime?: PerGroup<number>;
  /** Maximum torque per dof per joint group, N m (default DEFAULT_MAX_TORQUES). */
  maxTorque?: PerGroup<number>;
  /** Joint name -> group, where the names of the links do not tell. */
  groups?: Readonly<Record<string, JointGroup>>;
  /** Acceleration feed-forward: 'clip' (finite differences of the clip's velocity, default) or 'none'. */
  feedforward?: 'clip' | 'none';
  /**
   * Apply the drive law to the state one step ahead, as stable PD does (Tan, Liu & Turk 2011) but
   * in acceleration space, where the drive rows live (unit inertia, exact for an unbounded row):
   * qdd = Kp (e + h de) + Kd (de + h (qdd_d - qdd)) + qdd_d gives the gains Kp / (1 + Kd h) and
   * (Kd + Kp h) / (1 + Kd h) on e and de. With the World's semi-implicit Euler, the explicit law with
   * critically damped gains (Kp = w^2, Kd = 2 w) is stable only for w h < 1 (the step's determinant
   * is 1 - Kd h), the step-ahead law for w h < 1 + sqrt(3) (determinant 1 - h Kd', derived here):
   * a 0.06 s settle time (w = 65 rad/s) at 1/60 s is w h = 1.1. Default true.
   */
  stepAhead?: boolean;
  /** Add a SphericalLimitGuard to the World (backtracking on spherical limits, limit-guard.ts), if it has none (default true). */
  limitGuard?: boolean;
  /** Put the body on the clip's pose and velocity at the start time (default true). */
  initialize?: boolean;
}

/** A hit: link, world point and impulse, and the dip in muscle tone it causes. */
export interface HitOptions {
  /** Link hit (index or name). */
  link: number | string;
  /** World point hit. */
  point: ArrayLike<number>;
  /** Impulse, N s, world. */
  impulse: ArrayLike<number>;
  /** 'velocity' (default): the velocity jump M^-1 J^T p now (held root dofs stay still); 'force': p / h over the next step of length h, shared with the contacts. */
  as?: 'velocity' | 'force';
  /** Step length for 'force' (s). */
  h?: number;
  /** Tone at the bottom of the dip (default 0.3), reached in `dipTime` (default 0.05 s), back to 1 over `recoverTime` (default 0.6 s). */
  tone?: number;
  dipTime?: number;
  recoverTime?: number;
}

/** A death: where it starts from, an impulse at that moment, and how the muscle tone fades. */
export interface DeathOptions {
  /** Start from the clip's pose and velocity at the current clip time (default true); false keeps the simulated state. */
  fromClip?: boolean;
  /** An impulse at the moment of death (a shot). */
  impulse?: { link: number | string; point: ArrayLike<number>; impulse: ArrayLike<number> };
  /** Seconds over which the muscle tone fades (default 0.8) and the tone left (default 0.05). */
  fadeTime?: number;
  residualTone?: number;
  /**
   * What the fading muscles aim at: 'crumple' (default: knees, hips and trunk flexed, the arms
   * reaching toward the fall, from the pose at death after the impulse: crumple.ts; once the fade
   * is over the residual tone only brakes the joints where they are, holding no limb up), 'clip' (the
   * clip goes on playing while the tone fades, so the first frames continue its motion; then its
   * pose at the end of the fade is held), 'hold' (the pose at the moment of death), or 'relaxed'
   * (a slightly flexed neutral pose).
   */
  pose?: 'crumple' | 'clip' | 'hold' | 'relaxed';
  /**
   * Seconds over which a 'crumple' death's targets move from the clip's (whose velocity the drives
   * keep at first, so the first step continues the motion) to the crumpled pose (default 0.05).
   */
  blendTime?: number;
  /** The protective arm reflex toward the fall of a 'crumple' death (default true): the shoulders' targets follow the fall (arm-reflex.ts). */
  armReflex?: boolean;
  /** Seconds after death during which the arms' targets follow the fall's direction (default 0.5); then the last ones are held. */
  reflexTime?: number;
  /** The angles of a 'crumple' death (CrumpleOptions; `armReflex` above wins over its own). */
  crumple?: CrumpleOptions;
  /**
   * The order in which the joint groups let go: a factor per group on the tone, falling to its
   * level after its delay (default DEATH_TONE: legs first, then the trunk, arms and neck with the
   * tone itself). Null: every group fades with the tone alone.
   */
  toneSchedule?: Partial<Record<JointGroup, ToneStage>> | null;
  /**
   * Let the body sleep once it lies still (default true): after the fade, when its root-mean-square
   * speed stays below the World's sleepSpeed for the World's sleepTime, the follower switches
   * itself off (enabled = false: the residual tone goes too), and the World puts the body to sleep.
   */
  sleepAtRest?: boolean;
}

let nextId = 1;

/** 'MFS1' read as a little-endian 32-bit number: the first number of a MotionFollower snapshot. */
const FOLLOWER_MAGIC = 0x3153464d;
/** Numbers before a follower snapshot's drive strengths. */
const FOLLOWER_HEAD = 18;
const ROOT_MODES: readonly RootMode[] = ['kinematic', 'assisted', 'free'];

/** Makes a body follow a motion (clip or joint trajectory) with bounded joint torques, reacting to hits and the ground; `die()` turns it into a ragdoll. */
export class MotionFollower implements ConstraintSource {
  readonly id = nextId++;
  enabled = true;
  readonly world: World;
  readonly bodyRef: Body;
  /** Body index (the World reads it: a driven body does not sleep). */
  readonly body: number;
  readonly model: Model;
  readonly trajectory: JointTrajectory;
  /** The drive rows (not added to the World by itself: the follower adds its rows). */
  readonly drive: TrajectoryFollower;
  /** Group of each link's joint. */
  readonly groups: readonly JointGroup[];
  /** Torque limit per dof at full tone (root dofs: the root mode's bounds). */
  readonly maxTorque: Float64Array;
  /** Acceleration gains (1/s^2, 1/s) per dof from the settle times: the drive law qdd = Kp e + Kd de + qdd_d. */
  readonly kp: Float64Array;
  readonly kd: Float64Array;
  /** Apply the drive law one step ahead (see MotionFollowerOptions.stepAhead). */
  stepAhead: boolean;
  /**
   * A factor s in [0, 1] per dof on the drive's strength (all 1 unless an AnimationBlend sets
   * them): the torque limit times s and the natural frequency times s (gains Kp s^2, Kd s: the
   * settle time divided by s, still critically damped); 0 leaves the joint undriven (limp).
   */
  readonly strength: Float64Array;
  /** Muscle tone over World time. */
  readonly tone = new MuscleTone(1);
  /** A further factor on the tone per joint group (all 1 until a death's toneSchedule sets them). */
  readonly groupTone: Readonly<Record<JointGroup, MuscleTone>> = {
    root: new MuscleTone(1), spine: new MuscleTone(1), head: new MuscleTone(1), arms: new MuscleTone(1), legs: new MuscleTone(1), other: new MuscleTone(1),
  };
  /** Index into JOINT_GROUPS of each dof's group, and each group's factor of the last step. */
  private readonly dofGroup: Uint8Array;
  private readonly groupFactor = new Float64Array(JOINT_GROUPS.length);
  private clipTime: number;
  private syncTime: number;
  private rate: number;
  wrap: WrapMode;
  feedforward: 'clip' | 'none';
  /**
   * The step's numbers, in a typed array (a double passed to a call the engine does not inline,
   * or written to an object's field, may be boxed: a heap allocation per step): [0] the clip time
   * of the targets, [1] the World time, [2] the step length, [3] the tone of the last step,
   * [4] the progress of a crumpling death's blend.
   */
  private readonly clock = new Float64Array(5);
  /** The clip's sampler of the step (its time in a typed array, so that sampling allocates nothing). */
  private readonly sampler: TrajectorySampler;
  private _root: RootMode = 'kinematic';
  private assistForce: number;
  private assistTorque: number;
  /** Fixed targets (death 'hold' / 'relaxed', or a frozen clip), or null while the clip plays. */
  private heldQ: Float64Array | null = null;
  /** World time after which the clip stops and its pose is held (death with pose 'clip'). */
  private holdAt = Infinity;
  /** A crumpling death's targets, blended in from the clip's from `blendFrom` over `blendTime` (World time). */
  private blendQ: Float64Array | null = null;
  private blendFrom = Infinity;
  private blendTime = 0;
  /** A crumpling death's arm reflex, and the World time until which it follows the fall. */
  private reflex: ArmReflex | null = null;
  private reflexUntil = -Infinity;
  /** World time from which a crumpled body's residual tone only resists motion (targets: the present pose, at rest). */
  private limpAfter = Infinity;
  /** The clip's inverse-dynamics torques (applyFeedForward), made on first use. */
  private ff: InverseDynamicsFeedForward | null = null;
  private ffTau: Float64Array | null = null;
  /** World time after which a dead body may be switched off once still, and how long it has been still. */
  private restAfter = Infinity;
  private restTime = 0;

  constructor(world: World, body: Body, options: MotionFollowerOptions = {}) {
    this.world = world;
    this.bodyRef = body;
    this.body = body.index;
    this.model = body.model;
    const m = body.model;
    if (options.trajectory) {
      if (options.trajectory.model !== m) throw new RangeError('MotionFollower: the trajectory is for another model');
      this.trajectory = options.trajectory;
    } else if (options.clip && options.retargeter) {
      this.trajectory = JointTrajectory.fromClip(m, options.clip, options.retargeter);
    } else {
      throw new RangeError('MotionFollower: give a trajectory, or a clip and its retargeter');
    }
    this.wrap = options.wrap ?? this.trajectory.wrap;
    this.sampler = new TrajectorySampler(this.trajectory);
    this.clock[3] = 1;
    this.clipTime = options.startTime ?? this.trajectory.startTime;
    this.syncTime = world.time;
    this.rate = options.playbackRate ?? 1;
    if (!Number.isFinite(this.rate)) throw new RangeError(`MotionFollower: playbackRate ${this.rate} is not finite`);
    this.feedforward = options.feedforward ?? 'clip';
    this.groups = jointGroups(m, options.groups);
    const weight = m.totalMass() * detMath.hypot(world.gravity[0], world.gravity[1], world.gravity[2]);
    this.assistForce = options.assist?.force ?? 0.5 * weight;
    this.assistTorque = options.assist?.torque ?? 0.5 * weight;
    this.drive = new TrajectoryFollower(body, { includeRoot: true });
    this.maxTorque = new Float64Array(m.nv);
    this.dofGroup = new Uint8Array(m.nv);
    this.kp = new Float64Array(m.nv);
    this.kd = new Float64Array(m.nv);
    this.strength = new Float64Array(m.nv).fill(1);
    for (let i = 0; i < m.nLinks; i++) {
      const g = this.groups[i];
      const ts = groupValue(options.settleTime, g, DEFAULT_SETTLE_TIMES);
      const { kp, kd } = gainsFromSettleTime(ts);
      const max = groupValue(options.maxTorque, g, DEFAULT_MAX_TORQUES);
      if (!(max >= 0)) throw new RangeError(`MotionFollower: max torque of group "${g}" must be >= 0, got ${max}`);
      for (let k = 0; k < m.jointNv[i]; k++) {
        const d = m.vOffset[i] + k;
        this.kp[d] = kp;
        this.kd[d] = kd;
        this.maxTorque[d] = max;
        this.dofGroup[d] = JOINT_GROUPS.indexOf(g);
      }
    }
    this.stepAhead = options.stepAhead ?? true;
    this.root = options.root ?? 'kinematic';
    if (options.initialize !== false) this.resetToClip();
    world.addConstraint(this);
    if (options.limitGuard !== false) ensureSphericalLimitGuard(world);
  }

  /** Tone of the last step. */
  get currentTone(): number {
    return this.clock[3];
  }

  /** Clip time of the body's current state (the World's time mapped through the playback rate). */
  get time(): number {
    return this.clipTime + (this.world.time - this.syncTime) * this.rate;
  }

  set time(t: number) {
    if (!Number.isFinite(t)) throw new RangeError(`MotionFollower: time ${t} is not finite`);
    this.clipTime = t;
    this.syncTime = this.world.time;
  }

  /** Clip seconds per World second (0 pauses the clip: the drives hold its pose). */
  get playbackRate(): number {
    return this.rate;
  }

  set playbackRate(r: number) {
    if (!Number.isFinite(r)) throw new RangeError(`MotionFollower: playbackRate ${r} is not finite`);
    this.clipTime = this.time;
    this.syncTime = this.world.time;
    this.rate = r;
  }

  get root(): RootMode {
    return this._root;
  }

  /** Switches the root mode (takes effect at the next step). */
  set root(mode: RootMode) {
    const m = this.model;
    if (m.jointType[0] !== JointType.free) {
      this._root = mode;
      return;
    }
    if (mode !== 'kinematic' && mode !== 'assisted' && mode !== 'free') throw new RangeError(`MotionFollower: root mode "${String(mode)}": expected 'kinematic', 'assisted' or 'free'`);
    this._root = mode;
    this.drive.driven[0] = mode === 'free' ? 0 : 1;
    const v = m.vOffset[0];
    for (let k = 0; k < 6; k++) this.maxTorque[v + k] = mode === 'kinematic' ? Infinity : k < 3 ? this.assistTorque : this.assistForce;
  }

  /** Puts the body on the clip's pose and velocity at the follower's time. */
  resetToClip(): void {
    const st = this.bodyRef.state;
    this.trajectory.sampleQ(this.time, st.q, this.wrap);
    this.trajectory.sampleQd(this.time, st.qd, this.wrap);
    for (let d = 0; d < st.qd.length; d++) st.qd[d] *= this.playbackRate;
    st.work.dynamicsValid = false;
    forwardKinematics(this.model, st, true);
    this.world.wake(this.bodyRef);
  }

  /** Moves the clip to time t (the body is not moved: the drives pull it there). */
  seek(t: number): void {
    this.time = t;
  }

  /** Removes the follower from its World. */
  remove(): void {
    this.world.removeConstraint(this);
  }

  /**
   * What the follower carries from step to step, as numbers, for a rollback with World.snapshot:
   * its clip time and playback rate, root mode, wrap, switches, the drive strengths (an
   * AnimationBlend's), the muscle tone and the tone of each group with their ramps (a hit's dip and
   * recovery, a death's fade), a death's held or crumpling targets, arm reflex and rest timer, and
   * the id its drive rows' warm-start keys are built from (World.snapshot keeps the warm-start
   * forces by key; a follower built again gets a new id). Written into `out` when it is long
   * enough (the snapshot is then the subarray returned), else into a new array.
   * World.restore(worldSnapshot) then restore(this snapshot), into this follower or one built the
   * same way on the same body of a World built the same way, and the world continues bit for bit.
   *
   * Layout: FOLLOWER_MAGIC, version, nq, nv, flags (enabled 1, stepAhead 2, feedforward 'clip' 4,
   * wrap 'loop' 8, held targets 16, crumple targets 32, arm reflex 64), root mode (0 kinematic,
   * 1 assisted, 2 free), clip time, sync time, playback rate, last tone, holdAt, blendFrom,
   * blendTime, reflexUntil, limpAfter, restAfter, restTime, the drive's id; strength (nv); the tone
   * and the six group tones (MuscleTone.snapshot each); then the held targets (nq), the crumple
   * targets (nq) and the reflex (reach forward and backward, has a fall, fall, forward in the
   * trunk's frame) when their flags say so.
   */
  snapshot(out?: Float64Array): Float64Array {
    const m = this.model, r = this.reflex;
    let n = FOLLOWER_HEAD + m.nv + this.tone.snapshotLength;
    for (const g of JOINT_GROUPS) n += this.groupTone[g].snapshotLength;
    if (this.heldQ) n += m.nq;
    if (this.blendQ) n += m.nq;
    if (r) n += 9;
    const f = out && out.length >= n ? out.subarray(0, n) : new Float64Array(n);
    f[0] = FOLLOWER_MAGIC; f[1] = 1; f[2] = m.nq; f[3] = m.nv;
    f[4] = (this.enabled ? 1 : 0) | (this.stepAhead ? 2 : 0) | (this.feedforward === 'clip' ? 4 : 0) | (this.wrap === 'loop' ? 8 : 0)
      | (this.heldQ ? 16 : 0) | (this.blendQ ? 32 : 0) | (r ? 64 : 0);
    f[5] = ROOT_MODES.indexOf(this._root);
    f[6] = this.clipTime; f[7] = this.syncTime; f[8] = this.rate; f[9] = this.clock[3];
    f[10] = this.holdAt; f[11] = this.blendFrom; f[12] = this.blendTime; f[13] = this.reflexUntil;
    f[14] = this.limpAfter; f[15] = this.restAfter; f[16] = this.restTime; f[17] = this.drive.id;
    let o = FOLLOWER_HEAD;
    f.set(this.strength, o); o += m.nv;
    this.tone.snapshot(f, o); o += this.tone.snapshotLength;
    for (const g of JOINT_GROUPS) { this.groupTone[g].snapshot(f, o); o += this.groupTone[g].snapshotLength; }
    if (this.heldQ) { f.set(this.heldQ, o); o += m.nq; }
    if (this.blendQ) { f.set(this.blendQ, o); o += m.nq; }
    if (r) {
      f[o] = r.reachForward; f[o + 1] = r.reachBackward; f[o + 2] = r.hasFall ? 1 : 0;
      f.set(r.fall, o + 3);
      r.saveForward(f, o + 6);
    }
    return f;
  }

  /**
   * Takes back what snapshot() wrote (see there); refused with a RangeError, before anything
   * changes, when it is not a snapshot of a follower of a model with this one's nq and nv. A
   * snapshot taken after a crumpling death restores its arm reflex into this follower's model.
   */
  restore(snapshot: Float64Array): void {
    const m = this.model, f = snapshot;
    const fail = (why: string): never => { throw new RangeError(`MotionFollower.restore: ${why}`); };
    if (!(f instanceof Float64Array)) fail('expected the Float64Array that MotionFollower.snapshot returned');
    if (f.length < FOLLOWER_HEAD || f[0] !== FOLLOWER_MAGIC) fail(`number 0 does not start a follower snapshot (${f.length} numbers)`);
    if (f[1] !== 1) fail(`snapshot version ${f[1]}; this follower reads version 1`);
    if (f[2] !== m.nq || f[3] !== m.nv) fail(`the snapshot is of a model with ${f[2]} q and ${f[3]} qd; body "${this.bodyRef.name}" has ${m.nq} and ${m.nv}`);
    const flags = f[4], mode = ROOT_MODES[f[5]];
    if (!Number.isInteger(flags) || flags < 0 || flags > 127 || mode === undefined) fail(`flags ${flags} and root mode ${f[5]} are not a follower's`);
    for (let k = 6; k < FOLLOWER_HEAD; k++) if (Number.isNaN(f[k])) fail(`number ${k} is NaN`);
    if (!Number.isFinite(f[6] + f[7] + f[8])) fail(`clip time ${f[6]}, sync time ${f[7]} and rate ${f[8]} must be finite`);
    // the tones read into scratch ones first: nothing changes before every part is read
    let o = FOLLOWER_HEAD + m.nv;
    if (f.length < o) fail(`the snapshot ends at number ${f.length}, before its drive strengths`);
    const tones = [new MuscleTone(1), ...JOINT_GROUPS.map(() => new MuscleTone(1))];
    try {
      for (const t of tones) o += t.restore(f, o);
    } catch (e) {
      fail(`its muscle tones (from number ${FOLLOWER_HEAD + m.nv}): ${(e as Error).message}`);
    }
    const held = flags & 16 ? o : -1; if (held >= 0) o += m.nq;
    const blend = flags & 32 ? o : -1; if (blend >= 0) o += m.nq;
    const reflex = flags & 64 ? o : -1; if (reflex >= 0) o += 9;
    if (o !== f.length) fail(`the snapshot holds ${f.length} numbers; its flags (${flags}) and tones make ${o}`);
    this.enabled = (flags & 1) !== 0;
    this.stepAhead = (flags & 2) !== 0;
    this.feedforward = flags & 4 ? 'clip' : 'none';
    this.wrap = flags & 8 ? 'loop' : 'clamp';
    this.root = mode;
    this.clipTime = f[6]; this.syncTime = f[7]; this.rate = f[8]; this.clock[3] = f[9];
    this.holdAt = f[10]; this.blendFrom = f[11]; this.blendTime = f[12]; this.reflexUntil = f[13];
    this.limpAfter = f[14]; this.restAfter = f[15]; this.restTime = f[16];
    // the saved id: the drive rows' warm-start keys meet the forces World.restore put back
    (this.drive as { id: number }).id = f[17];
    this.strength.set(f.subarray(FOLLOWER_HEAD, FOLLOWER_HEAD + m.nv));
    o = FOLLOWER_HEAD + m.nv;
    o += this.tone.restore(f, o);
    for (const g of JOINT_GROUPS) o += this.groupTone[g].restore(f, o);
    this.heldQ = held >= 0 ? f.slice(held, held + m.nq) : null;
    this.blendQ = blend >= 0 ? f.slice(blend, blend + m.nq) : null;
    if (reflex >= 0) {
      const r = new ArmReflex(m, { reachForward: f[reflex], reachBackward: f[reflex + 1] });
      r.hasFall = f[reflex + 2] === 1;
      r.fall.set(f.subarray(reflex + 3, reflex + 6));
      r.restoreForward(f, reflex + 6);
      this.reflex = r;
    } else this.reflex = null;
  }

  /** The targets for clip time t = clock[0] (q, qd, qdd) written into the drive, and the torque limits for the tone (World time clock[1], step clock[2]). */
  private writeTargets(): void {
    const c = this.clock, t = c[0], worldTime = c[1], h = c[2];
    const d = this.drive, traj = this.trajectory, r = this.rate, sp = this.sampler;
    if (worldTime >= this.holdAt && !this.heldQ) this.heldQ = traj.sampleQ(t, new Float64Array(this.model.nq), this.wrap);
    if (this.blendQ && worldTime >= this.blendFrom + this.blendTime) {
      this.heldQ = this.blendQ;
      this.blendQ = null;
    }
    if (worldTime >= this.limpAfter) {
      // limp: the residual tone brakes the joints where they are and holds nothing up
      d.targetQ.set(this.bodyRef.state.q);
      d.targetQd.fill(0);
      d.targetQdd.fill(0);
    } else if (this.blendQ) {
      c[4] = (worldTime - this.blendFrom) / this.blendTime;
      this.blendTargets();
    } else if (this.heldQ) {
      d.targetQ.set(this.heldQ);
      d.targetQd.fill(0);
      d.targetQdd.fill(0);
    } else {
      sp.time[0] = t;
      sp.sampleQ(d.targetQ, this.wrap);
      sp.sampleQd(d.targetQd, this.wrap);
      for (let k = 0; k < d.targetQd.length; k++) d.targetQd[k] *= r;
      if (this.feedforward === 'clip' && r !== 0) {
        sp.sampleQdd(d.targetQdd, this.wrap);
        for (let k = 0; k < d.targetQdd.length; k++) d.targetQdd[k] *= r * r;
      } else d.targetQdd.fill(0);
    }
    const str = this.strength;
    for (let k = 0; k < this.kp.length; k++) {
      const kp = this.kp[k] * str[k] * str[k], kd = this.kd[k] * str[k];
      if (this.stepAhead) {
        const s = 1 / (1 + kd * h);
        d.kp[k] = kp * s;
        d.kd[k] = (kd + kp * h) * s;
      } else {
        d.kp[k] = kp;
        d.kd[k] = kd;
      }
    }
    const tone = this.tone.at(worldTime);
    c[3] = tone;
    const m = this.model, v0 = m.jointType[0] === JointType.free ? 6 : 0;
    const gf = this.groupFactor;
    for (let g = 0; g < gf.length; g++) gf[g] = this.groupTone[JOINT_GROUPS[g]].at(worldTime);
    for (let k = 0; k < m.nv; k++) {
      const max = k < v0 ? this.maxTorque[k] : this.maxTorque[k] * tone * gf[this.dofGroup[k]];
      // (a strength of 0 gives 0, not Infinity times 0, for an unbounded root)
      d.maxTorque[k] = str[k] === 1 ? max : str[k] === 0 ? 0 : max * str[k];
    }
  }

  /**
   * Targets between the clip's at time t = clock[0] (weight 1 - s) and blendQ (weight s), s the
   * smoothstep of u = clock[4] in [0, 1]: joints interpolated on their manifold (slerp for
   * rotations), the clip's velocity and acceleration scaled by 1 - s, so the first steps continue
   * the clip's motion.
   */
  private blendTargets(): void {
    const d = this.drive, r = this.rate, m = this.model, b = this.blendQ!, sp = this.sampler;
    const u = this.clock[4];
    const c = Math.min(1, Math.max(0, u)), s = c * c * (3 - 2 * c);
    sp.time[0] = this.clock[0];
    sp.sampleQ(d.targetQ, this.wrap);
    sp.sampleQd(d.targetQd, this.wrap);
    for (let k = 0; k < d.targetQd.length; k++) d.targetQd[k] *= r * (1 - s);
    if (this.feedforward === 'clip' && r !== 0) {
      sp.sampleQdd(d.targetQdd, this.wrap);
      for (let k = 0; k < d.targetQdd.length; k++) d.targetQdd[k] *= r * r * (1 - s);
    } else d.targetQdd.fill(0);
    const q = d.targetQ;
    for (let i = 0; i < m.nLinks; i++) {
      const qo = m.qOffset[i];
      SLERP_F[0] = s;
      switch (m.jointType[i]) {
        case JointType.spherical: quatSlerpAt(q, qo, b, qo, q, qo); break;
        case JointType.free: quatSlerpAt(q, qo + 3, b, qo + 3, q, qo + 3); for (let k = 0; k < 3; k++) q[qo + k] += s * (b[qo + k] - q[qo + k]); break;
        default: for (let k = 0; k < m.jointNq[i]; k++) q[qo + k] += s * (b[qo + k] - q[qo + k]);
      }
    }
  }

  addRows(rows: RowBuffer, ctx: StepContext): void {
    if (!this.enabled) return;
    if (ctx.bodies[this.body].sleeping) return;
    const c = this.clock;
    c[1] = this.world.time;
    c[2] = ctx.h;
    c[0] = this.clipTime + (c[1] - this.syncTime) * this.rate;
    const still = c[1] >= this.restAfter && this.stillFor();
    const target = this.blendQ ?? this.heldQ;
    if (this.reflex && target && this.world.time < this.reflexUntil) {
      // the arms follow the fall, smoothed over 0.05 s
      this.reflex.observe(this.bodyRef.state);
      this.reflex.write(this.bodyRef.state, target, Math.min(1, c[2] / 0.05));
    }
    this.writeTargets();
    this.drive.addRows(rows, ctx);
    if (still) {
      // the body has been still for the World's sleep time (stillFor measured it with the World's
      // thresholds): this step's rows still hold it, then the follower switches off and the body
      // sleeps at the end of the step, rather than counting that time again without its residual
      // tone (which can leave a light hand or head chattering on the floor)
      this.enabled = false;
      const b = this.bodyRef;
      if (b.restTime < this.world.settings.sleepTime) b.restTime = this.world.settings.sleepTime;
    }
  }

  /** True once the body has moved slower than the World's sleep speed for its sleep time (velocities of the World's last kinematics; step length clock[2]). */
  private stillFor(): boolean {
    const h = this.clock[2];
    const m = this.model, v = this.bodyRef.state.work.v;
    // kinetic energy 1/2 sum v_i . I_i v_i, from the link velocities the World's kinematics left
    let e = 0;
    for (let i = 0; i < m.nLinks; i++) {
      const o = 6 * i, I = m.I, io = 36 * i;
      for (let r = 0; r < 6; r++) {
        let s = 0;
        for (let c = 0; c < 6; c++) s += I[io + 6 * r + c] * v[o + c];
        e += v[o + r] * s;
      }
    }
    const speed = Math.sqrt(e / m.totalMass());
    this.restTime = speed < this.world.settings.sleepSpeed ? this.restTime + h : 0;
    return this.restTime >= this.world.settings.sleepTime;
  }

  /**
   * Adds the clip's own joint torques at the follower's time (inverse dynamics of its q, qd and
   * qdd: feed-forward.ts), scaled by the muscle tone of each joint's group, to the body's joint
   * torques, so the drive rows only correct the errors: the same tracking needs far lower torque
   * limits, and a softly driven character still walks. Call it before each World.step (the World
   * clears the torques after the step). The root's six forces are left out (the ground, or the
   * root mode, carries the body), and nothing is added once the body is dead, asleep or the
   * follower off. Allocation-free after the first call.
   */
  applyFeedForward(): void {
    const b = this.bodyRef, m = this.model;
    if (!this.enabled || b.sleeping || this.heldQ || this.blendQ || this.limpAfter < Infinity) return;
    if (!this.ff) {
      this.ff = new InverseDynamicsFeedForward(this.trajectory, { wrap: this.wrap });
      this.ffTau = new Float64Array(m.nv);
    }
    this.ff.wrap = this.wrap;
    const tau = this.ff.torques(this.time, this.ffTau!, this.playbackRate);
    const now = this.world.time, tone = this.tone.at(now), gf = this.groupFactor;
    for (let g = 0; g < gf.length; g++) gf[g] = this.groupTone[JOINT_GROUPS[g]].at(now);
    const v0 = m.jointType[0] === JointType.free ? 6 : 0, st = b.state;
    for (let k = v0; k < m.nv; k++) st.tau[k] += tau[k] * tone * gf[this.dofGroup[k]] * this.strength[k];
    st.work.dynamicsValid = false;
  }

  /** Joint error per joint at the current clip time: angle of Q^-1 Q_d for rotations, |q - q_d| for 1-dof joints (rad); the free root's position error (m) under `${name}.position`. */
  jointErrors(out: Record<string, number> = {}): Record<string, number> {
    const m = this.model, q = this.bodyRef.state.q;
    const target = this.heldQ ?? this.trajectory.sampleQ(this.time, new Float64Array(m.nq), this.wrap);
    return jointErrors(m, q, target, out);
  }

  /**
   * A hit that is not death: an impulse, a dip in muscle tone, and recovery to the clip. With a
   * kinematic root the impulse moves the joints only (the root is held, as its unbounded drive would).
   */
  hit(options: HitOptions): void {
    const m = this.model, st = this.bodyRef.state;
    const link = typeof options.link === 'string' ? m.linkIndex(options.link) : options.link;
    if ((options.as ?? 'velocity') === 'force') {
      impulseAsForce(st, link, options.point, options.impulse, options.h ?? 1 / 60);
    } else {
      const hold = this._root === 'kinematic' && m.jointType[0] === JointType.free ? [0, 1, 2, 3, 4, 5] : [];
      applyImpulse(m, st, link, options.point, options.impulse, { hold });
    }
    this.world.wake(this.bodyRef);
    const now = this.world.time;
    const dip = options.tone ?? 0.3, dipTime = options.dipTime ?? 0.05, recover = options.recoverTime ?? 0.6;
    this.tone.rampTo(dip, dipTime, now).rampTo(1, recover, now + dipTime);
  }

  /**
   * Death: the root is let go, an optional impulse is applied, and the muscle tone fades to a
   * residual over `fadeTime` while the muscles aim at the chosen pose (see DeathOptions).
   */
  die(options: DeathOptions = {}): void {
    const m = this.model, st = this.bodyRef.state;
    if (options.fromClip !== false) this.resetToClip();
    this.root = 'free';
    const now = this.world.time;
    const fade = options.fadeTime ?? 0.8;
    const residual = options.residualTone ?? 0.05;
    if (!(fade >= 0) || !(residual >= 0 && residual <= 1)) throw new RangeError(`MotionFollower.die: fadeTime ${fade} must be >= 0 and residualTone ${residual} within [0, 1]`);
    const pose = options.pose ?? 'crumple';
    this.blendQ = null;
    this.heldQ = null;
    this.reflex = null;
    this.limpAfter = Infinity;
    this.holdAt = Infinity;
    if (pose !== 'crumple' && pose !== 'clip' && pose !== 'hold' && pose !== 'relaxed') throw new RangeError(`MotionFollower.die: pose "${String(pose)}": expected 'crumple', 'clip', 'hold' or 'relaxed'`);
    const schedule = options.toneSchedule === undefined ? DEATH_TONE : options.toneSchedule;
    for (const g of JOINT_GROUPS) {
      const stage = schedule?.[g];
      if (stage && !(stage.delay >= 0 && stage.duration >= 0 && stage.level >= 0 && Number.isFinite(stage.delay + stage.duration + stage.level))) {
        throw new RangeError(`MotionFollower.die: toneSchedule.${g} needs finite delay >= 0, duration >= 0 and level >= 0, got ${JSON.stringify(stage)}`);
      }
    }
    this.tone.rampTo(residual, fade, now);
    for (const g of JOINT_GROUPS) {
      const stage = schedule?.[g], t = this.groupTone[g];
      t.set(t.at(now));
      if (stage) t.rampTo(stage.level, stage.duration, now + stage.delay);
    }
    this.restTime = 0;
    this.restAfter = options.sleepAtRest === false ? Infinity : now + fade;
    if (pose === 'clip') this.holdAt = now + fade;
    else if (pose === 'hold') this.heldQ = Float64Array.from(st.q);
    else if (pose === 'relaxed') this.heldQ = relaxedPose(m, st.q);
    if (options.impulse) {
      const link = typeof options.impulse.link === 'string' ? m.linkIndex(options.impulse.link) : options.impulse.link;
      applyImpulse(m, st, link, options.impulse.point, options.impulse.impulse);
    }
    if (pose === 'crumple') {
      // from the pose and velocities after the shot: the fall's direction decides the arms' reflex
      forwardKinematics(m, st, true);
      const crumple = { ...options.crumple, ...(options.armReflex !== undefined ? { armReflex: options.armReflex } : {}) };
      const fall = fallDirection(m, st);
      this.blendQ = crumplePose(m, st, fall, crumple);
      if (crumple.armReflex !== false) {
        const reflex = new ArmReflex(m, crumple);
        const forward = bodyForward(m, st);
        reflex.setForward(st, forward);
        reflex.setFall(fall ?? forward);
        this.reflex = reflex;
        const time = options.reflexTime ?? 0.5;
        if (!(time >= 0 && Number.isFinite(time))) throw new RangeError(`MotionFollower.die: reflexTime ${time} must be finite and >= 0`);
        this.reflexUntil = now + time;
      }
      this.blendFrom = now;
      this.limpAfter = now + fade;
      this.blendTime = options.blendTime ?? 0.05;
      if (!(this.blendTime >= 0 && Number.isFinite(this.blendTime))) throw new RangeError(`MotionFollower.die: blendTime ${this.blendTime} must be finite and >= 0`);
    }
    this.world.wake(this.bodyRef);
  }
}

/**
 * A relaxed pose for a limp body: the root as in `current`, spherical joints at their neutral
 * orientation and hinges slightly flexed (0.3 rad into their range from the end nearest zero),
 * projected into the joint limits.
 */
export function relaxedPose(model: Model, current: ArrayLike<number>): Float64Array {
  const q = new Float64Array(model.nq);
  for (let i = 0; i < model.nLinks; i++) {
    const qo = model.qOffset[i], t = model.jointType[i];
    if (t === JointType.free) for (let k = 0; k < 7; k++) q[qo + k] = current[qo + k];
    else if (t === JointType.spherical) q[qo + 3] = 1;
    else if (t === JointType.revolute) {
      const d = model.vOffset[i], lo = model.lower[d], hi = model.upper[d];
      q[qo] = lo >= 0 ? lo + 0.3 : hi <= 0 ? hi - 0.3 : 0;
    }
  }
  projectIntoLimits(model, q);
  return q;
}

/** Per-joint error between q and a target (rad; rotations as the angle of Q^-1 Q_d; the free joint's rotation under its name, its translation in m under `${name}.position`). */
export function jointErrors(model: Model, q: ArrayLike<number>, target: ArrayLike<number>, out: Record<string, number> = {}): Record<string, number> {
  for (let i = 0; i < model.nLinks; i++) {
    const qo = model.qOffset[i], name = model.jointNames[i];
    switch (model.jointType[i]) {
      case JointType.revolute:
      case JointType.prismatic:
        out[name] = Math.abs(q[qo] - target[qo]);
        break;
      case JointType.spherical:
        out[name] = quatAngle(q, qo, target, qo);
        break;
      case JointType.free:
        out[name] = quatAngle(q, qo + 3, target, qo + 3);
        out[`${name}.position`] = detMath.hypot(q[qo] - target[qo], q[qo + 1] - target[qo + 1], q[qo + 2] - target[qo + 2]);
        break;
    }
  }
  return out;
}

/** Angle of a^-1 b for unit quaternions a, b. */
function quatAngle(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const ax = -a[ao], ay = -a[ao + 1], az = -a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  return 2 * detMath.atan2(detMath.hypot(x, y, z), Math.abs(w));
}
