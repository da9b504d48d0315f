/**
 * Measures of constraint rows (row-buffer.ts): at the velocity level, at the acceleration level
 * from the last forward-dynamics pass, and as the change caused by a test force (from the delta
 * link accelerations AccelerationDeltas leaves in state.work.da). Also the test force of each row
 * side, fed to AccelerationDeltas.
 */
import {
  accelerationDeltasForce,
  accelerationDeltasJointForce,
  accelerationDeltasPointForce,
  pointAcceleration,
  pointPosition,
  pointVelocity,
  type Model,
} from '@sinew/featherstone';
import type { Body } from '../body.js';
import { RowType, type RowBuffer } from './row-buffer.js';

const v3 = new Float64Array(3);
const w3 = new Float64Array(3);
const f6 = new Float64Array(6);
/**
 * The sum the side measures add into. A double returned from a call the optimiser does not inline
 * is boxed on the heap; addSideMotion is large and called for every row several times a step, so it
 * adds into this array instead of returning its value.
 */
const sum = new Float64Array(1);

/** Adds to sum[0] the measure of one side of row j (side 0: body A, +; side 1: body B, -) from the joint-space vector x (qd or qdd) and link motions m (work.v, work.a or work.da). */
function addSideMotion(rows: RowBuffer, j: number, side: number, body: Body, x: ArrayLike<number>, m: Float64Array, level: 0 | 1 | 2): void {
  const t = rows.type[j];
  const d = rows.dir, o = 3 * j;
  if (t === RowType.Joint) { sum[0] += d[o] * x[rows.dof[j]]; return; }
  const link = side === 0 ? rows.linkA[j] : rows.linkB[j];
  const sign = side === 0 ? 1 : -1;
  const model = body.model;
  if (t === RowType.JointVec) {
    const v0 = model.vOffset[link];
    const nv = Math.min(3, model.jointNv[link]);
    let s = 0;
    for (let k = 0; k < nv; k++) s += d[o + k] * x[v0 + k];
    sum[0] += s;
    return;
  }
  const P = body.state.work.pose, po = 12 * link, mo = 6 * link;
  if (t === RowType.Angular) {
    // d . R w
    const wx = P[po] * m[mo] + P[po + 1] * m[mo + 1] + P[po + 2] * m[mo + 2];
    const wy = P[po + 3] * m[mo] + P[po + 4] * m[mo + 1] + P[po + 5] * m[mo + 2];
    const wz = P[po + 6] * m[mo] + P[po + 7] * m[mo + 1] + P[po + 8] * m[mo + 2];
    sum[0] += sign * (d[o] * wx + d[o + 1] * wy + d[o + 2] * wz);
    return;
  }
  const local = side === 0 ? rows.pA : rows.pB;
  const lo = 3 * j;
  v3[0] = local[lo]; v3[1] = local[lo + 1]; v3[2] = local[lo + 2];
  if (level === 0) pointVelocity(body.state, link, v3, w3);
  else if (level === 1) pointAcceleration(body.state, link, v3, w3);
  else {
    // delta acceleration of the point: R (da_lin + da_ang x r) (no velocity terms: velocities are unchanged)
    const ax = m[mo + 3] + (m[mo + 1] * v3[2] - m[mo + 2] * v3[1]);
    const ay = m[mo + 4] + (m[mo + 2] * v3[0] - m[mo] * v3[2]);
    const az = m[mo + 5] + (m[mo] * v3[1] - m[mo + 1] * v3[0]);
    w3[0] = P[po] * ax + P[po + 1] * ay + P[po + 2] * az;
    w3[1] = P[po + 3] * ax + P[po + 4] * ay + P[po + 5] * az;
    w3[2] = P[po + 6] * ax + P[po + 7] * ay + P[po + 8] * az;
  }
  sum[0] += sign * (d[o] * w3[0] + d[o + 1] * w3[1] + d[o + 2] * w3[2]);
}

/**
 * The measure of row j at the velocity (level 0: qd, work.v) or acceleration level (level 1: the
 * unconstrained qdd0 and work.a of the last forward dynamics), into sum[0].
 */
function storeRowMotion(rows: RowBuffer, j: number, bodies: readonly Body[], level: 0 | 1): void {
  const A = bodies[rows.bodyA[j]];
  sum[0] = 0;
  addSideMotion(rows, j, 0, A, level === 0 ? A.state.qd : A.qdd0, level === 0 ? A.state.work.v : A.state.work.a, level);
  const b = rows.bodyB[j];
  if (b >= 0 && rows.type[j] >= RowType.Point) {
    const B = bodies[b];
    addSideMotion(rows, j, 1, B, level === 0 ? B.state.qd : B.qdd0, level === 0 ? B.state.work.v : B.state.work.a, level);
  }
}

/** Velocity-level measure of row j (requires forwardKinematics with velocities on its bodies). */
export function rowVelocity(rows: RowBuffer, j: number, bodies: readonly Body[]): number {
  storeRowMotion(rows, j, bodies, 0);
  return sum[0];
}

/** rowVelocity into out[k] (hot loops: no boxed return). */
export function rowVelocityInto(rows: RowBuffer, j: number, bodies: readonly Body[], out: Float64Array, k: number): void {
  storeRowMotion(rows, j, bodies, 0);
  out[k] = sum[0];
}

/** World velocities of the last point each side measured (rowVelocitiesInto), and which point that was. */
const sideVelocity = new Float64Array(6);
const sideKey = new Float64Array(10);

/**
 * rowVelocityInto for rows [0, rows.count) into out[j]. A point row whose side has the same body,
 * link and point as the row before it (a contact's normal and friction rows) reuses that point's
 * velocity: the numbers are those of rowVelocityInto, row by row.
 */
export function rowVelocitiesInto(rows: RowBuffer, bodies: readonly Body[], out: Float64Array): void {
  sideKey[0] = -1; sideKey[5] = -1;
  const d = rows.dir;
  for (let j = 0; j < rows.count; j++) {
    if (rows.type[j] !== RowType.Point) { rowVelocityInto(rows, j, bodies, out, j); continue; }
    const o = 3 * j, b = rows.bodyB[j];
    let s = 0;
    for (let side = 0; side < (b >= 0 ? 2 : 1); side++) {
      const body = side === 0 ? rows.bodyA[j] : b, link = side === 0 ? rows.linkA[j] : rows.linkB[j];
      const local = side === 0 ? rows.pA : rows.pB, k = 5 * side, w = 3 * side;
      if (sideKey[k] !== body || sideKey[k + 1] !== link || sideKey[k + 2] !== local[o] || sideKey[k + 3] !== local[o + 1] || sideKey[k + 4] !== local[o + 2]) {
        sideKey[k] = body; sideKey[k + 1] = link; sideKey[k + 2] = local[o]; sideKey[k + 3] = local[o + 1]; sideKey[k + 4] = local[o + 2];
        v3[0] = local[o]; v3[1] = local[o + 1]; v3[2] = local[o + 2];
        pointVelocity(bodies[body].state, link, v3, sideVelocity, w);
      }
      // (as addSideMotion: side 0 adds, side 1 subtracts)
      const m = d[o] * sideVelocity[w] + d[o + 1] * sideVelocity[w + 1] + d[o + 2] * sideVelocity[w + 2];
      s += side === 0 ? m : -m;
    }
    out[j] = s;
  }
}

/** Acceleration-level measure of row j with the unconstrained accelerations of the last forward-dynamics pass. */
export function rowAcceleration(rows: RowBuffer, j: number, bodies: readonly Body[]): number {
  storeRowMotion(rows, j, bodies, 1);
  return sum[0];
}

/** rowAcceleration into out[k] (hot loops: no boxed return). */
export function rowAccelerationInto(rows: RowBuffer, j: number, bodies: readonly Body[], out: Float64Array, k: number): void {
  storeRowMotion(rows, j, bodies, 1);
  out[k] = sum[0];
}

/** The change of one side's measure of row j caused by the last AccelerationDeltas call on `body` (dqdd, work.da). */
export function rowSideDelta(rows: RowBuffer, j: number, side: number, body: Body, dqdd: ArrayLike<number>): number {
  sum[0] = 0;
  addSideMotion(rows, j, side, body, dqdd, body.state.work.da, 2);
  return sum[0];
}

/** out[at] += rowSideDelta(rows, j, side, body, dqdd) (for the solver's loops: a returned number is boxed). */
export function addRowSideDelta(rows: RowBuffer, j: number, side: number, body: Body, dqdd: ArrayLike<number>, out: Float64Array, at: number): void {
  sum[0] = 0;
  addSideMotion(rows, j, side, body, dqdd, body.state.work.da, 2);
  out[at] += sum[0];
}

/**
 * Runs AccelerationDeltas for the unit test force of one side of row i (side 1 carries the
 * opposite force), writing the delta joint accelerations of that body into out.
 */
export function rowSideTestForce(rows: RowBuffer, i: number, side: number, body: Body, out: Float64Array): Float64Array {
  const { model, state } = body;
  const t = rows.type[i];
  const d = rows.dir, o = 3 * i;
  if (t === RowType.Joint || t === RowType.JointVec) {
    const link = rowJointForce(rows, i, model, f6);
    return accelerationDeltasJointForce(model, state, link, f6, 0, out);
  }
  const link = side === 0 ? rows.linkA[i] : rows.linkB[i];
  const sign = side === 0 ? 1 : -1;
  w3[0] = sign * d[o]; w3[1] = sign * d[o + 1]; w3[2] = sign * d[o + 2];
  if (t === RowType.Angular) {
    // a pure moment: link coordinates R^T (sign d), no force
    const P = state.work.pose, po = 12 * link;
    f6[0] = P[po] * w3[0] + P[po + 3] * w3[1] + P[po + 6] * w3[2];
    f6[1] = P[po + 1] * w3[0] + P[po + 4] * w3[1] + P[po + 7] * w3[2];
    f6[2] = P[po + 2] * w3[0] + P[po + 5] * w3[1] + P[po + 8] * w3[2];
    f6[3] = 0; f6[4] = 0; f6[5] = 0;
    return accelerationDeltasForce(model, state, link, f6, 0, out);
  }
  const local = side === 0 ? rows.pA : rows.pB;
  v3[0] = local[o]; v3[1] = local[o + 1]; v3[2] = local[o + 2];
  pointPosition(state, link, v3, f6, 0);
  return accelerationDeltasPointForce(model, state, link, f6, w3, out);
}

/**
 * The test force of a joint row (Joint, JointVec) as a generalised force on the dofs of one joint:
 * written into out[0..6) (zero beyond the row's dofs); returns that joint's link.
 */
export function rowJointForce(rows: RowBuffer, i: number, model: Model, out: Float64Array): number {
  const d = rows.dir, o = 3 * i;
  out.fill(0, 0, 6);
  if (rows.type[i] === RowType.Joint) {
    const dof = rows.dof[i], link = model.dofLink[dof];
    out[dof - model.vOffset[link]] = d[o];
    return link;
  }
  const link = rows.linkA[i];
  const nv = Math.min(3, model.jointNv[link]);
  for (let k = 0; k < nv; k++) out[k] = d[o + k];
  return link;
}

/** Number of bodies a row acts on (1 or 2). */
export function rowSides(rows: RowBuffer, j: number): number {
  return rows.bodyB[j] >= 0 && rows.type[j] >= RowType.Point ? 2 : 1;
}

const pw = new Float64Array(3);
const qw = new Float64Array(3);

/**
 * Exact position measure of row j where one exists (point rows: d . (pA - pB) in the world; joint
 * rows on 1-dof joints: c q) into out[k] (written, not returned: see sum); NaN otherwise. Requires
 * forward kinematics (positions).
 */
export function rowPositionInto(rows: RowBuffer, j: number, bodies: readonly Body[], out: Float64Array, k: number): void {
  const t = rows.type[j];
  const A = bodies[rows.bodyA[j]];
  const d = rows.dir, o = 3 * j;
  if (t === RowType.Joint) {
    const m = A.model, dof = rows.dof[j], link = m.dofLink[dof];
    out[k] = m.jointNv[link] !== 1 ? NaN : d[o] * A.state.q[m.qOffset[link]];
    return;
  }
  if (t !== RowType.Point) { out[k] = NaN; return; }
  v3[0] = rows.pA[o]; v3[1] = rows.pA[o + 1]; v3[2] = rows.pA[o + 2];
  pointPosition(A.state, rows.linkA[j], v3, pw);
  const b = rows.bodyB[j];
  if (b >= 0) {
    v3[0] = rows.pB[o]; v3[1] = rows.pB[o + 1]; v3[2] = rows.pB[o + 2];
    pointPosition(bodies[b].state, rows.linkB[j], v3, qw);
  } else {
    qw[0] = rows.pB[o]; qw[1] = rows.pB[o + 1]; qw[2] = rows.pB[o + 2];
  }
  out[k] = d[o] * (pw[0] - qw[0]) + d[o + 1] * (pw[1] - qw[1]) + d[o + 2] * (pw[2] - qw[2]);
}
