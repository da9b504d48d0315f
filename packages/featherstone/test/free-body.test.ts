/**
 * A single rigid body on a free joint, against the laws of rigid-body motion:
 *  - with no gravity and no forces its spatial momentum (angular about the world origin, and
 *    linear) is constant;
 *  - spun about its intermediate principal axis it tumbles (the Dzhanibekov effect: the angular
 *    velocity about that axis reverses), about the major or the minor axis it spins stably
 *    (Euler's equations linearised about a steady spin: growth rate
 *    w0 sqrt((I1 - I2)(I2 - I3) / (I1 I3)), real only for the intermediate axis I2);
 *  - with gravity only, its centre of mass accelerates at exactly g whatever its spin, and its
 *    linear momentum grows as m g t.
 * Momentum comes from energy.ts (sum of I v over links, carried to world coordinates), the centre
 * of mass acceleration from kinematics.ts (pointAcceleration); neither shares code with ABA beyond
 * the link velocities of forward kinematics. The conservation tests integrate with RK4
 * (reference-integrator.ts) so that the integrator's error is far below the bound.
 */
import { describe, expect, it } from 'vitest';
import {
  forwardDynamics,
  forwardKinematics,
  integrateSemiImplicit,
  kineticEnergy,
  ModelBuilder,
  momentum,
  pointAcceleration,
  simulate,
  State,
  type Model,
} from '../src/index.js';
import { Rk4 } from './reference-integrator.js';
import { randomInertia, rng, unitQuat } from './random-model.js';

/** Box of mass m and edges (ex, ey, ez) along the link axes, centre of mass at `com` in the link frame. */
function box(m: number, ex: number, ey: number, ez: number, com: [number, number, number], gravity: [number, number, number]): Model {
  const b = new ModelBuilder({ gravity });
  b.addLink({
    name: 'box',
    parent: null,
    joint: { type: 'free' },
    mass: m,
    com,
    inertia: [(m * (ey * ey + ez * ez)) / 12, (m * (ex * ex + ez * ez)) / 12, (m * (ex * ex + ey * ey)) / 12, 0, 0, 0],
  });
  return b.build();
}

const norm = (a: ArrayLike<number>, o: number) => Math.hypot(a[o], a[o + 1], a[o + 2]);

describe('torque-free rigid body', () => {
  // Ixx > Iyy > Izz: x is the major axis, y the intermediate, z the minor.
  const EDGES = [0.1, 0.4, 0.8] as const;

  it('keeps its world angular and linear momentum to 1e-6 relative over 60 s (RK4, dt = 1 ms)', () => {
    const model = box(3, ...EDGES, [0.2, -0.1, 0.3], [0, 0, 0]);
    const s = new State(model);
    s.q.set([0.5, -1, 2], 0);
    s.q.set(unitQuat(rng(3)), 3);
    s.qd.set([1.3, -2.1, 0.7, 0.4, 0.2, -0.5]);
    forwardKinematics(model, s);
    const h0 = momentum(model, s, new Float64Array(6));
    const h = new Float64Array(6);
    const rk = new Rk4(model);
    let worstL = 0, worstP = 0;
    const dt = 1e-3;
    for (let k = 0; k < 60_000; k++) {
      rk.step(s, dt);
      if (k % 100 !== 99) continue;
      forwardKinematics(model, s);
      momentum(model, s, h);
      worstL = Math.max(worstL, Math.hypot(h[0] - h0[0], h[1] - h0[1], h[2] - h0[2]) / norm(h0, 0));
      worstP = Math.max(worstP, Math.hypot(h[3] - h0[3], h[4] - h0[4], h[5] - h0[5]) / norm(h0, 3));
    }
    console.log(`torque-free box, 60 s: largest relative change of angular momentum ${worstL.toExponential(2)}, of linear momentum ${worstP.toExponential(2)}`);
    expect(worstL).toBeLessThan(1e-6);
    expect(worstP).toBeLessThan(1e-6);
    // the body did tumble: its angular velocity in the link frame is far from where it started
    expect(Math.hypot(s.qd[0] - 1.3, s.qd[1] + 2.1, s.qd[2] - 0.7)).toBeGreaterThan(0.1);
  });

  it('semi-implicit Euler without the momentum correction: the angular momentum error shrinks linearly with dt', () => {
    const model = box(3, ...EDGES, [0, 0, 0], [0, 0, 0]);
    const errs: number[] = [];
    for (const dt of [4e-4, 2e-4, 1e-4]) {
      const s = new State(model);
      s.qd.set([1.3, -2.1, 0.7, 0, 0, 0]);
      forwardKinematics(model, s);
      const h0 = momentum(model, s, new Float64Array(6)), h = new Float64Array(6);
      const steps = Math.round(5 / dt);
      let worst = 0;
      for (let k = 0; k < steps; k++) {
        integrateSemiImplicit(model, s, forwardDynamics(model, s), dt, false);
        forwardKinematics(model, s);
        momentum(model, s, h);
        worst = Math.max(worst, Math.hypot(h[0] - h0[0], h[1] - h0[1], h[2] - h0[2]) / norm(h0, 0));
      }
      errs.push(worst);
    }
    console.log(`semi-implicit Euler without momentum correction, 5 s: angular momentum error ${errs.map((e) => e.toExponential(2)).join(', ')} at dt = 0.4, 0.2, 0.1 ms`);
    expect(errs[0] / errs[1]).toBeGreaterThan(1.9);
    expect(errs[1] / errs[2]).toBeGreaterThan(1.9);
  });

  it('simulate at 60 Hz, spun at 20 rad/s near the intermediate axis: angular momentum about the centre of mass kept to 1e-9, energy under the ceiling |L|^2 / (2 I_min), and it still flips', () => {
    // Explicit gyroscopic terms (w x I w at the step's start) add energy every step: at w h = 0.33
    // the same box without the momentum correction reaches NaN within 10 s. simulate restores
    // the body's momentum after each step, so |L| is exact and the energy, 1/2 L^T (R I R^T)^-1 L,
    // can never pass |L|^2 / (2 I_min), the energy of a spin about the minor axis with the same L.
    const edges = EDGES, m = 2, com: [number, number, number] = [0.05, -0.02, 0.1];
    const model = box(m, ...edges, com, [0, 0, 0]);
    const iMin = (m * (edges[0] * edges[0] + edges[1] * edges[1])) / 12; // about z, the minor axis
    const run = (preserve: boolean) => {
      const s = new State(model);
      s.qd.set([0.02, 20, 0.02, 0.3, -0.1, 0.2]);
      forwardKinematics(model, s, true);
      const h0 = momentum(model, s, new Float64Array(6)), h = new Float64Array(6);
      const E0 = kineticEnergy(model, s);
      // energy of the motion of the centre of mass, and the ceiling of the rotational part
      const pm = norm(h0, 3), Etrans = (pm * pm) / (2 * m);
      // angular momentum about the centre of mass at the start (the origin is the link frame's, the
      // centre of mass at R com + p)
      const c0 = [com[0], com[1], com[2]];
      const Lc0 = [h0[0] - (c0[1] * h0[5] - c0[2] * h0[4]), h0[1] - (c0[2] * h0[3] - c0[0] * h0[5]), h0[2] - (c0[0] * h0[4] - c0[1] * h0[3])];
      let worstL = 0, maxE = E0, minE = E0, minW = Infinity, ceiling = 0;
      for (let k = 0; k < 600; k++) {
        integrateSemiImplicit(model, s, forwardDynamics(model, s), 1 / 60, preserve);
        forwardKinematics(model, s, true);
        momentum(model, s, h);
        const E = kineticEnergy(model, s);
        maxE = Math.max(maxE, E); minE = Math.min(minE, E);
        minW = Math.min(minW, s.qd[1]);
        // |L about the centre of mass|^2 / (2 I_min) + the translational energy
        const P = s.work.pose;
        const cx = P[0] * com[0] + P[1] * com[1] + P[2] * com[2] + P[9], cy = P[3] * com[0] + P[4] * com[1] + P[5] * com[2] + P[10], cz = P[6] * com[0] + P[7] * com[1] + P[8] * com[2] + P[11];
        const Lx = h[0] - (cy * h[5] - cz * h[4]), Ly = h[1] - (cz * h[3] - cx * h[5]), Lz = h[2] - (cx * h[4] - cy * h[3]);
        worstL = Math.max(worstL, Math.hypot(Lx - Lc0[0], Ly - Lc0[1], Lz - Lc0[2]) / Math.hypot(Lc0[0], Lc0[1], Lc0[2]));
        ceiling = (Lx * Lx + Ly * Ly + Lz * Lz) / (2 * iMin) + Etrans;
        if (!(E <= ceiling * (1 + 1e-9))) return { worstL, maxE: E / E0, minE: minE / E0, minW, overCeiling: true };
      }
      return { worstL, maxE: maxE / E0, minE: minE / E0, minW, overCeiling: false, ceiling: ceiling / E0 };
    };
    const kept = run(true), raw = run(false);
    console.log(`box at 20 rad/s, 10 s at 60 Hz: with the momentum correction |dL|/|L| ${kept.worstL.toExponential(2)}, E/E0 from ${kept.minE.toFixed(3)} to ${kept.maxE.toFixed(3)} (ceiling ${kept.ceiling?.toFixed(2)}), lowest w_y ${kept.minW.toFixed(1)} rad/s; without it E/E0 reached ${raw.maxE} (${raw.overCeiling ? 'above the ceiling' : 'below the ceiling'})`);
    expect(kept.worstL).toBeLessThan(1e-9);
    expect(kept.overCeiling).toBe(false);
    expect(kept.minW).toBeLessThan(-5); // the intermediate-axis spin reverses
    expect(raw.overCeiling).toBe(true); // the uncorrected integrator passes the ceiling (and diverges)
  });

  function spin(axis: number, seconds: number): { min: number; max: number } {
    const model = box(2, ...EDGES, [0, 0, 0], [0, 0, 0]);
    const s = new State(model);
    const w0 = 5;
    const w = [1e-3, 1e-3, 1e-3];
    w[axis] = w0;
    s.qd.set([w[0], w[1], w[2], 0, 0, 0]);
    const rk = new Rk4(model);
    let min = Infinity, max = -Infinity;
    for (let k = 0; k < seconds / 1e-3; k++) {
      rk.step(s, 1e-3);
      min = Math.min(min, s.qd[axis] / w0);
      max = Math.max(max, s.qd[axis] / w0);
    }
    return { min, max };
  }

  it('spun about its intermediate axis it flips (Dzhanibekov effect)', () => {
    const { min } = spin(1, 10);
    // growth rate 5 sqrt((0.8 - 0.65)(0.65 - 0.17) / (0.8 * 0.17)) ~ 3.6 /s: a flip within about 3 s
    expect(min).toBeLessThan(-0.9);
  });

  it('spun about its major or its minor axis it stays stable', () => {
    for (const axis of [0, 2]) {
      const { min, max } = spin(axis, 10);
      expect(min).toBeGreaterThan(0.999);
      expect(max).toBeLessThan(1.001);
    }
  });
});

describe('free body under gravity', () => {
  it('its centre of mass accelerates at exactly g, whatever its pose, spin and velocity (50 random bodies)', () => {
    const r = rng(77);
    const g: [number, number, number] = [0.3, -9.81, 0.2];
    const acc = new Float64Array(3);
    for (let trial = 0; trial < 50; trial++) {
      const m = 0.5 + 5 * r();
      const com: [number, number, number] = [r() - 0.5, r() - 0.5, r() - 0.5];
      const b = new ModelBuilder({ gravity: g });
      b.addLink({ name: 'body', parent: null, joint: { type: 'free', position: [r(), r(), r()], rotation: unitQuat(r) }, mass: m, com, inertia: randomInertia(r, m) });
      const model = b.build();
      const s = new State(model);
      s.q.set([r() - 0.5, r() - 0.5, r() - 0.5], 0);
      s.q.set(unitQuat(r), 3);
      for (let d = 0; d < 6; d++) s.qd[d] = 6 * r() - 3;
      forwardDynamics(model, s);
      pointAcceleration(s, 0, com, acc);
      for (let k = 0; k < 3; k++) expect(Math.abs(acc[k] - g[k])).toBeLessThan(1e-12 * Math.hypot(...g));
    }
  });

  it('its linear momentum grows as m g t (spinning body, RK4; translating body, semi-implicit Euler)', () => {
    const m = 2.5, g: [number, number, number] = [0, -9.81, 0];
    const model = box(m, 0.2, 0.3, 0.5, [0.1, 0.05, -0.2], g);
    const h = new Float64Array(6);
    for (const spinning of [true, false]) {
      const s = new State(model);
      s.q.set(unitQuat(rng(11)), 3);
      s.qd.set(spinning ? [2, -1, 3, 0.5, 1, -0.2] : [0, 0, 0, 0.5, 1, -0.2]);
      forwardKinematics(model, s);
      const p0 = momentum(model, s, new Float64Array(6)).slice(3);
      const rk = new Rk4(model);
      const dt = 1e-3;
      for (let k = 1; k <= 3000; k++) {
        if (spinning) rk.step(s, dt);
        else simulate(model, s, dt);
        if (k % 250 !== 0) continue;
        const t = k * dt;
        forwardKinematics(model, s);
        momentum(model, s, h);
        for (let a = 0; a < 3; a++) expect(Math.abs(h[3 + a] - (p0[a] + m * g[a] * t))).toBeLessThan((spinning ? 1e-9 : 1e-12) * m * 9.81 * t);
      }
    }
  });
});

describe('semi-implicit Euler on a spinning free body', () => {
  it('keeps the world velocity of a spinning sphere exactly (Euler on v_dot = -w x v would grow |v| by sqrt(1 + (w h)^2) a step)', () => {
    const b = new ModelBuilder({ gravity: [0, 0, 0] });
    const m = 2, r = 0.1, I = 0.4 * m * r * r;
    b.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0] });
    const model = b.build();
    const state = new State(model);
    const w = [3, -2, 5], u = [1, 2, 3];
    state.qd.set([...w, ...u]); // identity orientation: link frame = world
    const h = 1 / 60;
    for (let k = 0; k < 600; k++) simulate(model, state, h);
    forwardKinematics(model, state, true);
    // world velocity of the origin R v, and the spin, after 10 s of spinning at 6.2 rad/s
    const P = state.work.pose, v = state.qd;
    for (let i = 0; i < 3; i++) {
      const world = P[3 * i] * v[3] + P[3 * i + 1] * v[4] + P[3 * i + 2] * v[5];
      expect(Math.abs(world - u[i])).toBeLessThan(1e-9);
      // (round-off of the momentum restoration, a 6 x 6 solve at the world origin, 37 m away at the end)
      expect(Math.abs(v[i] - w[i])).toBeLessThan(1e-9);
    }
    // (the tangent step would have grown |v| by (1 + (6.2 h)^2)^300 = 23 times over the same run)
  });

  it('flies in a straight line: a sphere spun at 48 rad/s and thrown at 2.4 m/s is where v t puts it, to 1e-12 m, after 1 s at 60 Hz (and under gravity where symplectic Euler puts it)', () => {
    // the position moves by the world velocity at the end of the step; taking the orientation at
    // the step's midpoint instead turned the flight 0.4 rad off its line (half the turn of a step)
    for (const g of [0, -9.81]) {
      const b = new ModelBuilder({ gravity: [0, g, 0] });
      const m = 1, r = 0.05, I = 0.4 * m * r * r;
      b.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0] });
      const model = b.build();
      const state = new State(model);
      state.qd.set([0, 0, -48, 2.4, 0, 0]);
      const h = 1 / 60, n = 60;
      for (let k = 0; k < n; k++) simulate(model, state, h);
      // semi-implicit Euler on y'' = g: y_n = g h^2 n (n + 1) / 2
      expect(Math.abs(state.q[0] - 2.4 * n * h)).toBeLessThan(1e-12);
      expect(Math.abs(state.q[1] - (g * h * h * n * (n + 1)) / 2)).toBeLessThan(1e-12);
      expect(Math.abs(state.q[2])).toBeLessThan(1e-12);
    }
  });

  it('spun up by a torque while pushed by a force: its world velocity is u0 + n h F / m and its position the sum of h u, to 1e-12, at 60 Hz, by the integration rule alone (the turn of the frame taken at the new angular velocity)', () => {
    // a sphere's centre accelerates at F / m and its spin at tau / I, independently; semi-implicit
    // Euler in the world frame gives u_n = u_(n-1) + h F / m and x_n = x_(n-1) + h u_n. Turning the
    // velocity by the step's starting spin while the body turns by the new one tilts u by h^2 w_dot
    // a step (here 0.07 rad a step)
    const b = new ModelBuilder({ gravity: [0, 0, 0] });
    const m = 2, r = 0.1, I = 0.4 * m * r * r;
    b.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0] });
    const model = b.build();
    const state = new State(model);
    const F = [3, -1, 2], tau = [0.1, 0.2, -0.15], h = 1 / 60;
    const u = [0.5, 0, -0.3], x = [0, 0, 0];
    state.qd.set([0, 0, 0, ...u]);
    for (let k = 0; k < 60; k++) {
      // a world force through the centre (the moment about the world origin is c x F) and a couple
      const c = [state.q[0], state.q[1], state.q[2]];
      state.fext.set([tau[0] + c[1] * F[2] - c[2] * F[1], tau[1] + c[2] * F[0] - c[0] * F[2], tau[2] + c[0] * F[1] - c[1] * F[0], ...F]);
      // the integration rule alone: without the momentum restoration, which would hide its error
      integrateSemiImplicit(model, state, forwardDynamics(model, state), h, false);
      for (let e = 0; e < 3; e++) { u[e] += (h * F[e]) / m; x[e] += h * u[e]; }
    }
    forwardKinematics(model, state, true);
    const q = state.q, qd = state.qd, R = state.work.pose;
    for (let e = 0; e < 3; e++) {
      const ue = R[3 * e] * qd[3] + R[3 * e + 1] * qd[4] + R[3 * e + 2] * qd[5];
      const we = R[3 * e] * qd[0] + R[3 * e + 1] * qd[1] + R[3 * e + 2] * qd[2];
      expect(Math.abs(ue - u[e]), `world velocity ${e}`).toBeLessThan(1e-12);
      expect(Math.abs(q[e] - x[e]), `position ${e}`).toBeLessThan(1e-12);
      expect(Math.abs(we - (60 * h * tau[e]) / I), `world spin ${e}`).toBeLessThan(1e-9);
    }
  });
});
