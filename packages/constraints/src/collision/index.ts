/**
 * Collision detection: shapes registered on links and in the world, a uniform-grid broad phase,
 * contact manifolds from the narrow phase.
 */
export { CollisionWorld, type CollisionWorldOptions, type BodyCollisionOptions } from './collision-world.js';
export {
  ContactBuffer,
  CONTACT_F64_STRIDE, CONTACT_POINT_A, CONTACT_POINT_B, CONTACT_NORMAL, CONTACT_DEPTH, CONTACT_FRICTION, CONTACT_RESTITUTION,
  CONTACT_I32_STRIDE, CONTACT_SHAPE_A, CONTACT_SHAPE_B, CONTACT_BODY_A, CONTACT_LINK_A, CONTACT_BODY_B, CONTACT_LINK_B,
  CONTACT_SUB_SHAPE, CONTACT_FEATURE,
  MANIFOLD_STRIDE, MANIFOLD_SHAPE_A, MANIFOLD_SHAPE_B, MANIFOLD_FIRST, MANIFOLD_COUNT,
} from './contact-buffer.js';
export { CollisionShapeError } from './shape-validation.js';
export { combineFriction, combineRestitution, DEFAULT_FRICTION, DEFAULT_RESTITUTION } from './material.js';
export { POSE_STRIDE, poseFromQuaternion, composePoses } from './pose.js';
export { MAX_MANIFOLD_POINTS } from './manifold.js';
export type { ShapeKind } from './shape-types.js';
export { RayHit, type QueryFilter, type RayHitCallback, type ShapeCallback } from './queries.js';
