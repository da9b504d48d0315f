/**
 * Bone maps from mocap skeletons to the joints of the humanoid preset (presets/humanoid.ts:
 * pelvis (free root), lumbar, thoracic, neck, shoulder_*, elbow_*, wrist_*, hip_*, knee_*, ankle_*).
 *
 * Each preset link copies the world rotation of the bone that spans the same body segment: the
 * lower trunk follows the root (Hips), the middle trunk CMU's Spine (omphalion to xiphion), the
 * upper trunk Spine1 (to the neck base), the head the Head bone. Bones with no preset link of their
 * own (LowerBack, Neck, Neck1, clavicles, toes, fingers) need no entry: a link takes its bone's
 * world rotation, so their motion reaches the links below them anyway.
 */
import type { BoneMap } from './rest-alignment.js';

function sided(left: string, right: string, joint: string): Record<string, string> {
  return { [left]: `${joint}_left`, [right]: `${joint}_right` };
}

/** CMU motion capture, cgspeed BVH conversion (e.g. 02_01 walk): Hips, LowerBack, Spine, Spine1, Neck, Neck1, Head, LeftArm, LeftForeArm, ... */
export const CMU_TO_HUMANOID: BoneMap = Object.freeze({
  Hips: 'pelvis',
  Spine: 'lumbar',
  Spine1: 'thoracic',
  Head: 'neck',
  ...sided('LeftArm', 'RightArm', 'shoulder'),
  ...sided('LeftForeArm', 'RightForeArm', 'elbow'),
  ...sided('LeftHand', 'RightHand', 'wrist'),
  ...sided('LeftUpLeg', 'RightUpLeg', 'hip'),
  ...sided('LeftLeg', 'RightLeg', 'knee'),
  ...sided('LeftFoot', 'RightFoot', 'ankle'),
});
