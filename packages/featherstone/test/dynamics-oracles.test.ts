/**
 * The dynamics algorithms checked against each other: ABA (forwardDynamics) against the CRBA mass
 * matrix solved (by mathjs, an independent LU) against the RNEA bias forces, on random trees.
 */
import { describe, expect, it } from 'vitest';
import { forwardDynamics, inverseDynamics, massMatrix } from '../src/index.js';
import { relErr, solveDense } from './dense.js';
import { randomModel, randomState, rng } from './random-model.js';

describe('ABA == CRBA^-1 (tau - RNEA bias) on random trees', () => {
  it('agrees to 1e-9 relative on 200 random trees of 1 to 40 links with every joint type', () => {
    const r = rng(12345);
    let worst = 0;
    const typesSeen = new Set<number>();
    for (let trial = 0; trial < 200; trial++) {
      const links = 1 + Math.floor(r() * 40);
      const model = randomModel(r, { links });
      model.jointType.forEach((t) => typesSeen.add(t));
      const state = randomState(r, model);
      const nv = model.nv;
      const qdd = forwardDynamics(model, state, new Float64Array(nv));
      const M = massMatrix(model, state, new Float64Array(nv * nv));
      const bias = inverseDynamics(model, state, new Float64Array(nv), new Float64Array(nv)); // C(q,qd) - passive - external
      const rhs = new Float64Array(nv);
      for (let d = 0; d < nv; d++) rhs[d] = state.tau[d] - bias[d];
      const expected = solveDense(M, rhs, nv);
      const err = relErr(qdd, expected);
      worst = Math.max(worst, err);
      expect(err, `trial ${trial}: ${links} links`).toBeLessThan(1e-9);
    }
    expect(typesSeen.size).toBe(5);
    console.log(`ABA vs CRBA+RNEA: worst relative error ${worst.toExponential(2)} over 200 trees`);
  });

  it('implicit damping (State.implicitDampingStep = h): ABA == (M + h diag(damping))^-1 (tau - RNEA bias) on 200 random trees', () => {
    // the damping force at the end of a semi-implicit Euler step, -damping (qd + h qdd), moved to
    // the left: (M + h diag(damping)) qdd = tau - C - damping qd. RNEA's bias holds -(-damping qd).
    const r = rng(4242);
    let damped = 0;
    for (let trial = 0; trial < 200; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 40) });
      const state = randomState(r, model);
      const nv = model.nv, h = 0.5 * r();
      for (let d = 0; d < nv; d++) if (model.damping[d] > 0) damped++;
      const bias = inverseDynamics(model, state, new Float64Array(nv), new Float64Array(nv));
      const M = massMatrix(model, state, new Float64Array(nv * nv));
      for (let d = 0; d < nv; d++) M[d * nv + d] += h * model.damping[d];
      const rhs = new Float64Array(nv);
      for (let d = 0; d < nv; d++) rhs[d] = state.tau[d] - bias[d];
      state.implicitDampingStep = h;
      const qdd = forwardDynamics(model, state, new Float64Array(nv));
      expect(relErr(qdd, solveDense(M, rhs, nv)), `trial ${trial}`).toBeLessThan(1e-9);
    }
    expect(damped).toBeGreaterThan(100);
  });

  it('RNEA(q, qd, ABA(tau)) == tau', () => {
    const r = rng(777);
    for (let trial = 0; trial < 200; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 40) });
      const state = randomState(r, model);
      const qdd = forwardDynamics(model, state, new Float64Array(model.nv));
      const tau = inverseDynamics(model, state, qdd, new Float64Array(model.nv));
      expect(relErr(tau, state.tau)).toBeLessThan(1e-9);
    }
  });

  it('the mass matrix is symmetric positive definite and matches RNEA columns (M e_k = RNEA(e_k) - RNEA(0) at qd = 0, g = 0)', () => {
    const r = rng(99);
    for (let trial = 0; trial < 50; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 20) });
      const state = randomState(r, model);
      state.qd.fill(0);
      state.fext.fill(0);
      state.gravity.fill(0);
      const nv = model.nv;
      const M = massMatrix(model, state, new Float64Array(nv * nv));
      const zero = inverseDynamics(model, state, new Float64Array(nv), new Float64Array(nv));
      for (let k = 0; k < nv; k++) {
        const e = new Float64Array(nv);
        e[k] = 1;
        const col = inverseDynamics(model, state, e, new Float64Array(nv));
        for (let d = 0; d < nv; d++) {
          expect(Math.abs(col[d] - zero[d] - M[d * nv + k])).toBeLessThan(1e-10 * Math.max(1, Math.abs(M[d * nv + k])));
          expect(M[d * nv + k]).toBe(M[k * nv + d]);
        }
      }
    }
  });
});
