/**
 * Per-character state: joint positions q, velocities qd, joint torques tau, external link forces,
 * and the scratch the algorithms leave behind (sized once here; the algorithms allocate nothing).
 */
import { neutralJointQ } from './joints.js';
import type { Model } from './model.js';

/** Scratch arrays for one model, filled by kinematics and dynamics. */
export class Workspace {
  /** Transform parent -> link (short form, 12 per link), valid after kinematics. */
  readonly Xup: Float64Array;
  /** Link pose in the world: R (row-major, link -> world) and origin p, 12 per link. */
  readonly pose: Float64Array;
  /** Link spatial velocity in link coordinates, 6 per link. */
  readonly v: Float64Array;
  /** Velocity-product acceleration c_i = v_i x S_i qd_i, 6 per link. */
  readonly c: Float64Array;
  /** Link spatial acceleration in link coordinates (gravity included as a base acceleration), 6 per link. */
  readonly a: Float64Array;
  /** Articulated-body inertia I^A, 36 per link. */
  readonly IA: Float64Array;
  /** Articulated bias force p^A, 6 per link. */
  readonly pA: Float64Array;
  /** U = I^A S (6 x nv column-major), 36 per link (Kokkevis's h). */
  readonly U: Float64Array;
  /** D^-1 = (S^T I^A S + armature + h damping)^-1, nv x nv row-major, 36 per link (Kokkevis's 1/d). */
  readonly Dinv: Float64Array;
  /** What the articulated-body algorithm adds to each joint's D: armature + h damping, h the state's implicitDampingStep (nv). */
  readonly jointArmature: Float64Array;
  /** `[h]`: the state's implicitDampingStep (kept in an array: a double written to a field may go on the heap). */
  readonly dampingStep = new Float64Array(1);
  /** u = tau - S^T p^A, 6 per link. */
  readonly u: Float64Array;
  /** Scratch (6 per link): spatial forces for the inverse dynamics and the momentum correction. */
  readonly dp: Float64Array;
  /** Scratch for AccelerationDeltas: du (6 per link) and the stamps of the links on the inbound path. */
  readonly du: Float64Array;
  readonly stamp: Int32Array;
  stampCounter = 0;
  /** The test forces the inbound pass of AccelerationDeltas carries up the path (6 each, up to INBOUND_BATCH of them). */
  readonly batchForce = new Float64Array(48);
  /** The inbound pass's entries along the path (dof, du, D^-1 du; nv each) for the full AccelerationDeltas. */
  readonly pathDof: Int32Array;
  readonly pathDu: Float64Array;
  readonly pathDinvDu: Float64Array;
  /** General scratch. */
  readonly tmp: Float64Array;
  readonly tmp2: Float64Array;
  readonly tmp36: Float64Array;
  /** Delta link accelerations of the last AccelerationDeltas call (6 per link, link coordinates). */
  readonly da: Float64Array;
  /** Composite inertias of the last massMatrix call (36 per link). */
  readonly Ic: Float64Array;
  /** Joint-space scratch (nv) for the test-force method. */
  readonly qddScratch: Float64Array;
  /** Spatial force of one link in link coordinates (scratch). */
  readonly f6: Float64Array;
  /** qdd of the last forwardDynamics call (nv). */
  readonly qdd: Float64Array;
  /** Momenta of the free roots (6 each) kept across a position update. */
  readonly momentumScratch: Float64Array;
  /** True when the quantities of the last forwardDynamics call are valid for the current state. */
  dynamicsValid = false;
  /**
   * What the last forwardKinematics call computed (kinematics.ts): 0 nothing yet, 1 Xup and pose,
   * 2 also v and c; at the q in kinematicsQ (and, at 2, the qd in kinematicsQd).
   */
  kinematicsLevel = 0;
  /** q and qd of the last forwardKinematics call (see kinematicsLevel). */
  readonly kinematicsQ: Float64Array;
  readonly kinematicsQd: Float64Array;
  /**
   * energiesInto's last kinetic and potential energy, in the gravity of energiesGravity, still
   * those of work.v and work.pose while energiesValid (forwardKinematics clears it when it writes them).
   */
  readonly energies = new Float64Array(2);
  readonly energiesGravity = new Float64Array(3);
  energiesValid = false;

  constructor(model: Model) {
    const n = model.nLinks;
    this.Xup = new Float64Array(12 * n);
    this.pose = new Float64Array(12 * n);
    this.v = new Float64Array(6 * n);
    this.c = new Float64Array(6 * n);
    this.a = new Float64Array(6 * n);
    this.IA = new Float64Array(36 * n);
    this.pA = new Float64Array(6 * n);
    this.U = new Float64Array(36 * n);
    this.Dinv = new Float64Array(36 * n);
    this.jointArmature = Float64Array.from(model.armature);
    this.u = new Float64Array(6 * n);
    this.dp = new Float64Array(6 * n);
    this.du = new Float64Array(6 * n);
    this.pathDof = new Int32Array(model.nv);
    this.pathDu = new Float64Array(model.nv);
    this.pathDinvDu = new Float64Array(model.nv);
    this.stamp = new Int32Array(n);
    this.tmp = new Float64Array(72);
    this.tmp2 = new Float64Array(72);
    this.tmp36 = new Float64Array(36);
    this.da = new Float64Array(6 * n);
    this.Ic = new Float64Array(36 * n);
    this.qddScratch = new Float64Array(model.nv);
    this.f6 = new Float64Array(6 * n);
    this.qdd = new Float64Array(model.nv);
    this.kinematicsQ = new Float64Array(model.nq);
    this.kinematicsQd = new Float64Array(model.nv);
    let roots = 0;
    for (let i = 0; i < n; i++) if (model.parent[i] === -1 && model.jointType[i] === 4) roots++;
    this.momentumScratch = new Float64Array(6 * Math.max(1, roots));
  }
}

/** The per-character state of a Model: joint positions `q`, velocities `qd`, forces, link poses and the algorithms' scratch, in flat float64 arrays; saved and restored bit for bit. */
export class State {
  readonly model: Model;
  /** Joint positions (see joints.ts for the layout per joint type). */
  readonly q: Float64Array;
  /** Joint velocities. */
  readonly qd: Float64Array;
  /** Joint torques (forces for prismatic dofs) applied by the user or a controller. */
  readonly tau: Float64Array;
  /**
   * External spatial force on each link, in world coordinates, as [moment about the world origin;
   * force], 6 per link. Use applyForce() to add a force at a point.
   */
  readonly fext: Float64Array;
  /** Gravity used by the dynamics (starts as the model's). */
  readonly gravity: Float64Array;
  /** Scratch of the algorithms. Not part of the saved state. */
  readonly work: Workspace;
  /**
   * Step length h (s) for which forwardDynamics takes joint damping implicitly: each joint's D
   * gains h damping, so the damping force is -damping (qd + h qdd), the velocity at the end of a
   * semi-implicit Euler step (backward Euler, stable for any damping; MuJoCo's implicit damping).
   * 0 (the default) takes it explicitly, -damping qd. simulate() and the World set it.
   */
  get implicitDampingStep(): number {
    return this.work.dampingStep[0];
  }
  set implicitDampingStep(h: number) {
    this.work.dampingStep[0] = h;
  }

  constructor(model: Model) {
    this.model = model;
    this.q = new Float64Array(model.nq);
    this.qd = new Float64Array(model.nv);
    this.tau = new Float64Array(model.nv);
    this.fext = new Float64Array(6 * model.nLinks);
    this.gravity = Float64Array.from(model.gravity);
    this.work = new Workspace(model);
    this.setNeutral();
  }

  /** Zero angles, identity orientations, no motion, no forces. */
  setNeutral(): void {
    const m = this.model;
    for (let i = 0; i < m.nLinks; i++) neutralJointQ(m.jointType[i], this.q, m.qOffset[i]);
    this.qd.fill(0);
    this.tau.fill(0);
    this.fext.fill(0);
    this.work.dynamicsValid = false;
  }

  /** Clears joint torques and external forces (typically after each step). */
  clearForces(): void {
    this.tau.fill(0);
    this.fext.fill(0);
    this.work.dynamicsValid = false;
  }

  /** Size of the array written by save(). */
  get savedLength(): number {
    return this.q.length + this.qd.length + this.tau.length + this.fext.length + 3;
  }

  /** Writes q, qd, tau, fext and gravity into `out` (or a new array): bit-exact. */
  save(out?: Float64Array): Float64Array {
    const buf = out ?? new Float64Array(this.savedLength);
    if (buf.length < this.savedLength) throw new RangeError(`State.save: buffer of ${buf.length} numbers, expected ${this.savedLength}`);
    let o = 0;
    buf.set(this.q, o); o += this.q.length;
    buf.set(this.qd, o); o += this.qd.length;
    buf.set(this.tau, o); o += this.tau.length;
    buf.set(this.fext, o); o += this.fext.length;
    buf.set(this.gravity, o);
    return buf;
  }

  /** Restores what save() wrote, bit for bit. */
  restore(buf: Float64Array): void {
    if (buf.length < this.savedLength) throw new RangeError(`State.restore: buffer of ${buf.length} numbers, expected ${this.savedLength}`);
    let o = 0;
    o = copyFrom(buf, o, this.q);
    o = copyFrom(buf, o, this.qd);
    o = copyFrom(buf, o, this.tau);
    o = copyFrom(buf, o, this.fext);
    copyFrom(buf, o, this.gravity);
    this.work.dynamicsValid = false;
  }

  copyFrom(other: State): void {
    if (other.model !== this.model) throw new Error('State.copyFrom: states of different models');
    this.q.set(other.q);
    this.qd.set(other.qd);
    this.tau.set(other.tau);
    this.fext.set(other.fext);
    this.gravity.set(other.gravity);
    this.work.dynamicsValid = false;
  }

  clone(): State {
    const s = new State(this.model);
    s.copyFrom(this);
    return s;
  }

  /** Sets a 1-dof joint's position by name (or a multi-coordinate joint's q from an array). */
  setJointQ(name: string, value: number | ArrayLike<number>): void {
    const j = this.model.joint(name);
    if (typeof value === 'number') {
      if (j.nq !== 1) throw new Error(`State.setJointQ: joint "${name}" has ${j.nq} coordinates, got one number`);
      if (!Number.isFinite(value)) throw new Error(`State.setJointQ: joint "${name}": non-finite value ${value}`);
      this.q[j.q] = value;
    } else {
      if (value.length !== j.nq) throw new Error(`State.setJointQ: joint "${name}" has ${j.nq} coordinates, got ${value.length}`);
      for (let k = 0; k < j.nq; k++) {
        if (!Number.isFinite(value[k])) throw new Error(`State.setJointQ: joint "${name}": non-finite value at ${k}`);
      }
      for (let k = 0; k < j.nq; k++) this.q[j.q + k] = value[k];
    }
    this.work.dynamicsValid = false;
  }

  /**
   * Adds a force (world coordinates, newtons) applied at a world point to link `link`'s external
   * force. Refuses non-finite input without changing the state.
   */
  applyForce(link: number, force: ArrayLike<number>, point: ArrayLike<number>): void {
    if (!(link >= 0 && link < this.model.nLinks)) throw new RangeError(`applyForce: no link ${link}`);
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(force[k]) || !Number.isFinite(point[k])) {
        throw new Error(`applyForce: link "${this.model.linkNames[link]}": force and point must be 3 finite numbers`);
      }
    }
    const o = 6 * link, f = this.fext;
    f[o] += point[1] * force[2] - point[2] * force[1];
    f[o + 1] += point[2] * force[0] - point[0] * force[2];
    f[o + 2] += point[0] * force[1] - point[1] * force[0];
    f[o + 3] += force[0]; f[o + 4] += force[1]; f[o + 5] += force[2];
    this.work.dynamicsValid = false;
  }

  /** Index of the first non-finite entry of q or qd, or -1 (q indices first, then nq + qd index). */
  firstNonFinite(): number {
    for (let i = 0; i < this.q.length; i++) if (!Number.isFinite(this.q[i])) return i;
    for (let i = 0; i < this.qd.length; i++) if (!Number.isFinite(this.qd[i])) return this.q.length + i;
    return -1;
  }
}

/** out[k] = buf[o + k] for the length of out (no views created); returns the next offset. */
function copyFrom(buf: Float64Array, o: number, out: Float64Array): number {
  for (let k = 0; k < out.length; k++) out[k] = buf[o + k];
  return o + out.length;
}
