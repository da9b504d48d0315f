/**
 * Lowest world point of a model's collision shapes in a posed state: how far a character's
 * feet (or anything else) reach below a height, for grounding a retargeted clip and for checks.
 */
import type { Model, ShapeDesc, State } from '@sinew/featherstone';


/** World y of the lowest point of one shape of link i (requires forwardKinematics); with `at`, also writes that point (x, y, z). */
export function shapeBottom(state: State, link: number, shape: ShapeDesc, at?: Float64Array): number {
  const P = state.work.pose, o = 12 * link;
  const g = shape.geometry;
  const p = shape.position ?? [0, 0, 0];
  const r = shape.rotation ?? [0, 0, 0, 1];
  // row 1 of R_link R_shape: y of a shape-frame vector in the world
  const qx = r[0], qy = r[1], qz = r[2], qw = r[3];
  const s00 = 1 - 2 * (qy * qy + qz * qz), s01 = 2 * (qx * qy - qw * qz), s02 = 2 * (qx * qz + qw * qy);
  const s10 = 2 * (qx * qy + qw * qz), s11 = 1 - 2 * (qx * qx + qz * qz), s12 = 2 * (qy * qz - qw * qx);
  const s20 = 2 * (qx * qz - qw * qy), s21 = 2 * (qy * qz + qw * qx), s22 = 1 - 2 * (qx * qx + qy * qy);
  const a0 = P[o + 3], a1 = P[o + 4], a2 = P[o + 5];
  const r0 = a0 * s00 + a1 * s10 + a2 * s20, r1 = a0 * s01 + a1 * s11 + a2 * s21, r2 = a0 * s02 + a1 * s12 + a2 * s22;
  const cy = a0 * p[0] + a1 * p[1] + a2 * p[2] + P[o + 10];
  // the lowest point in shape coordinates, (lx, ly, lz)
  let lx = 0, ly = 0, lz = 0, y: number;
  switch (g.type) {
    case 'sphere':
      y = cy - g.radius;
      break;
    case 'capsule':
      ly = r1 > 0 ? -g.halfLength : g.halfLength;
      y = cy - Math.abs(r1) * g.halfLength - g.radius;
      break;
    case 'box': {
      const hx = g.halfExtents[0], hy = g.halfExtents[1], hz = g.halfExtents[2];
      lx = r0 > 0 ? -hx : hx; ly = r1 > 0 ? -hy : hy; lz = r2 > 0 ? -hz : hz;
      y = cy + r0 * lx + r1 * ly + r2 * lz;
      break;
    }
    case 'convex': {
      y = Infinity;
      for (let k = 0; k < g.points.length; k += 3) {
        const v = cy + r0 * g.points[k] + r1 * g.points[k + 1] + r2 * g.points[k + 2];
        if (v < y) { y = v; lx = g.points[k]; ly = g.points[k + 1]; lz = g.points[k + 2]; }
      }
      break;
    }
    default:
      return Infinity;
  }
  if (at) {
    // world point: R_link (p + R_shape l) + origin, minus the radius straight down for rounded shapes
    const sx = s00 * lx + s01 * ly + s02 * lz + p[0], sy = s10 * lx + s11 * ly + s12 * lz + p[1], sz = s20 * lx + s21 * ly + s22 * lz + p[2];
    at[0] = P[o] * sx + P[o + 1] * sy + P[o + 2] * sz + P[o + 9];
    at[1] = y;
    at[2] = P[o + 6] * sx + P[o + 7] * sy + P[o + 8] * sz + P[o + 11];
  }
  return y;
}

/** Lowest world y over every shape of the model (Infinity when it has none). Requires forwardKinematics. */
export function lowestShapePoint(model: Model, state: State): number {
  return lowestShape(model, state).y;
}

/** Lowest world y over every shape, and the link holding it (-1 when the model has no shapes). Requires forwardKinematics. */
export function lowestShape(model: Model, state: State): { y: number; link: number } {
  let lo = Infinity, link = -1;
  for (let i = 0; i < model.nLinks; i++) {
    for (const s of model.shapes[i]) {
      const y = shapeBottom(state, i, s);
      if (y < lo) { lo = y; link = i; }
    }
  }
  return { y: lo, link };
}

