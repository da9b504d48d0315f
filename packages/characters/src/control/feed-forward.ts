/**
 * Feed-forward torques of a motion: the joint forces that produce a joint trajectory's own
 * accelerations, by inverse dynamics (the recursive Newton-Euler algorithm, Featherstone 2008
 * table 5.1: featherstone's inverseDynamics) on the trajectory's q, qd and qdd at a clip time:
 *
 *     tau_ff(t) = RNEA(q_d(t), qd_d(t), qdd_d(t)).
 *
 * A torque controller that adds tau_ff to its feedback (PdController / StablePdController
 * .feedforward) only has to correct the errors, not hold the body up and swing it along: the same
 * tracking error needs far lower gains, and a character that follows softly still reacts to hits.
 *
 * The body is taken as free of contacts: its free root's six forces (the wrench that would carry
 * the whole body along the clip's root path) are what the ground, or a root drive, must supply;
 * they are left out of the torques by default (`skipRoot`). Where the feet bear weight the legs'
 * torques are those of legs in the air, so feed-forward helps most in the swing phase and for
 * the upper body; the ground's share would need the contact forces the clip implies.
 */
import { inverseDynamics, JointType, State, type Model } from '@sinew/featherstone';
import type { WrapMode } from '../motion/clip.js';
import type { JointTrajectory } from './joint-trajectory.js';

/** Options of InverseDynamicsFeedForward: whether the free root's wrench is left out, and the clip's wrap mode. */
export interface FeedForwardOptions {
  /** Leave the free root's six forces out (zero) (default true). */
  skipRoot?: boolean;
  /** Loop or clamp the trajectory (default: the trajectory's). */
  wrap?: WrapMode;
}

/** Inverse-dynamics feed-forward torques of a joint trajectory (see the module comment); allocation-free per call. */
export class InverseDynamicsFeedForward {
  readonly model: Model;
  readonly trajectory: JointTrajectory;
  skipRoot: boolean;
  wrap: WrapMode;
  private readonly scratch: State;
  private readonly qdd: Float64Array;

  constructor(trajectory: JointTrajectory, options: FeedForwardOptions = {}) {
    this.model = trajectory.model;
    this.trajectory = trajectory;
    this.skipRoot = options.skipRoot ?? true;
    this.wrap = options.wrap ?? trajectory.wrap;
    this.scratch = new State(this.model);
    this.qdd = new Float64Array(this.model.nv);
  }

  /** The torques at clip time t (playback rate r: velocities times r, accelerations times r^2) into out (nv numbers). */
  torques(t: number, out: Float64Array = new Float64Array(this.model.nv), rate = 1): Float64Array {
    if (!Number.isFinite(t) || !Number.isFinite(rate)) throw new RangeError(`InverseDynamicsFeedForward.torques: time ${t} and rate ${rate} must be finite`);
    if (out.length !== this.model.nv) throw new RangeError(`InverseDynamicsFeedForward.torques: out has ${out.length} numbers, expected ${this.model.nv}`);
    const s = this.scratch, tr = this.trajectory, m = this.model;
    tr.sampleQ(t, s.q, this.wrap);
    tr.sampleQd(t, s.qd, this.wrap);
    tr.sampleQdd(t, this.qdd, this.wrap);
    for (let d = 0; d < m.nv; d++) { s.qd[d] *= rate; this.qdd[d] *= rate * rate; }
    s.work.dynamicsValid = false;
    inverseDynamics(m, s, this.qdd, out);
    if (this.skipRoot && m.jointType[0] === JointType.free) for (let k = 0; k < 6; k++) out[m.vOffset[0] + k] = 0;
    return out;
  }
}
