/**
 * Exact solve of the frictionless part of a dense mixed LCP (rows that are bilateral, lo = -inf,
 * or unilateral, lo = 0 and hi = +inf: pins, joint limits, contact normals) with the forces of the
 * other rows held, by principal pivoting with Murty's least-index rule (K. G. Murty, "Note on a
 * Bard-type scheme for solving the complementarity problem", Opsearch 11, 1974; Cottle, Pang and
 * Stone, "The Linear Complementarity Problem", 1992, section 4.2), which ends in finitely many
 * changes when K is positive definite: the bilateral rows and an active set of unilateral rows are
 * solved as equalities by Cholesky (K_AA f_A = -(b + K f_held)_A, the inactive rows' forces 0), and
 * the first unilateral row that breaks complementarity (an active row pulling, f < 0, or an
 * inactive row approaching, w = b + K f < 0) changes sides, until none does.
 *
 * Where PGS converges at the rate the spread of K's entries allows (30 sweeps left residuals of 4 to
 * 60 on a 3 x 1 kg chain holding 1000 kg at its hinge stop, and 96 on a 0.5 kg hand holding 50 kg),
 * this leaves rounding. The factor of K_AA is kept while the active set and K stay the same, so
 * repeated solves with other held forces (pivotingGaussSeidel) cost a triangular solve.
 */
import { choleskyFactor, choleskySolve } from '@sinew/featherstone';

/** Principal pivoting on a subset of a dense problem's rows, its buffers kept from solve to solve (see the file's comment). */
export class PrincipalPivoting {
  /** Per problem row: 1 when the row is in the active set (solved as an equality). */
  private act = new Uint8Array(16);
  /** Per problem row: 1 when the row belongs to the subset being solved. */
  private inSet = new Uint8Array(16);
  /** Active rows (problem indices) of the current change, and of the factor held in L. */
  private idx = new Int32Array(16);
  private factored = new Int32Array(16);
  private nFactored = -1;
  private KA = new Float64Array(256);
  private L = new Float64Array(256);
  private rhs = new Float64Array(16);
  /** b + K f over the rows outside the subset, per subset row. */
  private held = new Float64Array(16);
  private saved = new Float64Array(16);
  /** Changes of the active set in the last solve. */
  changes = 0;
  /**
   * The tolerance of complementarity in the block (measure units) at index 0, set by the caller
   * (in an array: a number passed to a call that is not inlined is boxed on the heap).
   */
  readonly eps = new Float64Array(1);

  /**
   * Starts a problem of m rows (a new K: any kept factor is dropped). The active set starts from
   * the forces f (a row pushing) and the rows that approach at zero force (b < 0); bilateral rows
   * are always active.
   */
  begin(m: number, b: Float64Array, lo: Float64Array, f: Float64Array): void {
    if (this.act.length < m) {
      this.act = new Uint8Array(2 * m); this.inSet = new Uint8Array(2 * m);
      this.idx = new Int32Array(2 * m); this.factored = new Int32Array(2 * m);
      this.rhs = new Float64Array(2 * m); this.held = new Float64Array(2 * m); this.saved = new Float64Array(2 * m);
    }
    if (this.KA.length < m * m) { this.KA = new Float64Array(4 * m * m); this.L = new Float64Array(4 * m * m); }
    for (let c = 0; c < m; c++) this.act[c] = lo[c] === -Infinity || f[c] > 0 || b[c] < 0 ? 1 : 0;
    this.nFactored = -1;
  }

  /**
   * Solves the rows set[0..ns) of the problem (A row-major m x m, measures w = b + A f) exactly,
   * the other rows' forces held, writing their forces into f. Complementarity is judged to eps[0]
   * (measure units). Returns false, with f as it was, when a K_AA is singular to working precision
   * or the pivoting takes more than 4 ns + 8 changes.
   */
  solve(A: Float64Array, m: number, b: Float64Array, lo: Float64Array, f: Float64Array, set: Int32Array, ns: number): boolean {
    const eps = this.eps[0];
    const act = this.act, inSet = this.inSet, idx = this.idx, held = this.held, rhs = this.rhs;
    inSet.fill(0, 0, m);
    let maxDiag = 0;
    for (let r = 0; r < ns; r++) { const c = set[r]; inSet[c] = 1; this.saved[r] = f[c]; if (A[c * m + c] > maxDiag) maxDiag = A[c * m + c]; }
    if (!(maxDiag > 0)) return ns === 0;
    for (let r = 0; r < ns; r++) {
      const c = set[r], o = c * m;
      let w = b[c];
      for (let k = 0; k < m; k++) if (inSet[k] === 0) w += A[o + k] * f[k];
      held[r] = w;
    }
    const L = this.L, KA = this.KA;
    for (let change = 0; change <= 4 * ns + 8; change++) {
      // the active rows, as positions in set[] (n of them)
      let n = 0;
      for (let r = 0; r < ns; r++) if (act[set[r]]) idx[n++] = r;
      let same = n === this.nFactored;
      for (let r = 0; r < n && same; r++) same = this.factored[r] === set[idx[r]];
      if (!same) {
        for (let r = 0; r < n; r++) {
          const o = set[idx[r]] * m;
          for (let k = 0; k < n; k++) KA[r * n + k] = A[o + set[idx[k]]];
        }
        this.nFactored = -1;
        if (choleskyFactor(KA, n, L) >= 0) break;
        let singular = false;
        for (let r = 0; r < n; r++) if (!(L[r * n + r] * L[r * n + r] > 1e-12 * maxDiag)) singular = true;
        if (singular) break;
        for (let r = 0; r < n; r++) this.factored[r] = set[idx[r]];
        this.nFactored = n;
      }
      for (let r = 0; r < n; r++) rhs[r] = -held[idx[r]];
      choleskySolve(L, n, rhs, rhs);
      for (let r = 0; r < ns; r++) f[set[r]] = 0;
      for (let r = 0; r < n; r++) f[set[idx[r]]] = rhs[r];
      let flip = -1;
      for (let r = 0; r < ns && flip < 0; r++) {
        const c = set[r];
        if (lo[c] === -Infinity) continue;
        if (act[c]) { if (f[c] * A[c * m + c] < -eps) flip = c; continue; }
        let w = held[r];
        const o = c * m;
        for (let k = 0; k < n; k++) { const ck = set[idx[k]]; w += A[o + ck] * f[ck]; }
        if (w < -eps) flip = c;
      }
      if (flip < 0) { this.changes = change; return true; }
      act[flip] ^= 1;
    }
    for (let r = 0; r < ns; r++) f[set[r]] = this.saved[r];
    this.nFactored = -1;
    return false;
  }
}
