/**
 * Sensors (ShapeDesc.sensor, World.setSensor): shapes that report overlaps in the contact events
 * and never push. A ball falling through a sensor box: its overlap begins when its lowest point
 * reaches the box's top, t1 = sqrt(2 (y0 - r - top) / g), and ends when its highest point leaves
 * the box's bottom, t2 = sqrt(2 (y0 + r - bottom) / g), each event within a step of those times,
 * and the ball's trajectory is the same to the bit as in a world without the sensor. A sensor on a
 * link (a halo around a ball) reports touching the ground before the ball lands, and the ball moves
 * as one without the halo.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '@sinew/featherstone';
import { RigidBody, World, type ContactEvent } from '../src/index.js';
import { sameBits } from './state-bits.js';

const DT = 1 / 60;
const G = 9.81;

const bitsOf = (q: Float64Array, qd: Float64Array) => new Uint8Array(Float64Array.from([...q, ...qd]).buffer);

describe('a sensor box', () => {
  it('a ball falls through it: began at t1 and ended at t2 within a step, no impulse, and the trajectory bit for bit as without the sensor', () => {
    const y0 = 3, r = 0.1, top = 2, bottom = 1.2;
    const build = (withSensor: boolean) => {
      const w = new World({ sleep: false, contactEvents: true });
      w.addStatic({ geometry: { type: 'plane' }, position: [0, -20, 0] });
      const sensor = withSensor ? w.addStatic({ geometry: { type: 'box', halfExtents: [0.5, (top - bottom) / 2, 0.5] }, position: [0, (top + bottom) / 2, 0], sensor: true }) : -1;
      const ball = w.addBody(RigidBody.sphere(r, { mass: 1 }), { position: [0.1, y0, 0], name: 'ball' });
      return { w, ball, sensor };
    };
    const a = build(true), b = build(false);
    const events: { type: string; time: number; impulse: number; sensor: boolean; shapeB: number }[] = [];
    for (let s = 0; s < 80; s++) {
      a.w.step(DT); b.w.step(DT);
      expect(sameBits(bitsOf(a.ball.state.q, a.ball.state.qd), bitsOf(b.ball.state.q, b.ball.state.qd))).toBe(true);
      a.w.drainContactEvents((e: ContactEvent) => events.push({ type: e.type, time: e.time, impulse: e.impulse, sensor: e.sensor, shapeB: e.shapeB }));
    }
    const t1 = Math.sqrt((2 * (y0 - r - top)) / G), t2 = Math.sqrt((2 * (y0 + r - bottom)) / G);
    const began = events.filter((e) => e.type === 'began'), ended = events.filter((e) => e.type === 'ended');
    expect(began.length).toBe(1);
    expect(ended.length).toBe(1);
    expect(began[0].shapeB).toBe(a.sensor);
    expect(began[0].sensor).toBe(true);
    expect(Math.abs(began[0].time - t1)).toBeLessThan(DT);
    expect(Math.abs(ended[0].time - t2)).toBeLessThan(DT);
    // persisted every step in between, never pushing
    const persisted = events.filter((e) => e.type === 'persisted');
    // (began: the poses at the start of its step; ended: the start of the first step whose poses no longer overlap)
    expect(persisted.length).toBe(Math.round((ended[0].time - began[0].time) / DT) - 1);
    expect(events.every((e) => e.impulse === 0)).toBe(true);
    // it fell through: below the box, at the speed of free fall
    expect(a.ball.state.q[1]).toBeLessThan(bottom - 1);
  });
});

describe('a sensor on a link', () => {
  it('a halo around a ball reports the ground before the ball lands and never pushes: the ball moves bit for bit as one without it', () => {
    const r = 0.1, halo = 0.3;
    const build = (withHalo: boolean) => {
      const w = new World({ sleep: false, contactEvents: true });
      const ground = w.addStatic({ geometry: { type: 'plane' } });
      const mb = new ModelBuilder();
      const I = 0.4 * r * r;
      mb.addLink({
        name: 'ball', parent: null, joint: { type: 'free' }, mass: 1, inertia: [I, I, I, 0, 0, 0],
        shapes: withHalo ? [{ geometry: { type: 'sphere', radius: r } }, { geometry: { type: 'sphere', radius: halo } }] : [{ geometry: { type: 'sphere', radius: r } }],
      });
      const ball = w.addBody(mb.build(), { position: [0, 1, 0], name: 'ball' });
      if (withHalo) w.setSensor(w.shapesOf(ball)[1], true);
      return { w, ball, ground };
    };
    const a = build(true), b = build(false);
    const first = new Map<string, number>();
    for (let s = 0; s < 90; s++) {
      a.w.step(DT); b.w.step(DT);
      expect(sameBits(bitsOf(a.ball.state.q, a.ball.state.qd), bitsOf(b.ball.state.q, b.ball.state.qd))).toBe(true);
      a.w.drainContactEvents((e) => { const k = `${e.type}${e.sensor ? ' sensor' : ''}`; if (!first.has(k)) first.set(k, e.time); });
    }
    // the halo overlaps the ground when the ball's centre is 0.3 m up (t = sqrt(2 * 0.6 / g)), the ball touches at 0.1 m
    expect(Math.abs(first.get('began sensor')! - Math.sqrt((2 * (1 - halo)) / G))).toBeLessThan(DT);
    expect(first.get('began')!).toBeGreaterThan(first.get('began sensor')!);
    expect(a.ball.state.q[1]).toBeCloseTo(r, 2);
  });
});
