export { ImportError } from './import-error.js';
export type { ImportErrorLocation } from './import-error.js';
export { Skeleton } from './skeleton.js';
export type { Bone, BoneDesc } from './skeleton.js';
export { MotionClip } from './clip.js';
export type { ClipPose, MotionClipData, WrapMode } from './clip.js';
export { clipVelocity, clipDifferenceStep } from './velocity.js';
export type { ClipVelocity, ClipVelocityOptions } from './velocity.js';
export { Retargeter } from './retarget.js';
export type { RetargetOptions } from './retarget.js';
export { ragdollFromSkeleton } from './ragdoll.js';
export type { Ragdoll, RagdollCapsule, RagdollOptions } from './ragdoll.js';
export { anatomicalJoints } from './anatomical-joints.js';
export type { AnatomicalJoint, AnatomicalRole } from './anatomical-joints.js';
export { BODY_SEGMENTS, BILATERAL_SEGMENTS, DE_LEVA_1996_MALE, DEFAULT_RADIUS_RATIO } from './segment-mass.js';
export type { BodySegment } from './segment-mass.js';
export {
  BONE_NAME_MAPS, MIXAMO_SEGMENTS, VRM_SEGMENTS, RIGIFY_SEGMENTS, CMU_BVH_SEGMENTS, CMU_3DSMAX_SEGMENTS, POSER_SEGMENTS,
  classifyBones, detectNameMap, segmentFromPattern, boneSide, boneSides, stripNamespace,
} from './bone-names.js';
export type { SegmentMap, SegmentSource, BodySide } from './bone-names.js';
export { capsuleInertia } from './capsule.js';
export { SkinBinding, writeLinkMatrices } from './skin-output.js';
