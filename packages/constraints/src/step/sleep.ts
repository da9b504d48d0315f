/**
 * Sleep: rows of sleepers dropped (or their sleepers woken when an awake body touches them), and
 * after each pass, islands at rest put to sleep as a whole.
 */
import { forwardKinematics, kineticEnergy } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { prescribedMoving } from '../kinematic.js';
import { type RowBuffer, copyRow } from '../rows/row-buffer.js';
import { awakeKinematics } from './kinematic-stage.js';
import type { StepData } from './step-data.js';

/** Whether every body sleeps (then a step has nothing to do). */
export function everyBodyAsleep(d: StepData): boolean {
  for (let bi = 0; bi < d.bodies.length; bi++) if (!d.bodies[bi].sleeping) return false;
  return true;
}

/**
 * Rows touching a sleeping body: when their other side is awake, the sleeper wakes (it was
 * touched); when every side sleeps or is static, the row is dropped.
 */
export function dropSleepingRows(d: StepData, rows: RowBuffer): void {
  const bodies = d.bodies;
  let sleepers = false;
  for (let bi = 0; bi < bodies.length && !sleepers; bi++) sleepers = bodies[bi].sleeping;
  if (!sleepers) return;
  let woke = false;
  for (let j = 0; j < rows.count; j++) {
    const a = bodies[rows.bodyA[j]], bi = rows.bodyB[j];
    const b = bi >= 0 ? bodies[bi] : null;
    if (a.sleeping && b && !b.sleeping) { d.wake(a); woke = true; }
    else if (b && b.sleeping && !a.sleeping) { d.wake(b); woke = true; }
  }
  if (woke) awakeKinematics(d, true);
  let k = 0;
  if (d.rowMoved.length < rows.count) d.rowMoved = new Int32Array(rows.capacity);
  for (let j = 0; j < rows.count; j++) {
    const a = bodies[rows.bodyA[j]], bi = rows.bodyB[j];
    d.rowMoved[j] = -1;
    if (a.sleeping && (bi < 0 || bodies[bi].sleeping)) continue;
    // (rows holding a disabled body act on nothing)
    if (a.disabledApplied || (bi >= 0 && bodies[bi].disabledApplied)) continue;
    if (k !== j) copyRow(rows, j, k);
    d.rowMoved[j] = k;
    k++;
  }
  // the contacts' normal rows where they went
  const rowOf = d.contacts.normalRowOf;
  for (let c = 0; c < d.contacts.count; c++) if (rowOf[c] >= 0) rowOf[c] = d.rowMoved[rowOf[c]];
  rows.count = k;
}

/**
 * Sleep: an island (bodies linked by rows) whose bodies all move slower than sleepSpeed (the
 * root-mean-square speed sqrt(2 KE / m)) for sleepTime seconds goes to sleep: zero velocity, not
 * stepped, until touched by an awake body or loaded by a force.
 */
export function updateSleep(d: StepData, h: number, nIslands: number): void {
  const bodies = d.bodies;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping) continue;
    forwardKinematics(b.model, b.state, true);
    const speed = Math.sqrt((2 * kineticEnergy(b.model, b.state)) / b.model.totalMass());
    b.restTime = speed < d.settings.sleepSpeed && !driven(d, b) ? b.restTime + h : 0;
  }
  // an island sleeps only as a whole
  if (d.minRest.length < nIslands) d.minRest = new Float64Array(2 * nIslands);
  const minRest = d.minRest;
  minRest.fill(Infinity, 0, nIslands);
  for (let bi = 0; bi < bodies.length; bi++) { const b = bodies[bi]; if (!b.sleeping && b.island >= 0) minRest[b.island] = Math.min(minRest[b.island], b.restTime); }
  let sleeping = 0;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (!b.sleeping) {
      const rest = b.island >= 0 ? minRest[b.island] : b.restTime;
      if (rest >= d.settings.sleepTime) {
        b.sleeping = true;
        b.state.qd.fill(0);
        forwardKinematics(b.model, b.state, true);
      }
    }
    if (b.sleeping && !b.disabledApplied) sleeping++; // (a disabled body is held asleep, not counted)
  }
  d.stats.sleeping = sleeping;
}

/** A body with a drive, motor or pin of its own keeps moving on purpose: it does not sleep. */
function driven(d: StepData, b: Body): boolean {
  if (b.kinematic !== null && prescribedMoving(b.kinematic)) return true;
  for (const src of d.sources) {
    const s = src as { body?: number; enabled?: boolean };
    if (s.body === b.index && s.enabled !== false) return true;
  }
  return false;
}
