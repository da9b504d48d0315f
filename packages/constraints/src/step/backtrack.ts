/**
 * Stage 5 of a pass: integration with backtracking (the Kokkevis paper's Step(), section 7).
 * Semi-implicit Euler from the solved accelerations; if the tentative state violates a unilateral
 * row (a contact, a joint limit) deeper than its tolerance, the pass is halved and integrated again,
 * at most maxHalvings times, never to less than an equal share of what remains of the sub-step for
 * each pass left (scalars[8], set by recovery.ts: three passes never end a sub-step on one long
 * unchecked pass after two short ones), and never in a sub-step's last pass, whose violation is
 * left to speculative contacts and stabilisation.
 */
import { JointType, integrateSemiImplicit } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { rowPositionInto } from '../rows/measure.js';
import { type RowBuffer, RowTag } from '../rows/row-buffer.js';
import type { StepContext } from '../sources/source.js';
import { awakeKinematics } from './kinematic-stage.js';
import { holdPastStops } from './stops.js';
import type { StepData } from './step-data.js';

/** Every awake body's q and qd at the pass's start (Body.savedQ, savedQd), to which a halving returns. */
export function saveBodies(d: StepData): void {
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi];
    if (!b.sleeping) b.save();
  }
}

/**
 * Integrates every awake body over the pass (stepLength) from its solved accelerations, halving
 * stepLength and integrating again from the pass's start (saveBodies) while violation() finds a
 * unilateral row violated beyond its tolerance; leaves the length taken in stepLength.
 */
export function integrateWithBacktracking(d: StepData, rows: RowBuffer, ctx: StepContext): void {
  const bodies = d.bodies;
  for (let halvings = 0; ; halvings++) {
    d.positionsChecked = false;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi];
      if (b.sleeping) continue;
      // free joints move by the world rule (featherstone advanceFreeJoint: exact in flight and
      // rolling), except while rows act on a tree or a pin holds a rigid body (Body.worldRule)
      integrateSemiImplicit(b.model, b.state, b.qdd, d.stepLength as number, false, b.worldRule || b.island < 0);
      if (d.settings.maxJointSpeed < Infinity) clampJointSpeeds(d, b);
    }
    if (halvings >= d.settings.maxHalvings || d.lastPass || 0.5 * (d.stepLength as number) < d.scalars[8]) {
      holdAtStops(d);
      break;
    }
    violation(d, rows, ctx);
    if (d.scalars[2] <= 1) break;
    for (let bi = 0; bi < bodies.length; bi++) { const b = bodies[bi]; if (!b.sleeping) b.restore(); }
    d.stepLength = (d.stepLength as number) * 0.5;
    d.stats.halvings++;
  }
}

/**
 * A pass that takes its length unchecked (the last of its sub-step, or one halved as far as it may
 * be) leaves its contacts to speculative rows and stabilisation, but not its joints' stops: a
 * limited joint it took further past its stops than the limits' backtracking tolerance (and than
 * it stood at the step's start) is held there (stops.ts), so that no budget of passes lets a
 * light link turn through its stop. Counted in stats.stopsHeld.
 */
function holdAtStops(d: StepData): void {
  const bodies = d.bodies;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping) continue;
    const held = holdPastStops(b, d.limits.backtrackTolerance);
    if (held > 0) { b.state.work.dynamicsValid = false; d.stats.stopsHeld += held; }
  }
}

/** Joint speeds beyond maxJointSpeed brought back to it (joints other than free ones); counted in stats.clampedSpeeds. */
function clampJointSpeeds(d: StepData, b: Body): void {
  const m = b.model, qd = b.state.qd, max = d.settings.maxJointSpeed;
  for (let i = 0; i < m.nLinks; i++) {
    if (m.jointType[i] === JointType.free) continue;
    for (let k = m.vOffset[i], e = k + m.jointNv[i]; k < e; k++) {
      const v = qd[k];
      if (v > max) { qd[k] = max; d.stats.clampedSpeeds++; } else if (v < -max) { qd[k] = -max; d.stats.clampedSpeeds++; }
    }
  }
}

/**
 * How deep the tentative state violates the unilateral rows of the step (contacts, limits),
 * measured exactly through the rows' position measures: every contact the step could make is
 * among them (speculative margins), so a body that would pass a thin wall is caught too. Returned
 * as the worst ratio of a violation to its tolerance (contacts: backtrackTolerance; sources, such
 * as joint limits, their own), so the step is halved above 1. The result goes to scalars[2]
 * (a field: a returned double would be boxed on the heap).
 */
function violation(d: StepData, rows: RowBuffer, ctx: StepContext): void {
  const bodies = d.bodies;
  if (d.checkedPosition.length < rows.count) d.checkedPosition = new Float64Array(rows.capacity);
  let checked = false;
  let worst = 0;
  // sources that judge the tentative state themselves (conditions their rows do not measure exactly)
  for (const src of d.sources) {
    if (!src.violation) continue;
    if (!checked) { awakeKinematics(d, true); checked = true; }
    src.violation(ctx, d.scalar);
    const v = d.scalar[0] / (src.backtrackTolerance ?? d.settings.backtrackTolerance);
    if (v > worst) worst = v;
  }
  const limitTolerance = d.limits.backtrackTolerance;
  for (let j = 0; j < rows.count; j++) {
    const tag = rows.tag[j];
    if (tag !== RowTag.Contact && tag !== RowTag.Limit) continue;
    const off = rows.offset[j];
    if (off !== off) continue;
    if (!checked) { awakeKinematics(d, true); checked = true; }
    rowPositionInto(rows, j, bodies, d.checkedPosition, j);
    const g = (d.checkedPosition[j] + off) / (tag === RowTag.Limit ? limitTolerance : d.settings.backtrackTolerance);
    if (-g > worst) worst = -g;
  }
  d.scalars[2] = worst;
  d.positionsChecked = checked;
}
