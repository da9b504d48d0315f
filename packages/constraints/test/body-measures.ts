/**
 * Measures of a body read straight from its geometry and joint coordinates, independent of the
 * World's own contact and limit rows (a body that tunnelled has no contacts left to report): the
 * lowest point of its shapes and its worst joint-limit violation; and of a world, independent of
 * its energy account: its mechanical energy and the energy bound the step states. Shared by the
 * abuse, energy, robustness, contact and MJCF tests, scripts/soak.ts and scripts/energy-search.ts.
 */
import { forwardKinematics, kineticEnergy, potentialEnergy, quatToMat } from '@sinew/featherstone';
import type { Body, World } from '../src/index.js';

/** The world's mechanical energy (J): kinetic plus potential in each body's gravity, over its bodies, from their q and qd. */
export function mechanicalEnergy(world: World): number {
  let e = 0;
  for (const b of world.bodies) {
    forwardKinematics(b.model, b.state, true);
    e += kineticEnergy(b.model, b.state) + potentialEnergy(b.model, b.state);
  }
  return e;
}

/** The step's energy bound for steps of h (J): the sum over the bodies of m |g| (contactSlop + |g| h^2 / 2) (step/energy-account.ts). */
export function energyBound(world: World, h: number): number {
  const g = Math.hypot(...world.gravity);
  let m = 0;
  for (const b of world.bodies) m += b.model.totalMass();
  return m * g * (world.settings.contactSlop + 0.5 * g * h * h);
}

const IDENTITY = [0, 0, 0, 1];
const R = new Float64Array(9);

/** Lowest world y of any shape of the body (spheres, capsules, boxes), from the current link poses. */
export function lowestPoint(b: Body): number {
  const P = b.state.work.pose;
  let low = Infinity;
  for (let i = 0; i < b.model.nLinks; i++) {
    const o = 12 * i;
    for (const s of b.model.shapes[i]) {
      const p = s.position ?? [0, 0, 0];
      const cy = P[o + 3] * p[0] + P[o + 4] * p[1] + P[o + 5] * p[2] + P[o + 10];
      // row y of R_link R_shape
      quatToMat(s.rotation ?? IDENTITY, 0, R, 0);
      const ry = [0, 1, 2].map((k) => P[o + 3] * R[k] + P[o + 4] * R[3 + k] + P[o + 5] * R[6 + k]);
      const g = s.geometry;
      if (g.type === 'sphere') low = Math.min(low, cy - g.radius);
      else if (g.type === 'capsule') low = Math.min(low, cy - Math.abs(ry[1]) * g.halfLength - g.radius);
      else if (g.type === 'box') low = Math.min(low, cy - Math.abs(ry[0]) * g.halfExtents[0] - Math.abs(ry[1]) * g.halfExtents[1] - Math.abs(ry[2]) * g.halfExtents[2]);
    }
  }
  return low;
}

/** Largest violation (rad or m) of the revolute / prismatic limits and of the spherical swing cones (swing angle past the larger half-angle). */
export function limitViolation(b: Body): number {
  const m = b.model, q = b.state.q;
  let worst = 0;
  for (let i = 0; i < m.nLinks; i++) {
    const t = m.jointType[i];
    if (t === 1 || t === 2) {
      const d = m.vOffset[i], x = q[m.qOffset[i]];
      worst = Math.max(worst, m.lower[d] - x, x - m.upper[d]);
    } else if (m.sphericalLimits[i]) {
      const l = m.sphericalLimits[i]!;
      quatToMat(q, m.qOffset[i], R, 0);
      const a = l.twistAxis;
      const ra = [0, 1, 2].map((r) => R[3 * r] * a[0] + R[3 * r + 1] * a[1] + R[3 * r + 2] * a[2]);
      const swing = Math.acos(Math.max(-1, Math.min(1, ra[0] * a[0] + ra[1] * a[1] + ra[2] * a[2])));
      worst = Math.max(worst, swing - Math.max(l.swing[0], l.swing[1]));
    }
  }
  return worst;
}

/**
 * The deceleration (m/s^2) of a free body sliding along world x: stepped 0.3 s at 1/240 s, from
 * its root's x at 0.1, 0.2 and 0.3 s by the second difference (exact for a constant deceleration).
 */
export function slidingDeceleration(world: World, body: Body): number {
  const x: number[] = [];
  for (let s = 1; s <= 72; s++) {
    world.step(1 / 240);
    if (s % 24 === 0) x.push(body.state.q[0]);
  }
  return -(x[2] - 2 * x[1] + x[0]) / 0.1 ** 2;
}
