/**
 * Lemke's method on the standard LCP against brute-force enumeration of active sets, its
 * terminations, and the mixed reference solver on problems with closed-form answers.
 */
import { lusolve } from 'mathjs';
import { describe, expect, it } from 'vitest';
import {
  LcpProblem,
  checkMixedLcp,
  computeMeasures,
  mixedToStandardLcp,
  solveLcpLemke,
  solveMixedLcpLemke,
  type MixedLcp,
} from '../src/lcp/index.js';
import { SeededRandom, randomMixedLcp, randomPsdMatrix, randomSpdMatrix } from '../src/lcp/random-problems.js';

/** The standard LCP (M, q) as a mixed LCP with every row unilateral, for checkMixedLcp. */
function asMixed(n: number, M: Float64Array, q: Float64Array): MixedLcp {
  const p = new LcpProblem(n).resize(n);
  p.A.set(M.subarray(0, n * n));
  p.b.set(q.subarray(0, n));
  for (let i = 0; i < n; i++) p.setUnilateral(i);
  return p;
}

/**
 * Every solution of the standard LCP found by trying all 2^n active sets S (z_S solves
 * M_SS z_S = -q_S with mathjs, z elsewhere 0) and keeping those with z >= 0 and w >= 0. Active
 * sets with a singular M_SS are skipped (never the case for positive definite M).
 */
function enumerateLcpSolutions(n: number, M: Float64Array, q: Float64Array, tol: number): number[][] {
  const found: number[][] = [];
  for (let mask = 0; mask < 1 << n; mask++) {
    const S: number[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) S.push(i);
    const z = new Array<number>(n).fill(0);
    if (S.length > 0) {
      const Mss = S.map((i) => S.map((j) => M[i * n + j]));
      const rhs = S.map((i) => -q[i]);
      let sol: number[][];
      try {
        sol = lusolve(Mss, rhs) as number[][];
      } catch {
        continue;
      }
      S.forEach((i, k) => (z[i] = sol[k][0]));
    }
    let feasible = true;
    for (let i = 0; i < n && feasible; i++) {
      let w = q[i];
      for (let j = 0; j < n; j++) w += M[i * n + j] * z[j];
      if (z[i] < -tol || w < -tol) feasible = false;
    }
    if (feasible) found.push(z);
  }
  return found;
}

describe('Lemke on random standard LCPs with positive definite M', () => {
  it('matches brute-force enumeration of active sets for n <= 6 (300 problems)', () => {
    const rng = new SeededRandom(11);
    let compared = 0;
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + (trial % 6);
      const M = randomSpdMatrix(rng, n, 0.2, 5, 3);
      const q = Float64Array.from({ length: n }, () => rng.gaussian());
      const res = solveLcpLemke(n, M, q);
      expect(res.status).toBe('solved');
      const check = checkMixedLcp(asMixed(n, M, q), res.z, { force: 1e-12, measure: 1e-10 });
      expect(check.ok, check.message).toBe(true);
      // A positive definite M has exactly one solution.
      const all = enumerateLcpSolutions(n, M, q, 1e-10);
      expect(all.length).toBe(1);
      for (let i = 0; i < n; i++) expect(Math.abs(res.z[i] - all[0][i])).toBeLessThan(1e-10 * Math.max(1, Math.abs(all[0][i])));
      compared++;
    }
    expect(compared).toBe(300);
  });

  it('solves larger problems (n up to 40) to the conditions, with w = Mz + q reported', () => {
    const rng = new SeededRandom(12);
    for (let trial = 0; trial < 60; trial++) {
      const n = 7 + rng.int(0, 34);
      const M = randomSpdMatrix(rng, n, 0.05, 10, 3);
      const q = Float64Array.from({ length: n }, () => 3 * rng.gaussian());
      const res = solveLcpLemke(n, M, q);
      expect(res.status).toBe('solved');
      expect(res.complementarityError).toBeLessThan(1e-10);
      const check = checkMixedLcp(asMixed(n, M, q), res.z, { force: 1e-12, measure: 1e-9 });
      expect(check.ok, check.message).toBe(true);
      for (let i = 0; i < n; i++) {
        let w = q[i];
        for (let j = 0; j < n; j++) w += M[i * n + j] * res.z[j];
        expect(res.w[i]).toBeCloseTo(w, 12);
      }
    }
  });

  it('returns z = 0 without pivoting when q >= 0', () => {
    const res = solveLcpLemke(2, Float64Array.from([2, 1, 1, 2]), Float64Array.from([1, 0]));
    expect(res.status).toBe('solved');
    expect(res.pivots).toBe(0);
    expect(Array.from(res.z)).toEqual([0, 0]);
  });

  it('2 x 2 by hand: M = [[2,1],[1,2]], q = [-5,-6] gives z = (4/3, 7/3)', () => {
    // Both active: [[2,1],[1,2]] z = [5,6] => z = (4/3, 7/3).
    const res = solveLcpLemke(2, Float64Array.from([2, 1, 1, 2]), Float64Array.from([-5, -6]));
    expect(res.status).toBe('solved');
    expect(res.z[0]).toBeCloseTo(4 / 3, 14);
    expect(res.z[1]).toBeCloseTo(7 / 3, 14);
    expect(Math.abs(res.w[0]) + Math.abs(res.w[1])).toBeLessThan(1e-14);
  });
});

describe('Lemke on degenerate and unsolvable problems', () => {
  it('degenerate PSD problems (ties in q, zero entries of q, duplicated rows) are solved', () => {
    const rng = new SeededRandom(13);
    for (let trial = 0; trial < 100; trial++) {
      const n = 3 + rng.int(0, 8);
      const rank = 1 + rng.int(0, n - 1);
      const M = randomPsdMatrix(rng, n, rank);
      // q = M y - (nonnegative vector with zeros) makes the problem feasible and degenerate:
      // many exact ties and zeros, several solutions.
      const y = Float64Array.from({ length: n }, () => (rng.next() < 0.5 ? 0 : rng.uniform(0, 2)));
      const q = new Float64Array(n);
      const tieValue = -1;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += M[i * n + j] * y[j];
        // w_i = 0 where y_i > 0 (complementary), else w_i in {0, 1}.
        const wi = y[i] > 0 ? 0 : rng.next() < 0.5 ? 0 : 1;
        q[i] = wi - s;
      }
      // Every fourth trial: exact ties in min q and zeros in q, with M + I (positive definite, so
      // solvable) to keep the problem feasible.
      if (trial % 4 === 0) {
        for (let i = 0; i < n; i++) q[i] = i % 2 === 0 ? tieValue : 0;
        for (let i = 0; i < n; i++) M[i * n + i] += 1;
      }
      // Both families are feasible and M is PSD (copositive-plus), so Lemke must solve them.
      const res = solveLcpLemke(n, M, q);
      expect(res.status).toBe('solved');
      const check = checkMixedLcp(asMixed(n, M, q), res.z, { force: 1e-12, measure: 1e-9 });
      expect(check.ok, check.message).toBe(true);
    }
  });

  it('degenerate problems where a first-index tie-break cycles or stops early are solved (lexicographic rule)', () => {
    // Small integer problems (general M, many ties in the ratio test). Taking the first of the tied
    // rows instead of the lexicographic minimum cycles on the first (pivot cap) and ends on a false
    // ray on the second; both have solutions, found here by enumeration.
    const cases = [
      {
        n: 5,
        M: [2, 0, 0, -1, -2, 0, 0, 1, 2, 0, 2, 1, 1, -1, -2, 1, 1, -2, 1, 1, -2, -2, 2, -2, 2],
        q: [1, -1, -1, -1, -1],
      },
      { n: 3, M: [0, 2, -2, 0, 1, 0, -2, 0, 2], q: [-2, -2, -2] },
    ];
    for (const { n, M, q } of cases) {
      const Mf = Float64Array.from(M);
      const qf = Float64Array.from(q);
      expect(enumerateLcpSolutions(n, Mf, qf, 1e-12).length).toBeGreaterThan(0);
      const res = solveLcpLemke(n, Mf, qf);
      expect(res.status).toBe('solved');
      const check = checkMixedLcp(asMixed(n, Mf, qf), res.z, { force: 1e-12, measure: 1e-12 });
      expect(check.ok, check.message).toBe(true);
    }
  });

  it('reports ray termination on infeasible problems', () => {
    // w = -z - 1 >= 0 has no solution with z >= 0.
    expect(solveLcpLemke(1, Float64Array.from([-1]), Float64Array.from([-1])).status).toBe('rayTermination');
    // w = 0 z - 1: the zero matrix with a negative q.
    expect(solveLcpLemke(1, Float64Array.from([0]), Float64Array.from([-1])).status).toBe('rayTermination');
    // PSD but inconsistent: w1 = z1 - z2 - 1, w2 = -z1 + z2 - 1; w1 + w2 = -2 < 0.
    expect(solveLcpLemke(2, Float64Array.from([1, -1, -1, 1]), Float64Array.from([-1, -1])).status).toBe('rayTermination');
  });

  it('stops at the pivot cap with status pivotCap', () => {
    const rng = new SeededRandom(14);
    const n = 8;
    const M = randomSpdMatrix(rng, n);
    const q = Float64Array.from({ length: n }, () => -1 - rng.next());
    const full = solveLcpLemke(n, M, q);
    expect(full.status).toBe('solved');
    expect(full.pivots).toBeGreaterThan(2);
    const capped = solveLcpLemke(n, M, q, { maxPivots: 2 });
    expect(capped.status).toBe('pivotCap');
    expect(capped.pivots).toBe(2);
  });

  it('rejects non-finite input with the entry named', () => {
    expect(() => solveLcpLemke(2, Float64Array.from([1, 0, NaN, 1]), Float64Array.from([0, 0]))).toThrow(/M\[1\]\[0\]/);
    expect(() => solveLcpLemke(1, Float64Array.from([1]), Float64Array.from([Infinity]))).toThrow(/q\[0\]/);
  });
});

describe('mixed reference solver (standard-LCP reformulation + Lemke)', () => {
  it('all-bilateral rows give the linear solve A f = -b (mathjs)', () => {
    const rng = new SeededRandom(21);
    for (let trial = 0; trial < 20; trial++) {
      const n = 1 + rng.int(0, 10);
      const p = randomMixedLcp(rng, n, 'free', { rowScale: 3 });
      for (let i = 0; i < n; i++) p.setBilateral(i);
      const f = new Float64Array(n);
      expect(solveMixedLcpLemke(p, f).status).toBe('solved');
      const A = Array.from({ length: n }, (_, i) => Array.from(p.A.subarray(i * n, i * n + n)));
      const exact = lusolve(A, Array.from(p.b.subarray(0, n), (v) => -v)) as number[][];
      for (let i = 0; i < n; i++) expect(Math.abs(f[i] - exact[i][0])).toBeLessThan(1e-10 * Math.max(1, Math.abs(exact[i][0])));
    }
  });

  it('one-row problems of each kind give their closed-form answer', () => {
    // a = 2 f + b. [bounds, b, expected f]
    const cases: [number, number, number, number][] = [
      [0, Infinity, -4, 2], // pressing contact
      [0, Infinity, 4, 0], // separating contact
      [-1, Infinity, 4, -1], // lower bound -1 active: a = 2 >= 0
      [-Infinity, 1, -4, 1], // upper bound 1 active: a = -2 <= 0
      [0, 1, -4, 1], // box saturated at hi
      [-3, 5, -4, 2], // box interior
      [0.5, 3, 4, 0.5], // box saturated at lo (lo > 0)
      [0.7, 0.7, -4, 0.7], // fixed
    ];
    for (const [lo, hi, b, expected] of cases) {
      const p = new LcpProblem(1).resize(1);
      p.A[0] = 2;
      p.b[0] = b;
      p.setBounds(0, lo, hi);
      const f = new Float64Array(1);
      const res = solveMixedLcpLemke(p, f);
      expect(res.status).toBe('solved');
      expect(f[0]).toBeCloseTo(expected, 14);
      expect(res.residual).toBeLessThan(1e-14);
    }
  });

  it('point mass on an incline: sticks for tan(theta) < mu, slides with a = -g (sin - mu cos) otherwise', () => {
    const g = 9.81;
    const mass = 2.5;
    for (const theta of [0.1, 0.3, 0.45, 0.5, 0.7, 1.0]) {
      for (const mu of [0.2, 0.5, 0.9]) {
        // Rows: normal, tangent up the slope; contact-space matrix 1/m I.
        const p = new LcpProblem(2).resize(2);
        p.A[0] = 1 / mass;
        p.A[3] = 1 / mass;
        p.b[0] = -g * Math.cos(theta);
        p.b[1] = -g * Math.sin(theta);
        p.setUnilateral(0);
        p.setFriction(1, 0, mu);
        const f = new Float64Array(2);
        expect(solveMixedLcpLemke(p, f).status).toBe('solved');
        const a = computeMeasures(p, f, new Float64Array(2));
        expect(f[0]).toBeCloseTo(mass * g * Math.cos(theta), 11);
        if (Math.tan(theta) < mu) {
          expect(f[1]).toBeCloseTo(mass * g * Math.sin(theta), 11);
          expect(a[1]).toBeCloseTo(0, 11);
        } else {
          expect(f[1]).toBeCloseTo(mu * mass * g * Math.cos(theta), 11);
          expect(a[1]).toBeCloseTo(-g * (Math.sin(theta) - mu * Math.cos(theta)), 11);
        }
      }
    }
  });

  it('box friction with two tangents: one saturated, one sticking; asymmetric coefficients honoured', () => {
    // Unit mass on a horizontal plane, pushed along t1 with 3 m/s^2 and along t2 with -1 m/s^2.
    const p = new LcpProblem(3).resize(3);
    p.A[0] = p.A[4] = p.A[8] = 1;
    p.b.set([-9.81, 3, -1]);
    p.setUnilateral(0);
    p.setFriction(1, 0, 0.2);
    p.setFriction(2, 0, 0.2);
    const f = new Float64Array(3);
    expect(solveMixedLcpLemke(p, f).status).toBe('solved');
    expect(f[0]).toBeCloseTo(9.81, 12);
    expect(f[1]).toBeCloseTo(-0.2 * 9.81, 12); // at -mu f_n, the push wins: a_t1 = 3 - 1.962 > 0
    expect(f[2]).toBeCloseTo(1, 12); // inside the box: a_t2 = 0
    // Asymmetric: along t1 the row may only pull with 0.05 f_n in the negative direction.
    p.lo[1] = -0.05;
    p.hi[1] = 0.7;
    expect(solveMixedLcpLemke(p, f).status).toBe('solved');
    expect(f[1]).toBeCloseTo(-0.05 * 9.81, 12);
    p.b[1] = -3; // now the push is in the positive direction, the bound 0.7 f_n = 6.867 is not reached
    expect(solveMixedLcpLemke(p, f).status).toBe('solved');
    expect(f[1]).toBeCloseTo(3, 12);
  });

  it('the reformulated matrix is copositive as claimed: z^T M z >= (Tz)^T A (Tz) >= 0 for z >= 0', () => {
    const rng = new SeededRandom(22);
    for (const mix of ['free', 'bounded', 'friction'] as const) {
      for (let trial = 0; trial < 30; trial++) {
        const n = 2 + rng.int(0, 9);
        const p = randomMixedLcp(rng, n, mix);
        const form = mixedToStandardLcp(p);
        const m = form.m;
        for (let sample = 0; sample < 10; sample++) {
          const z = Float64Array.from({ length: m }, () => (rng.next() < 0.3 ? 0 : rng.uniform(0, 3)));
          let zMz = 0;
          for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) zMz += z[i] * form.M[i * m + j] * z[j];
          const tz = new Float64Array(n);
          for (let i = 0; i < n; i++) for (let k = 0; k < m; k++) tz[i] += form.forceMap[i * m + k] * z[k];
          let quad = 0;
          for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) quad += tz[i] * p.A[i * n + j] * tz[j];
          expect(quad).toBeGreaterThanOrEqual(-1e-12);
          expect(zMz).toBeGreaterThanOrEqual(quad - 1e-9 * (1 + Math.abs(quad)));
        }
      }
    }
  });

  it('solves random mixed problems of every kind to the conditions', () => {
    const rng = new SeededRandom(23);
    for (const mix of ['standard', 'free', 'bounded', 'friction'] as const) {
      for (let trial = 0; trial < 50; trial++) {
        const n = 1 + rng.int(0, 16);
        const p = randomMixedLcp(rng, n, mix, { rowScale: mix === 'friction' ? 1 : 3 });
        const f = new Float64Array(n);
        const res = solveMixedLcpLemke(p, f);
        expect(res.status).toBe('solved');
        const check = checkMixedLcp(p, f, { force: 1e-10, measure: 1e-9 });
        expect(check.ok, `${mix} trial ${trial}: ${check.message}`).toBe(true);
      }
    }
  });
});
