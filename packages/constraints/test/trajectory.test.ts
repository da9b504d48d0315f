/**
 * Trajectory following (Kokkevis 8.3) with settle-time gains: a whole arm under gravity asked to
 * step its elbow. The critically damped gains reach 90% of the step at ts without overshoot; the
 * paper's rule (Kp = 1/ts^2, Kd = sqrt(2)/ts) is underdamped (zeta = 0.707) and covers only about
 * 30% by ts: analytically 1 - e^(-0.707)(cos 0.707 + sin 0.707) = 0.305.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '@sinew/featherstone';
import { CRITICAL_SETTLE_FACTOR, TrajectoryFollower, VelocityMotor, World, gainsFromSettleTime } from '../src/index.js';

function arm() {
  const b = new ModelBuilder();
  b.addLink({ name: 'shoulder', parent: null, joint: { type: 'spherical' }, mass: 2, com: [0.15, 0, 0], inertia: [0.002, 0.015, 0.015, 0, 0, 0] });
  b.addLink({ name: 'elbow', parent: 'shoulder', joint: { type: 'revolute', axis: [0, 0, 1], position: [0.3, 0, 0] }, mass: 1.2, com: [0.13, 0, 0], inertia: [0.001, 0.007, 0.007, 0, 0, 0] });
  b.addLink({ name: 'wrist', parent: 'elbow', joint: { type: 'revolute', axis: [0, 0, 1], position: [0.26, 0, 0] }, mass: 0.4, com: [0.05, 0, 0], inertia: [0.0003, 0.0005, 0.0005, 0, 0, 0] });
  return b.build();
}

function stepResponse(ts: number, rule: 'critical' | 'kokkevis') {
  const world = new World();
  const body = world.addBody(arm());
  const drive = world.addConstraint(new TrajectoryFollower(body, { settleTime: ts, rule }));
  const elbow = body.model.joint('elbow');
  const target = 1.0;
  drive.targetQ[elbow.q] = target;
  const h = 1 / 2000;
  let atTs = NaN, peak = -Infinity;
  const steps = Math.round((3 * ts) / h);
  for (let s = 1; s <= steps; s++) {
    world.step(h);
    const q = body.state.q[elbow.q];
    peak = Math.max(peak, q);
    if (s === Math.round(ts / h)) atTs = q;
  }
  return { atTs, peak, shoulder: Array.from(body.state.q.slice(0, 4)) };
}

describe('trajectory following', () => {
  it('derives critically damped gains: (1 + w ts) e^(-w ts) = 0.1, Kp = w^2, Kd = 2w', () => {
    const x = CRITICAL_SETTLE_FACTOR;
    expect(Math.abs((1 + x) * Math.exp(-x) - 0.1)).toBeLessThan(1e-12);
    const { kp, kd } = gainsFromSettleTime(0.2);
    expect(kd * kd).toBeCloseTo(4 * kp, 9); // damping ratio 1
    const p = gainsFromSettleTime(0.2, 'kokkevis');
    expect(p.kd / (2 * Math.sqrt(p.kp))).toBeCloseTo(Math.SQRT1_2, 12); // the paper's rule: zeta = 0.707
  });

  for (const ts of [0.05, 0.1, 0.3]) {
    it(`reaches within 10% of an elbow step by ts = ${ts} s on an arm under gravity, without overshoot`, () => {
      const r = stepResponse(ts, 'critical');
      expect(1 - r.atTs).toBeLessThanOrEqual(0.1 + 2e-3);
      expect(1 - r.atTs).toBeGreaterThan(0.09); // and not faster than promised: the response is the designed one
      expect(r.peak).toBeLessThanOrEqual(1 + 1e-6);
      // the rest of the arm held its pose against gravity
      expect(Math.abs(r.shoulder[3] - 1)).toBeLessThan(1e-6);
    });
  }

  it("the paper's rule covers only about 30% of the step by ts", () => {
    const r = stepResponse(0.1, 'kokkevis');
    const analytic = 1 - Math.exp(-Math.SQRT1_2) * (Math.cos(Math.SQRT1_2) + Math.sin(Math.SQRT1_2));
    expect(Math.abs(r.atTs - analytic)).toBeLessThan(0.01);
    expect(r.atTs).toBeLessThan(0.35);
    console.log(`elbow at ts = 0.1 s: paper's gains ${(100 * r.atTs).toFixed(1)}% (analytic ${(100 * analytic).toFixed(1)}%), critical ${(100 * stepResponse(0.1, 'critical').atTs).toFixed(1)}%`);
  });

  it('a maximum torque bounds the drive (a weak muscle cannot hold the arm up)', () => {
    const world = new World();
    const body = world.addBody(arm());
    const drive = world.addConstraint(new TrajectoryFollower(body, { settleTime: 0.1, maxTorque: 0.5 }));
    for (let s = 0; s < 200; s++) world.step(1 / 400);
    const rows = world.rows;
    let worst = 0;
    for (let j = 0; j < rows.count; j++) worst = Math.max(worst, Math.abs(rows.force[j]));
    expect(worst).toBeLessThanOrEqual(0.5 + 1e-12);
    // gravity torque at the shoulder is about 2*9.81*0.15 + 1.2*9.81*0.43 + ... >> 0.5 N m: the arm sags
    expect(Math.abs(body.state.q[3] - 1)).toBeGreaterThan(1e-3);
    void drive;
  });

  it('a velocity motor reaches its target speed and never exceeds its torque', () => {
    const b = new ModelBuilder();
    b.addLink({ name: 'wheel', parent: null, joint: { type: 'revolute', axis: [0, 0, 1] }, mass: 2, inertia: [0.1, 0.1, 0.2, 0, 0, 0] });
    const world = new World({ gravity: [0, 0, 0] });
    const body = world.addBody(b.build());
    world.addConstraint(new VelocityMotor(0, 0, 5, 1));
    // I dw/dt = 1 N m -> w = 5 rad/s after 1 s (I = 0.2)
    for (let s = 0; s < 60; s++) world.step(1 / 120);
    expect(body.state.qd[0]).toBeCloseTo((1 / 0.2) * (60 / 120), 9);
    for (let s = 0; s < 120; s++) world.step(1 / 120);
    expect(body.state.qd[0]).toBeCloseTo(5, 9);
  });
});
