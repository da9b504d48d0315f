/** Jacobians against finite differences of forward kinematics. */
import { describe, expect, it } from 'vitest';
import { energiesInto, forwardKinematics, integratePositions, linkJacobian, pointJacobian, pointPosition, pointVelocity, State } from '../src/index.js';
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

/** Whether two arrays hold the same doubles bit for bit (Object.is: the sign of a zero counts, NaN equals NaN). */
function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) return false;
  return true;
}

/** The kinematics a state holds equal those a fresh copy computes (a fresh workspace has nothing to reuse). */
function expectFresh(state: State, withVelocities: boolean): void {
  const fresh = state.clone();
  forwardKinematics(state.model, fresh, withVelocities);
  expect(sameBits(state.work.Xup, fresh.work.Xup)).toBe(true);
  expect(sameBits(state.work.pose, fresh.work.pose)).toBe(true);
  if (withVelocities) {
    expect(sameBits(state.work.v, fresh.work.v)).toBe(true);
    expect(sameBits(state.work.c, fresh.work.c)).toBe(true);
  }
}

/** x moved by one unit in the last place (away from zero). */
function nextUp(x: number): number {
  const f = new Float64Array([x]);
  new BigInt64Array(f.buffer)[0] += 1n;
  return f[0];
}

describe('forward kinematics reuses the results of the same q and qd only', () => {
  it('recomputes after a change of one ulp in any q or qd, of a zero\'s sign, or from positions only to velocities (40 random trees)', () => {
    const r = rng(77);
    let signChanges = 0;
    for (let trial = 0; trial < 40; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 10), types: ['revolute', 'prismatic', 'spherical', 'free'] });
      const state = randomState(r, model);
      forwardKinematics(model, state, true);
      expectFresh(state, true);
      forwardKinematics(model, state, true); // (the same q and qd)
      expectFresh(state, true);
      const k = Math.floor(r() * model.nq), d = Math.floor(r() * model.nv);
      state.q[k] = nextUp(state.q[k]);
      forwardKinematics(model, state, true);
      expectFresh(state, true);
      state.qd[d] = nextUp(state.qd[d]);
      forwardKinematics(model, state, true);
      expectFresh(state, true);
      // positions only at a new q, then velocities at that q
      state.q[k] = nextUp(state.q[k]);
      forwardKinematics(model, state, false);
      expectFresh(state, false);
      forwardKinematics(model, state, true);
      expectFresh(state, true);
      // the root's joint rate at +0, then -0 (its link velocity S qd changes the sign of its zeros)
      if (model.jointType[0] !== 1 && model.jointType[0] !== 2) continue;
      const o = model.vOffset[0];
      state.qd[o] = 0;
      forwardKinematics(model, state, true);
      const before = Float64Array.from(state.work.v);
      state.qd[o] = -0;
      forwardKinematics(model, state, true);
      expectFresh(state, true);
      if (!sameBits(before, state.work.v)) signChanges++;
    }
    // (the sign case is exercised)
    expect(signChanges).toBeGreaterThan(0);
  });

  it('energiesInto gives the energies of the current kinematics and gravity after q, qd or gravity change', () => {
    const r = rng(78);
    for (let trial = 0; trial < 20; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 10) });
      const state = randomState(r, model);
      const got = new Float64Array(2), want = new Float64Array(2);
      const check = () => {
        forwardKinematics(model, state, true);
        energiesInto(model, state, got, 0);
        const fresh = state.clone();
        forwardKinematics(model, fresh, true);
        energiesInto(model, fresh, want, 0);
        expect(sameBits(got, want)).toBe(true);
      };
      check();
      check();
      state.qd[Math.floor(r() * model.nv)] += 0.5;
      check();
      state.q[Math.floor(r() * model.nq)] += 1e-3;
      check();
      state.gravity[Math.floor(r() * 3)] += 1;
      check();
    }
  });
});
