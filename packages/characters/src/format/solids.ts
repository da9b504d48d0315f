/**
 * Volumes and inertias of uniform solids about their centres, in their own frames. Elongated
 * solids (capsule, cylinder) have their axis along local `axis` ('y' for the SDK's capsules, 'z'
 * for MuJoCo's). Formulas: sphere I = 2/5 m r^2; box I_x = m (b^2 + c^2) / 3 with half-extents
 * a, b, c; cylinder I_perp = m (3 r^2 + h^2) / 12, I_axial = m r^2 / 2; ellipsoid
 * I_x = m (b^2 + c^2) / 5; capsule = cylinder + two hemispheres, each hemisphere's centre of mass
 * 3r/8 from its flat face and its inertia about the face's diameter 2/5 m r^2 (so about its own
 * centre 83/320 m r^2), moved by the parallel-axis theorem to the capsule's centre.
 */
import type { Inertia6, MassProps } from './math.js';

export type LongAxis = 'y' | 'z';

function axial(perp: number, along: number, axis: LongAxis): Inertia6 {
  return axis === 'y' ? [perp, along, perp, 0, 0, 0] : [perp, perp, along, 0, 0, 0];
}

export function sphereVolume(r: number): number {
  return (4 / 3) * Math.PI * r * r * r;
}

export function sphereMass(r: number, density: number): MassProps {
  const m = density * sphereVolume(r);
  const i = 0.4 * m * r * r;
  return { mass: m, com: [0, 0, 0], inertia: [i, i, i, 0, 0, 0] };
}

export function capsuleVolume(r: number, halfLength: number): number {
  return Math.PI * r * r * 2 * halfLength + sphereVolume(r);
}

export function capsuleMass(r: number, halfLength: number, density: number, axis: LongAxis): MassProps {
  const h = 2 * halfLength;
  const mc = density * Math.PI * r * r * h; // cylinder
  const ms = density * sphereVolume(r); // both hemispheres
  const d = halfLength + (3 * r) / 8; // hemisphere centre of mass from the capsule's centre
  const perp = (mc * (3 * r * r + h * h)) / 12 + ms * ((83 / 320) * r * r + d * d);
  const along = 0.5 * mc * r * r + 0.4 * ms * r * r;
  return { mass: mc + ms, com: [0, 0, 0], inertia: axial(perp, along, axis) };
}

export function cylinderVolume(r: number, halfLength: number): number {
  return Math.PI * r * r * 2 * halfLength;
}

export function cylinderMass(r: number, halfLength: number, density: number, axis: LongAxis): MassProps {
  const h = 2 * halfLength;
  const m = density * cylinderVolume(r, halfLength);
  return { mass: m, com: [0, 0, 0], inertia: axial((m * (3 * r * r + h * h)) / 12, 0.5 * m * r * r, axis) };
}

export function boxVolume(half: readonly number[]): number {
  return 8 * half[0] * half[1] * half[2];
}

export function boxMass(half: readonly number[], density: number): MassProps {
  const m = density * boxVolume(half);
  const [a, b, c] = half;
  return { mass: m, com: [0, 0, 0], inertia: [(m * (b * b + c * c)) / 3, (m * (a * a + c * c)) / 3, (m * (a * a + b * b)) / 3, 0, 0, 0] };
}

export function ellipsoidVolume(s: readonly number[]): number {
  return (4 / 3) * Math.PI * s[0] * s[1] * s[2];
}

export function ellipsoidMass(s: readonly number[], density: number): MassProps {
  const m = density * ellipsoidVolume(s);
  const [a, b, c] = s;
  return { mass: m, com: [0, 0, 0], inertia: [(m * (b * b + c * c)) / 5, (m * (a * a + c * c)) / 5, (m * (a * a + b * b)) / 5, 0, 0, 0] };
}

/** Scales mass and inertia (a change of density). */
export function scaleMass(mp: MassProps, s: number): MassProps {
  return { mass: mp.mass * s, com: mp.com, inertia: mp.inertia.map((x) => x * s) as Inertia6 };
}
