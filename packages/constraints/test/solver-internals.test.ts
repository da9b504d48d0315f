/**
 * The solver's bookkeeping against plain references: the warm-start table against a Map, the sort
 * of row keys against Array.prototype.sort, and the PGS's row-wise update for symmetric matrices
 * against its column-wise update.
 */
import { describe, expect, it } from 'vitest';
import { PgsSolver } from '../src/lcp/pgs.js';
import { randomMixedLcp, SeededRandom } from '../src/lcp/random-problems.js';
import { WarmStartTable } from '../src/solver/warm-start.js';
import { sortKeysInPlace } from '../src/solver/sort-keys.js';
import { forwardKinematics } from '@sinew/featherstone';
import { World } from '../src/index.js';
import { rowVelocitiesInto, rowVelocityInto } from '../src/rows/measure.js';
import { RowType } from '../src/rows/row-buffer.js';
import { humanoidTree } from './humanoid-fixture.js';

describe('WarmStartTable', () => {
  it('answers like a Map over 20 generations of random keys (contact keys near -2^53, limit and drive keys), growing from 4 slots', () => {
    const rng = new SeededRandom(7);
    const table = new WarmStartTable(4);
    let lookups = 0;
    for (let gen = 0; gen < 20; gen++) {
      table.clear();
      const ref = new Map<number, number>();
      const n = 1 + Math.floor(rng.next() * 3000);
      const keys: number[] = [];
      for (let k = 0; k < n; k++) {
        const u = rng.next();
        // contact keys are large negative integers, the others positive; some repeat
        const key = u < 0.5 ? -2 - Math.floor(rng.next() * 2 ** 52) : u < 0.9 ? Math.floor(rng.next() * 2 ** 30) : keys.length ? keys[Math.floor(rng.next() * keys.length)] : 5;
        const value = rng.gaussian();
        keys.push(key);
        table.set(key, value);
        ref.set(key, value);
      }
      expect(table.size).toBe(ref.size);
      for (const [key, value] of ref) { expect(table.get(key)).toBe(value); lookups++; }
      // absent keys: the fallback
      for (let k = 0; k < 200; k++) {
        const key = -3 - Math.floor(rng.next() * 2 ** 52);
        if (!ref.has(key)) expect(table.get(key, NaN)).toBeNaN();
      }
      const { keys: sorted, forces } = table.entries();
      expect(Array.from(sorted)).toEqual([...ref.keys()].sort((a, b) => a - b));
      sorted.forEach((key, i) => expect(forces[i]).toBe(ref.get(key)));
    }
    expect(lookups).toBeGreaterThan(10000);
  });

  it('forgets everything on clear', () => {
    const table = new WarmStartTable();
    table.set(-12345678901, 3);
    table.clear();
    expect(table.get(-12345678901, -1)).toBe(-1);
    expect(table.size).toBe(0);
  });
});

describe('PGS on a symmetric matrix', () => {
  it('updating the measures along rows gives the same bits as along columns (100 random mixed problems)', () => {
    const rng = new SeededRandom(11);
    const byRows = new PgsSolver(0, { symmetric: true, maxIterations: 60, tolerance: 0 });
    const byCols = new PgsSolver(0, { maxIterations: 60, tolerance: 0 });
    for (let t = 0; t < 100; t++) {
      const n = 2 + Math.floor(rng.next() * 40);
      const p = randomMixedLcp(rng, n, (['standard', 'free', 'bounded', 'friction'] as const)[t % 4]);
      // exactly symmetric
      for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) { const a = 0.5 * (p.A[i * n + j] + p.A[j * n + i]); p.A[i * n + j] = a; p.A[j * n + i] = a; }
      const f1 = new Float64Array(n), f2 = new Float64Array(n);
      byRows.solve(p, f1);
      byCols.solve(p, f2);
      for (let i = 0; i < n; i++) expect(Object.is(f1[i], f2[i])).toBe(true);
    }
  });
});

describe('sortKeysInPlace', () => {
  it('sorts the first n keys as Array.prototype.sort does (random, nearly sorted, reversed, with repeats; n from 0 to 3000), leaving the rest of the array alone', () => {
    const rng = new SeededRandom(11);
    for (let trial = 0; trial < 60; trial++) {
      const n = trial < 5 ? trial : Math.floor(rng.next() * 3000);
      const kind = trial % 4;
      const keys = new Float64Array(n + 7).fill(-1);
      for (let i = 0; i < n; i++) {
        keys[i] = kind === 0 ? Math.floor(rng.next() * 2 ** 40) : kind === 1 ? i + (rng.next() < 0.1 ? 50 * rng.next() : 0) : kind === 2 ? n - i : Math.floor(rng.next() * 5);
      }
      const expected = Array.from(keys.subarray(0, n)).sort((a, b) => a - b);
      const sorted = sortKeysInPlace(keys, new Float64Array(n + 7), n);
      expect(Array.from(sorted.subarray(0, n))).toEqual(expected);
      expect(Array.from(keys.subarray(n))).toEqual(new Array(7).fill(-1));
    }
  });
});

describe('rowVelocitiesInto', () => {
  it("gives rowVelocityInto's bits row by row, a contact's rows sharing their point's velocity (two humanoids falling into each other and onto the ground)", () => {
    const world = new World({ sleep: false });
    world.addStatic({ geometry: { type: 'plane' } });
    for (let k = 0; k < 2; k++) {
      const body = world.addBody(humanoidTree(), { name: `man${k}` });
      const r = Math.SQRT1_2;
      body.state.q.set([0.05 * k, 0.3 + 0.35 * k, 0]);
      body.state.q.set([-r, 0, 0, r], 3);
    }
    let checked = 0, shared = 0, twoSided = 0;
    for (let s = 0; s < 60; s++) {
      world.step(1 / 60);
      const rows = world.rows, bodies = world.bodies;
      for (const b of bodies) forwardKinematics(b.model, b.state, true);
      const one = new Float64Array(rows.count), all = new Float64Array(rows.count);
      for (let j = 0; j < rows.count; j++) rowVelocityInto(rows, j, bodies, one, j);
      rowVelocitiesInto(rows, bodies, all);
      for (let j = 0; j < rows.count; j++) {
        expect(all[j]).toBe(one[j]);
        checked++;
        if (rows.type[j] === RowType.Point && rows.bodyB[j] >= 0) twoSided++;
        if (j > 0 && rows.type[j] === RowType.Point && rows.type[j - 1] === RowType.Point && rows.linkA[j] === rows.linkA[j - 1] && rows.pA[3 * j] === rows.pA[3 * j - 3]) shared++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(shared).toBeGreaterThan(500);
    expect(twoSided).toBeGreaterThan(10);
  });
});
