/**
 * Trajectory following (Kokkevis section 8.3) and velocity motors, as joint rows whose desired
 * acceleration is set here.
 *
 * Trajectory rows ask for qdd_d = Kp (q_d - q) + Kd (qd_d - qd) + qdd_ff (eq. 22), per dof; for
 * spherical joints and the rotation of free joints the position error is the rotation vector of
 * Q^-1 Q_d in the link frame (the joint's velocity coordinates). A maximum torque per dof turns a
 * row into a bounded one, as real muscles are.
 *
 * Gains from a settle time ts. The paper's rule Kp = 1/ts^2, Kd = sqrt(2)/ts has natural frequency
 * 1/ts and damping ratio sqrt(2)/2 = 0.707: it is not critically damped and, after ts, has covered
 * only about 30% of a step. The critically damped rule that keeps the promise "within 10% of the
 * target at ts" solves (1 + w ts) e^(-w ts) = 0.1, i.e. w ts = 3.8897, and takes Kp = w^2, Kd = 2 w.
 */
import { JointType, type Model } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { RowTag, type RowBuffer } from '../rows/row-buffer.js';
import type { ConstraintSource, StepContext } from './source.js';
import { detMath } from '@sinew/featherstone';

/** w ts for which a critically damped step response has 10% left: (1 + x) e^-x = 0.1. */
export const CRITICAL_SETTLE_FACTOR = 3.889720169867429;

/** How gains follow from a settle time: 'critical' (critically damped, within 10 % at the settle time) or 'kokkevis' (the paper's Kp = 1/ts^2, Kd = sqrt(2)/ts). */
export type GainRule = 'critical' | 'kokkevis';

/** Gains Kp, Kd of eq. 22 for a settle time ts (s): 'critical' (default, reaches 90% at ts, no overshoot) or 'kokkevis' (the paper's rule). */
export function gainsFromSettleTime(ts: number, rule: GainRule = 'critical'): { kp: number; kd: number } {
  if (!(ts > 0) || !Number.isFinite(ts)) throw new RangeError(`gainsFromSettleTime: settle time must be a positive finite number, got ${ts}`);
  if (rule === 'kokkevis') return { kp: 1 / (ts * ts), kd: Math.SQRT2 / ts };
  const w = CRITICAL_SETTLE_FACTOR / ts;
  return { kp: w * w, kd: 2 * w };
}

let nextDriveId = 1;

/**
 * Drives the dofs of chosen joints of a body toward target positions, velocities and accelerations
 * (in the model's q / qd layout). Targets are read every step from `targetQ`, `targetQd`,
 * `targetQdd`, which the caller (a motion clip player) updates.
 */
export class TrajectoryFollower implements ConstraintSource {
  readonly id = nextDriveId++;
  enabled = true;
  readonly body: number;
  readonly model: Model;
  readonly targetQ: Float64Array;
  readonly targetQd: Float64Array;
  readonly targetQdd: Float64Array;
  /** Per-dof gains and maximum torque (Infinity: unbounded). A dof with kp = kd = 0 and not `driven` is left free. */
  readonly kp: Float64Array;
  readonly kd: Float64Array;
  readonly maxTorque: Float64Array;
  /** Per-link flag: is this joint driven? */
  readonly driven: Uint8Array;
  /** Scales every max torque (muscle tone: 1 full, fading toward a residual in a death scene). */
  strength = 1;

  constructor(body: Body, options: { joints?: string[]; settleTime?: number; rule?: GainRule; maxTorque?: number; includeRoot?: boolean } = {}) {
    this.body = body.index;
    this.model = body.model;
    const m = body.model;
    this.targetQ = Float64Array.from(body.state.q);
    this.targetQd = new Float64Array(m.nv);
    this.targetQdd = new Float64Array(m.nv);
    const { kp, kd } = gainsFromSettleTime(options.settleTime ?? 0.1, options.rule ?? 'critical');
    if (options.maxTorque !== undefined && !(options.maxTorque >= 0)) throw new RangeError(`TrajectoryFollower: maxTorque must be a number >= 0 (Infinity: unbounded), got ${options.maxTorque}`);
    this.kp = new Float64Array(m.nv).fill(kp);
    this.kd = new Float64Array(m.nv).fill(kd);
    this.maxTorque = new Float64Array(m.nv).fill(options.maxTorque ?? Infinity);
    this.driven = new Uint8Array(m.nLinks);
    if (options.joints) {
      for (const name of options.joints) this.driven[m.joint(name).link] = 1;
    } else {
      for (let i = 0; i < m.nLinks; i++) this.driven[i] = m.jointType[i] === JointType.free && !options.includeRoot ? 0 : 1;
    }
  }

  /** Sets the gains of one joint's dofs from a settle time. */
  setSettleTime(joint: string, ts: number, rule: GainRule = 'critical'): void {
    const j = this.model.joint(joint);
    const { kp, kd } = gainsFromSettleTime(ts, rule);
    for (let k = 0; k < j.nv; k++) { this.kp[j.v + k] = kp; this.kd[j.v + k] = kd; }
  }

  setMaxTorque(joint: string, max: number): void {
    if (!(max >= 0)) throw new RangeError(`setMaxTorque: joint "${joint}": expected a number >= 0, got ${max}`);
    const j = this.model.joint(joint);
    for (let k = 0; k < j.nv; k++) this.maxTorque[j.v + k] = max;
  }

  /**
   * Sets the targets: q in the model's q layout (nq numbers, quaternions [x, y, z, w] of spherical
   * and free joints non-zero; they need not be unit), qd and qdd in its qd layout (nv numbers; 0
   * when omitted). Refuses wrong lengths and non-finite numbers with a RangeError naming the entry
   * and its joint, and then changes nothing.
   */
  setTarget(q: ArrayLike<number>, qd?: ArrayLike<number>, qdd?: ArrayLike<number>): void {
    const m = this.model;
    const bad = checkVector('targetQ', q, m.nq, m, true) || (qd ? checkVector('targetQd', qd, m.nv, m, false) : '') || (qdd ? checkVector('targetQdd', qdd, m.nv, m, false) : '');
    if (bad) throw new RangeError(`TrajectoryFollower.setTarget: ${bad}`);
    for (let i = 0; i < m.nLinks; i++) {
      const t = m.jointType[i];
      if (t !== JointType.spherical && t !== JointType.free) continue;
      const o = m.qOffset[i] + (t === JointType.free ? 3 : 0);
      if (!(detMath.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]) > 1e-12)) throw new RangeError(`TrajectoryFollower.setTarget: targetQ[${o}..${o + 3}] (joint "${m.jointNames[i]}"): expected a non-zero quaternion`);
    }
    for (let k = 0; k < m.nq; k++) this.targetQ[k] = q[k];
    for (let k = 0; k < m.nv; k++) {
      this.targetQd[k] = qd ? qd[k] : 0;
      this.targetQdd[k] = qdd ? qdd[k] : 0;
    }
  }

  /**
   * '' when every target, gain and torque bound is usable, else what is not (naming the dof and
   * its joint). The World asks before each step and refuses to step on bad input; the arrays are
   * public, so a caller may have written NaN into them directly.
   */
  checkInputs(bodies?: readonly Body[]): string {
    const m = this.model;
    const who = `TrajectoryFollower ${this.id} (body ${bodies?.[this.body] ? `"${bodies[this.body].name}"` : this.body})`;
    const bad = checkVector('targetQ', this.targetQ, m.nq, m, true) || checkVector('targetQd', this.targetQd, m.nv, m, false) || checkVector('targetQdd', this.targetQdd, m.nv, m, false)
      || checkVector('kp', this.kp, m.nv, m, false, 0) || checkVector('kd', this.kd, m.nv, m, false, 0);
    if (bad) return `${who}: ${bad}`;
    for (let d = 0; d < m.nv; d++) if (!(this.maxTorque[d] >= 0)) return `${who}: maxTorque[${d}] (joint "${m.jointNames[m.dofLink[d]]}") is ${this.maxTorque[d]}; expected a number >= 0 (Infinity: unbounded)`;
    if (!(this.strength >= 0 && this.strength < Infinity)) return `${who}: strength is ${this.strength}; expected a finite number >= 0`;
    return '';
  }

  private readonly err = new Float64Array(6);

  addRows(rows: RowBuffer, ctx: StepContext): void {
    if (!this.enabled) return;
    const body = ctx.bodies[this.body];
    if (body.sleeping) return;
    const m = this.model;
    const { q, qd } = body.state;
    for (let i = 0; i < m.nLinks; i++) {
      if (!this.driven[i]) continue;
      const t = m.jointType[i];
      if (t === JointType.fixed) continue;
      jointError(t, q, this.targetQ, m.qOffset[i], this.err);
      const v0 = m.vOffset[i];
      for (let k = 0; k < m.jointNv[i]; k++) {
        const d = v0 + k;
        const r = rows.addJoint(RowTag.Drive, this.body, d, 1);
        rows.desired[r] = this.kp[d] * this.err[k] + this.kd[d] * (this.targetQd[d] - qd[d]) + this.targetQdd[d];
        const max = this.maxTorque[d] * this.strength;
        rows.setBounds(r, -max, max);
        rows.key[r] = (4 * 1048576 + this.id) * 64 + d;
      }
    }
  }
}

/**
 * Position error of a joint in its velocity coordinates: target - current for 1-dof joints; for
 * rotations the rotation vector of Q^-1 Q_d (link frame); for a free joint's translation the
 * target offset in the link frame.
 */
export function jointError(type: number, q: ArrayLike<number>, qd: ArrayLike<number>, qo: number, out: Float64Array): void {
  if (type === JointType.revolute || type === JointType.prismatic) {
    out[0] = qd[qo] - q[qo];
    return;
  }
  const ro = type === JointType.free ? qo + 3 : qo;
  if (type === JointType.free) {
    // R^T (p_d - p)
    const dx = qd[qo] - q[qo], dy = qd[qo + 1] - q[qo + 1], dz = qd[qo + 2] - q[qo + 2];
    const x = -q[ro], y = -q[ro + 1], z = -q[ro + 2], w = q[ro + 3];
    const tx = 2 * (y * dz - z * dy), ty = 2 * (z * dx - x * dz), tz = 2 * (x * dy - y * dx);
    out[3] = dx + w * tx + (y * tz - z * ty);
    out[4] = dy + w * ty + (z * tx - x * tz);
    out[5] = dz + w * tz + (x * ty - y * tx);
  }
  // e = conj(Q) * Q_d
  const ax = -q[ro], ay = -q[ro + 1], az = -q[ro + 2], aw = q[ro + 3];
  const bx = qd[ro], by = qd[ro + 1], bz = qd[ro + 2], bw = qd[ro + 3];
  let ex = aw * bx + ax * bw + ay * bz - az * by;
  let ey = aw * by - ax * bz + ay * bw + az * bx;
  let ez = aw * bz + ax * by - ay * bx + az * bw;
  let ew = aw * bw - ax * bx - ay * by - az * bz;
  if (ew < 0) { ex = -ex; ey = -ey; ez = -ez; ew = -ew; }
  const s = Math.sqrt(ex * ex + ey * ey + ez * ez);
  const angle = 2 * detMath.atan2(s, ew);
  const k = s < 1e-12 ? 2 : angle / s;
  out[0] = ex * k; out[1] = ey * k; out[2] = ez * k;
}

/**
 * '' when `a` holds n finite numbers (>= min when given), else which entry is wrong and its joint.
 * q-layout vectors (qLayout) name the joint through the q offsets, others through the dofs.
 */
function checkVector(name: string, a: ArrayLike<number>, n: number, m: Model, qLayout: boolean, min?: number): string {
  if (!a || a.length !== n) return `${name} has ${a ? a.length : 'no'} numbers; expected ${n}`;
  for (let k = 0; k < n; k++) {
    const v = a[k];
    if (Number.isFinite(v) && (min === undefined || v >= min)) continue;
    let link = 0;
    if (qLayout) { for (let i = m.nLinks - 1; i >= 0; i--) if (m.qOffset[i] <= k && m.jointNq[i] > 0) { link = i; break; } }
    else link = m.dofLink[k];
    return `${name}[${k}] (joint "${m.jointNames[link]}") is ${v}; expected a finite number${min === undefined ? '' : ` >= ${min}`}`;
  }
  return '';
}

/** Drives one dof to a target velocity with a maximum torque (a bounded bilateral row). */
export class VelocityMotor implements ConstraintSource {
  readonly id = nextDriveId++;
  enabled = true;
  constructor(public readonly body: number, public readonly dof: number, public targetVelocity: number, public maxTorque: number) {
    if (!Number.isFinite(targetVelocity)) throw new RangeError('VelocityMotor: target velocity must be finite');
    if (!(maxTorque >= 0)) throw new RangeError('VelocityMotor: max torque must be >= 0');
  }

  /** Sets the target velocity (rad/s or m/s); refuses a non-finite one, changing nothing. */
  setTargetVelocity(v: number): void {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`VelocityMotor.setTargetVelocity: expected a finite number, got ${v}`);
    this.targetVelocity = v;
  }

  /** Sets the maximum torque (N m or N, Infinity: unbounded); refuses NaN and negative values, changing nothing. */
  setMaxTorque(max: number): void {
    if (typeof max !== 'number' || !(max >= 0)) throw new RangeError(`VelocityMotor.setMaxTorque: expected a number >= 0, got ${max}`);
    this.maxTorque = max;
  }

  /** '' when the target and bound are usable, else what is not (see TrajectoryFollower.checkInputs). */
  checkInputs(bodies?: readonly Body[]): string {
    const b = bodies?.[this.body];
    const who = `VelocityMotor ${this.id} (body ${b ? `"${b.name}"` : this.body}, dof ${this.dof}${b && this.dof >= 0 && this.dof < b.model.nv ? `, joint "${b.model.jointNames[b.model.dofLink[this.dof]]}"` : ''})`;
    if (bodies && !(b && Number.isInteger(this.dof) && this.dof >= 0 && this.dof < b.model.nv)) return `${who}: no such body or dof`;
    if (!Number.isFinite(this.targetVelocity)) return `${who}: targetVelocity is ${this.targetVelocity}; expected a finite number`;
    if (!(this.maxTorque >= 0)) return `${who}: maxTorque is ${this.maxTorque}; expected a number >= 0`;
    return '';
  }

  addRows(rows: RowBuffer, ctx: StepContext): void {
    if (!this.enabled) return;
    const body = ctx.bodies[this.body];
    if (body.sleeping) return;
    const r = rows.addJoint(RowTag.Motor, this.body, this.dof, 1);
    rows.desired[r] = (this.targetVelocity - body.state.qd[this.dof]) / ctx.h;
    rows.setBounds(r, -this.maxTorque, this.maxTorque);
    rows.key[r] = (5 * 1048576 + this.id) * 64;
  }
}
