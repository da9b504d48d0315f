/**
 * A State can be saved and restored bit for bit, and the same inputs give the same bits out:
 *  - after restore, every number of q, qd, tau, fext and gravity is identical (Object.is, and the
 *    raw 64-bit patterns, so -0 and NaN payloads count);
 *  - a restored copy, a clone and the original then continue identically, step after step;
 *  - two independently built models and states, simulated with work on other models interleaved
 *    (shared scratch must not leak between them), end with identical bits.
 */
import { describe, expect, it } from 'vitest';
import { accelerationDeltasForce, forwardDynamics, simulate, State, type Model } from '../src/index.js';
import { humanoid, humanoidState } from '../bench/humanoid.js';
import { randomModel, randomState, rng } from './random-model.js';

function bits(a: Float64Array): BigUint64Array {
  return new BigUint64Array(a.buffer, a.byteOffset, a.length);
}

function expectSameBits(a: Float64Array, b: Float64Array, what: string): void {
  expect(a.length, what).toBe(b.length);
  for (let k = 0; k < a.length; k++) {
    if (!Object.is(a[k], b[k])) expect.fail(`${what}[${k}]: ${a[k]} !== ${b[k]}`);
  }
  expect(bits(a), what).toEqual(bits(b));
}

function expectSameState(a: State, b: State): void {
  expectSameBits(a.q, b.q, 'q');
  expectSameBits(a.qd, b.qd, 'qd');
  expectSameBits(a.tau, b.tau, 'tau');
  expectSameBits(a.fext, b.fext, 'fext');
  expectSameBits(a.gravity, b.gravity, 'gravity');
}

function makeModel(seed: number): Model {
  return randomModel(rng(seed), { links: 14, freeRoot: 1 });
}

function makeState(model: Model, seed: number): State {
  const s = randomState(rng(seed), model, 0.5);
  s.tau[0] = -0; // a signed zero must survive
  s.fext[1] = -0;
  return s;
}

describe('State save / restore', () => {
  it('restores every number bit for bit, and the restored copy continues identically', () => {
    const model = makeModel(101);
    const s = makeState(model, 202);
    simulate(model, s, 1 / 120, 4);
    const buf = s.save();
    expect(buf.length).toBe(s.savedLength);
    const snapshot = s.clone();
    expectSameState(snapshot, s);

    // the original runs on ...
    simulate(model, s, 1 / 120, 40);
    // ... a fresh state restored from the buffer holds exactly what was saved
    const r = new State(model);
    r.restore(buf);
    expectSameState(r, snapshot);
    expect(Object.is(r.tau[0], -0)).toBe(true);
    // ... and, run the same way, ends with the same bits as the original
    simulate(model, r, 1 / 120, 40);
    expectSameState(r, s);
    simulate(model, snapshot, 1 / 120, 40);
    expectSameState(snapshot, s);

    // rewinding the original itself
    s.restore(buf);
    const again = new State(model);
    again.restore(buf);
    for (let k = 0; k < 40; k++) {
      simulate(model, s, 1 / 120);
      simulate(model, again, 1 / 120);
      expectSameState(s, again);
    }
  });

  it('save() into a caller buffer equals save(), and refuses short buffers', () => {
    const model = makeModel(5);
    const s = makeState(model, 6);
    const mine = new Float64Array(s.savedLength + 3);
    s.save(mine);
    expectSameBits(mine.subarray(0, s.savedLength), s.save(), 'saved');
    expect(() => s.save(new Float64Array(s.savedLength - 1))).toThrow(RangeError);
    expect(() => s.restore(new Float64Array(s.savedLength - 1))).toThrow(RangeError);
  });
});

describe('determinism', () => {
  it('two independently built models and states give identical bits over 300 steps, with other work interleaved', () => {
    const run = (interleave: boolean) => {
      const model = humanoid();
      const s = humanoidState(model, 78);
      s.applyForce(model.linkIndex('handL'), [5, -3, 2], [0.3, 1.2, 0.1]);
      const other = humanoid();
      const os = humanoidState(other, 1000);
      const dqdd = new Float64Array(model.nv);
      const f = Float64Array.of(0.3, -0.2, 0.1, 1, -2, 0.5);
      const trace: number[] = [];
      for (let k = 0; k < 300; k++) {
        if (interleave) {
          simulate(other, os, 1 / 240);
          forwardDynamics(other, os);
        }
        forwardDynamics(model, s);
        accelerationDeltasForce(model, s, model.nLinks - 1, f, 0, dqdd);
        trace.push(...dqdd);
        simulate(model, s, 1 / 240);
      }
      return { s, trace: Float64Array.from(trace) };
    };
    const a = run(false);
    const b = run(true);
    expectSameState(a.s, b.s);
    expectSameBits(a.trace, b.trace, 'acceleration deltas');
    // the run went somewhere: a state that moved, finite throughout
    expect(a.s.firstNonFinite()).toBe(-1);
    const start = humanoidState(humanoid(), 78);
    expect(Math.max(...a.s.q.map((x, k) => Math.abs(x - start.q[k])))).toBeGreaterThan(0.1);
  });
});
