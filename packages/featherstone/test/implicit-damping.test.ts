/**
 * Joint damping taken implicitly (State.implicitDampingStep, set by simulate): a damped rotor
 * I qdd = -d qd, stepped by semi-implicit Euler with the damping force at the end of the step,
 * decays as qd_n = qd_0 / (1 + h d / I)^n (backward Euler) for any h d / I, where the explicit
 * force -d qd_n gives qd_n = qd_0 (1 - h d / I)^n and grows without bound once h d / I > 2.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardDynamics, integrateSemiImplicit, setJointDampingTimeConstant, simulate, State } from '../src/index.js';

function rotor(I: number, d: number) {
  const b = new ModelBuilder({ gravity: [0, 0, 0] });
  b.addLink({ name: 'rotor', parent: null, joint: { type: 'revolute', axis: [0, 0, 1], damping: d }, mass: 1, inertia: [I, I, I, 0, 0, 0] });
  return b.build();
}

describe('implicit joint damping', () => {
  for (const ratio of [0.1, 2.5, 100]) {
    it(`h d / I = ${ratio}: qd_n = qd_0 / (1 + h d / I)^n to 1e-12 relative`, () => {
      const I = 0.02, h = 1 / 60, d = (ratio * I) / h;
      const model = rotor(I, d);
      const s = new State(model);
      s.qd[0] = 3;
      for (let n = 1; n <= 20; n++) {
        simulate(model, s, h);
        const expected = 3 / Math.pow(1 + ratio, n);
        expect(Math.abs(s.qd[0] - expected)).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
      }
    });
  }

  it('the explicit force (implicitDampingStep = 0) follows qd_0 (1 - h d / I)^n: at h d / I = 2.5 it grows', () => {
    const I = 0.02, h = 1 / 60, d = (2.5 * I) / h;
    const model = rotor(I, d);
    const s = new State(model);
    s.qd[0] = 3;
    for (let n = 1; n <= 10; n++) {
      integrateSemiImplicit(model, s, forwardDynamics(model, s), h);
      expect(s.qd[0]).toBeCloseTo(3 * Math.pow(-1.5, n), 9);
    }
  });

  it('converges to the exact decay qd_0 exp(-d t / I) as h -> 0 (error proportional to h)', () => {
    const I = 0.05, d = 0.1, T = 1;
    const errors: number[] = [];
    for (const steps of [100, 200, 400]) {
      const model = rotor(I, d);
      const s = new State(model);
      s.qd[0] = 1;
      for (let n = 0; n < steps; n++) simulate(model, s, T / steps);
      errors.push(Math.abs(s.qd[0] - Math.exp((-d * T) / I)));
    }
    // first order: halving h halves the error (ratio 2 within 2 %)
    expect(errors[0] / errors[1]).toBeGreaterThan(1.96);
    expect(errors[0] / errors[1]).toBeLessThan(2.04);
    expect(errors[1] / errors[2]).toBeGreaterThan(1.96);
    expect(errors[1] / errors[2]).toBeLessThan(2.04);
  });

  it('refuses a negative or non-finite step with an error naming the field', () => {
    const model = rotor(0.02, 1);
    const s = new State(model);
    s.implicitDampingStep = Number.NaN;
    expect(() => forwardDynamics(model, s)).toThrow(/implicitDampingStep/);
    s.implicitDampingStep = -1;
    expect(() => forwardDynamics(model, s)).toThrow(/implicitDampingStep/);
  });
});

describe('setJointDampingTimeConstant', () => {
  it('gives each non-free dof M_kk / tau, the composite inertia about each joint over tau', () => {
    const b = new ModelBuilder({ gravity: [0, 0, 0] });
    b.addLink({ name: 'base', parent: null, joint: { type: 'free' }, mass: 5, inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
    b.addLink({ name: 'arm', parent: 'base', joint: { type: 'revolute', axis: [0, 0, 1] }, mass: 2, com: [0.3, 0, 0], inertia: [0.01, 0.01, 0.01, 0, 0, 0] });
    b.addLink({ name: 'hand', parent: 'arm', joint: { type: 'spherical', position: [0.6, 0, 0] }, mass: 0.5, com: [0.05, 0, 0], inertia: [0.001, 0.002, 0.003, 0, 0, 0] });
    const model = b.build();
    setJointDampingTimeConstant(model, 0.25);
    for (let d = 0; d < 6; d++) expect(model.damping[d]).toBe(0);
    // hinge: I_arm + m_arm 0.3^2 + the hand about the hinge, (I_zz + m r^2 with r = 0.65)
    const hinge = 0.01 + 2 * 0.09 + 0.003 + 0.5 * 0.65 * 0.65;
    expect(model.damping[6]).toBeCloseTo(hinge / 0.25, 12);
    // ball joint: the hand's inertia about its joint, per axis (I_xx, I_yy + m 0.05^2, I_zz + m 0.05^2)
    expect(model.damping[7]).toBeCloseTo(0.001 / 0.25, 12);
    expect(model.damping[8]).toBeCloseTo((0.002 + 0.5 * 0.0025) / 0.25, 12);
    expect(model.damping[9]).toBeCloseTo((0.003 + 0.5 * 0.0025) / 0.25, 12);
    expect(() => setJointDampingTimeConstant(model, 0)).toThrow(/time constant/);
  });
});
