/**
 * Block Gauss-Seidel on a dense mixed LCP with two blocks: the frictionless rows (bilateral or
 * unilateral: pins, limits, contact normals) solved exactly by principal pivoting with the other
 * forces held (principal-pivoting.ts), then one projected Gauss-Seidel sweep over the remaining
 * rows (friction boxes lo f_r <= f <= hi f_r, bounded motors) with the block's forces held, until
 * the natural-map residual of the whole problem is within the tolerance (the block iteration of
 * Cottle, Pang and Stone, "The Linear Complementarity Problem", 1992, section 5.1, with an exact
 * inner solve). Where plain PGS spreads a stiff coupling (a light hand between a pin and a heavy
 * load) over hundreds of sweeps, the block takes it whole; what is left to sweep is friction,
 * which PGS handles at the rate of its own coupling.
 */
import { PgsResult, type PgsOptions } from './pgs.js';
import { PrincipalPivoting } from './principal-pivoting.js';
import { computeMeasures, naturalMapResidualInto } from './residual.js';

import type { LcpProblem } from './problem.js';

/** The block solve of a dense mixed LCP, its buffers kept from solve to solve (see the file's comment). */
export class PivotingGaussSeidel {
  private readonly pivoting = new PrincipalPivoting();
  private exact = new Int32Array(16);
  private swept = new Int32Array(16);
  readonly result = new PgsResult();
  /** a = A f + b at the forces of a round, and the residual there (in arrays: a number returned by a call that is not inlined is boxed on the heap). */
  private measures = new Float64Array(16);
  private readonly residualOut = new Float64Array(1);

  /**
   * Solves p from the forces in f (warm start), writing the forces into f. Returns false when
   * the exact block fails (a singular K_AA or a pivoting cap): the caller's other solver then
   * answers from the forces f held before the call. Otherwise the result (iterations: rounds,
   * residual: the natural-map residual of residual.ts, as PGS reports it) says whether options.tolerance (default 1e-9) was met
   * within options.maxIterations rounds (default 100).
   */
  solve(p: LcpProblem, f: Float64Array, options: PgsOptions): boolean {
    const tolerance = options.tolerance ?? 1e-9, maxRounds = options.maxIterations ?? 100;
    const { n: m, A, b, lo, hi, boundRow } = p;
    if (this.exact.length < m) { this.exact = new Int32Array(2 * m); this.swept = new Int32Array(2 * m); this.measures = new Float64Array(2 * m); }
    const exact = this.exact, swept = this.swept;
    let ne = 0, nsw = 0, scale = 0;
    for (let c = 0; c < m; c++) {
      const l = lo[c];
      if (boundRow[c] < 0 && hi[c] === Infinity && (l === -Infinity || l === 0)) exact[ne++] = c;
      else swept[nsw++] = c;
      const ab = b[c] < 0 ? -b[c] : b[c];
      if (ab > scale) scale = ab;
    }
    // complementarity within the exact block is judged to rounding of the measures
    this.pivoting.eps[0] = 1e-10 * scale;
    this.pivoting.begin(m, b, lo, f);
    const r = this.result;
    let residual = Infinity, round = 0;
    while (round < maxRounds) {
      if (!this.pivoting.solve(A, m, b, lo, f, exact, ne)) return false;
      round++;
      for (let k = 0; k < nsw; k++) {
        const c = swept[k], o = c * m, d = A[o + c];
        if (!(d > 0)) continue;
        let w = b[c];
        for (let q = 0; q < m; q++) w += A[o + q] * f[q];
        const br = boundRow[c];
        const L = br < 0 ? lo[c] : lo[c] * f[br], U = br < 0 ? hi[c] : hi[c] * f[br];
        let x = f[c] - w / d;
        if (x < L) x = L; else if (x > U) x = U;
        f[c] = x;
      }
      naturalMapResidualInto(p, f, computeMeasures(p, f, this.measures), this.residualOut);
      residual = this.residualOut[0];
      if (residual <= tolerance || nsw === 0) break;
    }
    r.iterations = round; r.residual = residual; r.converged = residual <= tolerance; r.worstRow = -1;
    return true;
  }
}
