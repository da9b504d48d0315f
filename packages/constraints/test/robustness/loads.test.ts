/**
 * Limits and pins under loads 100 times a limb's mass, at 60 Hz with default settings (the world
 * chooses its sub-steps, World.autoSubsteps): every joint stays within 0.05 rad of its range and
 * every pin within 1 cm, throughout. The worst figures are printed.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardKinematics, pointPosition, type ShapeDesc } from '@sinew/featherstone';
import { PointPin, World, worstLimitViolation, type Body } from '../../src/index.js';
import { humanoidTree } from '../humanoid-fixture.js';

function crate(mass: number, he: number, shape: boolean) {
  const b = new ModelBuilder();
  const I = (mass * 2 * he * he) / 3;
  b.addLink({ name: 'crate', parent: null, joint: { type: 'free' }, mass, inertia: [I, I, I, 0, 0, 0], shapes: shape ? ([{ geometry: { type: 'box', halfExtents: [he, he, he] } }] as ShapeDesc[]) : [] });
  return b.build();
}

function worldPoint(body: Body, link: number, local: [number, number, number]): Float64Array {
  forwardKinematics(body.model, body.state);
  const p = new Float64Array(3);
  pointPosition(body.state, link, local, p);
  return p;
}

/** Steps 5 s at 60 Hz; returns the worst limit violation of `limbs` and the widest pin gap. */
function hold(world: World, limbs: Body[], pins: PointPin[]): { limit: number; pin: number; substeps: number } {
  const sep = new Float64Array(3);
  let limit = 0, pin = 0, substeps = 0;
  for (let s = 0; s < 300; s++) {
    const st = world.step(1 / 60);
    expect(st.recovery).toBe('');
    substeps = Math.max(substeps, st.substeps);
    for (const b of limbs) limit = Math.max(limit, worstLimitViolation(b).violation);
    for (const p of pins) { p.separation(world.bodies, sep); pin = Math.max(pin, Math.hypot(sep[0], sep[1], sep[2])); }
  }
  return { limit, pin, substeps };
}

describe('limits and pins under load (60 Hz, default settings)', () => {
  // Known failure: 8 sub-steps hold the pins (6 mm) but a wrist or shoulder cone goes 0.09 rad past
  // its limit: post-stabilisation measures a swing cone's gap to first order (g + h v) and a light
  // hand swings far within a step.
  it.fails('a ragdoll pinned at its pelvis holds a 50 kg crate (100 times its 0.5 kg hand) in a raised hand', () => {
    const world = new World();
    const body = world.addBody(humanoidTree(), { name: 'ragdoll' });
    body.state.q[1] = 2;
    const m = body.model, hand = m.linkNames.indexOf('l_hand'), arm = m.linkNames.indexOf('l_upperarm');
    const a = 1.2; // the arm raised sideways, within its 1.4 rad cone
    body.state.q.set([0, 0, Math.sin(a / 2), Math.cos(a / 2)], m.qOffset[arm]);
    const pelvis = world.addConstraint(new PointPin(body.index, 0, [0, 0, 0], { body: -1, link: -1, point: worldPoint(body, 0, [0, 0, 0]) }));
    const box = world.addBody(crate(50, 0.2, false), { name: 'crate' });
    box.state.q.set(worldPoint(body, hand, [0, -0.08, 0]), 0);
    const grip = world.addConstraint(new PointPin(body.index, hand, [0, -0.08, 0], { body: box.index, link: 0, point: [0, 0, 0] }));
    const r = hold(world, [body], [pelvis, grip]);
    console.log(`[loads] pelvis-pinned ragdoll with 50 kg in one hand: worst limit violation ${r.limit.toFixed(4)} rad, widest pin gap ${r.pin.toExponential(2)} m, ${r.substeps} sub-steps`);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
  });

  it('a ragdoll hangs by one hand from a ledge', () => {
    const world = new World();
    const body = world.addBody(humanoidTree(), { name: 'ragdoll' });
    body.state.q[1] = 1.5;
    const hand = body.model.linkNames.indexOf('r_hand');
    const ledge = world.addConstraint(new PointPin(body.index, hand, [0, 0, 0], { body: -1, link: -1, point: worldPoint(body, hand, [0, 0, 0]) }));
    const r = hold(world, [body], [ledge]);
    console.log(`[loads] ragdoll hanging by one hand: worst limit violation ${r.limit.toFixed(4)} rad, pin gap ${r.pin.toExponential(2)} m, ${r.substeps} sub-steps`);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
  });

  it('a ragdoll dropped on the ground with a 50 kg crate pinned to its hand', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const body = world.addBody(humanoidTree(), { name: 'ragdoll' });
    body.state.q[1] = 1.1;
    const hand = body.model.linkNames.indexOf('l_hand');
    const p = worldPoint(body, hand, [0, 0, 0]);
    const box = world.addBody(crate(50, 0.2, true), { name: 'crate' });
    box.state.q.set([p[0] + 0.35, p[1], p[2]], 0);
    const grip = world.addConstraint(new PointPin(body.index, hand, [0, 0, 0], { body: box.index, link: 0, point: [-0.35, 0, 0] }));
    const r = hold(world, [body], [grip]);
    console.log(`[loads] ragdoll dropped holding 50 kg: worst limit violation ${r.limit.toFixed(4)} rad, pin gap ${r.pin.toExponential(2)} m, ${r.substeps} sub-steps`);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
  });

  // Known failure at 1000 kg: with hinge limits on the links the chain leaves its limits by many
  // radians and the pin opens 1.7 m even at 8 sub-steps (without limits 8 sub-steps hold it to 1e-7 m).
  for (const M of [100, 1000]) {
    (M === 1000 ? it.fails : it)(`three 1 kg links on hinges hold a ${M} kg crate by a pin`, () => {
      const world = new World();
      const b = new ModelBuilder();
      let parent: string | null = null;
      for (let i = 0; i < 3; i++) {
        b.addLink({ name: `l${i}`, parent, joint: { type: 'revolute', axis: [0, 0, 1], position: i === 0 ? [0, 2, 0] : [0.3, 0, 0], limits: { lower: -2.5, upper: 2.5 } }, mass: 1, com: [0.15, 0, 0], inertia: [0.001, 0.0075, 0.0075, 0, 0, 0] });
        parent = `l${i}`;
      }
      const chain = world.addBody(b.build(), { name: 'chain' });
      const box = world.addBody(crate(M, 0.2, false), { name: 'crate' });
      box.state.q.set(worldPoint(chain, 2, [0.3, 0, 0]), 0);
      const pin = world.addConstraint(new PointPin(chain.index, 2, [0.3, 0, 0], { body: box.index, link: 0, point: [0, 0, 0] }));
      const r = hold(world, [chain], [pin]);
      console.log(`[loads] 3 x 1 kg chain holding ${M} kg: worst limit violation ${r.limit.toFixed(4)} rad, pin gap ${r.pin.toExponential(2)} m, ${r.substeps} sub-steps`);
      expect(r.limit).toBeLessThan(0.05);
      expect(r.pin).toBeLessThan(0.01);
    });
  }

  it('a 100 kg crate dropped onto a 1 kg hinged board (contact, no pin) keeps the hinge within its range', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const b = new ModelBuilder();
    b.addLink({ name: 'board', parent: null, joint: { type: 'revolute', axis: [0, 0, 1], position: [0, 1, 0], limits: { lower: -0.3, upper: 0.3 } }, mass: 1, com: [0.4, 0, 0], inertia: [0.001, 0.05, 0.05, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: [0.4, 0.03, 0.1] }, position: [0.4, 0, 0] }] as ShapeDesc[] });
    const board = world.addBody(b.build(), { name: 'board' });
    const box = world.addBody(crate(100, 0.15, true), { name: 'crate' });
    box.state.q.set([0.6, 1.2, 0], 0);
    const r = hold(world, [board], []);
    console.log(`[loads] 100 kg crate on a 1 kg hinged board: worst limit violation ${r.limit.toFixed(4)} rad, ${r.substeps} sub-steps`);
    expect(r.limit).toBeLessThan(0.05);
  });
});
