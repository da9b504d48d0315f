/**
 * characterToJSON: a featherstone Model (and drive gains) -> the JSON character format. Every
 * number is read from the model's arrays except joint rotations and axes, which come from
 * exact.ts (exact for models built by characterFromJSON). Values equal to the format's defaults
 * are left out.
 */
import { JOINT_TYPE_NAMES, JointType, type Model } from '@sinew/featherstone';
import { builderInputs, recoverRotation, recoverUnit } from './exact.js';
import { FormatError } from './errors.js';
import type { Inertia6, Quat, Vec3 } from './math.js';
import { descToShape } from './shapes.js';
import {
  CHARACTER_FORMAT,
  CHARACTER_FORMAT_VERSION,
  type CharacterDescription,
  type JointDescription,
  type JointDrive,
  type LinkDescription,
} from './types.js';

/** Options of `characterToJSON`: the character's name and metadata. */
export interface ToJSONOptions {
  name?: string;
  metadata?: Record<string, unknown>;
}

function isPlusZero(v: number): boolean {
  return Object.is(v, 0);
}

function isIdentityRotation(E: Float64Array, o: number): boolean {
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) if (!Object.is(E[o + 3 * r + c], r === c ? 1 : 0)) return false;
  return true;
}

/** Writes a Model (and joint drives) as a character description that `characterFromJSON` builds back bit for bit. */
export function characterToJSON(model: Model, drives: readonly JointDrive[] = [], options: ToJSONOptions = {}): CharacterDescription {
  const exact = builderInputs(model);
  const driveOf = new Map<string, JointDrive>();
  for (const d of drives) {
    if (!model.hasJoint(d.joint)) throw new FormatError(`drives`, `no joint named "${d.joint}" in the model`);
    driveOf.set(d.joint, d);
  }
  const links: LinkDescription[] = [];
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i];
    const type = JOINT_TYPE_NAMES[t];
    const joint: JointDescription = { type };
    const jname = model.jointNames[i];
    if (jname !== model.linkNames[i]) joint.name = jname;
    const x = model.treeX;
    const pos = [x[12 * i + 9], x[12 * i + 10], x[12 * i + 11]] as Vec3;
    if (!pos.every(isPlusZero)) joint.position = pos;
    if (exact?.rotation[i]) joint.rotation = exact.rotation[i]!.slice() as Quat;
    else if (!isIdentityRotation(x, 12 * i)) joint.rotation = recoverRotation(x, i);
    const v0 = model.vOffset[i];
    if (t === JointType.revolute || t === JointType.prismatic) {
      joint.axis = exact?.axis[i] ? (exact.axis[i]!.slice() as Vec3) : recoverUnit(model.axis, 3 * i);
      const lo = model.lower[v0], hi = model.upper[v0];
      if (lo !== -Infinity || hi !== Infinity) joint.limits = { lower: lo === -Infinity ? null : lo, upper: hi === Infinity ? null : hi };
    }
    const sl = model.sphericalLimits[i];
    if (sl) {
      const swing: [number, number] = [sl.swing[0], sl.swing[1]];
      joint.limits = { swing: Object.is(swing[0], swing[1]) ? swing[0] : swing, twist: [sl.twist[0], sl.twist[1]] };
      const ta = sl.twistAxis;
      if (exact && model.jointType[i] === JointType.spherical && exact.twistAxis[i]) joint.limits.twistAxis = exact.twistAxis[i]!.slice() as Vec3;
      else if (!(ta[0] === 0 && ta[1] === 1 && ta[2] === 0)) joint.limits.twistAxis = recoverUnit(ta);
      if (sl.swingCentre) joint.limits.swingCentre = [sl.swingCentre[0], sl.swingCentre[1]];
    }
    if (model.jointNv[i] > 0) {
      if (!isPlusZero(model.damping[v0])) joint.damping = model.damping[v0];
      if (!isPlusZero(model.armature[v0])) joint.armature = model.armature[v0];
      if (t === JointType.revolute || t === JointType.prismatic) {
        if (!isPlusZero(model.stiffness[v0])) joint.stiffness = model.stiffness[v0];
        if (!isPlusZero(model.springRef[v0])) joint.springRef = model.springRef[v0];
      }
    }
    const d = driveOf.get(jname);
    if (d) {
      if (t === JointType.free || t === JointType.fixed) throw new FormatError(`drives`, `joint "${jname}" is ${type} and cannot be driven`);
      joint.drive = { kp: d.kp, kd: d.kd };
      if (Number.isFinite(d.maxTorque)) joint.drive.maxTorque = d.maxTorque;
    }
    const p = model.parent[i];
    const link: LinkDescription = {
      name: model.linkNames[i],
      parent: p < 0 ? null : model.linkNames[p],
      joint,
      mass: model.mass[i],
      com: Array.from(model.com.subarray(3 * i, 3 * i + 3)) as Vec3,
      inertia: Array.from(model.inertiaCom.subarray(6 * i, 6 * i + 6)) as Inertia6,
    };
    if (model.shapes[i].length > 0) link.shapes = model.shapes[i].map((s, k) => descToShape(s, `links[${i}].shapes[${k}]`));
    links.push(link);
  }
  const g = model.gravity;
  const defaultGravity = isPlusZero(g[0]) && g[1] === -9.81 && isPlusZero(g[2]);
  return {
    format: CHARACTER_FORMAT,
    version: CHARACTER_FORMAT_VERSION,
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(defaultGravity ? {} : { gravity: [g[0], g[1], g[2]] as Vec3 }),
    links,
    ...(options.metadata ? { metadata: options.metadata } : {}),
  };
}
