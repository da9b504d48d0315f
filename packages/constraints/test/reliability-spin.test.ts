/**
 * Fast spins that explicit velocity-product terms used to blow up, against the laws of torque-free
 * rotation (energy and angular momentum are constant):
 *  - a box on a ball joint at its centre of mass, spun near its intermediate axis at 20 rad/s with
 *    no gravity (the World's trapezoidal gyroscopic term for ball joints);
 *  - a box thrown spinning through the air (a free body: its momentum about the centre of mass
 *    is restored after each step);
 *  - a humanoid without any joint limits dropped on the ground: its light hand, toes and tail spin
 *    freely on their joints (before, the hand went from 35 to 1300 rad/s in a fifth of a second at
 *    60 Hz and the state became non-finite 1.7 s after the drop);
 *  - the optional joint-speed cap, against the analytic speed of a hinge under a constant torque.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardKinematics, kineticEnergy, momentumAboutCenterOfMass, potentialEnergy, type Model } from '@sinew/featherstone';
import { World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';

const EDGES = [0.1, 0.4, 0.8] as const;

/** A box of mass m and edges EDGES (x major, y intermediate, z minor axis) on the given root joint. */
function box(m: number, joint: 'spherical' | 'free', gravity: [number, number, number]): Model {
  const [x, y, z] = EDGES;
  const b = new ModelBuilder({ gravity });
  b.addLink({ name: 'box', parent: null, joint: { type: joint }, mass: m, inertia: [(m * (y * y + z * z)) / 12, (m * (x * x + z * z)) / 12, (m * (x * x + y * y)) / 12, 0, 0, 0] });
  return b.build();
}

/** Momentum of the world's first body, angular part about its centre of mass. */
function aboutCom(model: Model, world: World): Float64Array {
  forwardKinematics(model, world.bodies[0].state, true);
  return momentumAboutCenterOfMass(model, world.bodies[0].state, new Float64Array(6)) as Float64Array;
}

describe('fast spins', () => {
  it('a box on a ball joint spun at 20 rad/s near its intermediate axis (no gravity): energy within 3 % for 60 s at 60 Hz, and it tumbles', () => {
    const model = box(2, 'spherical', [0, 0, 0]);
    const world = new World({ gravity: [0, 0, 0], sleep: false });
    const body = world.addBody(model);
    body.state.qd.set([0.02, 20, 0.02]);
    forwardKinematics(model, body.state, true);
    const E0 = kineticEnergy(model, body.state);
    let lo = 1, hi = 1, minW = Infinity;
    for (let s = 0; s < 3600; s++) {
      expect(world.step(1 / 60).error).toBe('');
      forwardKinematics(model, body.state, true);
      const e = kineticEnergy(model, body.state) / E0;
      lo = Math.min(lo, e); hi = Math.max(hi, e);
      minW = Math.min(minW, body.state.qd[1]);
    }
    console.log(`[spin] ball-joint box at 20 rad/s (w h = 0.33), 60 s: E/E0 within [${lo.toFixed(4)}, ${hi.toFixed(4)}], lowest w_y ${minW.toFixed(1)} rad/s`);
    // the trapezoidal rule at w h = 0.33: a bounded oscillation of the energy, no drift either way
    expect(hi).toBeLessThan(1.03);
    expect(lo).toBeGreaterThan(0.97);
    // the intermediate-axis spin reverses (Dzhanibekov), as torque-free rotation does
    expect(minW).toBeLessThan(-19);
  });

  it('a box thrown spinning through the air: angular momentum about its centre of mass kept to 1e-9, linear momentum grows as m g t', () => {
    const m = 3;
    const model = box(m, 'free', [0, -9.81, 0]);
    const world = new World({ sleep: false });
    const body = world.addBody(model);
    body.state.q.set([0, 50, 0]);
    body.state.qd.set([0.3, 15, 0.2, 2, 5, 0]);
    const h0 = aboutCom(model, world);
    const L0 = Math.hypot(h0[0], h0[1], h0[2]);
    let worstL = 0, worstP = 0;
    for (let s = 1; s <= 120; s++) {
      expect(world.step(1 / 60).error).toBe('');
      const h = aboutCom(model, world);
      worstL = Math.max(worstL, Math.hypot(h[0] - h0[0], h[1] - h0[1], h[2] - h0[2]) / L0);
      const t = s / 60;
      worstP = Math.max(worstP, Math.hypot(h[3] - h0[3], h[4] - (h0[4] - m * 9.81 * t), h[5] - h0[5]) / (m * 9.81 * t));
    }
    console.log(`[spin] thrown box, 2 s in the air at 60 Hz: |dL|/|L| ${worstL.toExponential(2)}, linear momentum vs m g t ${worstP.toExponential(2)}`);
    expect(worstL).toBeLessThan(1e-9);
    expect(worstP).toBeLessThan(1e-9);
  });

  it('a ball thrown at 2.4 m/s spinning at 48 rad/s flies in a straight line: x = v t and no sideways drift after 1 s (it used to veer 0.4 rad off its line)', () => {
    const world = new World({ sleep: false });
    const b = new ModelBuilder();
    const m = 1, r = 0.05, I = 0.4 * m * r * r;
    b.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: r } }] });
    const ball = world.addBody(b.build());
    ball.state.q[1] = 50; // far from anything: no rows
    ball.state.qd.set([0, 0, -48, 2.4, 0, 0]);
    const h = 1 / 60, n = 60;
    for (let k = 0; k < n; k++) world.step(h);
    expect(Math.abs(ball.state.q[0] - 2.4 * n * h)).toBeLessThan(1e-9);
    expect(Math.abs(ball.state.q[2])).toBeLessThan(1e-9);
    // height: semi-implicit Euler under gravity, y_n = y_0 + g h^2 n (n + 1) / 2
    expect(Math.abs(ball.state.q[1] - (50 - (9.81 * h * h * n * (n + 1)) / 2))).toBeLessThan(1e-9);
  });

  it('a humanoid without any joint limits dropped from 1 m: no non-finite step and no energy gain over 8 s (it used to gain 8.5 kJ and go non-finite 1.7 s after the drop)', () => {
    // (an unlimited hinge may keep turning: a toe whipped at landing spins on, so rest is not asked)
    const model = humanoidTree();
    (model.lower as Float64Array).fill(-Infinity);
    (model.upper as Float64Array).fill(Infinity);
    (model.sphericalLimits as unknown[]).fill(undefined);
    const world = new World({ sleep: false });
    world.addStatic({ geometry: { type: 'plane' } });
    const body = world.addBody(model, { name: 'limp' });
    body.state.q[1] = 2.0;
    body.state.q.set([0.2, 0.1, 0, 0.9747], 3);
    const energy = () => { forwardKinematics(model, body.state, true); return kineticEnergy(model, body.state) + potentialEnergy(model, body.state); };
    const E0 = energy();
    let maxE = E0, fastest = 0, errors = 0;
    for (let s = 0; s < 480; s++) {
      if (world.step(1 / 60).error) errors++;
      maxE = Math.max(maxE, energy());
      for (let d = 6; d < model.nv; d++) fastest = Math.max(fastest, Math.abs(body.state.qd[d]));
    }
    forwardKinematics(model, body.state, true);
    const ke = kineticEnergy(model, body.state);
    console.log(`[spin] humanoid without limits, 8 s: fastest joint ${fastest.toFixed(1)} rad/s, energy gain ${(maxE - E0).toFixed(3)} J, KE at 8 s ${ke.toExponential(2)} J, ${errors} steps rolled back`);
    expect(errors).toBe(0);
    expect(body.state.firstNonFinite()).toBe(-1);
    expect(maxE - E0).toBeLessThan(1e-6 * E0);
  });

  it('maxJointSpeed caps a hinge driven by a constant torque (uncapped, it reaches tau t / I)', () => {
    const b = new ModelBuilder({ gravity: [0, 0, 0] });
    const I = 0.5;
    b.addLink({ name: 'wheel', parent: null, joint: { type: 'revolute', axis: [0, 0, 1] }, mass: 1, inertia: [I, I, I, 0, 0, 0] });
    const model = b.build();
    const run = (cap?: number) => {
      const world = new World({ gravity: [0, 0, 0], sleep: false, maxJointSpeed: cap });
      const body = world.addBody(model);
      let clamped = 0, top = 0;
      for (let s = 0; s < 120; s++) {
        body.state.tau[0] = 10;
        clamped += world.step(1 / 60).clampedSpeeds;
        top = Math.max(top, Math.abs(body.state.qd[0]));
      }
      return { top, clamped, end: body.state.qd[0] };
    };
    const free = run(), capped = run(15);
    expect(Math.abs(free.end - (10 * 2) / I)).toBeLessThan(1e-9 * 40); // tau t / I = 40 rad/s
    expect(free.clamped).toBe(0);
    expect(capped.top).toBe(15);
    expect(capped.clamped).toBeGreaterThan(0);
    expect(() => new World({ maxJointSpeed: 0 })).toThrow(/maxJointSpeed/);
  });
});
