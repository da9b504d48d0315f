/**
 * The World: bodies (characters and free rigid bodies), static shapes, constraint sources (joint
 * limits, pins, drives, motors, contacts), and step(), in the shape of the Kokkevis paper's Step()
 * (section 7). The step is a pipeline of stages in step/, each a function of one StepData
 * (step/step-data.ts) in a file named for what it does, read in this order:
 *
 *   World.step        input checked (a refused step changes nothing), sleepers woken, kinematic
 *                     rates set (step/kinematic-stage.ts), then one attempt (step/recovery.ts) of
 *                     `substeps` sub-steps; a non-finite attempt is taken again in smaller pieces,
 *                     then with the failing island stopped, then rolled back with time advancing;
 *   each sub-step     at most maxPasses passes (step/pass.ts), each:
 *     rows.ts           forward kinematics, collision detection, every source's rows, warm starts;
 *     pass.ts           ABA on every body (the accelerations without row forces);
 *     islands.ts        bodies joined by rows;
 *     solve.ts          K by AccelerationDeltas, an impulse LCP when a row hits (impacts.ts),
 *                       the acceleration LCP by PGS (Cholesky or pivoting where it pays);
 *     backtrack.ts      semi-implicit Euler, the pass halved while a contact or limit is violated
 *                       beyond its tolerance (never in a sub-step's last pass, never shorter
 *                       than an equal share of the rest for each pass left);
 *     stabilize.ts      post-stabilisation (Cline thesis 3.4) or Baumgarte (in solve.ts), or none;
 *     momentum.ts       momentum the rows could not change, restored;
 *     energy-account.ts no island gains energy from nowhere;
 *     sleep.ts          resting islands sleep.
 *
 * World itself holds what the game sees and sets: bodies, shapes, sources, settings (read by the
 * stages as StepSettings), lifetime, events, snapshots, queries and debug drawing.
 */
import { forwardKinematics, JointType, type Model, type ShapeDesc, type State } from '@sinew/featherstone';
import { CollisionWorld } from './collision/collision-world.js';
import { DEBUG_LINE_STRIDE, DebugLineWriter } from './collision/debug-shapes.js';
import { drawJoints } from './debug-joints.js';
import { CONTACT_F64_STRIDE, CONTACT_NORMAL, CONTACT_POINT_A } from './collision/contact-buffer.js';
import { ContactSource, type ContactOptions } from './sources/contacts.js';
import { Body } from './body.js';
import type { PgsOptions } from './lcp/pgs.js';
import { RowBuffer } from './rows/row-buffer.js';
import { ConstraintSolver, type KMethod } from './solver/constraint-solver.js';
import { JointLimits, type JointLimitOptions } from './sources/joint-limits.js';
import type { ConstraintSource } from './sources/source.js';
import { refusedInput, restoreWorldState, saveWorldState, type WorldState } from './world-state.js';
import { renumberWarmStarts, sourceBodies, sourceBodyRemoved } from './lifetime.js';
import { ContactEventRecorder, type ContactEvent, type ContactForce } from './events.js';
import { LimitEventRecorder, type LimitHit } from './limit-events.js';
import { readSnapshot, snapshotMismatch, writeSnapshot } from './world-snapshot.js';
import { KinematicMode, kinematicSlots, restoreKinematicJoints, ratesFromState } from './kinematic.js';
import { StepData, enabledPinOf, hasLoad, sameNumbers, type StabilizationMode, type StepStats } from './step/step-data.js';
import { stepWithRecovery } from './step/recovery.js';
import { beginKinematics, endKinematics } from './step/kinematic-stage.js';
import { markMovedPins } from './step/energy-account.js';
import { excludePinnedPairs } from './step/rows.js';
import { makeSettings, type SettingsPatch, type WorldSettings } from './world-settings.js';

export type { StabilizationMode, StepStats } from './step/step-data.js';
export type { SettingsPatch, WorldSettings } from './world-settings.js';

/** The PGS options of post-stabilisation: converged position corrections, at least as many sweeps as the step's solver. */
function stabilizationSolverOptions(settings: WorldSettings): PgsOptions {
  return { maxIterations: Math.max(30, settings.solverOptions.maxIterations ?? 30), tolerance: 1e-12, sor: 1 };
}

/** Options of a World: gravity, substeps, solver, stabilisation, the per-step budget, contacts, friction, sleep and the energy bound. */
export interface WorldOptions {
  /** Gravity (default [0, -9.81, 0]); applied to every body added. */
  gravity?: ArrayLike<number>;
  /**
   * Sub-steps per step() (default: chosen by the world at each step, see World.autoSubsteps: 1
   * unless pins hold loads much heavier than their lightest links, then 2 to 64; a step after
   * which a pin opened or a pinned body's joint went past its stops is taken again in twice as
   * many, stats.loadRetakes).
   */
  substeps?: number;
  /**
   * Fill stats.ms with the time of each phase of the step (default false: the clock returns a
   * number on the heap at each reading, and the step otherwise allocates nothing).
   */
  timings?: boolean;
  /** PGS options (default 30 iterations, tolerance 1e-3, SOR 1). */
  solver?: PgsOptions;
  /**
   * Start each step's PGS from the forces its rows ended the last step with (matched by row key:
   * a contact point by its shapes and feature, a limit by its joint, a drive by its dof). Default
   * true; false starts every solve from zero.
   */
  warmStart?: boolean;
  /** Position-drift stabilisation (default 'post'). */
  stabilization?: StabilizationMode;
  /** Baumgarte constant alpha (1/s) for 'baumgarte' (default 50). */
  baumgarteAlpha?: number;
  /** Halvings of one pass at most (default 4). */
  maxHalvings?: number;
  /**
   * Detection-and-solve passes per sub-step at most (default 2^(maxHalvings + 1), 32): a pass cut
   * short by backtracking leaves the rest of the sub-step to the next pass, a halving never leaves
   * a pass shorter than an equal share of what remains for each pass left (step/recovery.ts), and
   * the last pass takes all that remains without backtracking, so a step's cost is bounded
   * whatever happens. A game that needs a tighter bound on its frame sets fewer: the 50-ragdoll
   * pile's landing takes up to 15 passes with 32 (420 ms against a median of 27 ms), at most 3
   * with 3 (82 ms), and 3 keeps every scene of the robustness suite finite, order-independent and
   * never rolled back; hard landings then go deeper before stabilisation lifts them.
   */
  maxPasses?: number;
  /**
   * Largest joint speed (rad/s for hinges and ball joints, m/s for sliders), an optional safety
   * net as in PhysX and Bullet's reduced-coordinate articulations (default Infinity: off). Faster
   * joints are brought back to it after each integration (counted in stats.clampedSpeeds). Free
   * joints are exempt.
   */
  maxJointSpeed?: number;
  /**
   * Contact overlap (m) beyond which a tentative step is halved (default 0.005: a ragdoll landing at
   * 60 Hz keeps every contact within 5 mm; joint limits: limits.backtrackTolerance).
   */
  backtrackTolerance?: number;
  /** Approach speed (m/s or rad/s) above which a row gets an impact (default 0.02). */
  impactThreshold?: number;
  /** Position error tolerated without post-stabilisation (default 1e-7 m or rad). */
  stabilizationTolerance?: number;
  /** Overlap allowed to resting contacts without correction (default 1e-3 m). */
  contactSlop?: number;
  /** Violation allowed to joint limits resting at their stops without correction (default 1e-4 rad or m). */
  limitSlop?: number;
  /** Post-stabilisation passes per step (default 1; the correction is a Newton step, 2 removes its second-order rest). */
  stabilizationPasses?: number;
  /** Joint limits (margin, restitution). */
  limits?: JointLimitOptions;
  /** How K is built (default 'deltas'). */
  kMethod?: KMethod;
  /** Collision margin (m, default 0.01): contacts closer than this become (speculative) rows. */
  contactMargin?: number;
  /** Friction rows per contact (default 2: the four-sided pyramid; 1: the single-tangent trick). */
  friction?: ContactOptions;
  /** Sleeping: a resting island sleeps after `sleepTime` s (default 0.5) below `sleepSpeed` m/s (default 0.03); false disables. */
  sleep?: { sleepTime?: number; sleepSpeed?: number } | false;
  /**
   * The energy account (default true): the mechanical energy of an island without external work
   * never rises by more than its bound per step, sum of m |g| (contactSlop + |g| h^2 / 2) over its
   * bodies, nor drifts upward (see step/energy-account.ts boundEnergy); false turns it off.
   */
  energyBound?: boolean;
  /** Record contact events after each step for World.drainContactEvents (default false; World.contactEvents turns it on and off). */
  contactEvents?: boolean;
  /** Record joint-limit hits for World.drainLimitHits (default false; World.limitEvents), faster than `minSpeed` (rad/s or m/s, default 0.5). */
  limitEvents?: boolean | { minSpeed?: number };
}

/** Whether q or qd differ from frameQ / frameQd, which hold a sleeper's state as the last step left it (Body.sleepSnapshot). */
function movedSinceLastStep(b: Body): boolean {
  const { q, qd } = b.state, q0 = b.frameQ, qd0 = b.frameQd;
  for (let i = 0; i < q.length; i++) if (q[i] !== q0[i]) return true;
  for (let i = 0; i < qd.length; i++) if (qd[i] !== qd0[i]) return true;
  return false;
}

/**
 * A body's content key: FNV-1a (32-bit, two lanes) over its model's sizes, joint types, parents and
 * spatial inertias, and the bits of its q and qd. Two bodies get the same key only when they are the same
 * model in the same state, and so interchangeable.
 */
export function bodyContentKey(b: Body): string {
  const m = b.model;
  const words: number[] = [m.nLinks, m.nq, m.nv];
  for (let i = 0; i < m.nLinks; i++) words.push(m.jointType[i], m.parent[i]);
  const f = new Float64Array(m.I.length + m.nq + m.nv);
  f.set(m.I, 0);
  f.set(b.state.q, m.I.length);
  f.set(b.state.qd, m.I.length + m.nq);
  const u = new Uint32Array(f.buffer);
  for (let k = 0; k < u.length; k++) words.push(u[k]);
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x5bd1e995;
  for (const w of words) {
    h1 = Math.imul(h1 ^ (w & 0xffff), 0x01000193) >>> 0;
    h1 = Math.imul(h1 ^ (w >>> 16), 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ (w >>> 16), 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ (w & 0xffff), 0x01000193) >>> 0;
  }
  return `h:${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}

/** What World.addBody takes besides the model. */
export interface AddBodyOptions {
  /** Unique name (the world orders bodies by it; default body<n>, ordered by content). */
  name?: string;
  /** The state to simulate (default a fresh one at the model's neutral pose). */
  state?: State;
  selfCollision?: boolean;
  excludeRestOverlaps?: boolean;
  /** World position of a free root (link 0 on a free joint). */
  position?: ArrayLike<number>;
  /** World rotation [x, y, z, w] of a free root (normalised here). */
  rotation?: ArrayLike<number>;
  /** World velocity (m/s) of a free root's link origin. */
  linearVelocity?: ArrayLike<number>;
  /** World angular velocity (rad/s) of a free root. */
  angularVelocity?: ArrayLike<number>;
  /**
   * A kinematic body (default false): every joint's motion is set by the game
   * (Body.setNextKinematicPose / setKinematicVelocity for a free root, setNextKinematicJoints /
   * setKinematicJointVelocities for any joint); it pushes dynamic bodies as an infinite mass would
   * and is never pushed. It starts moving at the velocities it is placed with.
   */
  kinematic?: boolean;
  /**
   * Pairs of links (by name or index) that never collide with each other, beyond those the world
   * excludes itself: a link and its parent, a link and its nearest ancestor with shapes (a limb
   * hung on shapeless intermediate links, one per joint axis, as MJCF bodies with several joints
   * are imported), links whose shapes overlap in the neutral pose (excludeRestOverlaps). MJCF's
   * `<contact><exclude>` pairs come as `importMJCF(...).excludedLinkPairs`.
   */
  excludedLinkPairs?: ReadonlyArray<readonly [string | number, string | number]>;
}

/**
 * The nearest proper ancestor of link i that has collision shapes, or -1: links without shapes in
 * between (the massless links between two joint axes of one part) do not keep a limb's shapes
 * from colliding with the part it hangs from, whose shapes meet it at the joint.
 */
function parentWithShapes(model: Model, i: number): number {
  let a = model.parent[i];
  while (a >= 0 && model.shapes[a].length === 0) a = model.parent[a];
  return a;
}

/** A pair of AddBodyOptions.excludedLinkPairs as link indices; a link that is not the model's is refused, naming it. */
function linkPair(model: Model, pair: readonly [string | number, string | number]): [number, number] {
  const index = (l: string | number): number => {
    if (typeof l === 'string') return model.linkIndex(l);
    if (Number.isInteger(l) && l >= 0 && l < model.nLinks) return l;
    throw new RangeError(`World.addBody: excludedLinkPairs: link ${String(l)} is not a link of the model (an index in [0, ${model.nLinks - 1}] or a link name)`);
  };
  if (!Array.isArray(pair) || pair.length !== 2) throw new RangeError(`World.addBody: excludedLinkPairs: expected pairs [linkA, linkB], got ${JSON.stringify(pair)}`);
  return [index(pair[0]), index(pair[1])];
}

/** Refuses placement options that do not fit the model (before the body is made). */
function placement(model: Model, o: AddBodyOptions): void {
  const given = (['position', 'rotation', 'linearVelocity', 'angularVelocity'] as const).filter((k) => o[k] !== undefined);
  if (given.length === 0) return;
  if (!(model.nLinks > 0 && model.parent[0] === -1 && model.jointType[0] === JointType.free)) {
    throw new RangeError(`World.addBody: ${given.join(', ')} place a body whose root (link 0) is on a free joint; link 0 "${model.linkNames[0]}" is not`);
  }
  for (const k of given) {
    const v = o[k]!, n = k === 'rotation' ? 4 : 3;
    if (v.length !== n || !Array.prototype.every.call(v, (x: unknown) => typeof x === 'number' && Number.isFinite(x))) throw new RangeError(`World.addBody: ${k} must be ${n} finite numbers, got [${Array.from(v as ArrayLike<unknown>).join(', ')}]`);
  }
  const r = o.rotation;
  if (r && !(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3] > 1e-18)) throw new RangeError('World.addBody: rotation must be a non-zero quaternion [x, y, z, w]');
}

/** Writes position, rotation and velocities (world frame) into the free root's q and qd (link-frame velocities). */
function placeRoot(state: State, model: Model, o: AddBodyOptions): void {
  const q = state.q, qd = state.qd, qo = model.qOffset[0], vo = model.vOffset[0];
  if (o.position) { q[qo] = o.position[0]; q[qo + 1] = o.position[1]; q[qo + 2] = o.position[2]; }
  if (o.rotation) {
    const r = o.rotation, n = Math.sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    q[qo + 3] = r[0] / n; q[qo + 4] = r[1] / n; q[qo + 5] = r[2] / n; q[qo + 6] = r[3] / n;
  }
  // link-frame velocities: R^T times the world ones (R from the root's quaternion)
  const x = q[qo + 3], y = q[qo + 4], z = q[qo + 5], w = q[qo + 6];
  const toLink = (v: ArrayLike<number>, at: number): void => {
    // R^T v = v rotated by the conjugate quaternion
    const tx = 2 * (-y * v[2] + z * v[1]), ty = 2 * (-z * v[0] + x * v[2]), tz = 2 * (-x * v[1] + y * v[0]);
    qd[at] = v[0] + w * tx + (-y * tz + z * ty);
    qd[at + 1] = v[1] + w * ty + (-z * tx + x * tz);
    qd[at + 2] = v[2] + w * tz + (-x * ty + y * tx);
  };
  if (o.angularVelocity) toLink(o.angularVelocity, vo);
  if (o.linearVelocity) toLink(o.linearVelocity, vo + 3);
}

/** A source's kind for messages. */
function sourceName(src: ConstraintSource): string {
  return (src as object).constructor?.name ?? 'constraint source';
}

const GROUP_STRIDE = 36;

/** Worlds made so far (World.serial: a saved state knows the world it came from). */
let worldsMade = 0;

/** What World.debugLines draws: a sum of these flags. */
export const DebugLines = {
  /** Shape outlines: statics grey, awake bodies green, sleeping blue. */
  shapes: 1,
  /** Joint ranges (hinge arcs, swing cones, the current angle or axis) and pins. */
  joints: 2,
  /** Contact points and normals (scaled by force when contact events are on). */
  contacts: 4,
  /** Everything. */
  all: 7,
} as const;

/** The simulation: articulated bodies, static and kinematic shapes, constraint sources, and `step(dt)`, which detects contacts, solves, integrates and stabilises. */
export class World {
  readonly bodies: Body[] = [];
  readonly sources: ConstraintSource[] = [];
  readonly limits: JointLimits;
  readonly gravity: Float64Array;
  /** Simulated time (s). */
  get time(): number {
    return this.data.scalars[0];
  }
  set time(t: number) {
    this.data.scalars[0] = t;
  }
  /**
   * The settings (WorldOptions: substeps, solver, stabilisation, the pass budget, tolerances, sleep,
   * the energy account, timings), one frozen object; World.configure makes a new one.
   */
  get settings(): WorldSettings {
    return this.data.settings;
  }
  readonly stats: StepStats = {
    time: 0, rows: 0, islands: 0, iterations: 0, residual: 0, halvings: 0, impacts: 0, staggered: 0, errorBefore: 0, errorAfter: 0,
    clampedSpeeds: 0, ms: { rows: 0, dynamics: 0, k: 0, solve: 0, integrate: 0, stabilize: 0 }, substeps: 1, passes: 0, recovery: '', error: '', contacts: 0, maxPenetration: 0, sleeping: 0, energyRemoved: 0, undone: 0, stabilizationHeld: 0, stopsHeld: 0, loadRetakes: 0,
  };
  readonly collision: CollisionWorld;
  readonly contacts: ContactSource;

  readonly rows = new RowBuffer(64);
  readonly solver = new ConstraintSolver();
  /** What the step's stages share (step/step-data.ts): scratch, per-step numbers, warm starts, event recorders. */
  private readonly data: StepData;

    constructor(options: WorldOptions = {}) {
    this.gravity = Float64Array.from(options.gravity ?? [0, -9.81, 0]);
    for (let k = 0; k < 3; k++) if (!Number.isFinite(this.gravity[k])) throw new RangeError('World: gravity must be 3 finite numbers');
    const { gravity, limits, contactMargin, friction, contactEvents, limitEvents, ...settings } = options;
    const worldSettings = makeSettings(settings);
    this.limits = new JointLimits(options.limits);
    this.sources.push(this.limits);
    this.collision = new CollisionWorld({ margin: options.contactMargin ?? 0.01 });
    this.contacts = new ContactSource(this.collision, options.friction);
    this.sources.push(this.contacts);
    this.data = new StepData(this, worldSettings);
    this.data.stabOptions = stabilizationSolverOptions(worldSettings);
    if (options.contactEvents) this.contactEvents = true;
    if (options.limitEvents) {
      if (typeof options.limitEvents === 'object' && options.limitEvents.minSpeed !== undefined) this.limitHitSpeed = options.limitEvents.minSpeed;
      this.limitEvents = true;
    }
  }

  /**
   * Adds static geometry (a plane, box, sphere, capsule, triangle mesh or heightfield) with its
   * world pose in desc.position / desc.rotation. Returns its shape handle.
   */
  addStatic(desc: ShapeDesc, name?: string): number {
    return this.collision.addStaticShape(desc, name);
  }

  /**
   * Adds a body (a character, or a one-link free body such as RigidBody.box(...)) with a fresh
   * state or the given one. A body whose root (link 0) is on a free joint can be placed by
   * `position` and `rotation` ([x, y, z, w], normalised) and set moving by `linearVelocity` (of
   * its link origin) and `angularVelocity`, world frame.
   */
  addBody(model: Model, options: AddBodyOptions = {}): Body {
    placement(model, options);
    // collision shapes of the model's links; a link never collides with its parent, nor with the
    // nearest ancestor that has shapes (parentWithShapes), nor with the pairs the caller excludes
    const excluded: [number, number][] = [];
    for (let i = 0; i < model.nLinks; i++) {
      if (model.parent[i] >= 0) excluded.push([model.parent[i], i]);
      const a = model.shapes[i].length > 0 ? parentWithShapes(model, i) : -1;
      if (a >= 0 && a !== model.parent[i]) excluded.push([a, i]);
    }
    for (const pair of options.excludedLinkPairs ?? []) excluded.push(linkPair(model, pair));
    const body = new Body(this.bodies.length, options.name ?? `body${this.bodiesAdded}`, model, options.state);
    body.serial = this.bodiesAdded++;
    if (options.name !== undefined) body.key = `n:${options.name}`;
    else this.unkeyed = true;
    body.state.gravity.set(this.gravity);
    this.collision.setBody(body.index, model.nLinks, { selfCollision: options.selfCollision ?? true, excludedLinkPairs: excluded });
    for (let i = 0; i < model.nLinks; i++) {
      for (const shape of model.shapes[i]) this.collision.addDynamicShape(body.index, i, shape, `${body.name}/${model.linkNames[i]}`);
    }
    this.bodies.push(body);
    this.rankBodies();
    if (options.excludeRestOverlaps !== false) this.excludeRestOverlaps(body);
    if (options.position || options.rotation || options.linearVelocity || options.angularVelocity) placeRoot(body.state, model, options);
    if (options.kinematic) {
      body.setKinematicLinks(Array.from({ length: model.nLinks }, (_, i) => i));
      const kin = body.kinematic!;
      kin.flags[0] = KinematicMode.Velocity;
      ratesFromState(model, kin, body.state.q, body.state.qd);
    }
    forwardKinematics(model, body.state, true);
    return body;
  }

  /**
   * Links of one body whose shapes already touch in the model's neutral pose (a shoulder capsule
   * inside the chest box, thighs side by side) could never separate: such pairs are excluded from
   * self-collision, as game ragdolls do. Runs at set-up (allocates).
   */
  private excludeRestOverlaps(body: Body): void {
    if (body.model.nLinks < 3) return;
    const rest = new (body.state.constructor as new (m: Model) => State)(body.model);
    forwardKinematics(body.model, rest, false);
    const poses = this.bodies.map((b) => (b === body ? rest.work.pose : b.state.work.pose));
    this.collision.detect(poses);
    const c = this.collision.contacts;
    for (let k = 0; k < c.count; k++) {
      const i = k * 8;
      if (c.i32[i + 2] !== body.index || c.i32[i + 4] !== body.index || c.depth(k) <= 0) continue;
      this.collision.excludeLinkPair(body.index, c.i32[i + 3], c.i32[i + 5]);
    }
  }

  /** Whether a body added without a name still waits for its content key (assigned at the next step). */
  private unkeyed = false;

  /**
   * Canonical body order (by Body.key; bodies whose content is the same to the bit, and so
   * interchangeable, by index): the solver's row order and the contacts follow it (Body.rank).
   * Set-up only.
   */
  private rankBodies(): void {
    const order = this.bodies.map((b) => b.index).sort((a, b) => {
      const na = this.bodies[a].key, nb = this.bodies[b].key;
      return na < nb ? -1 : na > nb ? 1 : a - b;
    });
    order.forEach((b, r) => { this.bodies[b].rank = r; });
    this.data.byRank = order.map((b) => this.bodies[b]);
    this.collision.setBodyOrder(this.bodies.map((b) => b.rank));
  }

  /** Wakes a sleeping body (and lets it be simulated from the next step); a disabled body stays disabled. */
  wake(body: Body): void {
    this.checkBody(body, 'wake');
    if (body.disabledApplied) return;
    body.sleeping = false;
    body.restTime = 0;
  }

  /**
   * Adds a constraint source (a pin, a drive, a motor, a user source); refuses one already in the
   * world and one that names a body the world does not have (removed, or never added).
   */
  addConstraint<T extends ConstraintSource>(source: T): T {
    if (this.sources.includes(source)) throw new Error(`World.addConstraint: this ${sourceName(source)} is already in the world`);
    for (const b of sourceBodies(source)) {
      if (!(Number.isInteger(b) && b >= 0 && b < this.bodies.length)) {
        throw new RangeError(`World.addConstraint: the ${sourceName(source)} names body ${b}; the world has bodies 0 to ${this.bodies.length - 1}${b === -1 ? ' (a body removed from the world has index -1)' : ''}`);
      }
    }
    this.sources.push(source);
    return source;
  }

  /**
   * Removes a constraint source; returns false when it was not in the world (removed already, or
   * with its body). The world's own joint limits and contacts cannot be removed (turn joint limits
   * off in the model, contacts by shape groups or setShapeEnabled).
   */
  removeConstraint(source: ConstraintSource): boolean {
    if (source === this.limits || source === this.contacts) throw new Error(`World.removeConstraint: the world's own ${source === this.limits ? 'joint limits' : 'contacts'} cannot be removed`);
    const i = this.sources.indexOf(source);
    if (i < 0) return false;
    this.sources.splice(i, 1);
    return true;
  }

  // ---- lifetime (lifetime.ts): removing bodies and statics, disabling bodies and shapes ----

  /** This world's number among the worlds made (saved states name it: restoreState). */
  private readonly serial = ++worldsMade;
  /** addBody calls so far (Body.serial). */
  private bodiesAdded = 0;
  /** Serial and name of every body removed from this world. */
  private readonly removedBodies: { serial: number; name: string }[] = [];

  /** Refuses a body that is not (or no longer) in this world, naming it and the call. */
  private checkBody(body: Body, fn: string): void {
    if (!(body instanceof Body)) throw new TypeError(`World.${fn}: expected a Body of this world, got ${String(body)}`);
    if (body.removed) throw new Error(`World.${fn}: body "${body.name}" was removed from this world`);
    if (this.bodies[body.index] !== body) throw new Error(`World.${fn}: body "${body.name}" is not in this world`);
  }

  /**
   * Removes a body between steps: its shapes, the constraint sources attached to it (pins holding
   * it or held by it, its drives and motors: lifetime.ts), its warm starts and contacts. Bodies
   * after it move down one index (Body.index), so the world goes on as one built without it, bit
   * for bit. The Body object keeps its model and state (add it again with
   * `world.addBody(body.model, { state: body.state, name: body.name })`); every later call of this
   * world that names it is refused. A state saved before the removal cannot be restored into this
   * world (restoreState says so).
   */
  removeBody(body: Body): void {
    this.checkBody(body, 'removeBody');
    // sleepers it held up wake (a crate on a removed crate falls)
    for (const h of this.collision.bodyShapes(body.index)) this.wakeAroundShape(h);
    const i = body.index;
    for (let k = this.sources.length - 1; k >= 0; k--) {
      const src = this.sources[k];
      if (src === this.limits || src === this.contacts) continue;
      if (sourceBodyRemoved(src, i)) this.sources.splice(k, 1);
    }
    renumberWarmStarts(this.data.warm, i);
    this.solver.bodyRemoved();
    this.collision.removeBody(i);
    this.contacts.bodiesChanged();
    this.contacts.clearContacts();
    this.rows.clear();
    this.lifetimeListeners.forEach((f) => f.bodyRemoved(i, body));
    (this.limits as unknown as { startViolation?: Map<Body, Float64Array> }).startViolation?.delete(body);
    this.bodies.splice(i, 1);
    for (let k = i; k < this.bodies.length; k++) this.bodies[k].index = k;
    body.removed = true;
    body.index = -1;
    this.removedBodies.push({ serial: body.serial, name: body.name });
    this.queryQ = [];
    this.queryPoseList = [];
    this.rankBodies();
  }

  /** Removes a static shape (addStatic's handle) between steps; its handle names nothing from now on. */
  removeStatic(handle: number): void {
    if (this.collision.isRemoved(handle)) throw new Error(`World.removeStatic: static shape ${handle} was removed from this world`);
    if (Number.isInteger(handle) && handle >= 0 && handle < this.collision.shapeCount && this.collision.shapeOwner(handle)[0] < 0) this.wakeAroundShape(handle);
    try {
      this.collision.removeStaticShape(handle);
    } catch (e) {
      throw new Error(`World.removeStatic: ${(e as Error).message.replace(/^CollisionWorld\.removeStaticShape: /, '')}`);
    }
    this.lifetimeListeners.forEach((f) => f.shapeRemoved(handle));
  }

  private readonly aabbScratch = new Float64Array(6);

  /** Wakes the sleeping bodies whose shapes' bounds meet those of shape `handle` (grown by the contact margin). Between steps. */
  private wakeAroundShape(handle: number): void {
    this.queryPoses();
    const box = this.collision.getShapeAabb(handle, this.aabbScratch), m = this.collision.margin;
    const min = [box[0] - m, box[1] - m, box[2] - m], max = [box[3] + m, box[4] + m, box[5] + m];
    this.collision.bodiesInAabb(min, max, (bi) => {
      const b = bi >= 0 ? this.bodies[bi] : null;
      if (b && b.sleeping && !b.disabledApplied) { b.sleeping = false; b.restTime = 0; }
      return true;
    });
  }

  /**
   * Turns a body off (false) or on (true): a disabled body neither moves nor collides (no query
   * sees it), rows that hold it (pins, drives) are left out, and its state is kept; enabled again,
   * it wakes and goes on from that state. The same as setting body.enabled, which the world
   * applies at its next step or query.
   */
  setEnabled(body: Body, enabled: boolean): void {
    this.checkBody(body, 'setEnabled');
    body.enabled = enabled;
    this.applyEnabled(body);
  }

  /** Applies a change of body.enabled (setEnabled). */
  private applyEnabled(b: Body): void {
    if (!b.enabled && !b.disabledApplied) {
      b.disabledApplied = true;
      b.sleptBeforeDisabled = b.sleeping;
      b.sleeping = true;
      this.collision.setBodyEnabled(b.index, false);
    } else if (b.enabled && b.disabledApplied) {
      b.disabledApplied = false;
      b.sleeping = false;
      b.restTime = 0;
      this.collision.setBodyEnabled(b.index, true);
    }
  }

  /** applyEnabled for every body whose enabled flag changed (the start of a step or query). */
  private applyEnabledFlags(): void {
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      if (b.enabled === b.disabledApplied) this.applyEnabled(b);
    }
  }

  /**
   * Turns the collisions of one shape on or off: a static (addStatic's handle) or a link's shape
   * (world.shapesOf(body)). While off it meets nothing and no query sees it.
   */
  setShapeEnabled(handle: number, enabled: boolean): void {
    if (this.collision.isRemoved(handle)) throw new Error(`World.setShapeEnabled: shape ${handle} was removed from this world`);
    if (!(Number.isInteger(handle) && handle >= 0 && handle < this.collision.shapeCount)) throw new RangeError(`World.setShapeEnabled: no shape with handle ${handle}`);
    this.collision.setShapeEnabled(handle, enabled);
  }

  /** The shape handles of a body's links, in link order (for setShapeEnabled, setSensor, contact events). */
  shapesOf(body: Body): number[] {
    this.checkBody(body, 'shapesOf');
    return this.collision.bodyShapes(body.index);
  }

  /** Makes a shape (a static or a link's) a sensor: it reports overlaps in the contact events and never pushes (ShapeDesc.sensor). */
  setSensor(handle: number, sensor: boolean): void {
    if (this.collision.isRemoved(handle)) throw new Error(`World.setSensor: shape ${handle} was removed from this world`);
    if (!(Number.isInteger(handle) && handle >= 0 && handle < this.collision.shapeCount)) throw new RangeError(`World.setSensor: no shape with handle ${handle}`);
    this.collision.setSensor(handle, sensor);
  }

  /** What follows removals (contact events, limit events): told before the world renumbers its bodies. */
  private readonly lifetimeListeners: { bodyRemoved(index: number, body: Body): void; shapeRemoved(handle: number): void }[] = [
    { bodyRemoved: (i) => this.data.events?.bodyRemoved(i, this.bodies), shapeRemoved: (h) => this.data.events?.staticRemoved(h, this.bodies) },
    { bodyRemoved: (i) => this.data.limitHits?.bodyRemoved(i), shapeRemoved: () => {} },
  ];

  // ---- joint-limit hits (limit-events.ts) ----

  private readonly limitHitMin = new Float64Array([0.5]);

  /** Whether each step records joint-limit hits (default false, or WorldOptions.limitEvents), drained by drainLimitHits. */
  get limitEvents(): boolean {
    return this.data.limitHits !== null;
  }
  set limitEvents(on: boolean) {
    if (on && !this.data.limitHits) this.data.limitHits = new LimitEventRecorder(this.data.scalars, this.limitHitMin[0]);
    else if (!on) this.data.limitHits = null;
  }

  /** The approach speed (rad/s, or m/s for sliders) above which a joint reaching a stop is a hit (default 0.5). */
  get limitHitSpeed(): number {
    return this.limitHitMin[0];
  }
  set limitHitSpeed(v: number) {
    if (!(typeof v === 'number' && v >= 0 && !Number.isNaN(v))) throw new RangeError(`World.limitHitSpeed: expected a speed >= 0 (rad/s or m/s), got ${v}`);
    this.limitHitMin[0] = v;
    if (this.data.limitHits) this.data.limitHits.threshold[0] = v;
  }

  /**
   * Hands the joint-limit hits of the steps since the last drain to callback, oldest first, through
   * one reused LimitHit (body, joint, stop, time, approach speed), and empties the queue. A stop
   * gives one hit when a joint reaches it faster than limitHitSpeed, none while it rests there.
   */
  drainLimitHits(callback: (hit: LimitHit) => void): void {
    if (!this.data.limitHits) throw new Error('World.drainLimitHits: limit events are off; set world.limitEvents = true (or WorldOptions.limitEvents) before stepping');
    this.data.limitHits.drain(callback);
  }

  // ---- contact events (events.ts) ----

  /**
   * Whether each step records contact events (default false, or WorldOptions.contactEvents):
   * drained by drainContactEvents. Turning it off forgets the pairs and the queue.
   */
  get contactEvents(): boolean {
    return this.data.events !== null;
  }
  set contactEvents(on: boolean) {
    if (on && !this.data.events) this.data.events = new ContactEventRecorder(this.data.scalars);
    else if (!on) this.data.events = null;
  }

  /**
   * Hands the contact events of the steps since the last drain to callback, oldest first, through
   * one reused ContactEvent (copy what you keep), and empties the queue: 'began' when a pair of
   * (body, link) or static shape starts touching, 'persisted' each step it goes on, 'ended' when it
   * stops (or a side is removed or disabled), with the step's normal impulse, the approach speed
   * at first touch and the deepest point. Needs contactEvents on. Allocates nothing.
   */
  drainContactEvents(callback: (event: ContactEvent) => void): void {
    if (!this.data.events) throw new Error('World.drainContactEvents: contact events are off; set world.contactEvents = true (or WorldOptions.contactEvents) before stepping');
    this.data.events.drain(callback);
  }

  /**
   * The force of every contact point of the last step's last pass (its normal force and normal plus
   * friction force on side A, N), through one reused ContactForce. Allocates nothing; needs
   * contactEvents on.
   */
  contactForces(callback: (contact: ContactForce) => void): void {
    if (!this.data.events) throw new Error('World.contactForces: contact events are off; set world.contactEvents = true (or WorldOptions.contactEvents) before stepping');
    this.data.events.forces(this.contacts, this.rows, this.bodies, callback);
  }

  /** Everything the world carries across steps (states, time, sleep timers, warm starts): see world-state.ts. */
  saveState(): WorldState {
    const state = saveWorldState(this, this.data.warm);
    state.world = this.serial;
    state.bodies.forEach((s, i) => {
      const b = this.bodies[i];
      s.serial = b.serial; s.enabled = b.enabled;
      if (b.kinematic) s.kinematic = b.kinematic.save();
    });
    return state;
  }

  /**
   * '' when a state saved by this world still fits its bodies, else what changed since: a body
   * removed (its state cannot come back), or a body added after the save.
   */
  private lifetimeMismatch(state: WorldState): string {
    if (state.world !== this.serial) return '';
    const here = new Set(this.bodies.map((b) => b.serial));
    for (const sb of state.bodies) {
      if (sb.serial === undefined || here.has(sb.serial)) continue;
      const gone = this.removedBodies.find((r) => r.serial === sb.serial);
      return `the state was saved before body "${gone?.name ?? sb.name}" was removed from this world; a removed body's state cannot be restored (add it again with addBody, then save again)`;
    }
    const saved = new Set(state.bodies.map((s) => s.serial));
    for (const b of this.bodies) {
      if (!saved.has(b.serial)) return `body "${b.name}" was added after the state was saved; remove it first, or save again`;
    }
    return '';
  }

  /** Restores what saveState() wrote, bit for bit, into this world or one built the same way. */
  restoreState(state: WorldState): void {
    // (refused before anything changes when it does not fit this world)
    const changed = this.lifetimeMismatch(state);
    if (changed) throw new RangeError(`World.restoreState: ${changed}`);
    for (let i = 0; i < this.bodies.length && i < state.bodies.length; i++) {
      const k = state.bodies[i].kinematic, n = kinematicSlots(this.bodies[i].model);
      if (k && k.length !== n) throw new RangeError(`World.restoreState: body ${i} ("${this.bodies[i].name}") saves ${k.length} kinematic numbers, the body holds ${n}`);
    }
    restoreWorldState(this, this.data.warm, state);
    // the kinematic joints as saved (kinematic.ts)
    for (let i = 0; i < this.bodies.length; i++) restoreKinematicJoints(this.bodies[i], state.bodies[i].kinematic ?? null);
    this.afterRestore();
  }

  /**
   * What the next step reads (states, sleep, kinematic joints, warm starts, time:
   * world-snapshot.ts) in one compact little-endian binary buffer, written into `out` when it is
   * large enough (the snapshot is then the subarray returned): for rollback, or to
   * send to a peer whose world was built the same way. restore(snapshot) continues bit for bit, in
   * any engine.
   */
  snapshot(out?: Uint8Array): Uint8Array {
    return writeSnapshot(this, this.data.warm, this.data.events, out);
  }

  /**
   * Takes back what snapshot() wrote (here or in a world built the same way); refused with a
   * RangeError, before anything changes, when it does not fit. Contact events not yet drained stay
   * queued.
   */
  restore(snapshot: Uint8Array): void {
    const refused = snapshotMismatch(snapshot, this, (serial) => this.removedBodies.find((r) => r.serial === serial)?.name, this.data.events !== null);
    if (refused) throw new RangeError(`World.restore: ${refused}`);
    readSnapshot(snapshot, this, this.data.warm, this.data.events);
    this.afterRestore();
  }

  /** What restoreState and restore do once the bodies hold their saved states. */
  private afterRestore(): void {
    // disabled bodies as saved (their sleeping flag came with the state)
    for (const b of this.bodies) {
      if (b.disabledApplied !== !b.enabled) { b.disabledApplied = !b.enabled; this.collision.setBodyEnabled(b.index, b.enabled); }
    }
    // the saved order keys (a body the saved world had not yet keyed gets its key at the next step)
    this.unkeyed = this.bodies.some((b) => !b.key);
    this.rankBodies();
    // a body asleep before and after keeps its shapes where the collision world last placed them:
    // they must be placed where the restored q puts them
    this.collision.repose();
  }

  /**
   * Changes settings between steps: `world.configure({ maxPasses: 8, solver: { maxIterations: 60 } })`.
   * The values left out keep theirs (solver options one by one; sleep as a whole). A bad value
   * throws a RangeError naming it, and then nothing changes.
   */
  configure(patch: SettingsPatch): void {
    const settings = makeSettings(patch, this.data.settings, 'World.configure');
    this.data.settings = settings;
    this.data.stabOptions = stabilizationSolverOptions(settings);
  }

  /** Advances the world by dt seconds (refuses a non-finite or non-positive dt, leaving the world unchanged). */
  step(dt: number): StepStats {
    if (!(typeof dt === 'number' && Number.isFinite(dt) && dt > 0)) throw new RangeError(`World.step: dt must be a positive finite number of seconds, got ${dt}`);
    // non-finite user input (drive and motor targets, pin points, q, qd, torques, forces) is refused before anything changes
    const refused = refusedInput(this.sources, this.bodies);
    if (refused) throw new RangeError(`World.step: ${refused}; the step was refused and the world is unchanged`);
    this.applyEnabledFlags();
    if (this.unkeyed) {
      // bodies added without a name are ordered by what they are and where they start
      for (const b of this.bodies) if (!b.key) b.key = bodyContentKey(b);
      this.unkeyed = false;
      this.rankBodies();
    }
    const st = this.stats;
    st.clampedSpeeds = 0;
    st.rows = 0; st.islands = 0; st.iterations = 0; st.residual = 0; st.halvings = 0; st.impacts = 0; st.staggered = 0; st.undone = 0; st.stabilizationHeld = 0; st.stopsHeld = 0; st.loadRetakes = 0; st.errorBefore = 0; st.errorAfter = 0; st.error = '';
    st.ms.rows = 0; st.ms.dynamics = 0; st.ms.k = 0; st.ms.solve = 0; st.ms.integrate = 0; st.ms.stabilize = 0;
    st.passes = 0; st.recovery = '';
    const time0 = this.data.scalars[0];
    if (this.data.limitHits) this.data.limitHits.beginStep();
    beginKinematics(this.data, dt);
    // a sleeper wakes under a load, or when its q or qd were changed since the last step (a body
    // moved by hand must not hang where it was put)
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      if (b.sleeping && (hasLoad(b) || (b.sleepSnapshot && movedSinceLastStep(b)))) this.wake(b);
      // put to sleep by hand: its links (and so its collision shapes) go where its q puts them
      else if (b.sleeping && !b.sleepSnapshot) forwardKinematics(b.model, b.state, true);
    }
    for (let bi = 0; bi < this.bodies.length; bi++) { const b = this.bodies[bi]; b.frameQ.set(b.state.q); b.frameQd.set(b.state.qd); b.energy[2] = b.energy[1]; }
    this.data.scalars[6] = 0;
    markMovedPins(this.data);
    excludePinnedPairs(this.data);
    const substeps = this.data.settings.substeps > 0 ? this.data.settings.substeps : this.autoSubsteps();
    st.substeps = substeps;
    this.data.scalars[3] = time0; this.data.scalars[4] = dt;
    const advanced = stepWithRecovery(this.data, substeps);
    endKinematics(this.data, advanced);
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      b.state.clearForces();
      // a sleeper's state as the step leaves it, for movedSinceLastStep
      b.sleepSnapshot = b.sleeping;
      if (b.sleeping) { b.frameQ.set(b.state.q); b.frameQd.set(b.state.qd); }
    }
    st.time = this.data.scalars[0];
    st.energyRemoved = this.data.scalars[6];
    if (this.data.events) this.data.events.endStep(this.bodies);
    if (this.data.limitHits) this.data.limitHits.endStep();
    return st;
  }

  /**
   * Sub-steps for a step when the user set none. A pin that holds a heavy load with a light limb
   * (a hand and a crate, a chain and a weight, a character hanging from a ledge) makes the light
   * links between pin and load a fast mode: the pin's tension T acts on a link of mass m and length
   * L like a string, at omega ~ sqrt(T / (m L)), and semi-implicit Euler, which takes the tension's
   * direction at the start of the step, loses the limits and the pin once h omega nears 1 (a 3 x 1 kg
   * chain holding 100 kg diverges at 60 Hz). Sub-steps with one solve each (Macklin et al., "Small
   * Steps in Physics Simulation", 2019) keep h omega small; their number follows the worst ratio of
   * the mass a pin's bodies hold to their lightest link: 1 (no pin, or ratio 1), 2 (up to 10),
   * 4 (up to 100), 8 (up to 800), 32 (up to 2500), 64 (beyond). Measured at 60 Hz
   * (robustness/loads.test.ts): 3 x 1 kg links hold 100 kg by a pin to 1.4 mm (they diverged at 1
   * sub-step), and a ragdoll hanging by one hand keeps its joints within 0.03 rad of their limits.
   * 3 x 1 kg hinged links with limits holding a crate: 300, 500 and 700 kg hold at 8 sub-steps;
   * 1000 kg whips out of its limits by radians at 8 and 16 and holds at 32 (pin 1e-6 m), as 2000 kg
   * does; 5000 kg holds at 64. Masses do not tell everything (how many light links lie between
   * pin and load, how the load swings): a step the pins or a pinned body's limits did not hold is
   * taken again in twice the sub-steps (step/load-check.ts).
   */
  autoSubsteps(): number {
    let ratio = 1;
    for (const src of this.sources) {
      const pin = enabledPinOf(src);
      if (pin === null) continue;
      // the mass the pin's bodies hold and their lightest link (written out: a double returned by a
      // call that is not inlined is boxed)
      let held = 0, light = Infinity;
      for (let side = 0; side < 2; side++) {
        const bi = side === 0 ? pin.bodyA : pin.target.body;
        if (bi < 0 || bi >= this.bodies.length) continue;
        const mass = this.bodies[bi].model.mass;
        for (let i = 0; i < mass.length; i++) { held += mass[i]; if (mass[i] > 0 && mass[i] < light) light = mass[i]; }
      }
      if (light < Infinity && held / light > ratio) ratio = held / light;
    }
    return ratio <= 1 ? 1 : ratio <= 10 ? 2 : ratio <= 100 ? 4 : ratio <= 800 ? 8 : ratio <= 2500 ? 32 : 64;
  }

  /** q of each body when queryPoses last placed the shapes, and the time then. */
  private queryQ: Float64Array[] = [];
  private readonly queryTime = new Float64Array([NaN]);

  /**
   * Places the collision shapes where the bodies are now (the last step leaves the collision world
   * at the poses its detection saw, before integration): forward kinematics of each body and an
   * update of every shape, sleepers' too, when the time or any q changed since the last query.
   * Reads no velocity and changes nothing a step reads (a step recomputes what it needs).
   */
  private queryPoses(): void {
    const bodies = this.bodies;
    this.applyEnabledFlags();
    let changed = this.queryTime[0] !== this.data.scalars[0] || this.queryQ.length !== bodies.length || this.collision.needsUpdate;
    if (this.queryQ.length !== bodies.length) this.queryQ = bodies.map((b) => new Float64Array(b.state.q.length).fill(NaN));
    for (let bi = 0; bi < bodies.length && !changed; bi++) changed = !sameNumbers(this.queryQ[bi], bodies[bi].state.q);
    if (!changed && this.collision.shapeCount > 0) return;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      forwardKinematics(b.model, b.state, false);
      this.queryQ[bi].set(b.state.q);
      this.collision.setBodyResting(b.index, b.sleeping);
    }
    this.queryTime[0] = this.data.scalars[0];
    this.collision.repose();
    this.collision.update(this.queryLinkPoses());
  }

  private queryPoseList: Float64Array[] = [];
  private queryLinkPoses(): Float64Array[] {
    if (this.queryPoseList.length !== this.bodies.length) this.queryPoseList = this.bodies.map((b) => b.state.work.pose);
    return this.queryPoseList;
  }

  /** First shape hit by a ray from origin along direction within maxDistance, at the bodies' current poses (CollisionWorld.castRay). */
  castRay(origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, filter?: import('./collision/queries.js').QueryFilter, out?: import('./collision/queries.js').RayHit): import('./collision/queries.js').RayHit | null {
    this.queryPoses();
    return this.collision.castRay(origin, direction, maxDistance, filter, out);
  }

  /** Every shape a ray hits, through callback (CollisionWorld.castRayAll). */
  castRayAll(origin: ArrayLike<number>, direction: ArrayLike<number>, maxDistance: number, callback: import('./collision/queries.js').RayHitCallback, filter?: import('./collision/queries.js').QueryFilter): void {
    this.queryPoses();
    this.collision.castRayAll(origin, direction, maxDistance, callback, filter);
  }

  /** Shapes containing a point (CollisionWorld.pointQuery). */
  pointQuery(point: ArrayLike<number>, callback: import('./collision/queries.js').ShapeCallback, filter?: import('./collision/queries.js').QueryFilter): void {
    this.queryPoses();
    this.collision.pointQuery(point, callback, filter);
  }

  /** Shapes whose bounds meet a box (CollisionWorld.bodiesInAabb). */
  bodiesInAabb(min: ArrayLike<number>, max: ArrayLike<number>, callback: import('./collision/queries.js').ShapeCallback, filter?: import('./collision/queries.js').QueryFilter): void {
    this.queryPoses();
    this.collision.bodiesInAabb(min, max, callback, filter);
  }

  /** Shapes overlapping a sphere, capsule or box placed at a pose, through callback(body, link, shape) (CollisionWorld.intersectShape). */
  intersectShape(shape: import('./collision/shape-queries.js').QueryShape, pose: import('./collision/shape-queries.js').QueryPose, callback: import('./collision/queries.js').ShapeCallback, filter?: import('./collision/queries.js').QueryFilter): void {
    this.queryPoses();
    this.collision.intersectShape(shape, pose, callback, filter);
  }

  /** First hit of a sphere, capsule or box swept from a pose along a direction: distance, point, normal, body, link or static (CollisionWorld.castShape). */
  castShape(shape: import('./collision/shape-queries.js').QueryShape, pose: import('./collision/shape-queries.js').QueryPose, direction: ArrayLike<number>, maxDistance: number, filter?: import('./collision/queries.js').QueryFilter, out?: import('./collision/shape-queries.js').ShapeHit): import('./collision/shape-queries.js').ShapeHit | null {
    this.queryPoses();
    return this.collision.castShape(shape, pose, direction, maxDistance, filter, out);
  }

  /** Length (m) per newton of the contact normals debugLines draws when contact events are on. */
  debugForceScale = 0.01;
  private readonly debugWriter = new DebugLineWriter();
  private debugOwn: Float32Array = new Float32Array(0);
  private readonly debugScratch = new Float64Array(24);
  private readonly debugForce = (c: ContactForce): void => {
    const w = this.debugWriter, e = w.ends, p = c.point, n = c.normal, len = c.normalForce * this.debugForceScale;
    e[0] = p[0]; e[1] = p[1]; e[2] = p[2];
    e[3] = p[0] + len * n[0]; e[4] = p[1] + len * n[1]; e[5] = p[2] + len * n[2];
    w.push();
  };

  /**
   * Debug line segments of the world, as Rapier's debugRender: DEBUG_LINE_STRIDE (9) floats per
   * segment, [x0, y0, z0, x1, y1, z1, r, g, b], written into out (Float32Array, as a three.js
   * LineSegments geometry takes after splitting ends and colours) or, without it, into the world's
   * own array (debugLineData), which grows as needed. Draws the shapes' wire outlines
   * (CollisionWorld.drawShapes: statics grey, awake bodies green, sleeping blue), the ranges of
   * limited hinges and the swing cones of limited ball joints with their current angle or axis in
   * yellow, PointPins from anchor to target in magenta (debug-joints.ts), and each contact
   * point of the last step in red: from the point on side A along the normal (B to A), as long as
   * debugForceScale times its normal force when contact events are on, 0.1 m otherwise. Returns the
   * number of segments: when it exceeds out.length / 9, only those that fit were written (pass a
   * larger array). Allocates nothing once the array is large enough. `include` picks what is drawn
   * (default all three: DebugLines.shapes | joints | contacts), as Rapier's filter flags do.
   */
  debugLines(out?: Float32Array, include: number = DebugLines.all): number {
    if (out !== undefined && !(out instanceof Float32Array)) throw new RangeError(`World.debugLines: out must be a Float32Array, got ${String(out)}`);
    if (!(Number.isInteger(include) && include >= 0 && include <= DebugLines.all)) throw new RangeError(`World.debugLines: include must be a sum of DebugLines.shapes (1), joints (2) and contacts (4), got ${include}`);
    this.queryPoses();
    const w = this.debugWriter;
    let target = out ?? this.debugOwn;
    for (;;) {
      w.begin(target);
      if (include & DebugLines.shapes) this.collision.drawShapes(w);
      if (include & DebugLines.joints) drawJoints(this.bodies, this.sources, w, this.debugScratch);
      if (include & DebugLines.contacts) this.drawContacts(w);
      if (out !== undefined || DEBUG_LINE_STRIDE * w.count <= target.length) break;
      this.debugOwn = target = new Float32Array(Math.max(2 * target.length, DEBUG_LINE_STRIDE * w.count));
    }
    const n = w.count;
    w.begin(this.debugOwn); // (holds no reference to the caller's array)
    return n;
  }

  /** debugLines' contacts: from the point on side A along the normal, by force (events on) or 0.1 m long. */
  private drawContacts(w: DebugLineWriter): void {
    w.setColour(1, 0.2, 0.2);
    if (this.data.events !== null) { this.contactForces(this.debugForce); return; }
    const cb = this.collision.contacts, f = cb.f64, e = w.ends;
    for (let k = 0; k < cb.count; k++) {
      const o = k * CONTACT_F64_STRIDE, p = o + CONTACT_POINT_A, n = o + CONTACT_NORMAL;
      e[0] = f[p]; e[1] = f[p + 1]; e[2] = f[p + 2];
      e[3] = f[p] + 0.1 * f[n]; e[4] = f[p + 1] + 0.1 * f[n + 1]; e[5] = f[p + 2] + 0.1 * f[n + 2];
      w.push();
    }
  }

  /** The world's own debug line array, written by debugLines() without an argument (DEBUG_LINE_STRIDE floats per segment). */
  get debugLineData(): Float32Array {
    return this.debugOwn;
  }
}
