/**
 * Stage 6 of a pass: post-stabilisation of position drift (Cline thesis 3.4, eq. 3.7, in reduced
 * coordinates).
 */
import { forwardKinematics, integratePositions } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { isPrescribedRow } from '../kinematic.js';
import { rowPositionInto, rowVelocityInto } from '../rows/measure.js';
import { RowTag } from '../rows/row-buffer.js';
import { sphericalLimitGapInto } from '../sources/joint-limits.js';
import { countStabilizationLift } from './energy-account.js';
import { holdPastStops } from './stops.js';
import { awakeKinematics } from './kinematic-stage.js';
import type { StepData } from './step-data.js';

/**
 * How far (m) one Newton step of post-stabilisation may move any link's origin: MAX_MOVE, or twice
 * the worst error it corrects if that is more, up to MAX_REACH. The step is linear in the errors:
 * where their Jacobian is nearly singular (a contact on a chain of 5 mm boxes, whose links hardly resist a
 * turn about their length) it asks for turns far outside where it holds, and carried such a chain
 * 20 m up in one pass (523 J). Held within this bound it corrects what it can and leaves the rest
 * to the next pass or step.
 */
const MAX_MOVE = 0.25;
/**
 * The most that reach grows to with the error (m): an error the step made worse widened the next
 * step's reach, and limited chains spawned across two boxes went from joints 18-44 rad past their
 * stops to 28,869 rad and 1.95e22 J; bodies spawned deeper than this inside each other come apart
 * over more than one step.
 */
const MAX_REACH = 1;
/**
 * How far past its stops (rad or m) post-stabilisation may take a joint, or no further than it
 * stood at the step's start where that was further: a link's origin stays within the reach while
 * a short link turns about it without bound, and limited chains of 5-20 cm links among ragdolls
 * were turned 2 to 11 rad past their stops in one step (and 1,891 rad over 3 s); a humanoid's hip
 * (a ball joint with a cone of 1.2 by 0.6 rad) tumbling onto stairs went 0.995 rad past its cone
 * in one step. Such a joint is held at that distance (the rest of the step stands). Scaling the
 * whole step down instead, or capping every joint's turn, held back the corrections of scenes that
 * need them (a ragdoll under a 200 kg crate rose 28.6 J above its lowest energy; a ragdoll tumbling
 * down stairs 16 J). Held
 * against each Newton step's start at 0.25 rad, the passes of one step added up: a ragdoll spawned
 * into stairs went 1.66 rad past a stop in its first step of 8 passes. Held against the step's
 * start, 0 of 120 random scenes end beyond 0.1 rad (10 did); at the limits' backtracking tolerance,
 * 0.05 rad, bodies stayed deeper in the ground (a humanoid's drop 11.6 mm deep) and the lift out
 * came later, when the energy account could not take it (3.4 J above the lowest on stairs).
 */
const MAX_PAST = 0.1;

/** Moves body b by the step dq in b.scratch from its q, holds its joints near their stops (holdPastStops, against q at the step's start), and poses it. */
function takeStep(b: Body): void {
  integratePositions(b.model, b.state.q, b.scratch, 1);
  holdPastStops(b, MAX_PAST);
  b.state.work.dynamicsValid = false;
  forwardKinematics(b.model, b.state, true);
}

/** Body b's buffer in stabSaved (made when b is new at its index). */
function stabSavedQ(d: StepData, b: Body): Float64Array {
  let q = d.stabSaved[b.index];
  if (q === undefined || q.length !== b.model.nq) q = d.stabSaved[b.index] = new Float64Array(b.model.nq);
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
export function postStabilize(d: StepData, h: number, nIslands: number): void {
  const st = d.stats;
  const bodies = d.bodies;
  const rows = d.rows;
  if (d.rhs.length < rows.capacity) d.rhs = new Float64Array(rows.capacity);
  if (d.gNew.length < rows.capacity) d.gNew = new Float64Array(rows.capacity);
  if (d.stabForce.length < rows.capacity) d.stabForce = new Float64Array(rows.capacity);
  if (d.stabRows.length < rows.capacity) d.stabRows = new Int32Array(rows.capacity);
  const g = d.gNew;
  // (the lift the correction gives, for the energy account's test of a failed pass)
  const count = d.settings.energyBound;
  for (let pass = 0; pass < d.settings.stabilizationPasses; pass++) {
    const checked = pass === 0 && d.positionsChecked;
    if (!checked) awakeKinematics(d, true);
    let moved = false;
    // island by island: an island whose rows all sit within their slop is left alone
    for (let isl = 0; isl < nIslands; isl++) {
      let worst = 0;
      let n = 0;
      for (let k = d.islandStart[isl]; k < d.islandStart[isl + 1]; k++) {
        const j = d.islandRows[k];
        const tag = rows.tag[j];
        if (tag !== RowTag.Pin && tag !== RowTag.Limit && tag !== RowTag.Contact) {
          // kinematic joints take part unmoved (the correction moves only simulated joints)
          if (d.kinematicBodies > 0 && isPrescribedRow(rows, j)) { g[j] = 0; d.stabRows[n++] = j; }
          continue;
        }
        const off = rows.offset[j];
        if (off === off) {
          if (checked && tag !== RowTag.Pin) g[j] = d.checkedPosition[j];
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
        const slop = tag === RowTag.Contact ? d.settings.contactSlop : tag === RowTag.Limit ? d.settings.limitSlop : 0;
        const bad = tag === RowTag.Pin ? Math.abs(g[j]) : -g[j] - slop;
        if (bad > worst) worst = bad;
        g[j] += 0.5 * slop;
        d.stabRows[n++] = j;
      }
      if (pass === 0) st.errorBefore = Math.max(st.errorBefore, worst);
      if (worst <= d.settings.stabilizationTolerance || n === 0) {
        if (pass === d.settings.stabilizationPasses - 1) st.errorAfter = Math.max(st.errorAfter, worst);
        continue;
      }
      const solver = d.solver;
      solver.setRows(rows, d.stabRows, n, bodies);
      solver.dynamics(bodies);
      solver.buildK(rows, bodies, d.settings.kMethod);
      for (let c = 0; c < solver.m; c++) { const j = solver.rowAt(c); d.rhs[j] = g[j]; }
      solver.setRhs(rows, d.rhs);
      solver.solve(rows, d.stabOptions, false, d.stabForce);
      solver.combine(bodies, 'dq');
      // the step, holding every revolute and prismatic joint within MAX_PAST further past its
      // stops, and within its reach of every link's origin (MAX_MOVE or twice the error, up to
      // MAX_REACH): taken again, scaled down, from where it began when it went further
      let moveMost = 0;
      for (let k = 0; k < solver.nBodies; k++) {
        const b = bodies[solver.bodyList[k]];
        stabSavedQ(d, b).set(b.state.q);
        if (count) countStabilizationLift(d, b, -1);
        const P = b.state.work.pose;
        if (d.originScratch.length < 3 * b.model.nLinks) d.originScratch = new Float64Array(6 * b.model.nLinks);
        for (let i = 0; i < b.model.nLinks; i++) { const o = 12 * i; d.originScratch[3 * i] = P[o + 9]; d.originScratch[3 * i + 1] = P[o + 10]; d.originScratch[3 * i + 2] = P[o + 11]; }
        takeStep(b);
        for (let i = 0; i < b.model.nLinks; i++) {
          const o = 12 * i, dx = P[o + 9] - d.originScratch[3 * i], dy = P[o + 10] - d.originScratch[3 * i + 1], dz = P[o + 11] - d.originScratch[3 * i + 2];
          const m2 = dx * dx + dy * dy + dz * dz;
          if (m2 > moveMost) moveMost = m2;
        }
      }
      moveMost = Math.sqrt(moveMost);
      const reach = Math.min(Math.max(MAX_MOVE, 2 * worst), MAX_REACH);
      if (moveMost > reach) {
        const scale = reach / moveMost;
        for (let k = 0; k < solver.nBodies; k++) {
          const b = bodies[solver.bodyList[k]];
          b.state.q.set(stabSavedQ(d, b));
          for (let e = 0; e < b.model.nv; e++) b.scratch[e] *= scale;
          takeStep(b);
        }
        st.stabilizationHeld++;
      }
      if (count) for (let k = 0; k < solver.nBodies; k++) countStabilizationLift(d, bodies[solver.bodyList[k]], 1);
      moved = true;
      if (pass > 0 || pass === d.settings.stabilizationPasses - 1) {
        let after = 0;
        for (let c = 0; c < solver.m; c++) {
          const j = solver.rowAt(c);
          const tag = rows.tag[j];
          const off = rows.offset[j];
          // (rows measured exactly at their offsets, a spherical limit's stop by its exact gap;
          // other rows by their measure before the correction)
          let gj = g[j];
          if (off === off) { rowPositionInto(rows, j, bodies, d.scalar, 0); gj = d.scalar[0] + off; }
          else if (tag === RowTag.Limit && sphericalLimitGapInto(rows, j, bodies[rows.bodyA[j]], d.scalar, 0)) gj = d.scalar[0];
          after = Math.max(after, tag === RowTag.Pin ? Math.abs(gj) : tag === RowTag.Contact ? -gj - d.settings.contactSlop : tag === RowTag.Limit ? -gj - d.settings.limitSlop : -gj);
        }
        if (pass > 0 && after > worst) {
          // a further Newton step that leaves a larger error than it found (the geometry of the
          // contacts turned under it) is undone
          for (let k = 0; k < solver.nBodies; k++) {
            const b = bodies[solver.bodyList[k]];
            if (count) countStabilizationLift(d, b, -1);
            b.state.q.set(stabSavedQ(d, b));
            forwardKinematics(b.model, b.state, true);
            if (count) countStabilizationLift(d, b, 1);
          }
          after = worst;
        }
        if (pass === d.settings.stabilizationPasses - 1) st.errorAfter = Math.max(st.errorAfter, after);
      }
    }
    if (!moved) break;
  }
}
