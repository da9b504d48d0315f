/**
 * Collision detection: shapes registered on links and in the world, a uniform-grid broad phase,
 * contact manifolds from the narrow phase.
 */
export { CollisionWorld, type CollisionWorldOptions, type BodyCollisionOptions } from './collision-world.js';
export { CollisionShapeError } from './shape-validation.js';
export { combineFriction, combineRestitution, DEFAULT_FRICTION, DEFAULT_RESTITUTION } from './material.js';
export { POSE_STRIDE, poseFromQuaternion, composePoses } from './pose.js';
export { MAX_MANIFOLD_POINTS } from './manifold.js';
export type { ShapeKind } from './shape-types.js';
export { RayHit, type QueryFilter, type RayHitCallback, type ShapeCallback } from './queries.js';
export { ShapeHit, CAST_TOLERANCE, type QueryShape, type QueryPose } from './shape-queries.js';
export { DEBUG_LINE_STRIDE } from './debug-shapes.js';
