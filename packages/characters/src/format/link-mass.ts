/**
 * Mass properties of a described link: explicit (mass, com, inertia), or from its shapes at a
 * density (given, or mass / total volume). Only solid shapes count: spheres, capsules and boxes;
 * convex hulls are collision geometry without a volume here.
 */
import { combineMass, quatNormalize, transformMass, type Inertia6, type MassProps, type Vec3 } from './math.js';
import { boxMass, boxVolume, capsuleMass, capsuleVolume, sphereMass, sphereVolume } from './solids.js';
import type { LinkDescription, ShapeDescription } from './types.js';

/** The volume of a shape description (m^3). */
export function shapeVolume(s: ShapeDescription): number {
  switch (s.type) {
    case 'sphere': return sphereVolume(s.radius);
    case 'capsule': return capsuleVolume(s.radius, s.halfLength);
    case 'box': return boxVolume(s.halfExtents);
    default: return 0;
  }
}

function shapeMass(s: ShapeDescription, density: number): MassProps | null {
  let local: MassProps;
  switch (s.type) {
    case 'sphere': local = sphereMass(s.radius, density); break;
    case 'capsule': local = capsuleMass(s.radius, s.halfLength, density, 'y'); break;
    case 'box': local = boxMass(s.halfExtents, density); break;
    default: return null;
  }
  return transformMass({ p: (s.position ?? [0, 0, 0]) as Vec3, q: quatNormalize(s.rotation ?? [0, 0, 0, 1]) }, local);
}

/** Mass properties of the union of the link's solid shapes at uniform density (overlaps count twice, as in MuJoCo). */
export function shapesMass(shapes: readonly ShapeDescription[], density: number): MassProps {
  return combineMass(shapes.map((s) => shapeMass(s, density)).filter((m): m is MassProps => m !== null));
}

/** -0 -> +0 (JSON text cannot carry the sign of zero; a model written and read back must not differ). */
function plusZero(mp: MassProps): MassProps {
  return { mass: mp.mass + 0, com: mp.com.map((x) => x + 0) as Vec3, inertia: mp.inertia.map((x) => x + 0) as Inertia6 };
}

/** The link's mass, centre of mass and inertia about it, in the link frame. */
export function linkMassProps(link: LinkDescription): MassProps {
  return plusZero(rawLinkMassProps(link));
}

function rawLinkMassProps(link: LinkDescription): MassProps {
  const shapes = link.shapes ?? [];
  if (link.density !== undefined) return shapesMass(shapes, link.density);
  const mass = link.mass ?? 0;
  if (link.inertia) return { mass, com: (link.com ?? [0, 0, 0]).slice() as Vec3, inertia: link.inertia.slice() as Inertia6 };
  if (mass === 0) return { mass: 0, com: (link.com ?? [0, 0, 0]).slice() as Vec3, inertia: [0, 0, 0, 0, 0, 0] };
  const volume = shapes.reduce((v, s) => v + shapeVolume(s), 0);
  const mp = shapesMass(shapes, mass / volume);
  return { ...mp, mass };
}
