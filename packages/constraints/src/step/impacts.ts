/**
 * Impacts (Kokkevis section 5): when a row with restitution hits, a velocity jump from an impulse
 * LCP on the island's K, before the acceleration solve (solve.ts).
 */
import { isPrescribedRow } from '../kinematic.js';
import { type RowBuffer, RowTag } from '../rows/row-buffer.js';
import type { ConstraintSolver } from '../solver/constraint-solver.js';
import type { StepData } from './step-data.js';

/** Whether a row of the solver's island hits (a bouncing contact or limit approaching faster than impactThreshold). */
export function needsImpact(d: StepData, rows: RowBuffer, solver: ConstraintSolver): boolean {
  for (let c = 0; c < solver.m; c++) {
    const j = solver.rowAt(c);
    const tag = rows.tag[j];
    // rows without restitution need no impulse: their velocity-level acceleration row stops the
    // approach within the step; only bouncing rows take the impact path
    if ((tag === RowTag.Limit || tag === RowTag.Contact) && rows.restitution[j] > 0 && rows.error[j] <= 1e-3 && rows.velocity[j] < -d.settings.impactThreshold) return true;
  }
  return false;
}

/**
 * Impact LCP at the velocity level (Kokkevis section 5): K p + (v - v_desired) with v_desired =
 * -e v for rows hitting, 0 for touching unilateral rows and pins, 0 for friction (bounded by mu
 * times the normal impulse); drives and motors take no impulse; open unilateral rows stay out.
 */
export function solveImpacts(d: StepData, rows: RowBuffer): void {
  const solver = d.solver;
  if (d.rhs.length < rows.count) d.rhs = new Float64Array(2 * rows.capacity);
  const rhs = d.rhs;
  for (let c = 0; c < solver.m; c++) {
    const j = solver.rowAt(c);
    const tag = rows.tag[j], v = rows.velocity[j];
    if (tag === RowTag.Limit || tag === RowTag.Contact) {
      if (rows.error[j] > 1e-3) rhs[j] = Math.max(v, 0) + 1; // open: no impulse needed
      else rhs[j] = v < -d.settings.impactThreshold ? v * (1 + rows.restitution[j]) : v;
    } else if (isPrescribedRow(rows, j)) rhs[j] = 0; // a kinematic joint keeps its velocity (kinematic.ts)
    else rhs[j] = v;
  }
  solver.setRhs(rows, rhs);
  for (let c = 0; c < solver.m; c++) {
    const tag = rows.tag[solver.rowAt(c)];
    if ((tag === RowTag.Drive || tag === RowTag.Motor) && !isPrescribedRow(rows, solver.rowAt(c))) { solver.lo[c] = 0; solver.hi[c] = 0; }
  }
  const saved = saveForces(d, rows);
  solver.solve(rows, d.settings.solverOptions, false);
  solver.combine(d.bodies, 'qd');
  if (d.events) d.events.impacts(rows, solver.m, d.rowAtOf);
  restoreForces(d, rows, saved);
}

function saveForces(d: StepData, rows: RowBuffer): Float64Array {
  if (d.forceScratch.length < rows.count) d.forceScratch = new Float64Array(2 * rows.capacity);
  d.forceScratch.set(rows.force.subarray(0, rows.count));
  return d.forceScratch;
}

function restoreForces(d: StepData, rows: RowBuffer, saved: Float64Array): void {
  rows.force.set(saved.subarray(0, rows.count));
}
