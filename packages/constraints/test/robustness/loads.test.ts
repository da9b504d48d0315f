/**
 * Limits and pins under loads 100 times a limb's mass, at 60 Hz with default settings (the world
 * chooses its sub-steps, World.autoSubsteps): every joint stays within 0.05 rad of its range and
 * every pin within 1 cm, throughout. How a fall lands is chaotic, so each scene is judged over
 * STARTS starts 0.1 mm apart; the worst figures are printed.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, type ShapeDesc } from '@sinew/featherstone';
import { crate, worldPoint } from './random-loads.js';
import { PointPin, World, worstLimitViolation, type Body } from '../../src/index.js';
import { humanoidTree } from '../humanoid-fixture.js';

const STARTS = 4;

interface LoadScene { world: World; limbs: Body[]; pins: PointPin[] }

/** Steps each start's scene 5 s at 60 Hz; the worst limit violation of its limbs and the widest pin gap over all starts. */
async function hold(build: (dy: number) => LoadScene): Promise<{ limit: number; pin: number; substeps: number; each: string; retakes: number }> {
  const sep = new Float64Array(3);
  let limit = 0, pin = 0, substeps = 0, retakes = 0;
  const each: string[] = [];
  for (let k = 0; k < STARTS; k++) {
    const { world, limbs, pins } = build(k * 1e-4);
    let worst = 0;
    for (let s = 0; s < 300; s++) {
      const st = world.step(1 / 60);
      expect(st.recovery).toBe('');
      // (a turn for the test runner now and then: a long computation without one makes its worker time out)
      if (s % 60 === 59) await new Promise((r) => setImmediate(r));
      substeps = Math.max(substeps, st.substeps);
      retakes += st.loadRetakes;
      for (const b of limbs) worst = Math.max(worst, worstLimitViolation(b).violation);
      for (const p of pins) { p.separation(world.bodies, sep); pin = Math.max(pin, Math.hypot(sep[0], sep[1], sep[2])); }
    }
    each.push(worst.toFixed(3));
    limit = Math.max(limit, worst);
  }
  return { limit, pin, substeps, each: each.join(' '), retakes };
}

const report = (name: string, r: { limit: number; pin: number; substeps: number; each: string; retakes: number }): void =>
  console.log(`[loads] ${name}: worst limit violation ${r.limit.toFixed(4)} rad (starts: ${r.each}), widest pin gap ${r.pin.toExponential(2)} m, up to ${r.substeps} sub-steps, ${r.retakes} steps taken again`);

function pelvisPinnedWithCrate(dy: number): LoadScene {
  const world = new World();
  const body = world.addBody(humanoidTree(), { name: 'ragdoll' });
  body.state.q[1] = 2 + dy;
  const m = body.model, hand = m.linkNames.indexOf('l_hand'), arm = m.linkNames.indexOf('l_upperarm');
  const a = 1.2; // the arm raised sideways, within its 1.4 rad cone
  body.state.q.set([0, 0, Math.sin(a / 2), Math.cos(a / 2)], m.qOffset[arm]);
  const pelvis = world.addConstraint(new PointPin(body.index, 0, [0, 0, 0], { body: -1, link: -1, point: worldPoint(body, 0, [0, 0, 0]) }));
  const box = world.addBody(crate(50, 0.2, false), { name: 'crate' });
  box.state.q.set(worldPoint(body, hand, [0, -0.08, 0]), 0);
  const grip = world.addConstraint(new PointPin(body.index, hand, [0, -0.08, 0], { body: box.index, link: 0, point: [0, 0, 0] }));
  return { world, limbs: [body], pins: [pelvis, grip] };
}

function hangingByOneHand(dy: number): LoadScene {
  const world = new World();
  const body = world.addBody(humanoidTree(), { name: 'ragdoll' });
  body.state.q[1] = 1.5 + dy;
  const hand = body.model.linkNames.indexOf('r_hand');
  const ledge = world.addConstraint(new PointPin(body.index, hand, [0, 0, 0], { body: -1, link: -1, point: worldPoint(body, hand, [0, 0, 0]) }));
  return { world, limbs: [body], pins: [ledge] };
}

function droppedHoldingCrate(dy: number): LoadScene {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(humanoidTree(), { name: 'ragdoll' });
  body.state.q[1] = 1.1 + dy;
  const hand = body.model.linkNames.indexOf('l_hand');
  const p = worldPoint(body, hand, [0, 0, 0]);
  const box = world.addBody(crate(50, 0.2, true), { name: 'crate' });
  box.state.q.set([p[0] + 0.35, p[1], p[2]], 0);
  const grip = world.addConstraint(new PointPin(body.index, hand, [0, 0, 0], { body: box.index, link: 0, point: [-0.35, 0, 0] }));
  return { world, limbs: [body], pins: [grip] };
}

function chainHoldingCrate(M: number, dy: number): LoadScene {
  const world = new World();
  const b = new ModelBuilder();
  let parent: string | null = null;
  for (let i = 0; i < 3; i++) {
    b.addLink({ name: `l${i}`, parent, joint: { type: 'revolute', axis: [0, 0, 1], position: i === 0 ? [0, 2 + dy, 0] : [0.3, 0, 0], limits: { lower: -2.5, upper: 2.5 } }, mass: 1, com: [0.15, 0, 0], inertia: [0.001, 0.0075, 0.0075, 0, 0, 0] });
    parent = `l${i}`;
  }
  const chain = world.addBody(b.build(), { name: 'chain' });
  chain.state.q[0] = -10 * dy; // level, the crate swinging down into the stops
  const box = world.addBody(crate(M, 0.2, false), { name: 'crate' });
  box.state.q.set(worldPoint(chain, 2, [0.3, 0, 0]), 0);
  const pin = world.addConstraint(new PointPin(chain.index, 2, [0.3, 0, 0], { body: box.index, link: 0, point: [0, 0, 0] }));
  return { world, limbs: [chain], pins: [pin] };
}

/**
 * A chain of `links` capsule links of `mass` kg, 30 cm apart along x, on ball joints with cones of
 * 1 rad and twists of 0.5 rad: its first link on such a joint at `base`, or free when base is null.
 */
function ballChain(links: number, mass: number, base: [number, number, number] | null) {
  const b = new ModelBuilder();
  const limits = { twistAxis: [1, 0, 0] as [number, number, number], swing: [1, 1] as [number, number], twist: [-0.5, 0.5] as [number, number] };
  let parent: string | null = null;
  for (let i = 0; i < links; i++) {
    b.addLink({
      name: `l${i}`, parent,
      joint: i > 0 ? { type: 'spherical', position: [0.3, 0, 0], limits } : base ? { type: 'spherical', position: base, limits } : { type: 'free' },
      mass, com: [0.15, 0, 0], inertia: [mass / 1000, (mass * 7.5) / 1000, (mass * 7.5) / 1000, 0, 0, 0],
      shapes: [{ geometry: { type: 'capsule', radius: 0.04, halfLength: 0.1 }, position: [0.15, 0, 0], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] }] as ShapeDesc[],
    });
    parent = `l${i}`;
  }
  return b.build();
}

/**
 * A 127 kg crate with a box shape (40 cm) held at its centre by a pin to the tip of a fixed 2-link
 * chain of 1.4 kg links on ball joints (ballChain): the box overlaps the link that holds it. Links
 * a pin joins do not collide unless the pin asks (PointPin.collideConnected).
 */
function crateInsideGrip(collideConnected: boolean, dy: number): LoadScene {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const chain = world.addBody(ballChain(2, 1.4, [0, 2 + dy, 0]), { name: 'chain' });
  const box = world.addBody(crate(127, 0.2, true), { name: 'crate' });
  box.state.q.set(worldPoint(chain, 1, [0.3, 0, 0]), 0);
  const pin = world.addConstraint(new PointPin(chain.index, 1, [0.3, 0, 0], { body: box.index, link: 0, point: [0, 0, 0] }, { collideConnected }));
  return { world, limbs: [chain], pins: [pin] };
}

/**
 * An 8-link chain of 0.5 kg links on ball joints (ballChain), its free base pinned to the world,
 * holding a 40 kg crate (80 times a link) by a pin 26 cm above the crate's centre; the chain starts
 * level, the crate swinging down. `substeps` 0 leaves them to the world.
 */
function longChainHoldingCrate(substeps: number, dy: number): LoadScene {
  const world = new World(substeps > 0 ? { substeps } : {});
  const chain = world.addBody(ballChain(8, 0.5, null), { name: 'chain' });
  chain.state.q[1] = 2 + dy;
  const base = world.addConstraint(new PointPin(chain.index, 0, [0, 0, 0], { body: -1, link: -1, point: worldPoint(chain, 0, [0, 0, 0]) }));
  const box = world.addBody(crate(40, 0.2, true), { name: 'crate' });
  const tip = worldPoint(chain, 7, [0.3, 0, 0]);
  box.state.q.set([tip[0], tip[1] - 0.26, tip[2]], 0);
  const grip = world.addConstraint(new PointPin(chain.index, 7, [0.3, 0, 0], { body: box.index, link: 0, point: [0, 0.26, 0] }));
  return { world, limbs: [chain], pins: [base, grip] };
}

function crateOnBoard(dy: number): LoadScene {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const b = new ModelBuilder();
  b.addLink({ name: 'board', parent: null, joint: { type: 'revolute', axis: [0, 0, 1], position: [0, 1, 0], limits: { lower: -0.3, upper: 0.3 } }, mass: 1, com: [0.4, 0, 0], inertia: [0.001, 0.05, 0.05, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: [0.4, 0.03, 0.1] }, position: [0.4, 0, 0] }] as ShapeDesc[] });
  const board = world.addBody(b.build(), { name: 'board' });
  const box = world.addBody(crate(100, 0.15, true), { name: 'crate' });
  box.state.q.set([0.6, 1.2 + dy, 0], 0);
  return { world, limbs: [board], pins: [] };
}

describe('limits and pins under load (60 Hz, default settings)', () => {
  it('a ragdoll hangs by one hand from a ledge', async () => {
    const r = await hold(hangingByOneHand);
    report('ragdoll hanging by one hand', r);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
  });

  it('three 1 kg links on hinges hold a 100 kg crate by a pin', async () => {
    const r = await hold((dy) => chainHoldingCrate(100, dy));
    report('3 x 1 kg chain holding 100 kg', r);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
  });

  it('a 100 kg crate dropped onto a 1 kg hinged board (contact, no pin) keeps the hinge within its range', async () => {
    const r = await hold(crateOnBoard);
    report('100 kg crate on a 1 kg hinged board', r);
    expect(r.limit).toBeLessThan(0.05);
  });

  // Twist rows measured d psi/dt as a . w, which misses the twist the swing carries (a third of
  // the true rate at a 1.2 rad swing): a shoulder's twist drifted 0.02 rad a sub-step with its row
  // at rest and stabilisation overshot; these two went to 0.091 and 0.022-0.063 rad before the
  // exact twist-rate direction (sphericalGaps), 0.047 and 0.044 rad after it, and 0.021 and 0.032
  // rad with the steps a pinned load did not hold taken again (load-check.ts).
  it('a ragdoll pinned at its pelvis holds a 50 kg crate (100 times its 0.5 kg hand) in a raised hand', async () => {
    const r = await hold(pelvisPinnedWithCrate);
    report('pelvis-pinned ragdoll with 50 kg in one hand', r);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
  });

  it('a ragdoll dropped on the ground with a 50 kg crate pinned to its hand', async () => {
    const r = await hold(droppedHoldingCrate);
    report('ragdoll dropped holding 50 kg', r);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
  });

  // the box and the link it is pinned to overlap: their contact pushed them apart against the pin
  // (post-stabilisation moved the overlap out by its reach each pass), and the pin opened 0.75 m
  // in the first step and 2 m within 5 s; with the pair left out of detection it holds
  it('a 127 kg crate pinned at its centre to a 2-link chain of 1.4 kg links, its box around the link: the pin holds; with collideConnected it opens', async () => {
    const r = await hold((dy) => crateInsideGrip(false, dy));
    report('127 kg crate pinned inside the link holding it', r);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
    const colliding = await hold((dy) => crateInsideGrip(true, dy));
    report('the same with collideConnected', colliding);
    expect(colliding.pin).toBeGreaterThan(0.1);
  });

  // the world's rule gives 4 sub-steps for 44 kg held on 0.5 kg links (a ratio of 88), at which
  // the chain comes apart; the steps after which a pin stood more than 3 mm further open, or a
  // joint 0.01 rad further past its stops, are taken again in twice the sub-steps (load-check.ts)
  it('an 8-link chain of 0.5 kg links holds a 40 kg crate: steps the sub-steps of the mass rule (4) do not hold are taken again in more, and the pins and limits hold; at 4 throughout they do not', async () => {
    const r = await hold((dy) => longChainHoldingCrate(0, dy));
    report('8 x 0.5 kg chain holding 40 kg, sub-steps the world\'s', r);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
    expect(r.retakes).toBeGreaterThan(0);
    const fixed = await hold((dy) => longChainHoldingCrate(4, dy));
    report('the same at 4 sub-steps set by the user', fixed);
    expect(fixed.pin).toBeGreaterThan(0.1);
    expect(fixed.retakes).toBe(0);
  });

  it('the same chain saved at a step and restored into a fresh world goes on bit for bit, through the steps it takes again', () => {
    const a = longChainHoldingCrate(0, 0).world, b = longChainHoldingCrate(0, 0).world;
    for (let s = 0; s < 40; s++) a.step(1 / 60);
    b.restore(a.snapshot());
    let retakes = 0;
    for (let s = 0; s < 120; s++) {
      retakes += a.step(1 / 60).loadRetakes;
      b.step(1 / 60);
      for (let i = 0; i < a.bodies.length; i++) {
        expect(Array.from(b.bodies[i].state.q), `step ${s}, body ${i}: q`).toEqual(Array.from(a.bodies[i].state.q));
        expect(Array.from(b.bodies[i].state.qd), `step ${s}, body ${i}: qd`).toEqual(Array.from(a.bodies[i].state.qd));
      }
    }
    console.log(`[loads] 8 x 0.5 kg chain restored at step 40: 120 steps bit for bit, ${retakes} of them taken again`);
    expect(retakes).toBeGreaterThan(0);
  });

  // 1000 times the links' mass: the stop holds with the exact solve of pin and limit rows (30 PGS
  // sweeps left residuals of 4 to 60), and the world takes 32 sub-steps for the ratio (at 8 and 16
  // the straightening light links whipped out of their limits by radians after leaving the stop).
  it('three 1 kg links on hinges hold a 1000 kg crate by a pin', async () => {
    const r = await hold((dy) => chainHoldingCrate(1000, dy));
    report('3 x 1 kg chain holding 1000 kg', r);
    expect(r.limit).toBeLessThan(0.05);
    expect(r.pin).toBeLessThan(0.01);
  });
});
