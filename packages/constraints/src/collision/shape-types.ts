/**
 * Numeric codes for the collision shape kinds, as stored per shape slot in the collision world.
 * Dynamic shapes (attached to a link) are sphere, capsule, box and convex hull; planes, meshes and
 * heightfields are static only.
 */
export const SHAPE_SPHERE = 0;
export const SHAPE_CAPSULE = 1;
export const SHAPE_BOX = 2;
export const SHAPE_PLANE = 3;
export const SHAPE_TRIMESH = 4;
export const SHAPE_HEIGHTFIELD = 5;
export const SHAPE_CONVEX = 6;

/** The kinds of collision shape, as `ShapeGeometry.type` names them. */
export type ShapeKind = 'sphere' | 'capsule' | 'box' | 'plane' | 'trimesh' | 'heightfield' | 'convex';

export const SHAPE_KIND_NAMES: readonly ShapeKind[] = ['sphere', 'capsule', 'box', 'plane', 'trimesh', 'heightfield', 'convex'];

/** Floats stored per slot for the primitive parameters: sphere [r], capsule [r, halfLength], box [hx, hy, hz]. */
export const SHAPE_PARAM_STRIDE = 3;
