/**
 * Runtime input: a NaN or infinite force, torque, target, gain or time step handed to the API is
 * refused at the call with a clear error (the setters), or, when the caller wrote it straight into
 * a public array (State.tau, State.fext, TrajectoryFollower.targetQ, ...), by World.step before it
 * touches anything: a RangeError naming the source or body and the dof. After a refused call the
 * world is unchanged bit for bit (every body's State.save, the time, the warm starts, the sleep
 * timers). And when a state goes non-finite inside a step anyway (a spring stiffness near the
 * largest double, a NaN written into a model's inertia after build), the step reports it in
 * stats.error, rolls the state back bit for bit, and the world keeps stepping.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, State, type Model } from '@sinew/featherstone';
import { HingePin, PointPin, TrajectoryFollower, VelocityMotor, World, gainsFromSettleTime, type Body } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';

/** Every bit the world carries across steps, as bytes: body states, time, sleep timers, warm starts. */
function snapshot(world: World): Uint8Array {
  const s = world.saveState();
  const parts: number[] = [s.time];
  for (const b of s.bodies) parts.push(...b.state, b.sleeping ? 1 : 0, b.restTime);
  parts.push(...s.warmKeys, ...s.warmForces);
  return new Uint8Array(Float64Array.from(parts).buffer);
}
const sameBits = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

function crate(): Model {
  const b = new ModelBuilder();
  b.addLink({ name: 'crate', parent: null, joint: { type: 'free' }, mass: 10, inertia: [0.33, 0.33, 0.33, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: [0.25, 0.25, 0.25] } }] });
  return b.build();
}

interface Scene {
  world: World;
  man: Body;
  box: Body;
  drive: TrajectoryFollower;
  motor: VelocityMotor;
  pin: PointPin;
  hinge: HingePin;
}

/** A humanoid standing on the ground, driven, with a motor, a hand pin, and a crate with a hinge pin; stepped a little so warm starts exist. */
function scene(): Scene {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const man = world.addBody(humanoidTree(), { name: 'man' });
  man.state.q[1] = 0.97; // feet just above the ground
  const box = world.addBody(crate(), { name: 'crate' });
  box.state.q[0] = 1.5;
  box.state.q[1] = 0.25;
  const drive = world.addConstraint(new TrajectoryFollower(man, { settleTime: 0.2, maxTorque: 200 }));
  const m = man.model;
  const motor = world.addConstraint(new VelocityMotor(man.index, m.joint('l_forearm').v, 0.5, 5));
  const pin = world.addConstraint(new PointPin(man.index, m.linkIndex('r_hand'), [0, -0.08, 0], { body: -1, link: -1, point: [-0.2, 0.7, 0] }));
  const hinge = world.addConstraint(new HingePin(box.index, 0, [0, 0.25, 0], [1.5, 0.5, 0], [0, 0, 1], [0, 0, 1]));
  for (let i = 0; i < 20; i++) world.step(1 / 60);
  return { world, man, box, drive, motor, pin, hinge };
}

/** Runs `call`, expects it to throw matching `message`, and the world to be bit-identical afterwards. */
function refused(sc: Scene, what: string, call: () => unknown, message: RegExp, type: ErrorConstructor = Error): string {
  const before = snapshot(sc.world);
  const targets = [sc.drive.targetQ, sc.drive.targetQd, sc.drive.targetQdd, sc.pin.target.point].map((a) => Float64Array.from(a));
  let err: unknown;
  try {
    call();
  } catch (e) {
    err = e;
  }
  expect(err, `${what}: no error`).toBeInstanceOf(type);
  expect((err as Error).message, what).toMatch(message);
  expect(sameBits(snapshot(sc.world), before), `${what}: the world changed`).toBe(true);
  return (err as Error).message;
}

describe('non-finite input is refused at the call, and the world is unchanged bit for bit', () => {
  it('time steps, forces, joint positions, targets, gains, points: the setters refuse', () => {
    const sc = scene();
    const { world, man, drive, motor, pin } = sc;
    const m = man.model;
    let cases = 0;
    for (const dt of [NaN, Infinity, -Infinity, 0, -1 / 60, '0.016' as unknown as number, undefined as unknown as number]) {
      refused(sc, `step(${String(dt)})`, () => world.step(dt), /World\.step: dt must be a positive finite number/, RangeError);
      cases++;
    }
    const hand = m.linkIndex('l_hand');
    for (const [f, p] of [[[NaN, 0, 0], [0, 1, 0]], [[0, Infinity, 0], [0, 1, 0]], [[0, 0, 1], [0, -Infinity, 0]], [[1e3, 0, 0], [NaN, NaN, NaN]]] as [number[], number[]][]) {
      refused(sc, `applyForce(${f}, ${p})`, () => man.state.applyForce(hand, f, p), /applyForce: link "l_hand": force and point must be 3 finite numbers/);
      cases++;
    }
    refused(sc, 'setJointQ NaN', () => man.state.setJointQ('l_shin', NaN), /non-finite/);
    refused(sc, 'setJointQ [.., Infinity]', () => man.state.setJointQ('l_thigh', [0, 0, Infinity, 1]), /non-finite value at 2/);
    cases += 2;

    // trajectory targets: q layout (quaternions included) and qd / qdd layout
    const q = Float64Array.from(drive.targetQ), v = new Float64Array(m.nv);
    const elbow = m.joint('l_forearm'), thigh = m.joint('r_thigh');
    const bad = (a: Float64Array, k: number, x: number) => { const c = a.slice(); c[k] = x; return c; };
    const msgs = [
      refused(sc, 'setTarget q NaN', () => drive.setTarget(bad(q, elbow.q, NaN)), new RegExp(`targetQ\\[${elbow.q}\\] \\(joint "l_forearm"\\) is NaN; expected a finite number`), RangeError),
      refused(sc, 'setTarget q Infinity in a quaternion', () => drive.setTarget(bad(q, thigh.q + 1, Infinity)), new RegExp(`targetQ\\[${thigh.q + 1}\\] \\(joint "r_thigh"\\) is Infinity`), RangeError),
      refused(sc, 'setTarget qd -Infinity', () => drive.setTarget(q, bad(v, elbow.v, -Infinity)), new RegExp(`targetQd\\[${elbow.v}\\] \\(joint "l_forearm"\\) is -Infinity`), RangeError),
      refused(sc, 'setTarget qdd NaN', () => drive.setTarget(q, v, bad(v, thigh.v + 2, NaN)), new RegExp(`targetQdd\\[${thigh.v + 2}\\] \\(joint "r_thigh"\\) is NaN`), RangeError),
      refused(sc, 'setTarget wrong length', () => drive.setTarget(q.subarray(1)), new RegExp(`targetQ has ${m.nq - 1} numbers; expected ${m.nq}`), RangeError),
      refused(sc, 'setTarget zero quaternion', () => { const c = q.slice(); c.fill(0, thigh.q, thigh.q + 4); drive.setTarget(c); }, /joint "r_thigh"\): expected a non-zero quaternion/, RangeError),
    ];
    cases += msgs.length;
    refused(sc, 'setSettleTime NaN', () => drive.setSettleTime('l_forearm', NaN), /settle time must be a positive finite number/, RangeError);
    refused(sc, 'setMaxTorque NaN', () => drive.setMaxTorque('l_forearm', NaN), /expected a number >= 0, got NaN/, RangeError);
    refused(sc, 'gainsFromSettleTime Infinity', () => gainsFromSettleTime(Infinity), /positive finite/, RangeError);
    refused(sc, 'motor.setTargetVelocity NaN', () => motor.setTargetVelocity(NaN), /VelocityMotor\.setTargetVelocity: expected a finite number, got NaN/, RangeError);
    refused(sc, 'motor.setTargetVelocity Infinity', () => motor.setTargetVelocity(Infinity), /got Infinity/, RangeError);
    refused(sc, 'motor.setMaxTorque NaN', () => motor.setMaxTorque(NaN), /expected a number >= 0, got NaN/, RangeError);
    refused(sc, 'pin.setWorldTarget NaN', () => pin.setWorldTarget([0, NaN, 0]), /setWorldTarget: expected 3 finite numbers/);
    refused(sc, 'pin.setWorldTarget Infinity', () => pin.setWorldTarget([Infinity, 0, 0]), /setWorldTarget: expected 3 finite numbers/);
    refused(sc, 'pin.setTargetPoint NaN', () => pin.setTargetPoint([0, 0, NaN]), /setTargetPoint: expected 3 finite numbers, element 2 is NaN/, RangeError);
    refused(sc, 'hinge.pin.setTargetPoint -Infinity', () => sc.hinge.pin.setTargetPoint([-Infinity, 0, 0]), /element 0 is -Infinity/, RangeError);
    cases += 10;
    // constructors
    refused(sc, 'new VelocityMotor NaN', () => new VelocityMotor(0, 0, NaN, 1), /target velocity must be finite/, RangeError);
    refused(sc, 'new VelocityMotor max NaN', () => new VelocityMotor(0, 0, 0, NaN), /max torque must be >= 0/, RangeError);
    refused(sc, 'new PointPin NaN', () => new PointPin(0, 1, [0, NaN, 0], { body: -1, link: -1, point: [0, 0, 0] }), /points must be 3 finite numbers/);
    refused(sc, 'new HingePin Infinity axis', () => new HingePin(1, 0, [0, 0, 0], [0, 0, 0], [0, 0, Infinity], [0, 0, 1]), /axes must be non-zero and finite/);
    refused(sc, 'new HingePin NaN axis', () => new HingePin(1, 0, [0, 0, 0], [0, 0, 0], [0, 0, 1], [NaN, 0, 1]), /axes must be non-zero and finite/);
    refused(sc, 'new TrajectoryFollower maxTorque NaN', () => new TrajectoryFollower(man, { maxTorque: NaN }), /maxTorque must be a number >= 0/, RangeError);
    refused(sc, 'new World gravity NaN', () => new World({ gravity: [0, NaN, 0] }), /gravity must be 3 finite numbers/, RangeError);
    cases += 7;
    // the setters accept good input, and the world steps on
    drive.setTarget(q);
    motor.setTargetVelocity(-0.5);
    pin.setWorldTarget([-0.2, 0.72, 0]);
    pin.setTargetPoint([-0.2, 0.71, 0]);
    expect(world.step(1 / 60).error).toBe('');
    console.log(`[reliability-input] ${cases} refused calls, each leaving the world bit-identical; e.g. "${msgs[0]}"`);
  });

  it('NaN written straight into public arrays: World.step refuses before touching the state, naming the source or body and the dof', () => {
    const sc = scene();
    const { world, man, box, drive, motor, pin, hinge } = sc;
    const m = man.model;
    const elbow = m.joint('l_forearm');
    /** Writes a bad value, expects step() to refuse naming it, then puts the good value back. */
    const poke = <T extends { [k: number]: number }>(what: string, a: T, k: number, x: number, message: RegExp): string => {
      const old = a[k];
      a[k] = x;
      const msg = refused(sc, what, () => world.step(1 / 60), message, RangeError);
      expect(msg).toMatch(/the step was refused and the world is unchanged/);
      a[k] = old;
      return msg;
    };
    const messages = [
      poke('drive targetQ', drive.targetQ, elbow.q, NaN, new RegExp(`TrajectoryFollower ${drive.id} \\(body "man"\\): targetQ\\[${elbow.q}\\] \\(joint "l_forearm"\\) is NaN`)),
      poke('drive targetQd', drive.targetQd, elbow.v, Infinity, new RegExp(`targetQd\\[${elbow.v}\\] \\(joint "l_forearm"\\) is Infinity`)),
      poke('drive targetQdd', drive.targetQdd, 3, -Infinity, /targetQdd\[3\] \(joint "pelvis"\) is -Infinity/),
      poke('drive kp', drive.kp, elbow.v, NaN, /kp\[\d+\] \(joint "l_forearm"\) is NaN; expected a finite number >= 0/),
      poke('drive kd', drive.kd, elbow.v, -1, /kd\[\d+\] \(joint "l_forearm"\) is -1; expected a finite number >= 0/),
      poke('drive maxTorque', drive.maxTorque, elbow.v, NaN, /maxTorque\[\d+\] \(joint "l_forearm"\) is NaN/),
      poke('pin target', pin.target.point, 1, NaN, new RegExp(`PointPin ${pin.id} \\(body "man", link ${m.linkIndex('r_hand')}\\): target point \\[1\\] is NaN`)),
      poke('hinge point', hinge.pin.localA, 2, Infinity, /PointPin \d+ \(body "crate", link 0\): local point \[2\] is Infinity/),
      poke('torque', man.state.tau, elbow.v, NaN, new RegExp(`body "man": joint torque tau\\[${elbow.v}\\] \\(joint "l_forearm"\\) is NaN`)),
      poke('external force', box.state.fext, 4, -Infinity, /body "crate": external force fext\[4\] \(link "crate"\) is -Infinity/),
      poke('joint position', man.state.q, elbow.q, NaN, new RegExp(`body "man": q\\[${elbow.q}\\] \\(joint "l_forearm"\\) is not finite`)),
      poke('joint velocity', box.state.qd, 2, Infinity, /body "crate": qd\[2\] \(joint "crate"\) is not finite/),
      poke('gravity', man.state.gravity, 1, NaN, /body "man": gravity\[1\] is NaN/),
    ];
    // fields that are plain numbers
    const fieldCases: [string, () => void, () => void, RegExp][] = [
      ['drive strength', () => { drive.strength = NaN; }, () => { drive.strength = 1; }, /strength is NaN/],
      ['motor target', () => { motor.targetVelocity = Infinity; }, () => { motor.targetVelocity = 0.5; }, new RegExp(`VelocityMotor ${motor.id} \\(body "man", dof ${elbow.v}, joint "l_forearm"\\): targetVelocity is Infinity`)],
      ['motor max torque', () => { motor.maxTorque = NaN; }, () => { motor.maxTorque = 5; }, /maxTorque is NaN/],
    ];
    for (const [what, set, reset, message] of fieldCases) {
      set();
      messages.push(refused(sc, what, () => world.step(1 / 60), message, RangeError));
      reset();
    }
    // a disabled source is not asked
    drive.targetQ[elbow.q] = NaN;
    drive.enabled = false;
    expect(world.step(1 / 60).error).toBe('');
    drive.targetQ[elbow.q] = 0;
    drive.enabled = true;
    // with every value put back the world steps on, finite
    for (let i = 0; i < 5; i++) expect(world.step(1 / 60).error).toBe('');
    expect(man.state.firstNonFinite()).toBe(-1);
    console.log(`[reliability-input] World.step refused ${messages.length} kinds of non-finite raw input, world bit-identical each time; e.g.\n  ${messages.slice(0, 3).join('\n  ')}`);
  });
});

describe('a state that goes non-finite inside a step is reported, rolled back bit for bit, and the world keeps stepping', () => {
  it('a spring stiffness near the largest double: stats.error names the body and the joint', () => {
    const b = new ModelBuilder();
    b.addLink({ name: 'arm', parent: null, joint: { type: 'revolute', axis: [0, 0, 1], stiffness: 10 }, mass: 1, com: [0.5, 0, 0], inertia: [0.01, 0.1, 0.1, 0, 0, 0] });
    b.addLink({ name: 'forearm', parent: 'arm', joint: { type: 'revolute', axis: [0, 0, 1], position: [1, 0, 0], stiffness: 10 }, mass: 1, com: [0.5, 0, 0], inertia: [0.01, 0.1, 0.1, 0, 0, 0] });
    const model = b.build();
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const man = world.addBody(humanoidTree(), { name: 'bystander' });
    man.state.q[0] = 3;
    man.state.q[1] = 0.97;
    const body = world.addBody(model, { name: 'springy' });
    body.state.q.set([0.3, 0.5]);
    for (let i = 0; i < 5; i++) expect(world.step(1 / 60).error).toBe('');
    const before = world.bodies.map((x) => x.state.save());
    const t0 = world.time;
    model.stiffness[0] = Number.MAX_VALUE; // tau = -k (q - ref) overflows to Infinity
    model.springRef[0] = 5;
    const error = world.step(1 / 60).error; // (step returns the world's one stats object: read it now)
    expect(error).toBe('body "springy" joint "arm" became non-finite; the step was rolled back');
    world.bodies.forEach((x, i) => {
      const now = x.state.save();
      // q and qd are the first nq + nv numbers of State.save (tau and fext are cleared after every
      // step): every q is back where the step began; the failing body, which no retry could step,
      // is stopped there (its qd zeroed, so that the next step is not the same failure again), and
      // the bystander, in an island of its own, keeps its velocities bit for bit
      const nq = x.model.nq, nv = x.model.nv;
      expect(sameBits(new Uint8Array(now.buffer, 0, 8 * nq), new Uint8Array(before[i].buffer, 0, 8 * nq)), `${x.name} q rolled back`).toBe(true);
      if (x === body) expect(Array.from(now.subarray(nq, nq + nv))).toEqual(new Array(nv).fill(0));
      else expect(sameBits(new Uint8Array(now.buffer, 8 * nq, 8 * nv), new Uint8Array(before[i].buffer, 8 * nq, 8 * nv)), `${x.name} qd kept`).toBe(true);
    });
    expect(world.time).toBeCloseTo(t0 + 1 / 60, 15); // the frame's time passes, the state does not
    // while the cause stays, every step says so and none throws
    for (let i = 0; i < 3; i++) expect(world.step(1 / 60).error).toMatch(/body "springy" joint "arm" became non-finite/);
    // once the cause is gone the world steps on from the last good state
    model.stiffness[0] = 10;
    model.springRef[0] = 0;
    for (let i = 0; i < 30; i++) expect(world.step(1 / 60).error).toBe('');
    expect(body.state.firstNonFinite()).toBe(-1);
    expect(man.state.firstNonFinite()).toBe(-1);
    expect(body.state.q[1]).not.toBe(0.5);
  });

  it('a NaN written into a model inertia after build: reported naming the joint, rolled back, the world keeps stepping', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const good = world.addBody(humanoidTree(), { name: 'good' });
    good.state.q[1] = 1.2;
    const badModel = humanoidTree();
    const bad = world.addBody(badModel, { name: 'bad' });
    bad.state.q[0] = 2;
    bad.state.q[1] = 1.2;
    for (let i = 0; i < 5; i++) world.step(1 / 60);
    const before = world.bodies.map((x) => Float64Array.from([...x.state.q, ...x.state.qd]));
    const link = badModel.linkIndex('l_forearm');
    const saved = badModel.I.slice(36 * link, 36 * link + 36);
    badModel.I[36 * link] = NaN;
    const error = world.step(1 / 60).error;
    expect(error).toMatch(/joint "l_forearm"/);
    expect(error).toMatch(/not finite|non-finite/);
    world.bodies.forEach((x, i) => {
      const now = Float64Array.from([...x.state.q, ...x.state.qd]);
      expect(sameBits(new Uint8Array(now.buffer), new Uint8Array(before[i].buffer)), `${x.name} rolled back`).toBe(true);
    });
    // the world keeps stepping (no throw) while the model stays broken ...
    let frozen = 0;
    for (let i = 0; i < 3; i++) {
      const q = good.state.q.slice();
      expect(world.step(1 / 60).error).toMatch(/l_forearm/);
      if (good.state.q.every((v, k) => v === q[k])) frozen++;
    }
    // ... and once it is repaired, from the last good state
    badModel.I.set(saved, 36 * link);
    for (let i = 0; i < 10; i++) expect(world.step(1 / 60).error).toBe('');
    expect(good.state.firstNonFinite()).toBe(-1);
    expect(bad.state.firstNonFinite()).toBe(-1);
    console.log(`[reliability-input] NaN inertia: stats.error = ${JSON.stringify(error)}; while one model is broken the healthy body was frozen in ${frozen} of 3 steps (every body is rolled back together)`);
  });

  // an exception inside the step (forwardDynamics throws for a singular or NaN articulated
  // inertia) names the body too (Body.dynamics)
  it('a NaN inertia: stats.error also names the character', () => {
    const world = new World();
    const m = humanoidTree();
    world.addBody(m, { name: 'character-7' });
    m.I[36 * m.linkIndex('l_forearm')] = NaN;
    expect(world.step(1 / 60).error).toMatch(/character-7/);
  });

  it('a state that is already non-finite is refused, not stepped (a fresh State shows the check)', () => {
    const world = new World();
    const m = humanoidTree();
    const s = new State(m);
    s.qd[0] = NaN;
    const body = world.addBody(m, { name: 'poisoned', state: s });
    expect(() => world.step(1 / 60)).toThrow(/body "poisoned": qd\[0\] \(joint "pelvis"\) is not finite/);
    s.qd[0] = 0;
    expect(world.step(1 / 60).error).toBe('');
    expect(body.state.firstNonFinite()).toBe(-1);
  });
});
