/**
 * Momentum in the step: each free tree's momentum and external wrench at the pass's start, the
 * directions its rows push it in, and after integration and stabilisation, what rows could not
 * have changed restored: a body's own momentum along the directions no row pushes it in
 * (preserveMomenta), and a group's momentum and centre of mass when nothing holds it from outside
 * (conserveGroupMomenta).
 */
import { addRootVelocityWorld, centerOfMass, forwardKinematics, freeRootCurrentMomenta, freeRootMomenta, restoreFreeRootMomenta, subtreeMass, subtreeMomentumAndInertia } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { type RowBuffer, RowType } from '../rows/row-buffer.js';
import { GROUP_STRIDE, type StepData } from './step-data.js';

/**
 * Before integration: for each awake free tree, the directions the pass's rows push it in
 * (rowDirections), and unless they block it, its momentum now (dt = 0) and its rate (the external
 * force) over the pass, at the pass's start, from the accelerations without the gyroscopic change
 * (gyroscopic.ts), which integrates the same internal forces more faithfully and is no external
 * force (preserveMomenta uses them).
 */
export function stepMomenta(d: StepData, rows: RowBuffer): void {
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi];
    if (b.sleeping) continue;
    if (b.momentumTarget) b.pushCount = rowDirections(d, rows, b);
    if (b.momentumTarget && b.pushCount >= 0) {
      const x = b.scratch;
      for (let k = 0; k < b.model.nv; k++) x[k] = b.qdd[k] - b.gyroDelta[k];
      freeRootMomenta(b.model, b.state, x, 0, b.momentumStart!);
      freeRootMomenta(b.model, b.state, x, 1, b.momentumTarget);
      for (let e = 0; e < 6; e++) b.momentumTarget[e] -= b.momentumStart![e];
    }
  }
}

/**
 * Semi-implicit Euler in reduced coordinates drifts a free body's momentum by O(h) when its joints
 * move (featherstone momentum-correction.ts). A free body that no row acted on gets its full
 * momentum back (root velocity corrected); one that rows acted on gets back only the linear
 * momentum along the world directions that none of its active point rows could push in (e.g.
 * horizontally on frictionless ground), by a translation of the whole body.
 */
export function preserveMomenta(d: StepData, rows: RowBuffer, h: number): void {
  for (let bi = 0; bi < d.bodies.length; bi++) {
    const b = d.bodies[bi];
    if (b.sleeping || !b.momentumTarget) continue;
    // the directions the step's rows push it in, found at the step's start (the rows are the same)
    const nd = b.pushCount;
    if (nd < 0) continue; // blocked: the step's start did not compute the momenta either
    // target = momentum at the start + h * external force (momentumTarget holds the force here)
    const target = b.momentumTarget;
    for (let e = 0; e < 6; e++) target[e] = b.momentumStart![e] + h * target[e];
    if (nd === 0) { restoreFreeRootMomenta(b.model, b.state, b.momentumTarget); continue; }
    const D = b.pushDirections!;
    forwardKinematics(b.model, b.state, true);
    freeRootCurrentMomenta(b.model, b.state, d.momentumNow);
    let x = b.momentumTarget[3] - d.momentumNow[3], y = b.momentumTarget[4] - d.momentumNow[4], z = b.momentumTarget[5] - d.momentumNow[5];
    for (let k = 0; k < nd; k++) {
      const p = x * D[3 * k] + y * D[3 * k + 1] + z * D[3 * k + 2];
      x -= p * D[3 * k]; y -= p * D[3 * k + 1]; z -= p * D[3 * k + 2];
    }
    const m = subtreeMass(b.model, 0);
    const dv = d.dvScratch;
    dv[0] = 0; dv[1] = 0; dv[2] = 0; dv[3] = x / m; dv[4] = y / m; dv[5] = z / m;
    addRootVelocityWorld(b.model, b.state, 0, dv);
  }
}

/** At the start of a pass, each awake free tree's momentum, external wrench and centre of mass (Body.passMomentum). */
export function passMomenta(d: StepData): void {
  const bodies = d.bodies;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping || !b.freeTree) continue;
    // the accelerations without any row force, and without the gyroscopic change (an internal
    // force, see preserveMomenta): the rate of momentum they give is the external wrench
    const x = b.scratch;
    for (let k = 0; k < b.model.nv; k++) x[k] = b.qdd0[k] - b.gyroDelta[k];
    freeRootMomenta(b.model, b.state, x, 0, b.passMomentum);
    freeRootMomenta(b.model, b.state, x, 1, b.passWrench);
    for (let e = 0; e < 6; e++) b.passWrench[e] -= b.passMomentum[e];
    centerOfMass(b.model, b.state, b.passCom);
  }
}

/**
 * Momentum of a group of bodies that nothing holds from outside: an island whose rows all run
 * between its own free trees (contacts, pins, limits on non-root joints), or a free tree that no
 * row touches. Its rows act equal and opposite on its bodies, so over the pass its linear
 * momentum P changes by h F and its angular momentum about its centre of mass L by h tau (F, tau
 * the external wrench at the pass's start: gravity, applied forces), and its centre of mass
 * moves by h P / M (semi-implicit Euler of the centre of mass). Integration in reduced
 * coordinates does not keep that for a tree whose joints move (momentum-correction.ts), and
 * post-stabilisation moves each body's q with its qd held, which changes a tree's momentum too;
 * preserveMomenta restores each body's own momentum only along the directions no row pushed it
 * in. Here the group as a whole gets back P, its centre of mass, and (for a group of several
 * bodies or a tree of several links; a lone rigid body keeps the integrator's) L, by one rigid
 * motion of all its bodies: a common translation and a common twist about the centre of mass.
 * A rigid motion of the whole group changes no relative position or velocity of its bodies, so
 * what the solver and stabilisation made of the rows between them is kept.
 */
export function conserveGroupMomenta(d: StepData, h: number, n: number): void {
  // (n groups, as momentumGroups found them for this pass)
  if (n === 0) return;
  if (d.groupSums.length < n * GROUP_STRIDE) d.groupSums = new Float64Array(2 * n * GROUP_STRIDE);
  d.groupSums.fill(0, 0, n * GROUP_STRIDE);
  const bodies = d.bodies, byRank = d.byRank, groupOf = d.groupOf;
  // (in canonical order: the sums do not depend on the order bodies were added in)
  for (let r = 0; r < byRank.length; r++) {
    const g = groupOf[byRank[r].index];
    if (g >= 0) addGroupSums(d, byRank[r], g * GROUP_STRIDE);
  }
  d.scalar[0] = h;
  for (let g = 0; g < n; g++) if (d.groupSums[g * GROUP_STRIDE + 34] > 0) groupMotion(d.groupSums, g * GROUP_STRIDE, d.scalar);
  for (let bi = 0; bi < bodies.length; bi++) if (groupOf[bi] >= 0) moveWithGroup(d, bodies[bi], groupOf[bi] * GROUP_STRIDE);
}

/** Each body's momentum group (groupOf: an island held by nothing, or a free tree alone; -1 for none); returns their number (0 when no body has one). */
export function momentumGroups(d: StepData, rows: RowBuffer, nIslands: number): number {
  const bodies = d.bodies, nb = bodies.length;
  if (d.groupOf.length < nb) d.groupOf = new Int32Array(2 * nb);
  if (d.grounded.length < nIslands) d.grounded = new Uint8Array(2 * nIslands);
  const groupOf = d.groupOf, grounded = d.grounded;
  for (let isl = 0; isl < nIslands; isl++) {
    let held = 0;
    for (let k = d.islandStart[isl]; k < d.islandStart[isl + 1] && held === 0; k++) {
      const j = d.islandRows[k];
      if (rows.bodyB[j] >= 0) continue; // between two bodies (or within one)
      const type = rows.type[j];
      if (type === RowType.Point || type === RowType.Angular) held = 1; // to the world
      else if (actsOnRoot(d, rows, j, bodies[rows.bodyA[j]])) held = 1; // a joint row on a root's own dofs
    }
    grounded[isl] = held;
  }
  for (let bi = 0; bi < nb; bi++) { const b = bodies[bi]; if (!b.sleeping && !b.freeTree && b.island >= 0) grounded[b.island] = 1; }
  let n = nIslands, members = 0;
  for (let bi = 0; bi < nb; bi++) {
    const b = bodies[bi];
    if (b.sleeping || !b.freeTree) groupOf[bi] = -1;
    else if (b.island >= 0) groupOf[bi] = grounded[b.island] === 1 ? -1 : b.island;
    else groupOf[bi] = n++;
    if (groupOf[bi] >= 0) members++;
  }
  // (none: a world on the ground does no more here, step after step)
  return members > 0 ? n : 0;
}

/**
 * Adds body b to the sums of its group at o: mass, first moment, momentum and external wrench
 * at the pass's start about the world origin; momentum about the origin, first moment and
 * rotational inertia about the origin now; and 1 for a rigid body, 2 for a tree.
 */
function addGroupSums(d: StepData, b: Body, o: number): void {
  const S = d.groupSums, H = d.groupH, C = d.groupC, I = d.groupI;
  forwardKinematics(b.model, b.state, true);
  subtreeMomentumAndInertia(b.model, b.state, 0, H, C, I);
  const m = C[3];
  const c = b.passCom, p = b.passMomentum, w = b.passWrench;
  S[o] += m;
  S[o + 1] += m * c[0]; S[o + 2] += m * c[1]; S[o + 3] += m * c[2];
  S[o + 4] += p[0] + (c[1] * p[5] - c[2] * p[4]);
  S[o + 5] += p[1] + (c[2] * p[3] - c[0] * p[5]);
  S[o + 6] += p[2] + (c[0] * p[4] - c[1] * p[3]);
  S[o + 7] += p[3]; S[o + 8] += p[4]; S[o + 9] += p[5];
  S[o + 10] += w[0] + (c[1] * w[5] - c[2] * w[4]);
  S[o + 11] += w[1] + (c[2] * w[3] - c[0] * w[5]);
  S[o + 12] += w[2] + (c[0] * w[4] - c[1] * w[3]);
  S[o + 13] += w[3]; S[o + 14] += w[4]; S[o + 15] += w[5];
  for (let e = 0; e < 6; e++) S[o + 16 + e] += H[e];
  S[o + 22] += m * C[0]; S[o + 23] += m * C[1]; S[o + 24] += m * C[2];
  for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) S[o + 25 + 3 * r + k] += I[6 * r + k];
  S[o + 34] += b.rigid ? 1 : 2;
}

/**
 * From the sums of the group at o, the rigid motion that restores it (conserveGroupMomenta),
 * written over them: the twist at the world origin (angular, then the velocity of the point at
 * the origin) at o..o+5, the translation at o+6..o+8; o+35 is 1 when the group is left alone.
 * The pass's length is hs[0] (a double argument would be boxed).
 */
function groupMotion(S: Float64Array, o: number, hs: Float64Array): void {
  const M = S[o], h = hs[0];
  if (!(M > 0)) { S[o + 35] = 1; return; }
  // start: centre of mass, linear momentum, external force
  const csx = S[o + 1] / M, csy = S[o + 2] / M, csz = S[o + 3] / M;
  const px = S[o + 7], py = S[o + 8], pz = S[o + 9], fx = S[o + 13], fy = S[o + 14], fz = S[o + 15];
  // targets: P + h F; L about the centre of mass + h tau about it; the centre of mass + h P' / M
  const tx = px + h * fx, ty = py + h * fy, tz = pz + h * fz;
  const lx = S[o + 4] - (csy * pz - csz * py) + h * (S[o + 10] - (csy * fz - csz * fy));
  const ly = S[o + 5] - (csz * px - csx * pz) + h * (S[o + 11] - (csz * fx - csx * fz));
  const lz = S[o + 6] - (csx * py - csy * px) + h * (S[o + 12] - (csx * fy - csy * fx));
  // now: centre of mass, linear momentum, angular momentum about the centre of mass less its target
  const cx = S[o + 22] / M, cy = S[o + 23] / M, cz = S[o + 24] / M;
  const nx = S[o + 19], ny = S[o + 20], nz = S[o + 21];
  const ax = S[o + 16] - (cy * nz - cz * ny) - lx, ay = S[o + 17] - (cz * nx - cx * nz) - ly, az = S[o + 18] - (cx * ny - cy * nx) - lz;
  // the translation that puts the centre of mass where the target momentum takes it
  S[o + 6] = csx + (h * tx) / M - cx; S[o + 7] = csy + (h * ty) / M - cy; S[o + 8] = csz + (h * tz) / M - cz;
  // linear: a common velocity u = dP / M (at o + 3..5 until the twist is complete)
  S[o + 3] = (tx - nx) / M; S[o + 4] = (ty - ny) / M; S[o + 5] = (tz - nz) / M;
  S[o] = 0; S[o + 1] = 0; S[o + 2] = 0;
  if (S[o + 34] > 1) {
    // angular: w = -I_c^-1 (L_now - L_target), I_c = I_o - M (|c|^2 1 - c c^T) about the present centre of mass
    const c2 = cx * cx + cy * cy + cz * cz;
    const a = S[o + 25] - M * (c2 - cx * cx), b = S[o + 26] + M * cx * cy, c = S[o + 27] + M * cx * cz;
    const d = S[o + 29] - M * (c2 - cy * cy), e = S[o + 30] + M * cy * cz, f = S[o + 33] - M * (c2 - cz * cz);
    const A00 = d * f - e * e, A01 = c * e - b * f, A02 = b * e - c * d;
    const A11 = a * f - c * c, A12 = b * c - a * e, A22 = a * d - b * b;
    const det = a * A00 + b * A01 + c * A02;
    if (det > 0) {
      S[o] = -(A00 * ax + A01 * ay + A02 * az) / det;
      S[o + 1] = -(A01 * ax + A11 * ay + A12 * az) / det;
      S[o + 2] = -(A02 * ax + A12 * ay + A22 * az) / det;
    }
  }
  // the twist at the world origin: v(x) = u + w x (x - c), so v(0) = u - w x c
  const wx = S[o], wy = S[o + 1], wz = S[o + 2];
  S[o + 3] -= wy * cz - wz * cy; S[o + 4] -= wz * cx - wx * cz; S[o + 5] -= wx * cy - wy * cx;
}

/** Moves body b with its group's rigid motion at o (the twist at its poses of addGroupSums, then the translation). */
function moveWithGroup(d: StepData, b: Body, o: number): void {
  const S = d.groupSums;
  if (S[o + 35] !== 0) return;
  const dv = d.dvScratch;
  for (let e = 0; e < 6; e++) dv[e] = S[o + e];
  addRootVelocityWorld(b.model, b.state, 0, dv);
  const q = b.state.q, qo = b.model.qOffset[0];
  q[qo] += S[o + 6]; q[qo + 1] += S[o + 7]; q[qo + 2] += S[o + 8];
  b.state.work.dynamicsValid = false;
}

/**
 * The directions in which the step's rows push body b from outside, orthonormalised into
 * b.pushDirections: their number (0: nothing pushes it, its momentum is kept whole), or -1 when they
 * block it (three independent directions, an angular row to another body or the world, or a
 * joint row on the root's own dofs): nothing of its momentum is kept then.
 */
function rowDirections(d: StepData, rows: RowBuffer, b: Body): number {
  let nd = 0;
  const D = b.pushDirections!;
  if (b.island < 0) return 0;
  // the body's rows are among its island's (in the order of the row buffer)
  for (let k = d.islandStart[b.island]; k < d.islandStart[b.island + 1]; k++) {
    const j = d.islandRows[k];
    if (rows.bodyA[j] !== b.index && rows.bodyB[j] !== b.index) continue;
    if (rows.bodyA[j] === rows.bodyB[j]) continue; // internal to the body: no net force
    if (rows.type[j] !== RowType.Point) {
      // an angular row to the world, or a joint row on the root's own dofs, can push the whole body
      if (rows.type[j] === RowType.Angular || actsOnRoot(d, rows, j, b)) return -1;
      continue;
    }
    let x = rows.dir[3 * j], y = rows.dir[3 * j + 1], z = rows.dir[3 * j + 2];
    for (let k = 0; k < nd; k++) {
      const p = x * D[3 * k] + y * D[3 * k + 1] + z * D[3 * k + 2];
      x -= p * D[3 * k]; y -= p * D[3 * k + 1]; z -= p * D[3 * k + 2];
    }
    const n = Math.sqrt(x * x + y * y + z * z);
    if (n > 1e-9) { D[3 * nd] = x / n; D[3 * nd + 1] = y / n; D[3 * nd + 2] = z / n; nd++; }
    if (nd === 3) return -1;
  }
  return nd;
}

/** Whether a joint row acts on the free root's own dofs (then it can push the whole body). */
export function actsOnRoot(d: StepData, rows: RowBuffer, j: number, b: Body): boolean {
  if (rows.type[j] === RowType.Joint) return b.model.dofLink[rows.dof[j]] === 0;
  return rows.linkA[j] === 0;
}
