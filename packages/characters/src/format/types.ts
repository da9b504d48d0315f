/**
 * The JSON character format, version 1: a tree of links, each with the joint that connects it to
 * its parent, its mass properties (explicit, or from its shapes and a density) and its collision
 * shapes, plus optional joint drive gains. The JSON Schema is packages/characters/schema/
 * character.schema.json; README-level documentation is in that schema's descriptions and here.
 *
 * Units are SI (metres, kilograms, seconds, radians), Y is up, quaternions are [x, y, z, w].
 * Frames follow @sinew/featherstone: a joint's frame sits in its parent link's frame at `position`
 * with orientation `rotation`; the link's frame is the joint frame moved by the joint; centres of
 * mass, inertias and shapes are in the link's own frame. For a free root, q = 0 places the link at
 * its joint frame, so a root joint's position is the character's as-modelled placement.
 */
import type { FrictionCombine, JointTypeName } from '@sinew/featherstone';
import type { Inertia6, Quat, Vec3 } from './math.js';

/** The `format` field of a character description. */
export const CHARACTER_FORMAT = 'sinew-character';
/** The version of the character format this package writes and reads. */
export const CHARACTER_FORMAT_VERSION = 1;

/** A character in the JSON character format: links, joints, shapes, drives and gravity (see schema/character.schema.json). */
export interface CharacterDescription {
  format: typeof CHARACTER_FORMAT;
  version: typeof CHARACTER_FORMAT_VERSION;
  name?: string;
  /** Gravity in world coordinates (default [0, -9.81, 0]). */
  gravity?: Vec3;
  /** Links, every parent before its children. */
  links: LinkDescription[];
  /** Free-form data carried along (source file, author, ...). */
  metadata?: Record<string, unknown>;
}

/** A link of a character description: name, parent, joint, mass properties and shapes. */
export interface LinkDescription {
  name: string;
  /** Name of the parent link (listed earlier), or null for a link jointed to the world. */
  parent: string | null;
  joint: JointDescription;
  /**
   * Mass in kg (>= 0). With `inertia`, the link's mass properties are explicit; without it, the
   * mass is spread over the shapes at uniform density. A massless link (0) is allowed when the
   * joint-space mass matrix stays positive definite (for example between two joints of one body).
   */
  mass?: number;
  /** kg/m^3: mass, centre of mass and inertia follow from the shapes (instead of `mass`). */
  density?: number;
  /** Centre of mass in the link frame (default [0, 0, 0] with explicit inertia). */
  com?: Vec3;
  /** Rotational inertia about the centre of mass in the link frame, [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]. */
  inertia?: Inertia6;
  shapes?: ShapeDescription[];
}

/** A link's joint in a character description: type, frame in the parent, axis, limits, damping and drive. */
export interface JointDescription {
  type: JointTypeName;
  /** Default: the link's name. */
  name?: string;
  /** Joint frame origin in the parent link's frame (default [0, 0, 0]). */
  position?: Vec3;
  /** Joint frame orientation in the parent link's frame (default identity). */
  rotation?: Quat;
  /** Axis in the joint frame: required for revolute and prismatic joints. */
  axis?: Vec3;
  limits?: RangeLimits | ConeLimits;
  /** Viscous damping per degree of freedom. */
  damping?: number;
  /** Rotor inertia added to the mass-matrix diagonal. */
  armature?: number;
  /** Spring toward springRef (revolute and prismatic joints). */
  stiffness?: number;
  springRef?: number;
  /** PD drive gains of this joint (not for free and fixed joints). */
  drive?: DriveDescription;
}

/** Limits of a revolute or prismatic joint; null for "no limit on this side". */
export interface RangeLimits {
  lower: number | null;
  upper: number | null;
}

/** Limits of a spherical joint: an elliptical swing cone about the twist axis and a twist range. */
export interface ConeLimits {
  /** Twist axis in the joint frame (default [0, 1, 0]). */
  twistAxis?: Vec3;
  /** Swing half-angles (radians, 0..pi) about the two axes perpendicular to the twist axis, or one for a circular cone. */
  swing: number | [number, number];
  /** [lower, upper] twist (radians). */
  twist: [number, number];
  /** The cone's centre off the rest pose: a rotation vector's components (radians) about the cone axes u and v (SphericalLimits.swingCentre; default [0, 0]). */
  swingCentre?: [number, number];
}

/** Drive gains given directly, or from a settle time (see drives.ts). */
export type DriveDescription = GainDrive | SettleTimeDrive;
/** A joint drive given by gains Kp, Kd (and a torque bound). */
export interface GainDrive {
  /** Stiffness, N m / rad (N / m for prismatic joints). */
  kp: number;
  /** Damping, N m s / rad. */
  kd: number;
  /** Torque (force) limit; absent = unlimited. */
  maxTorque?: number;
}
/** A joint drive given by a settle time (and a torque bound), the gains following from it. */
export interface SettleTimeDrive {
  /** Seconds for a step response to settle within 2 % (joint alone, other joints locked, no gravity). */
  settleTime: number;
  /** Damping ratio (default 1, critically damped). */
  dampingRatio?: number;
  maxTorque?: number;
}

/** What every shape description has: pose, material and collision filter. */
export interface ShapeCommon {
  /** Shape origin in the link frame (default [0, 0, 0]). */
  position?: Vec3;
  /** Shape orientation in the link frame (default identity). */
  rotation?: Quat;
  friction?: number;
  /** How the friction combines with the other shape's at a contact (default 'geometric'; see ShapeDesc.frictionCombine). */
  frictionCombine?: FrictionCombine;
  restitution?: number;
  group?: number;
  mask?: number;
}
/** A collision shape of a character description. */
export type ShapeDescription =
  | (ShapeCommon & { type: 'sphere'; radius: number })
  /** Capsule along its local Y axis; total length 2 halfLength + 2 radius. */
  | (ShapeCommon & { type: 'capsule'; radius: number; halfLength: number })
  | (ShapeCommon & { type: 'box'; halfExtents: Vec3 })
  /** Convex hull of points [x0, y0, z0, x1, ...]; carries no volume for density-derived mass. */
  | (ShapeCommon & { type: 'convex'; points: number[] });

/** Resolved drive gains of one joint (the same on each of a spherical joint's three dofs). */
export interface JointDrive {
  joint: string;
  kp: number;
  kd: number;
  /** Infinity when unlimited. */
  maxTorque: number;
}
