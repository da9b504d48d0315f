/**
 * Kinematic bodies and kinematic links (kinematic.ts): joints whose motion the game sets, by a
 * target for the end of the next step or by a velocity. Every expectation is an analytic answer or
 * an independent computation: the slip of a box on a platform that starts at once (Coulomb friction,
 * step by step), the restitution law against an infinite mass, the surface speed of a turning door,
 * the exact pose and velocity (target - current) / dt of a target, and for kinematic links inverse
 * dynamics (featherstone RNEA) of the accelerations the step took and an RK4 integration of the
 * pendulum on a prescribed cart.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, State, inverseDynamics } from '@sinew/featherstone';
import { RigidBody, World, type Body } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';
import { RowTag, RowType } from '../src/internals.js';

const H = 1 / 60;

/** A kinematic platform (4 m x 0.2 m x 4 m) at the origin with a 0.4 m crate resting on it (settled for 1 s). */
function platformWithCrate(options: { sleep?: boolean } = {}): { world: World; platform: Body; crate: Body } {
  const world = new World(options.sleep === false ? { sleep: false } : {});
  const platform = world.addBody(RigidBody.box([2, 0.1, 2], { mass: 10 }), { name: 'platform', kinematic: true });
  const crate = world.addBody(RigidBody.box([0.2, 0.2, 0.2], { mass: 5 }), { name: 'crate', position: [0, 0.3, 0] });
  for (let i = 0; i < 60; i++) world.step(H);
  return { world, platform, crate };
}

/** World velocity of a body's origin. */
function velocity(b: Body): Float64Array {
  return b.pointVelocity(0, [0, 0, 0]);
}

describe('kinematic bodies', () => {
  it('a platform set moving at 1 m/s: the crate slips as Coulomb friction allows (mu g per step), then rides with it, its place on the platform drifting under 1 mm/s', () => {
    const { world, platform, crate } = platformWithCrate({ sleep: false });
    const rel0 = crate.state.q[0] - platform.state.q[0];
    platform.setKinematicVelocity([1, 0, 0]);
    // slip: the crate gains mu g h a step (mu = 0.8, both shapes' default) until it has the
    // platform's speed; semi-implicit Euler moves it by its new speed, so it falls behind by
    // h * sum over the slipping steps of (1 - mu g h k)
    const a = 0.8 * 9.81;
    let lag = 0;
    for (let k = 1; a * H * k < 1; k++) lag += H * (1 - a * H * k);
    for (let i = 0; i < 30; i++) world.step(H);
    const rel1 = crate.state.q[0] - platform.state.q[0];
    expect(rel0 - rel1).toBeCloseTo(lag, 3);
    // riding: 5 s more
    const y1 = crate.state.q[1] - platform.state.q[1];
    for (let i = 0; i < 300; i++) world.step(H);
    const drift = Math.hypot(crate.state.q[0] - platform.state.q[0] - rel1, crate.state.q[1] - platform.state.q[1] - y1, crate.state.q[2] - platform.state.q[2]);
    console.log(`[kinematic] crate on a 1 m/s platform: slipped ${(rel0 - rel1).toFixed(5)} m (Coulomb, step by step: ${lag.toFixed(5)} m), then drifted ${(drift / 5 * 1000).toFixed(4)} mm/s over 5 s`);
    expect(drift / 5).toBeLessThan(1e-3);
    const v = velocity(crate);
    expect(Math.abs(v[0] - 1)).toBeLessThan(1e-3);
    expect(Math.abs(v[1])).toBeLessThan(1e-3);
    // the platform is exactly where its velocity takes it (2 m/s never touched by the crate)
    expect(platform.state.q[0]).toBeCloseTo(330 * H, 12);
    expect(Array.from(platform.state.q.subarray(1))).toEqual([0, 0, 0, 0, 0, 1]);
  });

  it('a ragdoll lying on a platform set moving at 0.5 m/s rides with it: once it has caught up, its pelvis keeps its place on the platform within 1 mm/s and every link moves at the platform\'s velocity within 1 mm/s', () => {
    const world = new World({ sleep: false });
    const platform = world.addBody(RigidBody.box([2, 0.1, 2], { mass: 10 }), { name: 'platform', kinematic: true });
    const ragdoll = world.addBody(humanoidTree({ dampingTime: 0.25 }), { name: 'rider' });
    const r = Math.SQRT1_2;
    ragdoll.state.q.set([0, 0.35, 0]);
    ragdoll.state.q.set([-r, 0, 0, r], 3);
    for (let i = 0; i < 120; i++) world.step(H);
    platform.setKinematicVelocity([0.5, 0, 0]);
    // catching up: friction brings every link to the platform's speed
    for (let i = 0; i < 60; i++) world.step(H);
    const rel0 = [ragdoll.state.q[0] - platform.state.q[0], ragdoll.state.q[1] - platform.state.q[1], ragdoll.state.q[2] - platform.state.q[2]];
    const T = 180;
    for (let i = 0; i < T; i++) world.step(H);
    const drift = Math.hypot(ragdoll.state.q[0] - platform.state.q[0] - rel0[0], ragdoll.state.q[1] - platform.state.q[1] - rel0[1], ragdoll.state.q[2] - platform.state.q[2] - rel0[2]);
    let worst = 0;
    const v = new Float64Array(3);
    for (let link = 0; link < ragdoll.model.nLinks; link++) {
      ragdoll.pointVelocity(link, [0, 0, 0], v);
      worst = Math.max(worst, Math.hypot(v[0] - 0.5, v[1], v[2]));
    }
    console.log(`[kinematic] ragdoll on a 0.5 m/s platform: pelvis drift ${(drift / (T * H) * 1000).toFixed(4)} mm/s over ${T * H} s, worst link speed off the platform's ${(worst * 1000).toFixed(4)} mm/s`);
    expect(drift / (T * H)).toBeLessThan(1e-3);
    expect(worst).toBeLessThan(1e-3);
  });

  it('a platform moved by target poses along x = 0.5 (1 - cos 2t) carries the crate with it: the same place on the platform within 1 mm/s, the same velocity within 1 mm/s; the platform is at each target exactly', () => {
    const { world, platform, crate } = platformWithCrate({ sleep: false });
    const rel = [crate.state.q[0] - platform.state.q[0], crate.state.q[1] - platform.state.q[1], crate.state.q[2] - platform.state.q[2]];
    const T = 300;
    let prev = 0;
    for (let n = 1; n <= T; n++) {
      const x = 0.5 * (1 - Math.cos(2 * n * H));
      platform.setNextKinematicPose([x, 0, 0], [0, 0, 0, 1]);
      world.step(H);
      expect(platform.state.q[0]).toBe(x);
      // its velocity is (target - current) / dt
      expect(velocity(platform)[0]).toBeCloseTo((x - prev) / H, 9);
      prev = x;
    }
    const drift = Math.hypot(crate.state.q[0] - platform.state.q[0] - rel[0], crate.state.q[1] - platform.state.q[1] - rel[1], crate.state.q[2] - platform.state.q[2] - rel[2]);
    const dv = Math.abs(velocity(crate)[0] - velocity(platform)[0]);
    console.log(`[kinematic] crate on a platform moved by poses (0.5 (1 - cos 2t), peak 2 m/s^2): drift ${(drift / (T * H) * 1000).toFixed(4)} mm/s, velocity difference ${(dv * 1000).toFixed(4)} mm/s`);
    expect(drift / (T * H)).toBeLessThan(1e-3);
    expect(dv).toBeLessThan(1e-3);
  });

  it('a kinematic box moving at 2 m/s into a resting ball (restitution 0.5) sends it off at (1 + e) 2 = 3 m/s, as an infinite mass would, and keeps its own velocity exactly', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const pusher = world.addBody(RigidBody.box([0.2, 0.2, 0.2], { mass: 1, restitution: 0.5 }), { name: 'pusher', position: [-1, 0, 0], kinematic: true, linearVelocity: [2, 0, 0] });
    const ball = world.addBody(RigidBody.sphere(0.2, { mass: 1, restitution: 0.5 }), { name: 'ball' });
    for (let i = 0; i < 60; i++) {
      world.step(H);
      expect(Array.from(pusher.state.qd)).toEqual([0, 0, 0, 2, 0, 0]);
      expect(pusher.state.q[0]).toBeCloseTo(-1 + 2 * (i + 1) * H, 12);
    }
    const v = velocity(ball);
    console.log(`[kinematic] ball hit by a 2 m/s kinematic box, e = 0.5: leaves at ${v[0].toFixed(5)} m/s (infinite mass: 3)`);
    expect(v[0]).toBeCloseTo(3, 4);
    expect(Math.abs(v[1]) + Math.abs(v[2])).toBeLessThan(1e-9);
  });

  it('a kinematic platform under a 1000 kg crate dropped on it is never moved: its state is exactly what its velocity makes it', () => {
    const world = new World({ sleep: false });
    const platform = world.addBody(RigidBody.box([1, 0.1, 1], { mass: 1 }), { name: 'platform', kinematic: true, linearVelocity: [0.5, 0, 0] });
    world.addBody(RigidBody.box([0.3, 0.3, 0.3], { mass: 1000 }), { name: 'heavy', position: [0, 1.5, 0], linearVelocity: [0, -3, 0] });
    let x = 0;
    let touched = 0;
    for (let i = 0; i < 120; i++) {
      world.step(H);
      x = 0.5 * (i + 1) * H;
      touched = Math.max(touched, world.stats.contacts);
      expect(platform.state.q[0]).toBeCloseTo(x, 12);
      expect(Array.from(platform.state.q.subarray(1))).toEqual([0, 0, 0, 0, 0, 1]);
      expect(Array.from(platform.state.qd)).toEqual([0, 0, 0, 0.5, 0, 0]);
    }
    expect(touched).toBeGreaterThan(0);
  });

  it('a door turning on its hinge at 1 rad/s (a kinematic hinge set by velocity) pushes a ball on frictionless ground at its own surface speed, omega times the distance from the hinge', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' }, friction: 0 });
    const b = new ModelBuilder();
    b.addLink({ name: 'door', parent: null, joint: { type: 'revolute', axis: [0, 1, 0] }, mass: 20, com: [0.5, 1.05, 0], inertia: [1, 1, 1, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: [0.5, 1, 0.05] }, position: [0.5, 1.05, 0], friction: 0 }] });
    const door = world.addBody(b.build(), { name: 'door', kinematic: true });
    const ball = world.addBody(RigidBody.sphere(0.1, { mass: 2, friction: 0 }), { name: 'ball', position: [0.7, 0.1, -0.3] });
    door.setKinematicJointVelocities([1]);
    let pushed = 0, touching = 0;
    for (let i = 0; i < 60; i++) {
      // the contact as the step finds it, at the start: the door's angle, the ball's place
      const th = door.state.q[0], c = Float64Array.from(ball.state.q);
      world.step(H);
      expect(door.state.q[0]).toBeCloseTo((i + 1) * H, 12);
      // door frame: x along the door, n its face towards -z turned by th about y; the velocity
      // after the step along that normal is the door surface's there, omega d
      const v = velocity(ball);
      const d = c[0] * Math.cos(th) - c[2] * Math.sin(th);
      const nx = -Math.sin(th), nz = -Math.cos(th);
      const gap = c[0] * nx + c[2] * nz - 0.05 - 0.1;
      touching = gap < 2e-3 ? touching + 1 : 0;
      if (d < 0.95) expect(gap).toBeGreaterThan(-0.005); // (the door's face: no deeper than the backtracking tolerance)
      // (from the second step in touch: the step that closes the gap only stops the approach within it)
      // (while the ball is on the door, 1 m long: it slides outwards and leaves it past d = 1)
      if (touching >= 2 && d < 0.95) {
        pushed++;
        expect(v[0] * nx + v[2] * nz).toBeCloseTo(d, 2);
      }
    }
    expect(pushed).toBeGreaterThan(30);
  });

  it('a target pose is reached exactly at the end of the step, with the velocity (target - current) / dt; without a new target the body holds still', () => {
    const world = new World();
    const k = world.addBody(RigidBody.box([0.5, 0.5, 0.5], { mass: 3 }), { name: 'mover', kinematic: true, position: [0.1, 0.2, 0.3] });
    const ax = [1 / Math.sqrt(3), 1 / Math.sqrt(3), -1 / Math.sqrt(3)], ang = 0.3;
    const rot = [ax[0] * Math.sin(ang / 2), ax[1] * Math.sin(ang / 2), ax[2] * Math.sin(ang / 2), Math.cos(ang / 2)];
    k.setNextKinematicPose([1, 2, 3], rot);
    world.step(H);
    // (the rotation as given, normalised: rot / |rot|)
    const n = Math.sqrt(rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2] + rot[3] * rot[3]);
    const unit = rot.map((x) => x / n);
    expect(Array.from(k.state.q)).toEqual([1, 2, 3, ...unit]);
    const v = velocity(k);
    expect(v[0]).toBeCloseTo(0.9 / H, 9); expect(v[1]).toBeCloseTo(1.8 / H, 9); expect(v[2]).toBeCloseTo(2.7 / H, 9);
    // angular velocity (link frame qd[0..2], the axis is unchanged by the turn about itself): axis * angle / dt
    for (let e = 0; e < 3; e++) expect(k.state.qd[e]).toBeCloseTo((ax[e] * ang) / H, 9);
    world.step(H);
    expect(Array.from(k.state.q)).toEqual([1, 2, 3, ...unit]);
    expect(Array.from(k.state.qd)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('a crate asleep on a resting platform wakes when the platform starts moving, and rides along', () => {
    const { world, platform, crate } = platformWithCrate();
    for (let i = 0; i < 120; i++) world.step(H);
    expect(crate.sleeping).toBe(true);
    expect(platform.sleeping).toBe(true);
    platform.setKinematicVelocity([0.5, 0, 0]);
    world.step(H);
    expect(platform.sleeping).toBe(false);
    expect(crate.sleeping).toBe(false);
    for (let i = 0; i < 119; i++) world.step(H);
    expect(crate.sleeping).toBe(false);
    // 2 s at 0.5 m/s, less the slip of the start (0.5^2 / (2 mu g) = 16 mm at most)
    expect(crate.state.q[0]).toBeGreaterThan(1 - 0.02);
    expect(Math.abs(velocity(crate)[0] - 0.5)).toBeLessThan(1e-3);
  });

  it('removing a kinematic platform lets the crate on it fall; a body removed before a kinematic one leaves it moving as set', () => {
    const { world, platform, crate } = platformWithCrate({ sleep: false });
    const other = world.addBody(RigidBody.sphere(0.1, { mass: 1 }), { name: 'a-ball', position: [5, 0, 5] });
    const door = world.addBody(RigidBody.box([0.1, 0.1, 0.1], { mass: 1 }), { name: 'spinner', position: [-5, 0, 0], kinematic: true, angularVelocity: [0, 2, 0] });
    world.step(H);
    world.removeBody(platform);
    world.removeBody(other);
    const y0 = crate.state.q[1];
    for (let i = 0; i < 30; i++) world.step(H);
    // free fall for 0.5 s: 0.5 g t^2 (semi-implicit Euler: g h^2 n (n + 1) / 2)
    expect(y0 - crate.state.q[1]).toBeCloseTo(9.81 * H * H * 30 * 31 / 2, 5);
    // the spinner turned by 2 rad/s for 31 steps about y
    const angle = 2 * 31 * H;
    expect(door.state.q[4]).toBeCloseTo(Math.sin(angle / 2), 12);
    expect(door.state.q[6]).toBeCloseTo(Math.cos(angle / 2), 12);
    expect(Array.from(door.state.q.subarray(0, 3))).toEqual([-5, 0, 0]);
  });

  it('bad input is refused with an error naming the body, and changes nothing', () => {
    const { world, platform, crate } = platformWithCrate();
    const q = Float64Array.from(platform.state.q);
    expect(() => platform.setNextKinematicPose([NaN, 0, 0])).toThrow(/Body "platform"\.setNextKinematicPose: position must be 3 finite numbers/);
    expect(() => platform.setNextKinematicPose([0, 0, 0], [0, 0, 0, 0])).toThrow(/Body "platform"\.setNextKinematicPose: rotation must be a non-zero quaternion/);
    expect(() => platform.setKinematicVelocity([0, Infinity, 0])).toThrow(/Body "platform"\.setKinematicVelocity: linear must be 3 finite numbers/);
    expect(() => platform.setKinematicVelocity([0, 0, 0], [0, NaN, 0])).toThrow(/Body "platform"\.setKinematicVelocity: angular must be 3 finite numbers/);
    expect(() => crate.setKinematicVelocity([1, 0, 0])).toThrow(/Body "crate"\.setKinematicVelocity: the body has no kinematic joints/);
    expect(() => platform.setKinematicJointVelocities([0, 0, 0, NaN, 0, 0])).toThrow(/Body "platform"\.setKinematicJointVelocities: qd\[3\] \(joint "box"\) is NaN/);
    expect(() => platform.setNextKinematicJoints([0, 0, 0])).toThrow(/Body "platform"\.setNextKinematicJoints: expected 7 numbers/);
    expect(() => crate.setKinematicLinks(['nope'])).toThrow(/Body "crate"\.setKinematicLinks: no link named "nope"/);
    world.step(H);
    expect(Array.from(platform.state.q)).toEqual(Array.from(q));
    world.removeBody(platform);
    expect(() => platform.setKinematicVelocity([1, 0, 0])).toThrow(/Body "platform"\.setKinematicVelocity: the body was removed from its world/);
  });

  it('a snapshot carries the kinematic joints (links, mode, a pending target): restored into a world built the same way, the steps after are bit for bit the same', () => {
    const build = (): { world: World; platform: Body; crate: Body } => platformWithCrate({ sleep: false });
    const a = build();
    a.platform.setNextKinematicPose([0.2, 0.05, 0], [0, Math.sin(0.1), 0, Math.cos(0.1)]);
    const snap = a.world.snapshot().slice();
    const b = build();
    b.platform.setKinematicVelocity([-3, 0, 0]); // overwritten by the restore
    b.world.restore(snap);
    for (let n = 0; n < 90; n++) {
      for (const w of [a, b]) {
        if (n === 40) w.platform.setKinematicVelocity([0.3, 0, 0.1], [0, 0.5, 0]);
        w.world.step(H);
      }
    }
    expect(Array.from(b.crate.state.q)).toEqual(Array.from(a.crate.state.q));
    expect(Array.from(b.platform.state.q)).toEqual(Array.from(a.platform.state.q));
    expect(Array.from(b.crate.state.qd)).toEqual(Array.from(a.crate.state.qd));
    // and without the kinematic part the restored world would differ (the snapshot holds it)
    expect(a.platform.state.q[0]).not.toBe(0);
  });
});

/** A cart on a slider along x (kinematic) carrying a pendulum on a hinge about z (simulated): point mass m at L below the hinge. */
function cartPendulum(): { world: World; body: Body; m: number; L: number; Ic: number } {
  const m = 1.5, L = 0.8, Ic = 1e-3;
  const b = new ModelBuilder();
  b.addLink({ name: 'cart', parent: null, joint: { type: 'prismatic', axis: [1, 0, 0] }, mass: 4, inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
  b.addLink({ name: 'pole', parent: 'cart', joint: { type: 'revolute', axis: [0, 0, 1] }, mass: m, com: [0, -L, 0], inertia: [Ic, Ic, Ic, 0, 0, 0] });
  const world = new World({ sleep: false });
  const body = world.addBody(b.build(), { name: 'cart-pendulum' });
  body.setKinematicLinks(['cart']);
  return { world, body, m, L, Ic };
}

describe('kinematic links (partial ragdoll): prescribed joints drive, the others are simulated', () => {
  const A = 0.3, W = 4;
  // (starting at rest: a cart that started at its full speed would kick the pendulum at the first step)
  const cartX = (t: number): number => A * (1 - Math.cos(W * t));

  it('the cart follows x(t) exactly while the pendulum reacts: inverse dynamics (RNEA) of every step\'s accelerations gives the pendulum hinge no torque', () => {
    const { world, body, m, L } = cartPendulum();
    const model = body.model, probe = new State(model), tau = new Float64Array(2), qdd = new Float64Array(2);
    body.state.q[1] = 0.2;
    let worst = 0;
    for (let n = 1; n <= 240; n++) {
      probe.q.set(body.state.q); probe.qd.set(body.state.qd);
      body.setNextKinematicJoints([cartX(n * H), 0]);
      world.step(H);
      expect(body.state.q[0]).toBe(cartX(n * H));
      for (let d = 0; d < 2; d++) qdd[d] = (body.state.qd[d] - probe.qd[d]) / H;
      inverseDynamics(model, probe, qdd, tau);
      worst = Math.max(worst, Math.abs(tau[1]));
    }
    console.log(`[kinematic] cart-pendulum, 240 steps: largest hinge torque by RNEA of the step's accelerations ${worst.toExponential(2)} N m (m g L = ${(m * 9.81 * L).toFixed(2)})`);
    expect(worst).toBeLessThan(1e-6 * m * 9.81 * L);
  });

  it('a humanoid flying with an animated upper body (spine, neck and arms prescribed along q(t)) and simulated root and legs: the prescribed joints are at their targets exactly, and inverse dynamics (RNEA) of the accelerations the step solved gives every simulated dof (the free root included) no force', () => {
    // (no post-stabilisation: it runs the dynamics again at the corrected state, and body.gyroDelta
    // would then be that state's, not the one the step's accelerations hold)
    const world = new World({ sleep: false, stabilization: 'none' });
    const body = world.addBody(humanoidTree(), { name: 'hero', position: [0, 5, 0], angularVelocity: [0.3, 0.5, 0], selfCollision: false });
    const m = body.model;
    const upper = ['abdomen', 'chest', 'neck', 'l_upperarm', 'l_forearm', 'r_upperarm', 'r_forearm'];
    // knees bent off their stops (a limit row would push the simulated shins)
    for (const knee of ['l_shin', 'r_shin']) body.state.q[m.joint(knee).q] = 0.6;
    body.setKinematicLinks(upper);
    const links = upper.map((n) => m.joint(n).link);
    const probe = new State(m), tau = new Float64Array(m.nv), qdd = new Float64Array(m.nv);
    const target = Float64Array.from(body.state.q);
    let worstFree = 0, worstDriven = 0, checked = 0;
    for (let n = 1; n <= 60; n++) {
      // q(t): each prescribed joint turning about its own axis or axes, smoothly
      const t = n * H;
      for (const i of links) {
        const o = m.qOffset[i];
        if (m.jointNq[i] === 1) target[o] = -0.5 * (1 - Math.cos(3 * t));
        else {
          const a = 0.4 * (1 - Math.cos(2 * t)), ax = [Math.SQRT1_2, 0, Math.SQRT1_2];
          target.set([ax[0] * Math.sin(a / 2), ax[1] * Math.sin(a / 2), ax[2] * Math.sin(a / 2), Math.cos(a / 2)], o);
        }
      }
      probe.q.set(body.state.q); probe.qd.set(body.state.qd);
      body.setNextKinematicJoints(target);
      world.step(H);
      expect(world.stats.passes).toBe(1);
      // the dofs a joint limit's row held in the step (RNEA sees its force there too)
      const held = new Uint8Array(m.nv);
      const rows = world.rows;
      for (let j = 0; j < rows.count; j++) {
        expect(rows.type[j] === RowType.Joint || rows.type[j] === RowType.JointVec).toBe(true); // no contact
        if (rows.tag[j] !== RowTag.Limit) continue;
        if (rows.type[j] === RowType.Joint) held[rows.dof[j]] = 1;
        else for (let d = m.vOffset[rows.linkA[j]]; d < m.vOffset[rows.linkA[j]] + m.jointNv[rows.linkA[j]]; d++) held[d] = 1;
      }
      for (const i of links) {
        const o = m.qOffset[i];
        // (a quaternion as given, normalised: q / sqrt(q . q))
        const norm = m.jointNq[i] === 1 ? 1 : Math.sqrt(target[o] * target[o] + target[o + 1] * target[o + 1] + target[o + 2] * target[o + 2] + target[o + 3] * target[o + 3]);
        for (let k = o; k < o + m.jointNq[i]; k++) expect(body.state.q[k]).toBe(target[k] / norm);
      }
      // the step's accelerations without the implicit gyroscopic change (which integrates the
      // same dynamics, gyroscopic.ts): RNEA leaves only the prescribed joints' forces
      for (let d = 0; d < m.nv; d++) qdd[d] = body.qdd[d] - body.gyroDelta[d];
      inverseDynamics(m, probe, qdd, tau);
      for (let d = 0; d < m.nv; d++) {
        const prescribed = body.kinematic!.dof[d] === 1;
        if (prescribed) worstDriven = Math.max(worstDriven, Math.abs(tau[d]));
        else if (!held[d]) { worstFree = Math.max(worstFree, Math.abs(tau[d])); checked++; }
      }
    }
    console.log(`[kinematic] humanoid with an animated upper body, 60 steps in flight: RNEA force on simulated dofs at most ${worstFree.toExponential(2)}, on prescribed joints up to ${worstDriven.toFixed(2)} N m`);
    expect(worstDriven).toBeGreaterThan(1);
    expect(checked).toBeGreaterThan(60 * 15); // (the root's 6 dofs and most of the legs' every step)
    expect(worstFree).toBeLessThan(1e-6 * worstDriven);
  });

  it('setKinematicLinks([]) lets the cart go: from then on nothing pushes along x, each step\'s accelerations keeping (M + m) x\'\' + m L (cos theta theta\'\' - sin theta theta\'^2) = 0 (the horizontal momentum\'s rate)', () => {
    const { world, body, m, L } = cartPendulum();
    body.state.q[1] = 0.2;
    for (let n = 1; n <= 30; n++) { body.setNextKinematicJoints([cartX(n * H), 0]); world.step(H); }
    body.setKinematicLinks([]);
    expect(body.kinematic).toBe(null);
    let worst = 0, moved = 0;
    for (let n = 0; n < 120; n++) {
      const th = body.state.q[1], x0 = body.state.qd[0], w0 = body.state.qd[1];
      world.step(H);
      const xdd = (body.state.qd[0] - x0) / H, thdd = (body.state.qd[1] - w0) / H;
      worst = Math.max(worst, Math.abs((4 + m) * xdd + m * L * (Math.cos(th) * thdd - Math.sin(th) * w0 * w0)));
      moved = Math.max(moved, Math.abs(xdd));
    }
    expect(moved).toBeGreaterThan(0.1); // (the cart does move: it is simulated)
    expect(worst).toBeLessThan(1e-9);
  });

  it('the pendulum on the prescribed cart follows the analytic equation theta\'\' = -m L (g sin theta + x\'\' cos theta) / (m L^2 + I) (RK4), the error halving with the step', () => {
    const run = (h: number): number => {
      const { world, body } = cartPendulum();
      body.state.q[1] = 0.2;
      const steps = Math.round(1 / h);
      for (let n = 1; n <= steps; n++) {
        body.setNextKinematicJoints([cartX(n * h), 0]);
        world.step(h);
      }
      return body.state.q[1];
    };
    const { m, L, Ic } = cartPendulum();
    // RK4 of the pendulum on the cart with the smooth x(t), 1e-5 s steps
    let th = 0.2, om = 0;
    const f = (t: number, x: number): number => (-m * L * (9.81 * Math.sin(x) + A * W * W * Math.cos(W * t) * Math.cos(x))) / (m * L * L + Ic);
    const hr = 1e-5;
    for (let k = 0; k < 1e5; k++) {
      const t = k * hr;
      const k1t = om, k1o = f(t, th);
      const k2t = om + 0.5 * hr * k1o, k2o = f(t + 0.5 * hr, th + 0.5 * hr * k1t);
      const k3t = om + 0.5 * hr * k2o, k3o = f(t + 0.5 * hr, th + 0.5 * hr * k2t);
      const k4t = om + hr * k3o, k4o = f(t + hr, th + hr * k3t);
      th += (hr / 6) * (k1t + 2 * k2t + 2 * k3t + k4t);
      om += (hr / 6) * (k1o + 2 * k2o + 2 * k3o + k4o);
    }
    const e1 = Math.abs(run(1 / 500) - th), e2 = Math.abs(run(1 / 1000) - th);
    console.log(`[kinematic] cart-pendulum after 1 s: theta ${th.toFixed(6)} (RK4); error ${e1.toExponential(2)} at 1/500 s, ${e2.toExponential(2)} at 1/1000 s`);
    expect(e1).toBeLessThan(5e-4);
    expect(e2 / e1).toBeGreaterThan(0.4);
    expect(e2 / e1).toBeLessThan(0.6);
  });
});
