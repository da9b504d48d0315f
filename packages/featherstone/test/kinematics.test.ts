/** Jacobians against finite differences of forward kinematics. */
import { describe, expect, it } from 'vitest';
import { forwardKinematics, integratePositions, linkJacobian, pointJacobian, pointPosition, pointVelocity, State } from '../src/index.js';
import { randomModel, randomState, rng } from './random-model.js';

function fdPoint(state: State, link: number, local: number[], dir: Float64Array, h: number): Float64Array {
  const m = state.model;
  const plus = state.clone(), minus = state.clone();
  integratePositions(m, plus.q, dir, h);
  integratePositions(m, minus.q, dir, -h);
  forwardKinematics(m, plus, false);
  forwardKinematics(m, minus, false);
  const a = new Float64Array(3), b = new Float64Array(3);
  pointPosition(plus, link, local, a);
  pointPosition(minus, link, local, b);
  return Float64Array.from([0, 1, 2].map((k) => (a[k] - b[k]) / (2 * h)));
}

describe('point and link Jacobians', () => {
  it('match central finite differences of forward kinematics (every column, 50 random trees)', () => {
    const r = rng(31);
    for (let trial = 0; trial < 50; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 12) });
      const state = randomState(r, model);
      forwardKinematics(model, state);
      const nv = model.nv;
      const link = Math.floor(r() * model.nLinks);
      const local = [r() - 0.5, r() - 0.5, r() - 0.5];
      const J = new Float64Array(3 * nv);
      pointJacobian(model, state, link, local, J);
      for (let d = 0; d < nv; d++) {
        const e = new Float64Array(nv);
        e[d] = 1;
        const fd = fdPoint(state, link, local, e, 1e-6);
        for (let k = 0; k < 3; k++) expect(Math.abs(J[k * nv + d] - fd[k])).toBeLessThan(1e-7);
      }
    }
  });

  it('J qd equals the point velocity from the spatial velocities, and the link Jacobian rows agree', () => {
    const r = rng(8);
    for (let trial = 0; trial < 50; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 12) });
      const state = randomState(r, model);
      forwardKinematics(model, state);
      const nv = model.nv;
      const link = Math.floor(r() * model.nLinks);
      const J = new Float64Array(3 * nv), JL = new Float64Array(6 * nv);
      pointJacobian(model, state, link, [0, 0, 0], J);
      linkJacobian(model, state, link, JL);
      const v = new Float64Array(3);
      pointVelocity(state, link, [0, 0, 0], v);
      for (let k = 0; k < 3; k++) {
        let s = 0;
        for (let d = 0; d < nv; d++) {
          s += J[k * nv + d] * state.qd[d];
          expect(JL[(3 + k) * nv + d]).toBeCloseTo(J[k * nv + d], 12);
        }
        expect(Math.abs(s - v[k])).toBeLessThan(1e-10 * Math.max(1, Math.abs(v[k])));
      }
    }
  });
});
