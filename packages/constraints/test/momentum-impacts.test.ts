/**
 * Momentum between bodies: with no external force (zero gravity, no ground) every contact and pin
 * acts equal and opposite on its two bodies, so the total linear momentum P of the world is kept
 * through any collision, and its centre of mass moves on a straight line at constant velocity.
 * Scenes: a 0.05 kg sphere at 400 m/s into the chest of a tumbling ragdoll, two ragdolls
 * colliding, a box into a spinning box, and two free boxes joined by a point pin, spinning. Each
 * step, |P - P0| is checked against 1e-9 of the scale (|P0|, or the sum of the bodies' |m v| when
 * P0 is about zero), and the centre of mass against its straight line; the angular momentum
 * about the centre of mass is printed, and held to 1e-9 of its scale for the pairs.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, centerOfMass, forwardKinematics, momentum, pointPosition, type Model } from '@sinew/featherstone';
import { PointPin, World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';

function sphereModel(r: number, m: number): Model {
  const b = new ModelBuilder();
  const I = 0.4 * m * r * r;
  b.addLink({ name: 'sphere', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: r }, friction: 0.5 }] });
  return b.build();
}

function boxModel(m: number, he: [number, number, number], restitution = 0): Model {
  const b = new ModelBuilder();
  const [x, y, z] = he;
  b.addLink({ name: 'box', parent: null, joint: { type: 'free' }, mass: m, inertia: [(m * (y * y + z * z)) / 3, (m * (x * x + z * z)) / 3, (m * (x * x + y * y)) / 3, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: he }, friction: 0.6, restitution }] });
  return b.build();
}

/** A deterministic generator in [-0.5, 0.5). */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647 - 0.5;
}

interface Totals { P: number[]; L: number[]; C: number[]; M: number; scaleP: number; scaleL: number }

/** Linear momentum, angular momentum about the centre of mass, centre of mass and mass of all bodies; the scales sum |m v| and |L| of each body. */
function totals(world: World): Totals {
  const h = new Float64Array(6), c = new Float64Array(3);
  const P = [0, 0, 0], Lo = [0, 0, 0], mc = [0, 0, 0];
  let M = 0, scaleP = 0, scaleL = 0;
  for (const b of world.bodies) {
    forwardKinematics(b.model, b.state, true);
    momentum(b.model, b.state, h);
    centerOfMass(b.model, b.state, c);
    const m = b.model.totalMass();
    for (let k = 0; k < 3; k++) { P[k] += h[3 + k]; Lo[k] += h[k]; mc[k] += m * c[k]; }
    M += m;
    scaleP += Math.hypot(h[3], h[4], h[5]);
    // the body's own angular momentum about its centre of mass, and that of its motion about the origin
    const lx = h[0] - (c[1] * h[5] - c[2] * h[4]), ly = h[1] - (c[2] * h[3] - c[0] * h[5]), lz = h[2] - (c[0] * h[4] - c[1] * h[3]);
    scaleL += Math.hypot(lx, ly, lz) + Math.hypot(h[0] - lx, h[1] - ly, h[2] - lz);
  }
  const C = mc.map((x) => x / M);
  const L = [Lo[0] - (C[1] * P[2] - C[2] * P[1]), Lo[1] - (C[2] * P[0] - C[0] * P[2]), Lo[2] - (C[0] * P[1] - C[1] * P[0])];
  return { P, L, C, M, scaleP, scaleL };
}

interface Run { dP: number; dC: number; dL: number; contactSteps: number; scaleP: number; scaleL: number }

/** Steps the world, measuring the worst relative change of P and L and the centre of mass's distance from its line at every step. */
function run(world: World, steps: number, dt = 1 / 60): Run {
  const t0 = totals(world), time0 = world.time;
  const V = t0.P.map((p) => p / t0.M);
  let dP = 0, dC = 0, dL = 0, contactSteps = 0;
  for (let i = 0; i < steps; i++) {
    const st = world.step(dt);
    expect(st.error).toBe('');
    if (st.contacts > 0) contactSteps++;
    const t = totals(world), s = world.time - time0;
    dP = Math.max(dP, Math.hypot(t.P[0] - t0.P[0], t.P[1] - t0.P[1], t.P[2] - t0.P[2]) / Math.max(Math.hypot(...t0.P), t0.scaleP));
    dL = Math.max(dL, Math.hypot(t.L[0] - t0.L[0], t.L[1] - t0.L[1], t.L[2] - t0.L[2]) / t0.scaleL);
    dC = Math.max(dC, Math.hypot(t.C[0] - t0.C[0] - V[0] * s, t.C[1] - t0.C[1] - V[1] * s, t.C[2] - t0.C[2] - V[2] * s));
  }
  return { dP, dC, dL, contactSteps, scaleP: t0.scaleP, scaleL: t0.scaleL };
}

function report(name: string, r: Run): void {
  console.log(`[momentum] ${name}: |dP|/P ${r.dP.toExponential(2)}, centre of mass off its line ${r.dC.toExponential(2)} m, |dL|/L ${r.dL.toExponential(2)} (scales ${r.scaleP.toFixed(3)} kg m/s, ${r.scaleL.toFixed(3)} kg m^2/s), ${r.contactSteps} steps with contacts`);
}

const ZERO_G = { gravity: [0, 0, 0], sleep: false } as const;

describe('momentum is exact between bodies (zero gravity, no ground)', () => {
  it('a 0.05 kg sphere at 400 m/s into the chest of a tumbling ragdoll: P to 1e-9, the centre of mass on its line to 1e-9 m, L about it to 1e-9', () => {
    const world = new World(ZERO_G);
    const body = world.addBody(humanoidTree(), { name: 'ragdoll' });
    body.state.q[1] = 1;
    const rnd = random(7);
    for (let d = 0; d < body.model.nv; d++) body.state.qd[d] = 2 * rnd();
    body.state.qd[4] = -3; // falling
    forwardKinematics(body.model, body.state, true);
    const chest = body.model.linkNames.indexOf('chest');
    const p = new Float64Array(3);
    pointPosition(body.state, chest, [0, 0.14, 0], p);
    const sphere = world.addBody(sphereModel(0.02, 0.05), { name: 'sphere' });
    sphere.state.q.set([p[0], p[1], p[2] + 1]);
    sphere.state.qd[5] = -400;
    const r = run(world, 60);
    report('sphere at 400 m/s into a ragdoll', r);
    expect(r.contactSteps).toBeGreaterThan(0);
    expect(Math.abs(sphere.state.qd[5])).toBeLessThan(100); // the sphere was stopped, its momentum went to the ragdoll
    expect(r.dP).toBeLessThanOrEqual(1e-9);
    expect(r.dC).toBeLessThanOrEqual(1e-9);
    expect(r.dL).toBeLessThanOrEqual(1e-9);
  });

  it('two ragdolls colliding at 6 m/s: P to 1e-9 of sum |m v|, the centre of mass on its line to 1e-9 m, L about it to 1e-9', () => {
    const world = new World(ZERO_G);
    const rnd = random(11);
    for (const [x, v, name] of [[-0.6, 3, 'a'], [0.6, -3, 'b']] as const) {
      const body = world.addBody(humanoidTree(), { name });
      body.state.q[0] = x;
      body.state.q[1] = 1 + 0.2 * rnd();
      for (let d = 0; d < body.model.nv; d++) body.state.qd[d] = rnd();
      body.state.qd[3] = v; // the pelvis's frame is the world's: x
    }
    const r = run(world, 90);
    report('two ragdolls colliding', r);
    expect(r.contactSteps).toBeGreaterThan(5);
    expect(r.dP).toBeLessThanOrEqual(1e-9);
    expect(r.dC).toBeLessThanOrEqual(1e-9);
    expect(r.dL).toBeLessThanOrEqual(1e-9);
  });

  it('a 2 kg box at 20 m/s into a spinning 5 kg box: P to 1e-9, the centre of mass on its line to 1e-9 m, L about it to 1e-9', () => {
    const world = new World(ZERO_G);
    const a = world.addBody(boxModel(2, [0.1, 0.1, 0.1], 0.3), { name: 'a' });
    const b = world.addBody(boxModel(5, [0.3, 0.15, 0.2], 0.3), { name: 'b' });
    a.state.q.set([-1, 0.05, 0.02]);
    a.state.qd.set([1, -2, 0.5, 20, 0, 0]);
    b.state.q.set([0, 0, 0]);
    b.state.qd.set([0.3, 4, -1, 0, 0.5, 0]);
    const r = run(world, 90);
    report('box into a spinning box', r);
    expect(r.contactSteps).toBeGreaterThan(0);
    expect(r.dP).toBeLessThanOrEqual(1e-9);
    expect(r.dC).toBeLessThanOrEqual(1e-9);
    expect(r.dL).toBeLessThanOrEqual(1e-9);
  });

  it('two free boxes joined by a point pin, spinning and drifting: P to 1e-9, the centre of mass on its line to 1e-9 m, L about it to 1e-9', () => {
    const world = new World(ZERO_G);
    const a = world.addBody(boxModel(3, [0.2, 0.05, 0.1]), { name: 'a' });
    const b = world.addBody(boxModel(1, [0.1, 0.1, 0.3]), { name: 'b' });
    a.state.q.set([0, 0, 0]);
    b.state.q.set([0.5, 0, 0]);
    a.state.qd.set([0.5, 3, -1, 0.2, -1, 0.4]);
    b.state.qd.set([-2, 1, 4, 0, 2, -1]);
    // (the pin's points coincide at the start: between the two boxes)
    world.addConstraint(new PointPin(a.index, 0, [0.25, 0, 0], { body: b.index, link: 0, point: [-0.25, 0, 0] }));
    const r = run(world, 240);
    report('pinned pair spinning', r);
    expect(r.dP).toBeLessThanOrEqual(1e-9);
    expect(r.dC).toBeLessThanOrEqual(1e-9);
    expect(r.dL).toBeLessThanOrEqual(1e-9);
  });

  it('one free ragdoll alone, its joints swinging into their limits: P and L to 1e-9, the centre of mass on its line to 1e-9 m; one free rigid body alone: L as the integrator keeps it (printed)', () => {
    const world = new World(ZERO_G);
    const body = world.addBody(humanoidTree(), { name: 'ragdoll' });
    const rnd = random(3);
    for (let d = 0; d < body.model.nv; d++) body.state.qd[d] = 4 * rnd();
    const r = run(world, 240);
    report('lone ragdoll', r);
    expect(r.dP).toBeLessThanOrEqual(1e-9);
    expect(r.dC).toBeLessThanOrEqual(1e-9);
    expect(r.dL).toBeLessThanOrEqual(1e-9);
    const world2 = new World(ZERO_G);
    const box = world2.addBody(boxModel(2, [0.3, 0.1, 0.05]), { name: 'box' });
    box.state.qd.set([0.2, 5, 0.1, 1, 0, 0]); // near the intermediate axis: tumbles
    const r2 = run(world2, 240);
    report('lone rigid box tumbling', r2);
    expect(r2.dP).toBeLessThanOrEqual(1e-9);
    expect(r2.dC).toBeLessThanOrEqual(1e-9);
  });
});
