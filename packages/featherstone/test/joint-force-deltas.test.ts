/**
 * AccelerationDeltas for a generalised force on all the dofs of one joint (a motor acting between
 * a link and its parent) equals M^-1 tau_j, tau_j zero except on that joint's dofs, with M from the
 * CRBA solved by mathjs; and a torque on one dof equals the same with a unit vector.
 */
import { describe, expect, it } from 'vitest';
import { accelerationDeltasJointForce, accelerationDeltasTorque, forwardDynamics, massMatrix } from '../src/index.js';
import { relErr, solveDense } from './dense.js';
import { randomModel, randomState, rng } from './random-model.js';

describe('AccelerationDeltas for joint forces == M^-1 tau', () => {
  it('on every joint of 40 random trees (every joint type)', () => {
    const r = rng(606);
    let worst = 0;
    for (let trial = 0; trial < 40; trial++) {
      const model = randomModel(r, { links: 2 + Math.floor(r() * 20) });
      const state = randomState(r, model);
      const nv = model.nv;
      const M = massMatrix(model, state, new Float64Array(nv * nv));
      forwardDynamics(model, state);
      const out = new Float64Array(nv);
      for (let l = 0; l < model.nLinks; l++) {
        const jnv = model.jointNv[l];
        if (jnv === 0) continue;
        const force = Float64Array.from({ length: jnv }, () => 2 * r() - 1);
        accelerationDeltasJointForce(model, state, l, force, 0, out);
        const tau = new Float64Array(nv);
        tau.set(force, model.vOffset[l]);
        const err = relErr(out, solveDense(M, tau, nv));
        worst = Math.max(worst, err);
        expect(err).toBeLessThan(1e-9);
        // one dof of it, as a torque
        const k = Math.floor(r() * jnv);
        accelerationDeltasTorque(model, state, model.vOffset[l] + k, force[k], out);
        const one = new Float64Array(nv);
        one[model.vOffset[l] + k] = force[k];
        expect(relErr(out, solveDense(M, one, nv))).toBeLessThan(1e-9);
      }
    }
    console.log(`joint-force deltas vs M^-1 tau: worst relative error ${worst.toExponential(2)}`);
  });
});
