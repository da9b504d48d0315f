/**
 * The check of pinned loads around a step whose sub-steps the world chose (World.autoSubsteps):
 * whether every pin held its bodies together and kept their joints at their stops. The world's
 * rule for sub-steps reads masses only (the load a pin's bodies hold against their lightest
 * link), and how fast the light links between pin and load move also depends on how many of them
 * there are and how the load swings: chains of 7 to 9 light links holding 28 to 109 times a
 * link's mass opened their pins 2.5 to 30 cm at the sub-steps the rule gave (4 or 8), and held
 * within 3.4 mm at twice as many (16 for one). A step after which a pin stands more than
 * PIN_SLACK further open than it began, or a joint of a pinned body more than LIMIT_SLACK further
 * past its stops, is taken again from its start in twice the sub-steps (step/recovery.ts), up to
 * MAX_LOAD_SUBSTEPS, while each retake at least halves how far beyond they went: the measure is the
 * outcome itself, so it needs no model of the chain, and a pin that sub-steps do not help (one
 * pulling against a contact it asked to keep, PointPin.collideConnected) costs one retake a step.
 */
import { forwardKinematics } from '@sinew/featherstone';
import { worstLimitViolation } from '../sources/joint-limits.js';
import { type StepData, enabledPinOf } from './step-data.js';

/** How much further open (m) than it began a step a pin may end it. */
const PIN_SLACK = 0.003;
/**
 * How much further past its stops (rad or m) than it began a step a joint of a pinned body may end
 * it. (At 0.02 a 9-link chain of 0.73 kg ball-jointed links holding 20 kg crept to 0.051 rad past
 * its cones, step by step within the slack; at 0.01 it keeps within 0.020 rad.)
 */
const LIMIT_SLACK = 0.01;
/** The most sub-steps a step is taken again in. */
export const MAX_LOAD_SUBSTEPS = 64;

/**
 * Measures every enabled pin's gap and each pinned body's worst joint past its stops at the step's
 * start (StepData.loadGap, loadLimit), and keeps what a retake must start from that rollBack does
 * not restore: the warm-start forces, and each body's sleep state and warm-start check. Returns
 * whether any enabled pin holds a body.
 */
export function measureLoadsAtStart(d: StepData): boolean {
  const n = measureLoads(d, false);
  if (n === 0) return false;
  const warm = d.warm, size = warm.size;
  if (d.loadWarmKeys.length < size) { d.loadWarmKeys = new Float64Array(2 * size); d.loadWarmForces = new Float64Array(2 * size); }
  for (let e = 0; e < size; e++) { d.loadWarmKeys[e] = warm.keyAt(e); d.loadWarmForces[e] = warm.forceAt(e); }
  d.loadWarmCount = size;
  const bodies = d.bodies;
  if (d.loadSleep.length < bodies.length) { d.loadSleep = new Uint8Array(2 * bodies.length); d.loadRest = new Float64Array(2 * bodies.length); }
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    d.loadSleep[bi] = (b.sleeping ? 1 : 0) | (b.checkWarmStart ? 2 : 0);
    d.loadRest[bi] = b.restTime;
  }
  return true;
}

/**
 * Whether every pin ended the step within PIN_SLACK of its gap at the start, and every pinned
 * body's joints within LIMIT_SLACK of how far past their stops they began. How far they went
 * beyond, the worst in units of its slack, goes to loadExcess[0] (NaN when a measure is not finite).
 */
export function loadsHeld(d: StepData): boolean {
  const n = measureLoads(d, true);
  let excess = 0;
  for (let k = 0; k < n; k++) {
    const e = (d.loadGapEnd[k] - d.loadGap[k] - PIN_SLACK) / PIN_SLACK;
    if (!(e <= excess)) excess = e;
  }
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const start = d.loadLimit[bi];
    if (!(start === start)) continue;
    const e = (d.loadLimitEnd[bi] - Math.max(0, start) - LIMIT_SLACK) / LIMIT_SLACK;
    if (!(e <= excess)) excess = e;
  }
  d.loadExcess[0] = excess;
  return excess <= 0;
}

/** Back to what measureLoadsAtStart kept (after rollBack): the warm-start forces, the sleep states and warm-start checks. */
export function restoreLoadStart(d: StepData): void {
  const warm = d.warm;
  warm.clear();
  for (let e = 0; e < d.loadWarmCount; e++) warm.set(d.loadWarmKeys[e], d.loadWarmForces[e]);
  const bodies = d.bodies;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    b.sleeping = (d.loadSleep[bi] & 1) === 1;
    b.checkWarmStart = (d.loadSleep[bi] & 2) === 2;
    b.restTime = d.loadRest[bi];
  }
}

/**
 * Each enabled pin's gap (m) into loadGap[k] (loadGapEnd when `end`; k in the order of the
 * sources), and each pinned body's worst joint past its stops into loadLimit[body] (loadLimitEnd;
 * NaN for a body no pin holds); returns the number of pins. Poses the pinned bodies (forward
 * kinematics of their q) to measure them.
 */
function measureLoads(d: StepData, end: boolean): number {
  const bodies = d.bodies, sep = d.loadSeparation;
  if (d.loadGap.length < d.sources.length) { d.loadGap = new Float64Array(2 * d.sources.length); d.loadGapEnd = new Float64Array(2 * d.sources.length); }
  if (d.loadLimit.length < bodies.length) { d.loadLimit = new Float64Array(2 * bodies.length); d.loadLimitEnd = new Float64Array(2 * bodies.length); }
  const gap = end ? d.loadGapEnd : d.loadGap, limit = end ? d.loadLimitEnd : d.loadLimit;
  limit.fill(NaN, 0, bodies.length);
  let n = 0;
  for (const src of d.sources) {
    const pin = enabledPinOf(src);
    if (pin === null) continue;
    const a = pin.bodyA, t = pin.target.body;
    forwardKinematics(bodies[a].model, bodies[a].state, false);
    if (t >= 0) forwardKinematics(bodies[t].model, bodies[t].state, false);
    pin.separation(bodies, sep);
    gap[n++] = Math.sqrt(sep[0] * sep[0] + sep[1] * sep[1] + sep[2] * sep[2]);
    if (!(limit[a] === limit[a])) limit[a] = worstLimitViolation(bodies[a], d.loadWorst).violation;
    if (t >= 0 && !(limit[t] === limit[t])) limit[t] = worstLimitViolation(bodies[t], d.loadWorst).violation;
  }
  return n;
}
