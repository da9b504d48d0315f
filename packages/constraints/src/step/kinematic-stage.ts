/**
 * Kinematic bodies and links in the step (kinematic.ts holds their rules): rates set at the
 * step's start, the prescribed rows of each pass, rows that cannot act dropped, the kinematic
 * joints moved exactly by their rates after each pass, targets landed on at the step's end. Also
 * the forward kinematics of the awake bodies that several stages start from.
 */
import { forwardKinematics } from '@sinew/featherstone';
import { KinematicMode, addPrescribedRows, landOnTarget, movePrescribed, onPrescribedJoint, prescribedMoving, prescribedVelocity, ratesFromTarget } from '../kinematic.js';
import { type RowBuffer, RowType, copyRow } from '../rows/row-buffer.js';
import { type StepData, sameNumbers } from './step-data.js';

/**
 * At the start of a step of length dt: the rates of the kinematic joints (position mode: from
 * the pending target, or zero), a kinematic body's velocities set to them at once, and a sleeper
 * whose kinematic joints move woken.
 */
export function beginKinematics(d: StepData, dt: number): void {
  let n = 0;
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi], kin = b.kinematic;
    if (kin === null) continue;
    n++;
    if (kin.flags[0] === KinematicMode.Position) ratesFromTarget(b.model, kin, b.state.q, dt);
    if (b.isKinematic) prescribedVelocity(b.model, kin, b.state.q, b.state.qd);
    if (b.sleeping && !b.disabledApplied && (kin.flags[1] === 1 || prescribedMoving(kin))) d.wake(b);
  }
  d.kinematicBodies = n;
}

/** The rows of every kinematic joint (sleepers' too: a sleeper a row wakes must not move freely for a pass). */
export function addKinematicRows(d: StepData, rows: RowBuffer): void {
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi];
    // (the pass's length as the number object stepLength holds: a double passed on is boxed)
    if (b.kinematic !== null && !b.disabledApplied) addPrescribedRows(rows, bi, b.model, b.kinematic, b.state.q, b.state.qd, d.stepLength as number);
  }
}

/**
 * Drops the rows that cannot act: joint rows of other sources on kinematic joints (limits,
 * drives), and point or angular rows between two sides that cannot move (static shapes and
 * links joined to the world by kinematic joints only: a platform's contact with the floor).
 */
export function dropKinematicRows(d: StepData, rows: RowBuffer): void {
  const bodies = d.bodies;
  let k = 0;
  if (d.rowMoved.length < rows.count) d.rowMoved = new Int32Array(rows.capacity);
  for (let j = 0; j < rows.count; j++) {
    const a = bodies[rows.bodyA[j]], bi = rows.bodyB[j];
    let drop = false;
    if (rows.type[j] <= RowType.JointVec) drop = a.kinematic !== null && onPrescribedJoint(rows, j, a.model, a.kinematic);
    else {
      const fixedA = a.kinematic !== null && a.kinematic.fixed[rows.linkA[j]] === 1;
      const B = bi >= 0 ? bodies[bi] : null;
      const fixedB = B === null || (B.kinematic !== null && B.kinematic.fixed[rows.linkB[j]] === 1);
      drop = fixedA && fixedB;
    }
    d.rowMoved[j] = -1;
    if (drop) continue;
    if (k !== j) copyRow(rows, j, k);
    d.rowMoved[j] = k;
    k++;
  }
  if (k === rows.count) return;
  const rowOf = d.contacts.normalRowOf;
  for (let c = 0; c < d.contacts.count; c++) if (rowOf[c] >= 0) rowOf[c] = d.rowMoved[rowOf[c]];
  rows.count = k;
}

/** After a pass (of length stepLength): every awake body's kinematic joints moved exactly by their rates from the pass's start (Body.savedQ). */
export function moveKinematics(d: StepData): void {
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi];
    if (b.kinematic === null || b.sleeping) continue;
    movePrescribed(b.model, b.kinematic, b.savedQ, d.stepLength as number, b.state.q, b.state.qd);
    b.state.work.dynamicsValid = false;
  }
}

/** At the end of a step (not rolled back): kinematic joints with a target are set to it exactly, and the target is spent. */
export function endKinematics(d: StepData, moved: boolean): void {
  if (d.kinematicBodies === 0) return;
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi], kin = b.kinematic;
    if (kin === null || kin.flags[1] !== 1) continue;
    if (moved && !b.sleeping) { landOnTarget(b.model, kin, b.state.q, b.state.qd); b.state.work.dynamicsValid = false; }
    kin.flags[1] = 0;
  }
}

/** Forward kinematics (with velocities when asked) of every awake body. */
export function awakeKinematics(d: StepData, withVelocities: boolean): void {
  const bodies = d.bodies;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping) continue;
    // (a state the last kinematics with velocities saw, step after step when nothing moved the
    // body after the position check of the step before: its work arrays hold the same numbers)
    if (withVelocities && sameNumbers(b.kinematicsQ, b.state.q) && sameNumbers(b.kinematicsQd, b.state.qd)) continue;
    forwardKinematics(b.model, b.state, withVelocities);
    if (withVelocities) { b.kinematicsQ.set(b.state.q); b.kinematicsQd.set(b.state.qd); }
  }
}
