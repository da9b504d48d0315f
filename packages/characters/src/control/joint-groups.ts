/**
 * Joint groups of a character, for settings given per body region (settle times, torque limits):
 * 'root' (the root joint), 'spine', 'head', 'arms', 'legs', and 'other' for joints of links no
 * region claims. A link's region comes from its name by the same word patterns that classify
 * bones (motion/bone-names.ts: thigh, shank, foot -> legs; upper arm, forearm, hand -> arms; trunk
 * segments -> spine; head, neck -> head), so the humanoid preset, ragdolls built from skeletons and
 * most imported characters are grouped without a table; `overrides` names joints explicitly.
 */
import type { Model } from '@sinew/featherstone';
import { segmentFromPattern } from '../motion/bone-names.js';

/** A group of joints that share gains and tone: root, spine, head, arms, legs, other. */
export type JointGroup = 'root' | 'spine' | 'head' | 'arms' | 'legs' | 'other';

/** The joint groups, in order. */
export const JOINT_GROUPS: readonly JointGroup[] = ['root', 'spine', 'head', 'arms', 'legs', 'other'];

/** A value for every group, or one number for all. */
export type PerGroup<T> = T | Partial<Record<JointGroup, T>>;

/** The group of each link's joint (index = link). */
export function jointGroups(model: Model, overrides: Readonly<Record<string, JointGroup>> = {}): JointGroup[] {
  const out: JointGroup[] = [];
  for (const name of Object.keys(overrides)) {
    if (!model.hasJoint(name)) throw new RangeError(`jointGroups: override names joint "${name}", which the model does not have`);
  }
  for (let i = 0; i < model.nLinks; i++) {
    const joint = model.jointNames[i];
    if (overrides[joint]) { out.push(overrides[joint]); continue; }
    if (model.parent[i] < 0) { out.push('root'); continue; }
    const seg = segmentFromPattern(model.linkNames[i]) ?? segmentFromPattern(joint);
    switch (seg) {
      case 'thigh': case 'shank': case 'foot': out.push('legs'); break;
      case 'upperArm': case 'forearm': case 'hand': out.push('arms'); break;
      case 'lowerTrunk': case 'middleTrunk': case 'upperTrunk': out.push('spine'); break;
      case 'head': out.push('head'); break;
      default: out.push('other');
    }
  }
  return out;
}

/** The value of a PerGroup setting for one group. */
export function groupValue<T>(setting: PerGroup<T> | undefined, group: JointGroup, defaults: Record<JointGroup, T>): T {
  if (setting === undefined) return defaults[group];
  if (typeof setting === 'object' && setting !== null) return (setting as Partial<Record<JointGroup, T>>)[group] ?? defaults[group];
  return setting as T;
}
