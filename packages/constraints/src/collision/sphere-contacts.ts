/**
 * Contacts of a sphere (shape A) with a sphere, a capsule and a box (shape B). Each produces at
 * most one point; the normal points from B to A.
 *
 * Shapes are given as (pose array, offset) and their sizes as offsets into the parameter array prm
 * (sphere [r], capsule [r, halfLength], box [hx, hy, hz]), so that no float crosses a call
 * boundary (see geometry.ts).
 */
import { SEGPT, boxRegion, closestSegmentPoint } from './geometry.js';
import type { ManifoldBuilder } from './manifold.js';

/** Scratch: a centre on B (0..2), the sphere centre in the box frame (3..5). */
const tmp = new Float64Array(6);

/**
 * Contact between spheres of radius prm[qa] at ca[oca..] (A) and prm[qb] at cb[ocb..] (B). Also
 * serves sphere-capsule, with cb the closest point of the capsule's axis.
 */
function centresContact(
  ca: Float64Array, oca: number, cb: Float64Array, ocb: number,
  prm: Float64Array, qa: number, qb: number, feature: number, out: ManifoldBuilder,
): void {
  const ra = prm[qa], rb = prm[qb];
  const ax = ca[oca], ay = ca[oca + 1], az = ca[oca + 2];
  const dx = ax - cb[ocb], dy = ay - cb[ocb + 1], dz = az - cb[ocb + 2];
  const d2 = dx * dx + dy * dy + dz * dz;
  const reach = ra + rb + out.margin;
  if (d2 > reach * reach) return;
  const dist = Math.sqrt(d2);
  let nx = 0, ny = 1, nz = 0; // concentric: any direction separates; take +Y (up)
  if (dist > 1e-12) {
    nx = dx / dist; ny = dy / dist; nz = dz / dist;
  }
  const c = out.next;
  c[0] = ax - nx * ra; c[1] = ay - ny * ra; c[2] = az - nz * ra;
  c[3] = nx; c[4] = ny; c[5] = nz;
  c[6] = ra + rb - dist;
  out.push(feature);
}

/** Sphere A (pose pa at oa, radius prm[qa]) against sphere B (pose pb at ob, radius prm[qb]). */
export function sphereSphereContact(
  pa: Float64Array, oa: number, pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number, out: ManifoldBuilder,
): void {
  centresContact(pa, oa + 9, pb, ob + 9, prm, qa, qb, 0, out);
}

/** Sphere A against capsule B (axis = local Y, radius prm[qb], half length prm[qb + 1]). */
export function sphereCapsuleContact(
  pa: Float64Array, oa: number, pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number, out: ManifoldBuilder,
): void {
  const hb = prm[qb + 1];
  const yx = pb[ob + 1] * hb, yy = pb[ob + 4] * hb, yz = pb[ob + 7] * hb;
  const cx = pb[ob + 9], cy = pb[ob + 10], cz = pb[ob + 11];
  const g = SEGPT;
  g[0] = cx - yx; g[1] = cy - yy; g[2] = cz - yz;
  g[3] = cx + yx; g[4] = cy + yy; g[5] = cz + yz;
  g[6] = pa[oa + 9]; g[7] = pa[oa + 10]; g[8] = pa[oa + 11];
  closestSegmentPoint();
  const s = 2 * g[9] - 1;
  tmp[0] = cx + yx * s; tmp[1] = cy + yy * s; tmp[2] = cz + yz * s;
  centresContact(pa, oa + 9, tmp, 0, prm, qa, qb, 0, out);
}

/**
 * Sphere A against box B (half extents prm[qb..qb+3)). In the box frame the closest box point is
 * the centre clamped to the box. A centre inside the box leaves through the nearest face. The
 * feature id is the box region of the centre (face, edge or vertex; see boxRegion), the nearest
 * face's region when the centre is inside.
 */
export function sphereBoxContact(
  pa: Float64Array, oa: number, pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number, out: ManifoldBuilder,
): void {
  const ra = prm[qa], hx = prm[qb], hy = prm[qb + 1], hz = prm[qb + 2];
  const ax = pa[oa + 9], ay = pa[oa + 10], az = pa[oa + 11];
  const dx = ax - pb[ob + 9], dy = ay - pb[ob + 10], dz = az - pb[ob + 11];
  // Local centre = R^T d.
  const lx = pb[ob] * dx + pb[ob + 3] * dy + pb[ob + 6] * dz;
  const ly = pb[ob + 1] * dx + pb[ob + 4] * dy + pb[ob + 7] * dz;
  const lz = pb[ob + 2] * dx + pb[ob + 5] * dy + pb[ob + 8] * dz;
  tmp[3] = lx; tmp[4] = ly; tmp[5] = lz;
  const region = boxRegion(tmp, 3, prm, qb);
  let nlx: number, nly: number, nlz: number, depth: number, feature: number;
  if (region !== 0) {
    const qx = lx < -hx ? -hx : lx > hx ? hx : lx;
    const qy = ly < -hy ? -hy : ly > hy ? hy : ly;
    const qz = lz < -hz ? -hz : lz > hz ? hz : lz;
    const ex = lx - qx, ey = ly - qy, ez = lz - qz;
    const d2 = ex * ex + ey * ey + ez * ez;
    const reach = ra + out.margin;
    if (d2 > reach * reach) return;
    const dist = Math.sqrt(d2);
    nlx = ex / dist; nly = ey / dist; nlz = ez / dist;
    depth = ra - dist;
    feature = region;
  } else {
    // Inside: the face with the smallest distance h_k - |l_k| (first axis on ties).
    const fx = hx - Math.abs(lx), fy = hy - Math.abs(ly), fz = hz - Math.abs(lz);
    nlx = 0; nly = 0; nlz = 0;
    if (fx <= fy && fx <= fz) {
      nlx = lx < 0 ? -1 : 1;
      depth = ra + fx;
      feature = lx < 0 ? 1 : 2;
    } else if (fy <= fz) {
      nly = ly < 0 ? -1 : 1;
      depth = ra + fy;
      feature = ly < 0 ? 3 : 6;
    } else {
      nlz = lz < 0 ? -1 : 1;
      depth = ra + fz;
      feature = lz < 0 ? 9 : 18;
    }
  }
  const nx = pb[ob] * nlx + pb[ob + 1] * nly + pb[ob + 2] * nlz;
  const ny = pb[ob + 3] * nlx + pb[ob + 4] * nly + pb[ob + 5] * nlz;
  const nz = pb[ob + 6] * nlx + pb[ob + 7] * nly + pb[ob + 8] * nlz;
  const c = out.next;
  c[0] = ax - nx * ra; c[1] = ay - ny * ra; c[2] = az - nz * ra;
  c[3] = nx; c[4] = ny; c[5] = nz;
  c[6] = depth;
  out.push(feature);
}
