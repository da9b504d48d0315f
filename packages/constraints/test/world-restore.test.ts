/**
 * World.restoreState over a world that went on after the save: bodies asleep both at the save and
 * at the restore keep no trace of where they slept in between. A box sleeps on the ground at x = 0
 * and is saved; it is moved to x = 5 and sleeps there while a ball is awake (so the collision world
 * places the sleeping box's shapes at x = 5 and keeps them there); the saved state is restored,
 * and a ball dropped on x = 0 must land on the box (centre at box top + radius = 1.1 m), not fall
 * through to the ground (0.1 m), and a ball dropped on x = 5 must reach the ground.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, type Model } from '@sinew/featherstone';
import { World } from '../src/index.js';

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
