/**
 * Box A against box B: separating-axis test over the 15 axes (3 face normals of each box and the 9
 * products of an edge of A with an edge of B), then the manifold of the least-overlap axis.
 *
 * Face axis: the face of the owning box that faces the other box is the reference face; the face
 * of the other box most anti-parallel to it is the incident face. The incident quad is clipped by
 * the four side planes of the reference face (Sutherland-Hodgman) and the clipped points lying
 * below the reference face (or within the margin above it) are the contacts, at most 8, reduced to
 * 4. Edge axis: one point at the closest points of the two edges, unless the axis is within 0.1 rad
 * of a face normal and that face's manifold holds two points or more (faceOnEdgeContact).
 *
 * Feature ids: face contact = refIsB << 12 | refFace << 9 | incidentFace << 6 | inEdge << 3 | outEdge
 * (faces numbered 2 * axis + (positive side ? 1 : 0); edges 0..3 of the incident quad, 4..7 side
 * planes of the reference face); edge contact = 1 << 15 | edgeA << 4 | edgeB (edge = 4 axis + signs).
 */
import { ClipPolygon, clipPolygonByPlane, setQuad } from './clip.js';
import { SEG, closestSegmentSegment } from './geometry.js';
import type { ManifoldBuilder } from './manifold.js';

/** Box B faces must beat box A faces, and edge axes must beat faces, by rel * |overlap| + abs (m). */
const FACE_B_BIAS_REL = 0.02;
const FACE_B_BIAS_ABS = 1e-6;
const EDGE_BIAS_REL = 0.05;
const EDGE_BIAS_ABS = 1e-5;
/**
 * An edge-against-edge axis closer than this to a face normal (cosine; 0.1 rad) is first tried as
 * that face's manifold (faceOnEdgeContact; hull-contacts.ts keeps the same two numbers).
 */
export const FACE_ON_EDGE_COS = 0.995;
/** How much deeper or shallower than the edge pair's overlap such a face manifold may reach, as a fraction of the contact margin. */
const FACE_ON_EDGE_SLACK = 0.2;

const polyA = new ClipPolygon();
const polyB = new ClipPolygon();
/** Scratch: the winning axis n (0..2, from B to A), its overlap (3); a clip plane (4..7); a face quad (8..16). */
const BB = new Float64Array(17);

/** Box A (pose pa at oa, half extents prm[qa..qa+3)) against box B (pose pb at ob, prm[qb..qb+3)). */
export function boxBoxContact(
  pa: Float64Array, oa: number, pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number, out: ManifoldBuilder,
): void {
  const margin = out.margin;
  const hax = prm[qa], hay = prm[qa + 1], haz = prm[qa + 2];
  const hbx = prm[qb], hby = prm[qb + 1], hbz = prm[qb + 2];
  const dx = pa[oa + 9] - pb[ob + 9], dy = pa[oa + 10] - pb[ob + 10], dz = pa[oa + 11] - pb[ob + 11];

  // Best (largest) separation found so far, its kind (0 face of A, 1 face of B, 2 edges) and axis.
  let bestS = -Infinity;
  let kind = -1, axisA = -1, axisB = -1;
  let nx = 0, ny = 0, nz = 0;

  for (let i = 0; i < 3; i++) {
    const ax = pa[oa + i], ay = pa[oa + 3 + i], az = pa[oa + 6 + i];
    const ha = i === 0 ? hax : i === 1 ? hay : haz;
    const rb = hbx * Math.abs(ax * pb[ob] + ay * pb[ob + 3] + az * pb[ob + 6]) +
      hby * Math.abs(ax * pb[ob + 1] + ay * pb[ob + 4] + az * pb[ob + 7]) +
      hbz * Math.abs(ax * pb[ob + 2] + ay * pb[ob + 5] + az * pb[ob + 8]);
    const p = dx * ax + dy * ay + dz * az;
    const s = Math.abs(p) - ha - rb;
    if (s > margin) return;
    if (s > bestS) {
      bestS = s; kind = 0; axisA = i;
      const sg = p < 0 ? -1 : 1;
      nx = sg * ax; ny = sg * ay; nz = sg * az;
    }
  }
  for (let j = 0; j < 3; j++) {
    const bx = pb[ob + j], by = pb[ob + 3 + j], bz = pb[ob + 6 + j];
    const hb = j === 0 ? hbx : j === 1 ? hby : hbz;
    const ra = hax * Math.abs(bx * pa[oa] + by * pa[oa + 3] + bz * pa[oa + 6]) +
      hay * Math.abs(bx * pa[oa + 1] + by * pa[oa + 4] + bz * pa[oa + 7]) +
      haz * Math.abs(bx * pa[oa + 2] + by * pa[oa + 5] + bz * pa[oa + 8]);
    const p = dx * bx + dy * by + dz * bz;
    const s = Math.abs(p) - ra - hb;
    if (s > margin) return;
    if (s > bestS + FACE_B_BIAS_REL * Math.abs(bestS) + FACE_B_BIAS_ABS) {
      bestS = s; kind = 1; axisB = j;
      const sg = p < 0 ? -1 : 1;
      nx = sg * bx; ny = sg * by; nz = sg * bz;
    }
  }
  const faceS = bestS;
  for (let i = 0; i < 3; i++) {
    const ax = pa[oa + i], ay = pa[oa + 3 + i], az = pa[oa + 6 + i];
    for (let j = 0; j < 3; j++) {
      const bx = pb[ob + j], by = pb[ob + 3 + j], bz = pb[ob + 6 + j];
      let lx = ay * bz - az * by, ly = az * bx - ax * bz, lz = ax * by - ay * bx;
      const ll = lx * lx + ly * ly + lz * lz;
      if (ll < 1e-6) continue; // (nearly) parallel edges: the face axes already cover this direction
      const len = Math.sqrt(ll);
      lx /= len; ly /= len; lz /= len;
      const ra = hax * Math.abs(lx * pa[oa] + ly * pa[oa + 3] + lz * pa[oa + 6]) +
        hay * Math.abs(lx * pa[oa + 1] + ly * pa[oa + 4] + lz * pa[oa + 7]) +
        haz * Math.abs(lx * pa[oa + 2] + ly * pa[oa + 5] + lz * pa[oa + 8]);
      const rb = hbx * Math.abs(lx * pb[ob] + ly * pb[ob + 3] + lz * pb[ob + 6]) +
        hby * Math.abs(lx * pb[ob + 1] + ly * pb[ob + 4] + lz * pb[ob + 7]) +
        hbz * Math.abs(lx * pb[ob + 2] + ly * pb[ob + 5] + lz * pb[ob + 8]);
      const p = dx * lx + dy * ly + dz * lz;
      const s = Math.abs(p) - ra - rb;
      if (s > margin) return;
      if (s > faceS + EDGE_BIAS_REL * Math.abs(faceS) + EDGE_BIAS_ABS && s > bestS) {
        bestS = s; kind = 2; axisA = i; axisB = j;
        const sg = p < 0 ? -1 : 1;
        nx = sg * lx; ny = sg * ly; nz = sg * lz;
      }
    }
  }

  BB[0] = nx; BB[1] = ny; BB[2] = nz; BB[3] = -bestS;
  if (kind === 2) {
    if (!faceOnEdgeContact(pa, oa, pb, ob, prm, qa, qb, out)) edgeEdgeContact(pa, oa, pb, ob, prm, qa, qb, axisA, axisB, out);
  } else if (kind === 0) {
    // Reference face on A facing B (outward normal -n); incident face on B facing A.
    faceContact(pb, ob, qb, pa, oa, qa, prm, axisA, 0, out);
  } else {
    // Reference face on B facing A (outward normal n); incident face on A.
    faceContact(pa, oa, qa, pb, ob, qb, prm, axisB, 1, out);
  }
}

/**
 * Clips the incident box's (pi, qi) face most anti-parallel to the reference normal r by the side
 * planes of reference face `refAxis` of the reference box (pr, qr). r is BB 0..2 when the
 * reference is B (refIsB = 1: incident points are on A, the normal is r), minus BB 0..2 when it is
 * A (refIsB = 0: incident points are on B, the normal B to A is -r).
 */
function faceContact(
  pi: Float64Array, oi: number, qi: number, pr: Float64Array, or: number, qr: number,
  prm: Float64Array, refAxis: number, refIsB: number, out: ManifoldBuilder,
): void {
  const flip = refIsB ? 1 : -1;
  const rx = flip * BB[0], ry = flip * BB[1], rz = flip * BB[2];
  // Incident face: axis j with largest |b_j . r|, outward sign opposite to r.
  let j = 0, best = -1, dotj = 0;
  for (let k = 0; k < 3; k++) {
    const c = pi[oi + k] * rx + pi[oi + 3 + k] * ry + pi[oi + 6 + k] * rz;
    if (Math.abs(c) > best) { best = Math.abs(c); j = k; dotj = c; }
  }
  const incSign = dotj > 0 ? -1 : 1;
  const hj = prm[qi + j];
  const j1 = j === 2 ? 0 : j + 1, j2 = j1 === 2 ? 0 : j1 + 1;
  const h1 = prm[qi + j1], h2 = prm[qi + j2];
  const q = BB;
  for (let k = 0; k < 3; k++) {
    q[8 + k] = pi[oi + 9 + k] + incSign * hj * pi[oi + 3 * k + j];
    q[11 + k] = h1 * pi[oi + 3 * k + j1];
    q[14 + k] = h2 * pi[oi + 3 * k + j2];
  }
  setQuad(polyA, q, 8);

  // Side planes of the reference face: +-e_k . (x - centre) <= h_k for the two other axes.
  const i1 = refAxis === 2 ? 0 : refAxis + 1, i2 = i1 === 2 ? 0 : i1 + 1;
  const cx = pr[or + 9], cy = pr[or + 10], cz = pr[or + 11];
  let src = polyA, dst = polyB;
  for (let p = 0; p < 4; p++) {
    const k = p < 2 ? i1 : i2;
    const sg = p & 1 ? -1 : 1;
    const ex = sg * pr[or + k], ey = sg * pr[or + 3 + k], ez = sg * pr[or + 6 + k];
    q[4] = ex; q[5] = ey; q[6] = ez; q[7] = ex * cx + ey * cy + ez * cz + prm[qr + k];
    clipPolygonByPlane(src, dst, PLANE, 4 + p);
    const t = src; src = dst; dst = t;
    if (src.count === 0) return;
  }

  const plane = out.reference;
  plane[0] = rx; plane[1] = ry; plane[2] = rz; plane[3] = rx * cx + ry * cy + rz * cz + prm[qr + refAxis];
  const refFace = 2 * refAxis + ((pr[or + refAxis] * rx + pr[or + 3 + refAxis] * ry + pr[or + 6 + refAxis] * rz) > 0 ? 1 : 0);
  const incFace = 2 * j + (incSign > 0 ? 1 : 0);
  // clip edge ids are below 8 (the quad's 0..3, the side planes' 4..7)
  out.pushClipped(src, refIsB, (refIsB << 12) | (refFace << 9) | (incFace << 6), 3);
  out.reduce();
}

/**
 * The edge axis n (BB 0..2) within 0.1 rad of a face normal of either box (FACE_ON_EDGE_COS) is a
 * face resting on an edge, or an edge lying along a face, tilted a little: the face's manifold
 * (the other box's facing face clipped by its side planes) then gives the points of that line
 * contact. A box lying across a step's edge would otherwise rock from one side to the other on
 * the edges' single point, and never rest: the separating axes find the edge pair because the
 * step's far corners, not the face above the edge, decide the face axes' overlap. Returns whether
 * the face gave two points or more, its deepest as deep as the edge pair's overlap within a fifth
 * of the margin (the face describes the same contact); if not, BB and the builder are left as
 * they were, for the edges' point.
 */
function faceOnEdgeContact(
  pa: Float64Array, oa: number, pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number, out: ManifoldBuilder,
): boolean {
  const nx = BB[0], ny = BB[1], nz = BB[2], depth = BB[3];
  // (the running best starts at a literal and meets the threshold after the loop: started from a
  // module constant it was kept boxed on the heap, 48 bytes a step for three ragdolls in a heap)
  let best = 0, face = -1, onB = 0;
  for (let k = 0; k < 3; k++) {
    const ca = Math.abs(pa[oa + k] * nx + pa[oa + 3 + k] * ny + pa[oa + 6 + k] * nz);
    if (ca > best) { best = ca; face = k; onB = 0; }
    const cb = Math.abs(pb[ob + k] * nx + pb[ob + 3 + k] * ny + pb[ob + 6 + k] * nz);
    if (cb > best) { best = cb; face = k; onB = 1; }
  }
  if (best < FACE_ON_EDGE_COS) return false;
  // the face's axis, signed to run from B to A as n does
  const p = onB ? pb : pa, o = onB ? ob : oa;
  const ax = p[o + face], ay = p[o + 3 + face], az = p[o + 6 + face];
  const sg = ax * nx + ay * ny + az * nz < 0 ? -1 : 1;
  BB[0] = sg * ax; BB[1] = sg * ay; BB[2] = sg * az;
  const before = out.count;
  if (onB) faceContact(pa, oa, qa, pb, ob, qb, prm, face, 1, out);
  else faceContact(pb, ob, qb, pa, oa, qa, prm, face, 0, out);
  // (the deepest point sought here, not by a call: a returned double is boxed on the heap)
  let deepest = -Infinity;
  for (let i = before; i < out.count; i++) if (out.depth[i] > deepest) deepest = out.depth[i];
  if (out.count - before >= 2 && Math.abs(deepest - depth) <= FACE_ON_EDGE_SLACK * out.margin) return true;
  out.count = before;
  BB[0] = nx; BB[1] = ny; BB[2] = nz; // (faceContact leaves the depth, BB 3, as it was)
  return false;
}

/** The clip plane slot of BB (4..7). */
const PLANE = BB.subarray(4, 8);

/** One contact at the closest points of A's edge along axisA and B's edge along axisB that face each other; n and depth in BB 0..3. */
function edgeEdgeContact(
  pa: Float64Array, oa: number, pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number,
  axisA: number, axisB: number, out: ManifoldBuilder,
): void {
  const nx = BB[0], ny = BB[1], nz = BB[2];
  // A's edge: the corner coordinates of A's other axes on the side facing B (along -n).
  let ax = pa[oa + 9], ay = pa[oa + 10], az = pa[oa + 11];
  let signsA = 0;
  for (let k = 0, bit = 1; k < 3; k++) {
    if (k === axisA) continue;
    const c = pa[oa + k] * nx + pa[oa + 3 + k] * ny + pa[oa + 6 + k] * nz;
    const h = prm[qa + k];
    const sg = c > 0 ? -1 : 1;
    if (sg > 0) signsA |= bit;
    bit <<= 1;
    ax += sg * h * pa[oa + k]; ay += sg * h * pa[oa + 3 + k]; az += sg * h * pa[oa + 6 + k];
  }
  // B's edge: on the side facing A (along +n).
  let bx = pb[ob + 9], by = pb[ob + 10], bz = pb[ob + 11];
  let signsB = 0;
  for (let k = 0, bit = 1; k < 3; k++) {
    if (k === axisB) continue;
    const c = pb[ob + k] * nx + pb[ob + 3 + k] * ny + pb[ob + 6 + k] * nz;
    const h = prm[qb + k];
    const sg = c < 0 ? -1 : 1;
    if (sg > 0) signsB |= bit;
    bit <<= 1;
    bx += sg * h * pb[ob + k]; by += sg * h * pb[ob + 3 + k]; bz += sg * h * pb[ob + 6 + k];
  }
  const ha = prm[qa + axisA], hb = prm[qb + axisB];
  const uax = ha * pa[oa + axisA], uay = ha * pa[oa + 3 + axisA], uaz = ha * pa[oa + 6 + axisA];
  const ubx = hb * pb[ob + axisB], uby = hb * pb[ob + 3 + axisB], ubz = hb * pb[ob + 6 + axisB];
  const g = SEG;
  g[0] = ax - uax; g[1] = ay - uay; g[2] = az - uaz; g[3] = ax + uax; g[4] = ay + uay; g[5] = az + uaz;
  g[6] = bx - ubx; g[7] = by - uby; g[8] = bz - ubz; g[9] = bx + ubx; g[10] = by + uby; g[11] = bz + ubz;
  closestSegmentSegment();
  const s = 2 * g[12] - 1;
  const c = out.next;
  c[0] = ax + uax * s; c[1] = ay + uay * s; c[2] = az + uaz * s;
  c[3] = nx; c[4] = ny; c[5] = nz;
  c[6] = BB[3];
  out.push((1 << 15) | ((4 * axisA + signsA) << 4) | (4 * axisB + signsB));
}
