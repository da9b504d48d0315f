/**
 * Joint limits: a rod pendulum released horizontal swings into its lower stop. Analytic answers:
 * energy conservation gives the speed at the stop, and with restitution e the rebound rises to the
 * height where the kinetic energy left, e^2 of the impact's, is spent.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, State } from '@sinew/featherstone';
import { RowTag, World } from '../src/index.js';
import { rodChain } from './chain-fixture.js';

const LOWER = -0.5;

function pendulum(e: number, stabilization: 'post' | 'baumgarte' | 'none' = 'post') {
  const model = rodChain({ links: 1, length: 1, mass: 1, limits: { lower: LOWER, upper: 3 } });
  const world = new World({ limits: { restitution: e }, stabilization });
  const body = world.addBody(model);
  return { world, body };
}

describe('joint limits', () => {
  it('stop a pendulum at the limit with e = 0: overshoot below 1e-3 rad, no pull, rest at the stop', () => {
    const { world, body } = pendulum(0);
    let minQ = 0;
    let minForce = Infinity;
    for (let s = 0; s < 480; s++) {
      world.step(1 / 240);
      minQ = Math.min(minQ, body.state.q[0]);
      const rows = world.rows;
      for (let j = 0; j < rows.count; j++) if (rows.tag[j] === RowTag.Limit) minForce = Math.min(minForce, rows.force[j]);
    }
    expect(LOWER - minQ).toBeLessThan(1e-3);
    expect(minForce).toBeGreaterThanOrEqual(0); // a stop pushes, it never pulls the joint into itself
    expect(Math.abs(body.state.q[0] - LOWER)).toBeLessThan(1e-3);
    expect(Math.abs(body.state.qd[0])).toBeLessThan(1e-6);
  });

  it('rebound with e = 0.5 to the height energy conservation predicts (within 1%), and the impact reverses the speed by e', () => {
    const { world, body } = pendulum(0.5);
    // speed at the stop from energy: I w^2 / 2 = m g (L/2) sin(0.5)
    const m = 1, L = 1, w = 0.1, g = 9.81;
    const I = (m * (L * L + w * w)) / 12 + m * (L / 2) ** 2;
    const vStop = Math.sqrt((2 * m * g * (L / 2) * Math.sin(-LOWER)) / I);
    let peak = -Infinity, bounced = false, minQ = 0;
    let vBefore = 0, vAfterImpulse = 0;
    for (let s = 0; s < 2400 && !(bounced && body.state.qd[0] < 0); s++) {
      const v0 = body.state.qd[0];
      world.step(1 / 2400);
      minQ = Math.min(minQ, body.state.q[0]);
      if (!bounced && world.stats.impacts > 0) {
        bounced = true;
        vBefore = v0;
        vAfterImpulse = body.state.qd[0];
      }
      if (bounced) peak = Math.max(peak, body.state.q[0]);
    }
    expect(bounced).toBe(true);
    // the approach speed seen by the impact is the analytic speed at the stop
    expect(Math.abs(-vBefore - vStop) / vStop).toBeLessThan(0.01);
    // the rebound height: the kinetic energy after the impact is e^2 that before it
    const predictedPeak = Math.asin(Math.sin(LOWER) * (1 - 0.25));
    expect(Math.abs(peak - predictedPeak) / Math.abs(predictedPeak - LOWER)).toBeLessThan(0.01);
    expect(vAfterImpulse).toBeGreaterThan(0);
    expect(LOWER - minQ).toBeLessThan(1e-3);
  });

  it('hold a spherical joint inside its swing cone and twist range', () => {
    const b = new ModelBuilder();
    b.addLink({
      name: 'arm', parent: null,
      joint: { type: 'spherical', limits: { twistAxis: [0, -1, 0], swing: [0.6, 0.3], twist: [-0.2, 0.2] } },
      mass: 1, com: [0, -0.3, 0], inertia: [0.03, 0.002, 0.03, 0, 0, 0],
    });
    const model = b.build();
    const world = new World();
    const body = world.addBody(model);
    // spin it hard about x and about the bone: gravity and the kick push both limits
    body.state.qd.set([4, 3, 2]);
    let worstSwing = 0, worstTwist = 0;
    for (let s = 0; s < 600; s++) {
      world.step(1 / 240);
      const [x, y, z, w] = body.state.q;
      // bone axis in the joint frame: R_Q (0,-1,0); swing angle from (0,-1,0)
      const by = -(1 - 2 * (x * x + z * z));
      const bx = -2 * (x * y - w * z), bz = -2 * (y * z + w * x);
      const theta = Math.acos(Math.min(1, -by));
      // elliptical cone: swing about x limited by 0.6, about z by 0.3 (axes u = x, v = a x u)
      const n = [-bz, 0, bx].map((c) => c / Math.max(1e-12, Math.hypot(bx, bz))); // a x b with a = (0,-1,0)
      const cone = 1 / Math.sqrt((n[0] / 0.6) ** 2 + (n[2] / 0.3) ** 2);
      worstSwing = Math.max(worstSwing, theta - cone);
      const psi = 2 * Math.atan2(-y, w);
      worstTwist = Math.max(worstTwist, Math.abs(psi) - 0.2);
    }
    expect(worstSwing).toBeLessThan(2e-3);
    expect(worstTwist).toBeLessThan(2e-3);
    void State;
  });
});
