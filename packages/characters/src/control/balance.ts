/**
 * Balance: a character standing on its own feet with a free root, held up by nothing but its own
 * joints (bounded by its muscles' torques) and the ground. No force or torque ever acts on the root:
 * the joints are driven by a MotionFollower with a free root (its six root dofs undriven) toward
 * targets written before every step, and the ankles by joint torques within the legs' muscle limit.
 *
 * - Capture point (Pratt, Carff, Drakunov & Goswami 2006, "Capture point: a step toward humanoid
 *   push recovery", the linear inverted pendulum's capture point): xi = c + v / w0 with
 *   w0 = sqrt(g / z_c), c and v the horizontal centre of mass and its velocity, z_c the centre of
 *   mass's height above the soles. The body comes to rest over xi if its centre of pressure is there.
 *
 * - Ankle strategy (Horak & Nashner 1986, "Central programming of postural movements": the body
 *   sways as one inverted pendulum about the ankles). The body's lean forward is
 *   lambda = (c - a) . f / z_a (a the mid-point of the ankles, z_a the centre of mass's height above
 *   it, f the heading's forward axis), and its target is
 *     lambda_d = ((r - a) - k_a (xi - r)) . f / z_a, within maxLean of (r - a) . f / z_a        (1)
 *   with r the middle of the soles: with the lean tracked, c - r = -k_a (c - r + v / w0), so c
 *   converges to r at the rate w0 (1 + k_a) / k_a. The ankles apply the moment
 *     m = K_p (lambda_d - lambda) - K_d d(lambda)/dt,   K_p = m z_a^2 w^2 + m g z_a,  K_d = 2 m z_a^2 w   (2)
 *   on the legs (the pendulum's inertia m z_a^2 critically damped at w = 3.89 / settleTime, plus
 *   its gravity stiffness), shared between the feet by the lever rule (the centre of mass between
 *   the ankles), each foot's pitch and roll torque bounded so that its centre of pressure stays
 *   within `soleFraction` of its sole's reach (heel, toe and edge times its share of the weight)
 *   and by the legs' muscle limit (DEFAULT_MAX_TORQUES.legs): the foot stays flat instead of rolling.
 *   Each foot is also held flat about its length, within the same bound:
 *     m_roll = -(edge / 0.05) (sin(phi) + 0.1 s * phi')                                        (2b)
 *   (phi the foot's roll): with both feet down, the hips hold both legs at one world lean, so the
 *   stance could otherwise rock as a parallelogram on the feet's edges. Without (2b) a sideways
 *   push of 4 N s from the right, or 9 N s from the left, felled the preset while 13 N s recovered.
 *   Sideways the lean's target is r itself: with both feet down, legs and pelvis are a four-bar
 *   that the hips hold (below), so a sideways push meets the whole stance's width.
 *
 * - Hip strategy (Horak & Nashner 1986; the torso held at a world orientation through the stance
 *   hips as SIMBICON's, Yin, Loken & van de Panne 2007, section 3). Each hip's target is the
 *   rotation between the pelvis's target orientation and the thigh's, q_hip = Q_pelvis_d^-1
 *   Q_thigh_d (the preset's joint frames are unrotated, so a joint's rotation is the relative
 *   rotation of its links): the thigh at its own forward pitch and at the lean's sideways target,
 *   the pelvis upright, pitched toward the fall by the capture point's excess over the ankles' reach:
 *     bend = clamp(k_h (e - clamp(e, lo + margin, hi - margin)), -maxBend, maxBend)              (3)
 *   (e = (xi - r) . f, [lo, hi] the soles' extent along f): the trunk's quick rotation pushes the
 *   hips back and the ground's shear force slows the centre of mass. Off by default (k_h = 0; see
 *   BalanceOptions.hip): a bent trunk also carries the centre of mass toward the fall, and for this
 *   preset the two nearly cancel.
 *
 * - Support: the feet on the ground are those in the World's contact list with a static (from the
 *   last step); the soles are the bottom faces of the feet's boxes, r their middle.
 *
 * - Falling: fallen when the line from r to the centre of mass leans past `fallLean` (the capture
 *   point is then far out of the soles), the thorax tilts past `fallTilt`, or the pelvis drops
 *   below `fallHeight` of its standing height. Then `fallen` is set and, unless `die` is false, the
 *   follower dies (MotionFollower.die from the simulated state: a crumpling death).
 *
 * Not here: stepping (a swing foot placed at the capture point, or SIMBICON's foot placement
 * feedback d (c - ankle) + v c'). A push that the ankles and hips cannot take is a fall.
 */
import { centerOfMass, forwardKinematics, JointType, State, type Model } from '@sinew/featherstone';
import type { Body, World } from '@sinew/constraints';
import { CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_I32_STRIDE, CONTACT_LINK_A, CONTACT_LINK_B } from '@sinew/constraints/internals';
import { detMath } from '@sinew/featherstone';
import { quatConjMultiply } from '../motion/quat.js';
import { JointTrajectory } from './joint-trajectory.js';
import { DEFAULT_MAX_TORQUES, MotionFollower, type DeathOptions } from './motion-follower.js';
import { groupValue, JOINT_GROUPS, type JointGroup, type PerGroup } from './joint-groups.js';
import { lowestShapePoint } from './shape-bounds.js';

/** Eq. (2b): the roll (rad) at which a foot's flat-holding torque reaches its edge bound, and its damping time (s). */
const FLAT_ROLL = 0.05;
const FLAT_TIME = 0.1;

/** Options of a Balance: the standing pose, the gains of the ankle and hip strategies, when it has fallen, and the drives. */
export interface BalanceOptions {
  /** The standing pose (a q of the model; the root's seven numbers are ignored). Default: the neutral pose with the knees flexed by `kneeFlex`. */
  pose?: ArrayLike<number>;
  /** Knee flexion of the default pose, rad (default 0.05: knees just off their stops). */
  kneeFlex?: number;
  /**
   * Ankle strategy (module comment, eqs. 1 and 2): gain k_a on the capture point's error (default
   * 1), the largest lean from the reference, rad (default 0.25), the settle time of the lean, s
   * (default 0.5), and the fraction of the sole's reach the centre of pressure may use (default 0.8).
   */
  ankle?: { gain?: number; maxLean?: number; settleTime?: number; soleFraction?: number };
  /**
   * Hip strategy's trunk bend (eq. 3): gain k_h, rad per metre, the margin inside the soles' edge
   * where it starts, m (default 0.03), and the largest bend, rad (default 0.6). Default gain 0 (the
   * pelvis is still held upright through the hips): for the preset it hardly widens the pushes
   * survived (at the chest over 0.1 s, 1 N s steps: 15, 22, 16, 16 N s from behind, the front, the
   * left and the right with k_h = 20, against 15, 21, 16, 16 with 0); it is there to be tuned per
   * character.
   */
  hip?: { gain?: number; margin?: number; maxBend?: number };
  /** Fallen when the soles-to-centre-of-mass line leans past this, rad (default 0.35, 20 degrees). */
  fallLean?: number;
  /** Fallen when the thorax tilts past this from vertical, rad (default 1.1, 63 degrees). */
  fallTilt?: number;
  /** Fallen when the pelvis is lower than this fraction of its standing height (default 0.75). */
  fallHeight?: number;
  /** Die when fallen (default true): MotionFollower.die with these options (`fromClip` is always false: the fall goes on from the simulated state). False: only `fallen` is set and the drives keep trying. */
  die?: boolean | DeathOptions;
  /** Drive settle times per joint group, s (MotionFollower's). */
  settleTime?: PerGroup<number>;
  /** Torque limits per dof per joint group, N m: at most DEFAULT_MAX_TORQUES (the preset's muscles; default those). */
  maxTorque?: PerGroup<number>;
}

const FEET = ['foot_left', 'foot_right'] as const;
const THIGHS = ['thigh_left', 'thigh_right'] as const;
const REQUIRED_JOINTS = ['hip_left', 'hip_right', 'knee_left', 'knee_right', 'ankle_left', 'ankle_right'] as const;

/** Indices into Balance.figures. */
const enum F {
  comX, comY, comZ, velX, velY, velZ, captureX, captureZ, refX, refZ,
  errorForward, errorLeft, leanForward, leanLeft, bend, bodyLean, thoraxUp, pelvisHeight, feet,
  supportBack, supportFront, supportRight, supportLeft, size,
}

/**
 * A character balancing on its feet with a free root: `new Balance(world, body)`, then
 * `balance.update(dt)` before every `world.step(dt)`. Ankle and hip strategies keep the capture point
 * over the soles; `fallen` once it cannot, and then (by default) the body dies and falls as a death.
 */
export class Balance {
  readonly world: World;
  readonly body: Body;
  readonly model: Model;
  /** The joint drives (root free: never driven). Its trajectory holds the targets of the current step. */
  readonly follower: MotionFollower;
  /** The standing pose the targets start from. */
  readonly pose: Float64Array;
  /** The pelvis's height when standing in `pose` with its soles on the floor, m above them. */
  readonly standingHeight: number;
  /** The ankle strategy's gain k_a on the capture point's error (eq. 1). */
  readonly ankleGain: number;
  /** The fraction of each sole's reach (heel, toe, edge) the ankle torques may put the centre of pressure at. */
  readonly soleFraction: number;
  /** The largest lean from the reference (rad), and the hip strategy's gain k_h (rad/m), margin (m) and largest bend (rad) (eqs. 1, 3). */
  readonly maxLean: number;
  readonly hipGain: number;
  readonly hipMargin: number;
  readonly maxBend: number;
  /** The fall's thresholds: lean from the soles (rad), thorax tilt (rad), pelvis height (fraction of standing). */
  readonly fallLean: number;
  readonly fallTilt: number;
  readonly fallHeight: number;
  /**
   * Figures of the last update (world frame unless said): [0..2] centre of mass, [3..5] its
   * velocity, [6, 7] capture point (x, z), [8, 9] the soles' middle r (x, z), [10, 11] capture
   * point minus r along the heading's forward and left axes, [12, 13] the lean's targets forward
   * and left (rad), [14] the hip strategy's trunk bend (rad), [15] lean of the line from r to the
   * centre of mass (its tangent: horizontal over vertical distance), [16] the thorax's up axis's
   * vertical component (the cosine of its tilt), [17] pelvis height above the soles (m), [18] feet
   * on the ground (bit 0 left, bit 1 right), [19..22] the soles' extent from r: back, front, right,
   * left (m, signed along forward and left).
   */
  readonly figures = new Float64Array(F.size);
  private _fallen = false;
  /** tan(fallLean) and cos(fallTilt) (the fall's tests without trigonometry in the step), and the ankles' torque bound (N m; read as a double: a small integer in a field would box the clamped torques). */
  private readonly limits = new Float64Array(3);
  private readonly death: DeathOptions | null;
  private readonly targets: Float64Array;
  private readonly pelvis: number;
  private readonly thorax: number;
  private readonly feet: Int32Array;
  private readonly thighs: Int32Array;
  private readonly ankleQ: Int32Array;
  private readonly hipQ: Int32Array;
  private readonly ankleV: Int32Array;
  /** The ankles' PD gains (eq. 2 halved: N m / rad, N m s / rad per ankle), and the standing centre of mass's height above them (m). */
  private readonly ankleKp: number;
  private readonly ankleKd: number;
  private readonly comOverAnkles: number;
  /** Sole reach from the ankle per foot: heel, toe (along the foot's +Z) and half width (m). */
  private readonly reach = new Float64Array(6);
  /** The four corners of each foot's sole (left then right), in the foot's link frame, and in the world (x, z) at the last update. */
  private readonly sole = new Float64Array(24);
  private readonly soleWorld = new Float64Array(16);
  private readonly mass: number;
  private readonly g: number;
  /** Scratch of the step: quaternions (12..31), half-angles and their inputs (20..47). */
  private readonly s = new Float64Array(48);
  private readonly com = new Float64Array(3);
  /** The body's lean forward and left (rad), their rates (rad/s), and the heading's forward and left axes (x, z), the lean's targets forward and left, a foot's share of the weight. */
  private readonly lean = new Float64Array(11);

  constructor(world: World, body: Body, options: BalanceOptions = {}) {
    const m = body.model;
    this.world = world;
    this.body = body;
    this.model = m;
    if (m.jointType[0] !== JointType.free) throw new RangeError(`Balance: body "${body.name}": the root joint must be free`);
    for (const name of REQUIRED_JOINTS) {
      if (!m.jointNames.includes(name)) throw new RangeError(`Balance: body "${body.name}" has no joint "${name}": the strategies are written for the humanoid preset's legs`);
    }
    for (const l of ['pelvis', 'thorax', ...FEET, ...THIGHS]) {
      if (!m.linkNames.includes(l)) throw new RangeError(`Balance: body "${body.name}" has no link "${l}": the strategies are written for the humanoid preset`);
    }
    for (let i = 0; i < m.nLinks; i++) {
      const X = m.treeX, o = 12 * i;
      if (Math.abs(X[o] - 1) + Math.abs(X[o + 4] - 1) + Math.abs(X[o + 8] - 1) > 1e-12) throw new RangeError(`Balance: body "${body.name}": joint "${m.jointNames[i]}" has a rotated joint frame; the strategies need unrotated frames, as the humanoid preset's`);
    }
    for (const src of world.sources) {
      if (src instanceof MotionFollower && src.bodyRef === body && src.enabled) {
        throw new RangeError(`Balance: body "${body.name}" is still driven by a MotionFollower: remove it first (follower.remove())`);
      }
    }
    const num = (name: string, v: number | undefined, def: number, lo: number, hi = Infinity): number => {
      const x = v ?? def;
      if (!(x >= lo && x <= hi && Number.isFinite(x))) throw new RangeError(`Balance: ${name} ${x} must be a finite number within [${lo}, ${hi}]`);
      return x;
    };
    this.ankleGain = num('ankle.gain', options.ankle?.gain, 1, 0);
    this.soleFraction = num('ankle.soleFraction', options.ankle?.soleFraction, 0.8, 0, 1);
    this.maxLean = num('ankle.maxLean', options.ankle?.maxLean, 0.25, 0, 1.5);
    this.hipGain = num('hip.gain', options.hip?.gain, 0, 0);
    this.hipMargin = num('hip.margin', options.hip?.margin, 0.03, 0);
    this.maxBend = num('hip.maxBend', options.hip?.maxBend, 0.6, 0, 1.5);
    this.fallLean = num('fallLean', options.fallLean, 0.35, 0, 1.5);
    this.fallTilt = num('fallTilt', options.fallTilt, 1.1, 0, Math.PI);
    this.fallHeight = num('fallHeight', options.fallHeight, 0.75, 0, 1);
    this.limits[0] = detMath.tan(this.fallLean);
    this.limits[1] = detMath.cos(this.fallTilt);
    const ankleSettle = num('ankle.settleTime', options.ankle?.settleTime, 0.5, 1e-3);
    const kneeFlex = num('kneeFlex', options.kneeFlex, 0.05, 0, 1.5);
    for (const g of JOINT_GROUPS) {
      if (g === 'root') continue;
      const t = groupValue(options.maxTorque, g, DEFAULT_MAX_TORQUES);
      if (!(t >= 0 && t <= DEFAULT_MAX_TORQUES[g])) throw new RangeError(`Balance: maxTorque of group "${g}" ${t} must be within [0, ${DEFAULT_MAX_TORQUES[g]}] (DEFAULT_MAX_TORQUES, the preset's muscles)`);
    }
    const die = options.die ?? true;
    if (typeof die !== 'boolean' && (typeof die !== 'object' || die === null)) throw new RangeError(`Balance: die must be a boolean or DeathOptions, got ${String(die)}`);
    this.death = die === false ? null : { ...(die === true ? {} : die), fromClip: false };

    // the standing pose
    const pose = new Float64Array(m.nq);
    if (options.pose) {
      if (options.pose.length !== m.nq) throw new RangeError(`Balance: pose has ${options.pose.length} numbers; expected the model's nq = ${m.nq}`);
      for (let k = 0; k < m.nq; k++) if (!Number.isFinite(options.pose[k])) throw new RangeError(`Balance: pose[${k}] is not finite`);
      pose.set(options.pose);
    } else {
      for (let i = 0; i < m.nLinks; i++) if (m.jointType[i] === JointType.spherical) pose[m.qOffset[i] + 3] = 1;
      for (const k of ['knee_left', 'knee_right']) pose[m.qOffset[m.jointNames.indexOf(k)]] = kneeFlex;
    }
    pose[3] = 0; pose[4] = 0; pose[5] = 0; pose[6] = 1; pose[0] = 0; pose[1] = 0; pose[2] = 0;
    this.pose = pose;
    const scratch = new State(m);
    scratch.q.set(pose);
    forwardKinematics(m, scratch, false);
    const sole = lowestShapePoint(m, scratch);
    this.pelvis = m.linkIndex('pelvis');
    this.thorax = m.linkIndex('thorax');
    this.feet = Int32Array.from(FEET, (l) => m.linkIndex(l));
    this.thighs = Int32Array.from(THIGHS, (l) => m.linkIndex(l));
    const jointLink = (name: string) => m.jointNames.indexOf(name);
    this.ankleQ = Int32Array.from(['ankle_left', 'ankle_right'], (n) => m.qOffset[jointLink(n)]);
    this.ankleV = Int32Array.from(['ankle_left', 'ankle_right'], (n) => m.vOffset[jointLink(n)]);
    for (const n of ['ankle_left', 'ankle_right']) if (m.jointType[jointLink(n)] !== JointType.spherical) throw new RangeError(`Balance: body "${body.name}": joint "${n}" must be a ball joint`);
    this.hipQ = Int32Array.from(['hip_left', 'hip_right'], (n) => m.qOffset[jointLink(n)]);
    for (const n of ['knee_left', 'knee_right']) if (m.jointType[jointLink(n)] !== JointType.revolute) throw new RangeError(`Balance: body "${body.name}": joint "${n}" must be a hinge`);
    const P = scratch.work.pose;
    this.standingHeight = P[12 * this.pelvis + 10] - sole;
    // the centre of mass's height above the ankles, standing
    this.comOverAnkles = centerOfMass(m, scratch, new Float64Array(3))[1] - 0.5 * (P[12 * this.feet[0] + 10] + P[12 * this.feet[1] + 10]);
    this.mass = m.totalMass();
    this.g = detMath.hypot(world.gravity[0], world.gravity[1], world.gravity[2]);
    if (!(this.g > 0)) throw new RangeError('Balance: the World has no gravity: there is nothing to balance against');
    for (let k = 0; k < 2; k++) {
      const shapes = m.shapes[this.feet[k]] ?? [];
      const box = shapes.find((sh) => sh.geometry.type === 'box');
      if (!box || box.geometry.type !== 'box') throw new RangeError(`Balance: body "${body.name}": link "${FEET[k]}" has no box shape (its sole)`);
      const he = box.geometry.halfExtents, p = box.position ?? [0, 0, 0];
      if (box.rotation && Math.abs(box.rotation[3]) < 1 - 1e-12) throw new RangeError(`Balance: body "${body.name}": the box of link "${FEET[k]}" is rotated; its sole must be its bottom face, as the humanoid preset's`);
      for (let c = 0; c < 4; c++) {
        const o = 12 * k + 3 * c;
        this.sole[o] = p[0] + (c & 1 ? he[0] : -he[0]);
        this.sole[o + 1] = p[1] - he[1];
        this.sole[o + 2] = p[2] + (c & 2 ? he[2] : -he[2]);
      }
      this.reach[3 * k] = he[2] - p[2];
      this.reach[3 * k + 1] = he[2] + p[2];
      this.reach[3 * k + 2] = he[0] - Math.abs(p[0]);
    }

    this.targets = new Float64Array(m.nq);
    this.targets.set(pose);
    this.targets.set(body.state.q.subarray(0, 7), 0);
    const trajectory = new JointTrajectory(m, [0], this.targets, { name: 'balance' });
    this.follower = new MotionFollower(world, body, {
      trajectory, root: 'free', initialize: false, feedforward: 'none',
      ...(options.settleTime ? { settleTime: options.settleTime } : {}),
      ...(options.maxTorque ? { maxTorque: options.maxTorque } : {}),
    });
    this.targets = trajectory.q;
    const zA = this.comOverAnkles, w = 3.889720169867429 / ankleSettle;
    this.ankleKp = 0.5 * (this.mass * zA * zA * w * w + this.mass * this.g * zA);
    this.ankleKd = this.mass * zA * zA * w;
    this.limits[2] = groupValue(options.maxTorque, 'legs', DEFAULT_MAX_TORQUES);
    world.wake(body);
  }

  /** True once the body has fallen (see BalanceOptions.fallLean, fallTilt, fallHeight): the strategies stop, and by default the body has died. */
  get fallen(): boolean {
    return this._fallen;
  }

  /** Feet on the ground at the last update: bit 0 the left, bit 1 the right. */
  get feetOnGround(): number {
    return this.figures[F.feet];
  }

  /** The capture point (x, z) of the last update. */
  capturePoint(out: Float64Array = new Float64Array(2)): Float64Array {
    out[0] = this.figures[F.captureX];
    out[1] = this.figures[F.captureZ];
    return out;
  }

  /**
   * Before each `world.step(dt)`: reads the body's centre of mass, its velocity and its feet's
   * contacts, writes the drives' targets (ankle and hip strategies), and checks for a fall.
   * Allocation-free.
   */
  update(dt: number): void {
    if (!(dt > 0 && Number.isFinite(dt))) throw new RangeError(`Balance.update: dt ${dt} must be a positive number of seconds`);
    if (this._fallen || !this.follower.enabled) return;
    const m = this.model, st = this.body.state, Fg = this.figures, s = this.s;
    forwardKinematics(m, st, true);
    const P = st.work.pose;
    centerOfMass(m, st, this.com);
    const cx = this.com[0], cy = this.com[1], cz = this.com[2];
    // its velocity: the mass-weighted velocities of the links' centres of mass, R (v + w x c) from
    // the link velocities [w; v] (link coordinates) of the kinematics
    const V = st.work.v, mc = m.com, mm = m.mass;
    let px = 0, py = 0, pz = 0;
    for (let i = 0; i < m.nLinks; i++) {
      const vo = 6 * i, co = 3 * i, o = 12 * i;
      const wx = V[vo], wy = V[vo + 1], wz = V[vo + 2], lx = mc[co], ly = mc[co + 1], lz = mc[co + 2];
      const ux = V[vo + 3] + wy * lz - wz * ly, uy = V[vo + 4] + wz * lx - wx * lz, uz = V[vo + 5] + wx * ly - wy * lx;
      const mi = mm[i];
      px += mi * (P[o] * ux + P[o + 1] * uy + P[o + 2] * uz);
      py += mi * (P[o + 3] * ux + P[o + 4] * uy + P[o + 5] * uz);
      pz += mi * (P[o + 6] * ux + P[o + 7] * uy + P[o + 8] * uz);
    }
    const inv = 1 / this.mass;
    const vx = px * inv, vy = py * inv, vz = pz * inv;

    // heading frame: the pelvis's forward axis (link +Z) along the floor
    const po = 12 * this.pelvis;
    let fx = P[po + 2], fz = P[po + 8];
    let fn = Math.sqrt(fx * fx + fz * fz);
    if (fn < 1e-6) { fx = -P[po + 1]; fz = -P[po + 7]; fn = Math.sqrt(fx * fx + fz * fz); } // lying: its up axis
    if (fn < 1e-12) { fx = 0; fz = 1; fn = 1; }
    fx /= fn; fz /= fn;
    const lx = fz, lz = -fx; // left = up x forward

    // the soles: each foot's sole (the bottom face of its box) and whether it touches a static
    // (the World's contact list, from the last step); the reference point is the middle of the soles
    // of the feet on the ground (of both when neither is), the support their extent along forward and left
    const C = this.world.collision.contacts;
    let feet = 0;
    const self = this.body.index, fl = this.feet[0], fr = this.feet[1];
    for (let k = 0; k < C.count; k++) {
      const io = k * CONTACT_I32_STRIDE;
      const a = C.i32[io + CONTACT_BODY_A], b = C.i32[io + CONTACT_BODY_B];
      const link = a === self && b < 0 ? C.i32[io + CONTACT_LINK_A] : b === self && a < 0 ? C.i32[io + CONTACT_LINK_B] : -1;
      if (link === fl) feet |= 1;
      else if (link === fr) feet |= 2;
    }
    let rx = 0, rz = 0, ax = 0, ay = 0, az = 0, n = 0, soleY = 0;
    const sl = this.sole, sw = this.soleWorld;
    for (let k = 0; k < 2; k++) {
      const o = 12 * this.feet[k];
      ax += 0.5 * P[o + 9]; ay += 0.5 * P[o + 10]; az += 0.5 * P[o + 11];
      for (let c = 0; c < 4; c++) {
        const lo = 12 * k + 3 * c, wo = 8 * k + 2 * c;
        const x = sl[lo], y = sl[lo + 1], z = sl[lo + 2];
        const wx = P[o] * x + P[o + 1] * y + P[o + 2] * z + P[o + 9];
        const wy = P[o + 3] * x + P[o + 4] * y + P[o + 5] * z + P[o + 10];
        const wz = P[o + 6] * x + P[o + 7] * y + P[o + 8] * z + P[o + 11];
        sw[wo] = wx; sw[wo + 1] = wz;
        rx += wx; rz += wz; soleY += wy; n++;
      }
    }
    rx /= n; rz /= n; soleY /= n;
    let bMin = Infinity, bMax = -Infinity, lMin = Infinity, lMax = -Infinity;
    for (let k = 0; k < 2; k++) {
      for (let c = 0; c < 4; c++) {
        const wo = 8 * k + 2 * c;
        const dx = sw[wo] - rx, dz = sw[wo + 1] - rz;
        const u = dx * fx + dz * fz, w = dx * lx + dz * lz;
        if (u < bMin) bMin = u;
        if (u > bMax) bMax = u;
        if (w < lMin) lMin = w;
        if (w > lMax) lMax = w;
      }
    }

    // capture point (Pratt et al. 2006): xi = c + v / w0, w0 = sqrt(g / z_c)
    const zc = Math.max(cy - soleY, 1e-3);
    const w0 = Math.sqrt(this.g / zc);
    const xix = cx + vx / w0, xiz = cz + vz / w0;
    const ex = xix - rx, ez = xiz - rz;
    const ef = ex * fx + ez * fz, el = ex * lx + ez * lz;

    // ankle strategy, eq. (1): the legs' lean toward the reference, against the capture point's error
    const za = Math.max(cy - ay, 1e-3);
    const raf = (rx - ax) * fx + (rz - az) * fz, ral = (rx - ax) * lx + (rz - az) * lz;
    const L = this.lean;
    L[0] = ((cx - ax) * fx + (cz - az) * fz) / za;
    L[1] = ((cx - ax) * lx + (cz - az) * lz) / za;
    L[2] = (vx * fx + vz * fz) / za;
    L[3] = (vx * lx + vz * lz) / za;
    L[4] = fx; L[5] = fz; L[6] = lx; L[7] = lz;
    const k = this.ankleGain, ml = this.maxLean;
    let leanF = (raf - k * ef) / za;
    const refF = raf / za, leanL = ral / za;
    leanF = leanF < refF - ml ? refF - ml : leanF > refF + ml ? refF + ml : leanF;
    L[8] = leanF; L[9] = leanL;

    // hip strategy, eq. (2): bend the trunk toward the fall by the capture point's excess over the ankles' reach
    let bend = 0;
    if (feet !== 0) {
      const mg = this.hipMargin, mb = this.maxBend;
      const lo = bMin + mg, hi = bMax - mg;
      bend = this.hipGain * (ef < lo ? ef - lo : ef > hi ? ef - hi : 0);
      bend = bend < -mb ? -mb : bend > mb ? mb : bend;
    }

    // each foot's share of the weight by the lever rule: the centre of mass between the ankles, along the line joining them
    const o0 = 12 * this.feet[0], o1 = 12 * this.feet[1];
    const jx = P[o0 + 9] - P[o1 + 9], jz = P[o0 + 11] - P[o1 + 11], jj = jx * jx + jz * jz;
    let shareLeft = jj > 1e-9 ? ((cx - P[o1 + 9]) * jx + (cz - P[o1 + 11]) * jz) / jj : 0.5;
    shareLeft = shareLeft < 0.05 ? 0.05 : shareLeft > 0.95 ? 0.95 : shareLeft;
    // targets: joints of the pose, then the legs' and pelvis's world orientations through ankles and hips
    const T = this.targets, pose = this.pose;
    T.set(pose);
    for (let k = 0; k < 7; k++) T[k] = st.q[k];
    // the heading's half-angle (cos, sin) from its forward axis, without trigonometry: s[40], s[41]
    s[42] = fz; s[43] = fx;
    halfAngle(s, 42, s, 40);
    // Q_shank_d = Ry(yaw) Rx(leanF) Rz(-leanL) (forward lean about the left axis, +X of the heading frame; to the left: about -Z)
    // half-angle (cos, sin) of the lean forward, the lean to the left (as a roll: -leanL), the bend, and of no roll
    s[24] = leanF; s[25] = -leanL; s[26] = bend;
    halfAngleOf(s, 24, s, 32);
    halfAngleOf(s, 25, s, 34);
    halfAngleOf(s, 26, s, 36);
    s[38] = 1; s[39] = 0;
    yawPitchRoll(s, 32, 34, s, 12);
    // Q_pelvis_d = Ry(yaw) Rx(bend)
    yawPitchRoll(s, 36, 38, s, 16);
    for (let side = 0; side < 2; side++) {
      const foot = this.feet[side], aq = this.ankleQ[side], hq = this.hipQ[side];
      // hip: Q_pelvis_d^-1 Q_thigh_d, the thigh at its own forward pitch (SIMBICON's torso control
      // through the hips) and at the lean's target to the side (with both feet down the legs and
      // pelvis are a four-bar: the hips lean it sideways, shifting the load between the feet)
      const to = 12 * this.thighs[side];
      const uf = P[to + 1] * fx + P[to + 7] * fz;
      const un = Math.sqrt(uf * uf + P[to + 4] * P[to + 4]);
      s[42] = P[to + 4] / un; s[43] = uf / un;
      halfAngle(s, 42, s, 20);
      yawPitchRoll(s, 20, 34, s, 24);
      quatConjMultiply(s, 16, s, 24, T, hq);
      unitQuat(T, hq);
      if (feet & (1 << side)) {
        // ankle: Q_shank_d^-1 Q_foot_d, the foot flat at its own heading
        const o = 12 * foot;
        const hn = Math.sqrt(P[o + 2] * P[o + 2] + P[o + 8] * P[o + 8]);
        s[42] = P[o + 8] / hn; s[43] = P[o + 2] / hn;
        halfAngle(s, 42, s, 46);
        s[28] = 0; s[29] = s[47]; s[30] = 0; s[31] = s[46];
        quatConjMultiply(s, 12, s, 28, T, aq);
        unitQuat(T, aq);
      }
      // on the ground: pitch and roll by the ankle strategy's torque (drive rows off), twist by its row; in the air: all three by the rows
      const on = (feet & (1 << side)) !== 0, v = this.ankleV[side], str = this.follower.strength;
      str[v] = on ? 0 : 1;
      str[v + 2] = on ? 0 : 1;
      L[10] = feet === 3 ? (side === 0 ? shareLeft : 1 - shareLeft) : 1;
      if (on) this.ankleTorque(side, L);
    }

    // fall: the soles-to-centre-of-mass lean (as its tangent), the thorax's tilt (as the cosine), the pelvis's height
    const hx = cx - rx, hz = cz - rz;
    const bodyLean = Math.sqrt(hx * hx + hz * hz) / zc;
    const tilt = P[12 * this.thorax + 4];
    const pelvisHeight = P[po + 10] - soleY;
    Fg[F.comX] = cx; Fg[F.comY] = cy; Fg[F.comZ] = cz; Fg[F.velX] = vx; Fg[F.velY] = vy; Fg[F.velZ] = vz;
    Fg[F.captureX] = xix; Fg[F.captureZ] = xiz; Fg[F.refX] = rx; Fg[F.refZ] = rz;
    Fg[F.errorForward] = ef; Fg[F.errorLeft] = el; Fg[F.leanForward] = leanF; Fg[F.leanLeft] = leanL;
    Fg[F.bend] = bend; Fg[F.bodyLean] = bodyLean; Fg[F.thoraxUp] = tilt;
    Fg[F.pelvisHeight] = pelvisHeight; Fg[F.feet] = feet;
    Fg[F.supportBack] = bMin; Fg[F.supportFront] = bMax; Fg[F.supportRight] = lMin; Fg[F.supportLeft] = lMax;
    if (bodyLean > this.limits[0] || tilt < this.limits[1] || pelvisHeight < this.fallHeight * this.standingHeight) {
      this._fallen = true;
      if (this.death) this.follower.die(this.death);
    }
  }

  /**
   * The ankle strategy's torque on a foot on the ground: the moment on the leg that brings the
   * body's lean (c - a) / z toward the target, a PD law on the lean and its rate v / z, per axis of
   * the heading frame (world moment m = K_p (lean_d - lean) - K_d rate about the axis that leans the
   * body that way), shared between the feet on the ground; the joint torque is its opposite in the
   * foot's frame (the foot takes the reaction), its pitch and roll bounded so that the centre of
   * pressure stays on the sole under the foot's share of the weight, and by the legs' muscles.
   * s[0..3]: lean forward and left (rad), their rates (rad/s); s[4..7] the heading's forward and
   * left axes (x, z); s[8, 9] the lean's targets; s[10] the foot's share of the weight.
   */
  private ankleTorque(side: number, s: Float64Array): void {
    const st = this.body.state, P = st.work.pose, o = 12 * this.feet[side], share = s[10];
    const kp = share * this.ankleKp * 2, kd = share * this.ankleKd * 2;
    const mF = kp * (s[8] - s[0]) - kd * s[2];
    const mL = kp * (s[9] - s[1]) - kd * s[3];
    // world moment on the leg: forward lean about +left, leftward lean about -forward; the foot gets -m
    const wx = -(mF * s[6] - mL * s[4]), wz = -(mF * s[7] - mL * s[5]);
    // into the foot's frame (R^T w, w horizontal)
    let tx = P[o] * wx + P[o + 6] * wz;
    let tz = P[o + 2] * wx + P[o + 8] * wz;
    const load = share * this.mass * this.g, R = this.reach, max = this.limits[2];
    const cf = this.soleFraction, heel = cf * R[3 * side] * load, toe = cf * R[3 * side + 1] * load, edge = cf * R[3 * side + 2] * load;
    // eq. (2b): the foot held flat about its length, against its roll (the world's up in its frame,
    // x part: sin of the roll) and roll rate, the full edge torque at FLAT_ROLL
    const V = st.work.v, fo = 6 * this.feet[side];
    const kf = edge / FLAT_ROLL;
    tz += -kf * (P[o + 3] + FLAT_TIME * V[fo + 2]);
    tx = tx < -heel ? -heel : tx > toe ? toe : tx;
    tz = tz < -edge ? -edge : tz > edge ? edge : tz;
    tx = tx < -max ? -max : tx > max ? max : tx;
    tz = tz < -max ? -max : tz > max ? max : tz;
    const v = this.ankleV[side];
    st.tau[v] += tx;
    st.tau[v + 2] += tz;
    st.work.dynamicsValid = false;
  }

  /** Removes the drives (the body is a ragdoll again, or ready for another controller). */
  remove(): void {
    this.follower.remove();
  }
}

/**
 * Writes the half-angle (cos, sin) of the angle whose cosine and sine are a[i] and a[i + 1], with
 * the sine's sign (cos(x/2) = sqrt((1 + cos x) / 2), |sin(x/2)| = sqrt((1 - cos x) / 2), x in (-pi, pi]).
 */
function halfAngle(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const c = a[i], sn = a[i + 1], h = 0.5 * (1 + c), k = 0.5 * (1 - c);
  out[o] = Math.sqrt(h > 0 ? h : 0);
  const v = Math.sqrt(k > 0 ? k : 0);
  out[o + 1] = sn < 0 ? -v : v;
}

/**
 * out[o..o+3] = Ry(yaw) Rx(pitch) Rz(roll) from half-angles: the yaw's (cos, sin) at a[40], a[41],
 * the pitch's at a[ip], a[ip + 1], the roll's at a[ir], a[ir + 1] (read from arrays: the step
 * passes no floating-point argument).
 */
function yawPitchRoll(a: Float64Array, ip: number, ir: number, out: Float64Array, o: number): void {
  const cy = a[40], sy = a[41], cp = a[ip], sp = a[ip + 1], cr = a[ir], sr = a[ir + 1];
  // Ry Rx = (cy sp, sy cp, -sy sp, cy cp), then times Rz = (0, 0, sr, cr)
  const ax = cy * sp, ay = sy * cp, az = -sy * sp, aw = cy * cp;
  out[o] = ax * cr + ay * sr;
  out[o + 1] = ay * cr - ax * sr;
  out[o + 2] = aw * sr + az * cr;
  out[o + 3] = aw * cr - az * sr;
}

/**
 * The half-angle (cos, sin) of the angle a[i] (|a[i]| <= 1.5 rad) into out[o], out[o + 1]: their
 * Taylor series to x^10 and x^11 at x = a[i] / 2 (at |x| = 0.75 the first term left out is under
 * 1e-9), then normalised: plain arithmetic, the same bits everywhere, and no number passed to a
 * call in the step.
 */
function halfAngleOf(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const x = 0.5 * a[i], x2 = x * x;
  const c = 1 - (x2 / 2) * (1 - (x2 / 12) * (1 - (x2 / 30) * (1 - (x2 / 56) * (1 - x2 / 90))));
  const sn = x * (1 - (x2 / 6) * (1 - (x2 / 20) * (1 - (x2 / 42) * (1 - (x2 / 72) * (1 - x2 / 110)))));
  const n = 1 / Math.sqrt(c * c + sn * sn);
  out[o] = c * n;
  out[o + 1] = sn * n;
}

/** Normalises the quaternion at q[o] in place (the product of unit quaternions, unit to rounding; returns nothing, so no number leaves the call). */
function unitQuat(q: Float64Array, o: number): void {
  const n = 1 / Math.sqrt(q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3]);
  q[o] *= n; q[o + 1] *= n; q[o + 2] *= n; q[o + 3] *= n;
}
