/**
 * Stage 4 of a pass: each island's rows solved. K by AccelerationDeltas (Kokkevis section 4), an
 * impulse LCP on the same K when a row hits (section 5), then the acceleration LCP by projected
 * Gauss-Seidel warm-started from the last step's forces; qdd = qdd0 + sum f dqdd.
 *
 * Desired measures of position rows (pins, limits, contacts) are velocity-level: the row asks that
 * the velocity after the step be -alpha g (alpha = 0 without Baumgarte), so a = -(v + alpha g)/h.
 * A unilateral row that is still open (g > 0) only stops the motion that would close it within the
 * step: a >= -(v + g/h)/h.
 */
import { rowVelocityInto } from '../rows/measure.js';
import { type RowBuffer, RowTag } from '../rows/row-buffer.js';
import type { ConstraintSolver } from '../solver/constraint-solver.js';
import { needsImpact, solveImpacts } from './impacts.js';
import type { StepData } from './step-data.js';

/**
 * A natural-map residual (m/s^2 or rad/s^2) above which sweeps whose worst row is a friction row
 * are taken to have failed, not merely stopped short: that row's acceleration is wrong by 10 g.
 * Box friction is what can keep PGS from any solution (ConstraintSolver.solveStaggered); contact
 * normals and limits also end landings above it, unconverged but converging (the 50-ragdoll peer
 * pile's landing passes), and they are left to the next pass.
 */
const FAILED_RESIDUAL = 100;

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
export function solveIsland(d: StepData, rows: RowBuffer, isl: number, h: number): void {
  const st = d.stats;
  const bodies = d.bodies;
  const solver = d.solver, options = d.settings.solverOptions;
  const start = d.islandStart[isl], count = d.islandStart[isl + 1] - start;
  let t0 = d.clock();
  solver.setRows(rows, d.islandRows, count, bodies, start);
  const impact = needsImpact(d, rows, solver);
  const check = !impact && !solver.dense && d.settings.kMethod === 'deltas' && checksWarmStart(d, solver);
  if (check) solver.measure(rows, bodies);
  else solver.buildK(rows, bodies, d.settings.kMethod);
  let t1 = d.clock();
  st.ms.k += t1 - t0;
  if (impact) {
    solveImpacts(d, rows);
    st.impacts++;
    // an impact with restitution gives energy back on purpose: outside the energy account
    for (let k = 0; k < solver.nBodies; k++) d.bodyWorked[solver.bodyList[k]] = 1;
    // new velocities: new velocity-product terms and row velocities (K depends on q only)
    solver.dynamics(bodies);
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      rowVelocityInto(rows, j, bodies, rows.velocity, j);
    }
  }
  setDesired(d, rows, solver, h);
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
      t0 = d.clock();
      solver.buildK(rows, bodies, d.settings.kMethod);
      const t = d.clock() - t0;
      st.ms.k += t;
      t1 += t;
    }
    let r = solver.solve(rows, options, true);
    if (!(r.residual <= FAILED_RESIDUAL) && r.worstRow >= 0 && rows.tag[solver.rowAt(r.worstRow)] === RowTag.Friction) {
      // far from any solution: solved again in two convex parts (ConstraintSolver.solveStaggered)
      r = solver.solveStaggered(rows, options);
      st.staggered++;
    }
    st.iterations = Math.max(st.iterations, r.iterations);
    st.residual = Math.max(st.residual, r.residual);
    solver.combine(bodies, 'qdd');
    holds = r.iterations <= 1;
  }
  for (let k = 0; k < solver.nBodies; k++) bodies[solver.bodyList[k]].checkWarmStart = holds;
  // (in the row buffer's order, not the solver's: there a contact point's rows follow each other, so
  // their keys differ by 1 and a snapshot writes each difference in a byte: world-snapshot.ts)
  for (let c = start; c < start + count; c++) {
    const j = d.islandRows[c];
    if (rows.key[j] !== -1 && d.settings.warmStart) d.warmSlot[j] = d.warm.set(rows.key[j], rows.force[j]);
  }
  st.ms.solve += d.clock() - t1;
}

/** Whether every body of the solver's island says its warm forces may hold (Body.checkWarmStart). */
function checksWarmStart(d: StepData, solver: ConstraintSolver): boolean {
  for (let k = 0; k < solver.nBodies; k++) if (!d.bodies[solver.bodyList[k]].checkWarmStart) return false;
  return true;
}

/** Desired acceleration-level measures of position rows (see the module comment). */
function setDesired(d: StepData, rows: RowBuffer, solver: ConstraintSolver, h: number): void {
  const alpha = d.settings.stabilization === 'baumgarte' ? d.settings.baumgarteAlpha : 0;
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
