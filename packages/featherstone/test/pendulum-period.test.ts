/**
 * The period of a pendulum measured from the zero crossings of a simulation (forwardDynamics +
 * semi-implicit Euler) against closed forms.
 *
 * The bob is a solid sphere (radius rb, inertia 2/5 m rb^2 about its centre) on a massless rod of
 * length d, so the link is a physical pendulum with I_pivot = 2/5 m rb^2 + m d^2 and
 *   small angles:     T0 = 2 pi sqrt(I_pivot / (m g d))
 *   amplitude theta0: T  = 4 sqrt(I_pivot / (m g d)) K(sin(theta0 / 2))
 * (K the complete elliptic integral of the first kind, here by the arithmetic-geometric mean:
 * K(k) = pi / (2 AGM(1, sqrt(1 - k^2)))).
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, simulate, State } from '../src/index.js';

const G = 9.81;

function pendulum(m: number, d: number, rb: number) {
  const b = new ModelBuilder({ gravity: [0, -G, 0] });
  const ic = 0.4 * m * rb * rb;
  // the link hangs along -y at q = 0 and swings about z
  b.addLink({ name: 'bob', parent: null, joint: { type: 'revolute', axis: [0, 0, 1] }, mass: m, com: [0, -d, 0], inertia: [ic, ic, ic, 0, 0, 0] });
  return { model: b.build(), iPivot: ic + m * d * d };
}

/** Mean period between the first and the last upward zero crossing of q over `periods` periods. */
function measuredPeriod(theta0: number, m: number, d: number, rb: number, dt: number, periods: number, guess: number): number {
  const { model } = pendulum(m, d, rb);
  const s = new State(model);
  s.q[0] = theta0;
  const crossings: number[] = [];
  let t = 0, prev = s.q[0];
  const steps = Math.ceil(((periods + 1.5) * guess) / dt);
  for (let k = 0; k < steps && crossings.length <= periods; k++) {
    simulate(model, s, dt);
    t += dt;
    const cur = s.q[0];
    if (prev < 0 && cur >= 0) crossings.push(t - dt * (cur / (cur - prev))); // linear interpolation
    prev = cur;
  }
  expect(crossings.length).toBe(periods + 1);
  return (crossings[periods] - crossings[0]) / periods;
}

function ellipticK(k: number): number {
  let a = 1, b = Math.sqrt(1 - k * k);
  while (Math.abs(a - b) > 1e-16 * a) [a, b] = [(a + b) / 2, Math.sqrt(a * b)];
  return Math.PI / (2 * a);
}

describe('pendulum period', () => {
  it('small-angle period of a sphere on a rod is 2 pi sqrt(I_pivot / (m g d)) within 0.5 %', () => {
    const m = 2, d = 1, rb = 0.3;
    const { iPivot } = pendulum(m, d, rb);
    const T0 = 2 * Math.PI * Math.sqrt(iPivot / (m * G * d));
    const T = measuredPeriod(0.01, m, d, rb, 1e-3, 10, T0);
    const rel = Math.abs(T - T0) / T0;
    console.log(`small-angle period: simulated ${T.toFixed(6)} s, 2 pi sqrt(I/(m g d)) = ${T0.toFixed(6)} s, relative error ${rel.toExponential(2)}`);
    expect(rel).toBeLessThan(5e-3);
    // a point mass would give 2 pi sqrt(d / g), 1.8 % shorter: the bob's own inertia is resolved
    expect(Math.abs(T - 2 * Math.PI * Math.sqrt(d / G)) / T0).toBeGreaterThan(1e-2);
  });

  it('large-amplitude period (theta0 = 2 rad) matches 4 sqrt(I/(m g d)) K(sin(theta0/2)) to 1e-6', () => {
    const m = 1.5, d = 0.8, rb = 0.15, theta0 = 2;
    const { iPivot } = pendulum(m, d, rb);
    const Texact = 4 * Math.sqrt(iPivot / (m * G * d)) * ellipticK(Math.sin(theta0 / 2));
    const T = measuredPeriod(theta0, m, d, rb, 2.5e-4, 5, Texact);
    const rel = Math.abs(T - Texact) / Texact;
    console.log(`theta0 = 2 rad: simulated ${T.toFixed(6)} s, elliptic-integral period ${Texact.toFixed(6)} s, relative error ${rel.toExponential(2)}`);
    expect(rel).toBeLessThan(1e-6);
  });
});
