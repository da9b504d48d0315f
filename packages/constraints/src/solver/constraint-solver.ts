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
 *
 * Problems of more than a few rows (a ragdoll lying on the ground has about 100) are solved
 * without forming K: each row runs only the inbound half of AccelerationDeltas, along the path from
 * its link to the root, and K is applied row by row as u^T D^-1 u (buildImplicit); the outbound
 * half runs once per body when the forces are applied.
 */
import { JointType, accelerationDeltasForce, accelerationDeltasForces, accelerationDeltasInbound, accelerationDeltasInboundBatch, accelerationDeltasInboundPair, accelerationDeltasOutboundScaled, INBOUND_BATCH, choleskyFactor, choleskySolve, forwardDynamics, freeJointTurn, freeRootCount } from '@sinew/featherstone';
import type { Model } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { LcpProblem } from '../lcp/problem.js';
import { linkDeltasFromJointDeltas } from './link-deltas.js';
import { sortKeysInPlace } from './sort-keys.js';
import { PgsResult, PgsSolver, type PgsOptions } from '../lcp/pgs.js';
import { PivotingGaussSeidel } from '../lcp/pivoting-gauss-seidel.js';
import { addRowSideDelta, rowAccelerationInto, rowJointForce, rowSides, rowSideTestForce } from '../rows/measure.js';
import { RowTag, type RowBuffer } from '../rows/row-buffer.js';
import { isPrescribedRow } from '../kinematic.js';

/** How K is built: by AccelerationDeltas (fast), or by the test-force method (m + 1 ABA calls, reference). */
export type KMethod = 'deltas' | 'testForce';

/** PGS visits rows in this order of tags: pins and limits first, friction last (row-buffer.ts RowTag). */
const TAG_ORDER = [0, 1, 4, 5, 6, 2, 3];
/** Position of each tag in TAG_ORDER. */
const TAG_RANK = [0, 1, 5, 6, 2, 3, 4];

/**
 * Where a run of inbound entries (their places in acc in idx[start..end): the body's accumulator
 * offset ao plus the dof) has its free root's dof 0 in acc, when the run ends with that root's dofs
 * 5, 4, ..., 0 (the end of every path on a floating tree, as the inbound pass writes it); -1
 * otherwise.
 */
function freeRootEntry(model: Model, idx: Int32Array, start: number, end: number, ao: number): number {
  if (end - start < 6) return -1;
  const r0 = idx[end - 1] - ao, link = model.dofLink[r0];
  return model.jointType[link] === JointType.free && r0 === model.vOffset[link] && idx[end - 6] === ao + r0 + 5 ? ao + r0 : -1;
}

/** Whether the model is one tree whose root (link 0) is its only free joint. */
function singleFreeTree(model: Model): boolean {
  if (model.jointType[0] !== JointType.free || model.parent[0] !== -1) return false;
  for (let i = 1; i < model.nLinks; i++) if (model.parent[i] < 0 || model.jointType[i] === JointType.free) return false;
  return true;
}

/** Numbers sameLayout compares per row (its index, tag, type, two bodies, two links, two ranks). */
const LAYOUT_STRIDE = 9;

/** What a row side's measure reads: one joint's rate, a joint's rate vector, or its link's spatial motion. */
const enum SideKind { Joint = 0, JointVec = 1, Spatial = 2 }

/** Builds K one column per row with AccelerationDeltas (or test forces) and solves the mixed LCP by projected Gauss-Seidel, warm-started from the previous step. */
export class ConstraintSolver {
  readonly lcp = new LcpProblem(16);
  /** K = J M^-1 J^T is symmetric: PGS updates its measures along rows of K. */
  readonly pgs = new PgsSolver(16, { symmetric: true });
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
  /** Right-hand side and bounds of the current problem (problem order). */
  b = new Float64Array(16);
  lo = new Float64Array(16);
  hi = new Float64Array(16);
  boundRow = new Int32Array(16);
  /**
   * Dense mode forms K (m x m) and solves it with PgsSolver; implicit mode keeps, per row side, the
   * joint forces u_i of its inbound half-pass (sparse: the dofs from the row's link to the root)
   * and runs the same Gauss-Seidel sweep on a_i = b_i + u_i . z, z = D^-1 sum_j u_j f_j
   * (buildImplicit): O(m path) per sweep instead of O(m^2), and no m^2 storage.
   */
  dense = true;
  /**
   * Problems of more rows than this are solved implicitly: on a 44-dof character the inbound
   * half-pass per row costs less than a full pass per row from about 6 rows on (bench/kbuild), and
   * the dense mode is kept for small problems, whose K the reference solvers (Lemke) can read.
   */
  denseLimit = 12;
  /** Problems that exactFits stay dense up to this many rows, for the exact solves (solveDirect, the block solve). */
  directLimit = 96;
  /**
   * Whether dense problems with unilateral rows take the exact block solve (pivoting-gauss-seidel.ts).
   * False: PGS, the sweeps the implicit mode runs (to compare the two forms of K).
   */
  exactBlocks = true;
  /** Whether the current problem is one exactFits takes (set by setRows). */
  private exact = false;
  /**
   * The rows' inbound joint forces u (implicit mode): their places in acc in jIdx (the body's
   * accumulator offset plus the dof), u in jVal, D^-1 u in jW.
   */
  private jIdx = new Int32Array(256);
  /**
   * The entries of row c (its sides one after the other) run from rowStart[c] to rowEnd[c]; jIdx
   * holds each entry's index into acc, so the sweeps read a row as one run of entries.
   */
  private rowStart = new Int32Array(17);
  /** End of row c's run of entries (see rowStart). */
  private rowEnd = new Int32Array(16);
  /**
   * Per row, 1 while its entries are not built: a friction row whose normal row's force was zero
   * when K was built (a contact in the margin, not touching). Its bounds are then zero, so the
   * sweeps leave its force where it is and it adds nothing to the residual; it is built
   * (buildDeferred) the first time a sweep meets it with a nonzero normal force. Results are those
   * of building every row: the same entries, the same visits that change anything.
   */
  private deferred = new Uint8Array(16);
  /** Of the last buildImplicit: how many rows it deferred, and how many of them were built since (buildDeferred). */
  readonly deferredRows = { deferred: 0, built: 0 };
  /** Where the next deferred row's entries go (after every row built by buildImplicit), and room reserved for all of them. */
  private deferredAt = 0;
  /** The end of that room: the entries of the last buildImplicit end there. */
  private sparseEnd = 0;
  /** The rows and bodies buildImplicit read, for buildDeferred. */
  private builtRows: RowBuffer | null = null;
  private builtBodies: readonly Body[] = [];
  /** Scale floor of the current solveImplicit (rows with a smaller K_ii get no force). */
  private readonly scaleFloor = new Float64Array(1);
  /** Measure vectors of a batch's rows, gathered (6 each) when deferred rows sit among them. */
  private batchMeasure = new Float64Array(6 * INBOUND_BATCH);
  /**
   * Per row: where in acc its body's free root (dof 0) sits when the row's run ends with the six
   * root entries (a one-sided row on a tree with a free root: every path ends there, its dofs last
   * to first), else -1. The sweeps read and write those six without their indices.
   */
  private rootAt = new Int32Array(16);
  private jVal = new Float64Array(256);
  /** D^-1 u entries of the sparse sides (implicit mode), beside their u in jVal and places in jIdx. */
  private jW = new Float64Array(256);
  private diag = new Float64Array(16);
  /** Per row side (2c + s): what its measure reads (SideKind), its link (or first dof), and its 6-vector measure (prepareMeasures). */
  private sideKind = new Uint8Array(32);
  private sideLink = new Int32Array(32);
  private sideDofs = new Uint8Array(32);
  private measureVec = new Float64Array(192);
  private colScratch = new Float64Array(64);
  private acc = new Float64Array(64);
  private accOffset = new Int32Array(8);
  private scale = new Float64Array(16);
  /** The residual of implicitResidual (an array: a returned double would be boxed). */
  private residualOut = new Float64Array(1);
  readonly implicitResult = { iterations: 0, residual: 0, converged: true, worstRow: -1 };

  /**
   * Sets the rows of the problem: `rowIndices[0..count)` of `rows`, all acting on bodies of
   * `bodies`. Orders them for PGS (pins, limits, drives, contacts, friction).
   */
  setRows(rows: RowBuffer, rowIndices: ArrayLike<number>, count: number, bodies: readonly Body[], first = 0): void {
    if (this.rowList.length < count) this.rowList = new Int32Array(2 * count);
    if (this.local.length < rows.capacity) {
      // (grown as the row buffer grows: the rows' local indices stay)
      const local = new Int32Array(rows.capacity);
      local.set(this.local);
      this.local = local;
    }
    if (!this.sameLayout(rows, rowIndices, first, count, bodies)) {
      this.layOut(rows, rowIndices, first, count, bodies);
      this.rememberLayout(rows, rowIndices, first, count, bodies);
    }
    this.measuresReady = false;
    this.checked = false;
    this.exact = count <= this.directLimit && this.exactFits(rows);
    this.dense = count <= this.denseLimit || this.exact;
    const nb = this.nBodies;
    if (this.dense) {
      this.pgs.reserve(count);
      if (this.columns.length < this.colSize) this.columns = new Float64Array(2 * this.colSize);
    } else {
      let accSize = 0;
      if (this.accOffset.length < nb + 1) this.accOffset = new Int32Array(2 * nb + 1);
      for (let k = 0; k < nb; k++) { this.accOffset[k] = accSize; accSize += bodies[this.bodyList[k]].model.nv; }
      this.accOffset[nb] = accSize;
      if (this.acc.length < accSize) this.acc = new Float64Array(2 * accSize);
    }
  }

  /**
   * The layout of the last setRows, for sameLayout: the RowBuffer and bodies it read, and per row
   * (in the order given) its index, tag, type, bodies, links and the bodies' ranks.
   */
  private layoutRows: RowBuffer | null = null;
  private layoutBodies: readonly Body[] = [];
  private layoutCount = -1;
  private layoutKey = new Int32Array(16 * LAYOUT_STRIDE);

  /**
   * Whether setRows is given the rows it was given last time, in the same order, with the same
   * tags, types, bodies, links and ranks: then the order, the per-body entries and the column
   * offsets it would compute are those it has (a resting body's rows, step after step).
   */
  private sameLayout(rows: RowBuffer, rowIndices: ArrayLike<number>, first: number, count: number, bodies: readonly Body[]): boolean {
    if (rows !== this.layoutRows || bodies !== this.layoutBodies || count !== this.layoutCount || bodies.length !== this.layoutKey[0]) return false;
    const key = this.layoutKey;
    for (let c = 0, o = 1; c < count; c++, o += LAYOUT_STRIDE) {
      const j = rowIndices[first + c], a = rows.bodyA[j], b = rows.bodyB[j];
      if (key[o] !== j || key[o + 1] !== rows.tag[j] || key[o + 2] !== rows.type[j] || key[o + 3] !== a || key[o + 4] !== b
        || key[o + 5] !== rows.linkA[j] || key[o + 6] !== rows.linkB[j] || key[o + 7] !== bodies[a].rank || key[o + 8] !== (b >= 0 ? bodies[b].rank : -1)) return false;
    }
    return true;
  }

  private rememberLayout(rows: RowBuffer, rowIndices: ArrayLike<number>, first: number, count: number, bodies: readonly Body[]): void {
    if (this.layoutKey.length < 1 + count * LAYOUT_STRIDE) this.layoutKey = new Int32Array(1 + 2 * count * LAYOUT_STRIDE);
    const key = this.layoutKey;
    key[0] = bodies.length;
    for (let c = 0, o = 1; c < count; c++, o += LAYOUT_STRIDE) {
      const j = rowIndices[first + c], a = rows.bodyA[j], b = rows.bodyB[j];
      key[o] = j; key[o + 1] = rows.tag[j]; key[o + 2] = rows.type[j]; key[o + 3] = a; key[o + 4] = b;
      key[o + 5] = rows.linkA[j]; key[o + 6] = rows.linkB[j]; key[o + 7] = bodies[a].rank; key[o + 8] = b >= 0 ? bodies[b].rank : -1;
    }
    this.layoutRows = rows;
    this.layoutBodies = bodies;
    this.layoutCount = count;
  }

  /** Offsets of the dense mode's delta columns: their total length. */
  private colSize = 0;

  /** setRows' order of the rows, their local indices, the bodies and their entries, and the column offsets. */
  private layOut(rows: RowBuffer, rowIndices: ArrayLike<number>, first: number, count: number, bodies: readonly Body[]): void {
    this.orderRows(rows, rowIndices, first, count, bodies);
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
    this.reserveRows(count);
    this.colSize = colSize;
  }

  /** Room for m rows in the per-row arrays of a problem (forces, right-hand side, bounds, K_ii, scales). */
  private reserveRows(m: number): void {
    if (this.f.length >= m) return;
    const c2 = 2 * m;
    this.f = new Float64Array(c2);
    this.b = new Float64Array(c2);
    this.lo = new Float64Array(c2);
    this.hi = new Float64Array(c2);
    this.boundRow = new Int32Array(c2);
    this.diag = new Float64Array(c2);
    this.scale = new Float64Array(c2);
  }

  /** Room for m rows' runs of entries in the implicit mode's per-row arrays. */
  private reserveRuns(m: number): void {
    if (this.rowStart.length >= m + 1) return;
    this.rowStart = new Int32Array(2 * m + 1); this.rootAt = new Int32Array(2 * m + 1);
    this.rowEnd = new Int32Array(2 * m + 1); this.deferred = new Uint8Array(2 * m + 1);
  }

  /**
   * Whether a problem of up to directLimit rows is solved dense and exactly: when every row is
   * bilateral (solveDirect), or when a pin or a kinematic joint holds the island (the block solve,
   * pivoting-gauss-seidel.ts). A pin is where K's entries spread over a mass ratio (a hand and a
   * crate, a chain and a weight): 30 PGS sweeps left a 0.5 kg hand's grip on 50 kg 14 mm open
   * after a self-contact with friction (0.12 mm with the block solve), and 4 to 60 m/s^2 of
   * residual on a 3 x 1 kg chain holding 1000 kg at its stop. Other problems keep the implicit K
   * and PGS below denseLimit rows: made dense, the 10-ragdoll pile of pile.bench.ts cost 1.5 times
   * the CPU, and a humanoid dropped on the ground landed no better (its halvings grew 1.5 to 3
   * times with the block solve, as with 200 PGS sweeps: the forces of a landing are not what the
   * sweeps leave wanting).
   */
  private exactFits(rows: RowBuffer): boolean {
    let bilateral = true;
    for (let c = 0; c < this.m; c++) {
      const j = this.rowList[c];
      // (kinematic joints are held as hard as pins: kinematic.ts)
      if (rows.tag[j] === RowTag.Pin || isPrescribedRow(rows, j)) return true;
      if (rows.lo[j] !== -Infinity || rows.hi[j] !== Infinity || rows.boundRow[j] >= 0) bilateral = false;
    }
    return bilateral;
  }

  private sortKeys = new Float64Array(16);
  private sortScratch = new Float64Array(16);

  /**
   * rowList = rowIndices[first..first+count) in a canonical order: by tag (TAG_ORDER), then by the
   * ranks and links of the bodies the row acts on, then by the order the rows were made in (a
   * body's rows come from its sources in a fixed order). Nothing in it depends on the order in which
   * bodies were added to the world. One numeric sort of packed keys (no allocation): tag 3 bits,
   * body ranks 10 bits each, links 7 bits each (larger values share the last code), and the
   * position (16 bits) as the tie-break.
   */
  private orderRows(rows: RowBuffer, rowIndices: ArrayLike<number>, first: number, count: number, bodies: readonly Body[]): void {
    if (this.sortKeys.length < count) { this.sortKeys = new Float64Array(2 * count); this.sortScratch = new Float64Array(2 * count); }
    const keys = this.sortKeys;
    if (count > 65536) {
      // beyond the packed tie-break: tag order only
      let k = 0;
      for (const tag of TAG_ORDER) for (let c = 0; c < count; c++) if (rows.tag[rowIndices[first + c]] === tag) this.rowList[k++] = rowIndices[first + c];
      return;
    }
    for (let c = 0; c < count; c++) {
      const j = rowIndices[first + c];
      const b = rows.bodyB[j];
      const ra = Math.min(bodies[rows.bodyA[j]].rank, 1023), rb = b >= 0 ? Math.min(bodies[b].rank, 1022) + 1 : 0;
      const la = Math.min(rows.linkA[j] + 1, 127), lb = Math.min(rows.linkB[j] + 1, 127);
      // < 2^37, so primary * 2^16 + c is an exact integer below 2^53
      const primary = ((TAG_RANK[rows.tag[j]] * 1024 + ra) * 128 + la) * 131072 + rb * 128 + lb;
      keys[c] = primary * 65536 + c;
    }
    const sorted = sortKeysInPlace(keys, this.sortScratch, count);
    // the position back from the key: key - floor(key / 2^16) 2^16, exact on integers below 2^53
    // (and without the floating-point remainder %, a library call)
    for (let c = 0; c < count; c++) {
      const key = sorted[c];
      this.rowList[c] = rowIndices[first + (key - Math.floor(key / 65536) * 65536)];
    }
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
      B.dynamics();
    }
  }

  /**
   * Fills K (lcp.A) for the current rows. `dynamics` must have run at the current positions.
   * With method 'testForce', each column costs one more ABA call per body instead (reference).
   */
  buildK(rows: RowBuffer, bodies: readonly Body[], method: KMethod = 'deltas'): void {
    if (!this.dense) { this.buildImplicit(rows, bodies); return; }
    const m = this.m;
    const lcp = this.lcp;
    lcp.resize(m);
    const A = lcp.A;
    this.prepareMeasures(rows, bodies);
    const mv = this.measureVec, kind = this.sideKind, mlink = this.sideLink;
    const scratch = this.colScratch;
    for (let c = 0; c < m; c++) {
      const i = this.rowList[c];
      for (let s = 0; s < rowSides(rows, i); s++) {
        const b = s === 0 ? rows.bodyA[i] : rows.bodyB[i];
        const body = bodies[b];
        const off = this.colOffset[2 * c + s];
        const nv = body.model.nv;
        if (method === 'deltas') {
          if (kind[2 * c + s] === SideKind.Spatial) accelerationDeltasForce(body.model, body.state, mlink[2 * c + s], mv, 12 * c + 6 * s, scratch);
          else rowSideTestForce(rows, i, s, body, scratch);
        } else this.testForceColumn(rows, i, s, body, scratch.subarray(0, nv)); // reference path (allocates)
        const col = this.columns;
        for (let d = 0; d < nv; d++) col[off + d] = scratch[d];
        const da = body.state.work.da;
        // K is symmetric (J M^-1 J^T): the entries below the diagonal are measured, then mirrored
        const lb = this.bodyLocal[b];
        for (let e = this.entryStart[lb]; e < this.entryStart[lb + 1]; e++) {
          const entry = this.entries[e];
          const cj = entry >> 1;
          if (cj < c) continue;
          this.addSideMeasure(rows, entry, scratch, da, A, cj * m + c);
        }
      }
    }
    for (let c = 0; c < m; c++) for (let cj = c + 1; cj < m; cj++) A[c * m + cj] = A[cj * m + c];
    if (method === 'testForce') this.dynamics(bodies);
  }

  /**
   * out[at] += the change of row side `entry` (2 c + s) caused by the delta accelerations of the
   * last AccelerationDeltas call on its body: joint rows read the joint deltas, point and angular
   * rows the 6-vector pairing of their measure with the delta acceleration of their link (O(1)).
   * (Added into an array, not returned: a number returned by a call that is not inlined is boxed
   * on the heap, once per entry of K.)
   */
  private addSideMeasure(rows: RowBuffer, entry: number, dqdd: Float64Array, da: Float64Array, out: Float64Array, at: number): void {
    const k = this.sideKind[entry];
    if (k === SideKind.Spatial) { this.addPairing(entry, da, out, at); return; }
    const j = this.rowList[entry >> 1], o = 3 * j, d = rows.dir;
    if (k === SideKind.Joint) { out[at] += d[o] * dqdd[rows.dof[j]]; return; }
    const v0 = this.sideLink[entry], nv = this.sideDofs[entry];
    let s = 0;
    for (let q = 0; q < nv; q++) s += d[o + q] * dqdd[v0 + q];
    out[at] += s;
  }

  /** out[at] += m . x of a point or angular row side (2 c + s): its measure vector with its link's 6-vector in `motion` (6 per link, link coordinates). */
  private addPairing(entry: number, motion: Float64Array, out: Float64Array, at: number): void {
    const o = 6 * entry, lo = 6 * this.sideLink[entry], v = this.measureVec;
    out[at] += v[o] * motion[lo] + v[o + 1] * motion[lo + 1] + v[o + 2] * motion[lo + 2] + v[o + 3] * motion[lo + 3] + v[o + 4] * motion[lo + 4] + v[o + 5] * motion[lo + 5];
  }

  /** Whether the measure vectors of the current rows are prepared (by measure()), so that buildK need not prepare them again. */
  private measuresReady = false;

  /**
   * Prepares the rows' measure vectors (what setAccelerationRhs and checkForces read) without
   * building K; buildK then reuses them. Call it after setRows, at the positions of the solve.
   */
  measure(rows: RowBuffer, bodies: readonly Body[]): void {
    this.prepareMeasures(rows, bodies);
    this.measuresReady = true;
  }

  /**
   * Per row side, its measure as a pairing: a point row's side measures sign d . (velocity of the
   * point) = m . v_link with m = sign [r x R^T d; R^T d] in link coordinates ([moment; force], r the
   * point on the link), an angular row's m = sign [R^T d; 0]. The same m is the side's unit test
   * force (K = J M^-1 J^T). Joint rows keep their dof (or first dof and count for joint vectors).
   */
  private prepareMeasures(rows: RowBuffer, bodies: readonly Body[]): void {
    const m = this.m;
    if (this.sideKind.length < 2 * m) {
      this.sideKind = new Uint8Array(4 * m); this.sideLink = new Int32Array(4 * m);
      this.measureVec = new Float64Array(24 * m);
      this.sideDofs = new Uint8Array(4 * m);
    }
    let maxNv = 0;
    const d = rows.dir, mv = this.measureVec;
    for (let c = 0; c < m; c++) {
      const j = this.rowList[c], t = rows.type[j], o = 3 * j;
      for (let s = 0; s < rowSides(rows, j); s++) {
        const body = bodies[s === 0 ? rows.bodyA[j] : rows.bodyB[j]];
        if (body.model.nv > maxNv) maxNv = body.model.nv;
        const k = 2 * c + s;
        if (t === RowType.Joint) { this.sideKind[k] = SideKind.Joint; continue; }
        if (t === RowType.JointVec) {
          const link = rows.linkA[j];
          this.sideKind[k] = SideKind.JointVec;
          this.sideLink[k] = body.model.vOffset[link];
          this.sideDofs[k] = Math.min(3, body.model.jointNv[link]);
          continue;
        }
        const link = s === 0 ? rows.linkA[j] : rows.linkB[j];
        const sign = s === 0 ? 1 : -1;
        const P = body.state.work.pose, po = 12 * link;
        // R^T d in link coordinates (pose rows are the rows of R)
        const dx = sign * (P[po] * d[o] + P[po + 3] * d[o + 1] + P[po + 6] * d[o + 2]);
        const dy = sign * (P[po + 1] * d[o] + P[po + 4] * d[o + 1] + P[po + 7] * d[o + 2]);
        const dz = sign * (P[po + 2] * d[o] + P[po + 5] * d[o + 1] + P[po + 8] * d[o + 2]);
        this.sideKind[k] = SideKind.Spatial;
        this.sideLink[k] = link;
        const q = 6 * k;
        if (t === RowType.Angular) {
          mv[q] = dx; mv[q + 1] = dy; mv[q + 2] = dz; mv[q + 3] = 0; mv[q + 4] = 0; mv[q + 5] = 0;
        } else {
          const local = s === 0 ? rows.pA : rows.pB;
          const rx = local[o], ry = local[o + 1], rz = local[o + 2];
          mv[q] = ry * dz - rz * dy; mv[q + 1] = rz * dx - rx * dz; mv[q + 2] = rx * dy - ry * dx;
          mv[q + 3] = dx; mv[q + 4] = dy; mv[q + 5] = dz;
        }
      }
    }
    if (this.colScratch.length < maxNv) this.colScratch = new Float64Array(2 * maxNv);
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

  /**
   * Implicit mode, K = J M^-1 J^T never formed. Each row side runs only the inbound half of
   * AccelerationDeltas (featherstone accelerationDeltasInbound): it leaves the joint forces u on the
   * path from the side's link to the root, and with D the joints' articulated D_i,
   * K = u^T D^-1 u over the joints two rows share. The measure of a row is b + u . z with
   * z = D^-1 sum_i u_i f_i per body, and the outbound half runs once per body, on sum_i u_i f_i,
   * when the forces are applied (combineImplicit). `method` has no effect here: the test-force
   * reference builds dense K only.
   */
  private buildImplicit(rows: RowBuffer, bodies: readonly Body[]): void {
    const m = this.m;
    if (!this.measuresReady) this.prepareMeasures(rows, bodies);
    this.reserveRuns(m);
    this.builtRows = rows;
    this.builtBodies = bodies;
    this.deferredRows.built = 0;
    const mv = this.measureVec, jf = this.jointForce, deferred = this.deferred;
    // which rows wait (see `deferred`), and room for all of them after the others, so that building
    // one within a sweep never moves the arrays
    let reserve = 0, waiting = 0;
    for (let c = 0; c < m; c++) {
      deferred[c] = this.deferRow(rows, c) ? 1 : 0;
      if (deferred[c] === 0) continue;
      this.rowStart[c] = -1; this.rowEnd[c] = -1;
      reserve += bodies[rows.bodyA[this.rowList[c]]].model.nv;
      waiting++;
    }
    this.deferredRows.deferred = waiting;
    let nz = 0;
    for (let c = 0; c < m; c++) {
      if (deferred[c] === 1) continue;
      const i = this.rowList[c];
      const sides = rowSides(rows, i);
      const g = sides === 1 ? this.batchLength(rows, c) : 1;
      if (g > 1) {
        // rows near each other with one spatial side on the same link (a contact's points and
        // their friction rows): one walk of the path for all of them, the same numbers; deferred
        // rows among them are left out, the others' measure vectors gathered
        const b = rows.bodyA[i], body = bodies[b], ao = this.accOffset[this.bodyLocal[b]];
        const batch = this.batchRows;
        let count = 0;
        for (let r = c; r < c + g; r++) if (deferred[r] === 0) batch[count++] = r;
        if (this.jIdx.length < nz + count * body.model.nv) this.growSparse(nz + count * body.model.nv);
        let n: number;
        if (count === g) n = accelerationDeltasInboundBatch(body.model, body.state, this.sideLink[2 * c], mv, 12 * c, 12, g, this.jIdx, this.jVal, this.jW, nz, ao);
        else {
          const bm = this.batchMeasure;
          for (let v = 0; v < count; v++) for (let e = 0; e < 6; e++) bm[6 * v + e] = mv[12 * batch[v] + e];
          n = accelerationDeltasInboundBatch(body.model, body.state, this.sideLink[2 * c], bm, 0, 6, count, this.jIdx, this.jVal, this.jW, nz, ao);
        }
        const root = freeRootEntry(body.model, this.jIdx, nz, nz + n, ao); // one path: the same for all rows
        for (let v = 0; v < count; v++) {
          this.writeRun(batch[v], nz, n, root);
          nz += n;
        }
        c += g - 1;
        continue;
      }
      if (sides === 1 || rows.bodyA[i] === rows.bodyB[i]) {
        // one run on one body: a row's one path, or both paths of a row between two links of one
        // body (a self-contact), which join at the links' common ancestor (featherstone
        // accelerationDeltasInboundPair)
        const b = rows.bodyA[i], body = bodies[b], model = body.model, ao = this.accOffset[this.bodyLocal[b]];
        if (this.jIdx.length < nz + model.nv) this.growSparse(nz + model.nv);
        let n: number;
        if (sides === 2) n = accelerationDeltasInboundPair(model, body.state, this.sideLink[2 * c], this.sideLink[2 * c + 1], mv, 12 * c, 12 * c + 6, this.jIdx, this.jVal, this.jW, nz, ao);
        else if (this.sideKind[2 * c] === SideKind.Spatial) n = accelerationDeltasInbound(model, body.state, this.sideLink[2 * c], mv, 12 * c, null, 0, this.jIdx, this.jVal, this.jW, nz, ao);
        else n = accelerationDeltasInbound(model, body.state, rowJointForce(rows, i, model, jf), null, 0, jf, 0, this.jIdx, this.jVal, this.jW, nz, ao);
        this.writeRun(c, nz, n, freeRootEntry(model, this.jIdx, nz, nz + n, ao));
        nz += n;
        continue;
      }
      // a point or angular row between two bodies: one path on each, one after the other, K_ii the
      // sum of the sides' u . D^-1 u
      let d = 0;
      this.rowStart[c] = nz;
      for (let s = 0; s < 2; s++) {
        const b = s === 0 ? rows.bodyA[i] : rows.bodyB[i];
        const body = bodies[b], model = body.model;
        if (this.jIdx.length < nz + model.nv) this.growSparse(nz + model.nv);
        const n = accelerationDeltasInbound(model, body.state, this.sideLink[2 * c + s], mv, 12 * c + 6 * s, null, 0, this.jIdx, this.jVal, this.jW, nz, this.accOffset[this.bodyLocal[b]]);
        const val = this.jVal, w = this.jW;
        for (let e = nz, end = nz + n; e < end; e++) d += val[e] * w[e];
        nz += n;
      }
      this.rootAt[c] = -1;
      this.diag[c] = d;
      this.rowEnd[c] = nz;
    }
    if (this.jIdx.length < nz + reserve) this.growSparse(nz + reserve);
    this.deferredAt = nz;
    this.sparseEnd = nz + reserve;
  }

  /** Rows of one batch (buildImplicit). */
  private readonly batchRows = new Int32Array(INBOUND_BATCH);

  /**
   * Whether row c waits to be built (see `deferred`): a friction row with one spatial side whose
   * normal row's force (rows.force, the warm start) is zero.
   */
  private deferRow(rows: RowBuffer, c: number): boolean {
    const i = this.rowList[c], r = rows.boundRow[i];
    return r >= 0 && rows.force[r] === 0 && rowSides(rows, i) === 1 && this.sideKind[2 * c] === SideKind.Spatial;
  }

  /**
   * Row c's run on one body: its n inbound entries at `at` (free root entry `root`), with its
   * diagonal K_ii = u . D^-1 u.
   */
  private writeRun(c: number, at: number, n: number, root: number): void {
    this.rowStart[c] = at; this.rowEnd[c] = at + n;
    this.rootAt[c] = root;
    const val = this.jVal, w = this.jW;
    let d = 0;
    for (let e = at, end = at + n; e < end; e++) d += val[e] * w[e];
    this.diag[c] = d;
  }

  /** Builds deferred row c now (its entries after the others'), with its scale for the current solve. */
  private buildDeferred(c: number): void {
    const rows = this.builtRows!, i = this.rowList[c], b = rows.bodyA[i], body = this.builtBodies[b];
    const ao = this.accOffset[this.bodyLocal[b]], at = this.deferredAt;
    const n = accelerationDeltasInbound(body.model, body.state, this.sideLink[2 * c], this.measureVec, 12 * c, null, 0, this.jIdx, this.jVal, this.jW, at, ao);
    this.writeRun(c, at, n, freeRootEntry(body.model, this.jIdx, at, at + n, ao));
    this.deferredAt = at + n;
    this.deferred[c] = 0;
    this.deferredRows.built++;
    const d = this.diag[c];
    this.scale[c] = d > this.scaleFloor[0] && d > 0 ? d : 0;
  }

  /**
   * For a deferred row c: whether it still waits, its normal force being zero (its bounds are then
   * zero: a sweep leaves its force as it is, and its residual is zero); else it is built now.
   */
  private waits(c: number): boolean {
    if (this.f[this.boundRow[c]] === 0) return true;
    this.buildDeferred(c);
    return false;
  }

  /**
   * How many rows from c on (at most INBOUND_BATCH that are not `deferred`) have one side only,
   * spatial, on the same body and link as row c: they share their path to the root.
   */
  private batchLength(rows: RowBuffer, c: number): number {
    if (this.sideKind[2 * c] !== SideKind.Spatial) return 1;
    const i = this.rowList[c], b = rows.bodyA[i], link = this.sideLink[2 * c];
    let g = 1, built = 1;
    while (built < INBOUND_BATCH && c + g < this.m) {
      const r = c + g, j = this.rowList[r];
      if (this.sideKind[2 * r] !== SideKind.Spatial || rows.bodyA[j] !== b || this.sideLink[2 * r] !== link || rowSides(rows, j) !== 1) break;
      if (this.deferred[r] === 0) built++;
      g++;
    }
    return g;
  }

  /** A joint's generalised test force (up to 6 dofs). */
  private readonly jointForce = new Float64Array(6);

  private growSparse(size: number): void {
    const grown = Math.max(2 * this.jIdx.length, size);
    const ji = new Int32Array(grown); ji.set(this.jIdx); this.jIdx = ji;
    const jv = new Float64Array(grown); jv.set(this.jVal); this.jVal = jv;
    const jw = new Float64Array(grown); jw.set(this.jW); this.jW = jw;
  }

  /** z += delta * D^-1 u_c over the entries of row c (both its sides; acc holds z per body). */
  private implicitApply(c: number, delta: number): void {
    const acc = this.acc, ja = this.jIdx, w = this.jW;
    for (let e = this.rowStart[c], end = this.rowEnd[c]; e < end; e++) acc[ja[e]] += delta * w[e];
  }

  /**
   * Projected Gauss-Seidel on the implicit K: the sweep of PgsSolver (same order, over-relaxation,
   * bounds, friction boxes re-clamped after each sweep, natural-map residual) with the measures
   * a_c = b_c + u_c . z read through the rows' entries (u in jVal, D^-1 u in jW, their places in
   * z in jIdx). The loops are written out here, on local copies of the arrays, as they run many
   * times a step.
   */
  private solveImplicit(options: PgsOptions): PgsResult {
    const m = this.m, f = this.f, lo = this.lo, hi = this.hi, br = this.boundRow, diag = this.diag, scale = this.scale;
    const omega = options.sor ?? 1, tol = options.tolerance ?? 1e-9, maxIt = options.maxIterations ?? 100;
    const deferred = this.deferred;
    let maxDiag = 0;
    for (let c = 0; c < m; c++) if (deferred[c] === 0 && diag[c] > maxDiag) maxDiag = diag[c];
    const floor = 1e-12 * maxDiag;
    this.scaleFloor[0] = floor;
    for (let c = 0; c < m; c++) scale[c] = deferred[c] === 0 && diag[c] > floor && diag[c] > 0 ? diag[c] : 0;
    for (let pass = 0; pass < 2; pass++) {
      for (let c = 0; c < m; c++) {
        const r = br[c];
        if ((r >= 0) !== (pass === 1)) continue;
        // a deferred row is built once its normal force is not zero (its bounds are zero until then)
        if (deferred[c] === 1 && f[r] !== 0) this.buildDeferred(c);
        const L = r < 0 ? lo[c] : lo[c] * f[r], U = r < 0 ? hi[c] : hi[c] * f[r];
        let x = scale[c] === 0 && deferred[c] === 0 ? 0 : f[c];
        if (x < L) x = L; else if (x > U) x = U;
        if (x !== f[c]) this.checked = false;
        f[c] = x;
      }
    }
    const acc = this.acc, ja = this.jIdx, val = this.jVal, w = this.jW, rs = this.rowStart, re = this.rowEnd, b = this.b, rootAt = this.rootAt;
    // z = D^-1 sum_i u_i f_i, and the first residual: from checkForces when it measured these
    // forces and nothing moved them since (its pass over all forces at once leaves both)
    const checked = this.checked, accSize = this.accOffset[this.nBodies];
    if (checked) { const z = this.checkedZ; for (let d = 0; d < accSize; d++) acc[d] = z[d]; }
    else {
      acc.fill(0, 0, accSize);
      for (let c = 0; c < m; c++) if (f[c] !== 0) this.implicitApply(c, f[c]);
    }
    const res = this.implicitResult;
    let it = 0;
    this.implicitResidual(checked);
    this.checked = false;
    let residual = this.residualOut[0];
    while (!(residual <= tol) && it < maxIt && residual === residual) {
      // the largest natural-map residual a row had when the sweep visited it (|d (f - clamp(f -
      // a / d))| at the forces of that moment): small only when the forces have stopped moving
      let seen = 0;
      // the free root's six entries of z are held in z0..z5 while the rows on that root follow one
      // another (held: the acc offset of the root, -1 for none), written back when another row comes
      let held = -1, z0 = 0, z1 = 0, z2 = 0, z3 = 0, z4 = 0, z5 = 0;
      for (let c = 0; c < m; c++) {
        if (deferred[c] === 1 && this.waits(c)) continue;
        const d = scale[c];
        if (d === 0) continue;
        const r = br[c];
        const L = r < 0 ? lo[c] : lo[c] * f[r], U = r < 0 ? hi[c] : hi[c] * f[r];
        const e0 = rs[c], e1 = re[c];
        const root = rootAt[c], en = root >= 0 ? e1 - 6 : e1;
        if (root !== held) {
          if (held >= 0) { acc[held] = z0; acc[held + 1] = z1; acc[held + 2] = z2; acc[held + 3] = z3; acc[held + 4] = z4; acc[held + 5] = z5; }
          if (root >= 0) { z0 = acc[root]; z1 = acc[root + 1]; z2 = acc[root + 2]; z3 = acc[root + 3]; z4 = acc[root + 4]; z5 = acc[root + 5]; }
          held = root;
        }
        let a = b[c];
        for (let e = e0; e < en; e++) a += val[e] * acc[ja[e]];
        if (root >= 0) {
          a += val[en] * z5; a += val[en + 1] * z4; a += val[en + 2] * z3;
          a += val[en + 3] * z2; a += val[en + 4] * z1; a += val[en + 5] * z0;
        }
        const fi = f[c];
        let x = fi - a / d;
        if (x < L) x = L; else if (x > U) x = U;
        const err = d * (fi - x), ae = err < 0 ? -err : err;
        if (ae > seen || ae !== ae) seen = ae; // a NaN stays
        if (omega !== 1) {
          x = fi - (omega * a) / d;
          if (x < L) x = L; else if (x > U) x = U;
        }
        if (x !== fi) {
          f[c] = x;
          const delta = x - fi;
          for (let e = e0; e < en; e++) acc[ja[e]] += delta * w[e];
          if (root >= 0) {
            z5 += delta * w[en]; z4 += delta * w[en + 1]; z3 += delta * w[en + 2];
            z2 += delta * w[en + 3]; z1 += delta * w[en + 4]; z0 += delta * w[en + 5];
          }
        }
      }
      if (held >= 0) { acc[held] = z0; acc[held + 1] = z1; acc[held + 2] = z2; acc[held + 3] = z3; acc[held + 4] = z4; acc[held + 5] = z5; }
      for (let c = 0; c < m; c++) {
        const r = br[c];
        // (a deferred row's force is a zero, which any bounds keep)
        if (r < 0 || deferred[c] === 1) continue;
        const L = lo[c] * f[r], U = hi[c] * f[r], fi = f[c];
        const x = fi < L ? L : fi > U ? U : fi;
        if (x !== fi) { f[c] = x; this.implicitApply(c, x - fi); }
      }
      it++;
      // the residual of the forces themselves costs half a sweep: it is taken after the first
      // sweep (a warm-started problem is mostly solved by one: then PgsSolver stops there too),
      // when a sweep saw every row within the tolerance (or failed to tell: NaN), and after the
      // last sweep
      if (it === 1 || !(seen > tol) || it >= maxIt) { this.implicitResidual(false); residual = this.residualOut[0]; }
    }
    res.iterations = it;
    res.residual = residual;
    res.converged = residual <= tol;
    return res;
  }

  /**
   * Natural-map residual max |d (f - clamp(f - a / d))| over rows with an effect (worst row in
   * implicitResult.worstRow), a = b + u . z, or the measures of checkForces when `checked`.
   */
  private implicitResidual(checked: boolean): void {
    let worst = 0, worstRow = -1;
    const m = this.m, f = this.f, lo = this.lo, hi = this.hi, br = this.boundRow, scale = this.scale, b = this.b;
    const acc = this.acc, ja = this.jIdx, val = this.jVal, rs = this.rowStart, re = this.rowEnd, rootAt = this.rootAt, deferred = this.deferred;
    for (let c = 0; c < m; c++) {
      if (deferred[c] === 1 && this.waits(c)) continue;
      const d = scale[c];
      if (d === 0) continue;
      const r = br[c];
      const L = r < 0 ? lo[c] : lo[c] * f[r], U = r < 0 ? hi[c] : hi[c] * f[r];
      let a: number;
      if (checked) a = this.checkA[c];
      else {
        const root = rootAt[c], end = root >= 0 ? re[c] - 6 : re[c];
        a = b[c];
        for (let e = rs[c]; e < end; e++) a += val[e] * acc[ja[e]];
        if (root >= 0) {
          a += val[end] * acc[root + 5]; a += val[end + 1] * acc[root + 4]; a += val[end + 2] * acc[root + 3];
          a += val[end + 3] * acc[root + 2]; a += val[end + 4] * acc[root + 1]; a += val[end + 5] * acc[root];
        }
      }
      let x = f[c] - a / d;
      if (x < L) x = L; else if (x > U) x = U;
      const err = d * (f[c] - x), ae = err < 0 ? -err : err;
      if (!(ae <= worst)) { worst = ae; worstRow = c; }
    }
    this.implicitResult.worstRow = worstRow;
    this.residualOut[0] = worst;
  }

  /**
   * b = default measure - desired measure. Unilateral and drive rows use the acceleration-level
   * measure J qdd0 + J_dot qd (Kokkevis section 4), the classical acceleration of their points.
   * Pins use J qdd0, the rate at fixed Jacobian: with the World's desired rate -(v + alpha g) / h
   * they then ask J(q) (qd + h qdd) = -alpha g, the velocity-level condition of semi-implicit
   * Euler. (With the J_dot qd term, taken at the old velocities, a pinned pendulum that speeds up
   * within the step outruns its pin and gains energy step after step: a 100 kg box hanging from a
   * hand gained thousands of joules in 4 s.)
   * The free joints add what their integration rule adds (featherstone advanceFreeJoint): under
   * the screw rule every row sees the turn d / h (freeJointTurn) that the integrator adds to
   * qd + h qdd; under the world rule (Body.worldRule, never with pins) the acceleration rows
   * already predict the velocity after the step. Overwrites work.da of those bodies.
   * Reads the measure vectors of buildK: call it after buildK, at the same positions.
   */
  setAccelerationRhs(rows: RowBuffer, bodies: readonly Body[], h = 0): void {
    const b = this.b, kind = this.sideKind;
    if (this.pointTerm.length < 3 * this.nBodies) {
      this.pointTerm = new Float64Array(6 * this.nBodies); this.turnTerm = new Float64Array(6 * this.nBodies);
      this.turnByRows = new Uint8Array(2 * this.nBodies);
    }
    for (let k = 0; k < this.nBodies; k++) this.setPointTerm(bodies[this.bodyList[k]], k, h);
    for (let c = 0; c < this.m; c++) {
      const j = this.rowList[c];
      if (rows.tag[j] === RowTag.Pin) {
        b[c] = -rows.desired[j];
        // (a pin sees the turn too, not gravity: its measure is at the velocity level)
        if (rows.type[j] === RowType.Point) { this.addTurnTerm(rows, j, c, 0); if (rowSides(rows, j) === 2) this.addTurnTerm(rows, j, c, 1); }
      }
      else if (kind[2 * c] === SideKind.Spatial) {
        b[c] = -rows.desired[j];
        this.addSpatialAcceleration(rows, bodies[rows.bodyA[j]], c, 0);
        if (rowSides(rows, j) === 2) this.addSpatialAcceleration(rows, bodies[rows.bodyB[j]], c, 1);
      } else { rowAccelerationInto(rows, j, bodies, b, c); b[c] -= rows.desired[j]; }
    }
    for (let k = 0; k < this.nBodies; k++) {
      const B = bodies[this.bodyList[k]];
      if (B.worldRule) continue;
      if (this.turnByRows[k] === 1) {
        // the free joints' turn d (featherstone freeJointTurn) is part of the velocity change the
        // integrator makes: every row sees d / h (on one free tree, setPointTerm folds it in)
        this.addRowRates(rows, k, B, this.turnRates(B, h), false);
      }
      // pins see J qdd0 as well (velocity level, above)
      this.addRowRates(rows, k, B, B.qdd0, true);
    }
    this.setBounds(rows);
  }

  /**
   * Per body of the problem (k), the world vector g' whose d . g' every point row on it adds to its
   * measure (addSpatialAcceleration): the gravity g the base acceleration took out, plus, when the
   * screw rule moves a single free tree (not the world rule), the turn of its root: the root's
   * linear turn rate t = d / h (freeJointTurn, root coordinates) moves every link of the tree by
   * the same world acceleration R_0 t, which a point row measures as d . R_0 t and an angular or
   * joint row not at all. Other bodies with free joints take the turn through addRowRates
   * (turnByRows).
   */
  private setPointTerm(B: Body, k: number, h: number): void {
    const g = B.state.gravity, out = this.pointTerm, turn = this.turnTerm, o = 3 * k, model = B.model;
    turn[o] = 0; turn[o + 1] = 0; turn[o + 2] = 0;
    this.turnByRows[k] = 0;
    if (!B.worldRule && h > 0 && freeRootCount(model) > 0) {
      if (singleFreeTree(model)) {
        const x = this.turnRates(B, h), P = B.state.work.pose;
        // (pose rows are the rows of R_0; the root's linear dofs are 3..5)
        turn[o] = P[0] * x[3] + P[1] * x[4] + P[2] * x[5];
        turn[o + 1] = P[3] * x[3] + P[4] * x[4] + P[5] * x[5];
        turn[o + 2] = P[6] * x[3] + P[7] * x[4] + P[8] * x[5];
      } else this.turnByRows[k] = 1;
    }
    out[o] = g[0] + turn[o]; out[o + 1] = g[1] + turn[o + 1]; out[o + 2] = g[2] + turn[o + 2];
  }

  /** b_c += sign d . R_0 t, the turn of side s's free tree (setPointTerm) as point row c (row j) measures it. */
  private addTurnTerm(rows: RowBuffer, j: number, c: number, s: number): void {
    const t = this.turnTerm, o = 3 * this.bodyLocal[s === 0 ? rows.bodyA[j] : rows.bodyB[j]], d = rows.dir, q = 3 * j;
    const x = d[q] * t[o] + d[q + 1] * t[o + 1] + d[q + 2] * t[o + 2];
    this.b[c] += s === 0 ? x : -x;
  }

  /** d / h of the body's free joints (featherstone freeJointTurn), in rateScratch. */
  private turnRates(B: Body, h: number): Float64Array {
    const nv = B.model.nv;
    if (this.rateScratch.length < nv) this.rateScratch = new Float64Array(2 * nv);
    const x = freeJointTurn(B.model, B.state.qd, h, this.rateScratch);
    for (let d = 0; d < nv; d++) x[d] /= h;
    return x;
  }

  /** setPointTerm's g' per body of the problem, and whether the body's turn goes through addRowRates instead. */
  private pointTerm = new Float64Array(24);
  /** The turn part of pointTerm (zero for bodies without one), which pins see alone. */
  private turnTerm = new Float64Array(24);
  private turnByRows = new Uint8Array(8);

  /**
   * b_c += the acceleration-level measure of side s of row c, a point or angular row, from its
   * measure vector m (prepareMeasures) and its link's motion (link coordinates, work.v and the
   * work.a of the last forward dynamics, gravity there as a base acceleration): m . a, plus for a
   * point row sign d . (R (w x (v + w x r)) + g'), the velocity product that makes the point's
   * classical acceleration (Featherstone 2008 section 2.11; kinematics.ts pointAcceleration) and
   * setPointTerm's g' (the gravity the base acceleration took out, and a free tree's turn).
   * (sign R^T d is the linear half of m.)
   */
  private addSpatialAcceleration(rows: RowBuffer, body: Body, c: number, s: number): void {
    const k = 2 * c + s, q = 6 * k, mv = this.measureVec, L = 6 * this.sideLink[k];
    const work = body.state.work;
    const px = this.pairingOut;
    px[0] = 0;
    this.addPairing(k, work.a, px, 0);
    let x = px[0];
    const j = this.rowList[c];
    if (rows.type[j] === RowType.Point) {
      const v = work.v, o = 3 * j, local = s === 0 ? rows.pA : rows.pB;
      const wx = v[L], wy = v[L + 1], wz = v[L + 2], rx = local[o], ry = local[o + 1], rz = local[o + 2];
      const px = v[L + 3] + (wy * rz - wz * ry), py = v[L + 4] + (wz * rx - wx * rz), pz = v[L + 5] + (wx * ry - wy * rx);
      const g = this.pointTerm, go = 3 * this.bodyLocal[body.index], d = rows.dir;
      x += mv[q + 3] * (wy * pz - wz * py) + mv[q + 4] * (wz * px - wx * pz) + mv[q + 5] * (wx * py - wy * px);
      const dg = d[o] * g[go] + d[o + 1] * g[go + 1] + d[o + 2] * g[go + 2];
      x += s === 0 ? dg : -dg;
    }
    this.b[c] += x;
  }

  private rateScratch = new Float64Array(64);
  private readonly pairingOut = new Float64Array(1);

  /**
   * b += J x for the row sides on the k-th body of the problem (only pins' when `pinsOnly`): x
   * propagated to the links' accelerations (work.da) without velocity terms, then paired with each
   * point or angular side's measure vector (m . da).
   */
  private addRowRates(rows: RowBuffer, k: number, B: Body, x: Float64Array, pinsOnly: boolean): void {
    let any = !pinsOnly;
    for (let e = this.entryStart[k]; e < this.entryStart[k + 1] && !any; e++) any = rows.tag[this.rowList[this.entries[e] >> 1]] === RowTag.Pin;
    if (!any) return;
    linkDeltasFromJointDeltas(B, x);
    const da = B.state.work.da, b = this.b;
    for (let e = this.entryStart[k]; e < this.entryStart[k + 1]; e++) {
      const entry = this.entries[e], c = entry >> 1, j = this.rowList[c];
      if (pinsOnly && rows.tag[j] !== RowTag.Pin) continue;
      if (this.sideKind[entry] === SideKind.Spatial) this.addPairing(entry, da, b, c);
      else addRowSideDelta(rows, j, entry & 1, B, x, b, c);
    }
  }

  /** b = `values[row]` for each row (velocity jumps or position errors). */
  setRhs(rows: RowBuffer, values: Float64Array): void {
    const b = this.b;
    for (let c = 0; c < this.m; c++) b[c] = values[this.rowList[c]];
    this.setBounds(rows);
  }

  private setBounds(rows: RowBuffer): void {
    const { lo, hi, boundRow } = this;
    for (let c = 0; c < this.m; c++) {
      const j = this.rowList[c];
      lo[c] = rows.lo[j];
      hi[c] = rows.hi[j];
      const r = rows.boundRow[j];
      boundRow[c] = r >= 0 ? this.local[r] : -1;
    }
  }

  /** Solves with PGS, warm-started from `out` (rows.force by default) when `warm`, and writes the forces there. */
  solve(rows: RowBuffer, options: PgsOptions, warm: boolean, out: Float64Array = rows.force): PgsResult {
    const f = this.f;
    // (f holds the forces checkForces measured, if it was the last to set them)
    for (let c = 0; c < this.m && this.checked; c++) if (!warm || out[this.rowList[c]] !== f[c]) this.checked = false;
    for (let c = 0; c < this.m; c++) f[c] = warm ? out[this.rowList[c]] : 0;
    let r: PgsResult;
    if (this.dense) {
      const p = this.lcp, m = this.m;
      for (let c = 0; c < m; c++) { p.b[c] = this.b[c]; p.lo[c] = this.lo[c]; p.hi[c] = this.hi[c]; p.boundRow[c] = this.boundRow[c]; }
      if (this.allBilateral()) r = this.solveDirect() ? this.directResult : this.pgs.solve(p, f, options);
      else {
        // (the warm forces, for PGS should the exact block fail)
        if (this.blockStart.length < m) this.blockStart = new Float64Array(2 * m);
        for (let c = 0; c < m; c++) this.blockStart[c] = f[c];
        if (this.exactBlocks && (this.exact || this.noFriction()) && this.blocks.solve(p, f, options)) r = this.blocks.result;
        else { for (let c = 0; c < m; c++) f[c] = this.blockStart[c]; r = this.pgs.solve(p, f, options); }
      }
    } else r = this.solveImplicit(options);
    for (let c = 0; c < this.m; c++) out[this.rowList[c]] = f[c];
    return r;
  }

  /**
   * The rows solved again when the sweeps ended far from a solution, in two convex parts
   * (staggered projections, Kaufman, Sueda, James and Pai 2008, stopped after one round): every
   * row but friction, with friction off; then every row but the contact normals that bound
   * friction, those held at the forces just found, each friction box fixed at mu times its
   * normal's force. Box friction whose bounds move with the normal forces they depend on can keep
   * PGS from any solution (a thin rod lying on the ground, many contact points on few dofs: the
   * residual stayed at 2e2-4e2 m/s^2 over 3,000 sweeps while the same rows without friction
   * converged to 1e-10, and the forces it left gave a 2 kg chain 71 kJ in one step). Each part is
   * a box-constrained convex problem PGS converges on, so friction never pushes along a sliding,
   * whatever the sweeps left. Writes the forces to rows.force; returns the second part's result.
   */
  solveStaggered(rows: RowBuffer, options: PgsOptions): PgsResult {
    const m = this.m, lo = this.lo, hi = this.hi, br = this.boundRow, f = this.f;
    if (this.savedBounds.length < 3 * m) this.savedBounds = new Float64Array(6 * m);
    const saved = this.savedBounds;
    for (let c = 0; c < m; c++) { saved[3 * c] = lo[c]; saved[3 * c + 1] = hi[c]; saved[3 * c + 2] = br[c]; }
    const o = this.staggeredOptions;
    o.maxIterations = Math.max(100, options.maxIterations ?? 100);
    o.tolerance = options.tolerance ?? 1e-9;
    o.sor = options.sor ?? 1;
    // 1. without friction
    for (let c = 0; c < m; c++) if (br[c] >= 0) { lo[c] = 0; hi[c] = 0; br[c] = -1; }
    this.solve(rows, o, false);
    // 2. friction boxes fixed by the normal forces found, and those normals held
    for (let c = 0; c < m; c++) {
      const r = saved[3 * c + 2];
      if (r < 0) continue;
      const fn = f[r];
      lo[c] = saved[3 * c] * fn; hi[c] = saved[3 * c + 1] * fn;
      lo[r] = fn; hi[r] = fn;
    }
    const result = this.solve(rows, o, true);
    for (let c = 0; c < m; c++) { lo[c] = saved[3 * c]; hi[c] = saved[3 * c + 1]; br[c] = saved[3 * c + 2]; }
    return result;
  }
  private savedBounds = new Float64Array(48);
  private readonly staggeredOptions = { maxIterations: 100, tolerance: 1e-3, sor: 1 };

  private allBilateral(): boolean {
    for (let c = 0; c < this.m; c++) if (this.lo[c] !== -Infinity || this.hi[c] !== Infinity || this.boundRow[c] >= 0) return false;
    return true;
  }

  /**
   * Dense problems with unilateral rows: the frictionless rows (pins, limits, contact normals)
   * solved exactly as one block, friction and bounded rows swept (pivoting-gauss-seidel.ts). PGS
   * answers when the exact block fails (a singular K_AA).
   */
  private readonly blocks = new PivotingGaussSeidel();

  /** Every row bilateral or unilateral (lo -infinity or 0, hi infinite): no friction box or other bound. */
  private noFriction(): boolean {
    for (let c = 0; c < this.m; c++) {
      if (this.boundRow[c] >= 0 || this.hi[c] !== Infinity) return false;
      if (this.lo[c] !== -Infinity && this.lo[c] !== 0) return false;
    }
    return true;
  }
  private blockStart = new Float64Array(16);

  readonly directResult = new PgsResult();
  private chol = new Float64Array(64);

  /**
   * A problem of bilateral rows only (pins, no unilateral or bounded row) is the linear system
   * K f = -b: solved exactly by Cholesky, whatever the conditioning PGS would struggle with (a
   * 0.1 kg hand holding a 100 kg box). Returns false, leaving f alone, when K is singular to
   * working precision (redundant rows): PGS then finds a least-effort answer.
   */
  private solveDirect(): boolean {
    const m = this.m, A = this.lcp.A, f = this.f, b = this.b;
    if (this.chol.length < m * m) this.chol = new Float64Array(2 * m * m);
    const L = this.chol;
    let maxDiag = 0;
    for (let i = 0; i < m; i++) maxDiag = Math.max(maxDiag, A[i * m + i]);
    if (!(maxDiag > 0)) return false;
    if (choleskyFactor(A, m, L, 1e-12 * maxDiag) >= 0) return false;
    // K f = -b
    choleskySolve(L, m, b, f);
    for (let i = 0; i < m; i++) f[i] = -f[i];
    let residual = 0;
    for (let i = 0; i < m; i++) {
      let a = b[i];
      for (let k = 0; k < m; k++) a += A[i * m + k] * f[k];
      if (!(Math.abs(a) <= residual)) residual = Math.abs(a);
    }
    const r = this.directResult;
    r.iterations = 0; r.residual = residual; r.converged = true; r.worstRow = -1;
    return true;
  }

  /** Of the last checkForces: the largest bound on the rows' natural-map residual (NaN when a measure is not finite). */
  readonly checkResult = { residual: 0 };
  /** checkForces' scratch: spatial forces per link (6 each) and joint forces per dof of one body. */
  private linkForces = new Float64Array(6 * 32);
  private jointForces = new Float64Array(64);
  /** The delta joint accelerations of the checked forces, per body at its accOffset (applyCheckedForces). */
  private checkedDq = new Float64Array(64);
  /** z = D^-1 sum_i u_i f_i of the checked forces (the implicit solve's acc), per body at its accOffset. */
  private checkedZ = new Float64Array(64);

  /**
   * Measures every row at the forces in `forces` (indexed by row, clamped here to their bounds and
   * written back), without K: the forces go through one AccelerationDeltas pass per body with all
   * of them applied at once (featherstone accelerationDeltasForces, O(n)), and each row reads its
   * measure a = b + J dqdd from the delta link accelerations (O(1) per row).
   *
   * For a row with K_ii = d > 0, the natural-map residual |d (f - clamp(f - a / d))| of PgsSolver
   * is at most |a|, and zero when the force sits at the bound the step would push it past (f = lo
   * with a >= 0, f = hi with a <= 0): that bound needs no d. Returns whether it is within the
   * tolerance of `options` on every row: then the forces solve the LCP to the tolerance the sweeps
   * aim for, and no sweep is needed (applyCheckedForces applies them). Otherwise the next solve
   * starts from this pass's z and measures. Call it after setRows, measure and setAccelerationRhs
   * (b and the bounds), in implicit mode.
   */
  checkForces(rows: RowBuffer, bodies: readonly Body[], forces: Float64Array, options: PgsOptions): boolean {
    const m = this.m, f = this.f, lo = this.lo, hi = this.hi, br = this.boundRow, list = this.rowList;
    // the forces within their bounds: the rows without a bounding row first, then the friction
    // boxes, which read their normal's force
    for (let c = 0; c < m; c++) {
      const x = forces[list[c]];
      f[c] = x;
      if (br[c] >= 0) continue;
      const L = lo[c], U = hi[c];
      f[c] = x < L ? L : x > U ? U : x;
    }
    for (let c = 0; c < m; c++) {
      const r = br[c];
      if (r < 0) continue;
      const L = lo[c] * f[r], U = hi[c] * f[r], x = f[c];
      f[c] = x < L ? L : x > U ? U : x;
    }
    for (let c = 0; c < m; c++) forces[list[c]] = f[c];
    this.measureForces(rows, bodies);
    return this.checkBound(options);
  }

  /**
   * The pass of checkForces: the forces f (problem order) on every body at once, their measures
   * a = b + J dqdd into checkA, dqdd and z = D^-1 du per body into checkedDq and checkedZ.
   */
  private measureForces(rows: RowBuffer, bodies: readonly Body[]): void {
    const m = this.m, f = this.f, list = this.rowList, b = this.b;
    if (this.checkA.length < m) this.checkA = new Float64Array(2 * m);
    const a = this.checkA;
    for (let c = 0; c < m; c++) a[c] = b[c];
    const accSize = this.accOffset[this.nBodies];
    if (this.checkedDq.length < accSize) { this.checkedDq = new Float64Array(2 * accSize); this.checkedZ = new Float64Array(2 * accSize); }
    const mv = this.measureVec, kind = this.sideKind, link = this.sideLink, dir = rows.dir, entries = this.entries;
    const dqOut = this.checkedDq, zOut = this.checkedZ;
    for (let k = 0; k < this.nBodies; k++) {
      const B = bodies[this.bodyList[k]], model = B.model, nv = model.nv, e0 = this.entryStart[k], e1 = this.entryStart[k + 1];
      if (this.linkForces.length < 6 * model.nLinks) this.linkForces = new Float64Array(12 * model.nLinks);
      if (this.jointForces.length < nv) this.jointForces = new Float64Array(2 * nv);
      const lf = this.linkForces, tau = this.jointForces, dq = this.colScratch, ao = this.accOffset[k];
      lf.fill(0, 0, 6 * model.nLinks);
      tau.fill(0, 0, nv);
      let loaded = false;
      for (let e = e0; e < e1; e++) {
        const entry = entries[e], c = entry >> 1, fc = f[c];
        if (fc === 0) continue;
        loaded = true;
        const sk = kind[entry];
        if (sk === SideKind.Spatial) {
          // the side's force is f times its measure vector (the unit test force: K = J M^-1 J^T)
          const L = 6 * link[entry], q = 6 * entry;
          lf[L] += fc * mv[q]; lf[L + 1] += fc * mv[q + 1]; lf[L + 2] += fc * mv[q + 2];
          lf[L + 3] += fc * mv[q + 3]; lf[L + 4] += fc * mv[q + 4]; lf[L + 5] += fc * mv[q + 5];
        } else {
          const j = list[c], o = 3 * j;
          if (sk === SideKind.Joint) tau[rows.dof[j]] += fc * dir[o];
          else for (let v = 0, v0 = link[entry]; v < this.sideDofs[entry]; v++) tau[v0 + v] += fc * dir[o + v];
        }
      }
      if (!loaded) { dqOut.fill(0, ao, ao + nv); zOut.fill(0, ao, ao + nv); continue; }
      accelerationDeltasForces(model, B.state, lf, 0, tau, 0, dq, zOut, ao);
      for (let d = 0; d < nv; d++) dqOut[ao + d] = dq[d];
      const da = B.state.work.da;
      for (let e = e0; e < e1; e++) {
        const entry = entries[e];
        if (kind[entry] !== SideKind.Spatial) { this.addSideMeasure(rows, entry, dq, da, a, entry >> 1); continue; }
        const q = 6 * entry, L = 6 * link[entry];
        a[entry >> 1] += mv[q] * da[L] + mv[q + 1] * da[L + 1] + mv[q + 2] * da[L + 2] + mv[q + 3] * da[L + 3] + mv[q + 4] * da[L + 4] + mv[q + 5] * da[L + 5];
      }
    }
  }

  /** checkForces' verdict on the measures in checkA at the forces f (see checkForces), kept in checkResult. */
  private checkBound(options: PgsOptions): boolean {
    const m = this.m, f = this.f, lo = this.lo, hi = this.hi, br = this.boundRow, a = this.checkA;
    let worst = 0;
    for (let c = 0; c < m; c++) {
      const r = br[c], ac = a[c], fc = f[c];
      const L = r < 0 ? lo[c] : lo[c] * f[r], U = r < 0 ? hi[c] : hi[c] * f[r];
      if (ac > 0 ? fc > L : ac < 0 ? fc < U : ac !== ac) {
        const err = ac < 0 ? -ac : ac;
        if (!(err <= worst)) worst = err; // (a NaN stays)
      }
    }
    this.checkResult.residual = worst;
    this.checked = true;
    return worst <= (options.tolerance ?? 1e-9);
  }

  /** checkForces' measures per row (problem order). */
  private checkA = new Float64Array(16);

  /** The measure a = b + J M^-1 J^T f of row c (problem order) at the forces of the last checkForces. */
  checkedMeasure(c: number): number {
    return this.checkA[c];
  }

  /**
   * Whether the solver's forces are those checkForces measured (checkA): then the first residual
   * of solveImplicit reads them instead of taking u . z again. Cleared by setRows and by a solve.
   */
  private checked = false;

  /**
   * A body left the world (World.removeBody), the bodies after it moving down one index: the
   * layout of the last rows names bodies by index, so it is forgotten (the next setRows lays the
   * rows out afresh, as a world built without that body would).
   */
  bodyRemoved(): void {
    this.layoutRows = null;
    this.layoutCount = -1;
  }


  /** qdd = qdd0 + M^-1 J^T f for each body of the problem, f the forces of the last checkForces. */
  applyCheckedForces(bodies: readonly Body[]): void {
    for (let k = 0; k < this.nBodies; k++) {
      const B = bodies[this.bodyList[k]], nv = B.model.nv, ao = this.accOffset[k], dq = this.checkedDq, out = B.qdd, q0 = B.qdd0;
      for (let d = 0; d < nv; d++) out[d] = q0[d] + dq[ao + d];
    }
  }

  /** The forces of the last solve, in problem order. */
  get forces(): Float64Array {
    return this.f;
  }

  /**
   * out_b = base_b + scale * sum_i f_i dqdd_i for each body b of the problem (dqdd of each row
   * side, as kept by buildK), f the forces of the last solve. `target` picks what is written:
   * 'qdd' (constrained accelerations from qdd0), 'qd' (a velocity jump added to qd), or 'dq' (into
   * body.scratch).
   */
  combine(bodies: readonly Body[], target: 'qdd' | 'qd' | 'dq'): void {
    for (let k = 0; k < this.nBodies; k++) {
      const B = bodies[this.bodyList[k]];
      const nv = B.model.nv;
      const out = target === 'qdd' ? B.qdd : target === 'qd' ? B.state.qd : B.scratch;
      if (target === 'qdd') out.set(B.qdd0);
      else if (target === 'dq') out.fill(0, 0, nv);
      if (!this.dense) { this.combineImplicit(k, B, out); continue; }
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

  /**
   * out += M^-1 J^T f for the row sides on the k-th body (implicit mode): the outbound half of
   * AccelerationDeltas on sum_i f_i u_i, given as the solve left it, z = D^-1 sum_i f_i u_i in acc
   * (featherstone accelerationDeltasOutboundScaled). Call it after solve, before the next setRows.
   */
  private combineImplicit(k: number, B: Body, out: Float64Array): void {
    const nv = B.model.nv;
    const dq = this.rateScratch.length >= nv ? this.rateScratch : (this.rateScratch = new Float64Array(2 * nv));
    accelerationDeltasOutboundScaled(B.model, B.state, this.acc, this.accOffset[k], dq);
    for (let d = 0; d < nv; d++) out[d] += dq[d];
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

export { RowTag };
