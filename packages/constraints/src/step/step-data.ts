/**
 * The step's data: what World.step hands from stage to stage (step/*.ts), in one object made once
 * per World. The stages are functions of it; World keeps only what the game sees and sets.
 *
 * It holds references to the World's own bodies, sources, rows and solver (the same objects, not
 * copies), the settings as the game set them (StepSettings, read at each use), and the scratch
 * of every stage, grouped below by the stage that writes it. Per-step numbers live in typed arrays:
 * a double written to an object's field may be put on the heap at every write (always, once the
 * engine has seen two Worlds disagree on the field's representation), a typed array's slot never is.
 */
import type { Body } from '../body.js';
import type { ContactEventRecorder } from '../events.js';
import type { WorldSettings } from '../world-settings.js';
import type { PgsOptions } from '../lcp/pgs.js';
import type { LimitEventRecorder } from '../limit-events.js';
import type { RowBuffer } from '../rows/row-buffer.js';
import type { ConstraintSolver, KMethod } from '../solver/constraint-solver.js';
import { WarmStartTable } from '../solver/warm-start.js';
import type { ContactSource } from '../sources/contacts.js';
import type { JointLimits } from '../sources/joint-limits.js';
import { HingePin, PointPin } from '../sources/pin.js';
import type { ConstraintSource } from '../sources/source.js';

/** How position drift is removed after a step: 'post' (post-stabilisation), 'baumgarte' (a velocity bias) or 'none'. */
export type StabilizationMode = 'post' | 'baumgarte' | 'none';

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
  /** Kinetic energy (J) the energy account took from islands in the step (step/energy-account.ts boundEnergy). */
  energyRemoved: number;
  /**
   * Passes undone for an island held by nothing (bodies in flight) whose pass failed the energy
   * account (step/energy-account.ts undoPass): its bodies went back to the pass's start and moved
   * as one rigid body by their momentum.
   */
  undone: number;
  /** Post-stabilisation steps that would have moved a link further than their reach and were scaled down (step/stabilize.ts MAX_MOVE). */
  stabilizationHeld: number;
  /** Joints held at their stops' backtracking tolerance after a pass that took its length unchecked (the last of a sub-step, or past maxHalvings; step/backtrack.ts). */
  stopsHeld: number;
  /** Times the step was taken again from its start in twice the sub-steps because a pin opened or a pinned body's joint went past its stops (step/load-check.ts; only when the world chooses the sub-steps). */
  loadRetakes: number;
  /** Island solves whose sweeps failed (a residual above 100 m/s^2) and were solved again in two convex parts (ConstraintSolver.solveStaggered). */
  staggered: number;
}

/** The settings the stages read (World.settings). */
export type StepSettings = WorldSettings;

/** Numbers per momentum group in StepData.groupSums (momentum.ts). */
export const GROUP_STRIDE = 36;

/** The World's objects a StepData refers to (the same objects, by the same names), and its wake(). */
export type StepWorld = Pick<StepData, 'bodies' | 'sources' | 'limits' | 'contacts' | 'gravity' | 'rows' | 'solver' | 'stats' | 'wake'>;

/** The step's data (see the module comment). */
export class StepData {
  readonly bodies: Body[];
  readonly sources: ConstraintSource[];
  readonly limits: JointLimits;
  readonly contacts: ContactSource;
  readonly gravity: Float64Array;
  readonly rows: RowBuffer;
  readonly solver: ConstraintSolver;
  readonly stats: StepStats;
  /** The World's settings (a frozen object, replaced by World.configure). */
  settings: StepSettings;
  /** The bodies in canonical order (by their keys, not the order they were added: World.rankBodies). */
  byRank: Body[] = [];
  /** Contact and joint-limit event recorders, when the game turned them on. */
  events: ContactEventRecorder | null = null;
  limitHits: LimitEventRecorder | null = null;
  /** Wakes a sleeping body (World.wake). */
  readonly wake: (body: Body) => void;

  // ---- the step (World.step, recovery.ts, pass.ts) ----
  /**
   * The step's numbers that change every step: simulated time (0), the length of the current
   * pass (1: set before advance(), left as the time actually advanced), the worst violation's
   * ratio to its tolerance (2), the time (3) and length (4) of the step under way (read by
   * attempt()), the sub-step length (5), the energy the step's account removed (6), the excess
   * an island's account is removing (7: then what it left unpaid), and the shortest length a
   * halving may leave the pass (8: an equal share of what remains of the sub-step to each pass
   * left).
   */
  readonly scalars = new Float64Array(9);
  /** Zero joint accelerations (energy-account.ts returnToPassStart integrates positions with them). */
  zeroAcc = new Float64Array(64);
  /** A one-number scratch for measures handed back through an array (a returned double is boxed). */
  readonly scalar = new Float64Array(1);
  /**
   * The length of the current pass, kept in a field that holds a number object (it is declared
   * null, so the engine stores a reference, not an unboxed double): passing it to the calls of the
   * step then boxes nothing, and a new object is made only when the length changes (the first
   * step, a halving, a new dt). A double computed or loaded afresh would be boxed at every call
   * that takes it. The constructor sets it to NaN, so that no World's step ever meets a null there:
   * code compiled for one World that met only numbers would otherwise be thrown away at the first
   * step of another and recompiled for either, boxing 16 bytes a step.
   */
  stepLength: number | null = null;
  /** Whether the current pass is the last its sub-step allows (it takes the rest of the sub-step, without halving). */
  lastPass = false;
  /** The bodies that went non-finite in the last failed attempt (for recovery). */
  readonly failedBodies: Body[] = [];
  /** The context handed to the sources, one object reused by every pass of every step. */
  readonly stepContext: { bodies: readonly Body[]; h: number } = { bodies: [], h: 0 };

  // ---- rows (pass.ts, sleep.ts, kinematic-stage.ts) ----
  /** Per row, where dropSleepingRows or dropKinematicRows moved it (-1: dropped). */
  rowMoved = new Int32Array(64);
  /** Bodies with kinematic joints in the current step (counted by beginKinematics). */
  kinematicBodies = 0;

  // ---- islands (islands.ts) ----
  islandOf = new Int32Array(8);
  islandId = new Int32Array(8);
  islandCount = new Int32Array(8);
  islandRows = new Int32Array(64);
  islandStart = new Int32Array(9);

  // ---- solve (solve.ts) ----
  readonly warm = new WarmStartTable();
  /** Per row (by its place in the row buffer, as large as it), the warm-start table's slot its force went to (WarmStartTable.getAt). */
  warmSlot = new Int32Array(0);
  rhs = new Float64Array(64);
  forceScratch = new Float64Array(64);
  /** solver.rowAt as a function made once (handed to the event recorder). */
  readonly rowAtOf: (c: number) => number;

  // ---- backtracking (backtrack.ts) ----
  /**
   * The position measures of the contact and limit rows (finite offsets) that violation() took at
   * the step's accepted positions, and whether it did (positionsChecked: the kinematics, velocities
   * included, are then current too), so postStabilize's first pass does not take them again.
   */
  checkedPosition = new Float64Array(64);
  positionsChecked = false;

  // ---- post-stabilisation (stabilize.ts) ----
  gNew = new Float64Array(64);
  stabForce = new Float64Array(64);
  stabRows = new Int32Array(64);
  stabOptions: PgsOptions = { maxIterations: 50, tolerance: 1e-12, sor: 1 };
  /** q of the bodies before a further post-stabilisation pass, by body index. */
  stabSaved: Float64Array[] = [];
  /** A body's link origins before a post-stabilisation step (3 per link; stabilize.ts). */
  originScratch = new Float64Array(96);

  // ---- momentum (momentum.ts) ----
  dvScratch = new Float64Array(6);
  momentumNow = new Float64Array(6);
  /** Per body, its momentum group in the current pass (conserveGroupMomenta), or -1. */
  groupOf = new Int32Array(8);
  /** Per island, whether it is held from outside (a row to the world or a body not on one free root). */
  grounded = new Uint8Array(8);
  /** Per group, GROUP_STRIDE sums (conserveGroupMomenta). */
  groupSums = new Float64Array(8 * GROUP_STRIDE);
  groupH = new Float64Array(6);
  groupC = new Float64Array(4);
  groupI = new Float64Array(36);

  // ---- the energy account (energy-account.ts) ----
  /** Per island: energy at the pass's start (0) and end (1), credit (2), bound (3), kinetic energy at the start (4) and end (5), potential energy post-stabilisation gave (6), 7 numbers each (boundEnergy). */
  islandEnergy = new Float64Array(32);
  /** Kinetic and potential energy of one body, for countStabilizationLift (energy-account.ts). */
  readonly liftEnergy = new Float64Array(2);
  /** Per island, whether external work may have reached it in the pass (boundEnergy). */
  islandWorked = new Uint8Array(8);
  /** Per body, whether an impact with restitution acted on it in the pass. */
  bodyWorked = new Uint8Array(8);
  /** Per body, whether a pin the game moved since the last step holds it (markMovedPins). */
  pinWorked = new Uint8Array(0);
  /** The pinned loads at the step's start and end (load-check.ts): each pin's gap, each pinned body's worst joint past its stops, what a retake starts from. */
  loadGap = new Float64Array(4);
  loadGapEnd = new Float64Array(4);
  loadLimit = new Float64Array(0);
  loadLimitEnd = new Float64Array(0);
  loadWarmKeys = new Float64Array(0);
  loadWarmForces = new Float64Array(0);
  loadWarmCount = 0;
  loadSleep = new Uint8Array(0);
  loadRest = new Float64Array(0);
  readonly loadSeparation = new Float64Array(3);
  readonly loadWorst = { violation: 0, link: -1 };
  /** How far beyond their slack the pinned loads went in the last check (load-check.ts loadsHeld). */
  readonly loadExcess = new Float64Array(1);
  /** Momenta of a body's free roots (boundEnergy's scratch). */
  energyMomenta = new Float64Array(6);

  // ---- sleep (sleep.ts) ----
  /** Per island, the shortest rest time of its bodies (updateSleep). */
  minRest = new Float64Array(8);

  constructor(world: StepWorld, settings: StepSettings) {
    this.bodies = world.bodies;
    this.sources = world.sources;
    this.limits = world.limits;
    this.contacts = world.contacts;
    this.gravity = world.gravity;
    this.rows = world.rows;
    this.solver = world.solver;
    this.stats = world.stats;
    this.settings = settings;
    this.wake = (body) => world.wake(body);
    const solver = world.solver;
    this.rowAtOf = (c) => solver.rowAt(c);
    // a number object from the start (see stepLength)
    this.stepLength = NaN;
  }

  /** The time in ms when timings are on, else 0. */
  clock(): number {
    return this.settings.timings ? performance.now() : 0;
  }
}

/** Whether a joint torque or an external force acts on body b. */
export function hasLoad(b: Body): boolean {
  const { tau, fext } = b.state;
  for (let i = 0; i < tau.length; i++) if (tau[i] !== 0) return true;
  for (let i = 0; i < fext.length; i++) if (fext[i] !== 0) return true;
  return false;
}

/** The point pin a source holds a body by: a PointPin itself, a HingePin's pin; null for other sources. */
export function pointPinOf(src: ConstraintSource): PointPin | null {
  return src instanceof HingePin ? src.pin : src instanceof PointPin ? src : null;
}

/** pointPinOf(src) when the source and its pin are enabled, else null. */
export function enabledPinOf(src: ConstraintSource): PointPin | null {
  const pin = pointPinOf(src);
  return pin !== null && src.enabled && pin.enabled ? pin : null;
}

/** Whether a and b hold the same numbers (NaN equals nothing). */
export function sameNumbers(a: Float64Array, b: Float64Array): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
