/**
 * Picking: which link of which body a ray from the camera hits first, and where. Ray casts against
 * the links' collision shapes (spheres, capsules, boxes; a convex hull by its bounding sphere),
 * each in its link's frame. No three.js: the page passes the ray, the scene picks.
 */
import type { Model, ShapeDesc, State } from '@sinew/featherstone';
import type { PointerRay, Vec3 } from './scene.js';

export interface PickTarget {
  readonly model: Model;
  readonly state: State;
}

export interface PickHit {
  /** Index of the target in the list passed to pick(). */
  target: number;
  link: number;
  /** Distance along the ray (m). */
  distance: number;
  /** World point hit. */
  point: [number, number, number];
  /** The same point in the link's frame. */
  local: [number, number, number];
}

/** The nearest hit of `ray` on the shapes of `targets` (forward kinematics must be current), or null. */
export function pick(targets: readonly PickTarget[], ray: PointerRay, maxDistance = 200): PickHit | null {
  let best: PickHit | null = null;
  const o = new Float64Array(3), d = new Float64Array(3);
  for (let t = 0; t < targets.length; t++) {
    const { model, state } = targets[t];
    const P = state.work.pose;
    for (let i = 0; i < model.nLinks; i++) {
      const po = 12 * i;
      // ray in the link frame: R^T (origin - p), R^T direction (R row-major, link to world)
      const rx = ray.origin[0] - P[po + 9], ry = ray.origin[1] - P[po + 10], rz = ray.origin[2] - P[po + 11];
      for (let k = 0; k < 3; k++) {
        o[k] = P[po + k] * rx + P[po + 3 + k] * ry + P[po + 6 + k] * rz;
        d[k] = P[po + k] * ray.direction[0] + P[po + 3 + k] * ray.direction[1] + P[po + 6 + k] * ray.direction[2];
      }
      for (const shape of model.shapes[i]) {
        const s = rayShape(shape, o, d);
        if (!(s >= 0) || s > maxDistance || (best && s >= best.distance)) continue;
        const local: [number, number, number] = [o[0] + s * d[0], o[1] + s * d[1], o[2] + s * d[2]];
        best = {
          target: t, link: i, distance: s, local,
          point: [ray.origin[0] + s * ray.direction[0], ray.origin[1] + s * ray.direction[1], ray.origin[2] + s * ray.direction[2]],
        };
      }
    }
  }
  return best;
}

/** Where a ray meets the horizontal plane y = h (null when parallel or behind). */
export function rayPlaneY(ray: PointerRay, h: number): [number, number, number] | null {
  const dy = ray.direction[1];
  if (Math.abs(dy) < 1e-9) return null;
  const s = (h - ray.origin[1]) / dy;
  if (!(s > 0)) return null;
  return [ray.origin[0] + s * ray.direction[0], h, ray.origin[2] + s * ray.direction[2]];
}

/** Where a ray meets the plane through `p` facing the ray (perpendicular to the view direction `n`). */
export function rayPlane(ray: PointerRay, p: Vec3, n: Vec3): [number, number, number] | null {
  const dn = ray.direction[0] * n[0] + ray.direction[1] * n[1] + ray.direction[2] * n[2];
  if (Math.abs(dn) < 1e-9) return null;
  const s = ((p[0] - ray.origin[0]) * n[0] + (p[1] - ray.origin[1]) * n[1] + (p[2] - ray.origin[2]) * n[2]) / dn;
  if (!(s > 0)) return null;
  return [ray.origin[0] + s * ray.direction[0], ray.origin[1] + s * ray.direction[1], ray.origin[2] + s * ray.direction[2]];
}

/** Distance along the ray (o, d in the link frame) to the shape, or -1. */
function rayShape(shape: ShapeDesc, o: Float64Array, d: Float64Array): number {
  // into the shape's frame
  const p = shape.position ?? [0, 0, 0], q = shape.rotation ?? [0, 0, 0, 1];
  const so = inverseRotate(q, o[0] - p[0], o[1] - p[1], o[2] - p[2]);
  const sd = inverseRotate(q, d[0], d[1], d[2]);
  const g = shape.geometry;
  switch (g.type) {
    case 'sphere':
      return raySphere(so, sd, 0, 0, 0, g.radius);
    case 'capsule':
      return rayCapsule(so, sd, g.radius, g.halfLength);
    case 'box':
      return rayBox(so, sd, Array.from(g.halfExtents));
    case 'convex': {
      let cx = 0, cy = 0, cz = 0;
      const n = g.points.length / 3;
      for (let k = 0; k < g.points.length; k += 3) { cx += g.points[k] / n; cy += g.points[k + 1] / n; cz += g.points[k + 2] / n; }
      let r = 0;
      for (let k = 0; k < g.points.length; k += 3) r = Math.max(r, Math.hypot(g.points[k] - cx, g.points[k + 1] - cy, g.points[k + 2] - cz));
      return raySphere(so, sd, cx, cy, cz, r);
    }
    default:
      return -1;
  }
}

function inverseRotate(q: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  // rotate by the conjugate of q
  const qx = -q[0], qy = -q[1], qz = -q[2], qw = q[3];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

function raySphere(o: Vec3, d: Vec3, cx: number, cy: number, cz: number, r: number): number {
  const ox = o[0] - cx, oy = o[1] - cy, oz = o[2] - cz;
  const a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const b = ox * d[0] + oy * d[1] + oz * d[2];
  const c = ox * ox + oy * oy + oz * oz - r * r;
  const disc = b * b - a * c;
  if (disc < 0) return -1;
  const s = (-b - Math.sqrt(disc)) / a;
  return s >= 0 ? s : c <= 0 ? 0 : -1;
}

/** Capsule along Y: the cylinder |y| <= h of radius r, and the two caps. */
function rayCapsule(o: Vec3, d: Vec3, r: number, h: number): number {
  let best = -1;
  const a = d[0] * d[0] + d[2] * d[2];
  if (a > 1e-12) {
    const b = o[0] * d[0] + o[2] * d[2];
    const c = o[0] * o[0] + o[2] * o[2] - r * r;
    const disc = b * b - a * c;
    if (disc >= 0) {
      const s = (-b - Math.sqrt(disc)) / a;
      const y = o[1] + s * d[1];
      if (s >= 0 && Math.abs(y) <= h) best = s;
    }
  }
  for (const cy of [-h, h]) {
    const s = raySphere(o, d, 0, cy, 0, r);
    if (s >= 0 && (best < 0 || s < best)) best = s;
  }
  return best;
}

function rayBox(o: Vec3, d: Vec3, e: readonly number[]): number {
  let t0 = -Infinity, t1 = Infinity;
  for (let k = 0; k < 3; k++) {
    if (Math.abs(d[k]) < 1e-12) {
      if (Math.abs(o[k]) > e[k]) return -1;
      continue;
    }
    let a = (-e[k] - o[k]) / d[k], b = (e[k] - o[k]) / d[k];
    if (a > b) [a, b] = [b, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, b);
    if (t0 > t1) return -1;
  }
  if (t1 < 0) return -1;
  return Math.max(t0, 0);
}
