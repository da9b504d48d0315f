/**
 * World-space axis-aligned bounding boxes [minx, miny, minz, maxx, maxy, maxz] of posed shapes.
 * The collision world grows them by the contact margin so that shapes within the margin of each
 * other overlap.
 */
import { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_SPHERE } from './shape-types.js';

export const AABB_STRIDE = 6;

/** Bounds of a sphere, capsule or box with pose (pose, o) and parameters (params, po), without the margin. */
export function primitiveAabb(
  kind: number, pose: Float64Array, o: number, params: Float64Array, po: number,
  out: Float64Array, oo: number,
): void {
  const px = pose[o + 9], py = pose[o + 10], pz = pose[o + 11];
  let ex: number, ey: number, ez: number;
  if (kind === SHAPE_SPHERE) {
    ex = ey = ez = params[po];
  } else if (kind === SHAPE_CAPSULE) {
    // Segment along local Y of half length h, swept by radius r.
    const r = params[po], h = params[po + 1];
    ex = Math.abs(pose[o + 1]) * h + r;
    ey = Math.abs(pose[o + 4]) * h + r;
    ez = Math.abs(pose[o + 7]) * h + r;
  } else if (kind === SHAPE_BOX) {
    // Half width along world axis i = sum_k |R_ik| h_k.
    const hx = params[po], hy = params[po + 1], hz = params[po + 2];
    ex = Math.abs(pose[o]) * hx + Math.abs(pose[o + 1]) * hy + Math.abs(pose[o + 2]) * hz;
    ey = Math.abs(pose[o + 3]) * hx + Math.abs(pose[o + 4]) * hy + Math.abs(pose[o + 5]) * hz;
    ez = Math.abs(pose[o + 6]) * hx + Math.abs(pose[o + 7]) * hy + Math.abs(pose[o + 8]) * hz;
  } else {
    throw new Error(`primitiveAabb: shape kind ${kind} is not a primitive`);
  }
  out[oo] = px - ex;
  out[oo + 1] = py - ey;
  out[oo + 2] = pz - ez;
  out[oo + 3] = px + ex;
  out[oo + 4] = py + ey;
  out[oo + 5] = pz + ez;
}

/** Grows the bounds at out[oo..oo+6) by m on every side. */
export function growAabb(out: Float64Array, oo: number, m: number): void {
  out[oo] -= m; out[oo + 1] -= m; out[oo + 2] -= m;
  out[oo + 3] += m; out[oo + 4] += m; out[oo + 5] += m;
}

/** World bounds of a local box `local` [min xyz, max xyz] carried by a pose. */
export function transformedAabb(local: Float64Array, pose: Float64Array, o: number, margin: number, out: Float64Array, oo: number): void {
  const cx = 0.5 * (local[0] + local[3]), cy = 0.5 * (local[1] + local[4]), cz = 0.5 * (local[2] + local[5]);
  const hx = 0.5 * (local[3] - local[0]), hy = 0.5 * (local[4] - local[1]), hz = 0.5 * (local[5] - local[2]);
  for (let i = 0; i < 3; i++) {
    const r0 = pose[o + 3 * i], r1 = pose[o + 3 * i + 1], r2 = pose[o + 3 * i + 2];
    const c = r0 * cx + r1 * cy + r2 * cz + pose[o + 9 + i];
    const e = Math.abs(r0) * hx + Math.abs(r1) * hy + Math.abs(r2) * hz;
    out[oo + i] = c - e - margin;
    out[oo + 3 + i] = c + e + margin;
  }
}

/**
 * Clips the ray o + t d (o = ray[0..3), d = ray[3..6)) to the box b[bo..bo+6) [min xyz, max xyz]
 * by slabs (C. Ericson, "Real-Time Collision Detection", 2005, 5.3.3; Kay and Kajiya): narrows the
 * span [span[so], span[so + 1]] of t to the part inside the box; false when none is (the span
 * then holds no meaning). A ray parallel to a slab lies inside it or misses the box.
 */
export function clipRay(ray: Float64Array, b: Float64Array, bo: number, span: Float64Array, so: number): boolean {
  let t0 = span[so], t1 = span[so + 1];
  for (let k = 0; k < 3; k++) {
    const o = ray[k], d = ray[3 + k];
    if (d === 0) {
      if (o < b[bo + k] || o > b[bo + 3 + k]) return false;
      continue;
    }
    let ta = (b[bo + k] - o) / d, tb = (b[bo + 3 + k] - o) / d;
    if (ta > tb) { const t = ta; ta = tb; tb = t; }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  span[so] = t0; span[so + 1] = t1;
  return true;
}
