/**
 * Blending between animation and physics per link: a weight w in [0, 1] on each link's joint.
 *
 *  - w = 0: animated. The joint is a kinematic link of the World (Body.setKinematicLinks) and is
 *    given the clip's pose for the end of every step (setNextKinematicJoints): it follows the clip
 *    exactly, whatever acts on it, and the simulated joints react to it (hybrid dynamics).
 *  - 0 < w < 1: powered. The MotionFollower's drive pulls the joint toward the clip's pose with
 *    strength s = 1 - w: its torque limit times s, its natural frequency times s (gains Kp s^2,
 *    Kd s, still critically damped: the group's settle time divided by s).
 *  - w = 1: limp. No drive (s = 0).
 *
 * Changing weights never pops a joint's velocity:
 *  - leaving w = 0, the joint goes on with the velocity the last kinematic step gave it (the clip's)
 *    and the drive starts from that state;
 *  - reaching w = 0 from a simulated state (q, qd) off the clip, the joint does not jump onto the
 *    clip: it is prescribed along the clip plus an offset e(tau) that starts at the joint's error
 *    e0 = q (-) q_clip with its rate de0 = qd - qd_clip and dies out over `blendTime` by the cubic
 *    Hermite curve e(tau) = h00(u) e0 + h10(u) T de0, u = tau / T (e(T) = 0, e'(T) = 0): the
 *    first kinematic step moves the joint at its own velocity. This is inertialization (D. Bollo,
 *    "Inertialization: High-Performance Animation Transitions in Gears of War", GDC 2018), with a
 *    cubic rather than a quintic: velocity, not acceleration, is carried over. For ball joints the
 *    offset is a rotation vector in the clip joint's frame (q = q_clip exp(e)), its rate taken
 *    through the inverse right Jacobian of SO(3); a free root's translation offset is in the world
 *    frame. blendTime 0 is the abrupt switch (the clip's pose at once).
 *
 * A game calls update(dt) once before each World.step(dt). The blend owns the body's kinematic
 * links (it sets them whenever the set of links at w = 0 changes), and the weights stay in force
 * after the follower's die(): a dying character's animated links go limp when their weights say so.
 */
import { JointType, detMath, expPureQuaternion, type Model } from '@sinew/featherstone';
import type { Body, LinkRef } from '@sinew/constraints';
import type { MotionFollower } from './motion-follower.js';
import { JOINT_GROUPS, type JointGroup } from './joint-groups.js';
import { TrajectorySampler } from './joint-trajectory.js';
import { quatConjMultiply, quatMultiply, quatNormalize, quatRotate, quatRotateInverse, quatToRotationVector } from '../motion/quat.js';

/** Options of an AnimationBlend: the starting weights and the time over which a joint reaching w = 0 settles onto the clip. */
export interface AnimationBlendOptions {
  /** The weight of every link at the start (default 0: animated); per group with `groups`. */
  weight?: number;
  /** Starting weights per joint group (they win over `weight`). */
  groups?: Partial<Record<JointGroup, number>>;
  /** Seconds over which a joint reaching w = 0 goes from its simulated state onto the clip (default 0.2; 0: at once, which pops). */
  blendTime?: number;
}

/** Per-link blend weights between the animation (0, kinematic), motors toward it (powered) and limp (1), on a MotionFollower's body. */
export class AnimationBlend {
  readonly follower: MotionFollower;
  readonly body: Body;
  readonly model: Model;
  /** Seconds over which a joint reaching w = 0 settles onto the clip (see the file's comment). */
  blendTime: number;
  /** Weight per link, the one of the coming step (read it; set it through setWeight). */
  readonly weights: Float64Array;
  /** Per link: the weight a ramp goes to and its rate (per second; Infinity: at once). */
  private readonly goal: Float64Array;
  private readonly speed: Float64Array;
  /** Per link, 1 while its joint is kinematic; and the seconds since it became so. */
  private readonly kin: Uint8Array;
  private readonly age: Float64Array;
  /** Per dof: the offset to the clip when the joint became kinematic and its rate (see the file's comment). */
  private readonly e0: Float64Array;
  private readonly de0: Float64Array;
  /** Scratch: the clip's q and qd, the kinematic targets, a quaternion and vectors. */
  private readonly qc: Float64Array;
  private readonly qdc: Float64Array;
  private readonly target: Float64Array;
  private readonly s = new Float64Array(16);
  /** The clip's sampler (its time in a typed array: sampling allocates nothing) and the update's numbers: [0] dt, [1] the playback rate. */
  private readonly sampler: TrajectorySampler;
  private readonly clock = new Float64Array(2);

  constructor(follower: MotionFollower, options: AnimationBlendOptions = {}) {
    this.follower = follower;
    this.body = follower.bodyRef;
    const m = (this.model = follower.model);
    this.blendTime = checkTime(options.blendTime ?? 0.2);
    this.weights = new Float64Array(m.nLinks);
    this.goal = new Float64Array(m.nLinks);
    this.speed = new Float64Array(m.nLinks);
    this.kin = new Uint8Array(m.nLinks);
    this.age = new Float64Array(m.nLinks);
    this.e0 = new Float64Array(m.nv);
    this.de0 = new Float64Array(m.nv);
    this.qc = new Float64Array(m.nq);
    this.qdc = new Float64Array(m.nv);
    this.target = new Float64Array(m.nq);
    this.sampler = new TrajectorySampler(follower.trajectory);
    const all = checkWeight('constructor', 'weight', options.weight ?? 0);
    this.weights.fill(all);
    if (options.groups) {
      for (const g of Object.keys(options.groups)) {
        if (!(JOINT_GROUPS as readonly string[]).includes(g)) throw new RangeError(`AnimationBlend: unknown joint group "${g}"; expected one of ${JOINT_GROUPS.join(', ')}`);
        const w = checkWeight('constructor', `groups.${g}`, options.groups[g as JointGroup]!);
        for (let i = 0; i < m.nLinks; i++) if (follower.groups[i] === g) this.weights[i] = w;
      }
    }
    this.goal.set(this.weights);
    this.speed.fill(Infinity);
  }

  /**
   * Sets the weight of links (index or name, or a list), reached at once or, with `seconds` > 0,
   * by a linear ramp over that time (advanced by update). A weight outside [0, 1] or not a number,
   * or an unknown link, is refused and nothing changes.
   */
  setWeight(links: LinkRef | readonly LinkRef[], weight: number, seconds = 0): void {
    const idx = this.resolve('setWeight', links);
    checkWeight('setWeight', 'weight', weight);
    if (!(seconds >= 0 && Number.isFinite(seconds))) throw new RangeError(`AnimationBlend.setWeight: seconds must be finite and >= 0, got ${seconds}`);
    for (const i of idx) this.ramp(i, weight, seconds);
  }

  /** Sets the weight of every link of a joint group ('root', 'spine', 'head', 'arms', 'legs', 'other'), at once or over `seconds`. */
  setGroupWeight(group: JointGroup, weight: number, seconds = 0): void {
    if (!(JOINT_GROUPS as readonly string[]).includes(group)) throw new RangeError(`AnimationBlend.setGroupWeight: unknown joint group "${String(group)}"; expected one of ${JOINT_GROUPS.join(', ')}`);
    checkWeight('setGroupWeight', 'weight', weight);
    if (!(seconds >= 0 && Number.isFinite(seconds))) throw new RangeError(`AnimationBlend.setGroupWeight: seconds must be finite and >= 0, got ${seconds}`);
    for (let i = 0; i < this.model.nLinks; i++) if (this.follower.groups[i] === group) this.ramp(i, weight, seconds);
  }

  /** The weight of a link (index or name) for the coming step. */
  weight(link: LinkRef): number {
    return this.weights[this.resolve('weight', link)[0]];
  }

  private ramp(i: number, w: number, seconds: number): void {
    this.goal[i] = w;
    this.speed[i] = seconds > 0 ? Math.abs(w - this.weights[i]) / seconds : Infinity;
    if (seconds === 0) this.weights[i] = w;
  }

  private resolve(fn: string, links: LinkRef | readonly LinkRef[]): number[] {
    const m = this.model, list = typeof links === 'number' || typeof links === 'string' ? [links] : links;
    if (list == null || typeof (list as ArrayLike<LinkRef>).length !== 'number') throw new RangeError(`AnimationBlend.${fn}: expected a link (index or name) or a list of them, got ${String(links)}`);
    return Array.from(list as ArrayLike<LinkRef>, (l) => {
      if (typeof l === 'number') {
        if (Number.isInteger(l) && l >= 0 && l < m.nLinks) return l;
        throw new RangeError(`AnimationBlend.${fn}: link ${l} is not a link of body "${this.body.name}" (it has ${m.nLinks})`);
      }
      if (typeof l === 'string' && m.hasLink(l)) return m.linkIndex(l);
      throw new RangeError(`AnimationBlend.${fn}: body "${this.body.name}" has no link "${String(l)}"`);
    });
  }

  /**
   * Call once before each World.step(dt): advances the weight ramps by dt, makes the links at
   * w = 0 kinematic (the others simulated), sets the drive strength of the others (1 - w) and gives
   * the kinematic joints the clip's pose at the end of the step (plus the dying offset of a joint
   * that has just become kinematic). Allocates only when the set of kinematic links changes.
   */
  update(dt: number): void {
    if (!(dt > 0 && Number.isFinite(dt))) throw new RangeError(`AnimationBlend.update: dt must be finite and > 0, got ${dt}`);
    const m = this.model, f = this.follower, w = this.weights, body = this.body, c = this.clock, T = this.sampler.time;
    let changed = false, any = false;
    c[0] = dt;
    c[1] = f.playbackRate;
    T[0] = f.time;
    let sampled = false;
    for (let i = 0; i < m.nLinks; i++) {
      const g = this.goal[i];
      if (w[i] !== g) {
        const step = this.speed[i] * dt;
        w[i] = Math.abs(g - w[i]) <= step ? g : w[i] + (g > w[i] ? step : -step);
      }
      const kinematic = w[i] === 0 ? 1 : 0;
      if (kinematic && !this.kin[i]) {
        if (!sampled) { this.sampleClip(); sampled = true; }
        this.captureOffset(i);
        this.age[i] = 0;
      }
      if (kinematic !== this.kin[i]) changed = true;
      this.kin[i] = kinematic;
      if (kinematic) any = true;
      const s = kinematic ? 1 : 1 - w[i];
      for (let d = m.vOffset[i]; d < m.vOffset[i] + m.jointNv[i]; d++) f.strength[d] = s;
    }
    if (changed) {
      const links: number[] = [];
      for (let i = 0; i < m.nLinks; i++) if (this.kin[i]) links.push(i);
      body.setKinematicLinks(links);
    }
    if (!any) return;
    T[0] += c[0] * c[1];
    this.sampleClip();
    const q = this.target, qc = this.qc;
    q.set(body.state.q);
    for (let i = 0; i < m.nLinks; i++) {
      if (!this.kin[i]) continue;
      this.age[i] += c[0];
      this.offsetTarget(i, qc, q);
    }
    body.setNextKinematicJoints(q);
  }

  /**
   * What the blend carries from step to step, as numbers, for a rollback with World.snapshot and
   * MotionFollower.snapshot: per link the weight, the weight its ramp goes to and the ramp's rate,
   * whether the joint is kinematic and for how long, per dof the offset to the clip a joint had
   * when it became kinematic and its rate, and the blend time. Layout: BLEND_MAGIC, version,
   * nLinks, nv, blendTime, then weights, goals, rates, kinematic flags, ages (nLinks each), offsets
   * and their rates (nv each). Written into `out` when it is long enough (the snapshot is then the
   * subarray returned). The body's kinematic links are the World's (World.snapshot keeps them).
   */
  snapshot(out?: Float64Array): Float64Array {
    const nl = this.model.nLinks, nv = this.model.nv, n = BLEND_HEAD + 5 * nl + 2 * nv;
    const f = out && out.length >= n ? out.subarray(0, n) : new Float64Array(n);
    f[0] = BLEND_MAGIC; f[1] = 1; f[2] = nl; f[3] = nv; f[4] = this.blendTime;
    let o = BLEND_HEAD;
    for (const a of [this.weights, this.goal, this.speed, this.kin, this.age]) { f.set(a, o); o += nl; }
    f.set(this.e0, o); f.set(this.de0, o + nv);
    return f;
  }

  /** Takes back what snapshot() wrote; refused with a RangeError, before anything changes, when it is not a snapshot of a blend on a model with this one's links and dofs. */
  restore(snapshot: Float64Array): void {
    const nl = this.model.nLinks, nv = this.model.nv, f = snapshot;
    const fail = (why: string): never => { throw new RangeError(`AnimationBlend.restore: ${why}`); };
    if (!(f instanceof Float64Array)) fail('expected the Float64Array that AnimationBlend.snapshot returned');
    if (f.length < BLEND_HEAD || f[0] !== BLEND_MAGIC) fail(`number 0 does not start a blend snapshot (${f.length} numbers)`);
    if (f[1] !== 1) fail(`snapshot version ${f[1]}; this blend reads version 1`);
    if (f[2] !== nl || f[3] !== nv) fail(`the snapshot is of a model with ${f[2]} links and ${f[3]} dofs; body "${this.body.name}" has ${nl} and ${nv}`);
    if (f.length !== BLEND_HEAD + 5 * nl + 2 * nv) fail(`the snapshot holds ${f.length} numbers, expected ${BLEND_HEAD + 5 * nl + 2 * nv}`);
    if (!(f[4] >= 0 && Number.isFinite(f[4]))) fail(`blend time ${f[4]} must be finite and >= 0`);
    for (let i = 0; i < 2 * nl; i++) if (!(f[BLEND_HEAD + i] >= 0 && f[BLEND_HEAD + i] <= 1)) fail(`weight or goal ${i % nl} of ${i < nl ? 'weights' : 'goals'} is ${f[BLEND_HEAD + i]}, not within [0, 1]`);
    this.blendTime = f[4];
    let o = BLEND_HEAD;
    for (const a of [this.weights, this.goal, this.speed, this.kin, this.age]) { a.set(f.subarray(o, o + nl)); o += nl; }
    this.e0.set(f.subarray(o, o + nv));
    this.de0.set(f.subarray(o + nv, o + 2 * nv));
  }

  /** The clip's q and qd (times the playback rate clock[1]) at the sampler's time into qc, qdc. */
  private sampleClip(): void {
    const sp = this.sampler, wrap = this.follower.wrap, r = this.clock[1];
    sp.sampleQ(this.qc, wrap);
    sp.sampleQd(this.qdc, wrap);
    for (let d = 0; d < this.qdc.length; d++) this.qdc[d] *= r;
  }

  /** e0, de0 of link i's joint from the body's state and the clip's (qc, qdc at the same time). */
  private captureOffset(i: number): void {
    const m = this.model, st = this.body.state, q = st.q, qd = st.qd, qc = this.qc, qdc = this.qdc, s = this.s;
    const qo = m.qOffset[i], vo = m.vOffset[i], e0 = this.e0, de0 = this.de0;
    if (this.blendTime === 0) {
      for (let d = vo; d < vo + m.jointNv[i]; d++) { e0[d] = 0; de0[d] = 0; }
      return;
    }
    switch (m.jointType[i]) {
      case JointType.revolute: case JointType.prismatic:
        e0[vo] = q[qo] - qc[qo]; de0[vo] = qd[vo] - qdc[vo];
        break;
      case JointType.spherical:
        rotationOffset(q, qo, qd, vo, qc, qo, qdc, e0, de0, s);
        break;
      case JointType.free: {
        rotationOffset(q, qo + 3, qd, vo, qc, qo + 3, qdc, e0, de0, s);
        // translation: world frame; the velocity R qd_lin of each
        quatRotate(q, qo + 3, qd, vo + 3, s, 0);
        quatRotate(qc, qo + 3, qdc, vo + 3, s, 3);
        for (let k = 0; k < 3; k++) { e0[vo + 3 + k] = q[qo + k] - qc[qo + k]; de0[vo + 3 + k] = s[k] - s[3 + k]; }
        break;
      }
      default:
        for (let d = vo; d < vo + m.jointNv[i]; d++) { e0[d] = 0; de0[d] = 0; }
    }
  }

  /** Link i's entries of `out`: the clip's pose qc plus the offset tau = age[i] seconds after it became kinematic. */
  private offsetTarget(i: number, qc: Float64Array, out: Float64Array): void {
    const tau = this.age[i], m = this.model, qo = m.qOffset[i], vo = m.vOffset[i], T = this.blendTime, s = this.s;
    const type = m.jointType[i];
    for (let k = qo; k < qo + m.jointNq[i]; k++) out[k] = qc[k];
    if (!(tau < T)) return;
    const u = tau / T, u2 = u * u, u3 = u2 * u;
    const h00 = 2 * u3 - 3 * u2 + 1, h10 = (u3 - 2 * u2 + u) * T;
    const e0 = this.e0, de0 = this.de0;
    if (type === JointType.revolute || type === JointType.prismatic) { out[qo] = qc[qo] + h00 * e0[vo] + h10 * de0[vo]; return; }
    if (type !== JointType.spherical && type !== JointType.free) return;
    const ro = type === JointType.free ? qo + 3 : qo;
    // q = q_clip exp(e): the quaternion exp of the pure quaternion e / 2
    for (let k = 0; k < 3; k++) s[k] = 0.5 * (h00 * e0[vo + k] + h10 * de0[vo + k]);
    expPureQuaternion(s);
    quatMultiply(qc, ro, s, 0, out, ro);
    quatNormalize(out, ro);
    if (type === JointType.free) for (let k = 0; k < 3; k++) out[qo + k] = qc[qo + k] + h00 * e0[vo + 3 + k] + h10 * de0[vo + 3 + k];
  }
}

/**
 * The rotation offset e = log(qc^-1 q) (into e0[vo..]) and its rate (into de0[vo..]): with
 * q = qc exp(e), the body rate is w = R(e)^T w_c + J_r(e) de, so de = J_r(e)^-1 (w - R(e)^T w_c),
 * J_r^-1(e) = I + [e]/2 + (1/th^2 - (1 + cos th) / (2 th sin th)) [e]^2, th = |e|
 * (Chirikjian, Stochastic Models, Information Theory, and Lie Groups, vol. 2, 2011, eq. 10.86).
 */
function rotationOffset(q: ArrayLike<number>, qo: number, qd: ArrayLike<number>, vo: number, qc: ArrayLike<number>, co: number,
  qdc: ArrayLike<number>, e0: Float64Array, de0: Float64Array, s: Float64Array): void {
  quatConjMultiply(qc, co, q, qo, s, 8);
  quatToRotationVector(s, 8, e0, vo);
  // R(e)^T w_c: w_c turned back by the offset quaternion
  quatRotateInverse(s, 8, qdc, vo, s, 0);
  const ex = e0[vo], ey = e0[vo + 1], ez = e0[vo + 2];
  const vx = qd[vo] - s[0], vy = qd[vo + 1] - s[1], vz = qd[vo + 2] - s[2];
  const th2 = ex * ex + ey * ey + ez * ez, th = Math.sqrt(th2);
  // coefficient of [e]^2: 1/12 + th^2/720 near 0
  const c = th < 1e-4 ? 1 / 12 + th2 / 720 : 1 / th2 - (1 + detMath.cos(th)) / (2 * th * detMath.sin(th));
  const cx = ey * vz - ez * vy, cy = ez * vx - ex * vz, cz = ex * vy - ey * vx;
  const ccx = ey * cz - ez * cy, ccy = ez * cx - ex * cz, ccz = ex * cy - ey * cx;
  de0[vo] = vx + 0.5 * cx + c * ccx;
  de0[vo + 1] = vy + 0.5 * cy + c * ccy;
  de0[vo + 2] = vz + 0.5 * cz + c * ccz;
}

/** 'ABS1' read as a little-endian 32-bit number: the first number of an AnimationBlend snapshot. */
const BLEND_MAGIC = 0x31534241;
/** Numbers before a blend snapshot's weights. */
const BLEND_HEAD = 5;

function checkWeight(fn: string, what: string, w: number): number {
  if (typeof w !== 'number' || !(w >= 0 && w <= 1)) throw new RangeError(`AnimationBlend.${fn}: ${what} must be a number within [0, 1] (0 animated, 1 limp), got ${String(w)}`);
  return w;
}

function checkTime(t: number): number {
  if (!(t >= 0 && Number.isFinite(t))) throw new RangeError(`AnimationBlend: blendTime must be finite and >= 0, got ${t}`);
  return t;
}
