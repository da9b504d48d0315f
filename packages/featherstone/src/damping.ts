/**
 * Joint damping sized by the inertia each joint moves, for ragdolls whose limbs must settle: a
 * single damping number is far too strong for a wrist and far too weak for a hip.
 */
import { massMatrix } from './crba.js';
import { JointType } from './joints.js';
import type { Model } from './model.js';
import { State } from './state.js';

/**
 * Sets model.damping of every joint except free joints to M_kk / timeConstant, M_kk the diagonal
 * of the joint-space mass matrix at the given pose (the neutral pose by default): the composite
 * inertia of the subtree the dof moves, so that dof alone (the rest of the tree held) loses its
 * velocity as exp(-t / timeConstant). With the rest of the tree free to move the articulated
 * inertia is smaller and the decay faster. Stable for any value when the damping is taken
 * implicitly (State.implicitDampingStep; simulate() and the World do). Returns model.damping.
 */
export function setJointDampingTimeConstant(model: Model, timeConstant: number, pose?: State): Float64Array {
  if (!(timeConstant > 0) || !Number.isFinite(timeConstant)) throw new RangeError(`setJointDampingTimeConstant: time constant ${timeConstant}; expected a positive number of seconds`);
  const state = pose ?? new State(model);
  if (state.model !== model) throw new Error('setJointDampingTimeConstant: the pose belongs to another model');
  const nv = model.nv;
  const M = massMatrix(model, state, new Float64Array(nv * nv));
  for (let i = 0; i < model.nLinks; i++) {
    if (model.jointType[i] === JointType.free) continue; // free joint: a body in flight is not damped
    for (let k = 0; k < model.jointNv[i]; k++) {
      const d = model.vOffset[i] + k;
      model.damping[d] = M[d * nv + d] / timeConstant;
    }
  }
  return model.damping;
}
