/**
 * The exact block solve of dense problems (principal-pivoting.ts, pivoting-gauss-seidel.ts):
 * against Lemke's method (an independent exact solver) on random positive definite problems of
 * bilateral and unilateral rows, where the solution is unique; against the complementarity
 * conditions themselves (checkMixedLcp) with friction rows, whose bounds follow their normal's
 * force; and against PGS on a badly conditioned problem where 30 sweeps stop far from the answer.
 */
import { describe, expect, it } from 'vitest';
import { LcpProblem, PgsSolver, checkMixedLcp, solveMixedLcpLemke } from '../src/lcp/index.js';
import { PivotingGaussSeidel } from '../src/lcp/pivoting-gauss-seidel.js';
import { SeededRandom, randomMixedLcp } from '../src/lcp/random-problems.js';

describe('the exact block solve of dense problems', () => {
  it('gives the forces of Lemke\'s method on 200 random problems of bilateral and unilateral rows (3 to 24 rows, K positive definite), to 1e-8 relative', () => {
    const rng = new SeededRandom(7);
    const solver = new PivotingGaussSeidel();
    let worst = 0, changes = 0;
    for (let t = 0; t < 200; t++) {
      const n = 3 + (t % 22);
      const p = randomMixedLcp(rng, n, t % 2 === 0 ? 'standard' : 'free', { minEigenvalue: 0.01, maxEigenvalue: 100 });
      const f = new Float64Array(n);
      // half the trials warm-started from forces that are wrong
      if (t % 4 === 1) for (let i = 0; i < n; i++) f[i] = rng.uniform(-1, 2);
      expect(solver.solve(p, f, { tolerance: 1e-10, maxIterations: 10 })).toBe(true);
      changes += solver.result.iterations;
      const ref = new Float64Array(n);
      expect(solveMixedLcpLemke(p, ref).status).toBe('solved');
      let scale = 1;
      for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(ref[i]));
      for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(f[i] - ref[i]) / scale);
    }
    console.log(`[lcp-pivoting] 200 frictionless problems: largest difference from Lemke ${worst.toExponential(2)} (relative), ${changes} rounds in all`);
    expect(worst).toBeLessThan(1e-8);
  });

  it('meets the complementarity conditions of 200 random problems with friction rows (bounds mu f_normal) and boxes, within 1e-8', () => {
    const rng = new SeededRandom(11);
    const solver = new PivotingGaussSeidel();
    let converged = 0, worstRounds = 0;
    for (let t = 0; t < 200; t++) {
      const n = 4 + (t % 20);
      const p = randomMixedLcp(rng, n, 'friction');
      const f = new Float64Array(n);
      expect(solver.solve(p, f, { tolerance: 1e-9, maxIterations: 500 })).toBe(true);
      if (!solver.result.converged) continue;
      converged++;
      worstRounds = Math.max(worstRounds, solver.result.iterations);
      const check = checkMixedLcp(p, f, { force: 1e-8, measure: 1e-8 });
      expect(check.ok, check.message).toBe(true);
    }
    console.log(`[lcp-pivoting] 200 problems with friction: ${converged} converged to 1e-9 within 500 rounds (at most ${worstRounds})`);
    expect(converged).toBeGreaterThanOrEqual(190);
  });

  it('solves what PGS leaves far off: a light link between a pin and a load 1000 times heavier (K entries spread 1e6), at a stop', () => {
    // three rows: a bilateral pin on the heavy side, a bilateral pin on the light side, and a
    // unilateral stop; K = J M^-1 J^T with masses 1 and 1000 (K entries 1e-3 to 1)
    const p = new LcpProblem(3).resize(3);
    const K = [1.001, 1, 0.999, 1, 1.001, 1, 0.999, 1, 1.0011];
    p.A.set(K);
    p.b.set([-9.81, 9.81, -0.5]);
    p.setBilateral(0); p.setBilateral(1); p.setUnilateral(2);
    const exact = new Float64Array(3), pgs = new Float64Array(3), ref = new Float64Array(3);
    const solver = new PivotingGaussSeidel();
    expect(solver.solve(p, exact, { tolerance: 1e-9, maxIterations: 10 })).toBe(true);
    expect(solveMixedLcpLemke(p, ref).status).toBe('solved');
    const r = new PgsSolver().solve(p, pgs, { maxIterations: 30, tolerance: 1e-9 });
    let exactErr = 0, pgsErr = 0;
    for (let i = 0; i < 3; i++) { exactErr = Math.max(exactErr, Math.abs(exact[i] - ref[i])); pgsErr = Math.max(pgsErr, Math.abs(pgs[i] - ref[i])); }
    console.log(`[lcp-pivoting] ill-conditioned pin and stop: block solve off by ${exactErr.toExponential(2)}, 30 PGS sweeps off by ${pgsErr.toExponential(2)} (residual ${r.residual.toExponential(2)})`);
    expect(exactErr).toBeLessThan(1e-6 * Math.max(1, Math.abs(ref[0])));
    expect(pgsErr).toBeGreaterThan(1e3 * exactErr);
  });
});
