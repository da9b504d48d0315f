/**
 * Simple rigid bodies without a ModelBuilder: `RigidBody.box`, `.sphere`, `.capsule` and `.hull`
 * make a Model of one link on a free joint carrying the shape, with the mass given or the mass of
 * the given density and the inertia of the solid (mass-properties.ts). The World takes it as any
 * model, placed by position and rotation:
 *
 *   const crate = world.addBody(RigidBody.box([0.5, 0.5, 0.5], { mass: 20 }), { position: [0, 3, 0] });
 */
import { ModelBuilder, type Model, type ShapeDesc, type ShapeGeometry } from '@sinew/featherstone';
import { boxMassProperties, capsuleMassProperties, hullMassProperties, sphereMassProperties, type MassProperties } from './mass-properties.js';

/** The mass (or density) and surface of a simple rigid body. */
export interface RigidBodyOptions {
  /** Mass (kg); give this or density. */
  mass?: number;
  /** Density (kg/m^3); give this or mass. */
  density?: number;
  /** Coulomb friction of the shape (default 0.8). */
  friction?: number;
  /** Restitution of the shape (default 0). */
  restitution?: number;
  /** Collision group bits (default 1) and the groups it collides with (default all). */
  group?: number;
  mask?: number;
  /** A sensor: reports overlaps in the contact events, never pushes. */
  sensor?: boolean;
  /** Name of the model's one link (default the shape's kind). */
  linkName?: string;
}

function model(geometry: ShapeGeometry, props: MassProperties, o: RigidBodyOptions): Model {
  const shape: ShapeDesc = { geometry };
  if (o.friction !== undefined) shape.friction = o.friction;
  if (o.restitution !== undefined) shape.restitution = o.restitution;
  if (o.group !== undefined) shape.group = o.group;
  if (o.mask !== undefined) shape.mask = o.mask;
  if (o.sensor !== undefined) shape.sensor = o.sensor;
  const b = new ModelBuilder();
  b.addLink({ name: o.linkName ?? geometry.type, parent: null, joint: { type: 'free' }, mass: props.mass, com: props.com, inertia: props.inertia, shapes: [shape] });
  return b.build();
}

/** Factories of one-link models on a free joint carrying one shape: box, sphere, capsule, convex hull. */
export const RigidBody = Object.freeze({
  /** A box of half extents [x, y, z] (m) centred on the body's origin. */
  box(halfExtents: ArrayLike<number>, options: RigidBodyOptions): Model {
    const p = boxMassProperties(halfExtents, options);
    return model({ type: 'box', halfExtents: [halfExtents[0], halfExtents[1], halfExtents[2]] }, p, options);
  },
  /** A sphere of radius r (m) centred on the body's origin. */
  sphere(radius: number, options: RigidBodyOptions): Model {
    return model({ type: 'sphere', radius }, sphereMassProperties(radius, options), options);
  },
  /** A capsule along the body's Y axis: a cylinder of half height `halfHeight` and radius `radius` with hemispherical caps (as Rapier's capsule). */
  capsule(halfHeight: number, radius: number, options: RigidBodyOptions): Model {
    return model({ type: 'capsule', radius, halfLength: halfHeight }, capsuleMassProperties(halfHeight, radius, options), options);
  },
  /**
   * The solid convex hull of points (flat [x0, y0, z0, x1, ...], at most 256), in the body's frame:
   * its centre of mass lies where the hull puts it (Model.com), not necessarily at the origin.
   */
  hull(points: ArrayLike<number>, options: RigidBodyOptions): Model {
    return model({ type: 'convex', points: Array.from(points) }, hullMassProperties(points, options), options);
  },
  /** The mass properties a RigidBody of this shape gets (mass-properties.ts). */
});
