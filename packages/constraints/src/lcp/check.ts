/**
 * Direct check of the mixed-LCP conditions (problem.ts) for given forces, with explicit
 * tolerances. It recomputes the measures itself and tests each condition as stated, sharing no
 * code with the solvers or with residual.ts, so it can judge them: tests use it on every answer, and
 * a caller can use it to assert a solve in debug builds.
 */
import type { MixedLcp } from './problem.js';

/** Tolerances of `checkMixedLcp` on forces and on measures. */
export interface MixedLcpTolerances {
  /** Absolute tolerance on forces: how far outside a bound, and how close to it counts as at it. */
  force: number;
  /** Absolute tolerance on measures (a = A f + b). */
  measure: number;
}

/** What `checkMixedLcp` found: whether the solution passes, the worst row and its message, the largest bound and measure violations. */
export interface MixedLcpCheck {
  /** Every condition holds within the tolerances. */
  ok: boolean;
  /** First row that fails, or -1. */
  row: number;
  /** What failed (empty when ok). */
  message: string;
  /** Largest distance of a force outside its bounds. */
  maxBoundViolation: number;
  /** Largest violation of a measure condition (wrong sign at a bound, nonzero inside). */
  maxMeasureViolation: number;
}

/** Checks f against the conditions of the mixed LCP p. */
export function checkMixedLcp(p: MixedLcp, f: ArrayLike<number>, tol: MixedLcpTolerances): MixedLcpCheck {
  const n = p.n;
  const out: MixedLcpCheck = { ok: true, row: -1, message: '', maxBoundViolation: 0, maxMeasureViolation: 0 };
  const fail = (row: number, message: string): void => {
    if (out.ok) {
      out.ok = false;
      out.row = row;
      out.message = message;
    }
  };
  for (let i = 0; i < n; i++) {
    let a = p.b[i];
    for (let j = 0; j < n; j++) a += p.A[i * n + j] * f[j];
    const fi = f[i];
    if (!Number.isFinite(fi) || !Number.isFinite(a)) {
      fail(i, `row ${i}: force ${fi} or measure ${a} is not finite`);
      out.maxBoundViolation = Infinity;
      continue;
    }
    const r = p.boundRow[i];
    let lower = p.lo[i];
    let upper = p.hi[i];
    if (r >= 0) {
      lower *= f[r];
      upper *= f[r];
    }
    const boundViolation = Math.max(lower - fi, fi - upper, 0);
    out.maxBoundViolation = Math.max(out.maxBoundViolation, boundViolation);
    if (boundViolation > tol.force) fail(i, `row ${i}: force ${fi} outside [${lower}, ${upper}]`);

    const atLower = fi <= lower + tol.force;
    const atUpper = fi >= upper - tol.force;
    let measureViolation = 0;
    let rule = '';
    if (atLower && atUpper) {
      // Box of (near) zero width: the measure is free.
    } else if (atLower) {
      measureViolation = Math.max(0, -a);
      rule = 'at its lower bound needs measure >= 0';
    } else if (atUpper) {
      measureViolation = Math.max(0, a);
      rule = 'at its upper bound needs measure <= 0';
    } else {
      measureViolation = Math.abs(a);
      rule = 'inside its bounds needs measure = 0';
    }
    out.maxMeasureViolation = Math.max(out.maxMeasureViolation, measureViolation);
    if (measureViolation > tol.measure) fail(i, `row ${i}: force ${fi} ${rule}, measure is ${a}`);
  }
  return out;
}
