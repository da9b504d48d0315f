/**
 * Seeded generators of mixed LCPs, shared by the tests and the benchmark: a small deterministic
 * PRNG (mulberry32), symmetric positive (semi)definite matrices with a chosen spectrum, random mixed
 * problems of each row kind, and the contact matrix of a stack of boxes.
 */
import { LcpProblem } from './problem.js';
import { detMath } from '@sinew/featherstone';

/** Deterministic PRNG (mulberry32): the same seed gives the same sequence on every platform. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Uniform integer in [lo, hi). */
  int(lo: number, hi: number): number {
    return lo + Math.floor((hi - lo) * this.next());
  }

  /** Standard normal (Box-Muller). */
  gaussian(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * detMath.log(u)) * detMath.cos(2 * Math.PI * v);
  }
}

/** A random orthogonal n x n matrix (row-major): Gram-Schmidt on Gaussian vectors. */
export function randomOrthogonal(rng: SeededRandom, n: number): Float64Array {
  const Q = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (;;) {
      for (let k = 0; k < n; k++) Q[i * n + k] = rng.gaussian();
      // Two passes of modified Gram-Schmidt against the rows before.
      for (let pass = 0; pass < 2; pass++) {
        for (let j = 0; j < i; j++) {
          let dot = 0;
          for (let k = 0; k < n; k++) dot += Q[i * n + k] * Q[j * n + k];
          for (let k = 0; k < n; k++) Q[i * n + k] -= dot * Q[j * n + k];
        }
      }
      let norm = 0;
      for (let k = 0; k < n; k++) norm += Q[i * n + k] * Q[i * n + k];
      norm = Math.sqrt(norm);
      if (norm > 1e-8) {
        for (let k = 0; k < n; k++) Q[i * n + k] /= norm;
        break;
      }
    }
  }
  return Q;
}

/**
 * A symmetric positive definite n x n matrix D Q' diag(lambda) Q D with eigenvalues of the middle
 * factor log-uniform in [minEigenvalue, maxEigenvalue] and a diagonal scaling D with entries
 * log-uniform in [1/rowScale, rowScale] (rows in different units). Exactly symmetric.
 */
export function randomSpdMatrix(
  rng: SeededRandom,
  n: number,
  minEigenvalue = 0.2,
  maxEigenvalue = 5,
  rowScale = 1,
): Float64Array {
  const Q = randomOrthogonal(rng, n);
  const lambda = new Float64Array(n);
  for (let k = 0; k < n; k++) lambda[k] = minEigenvalue * detMath.exp(rng.next() * detMath.log(maxEigenvalue / minEigenvalue));
  const D = new Float64Array(n);
  for (let i = 0; i < n; i++) D[i] = detMath.exp(rng.uniform(-1, 1) * detMath.log(rowScale));
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += Q[k * n + i] * lambda[k] * Q[k * n + j];
      s *= D[i] * D[j];
      A[i * n + j] = s;
      A[j * n + i] = s;
    }
  }
  return A;
}

/** G G' with G n x rank Gaussian: symmetric positive semidefinite of rank min(n, rank). */
export function randomPsdMatrix(rng: SeededRandom, n: number, rank: number): Float64Array {
  const G = new Float64Array(n * rank);
  for (let k = 0; k < n * rank; k++) G[k] = rng.gaussian();
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let s = 0;
      for (let k = 0; k < rank; k++) s += G[i * rank + k] * G[j * rank + k];
      A[i * n + j] = s;
      A[j * n + i] = s;
    }
  }
  return A;
}

/**
 * Row mixes of randomMixedLcp:
 * - 'standard': every row unilateral (lo = 0, hi = +Inf);
 * - 'free': bilateral and unilateral rows;
 * - 'bounded': bilateral, lower-only (lo may be nonzero), upper-only, box and fixed rows;
 * - 'friction': contacts (a unilateral normal and one or two friction rows, mu in [0.1, 1],
 *   one friction row in five with asymmetric coefficients) mixed with bilateral and box rows.
 */
export type RandomLcpMix = 'standard' | 'free' | 'bounded' | 'friction';

/**
 * A random mixed LCP of n rows with a positive definite matrix (randomSpdMatrix with the given
 * spectrum and row scaling) and the given mix of row kinds.
 */
export function randomMixedLcp(
  rng: SeededRandom,
  n: number,
  mix: RandomLcpMix,
  spectrum: { minEigenvalue?: number; maxEigenvalue?: number; rowScale?: number } = {},
): LcpProblem {
  const p = new LcpProblem(n).resize(n);
  p.A.set(randomSpdMatrix(rng, n, spectrum.minEigenvalue ?? 0.2, spectrum.maxEigenvalue ?? 5, spectrum.rowScale ?? 1));
  for (let i = 0; i < n; i++) p.b[i] = rng.gaussian();
  let i = 0;
  while (i < n) {
    const u = rng.next();
    if (mix === 'standard') {
      p.setUnilateral(i++);
    } else if (mix === 'free') {
      if (u < 0.4) p.setBilateral(i++);
      else p.setUnilateral(i++);
    } else if (mix === 'bounded') {
      if (u < 0.2) p.setBilateral(i++);
      else if (u < 0.4) p.setBounds(i++, rng.uniform(-1, 0.5), Infinity);
      else if (u < 0.5) p.setBounds(i++, -Infinity, rng.uniform(-0.5, 1));
      else if (u < 0.9) {
        const lo = rng.uniform(-1.5, 0.3);
        p.setBounds(i++, lo, lo + rng.uniform(0.05, 2));
      } else {
        const v = rng.uniform(-1, 1);
        p.setBounds(i++, v, v);
      }
    } else {
      if (u < 0.15) p.setBilateral(i++);
      else if (u < 0.25) {
        const lo = rng.uniform(-1.5, 0.3);
        p.setBounds(i++, lo, lo + rng.uniform(0.05, 2));
      } else {
        const normal = i++;
        p.setUnilateral(normal);
        // Normals pressed into the ground more often than not.
        p.b[normal] -= 0.5;
        const tangents = Math.min(n - i, rng.next() < 0.5 ? 1 : 2);
        for (let t = 0; t < tangents; t++) {
          const mu = rng.uniform(0.1, 1);
          if (rng.next() < 0.2) {
            p.setFriction(i, normal, mu);
            p.lo[i] = -rng.uniform(0, 1);
            i++;
          } else {
            p.setFriction(i++, normal, mu);
          }
        }
      }
    }
  }
  return p;
}

/**
 * The contact problem of a stack of nBodies boxes on the ground, each resting on the one below on
 * two contact points: 6 rows per box (per contact a unilateral normal and two friction rows with
 * coefficient mu), K = J W J' + cfm * mean(diag) * I, and b the contact accelerations under gravity
 * plus random tangential terms. J W J' alone is singular (two points leave a rotation free), hence
 * the small diagonal term, as in a simulation with constraint force mixing.
 */
export function contactStackLcp(rng: SeededRandom, nBodies: number, mu = 0.6, cfm = 1e-3): LcpProblem {
  const n = 6 * nBodies;
  const p = new LcpProblem(n).resize(n);
  const dof = 6 * nBodies;
  // J: n x dof; body velocity [linear v; angular w]; row = d . (v + w x r) = [d, r x d] . [v; w].
  const J = new Float64Array(n * dof);
  const W = new Float64Array(dof); // diagonal inverse mass, world-aligned principal axes
  for (let k = 0; k < nBodies; k++) {
    const m = rng.uniform(1, 3);
    for (let c = 0; c < 3; c++) W[6 * k + c] = 1 / m;
    for (let c = 3; c < 6; c++) W[6 * k + c] = 1 / (m * rng.uniform(0.05, 0.2));
  }
  const setBodyRow = (row: number, body: number, sign: number, d: number[], r: number[]): void => {
    const o = row * dof + 6 * body;
    J[o] += sign * d[0];
    J[o + 1] += sign * d[1];
    J[o + 2] += sign * d[2];
    J[o + 3] += sign * (r[1] * d[2] - r[2] * d[1]);
    J[o + 4] += sign * (r[2] * d[0] - r[0] * d[2]);
    J[o + 5] += sign * (r[0] * d[1] - r[1] * d[0]);
  };
  for (let k = 0; k < nBodies; k++) {
    for (let c = 0; c < 2; c++) {
      const row = 6 * k + 3 * c;
      const x = (c === 0 ? -0.3 : 0.3) + rng.uniform(-0.05, 0.05);
      const z = rng.uniform(-0.2, 0.2);
      const rUpper = [x, -0.25, z]; // contact point from the centre of box k
      const rLower = [x, 0.25, z]; // same point from the centre of box k - 1
      const dirs = [
        [0, 1, 0],
        [1, 0, 0],
        [0, 0, 1],
      ];
      for (let t = 0; t < 3; t++) {
        setBodyRow(row + t, k, 1, dirs[t], rUpper);
        if (k > 0) setBodyRow(row + t, k - 1, -1, dirs[t], rLower);
      }
      p.setUnilateral(row);
      p.setFriction(row + 1, row, mu);
      p.setFriction(row + 2, row, mu);
      // Gravity accelerates every box alike, so only the bottom contacts see it.
      p.b[row] = k === 0 ? -9.81 : 0;
      p.b[row + 1] = rng.gaussian();
      p.b[row + 2] = rng.gaussian();
    }
  }
  let meanDiag = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let s = 0;
      for (let k = 0; k < dof; k++) s += J[i * dof + k] * W[k] * J[j * dof + k];
      p.A[i * n + j] = s;
      p.A[j * n + i] = s;
    }
    meanDiag += p.A[i * n + i] / n;
  }
  for (let i = 0; i < n; i++) p.A[i * n + i] += cfm * meanDiag;
  return p;
}
