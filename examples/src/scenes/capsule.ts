/** Mass properties and shape of a capsule link lying along the link's +X axis. */
import type { LinkSpec, ShapeDesc } from '@sinew/featherstone';

/**
 * Rotational inertia [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] about the centre of a solid capsule of
 * uniform density whose axis is X: a cylinder of length 2*halfLength and two hemispherical caps.
 */
export function capsuleInertiaX(mass: number, radius: number, halfLength: number): [number, number, number, number, number, number] {
  const h = 2 * halfLength, r = radius;
  const vCyl = Math.PI * r * r * h, vCaps = (4 / 3) * Math.PI * r * r * r;
  const mCyl = (mass * vCyl) / (vCyl + vCaps), mCaps = mass - mCyl;
  const axial = mCyl * r * r / 2 + mCaps * (2 * r * r) / 5;
  const transverse = mCyl * (h * h / 12 + r * r / 4) + mCaps * ((2 * r * r) / 5 + (h * h) / 4 + (3 * h * r) / 8);
  return [axial, transverse, transverse, 0, 0, 0];
}

const Y_TO_X = [0, 0, -Math.SQRT1_2, Math.SQRT1_2]; // rotation by -90 degrees about Z takes +Y to +X

/** A link of length `length` along +X from its joint: capsule shape, centre of mass halfway. */
export function capsuleLink(length: number, radius: number, mass: number): Pick<LinkSpec, 'mass' | 'com' | 'inertia' | 'shapes'> {
  const halfLength = Math.max(0, length / 2 - radius);
  const shape: ShapeDesc = {
    geometry: { type: 'capsule', radius, halfLength },
    position: [length / 2, 0, 0],
    rotation: Y_TO_X,
  };
  return { mass, com: [length / 2, 0, 0], inertia: capsuleInertiaX(mass, radius, halfLength), shapes: [shape] };
}
