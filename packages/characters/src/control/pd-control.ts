/**
 * Joint-torque controllers that write state.tau every step, as alternatives to the constraint-row
 * drives of a MotionFollower (which are solved with the contacts in the World's LCP):
 *
 * PdController, explicit PD:      tau = tau_ff + Kp (q_d - q) + Kd (qd_d - qd)
 *
 * StablePdController, stable PD (J. Tan, K. Liu, G. Turk, "Stable Proportional-Derivative
 * Controllers", IEEE Computer Graphics and Applications 31(4):34-44, 2011): the gains act on the
 * state one step ahead,
 *
 *   tau = tau_ff - Kp (q + dt qd - q_d) - Kd (qd + dt qdd - qd_d),
 *
 * with qdd taken implicitly from the dynamics it produces, M qdd + C = tau (C: Coriolis,
 * centrifugal, gravity and external forces), which gives
 *
 *   (M + dt Kd) qdd = tau_ff - C - Kp (q + dt qd - q_d) - Kd (qd - qd_d).
 *
 * tau_ff is the `feedforward` torque (zero unless set: feed-forward.ts gives a motion's own).
 *
 * M comes from CRBA (massMatrix) and C from RNEA with qdd = 0 (inverseDynamics), both of the
 * featherstone package; the system is solved by Cholesky (nv is a few dozen). Explicit PD is
 * unstable once the gains are stiff for the step (for a joint of inertia I, roughly when
 * dt sqrt(Kp / I) > 2, or sooner with damping); stable PD stays stable for any Kp, Kd >= 0.
 *
 * Rotations: q_d - q for a spherical joint (and the free joint's rotation) is the rotation vector
 * of Q^-1 Q_d in the link frame (the joint's velocity coordinates), and q + dt qd - q_d is taken
 * as -(that error) + dt qd. Dofs with Kp = Kd = 0 (an unactuated root) get no torque.
 */
import { choleskyFactor, choleskySolve, forwardKinematics, inverseDynamics, JointType, massMatrix, type Model, type State } from '@sinew/featherstone';
import { jointError } from '@sinew/constraints';
import type { JointDrive } from '../format/types.js';

/** Gains and torque bounds of a PD controller (one value for all degrees of freedom or one per degree of freedom), or drives to take them from, and whether to skip the root. */
export interface PdGainsOptions {
  /** Stiffness per dof (N m / rad) or one number for every actuated dof. */
  kp?: ArrayLike<number> | number;
  /** Damping per dof (N m s / rad) or one number. */
  kd?: ArrayLike<number> | number;
  /** Torque limit per dof (N m) or one number (default Infinity). */
  maxTorque?: ArrayLike<number> | number;
  /** Drive gains per joint as characterFromJSON gives them (Character.drives); dofs of other joints get none. */
  drives?: readonly JointDrive[];
  /** Leave the root (free joint) unactuated (default true). */
  skipRoot?: boolean;
}

/** Shared state of the two controllers: gains, limits and targets. */
abstract class JointTorqueController {
  readonly model: Model;
  readonly state: State;
  readonly kp: Float64Array;
  readonly kd: Float64Array;
  readonly maxTorque: Float64Array;
  /** Targets in the model's q / qd layout (start: the state's q, zero velocity). */
  readonly targetQ: Float64Array;
  readonly targetQd: Float64Array;
  /** The torques of the last apply() (added to state.tau). */
  readonly tau: Float64Array;
  /**
   * Torques added to the feedback before the clamp, per dof (zero unless set): the motion's own
   * torques, e.g. InverseDynamicsFeedForward.torques(t, controller.feedforward) before each apply().
   */
  readonly feedforward: Float64Array;
  protected readonly err = new Float64Array(6);
  /** Position error per dof (target - current, in velocity coordinates). */
  protected readonly e: Float64Array;

  constructor(model: Model, state: State, options: PdGainsOptions = {}) {
    if (state.model !== model) throw new RangeError('PD controller: the state belongs to another model');
    this.model = model;
    this.state = state;
    const nv = model.nv;
    this.kp = perDof(nv, options.kp ?? 0, 'kp');
    this.kd = perDof(nv, options.kd ?? 0, 'kd');
    this.maxTorque = perDof(nv, options.maxTorque ?? Infinity, 'maxTorque');
    if (options.drives) {
      for (const d of options.drives) {
        const j = model.joint(d.joint);
        for (let k = 0; k < j.nv; k++) {
          this.kp[j.v + k] = d.kp;
          this.kd[j.v + k] = d.kd;
          this.maxTorque[j.v + k] = d.maxTorque;
        }
      }
    }
    if (options.skipRoot !== false && model.jointType[0] === JointType.free) {
      for (let k = 0; k < 6; k++) { this.kp[model.vOffset[0] + k] = 0; this.kd[model.vOffset[0] + k] = 0; }
    }
    this.targetQ = Float64Array.from(state.q);
    this.targetQd = new Float64Array(nv);
    this.tau = new Float64Array(nv);
    this.feedforward = new Float64Array(nv);
    this.e = new Float64Array(nv);
  }

  /** e = q_d (-) q per dof, in velocity coordinates. */
  protected positionError(): void {
    const m = this.model, q = this.state.q;
    for (let i = 0; i < m.nLinks; i++) {
      const t = m.jointType[i];
      if (t === JointType.fixed) continue;
      jointError(t, q, this.targetQ, m.qOffset[i], this.err);
      for (let k = 0; k < m.jointNv[i]; k++) this.e[m.vOffset[i] + k] = this.err[k];
    }
  }

  /** Clamps tau to the limits and adds it to state.tau. */
  protected write(): void {
    const tau = this.tau, st = this.state;
    for (let d = 0; d < tau.length; d++) {
      const max = this.maxTorque[d];
      if (tau[d] > max) tau[d] = max;
      else if (tau[d] < -max) tau[d] = -max;
      st.tau[d] += tau[d];
    }
    st.work.dynamicsValid = false;
  }

  /** Computes the torques for a step of length dt and adds them to state.tau (call before every World.step: the World clears tau after it). */
  abstract apply(dt: number): Float64Array;
}

/** Explicit PD: joint torques tau = Kp (q_d - q) + Kd (qd_d - qd) toward a target, written into state.tau every step. */
export class PdController extends JointTorqueController {
  apply(_dt: number): Float64Array {
    this.positionError();
    const qd = this.state.qd;
    const ff = this.feedforward;
    for (let d = 0; d < this.tau.length; d++) this.tau[d] = ff[d] + this.kp[d] * this.e[d] + this.kd[d] * (this.targetQd[d] - qd[d]);
    this.write();
    return this.tau;
  }
}

/** Stable PD (Tan, Liu and Turk 2011): the gains act on the state one step ahead, so stiff gains stay stable. */
export class StablePdController extends JointTorqueController {
  private readonly M: Float64Array;
  private readonly C: Float64Array;
  private readonly rhs: Float64Array;
  private readonly qdd: Float64Array;
  private readonly zero: Float64Array;
  /** Accelerations the controller predicted in its last apply() (implicit qdd of the paper). */
  readonly predictedQdd: Float64Array;

  constructor(model: Model, state: State, options: PdGainsOptions = {}) {
    super(model, state, options);
    const nv = model.nv;
    this.M = new Float64Array(nv * nv);
    this.C = new Float64Array(nv);
    this.rhs = new Float64Array(nv);
    this.qdd = new Float64Array(nv);
    this.zero = new Float64Array(nv);
    this.predictedQdd = this.qdd;
  }

  apply(dt: number): Float64Array {
    if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`StablePdController.apply: dt must be a positive number of seconds, got ${dt}`);
    const m = this.model, st = this.state, nv = m.nv;
    const { M, C, rhs, qdd, e, kp, kd } = this;
    const qd = st.qd;
    this.positionError();
    forwardKinematics(m, st, true);
    massMatrix(m, st, M);
    // C: the joint forces that give zero acceleration with no control, i.e. bias forces (gravity,
    // velocity products) and the external forces and user torques already in the state
    inverseDynamics(m, st, this.zero, C);
    const ff = this.feedforward;
    for (let d = 0; d < nv; d++) {
      // the feed-forward acts with the feedback: it takes its part of C
      C[d] -= st.tau[d] + ff[d];
      M[d * nv + d] += dt * kd[d];
      // p = q + dt qd - q_d = -(e - dt qd)
      rhs[d] = -C[d] + kp[d] * (e[d] - dt * qd[d]) - kd[d] * (qd[d] - this.targetQd[d]);
    }
    // M + dt Kd is symmetric positive definite: factored in place
    const bad = choleskyFactor(M, nv, M);
    if (bad >= 0) throw new Error(`StablePdController: M + dt Kd is not positive definite at dof ${bad}`);
    choleskySolve(M, nv, rhs, qdd);
    for (let d = 0; d < nv; d++) this.tau[d] = ff[d] + kp[d] * (e[d] - dt * qd[d]) - kd[d] * (qd[d] + dt * qdd[d] - this.targetQd[d]);
    this.write();
    return this.tau;
  }
}

function perDof(nv: number, v: ArrayLike<number> | number, what: string): Float64Array {
  const out = new Float64Array(nv);
  if (typeof v === 'number') out.fill(v);
  else {
    if (v.length !== nv) throw new RangeError(`PD controller: ${what} has ${v.length} numbers, expected ${nv} (one per dof)`);
    out.set(Array.from(v));
  }
  for (let d = 0; d < nv; d++) if (!(out[d] >= 0)) throw new RangeError(`PD controller: ${what}[${d}] = ${out[d]}; expected a number >= 0`);
  return out;
}

