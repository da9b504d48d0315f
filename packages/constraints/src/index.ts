// Solver internals (LCP, rows, ConstraintSolver, the contact buffer's layout): './internals.ts',
// published as '@sinew/constraints/internals'.
export type { KMethod } from './solver/constraint-solver.js';
export { Body } from './body.js';
export type { LinkRef, NumberArray } from './link-readers.js';
export type { ConstraintSource, StepContext } from './sources/source.js';
export { JointLimits, worstLimitViolation, type JointLimitOptions } from './sources/joint-limits.js';
export { PointPin, HingePin, type PinTarget } from './sources/pin.js';
export { TrajectoryFollower, VelocityMotor, gainsFromSettleTime, jointError, CRITICAL_SETTLE_FACTOR, type GainRule } from './sources/drives.js';
export { World, DebugLines, type WorldOptions, type StepStats, type StabilizationMode, type AddBodyOptions, type SettingsPatch, type WorldSettings } from './world.js';
export { RigidBody, type RigidBodyOptions } from './rigid-body.js';
export { JOINT_DRAW_SIZE } from './debug-joints.js';
export { ContactEvent, ContactForce, type ContactEventType } from './events.js';
export { LimitHit, type LimitStop } from './limit-events.js';
export { boxMassProperties, sphereMassProperties, capsuleMassProperties, hullMassProperties, type MassProperties } from './mass-properties.js';
export type { WorldState } from './world-state.js';
export { ContactSource, type ContactOptions } from './sources/contacts.js';
export * from './collision/index.js';
