/**
 * Contacts of a capsule (shape A: the points within radius r of the segment along its local Y axis,
 * from -halfLength to +halfLength) with another capsule and with a box (shape B). Sizes come from
 * the parameter array prm: capsule [r, halfLength], box [hx, hy, hz] (see sphere-contacts.ts).
 *
 * A capsule lying along a surface touches it along a line. When both ends of the overlapping part
 * are within the margin the manifold holds those two ends (and, for two capsules whose axes cross
 * between them, the deeper closest point); otherwise it holds the single closest point.
 */
import { FACE_REGION, SEG, SEGPT, anyPerpendicular, boxRegion, closestSegmentPoint, closestSegmentSegment } from './geometry.js';
import type { ManifoldBuilder } from './manifold.js';

/** Segments whose directions make a sine below this are treated as lying along each other. */
const ALONG_SINE = 0.2;
/** A normal within this cosine of a box face normal counts as that face's normal. */
const FACE_COSINE = 0.99999;
/** Cross-product axes must beat face axes by this fraction of the depth plus EDGE_BIAS_ABS (m) to be chosen. */
const EDGE_BIAS_REL = 0.05;
const EDGE_BIAS_ABS = 1e-5;

/**
 * Scratch of the capsule-capsule routine: A's axis start a0 (0..2) and direction da (3..5), B's
 * b0 (6..8) and db (9..11); for the two ends e of the overlap, parameter u on A's axis at 26 + e and
 * the results: point on A's axis (12 + 7e ..), unit normal (15 + 7e ..), distance to B's axis (18 + 7e);
 * fallback normal at 28..30; a point to push on A's axis (31..33) and its depth (34).
 */
const CC = new Float64Array(35);

/** Capsule A (pose pa at oa; radius prm[qa], half length prm[qa + 1]) against capsule B. */
export function capsuleCapsuleContact(
  pa: Float64Array, oa: number, pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number, out: ManifoldBuilder,
): void {
  const ra = prm[qa], ha = prm[qa + 1], rb = prm[qb], hb = prm[qb + 1];
  const g = CC;
  const ax = pa[oa + 1] * ha, ay = pa[oa + 4] * ha, az = pa[oa + 7] * ha;
  const a0x = pa[oa + 9] - ax, a0y = pa[oa + 10] - ay, a0z = pa[oa + 11] - az;
  const dax = 2 * ax, day = 2 * ay, daz = 2 * az;
  const bx = pb[ob + 1] * hb, by = pb[ob + 4] * hb, bz = pb[ob + 7] * hb;
  const b0x = pb[ob + 9] - bx, b0y = pb[ob + 10] - by, b0z = pb[ob + 11] - bz;
  const dbx = 2 * bx, dby = 2 * by, dbz = 2 * bz;
  g[0] = a0x; g[1] = a0y; g[2] = a0z; g[3] = dax; g[4] = day; g[5] = daz;
  g[6] = b0x; g[7] = b0y; g[8] = b0z; g[9] = dbx; g[10] = dby; g[11] = dbz;
  const s4 = SEG;
  s4[0] = a0x; s4[1] = a0y; s4[2] = a0z; s4[3] = a0x + dax; s4[4] = a0y + day; s4[5] = a0z + daz;
  s4[6] = b0x; s4[7] = b0y; s4[8] = b0z; s4[9] = b0x + dbx; s4[10] = b0y + dby; s4[11] = b0z + dbz;
  closestSegmentSegment();
  const d2 = s4[14];
  const reach = ra + rb + out.margin;
  if (d2 > reach * reach) return;
  const s = s4[12], t = s4[13];
  const sx = a0x + dax * s, sy = a0y + day * s, sz = a0z + daz * s;
  const qx = b0x + dbx * t, qy = b0y + dby * t, qz = b0z + dbz * t;
  const dist = Math.sqrt(d2);
  // Normal of the closest pair; when the axes meet, the common perpendicular of the axes.
  if (dist > 1e-12) {
    g[28] = (sx - qx) / dist; g[29] = (sy - qy) / dist; g[30] = (sz - qz) / dist;
  } else {
    separatingPerpendicular(pa, oa, pb, ob);
  }

  const aa = dax * dax + day * day + daz * daz, bb = dbx * dbx + dby * dby + dbz * dbz;
  const cx = day * dbz - daz * dby, cy = daz * dbx - dax * dbz, cz = dax * dby - day * dbx;
  if (aa > 1e-24 && bb > 1e-24 && cx * cx + cy * cy + cz * cz <= ALONG_SINE * ALONG_SINE * aa * bb) {
    // Overlap of B's projection onto A's axis: [lo, hi] in A's segment parameter.
    const u0 = ((b0x - a0x) * dax + (b0y - a0y) * day + (b0z - a0z) * daz) / aa;
    const u1 = ((b0x + dbx - a0x) * dax + (b0y + dby - a0y) * day + (b0z + dbz - a0z) * daz) / aa;
    let lo = u0 < u1 ? u0 : u1, hi = u0 < u1 ? u1 : u0;
    const loByA = lo <= 0, hiByA = hi >= 1;
    if (loByA) lo = 0;
    if (hiByA) hi = 1;
    if ((hi - lo) * Math.sqrt(aa) > 1e-9) {
      g[26] = lo; g[27] = hi;
      endToAxisB(0);
      endToAxisB(1);
      if (g[18] <= reach && g[25] <= reach) {
        for (let e = 0; e < 2; e++) {
          const o = 12 + 7 * e;
          const c = out.next;
          c[0] = g[o] - g[o + 3] * ra; c[1] = g[o + 1] - g[o + 4] * ra; c[2] = g[o + 2] - g[o + 5] * ra;
          c[3] = g[o + 3]; c[4] = g[o + 4]; c[5] = g[o + 5];
          c[6] = ra + rb - g[o + 6];
          out.push(e === 0 ? (loByA ? 1 : 2) : hiByA ? 3 : 4);
        }
        // Axes crossing at a small angle are nearest between the ends: keep that deepest point too.
        const depth = ra + rb - dist;
        if (s > lo && s < hi && depth > ra + rb - g[18] + 1e-9 && depth > ra + rb - g[25] + 1e-9) {
          g[31] = sx; g[32] = sy; g[33] = sz; g[34] = depth;
          pushAxisPoint(prm, qa, out);
        }
        return;
      }
    }
  }
  g[31] = sx; g[32] = sy; g[33] = sz; g[34] = ra + rb - dist;
  pushAxisPoint(prm, qa, out);
}

/** Pushes the point of A's surface at axis point CC 31..33 facing -n (n = CC 28..30), depth CC 34. */
function pushAxisPoint(prm: Float64Array, qa: number, out: ManifoldBuilder): void {
  const g = CC, c = out.next, ra = prm[qa];
  c[0] = g[31] - g[28] * ra; c[1] = g[32] - g[29] * ra; c[2] = g[33] - g[30] * ra;
  c[3] = g[28]; c[4] = g[29]; c[5] = g[30];
  c[6] = g[34];
  out.push(0);
}

/**
 * For end e of the overlap (parameter CC[26 + e] on A's axis): the axis point, the direction to it
 * from the nearest point of B's axis (the fallback normal when they meet) and their distance.
 */
function endToAxisB(e: number): void {
  const g = CC, o = 12 + 7 * e, u = g[26 + e];
  const px = g[0] + g[3] * u, py = g[1] + g[4] * u, pz = g[2] + g[5] * u;
  const q = SEGPT;
  q[0] = g[6]; q[1] = g[7]; q[2] = g[8];
  q[3] = g[6] + g[9]; q[4] = g[7] + g[10]; q[5] = g[8] + g[11];
  q[6] = px; q[7] = py; q[8] = pz;
  closestSegmentPoint();
  const t = q[9];
  const ex = px - g[6] - g[9] * t, ey = py - g[7] - g[10] * t, ez = pz - g[8] - g[11] * t;
  const dist = Math.sqrt(ex * ex + ey * ey + ez * ez);
  g[o] = px; g[o + 1] = py; g[o + 2] = pz;
  if (dist > 1e-12) {
    g[o + 3] = ex / dist; g[o + 4] = ey / dist; g[o + 5] = ez / dist;
  } else {
    g[o + 3] = g[28]; g[o + 4] = g[29]; g[o + 5] = g[30];
  }
  g[o + 6] = dist;
}

/**
 * Unit vector perpendicular to both axes (CC 3..5 and 9..11), oriented along the centre of A minus
 * the centre of B, into CC 28..30.
 */
function separatingPerpendicular(pa: Float64Array, oa: number, pb: Float64Array, ob: number): void {
  const g = CC;
  const dax = g[3], day = g[4], daz = g[5], dbx = g[9], dby = g[10], dbz = g[11];
  const cx = pa[oa + 9] - pb[ob + 9], cy = pa[oa + 10] - pb[ob + 10], cz = pa[oa + 11] - pb[ob + 11];
  let px = day * dbz - daz * dby, py = daz * dbx - dax * dbz, pz = dax * dby - day * dbx;
  let len = Math.sqrt(px * px + py * py + pz * pz);
  const aa = dax * dax + day * day + daz * daz;
  if (len <= 1e-12 * Math.sqrt(aa * (dbx * dbx + dby * dby + dbz * dbz))) {
    // Parallel axes: the part of c across A's axis, or any perpendicular.
    const k = aa > 1e-24 ? (cx * dax + cy * day + cz * daz) / aa : 0;
    px = cx - dax * k; py = cy - day * k; pz = cz - daz * k;
    len = Math.sqrt(px * px + py * py + pz * pz);
    if (len <= 1e-12) {
      if (aa > 1e-24) {
        anyPerpendicular(g, 3, PERP);
        g[28] = PERP[0]; g[29] = PERP[1]; g[30] = PERP[2];
      } else {
        g[28] = 0; g[29] = 1; g[30] = 0;
      }
      return;
    }
  }
  const sign = px * cx + py * cy + pz * cz < 0 ? -1 : 1;
  g[28] = (sign * px) / len; g[29] = (sign * py) / len; g[30] = (sign * pz) / len;
}

const PERP = new Float64Array(3);

/**
 * Scratch of the capsule-box routine, in the box frame: axis start a0 (0..2), direction d (3..5),
 * contact point on the axis s (6..8), normal n (9..11).
 */
const CB = new Float64Array(12);

/**
 * Capsule A (pose pa; radius prm[qa], half length prm[qa + 1]) against box B (pose pb, half
 * extents prm[qb..qb+3)), in the box frame.
 *
 * Apart: the closest points of axis segment and box are among (each end, its clamp into the box)
 * and (segment, each of the 12 box edges); a segment interior point can only be closest to an edge
 * (or tie with an end when parallel to a face). Crossing the box: separating-axis search over the
 * 3 face normals and the 3 products axis x box edge, least overlap wins, faces preferred.
 *
 * Feature ids: single point = box region of the contact (see boxRegion) or 27 + 4k + signs for an
 * axis x edge k contact; two points on a face = 64 + 4f + 2 end + clipped, f = the face's region code.
 */
export function capsuleBoxContact(
  pa: Float64Array, oa: number, pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number, out: ManifoldBuilder,
): void {
  const ra = prm[qa], ha = prm[qa + 1], hx = prm[qb], hy = prm[qb + 1], hz = prm[qb + 2];
  const g = CB;
  // Segment ends in the box frame: l = R_b^T (x - p_b).
  const ux = pa[oa + 1] * ha, uy = pa[oa + 4] * ha, uz = pa[oa + 7] * ha;
  const cx = pa[oa + 9] - pb[ob + 9], cy = pa[oa + 10] - pb[ob + 10], cz = pa[oa + 11] - pb[ob + 11];
  const R = pb;
  const lcx = R[ob] * cx + R[ob + 3] * cy + R[ob + 6] * cz;
  const lcy = R[ob + 1] * cx + R[ob + 4] * cy + R[ob + 7] * cz;
  const lcz = R[ob + 2] * cx + R[ob + 5] * cy + R[ob + 8] * cz;
  const lux = R[ob] * ux + R[ob + 3] * uy + R[ob + 6] * uz;
  const luy = R[ob + 1] * ux + R[ob + 4] * uy + R[ob + 7] * uz;
  const luz = R[ob + 2] * ux + R[ob + 5] * uy + R[ob + 8] * uz;
  const a0x = lcx - lux, a0y = lcy - luy, a0z = lcz - luz;
  const dx = 2 * lux, dy = 2 * luy, dz = 2 * luz;
  g[0] = a0x; g[1] = a0y; g[2] = a0z; g[3] = dx; g[4] = dy; g[5] = dz;

  let sx = 0, sy = 0, sz = 0; // contact point on the axis segment
  let nx = 0, ny = 0, nz = 0; // local normal, box -> capsule
  let depth = 0;
  let feature = 0;
  let found = false;

  if (!segmentHitsBox(prm, qb)) {
    let best = Infinity;
    let qx = 0, qy = 0, qz = 0;
    for (let e = 0; e < 2; e++) {
      const px = a0x + dx * e, py = a0y + dy * e, pz = a0z + dz * e;
      const cpx = px < -hx ? -hx : px > hx ? hx : px;
      const cpy = py < -hy ? -hy : py > hy ? hy : py;
      const cpz = pz < -hz ? -hz : pz > hz ? hz : pz;
      const d2 = (px - cpx) * (px - cpx) + (py - cpy) * (py - cpy) + (pz - cpz) * (pz - cpz);
      if (d2 < best) {
        best = d2;
        sx = px; sy = py; sz = pz; qx = cpx; qy = cpy; qz = cpz;
      }
    }
    const s4 = SEG;
    for (let k = 0; k < 3; k++) {
      for (let signs = 0; signs < 4; signs++) {
        // Edge along axis k at the corner (s_i h_i, s_j h_j) of the other two axes.
        const si = signs & 1 ? 1 : -1, sj = signs & 2 ? 1 : -1;
        s4[0] = a0x; s4[1] = a0y; s4[2] = a0z; s4[3] = a0x + dx; s4[4] = a0y + dy; s4[5] = a0z + dz;
        if (k === 0) { s4[6] = -hx; s4[9] = hx; s4[7] = s4[10] = si * hy; s4[8] = s4[11] = sj * hz; }
        else if (k === 1) { s4[7] = -hy; s4[10] = hy; s4[8] = s4[11] = si * hz; s4[6] = s4[9] = sj * hx; }
        else { s4[8] = -hz; s4[11] = hz; s4[6] = s4[9] = si * hx; s4[7] = s4[10] = sj * hy; }
        closestSegmentSegment();
        if (s4[14] < best) {
          best = s4[14];
          const s = s4[12], t = s4[13];
          sx = a0x + dx * s; sy = a0y + dy * s; sz = a0z + dz * s;
          qx = s4[6] + (s4[9] - s4[6]) * t; qy = s4[7] + (s4[10] - s4[7]) * t; qz = s4[8] + (s4[11] - s4[8]) * t;
        }
      }
    }
    const reach = ra + out.margin;
    if (best > reach * reach) return;
    const dist = Math.sqrt(best);
    if (dist > 1e-12) {
      nx = (sx - qx) / dist; ny = (sy - qy) / dist; nz = (sz - qz) / dist;
      depth = ra - dist;
      g[6] = sx; g[7] = sy; g[8] = sz;
      feature = boxRegion(g, 6, prm, qb);
      found = true;
    }
  }

  if (!found) {
    // The axis crosses the box: least-overlap axis among the faces and axis x edge directions.
    let bestOverlap = Infinity;
    let bestAxis = -1;
    for (let k = 0; k < 3; k++) {
      const h = prm[qb + k];
      const p0 = g[k];
      const p1 = p0 + g[3 + k];
      const lo = p0 < p1 ? p0 : p1, hi = p0 < p1 ? p1 : p0;
      const up = h - lo, down = hi + h; // push the capsule along +axis or -axis
      const o = up <= down ? up : down;
      if (o < bestOverlap) {
        bestOverlap = o;
        bestAxis = k;
        nx = ny = nz = 0;
        const sgn = up <= down ? 1 : -1;
        if (k === 0) nx = sgn; else if (k === 1) ny = sgn; else nz = sgn;
      }
    }
    const faceOverlap = bestOverlap;
    const dd = dx * dx + dy * dy + dz * dz;
    for (let k = 0; k < 3; k++) {
      // L = d x e_k.
      let lx = 0, ly = 0, lz = 0;
      if (k === 0) { ly = dz; lz = -dy; } else if (k === 1) { lx = -dz; lz = dx; } else { lx = dy; ly = -dx; }
      const ll = lx * lx + ly * ly + lz * lz;
      if (ll <= 1e-12 * dd) continue;
      const len = Math.sqrt(ll);
      lx /= len; ly /= len; lz /= len;
      const p = a0x * lx + a0y * ly + a0z * lz; // the whole segment projects here
      const rb = hx * Math.abs(lx) + hy * Math.abs(ly) + hz * Math.abs(lz);
      const up = rb - p, down = p + rb;
      const o = up <= down ? up : down;
      if (o < faceOverlap - EDGE_BIAS_REL * Math.abs(faceOverlap) - EDGE_BIAS_ABS && o < bestOverlap) {
        bestOverlap = o;
        bestAxis = 3 + k;
        const sgn = up <= down ? 1 : -1;
        nx = sgn * lx; ny = sgn * ly; nz = sgn * lz;
      }
    }
    depth = bestOverlap + ra;
    if (bestAxis < 3) {
      // Deepest end of the segment along -n.
      const p0 = a0x * nx + a0y * ny + a0z * nz, p1 = p0 + dx * nx + dy * ny + dz * nz;
      const e = p1 < p0 ? 1 : 0;
      sx = a0x + dx * e; sy = a0y + dy * e; sz = a0z + dz * e;
      feature = FACE_REGION[2 * bestAxis + ((bestAxis === 0 ? nx : bestAxis === 1 ? ny : nz) < 0 ? 0 : 1)];
    } else {
      // Box edge along k on the side the normal points to; the segment point closest to it.
      const k = bestAxis - 3;
      const s4 = SEG;
      s4[0] = a0x; s4[1] = a0y; s4[2] = a0z; s4[3] = a0x + dx; s4[4] = a0y + dy; s4[5] = a0z + dz;
      s4[6] = s4[9] = nx < 0 ? -hx : hx;
      s4[7] = s4[10] = ny < 0 ? -hy : hy;
      s4[8] = s4[11] = nz < 0 ? -hz : hz;
      s4[6 + k] = -prm[qb + k];
      s4[9 + k] = prm[qb + k];
      closestSegmentSegment();
      const s = s4[12];
      sx = a0x + dx * s; sy = a0y + dy * s; sz = a0z + dz * s;
      const ni = k === 0 ? ny : k === 1 ? nz : nx, nj = k === 0 ? nz : k === 1 ? nx : ny;
      feature = 27 + 4 * k + (ni < 0 ? 0 : 1) + (nj < 0 ? 0 : 2);
    }
  }

  // Lying along a face: the part of the axis over the face, clipped to the face's rectangle.
  const face = Math.abs(nx) > FACE_COSINE ? 0 : Math.abs(ny) > FACE_COSINE ? 1 : Math.abs(nz) > FACE_COSINE ? 2 : -1;
  if (face >= 0 && ha > 0) {
    const sgn = (face === 0 ? nx : face === 1 ? ny : nz) < 0 ? -1 : 1;
    if (pushAlongFace(pb, ob, prm, qa, qb, face, sgn, out)) return;
  }
  const wnx = R[ob] * nx + R[ob + 1] * ny + R[ob + 2] * nz;
  const wny = R[ob + 3] * nx + R[ob + 4] * ny + R[ob + 5] * nz;
  const wnz = R[ob + 6] * nx + R[ob + 7] * ny + R[ob + 8] * nz;
  const c = out.next;
  c[0] = R[ob] * sx + R[ob + 1] * sy + R[ob + 2] * sz + R[ob + 9] - wnx * ra;
  c[1] = R[ob + 3] * sx + R[ob + 4] * sy + R[ob + 5] * sz + R[ob + 10] - wny * ra;
  c[2] = R[ob + 6] * sx + R[ob + 7] * sy + R[ob + 8] * sz + R[ob + 11] - wnz * ra;
  c[3] = wnx; c[4] = wny; c[5] = wnz;
  c[6] = depth;
  out.push(feature);
}

/** Slab test: does the segment CB a0 + t d, t in [0, 1], meet the box |x| <= h (prm[qb..])? */
function segmentHitsBox(prm: Float64Array, qb: number): boolean {
  const g = CB;
  let t0 = 0, t1 = 1;
  for (let k = 0; k < 3; k++) {
    const p = g[k], d = g[3 + k], h = prm[qb + k];
    if (Math.abs(d) < 1e-15) {
      if (p < -h || p > h) return false;
      continue;
    }
    let ta = (-h - p) / d, tb = (h - p) / d;
    if (ta > tb) { const x = ta; ta = tb; tb = x; }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * Two contacts where the capsule axis (CB), clipped to the rectangle of box face (axis `face`,
 * side sgn), ends; pushed only when both ends are within the margin. Returns whether it pushed.
 * The points are the lowest points of the end spheres: on the surface for a level capsule, inside
 * it by at most r (1 - cos tilt) otherwise.
 */
function pushAlongFace(
  pb: Float64Array, ob: number, prm: Float64Array, qa: number, qb: number, face: number, sgn: number, out: ManifoldBuilder,
): boolean {
  const g = CB, ra = prm[qa];
  let t0 = 0, t1 = 1;
  let clip0 = 0, clip1 = 0;
  for (let k = 0; k < 3; k++) {
    if (k === face) continue;
    const p = g[k], d = g[3 + k], h = prm[qb + k];
    if (Math.abs(d) < 1e-15) {
      if (p < -h || p > h) return false;
      continue;
    }
    let ta = (-h - p) / d, tb = (h - p) / d;
    if (ta > tb) { const x = ta; ta = tb; tb = x; }
    if (ta > t0) { t0 = ta; clip0 = 1; }
    if (tb < t1) { t1 = tb; clip1 = 1; }
  }
  const len = Math.sqrt(g[3] * g[3] + g[4] * g[4] + g[5] * g[5]);
  if (!((t1 - t0) * len > 1e-9)) return false;
  const h = prm[qb + face];
  const q0 = g[face] * sgn, qd = g[3 + face] * sgn;
  const depth0 = ra - (q0 + qd * t0 - h);
  const depth1 = ra - (q0 + qd * t1 - h);
  if (depth0 < -out.margin || depth1 < -out.margin) return false;
  const faceCode = FACE_REGION[2 * face + (sgn < 0 ? 0 : 1)];
  // World normal = sgn * column `face` of R_b.
  const nx = sgn * pb[ob + face], ny = sgn * pb[ob + 3 + face], nz = sgn * pb[ob + 6 + face];
  for (let e = 0; e < 2; e++) {
    const t = e === 0 ? t0 : t1;
    const lx = g[0] + g[3] * t, ly = g[1] + g[4] * t, lz = g[2] + g[5] * t;
    const c = out.next;
    c[0] = pb[ob] * lx + pb[ob + 1] * ly + pb[ob + 2] * lz + pb[ob + 9] - nx * ra;
    c[1] = pb[ob + 3] * lx + pb[ob + 4] * ly + pb[ob + 5] * lz + pb[ob + 10] - ny * ra;
    c[2] = pb[ob + 6] * lx + pb[ob + 7] * ly + pb[ob + 8] * lz + pb[ob + 11] - nz * ra;
    c[3] = nx; c[4] = ny; c[5] = nz;
    c[6] = e === 0 ? depth0 : depth1;
    out.push(64 + 4 * faceCode + 2 * e + (e === 0 ? clip0 : clip1));
  }
  return true;
}
