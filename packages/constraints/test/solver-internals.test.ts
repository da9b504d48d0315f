/**
 * The solver's bookkeeping against plain references: the warm-start table against a Map, the sort
 * of row keys against Array.prototype.sort, the PGS's row-wise update for symmetric matrices
 * against its column-wise update, and the measures of forces checked without K against K formed.
 */
import { describe, expect, it } from 'vitest';
import { PgsSolver } from '../src/lcp/pgs.js';
import { randomMixedLcp, SeededRandom } from '../src/lcp/random-problems.js';
import { WarmStartTable } from '../src/solver/warm-start.js';
import { sortKeysInPlace } from '../src/solver/sort-keys.js';
import { forwardKinematics, pointPosition } from '@sinew/featherstone';
import { PointPin, TrajectoryFollower, World } from '../src/index.js';
import { rowVelocitiesInto, rowVelocityInto } from '../src/rows/measure.js';
import { RowTag, RowType } from '../src/rows/row-buffer.js';
import { humanoidTree } from './humanoid-fixture.js';
import { ConstraintSolver } from '../src/solver/constraint-solver.js';
import type { PgsOptions } from '../src/lcp/pgs.js';

describe('WarmStartTable', () => {
  it('answers like a Map over 20 generations of random keys (contact keys near -2^53, limit and drive keys), growing from 4 slots, also from the slots its sets return', () => {
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
      // getAt: straight from the slot a set returned (the last set of a key: its one slot), and
      // like get from any other slot, out of range or not
      const slots = new Map<number, number>();
      for (const key of keys) slots.set(key, table.set(key, ref.get(key)!));
      for (const [key, value] of ref) {
        expect(table.getAt(slots.get(key)!, key)).toBe(value);
        expect(table.getAt(Math.floor(rng.next() * 1e5) - 10, key)).toBe(value);
      }
      expect(table.getAt(slots.get(keys[0])!, 2 ** 40, NaN)).toBeNaN(); // (a key never set)
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

  it('stores no new key at +0 (it reads as +0 all the same), nor one whose force is -0 (held as +0), and reads out exactly its entries in the order first set (checked against a Map over 20 generations)', () => {
    const rng = new SeededRandom(13);
    const table = new WarmStartTable(4);
    for (let gen = 0; gen < 20; gen++) {
      table.clear();
      // the reference: every key in the order first set, with its last force
      const ref = new Map<number, number>();
      const n = 1 + Math.floor(rng.next() * 2000);
      for (let k = 0; k < n; k++) {
        const key = rng.next() < 0.2 && ref.size ? [...ref.keys()][Math.floor(rng.next() * ref.size)] : -2 - Math.floor(rng.next() * 2 ** 52);
        const u = rng.next();
        const raw = u < 0.4 ? 0 : u < 0.45 ? -0 : u < 0.47 ? 1e-300 : rng.gaussian();
        table.set(key, raw);
        const value = raw + 0; // (-0 is held as +0; a tiny force is held whole)
        // a key seen before keeps its place in the order; a new one at +0 is not stored
        if (ref.has(key) || !Object.is(value, 0)) ref.set(key, value);
      }
      for (const [key, value] of ref) expect(Object.is(table.get(key, NaN), value)).toBe(true);
      expect(table.size).toBe(ref.size); // (new keys at +0 are not among them)
      const kept = [...ref].filter(([, v]) => !Object.is(v, 0));
      expect(table.nonZeroCount()).toBe(kept.length);
      [...ref].forEach(([key, value], e) => {
        expect(table.keyAt(e)).toBe(key);
        expect(Object.is(table.forceAt(e), value)).toBe(true);
      });
    }
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

/** Two humanoids lying one above the other, to fall into each other and onto the ground (sleep off). */
function twoHumanoidsFalling(): World {
  const world = new World({ sleep: false });
  world.addStatic({ geometry: { type: 'plane' } });
  for (let k = 0; k < 2; k++) {
    const body = world.addBody(humanoidTree(), { name: `man${k}` });
    const r = Math.SQRT1_2;
    body.state.q.set([0.05 * k, 0.3 + 0.35 * k, 0]);
    body.state.q.set([-r, 0, 0, r], 3);
  }
  return world;
}

/**
 * A humanoid lying on the ground, its joints driven toward a pose away from its own (drive rows on
 * 1-dof and spherical joints), one hand pinned where it starts (a point pin), sleep off.
 */
function drivenHumanoidPinned(): World {
  const world = new World({ sleep: false });
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(humanoidTree(), { name: 'driven' });
  const r = Math.SQRT1_2;
  body.state.q.set([0, 0.25, 0]);
  body.state.q.set([-r, 0, 0, r], 3);
  const drive = world.addConstraint(new TrajectoryFollower(body, { settleTime: 0.2, maxTorque: 30 }));
  for (let d = 7; d < body.model.nq; d++) drive.targetQ[d] += 0.2;
  forwardKinematics(body.model, body.state);
  const hand = body.model.nLinks - 1, at = new Float64Array(3);
  pointPosition(body.state, hand, [0, 0, 0], at);
  world.addConstraint(new PointPin(0, hand, [0, 0, 0], { body: -1, link: -1, point: at }));
  return world;
}

describe('rowVelocitiesInto', () => {
  it("gives rowVelocityInto's bits row by row, a contact's rows sharing their point's velocity (two humanoids falling into each other and onto the ground)", () => {
    const world = twoHumanoidsFalling();
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

describe('ConstraintSolver.checkForces', () => {
  // (rows by 10 tag + type: joint and cone limits read joint rates, drives one dof each, contacts and pins a point's motion)
  const limit1 = 10 * RowTag.Limit + RowType.Joint, cone = 10 * RowTag.Limit + RowType.JointVec, contact = 10 * RowTag.Contact + RowType.Point;
  const drive = 10 * RowTag.Drive + RowType.Joint, pin = 10 * RowTag.Pin + RowType.Point;
  it.each([
    ['two humanoids falling into each other and onto the ground', twoHumanoidsFalling, 3000, [limit1, cone, contact]],
    ['a humanoid on the ground, driven away from its pose, one hand pinned (drive, limit and pin rows)', drivenHumanoidPinned, 1000, [drive, pin, cone, contact]],
  ])('measures every row as b + K f with K formed densely, applies the forces as combine does, bounds the natural-map residual from above, and hands its measures to the sweeps unchanged in effect: %s', (_, scene, minRows, mustHave) => {
    const world = scene();
    const h = 1 / 60, options: PgsOptions = { maxIterations: 30, tolerance: 1e-3, sor: 1 };
    let measured = 0, worstMeasure = 0, worstQdd = 0, worstForce = 0, passed = 0, failed = 0;
    const kinds = new Set<number>();
    for (let s = 0; s < 90; s++) {
      world.step(h);
      const rows = world.rows, bodies = world.bodies;
      if (rows.count <= 12) continue;
      const all = Int32Array.from({ length: rows.count }, (_, j) => j);
      const forces = Float64Array.from(rows.force.subarray(0, rows.count));
      // the check (implicit mode) and the reference (K formed densely by AccelerationDeltas)
      const check = Object.assign(new ConstraintSolver(), { directLimit: 0 }), dense = Object.assign(new ConstraintSolver(), { denseLimit: 1e9, directLimit: 0, exactBlocks: false });
      check.setRows(rows, all, rows.count, bodies);
      dense.setRows(rows, all, rows.count, bodies);
      expect(check.dense).toBe(false);
      expect(dense.dense).toBe(true);
      dense.dynamics(bodies);
      dense.buildK(rows, bodies);
      dense.setAccelerationRhs(rows, bodies, h);
      check.measure(rows, bodies);
      check.setAccelerationRhs(rows, bodies, h);
      const f = Float64Array.from(forces);
      const ok = check.checkForces(rows, bodies, f, options);
      ok ? passed++ : failed++;
      // b + K f over the clamped forces, row by row (the same row order in both)
      const m = dense.m, A = dense.lcp.A;
      const fc = Float64Array.from({ length: m }, (_, c) => f[check.rowAt(c)]);
      let scale = 1, exact = 0;
      for (let c = 0; c < m; c++) {
        expect(dense.rowAt(c)).toBe(check.rowAt(c));
        let a = dense.b[c];
        for (let k = 0; k < m; k++) a += A[c * m + k] * fc[k];
        scale = Math.max(scale, Math.abs(dense.b[c]));
        worstMeasure = Math.max(worstMeasure, Math.abs(check.checkedMeasure(c) - a));
        // the natural-map residual of PGS at these forces, with the bounds of the row's box
        const r = dense.boundRow[c], d = A[c * m + c];
        const L = r < 0 ? dense.lo[c] : dense.lo[c] * fc[r], U = r < 0 ? dense.hi[c] : dense.hi[c] * fc[r];
        if (d > 0) { const x = Math.min(U, Math.max(L, fc[c] - a / d)); exact = Math.max(exact, Math.abs(d * (fc[c] - x))); }
        measured++;
        kinds.add(10 * rows.tag[check.rowAt(c)] + rows.type[check.rowAt(c)]);
      }
      expect(check.checkResult.residual).toBeGreaterThanOrEqual(exact - 1e-9 * scale);
      // the accelerations: qdd0 + sum f M^-1 J^T, from the dense columns and from the check's pass
      check.applyCheckedForces(bodies);
      const viaCheck = bodies.map((b) => Float64Array.from(b.qdd));
      dense.solve(rows, { maxIterations: 0, tolerance: 0, sor: 1 }, true, f);
      dense.combine(bodies, 'qdd');
      bodies.forEach((b, i) => { for (let d = 0; d < b.model.nv; d++) worstQdd = Math.max(worstQdd, Math.abs(b.qdd[d] - viaCheck[i][d]) / Math.max(1, Math.abs(b.qdd[d]))); });
      // the sweeps from the check's measures and z, and from their own: the same forces
      const swept = Float64Array.from(f);
      check.buildK(rows, bodies);
      check.solve(rows, options, true, swept);
      const plain = Object.assign(new ConstraintSolver(), { directLimit: 0 });
      plain.setRows(rows, all, rows.count, bodies);
      plain.buildK(rows, bodies);
      plain.setAccelerationRhs(rows, bodies, h);
      const own = Float64Array.from(f);
      plain.solve(rows, options, true, own);
      for (let j = 0; j < rows.count; j++) worstForce = Math.max(worstForce, Math.abs(swept[j] - own[j]) / Math.max(1, Math.abs(own[j])));
    }
    console.log(`checkForces: ${measured} row measures (kinds of rows, 10 tag + type: ${[...kinds].sort((x, y) => x - y).join(", ")}), worst |a - (b + K f)| ${worstMeasure.toExponential(2)} m/s^2; accelerations ${worstQdd.toExponential(2)}; forces after the sweeps ${worstForce.toExponential(2)}; ${passed} steps held, ${failed} not`);
    expect(measured).toBeGreaterThan(minRows);
    for (const kind of mustHave) expect(kinds.has(kind), `rows of tag and type ${kind}`).toBe(true);
    expect(failed).toBeGreaterThan(0);
    // (against a tolerance of 1e-3 m/s^2)
    expect(worstMeasure).toBeLessThan(1e-8);
    expect(worstQdd).toBeLessThan(1e-9);
    expect(worstForce).toBeLessThan(1e-9);
  });
});
