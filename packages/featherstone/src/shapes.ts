/**
 * Collision shape descriptions carried by a Model. Pure data: collision detection lives in
 * @sinew/constraints. Poses are in the owning link's frame (or the world, for static geometry).
 */

/**
 * A 3-vector [x, y, z] as the API takes it: a tuple, a `Float64Array`, or gl-matrix's `vec3` /
 * `ReadonlyVec3` (a `Float32Array` by default). Read once where it is given and stored as float64.
 */
export type Vec3Like = ArrayLike<number>;
/**
 * A quaternion [x, y, z, w] as the API takes it: a tuple, a `Float64Array`, or gl-matrix's `quat` /
 * `ReadonlyQuat`. Read once where it is given and stored as float64.
 */
export type QuatLike = ArrayLike<number>;

/** The geometry of a collision shape, told apart by `type`; arrays may be tuples, typed arrays or gl-matrix vectors. */
export type ShapeGeometry =
  | { type: 'sphere'; radius: number }
  /** Capsule whose axis is the local Y axis (as three.js CapsuleGeometry); total length 2*halfLength + 2*radius. */
  | { type: 'capsule'; radius: number; halfLength: number }
  | { type: 'box'; halfExtents: Vec3Like }
  /** Convex hull of points given as flat [x0, y0, z0, x1, ...]. */
  | { type: 'convex'; points: ArrayLike<number> }
  /** Static only: the plane through the local origin with normal local +Y (solid below). */
  | { type: 'plane' }
  /** Static only: a triangle mesh, vertices flat xyz, indices three per triangle (counter-clockwise seen from outside). */
  | { type: 'trimesh'; vertices: ArrayLike<number>; indices: ArrayLike<number> }
  /**
   * Static only: heights[row * cols + col] at x = col * spacingX, z = row * spacingZ in the local frame
   * (y up); solid below the surface.
   */
  | { type: 'heightfield'; rows: number; cols: number; spacingX: number; spacingZ: number; heights: ArrayLike<number> };

/** How two shapes' friction coefficients combine at a contact (ShapeDesc.frictionCombine), in the order of precedence. */
export const FRICTION_COMBINE = ['geometric', 'average', 'min', 'multiply', 'max'] as const;
/** One of FRICTION_COMBINE: 'geometric' sqrt(mu_a mu_b), 'average', 'min', 'multiply' or 'max'. */
export type FrictionCombine = (typeof FRICTION_COMBINE)[number];

/** A collision shape on a link or in the world: its geometry, pose, material and collision filter. */
export interface ShapeDesc {
  geometry: ShapeGeometry;
  /** Offset of the shape's origin in the link (or world) frame. Default [0, 0, 0]. */
  position?: Vec3Like;
  /** Orientation of the shape in the link (or world) frame, quaternion [x, y, z, w]. Default identity. */
  rotation?: QuatLike;
  /** Coulomb friction coefficient (default 0.8). */
  friction?: number;
  /**
   * How this shape's friction combines with the other shape's at a contact (default 'geometric',
   * sqrt(mu_a mu_b)): 'average', 'min', 'multiply' or 'max'. When the two shapes differ, the later
   * in the order geometric, average, min, multiply, max wins (as PhysX's combine modes do).
   */
  frictionCombine?: FrictionCombine;
  /** Coefficient of restitution (default 0). */
  restitution?: number;
  /** Collision group bits this shape belongs to (default 1). */
  group?: number;
  /** Groups this shape collides with (default all bits). */
  mask?: number;
  /**
   * A sensor (default false): it reports overlaps (contact events) and never pushes anything,
   * as Rapier's sensor colliders.
   */
  sensor?: boolean;
}
