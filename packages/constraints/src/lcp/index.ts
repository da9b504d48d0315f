/**
 * LCP solvers of the constraint step: the mixed problem (problem.ts), projected Gauss-Seidel
 * (pgs.ts) with its row order (row-order.ts), Lemke's method (lemke.ts) and the reference solver of
 * the mixed problem built on it (mixed-to-standard.ts, mixed-lemke.ts), the residual (residual.ts)
 * and a direct check of a solution (check.ts).
 */
export { LcpProblem, RowKind, rowKind, validateMixedLcp, type MixedLcp } from './problem.js';
export {
  DEFAULT_DIAGONAL_EPSILON,
  clampToBounds,
  computeMeasures,
  lowerBound,
  maxDiagonal,
  naturalMapResidual,
  naturalMapResidualInto,
  residualScale,
  rowResidual,
  upperBound,
} from './residual.js';
export { DEFAULT_PGS_OPTIONS, PgsResult, PgsSolver, type PgsOptions } from './pgs.js';
export {
  gatherByPermutation,
  invertPermutation,
  permuteMixedLcp,
  pgsRowOrder,
  pgsRowPriority,
  scatterByPermutation,
} from './row-order.js';
export { solveLcpLemke, type LemkeOptions, type LemkeResult, type LemkeStatus } from './lemke.js';
export { forcesFromStandardSolution, mixedToStandardLcp, type StandardLcpForm } from './mixed-to-standard.js';
export { solveMixedLcpLemke, type MixedLemkeResult } from './mixed-lemke.js';
export { checkMixedLcp, type MixedLcpCheck, type MixedLcpTolerances } from './check.js';
export { PrincipalPivoting } from './principal-pivoting.js';
export { PivotingGaussSeidel } from './pivoting-gauss-seidel.js';
