/**
 * Projected Gauss-Seidel: over-relaxation, warm starts, determinism, allocation, row order,
 * zero diagonals, capacity and input errors.
 */
import { lusolve } from 'mathjs';
import { describe, expect, it } from 'vitest';
import {
  LcpProblem,
  PgsSolver,
  checkMixedLcp,
  computeMeasures,
  invertPermutation,
  permuteMixedLcp,
  pgsRowOrder,
  scatterByPermutation,
  solveMixedLcpLemke,
  type MixedLcp,
} from '../src/lcp/index.js';
import { SeededRandom, randomMixedLcp } from '../src/lcp/random-problems.js';

function denseSolve(p: MixedLcp): number[] {
  const n = p.n;
  const A = Array.from({ length: n }, (_, i) => Array.from(p.A.subarray(i * n, i * n + n)));
  return (lusolve(A, Array.from(p.b.subarray(0, n), (v) => -v)) as number[][]).map((r) => r[0]);
}

/** A chain of n unit masses joined by springs seen as bilateral rows: K = tridiag(-1, 2, -1). */
function chainProblem(n: number, rng: SeededRandom): LcpProblem {
  const p = new LcpProblem(n).resize(n);
  for (let i = 0; i < n; i++) {
    p.A[i * n + i] = 2;
    if (i > 0) p.A[i * n + i - 1] = -1;
    if (i + 1 < n) p.A[i * n + i + 1] = -1;
    p.b[i] = rng.gaussian();
  }
  return p;
}

describe('PGS: over-relaxation', () => {
  it('SOR (omega = 1.8) needs far fewer sweeps than Gauss-Seidel on a 30-row chain, same answer', () => {
    const n = 30;
    const p = chainProblem(n, new SeededRandom(31));
    const exact = denseSolve(p);
    const solver = new PgsSolver(n);
    const fGs = new Float64Array(n);
    const gs = { ...solver.solve(p, fGs, { maxIterations: 100000, tolerance: 1e-10 }) };
    const fSor = new Float64Array(n);
    const sor = { ...solver.solve(p, fSor, { maxIterations: 100000, tolerance: 1e-10, sor: 1.8 }) };
    expect(gs.converged && sor.converged).toBe(true);
    // Theory (Young): rho(GS) = cos^2(pi/31) ~ 0.990, rho(SOR at omega ~ 1.82) ~ 0.82.
    expect(sor.iterations * 5).toBeLessThan(gs.iterations);
    for (let i = 0; i < n; i++) {
      expect(Math.abs(fGs[i] - exact[i])).toBeLessThan(1e-7);
      expect(Math.abs(fSor[i] - exact[i])).toBeLessThan(1e-7);
    }
  });

  it('SOR also speeds up a chain with one-sided rows, and the answer satisfies the conditions', () => {
    const n = 30;
    const p = chainProblem(n, new SeededRandom(32));
    for (let i = 0; i < n; i += 3) p.setUnilateral(i);
    const solver = new PgsSolver(n);
    const counts: number[] = [];
    for (const omega of [1, 1.7]) {
      const f = new Float64Array(n);
      const r = solver.solve(p, f, { maxIterations: 100000, tolerance: 1e-10, sor: omega });
      expect(r.converged).toBe(true);
      const check = checkMixedLcp(p, f, { force: 1e-12, measure: 1e-9 });
      expect(check.ok, check.message).toBe(true);
      counts.push(r.iterations);
    }
    expect(counts[1] * 2).toBeLessThan(counts[0]);
  });
});

describe('PGS: warm start', () => {
  it('from its own solution: 0 sweeps and the forces unchanged bit for bit', () => {
    const rng = new SeededRandom(33);
    const p = randomMixedLcp(rng, 12, 'friction');
    const solver = new PgsSolver(12);
    const f = new Float64Array(12);
    const cold = solver.solve(p, f, { maxIterations: 10000, tolerance: 1e-10 });
    expect(cold.converged).toBe(true);
    expect(cold.iterations).toBeGreaterThan(5);
    const before = Float64Array.from(f);
    const warm = solver.solve(p, f, { maxIterations: 10000, tolerance: 1e-10 });
    expect(warm.iterations).toBe(0);
    expect(warm.converged).toBe(true);
    expect(Array.from(f)).toEqual(Array.from(before));
  });

  it('from the Lemke solution: at most 1 sweep where a cold start takes many, same forces', () => {
    const rng = new SeededRandom(34);
    for (const mix of ['standard', 'free', 'bounded', 'friction'] as const) {
      const n = 12;
      const p = randomMixedLcp(rng, n, mix);
      const fLemke = new Float64Array(n);
      expect(solveMixedLcpLemke(p, fLemke).status).toBe('solved');
      const solver = new PgsSolver(n);
      const cold = solver.solve(p, new Float64Array(n), { maxIterations: 10000, tolerance: 1e-9 }).iterations;
      const f = Float64Array.from(fLemke);
      const warm = solver.solve(p, f, { maxIterations: 10000, tolerance: 1e-9 });
      expect(warm.converged).toBe(true);
      expect(warm.iterations).toBeLessThanOrEqual(1);
      expect(cold).toBeGreaterThan(3);
      for (let i = 0; i < n; i++) expect(Math.abs(f[i] - fLemke[i])).toBeLessThan(1e-9);
    }
  });

  it('a warm start outside the bounds is projected first (friction after its normal)', () => {
    const p = new LcpProblem(2).resize(2);
    p.A[0] = p.A[3] = 1;
    p.b.set([5, 0]); // separating contact: the answer is f = 0
    p.setUnilateral(0);
    p.setFriction(1, 0, 0.5);
    const f = Float64Array.from([-3, 7]);
    const r = new PgsSolver(2).solve(p, f, { maxIterations: 0 });
    // No sweep allowed: only the projection. f_n -> 0, then f_t in [-0, 0] -> 0.
    expect(r.iterations).toBe(0);
    expect(Array.from(f)).toEqual([0, 0]);
    expect(r.converged).toBe(true);
  });
});

describe('PGS: determinism and allocation', () => {
  it('same input gives identical bits: same solver, a fresh solver, a larger solver', () => {
    const rng = new SeededRandom(35);
    const p = randomMixedLcp(rng, 20, 'friction');
    const warm = Float64Array.from({ length: 20 }, () => rng.gaussian());
    const runs = [new PgsSolver(20), new PgsSolver(20), new PgsSolver(64)].flatMap((solver) =>
      [0, 1].map(() => {
        const f = Float64Array.from(warm);
        const r = solver.solve(p, f, { maxIterations: 15, tolerance: 0, sor: 1.3 });
        return { bytes: Array.from(new Uint8Array(f.buffer)), residual: r.residual, iterations: r.iterations };
      }),
    );
    // Stopped by the cap, not converged: any difference in the arithmetic would show in the bits.
    expect(runs[0].iterations).toBe(15);
    expect(runs[0].residual).toBeGreaterThan(1e-8);
    for (const run of runs) {
      expect(run.bytes).toEqual(runs[0].bytes);
      expect(Object.is(run.residual, runs[0].residual)).toBe(true);
      expect(run.iterations).toBe(15);
    }
  });

  it('reuses one result object; 20k solves after warm-up neither grow the heap nor set off collections', () => {
    const rng = new SeededRandom(36);
    const p = randomMixedLcp(rng, 6, 'friction');
    const order = pgsRowOrder(p, new Int32Array(6));
    const solver = new PgsSolver(6, { maxIterations: 8, tolerance: 1e-12, sor: 1.2, order });
    const f = new Float64Array(6);
    const first = solver.solve(p, f);
    expect(first).toBe(solver.result);
    expect(first.iterations).toBe(8);
    const run = (calls: number): void => {
      for (let k = 0; k < calls; k++) {
        f.fill(0);
        if (solver.solve(p, f) !== first) throw new Error('result object replaced');
      }
    };
    run(200000); // warm-up: until the optimised code is installed, the interpreter boxes numbers
    // Heap in use around chunks of 1000 solves. A drop means a collection ran during the chunk
    // (it would hide what was allocated), so collections are counted and the growth of the other
    // chunks is compared by its median: an allocating solve grows every chunk (a few bytes per
    // call) or sets off a collection in most of them (many bytes per call), while a one-off event
    // of the engine (code of a late optimisation lands on the heap too) shows in a single chunk.
    let collections = 0;
    const growth: number[] = [];
    for (let chunk = 0; chunk < 20; chunk++) {
      const before = process.memoryUsage().heapUsed;
      run(1000);
      const after = process.memoryUsage().heapUsed;
      if (after < before) collections++;
      else growth.push((after - before) / 1000);
    }
    growth.sort((a, b) => a - b);
    expect(collections).toBeLessThanOrEqual(1);
    expect(growth[growth.length >> 1]).toBeLessThan(1);
  });
});

describe('PGS: options', () => {
  it('solver options persist, a per-call override applies to that call only, a bad value keeps the old ones', () => {
    const p = chainProblem(20, new SeededRandom(40));
    const solver = new PgsSolver(20, { maxIterations: 3, tolerance: 0 });
    expect(solver.solve(p, new Float64Array(20)).iterations).toBe(3);
    expect(solver.solve(p, new Float64Array(20), { maxIterations: 5 }).iterations).toBe(5);
    expect(solver.solve(p, new Float64Array(20)).iterations).toBe(3);
    // The override keeps the solver's tolerance 0 (never met here), so the cap decides.
    expect(solver.solve(p, new Float64Array(20), { sor: 1.5 }).iterations).toBe(3);
    expect(() => solver.setOptions({ maxIterations: -1 })).toThrow(/maxIterations/);
    expect(() => solver.setOptions({ tolerance: NaN })).toThrow(/tolerance/);
    expect(solver.solve(p, new Float64Array(20)).iterations).toBe(3);
    solver.setOptions({ maxIterations: 4 }); // everything else back to DEFAULT_PGS_OPTIONS
    const r = solver.solve(p, new Float64Array(20));
    expect(r.iterations).toBe(4);
    expect(r.converged).toBe(r.residual <= 1e-9);
  });
});

describe('PGS: row order', () => {
  it('pgsRowOrder puts bilateral rows first, bounded next, friction last, stably', () => {
    const p = new LcpProblem(6).resize(6);
    p.setFriction(0, 3, 0.5);
    p.setBilateral(1);
    p.setBounds(2, -1, 1);
    p.setUnilateral(3);
    p.setBilateral(4);
    p.setFriction(5, 3, 0.5);
    expect(Array.from(pgsRowOrder(p, new Int32Array(6)))).toEqual([1, 4, 2, 3, 0, 5]);
  });

  it('any visiting order converges to a solution; friction visited before its normal stays in its box', () => {
    const rng = new SeededRandom(37);
    for (let trial = 0; trial < 20; trial++) {
      const n = 4 + rng.int(0, 9);
      const p = randomMixedLcp(rng, n, 'friction');
      const reversed = Int32Array.from({ length: n }, (_, k) => n - 1 - k);
      const solver = new PgsSolver(n);
      for (const order of [pgsRowOrder(p, new Int32Array(n)), reversed]) {
        const f = new Float64Array(n);
        // A few sweeps only: the forces must be within their bounds after every solve.
        solver.solve(p, f, { maxIterations: 2, tolerance: 0, order });
        expect(checkMixedLcp(p, f, { force: 1e-14, measure: Infinity }).ok).toBe(true);
        const r = solver.solve(p, f, { maxIterations: 20000, tolerance: 1e-10, order });
        expect(r.converged).toBe(true);
        // A residual of 1e-10 allows a force within 1e-10 / A_ii (A_ii >= 0.2 here) of a bound it
        // should sit on: friction rows visited before their normal end a sweep just inside their box.
        const check = checkMixedLcp(p, f, { force: 1e-9, measure: 1e-9 });
        expect(check.ok, check.message).toBe(true);
      }
    }
  });

  it('permuteMixedLcp renumbers friction references and gives the same solution', () => {
    const rng = new SeededRandom(38);
    for (let trial = 0; trial < 20; trial++) {
      const n = 3 + rng.int(0, 10);
      const p = randomMixedLcp(rng, n, 'friction');
      const perm = Int32Array.from({ length: n }, (_, k) => k);
      for (let k = n - 1; k > 0; k--) {
        const j = rng.int(0, k + 1);
        [perm[k], perm[j]] = [perm[j], perm[k]];
      }
      const inverse = new Int32Array(n);
      const q = permuteMixedLcp(p, perm, new LcpProblem(), inverse);
      for (let k = 0; k < n; k++) {
        const r = p.boundRow[perm[k]];
        expect(q.boundRow[k]).toBe(r < 0 ? -1 : inverse[r]);
        if (r >= 0) expect(perm[q.boundRow[k]]).toBe(r);
        for (let l = 0; l < n; l++) expect(q.A[k * n + l]).toBe(p.A[perm[k] * n + perm[l]]);
      }
      const fOriginal = new Float64Array(n);
      const fPermuted = new Float64Array(n);
      expect(solveMixedLcpLemke(p, fOriginal).status).toBe('solved');
      expect(solveMixedLcpLemke(q, fPermuted).status).toBe('solved');
      const back = scatterByPermutation(perm, n, fPermuted, new Float64Array(n));
      for (let i = 0; i < n; i++) expect(Math.abs(back[i] - fOriginal[i])).toBeLessThan(1e-9 * Math.max(1, Math.abs(fOriginal[i])));
    }
    expect(() => invertPermutation(Int32Array.from([0, 0]), 2, new Int32Array(2))).toThrow(/repeated/);
  });
});

describe('PGS: zero diagonal, capacity, input errors', () => {
  /** Rows 1, 2 an SPD block; row 0 has no effect on anything (zero row and column). */
  function withDeadRow(b0: number, lo0: number): LcpProblem {
    const p = new LcpProblem(3).resize(3);
    p.A[4] = 2;
    p.A[5] = p.A[7] = 0.5;
    p.A[8] = 1;
    p.b.set([b0, -1, 1]);
    p.setBounds(0, lo0, Infinity);
    return p;
  }

  it('a row no force can move holds its smallest admissible force and its residual is reported', () => {
    const solver = new PgsSolver(3);
    // Bilateral dead row asking for a_0 = 0 while a_0 = 2 regardless: unsatisfiable.
    const p = withDeadRow(2, -Infinity);
    const f = Float64Array.from([5, 0, 0]);
    const r = solver.solve(p, f, { maxIterations: 500, tolerance: 1e-10 });
    expect(f[0]).toBe(0);
    expect(r.converged).toBe(false);
    expect(r.worstRow).toBe(0);
    expect(r.residual).toBe(2); // |a_0|, in measure units
    // The rest is solved: [[2, .5], [.5, 1]] f = [1, -1] -> f = (6/7, -10/7).
    expect(f[1]).toBeCloseTo(6 / 7, 9);
    expect(f[2]).toBeCloseTo(-10 / 7, 9);
    // A unilateral dead row with a_0 = 2 >= 0 is satisfied at f_0 = 0: converged.
    const q = withDeadRow(2, 0);
    const g = Float64Array.from([5, 0, 0]);
    expect(solver.solve(q, g, { maxIterations: 500, tolerance: 1e-10 }).converged).toBe(true);
    expect(g[0]).toBe(0);
    // A unilateral dead row with a_0 = -3 < 0: not satisfiable, residual 3.
    const s = withDeadRow(-3, 0);
    const h = new Float64Array(3);
    const rs = solver.solve(s, h, { maxIterations: 500, tolerance: 1e-10 });
    expect(rs.converged).toBe(false);
    expect(rs.residual).toBeCloseTo(3, 12);
  });

  it('grows past its capacity when needed; LcpProblem reuses its storage within capacity', () => {
    const rng = new SeededRandom(39);
    const p = randomMixedLcp(rng, 10, 'bounded');
    const solver = new PgsSolver(2);
    const f = new Float64Array(10);
    expect(solver.solve(p, f, { maxIterations: 10000, tolerance: 1e-10 }).converged).toBe(true);
    expect(solver.capacity).toBeGreaterThanOrEqual(10);
    expect(checkMixedLcp(p, f, { force: 1e-12, measure: 1e-9 }).ok).toBe(true);

    const problem = new LcpProblem(8);
    const storage = problem.A;
    problem.resize(5);
    problem.A[3] = 7;
    problem.lo[2] = 0;
    problem.resize(8);
    expect(problem.A).toBe(storage);
    expect(problem.A[3]).toBe(0); // reset
    expect(problem.lo[2]).toBe(-Infinity);
    problem.resize(9);
    expect(problem.A).not.toBe(storage);
    expect(problem.capacity).toBeGreaterThanOrEqual(16);
  });

  it('rejects bad input with the row and what was expected', () => {
    const solver = new PgsSolver(3);
    const base = (): LcpProblem => {
      const p = new LcpProblem(3).resize(3);
      p.A[0] = p.A[4] = p.A[8] = 1;
      return p;
    };
    const f = new Float64Array(3);
    let p = base();
    p.b[1] = NaN;
    expect(() => solver.solve(p, f)).toThrow(/row 1: b is NaN/);
    p = base();
    p.setBounds(2, 1, 0);
    expect(() => solver.solve(p, f)).toThrow(/row 2: bounds \[1, 0\]/);
    p = base();
    p.setFriction(0, 1, 0.5);
    p.setFriction(1, 2, 0.5);
    expect(() => solver.solve(p, f)).toThrow(/row 0: its normal row 1 is itself a friction row/);
    p = base();
    p.setFriction(0, 1, 0.5); // row 1 bilateral: lower bound -Inf
    expect(() => solver.solve(p, f)).toThrow(/normal row 1 has lower bound -Infinity/);
    p = base();
    p.setFriction(0, 0, 0.5);
    expect(() => solver.solve(p, f)).toThrow(/row 0: boundRow is 0/);
    p = base();
    p.A[5] = Infinity;
    expect(() => solver.solve(p, f)).toThrow(/measure of row 1/);
    p = base();
    expect(() => solver.solve(p, f, { order: Int32Array.from([0, 2, 2]) })).toThrow(/order\[2\] = 2/);
    expect(() => solver.solve(p, f, { sor: 2 })).toThrow(/sor/);
    expect(() => solver.solve(p, Float64Array.from([0, NaN, 0]))).toThrow(/f\[1\]/);
    // The problem was never touched by a failing call: a clean solve still works.
    const g = new Float64Array(3);
    expect(solver.solve(base(), g).converged).toBe(true);
    expect(Array.from(computeMeasures(base(), g, new Float64Array(3)))).toEqual([0, 0, 0]);
  });
});
