/**
 * Reference solver of the mixed LCP: the exact standard-LCP reformulation of mixed-to-standard.ts
 * solved by Lemke's method (lemke.ts). For small problems (tests, checking PGS); it allocates.
 */
import { solveLcpLemke, type LemkeOptions, type LemkeStatus } from './lemke.js';
import { forcesFromStandardSolution, mixedToStandardLcp } from './mixed-to-standard.js';
import type { MixedLcp } from './problem.js';
import { computeMeasures, naturalMapResidual } from './residual.js';

/** The mixed LCP solved by Lemke's method: status, pivots, size of the standard form and residual. */
export interface MixedLemkeResult {
  status: LemkeStatus;
  pivots: number;
  /** Size of the standard LCP that was solved. */
  standardSize: number;
  /** Natural-map residual of the returned forces (residual.ts), measure units. */
  residual: number;
}

/**
 * Solves the mixed LCP p; writes the forces into f (first n entries). When the status is not
 * 'solved', f holds the forces of Lemke's last basis, which do not solve the problem.
 */
export function solveMixedLcpLemke(p: MixedLcp, f: Float64Array, options: LemkeOptions = {}): MixedLemkeResult {
  const form = mixedToStandardLcp(p);
  if (f.length < p.n) throw new Error(`solveMixedLcpLemke: f has ${f.length} entries, expected at least n = ${p.n}`);
  const lemke = solveLcpLemke(form.m, form.M, form.q, options);
  forcesFromStandardSolution(form, p.n, lemke.z, f);
  const a = computeMeasures(p, f, new Float64Array(p.n));
  return {
    status: lemke.status,
    pivots: lemke.pivots,
    standardSize: form.m,
    residual: naturalMapResidual(p, f, a),
  };
}
