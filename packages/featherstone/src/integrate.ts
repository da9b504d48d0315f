/**
 * Time integration in reduced coordinates: semi-implicit (symplectic) Euler, qd += dt qdd, then
 * q moves along the new qd, with quaternions of spherical and free joints advanced on the
 * manifold and renormalised (joints.ts).
 */
import { forwardDynamics } from './aba.js';
import { integrateJoint } from './joints.js';
import type { Model } from './model.js';
import type { Arr } from './spatial.js';
import type { State } from './state.js';
import { forwardKinematics } from './kinematics.js';
import { freeRootCount, freeRootMomenta, restoreFreeRootMomenta } from './momentum-correction.js';

/**
 * One semi-implicit Euler step with the given accelerations. For models with free-floating roots
 * the root velocities are then corrected so the position update changes no momentum
 * (momentum-correction.ts); `preserveMomentum: false` skips that.
 */
export function integrateSemiImplicit(model: Model, state: State, qdd: ArrayLike<number>, dt: number, preserveMomentum = true): void {
  const { q, qd } = state;
  const roots = preserveMomentum ? freeRootCount(model) : 0;
  if (roots > 0 && model.nLinks > 1) {
    const target = state.work.momentumScratch;
    forwardKinematics(model, state, true);
    freeRootMomenta(model, state, qdd, dt, target);
    for (let d = 0; d < model.nv; d++) qd[d] += dt * qdd[d];
    integratePositions(model, q, qd, dt);
    restoreFreeRootMomenta(model, state, target);
  } else {
    for (let d = 0; d < model.nv; d++) qd[d] += dt * qdd[d];
    integratePositions(model, q, qd, dt);
  }
  state.work.dynamicsValid = false;
}

/** q <- q (+) qd dt, joint by joint. */
export function integratePositions(model: Model, q: Arr, qd: ArrayLike<number>, dt: number): void {
  for (let i = 0; i < model.nLinks; i++) integrateJoint(model.jointType[i], q, model.qOffset[i], qd, model.vOffset[i], dt);
}

/**
 * Advances an unconstrained articulated body by dt in `substeps` equal semi-implicit Euler steps
 * (ABA each sub-step), with the state's torques and external forces held.
 */
export function simulate(model: Model, state: State, dt: number, substeps = 1): void {
  if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`simulate: time step must be a positive finite number, got ${dt}`);
  if (!(Number.isInteger(substeps) && substeps >= 1)) throw new RangeError(`simulate: substeps must be a positive integer, got ${substeps}`);
  const h = dt / substeps;
  for (let s = 0; s < substeps; s++) {
    const qdd = forwardDynamics(model, state);
    integrateSemiImplicit(model, state, qdd, h);
  }
}
