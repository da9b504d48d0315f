/**
 * A source of constraint rows. Each step the World asks every source to add its rows for the
 * current state (forward kinematics with velocities has run on every body), and, for backtracking,
 * how deep the tentative state violates its unilateral conditions.
 */
import type { RowBuffer } from '../rows/row-buffer.js';
import type { Body } from '../body.js';

/** What a constraint source is given when it adds its rows in a step: the bodies and the step length h. */
export interface StepContext {
  readonly bodies: readonly Body[];
  /** Length of the step being taken (s). */
  readonly h: number;
}

/** Something that adds constraint rows to every step (joint limits, pins, drives, contacts, or a game's own); add it with `World.addSource`. */
export interface ConstraintSource {
  /** Adds rows for the current state. Rows tagged Pin, Limit or Contact carry a position error; others set `desired` themselves. */
  addRows(rows: RowBuffer, ctx: StepContext): void;
  /**
   * Writes into out[0] the largest violation of the tentative state (penetration depth, angle past
   * a limit); 0 when none. Used for backtracking. (Written, not returned: a double returned from a
   * call that is not inlined is boxed on the heap, and the step allocates nothing.)
   */
  violation?(ctx: StepContext, out: Float64Array): void;
  /** The violation (in the units of violation()) above which the step is halved; default: the world's backtrackTolerance. */
  readonly backtrackTolerance?: number;
  /** True while the source still refers to live bodies. */
  readonly enabled?: boolean;
  /**
   * Body `index` was removed from the world (World.removeBody), the bodies after it moving down one
   * index: returns true when the source is attached to that body (the world then removes the
   * source), else renumbers the body indices it holds. Sources without this method are handled by
   * lifetime.ts (pins by their bodies, other sources by a numeric `body` field).
   */
  bodyRemoved?(index: number): boolean;
}
