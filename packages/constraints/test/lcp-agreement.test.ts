/**
 * PGS == Lemke on random mixed LCPs with positive definite matrices: the two solvers share no code
 * but the problem definition and the residual, and each answer is also judged by checkMixedLcp.
 *
 * Uniqueness. Without friction the problem is a strictly convex QP over a box, so forces and
 * measures are unique and must agree. With friction the bounds depend on the normal forces and
 * uniqueness is not guaranteed in general; it holds for friction coefficients small against the
 * conditioning of A. The friction problems here keep mu <= 1 and A = Q' diag(lambda) Q with lambda
 * in [0.2, 5] and no extra row scaling (normal and tangent rows of one contact share their units,
 * as they do in a simulation).
 */
import { describe, expect, it } from 'vitest';
import { PgsSolver, checkMixedLcp, computeMeasures, pgsRowOrder, solveMixedLcpLemke } from '../src/lcp/index.js';
import { SeededRandom, randomMixedLcp, type RandomLcpMix } from '../src/lcp/random-problems.js';

const PROBLEMS_PER_MIX = 150;
/** PGS stops at this residual (measure units). */
const PGS_TOLERANCE = 1e-12;
/** Stated agreement: forces and measures within this, relative to max(1, largest magnitude). */
const AGREEMENT = 1e-8;

function maxAbs(x: Float64Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(x[i]));
  return m;
}

describe('PGS and Lemke agree on random mixed LCPs with positive definite matrices', () => {
  const mixes: RandomLcpMix[] = ['standard', 'free', 'bounded', 'friction'];
  let total = 0;
  for (const mix of mixes) {
    it(`${PROBLEMS_PER_MIX} problems, ${mix} rows, n = 1..12`, () => {
      const rng = new SeededRandom(1000 + mixes.indexOf(mix));
      const solver = new PgsSolver(12, { maxIterations: 20000, tolerance: PGS_TOLERANCE });
      const order = new Int32Array(12);
      let kinds = 0;
      for (let trial = 0; trial < PROBLEMS_PER_MIX; trial++) {
        const n = 1 + (trial % 12);
        const p = randomMixedLcp(rng, n, mix, { rowScale: mix === 'friction' ? 1 : 3 });
        for (let i = 0; i < n; i++) if (p.boundRow[i] >= 0 || p.lo[i] === -Infinity) kinds++;

        const fLemke = new Float64Array(n);
        const lemke = solveMixedLcpLemke(p, fLemke);
        expect(lemke.status).toBe('solved');
        const fPgs = new Float64Array(n);
        const pgs = solver.solve(p, fPgs, { order: pgsRowOrder(p, order) });
        expect(pgs.converged, `${mix} trial ${trial}: PGS residual ${pgs.residual}`).toBe(true);

        const tol = { force: 1e-9, measure: 1e-9 };
        const checkLemke = checkMixedLcp(p, fLemke, tol);
        const checkPgs = checkMixedLcp(p, fPgs, tol);
        expect(checkLemke.ok, `Lemke, ${mix} trial ${trial}: ${checkLemke.message}`).toBe(true);
        expect(checkPgs.ok, `PGS, ${mix} trial ${trial}: ${checkPgs.message}`).toBe(true);

        const aLemke = computeMeasures(p, fLemke, new Float64Array(n));
        const aPgs = computeMeasures(p, fPgs, new Float64Array(n));
        const fScale = Math.max(1, maxAbs(fLemke, n));
        const aScale = Math.max(1, maxAbs(p.b, n));
        for (let i = 0; i < n; i++) {
          expect(Math.abs(fPgs[i] - fLemke[i]), `${mix} trial ${trial} force ${i}`).toBeLessThanOrEqual(AGREEMENT * fScale);
          expect(Math.abs(aPgs[i] - aLemke[i]), `${mix} trial ${trial} measure ${i}`).toBeLessThanOrEqual(AGREEMENT * aScale);
        }
        total++;
      }
      // The mix really contains the rows it is named for.
      if (mix === 'standard') expect(kinds).toBe(0);
      else expect(kinds).toBeGreaterThan(PROBLEMS_PER_MIX);
    });
  }
  it('covered at least 500 problems', () => {
    expect(total).toBeGreaterThanOrEqual(500);
  });
});
