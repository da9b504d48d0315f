/**
 * LCP solver timings: projected Gauss-Seidel per sweep and per row on contact problems of growing
 * size, and the Lemke reference solver on small ones.
 *
 * Problems: contactStackLcp, a stack of boxes each resting on the one below on two contact points
 * (a normal and two friction rows per contact, 6 rows per box), K = J W J' plus a small diagonal.
 */
import { fmt, heapGrowthPerCall, measure, printTable, record, writeResults } from '../../../bench/harness.js';
import { PgsSolver, pgsRowOrder, solveLcpLemke, solveMixedLcpLemke } from '../src/lcp/index.js';
import { SeededRandom, contactStackLcp, randomSpdMatrix } from '../src/lcp/random-problems.js';

const COMMAND = 'pnpm bench packages/constraints/bench/lcp.bench.ts';
const SWEEPS = 20;

// PGS: a fixed number of sweeps (tolerance 0), so the time is per sweep of a known size.
const pgsRows: Record<string, string | number>[] = [];
for (const n of [6, 12, 24, 48, 96]) {
  const p = contactStackLcp(new SeededRandom(n), n / 6);
  const order = pgsRowOrder(p, new Int32Array(n));
  const solver = new PgsSolver(n, { maxIterations: SWEEPS, tolerance: 0, order });
  const f = new Float64Array(n);
  const solve = (): void => {
    f.fill(0);
    solver.solve(p, f);
  };
  const t = measure(`pgs n=${n} ${SWEEPS} sweeps`, solve);
  const perSweepRow = t.medianUs / (SWEEPS * n);
  // Sweeps to a residual of 1e-6 m/s^2 from a cold start (how many a step would need).
  const converge = new PgsSolver(n, { maxIterations: 100000, tolerance: 1e-6, order });
  f.fill(0);
  const sweepsTo1e6 = converge.solve(p, f).iterations;
  const heap = heapGrowthPerCall(solve, 20000);
  record({ name: `pgs n=${n} per sweep per row`, medianUs: perSweepRow, minUs: t.minUs / (SWEEPS * n), maxUs: t.maxUs / (SWEEPS * n), calls: t.calls });
  pgsRows.push({
    n,
    [`${SWEEPS} sweeps, median`]: fmt(t.medianUs),
    [`${SWEEPS} sweeps, min`]: fmt(t.minUs),
    'per sweep per row, median': `${(perSweepRow * 1000).toFixed(1)} ns`,
    'per sweep per row, min': `${((t.minUs / (SWEEPS * n)) * 1000).toFixed(1)} ns`,
    'sweeps to 1e-6': sweepsTo1e6,
    'heap growth / solve': `${heap.toFixed(2)} B`,
  });
}
printTable(`PGS on box stacks, median of 31 samples (${COMMAND})`, pgsRows);

// Lemke: the mixed reference solver on the same kind of problem, and the standard LCP alone.
const lemkeRows: Record<string, string | number>[] = [];
for (const n of [6, 12, 18, 24]) {
  const p = contactStackLcp(new SeededRandom(n), n / 6);
  const f = new Float64Array(n);
  let info = solveMixedLcpLemke(p, f);
  const t = measure(`lemke mixed n=${n}`, () => {
    info = solveMixedLcpLemke(p, f);
  });

  const rng = new SeededRandom(100 + n);
  const M = randomSpdMatrix(rng, n, 0.2, 5, 3);
  const q = Float64Array.from({ length: n }, () => rng.gaussian());
  let pivots = solveLcpLemke(n, M, q).pivots;
  const ts = measure(`lemke standard n=${n}`, () => {
    pivots = solveLcpLemke(n, M, q).pivots;
  });
  lemkeRows.push({
    n,
    'mixed: standard size': info.standardSize,
    'mixed: pivots': info.pivots,
    'mixed: status': info.status,
    'mixed: time (median)': fmt(t.medianUs),
    'mixed: time (min)': fmt(t.minUs),
    'standard PD: pivots': pivots,
    'standard PD: time (median)': fmt(ts.medianUs),
    'standard PD: time (min)': fmt(ts.minUs),
  });
}
printTable(`Lemke (reference solver), median of 31 samples (${COMMAND})`, lemkeRows);

console.log(`\nwrote ${writeResults('lcp')}`);
