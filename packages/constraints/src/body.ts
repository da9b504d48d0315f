/**
 * A simulated body of a World: an articulated character (or a single free rigid body) with its
 * Model, State, and the per-step scratch the World needs.
 */
import { State, forwardDynamics, forwardKinematics, freeRootCount, pointVelocity as statePointVelocity, type Model } from '@sinew/featherstone';
import { implicitGyroscopicDelta } from './gyroscopic.js';
import { checkOut, quaternionOfMatrix, resolveLink, type LinkRef, type NumberArray } from './link-readers.js';
import { linkDeltasFromJointDeltas } from './solver/link-deltas.js';

/** An articulated body in a World: a Model, its State and the per-body data the step needs (returned by `World.addBody`). */
export class Body {
  /**
   * Place of this body in its world's `bodies` (rows, pins and drives name bodies by it). It moves
   * down by one when a body before it is removed (World.removeBody); -1 once this body is removed.
   */
  index: number;
  /** Whether World.removeBody took this body out of its world: every later call of the world that names it is refused. */
  removed = false;
  /**
   * Whether the body is simulated (default true). A disabled body (enabled = false, or
   * World.setEnabled) neither moves nor collides, nothing its rows (pins, drives) hold it by acts,
   * and its state is kept as it is; set true again, it goes on from that state. The world applies
   * a change at its next step or query.
   */
  enabled = true;
  /** Whether the world has applied enabled = false (the body held asleep, its shapes off); set by the World. */
  disabledApplied = false;
  /** Whether the body slept when it was disabled (World.setEnabled restores it). */
  sleptBeforeDisabled = false;
  /** Serial of this body in its world (the count of addBody calls before it): saved states name bodies by it. */
  serial = -1;
  readonly name: string;
  readonly model: Model;
  readonly state: State;
  /** Unconstrained accelerations of the last dynamics pass. */
  readonly qdd0: Float64Array;
  /** Constrained accelerations (qdd0 + the constraint forces' effect). */
  readonly qdd: Float64Array;
  /** q and qd at the start of the current step (for backtracking). */
  readonly savedQ: Float64Array;
  readonly savedQd: Float64Array;
  /**
   * q and qd at the start of the current World.step (restored if the step fails); for a sleeping
   * body, as the last step left them when `sleepSnapshot` is set (World.step wakes a sleeper whose
   * state was changed since).
   */
  readonly frameQ: Float64Array;
  readonly frameQd: Float64Array;
  /**
   * q and qd at the World's last forward kinematics of this body with velocities (NaN before the
   * first): while they are unchanged, the link poses and velocities in its State's work arrays are
   * those of the current state (World.awakeKinematics).
   */
  readonly kinematicsQ: Float64Array;
  readonly kinematicsQd: Float64Array;
  /** Momentum the free root's subtree must have after the step (null unless link 0 is the only free root of a multi-link body; a single free body keeps its momentum by the integrator itself). */
  readonly momentumTarget: Float64Array | null;
  readonly momentumStart: Float64Array | null;
  /**
   * For a body with a momentum target: the world directions the current step's rows push it in,
   * orthonormal (3 each), and their number, or -1 when the rows block it (World.rowDirections).
   */
  readonly pushDirections: Float64Array | null;
  pushCount = 0;
  /**
   * A tree on one free root, link 0 (a character or a rigid body): nothing holds it to the world
   * but rows, so an island of such bodies with no row to the world keeps its momentum as a whole
   * (World.conserveGroupMomenta).
   */
  readonly freeTree: boolean;
  /**
   * At the start of the current pass (World.advance): the body's momentum (angular about its own
   * centre of mass, then linear; world coordinates), the external wrench on it (gravity, applied
   * forces and root torques, about the same centre of mass; no row forces) and the centre of mass.
   */
  readonly passMomentum = new Float64Array(6);
  readonly passWrench = new Float64Array(6);
  readonly passCom = new Float64Array(3);
  /** Scratch of nv numbers. */
  readonly scratch: Float64Array;
  /** A single rigid body on a free joint (a ball, a crate). */
  readonly rigid: boolean;
  /**
   * Whether the current step moves this body's free joint by featherstone's world rule
   * (advanceFreeJoint), which is exact for flying and rolling: a rigid body does, unless a pin
   * holds it. The screw rule, exact for a body turning about a fixed pin, moves a pinned rigid
   * body and a tree's root while rows act on it (without rows, in flight, every body moves by
   * the world rule). Set by the World every step; the solver predicts velocities by it.
   */
  worldRule = false;
  /**
   * Step length (s) for which dynamics() takes the gyroscopic term of ball joints implicitly
   * (gyroscopic.ts); 0 leaves ABA's explicit accelerations. The World sets it every step.
   */
  gyroscopicStep = 0;
  /** The change dynamics() made to qdd0 for the gyroscopic term (zero when none). */
  readonly gyroDelta: Float64Array;
  /** Resting bodies are not stepped until something wakes them. */
  sleeping = false;
  /** Whether frameQ and frameQd hold this sleeper's state as the last step left it (set by the World). */
  sleepSnapshot = false;
  /** Seconds this body has spent below the sleep thresholds. */
  restTime = 0;
  /** Island of the current step. */
  island = -1;
  /**
   * The energy account (World.boundEnergy), in a typed array (a double written to a field may be
   * boxed): [0] mechanical energy (kinetic + potential, J) at the start of the current pass, [1]
   * the credit: energy the body lost in earlier passes that may come back (at most its bound per
   * step; NaN until the first pass, which starts with the full bound), [2] the credit at the start of
   * the World.step (restored when the step is rolled back), [3] kinetic energy and [4] potential
   * energy, then the part of the kinetic energy that may be removed, at the end of the pass, [5]
   * scratch, [6] the body's mass (kg).
   */
  readonly energy = new Float64Array(7).fill(NaN);
  /** The rigid motion with this body's momentum (World.boundEnergy's scratch, nv numbers). */
  readonly rigidQd: Float64Array;
  /**
   * Whether the next step measures this body's island at its warm-start forces before it builds
   * K (World.solveIsland): set after each solve of the island, when it took at most one sweep or
   * the warm forces held with room to spare. Saved with the world (World.saveState).
   */
  checkWarmStart = true;
  /**
   * Place of this body in the world's canonical order (by name, then by index): the solver orders
   * its rows by it, so the order in which bodies were added does not decide the Gauss-Seidel order.
   */
  rank = 0;
  /**
   * The key the world orders bodies by (Body.rank): 'n:' and the name the user gave, or, for a body
   * added without a name, 'h:' and a hash of its model and of its state at its first step
   * (bodyContentKey), so that the order bodies were added in never decides the results. '' until
   * the world assigns it. Saved with the world.
   */
  key = '';

  constructor(index: number, name: string, model: Model, state?: State) {
    if (state && state.model !== model) throw new Error(`Body "${name}": the state belongs to another model`);
    this.index = index;
    this.rank = index;
    this.name = name;
    this.model = model;
    this.state = state ?? new State(model);
    this.qdd0 = new Float64Array(model.nv);
    this.qdd = new Float64Array(model.nv);
    this.savedQ = new Float64Array(model.nq);
    this.savedQd = new Float64Array(model.nv);
    this.frameQ = new Float64Array(model.nq);
    this.frameQd = new Float64Array(model.nv);
    this.kinematicsQ = new Float64Array(model.nq).fill(NaN);
    this.kinematicsQd = new Float64Array(model.nv).fill(NaN);
    this.scratch = new Float64Array(Math.max(6, model.nv));
    this.gyroDelta = new Float64Array(model.nv);
    this.rigidQd = new Float64Array(model.nv);
    this.energy[6] = model.totalMass();
    const freeTree = model.parent[0] === -1 && model.jointType[0] === 4 && freeRootCount(model) === 1;
    this.momentumTarget = freeTree ? new Float64Array(6) : null;
    this.momentumStart = freeTree ? new Float64Array(6) : null;
    this.pushDirections = freeTree ? new Float64Array(9) : null;
    this.rigid = model.nLinks === 1 && model.jointType[0] === 4;
    // (a free link 0 that is the model's only root: the free tree above with no other tree beside it)
    let roots = 0;
    for (let i = 0; i < model.nLinks; i++) if (model.parent[i] < 0) roots++;
    this.freeTree = freeTree && roots === 1;
  }

  /**
   * Forward dynamics into qdd0. A failure of the model (a singular or non-finite articulated
   * inertia) is reported with this body's name: the World's step error then says which character.
   * `kinematicsCurrent`: forward kinematics with velocities ran at the current q and qd (the World
   * does at the start of the step), so ABA need not run them again.
   */
  dynamics(kinematicsCurrent = false): void {
    try {
      forwardDynamics(this.model, this.state, this.qdd0, kinematicsCurrent);
    } catch (e) {
      if (e instanceof TypeError || e instanceof ReferenceError || !(e instanceof Error)) throw e;
      throw new Error(`body "${this.name}": ${e.message}`);
    }
    if (this.gyroscopicStep > 0 && implicitGyroscopicDelta(this, this.gyroDelta)) {
      // qdd0, and the link accelerations the rows' acceleration measures read, move together
      const d = this.gyroDelta, w = this.state.work;
      for (let k = 0; k < this.model.nv; k++) { this.qdd0[k] += d[k]; w.qdd[k] += d[k]; }
      linkDeltasFromJointDeltas(this, d);
      for (let e = 0; e < 6 * this.model.nLinks; e++) w.a[e] += w.da[e];
    }
  }

  save(): void {
    this.savedQ.set(this.state.q);
    this.savedQd.set(this.state.qd);
  }

  /** The first joint whose q or qd is not finite, or '' when the state is finite. */
  nonFiniteJoint(): string {
    const k = this.state.firstNonFinite();
    if (k < 0) return '';
    const m = this.model;
    if (k < m.nq) {
      for (let i = m.nLinks - 1; i >= 0; i--) if (m.qOffset[i] <= k) return m.jointNames[i];
    }
    return m.jointNames[m.dofLink[k - m.nq]];
  }

  /**
   * The readers' own kinematics (a State of this body's model, made at the first read): forward
   * kinematics with velocities at the current q and qd, run again only when they changed. The
   * readers never touch this.state's work arrays, which the step caches kinematics in
   * (World.awakeKinematics), so reading changes no bit of the simulation.
   */
  /** A removed body's state is no longer the world's: its readers refuse, as the World's calls do. */
  private refuseRemoved(fn: string): void {
    if (this.removed) throw new Error(`Body "${this.name}".${fn}: the body was removed from its world`);
  }

  private reader: State | null = null;
  private readerValid = false;

  private readerState(): State {
    let r = this.reader;
    const q = this.state.q, qd = this.state.qd;
    if (r === null) r = this.reader = new State(this.model);
    else if (this.readerValid) {
      const rq = r.q, rqd = r.qd;
      let same = true;
      for (let k = 0; k < q.length && same; k++) same = rq[k] === q[k];
      for (let k = 0; k < qd.length && same; k++) same = rqd[k] === qd[k];
      if (same) return r;
    }
    r.q.set(q);
    r.qd.set(qd);
    forwardKinematics(this.model, r, true);
    this.readerValid = true;
    return r;
  }

  /**
   * World position (m) of a link's origin (its joint frame) at the body's current state, by index
   * or name, into out (a gl-matrix vec3, a Float64Array or a plain array; a new Float64Array without it).
   */
  linkPosition(link: LinkRef): Float64Array;
  linkPosition<T extends NumberArray>(link: LinkRef, out: T): T;
  linkPosition(link: LinkRef, out?: NumberArray): NumberArray {
    this.refuseRemoved('linkPosition');
    const i = resolveLink('linkPosition', this.name, this.model, link);
    const o = out ?? new Float64Array(3);
    checkOut('linkPosition', this.name, o, 3);
    const P = this.readerState().work.pose, po = 12 * i;
    o[0] = P[po + 9]; o[1] = P[po + 10]; o[2] = P[po + 11];
    return o;
  }

  /**
   * World rotation of a link at the body's current state as a unit quaternion [x, y, z, w] (as
   * gl-matrix and three.js store them), by index or name, into out (a new Float64Array without it).
   */
  linkRotation(link: LinkRef): Float64Array;
  linkRotation<T extends NumberArray>(link: LinkRef, out: T): T;
  linkRotation(link: LinkRef, out?: NumberArray): NumberArray {
    this.refuseRemoved('linkRotation');
    const i = resolveLink('linkRotation', this.name, this.model, link);
    const o = out ?? new Float64Array(4);
    checkOut('linkRotation', this.name, o, 4);
    quaternionOfMatrix(this.readerState().work.pose, 12 * i, o);
    return o;
  }

  /**
   * World velocity (m/s) of a point fixed in a link, given in the link's coordinates, at the body's
   * current state: v_o + w x r of the link's spatial velocity, in world axes.
   */
  pointVelocity(link: LinkRef, localPoint: ArrayLike<number>): Float64Array;
  pointVelocity<T extends NumberArray>(link: LinkRef, localPoint: ArrayLike<number>, out: T): T;
  pointVelocity(link: LinkRef, localPoint: ArrayLike<number>, out?: NumberArray): NumberArray {
    this.refuseRemoved('pointVelocity');
    const i = resolveLink('pointVelocity', this.name, this.model, link);
    if (localPoint == null || typeof localPoint.length !== 'number' || localPoint.length < 3 ||
      !(Number.isFinite(localPoint[0]) && Number.isFinite(localPoint[1]) && Number.isFinite(localPoint[2]))) {
      throw new RangeError(`Body "${this.name}".pointVelocity: localPoint must hold three finite numbers, got ${localPoint == null ? String(localPoint) : `[${Array.prototype.slice.call(localPoint, 0, 3).join(', ')}]`}`);
    }
    const o = out ?? new Float64Array(3);
    checkOut('pointVelocity', this.name, o, 3);
    statePointVelocity(this.readerState(), i, localPoint, o as Float64Array);
    return o;
  }

  restore(): void {
    this.state.q.set(this.savedQ);
    this.state.qd.set(this.savedQd);
    this.state.work.dynamicsValid = false;
  }
}
