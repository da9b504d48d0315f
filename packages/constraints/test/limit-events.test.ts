/**
 * Joint-limit hits (World.drainLimitHits) against a pendulum's energy: a rod of mass m, centre of
 * mass l from a hinge, released at rest horizontally, swings down to a stop at angle -theta below
 * the horizontal and reaches it at omega = sqrt(2 m g l sin(theta) / I), I its inertia about the
 * hinge. One hit at that speed (within what gravity adds in the step the stop engages in), none
 * while it rests at the stop; none when it reaches the stop slower than the threshold.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, type Model } from '@sinew/featherstone';
import { World, type LimitHit } from '../src/index.js';

const G = 9.81;

function pendulum(m: number, l: number, lower: number): { model: Model; I: number } {
  const b = new ModelBuilder();
  const Ic = 0.01 * m; // about the centre of mass, about z
  b.addLink({ name: 'rod', parent: null, joint: { type: 'revolute', name: 'hinge', axis: [0, 0, 1], limits: { lower, upper: Math.PI } }, mass: m, com: [l, 0, 0], inertia: [Ic, Ic, Ic, 0, 0, 0] });
  return { model: b.build(), I: Ic + m * l * l };
}

function hits(world: World): { joint: string; stop: string; speed: number; time: number; body: unknown }[] {
  const out: { joint: string; stop: string; speed: number; time: number; body: unknown }[] = [];
  world.drainLimitHits((h: LimitHit) => out.push({ joint: h.joint, stop: h.stop, speed: h.speed, time: h.time, body: h.body }));
  return out;
}

describe('joint-limit hits of a pendulum', () => {
  for (const dt of [1 / 60, 1 / 240]) {
    it(`released horizontally onto a stop 1 rad below (dt = 1/${1 / dt}): one hit at sqrt(2 m g l sin 1 / I) within the speed gravity adds in a step (alpha dt), none while it rests there`, () => {
      const m = 3, l = 0.5, theta = 1;
      const { model, I } = pendulum(m, l, -theta);
      const world = new World({ sleep: false, limitEvents: true });
      const body = world.addBody(model, { name: 'pendulum' });
      const all: ReturnType<typeof hits> = [];
      for (let s = 0; s < Math.round(2 / dt); s++) { world.step(dt); all.push(...hits(world)); }
      expect(all.length).toBe(1);
      const omega = Math.sqrt((2 * m * G * l * Math.sin(theta)) / I);
      // the angular acceleration near the stop: m g l cos(theta) / I
      const alpha = (m * G * l * Math.cos(theta)) / I;
      console.log(`[limit hit] dt 1/${1 / dt}: ${all[0].speed.toFixed(4)} rad/s against ${omega.toFixed(4)} (alpha dt = ${(alpha * dt).toFixed(4)})`);
      expect(Math.abs(all[0].speed - omega)).toBeLessThan(alpha * dt);
      expect(all[0]).toMatchObject({ joint: 'hinge', stop: 'lower', body });
      // it rests at the stop
      expect(body.state.q[0]).toBeCloseTo(-theta, 2);
      expect(Math.abs(body.state.qd[0])).toBeLessThan(1e-3);
    });
  }

  it('reaching the stop slower than limitHitSpeed gives no hit; faster, one', () => {
    const m = 3, l = 0.5;
    const { model, I } = pendulum(m, l, -1);
    const world = new World({ sleep: false, limitEvents: { minSpeed: 0.5 } });
    const body = world.addBody(model, { name: 'p' });
    // from 0.01 rad above the stop: it arrives at sqrt(2 m g l (sin 1 - sin 0.99) / I) = 0.46 rad/s
    body.state.q[0] = -0.99;
    const slow = Math.sqrt((2 * m * G * l * (Math.sin(1) - Math.sin(0.99))) / I);
    expect(slow).toBeLessThan(0.5);
    for (let s = 0; s < 60; s++) world.step(1 / 60);
    expect(hits(world)).toEqual([]);
    world.limitHitSpeed = 0.2;
    body.state.q[0] = -0.99;
    body.state.qd[0] = 0;
    for (let s = 0; s < 60; s++) world.step(1 / 60);
    const h = hits(world);
    expect(h.length).toBe(1);
    expect(Math.abs(h[0].speed - slow)).toBeLessThan(0.1 * slow + (m * G * l * Math.cos(1) / I) / 60);
    expect(() => { world.limitHitSpeed = -1; }).toThrow('World.limitHitSpeed: expected a speed >= 0');
  });
});
