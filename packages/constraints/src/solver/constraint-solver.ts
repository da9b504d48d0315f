/**
 * Builds the constraint matrix K of a set of rows by AccelerationDeltas (Kokkevis section 4.3),
 * solves the mixed LCP with projected Gauss-Seidel, and applies the result as accelerations,
 * velocity jumps (impulses, section 5) or position corrections (post-stabilisation, Cline 3.4).
 *
 * Column i of K is the effect of row i's unit test force on every row: one AccelerationDeltas call
 * per body the row acts on (O(n)), then each row j on that body reads its measure from the delta
 * link accelerations (O(1) per row). The delta joint accelerations of each column are kept, so a
 * solution f becomes qdd = qdd0 + sum_i f_i dqdd_i without another dynamics pass. Cost:
 * O(n m + m^2) to build.
 */
import { forwardDynamics } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { LcpProblem } from '../lcp/problem.js';
import { PgsSolver, type PgsOptions, type PgsResult } from '../lcp/pgs.js';
import { rowAcceleration, rowSideDelta, rowSides, rowSideTestForce } from '../rows/measure.js';
import { RowTag, type RowBuffer } from '../rows/row-buffer.js';

/** How K is built: by AccelerationDeltas (fast), or by the test-force method (m + 1 ABA calls, reference). */
export type KMethod = 'deltas' | 'testForce';

/** PGS visits rows in this order of tags: pins and limits first, friction last (row-buffer.ts RowTag). */
const TAG_ORDER = [0, 1, 4, 5, 6, 2, 3];

export class ConstraintSolver {
  readonly lcp = new LcpProblem(16);
  readonly pgs = new PgsSolver(16);
  /** Rows of the current problem (global row indices), in solve order. */
  rowList = new Int32Array(16);
  m = 0;
  /** Local index of each global row (-1 when not in the problem). */
  private local = new Int32Array(16);
  /** Delta joint accelerations of each (row, side): offsets into `columns`. */
  private colOffset = new Int32Array(32);
  private columns = new Float64Array(256);
  /** Bodies of the problem and, per body, its (row, side) entries (CSR). */
  bodyList = new Int32Array(8);
  nBodies = 0;
  private bodyLocal = new Int32Array(8);
  private entryStart = new Int32Array(9);
  private entries = new Int32Array(32);
  private f = new Float64Array(16);

  /**
   * Sets the rows of the problem: `rowIndices[0..count)` of `rows`, all acting on bodies of
   * `bodies`. Orders them for PGS (pins, limits, drives, contacts, friction).
   */
  setRows(rows: RowBuffer, rowIndices: ArrayLike<number>, count: number, bodies: readonly Body[]): void {
    if (this.rowList.length < count) this.rowList = new Int32Array(2 * count);
    if (this.local.length < rows.capacity) this.local = new Int32Array(rows.capacity);
    let k = 0;
    for (const tag of TAG_ORDER) {
      for (let c = 0; c < count; c++) if (rows.tag[rowIndices[c]] === tag) this.rowList[k++] = rowIndices[c];
    }
    this.m = count;
    for (let c = 0; c < count; c++) this.local[this.rowList[c]] = c;
    // bodies and their entries
    if (this.bodyLocal.length < bodies.length) this.bodyLocal = new Int32Array(2 * bodies.length);
    this.bodyLocal.fill(-1, 0, bodies.length);
    this.nBodies = 0;
    if (this.bodyList.length < bodies.length) this.bodyList = new Int32Array(2 * bodies.length);
    for (let c = 0; c < count; c++) {
      const j = this.rowList[c];
      for (let s = 0; s < rowSides(rows, j); s++) {
        const b = s === 0 ? rows.bodyA[j] : rows.bodyB[j];
        if (this.bodyLocal[b] < 0) { this.bodyLocal[b] = this.nBodies; this.bodyList[this.nBodies++] = b; }
      }
    }
    const nb = this.nBodies;
    if (this.entryStart.length < nb + 1) this.entryStart = new Int32Array(2 * nb + 1);
    this.entryStart.fill(0, 0, nb + 1);
    let total = 0;
    for (let c = 0; c < count; c++) {
      const j = this.rowList[c];
      for (let s = 0; s < rowSides(rows, j); s++) {
        const b = s === 0 ? rows.bodyA[j] : rows.bodyB[j];
        this.entryStart[this.bodyLocal[b] + 1]++;
        total++;
      }
    }
    for (let b = 0; b < nb; b++) this.entryStart[b + 1] += this.entryStart[b];
    if (this.entries.length < total) this.entries = new Int32Array(2 * total);
    if (this.colOffset.length < 2 * count) this.colOffset = new Int32Array(4 * count);
    let colSize = 0;
    // fill entries using a running cursor per body (reuse bodyLocal's slot cursor in a second pass)
    for (let b = 0; b < nb; b++) this.cursor(b, this.entryStart[b]);
    for (let c = 0; c < count; c++) {
      const j = this.rowList[c];
      this.colOffset[2 * c] = -1;
      this.colOffset[2 * c + 1] = -1;
      for (let s = 0; s < rowSides(rows, j); s++) {
        const b = s === 0 ? rows.bodyA[j] : rows.bodyB[j];
        const lb = this.bodyLocal[b];
        this.entries[this.nextCursor(lb)] = 2 * c + s;
        this.colOffset[2 * c + s] = colSize;
        colSize += bodies[b].model.nv;
      }
    }
    if (this.columns.length < colSize) this.columns = new Float64Array(2 * colSize);
    if (this.f.length < count) this.f = new Float64Array(2 * count);
    this.pgs.reserve(count);
  }

  private cursors = new Int32Array(8);
  private cursor(b: number, v: number): void {
    if (this.cursors.length <= b) { const c = new Int32Array(2 * (b + 1)); c.set(this.cursors); this.cursors = c; }
    this.cursors[b] = v;
  }
  private nextCursor(b: number): number {
    return this.cursors[b]++;
  }

  /** Runs forward dynamics on every body of the problem (qdd0 and the quantities AccelerationDeltas reuses). */
  dynamics(bodies: readonly Body[]): void {
    for (let k = 0; k < this.nBodies; k++) {
      const B = bodies[this.bodyList[k]];
      forwardDynamics(B.model, B.state, B.qdd0);
    }
  }

  /**
   * Fills K (lcp.A) for the current rows. `dynamics` must have run at the current positions.
   * With method 'testForce', each column costs one more ABA call per body instead (reference).
   */
  buildK(rows: RowBuffer, bodies: readonly Body[], method: KMethod = 'deltas'): void {
    const m = this.m;
    const lcp = this.lcp;
    lcp.resize(m);
    const A = lcp.A;
    for (let c = 0; c < m; c++) {
      const i = this.rowList[c];
      for (let s = 0; s < rowSides(rows, i); s++) {
        const b = s === 0 ? rows.bodyA[i] : rows.bodyB[i];
        const body = bodies[b];
        const off = this.colOffset[2 * c + s];
        const nv = body.model.nv;
        const col = this.columns.subarray(off, off + nv);
        if (method === 'deltas') rowSideTestForce(rows, i, s, body, col);
        else this.testForceColumn(rows, i, s, body, col);
        // measures of every row side on this body
        const lb = this.bodyLocal[b];
        for (let e = this.entryStart[lb]; e < this.entryStart[lb + 1]; e++) {
          const entry = this.entries[e];
          const cj = entry >> 1, sj = entry & 1;
          A[cj * m + c] += rowSideDelta(rows, this.rowList[cj], sj, body, col);
        }
      }
    }
    if (method === 'testForce') this.dynamics(bodies);
  }

  /**
   * The test-force method (Kokkevis 4.2): apply the row side's unit force through the state's
   * external forces or joint torques, run ABA, subtract the default accelerations qdd0. The delta
   * link accelerations follow kinematically from the joint deltas, so the same measures apply.
   * The body's ABA quantities are those of the loaded state afterwards: buildK re-runs the
   * default dynamics once per body at the end.
   */
  private testForceColumn(rows: RowBuffer, i: number, s: number, body: Body, col: Float64Array): void {
    const { model, state } = body;
    applyRowSideForce(rows, i, s, body, 1);
    forwardDynamics(model, state, col);
    applyRowSideForce(rows, i, s, body, -1);
    for (let d = 0; d < model.nv; d++) col[d] -= body.qdd0[d];
    linkDeltasFromJointDeltas(body, col);
  }

  /** b = default measure - desired measure (acceleration level). */
  setAccelerationRhs(rows: RowBuffer, bodies: readonly Body[]): void {
    const { b } = this.lcp;
    for (let c = 0; c < this.m; c++) {
      const j = this.rowList[c];
      b[c] = rowAcceleration(rows, j, bodies) - rows.desired[j];
    }
    this.setBounds(rows);
  }

  /** b = `values[row]` for each row (velocity jumps or position errors). */
  setRhs(rows: RowBuffer, values: Float64Array): void {
    const { b } = this.lcp;
    for (let c = 0; c < this.m; c++) b[c] = values[this.rowList[c]];
    this.setBounds(rows);
  }

  private setBounds(rows: RowBuffer): void {
    const { lo, hi, boundRow } = this.lcp;
    for (let c = 0; c < this.m; c++) {
      const j = this.rowList[c];
      lo[c] = rows.lo[j];
      hi[c] = rows.hi[j];
      const r = rows.boundRow[j];
      boundRow[c] = r >= 0 ? this.local[r] : -1;
    }
  }

  /** Solves with PGS, warm-started from rows.force (when `warm`), and writes the forces back to rows.force. */
  solve(rows: RowBuffer, options: PgsOptions, warm: boolean): PgsResult {
    const f = this.f;
    for (let c = 0; c < this.m; c++) f[c] = warm ? rows.force[this.rowList[c]] : 0;
    const r = this.pgs.solve(this.lcp, f, options);
    for (let c = 0; c < this.m; c++) rows.force[this.rowList[c]] = f[c];
    return r;
  }

  /** The forces of the last solve, in problem order. */
  get forces(): Float64Array {
    return this.f;
  }

  /**
   * out_b = base_b + scale * sum_i f_i dqdd_i for each body b of the problem (dqdd of each row
   * side, as kept by buildK). `target` picks what is written: 'qdd' (constrained accelerations
   * from qdd0), 'qd' (a velocity jump added to qd), or 'dq' (into body.scratch).
   */
  combine(bodies: readonly Body[], target: 'qdd' | 'qd' | 'dq'): void {
    for (let k = 0; k < this.nBodies; k++) {
      const B = bodies[this.bodyList[k]];
      const nv = B.model.nv;
      const out = target === 'qdd' ? B.qdd : target === 'qd' ? B.state.qd : B.scratch;
      if (target === 'qdd') out.set(B.qdd0);
      else if (target === 'dq') out.fill(0, 0, nv);
      for (let e = this.entryStart[k]; e < this.entryStart[k + 1]; e++) {
        const entry = this.entries[e];
        const c = entry >> 1, s = entry & 1;
        const fc = this.f[c];
        if (fc === 0) continue;
        const off = this.colOffset[2 * c + s];
        const col = this.columns;
        for (let d = 0; d < nv; d++) out[d] += fc * col[off + d];
      }
    }
  }

  /** Row of local index c. */
  rowAt(c: number): number {
    return this.rowList[c];
  }
}

import { pointPosition } from '@sinew/featherstone';
import { RowType } from '../rows/row-buffer.js';

const pw = new Float64Array(3);
const fw = new Float64Array(3);

/** Adds (sign = 1) or removes (sign = -1) the unit test force of a row side to the body's state. */
function applyRowSideForce(rows: RowBuffer, i: number, s: number, body: Body, sign: number): void {
  const { state, model } = body;
  const t = rows.type[i];
  const d = rows.dir, o = 3 * i;
  if (t === RowType.Joint) { state.tau[rows.dof[i]] += sign * d[o]; return; }
  if (t === RowType.JointVec) {
    const link = rows.linkA[i];
    const v0 = model.vOffset[link];
    for (let k = 0; k < Math.min(3, model.jointNv[link]); k++) state.tau[v0 + k] += sign * d[o + k];
    return;
  }
  const link = s === 0 ? rows.linkA[i] : rows.linkB[i];
  const side = s === 0 ? 1 : -1;
  fw[0] = sign * side * d[o]; fw[1] = sign * side * d[o + 1]; fw[2] = sign * side * d[o + 2];
  const ext = state.fext, eo = 6 * link;
  if (t === RowType.Angular) {
    ext[eo] += fw[0]; ext[eo + 1] += fw[1]; ext[eo + 2] += fw[2];
    return;
  }
  const local = s === 0 ? rows.pA : rows.pB;
  pw[0] = local[o]; pw[1] = local[o + 1]; pw[2] = local[o + 2];
  pointPosition(state, link, pw, pw);
  ext[eo] += pw[1] * fw[2] - pw[2] * fw[1];
  ext[eo + 1] += pw[2] * fw[0] - pw[0] * fw[2];
  ext[eo + 2] += pw[0] * fw[1] - pw[1] * fw[0];
  ext[eo + 3] += fw[0]; ext[eo + 4] += fw[1]; ext[eo + 5] += fw[2];
}

/** work.da from joint-space deltas: da_i = X_i da_parent + S_i dqdd_i (no velocity terms). */
function linkDeltasFromJointDeltas(body: Body, dqdd: Float64Array): void {
  const { model, state } = body;
  const { Xup, da } = state.work;
  for (let i = 0; i < model.nLinks; i++) {
    const p = model.parent[i], vo = 6 * i, xo = 12 * i;
    if (p < 0) da.fill(0, vo, vo + 6);
    else {
      const m = da, mo = 6 * p;
      const wx = m[mo], wy = m[mo + 1], wz = m[mo + 2];
      const rx = Xup[xo + 9], ry = Xup[xo + 10], rz = Xup[xo + 11];
      const ux = m[mo + 3] - (ry * wz - rz * wy), uy = m[mo + 4] - (rz * wx - rx * wz), uz = m[mo + 5] - (rx * wy - ry * wx);
      da[vo] = Xup[xo] * wx + Xup[xo + 1] * wy + Xup[xo + 2] * wz;
      da[vo + 1] = Xup[xo + 3] * wx + Xup[xo + 4] * wy + Xup[xo + 5] * wz;
      da[vo + 2] = Xup[xo + 6] * wx + Xup[xo + 7] * wy + Xup[xo + 8] * wz;
      da[vo + 3] = Xup[xo] * ux + Xup[xo + 1] * uy + Xup[xo + 2] * uz;
      da[vo + 4] = Xup[xo + 3] * ux + Xup[xo + 4] * uy + Xup[xo + 5] * uz;
      da[vo + 5] = Xup[xo + 6] * ux + Xup[xo + 7] * uy + Xup[xo + 8] * uz;
    }
    const S = model.S, so = 36 * i, v0 = model.vOffset[i];
    for (let k = 0; k < model.jointNv[i]; k++) {
      const q = dqdd[v0 + k];
      for (let e = 0; e < 6; e++) da[vo + e] += S[so + 6 * k + e] * q;
    }
  }
}

export { RowTag };
