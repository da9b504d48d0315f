/**
 * One pass of the step (a piece of a sub-step, at most maxPasses of them), in the order of the
 * Kokkevis paper's Step() (section 7). Each stage is a function of the step's data (StepData) in a
 * file named for it:
 *
 *   1. rows        gatherRows: forward kinematics; every source adds its rows (the contact source
 *                  runs collision detection); kinematic joints' rows; rows of sleepers dropped;
 *                  warm starts and position offsets (rows.ts);
 *   2. dynamics    freeDynamics: ABA on every awake body, each tree's momentum and external wrench
 *                  at the pass's start (momentum.ts);
 *   3. islands     buildIslands: bodies joined by rows (islands.ts);
 *   4. solve       solveIsland: K by AccelerationDeltas, an impulse LCP when a row hits
 *                  (impacts.ts), the acceleration LCP by PGS, island by island (solve.ts);
 *   5. integrate   integrateWithBacktracking: semi-implicit Euler, the pass halved while a
 *                  unilateral row is violated beyond its tolerance (backtrack.ts);
 *   6. stabilise   postStabilize: an LCP on the position errors (stabilize.ts);
 *   7. momentum    preserveMomenta, conserveGroupMomenta: what rows could not change, kept
 *                  (momentum.ts);
 *   8. energy      boundEnergy: no island gains energy from nowhere (energy-account.ts);
 *   9. sleep       updateSleep: resting islands sleep (sleep.ts).
 */
import { integrateWithBacktracking, saveBodies } from './backtrack.js';
import { boundEnergy } from './energy-account.js';
import { buildIslands } from './islands.js';
import { moveKinematics } from './kinematic-stage.js';
import { conserveGroupMomenta, momentumGroups, passMomenta, preserveMomenta, stepMomenta } from './momentum.js';
import { gatherRows } from './rows.js';
import { everyBodyAsleep, updateSleep } from './sleep.js';
import { solveIsland } from './solve.js';
import { postStabilize } from './stabilize.js';
import type { StepData } from './step-data.js';

/** One pass of the step of length scalars[1] (a piece of a sub-step); leaves the time actually advanced there. */
export function advance(d: StepData): void {
  // the pass's length as a number object that stays the same from pass to pass (see stepLength)
  const length = d.scalars[1];
  if (d.stepLength !== length) d.stepLength = length;
  const h = d.stepLength as number;
  const st = d.stats;
  if (everyBodyAsleep(d)) {
    // nothing can move until something wakes a body (step() looks first): no detection, no
    // rows, only time goes on (detection would find no pair anyway: every shape sleeps or is
    // static)
    d.rows.clear();
    d.contacts.clearContacts();
    st.contacts = 0;
    st.maxPenetration = 0;
    d.scalars[0] += h;
    return;
  }
  const rows = d.rows;
  // 1. rows
  let t0 = d.clock();
  const ctx = gatherRows(d, h);
  let t1 = d.clock();
  st.ms.rows += t1 - t0;
  // 2. dynamics
  freeDynamics(d, h);
  passMomenta(d);
  t0 = d.clock();
  st.ms.dynamics += t0 - t1;
  // 3. islands, 4. solve
  const nIslands = buildIslands(d, rows);
  st.islands = Math.max(st.islands, nIslands);
  d.warm.clear();
  for (let isl = 0; isl < nIslands; isl++) solveIsland(d, rows, isl, h);
  // 5. integrate, halving the pass while a unilateral row is violated
  t0 = d.clock();
  saveBodies(d);
  stepMomenta(d, rows);
  integrateWithBacktracking(d, rows, ctx);
  const hTry = d.stepLength as number;
  if (d.events) d.events.solved(rows, d.contacts, hTry);
  if (d.limitHits) d.limitHits.solved(rows, d.bodies);
  d.scalars[0] += hTry;
  t1 = d.clock();
  st.ms.integrate += t1 - t0;
  // 6. stabilise
  if (d.settings.stabilization === 'post') postStabilize(d, hTry, nIslands);
  // 7. momentum, after every position change of the pass (integration and stabilisation): islands
  // held by nothing keep their momenta exactly (conserveGroupMomenta); then 8. energy: the account
  // of every island, from its energy as the pass leaves it (an island held by nothing gives up only
  // motion its momenta do not need; one whose pass it undid gets its group's motion over the pass
  // again, from the pass's start)
  preserveMomenta(d, rows, hTry);
  const groups = momentumGroups(d, rows, nIslands);
  conserveGroupMomenta(d, hTry, groups);
  if (d.settings.energyBound && boundEnergy(d, rows, nIslands)) conserveGroupMomenta(d, hTry, groups);
  if (d.kinematicBodies > 0) moveKinematics(d);
  st.ms.stabilize += d.clock() - t1;
  st.contacts = d.contacts.count;
  st.maxPenetration = d.contacts.maxDepth;
  // 9. sleep
  if (d.settings.sleepEnabled) updateSleep(d, hTry, nIslands);
  d.scalars[1] = hTry;
}

/** ABA on every awake body at its current state (the rows stage left its kinematics current): the accelerations without row forces. */
function freeDynamics(d: StepData, h: number): void {
  const bodies = d.bodies;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping) continue;
    b.gyroscopicStep = h;
    b.state.work.dampingStep[0] = h; // joint damping by backward Euler (State.implicitDampingStep)
    b.dynamics(true); // (awakeKinematics ran at this q and qd)
    b.qdd.set(b.qdd0);
  }
}
