/**
 * PGS on singular and contradictory systems (Kokkevis section 4: the reason to use an iterative
 * solver): redundant rows, a rank-deficient PSD matrix, and two bilateral rows asking one measure
 * for two values.
 *
 * The matrices are built as K = J W J' for one rigid body (velocity [v; w], unit-free here):
 * a row with direction d at point r has J row [d, r x d], W is the inverse mass matrix.
 */
import { lusolve } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { LcpProblem, PgsSolver, checkMixedLcp, computeMeasures, solveMixedLcpLemke, type MixedLcp } from '../src/lcp/index.js';
import { SeededRandom, randomPsdMatrix } from '../src/lcp/random-problems.js';

type Vec3 = [number, number, number];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** A body of mass 2 and inertia diag(0.3, 0.5, 0.4); rows (d, r); free acceleration: gravity. */
function bodyProblem(rows: { d: Vec3; r: Vec3; bOffset?: number }[]): LcpProblem {
  const Winv = [1 / 2, 1 / 2, 1 / 2, 1 / 0.3, 1 / 0.5, 1 / 0.4];
  const accFree = [0, -9.81, 0, 0.5, 0, -0.2]; // gravity plus some gyroscopic-like angular term
  const J = rows.map(({ d, r }) => [...d, ...cross(r, d)]);
  const n = rows.length;
  const p = new LcpProblem(n).resize(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < 6; k++) s += J[i][k] * Winv[k] * J[j][k];
      p.A[i * n + j] = s;
    }
    let b = rows[i].bOffset ?? 0;
    for (let k = 0; k < 6; k++) b += J[i][k] * accFree[k];
    p.b[i] = b;
  }
  return p;
}

/** Measures of the rows in `rows` only, recomputed here. */
function measuresOf(p: MixedLcp, f: Float64Array): number[] {
  return Array.from(computeMeasures(p, f, new Float64Array(p.n)));
}

function solveDense(p: MixedLcp, rows: number[]): number[] {
  const A = rows.map((i) => rows.map((j) => p.A[i * p.n + j]));
  return (lusolve(A, rows.map((i) => -p.b[i])) as number[][]).map((r) => r[0]);
}

describe('PGS on redundant rows', () => {
  it('a pin given twice (6 rows, rank 3): converges, each pair carries the single pin force', () => {
    const pin: Vec3 = [0.1, 0.4, -0.2];
    const axes: Vec3[] = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const single = bodyProblem(axes.map((d) => ({ d, r: pin })));
    const doubled = bodyProblem([...axes, ...axes].map((d) => ({ d, r: pin })));
    const exact = solveDense(single, [0, 1, 2]);
    const f = new Float64Array(6);
    const r = new PgsSolver(6).solve(doubled, f, { maxIterations: 10000, tolerance: 1e-10 });
    expect(r.converged).toBe(true);
    for (let k = 0; k < 3; k++) {
      expect(Number.isFinite(f[k]) && Number.isFinite(f[k + 3])).toBe(true);
      expect(f[k] + f[k + 3]).toBeCloseTo(exact[k], 8);
      // Gauss-Seidel from zero never pushes a pair apart: no force beyond the pin force itself.
      expect(Math.abs(f[k]) + Math.abs(f[k + 3])).toBeLessThanOrEqual(Math.abs(exact[k]) * (1 + 1e-9) + 1e-9);
    }
  });

  it('two identical contact normals share the load of one; the measures are those of one contact', () => {
    // A body resting on two corners, the second corner reported twice by collision detection.
    const up: Vec3 = [0, 1, 0];
    const corners: Vec3[] = [
      [-0.3, -0.2, 0.1],
      [0.3, -0.2, -0.1],
    ];
    const single = bodyProblem(corners.map((r) => ({ d: up, r })));
    const doubled = bodyProblem([...corners, corners[1]].map((r) => ({ d: up, r })));
    for (let i = 0; i < 2; i++) single.setUnilateral(i);
    for (let i = 0; i < 3; i++) doubled.setUnilateral(i);
    const fSingle = new Float64Array(2);
    expect(solveMixedLcpLemke(single, fSingle).status).toBe('solved');
    const f = new Float64Array(3);
    const r = new PgsSolver(3).solve(doubled, f, { maxIterations: 10000, tolerance: 1e-10 });
    expect(r.converged).toBe(true);
    expect(checkMixedLcp(doubled, f, { force: 1e-9, measure: 1e-9 }).ok).toBe(true);
    expect(f[0]).toBeCloseTo(fSingle[0], 8);
    expect(f[1] + f[2]).toBeCloseTo(fSingle[1], 8);
    const aSingle = measuresOf(single, fSingle);
    const a = measuresOf(doubled, f);
    expect(a[0]).toBeCloseTo(aSingle[0], 8);
    expect(a[1]).toBeCloseTo(aSingle[1], 8);
    expect(a[2]).toBeCloseTo(aSingle[1], 8);
  });
});

describe('PGS on a rank-deficient PSD matrix', () => {
  it('converges to a solution whose measures are the unique measures of the problem (constructed)', () => {
    // For a convex QP (PSD A, constant bounds) every solution has the same A f, so the measures
    // are unique even though the forces are not. Build problems with a known solution (f*, a*)
    // and b = a* - A f*, then compare the measures with a*.
    const rng = new SeededRandom(51);
    for (let trial = 0; trial < 30; trial++) {
      const n = 4 + rng.int(0, 9);
      const rank = 1 + rng.int(0, n - 1);
      const p = new LcpProblem(n).resize(n);
      p.A.set(randomPsdMatrix(rng, n, rank));
      const fStar = new Float64Array(n);
      const aStar = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const u = rng.next();
        if (u < 0.3) {
          p.setBilateral(i);
          fStar[i] = rng.gaussian();
        } else if (u < 0.7) {
          p.setUnilateral(i);
          if (rng.next() < 0.5) fStar[i] = rng.uniform(0, 2);
          else aStar[i] = rng.uniform(0, 2);
        } else {
          p.setBounds(i, -1, 1);
          const v = rng.next();
          if (v < 0.3) fStar[i] = rng.uniform(-1, 1);
          else if (v < 0.65) {
            fStar[i] = -1;
            aStar[i] = rng.uniform(0, 2);
          } else {
            fStar[i] = 1;
            aStar[i] = -rng.uniform(0, 2);
          }
        }
      }
      for (let i = 0; i < n; i++) {
        let s = aStar[i];
        for (let j = 0; j < n; j++) s -= p.A[i * n + j] * fStar[j];
        p.b[i] = s;
      }
      expect(checkMixedLcp(p, fStar, { force: 1e-12, measure: 1e-12 }).ok).toBe(true);

      const f = new Float64Array(n);
      const r = new PgsSolver(n).solve(p, f, { maxIterations: 200000, tolerance: 1e-10 });
      expect(r.converged, `trial ${trial}: residual ${r.residual}`).toBe(true);
      for (let i = 0; i < n; i++) expect(Number.isFinite(f[i])).toBe(true);
      const check = checkMixedLcp(p, f, { force: 1e-8, measure: 1e-8 });
      expect(check.ok, `trial ${trial}: ${check.message}`).toBe(true);
      const a = measuresOf(p, f);
      for (let i = 0; i < n; i++) expect(Math.abs(a[i] - aStar[i]), `trial ${trial} row ${i}`).toBeLessThan(1e-6);

      // Lemke on the same singular problem (M is PSD, hence copositive-plus): same measures.
      const fLemke = new Float64Array(n);
      expect(solveMixedLcpLemke(p, fLemke).status).toBe('solved');
      const aLemke = measuresOf(p, fLemke);
      for (let i = 0; i < n; i++) expect(Math.abs(aLemke[i] - aStar[i])).toBeLessThan(1e-8);
    }
  });
});

describe('PGS on contradictory bilateral rows', () => {
  // Rows 0 and 1: the same direction at the same point, asking for measures differing by 2
  // (a_1 - a_0 = b_1 - b_0 = 2 whatever the forces). Rows 2, 3: the other two pin directions.
  // Row 4: a contact normal at another point. Since rows 0 and 1 have the same J, K(e0 - e1) = 0:
  // the conflict lives in a direction of force that moves nothing.
  const pin: Vec3 = [0.2, 0.1, 0];
  function conflict(): LcpProblem {
    const p = bodyProblem([
      { d: [1, 0, 0], r: pin, bOffset: -1 },
      { d: [1, 0, 0], r: pin, bOffset: 1 },
      { d: [0, 1, 0], r: pin },
      { d: [0, 0, 1], r: pin },
      { d: [0, 1, 0], r: [-0.4, -0.3, 0.2] },
    ]);
    p.setUnilateral(4);
    return p;
  }
  const conflictSize = 2; // b_1 - b_0

  it('plain PGS: finite forces growing at the analytic rate, the rest solved, residual honest', () => {
    const p = conflict();
    const d = p.A[0];
    const solver = new PgsSolver(5);
    const spread: number[] = [];
    for (const sweeps of [100, 200]) {
      const f = new Float64Array(5);
      const r = solver.solve(p, f, { maxIterations: sweeps, tolerance: 1e-10 });
      expect(r.iterations).toBe(sweeps);
      expect(r.converged).toBe(false);
      for (let i = 0; i < 5; i++) expect(Number.isFinite(f[i])).toBe(true);
      const a = measuresOf(p, f);
      // Honest: no force can bring both a_0 and a_1 under |b_1 - b_0| / 2, and for bilateral rows
      // the residual is |a_i| itself.
      expect(a[1] - a[0]).toBeCloseTo(conflictSize, 9);
      expect(r.residual).toBeGreaterThanOrEqual(conflictSize / 2);
      expect(r.residual).toBeCloseTo(Math.max(Math.abs(a[0]), Math.abs(a[1])), 9);
      // The consistent part: rows 2, 3 (bilateral) and 4 (contact) meet their conditions.
      expect(Math.abs(a[2])).toBeLessThan(1e-9);
      expect(Math.abs(a[3])).toBeLessThan(1e-9);
      expect(f[4]).toBeGreaterThanOrEqual(0);
      expect(Math.min(Math.abs(f[4]), Math.abs(a[4]))).toBeLessThan(1e-9);
      expect(a[4]).toBeGreaterThan(-1e-9);
      spread.push(f[0] - f[1]);
    }
    // Each sweep moves f_0 - f_1 by 2 (b_1 - b_0) / K_00: linear growth, bounded by the sweep count.
    expect((spread[1] - spread[0]) / 100).toBeCloseTo((2 * conflictSize) / d, 9);
  });

  it('with regularisation gamma: bounded forces (energy bound), the regularised solution, least-squares compromise', () => {
    const p = conflict();
    const n = 5;
    const gamma = 1e-3;
    // The regularised problem: A + gamma diag(A), solved independently by Lemke.
    const reg = new LcpProblem(n).copyFrom(p);
    for (let i = 0; i < n; i++) reg.A[i * n + i] *= 1 + gamma;
    const fReg = new Float64Array(n);
    expect(solveMixedLcpLemke(reg, fReg).status).toBe('solved');

    let bNorm = 0;
    let minDiag = Infinity;
    for (let i = 0; i < n; i++) {
      bNorm += p.b[i] ** 2;
      minDiag = Math.min(minDiag, p.A[i * n + i]);
    }
    const bound = (2 * Math.sqrt(bNorm)) / (gamma * minDiag);
    const solver = new PgsSolver(n, { regularisation: gamma, tolerance: 1e-10 });
    let f = new Float64Array(n);
    for (const sweeps of [1, 10, 100, 1000, 60000]) {
      f = new Float64Array(n);
      const r = solver.solve(p, f, { maxIterations: sweeps });
      expect(r.converged).toBe(false); // the conflict is still reported
      let norm = 0;
      for (let i = 0; i < n; i++) norm += f[i] ** 2;
      expect(Math.sqrt(norm)).toBeLessThanOrEqual(bound);
    }
    for (let i = 0; i < n; i++) expect(Math.abs(f[i] - fReg[i])).toBeLessThan(1e-6 * Math.max(1, Math.abs(fReg[i])));
    // The measures of the conflicting rows settle at the least-squares compromise -1, +1 up to
    // O(gamma): at the fixed point a_i = -gamma K_ii f_i on bilateral rows, so with K_00 = K_11 = d,
    // a_0 + a_1 = -gamma d (f_0 + f_1), where f_0 + f_1 is the (finite) force the pin needs.
    const a = measuresOf(p, f);
    const d = p.A[0];
    expect(a[0] + a[1]).toBeCloseTo(-gamma * d * (f[0] + f[1]), 9);
    expect(Math.abs(a[0] + 1)).toBeLessThan(gamma * d * Math.abs(f[0] + f[1]) + 1e-9);
    expect(Math.abs(a[1] - 1)).toBeLessThan(gamma * d * Math.abs(f[0] + f[1]) + 1e-9);
    const aReg = measuresOf(p, fReg);
    for (let i = 0; i < n; i++) expect(Math.abs(a[i] - aReg[i])).toBeLessThan(1e-6);
  });
});
