/**
 * The World's settings: one frozen object (World.settings) that the step's stages read
 * (StepSettings), made and checked here from WorldOptions at construction and from a patch of
 * them by World.configure. A setting cannot be changed behind the World's back (assigning to a
 * frozen object throws in a module), and a bad value is refused with its name and value before
 * anything is changed, so a world that ran keeps running with the settings it had.
 */
import type { PgsOptions } from './lcp/pgs.js';
import type { KMethod } from './solver/constraint-solver.js';
import type { StabilizationMode } from './step/step-data.js';
import type { WorldOptions } from './world.js';

/** What World.configure changes: the WorldOptions that are settings (the rest are set at construction or through their sources). */
export type SettingsPatch = Pick<WorldOptions, 'substeps' | 'timings' | 'solver' | 'warmStart' | 'stabilization' | 'baumgarteAlpha' | 'maxHalvings' | 'maxPasses' | 'maxJointSpeed' | 'backtrackTolerance' | 'impactThreshold' | 'stabilizationTolerance' | 'contactSlop' | 'limitSlop' | 'stabilizationPasses' | 'kMethod' | 'sleep' | 'energyBound'>;

/**
 * The World's settings (World.settings, a frozen instance): what the step's stages read; each is
 * documented on WorldOptions. One class, its fields set in one order by its constructor: every
 * World's settings then have one shape, and the stages read their numbers without boxing them (a
 * plain object copied from another had the step allocate 64-128 bytes).
 */
export class WorldSettings {
  /** Sub-steps per step (0: chosen by the world at each step, World.autoSubsteps). */
  readonly substeps: number;
  /** PGS options of the step's solve (WorldOptions.solver). */
  readonly solverOptions: Readonly<PgsOptions>;
  readonly stabilization: StabilizationMode;
  readonly baumgarteAlpha: number;
  readonly maxHalvings: number;
  readonly maxPasses: number;
  readonly maxJointSpeed: number;
  readonly backtrackTolerance: number;
  readonly impactThreshold: number;
  readonly stabilizationTolerance: number;
  readonly contactSlop: number;
  readonly limitSlop: number;
  readonly stabilizationPasses: number;
  readonly kMethod: KMethod;
  readonly warmStart: boolean;
  /** WorldOptions.sleep: whether bodies sleep, after how long (s) below which speed (m/s). */
  readonly sleepEnabled: boolean;
  readonly sleepTime: number;
  readonly sleepSpeed: number;
  readonly energyBound: boolean;
  readonly timings: boolean;
  /** @internal (World.configure makes the settings) */
  constructor(s: WorldSettings) {
    this.substeps = s.substeps;
    this.solverOptions = s.solverOptions;
    this.stabilization = s.stabilization;
    this.baumgarteAlpha = s.baumgarteAlpha;
    this.maxHalvings = s.maxHalvings;
    this.maxPasses = s.maxPasses;
    this.maxJointSpeed = s.maxJointSpeed;
    this.backtrackTolerance = s.backtrackTolerance;
    this.impactThreshold = s.impactThreshold;
    this.stabilizationTolerance = s.stabilizationTolerance;
    this.contactSlop = s.contactSlop;
    this.limitSlop = s.limitSlop;
    this.stabilizationPasses = s.stabilizationPasses;
    this.kMethod = s.kMethod;
    this.warmStart = s.warmStart;
    this.sleepEnabled = s.sleepEnabled;
    this.sleepTime = s.sleepTime;
    this.sleepSpeed = s.sleepSpeed;
    this.energyBound = s.energyBound;
    this.timings = s.timings;
  }
}

/**
 * 30 sweeps at most; stop once every row's residual is below 1e-3 (m/s^2 or rad/s^2 at the
 * acceleration level: a velocity error of 1.7e-5 m/s per 60 Hz step). Warm starts from the last
 * step's forces make the resting case converge in a few sweeps.
 */
const DEFAULT_SOLVER: PgsOptions = { maxIterations: 30, tolerance: 1e-3, sor: 1 };

/** The defaults of every setting (documented on WorldOptions). */
export const DEFAULT_SETTINGS: WorldSettings = Object.freeze(new WorldSettings({
  substeps: 0,
  timings: false,
  solverOptions: Object.freeze({ ...DEFAULT_SOLVER }),
  stabilization: 'post',
  baumgarteAlpha: 50,
  maxHalvings: 4,
  maxPasses: 32,
  maxJointSpeed: Infinity,
  backtrackTolerance: 0.005,
  impactThreshold: 0.02,
  stabilizationTolerance: 1e-7,
  contactSlop: 1e-3,
  limitSlop: 1e-4,
  stabilizationPasses: 1,
  kMethod: 'deltas',
  warmStart: true,
  sleepTime: 0.5,
  sleepSpeed: 0.03,
  sleepEnabled: true,
  energyBound: true,
}));

type Check = (v: unknown) => boolean;
const whole = (v: unknown, min: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= min;
const wholeFrom0: Check = (v) => whole(v, 0);
const wholeFrom1: Check = (v) => whole(v, 1);
const nonNegative: Check = (v) => typeof v === 'number' && v >= 0 && v !== Infinity;
const positive: Check = (v) => typeof v === 'number' && v > 0 && v !== Infinity;
const bool: Check = (v) => typeof v === 'boolean';
const stabilizationMode: Check = (v) => v === 'post' || v === 'baumgarte' || v === 'none';
const kMethod: Check = (v) => v === 'deltas' || v === 'testForce';

/** Each setting's check and what it must be, for the message. */
const CHECKS: Record<string, [Check, string]> = {
  substeps: [wholeFrom0, 'a whole number >= 1 (or 0: chosen by the world)'],
  timings: [bool, 'true or false'],
  stabilization: [stabilizationMode, "'post', 'baumgarte' or 'none'"],
  baumgarteAlpha: [nonNegative, 'a finite number >= 0 (1/s)'],
  maxHalvings: [wholeFrom0, 'a whole number >= 0'],
  maxPasses: [wholeFrom1, 'an integer >= 1'],
  maxJointSpeed: [(v) => typeof v === 'number' && v > 0, '> 0 (Infinity turns it off)'],
  backtrackTolerance: [positive, 'a finite number > 0 (m)'],
  impactThreshold: [nonNegative, 'a finite number >= 0 (m/s)'],
  stabilizationTolerance: [positive, 'a finite number > 0'],
  contactSlop: [nonNegative, 'a finite number >= 0 (m)'],
  limitSlop: [nonNegative, 'a finite number >= 0 (rad or m)'],
  stabilizationPasses: [wholeFrom1, 'a whole number >= 1'],
  kMethod: [kMethod, "'deltas' or 'testForce'"],
  warmStart: [bool, 'true or false'],
  energyBound: [bool, 'true or false'],
  sleepTime: [nonNegative, 'a finite number >= 0 (s)'],
  sleepSpeed: [nonNegative, 'a finite number >= 0 (m/s)'],
  maxIterations: [wholeFrom1, 'a whole number >= 1'],
  tolerance: [nonNegative, 'a finite number >= 0'],
  sor: [(v) => typeof v === 'number' && v > 0 && v < 2, 'a number in (0, 2)'],
  regularisation: [nonNegative, 'a finite number >= 0'],
  diagonalEpsilon: [nonNegative, 'a finite number >= 0'],
};

/** The settings a patch names directly (besides solver and sleep). */
const TOP_LEVEL: ReadonlySet<string> = new Set(['substeps', 'timings', 'warmStart', 'stabilization', 'baumgarteAlpha', 'maxHalvings', 'maxPasses', 'maxJointSpeed', 'backtrackTolerance', 'impactThreshold', 'stabilizationTolerance', 'contactSlop', 'limitSlop', 'stabilizationPasses', 'kMethod', 'energyBound']);

function check(where: string, name: string, v: unknown): void {
  const c = CHECKS[name];
  if (c && !c[0](v)) throw new RangeError(`${where}: ${name} must be ${c[1]}, got ${typeof v === 'string' ? `'${v}'` : String(v)}`);
}

/**
 * The settings `base` with the patch's values, checked (a RangeError names the first bad one and
 * nothing is made) and frozen, the solver options too. `where` names the caller in messages.
 */
export function makeSettings(patch: SettingsPatch, base: WorldSettings = DEFAULT_SETTINGS, where = 'World'): WorldSettings {
  if (patch === null || typeof patch !== 'object') throw new TypeError(`${where}: settings must be an object, got ${String(patch)}`);
  const out: { -readonly [K in keyof WorldSettings]: WorldSettings[K] } = { ...base };
  for (const key of Object.keys(patch) as (keyof SettingsPatch)[]) {
    const v = patch[key];
    if (v === undefined) continue;
    if (key === 'solver') {
      if (v === null || typeof v !== 'object') throw new RangeError(`${where}: solver must be an object of PGS options, got ${String(v)}`);
      const solver = { ...base.solverOptions, ...(v as PgsOptions) };
      for (const k of Object.keys(v) as (keyof PgsOptions)[]) if ((v as PgsOptions)[k] !== undefined) check(`${where} solver`, k, (v as PgsOptions)[k]);
      out.solverOptions = Object.freeze(solver);
    } else if (key === 'sleep') {
      if (v === false) { out.sleepEnabled = false; continue; }
      if (v === null || typeof v !== 'object') throw new RangeError(`${where}: sleep must be false or { sleepTime, sleepSpeed }, got ${String(v)}`);
      const s = v as { sleepTime?: number; sleepSpeed?: number };
      out.sleepEnabled = true;
      if (s.sleepTime !== undefined) { check(`${where} sleep`, 'sleepTime', s.sleepTime); out.sleepTime = s.sleepTime; }
      if (s.sleepSpeed !== undefined) { check(`${where} sleep`, 'sleepSpeed', s.sleepSpeed); out.sleepSpeed = s.sleepSpeed; }
    } else if (TOP_LEVEL.has(key)) {
      check(where, key, v);
      (out as Record<string, unknown>)[key] = v;
    } else {
      throw new RangeError(`${where}: unknown setting '${String(key)}' (settings: ${[...TOP_LEVEL].join(', ')}, solver, sleep)`);
    }
  }
  // the pass budget follows the halvings (2^(maxHalvings + 1)) until it is set itself
  if (patch.maxHalvings !== undefined && patch.maxPasses === undefined && base.maxPasses === 2 ** Math.min(20, base.maxHalvings + 1)) {
    out.maxPasses = 2 ** Math.min(20, out.maxHalvings + 1);
  }
  return Object.freeze(new WorldSettings(out));
}
