/**
 * Capsules for ragdoll links: their volume, their inertia, and radii measured from skinned
 * vertices. A capsule's axis is its local Y (as the featherstone shape description): a cylinder
 * of radius r and length 2h between two hemispherical caps.
 */
import { quatToMatrix } from './quat.js';
import { detMath } from '@sinew/featherstone';

export function capsuleVolume(radius: number, halfLength: number): number {
  return Math.PI * radius * radius * (2 * halfLength) + (4 / 3) * Math.PI * radius * radius * radius;
}

/**
 * Principal moments of a solid capsule of uniform density about its centre of mass:
 * [I_perp, I_axis]. Cylinder (mass mc, length H = 2h): axis mc r^2/2, perpendicular
 * mc (r^2/4 + H^2/12). The two caps (together a sphere of mass ms): axis 2 ms r^2/5; perpendicular,
 * each cap's own moment about its centroid plus the shift of that centroid (at h + 3r/8 from the
 * centre), which sums to ms (2r^2/5 + h^2 + 3hr/4).
 */
export function capsuleInertia(mass: number, radius: number, halfLength: number): [number, number] {
  const r = radius, h = halfLength;
  const vc = Math.PI * r * r * 2 * h, vs = (4 / 3) * Math.PI * r * r * r;
  const mc = (mass * vc) / (vc + vs), ms = mass - mc;
  const axis = 0.5 * mc * r * r + 0.4 * ms * r * r;
  const perp = mc * (r * r / 4 + (h * h) / 3) + ms * (0.4 * r * r + h * h + 0.75 * h * r);
  return [perp, axis];
}

/**
 * Inertia [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] about the centre of a capsule whose axis is turned
 * from Y by the quaternion q: R diag(perp, axis, perp) R^T = perp 1 + (axis - perp) a a^T,
 * a = R e_y the axis direction.
 */
export function capsuleInertiaTensor(mass: number, radius: number, halfLength: number, q: ArrayLike<number>): number[] {
  const [perp, axis] = capsuleInertia(mass, radius, halfLength);
  const R = new Float64Array(9);
  quatToMatrix(q, 0, R, 0);
  const ax = R[1], ay = R[4], az = R[7], d = axis - perp;
  return [perp + d * ax * ax, perp + d * ay * ay, perp + d * az * az, d * ax * ay, d * ax * az, d * ay * az];
}

/** Distance from p to the segment from the origin to b. */
export function distanceToSegment(px: number, py: number, pz: number, bx: number, by: number, bz: number): number {
  const bb = bx * bx + by * by + bz * bz;
  let s = bb > 0 ? (px * bx + py * by + pz * bz) / bb : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  return detMath.hypot(px - s * bx, py - s * by, pz - s * bz);
}

/** The p-quantile (0..1) of the values, by linear interpolation between order statistics. */
export function percentile(values: Float64Array, p: number): number {
  const n = values.length;
  if (n === 0) return NaN;
  const s = Float64Array.from(values).sort();
  const x = Math.min(Math.max(p, 0), 1) * (n - 1);
  const k = Math.floor(x), f = x - k;
  return k + 1 < n ? s[k] + f * (s[k + 1] - s[k]) : s[k];
}

/**
 * Robust capsule radius of the vertices (flat xyz in the bone frame) about the segment from the
 * head (origin) to `tip`: a percentile of their distances to the segment, so that a few
 * vertices far out (weights spilling from a neighbour) do not inflate it.
 */
export function radiusFromVertices(vertices: ArrayLike<number>, tip: ArrayLike<number>, p: number): number {
  const n = vertices.length / 3;
  const d = new Float64Array(n);
  for (let k = 0; k < n; k++) d[k] = distanceToSegment(vertices[3 * k], vertices[3 * k + 1], vertices[3 * k + 2], tip[0], tip[1], tip[2]);
  return percentile(d, p);
}
