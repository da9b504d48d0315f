/**
 * Determinism: a small but busy scene (a 6-link capsule chain wriggling on the ground under a
 * trajectory drive, against its joint limits, and two boxes that settle, sleep and get woken)
 * stepped twice gives the same bits after 10,000 steps; a world saved with World.saveState at
 * step 5,000 and restored into a freshly built world continues bit for bit; restoring only the
 * bodies' States does not (warm starts and sleep timers are part of the outcome), and by how much
 * is printed; and the order in which bodies are added changes the result, by how much is printed.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, type Model } from '@sinew/featherstone';
import { TrajectoryFollower, World, type WorldOptions } from '../src/index.js';
import { sameBits, stateBits } from './state-bits.js';

/** 10,000 steps, saved at the half (SINEW_DETERMINISM_STEPS overrides, for a quick look). */
const STEPS = Number(process.env.SINEW_DETERMINISM_STEPS ?? 10_000);
const SAVE_AT = STEPS / 2;
const DT = 1 / 120;
const LINKS = 6;

function chain(): Model {
  const b = new ModelBuilder();
  const L = 0.3, r = 0.05, m = 1;
  for (let i = 0; i < LINKS; i++) {
    b.addLink({
      name: `seg${i}`, parent: i === 0 ? null : `seg${i - 1}`,
      joint: i === 0 ? { type: 'free' } : { type: 'revolute', axis: [0, 1, 0], position: [L, 0, 0], limits: { lower: -0.6, upper: 0.6 } },
      mass: m, com: [L / 2, 0, 0], inertia: [0.5 * m * r * r, (m * L * L) / 12, (m * L * L) / 12, 0, 0, 0],
      shapes: [{ geometry: { type: 'capsule', radius: r, halfLength: L / 2 - r }, position: [L / 2, 0, 0], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2], friction: 0.8 }],
    });
  }
  return b.build();
}

function box(h: number, m: number): Model {
  const b = new ModelBuilder();
  const I = (m * 2 * h * h) / 3;
  b.addLink({ name: 'box', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: [h, h, h] }, friction: 0.6 }] });
  return b.build();
}

type Name = 'chain' | 'box1' | 'box2';

/** The scene, with bodies added in `order`; `drive(i)` sets the wriggle targets of step i. */
function build(order: Name[] = ['chain', 'box1', 'box2'], options: WorldOptions = {}) {
  const world = new World(options);
  world.addStatic({ geometry: { type: 'plane' } });
  const models = { chain: chain(), box1: box(0.15, 5), box2: box(0.1, 2) };
  for (const n of order) {
    const b = world.addBody(models[n], { name: n });
    if (n === 'chain') b.state.q[1] = 0.3;
    if (n === 'box1') b.state.q.set([0.9, 0.15, 0.32]);
    if (n === 'box2') b.state.q.set([0.92, 0.45, 0.33]);
  }
  const chainBody = world.bodies.find((b) => b.name === 'chain')!;
  const follower = world.addConstraint(new TrajectoryFollower(chainBody, { settleTime: 0.3, maxTorque: 8 }));
  const target = Float64Array.from(follower.targetQ);
  const drive = (i: number) => {
    for (let k = 1; k < LINKS; k++) target[7 + k - 1] = 0.7 * Math.sin(2 * Math.PI * 0.4 * i * DT - 0.8 * k);
    follower.setTarget(target);
  };
  return { world, drive, body: (n: Name) => world.bodies.find((b) => b.name === n)! };
}

/** Every body's State.save, in the world's order, as bytes. */
/** Lets the event loop run: a test that computes for a minute without a break trips vitest's worker RPC timeout. */
const breathe = (i: number) => (i % 500 === 0 ? new Promise<void>((resolve) => setImmediate(resolve)) : undefined);

/** Largest |difference| of q between two worlds, body by body (matched by name). */
function maxQDiff(a: World, b: World): number {
  let d = 0;
  for (const x of a.bodies) {
    const y = b.bodies.find((z) => z.name === x.name)!;
    for (let k = 0; k < x.state.q.length; k++) d = Math.max(d, Math.abs(x.state.q[k] - y.state.q[k]));
  }
  return d;
}

describe('determinism', () => {
  it(`the same scene stepped twice: the same bits after ${STEPS} steps; World.saveState at ${SAVE_AT} continues bit for bit in a fresh world`, async () => {
    const t0 = performance.now();
    // run A, saving at SAVE_AT (the World's state, and the bodies' States alone)
    const A = build();
    let saved: ReturnType<World['saveState']> | undefined;
    let savedStates: Float64Array[] = [];
    let bitsAtSave: Uint8Array = new Uint8Array(0), bitsAfter500: Uint8Array = new Uint8Array(0);
    let rows = 0, contacts = 0, limitSteps = 0, wakes = 0, sleepSteps = 0;
    let wasAsleep = false;
    for (let i = 0; i < STEPS; i++) {
      await breathe(i);
      if (i === SAVE_AT) {
        saved = A.world.saveState();
        savedStates = A.world.bodies.map((b) => b.state.save());
        bitsAtSave = stateBits(A.world);
      }
      A.drive(i);
      const s = A.world.step(DT);
      expect(s.error).toBe('');
      rows += s.rows;
      contacts = Math.max(contacts, s.contacts);
      const chainQ = A.body('chain').state.q;
      if (chainQ.subarray(7).some((x) => Math.abs(x) > 0.58)) limitSteps++;
      const asleep = A.body('box1').sleeping || A.body('box2').sleeping;
      if (asleep) sleepSteps++;
      if (wasAsleep && !asleep) wakes++;
      wasAsleep = asleep;
      if (i === SAVE_AT + 499) bitsAfter500 = stateBits(A.world);
    }
    const bitsA = stateBits(A.world);
    const tA = performance.now() - t0;

    // run B: a second world built the same way
    const B = build();
    for (let i = 0; i < STEPS; i++) {
      await breathe(i);
      B.drive(i);
      B.world.step(DT);
    }
    expect(sameBits(stateBits(B.world), bitsA)).toBe(true);

    // a fresh world restored with World.restoreState at SAVE_AT continues bit for bit
    const C = build();
    C.world.restoreState(saved!);
    expect(sameBits(stateBits(C.world), bitsAtSave)).toBe(true);
    for (let i = SAVE_AT; i < STEPS; i++) {
      await breathe(i);
      C.drive(i);
      C.world.step(DT);
      if (i === SAVE_AT + 499) expect(sameBits(stateBits(C.world), bitsAfter500)).toBe(true);
    }
    expect(sameBits(stateBits(C.world), bitsA)).toBe(true);
    expect(C.world.time).toBe(A.world.time);
    // and the same world rewound to SAVE_AT (its warm starts and timers overwritten) replays it
    C.world.restoreState(saved!);
    for (let i = SAVE_AT; i < SAVE_AT + 500; i++) {
      C.drive(i);
      C.world.step(DT);
    }
    expect(sameBits(stateBits(C.world), bitsAfter500)).toBe(true);

    // a fresh world given only the bodies' States (State.restore) starts its PGS cold and its
    // sleep timers at zero: the same physics, not the same bits
    const D = build();
    D.world.bodies.forEach((b, k) => b.state.restore(savedStates[k]));
    D.world.time = saved!.time;
    expect(sameBits(stateBits(D.world), bitsAtSave)).toBe(true);
    const diffs: string[] = [];
    const ref = build(); // A's continuation again, for the per-step comparison
    ref.world.restoreState(saved!);
    for (let i = SAVE_AT; i < SAVE_AT + 500; i++) {
      D.drive(i); ref.drive(i);
      D.world.step(DT); ref.world.step(DT);
      const n = i - SAVE_AT + 1;
      if (n === 1 || n === 10 || n === 100 || n === 500) diffs.push(`${n}: ${maxQDiff(D.world, ref.world).toExponential(2)}`);
    }
    expect(sameBits(stateBits(D.world), bitsAfter500)).toBe(false);
    expect(D.world.bodies.every((b) => b.state.firstNonFinite() < 0)).toBe(true);

    const ms = performance.now() - t0;
    console.log(`[reliability-determinism] ${STEPS} steps of 1/120 s (${(tA / STEPS).toFixed(2)} ms/step): ${(rows / STEPS).toFixed(1)} rows per step on average, up to ${contacts} contacts, the chain at a limit in ${limitSteps} steps, a box asleep in ${sleepSteps} steps, woken ${wakes} times.`);
    console.log(`[reliability-determinism] run B bit-identical to run A; World.restoreState at ${SAVE_AT} into a fresh world bit-identical at ${SAVE_AT + 500} and ${STEPS}, and into the same world rewound; State.restore alone (cold PGS, sleep timers reset, ${saved!.warmKeys.length} warm-start forces lost, sleeping bodies ${saved!.bodies.filter((b) => b.sleeping).map((b) => b.name).join(', ') || 'none'} woken): max |dq| after n steps ${diffs.join(', ')} (${(ms / 1000).toFixed(1)} s in all)`);
  });

  it('the order in which bodies are added does not change a bit: 1000 steps in three orders', async () => {
    // the world ranks bodies by name (World.rankBodies): collision slots, contact order and the
    // solver's row order follow the rank, not the index, so the Gauss-Seidel sweep and every sum in
    // it run in the same order whichever body came first
    const orders: Name[][] = [['chain', 'box1', 'box2'], ['box2', 'box1', 'chain'], ['box1', 'chain', 'box2']];
    const worlds = orders.map((o) => build(o));
    const byName = (w: World) => [...w.bodies].sort((x, y) => (x.name < y.name ? -1 : 1));
    let firstDiff = -1, contacts = 0;
    for (let i = 0; i < 1000; i++) {
      await breathe(i);
      for (const w of worlds) { w.drive(i); w.world.step(DT); }
      contacts = Math.max(contacts, worlds[0].world.stats.contacts);
      const ref = byName(worlds[0].world);
      for (let k = 1; k < worlds.length && firstDiff < 0; k++) {
        const other = byName(worlds[k].world);
        for (let b = 0; b < ref.length; b++) {
          const q0 = ref[b].state.q, q1 = other[b].state.q, v0 = ref[b].state.qd, v1 = other[b].state.qd;
          for (let e = 0; e < q0.length; e++) if (!Object.is(q0[e], q1[e])) firstDiff = i + 1;
          for (let e = 0; e < v0.length; e++) if (!Object.is(v0[e], v1[e])) firstDiff = i + 1;
        }
      }
    }
    console.log(`[reliability-determinism] order of addition: ${orders.map((o) => `[${o.join(', ')}]`).join(', ')}: ${firstDiff < 0 ? 'bit-identical q and qd' : `first difference at step ${firstDiff}`} after 1000 steps (up to ${contacts} contacts per step)`);
    expect(contacts).toBeGreaterThan(0);
    expect(firstDiff).toBe(-1);
  });
});
