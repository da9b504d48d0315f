/**
 * A simulated body of a World: an articulated character (or a single free rigid body) with its
 * Model, State, and the per-step scratch the World needs.
 */
import { State, forwardDynamics, forwardKinematics, freeRootCount, pointVelocity as statePointVelocity, type Model } from '@sinew/featherstone';
import { implicitGyroscopicDelta } from './gyroscopic.js';
import { checkOut, quaternionOfMatrix, resolveLink, type LinkRef, type NumberArray } from './link-readers.js';
import { linkDeltasFromJointDeltas } from './solver/link-deltas.js';
import { KinematicJoints, KinematicMode, prescribedVelocity } from './kinematic.js';

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
  /** @internal Whether the world has applied enabled = false (the body held asleep, its shapes off); set by the World. */
  disabledApplied = false;
  /** @internal Whether the body slept when it was disabled (World.setEnabled restores it). */
  sleptBeforeDisabled = false;
  /** @internal Serial of this body in its world (the count of addBody calls before it): saved states name bodies by it. */
  serial = -1;
  readonly name: string;
  readonly model: Model;
  readonly state: State;
  /** @internal Unconstrained accelerations of the last dynamics pass. */
  readonly qdd0: Float64Array;
  /** @internal Constrained accelerations (qdd0 + the constraint forces' effect). */
  readonly qdd: Float64Array;
  /** @internal q and qd at the start of the current step (for backtracking). */
  readonly savedQ: Float64Array;
  /** @internal */
  readonly savedQd: Float64Array;
  /**
   * q and qd at the start of the current World.step (restored if the step fails); for a sleeping
   * body, as the last step left them when `sleepSnapshot` is set (World.step wakes a sleeper whose
   * state was changed since).
   * @internal
   */
  readonly frameQ: Float64Array;
  /** @internal */
  readonly frameQd: Float64Array;
  /**
   * q and qd at the World's last forward kinematics of this body with velocities (NaN before the
   * first): while they are unchanged, the link poses and velocities in its State's work arrays are
   * those of the current state (World.awakeKinematics).
   * @internal
   */
  readonly kinematicsQ: Float64Array;
  /** @internal */
  readonly kinematicsQd: Float64Array;
  /** @internal Momentum the free root's subtree must have after the step (null unless link 0 is the only free root of a multi-link body; a single free body keeps its momentum by the integrator itself). */
  readonly momentumTarget: Float64Array | null;
  /** @internal */
  readonly momentumStart: Float64Array | null;
  /**
   * For a body with a momentum target: the world directions the current step's rows push it in,
   * orthonormal (3 each), and their number, or -1 when the rows block it (step/momentum.ts rowDirections).
   * @internal
   */
  readonly pushDirections: Float64Array | null;
  /** @internal */
  pushCount = 0;
  /**
   * A tree on one free root, link 0 (a character or a rigid body): nothing holds it to the world
   * but rows, so an island of such bodies with no row to the world keeps its momentum as a whole
   * (step/momentum.ts conserveGroupMomenta).
   * @internal
   */
  readonly freeTree: boolean;
  /**
   * At the start of the current pass (step/pass.ts advance): the body's momentum (angular about its own
   * centre of mass, then linear; world coordinates), the external wrench on it (gravity, applied
   * forces and root torques, about the same centre of mass; no row forces) and the centre of mass.
   * @internal
   */
  readonly passMomentum = new Float64Array(6);
  /** @internal */
  readonly passWrench = new Float64Array(6);
  /** @internal */
  readonly passCom = new Float64Array(3);
  /** @internal Scratch of nv numbers. */
  readonly scratch: Float64Array;
  /** @internal A single rigid body on a free joint (a ball, a crate). */
  readonly rigid: boolean;
  /**
   * Whether the current step moves this body's free joint by featherstone's world rule
   * (advanceFreeJoint), which is exact for flying and rolling: a rigid body does, unless a pin
   * holds it. The screw rule, exact for a body turning about a fixed pin, moves a pinned rigid
   * body and a tree's root while rows act on it (without rows, in flight, every body moves by
   * the world rule). Set by the World every step; the solver predicts velocities by it.
   * @internal
   */
  worldRule = false;
  /**
   * Step length (s) for which dynamics() takes the gyroscopic term of ball joints implicitly
   * (gyroscopic.ts); 0 leaves ABA's explicit accelerations. The World sets it every step.
   * @internal
   */
  gyroscopicStep = 0;
  /** @internal The change dynamics() made to qdd0 for the gyroscopic term (zero when none). */
  readonly gyroDelta: Float64Array;
  /** Resting bodies are not stepped until something wakes them. */
  sleeping = false;
  /** @internal Whether frameQ and frameQd hold this sleeper's state as the last step left it (set by the World). */
  sleepSnapshot = false;
  /**
   * Seconds this body has spent below the sleep thresholds; the World puts it to sleep once this
   * reaches World.settings.sleepTime (a game may set it there to let a body it knows is still sleep at the
   * end of the next step).
   */
  restTime = 0;
  /** @internal Island of the current step. */
  island = -1;
  /**
   * The energy account (step/energy-account.ts boundEnergy), in a typed array (a double written to a field may be
   * boxed): [0] mechanical energy (kinetic + potential, J) at the start of the current pass, [1]
   * the credit: energy the body lost in earlier passes that may come back (at most its bound per
   * step; NaN until the first pass, which starts with the full bound), [2] the credit at the start of
   * the World.step (restored when the step is rolled back), [3] kinetic energy and [4] potential
   * energy, then the part of the kinetic energy that may be removed, at the end of the pass, [5]
   * kinetic energy at the start of the pass, [6] the body's mass (kg), [7] the potential energy
   * post-stabilisation gave it in the pass (J).
   * @internal
   */
  readonly energy = new Float64Array(8).fill(NaN);
  /** @internal The rigid motion with this body's momentum (step/energy-account.ts boundEnergy's scratch, nv numbers). */
  readonly rigidQd: Float64Array;
  /**
   * Whether the next step measures this body's island at its warm-start forces before it builds
   * K (step/solve.ts solveIsland): set after each solve of the island, when it took at most one sweep or
   * the warm forces held with room to spare. Saved with the world (World.saveState).
   * @internal
   */
  checkWarmStart = true;
  /**
   * Place of this body in the world's canonical order (by name, then by index): the solver orders
   * its rows by it, so the order in which bodies were added does not decide the Gauss-Seidel order.
   * @internal
   */
  rank = 0;
  /**
   * The key the world orders bodies by (Body.rank): 'n:' and the name the user gave, or, for a body
   * added without a name, 'h:' and a hash of its model and of its state at its first step
   * (bodyContentKey), so that the order bodies were added in never decides the results. '' until
   * the world assigns it. Saved with the world.
   * @internal
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
   * @internal
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

  /** @internal */
  save(): void {
    this.savedQ.set(this.state.q);
    this.savedQd.set(this.state.qd);
  }

  /** @internal The first joint whose q or qd is not finite, or '' when the state is finite. */
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

  /**
   * The joints whose motion the game prescribes (kinematic.ts), or null when every joint is
   * simulated. Made by World.addBody's `kinematic` option or setKinematicLinks.
   * @internal
   */
  kinematic: KinematicJoints | null = null;

  /** Whether every joint of this body is prescribed (a kinematic body: World.addBody's `kinematic` option, or setKinematicLinks with every link). */
  get isKinematic(): boolean {
    return this.kinematic !== null && this.kinematic.count === this.model.nLinks;
  }

  /**
   * Makes the joints of these links kinematic (their motion set by the game: setNextKinematicJoints,
   * setKinematicJointVelocities, and for a free root setNextKinematicPose, setKinematicVelocity) and
   * every other joint simulated; [] makes the whole body simulated again. The animated links drive,
   * the others react (a partial ragdoll: an animated upper body on simulated legs). A joint made
   * kinematic holds still until given a target or a velocity (its current q is its target); a
   * joint no longer kinematic goes on from its state.
   */
  setKinematicLinks(links: readonly LinkRef[]): void {
    this.refuseRemoved('setKinematicLinks');
    if (links == null || typeof links.length !== 'number') throw new RangeError(`Body "${this.name}".setKinematicLinks: expected an array of link indices or names, got ${String(links)}`);
    const idx = Array.from(links, (l) => resolveLink('setKinematicLinks', this.name, this.model, l));
    if (idx.length === 0) { this.kinematic = null; return; }
    const before = this.kinematic;
    const kin = before ?? new KinematicJoints(this.model);
    const was = Uint8Array.from(kin.link);
    kin.setLinks(this.model, idx);
    if (!before) { kin.flags[0] = KinematicMode.Position; kin.flags[1] = 0; }
    // a joint newly prescribed holds where it is: its target is its q, its rate zero
    const m = this.model;
    for (let i = 0; i < m.nLinks; i++) {
      if (!kin.link[i] || was[i]) continue;
      for (let k = m.qOffset[i]; k < m.qOffset[i] + m.jointNq[i]; k++) kin.target[k] = this.state.q[k];
      for (let d = m.vOffset[i]; d < m.vOffset[i] + m.jointNv[i]; d++) kin.rate[d] = 0;
    }
    this.kinematic = kin;
  }

  /** The prescribed joints, refusing a body without any or a bad argument count (for the setters). */
  private kinematicFor(fn: string): KinematicJoints {
    this.refuseRemoved(fn);
    if (!this.kinematic) throw new Error(`Body "${this.name}".${fn}: the body has no kinematic joints (add it with { kinematic: true }, or call setKinematicLinks first)`);
    return this.kinematic;
  }

  /** The free root of a kinematic body (link 0 on a free joint, prescribed), refused otherwise. */
  private kinematicRoot(fn: string): KinematicJoints {
    const kin = this.kinematicFor(fn);
    if (!(this.model.parent[0] === -1 && this.model.jointType[0] === 4 && kin.link[0] === 1)) {
      throw new Error(`Body "${this.name}".${fn}: needs a kinematic root on a free joint (link 0 "${this.model.linkNames[0]}" is ${kin.link[0] ? 'not on a free joint' : 'not kinematic'}); use setNextKinematicJoints / setKinematicJointVelocities for other joints`);
    }
    return kin;
  }

  /**
   * The world pose the kinematic root (link 0, a free joint) reaches at the end of the next step:
   * position (m) and rotation [x, y, z, w] (normalised here; default: the current one). The step
   * moves it there at the constant velocity (target - current) / dt, which it keeps afterwards in
   * its state; it pushes what it meets as an infinite mass would. Without a new target, the
   * following step holds it still (as Rapier's position-based kinematic bodies). Other kinematic
   * joints hold still unless given targets by setNextKinematicJoints.
   */
  setNextKinematicPose(position: ArrayLike<number>, rotation?: ArrayLike<number>): void {
    const kin = this.kinematicRoot('setNextKinematicPose');
    finite(this.name, 'setNextKinematicPose', 'position', position, 3);
    if (rotation !== undefined) finite(this.name, 'setNextKinematicPose', 'rotation', rotation, 4);
    this.beginTargets(kin);
    const t = kin.target, qo = this.model.qOffset[0];
    t[qo] = position[0]; t[qo + 1] = position[1]; t[qo + 2] = position[2];
    if (rotation !== undefined) {
      const n = Math.sqrt(rotation[0] * rotation[0] + rotation[1] * rotation[1] + rotation[2] * rotation[2] + rotation[3] * rotation[3]);
      if (!(n > 1e-9)) throw new RangeError(`Body "${this.name}".setNextKinematicPose: rotation must be a non-zero quaternion [x, y, z, w], got [${Array.from(rotation).join(', ')}]`);
      for (let k = 0; k < 4; k++) t[qo + 3 + k] = rotation[k] / n;
    }
  }

  /**
   * Targets of the kinematic joints for the end of the next step, as a full q vector of the model
   * (entries of simulated joints are ignored; quaternions are normalised): each kinematic joint
   * moves there at a constant rate through the step and keeps that rate in its state. Without new
   * targets the following step holds them still.
   */
  setNextKinematicJoints(q: ArrayLike<number>): void {
    const kin = this.kinematicFor('setNextKinematicJoints');
    const m = this.model;
    if (q == null || q.length !== m.nq) throw new RangeError(`Body "${this.name}".setNextKinematicJoints: expected ${m.nq} numbers (the model's q), got ${q == null ? String(q) : q.length}`);
    for (let i = 0; i < m.nLinks; i++) {
      if (!kin.link[i]) continue;
      for (let k = m.qOffset[i]; k < m.qOffset[i] + m.jointNq[i]; k++) {
        if (!Number.isFinite(q[k])) throw new RangeError(`Body "${this.name}".setNextKinematicJoints: q[${k}] (joint "${m.jointNames[i]}") is ${q[k]}; expected a finite number`);
      }
    }
    this.beginTargets(kin);
    const t = kin.target;
    for (let i = 0; i < m.nLinks; i++) {
      if (!kin.link[i]) continue;
      const qo = m.qOffset[i], nq = m.jointNq[i];
      for (let k = qo; k < qo + nq; k++) t[k] = q[k];
      const type = m.jointType[i];
      if (type === 3 || type === 4) {
        const o = type === 4 ? qo + 3 : qo;
        const n = Math.sqrt(t[o] * t[o] + t[o + 1] * t[o + 1] + t[o + 2] * t[o + 2] + t[o + 3] * t[o + 3]);
        if (!(n > 1e-9)) throw new RangeError(`Body "${this.name}".setNextKinematicJoints: the quaternion of joint "${m.jointNames[i]}" is zero`);
        for (let k = 0; k < 4; k++) t[o + k] /= n;
      }
    }
  }

  /** Position mode with every kinematic joint's target at its current q, pending for the next step. */
  private beginTargets(kin: KinematicJoints): void {
    if (!(kin.flags[0] === KinematicMode.Position && kin.flags[1] === 1)) kin.target.set(this.state.q);
    kin.flags[0] = KinematicMode.Position;
    kin.flags[1] = 1;
  }

  /**
   * The velocity of the kinematic root (link 0, a free joint), world frame: the linear velocity
   * (m/s) of its origin and the angular velocity (rad/s) about it, kept until changed. Each step
   * moves it exactly so (a moving platform, a turning wheel); other kinematic joints keep their
   * rates (setKinematicJointVelocities).
   */
  setKinematicVelocity(linear: ArrayLike<number>, angular: ArrayLike<number> = [0, 0, 0]): void {
    const kin = this.kinematicRoot('setKinematicVelocity');
    finite(this.name, 'setKinematicVelocity', 'linear', linear, 3);
    finite(this.name, 'setKinematicVelocity', 'angular', angular, 3);
    this.beginVelocities(kin);
    const r = kin.rate, vo = this.model.vOffset[0];
    r[vo] = angular[0]; r[vo + 1] = angular[1]; r[vo + 2] = angular[2];
    r[vo + 3] = linear[0]; r[vo + 4] = linear[1]; r[vo + 5] = linear[2];
    // (a kinematic body takes the velocity at once; kinematic links of a simulated body reach it
    // through the step's rows, which give the simulated links the reaction)
    if (this.isKinematic) prescribedVelocity(this.model, kin, this.state.q, this.state.qd);
  }

  /**
   * Rates of the kinematic joints as a full qd vector of the model (rad/s or m/s; a free joint's
   * six in the world frame: angular, then its origin's linear velocity; entries of simulated joints
   * are ignored), kept until changed (a door turning on its hinge, an animated limb).
   */
  setKinematicJointVelocities(qd: ArrayLike<number>): void {
    const kin = this.kinematicFor('setKinematicJointVelocities');
    const m = this.model;
    if (qd == null || qd.length !== m.nv) throw new RangeError(`Body "${this.name}".setKinematicJointVelocities: expected ${m.nv} numbers (the model's qd), got ${qd == null ? String(qd) : qd.length}`);
    for (let d = 0; d < m.nv; d++) {
      if (kin.dof[d] && !Number.isFinite(qd[d])) throw new RangeError(`Body "${this.name}".setKinematicJointVelocities: qd[${d}] (joint "${m.jointNames[m.dofLink[d]]}") is ${qd[d]}; expected a finite number`);
    }
    this.beginVelocities(kin);
    for (let d = 0; d < m.nv; d++) if (kin.dof[d]) kin.rate[d] = qd[d];
    if (this.isKinematic) prescribedVelocity(m, kin, this.state.q, this.state.qd);
  }

  /** Velocity mode (a pending target is dropped; its rates were already computed or are zero). */
  private beginVelocities(kin: KinematicJoints): void {
    // leaving position mode: joints not given a rate hold still
    if (kin.flags[0] === KinematicMode.Position) kin.rate.fill(0);
    kin.flags[0] = KinematicMode.Velocity;
    kin.flags[1] = 0;
  }

  /** @internal */
  restore(): void {
    this.state.q.set(this.savedQ);
    this.state.qd.set(this.savedQd);
    this.state.work.dynamicsValid = false;
  }
}

/** Refuses a vector that is not n finite numbers, naming the body, the call and the argument. */
function finite(body: string, fn: string, what: string, v: ArrayLike<number>, n: number): void {
  if (v == null || typeof v.length !== 'number' || v.length !== n) throw new RangeError(`Body "${body}".${fn}: ${what} must be ${n} finite numbers, got ${v == null ? String(v) : `length ${v.length}`}`);
  for (let k = 0; k < n; k++) {
    if (!(typeof v[k] === 'number' && Number.isFinite(v[k]))) throw new RangeError(`Body "${body}".${fn}: ${what} must be ${n} finite numbers, got [${Array.from(v).join(', ')}]`);
  }
}
