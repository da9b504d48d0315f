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
import { World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';
import { sameBits, stateBits } from './state-bits.js';

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

  it('a snapshot read from a buffer that is not 8-byte aligned restores the same; one into an unaligned buffer comes back in a new one with the same bytes', () => {
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
    expect(written.buffer).not.toBe(unaligned.buffer);
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
});
