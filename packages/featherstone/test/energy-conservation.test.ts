/**
 * Energy of a frictionless, contact-free 6-link pendulum chain (revolute joints, gravity, no
 * damping) under the package's semi-implicit Euler (simulate). The method is first order, so the
 * largest energy error over a fixed time span must shrink at least linearly with the step: halving
 * dt must at least halve the drift. The energy itself comes from kineticEnergy (1/2 sum v.I v over
 * links) and potentialEnergy, which share no code with ABA.
 */
import { describe, expect, it } from 'vitest';
import { forwardKinematics, kineticEnergy, ModelBuilder, potentialEnergy, simulate, State, type Model } from '../src/index.js';

const LINKS = 6;
const LENGTH = 0.5; // m, joint to joint
const MASS = 1; // kg, a uniform rod of radius 0.02 m
const T_END = 10; // s

function chain(): Model {
  const b = new ModelBuilder();
  const axial = 0.5 * MASS * 0.02 * 0.02;
  const transverse = (MASS * LENGTH * LENGTH) / 12 + 0.25 * MASS * 0.02 * 0.02;
  for (let i = 0; i < LINKS; i++) {
    b.addLink({
      name: `link${i}`,
      parent: i === 0 ? null : `link${i - 1}`,
      joint: { type: 'revolute', axis: [0, 0, 1], position: i === 0 ? [0, 0, 0] : [LENGTH, 0, 0] },
      mass: MASS,
      com: [LENGTH / 2, 0, 0],
      inertia: [axial, transverse, transverse, 0, 0, 0],
    });
  }
  return b.build();
}

function energy(model: Model, state: State): number {
  forwardKinematics(model, state);
  return kineticEnergy(model, state) + potentialEnergy(model, state);
}

/** Largest |E(t) - E(0)| over T_END seconds, released at rest from a bent pose. */
function maxDrift(model: Model, dt: number): { drift: number; e0: number } {
  const s = new State(model);
  // links along +x; -pi/2 hangs the first link straight down, then 0.3 rad off the vertical
  s.q[0] = -Math.PI / 2 + 0.3;
  for (let i = 1; i < LINKS; i++) s.q[i] = i % 2 ? 0.09 : -0.09;
  const e0 = energy(model, s);
  const steps = Math.round(T_END / dt);
  let drift = 0;
  for (let k = 0; k < steps; k++) {
    simulate(model, s, dt);
    drift = Math.max(drift, Math.abs(energy(model, s) - e0));
  }
  return { drift, e0 };
}

describe('energy of a frictionless 6-link pendulum chain', () => {
  it('drifts less with every halving of dt, at least linearly (first-order semi-implicit Euler)', () => {
    const model = chain();
    const base = 2e-3;
    const rows: { dt: number; drift: number; ratio: number }[] = [];
    let e0 = 0;
    for (let h = 0; h < 4; h++) {
      const dt = base / 2 ** h;
      const res = maxDrift(model, dt);
      e0 = res.e0;
      rows.push({ dt, drift: res.drift, ratio: h === 0 ? NaN : rows[h - 1].drift / res.drift });
    }
    // a swing of the chain moves about m g h ~ 6 kg * 9.81 m/s^2 * 0.25 m of energy between kinetic and potential
    const swing = LINKS * MASS * 9.81 * 0.25;
    console.log(
      `6-link chain, ${T_END} s, E(0) = ${e0.toFixed(4)} J; largest |E(t) - E(0)|:\n` +
        '| dt (s)     | drift (J)  | drift / swing energy | drift(2 dt) / drift(dt) |\n' +
        '| ---------- | ---------- | -------------------- | ----------------------- |\n' +
        rows
          .map((r) => `| ${r.dt.toExponential(3).padEnd(10)} | ${r.drift.toExponential(3).padEnd(10)} | ${(r.drift / swing).toExponential(3).padEnd(20)} | ${(Number.isNaN(r.ratio) ? '-' : r.ratio.toFixed(3)).padEnd(23)} |`)
          .join('\n'),
    );
    for (let h = 1; h < rows.length; h++) expect(rows[h].ratio).toBeGreaterThanOrEqual(2);
    // and the stated bound: below 0.1 % of the swing energy at dt = 0.25 ms
    expect(rows[3].drift / swing).toBeLessThan(1e-3);
  });
});
