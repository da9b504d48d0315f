/**
 * The Jacobian row of one side of a constraint row: out[0..nv) such that the side's measure is
 * out . qd (and, at the acceleration level, out . qdd plus velocity-product terms). Used by the
 * implicit PGS (K = J M^-1 J^T never formed) and by post-stabilisation.
 */
import type { Body } from '../body.js';
import { RowType, type RowBuffer } from './row-buffer.js';

export function rowSideJacobian(rows: RowBuffer, j: number, side: number, body: Body, out: Float64Array, oo: number): void {
  const { model, state } = body;
  const nv = model.nv;
  out.fill(0, oo, oo + nv);
  const t = rows.type[j];
  const d = rows.dir, o = 3 * j;
  if (t === RowType.Joint) { out[oo + rows.dof[j]] = d[o]; return; }
  if (t === RowType.JointVec) {
    const link = rows.linkA[j], v0 = model.vOffset[link];
    for (let k = 0; k < Math.min(3, model.jointNv[link]); k++) out[oo + v0 + k] = d[o + k];
    return;
  }
  const link = side === 0 ? rows.linkA[j] : rows.linkB[j];
  const sign = side === 0 ? 1 : -1;
  const dx = sign * d[o], dy = sign * d[o + 1], dz = sign * d[o + 2];
  const P = state.work.pose, S = model.S;
  let X = 0, Y = 0, Z = 0;
  const point = t === RowType.Point;
  if (point) {
    const local = side === 0 ? rows.pA : rows.pB, po = 12 * link;
    const lx = local[o], ly = local[o + 1], lz = local[o + 2];
    X = P[po] * lx + P[po + 1] * ly + P[po + 2] * lz + P[po + 9];
    Y = P[po + 3] * lx + P[po + 4] * ly + P[po + 5] * lz + P[po + 10];
    Z = P[po + 6] * lx + P[po + 7] * ly + P[po + 8] * lz + P[po + 11];
  }
  for (let a = link; a >= 0; a = model.parent[a]) {
    const po = 12 * a, v0 = model.vOffset[a];
    const rx = X - P[po + 9], ry = Y - P[po + 10], rz = Z - P[po + 11];
    for (let k = 0; k < model.jointNv[a]; k++) {
      const so = 36 * a + 6 * k;
      const wx = P[po] * S[so] + P[po + 1] * S[so + 1] + P[po + 2] * S[so + 2];
      const wy = P[po + 3] * S[so] + P[po + 4] * S[so + 1] + P[po + 5] * S[so + 2];
      const wz = P[po + 6] * S[so] + P[po + 7] * S[so + 1] + P[po + 8] * S[so + 2];
      if (!point) { out[oo + v0 + k] = dx * wx + dy * wy + dz * wz; continue; }
      const vx = P[po] * S[so + 3] + P[po + 1] * S[so + 4] + P[po + 2] * S[so + 5] + (wy * rz - wz * ry);
      const vy = P[po + 3] * S[so + 3] + P[po + 4] * S[so + 4] + P[po + 5] * S[so + 5] + (wz * rx - wx * rz);
      const vz = P[po + 6] * S[so + 3] + P[po + 7] * S[so + 4] + P[po + 8] * S[so + 5] + (wx * ry - wy * rx);
      out[oo + v0 + k] = dx * vx + dy * vy + dz * vz;
    }
  }
}
