/**
 * The World: bodies (characters and free rigid bodies), constraint sources (joint limits, pins,
 * drives, motors, contacts), and a step() in the shape of the Kokkevis paper's Step() (section 7):
 *
 *   1. forward kinematics; every source adds its rows (the constraint set C);
 *   2. ABA on every body; K by AccelerationDeltas, island by island;
 *   3. impacts: rows hitting faster than a threshold get a velocity jump from an impulse LCP on
 *      the same K (section 5), with restitution;
 *   4. the mixed LCP (PGS; Cholesky when every row is bilateral) gives the constraint forces,
 *      qdd = qdd0 + sum f dqdd. An island solved implicitly first measures its warm-start forces
 *      without K, and keeps them when they hold; K is built (step 2) only when they do not
 *      (solveIsland);
 *   5. semi-implicit Euler; if the tentative state violates a unilateral condition deeper than the
 *      tolerance, the step is halved and retried (backtracking), at most `maxHalvings` times — at
 *      the cap the step is accepted as it is and the violation is left to stabilisation;
 *   6. stabilisation of position drift: post-stabilisation (Cline thesis 3.4: an LCP on the
 *      position errors with the same K, dq = M^-1 J^T lambda) or Baumgarte (velocity-level,
 *      J v+ = -alpha g, Cline 3.2), or none;
 *   7. the energy account (boundEnergy): an island that no external work reached may not end a
 *      pass with more mechanical energy than it began with, beyond the energy it lost in earlier
 *      passes, up to its bound per step; an excess is taken from its kinetic energy.
 *
 * Desired measures of position rows (pins, limits, contacts) are velocity-level: the row asks that
 * the velocity after the step be -alpha g (alpha = 0 without Baumgarte), so a = -(v + alpha g)/h.
 * A unilateral row that is still open (g > 0) only stops the motion that would close it within the
 * step: a >= -(v + g/h)/h.
 */
import { addRootVelocityWorld, centerOfMass, energiesInto, forwardKinematics, freeRootCount, freeRootCurrentMomenta, freeRootMomenta, integratePositions, integrateSemiImplicit, kineticEnergy, restoreFreeRootMomenta, subtreeMass, subtreeMomentumAndInertia, JointType, type Model, type ShapeDesc, type State } from '@sinew/featherstone';
import { RowType } from './rows/row-buffer.js';
import { CollisionWorld } from './collision/collision-world.js';
import { DEBUG_LINE_STRIDE, DebugLineWriter } from './collision/debug-shapes.js';
import { drawJoints } from './debug-joints.js';
import { CONTACT_F64_STRIDE, CONTACT_NORMAL, CONTACT_POINT_A } from './collision/contact-buffer.js';
import { ContactSource, type ContactOptions } from './sources/contacts.js';
import { Body } from './body.js';
import type { PgsOptions } from './lcp/pgs.js';
import { rowPositionInto, rowVelocitiesInto, rowVelocityInto } from './rows/measure.js';
import { RowBuffer, RowTag } from './rows/row-buffer.js';
import { ConstraintSolver, type KMethod } from './solver/constraint-solver.js';
import { WarmStartTable } from './solver/warm-start.js';
import { JointLimits, sphericalLimitGapInto, type JointLimitOptions } from './sources/joint-limits.js';
import { HingePin, PointPin } from './sources/pin.js';
import type { ConstraintSource, StepContext } from './sources/source.js';
import { refusedInput, restoreWorldState, saveWorldState, type WorldState } from './world-state.js';
import { renumberWarmStarts, sourceBodies, sourceBodyRemoved } from './lifetime.js';
import { ContactEventRecorder, type ContactEvent, type ContactForce } from './events.js';
import { LimitEventRecorder, type LimitHit } from './limit-events.js';
import { readSnapshot, snapshotMismatch, writeSnapshot } from './world-snapshot.js';
import { KinematicJoints, KinematicMode, kinematicSlots, restoreKinematicJoints, addPrescribedRows, isPrescribedRow, landOnTarget, movePrescribed, onPrescribedJoint, prescribedMoving, prescribedVelocity, ratesFromState, ratesFromTarget } from './kinematic.js';

/** How position drift is removed after a step: 'post' (post-stabilisation), 'baumgarte' (a velocity bias) or 'none'. */
export type StabilizationMode = 'post' | 'baumgarte' | 'none';

/** Options of a World: gravity, substeps, solver, stabilisation, the per-step budget, contacts, friction, sleep and the energy bound. */
export interface WorldOptions {
  /** Gravity (default [0, -9.81, 0]); applied to every body added. */
  gravity?: ArrayLike<number>;
  /**
   * Sub-steps per step() (default: chosen by the world at each step, see World.autoSubsteps: 1
   * unless pins hold loads much heavier than their lightest links, then 2, 4 or 8).
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
   * short by backtracking leaves the rest of the sub-step to the next pass, and the last pass takes
   * all that remains without backtracking, so a step's cost is bounded whatever happens. A game
   * that needs a tighter bound on its frame sets fewer (3 keeps every scene of the robustness
   * suite finite, order-independent and never rolled back; hard landings then go deeper before
   * stabilisation lifts them).
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
   * bodies, nor drifts upward (see World.boundEnergy); false turns it off.
   */
  energyBound?: boolean;
  /** Record contact events after each step for World.drainContactEvents (default false; World.contactEvents turns it on and off). */
  contactEvents?: boolean;
  /** Record joint-limit hits for World.drainLimitHits (default false; World.limitEvents), faster than `minSpeed` (rad/s or m/s, default 0.5). */
  limitEvents?: boolean | { minSpeed?: number };
}

/** What one `World.step` did: time, rows, islands, solver iterations and residual, halvings, impacts and position errors. */
export interface StepStats {
  /** Simulated time after the step (s). */
  time: number;
  rows: number;
  islands: number;
  /** Largest PGS iteration count and residual of the step's acceleration solves. */
  iterations: number;
  residual: number;
  halvings: number;
  impacts: number;
  /** Largest position error before and after stabilisation (m or rad). */
  errorBefore: number;
  errorAfter: number;
  /** Joint speeds clamped to maxJointSpeed in the last step (dofs times attempts). */
  clampedSpeeds: number;
  /** Milliseconds spent per phase in the last step (0 unless WorldOptions.timings is on). */
  ms: { rows: number; dynamics: number; k: number; solve: number; integrate: number; stabilize: number };
  /** Sub-steps the step took (WorldOptions.substeps, or the world's choice, World.autoSubsteps). */
  substeps: number;
  /** Detection-and-solve passes the step made (at most maxPasses per sub-step, times RECOVERY_SUBSTEPS + 1 more when recovering). */
  passes: number;
  /**
   * How the step recovered from a non-finite state ('' when it did not need to): 'substeps' (taken
   * again in smaller sub-steps), 'stopped' (the failing bodies' velocities zeroed, then taken again)
   * or 'rolled back' (every body left where the step began; time advances).
   */
  recovery: '' | 'substeps' | 'stopped' | 'rolled back';
  /** What went non-finite in the step ('' when nothing did; see recovery for what was done). */
  error: string;
  /** Contact points found in the last detection, and the deepest penetration among them (m). */
  contacts: number;
  maxPenetration: number;
  /** Bodies asleep after the step. */
  sleeping: number;
  /** Kinetic energy (J) the energy account took from islands in the step (World.boundEnergy). */
  energyRemoved: number;
}

/**
 * 30 sweeps at most; stop once every row's residual is below 1e-3 (m/s^2 or rad/s^2 at the
 * acceleration level: a velocity error of 1.7e-5 m/s per 60 Hz step). Warm starts from the last
 * step's forces make the resting case converge in a few sweeps.
 */
const DEFAULT_SOLVER: PgsOptions = { maxIterations: 30, tolerance: 1e-3, sor: 1 };

/** Whether q or qd differ from frameQ / frameQd, which hold a sleeper's state as the last step left it (Body.sleepSnapshot). */
function movedSinceLastStep(b: Body): boolean {
  const { q, qd } = b.state, q0 = b.frameQ, qd0 = b.frameQd;
  for (let i = 0; i < q.length; i++) if (q[i] !== q0[i]) return true;
  for (let i = 0; i < qd.length; i++) if (qd[i] !== qd0[i]) return true;
  return false;
}

function hasLoad(b: Body): boolean {
  const { tau, fext } = b.state;
  for (let i = 0; i < tau.length; i++) if (tau[i] !== 0) return true;
  for (let i = 0; i < fext.length; i++) if (fext[i] !== 0) return true;
  return false;
}

/** Copies row j of a buffer over row k (k < j), for compaction. */
function copyRow(r: RowBuffer, j: number, k: number): void {
  r.type[k] = r.type[j]; r.tag[k] = r.tag[j];
  r.bodyA[k] = r.bodyA[j]; r.linkA[k] = r.linkA[j]; r.bodyB[k] = r.bodyB[j]; r.linkB[k] = r.linkB[j]; r.dof[k] = r.dof[j];
  for (let e = 0; e < 3; e++) { r.pA[3 * k + e] = r.pA[3 * j + e]; r.pB[3 * k + e] = r.pB[3 * j + e]; r.dir[3 * k + e] = r.dir[3 * j + e]; }
  r.lo[k] = r.lo[j]; r.hi[k] = r.hi[j];
  // a friction row directly follows its normal row (same contact, kept or dropped together), so
  // both moved by the same offset
  const br = r.boundRow[j];
  r.boundRow[k] = br >= 0 ? br - (j - k) : -1;
  r.desired[k] = r.desired[j]; r.error[k] = r.error[j]; r.velocity[k] = r.velocity[j];
  r.restitution[k] = r.restitution[j]; r.key[k] = r.key[j]; r.force[k] = r.force[j];
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

/** The point pin a source holds a body by: a PointPin itself, a HingePin's pin; null for other sources. */
function pointPinOf(src: ConstraintSource): PointPin | null {
  return src instanceof HingePin ? src.pin : src instanceof PointPin ? src : null;
}

/** Whether a and b hold the same numbers (NaN equals nothing). */
function sameNumbers(a: Float64Array, b: Float64Array): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
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

/** Numbers per momentum group in World.groupSums. */
const GROUP_STRIDE = 36;

/** Worlds made so far (World.serial: a saved state knows the world it came from). */
let worldsMade = 0;

/** Sub-steps per sub-step of a step taken again after it went non-finite. */
const RECOVERY_SUBSTEPS = 4;

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
  /**
   * The step's numbers that change every step: simulated time (0), the length of the current
   * attempt (1: set before advance(), left as the time actually advanced), the worst
   * violation's ratio to its tolerance (2), the time (3) and length (4) of the step under way
   * (read by attempt()), the sub-step length (5), the energy the step's account removed (6) and
   * the excess an island's account is removing (7).
   * In an array: a double written to an object's field may
   * be put on the heap at every write (always, once the engine has seen two Worlds disagree on the
   * field's representation), a typed array's slot never is.
   */
  private readonly scalars = new Float64Array(8);
  /** Simulated time (s). */
  get time(): number {
    return this.scalars[0];
  }
  set time(t: number) {
    this.scalars[0] = t;
  }
  /** Sub-steps per step() as the user set them; 0: chosen by the world at each step (autoSubsteps). */
  substeps: number;
  solverOptions: PgsOptions;
  stabilization: StabilizationMode;
  baumgarteAlpha: number;
  maxHalvings: number;
  maxPasses: number;
  maxJointSpeed: number;
  backtrackTolerance: number;
  impactThreshold: number;
  stabilizationTolerance: number;
  contactSlop: number;
  limitSlop: number;
  stabilizationPasses: number;
  kMethod: KMethod;
  warmStart: boolean;
  readonly stats: StepStats = {
    time: 0, rows: 0, islands: 0, iterations: 0, residual: 0, halvings: 0, impacts: 0, errorBefore: 0, errorAfter: 0,
    clampedSpeeds: 0, ms: { rows: 0, dynamics: 0, k: 0, solve: 0, integrate: 0, stabilize: 0 }, substeps: 1, passes: 0, recovery: '', error: '', contacts: 0, maxPenetration: 0, sleeping: 0, energyRemoved: 0,
  };
  readonly collision: CollisionWorld;
  readonly contacts: ContactSource;
  sleepTime: number;
  sleepSpeed: number;
  sleepEnabled: boolean;
  /** Whether the energy account runs (WorldOptions.energyBound). */
  energyBound: boolean;

  readonly rows = new RowBuffer(64);
  readonly solver = new ConstraintSolver();
  private readonly warm = new WarmStartTable();
  /** Per row (by its place in the row buffer, as large as it), the warm-start table's slot its force went to (WarmStartTable.getAt). */
  private warmSlot = new Int32Array(0);
  private islandOf = new Int32Array(8);
  private islandId = new Int32Array(8);
  private islandCount = new Int32Array(8);
  private islandRows = new Int32Array(64);
  private islandStart = new Int32Array(9);
  private rhs = new Float64Array(64);
  private dvScratch = new Float64Array(6);
  private momentumNow = new Float64Array(6);
  private gNew = new Float64Array(64);
  /**
   * The position measures of the contact and limit rows (finite offsets) that violation() took at
   * the step's accepted positions, and whether it did (positionsChecked: the kinematics, velocities
   * included, are then current too), so postStabilize's first pass does not take them again.
   */
  private checkedPosition = new Float64Array(64);
  private positionsChecked = false;
  private stabForce = new Float64Array(64);
  private stabRows = new Int32Array(64);
  private stabOptions: PgsOptions = { maxIterations: 50, tolerance: 1e-12, sor: 1 };
  /** Per island: energy at the pass's start (0) and end (1), credit (2) and bound (3), 4 numbers each (boundEnergy). */
  private islandEnergy = new Float64Array(32);
  /** Per island, whether external work may have reached it in the pass (boundEnergy). */
  private islandWorked = new Uint8Array(8);
  /** Per body, whether an impact with restitution acted on it in the pass. */
  private bodyWorked = new Uint8Array(8);
  /** Momenta of a body's free roots (boundEnergy's scratch). */
  private energyMomenta = new Float64Array(6);

  /** Whether step() times its phases into stats.ms (WorldOptions.timings). */
  timings: boolean;

  /** The time in ms when timings are on, else 0. */
  private clock(): number {
    return this.timings ? performance.now() : 0;
  }

  constructor(options: WorldOptions = {}) {
    this.timings = options.timings ?? false;
    this.gravity = Float64Array.from(options.gravity ?? [0, -9.81, 0]);
    for (let k = 0; k < 3; k++) if (!Number.isFinite(this.gravity[k])) throw new RangeError('World: gravity must be 3 finite numbers');
    this.substeps = options.substeps ?? 0;
    if (!(Number.isInteger(this.substeps) && this.substeps >= 0)) throw new RangeError(`World: substeps must be a whole number >= 1 (or left out: chosen by the world), got ${options.substeps}`);
    this.solverOptions = { ...DEFAULT_SOLVER, ...options.solver };
    this.stabilization = options.stabilization ?? 'post';
    this.baumgarteAlpha = options.baumgarteAlpha ?? 50;
    this.maxHalvings = options.maxHalvings ?? 4;
    this.maxPasses = options.maxPasses ?? 2 ** Math.min(20, this.maxHalvings + 1);
    if (!(Number.isInteger(this.maxPasses) && this.maxPasses >= 1)) throw new RangeError(`World: maxPasses must be an integer >= 1, got ${options.maxPasses}`);
    this.maxJointSpeed = options.maxJointSpeed ?? Infinity;
    if (!(this.maxJointSpeed > 0)) throw new RangeError(`World: maxJointSpeed must be > 0 (Infinity turns it off), got ${options.maxJointSpeed}`);
    this.backtrackTolerance = options.backtrackTolerance ?? 0.005;
    this.impactThreshold = options.impactThreshold ?? 0.02;
    this.stabilizationTolerance = options.stabilizationTolerance ?? 1e-7;
    this.contactSlop = options.contactSlop ?? 1e-3;
    this.limitSlop = options.limitSlop ?? 1e-4;
    this.stabilizationPasses = options.stabilizationPasses ?? 1;
    this.kMethod = options.kMethod ?? 'deltas';
    this.warmStart = options.warmStart ?? true;
    this.stabOptions = { maxIterations: Math.max(30, this.solverOptions.maxIterations ?? 30), tolerance: 1e-12, sor: 1 };
    this.limits = new JointLimits(options.limits);
    this.sources.push(this.limits);
    this.collision = new CollisionWorld({ margin: options.contactMargin ?? 0.01 });
    this.contacts = new ContactSource(this.collision, options.friction);
    this.sources.push(this.contacts);
    this.sleepEnabled = options.sleep !== false;
    this.sleepTime = (options.sleep || {}).sleepTime ?? 0.5;
    this.sleepSpeed = (options.sleep || {}).sleepSpeed ?? 0.03;
    this.energyBound = options.energyBound ?? true;
    // a number object from the start (see stepLength)
    this.stepLength = NaN;
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
    const body = new Body(this.bodies.length, options.name ?? `body${this.bodiesAdded}`, model, options.state);
    body.serial = this.bodiesAdded++;
    if (options.name !== undefined) body.key = `n:${options.name}`;
    else this.unkeyed = true;
    body.state.gravity.set(this.gravity);
    // collision shapes of the model's links; a link never collides with its parent
    const excluded: [number, number][] = [];
    for (let i = 0; i < model.nLinks; i++) if (model.parent[i] >= 0) excluded.push([model.parent[i], i]);
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

  /** The bodies in canonical order (Body.rank): sums over bodies taken in it do not depend on the order bodies were added in. */
  private byRank: Body[] = [];

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
    this.byRank = order.map((b) => this.bodies[b]);
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
    renumberWarmStarts(this.warm, i);
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
    { bodyRemoved: (i) => this.events?.bodyRemoved(i, this.bodies), shapeRemoved: (h) => this.events?.staticRemoved(h, this.bodies) },
    { bodyRemoved: (i) => this.limitHits?.bodyRemoved(i), shapeRemoved: () => {} },
  ];

  // ---- joint-limit hits (limit-events.ts) ----

  private limitHits: LimitEventRecorder | null = null;
  private readonly limitHitMin = new Float64Array([0.5]);

  /** Whether each step records joint-limit hits (default false, or WorldOptions.limitEvents), drained by drainLimitHits. */
  get limitEvents(): boolean {
    return this.limitHits !== null;
  }
  set limitEvents(on: boolean) {
    if (on && !this.limitHits) this.limitHits = new LimitEventRecorder(this.scalars, this.limitHitMin[0]);
    else if (!on) this.limitHits = null;
  }

  /** The approach speed (rad/s, or m/s for sliders) above which a joint reaching a stop is a hit (default 0.5). */
  get limitHitSpeed(): number {
    return this.limitHitMin[0];
  }
  set limitHitSpeed(v: number) {
    if (!(typeof v === 'number' && v >= 0 && !Number.isNaN(v))) throw new RangeError(`World.limitHitSpeed: expected a speed >= 0 (rad/s or m/s), got ${v}`);
    this.limitHitMin[0] = v;
    if (this.limitHits) this.limitHits.threshold[0] = v;
  }

  /**
   * Hands the joint-limit hits of the steps since the last drain to callback, oldest first, through
   * one reused LimitHit (body, joint, stop, time, approach speed), and empties the queue. A stop
   * gives one hit when a joint reaches it faster than limitHitSpeed, none while it rests there.
   */
  drainLimitHits(callback: (hit: LimitHit) => void): void {
    if (!this.limitHits) throw new Error('World.drainLimitHits: limit events are off; set world.limitEvents = true (or WorldOptions.limitEvents) before stepping');
    this.limitHits.drain(callback);
  }

  // ---- contact events (events.ts) ----

  /** The recorder of contact events, while they are on. */
  private events: ContactEventRecorder | null = null;

  /**
   * Whether each step records contact events (default false, or WorldOptions.contactEvents):
   * drained by drainContactEvents. Turning it off forgets the pairs and the queue.
   */
  get contactEvents(): boolean {
    return this.events !== null;
  }
  set contactEvents(on: boolean) {
    if (on && !this.events) this.events = new ContactEventRecorder(this.scalars);
    else if (!on) this.events = null;
  }

  /**
   * Hands the contact events of the steps since the last drain to callback, oldest first, through
   * one reused ContactEvent (copy what you keep), and empties the queue: 'began' when a pair of
   * (body, link) or static shape starts touching, 'persisted' each step it goes on, 'ended' when it
   * stops (or a side is removed or disabled), with the step's normal impulse, the approach speed
   * at first touch and the deepest point. Needs contactEvents on. Allocates nothing.
   */
  drainContactEvents(callback: (event: ContactEvent) => void): void {
    if (!this.events) throw new Error('World.drainContactEvents: contact events are off; set world.contactEvents = true (or WorldOptions.contactEvents) before stepping');
    this.events.drain(callback);
  }

  /**
   * The force of every contact point of the last step's last pass (its normal force and normal plus
   * friction force on side A, N), through one reused ContactForce. Allocates nothing; needs
   * contactEvents on.
   */
  contactForces(callback: (contact: ContactForce) => void): void {
    if (!this.events) throw new Error('World.contactForces: contact events are off; set world.contactEvents = true (or WorldOptions.contactEvents) before stepping');
    this.events.forces(this.contacts, this.rows, this.bodies, callback);
  }

  /** Everything the world carries across steps (states, time, sleep timers, warm starts): see world-state.ts. */
  saveState(): WorldState {
    const state = saveWorldState(this, this.warm);
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
    restoreWorldState(this, this.warm, state);
    // the kinematic joints as saved (kinematic.ts)
    for (let i = 0; i < this.bodies.length; i++) restoreKinematicJoints(this.bodies[i], state.bodies[i].kinematic ?? null);
    this.afterRestore();
  }

  /**
   * What the next step reads (states, sleep, kinematic joints, warm starts, time:
   * world-snapshot.ts) in one little-endian binary buffer, written into `out` when it is large
   * enough and 8-byte aligned (the snapshot is then the subarray returned): for rollback, or to
   * send to a peer whose world was built the same way. restore(snapshot) continues bit for bit, in
   * any engine.
   */
  snapshot(out?: Uint8Array): Uint8Array {
    return writeSnapshot(this, this.warm, this.events, out);
  }

  /**
   * Takes back what snapshot() wrote (here or in a world built the same way); refused with a
   * RangeError, before anything changes, when it does not fit. Contact events not yet drained stay
   * queued.
   */
  restore(snapshot: Uint8Array): void {
    const refused = snapshotMismatch(snapshot, this, (serial) => this.removedBodies.find((r) => r.serial === serial)?.name, this.events !== null);
    if (refused) throw new RangeError(`World.restore: ${refused}`);
    readSnapshot(snapshot, this, this.warm, this.events);
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
    st.rows = 0; st.islands = 0; st.iterations = 0; st.residual = 0; st.halvings = 0; st.impacts = 0; st.errorBefore = 0; st.errorAfter = 0; st.error = '';
    st.ms.rows = 0; st.ms.dynamics = 0; st.ms.k = 0; st.ms.solve = 0; st.ms.integrate = 0; st.ms.stabilize = 0;
    st.passes = 0; st.recovery = '';
    const time0 = this.scalars[0];
    if (this.limitHits) this.limitHits.beginStep();
    this.beginKinematics(dt);
    // a sleeper wakes under a load, or when its q or qd were changed since the last step (a body
    // moved by hand must not hang where it was put)
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      if (b.sleeping && (hasLoad(b) || (b.sleepSnapshot && movedSinceLastStep(b)))) this.wake(b);
      // put to sleep by hand: its links (and so its collision shapes) go where its q puts them
      else if (b.sleeping && !b.sleepSnapshot) forwardKinematics(b.model, b.state, true);
    }
    for (let bi = 0; bi < this.bodies.length; bi++) { const b = this.bodies[bi]; b.frameQ.set(b.state.q); b.frameQd.set(b.state.qd); b.energy[2] = b.energy[1]; }
    this.scalars[6] = 0;
    this.markMovedPins();
    const substeps = this.substeps > 0 ? this.substeps : this.autoSubsteps();
    st.substeps = substeps;
    this.scalars[3] = time0; this.scalars[4] = dt;
    // Recovery (a world never stops moving because of one bad state): a step that goes non-finite
    // is taken again from its start in RECOVERY_SUBSTEPS times as many sub-steps; if that fails too,
    // the island of the bodies that went non-finite loses its velocities (its motion is stopped where
    // the step began) and the step is taken once more; only if that fails is it rolled back, time
    // advancing.
    const first = this.attempt(substeps);
    if (first) {
      this.rollBack(time0);
      st.recovery = 'substeps';
      let error = this.attempt(substeps * RECOVERY_SUBSTEPS);
      if (error) {
        this.rollBack(time0);
        // the failing bodies and every body their rows joined them to in the failed try
        for (const f of this.failedBodies) {
          for (const b of this.bodies) {
            if (b !== f && (f.island < 0 || b.island !== f.island)) continue;
            b.state.qd.fill(0); b.frameQd.fill(0); b.state.work.dynamicsValid = false;
          }
        }
        st.recovery = 'stopped';
        error = this.attempt(substeps * RECOVERY_SUBSTEPS);
        if (error) { st.recovery = 'rolled back'; this.rollBack(time0 + dt); }
      }
      // what failed first, and what the step did about it
      st.error = `${first}; ${st.recovery === 'rolled back' ? 'the step was rolled back' : st.recovery === 'stopped' ? 'the step was taken again in sub-steps with the failing bodies stopped' : 'the step was taken again in sub-steps'}`;
    }
    this.endKinematics(st.recovery !== 'rolled back');
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      b.state.clearForces();
      // a sleeper's state as the step leaves it, for movedSinceLastStep
      b.sleepSnapshot = b.sleeping;
      if (b.sleeping) { b.frameQ.set(b.state.q); b.frameQd.set(b.state.qd); }
    }
    st.time = this.scalars[0];
    st.energyRemoved = this.scalars[6];
    if (this.events) this.events.endStep(this.bodies);
    if (this.limitHits) this.limitHits.endStep();
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
   * does; 5000 kg holds at 64.
   */
  autoSubsteps(): number {
    let ratio = 1;
    for (const src of this.sources) {
      const pin = pointPinOf(src);
      if (!pin || !src.enabled || !pin.enabled) continue;
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

  /** Per body, whether a pin the game moved since the last step holds it (markMovedPins). */
  private pinWorked = new Uint8Array(0);

  /** Marks the bodies of pins whose targets moved since the last step: the energy account counts the pins' work as external. */
  private markMovedPins(): void {
    if (this.pinWorked.length < this.bodies.length) this.pinWorked = new Uint8Array(2 * this.bodies.length);
    this.pinWorked.fill(0);
    for (const src of this.sources) {
      const pin = pointPinOf(src);
      if (!pin || !pin.targetMoved() || !src.enabled || !pin.enabled) continue;
      this.pinWorked[pin.bodyA] = 1;
      if (pin.target.body >= 0) this.pinWorked[pin.target.body] = 1;
    }
  }

  /** The bodies that went non-finite in the last failed attempt (for recovery). */
  private readonly failedBodies: Body[] = [];

  /**
   * One try at the step from its start: `substeps` sub-steps, each of at most maxPasses
   * detection-and-solve passes (pieces); the last pass a sub-step allows takes all the time that
   * remains without backtracking, its overlaps left to speculative contacts and stabilisation.
   * Returns '' or what went non-finite (the failing bodies in failedBodies).
   */
  private attempt(substeps: number): string {
    const st = this.stats;
    // (the step's time and length from scalars: a double argument to a call that is not inlined is boxed)
    const h = this.scalars[4] / substeps;
    this.scalars[5] = h;
    this.failedBodies.length = 0;
    if (this.events) this.events.beginAttempt();
    if (this.limitHits) this.limitHits.beginAttempt();
    try {
      for (let s = 0; s < substeps; s++) {
        let remaining = h;
        for (let pass = 1; remaining > h * 1e-9; pass++) {
          this.scalars[1] = remaining;
          this.lastPass = pass >= this.maxPasses;
          this.advance();
          st.passes++;
          remaining = this.lastPass ? 0 : remaining - this.scalars[1];
        }
      }
      return this.checkFinite();
    } catch (e) {
      // a TypeError or ReferenceError is a programming error, not a state gone bad: roll back, then
      // let it surface with its stack instead of freezing the world quietly
      if (e instanceof TypeError || e instanceof ReferenceError) {
        this.rollBack(this.scalars[3]);
        throw e;
      }
      this.checkFinite();
      return `World.step at t = ${this.scalars[3]}: ${(e as Error).message}`;
    }
  }

  /** Whether the current pass is the last its sub-step allows (it takes the rest of the sub-step, without halving). */
  private lastPass = false;

  /** Restores every body to the start of the step (nothing simulated before it is lost). */
  private rollBack(time: number): void {
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      b.state.q.set(b.frameQ);
      b.state.qd.set(b.frameQd);
      b.state.work.dynamicsValid = false;
      b.energy[1] = b.energy[2];
    }
    this.scalars[6] = 0;
    this.warm.clear();
    this.scalars[0] = time;
  }

  /** '' when every state is finite, else which body and joint went non-finite (every such body in failedBodies). */
  private checkFinite(): string {
    let msg = '';
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      const joint = b.nonFiniteJoint();
      if (!joint) continue;
      this.failedBodies.push(b);
      if (!msg) msg = `body "${b.name}" joint "${joint}" became non-finite`;
    }
    return msg;
  }

  /** Per island, the shortest rest time of its bodies (updateSleep). */
  private minRest = new Float64Array(8);
  /**
   * The length of the current attempt, kept in a field that holds a number object (it is declared
   * null, so the engine stores a reference, not an unboxed double): passing it to the calls of the
   * step then boxes nothing, and a new object is made only when the length changes (the first
   * step, a halving, a new dt). A double computed or loaded afresh would be boxed at every call
   * that takes it. The constructor sets it to NaN, so that no World's step ever meets a null there:
   * code compiled for one World that met only numbers would otherwise be thrown away at the first
   * step of another and recompiled for either, boxing 16 bytes a step.
   */
  private stepLength: number | null = null;
  /** A one-number scratch for measures handed back through an array (a returned double is boxed). */
  private readonly scalar = new Float64Array(1);

  /** The context handed to the sources, one object reused by every attempt of every step. */
  private readonly stepContext: { bodies: readonly Body[]; h: number } = { bodies: [], h: 0 };

  private ctx(h: number): StepContext {
    this.stepContext.bodies = this.bodies;
    this.stepContext.h = h;
    return this.stepContext;
  }

  /** One attempt of Step() of length scalars[1]; leaves the time actually advanced there. */
  private advance(): void {
    // the step length as a number object that stays the same from step to step (see stepLength)
    const attempt = this.scalars[1];
    if (this.stepLength !== attempt) this.stepLength = attempt;
    const h = this.stepLength as number;
    const st = this.stats;
    const bodies = this.bodies;
    if (this.everyBodyAsleep()) {
      // nothing can move until something wakes a body (step() looks first): no detection, no
      // rows, only time goes on (detection would find no pair anyway: every shape sleeps or is
      // static)
      this.rows.clear();
      this.contacts.clearContacts();
      st.contacts = 0;
      st.maxPenetration = 0;
      this.scalars[0] += h;
      return;
    }
    let t0 = this.clock();
    this.awakeKinematics(true);
    const rows = this.rows;
    rows.clear();
    const ctx = this.ctx(h);
    for (const src of this.sources) src.addRows(rows, ctx);
    if (this.kinematicBodies > 0) this.addKinematicRows(rows);
    this.dropSleepingRows(rows);
    if (this.kinematicBodies > 0) this.dropKinematicRows(rows);
    if (this.events) this.events.detected(this.contacts, rows, bodies);
    if (this.energyBound) this.startEnergy();
    // a rigid body moves by the world rule unless a pin holds it (Body.worldRule)
    for (let bi = 0; bi < bodies.length; bi++) bodies[bi].worldRule = bodies[bi].rigid;
    rowVelocitiesInto(rows, bodies, rows.velocity);
    if (this.warmSlot.length < rows.capacity) { const slots = new Int32Array(rows.capacity).fill(-1); slots.set(this.warmSlot); this.warmSlot = slots; }
    for (let j = 0; j < rows.count; j++) {
      if (rows.tag[j] === RowTag.Pin) {
        bodies[rows.bodyA[j]].worldRule = false;
        if (rows.bodyB[j] >= 0) bodies[rows.bodyB[j]].worldRule = false;
      }
      // (the slot the row of the same place had last step holds this key, at rest: no hashing)
      rows.force[j] = rows.key[j] === -1 ? 0 : this.warm.getAt(this.warmSlot[j], rows.key[j]);
      const tag = rows.tag[j];
      if (tag === RowTag.Pin || tag === RowTag.Limit || tag === RowTag.Contact) {
        rowPositionInto(rows, j, bodies, rows.offset, j);
        rows.offset[j] = rows.error[j] - rows.offset[j];
      }
    }
    st.rows = Math.max(st.rows, rows.count);
    if (this.limitHits) this.limitHits.detected(rows);
    let t1 = this.clock();
    st.ms.rows += t1 - t0;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping) continue;
      b.gyroscopicStep = h;
      b.state.work.dampingStep[0] = h; // joint damping by backward Euler (State.implicitDampingStep)
      b.dynamics(true); // (awakeKinematics ran at this q and qd, above)
      b.qdd.set(b.qdd0);
    }
    this.passMomenta();
    t0 = this.clock();
    st.ms.dynamics += t0 - t1;
    const nIslands = this.buildIslands(rows);
    st.islands = Math.max(st.islands, nIslands);
    this.warm.clear();
    for (let isl = 0; isl < nIslands; isl++) this.solveIsland(rows, isl, h);
    // integrate with backtracking
    t0 = this.clock();
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping) continue;
      b.save();
      if (b.momentumTarget) b.pushCount = this.rowDirections(rows, b);
      if (b.momentumTarget && b.pushCount >= 0) {
        // momentum now (dt = 0) and its rate (the external force) for the step, at the step's
        // start, from the accelerations without the gyroscopic change (gyroscopic.ts), which
        // integrates the same internal forces more faithfully and is no external force
        const x = b.scratch;
        for (let d = 0; d < b.model.nv; d++) x[d] = b.qdd[d] - b.gyroDelta[d];
        freeRootMomenta(b.model, b.state, x, 0, b.momentumStart!);
        freeRootMomenta(b.model, b.state, x, 1, b.momentumTarget);
        for (let e = 0; e < 6; e++) b.momentumTarget[e] -= b.momentumStart![e];
      }
    }
    for (let halvings = 0; ; halvings++) {
      this.positionsChecked = false;
      for (let bi = 0; bi < bodies.length; bi++) {
        const b = bodies[bi];
        if (b.sleeping) continue;
        // free joints move by the world rule (featherstone advanceFreeJoint: exact in flight and
        // rolling), except while rows act on a tree or a pin holds a rigid body (Body.worldRule)
        integrateSemiImplicit(b.model, b.state, b.qdd, this.stepLength as number, false, b.worldRule || b.island < 0);
        if (this.maxJointSpeed < Infinity) this.clampJointSpeeds(b);
      }
      if (halvings >= this.maxHalvings || this.lastPass) break;
      this.violation(rows, ctx);
      if (this.scalars[2] <= 1) break;
      for (let bi = 0; bi < bodies.length; bi++) { const b = bodies[bi]; if (!b.sleeping) b.restore(); }
      this.stepLength = (this.stepLength as number) * 0.5;
      st.halvings++;
    }
    const hTry = this.stepLength as number;
    if (this.events) this.events.solved(rows, this.contacts, hTry);
    if (this.limitHits) this.limitHits.solved(rows, bodies);
    this.scalars[0] += hTry;
    t1 = this.clock();
    st.ms.integrate += t1 - t0;
    if (this.stabilization === 'post') this.postStabilize(hTry, nIslands);
    // after every position change of the step (integration and stabilisation)
    this.preserveMomenta(rows, hTry);
    // islands held by nothing keep their momenta exactly (conserveGroupMomenta); the energy account
    // takes the others (a group's energy is not bounded: scaling its velocities would break the
    // exchange of momentum between its bodies)
    const groups = this.momentumGroups(rows, nIslands);
    if (this.energyBound) this.boundEnergy(rows, nIslands);
    this.conserveGroupMomenta(hTry, groups);
    if (this.kinematicBodies > 0) this.moveKinematics();
    st.ms.stabilize += this.clock() - t1;
    st.contacts = this.contacts.count;
    st.maxPenetration = this.contacts.maxDepth;
    if (this.sleepEnabled) this.updateSleep(hTry, nIslands);
    this.scalars[1] = hTry;
  }

  // ---- kinematic bodies and links (kinematic.ts) ----

  /** Bodies with kinematic joints in the current step (counted by beginKinematics). */
  private kinematicBodies = 0;

  /**
   * At the start of a step of length dt: the rates of the kinematic joints (position mode: from
   * the pending target, or zero), a kinematic body's velocities set to them at once, and a sleeper
   * whose kinematic joints move woken.
   */
  private beginKinematics(dt: number): void {
    let n = 0;
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi], kin = b.kinematic;
      if (kin === null) continue;
      n++;
      if (kin.flags[0] === KinematicMode.Position) ratesFromTarget(b.model, kin, b.state.q, dt);
      if (b.isKinematic) prescribedVelocity(b.model, kin, b.state.q, b.state.qd);
      if (b.sleeping && !b.disabledApplied && (kin.flags[1] === 1 || prescribedMoving(kin))) this.wake(b);
    }
    this.kinematicBodies = n;
  }

  /** The rows of every kinematic joint (sleepers' too: a sleeper a row wakes must not move freely for a pass). */
  private addKinematicRows(rows: RowBuffer): void {
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      // (the pass's length as the number object stepLength holds: a double passed on is boxed)
      if (b.kinematic !== null && !b.disabledApplied) addPrescribedRows(rows, bi, b.model, b.kinematic, b.state.q, b.state.qd, this.stepLength as number);
    }
  }

  /**
   * Drops the rows that cannot act: joint rows of other sources on kinematic joints (limits,
   * drives), and point or angular rows between two sides that cannot move (static shapes and
   * links joined to the world by kinematic joints only: a platform's contact with the floor).
   */
  private dropKinematicRows(rows: RowBuffer): void {
    const bodies = this.bodies;
    let k = 0;
    if (this.rowMoved.length < rows.count) this.rowMoved = new Int32Array(rows.capacity);
    for (let j = 0; j < rows.count; j++) {
      const a = bodies[rows.bodyA[j]], bi = rows.bodyB[j];
      let drop = false;
      if (rows.type[j] <= RowType.JointVec) drop = a.kinematic !== null && onPrescribedJoint(rows, j, a.model, a.kinematic);
      else {
        const fixedA = a.kinematic !== null && a.kinematic.fixed[rows.linkA[j]] === 1;
        const B = bi >= 0 ? bodies[bi] : null;
        const fixedB = B === null || (B.kinematic !== null && B.kinematic.fixed[rows.linkB[j]] === 1);
        drop = fixedA && fixedB;
      }
      this.rowMoved[j] = -1;
      if (drop) continue;
      if (k !== j) copyRow(rows, j, k);
      this.rowMoved[j] = k;
      k++;
    }
    if (k === rows.count) return;
    const rowOf = this.contacts.normalRowOf;
    for (let c = 0; c < this.contacts.count; c++) if (rowOf[c] >= 0) rowOf[c] = this.rowMoved[rowOf[c]];
    rows.count = k;
  }

  /** After a pass (of length stepLength): every awake body's kinematic joints moved exactly by their rates from the pass's start (Body.savedQ). */
  private moveKinematics(): void {
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      if (b.kinematic === null || b.sleeping) continue;
      movePrescribed(b.model, b.kinematic, b.savedQ, this.stepLength as number, b.state.q, b.state.qd);
      b.state.work.dynamicsValid = false;
    }
  }

  /** At the end of a step (not rolled back): kinematic joints with a target are set to it exactly, and the target is spent. */
  private endKinematics(moved: boolean): void {
    if (this.kinematicBodies === 0) return;
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi], kin = b.kinematic;
      if (kin === null || kin.flags[1] !== 1) continue;
      if (moved && !b.sleeping) { landOnTarget(b.model, kin, b.state.q, b.state.qd); b.state.work.dynamicsValid = false; }
      kin.flags[1] = 0;
    }
  }

  /** Whether every body sleeps (then a step has nothing to do). */
  private everyBodyAsleep(): boolean {
    for (let bi = 0; bi < this.bodies.length; bi++) if (!this.bodies[bi].sleeping) return false;
    return true;
  }

  /** Joint speeds beyond maxJointSpeed brought back to it (joints other than free ones); counted in stats.clampedSpeeds. */
  private clampJointSpeeds(b: Body): void {
    const m = b.model, qd = b.state.qd, max = this.maxJointSpeed;
    for (let i = 0; i < m.nLinks; i++) {
      if (m.jointType[i] === JointType.free) continue;
      for (let d = m.vOffset[i], e = d + m.jointNv[i]; d < e; d++) {
        const v = qd[d];
        if (v > max) { qd[d] = max; this.stats.clampedSpeeds++; } else if (v < -max) { qd[d] = -max; this.stats.clampedSpeeds++; }
      }
    }
  }

  /**
   * Rows touching a sleeping body: when their other side is awake, the sleeper wakes (it was
   * touched); when every side sleeps or is static, the row is dropped.
   */
  private dropSleepingRows(rows: RowBuffer): void {
    const bodies = this.bodies;
    let sleepers = false;
    for (let bi = 0; bi < bodies.length && !sleepers; bi++) sleepers = bodies[bi].sleeping;
    if (!sleepers) return;
    let woke = false;
    for (let j = 0; j < rows.count; j++) {
      const a = bodies[rows.bodyA[j]], bi = rows.bodyB[j];
      const b = bi >= 0 ? bodies[bi] : null;
      if (a.sleeping && b && !b.sleeping) { this.wake(a); woke = true; }
      else if (b && b.sleeping && !a.sleeping) { this.wake(b); woke = true; }
    }
    if (woke) this.awakeKinematics(true);
    let k = 0;
    if (this.rowMoved.length < rows.count) this.rowMoved = new Int32Array(rows.capacity);
    for (let j = 0; j < rows.count; j++) {
      const a = bodies[rows.bodyA[j]], bi = rows.bodyB[j];
      this.rowMoved[j] = -1;
      if (a.sleeping && (bi < 0 || bodies[bi].sleeping)) continue;
      // (rows holding a disabled body act on nothing)
      if (a.disabledApplied || (bi >= 0 && bodies[bi].disabledApplied)) continue;
      if (k !== j) copyRow(rows, j, k);
      this.rowMoved[j] = k;
      k++;
    }
    // the contacts' normal rows where they went
    const rowOf = this.contacts.normalRowOf;
    for (let c = 0; c < this.contacts.count; c++) if (rowOf[c] >= 0) rowOf[c] = this.rowMoved[rowOf[c]];
    rows.count = k;
  }

  /** Per row, where dropSleepingRows moved it (-1: dropped). */
  private rowMoved = new Int32Array(64);

  /**
   * Sleep: an island (bodies linked by rows) whose bodies all move slower than sleepSpeed (the
   * root-mean-square speed sqrt(2 KE / m)) for sleepTime seconds goes to sleep: zero velocity, not
   * stepped, until touched by an awake body or loaded by a force.
   */
  private updateSleep(h: number, nIslands: number): void {
    const bodies = this.bodies;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping) continue;
      forwardKinematics(b.model, b.state, true);
      const speed = Math.sqrt((2 * kineticEnergy(b.model, b.state)) / b.model.totalMass());
      b.restTime = speed < this.sleepSpeed && !this.driven(b) ? b.restTime + h : 0;
    }
    // an island sleeps only as a whole
    if (this.minRest.length < nIslands) this.minRest = new Float64Array(2 * nIslands);
    const minRest = this.minRest;
    minRest.fill(Infinity, 0, nIslands);
    for (let bi = 0; bi < bodies.length; bi++) { const b = bodies[bi]; if (!b.sleeping && b.island >= 0) minRest[b.island] = Math.min(minRest[b.island], b.restTime); }
    let sleeping = 0;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (!b.sleeping) {
        const rest = b.island >= 0 ? minRest[b.island] : b.restTime;
        if (rest >= this.sleepTime) {
          b.sleeping = true;
          b.state.qd.fill(0);
          forwardKinematics(b.model, b.state, true);
        }
      }
      if (b.sleeping && !b.disabledApplied) sleeping++; // (a disabled body is held asleep, not counted)
    }
    this.stats.sleeping = sleeping;
  }

  /** A body with a drive, motor or pin of its own keeps moving on purpose: it does not sleep. */
  private driven(b: Body): boolean {
    if (b.kinematic !== null && prescribedMoving(b.kinematic)) return true;
    for (const src of this.sources) {
      const s = src as { body?: number; enabled?: boolean };
      if (s.body === b.index && s.enabled !== false) return true;
    }
    return false;
  }

  /** The mechanical energy of every awake body at the pass's start (its kinematics are current), for boundEnergy. */
  private startEnergy(): void {
    const bodies = this.bodies;
    if (this.bodyWorked.length < bodies.length) this.bodyWorked = new Uint8Array(2 * bodies.length);
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      this.bodyWorked[bi] = 0;
      if (b.sleeping) continue;
      energiesInto(b.model, b.state, b.energy, 3);
      b.energy[0] = b.energy[3] + b.energy[4];
    }
  }

  /**
   * The energy account of the pass, island by island: no energy from nowhere.
   *
   * A pass can raise an island's mechanical energy (kinetic + potential) with no work done on it:
   * semi-implicit Euler in reduced coordinates (a humanoid tumbling off a stair with 900 J of
   * kinetic energy gained 15.7 J in one 1/60 s step in flight, converging as O(h) with sub-steps:
   * 5.1 J at 2, 1.3 J at 8), post-stabilisation lifting bodies out of an overlap (m g d of
   * potential energy a pass, 2.7-6 J for a humanoid on stairs), friction rows PGS left unconverged
   * pushing with the sliding (+1 J in a step on a slope), and each piece of a halved step making
   * these errors again. The island's energy at the pass's end is compared with its energy at the
   * start plus its credit, the energy it lost in earlier passes that may come back (semi-implicit
   * Euler's energy oscillates: what a pass lost the next may regain), capped per body at its bound
   *   B = m |g| (contactSlop + |g| h^2 / 2)
   * (h the sub-step: the lift post-stabilisation may give within the slop, and the energy
   * semi-implicit Euler's free fall loses in a step, m g^2 h^2 / 2, which the next may get back;
   * 1.74 J for 75 kg at 60 Hz). An excess is taken from the island's kinetic energy (removeEnergy).
   * So the island's energy rises at most by its bound in a step and never drifts above its lowest
   * energy so far by more than it. Islands reached by external work in the pass are not accounted
   * (their credit starts full): rows of drives, motors and other sources, pins whose targets the
   * game moved (markMovedPins), joint torques or external forces on a body, impacts with
   * restitution. Islands held by nothing keep their momenta instead (conserveGroupMomenta) and are
   * not accounted either. A tree held to the world by a joint that no row touches is accounted as
   * an island of its own under gravity (see below); other bodies without rows are left to their
   * integrator: a rigid body's free flight is exact. When the kinetic energy is less than the
   * excess (a body lifted out of a deep overlap), all of it goes and the rest of the rise stays.
   */
  private boundEnergy(rows: RowBuffer, nIslands: number): void {
    const bodies = this.byRank;
    const g = this.gravity, gn = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    const hs = this.scalars[5];
    const perKg = gn * (this.contactSlop + 0.5 * gn * hs * hs);
    // a tree held by a joint to the world that no row touches (a chain swinging free) is an island
    // of its own here: semi-implicit Euler with the velocity-product terms taken at the step's start
    // gains energy on a whipping chain (a 60-link chain: +24 J/s at 16 sub-steps). A free tree alone
    // is a momentum group (conserveGroupMomenta) and is left out, as a rigid body in flight is (the
    // exact world rule moves it)
    let n = nIslands;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (perKg > 0 && !b.sleeping && b.island < 0 && !b.rigid && !b.freeTree && !hasLoad(b) && !this.bodyWorked[b.index]) b.island = n++;
    }
    if (this.islandEnergy.length < 4 * n) this.islandEnergy = new Float64Array(8 * n);
    if (this.islandWorked.length < n) this.islandWorked = new Uint8Array(2 * n);
    const E = this.islandEnergy, worked = this.islandWorked;
    E.fill(0, 0, 4 * n);
    worked.fill(0, 0, n);
    // rows that may do work: drives, motors, rows of other sources
    for (let j = 0; j < rows.count; j++) {
      const tag = rows.tag[j];
      // (a pin holding still does no work; one the game moved marks its bodies, markMovedPins)
      if (tag === RowTag.Contact || tag === RowTag.Friction || tag === RowTag.Limit || tag === RowTag.Pin) continue;
      const isl = this.bodies[rows.bodyA[j]].island;
      if (isl >= 0) worked[isl] = 1;
    }
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping) continue;
      const bound = perKg * b.energy[6];
      const isl = b.island;
      if (isl < 0) { b.energy[1] = bound; continue; }
      // (an island held by nothing is a momentum group: not accounted, see advance)
      if (this.bodyWorked[b.index] || this.pinWorked[b.index] || hasLoad(b) || (isl < nIslands && this.grounded[isl] === 0)) worked[isl] = 1;
      if (!(b.energy[1] >= 0)) b.energy[1] = bound; // (NaN: the body's first pass)
      forwardKinematics(b.model, b.state, true);
      energiesInto(b.model, b.state, b.energy, 3);
      const o = 4 * isl;
      E[o] += b.energy[0];
      E[o + 1] += b.energy[3] + b.energy[4];
      E[o + 2] += b.energy[1];
      E[o + 3] += bound;
    }
    for (let isl = 0; isl < n; isl++) {
      const o = 4 * isl;
      const rise = E[o + 1] - E[o];
      let credit = 0; // (initialised: a variable that starts undefined boxes every double it is given)
      if (worked[isl]) credit = E[o + 3];
      else if (rise <= E[o + 2]) credit = Math.min(E[o + 3], E[o + 2] - rise);
      else {
        this.scalars[7] = rise - E[o + 2];
        this.removeEnergy(isl);
        credit = 0;
      }
      // the island's credit, shared by its bodies in proportion to their bounds
      E[o + 2] = E[o + 3] > 0 ? credit / E[o + 3] : 0;
    }
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping || b.island < 0) continue;
      b.energy[1] = E[4 * b.island + 2] * perKg * b.energy[6];
      if (b.island >= nIslands) b.island = -1; // (the account's own island: no rows)
    }
  }

  /**
   * Takes `excess` joules of kinetic energy from island isl (boundEnergy), by one factor s on every
   * body's removable motion: a body nothing pushes from outside (its momentum kept whole by
   * preserveMomenta) keeps its momentum, and only its motion relative to the rigid motion with that
   * momentum is scaled (qd <- qd_r + s (qd - qd_r): the two are M-orthogonal, so its kinetic energy
   * falls by (1 - s^2) of that motion's); any other body's velocities are scaled whole (qd <- s qd:
   * a contact at rest stays at rest, a separating one separating). Kinematics with velocities
   * of island isl's bodies must be current; they are again afterwards.
   */
  private removeEnergy(isl: number): void {
    // (the excess in scalars[7]: a double argument to a call that is not inlined is boxed)
    const excess = this.scalars[7];
    const bodies = this.byRank;
    let removable = 0;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping || b.island !== isl) continue;
      let r = b.energy[3];
      if (b.momentumTarget && b.pushCount === 0) {
        const m = b.model, qd = b.state.qd, keep = b.scratch;
        const roots = freeRootCount(m);
        if (this.energyMomenta.length < 6 * roots) this.energyMomenta = new Float64Array(6 * roots);
        freeRootCurrentMomenta(m, b.state, this.energyMomenta);
        for (let d = 0; d < m.nv; d++) keep[d] = qd[d];
        qd.fill(0);
        restoreFreeRootMomenta(m, b.state, this.energyMomenta);
        forwardKinematics(m, b.state, true);
        energiesInto(m, b.state, b.energy, 4);
        r = Math.max(0, r - b.energy[4]);
        b.rigidQd.set(qd);
        for (let d = 0; d < m.nv; d++) qd[d] = keep[d];
      } else if (b.momentumTarget && b.pushCount > 0) {
        // rows push it in pushCount world directions only (frictionless ground: vertically): its
        // linear momentum along the others is no energy to take (taking it would make the body
        // slow down sideways on ice), so that momentum is kept (rigidQd[0..2]) and its kinetic
        // energy |P_free|^2 / 2M is not removable
        this.freeMomentum(b, b.rigidQd);
        const P = b.rigidQd, M = subtreeMass(b.model, 0);
        r = Math.max(0, r - (P[0] * P[0] + P[1] * P[1] + P[2] * P[2]) / (2 * M));
      }
      b.energy[4] = r;
      removable += r;
    }
    if (!(removable > 0)) return;
    const s = Math.sqrt(Math.max(0, 1 - excess / removable));
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping || b.island !== isl) continue;
      const qd = b.state.qd, n = b.model.nv;
      if (b.momentumTarget && b.pushCount === 0) {
        const r = b.rigidQd;
        for (let d = 0; d < n; d++) qd[d] = r[d] + s * (qd[d] - r[d]);
      } else for (let d = 0; d < n; d++) qd[d] *= s;
      b.state.work.dynamicsValid = false;
      forwardKinematics(b.model, b.state, true);
      if (b.momentumTarget && b.pushCount > 0) {
        // the free directions' momentum back, by a translation of the whole body
        const P = b.rigidQd, now = this.dvScratch, M = subtreeMass(b.model, 0);
        this.freeMomentum(b, now);
        now[3] = (P[0] - now[0]) / M; now[4] = (P[1] - now[1]) / M; now[5] = (P[2] - now[2]) / M;
        now[0] = 0; now[1] = 0; now[2] = 0;
        addRootVelocityWorld(b.model, b.state, 0, now);
        forwardKinematics(b.model, b.state, true);
      }
    }
    this.scalars[6] += Math.min(excess, removable);
  }

  /**
   * out[0..2] = the linear momentum of free tree b (kinematics with velocities current) less its
   * components along the directions its rows push in (Body.pushDirections, pushCount of them).
   */
  private freeMomentum(b: Body, out: Float64Array): void {
    freeRootCurrentMomenta(b.model, b.state, this.momentumNow);
    let x = this.momentumNow[3], y = this.momentumNow[4], z = this.momentumNow[5];
    const D = b.pushDirections!;
    for (let k = 0; k < b.pushCount; k++) {
      const p = x * D[3 * k] + y * D[3 * k + 1] + z * D[3 * k + 2];
      x -= p * D[3 * k]; y -= p * D[3 * k + 1]; z -= p * D[3 * k + 2];
    }
    out[0] = x; out[1] = y; out[2] = z;
  }

  /**
   * Semi-implicit Euler in reduced coordinates drifts a free body's momentum by O(h) when its joints
   * move (featherstone momentum-correction.ts). A free body that no row acted on gets its full
   * momentum back (root velocity corrected); one that rows acted on gets back only the linear
   * momentum along the world directions that none of its active point rows could push in (e.g.
   * horizontally on frictionless ground), by a translation of the whole body.
   */
  private preserveMomenta(rows: RowBuffer, h: number): void {
    for (let bi = 0; bi < this.bodies.length; bi++) {
      const b = this.bodies[bi];
      if (b.sleeping || !b.momentumTarget) continue;
      // the directions the step's rows push it in, found at the step's start (the rows are the same)
      const nd = b.pushCount;
      if (nd < 0) continue; // blocked: the step's start did not compute the momenta either
      // target = momentum at the start + h * external force (momentumTarget holds the force here)
      const target = b.momentumTarget;
      for (let e = 0; e < 6; e++) target[e] = b.momentumStart![e] + h * target[e];
      if (nd === 0) { restoreFreeRootMomenta(b.model, b.state, b.momentumTarget); continue; }
      const D = b.pushDirections!;
      forwardKinematics(b.model, b.state, true);
      freeRootCurrentMomenta(b.model, b.state, this.momentumNow);
      let x = b.momentumTarget[3] - this.momentumNow[3], y = b.momentumTarget[4] - this.momentumNow[4], z = b.momentumTarget[5] - this.momentumNow[5];
      for (let k = 0; k < nd; k++) {
        const p = x * D[3 * k] + y * D[3 * k + 1] + z * D[3 * k + 2];
        x -= p * D[3 * k]; y -= p * D[3 * k + 1]; z -= p * D[3 * k + 2];
      }
      const m = subtreeMass(b.model, 0);
      const dv = this.dvScratch;
      dv[0] = 0; dv[1] = 0; dv[2] = 0; dv[3] = x / m; dv[4] = y / m; dv[5] = z / m;
      addRootVelocityWorld(b.model, b.state, 0, dv);
    }
  }

  /** Per body, its momentum group in the current pass (conserveGroupMomenta), or -1. */
  private groupOf = new Int32Array(8);
  /** Per island, whether it is held from outside (a row to the world or a body not on one free root). */
  private grounded = new Uint8Array(8);
  /** Per group, GROUP_STRIDE sums (conserveGroupMomenta). */
  private groupSums = new Float64Array(8 * GROUP_STRIDE);
  private groupH = new Float64Array(6);
  private groupC = new Float64Array(4);
  private groupI = new Float64Array(36);

  /** At the start of a pass, each awake free tree's momentum, external wrench and centre of mass (Body.passMomentum). */
  private passMomenta(): void {
    const bodies = this.bodies;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping || !b.freeTree) continue;
      // the accelerations without any row force, and without the gyroscopic change (an internal
      // force, see preserveMomenta): the rate of momentum they give is the external wrench
      const x = b.scratch;
      for (let d = 0; d < b.model.nv; d++) x[d] = b.qdd0[d] - b.gyroDelta[d];
      freeRootMomenta(b.model, b.state, x, 0, b.passMomentum);
      freeRootMomenta(b.model, b.state, x, 1, b.passWrench);
      for (let e = 0; e < 6; e++) b.passWrench[e] -= b.passMomentum[e];
      centerOfMass(b.model, b.state, b.passCom);
    }
  }

  /**
   * Momentum of a group of bodies that nothing holds from outside: an island whose rows all run
   * between its own free trees (contacts, pins, limits on non-root joints), or a free tree that no
   * row touches. Its rows act equal and opposite on its bodies, so over the pass its linear
   * momentum P changes by h F and its angular momentum about its centre of mass L by h tau (F, tau
   * the external wrench at the pass's start: gravity, applied forces), and its centre of mass
   * moves by h P / M (semi-implicit Euler of the centre of mass). Integration in reduced
   * coordinates does not keep that for a tree whose joints move (momentum-correction.ts), and
   * post-stabilisation moves each body's q with its qd held, which changes a tree's momentum too;
   * preserveMomenta restores each body's own momentum only along the directions no row pushed it
   * in. Here the group as a whole gets back P, its centre of mass, and (for a group of several
   * bodies or a tree of several links; a lone rigid body keeps the integrator's) L, by one rigid
   * motion of all its bodies: a common translation and a common twist about the centre of mass.
   * A rigid motion of the whole group changes no relative position or velocity of its bodies, so
   * what the solver and stabilisation made of the rows between them is kept.
   */
  private conserveGroupMomenta(h: number, n: number): void {
    // (n groups, as momentumGroups found them for this pass)
    if (n === 0) return;
    if (this.groupSums.length < n * GROUP_STRIDE) this.groupSums = new Float64Array(2 * n * GROUP_STRIDE);
    this.groupSums.fill(0, 0, n * GROUP_STRIDE);
    const bodies = this.bodies, byRank = this.byRank, groupOf = this.groupOf;
    // (in canonical order: the sums do not depend on the order bodies were added in)
    for (let r = 0; r < byRank.length; r++) {
      const g = groupOf[byRank[r].index];
      if (g >= 0) this.addGroupSums(byRank[r], g * GROUP_STRIDE);
    }
    this.scalar[0] = h;
    for (let g = 0; g < n; g++) if (this.groupSums[g * GROUP_STRIDE + 34] > 0) this.groupMotion(g * GROUP_STRIDE);
    for (let bi = 0; bi < bodies.length; bi++) if (groupOf[bi] >= 0) this.moveWithGroup(bodies[bi], groupOf[bi] * GROUP_STRIDE);
  }

  /** Each body's momentum group (groupOf: an island held by nothing, or a free tree alone; -1 for none); returns their number (0 when no body has one). */
  private momentumGroups(rows: RowBuffer, nIslands: number): number {
    const bodies = this.bodies, nb = bodies.length;
    if (this.groupOf.length < nb) this.groupOf = new Int32Array(2 * nb);
    if (this.grounded.length < nIslands) this.grounded = new Uint8Array(2 * nIslands);
    const groupOf = this.groupOf, grounded = this.grounded;
    for (let isl = 0; isl < nIslands; isl++) {
      let held = 0;
      for (let k = this.islandStart[isl]; k < this.islandStart[isl + 1] && held === 0; k++) {
        const j = this.islandRows[k];
        if (rows.bodyB[j] >= 0) continue; // between two bodies (or within one)
        const type = rows.type[j];
        if (type === RowType.Point || type === RowType.Angular) held = 1; // to the world
        else if (this.actsOnRoot(rows, j, bodies[rows.bodyA[j]])) held = 1; // a joint row on a root's own dofs
      }
      grounded[isl] = held;
    }
    for (let bi = 0; bi < nb; bi++) { const b = bodies[bi]; if (!b.sleeping && !b.freeTree && b.island >= 0) grounded[b.island] = 1; }
    let n = nIslands, members = 0;
    for (let bi = 0; bi < nb; bi++) {
      const b = bodies[bi];
      if (b.sleeping || !b.freeTree) groupOf[bi] = -1;
      else if (b.island >= 0) groupOf[bi] = grounded[b.island] === 1 ? -1 : b.island;
      else groupOf[bi] = n++;
      if (groupOf[bi] >= 0) members++;
    }
    // (none: a world on the ground does no more here, step after step)
    return members > 0 ? n : 0;
  }

  /**
   * Adds body b to the sums of its group at o: mass, first moment, momentum and external wrench
   * at the pass's start about the world origin; momentum about the origin, first moment and
   * rotational inertia about the origin now; and 1 for a rigid body, 2 for a tree.
   */
  private addGroupSums(b: Body, o: number): void {
    const S = this.groupSums, H = this.groupH, C = this.groupC, I = this.groupI;
    forwardKinematics(b.model, b.state, true);
    subtreeMomentumAndInertia(b.model, b.state, 0, H, C, I);
    const m = C[3];
    const c = b.passCom, p = b.passMomentum, w = b.passWrench;
    S[o] += m;
    S[o + 1] += m * c[0]; S[o + 2] += m * c[1]; S[o + 3] += m * c[2];
    S[o + 4] += p[0] + (c[1] * p[5] - c[2] * p[4]);
    S[o + 5] += p[1] + (c[2] * p[3] - c[0] * p[5]);
    S[o + 6] += p[2] + (c[0] * p[4] - c[1] * p[3]);
    S[o + 7] += p[3]; S[o + 8] += p[4]; S[o + 9] += p[5];
    S[o + 10] += w[0] + (c[1] * w[5] - c[2] * w[4]);
    S[o + 11] += w[1] + (c[2] * w[3] - c[0] * w[5]);
    S[o + 12] += w[2] + (c[0] * w[4] - c[1] * w[3]);
    S[o + 13] += w[3]; S[o + 14] += w[4]; S[o + 15] += w[5];
    for (let e = 0; e < 6; e++) S[o + 16 + e] += H[e];
    S[o + 22] += m * C[0]; S[o + 23] += m * C[1]; S[o + 24] += m * C[2];
    for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) S[o + 25 + 3 * r + k] += I[6 * r + k];
    S[o + 34] += b.rigid ? 1 : 2;
  }

  /**
   * From the sums of the group at o, the rigid motion that restores it (conserveGroupMomenta),
   * written over them: the twist at the world origin (angular, then the velocity of the point at
   * the origin) at o..o+5, the translation at o+6..o+8; o+35 is 1 when the group is left alone.
   * The step length is in scalars[0] (a double argument would be boxed).
   */
  private groupMotion(o: number): void {
    const S = this.groupSums, h = this.scalar[0], M = S[o];
    if (!(M > 0)) { S[o + 35] = 1; return; }
    // start: centre of mass, linear momentum, external force
    const csx = S[o + 1] / M, csy = S[o + 2] / M, csz = S[o + 3] / M;
    const px = S[o + 7], py = S[o + 8], pz = S[o + 9], fx = S[o + 13], fy = S[o + 14], fz = S[o + 15];
    // targets: P + h F; L about the centre of mass + h tau about it; the centre of mass + h P' / M
    const tx = px + h * fx, ty = py + h * fy, tz = pz + h * fz;
    const lx = S[o + 4] - (csy * pz - csz * py) + h * (S[o + 10] - (csy * fz - csz * fy));
    const ly = S[o + 5] - (csz * px - csx * pz) + h * (S[o + 11] - (csz * fx - csx * fz));
    const lz = S[o + 6] - (csx * py - csy * px) + h * (S[o + 12] - (csx * fy - csy * fx));
    // now: centre of mass, linear momentum, angular momentum about the centre of mass less its target
    const cx = S[o + 22] / M, cy = S[o + 23] / M, cz = S[o + 24] / M;
    const nx = S[o + 19], ny = S[o + 20], nz = S[o + 21];
    const ax = S[o + 16] - (cy * nz - cz * ny) - lx, ay = S[o + 17] - (cz * nx - cx * nz) - ly, az = S[o + 18] - (cx * ny - cy * nx) - lz;
    // the translation that puts the centre of mass where the target momentum takes it
    S[o + 6] = csx + (h * tx) / M - cx; S[o + 7] = csy + (h * ty) / M - cy; S[o + 8] = csz + (h * tz) / M - cz;
    // linear: a common velocity u = dP / M (at o + 3..5 until the twist is complete)
    S[o + 3] = (tx - nx) / M; S[o + 4] = (ty - ny) / M; S[o + 5] = (tz - nz) / M;
    S[o] = 0; S[o + 1] = 0; S[o + 2] = 0;
    if (S[o + 34] > 1) {
      // angular: w = -I_c^-1 (L_now - L_target), I_c = I_o - M (|c|^2 1 - c c^T) about the present centre of mass
      const c2 = cx * cx + cy * cy + cz * cz;
      const a = S[o + 25] - M * (c2 - cx * cx), b = S[o + 26] + M * cx * cy, c = S[o + 27] + M * cx * cz;
      const d = S[o + 29] - M * (c2 - cy * cy), e = S[o + 30] + M * cy * cz, f = S[o + 33] - M * (c2 - cz * cz);
      const A00 = d * f - e * e, A01 = c * e - b * f, A02 = b * e - c * d;
      const A11 = a * f - c * c, A12 = b * c - a * e, A22 = a * d - b * b;
      const det = a * A00 + b * A01 + c * A02;
      if (det > 0) {
        S[o] = -(A00 * ax + A01 * ay + A02 * az) / det;
        S[o + 1] = -(A01 * ax + A11 * ay + A12 * az) / det;
        S[o + 2] = -(A02 * ax + A12 * ay + A22 * az) / det;
      }
    }
    // the twist at the world origin: v(x) = u + w x (x - c), so v(0) = u - w x c
    const wx = S[o], wy = S[o + 1], wz = S[o + 2];
    S[o + 3] -= wy * cz - wz * cy; S[o + 4] -= wz * cx - wx * cz; S[o + 5] -= wx * cy - wy * cx;
  }

  /** Moves body b with its group's rigid motion at o (the twist at its poses of addGroupSums, then the translation). */
  private moveWithGroup(b: Body, o: number): void {
    const S = this.groupSums;
    if (S[o + 35] !== 0) return;
    const dv = this.dvScratch;
    for (let e = 0; e < 6; e++) dv[e] = S[o + e];
    addRootVelocityWorld(b.model, b.state, 0, dv);
    const q = b.state.q, qo = b.model.qOffset[0];
    q[qo] += S[o + 6]; q[qo + 1] += S[o + 7]; q[qo + 2] += S[o + 8];
    b.state.work.dynamicsValid = false;
  }

  /**
   * The directions in which the step's rows push body b from outside, orthonormalised into
   * b.pushDirections: their number (0: nothing pushes it, its momentum is kept whole), or -1 when they
   * block it (three independent directions, an angular row to another body or the world, or a
   * joint row on the root's own dofs): nothing of its momentum is kept then.
   */
  private rowDirections(rows: RowBuffer, b: Body): number {
    let nd = 0;
    const D = b.pushDirections!;
    if (b.island < 0) return 0;
    // the body's rows are among its island's (in the order of the row buffer)
    for (let k = this.islandStart[b.island]; k < this.islandStart[b.island + 1]; k++) {
      const j = this.islandRows[k];
      if (rows.bodyA[j] !== b.index && rows.bodyB[j] !== b.index) continue;
      if (rows.bodyA[j] === rows.bodyB[j]) continue; // internal to the body: no net force
      if (rows.type[j] !== RowType.Point) {
        // an angular row to the world, or a joint row on the root's own dofs, can push the whole body
        if (rows.type[j] === RowType.Angular || this.actsOnRoot(rows, j, b)) return -1;
        continue;
      }
      let x = rows.dir[3 * j], y = rows.dir[3 * j + 1], z = rows.dir[3 * j + 2];
      for (let k = 0; k < nd; k++) {
        const p = x * D[3 * k] + y * D[3 * k + 1] + z * D[3 * k + 2];
        x -= p * D[3 * k]; y -= p * D[3 * k + 1]; z -= p * D[3 * k + 2];
      }
      const n = Math.sqrt(x * x + y * y + z * z);
      if (n > 1e-9) { D[3 * nd] = x / n; D[3 * nd + 1] = y / n; D[3 * nd + 2] = z / n; nd++; }
      if (nd === 3) return -1;
    }
    return nd;
  }

  /** Whether a joint row acts on the free root's own dofs (then it can push the whole body). */
  private actsOnRoot(rows: RowBuffer, j: number, b: Body): boolean {
    if (rows.type[j] === RowType.Joint) return b.model.dofLink[rows.dof[j]] === 0;
    return rows.linkA[j] === 0;
  }

  /**
   * How deep the tentative state violates the unilateral rows of the step (contacts, limits),
   * measured exactly through the rows' position measures: every contact the step could make is
   * among them (speculative margins), so a body that would pass a thin wall is caught too. Returned
   * as the worst ratio of a violation to its tolerance (contacts: backtrackTolerance; sources, such
   * as joint limits, their own), so the step is halved above 1. The result goes to scalars[2]
   * (a field: a returned double would be boxed on the heap).
   */
  private violation(rows: RowBuffer, ctx: StepContext): void {
    const bodies = this.bodies;
    if (this.checkedPosition.length < rows.count) this.checkedPosition = new Float64Array(rows.capacity);
    let checked = false;
    let worst = 0;
    // sources that judge the tentative state themselves (conditions their rows do not measure exactly)
    for (const src of this.sources) {
      if (!src.violation) continue;
      if (!checked) { this.awakeKinematics(true); checked = true; }
      src.violation(ctx, this.scalar);
      const v = this.scalar[0] / (src.backtrackTolerance ?? this.backtrackTolerance);
      if (v > worst) worst = v;
    }
    const limitTolerance = this.limits.backtrackTolerance;
    for (let j = 0; j < rows.count; j++) {
      const tag = rows.tag[j];
      if (tag !== RowTag.Contact && tag !== RowTag.Limit) continue;
      const off = rows.offset[j];
      if (off !== off) continue;
      if (!checked) { this.awakeKinematics(true); checked = true; }
      rowPositionInto(rows, j, bodies, this.checkedPosition, j);
      const g = (this.checkedPosition[j] + off) / (tag === RowTag.Limit ? limitTolerance : this.backtrackTolerance);
      if (-g > worst) worst = -g;
    }
    this.scalars[2] = worst;
    this.positionsChecked = checked;
  }

  /** buildIslands for a world of one body: its rows, in order, are the one island (none without rows). */
  private oneIsland(rows: RowBuffer): number {
    const count = rows.count;
    if (this.islandStart.length < 2) this.islandStart = new Int32Array(2);
    if (this.islandRows.length < count) this.islandRows = new Int32Array(2 * count);
    for (let j = 0; j < count; j++) this.islandRows[j] = j;
    this.islandStart[0] = 0;
    this.islandStart[1] = count;
    this.bodies[0].island = count > 0 ? 0 : -1;
    return count > 0 ? 1 : 0;
  }

  /** Groups rows by island (bodies linked by two-body rows). Returns the island count. */
  private buildIslands(rows: RowBuffer): number {
    const nb = this.bodies.length;
    if (this.islandOf.length < nb) {
      this.islandOf = new Int32Array(2 * nb);
      this.islandId = new Int32Array(2 * nb);
      this.islandCount = new Int32Array(2 * nb);
    }
    if (nb === 1) return this.oneIsland(rows);
    const parent = this.islandOf, id = this.islandId, countByRoot = this.islandCount;
    for (let b = 0; b < nb; b++) { parent[b] = b; id[b] = -1; countByRoot[b] = 0; }
    for (let j = 0; j < rows.count; j++) {
      const b = rows.bodyB[j];
      if (b >= 0) {
        const ra = this.islandRoot(rows.bodyA[j]), rb = this.islandRoot(b);
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
    }
    // every body's root, once (parent[] holds it from here on: each entry points at its root)
    for (let b = 0; b < nb; b++) parent[b] = this.islandRoot(b);
    // island index per root with rows, in order of the smallest body index (deterministic)
    let n = 0;
    const count = rows.count, bodyA = rows.bodyA;
    for (let j = 0; j < count; j++) countByRoot[parent[bodyA[j]]]++;
    for (let b = 0; b < nb; b++) if (parent[b] === b && countByRoot[b] > 0) id[b] = n++;
    if (this.islandStart.length < n + 1) this.islandStart = new Int32Array(2 * n + 1);
    if (this.islandRows.length < count) this.islandRows = new Int32Array(2 * count);
    const start = this.islandStart, islandRows = this.islandRows;
    start.fill(0, 0, n + 1);
    for (let b = 0; b < nb; b++) {
      const r = parent[b];
      this.bodies[b].island = countByRoot[r] > 0 ? id[r] : -1;
      // (rows per island, from the rows per root)
      if (r === b && countByRoot[b] > 0) start[id[b] + 1] = countByRoot[b];
    }
    for (let k = 0; k < n; k++) start[k + 1] += start[k];
    // countByRoot becomes the fill cursor of each island
    for (let k = 0; k < n; k++) countByRoot[k] = start[k];
    for (let j = 0; j < count; j++) islandRows[countByRoot[id[parent[bodyA[j]]]]++] = j;
    return n;
  }

  /** Forward kinematics (with velocities when asked) of every awake body. */
  private awakeKinematics(withVelocities: boolean): void {
    const bodies = this.bodies;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping) continue;
      // (a state the last kinematics with velocities saw, step after step when nothing moved the
      // body after the position check of the step before: its work arrays hold the same numbers)
      if (withVelocities && sameNumbers(b.kinematicsQ, b.state.q) && sameNumbers(b.kinematicsQd, b.state.qd)) continue;
      forwardKinematics(b.model, b.state, withVelocities);
      if (withVelocities) { b.kinematicsQ.set(b.state.q); b.kinematicsQd.set(b.state.qd); }
    }
  }

  /** Root of body x in the union-find of buildIslands (with path halving). */
  private islandRoot(x: number): number {
    const parent = this.islandOf;
    while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; }
    return x;
  }

  /**
   * Solves island `isl`: K by AccelerationDeltas, an impact if a row hits, then the acceleration
   * LCP by PGS, warm-started from the previous step's forces.
   *
   * An island solved implicitly (ConstraintSolver.buildImplicit) first has its warm forces
   * measured, all at once, through one O(n) AccelerationDeltas pass per body and no K
   * (ConstraintSolver.checkForces); when no row's natural-map residual can exceed the tolerance,
   * those forces are the answer and K is not built (a body at rest, about half its steps). This is
   * tried when the island's bodies say it may hold (Body.checkWarmStart): after a solve of at most
   * one sweep, or a check passed with room to spare. Otherwise K is built and the sweeps run from
   * the forces reached. Nothing of K outlives the step: the next step reads only the forces.
   */
  private solveIsland(rows: RowBuffer, isl: number, h: number): void {
    const st = this.stats;
    const bodies = this.bodies;
    const solver = this.solver, options = this.solverOptions;
    const start = this.islandStart[isl], count = this.islandStart[isl + 1] - start;
    let t0 = this.clock();
    solver.setRows(rows, this.islandRows, count, bodies, start);
    const impact = this.needsImpact(rows, solver);
    const check = !impact && !solver.dense && this.kMethod === 'deltas' && this.checksWarmStart(solver);
    if (check) solver.measure(rows, bodies);
    else solver.buildK(rows, bodies, this.kMethod);
    let t1 = this.clock();
    st.ms.k += t1 - t0;
    if (impact) {
      this.solveImpacts(rows);
      st.impacts++;
      // an impact with restitution gives energy back on purpose: outside the energy account
      for (let k = 0; k < solver.nBodies; k++) this.bodyWorked[solver.bodyList[k]] = 1;
      // new velocities: new velocity-product terms and row velocities (K depends on q only)
      solver.dynamics(bodies);
      for (let c = 0; c < solver.m; c++) {
        const j = solver.rowAt(c);
        rowVelocityInto(rows, j, bodies, rows.velocity, j);
      }
    }
    this.setDesired(rows, solver, h);
    solver.setAccelerationRhs(rows, bodies, h);
    const tol = options.tolerance ?? 1e-9;
    let holds: boolean;
    const held = check && solver.checkForces(rows, bodies, rows.force, options);
    if (held) {
      solver.applyCheckedForces(bodies);
      st.residual = Math.max(st.residual, solver.checkResult.residual);
      // at rest a set of forces that held drifts off by a few times its residual a step: with less
      // than half the tolerance to spare, the next step builds K at once
      holds = solver.checkResult.residual <= 0.5 * tol;
    } else {
      if (check) {
        t0 = this.clock();
        solver.buildK(rows, bodies, this.kMethod);
        const t = this.clock() - t0;
        st.ms.k += t;
        t1 += t;
      }
      const r = solver.solve(rows, options, true);
      st.iterations = Math.max(st.iterations, r.iterations);
      st.residual = Math.max(st.residual, r.residual);
      solver.combine(bodies, 'qdd');
      holds = r.iterations <= 1;
    }
    for (let k = 0; k < solver.nBodies; k++) bodies[solver.bodyList[k]].checkWarmStart = holds;
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      if (rows.key[j] !== -1 && this.warmStart) this.warmSlot[j] = this.warm.set(rows.key[j], rows.force[j]);
    }
    st.ms.solve += this.clock() - t1;
  }

  /** Whether every body of the solver's island says its warm forces may hold (Body.checkWarmStart). */
  private checksWarmStart(solver: ConstraintSolver): boolean {
    for (let k = 0; k < solver.nBodies; k++) if (!this.bodies[solver.bodyList[k]].checkWarmStart) return false;
    return true;
  }

  /** Desired acceleration-level measures of position rows (see the module comment). */
  private setDesired(rows: RowBuffer, solver: ConstraintSolver, h: number): void {
    const alpha = this.stabilization === 'baumgarte' ? this.baumgarteAlpha : 0;
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      const tag = rows.tag[j];
      const v = rows.velocity[j], g = rows.error[j];
      if (tag === RowTag.Pin) rows.desired[j] = -(v + alpha * g) / h;
      else if (tag === RowTag.Limit || tag === RowTag.Contact) {
        if (g <= 0) rows.desired[j] = -(v + alpha * g) / h;
        else if (rows.restitution[j] > 0) {
          // a bouncing row stays open until it closes, so the impact sees the true approach speed
          // (backtracking bounds how far the step may overshoot)
          rows.desired[j] = 0;
          rows.setBounds(j, 0, 0);
        } else rows.desired[j] = -(v + g / h) / h;
      } else if (tag === RowTag.Friction) rows.desired[j] = -v / h;
    }
  }

  private needsImpact(rows: RowBuffer, solver: ConstraintSolver): boolean {
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      const tag = rows.tag[j];
      // rows without restitution need no impulse: their velocity-level acceleration row stops the
      // approach within the step; only bouncing rows take the impact path
      if ((tag === RowTag.Limit || tag === RowTag.Contact) && rows.restitution[j] > 0 && rows.error[j] <= 1e-3 && rows.velocity[j] < -this.impactThreshold) return true;
    }
    return false;
  }

  /**
   * Impact LCP at the velocity level (Kokkevis section 5): K p + (v - v_desired) with v_desired =
   * -e v for rows hitting, 0 for touching unilateral rows and pins, 0 for friction (bounded by mu
   * times the normal impulse); drives and motors take no impulse; open unilateral rows stay out.
   */
  private solveImpacts(rows: RowBuffer): void {
    const solver = this.solver;
    if (this.rhs.length < rows.count) this.rhs = new Float64Array(2 * rows.capacity);
    const rhs = this.rhs;
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      const tag = rows.tag[j], v = rows.velocity[j];
      if (tag === RowTag.Limit || tag === RowTag.Contact) {
        if (rows.error[j] > 1e-3) rhs[j] = Math.max(v, 0) + 1; // open: no impulse needed
        else rhs[j] = v < -this.impactThreshold ? v * (1 + rows.restitution[j]) : v;
      } else if (isPrescribedRow(rows, j)) rhs[j] = 0; // a kinematic joint keeps its velocity (kinematic.ts)
      else rhs[j] = v;
    }
    solver.setRhs(rows, rhs);
    for (let c = 0; c < solver.m; c++) {
      const tag = rows.tag[solver.rowAt(c)];
      if ((tag === RowTag.Drive || tag === RowTag.Motor) && !isPrescribedRow(rows, solver.rowAt(c))) { solver.lo[c] = 0; solver.hi[c] = 0; }
    }
    const saved = this.saveForces(rows);
    solver.solve(rows, this.solverOptions, false);
    solver.combine(this.bodies, 'qd');
    if (this.events) this.events.impacts(rows, solver.m, this.rowAtOf);
    this.restoreForces(rows, saved);
  }

  /** solver.rowAt as a function made once (handed to the event recorder). */
  private readonly rowAtOf = (c: number): number => this.solver.rowAt(c);

  private forceScratch = new Float64Array(64);
  private saveForces(rows: RowBuffer): Float64Array {
    if (this.forceScratch.length < rows.count) this.forceScratch = new Float64Array(2 * rows.capacity);
    this.forceScratch.set(rows.force.subarray(0, rows.count));
    return this.forceScratch;
  }
  private restoreForces(rows: RowBuffer, saved: Float64Array): void {
    rows.force.set(saved.subarray(0, rows.count));
  }

  /** q of the bodies before a further post-stabilisation pass (postStabilize), by body index. */
  private stabSaved: Float64Array[] = [];

  /** Body b's buffer in stabSaved (made when b is new at its index). */
  private stabSavedQ(b: Body): Float64Array {
    let q = this.stabSaved[b.index];
    if (q === undefined || q.length !== b.model.nq) q = this.stabSaved[b.index] = new Float64Array(b.model.nq);
    return q;
  }

  /**
   * Post-stabilisation (Cline thesis 3.4, eq. 3.7 in reduced coordinates): with the position errors
   * g of pins, limits and contacts at the new positions, solve K lambda + g = g+ (g+ = 0 for pins,
   * g+ >= 0 complementary to lambda >= 0 for unilateral rows) and move q by dq = M^-1 J^T lambda =
   * sum_i lambda_i dqdd_i: the mass-weighted least change that removes the drift. The rows are the
   * step's own; their errors at the new positions are exact for point rows and 1-dof joint rows
   * (through the offsets kept at their creation) and first-order (g + h v) for the others.
   * Velocities are left as they are (as in the thesis): the next step's velocity-level rows remove
   * any approach the correction leaves.
   */
  private postStabilize(h: number, nIslands: number): void {
    const st = this.stats;
    const bodies = this.bodies;
    const rows = this.rows;
    if (this.rhs.length < rows.capacity) this.rhs = new Float64Array(rows.capacity);
    if (this.gNew.length < rows.capacity) this.gNew = new Float64Array(rows.capacity);
    if (this.stabForce.length < rows.capacity) this.stabForce = new Float64Array(rows.capacity);
    if (this.stabRows.length < rows.capacity) this.stabRows = new Int32Array(rows.capacity);
    const g = this.gNew;
    for (let pass = 0; pass < this.stabilizationPasses; pass++) {
      const checked = pass === 0 && this.positionsChecked;
      if (!checked) this.awakeKinematics(true);
      let moved = false;
      // island by island: an island whose rows all sit within their slop is left alone
      for (let isl = 0; isl < nIslands; isl++) {
        let worst = 0;
        let n = 0;
        for (let k = this.islandStart[isl]; k < this.islandStart[isl + 1]; k++) {
          const j = this.islandRows[k];
          const tag = rows.tag[j];
          if (tag !== RowTag.Pin && tag !== RowTag.Limit && tag !== RowTag.Contact) {
            // kinematic joints take part unmoved (the correction moves only simulated joints)
            if (this.kinematicBodies > 0 && isPrescribedRow(rows, j)) { g[j] = 0; this.stabRows[n++] = j; }
            continue;
          }
          const off = rows.offset[j];
          if (off === off) {
            if (checked && tag !== RowTag.Pin) g[j] = this.checkedPosition[j];
            else rowPositionInto(rows, j, bodies, g, j);
            g[j] += off;
          }
          else if (pass > 0) {
            // after a correction the row's linear prediction (below) is stale and would correct
            // the same error twice: a spherical stop by its exact gap, any other such row held
            // where it stands
            if (!(tag === RowTag.Limit && sphericalLimitGapInto(rows, j, bodies[rows.bodyA[j]], g, j))) g[j] = 0;
          }
          else { rowVelocityInto(rows, j, bodies, g, j); g[j] = rows.error[j] + h * g[j]; }
          // contacts and limits may overlap by their slop without correction (they stay in touch
          // from step to step); a correction aims at half the slop
          const slop = tag === RowTag.Contact ? this.contactSlop : tag === RowTag.Limit ? this.limitSlop : 0;
          const bad = tag === RowTag.Pin ? Math.abs(g[j]) : -g[j] - slop;
          if (bad > worst) worst = bad;
          g[j] += 0.5 * slop;
          this.stabRows[n++] = j;
        }
        if (pass === 0) st.errorBefore = Math.max(st.errorBefore, worst);
        if (worst <= this.stabilizationTolerance || n === 0) {
          if (pass === this.stabilizationPasses - 1) st.errorAfter = Math.max(st.errorAfter, worst);
          continue;
        }
        const solver = this.solver;
        solver.setRows(rows, this.stabRows, n, bodies);
        solver.dynamics(bodies);
        solver.buildK(rows, bodies, this.kMethod);
        for (let c = 0; c < solver.m; c++) { const j = solver.rowAt(c); this.rhs[j] = g[j]; }
        solver.setRhs(rows, this.rhs);
        solver.solve(rows, this.stabOptions, false, this.stabForce);
        solver.combine(bodies, 'dq');
        for (let k = 0; k < solver.nBodies; k++) {
          const b = bodies[solver.bodyList[k]];
          if (pass > 0) this.stabSavedQ(b).set(b.state.q);
          integratePositions(b.model, b.state.q, b.scratch, 1);
          b.state.work.dynamicsValid = false;
          forwardKinematics(b.model, b.state, true);
        }
        moved = true;
        if (pass > 0 || pass === this.stabilizationPasses - 1) {
          let after = 0;
          for (let c = 0; c < solver.m; c++) {
            const j = solver.rowAt(c);
            const tag = rows.tag[j];
            const off = rows.offset[j];
            // (rows measured exactly at their offsets, a spherical limit's stop by its exact gap;
            // other rows by their measure before the correction)
            let gj = g[j];
            if (off === off) { rowPositionInto(rows, j, bodies, this.scalar, 0); gj = this.scalar[0] + off; }
            else if (tag === RowTag.Limit && sphericalLimitGapInto(rows, j, bodies[rows.bodyA[j]], this.scalar, 0)) gj = this.scalar[0];
            after = Math.max(after, tag === RowTag.Pin ? Math.abs(gj) : tag === RowTag.Contact ? -gj - this.contactSlop : tag === RowTag.Limit ? -gj - this.limitSlop : -gj);
          }
          if (pass > 0 && after > worst) {
            // a further Newton step that leaves a larger error than it found (the geometry of the
            // contacts turned under it) is undone
            for (let k = 0; k < solver.nBodies; k++) {
              const b = bodies[solver.bodyList[k]];
              b.state.q.set(this.stabSavedQ(b));
              forwardKinematics(b.model, b.state, true);
            }
            after = worst;
          }
          if (pass === this.stabilizationPasses - 1) st.errorAfter = Math.max(st.errorAfter, after);
        }
      }
      if (!moved) break;
    }
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
    let changed = this.queryTime[0] !== this.scalars[0] || this.queryQ.length !== bodies.length || this.collision.needsUpdate;
    if (this.queryQ.length !== bodies.length) this.queryQ = bodies.map((b) => new Float64Array(b.state.q.length).fill(NaN));
    for (let bi = 0; bi < bodies.length && !changed; bi++) changed = !sameNumbers(this.queryQ[bi], bodies[bi].state.q);
    if (!changed && this.collision.shapeCount > 0) return;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      forwardKinematics(b.model, b.state, false);
      this.queryQ[bi].set(b.state.q);
      this.collision.setBodyResting(b.index, b.sleeping);
    }
    this.queryTime[0] = this.scalars[0];
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
    if (this.events !== null) { this.contactForces(this.debugForce); return; }
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
