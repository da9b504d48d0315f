/**
 * Contact events (World.drainContactEvents) and contact forces (World.contactForces) against the
 * motion they describe and the contacts the step used:
 * - a ball dropped from height H onto a plane: one 'began' at the first touch, with the approach
 *   speed sqrt(2 g H) and the time sqrt(2 H / g) within a step; 'persisted' every step while it
 *   rests, with the normal impulse m g dt; one 'ended' the step after it is lifted away;
 * - a bouncing ball: the impulse of the landing step equals its change of momentum plus what
 *   gravity took in the step (m (v+ - v-) + m g dt), impact included;
 * - a pile of crates: each step's events are the pairs the step's contact buffer and rows say touch
 *   (a point overlapping or a normal row pushing), their impulses the sums of those rows' forces
 *   times the step; every pair ended is one that touched the step before and not now;
 * - contact forces of a crate resting on the ground add up to its weight and no moment about
 *   its centre of mass.
 */
import { describe, expect, it } from 'vitest';
import { forwardKinematics } from '@sinew/featherstone';
import { RigidBody, World, type ContactEvent } from '../src/index.js';
import {
  CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_DEPTH, CONTACT_F64_STRIDE, CONTACT_I32_STRIDE, CONTACT_LINK_A, CONTACT_LINK_B, CONTACT_SHAPE_A, CONTACT_SHAPE_B,
} from '../src/internals.js';
import { humanoidTree } from './humanoid-fixture.js';
import { sameBits, stateBits } from './state-bits.js';

const DT = 1 / 60;
const G = 9.81;

interface Seen { type: string; a: string; b: string; impulse: number; speed: number; time: number; depth: number; point: number[]; bodyA: unknown }

function drain(world: World): Seen[] {
  const out: Seen[] = [];
  world.drainContactEvents((e: ContactEvent) => {
    out.push({ type: e.type, a: side(e.bodyA?.index ?? -1, e.linkA, e.shapeA), b: side(e.bodyB?.index ?? -1, e.linkB, e.shapeB), impulse: e.impulse, speed: e.speed, time: e.time, depth: e.depth, point: Array.from(e.point), bodyA: e.bodyA });
  });
  return out;
}

const side = (body: number, link: number, shape: number) => (body >= 0 ? `b${body}l${link}` : `s${shape}`);

describe('contact events of a ball dropped on a plane', () => {
  it('one began at the first touch (the approach speed of the step that meets the ground: sqrt(2 g H) within 1.5 g dt; its time within two steps before sqrt(2 H / g)), persisted at rest with impulse m g dt, one ended when lifted', () => {
    const world = new World({ sleep: false, contactEvents: true });
    const ground = world.addStatic({ geometry: { type: 'plane' } });
    const m = 2, r = 0.1, H = 1;
    const ball = world.addBody(RigidBody.sphere(r, { mass: m }), { position: [0, H + r, 0], name: 'ball' });
    const all: Seen[][] = [];
    for (let s = 0; s < 120; s++) { world.step(DT); all.push(drain(world)); }
    const began = all.flat().filter((e) => e.type === 'began');
    expect(began.length).toBe(1);
    expect(began[0].a).toBe('b0l0');
    expect(began[0].b).toBe(`s${ground}`);
    // semi-implicit Euler from rest: after k steps v_k = k g dt and the drop is g dt^2 k (k + 1) / 2;
    // the step K that starts above the ground and would end below it is the one that touches
    // (its speculative contact pushes), approaching at v_K
    const K = Math.round(began[0].time / DT);
    const drop = (k: number) => (G * DT * DT * k * (k + 1)) / 2;
    expect(drop(K)).toBeLessThan(H);
    expect(drop(K + 1)).toBeGreaterThanOrEqual(H);
    expect(began[0].speed).toBeCloseTo(K * G * DT, 9);
    // and the continuous fall: sqrt(2 g H) at sqrt(2 H / g) (v_K lags it by the step it still had
    // to fall and by semi-implicit Euler's faster drop)
    const vTouch = Math.sqrt(2 * G * H), tTouch = Math.sqrt((2 * H) / G);
    expect(Math.abs(began[0].speed - vTouch)).toBeLessThan(1.5 * G * DT);
    expect(tTouch - began[0].time).toBeGreaterThanOrEqual(0);
    expect(tTouch - began[0].time).toBeLessThan(2 * DT);
    // the deepest point: the ball's lowest point at the start of that step, still H - drop(K) above
    // the ground (a speculative contact: depth -(H - drop(K)))
    expect(began[0].point[1]).toBeCloseTo(H - drop(K), 12);
    expect(began[0].depth).toBeCloseTo(-(H - drop(K)), 12);
    expect(Math.hypot(began[0].point[0], began[0].point[2])).toBeLessThan(1e-12);
    expect(ball.state.q[1]).toBeCloseTo(r, 3);
    // from the step of the first touch on: one event a step (began, then persisted), none ended
    const first = all.findIndex((evs) => evs.length > 0);
    for (let s = first + 1; s < 120; s++) {
      expect(all[s].map((e) => e.type)).toEqual(['persisted']);
    }
    // at rest (the last 40 steps): the normal impulse of a step is the weight's, m g dt
    for (let s = 80; s < 120; s++) expect(Math.abs(all[s][0].impulse - m * G * DT) / (m * G * DT)).toBeLessThan(1e-3);
    // lifted away
    ball.state.q[1] = 2;
    world.step(DT);
    const lifted = drain(world);
    expect(lifted.map((e) => e.type)).toEqual(['ended']);
    expect(lifted[0].impulse).toBe(0);
    world.step(DT);
    expect(drain(world)).toEqual([]);
  });

  it('a bouncing ball (restitution 0.6): the landing step\'s impulse is its change of momentum plus m g dt, the impact\'s impulse included', () => {
    const world = new World({ sleep: false, contactEvents: true });
    world.addStatic({ geometry: { type: 'plane' }, restitution: 0.6 });
    const m = 1.5, r = 0.1;
    const ball = world.addBody(RigidBody.sphere(r, { mass: m, restitution: 0.6 }), { position: [0, 1.3, 0], name: 'ball' });
    let checked = 0;
    for (let s = 0; s < 90; s++) {
      const v0 = ball.state.qd[4];
      world.step(DT);
      const evs = drain(world);
      if (evs.length === 1 && evs[0].type === 'began') {
        const v1 = ball.state.qd[4];
        expect(v1).toBeGreaterThan(0); // it bounced
        expect(Math.abs(evs[0].impulse - (m * (v1 - v0) + m * G * DT)) / evs[0].impulse).toBeLessThan(1e-6);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(2);
  });
});

describe('contact events match the contacts the step used', () => {
  it('a pile of six crates on a ramp: began / persisted are the pairs whose points overlap or whose normal rows pushed, with those rows\' impulses; ended are the pairs that stopped', () => {
    const world = new World({ sleep: false, contactEvents: true, substeps: 1 });
    world.addStatic({ geometry: { type: 'plane' } });
    world.addStatic({ geometry: { type: 'box', halfExtents: [1, 0.1, 1] }, position: [0, 0.3, 0], rotation: [0, 0, Math.sin(0.2), Math.cos(0.2)] });
    for (let i = 0; i < 6; i++) world.addBody(RigidBody.box([0.15, 0.1, 0.12], { density: 600 }), { position: [0.1 * (i % 3) - 0.1, 0.8 + 0.3 * i, 0.05 * i], name: `crate${i}` });
    let prev = new Set<string>();
    let compared = 0, endedSeen = 0;
    for (let s = 0; s < 240; s++) {
      const st = world.step(DT);
      const evs = drain(world);
      if (st.passes !== 1) { prev = new Set(evs.filter((e) => e.type !== 'ended').map((e) => `${e.a}|${e.b}`)); continue; }
      // the step's contacts and rows, read directly
      const c = world.collision.contacts, I = c.i32, F = c.f64, rowOf = world.contacts.normalRowOf;
      const touching = new Map<string, number>();
      for (let k = 0; k < world.contacts.count; k++) {
        const io = k * CONTACT_I32_STRIDE;
        const s0 = side(I[io + CONTACT_BODY_A], I[io + CONTACT_LINK_A], I[io + CONTACT_SHAPE_A]);
        const s1 = side(I[io + CONTACT_BODY_B], I[io + CONTACT_LINK_B], I[io + CONTACT_SHAPE_B]);
        // (side A: the body of lower index; statics last)
        const order = (x: string) => (x.startsWith('s') ? 1e9 : Number(x.slice(1, x.indexOf('l'))));
        const key = order(s0) <= order(s1) ? `${s0}|${s1}` : `${s1}|${s0}`;
        const j = rowOf[k];
        const f = j >= 0 ? world.rows.force[j] : 0;
        const on = F[k * CONTACT_F64_STRIDE + CONTACT_DEPTH] >= 0 || f > 0;
        touching.set(key, (touching.get(key) ?? 0) + (on ? 1 : 0));
        if (j >= 0) touching.set(`${key}#impulse`, (touching.get(`${key}#impulse`) ?? 0) + f * DT);
      }
      const now = new Set([...touching.keys()].filter((k) => !k.includes('#') && touching.get(k)! > 0));
      const live = evs.filter((e) => e.type !== 'ended');
      expect(new Set(live.map((e) => `${e.a}|${e.b}`))).toEqual(now);
      for (const e of live) {
        expect(e.type).toBe(prev.has(`${e.a}|${e.b}`) ? 'persisted' : 'began');
        expect(Math.abs(e.impulse - touching.get(`${e.a}|${e.b}#impulse`)!)).toBeLessThanOrEqual(1e-12 * Math.max(1, e.impulse));
      }
      const ended = evs.filter((e) => e.type === 'ended').map((e) => `${e.a}|${e.b}`);
      expect(new Set(ended)).toEqual(new Set([...prev].filter((k) => !now.has(k))));
      endedSeen += ended.length;
      prev = now;
      compared++;
    }
    expect(compared).toBeGreaterThan(200);
    // crates bounced off each other and the ramp: pairs began and ended
    expect(endedSeen).toBeGreaterThan(0);
  });

  it('the contact forces of a crate resting on the ground add up to its weight, with no moment about its centre of mass', () => {
    const world = new World({ sleep: false, contactEvents: true });
    world.addStatic({ geometry: { type: 'plane' } });
    const m = 12;
    const crate = world.addBody(RigidBody.box([0.3, 0.1, 0.2], { mass: m }), { position: [0.2, 0.1, -0.1], name: 'crate' });
    for (let s = 0; s < 90; s++) world.step(DT);
    const sum = [0, 0, 0], moment = [0, 0, 0];
    let points = 0;
    const c = [crate.state.q[0], crate.state.q[1], crate.state.q[2]];
    world.contactForces((f) => {
      expect(f.bodyA).toBe(crate);
      expect(f.bodyB).toBe(null);
      expect(f.normalForce).toBeGreaterThanOrEqual(0);
      for (let e = 0; e < 3; e++) sum[e] += f.force[e];
      const rx = f.point[0] - c[0], ry = f.point[1] - c[1], rz = f.point[2] - c[2];
      moment[0] += ry * f.force[2] - rz * f.force[1];
      moment[1] += rz * f.force[0] - rx * f.force[2];
      moment[2] += rx * f.force[1] - ry * f.force[0];
      points++;
    });
    expect(points).toBe(4);
    expect(sum[1] / (m * G)).toBeCloseTo(1, 4);
    expect(Math.abs(sum[0]) + Math.abs(sum[2])).toBeLessThan(1e-3 * m * G);
    expect(Math.hypot(moment[0], moment[1], moment[2])).toBeLessThan(1e-3 * m * G * 0.3);
  });

  it('removing a body ends its touching pairs at once; a sleeping pair stays quiet; events off refuse a drain', () => {
    const world = new World({ contactEvents: true });
    world.addStatic({ geometry: { type: 'plane' } });
    const a = world.addBody(RigidBody.box([0.2, 0.2, 0.2], { mass: 5 }), { position: [0, 0.2, 0], name: 'a' });
    const b = world.addBody(RigidBody.box([0.2, 0.2, 0.2], { mass: 5 }), { position: [2, 0.2, 0], name: 'b' });
    for (let s = 0; s < 80; s++) world.step(DT);
    expect(world.stats.sleeping).toBe(2);
    drain(world);
    for (let s = 0; s < 10; s++) world.step(DT);
    // asleep: no events, no ended
    expect(drain(world)).toEqual([]);
    world.removeBody(a);
    const evs = drain(world);
    expect(evs.map((e) => e.type)).toEqual(['ended']);
    expect(evs[0].bodyA).toBe(a); // (the removed body, its index now -1)
    world.wake(b);
    world.step(DT);
    // b (now body 0) still touches
    expect(drain(world).map((e) => `${e.type} ${e.a}`)).toEqual(['persisted b0l0']);
    world.contactEvents = false;
    expect(() => world.drainContactEvents(() => {})).toThrow('World.drainContactEvents: contact events are off');
  });

  it('recording events (contact and limit hits, drained every step) changes nothing: three ragdolls falling into a heap step bit for bit as with events off (300 steps)', () => {
    const heap = (events: boolean) => {
      const w = new World({ contactEvents: events, limitEvents: events });
      w.addStatic({ geometry: { type: 'plane' } });
      for (let k = 0; k < 3; k++) {
        const body = w.addBody(humanoidTree({ dampingTime: 0.25 }), { name: `tree${k}` });
        const yaw = 1.3 * k, c = Math.cos(yaw / 2), s = Math.sin(yaw / 2), r = Math.SQRT1_2;
        body.state.q.set([0.15 * k, 0.5 + 0.3 * k, 0.1 * k]);
        body.state.q.set([-c * r, s * r, -s * r, c * r], 3);
        forwardKinematics(body.model, body.state, true);
      }
      return w;
    };
    const a = heap(false), b = heap(true);
    let n = 0;
    for (let s = 0; s < 300; s++) {
      a.step(DT); b.step(DT);
      b.drainContactEvents(() => { n++; });
      b.drainLimitHits(() => { n++; });
      expect(sameBits(stateBits(a), stateBits(b))).toBe(true);
    }
    expect(n).toBeGreaterThan(300);
  });
});
