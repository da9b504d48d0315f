/**
 * World.snapshot / World.restore (world-snapshot.ts): the binary form of saveState.
 *  - four humanoids dropped onto each other: snapshots at step 1, in the middle of the landing
 *    (step 40), while the pile settles (150) and at rest (400), each restored into a fresh world built the same way, which then goes on bit for bit
 *    like the world it was taken from (every body's saved State compared after every one of 600
 *    further steps);
 *  - restoring and taking a snapshot again gives the same bytes; a snapshot written into a
 *    caller's buffer is the same bytes;
 *  - a truncated buffer, another format, a world built otherwise: a RangeError naming what, and the
 *    world unchanged.
 */
import { describe, expect, it } from 'vitest';
import { type ContactEvent, PointPin, RigidBody, World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';
import { sameBits, stateBits } from './state-bits.js';
import { sinewPeerPile } from '../bench/peer-ragdoll.js';
import { SeededRandom } from '../src/lcp/random-problems.js';

const DT = 1 / 60;
const AFTER = 600;

function pile(n = 4): World {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  for (let i = 0; i < n; i++) {
    const b = world.addBody(humanoidTree({ dampingTime: 0.25 }), { name: `ragdoll${i}` });
    b.state.q[0] = 0.15 * (i % 3);
    b.state.q[1] = 1.0 + 0.3 * i;
    b.state.q[2] = 0.1 * (i % 2);
  }
  return world;
}

describe('World.snapshot and World.restore', () => {
  it('a fresh world restored from a snapshot continues bit for bit for 600 steps (taken at steps 1, 40, 150 and 400)', () => {
    const at = [1, 40, 150, 400];
    const world = pile();
    const snaps = new Map<number, Uint8Array>();
    const trajectory: Uint8Array[] = [];
    for (let s = 0; s < Math.max(...at) + AFTER; s++) {
      if (at.includes(s)) snaps.set(s, world.snapshot().slice());
      expect(world.step(DT).error).toBe('');
      trajectory.push(stateBits(world));
    }
    for (const s of at) {
      const fresh = pile();
      fresh.restore(snaps.get(s)!);
      for (let k = 0; k < AFTER; k++) {
        fresh.step(DT);
        if (!sameBits(stateBits(fresh), trajectory[s + k])) expect.fail(`snapshot of step ${s}: the restored world differs ${k + 1} steps later`);
      }
    }
  });

  it('restore then snapshot gives the same bytes; a snapshot into a caller buffer is the same bytes', () => {
    const world = pile();
    for (let s = 0; s < 60; s++) world.step(DT);
    const snap = world.snapshot();
    const other = pile();
    other.restore(snap);
    expect(sameBits(other.snapshot(), snap)).toBe(true);
    const out = new Uint8Array(snap.length + 100);
    const into = world.snapshot(out);
    expect(into.buffer).toBe(out.buffer);
    expect(sameBits(into, snap)).toBe(true);
  });

  it('refuses a truncated buffer, another format and a world built otherwise, and changes nothing', () => {
    const world = pile();
    for (let s = 0; s < 30; s++) world.step(DT);
    const snap = world.snapshot();
    const target = pile();
    for (let s = 0; s < 5; s++) target.step(DT);
    const before = stateBits(target);
    expect(() => target.restore(snap.subarray(0, snap.length - 9))).toThrow(/World.restore: the snapshot ends at byte/);
    expect(() => target.restore(new Uint8Array(64))).toThrow(/does not start a snapshot/);
    const three = pile(3);
    expect(() => three.restore(snap)).toThrow(/World.restore: the snapshot has 4 bodies, the world 3/);
    expect(sameBits(stateBits(target), before)).toBe(true);
  });
});

/** Every contact event a world's steps queue, as text (type, sides, and the bits of its numbers). */
function eventLog(world: World, steps: number): string[] {
  const log: string[] = [];
  for (let s = 0; s < steps; s++) {
    world.step(DT);
    world.drainContactEvents((e) => {
      log.push(`${s} ${e.type} ${e.bodyA?.name}:${e.linkA} ${e.bodyB?.name ?? 'static'}:${e.bodyB ? e.linkB : e.shapeB} ${Array.from(e.numbers).map((x) => x.toString(16)).join(',')}`);
    });
  }
  return log;
}

describe('World.snapshot: what it holds', () => {
  it('with contact events on, a world restored from a snapshot taken mid-landing queues the same events, bit for bit, as the world it was taken from', () => {
    const make = (): World => { const w = pile(); w.contactEvents = true; return w; };
    const world = make();
    for (let s = 0; s < 45; s++) { world.step(DT); world.drainContactEvents(() => {}); }
    const snap = world.snapshot().slice();
    const expected = eventLog(world, 120);
    const fresh = make();
    fresh.restore(snap);
    const got = eventLog(fresh, 120);
    // (the landing makes pairs begin, persist and end within those steps)
    expect(new Set(expected.map((l) => l.split(' ')[1]))).toEqual(new Set(['began', 'persisted', 'ended']));
    expect(got).toEqual(expected);
    // without the pairs the events compare with, the first step would report every touching pair as begun
    const cold = make();
    cold.restore(snap);
    cold.contactEvents = false; cold.contactEvents = true;
    expect(eventLog(cold, 1).filter((l) => l.includes('began')).length).toBeGreaterThan(expected.filter((l) => l.startsWith('0 began')).length);
  });

  it('a snapshot read from a buffer at any byte offset restores the same; one written into a buffer at an odd offset is written there, with the same bytes', () => {
    const world = pile();
    for (let s = 0; s < 50; s++) world.step(DT);
    const snap = world.snapshot().slice();
    const shifted = new Uint8Array(snap.length + 3);
    shifted.set(snap, 3);
    const other = pile();
    other.restore(shifted.subarray(3));
    expect(sameBits(stateBits(other), stateBits(world))).toBe(true);
    const unaligned = new Uint8Array(snap.length + 8).subarray(1);
    const written = world.snapshot(unaligned);
    expect(written.buffer).toBe(unaligned.buffer);
    expect(written.byteOffset).toBe(1);
    expect(sameBits(written, snap)).toBe(true);
  });

  it('refuses a snapshot taken before a body was removed, or one taken before a body was added, naming the body', () => {
    const world = pile(3);
    for (let s = 0; s < 10; s++) world.step(DT);
    const before = world.snapshot().slice();
    world.removeBody(world.bodies[1]);
    expect(() => world.restore(before)).toThrow('World.restore: the snapshot was taken before body "ragdoll1" was removed from this world');
    const smaller = world.snapshot().slice();
    world.addBody(humanoidTree({ dampingTime: 0.25 }), { name: 'late' });
    expect(() => world.restore(smaller)).toThrow('World.restore: body "late" was added after the snapshot was taken');
  });

  it('warm-start keys anywhere in their range, of either sign, next to each other or 2^53 apart, come back exactly, with their forces (a -0 held as +0)', () => {
    const world = pile(2);
    for (let s = 0; s < 30; s++) world.step(DT);
    const state = world.saveState();
    const rng = new SeededRandom(23);
    const keys = [-(2 ** 53) + 8, -(2 ** 53) + 9, 2 ** 53 - 1, -2, 0, 1, 2 ** 52, -(2 ** 52) - 1, 2 ** 53 - 2, -(2 ** 53) + 10];
    for (let k = 0; k < 500; k++) {
      const u = rng.next();
      keys.push(u < 0.4 ? -2 - Math.floor(rng.next() * 2 ** 53 - 4) : u < 0.8 ? Math.floor(rng.next() * 2 ** 53) : keys[keys.length - 1] + (rng.next() < 0.5 ? 1 : -1));
    }
    const unique = [...new Set(keys)];
    const forces = unique.map((_, k) => (k % 7 === 0 ? -0 : rng.gaussian() * 10 ** Math.floor(8 * rng.next() - 4)));
    world.restoreState({ ...state, warmKeys: Float64Array.from(unique), warmForces: Float64Array.from(forces) });
    const snap = world.snapshot().slice();
    const other = pile(2);
    other.restore(snap);
    const back = other.saveState();
    // (a -0 is held as +0, and a key at +0 is not held: it reads as +0 all the same)
    const expected = unique.map((key, k) => [key, forces[k]] as const).filter((e) => e[1] !== 0).sort((a, b) => a[0] - b[0]);
    expect(Array.from(back.warmKeys)).toEqual(expected.map((e) => e[0]));
    back.warmForces.forEach((f, k) => { if (!Object.is(f, expected[k][1])) expect.fail(`key ${expected[k][0]}: force ${f}, expected ${expected[k][1]}`); });
    expect(sameBits(other.snapshot(), snap)).toBe(true);
  });

  it('a 15-part ragdoll (39 q, 32 qd) in its landing costs its q, qd and warm-start forces whole, at most 2 bytes a warm-start key, 64 bytes a world and 32 a ragdoll besides: the peer scenes\' pile of 1, 10 and 50, every ragdoll awake', () => {
    // (the keys were 8 bytes each; written as differences from the key before, they took 2.2-2.3
    // bytes on these piles; with each contact point's rows together in the warm-start table,
    // 1.57-1.61, measured when the table's order changed)
    for (const n of [1, 10, 50]) {
      const world = sinewPeerPile(n);
      let worst = -Infinity, taken = 0, perKey = 0;
      for (let s = 1; s <= 90; s++) {
        world.step(DT);
        if (s < 30 || world.bodies.some((b) => b.sleeping)) continue;
        const bytes = world.snapshot().length;
        const forces = Array.from(world.saveState().warmForces).filter((f) => !Object.is(f, 0)).length;
        const whole = 8 * (n * (39 + 32) + forces);
        // what is left for the keys, once the whole numbers, 64 bytes of the world (header, time,
        // gravity) and 32 of each ragdoll (flags, sizes, order key, rest timer, energy credit) are taken
        perKey = Math.max(perKey, (bytes - whole - 64 - 32 * n) / forces);
        worst = Math.max(worst, bytes / n);
        taken++;
      }
      console.log(`[world-snapshot] peer pile of ${n}: at most ${worst.toFixed(0)} bytes a ragdoll in ${taken} snapshots (steps 30-90, every ragdoll awake), at most ${perKey.toFixed(2)} bytes a key`);
      expect(taken).toBeGreaterThanOrEqual(20);
      expect(perKey).toBeLessThanOrEqual(2);
    }
  });

  it('every part a snapshot can hold comes back: a body asleep beside bodies in flight, gravity that differs from body to body, torques with a -0, external forces, a pin and contact events; the restored world goes on bit for bit for 300 steps', () => {
    const make = (): World => {
      const w = pile(3);
      w.contactEvents = true;
      // a crate that lies on the ground from the start (asleep while the ragdolls still fall)
      w.addBody(RigidBody.box([0.2, 0.1, 0.2], { density: 500 }), { position: [3, 0.1, 0], name: 'crate' });
      w.addConstraint(new PointPin(0, 0, [0, 0, 0], { body: -1, link: -1, point: [0, 1.6, 0] }));
      w.bodies[1].state.gravity.set([0, -5, 0]); // (body 2 keeps the world's: a change back)
      return w;
    };
    const world = make();
    let s = 0;
    for (; s < 200 && !(world.bodies[3].sleeping && world.bodies.slice(0, 3).every((b) => !b.sleeping)); s++) world.step(DT);
    expect(world.bodies[3].sleeping, 'the crate asleep while the ragdolls move').toBe(true);
    world.drainContactEvents(() => {}); // (the events of the steps before: the restored world has none queued)
    world.bodies[0].state.tau.set([0, -0, 3, 0, -2], 6);
    world.bodies[2].state.fext.set([0, 0, 0, 0, 40, 10], 12);
    const snap = world.snapshot().slice();
    const fresh = make();
    fresh.restore(snap);
    expect(sameBits(fresh.snapshot(), snap)).toBe(true);
    expect(Object.is(fresh.bodies[0].state.tau[7], -0)).toBe(true);
    expect(Array.from(fresh.bodies[1].state.gravity)).toEqual([0, -5, 0]);
    expect(Array.from(fresh.bodies[2].state.gravity)).toEqual([0, -9.81, 0]);
    for (let k = 0; k < 300; k++) {
      world.step(DT); fresh.step(DT);
      if (!sameBits(stateBits(fresh), stateBits(world))) expect.fail(`the restored world differs ${k + 1} steps later (snapshot at step ${s})`);
      const a: string[] = [], b: string[] = [];
      const line = (e: ContactEvent): string => `${e.type} ${e.bodyA?.name}:${e.linkA} ${e.bodyB?.name ?? 'static'}:${e.shapeB} ${Array.from(e.numbers).map((x) => x.toString(16)).join(',')}`;
      world.drainContactEvents((e) => a.push(line(e)));
      fresh.drainContactEvents((e) => b.push(line(e)));
      if (b.join() !== a.join()) expect.fail(`the restored world's contact events differ ${k + 1} steps later`);
    }
  });
});
