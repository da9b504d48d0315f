export * from './shapes.js';
export * from './spatial.js';
export { JointType, JOINT_NQ, JOINT_NV, JOINT_TYPE_NAMES, expPureQuaternion, integrateJoint, jointTransform, motionSubspace, neutralJointQ } from './joints.js';
export type { JointTypeName, JointTypeCode } from './joints.js';
export * from './model.js';
export * from './state.js';
export * from './kinematics.js';
export { forwardDynamics, forceLinkToWorld, forceWorldToLink, passiveForce } from './aba.js';
export * from './deltas.js';
export { inverseDynamics } from './rnea.js';
export { massMatrix } from './crba.js';
export { setJointDampingTimeConstant } from './damping.js';
export { choleskyFactor, choleskySolve } from './cholesky.js';
export * from './energy.js';
export * from './integrate.js';
export { freeRootMomenta, restoreFreeRootMomenta, freeRootCount, freeRootCurrentMomenta, addRootVelocityWorld, subtreeMass, subtreeMomentumAndInertia } from './momentum-correction.js';

import { forwardDynamics as abmAccelerations } from './aba.js';
import { accelerationDeltas as abmAccelerationDeltas } from './deltas.js';
/** The names of the Kokkevis paper: ABM.Accelerations (forward dynamics) and ABM.AccelerationDeltas. */
export const ABM = Object.freeze({ Accelerations: abmAccelerations, AccelerationDeltas: abmAccelerationDeltas });
/** sin, cos, tan, asin, acos, atan, atan2, exp, log, cbrt and hypot from exactly rounded operations only: the same bits in every JavaScript engine (det-math.ts). */
export * as detMath from './det-math.js';
