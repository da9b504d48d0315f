/**
 * Closest-point queries on segments, triangles and boxes.
 *
 * The step must not allocate, and in V8 a float passed to or returned from a function that is not
 * inlined is boxed on the heap. So these queries take their inputs from, and leave their results
 * in, exported scratch arrays: the caller writes the inputs, calls, and reads the outputs before
 * the next query. (Small integers such as feature ids are returned directly: they are not boxed.)
 * Clamps to [0, 1] are written out where they are needed, for the same reason.
 */

const PARALLEL_EPS = 1e-24;

/**
 * Scratch of closestSegmentSegment. In: segment 1 [p1, q1] at 0..5, segment 2 [p2, q2] at 6..11.
 * Out: parameters s at 12 and t at 13 of the closest points p1 + s (q1 - p1), p2 + t (q2 - p2),
 * squared distance at 14.
 */
export const SEG = new Float64Array(15);

/**
 * Closest points between two segments (Ericson, Real-Time Collision Detection 5.1.9): minimise
 * |p1 + s d1 - p2 - t d2|^2 over the unit square, clamping s first and then t. See SEG.
 */
export function closestSegmentSegment(): void {
  const g = SEG;
  const p1x = g[0], p1y = g[1], p1z = g[2];
  const d1x = g[3] - p1x, d1y = g[4] - p1y, d1z = g[5] - p1z;
  const p2x = g[6], p2y = g[7], p2z = g[8];
  const d2x = g[9] - p2x, d2y = g[10] - p2y, d2z = g[11] - p2z;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let s: number, t: number;
  if (a <= PARALLEL_EPS && e <= PARALLEL_EPS) {
    s = 0;
    t = 0;
  } else if (a <= PARALLEL_EPS) {
    s = 0;
    t = f / e;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= PARALLEL_EPS) {
      t = 0;
      s = -c / a;
      s = s < 0 ? 0 : s > 1 ? 1 : s;
    } else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = a * e - b * b;
      // Parallel segments: any s works; take s = 0 and let the clamping of t decide.
      s = denom > PARALLEL_EPS * a * e ? (b * f - c * e) / denom : 0;
      s = s < 0 ? 0 : s > 1 ? 1 : s;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = -c / a;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
      } else if (t > 1) {
        t = 1;
        s = (b - c) / a;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
      }
    }
  }
  g[12] = s;
  g[13] = t;
  const dx = rx + d1x * s - d2x * t, dy = ry + d1y * s - d2y * t, dz = rz + d1z * s - d2z * t;
  g[14] = dx * dx + dy * dy + dz * dz;
}

/** Scratch of closestSegmentPoint. In: segment [p, q] at 0..5, point x at 6..8. Out: parameter t at 9. */
export const SEGPT = new Float64Array(10);

/** Parameter t in [0, 1] of the point of segment [p, q] closest to x. See SEGPT. */
export function closestSegmentPoint(): void {
  const g = SEGPT;
  const dx = g[3] - g[0], dy = g[4] - g[1], dz = g[5] - g[2];
  const dd = dx * dx + dy * dy + dz * dz;
  const t = dd <= PARALLEL_EPS ? 0 : ((g[6] - g[0]) * dx + (g[7] - g[1]) * dy + (g[8] - g[2]) * dz) / dd;
  g[9] = t < 0 ? 0 : t > 1 ? 1 : t;
}

/** Triangle features: vertex k (0..2), edge k from vertex k to vertex k+1 (3..5), the face (6). */
export const TRI_VERTEX0 = 0;
export const TRI_EDGE0 = 3;
export const TRI_FACE = 6;

/** Scratch of closestPointOnTriangle. In: point p at 0..2. Out: the closest point at 3..5. */
export const TRIQ = new Float64Array(6);

/**
 * Closest point to p (TRIQ 0..2) of the triangle whose corners are tri[0..9), by Voronoi regions
 * (Ericson 5.1.5). Writes it to TRIQ 3..5 and returns the feature it lies on (TRI_VERTEX0 + k,
 * TRI_EDGE0 + k or TRI_FACE).
 */
export function closestPointOnTriangle(tri: Float64Array): number {
  const out = TRIQ;
  const px = out[0], py = out[1], pz = out[2];
  const ax = tri[0], ay = tri[1], az = tri[2], bx = tri[3], by = tri[4], bz = tri[5], cx = tri[6], cy = tri[7], cz = tri[8];
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) {
    out[3] = ax; out[4] = ay; out[5] = az;
    return TRI_VERTEX0;
  }
  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) {
    out[3] = bx; out[4] = by; out[5] = bz;
    return TRI_VERTEX0 + 1;
  }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    out[3] = ax + v * abx; out[4] = ay + v * aby; out[5] = az + v * abz;
    return TRI_EDGE0;
  }
  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) {
    out[3] = cx; out[4] = cy; out[5] = cz;
    return TRI_VERTEX0 + 2;
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    out[3] = ax + w * acx; out[4] = ay + w * acy; out[5] = az + w * acz;
    return TRI_EDGE0 + 2;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    out[3] = bx + w * (cx - bx); out[4] = by + w * (cy - by); out[5] = bz + w * (cz - bz);
    return TRI_EDGE0 + 1;
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom, w = vc * denom;
  out[3] = ax + abx * v + acx * w;
  out[4] = ay + aby * v + acy * w;
  out[5] = az + abz * v + acz * w;
  return TRI_FACE;
}

/**
 * Region of point p[o..o+3) in the frame of a box with half extents h[ho..ho+3), one base-3 digit
 * per axis: 0 inside the slab, 1 beyond the -h face, 2 beyond the +h face. 0 means inside the box;
 * one non-zero digit is a face region, two an edge region, three a vertex region. Used as a stable
 * feature id.
 */
export function boxRegion(p: Float64Array, o: number, h: Float64Array, ho: number): number {
  let region = 0;
  for (let k = 0, w = 1; k < 3; k++, w *= 3) {
    const x = p[o + k], hk = h[ho + k];
    if (x < -hk) region += w;
    else if (x > hk) region += 2 * w;
  }
  return region;
}

/** Face regions of boxRegion: the region code of face (axis k, side) is FACE_REGION[2k + (positive ? 1 : 0)]. */
export const FACE_REGION = [1, 2, 3, 6, 9, 18] as const;

/** A unit vector perpendicular to v[o..o+3) (which need not be unit), written to out[0..3). */
export function anyPerpendicular(v: Float64Array, o: number, out: Float64Array): void {
  const x = v[o], y = v[o + 1], z = v[o + 2];
  // Cross with the world axis least aligned with the vector.
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let px: number, py: number, pz: number;
  if (ax <= ay && ax <= az) {
    px = 0; py = z; pz = -y; // v x (1, 0, 0)
  } else if (ay <= az) {
    px = -z; py = 0; pz = x; // v x (0, 1, 0)
  } else {
    px = y; py = -x; pz = 0; // v x (0, 0, 1)
  }
  const len = Math.sqrt(px * px + py * py + pz * pz);
  if (len === 0) {
    out[0] = 0; out[1] = 1; out[2] = 0;
    return;
  }
  out[0] = px / len; out[1] = py / len; out[2] = pz / len;
}
