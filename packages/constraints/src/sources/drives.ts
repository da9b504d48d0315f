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

/** w ts for which a critically damped step response has 10% left: (1 + x) e^-x = 0.1. */
export const CRITICAL_SETTLE_FACTOR = 3.889720169867429;

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
  const s = Math.hypot(ex, ey, ez);
  const angle = 2 * Math.atan2(s, ew);
  const k = s < 1e-12 ? 2 : angle / s;
  out[0] = ex * k; out[1] = ey * k; out[2] = ez * k;
}

/** Drives one dof to a target velocity with a maximum torque (a bounded bilateral row). */
export class VelocityMotor implements ConstraintSource {
  readonly id = nextDriveId++;
  enabled = true;
  constructor(public readonly body: number, public readonly dof: number, public targetVelocity: number, public maxTorque: number) {
    if (!Number.isFinite(targetVelocity)) throw new RangeError('VelocityMotor: target velocity must be finite');
    if (!(maxTorque >= 0)) throw new RangeError('VelocityMotor: max torque must be >= 0');
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
