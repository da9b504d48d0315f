/**
 * Lifetime of bodies, statics and constraints: World.removeBody, removeStatic, removeConstraint and
 * setEnabled / setShapeEnabled, between steps.
 *
 * The proof that a removal leaves a coherent world is a world built without the removed thing: a
 * world where a body (or a static) was added and then removed must go on with the same bits as a
 * world that never had it (q and qd of every body compared by their bits after every step), over a
 * pile of two ragdolls and three crates. Removing a body renumbers every later body (their rows,
 * warm starts, the solver's kept layout, the collision world), so the removed body is added before
 * the ragdolls, whose joint-limit rows are keyed by body index.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, type Model } from '@sinew/featherstone';
import { PointPin, TrajectoryFollower, World, type Body, type ConstraintSource, type StepContext } from '../src/index.js';
import { RowTag, type RowBuffer } from '../src/internals.js';
import { humanoidTree } from './humanoid-fixture.js';
import { sameBits } from './state-bits.js';

const DT = 1 / 60;

function ballModel(r: number, m: number, shape = true): Model {
  const b = new ModelBuilder();
  const I = 0.4 * m * r * r;
  b.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0], shapes: shape ? [{ geometry: { type: 'sphere', radius: r } }] : [] });
  return b.build();
}

function boxModel(m: number, he: [number, number, number]): Model {
  const b = new ModelBuilder();
  const [x, y, z] = he;
  b.addLink({ name: 'box', parent: null, joint: { type: 'free' }, mass: m, inertia: [(m * (y * y + z * z)) / 3, (m * (x * x + z * z)) / 3, (m * (x * x + y * y)) / 3, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: he } }] });
  return b.build();
}

/** q and qd of the given bodies, as bytes. */
function bits(bodies: readonly Body[]): Uint8Array {
  const parts: number[] = [];
  for (const b of bodies) parts.push(...b.state.q, ...b.state.qd);
  return new Uint8Array(Float64Array.from(parts).buffer);
}

/**
 * Two ragdolls and three crates dropped onto a plane (and a ramp). `extra` is called at the point
 * of construction where the world under test adds what it will remove (before the ragdolls).
 */
function pile(extra?: (w: World) => void): World {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  extra?.(world);
  world.addStatic({ geometry: { type: 'box', halfExtents: [0.6, 0.05, 0.6] }, position: [2, 0.3, 0], rotation: [0, 0, Math.sin(0.15), Math.cos(0.15)] });
  for (let i = 0; i < 2; i++) {
    const b = world.addBody(humanoidTree({ dampingTime: 0.25 }));
    b.state.q.set([0.2 * i, 0.9 + 0.5 * i, 0.1 * i], 0);
  }
  for (let i = 0; i < 3; i++) {
    const b = world.addBody(boxModel(4, [0.15, 0.1, 0.2]), { name: `crate${i}` });
    b.state.q.set([1.8 + 0.1 * i, 0.8 + 0.35 * i, 0.05 * i], 0);
  }
  return world;
}

/** Steps two worlds `steps` times; the index of the first step after which their bits differ, or -1. */
function firstDivergence(a: World, bodiesA: () => readonly Body[], b: World, steps: number, each?: (s: number) => void): number {
  for (let s = 0; s < steps; s++) {
    each?.(s);
    a.step(DT);
    b.step(DT);
    if (!sameBits(bits(bodiesA()), bits(b.bodies))) return s;
  }
  return -1;
}

describe('World.removeBody', () => {
  it('a body added and removed before the first step: the world goes on as one built without it, bit for bit, for 300 steps', () => {
    let x: Body | null = null;
    const a = pile((w) => { x = w.addBody(ballModel(0.2, 3)); x.state.q[1] = 0.5; });
    a.removeBody(x!);
    const b = pile();
    expect(a.bodies.map((body) => body.index)).toEqual(b.bodies.map((body) => body.index));
    expect(firstDivergence(a, () => a.bodies, b, 300)).toBe(-1);
  });

  it('a body flying apart removed after 100 steps: the pile goes on bit for bit as in a world that never had it (300 steps, joint limits of the renumbered ragdolls at their stops)', () => {
    let x: Body | null = null;
    // far above and aside: never near the pile, never a row, so the two worlds agree before the removal too
    const a = pile((w) => { x = w.addBody(ballModel(0.2, 3)); x.state.q.set([40, 60, 0], 0); });
    const b = pile();
    const rest = () => a.bodies.filter((body) => body !== x);
    let limitRows = 0;
    const at = firstDivergence(a, rest, b, 300, (s) => {
      if (s === 100) {
        const ragdollIndex = a.bodies[1].index;
        a.removeBody(x!);
        // the ragdolls moved down one place
        expect(a.bodies[0].index).toBe(ragdollIndex - 1);
      }
      if (s > 100) for (let j = 0; j < a.rows.count; j++) if (a.rows.tag[j] === RowTag.Limit) limitRows++;
    });
    expect(at).toBe(-1);
    // the renumbered ragdolls' limits were at their stops after the removal (their warm starts were renumbered)
    expect(limitRows).toBeGreaterThan(50);
  });

  it('a crate that landed on the pile removed at step 90: the world saved right after restores into a world where it was removed before the first step, and both go on bit for bit', () => {
    let x: Body | null = null;
    const crate = (w: World) => { x = w.addBody(boxModel(4, [0.15, 0.1, 0.2])); x.state.q.set([1.9, 1.8, 0], 0); };
    const a = pile(crate);
    for (let s = 0; s < 90; s++) expect(a.step(DT).error).toBe('');
    // it touches the pile or the ramp: its removal changes the others' rows
    expect(x!.state.q[1]).toBeLessThan(1.2);
    a.removeBody(x!);
    const saved = structuredClone(a.saveState());
    // (built the same way: warm starts of contacts are keyed by shape handles, which the removed
    // crate's shape took its own of; the first test shows such a world is one that never had it)
    const b = pile(crate);
    b.removeBody(x!);
    b.restoreState(saved);
    expect(firstDivergence(a, () => a.bodies, b, 200)).toBe(-1);
    expect(a.bodies.every((body) => body.state.q.every(Number.isFinite))).toBe(true);
  });

  it('contact ids are never given twice: a crate removed and another added in its place starts cold, bit for bit as in a fresh world', () => {
    const build = () => { const w = new World(); w.addStatic({ geometry: { type: 'plane' } }); return w; };
    const a = build();
    const old = a.addBody(boxModel(4, [0.15, 0.1, 0.2]), { name: 'crate' });
    old.state.q[1] = 0.1;
    for (let s = 0; s < 100; s++) a.step(DT);
    a.removeBody(old);
    // the same name, model and place: only its shapes' handles (and so its contacts' keys) differ
    const fresh = a.addBody(boxModel(4, [0.15, 0.1, 0.2]), { name: 'crate' });
    fresh.state.q.set([0.02, 0.12, 0], 0);
    const b = build();
    const ref = b.addBody(boxModel(4, [0.15, 0.1, 0.2]), { name: 'crate' });
    ref.state.q.set([0.02, 0.12, 0], 0);
    for (let s = 0; s < 150; s++) {
      a.step(DT); b.step(DT);
      expect(sameBits(bits([fresh]), bits([ref]))).toBe(true);
    }
  });

  it('a static added and removed: the world goes on as one built without it, bit for bit', () => {
    let h = -1;
    const a = pile((w) => { h = w.addStatic({ geometry: { type: 'box', halfExtents: [0.3, 0.3, 0.3] }, position: [0, 0.3, 0] }); });
    // the box stands where the first ragdoll falls: remove it before it is hit
    a.removeStatic(h);
    const b = pile();
    expect(firstDivergence(a, () => a.bodies, b, 300)).toBe(-1);
  });

  it('a static removed under a sleeping ball wakes it: it falls to the ground', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const shelf = world.addStatic({ geometry: { type: 'box', halfExtents: [0.5, 0.05, 0.5] }, position: [0, 1, 0] });
    const ball = world.addBody(ballModel(0.1, 1));
    ball.state.q[1] = 1.2;
    for (let s = 0; s < 120; s++) world.step(DT);
    expect(ball.state.q[1]).toBeCloseTo(1.15, 2);
    expect(world.stats.sleeping).toBe(1);
    // (no wake: removing what a sleeper rests on wakes it)
    world.removeStatic(shelf);
    for (let s = 0; s < 120; s++) world.step(DT);
    expect(ball.state.q[1]).toBeCloseTo(0.1, 2);
  });

  it('the constraints attached to a removed body go with it; those of later bodies are renumbered and keep holding', () => {
    const world = new World();
    const a = world.addBody(ballModel(0.1, 1), { name: 'a' });
    const b = world.addBody(ballModel(0.1, 1), { name: 'b' });
    b.state.q.set([1, 0, 0], 0);
    const pinA = world.addConstraint(new PointPin(0, 0, [0, 0.1, 0], { body: -1, link: -1, point: [0, 0.1, 0] }));
    const pinB = world.addConstraint(new PointPin(1, 0, [0, 0.1, 0], { body: -1, link: -1, point: [1, 0.1, 0] }));
    world.removeBody(a);
    expect(world.sources.includes(pinA)).toBe(false);
    expect(pinB.bodyA).toBe(0);
    for (let s = 0; s < 60; s++) world.step(DT);
    // still held where it was pinned (without the pin it falls 4.9 m in a second)
    expect(Math.abs(b.state.q[1])).toBeLessThan(1e-3);
    expect(world.removeConstraint(pinA)).toBe(false);
    expect(world.removeConstraint(pinB)).toBe(true);
    expect(() => world.removeConstraint(world.limits)).toThrow(/own joint limits cannot be removed/);
  });

  it('drives of later bodies, alone or held by another source (as a character controller holds its drive), are renumbered and drive their own body', () => {
    const hinge = () => {
      const b = new ModelBuilder();
      b.addLink({ name: 'arm', parent: null, mass: 1, com: [0.3, 0, 0], inertia: [0.01, 0.01, 0.01, 0, 0, 0], joint: { type: 'revolute', axis: [0, 0, 1] } });
      return b.build();
    };
    /** A source that adds its rows through a drive it holds. */
    class Controller implements ConstraintSource {
      constructor(readonly drive: TrajectoryFollower) {}
      addRows(rows: RowBuffer, ctx: StepContext): void { this.drive.addRows(rows, ctx); }
    }
    const world = new World({ gravity: [0, 0, 0] });
    const x = world.addBody(hinge(), { name: 'x' });
    const a = world.addBody(hinge(), { name: 'a' });
    const b = world.addBody(hinge(), { name: 'b' });
    const driveA = world.addConstraint(new TrajectoryFollower(a, { settleTime: 0.2 }));
    const ctrl = world.addConstraint(new Controller(new TrajectoryFollower(b, { settleTime: 0.2 })));
    driveA.targetQ[0] = 0.5;
    ctrl.drive.targetQ[0] = -0.7;
    world.removeBody(x);
    expect(driveA.body).toBe(0);
    expect(ctrl.drive.body).toBe(1);
    for (let s = 0; s < 120; s++) world.step(DT);
    expect(a.state.q[0]).toBeCloseTo(0.5, 3);
    expect(b.state.q[0]).toBeCloseTo(-0.7, 3);
  });

  it('a removed body is refused by every later call that names it, with its name; it can be added again', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const x = world.addBody(ballModel(0.1, 1), { name: 'x' });
    const y = world.addBody(ballModel(0.1, 1), { name: 'y' });
    x.state.q[1] = 0.5; y.state.q.set([1, 0.5, 0], 0);
    world.step(DT);
    const before = world.saveState();
    world.removeBody(x);
    expect(x.removed).toBe(true);
    expect(() => world.wake(x)).toThrow('World.wake: body "x" was removed from this world');
    expect(() => world.removeBody(x)).toThrow('World.removeBody: body "x" was removed from this world');
    expect(() => world.setEnabled(x, false)).toThrow('World.setEnabled: body "x" was removed from this world');
    expect(() => world.shapesOf(x)).toThrow('World.shapesOf: body "x" was removed from this world');
    expect(() => world.addConstraint(new PointPin(x.index, 0, [0, 0, 0], { body: -1, link: -1, point: [0, 0, 0] }))).toThrow(/names body -1.*removed/);
    // a state saved before the removal
    expect(() => world.restoreState(before)).toThrow('World.restoreState: the state was saved before body "x" was removed from this world');
    // queries and steps go on (a body popped by hand broke CollisionWorld.update)
    for (let s = 0; s < 30; s++) expect(world.step(DT).error).toBe('');
    expect(world.castRay([1, 2, 0], [0, -1, 0], 10)?.body).toBe(0);
    // added again, with its state: it is simulated again
    const again = world.addBody(x.model, { name: 'x', state: x.state });
    const state = world.saveState();
    expect(() => world.restoreState(before)).toThrow(/was removed from this world/);
    for (let s = 0; s < 60; s++) world.step(DT);
    expect(again.state.q[1]).toBeCloseTo(0.1, 2);
    world.restoreState(state);
    expect(again.state.q[1]).toBe(state.bodies[1].state[1]);
    // a static handle removed
    const h = world.addStatic({ geometry: { type: 'sphere', radius: 1 }, position: [5, 0, 0] });
    world.removeStatic(h);
    expect(() => world.removeStatic(h)).toThrow(`World.removeStatic: static shape ${h} was removed from this world`);
    expect(() => world.collision.setStaticPose(h, [0, 0, 0])).toThrow(/was removed/);
    expect(() => world.setShapeEnabled(h, true)).toThrow(/was removed/);
  });
});

describe('World.setEnabled and setShapeEnabled', () => {
  it('a disabled body neither moves nor collides and keeps its state: a ball falls through it as through nothing (bit for bit), and it falls once enabled', () => {
    const build = (withPlate: boolean) => {
      const w = new World();
      w.addStatic({ geometry: { type: 'plane' } });
      const plate = withPlate ? w.addBody(boxModel(5, [0.5, 0.05, 0.5]), { name: 'plate' }) : null;
      if (plate) { plate.state.q[1] = 1; plate.state.qd[4] = 0.3; plate.enabled = false; }
      const ball = w.addBody(ballModel(0.1, 1), { name: 'ball' });
      ball.state.q[1] = 2;
      return { w, plate, ball };
    };
    const a = build(true), b = build(false);
    const plateState = a.plate!.state.save();
    for (let s = 0; s < 120; s++) {
      a.w.step(DT); b.w.step(DT);
      expect(sameBits(bits([a.ball]), bits([b.ball]))).toBe(true);
    }
    // through the plate onto the ground
    expect(a.ball.state.q[1]).toBeCloseTo(0.1, 2);
    // (held asleep while disabled, but not counted among the sleepers)
    expect(a.plate!.sleeping).toBe(true);
    expect(a.w.stats.sleeping).toBe(b.w.stats.sleeping);
    expect(sameBits(new Uint8Array(a.plate!.state.save().buffer), new Uint8Array(plateState.buffer))).toBe(true);
    // no query sees it
    expect(a.w.castRay([0, 3, 0.3], [0, -1, 0], 10)?.body).toBe(-1);
    a.w.setEnabled(a.plate!, true);
    expect(a.w.castRay([0, 3, 0.3], [0, -1, 0], 10)?.body).toBe(a.plate!.index);
    a.w.step(DT);
    // it goes on from its kept state, its velocity (0.3 m/s up) included, under gravity (semi-implicit Euler)
    expect(a.plate!.state.q[1]).toBeCloseTo(1 + (0.3 - 9.81 * DT) * DT, 12);
  });

  it('a saved state keeps a body disabled', () => {
    const w = new World();
    const x = w.addBody(ballModel(0.1, 1), { name: 'x' });
    w.setEnabled(x, false);
    const saved = w.saveState();
    w.setEnabled(x, true);
    w.step(DT);
    expect(x.state.q[1]).toBeLessThan(0);
    w.restoreState(saved);
    expect(x.enabled).toBe(false);
    w.step(DT);
    expect(x.state.q[1]).toBe(0);
  });

  it('a static shape turned off lets a ball through as a world without it (bit for bit); a link shape turned off falls through the ground as a body without shapes', () => {
    const build = (box: boolean, shape = true) => {
      const w = new World();
      w.addStatic({ geometry: { type: 'plane' } });
      const h = box ? w.addStatic({ geometry: { type: 'box', halfExtents: [0.5, 0.05, 0.5] }, position: [0, 1, 0] }) : -1;
      const ball = w.addBody(ballModel(0.1, 1, shape), { name: 'ball' });
      ball.state.q[1] = 2;
      return { w, h, ball };
    };
    const a = build(true), b = build(false);
    a.w.setShapeEnabled(a.h, false);
    for (let s = 0; s < 120; s++) { a.w.step(DT); b.w.step(DT); }
    expect(sameBits(bits([a.ball]), bits([b.ball]))).toBe(true);
    expect(a.ball.state.q[1]).toBeCloseTo(0.1, 2);

    const c = build(false), d = build(false, false);
    const [shape] = c.w.shapesOf(c.ball);
    c.w.setShapeEnabled(shape, false);
    for (let s = 0; s < 60; s++) { c.w.step(DT); d.w.step(DT); }
    expect(c.ball.state.q[1]).toBeLessThan(-1);
    expect(sameBits(bits([c.ball]), bits([d.ball]))).toBe(true);
  });
});
