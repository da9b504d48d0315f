/**
 * `@sinew/constraints/internals`: the solver's inner parts, for a power user who writes a
 * constraint source of their own, reads the contact buffer directly or tests a solver. They follow
 * the engine's layout and may change with it; a game needs only `@sinew/constraints`.
 *
 * - LCP solvers: the mixed problem, projected Gauss-Seidel, Lemke's method and the checks (lcp/);
 * - the row buffer a `ConstraintSource` writes into, and the row measures (rows/);
 * - the constraint solver that builds K by AccelerationDeltas and runs PGS (solver/);
 * - the contact buffer and its record offsets, `CONTACT_*` and `MANIFOLD_*` (collision/contact-buffer.ts);
 * - the writer of debug line segments CollisionWorld.drawShapes fills (collision/debug-shapes.ts);
 * - the kinematic joints of a body (Body.kinematic: which links are prescribed, their rates and
 *   pending target) and the test for their rows (kinematic.ts).
 */
export * from './lcp/index.js';
export { RowBuffer, RowType, RowTag, ROW_TAG_NAMES, type RowTypeCode, type RowTagCode } from './rows/row-buffer.js';
export { rowAcceleration, rowVelocity, rowSideDelta, rowSideTestForce, rowSides } from './rows/measure.js';
export { ConstraintSolver, type KMethod } from './solver/constraint-solver.js';
export {
  ContactBuffer,
  CONTACT_F64_STRIDE, CONTACT_POINT_A, CONTACT_POINT_B, CONTACT_NORMAL, CONTACT_DEPTH, CONTACT_FRICTION, CONTACT_RESTITUTION,
  CONTACT_I32_STRIDE, CONTACT_SHAPE_A, CONTACT_SHAPE_B, CONTACT_BODY_A, CONTACT_LINK_A, CONTACT_BODY_B, CONTACT_LINK_B,
  CONTACT_SUB_SHAPE, CONTACT_FEATURE,
  MANIFOLD_STRIDE, MANIFOLD_SHAPE_A, MANIFOLD_SHAPE_B, MANIFOLD_FIRST, MANIFOLD_COUNT,
} from './collision/contact-buffer.js';
export type { ConstraintSource, StepContext } from './sources/source.js';
export { DebugLineWriter } from './collision/debug-shapes.js';
export { KinematicJoints, KinematicMode, PRESCRIBED_KEY_FAMILY, isPrescribedRow } from './kinematic.js';
