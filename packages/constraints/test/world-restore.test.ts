/**
 * World.restoreState over a world that went on after the save: bodies asleep both at the save and
 * at the restore keep no trace of where they slept in between. A box sleeps on the ground at x = 0
 * and is saved; it is moved to x = 5 and sleeps there while a ball is awake (so the collision world
 * places the sleeping box's shapes at x = 5 and keeps them there); the saved state is restored,
 * and a ball dropped on x = 0 must land on the box (centre at box top + radius = 1.1 m), not fall
 * through to the ground (0.1 m), and a ball dropped on x = 5 must reach the ground.
 *
 * And a resting humanoid (sleep off: its warm forces checked step after step) saved and restored
 * continues bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, type Model } from '@sinew/featherstone';
import { World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';
import { sameBits, stateBits } from './state-bits.js';

function single(name: string, geometry: { type: 'box'; halfExtents: [number, number, number] } | { type: 'sphere'; radius: number }, mass: number, inertia: number): Model {
  const b = new ModelBuilder();
  b.addLink({ name, parent: null, joint: { type: 'free' }, mass, inertia: [inertia, inertia, inertia, 0, 0, 0], shapes: [{ geometry }] });
  return b.build();
}

function scene() {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const box = world.addBody(single('box', { type: 'box', halfExtents: [0.5, 0.5, 0.5] }, 10, (10 * 0.5) / 3), { name: 'box' });
  const ball = world.addBody(single('ball', { type: 'sphere', radius: 0.1 }, 1, 0.004), { name: 'ball' });
  box.state.q.set([0, 0.5, 0]);
  ball.state.q.set([-3, 0.1, 0]);
  for (let i = 0; i < 300; i++) world.step(1 / 60);
  return { world, box, ball };
}

describe('World.restoreState and sleeping bodies', () => {
  it('a box asleep at the save and at the restore collides where the restored state puts it', () => {
    const { world, box, ball } = scene();
    expect(box.sleeping && ball.sleeping).toBe(true);
    const saved = world.saveState();
    // moved by hand (it wakes), asleep again at x = 5 while the ball is awake for a few steps
    box.state.q[0] = 5;
    for (let i = 0; i < 300; i++) world.step(1 / 60);
    ball.state.q[1] = 0.3;
    for (let i = 0; i < 60; i++) world.step(1 / 60);
    expect(box.sleeping).toBe(true);
    expect(box.state.q[0]).toBeCloseTo(5, 4);

    world.restoreState(saved);
    expect(box.sleeping).toBe(true);
    expect(box.state.q[0]).toBeCloseTo(0, 4);
    ball.state.q.set([0, 1.5, 0]);
    for (let i = 0; i < 120; i++) world.step(1 / 60);
    expect(ball.state.q[1]).toBeCloseTo(1.1, 2);
    expect(Math.abs(ball.state.q[0])).toBeLessThan(0.05);

    ball.state.q.set([5, 1.5, 0]);
    ball.state.qd.fill(0);
    for (let i = 0; i < 120; i++) world.step(1 / 60);
    expect(ball.state.q[1]).toBeCloseTo(0.1, 2);
  });
});

/** A humanoid lying on the ground, awake (sleep off): most of its steps find their warm forces hold without building K. */
function restingHumanoid(): World {
  const world = new World({ sleep: false });
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(humanoidTree({ dampingTime: 0.25 }), { name: 'lying' });
  const r = Math.SQRT1_2;
  body.state.q.set([0, 0.2, 0]);
  body.state.q.set([-r, 0, 0, r], 3);
  return world;
}

describe('World.restoreState of a resting body', () => {
  it('a resting humanoid saved after 600 steps continues bit for bit in a fresh world for 120 steps; restarted cold (its States only) it differs', () => {
    const A = restingHumanoid();
    for (let i = 0; i < 600; i++) A.step(1 / 60);
    const saved = A.saveState();
    const afterA: Uint8Array[] = [];
    for (let i = 0; i < 120; i++) { A.step(1 / 60); afterA.push(stateBits(A)); }
    const C = restingHumanoid();
    C.restoreState(saved);
    let same = 0;
    for (let i = 0; i < 120; i++) { C.step(1 / 60); if (sameBits(stateBits(C), afterA[i])) same++; }
    expect(same).toBe(120);
    // only the States (no warm starts, timers or flags): the forces then come from a cold start, and
    // the bits part (the motion is the same within the solver's tolerance)
    const D = restingHumanoid();
    D.bodies[0].state.restore(saved.bodies[0].state);
    let firstDiff = -1;
    for (let i = 0; i < 120 && firstDiff < 0; i++) { D.step(1 / 60); if (!sameBits(stateBits(D), afterA[i])) firstDiff = i; }
    console.log(`[restore] ${same}/120 steps bit-identical; restarted cold, the first difference is at step ${firstDiff}`);
    expect(firstDiff).toBeGreaterThanOrEqual(0);
  });
});
