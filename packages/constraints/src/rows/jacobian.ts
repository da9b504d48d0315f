/**
 * The Jacobian row of one side of a constraint row, stored along the side's dof path: the side's
 * measure is sum_t out[t] qd[path t], where the path runs from the deepest dof the side acts on to
 * the root (featherstone SparseLTDL paths: that dof first, then its ancestors). No other dof moves
 * the side. Used by the implicit solver (K = J M^-1 J^T never formed).
 *
 * A point or angular side measures d . (velocity of its point) or d . (angular velocity), a
 * pairing of the spatial force f = sign [p x d; d] (or sign [d; 0]) with the link's motion, and a
 * dof's column of the Jacobian is its motion subspace in world coordinates, s = [w; v] with v the
 * velocity of the reference point c (the root link's origin): J_q = f . s_q, six products per dof
 * once the subspaces are known (worldMotionSubspaces, one pass per body).
 */
import type { Body } from '../body.js';
import { RowType, type RowBuffer } from './row-buffer.js';

/**
 * out[6 q ..] = [w; v] of dof q in world coordinates: the angular velocity R S_w and the velocity
 * R S_v + w x (c - o) of the reference point c, for a unit rate of the dof (o the link's origin).
 * Requires forward kinematics.
 */
export function worldMotionSubspaces(body: Body, out: Float64Array): void {
  const { model, state } = body;
  const P = state.work.pose, S = model.S;
  const cx = P[9], cy = P[10], cz = P[11];
  for (let i = 0; i < model.nLinks; i++) {
    const po = 12 * i, v0 = model.vOffset[i];
    const rx = cx - P[po + 9], ry = cy - P[po + 10], rz = cz - P[po + 11];
    for (let k = 0; k < model.jointNv[i]; k++) {
      const so = 36 * i + 6 * k, o = 6 * (v0 + k);
      const wx = P[po] * S[so] + P[po + 1] * S[so + 1] + P[po + 2] * S[so + 2];
      const wy = P[po + 3] * S[so] + P[po + 4] * S[so + 1] + P[po + 5] * S[so + 2];
      const wz = P[po + 6] * S[so] + P[po + 7] * S[so + 1] + P[po + 8] * S[so + 2];
      out[o] = wx; out[o + 1] = wy; out[o + 2] = wz;
      out[o + 3] = P[po] * S[so + 3] + P[po + 1] * S[so + 4] + P[po + 2] * S[so + 5] + (wy * rz - wz * ry);
      out[o + 4] = P[po + 3] * S[so + 3] + P[po + 4] * S[so + 4] + P[po + 5] * S[so + 5] + (wz * rx - wx * rz);
      out[o + 5] = P[po + 6] * S[so + 3] + P[po + 7] * S[so + 4] + P[po + 8] * S[so + 5] + (wx * ry - wy * rx);
    }
  }
}

/** The deepest dof whose path to the root holds every dof that side `side` of row j acts on (-1: none). */
export function rowSideDeepestDof(rows: RowBuffer, j: number, side: number, body: Body): number {
  const t = rows.type[j];
  if (t === RowType.Joint) return rows.dof[j];
  const model = body.model;
  if (t === RowType.JointVec) {
    const link = rows.linkA[j];
    return model.vOffset[link] + Math.min(3, model.jointNv[link]) - 1;
  }
  return body.linkLastDof[side === 0 ? rows.linkA[j] : rows.linkB[j]];
}

/**
 * Writes the Jacobian of side `side` of row j along the path from dof `deepest` (rowSideDeepestDof)
 * into out[oo ..], one number per dof of the path, reading the world subspaces `sw`
 * (worldMotionSubspaces) and the path (body.massFactor).
 */
export function rowSideJacobianOnPath(rows: RowBuffer, j: number, side: number, body: Body, deepest: number, sw: Float64Array, out: Float64Array, oo: number): void {
  const F = body.massFactor, path = F.pathDofs, p0 = F.pathStart[deepest], n = F.pathStart[deepest + 1] - p0;
  const t = rows.type[j];
  const d = rows.dir, o = 3 * j;
  if (t === RowType.Joint || t === RowType.JointVec) {
    // the path starts with the joint's own dofs, last first
    out.fill(0, oo, oo + n + 1);
    if (t === RowType.Joint) out[oo] = d[o];
    else {
      const nj = deepest - body.model.vOffset[rows.linkA[j]] + 1;
      for (let k = 0; k < nj; k++) out[oo + k] = d[o + nj - 1 - k];
    }
    return;
  }
  const sign = side === 0 ? 1 : -1;
  const dx = sign * d[o], dy = sign * d[o + 1], dz = sign * d[o + 2];
  let mx = dx, my = dy, mz = dz, fx = 0, fy = 0, fz = 0;
  if (t === RowType.Point) {
    // f = [(p - c) x d; d], p the side's point in world coordinates
    const link = side === 0 ? rows.linkA[j] : rows.linkB[j];
    const local = side === 0 ? rows.pA : rows.pB, P = body.state.work.pose, po = 12 * link;
    const lx = local[o], ly = local[o + 1], lz = local[o + 2];
    const px = P[po] * lx + P[po + 1] * ly + P[po + 2] * lz + P[po + 9] - P[9];
    const py = P[po + 3] * lx + P[po + 4] * ly + P[po + 5] * lz + P[po + 10] - P[10];
    const pz = P[po + 6] * lx + P[po + 7] * ly + P[po + 8] * lz + P[po + 11] - P[11];
    mx = py * dz - pz * dy; my = pz * dx - px * dz; mz = px * dy - py * dx;
    fx = dx; fy = dy; fz = dz;
  }
  for (let k = 0; k <= n; k++) {
    const q = k === 0 ? deepest : path[p0 + k - 1], so = 6 * q;
    out[oo + k] = mx * sw[so] + my * sw[so + 1] + mz * sw[so + 2] + fx * sw[so + 3] + fy * sw[so + 4] + fz * sw[so + 5];
  }
}
