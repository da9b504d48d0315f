/**
 * World.saveState / restoreState over a pile: ten unnamed humanoids dropped overlapping onto a
 * plane, saved at several steps (the first, while they fall onto each other, in the middle of an
 * impact, while the pile settles, and after it went to sleep), each restored into a fresh world
 * built the same way, which must then go on bit for bit like the world it was saved from: q and qd
 * of every body compared by their bits after every one of 200 further steps.
 *
 * A fresh world starts with small buffers (the row buffer holds 64 rows) that grow during its first
 * step after the restore, where the saved world's buffers had long grown; a step whose results
 * depend on where a buffer grows (a joint-limit row whose gap was written into the row buffer's
 * replaced error array read as 0) makes the restored world continue differently.
 */
import { describe, expect, it } from 'vitest';
import { World } from '../src/index.js';
import type { WorldState } from '../src/world-state.js';
import { humanoidTree } from './humanoid-fixture.js';

const DT = 1 / 60;
const AFTER = 200;

function pile(): World {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  for (let i = 0; i < 10; i++) {
    // unnamed: the world orders them by their content keys
    const b = world.addBody(humanoidTree({ dampingTime: 0.25 }));
    b.state.q[0] = 0.15 * (i % 3);
    b.state.q[1] = 1.0 + 0.25 * i;
    b.state.q[2] = 0.1 * (i % 4);
  }
  return world;
}

/** q and qd of every body, as bytes. */
function bits(world: World): Uint8Array {
  let n = 0;
  for (const b of world.bodies) n += b.state.q.length + b.state.qd.length;
  const out = new Float64Array(n);
  let o = 0;
  for (const b of world.bodies) { out.set(b.state.q, o); o += b.state.q.length; out.set(b.state.qd, o); o += b.state.qd.length; }
  return new Uint8Array(out.buffer);
}

/** The first byte where a and b differ, as "body i q[k]" / "body i qd[k]", or '' when they are equal. */
function firstDifference(world: World, a: Uint8Array, b: Uint8Array): string {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  let byte = -1;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) { byte = i; break; }
  if (byte < 0) return '';
  const x = new Float64Array(a.buffer, a.byteOffset, a.length / 8), y = new Float64Array(b.buffer, b.byteOffset, b.length / 8);
  let k = byte >> 3;
  for (const body of world.bodies) {
    const nq = body.state.q.length, nv = body.state.qd.length;
    const at = k < nq ? `q[${k}]` : k < nq + nv ? `qd[${k - nq}]` : '';
    if (at) return `body ${body.index} ${at}: ${x[byte >> 3]} against ${y[byte >> 3]}`;
    k -= nq + nv;
  }
  return `number ${byte >> 3}`;
}

describe('World.restoreState into a fresh world over a 10-ragdoll pile', () => {
  it('continues bit for bit for 200 steps after saves at steps 1, 37, 120, 300 and mid-impact', async () => {
    // (yields to the test runner now and then: a worker silent for a minute is reported as stuck)
    const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    const fixed = [1, 37, 120, 300];
    // mid-impact: the step of the landing phase (25-99) whose start stood furthest from its
    // constraints (stats.errorBefore: ragdolls hitting each other), chosen after the run
    const impactFrom = 25, impactTo = 100;
    const last = Math.max(...fixed, impactTo) + AFTER;
    const world = pile();
    const trajectory: Uint8Array[] = [];
    const saved = new Map<number, WorldState>();
    let impact = -1, impactError = -1, impactHalvings = 0;
    for (let s = 0; s < last; s++) {
      if (fixed.includes(s) || (s >= impactFrom && s < impactTo)) saved.set(s, structuredClone(world.saveState()));
      const st = world.step(DT);
      expect(st.error).toBe('');
      if (s >= impactFrom && s < impactTo && st.errorBefore > impactError) { impact = s; impactError = st.errorBefore; impactHalvings = st.halvings; }
      trajectory.push(bits(world));
      if (s % 20 === 0) await breathe();
    }
    // an impact indeed: bodies well into each other, and the step halved
    expect(impactError).toBeGreaterThan(0.1);
    expect(impactHalvings).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const at of [...fixed, impact].sort((p, q) => p - q)) {
      const restored = pile();
      restored.restoreState(structuredClone(saved.get(at)!));
      for (let k = 0; k < AFTER; k++) {
        restored.step(DT);
        const d = firstDifference(restored, bits(restored), trajectory[at + k]);
        if (d) { failures.push(`saved at step ${at}${at === impact ? ' (mid-impact)' : ''}: differs at step ${k} after the restore, ${d}`); break; }
        if (k % 20 === 0) await breathe();
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
