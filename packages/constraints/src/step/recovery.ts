/**
 * The step around its passes: attempts at the step from its start, each in sub-steps of at most
 * maxPasses passes (pass.ts); a step whose pinned loads did not hold taken again in more
 * sub-steps (load-check.ts); and recovery when an attempt goes non-finite: every body back where
 * the step began, then the step taken again in smaller pieces, with the failing island stopped, or
 * rolled back with time advancing. A world never stops moving because of one bad state.
 */
import { MAX_LOAD_SUBSTEPS, loadsHeld, measureLoadsAtStart, restoreLoadStart } from './load-check.js';
import { advance } from './pass.js';
import type { StepData } from './step-data.js';

/** Sub-steps per sub-step of a step taken again after it went non-finite. */
const RECOVERY_SUBSTEPS = 4;

/**
 * The step under way (its time and length in scalars[3] and [4]) in `substeps` sub-steps, with
 * recovery: a world never stops moving because of one bad state. A step that goes non-finite is
 * taken again from its start in RECOVERY_SUBSTEPS times as many sub-steps; if that fails too, the
 * island of the bodies that went non-finite loses its velocities (its motion is stopped where the
 * step began) and the step is taken once more; only if that fails is it rolled back, time
 * advancing. stats.recovery and stats.error say what happened. Before that, when the world chose
 * the sub-steps, a step after which a pin opened or a pinned body's joint went past its stops is
 * taken again in twice the sub-steps (load-check.ts; stats.loadRetakes). Returns false when the
 * step was rolled back.
 */
export function stepWithRecovery(d: StepData, substeps: number): boolean {
  const st = d.stats;
  const time0 = d.scalars[3], dt = d.scalars[4];
  // (pinned loads are checked when the world chose the sub-steps: see load-check.ts)
  const loads = d.settings.substeps === 0 && measureLoadsAtStart(d);
  let first = attempt(d, substeps);
  // (taken again while the sub-steps double and the excess at least halves with them)
  let excess = Infinity;
  while (first === '' && loads && substeps < MAX_LOAD_SUBSTEPS && !loadsHeld(d) && d.loadExcess[0] < 0.5 * excess) {
    excess = d.loadExcess[0];
    rollBack(d, time0);
    restoreLoadStart(d);
    substeps *= 2;
    st.substeps = substeps;
    st.loadRetakes++;
    first = attempt(d, substeps);
  }
  if (first) {
    rollBack(d, time0);
    st.recovery = 'substeps';
    let error = attempt(d, substeps * RECOVERY_SUBSTEPS);
    if (error) {
      rollBack(d, time0);
      // the failing bodies and every body their rows joined them to in the failed try
      for (const f of d.failedBodies) {
        for (const b of d.bodies) {
          if (b !== f && (f.island < 0 || b.island !== f.island)) continue;
          b.state.qd.fill(0); b.frameQd.fill(0); b.state.work.dynamicsValid = false;
        }
      }
      st.recovery = 'stopped';
      error = attempt(d, substeps * RECOVERY_SUBSTEPS);
      if (error) { st.recovery = 'rolled back'; rollBack(d, time0 + dt); }
    }
    // what failed first, and what the step did about it
    st.error = `${first}; ${st.recovery === 'rolled back' ? 'the step was rolled back' : st.recovery === 'stopped' ? 'the step was taken again in sub-steps with the failing bodies stopped' : 'the step was taken again in sub-steps'}`;
  }
  return st.recovery !== 'rolled back';
}

/**
 * One try at the step from its start: `substeps` sub-steps, each of at most maxPasses
 * detection-and-solve passes (pieces); the last pass a sub-step allows takes all the time that
 * remains without backtracking, its overlaps left to speculative contacts and stabilisation.
 * Returns '' or what went non-finite (the failing bodies in failedBodies).
 */
function attempt(d: StepData, substeps: number): string {
  const st = d.stats;
  // (the step's time and length from scalars: a double argument to a call that is not inlined is boxed)
  const h = d.scalars[4] / substeps;
  d.scalars[5] = h;
  d.failedBodies.length = 0;
  if (d.events) d.events.beginAttempt();
  if (d.limitHits) d.limitHits.beginAttempt();
  try {
    for (let s = 0; s < substeps; s++) {
      let remaining = h;
      for (let pass = 1; remaining > h * 1e-9; pass++) {
        d.scalars[1] = remaining;
        d.lastPass = pass >= d.settings.maxPasses;
        // the shortest a halving may leave this pass: an equal share of what remains to each pass left
        d.scalars[8] = remaining / (d.settings.maxPasses - pass + 1);
        advance(d);
        st.passes++;
        remaining = d.lastPass ? 0 : remaining - d.scalars[1];
      }
    }
    return checkFinite(d);
  } catch (e) {
    // a TypeError or ReferenceError is a programming error, not a state gone bad: roll back, then
    // let it surface with its stack instead of freezing the world quietly
    if (e instanceof TypeError || e instanceof ReferenceError) {
      rollBack(d, d.scalars[3]);
      throw e;
    }
    checkFinite(d);
    return `World.step at t = ${d.scalars[3]}: ${(e as Error).message}`;
  }
}

/** Restores every body to the start of the step (nothing simulated before it is lost). */
function rollBack(d: StepData, time: number): void {
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi];
    b.state.q.set(b.frameQ);
    b.state.qd.set(b.frameQd);
    b.state.work.dynamicsValid = false;
    b.energy[1] = b.energy[2];
  }
  d.scalars[6] = 0;
  d.warm.clear();
  d.scalars[0] = time;
}

/** '' when every state is finite, else which body and joint went non-finite (every such body in failedBodies). */
function checkFinite(d: StepData): string {
  let msg = '';
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi];
    const joint = b.nonFiniteJoint();
    if (!joint) continue;
    d.failedBodies.push(b);
    if (!msg) msg = `body "${b.name}" joint "${joint}" became non-finite`;
  }
  return msg;
}
