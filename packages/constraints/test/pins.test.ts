/** Pins: a chain held at both ends, a rigid rod hanging from a pin, and a tree driven on every dof while a pin holds a leaf. */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardKinematics, kineticEnergy, pointPosition, potentialEnergy } from '@sinew/featherstone';
import { PointPin, TrajectoryFollower, World } from '../src/index.js';
import { ConstraintSolver, LcpProblem, checkMixedLcp, solveMixedLcpLemke } from '../src/internals.js';
import { rodChain } from './chain-fixture.js';

describe('point pins', () => {
  it('hold a 6-link chain pinned at both ends to the world within 1e-6 m for 10 s', () => {
    const model = rodChain({ links: 6, length: 0.2, mass: 0.5 });
    // 8 sub-steps of 1/960 s: semi-implicit Euler's explicit velocity-product terms make a closed
    // loop gain energy at large steps (about 0.4 J in 7 s at 1/120 s; 0.001 J at 1/1200 s)
    const world = new World({ substeps: 8 });
    const body = world.addBody(model);
    // a sagging arc: the end of the last link 0.9 m from the root, both ends fixed
    body.state.q.set([-0.6, 0.25, 0.2, 0.2, 0.25, 0.3]);
    forwardKinematics(model, body.state);
    const end = new Float64Array(3);
    pointPosition(body.state, 5, [0.2, 0, 0], end);
    const pin = world.addConstraint(new PointPin(0, 5, [0.2, 0, 0], { body: -1, link: -1, point: end }));
    const sep = new Float64Array(3);
    const e0 = kineticEnergy(model, body.state) + potentialEnergy(model, body.state);
    let worst = 0, moved = 0;
    const q0 = Float64Array.from(body.state.q);
    for (let s = 0; s < 1200; s++) {
      world.step(1 / 120);
      pin.separation(world.bodies, sep);
      worst = Math.max(worst, Math.hypot(sep[0], sep[1], sep[2]));
      moved = Math.max(moved, Math.abs(body.state.q[2] - q0[2]));
    }
    expect(worst).toBeLessThan(1e-6);
    forwardKinematics(model, body.state);
    const e1 = kineticEnergy(model, body.state) + potentialEnergy(model, body.state);
    expect(e1 - e0).toBeLessThan(0.01); // no energy gain beyond 10 mJ over 10 s
    expect(moved).toBeGreaterThan(0.05); // the loop swings: the pin is not holding a frozen chain
  });

  it('hold a single rigid rod at its end as a pendulum, with no stabilisation, within 2e-7 m for 10 s at 60 Hz, swinging at the period of a physical pendulum', () => {
    // a rigid body held by a pin turns about it by the screw of its twist, exact for a fixed pivot
    // (moved as in flight, by its world velocity, the pinned point drifts 3 mm in those 10 s)
    const m = 2, L = 0.6, w = 0.05, d = L / 2, g = 9.81;
    const Icm = (m * (L * L + w * w)) / 12, Ipivot = Icm + m * d * d;
    const b = new ModelBuilder();
    b.addLink({ name: 'rod', parent: null, joint: { type: 'free' }, mass: m, inertia: [(m * 2 * w * w) / 12, Icm, Icm, 0, 0, 0] });
    const model = b.build();
    const world = new World({ sleep: false, stabilization: 'none' });
    const body = world.addBody(model);
    // the rod along its x axis, turned to hang down and then 0.1 rad aside
    const th0 = 0.1, a = -Math.PI / 2 + th0;
    body.state.q.set([0, 0, 0, 0, 0, Math.sin(a / 2), Math.cos(a / 2)]);
    forwardKinematics(model, body.state);
    const top = new Float64Array(3);
    pointPosition(body.state, 0, [-d, 0, 0], top);
    const pin = world.addConstraint(new PointPin(0, 0, [-d, 0, 0], { body: -1, link: -1, point: top }));
    const sep = new Float64Array(3), c = new Float64Array(3);
    const hz = 60, crossings: number[] = [];
    let worst = 0, side = 0;
    for (let s = 1; s <= 10 * hz; s++) {
      world.step(1 / hz);
      pin.separation(world.bodies, sep);
      worst = Math.max(worst, Math.hypot(sep[0], sep[1], sep[2]));
      forwardKinematics(model, body.state);
      pointPosition(body.state, 0, [0, 0, 0], c);
      const now = Math.sign(c[0] - top[0]);
      if (side !== 0 && now !== side) crossings.push(s / hz);
      side = now;
    }
    expect(worst).toBeLessThan(2e-7);
    // period of a physical pendulum, 2 pi sqrt(I_pivot / (m g d)), with its first amplitude term (1 + th0^2 / 16)
    const period = (2 * (crossings[crossings.length - 1] - crossings[0])) / (crossings.length - 1);
    const analytic = 2 * Math.PI * Math.sqrt(Ipivot / (m * g * d)) * (1 + (th0 * th0) / 16);
    expect(Math.abs(period - analytic) / analytic).toBeLessThan(2e-3);
  });

  it('a 20-link tree driven on every dof with a pin on a leaf: PGS residual below 1e-8 and the same accelerations as Lemke', () => {
    const b = new ModelBuilder();
    const parents = [-1, 0, 1, 2, 3, 2, 5, 6, 2, 8, 9, 0, 11, 12, 13, 0, 15, 16, 17, 4];
    parents.forEach((p, i) => {
      b.addLink({
        name: `n${i}`, parent: p,
        joint: i === 0 ? { type: 'free' } : { type: i % 3 === 0 ? 'revolute' : 'spherical', axis: [1, 0, 0], position: [0.05 * ((i % 5) - 2), -0.2, 0.03 * (i % 3)] },
        mass: 1 + 0.1 * i, com: [0, -0.1, 0], inertia: [0.02, 0.01, 0.02, 0, 0, 0],
      });
    });
    const model = b.build();
    const world = new World({ gravity: [0, -9.81, 0], stabilization: 'none', solver: { maxIterations: 5000, tolerance: 1e-10 } });
    // K formed densely (49 rows would be solved implicitly): Lemke solves the same matrix
    world.solver.denseLimit = 100;
    const body = world.addBody(model);
    body.state.q[1] = 1.5;
    const drive = world.addConstraint(new TrajectoryFollower(body, { settleTime: 0.2, maxTorque: 40, includeRoot: true }));
    forwardKinematics(model, body.state);
    const leaf = new Float64Array(3);
    pointPosition(body.state, 19, [0, -0.1, 0], leaf);
    world.addConstraint(new PointPin(0, 19, [0, -0.1, 0], { body: -1, link: -1, point: leaf }));
    // targets away from the current pose, so drives and pin compete
    for (let d = 0; d < 3; d++) drive.targetQ[7 + d] = 0.1;
    world.step(1 / 120);
    const solver: ConstraintSolver = world.solver;
    expect(world.stats.residual).toBeLessThan(1e-8);
    const m = solver.m;
    expect(m).toBe(model.nv + 3);
    // Lemke on the same problem (the last island's K, b, bounds)
    const p = new LcpProblem(m).copyFrom(solver.lcp);
    const f = new Float64Array(m);
    const res = solveMixedLcpLemke(p, f);
    expect(res.status).toBe('solved');
    const check = checkMixedLcp(p, f, { force: 1e-6, measure: 1e-6 });
    expect(check.ok).toBe(true);
    // accelerations from both solutions: qdd = qdd0 + sum f dqdd (unique although K is singular)
    const pgsQdd = Float64Array.from(body.qdd);
    solver.forces.set(f);
    solver.combine(world.bodies, 'qdd');
    let diff = 0;
    for (let d = 0; d < model.nv; d++) diff = Math.max(diff, Math.abs(pgsQdd[d] - body.qdd[d]));
    expect(diff).toBeLessThan(1e-6 * Math.max(1, Math.max(...pgsQdd.map(Math.abs))));
  });
});
