/**
 * The World: bodies (characters and free rigid bodies), constraint sources (joint limits, pins,
 * drives, motors, contacts), and a step() in the shape of the Kokkevis paper's Step() (section 7):
 *
 *   1. forward kinematics; every source adds its rows (the constraint set C);
 *   2. ABA on every body; K by AccelerationDeltas, island by island;
 *   3. impacts: rows hitting faster than a threshold get a velocity jump from an impulse LCP on
 *      the same K (section 5), with restitution;
 *   4. the acceleration-level mixed LCP (PGS) gives the constraint forces, qdd = qdd0 + sum f dqdd;
 *   5. semi-implicit Euler; if the tentative state violates a unilateral condition deeper than the
 *      tolerance, the step is halved and retried (backtracking), at most `maxHalvings` times — at
 *      the cap the step is accepted as it is and the violation is left to stabilisation;
 *   6. stabilisation of position drift: post-stabilisation (Cline thesis 3.4: an LCP on the
 *      position errors with the same K, dq = M^-1 J^T lambda) or Baumgarte (velocity-level,
 *      J v+ = -alpha g, Cline 3.2), or none.
 *
 * Desired measures of position rows (pins, limits, contacts) are velocity-level: the row asks that
 * the velocity after the step be -alpha g (alpha = 0 without Baumgarte), so a = -(v + alpha g)/h.
 * A unilateral row that is still open (g > 0) only stops the motion that would close it within the
 * step: a >= -(v + g/h)/h.
 */
import { forwardKinematics, forwardDynamics, integratePositions, integrateSemiImplicit, type Model, type State } from '@sinew/featherstone';
import { Body } from './body.js';
import type { PgsOptions } from './lcp/pgs.js';
import { rowVelocity } from './rows/measure.js';
import { RowBuffer, RowTag } from './rows/row-buffer.js';
import { ConstraintSolver, type KMethod } from './solver/constraint-solver.js';
import { JointLimits, type JointLimitOptions } from './sources/joint-limits.js';
import type { ConstraintSource, StepContext } from './sources/source.js';

export type StabilizationMode = 'post' | 'baumgarte' | 'none';

export interface WorldOptions {
  /** Gravity (default [0, -9.81, 0]); applied to every body added. */
  gravity?: ArrayLike<number>;
  /** Sub-steps per step() (default 1). */
  substeps?: number;
  /** PGS options (default 30 iterations, tolerance 1e-8, SOR 1). */
  solver?: PgsOptions;
  /** Position-drift stabilisation (default 'post'). */
  stabilization?: StabilizationMode;
  /** Baumgarte constant alpha (1/s) for 'baumgarte' (default 50). */
  baumgarteAlpha?: number;
  /** Halvings of a step at most (default 4). */
  maxHalvings?: number;
  /** Violation (m or rad) beyond which a tentative step is halved (default 0.01). */
  backtrackTolerance?: number;
  /** Approach speed (m/s or rad/s) above which a row gets an impact (default 0.02). */
  impactThreshold?: number;
  /** Position error tolerated without post-stabilisation (default 1e-7). */
  stabilizationTolerance?: number;
  /** Joint limits (margin, restitution). */
  limits?: JointLimitOptions;
  /** How K is built (default 'deltas'). */
  kMethod?: KMethod;
}

export interface StepStats {
  /** Simulated time after the step (s). */
  time: number;
  rows: number;
  islands: number;
  /** Largest PGS iteration count and residual of the step's acceleration solves. */
  iterations: number;
  residual: number;
  halvings: number;
  impacts: number;
  /** Largest position error before and after stabilisation (m or rad). */
  errorBefore: number;
  errorAfter: number;
  /** Milliseconds spent per phase in the last step. */
  ms: { rows: number; dynamics: number; k: number; solve: number; integrate: number; stabilize: number };
  /** Message of a step that produced a non-finite state and was rolled back, else ''. */
  error: string;
}

const DEFAULT_SOLVER: PgsOptions = { maxIterations: 30, tolerance: 1e-8, sor: 1 };

export class World {
  readonly bodies: Body[] = [];
  readonly sources: ConstraintSource[] = [];
  readonly limits: JointLimits;
  readonly gravity: Float64Array;
  time = 0;
  substeps: number;
  solverOptions: PgsOptions;
  stabilization: StabilizationMode;
  baumgarteAlpha: number;
  maxHalvings: number;
  backtrackTolerance: number;
  impactThreshold: number;
  stabilizationTolerance: number;
  kMethod: KMethod;
  readonly stats: StepStats = {
    time: 0, rows: 0, islands: 0, iterations: 0, residual: 0, halvings: 0, impacts: 0, errorBefore: 0, errorAfter: 0,
    ms: { rows: 0, dynamics: 0, k: 0, solve: 0, integrate: 0, stabilize: 0 }, error: '',
  };

  readonly rows = new RowBuffer(64);
  private readonly stabRows = new RowBuffer(64);
  readonly solver = new ConstraintSolver();
  private readonly warm = new Map<number, number>();
  private islandOf = new Int32Array(8);
  private islandRows = new Int32Array(64);
  private islandStart = new Int32Array(9);
  private rhs = new Float64Array(64);

  constructor(options: WorldOptions = {}) {
    this.gravity = Float64Array.from(options.gravity ?? [0, -9.81, 0]);
    for (let k = 0; k < 3; k++) if (!Number.isFinite(this.gravity[k])) throw new RangeError('World: gravity must be 3 finite numbers');
    this.substeps = options.substeps ?? 1;
    this.solverOptions = { ...DEFAULT_SOLVER, ...options.solver };
    this.stabilization = options.stabilization ?? 'post';
    this.baumgarteAlpha = options.baumgarteAlpha ?? 50;
    this.maxHalvings = options.maxHalvings ?? 4;
    this.backtrackTolerance = options.backtrackTolerance ?? 0.01;
    this.impactThreshold = options.impactThreshold ?? 0.02;
    this.stabilizationTolerance = options.stabilizationTolerance ?? 1e-7;
    this.kMethod = options.kMethod ?? 'deltas';
    this.limits = new JointLimits(options.limits);
    this.sources.push(this.limits);
  }

  /** Adds a body (a character, or a one-link free body) with a fresh state or the given one. */
  addBody(model: Model, options: { name?: string; state?: State } = {}): Body {
    const body = new Body(this.bodies.length, options.name ?? `body${this.bodies.length}`, model, options.state);
    body.state.gravity.set(this.gravity);
    this.bodies.push(body);
    return body;
  }

  addConstraint<T extends ConstraintSource>(source: T): T {
    this.sources.push(source);
    return source;
  }

  removeConstraint(source: ConstraintSource): void {
    const i = this.sources.indexOf(source);
    if (i >= 0) this.sources.splice(i, 1);
  }

  /** Advances the world by dt seconds (refuses a non-finite or non-positive dt, leaving the world unchanged). */
  step(dt: number): StepStats {
    if (!(typeof dt === 'number' && Number.isFinite(dt) && dt > 0)) throw new RangeError(`World.step: dt must be a positive finite number of seconds, got ${dt}`);
    const st = this.stats;
    st.rows = 0; st.islands = 0; st.iterations = 0; st.residual = 0; st.halvings = 0; st.impacts = 0; st.errorBefore = 0; st.errorAfter = 0; st.error = '';
    st.ms.rows = 0; st.ms.dynamics = 0; st.ms.k = 0; st.ms.solve = 0; st.ms.integrate = 0; st.ms.stabilize = 0;
    const h = dt / this.substeps;
    const time0 = this.time;
    for (const b of this.bodies) { b.frameQ.set(b.state.q); b.frameQd.set(b.state.qd); }
    try {
      for (let s = 0; s < this.substeps; s++) {
        let remaining = h;
        // guard against endless tiny steps: at most 2^(maxHalvings + 1) pieces per sub-step
        for (let piece = 0; remaining > h * 1e-9 && piece < 1 << Math.min(20, this.maxHalvings + 1); piece++) {
          remaining -= this.advance(remaining);
        }
      }
      st.error = this.checkFinite();
    } catch (e) {
      st.error = `World.step at t = ${time0}: ${(e as Error).message}`;
    }
    if (st.error) {
      // roll back: nothing simulated before this step is lost; the world keeps stepping
      for (const b of this.bodies) {
        b.state.q.set(b.frameQ);
        b.state.qd.set(b.frameQd);
        b.state.work.dynamicsValid = false;
      }
      this.warm.clear();
      this.time = time0 + dt;
    }
    for (const b of this.bodies) b.state.clearForces();
    st.time = this.time;
    return st;
  }

  /** '' when every state is finite, else which body and joint went non-finite. */
  private checkFinite(): string {
    for (const b of this.bodies) {
      const joint = b.nonFiniteJoint();
      if (joint) return `body "${b.name}" joint "${joint}" became non-finite; the step was rolled back`;
    }
    return '';
  }

  private ctx(h: number): StepContext {
    return { bodies: this.bodies, h };
  }

  /** One attempt of Step(): returns the time actually advanced. */
  private advance(h: number): number {
    const st = this.stats;
    const bodies = this.bodies;
    let t0 = performance.now();
    for (const b of bodies) if (!b.sleeping) forwardKinematics(b.model, b.state, true);
    const rows = this.rows;
    rows.clear();
    const ctx = this.ctx(h);
    for (const src of this.sources) src.addRows(rows, ctx);
    for (let j = 0; j < rows.count; j++) {
      rows.velocity[j] = rowVelocity(rows, j, bodies);
      rows.force[j] = this.warm.get(rows.key[j]) ?? 0;
    }
    st.rows = Math.max(st.rows, rows.count);
    let t1 = performance.now();
    st.ms.rows += t1 - t0;
    for (const b of bodies) {
      if (b.sleeping) continue;
      forwardDynamics(b.model, b.state, b.qdd0);
      b.qdd.set(b.qdd0);
    }
    t0 = performance.now();
    st.ms.dynamics += t0 - t1;
    const nIslands = this.buildIslands(rows);
    st.islands = Math.max(st.islands, nIslands);
    this.warm.clear();
    for (let isl = 0; isl < nIslands; isl++) this.solveIsland(rows, isl, h);
    // integrate with backtracking
    t0 = performance.now();
    for (const b of bodies) if (!b.sleeping) b.save();
    let hTry = h;
    for (let halvings = 0; ; halvings++) {
      for (const b of bodies) if (!b.sleeping) integrateSemiImplicit(b.model, b.state, b.qdd, hTry);
      if (halvings >= this.maxHalvings) break;
      let violation = 0;
      let checked = false;
      for (const src of this.sources) {
        if (!src.violation) continue;
        if (!checked) { for (const b of bodies) if (!b.sleeping) forwardKinematics(b.model, b.state, false); checked = true; }
        violation = Math.max(violation, src.violation(ctx));
      }
      if (violation <= this.backtrackTolerance) break;
      for (const b of bodies) if (!b.sleeping) b.restore();
      hTry *= 0.5;
      st.halvings++;
    }
    this.time += hTry;
    t1 = performance.now();
    st.ms.integrate += t1 - t0;
    if (this.stabilization === 'post') this.postStabilize(hTry);
    st.ms.stabilize += performance.now() - t1;
    return hTry;
  }

  /** Groups rows by island (bodies linked by two-body rows). Returns the island count. */
  private buildIslands(rows: RowBuffer): number {
    const nb = this.bodies.length;
    if (this.islandOf.length < nb) this.islandOf = new Int32Array(2 * nb);
    const parent = this.islandOf;
    for (let b = 0; b < nb; b++) parent[b] = b;
    const find = (x: number): number => {
      while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; }
      return x;
    };
    for (let j = 0; j < rows.count; j++) {
      const b = rows.bodyB[j];
      if (b >= 0) {
        const ra = find(rows.bodyA[j]), rb = find(b);
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
    }
    // island index per root, in order of the smallest body index (deterministic)
    let n = 0;
    const id = this.bodies.map(() => -1);
    for (let b = 0; b < nb; b++) {
      const r = find(b);
      if (id[r] < 0) id[r] = -2; // marks a root seen
    }
    // count rows per root
    const countByRoot = new Int32Array(nb);
    for (let j = 0; j < rows.count; j++) countByRoot[find(rows.bodyA[j])]++;
    for (let b = 0; b < nb; b++) if (find(b) === b && countByRoot[b] > 0) id[b] = n++;
    if (this.islandStart.length < n + 1) this.islandStart = new Int32Array(2 * n + 1);
    this.islandStart.fill(0, 0, n + 1);
    for (let j = 0; j < rows.count; j++) this.islandStart[id[find(rows.bodyA[j])] + 1]++;
    for (let k = 0; k < n; k++) this.islandStart[k + 1] += this.islandStart[k];
    if (this.islandRows.length < rows.count) this.islandRows = new Int32Array(2 * rows.count);
    const cursor = this.islandStart.slice(0, n);
    for (let j = 0; j < rows.count; j++) this.islandRows[cursor[id[find(rows.bodyA[j])]]++] = j;
    for (let b = 0; b < nb; b++) this.bodies[b].island = countByRoot[find(b)] > 0 ? id[find(b)] : -1;
    return n;
  }

  private solveIsland(rows: RowBuffer, isl: number, h: number): void {
    const st = this.stats;
    const bodies = this.bodies;
    const solver = this.solver;
    const start = this.islandStart[isl], count = this.islandStart[isl + 1] - start;
    let t0 = performance.now();
    solver.setRows(rows, this.islandRows.subarray(start, start + count), count, bodies);
    solver.buildK(rows, bodies, this.kMethod);
    let t1 = performance.now();
    st.ms.k += t1 - t0;
    // impacts
    if (this.needsImpact(rows, solver)) {
      this.solveImpacts(rows);
      st.impacts++;
      // new velocities: new velocity-product terms and row velocities (K depends on q only)
      solver.dynamics(bodies);
      for (let c = 0; c < solver.m; c++) {
        const j = solver.rowAt(c);
        rows.velocity[j] = rowVelocity(rows, j, bodies);
      }
    }
    this.setDesired(rows, solver, h);
    solver.setAccelerationRhs(rows, bodies);
    const r = solver.solve(rows, this.solverOptions, true);
    st.iterations = Math.max(st.iterations, r.iterations);
    st.residual = Math.max(st.residual, r.residual);
    solver.combine(bodies, 'qdd');
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      if (rows.key[j] >= 0) this.warm.set(rows.key[j], rows.force[j]);
    }
    st.ms.solve += performance.now() - t1;
  }

  /** Desired acceleration-level measures of position rows (see the module comment). */
  private setDesired(rows: RowBuffer, solver: ConstraintSolver, h: number): void {
    const alpha = this.stabilization === 'baumgarte' ? this.baumgarteAlpha : 0;
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      const tag = rows.tag[j];
      const v = rows.velocity[j], g = rows.error[j];
      if (tag === RowTag.Pin) rows.desired[j] = -(v + alpha * g) / h;
      else if (tag === RowTag.Limit || tag === RowTag.Contact) {
        if (g <= 0) rows.desired[j] = -(v + alpha * g) / h;
        else if (rows.restitution[j] > 0) {
          // a bouncing row stays open until it closes, so the impact sees the true approach speed
          // (backtracking bounds how far the step may overshoot)
          rows.desired[j] = 0;
          rows.setBounds(j, 0, 0);
        } else rows.desired[j] = -(v + g / h) / h;
      } else if (tag === RowTag.Friction) rows.desired[j] = -v / h;
    }
  }

  private needsImpact(rows: RowBuffer, solver: ConstraintSolver): boolean {
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      const tag = rows.tag[j];
      if ((tag === RowTag.Limit || tag === RowTag.Contact) && rows.error[j] <= 1e-3 && rows.velocity[j] < -this.impactThreshold) return true;
    }
    return false;
  }

  /**
   * Impact LCP at the velocity level (Kokkevis section 5): K p + (v - v_desired) with v_desired =
   * -e v for rows hitting, 0 for touching unilateral rows and pins, 0 for friction (bounded by mu
   * times the normal impulse); drives and motors take no impulse; open unilateral rows stay out.
   */
  private solveImpacts(rows: RowBuffer): void {
    const solver = this.solver;
    if (this.rhs.length < rows.count) this.rhs = new Float64Array(2 * rows.capacity);
    const rhs = this.rhs;
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      const tag = rows.tag[j], v = rows.velocity[j];
      if (tag === RowTag.Limit || tag === RowTag.Contact) {
        if (rows.error[j] > 1e-3) rhs[j] = Math.max(v, 0) + 1; // open: no impulse needed
        else rhs[j] = v < -this.impactThreshold ? v * (1 + rows.restitution[j]) : v;
      } else rhs[j] = v;
    }
    solver.setRhs(rows, rhs);
    for (let c = 0; c < solver.m; c++) {
      const tag = rows.tag[solver.rowAt(c)];
      if (tag === RowTag.Drive || tag === RowTag.Motor) { solver.lcp.lo[c] = 0; solver.lcp.hi[c] = 0; }
    }
    const saved = this.saveForces(rows);
    solver.solve(rows, this.solverOptions, false);
    solver.combine(this.bodies, 'qd');
    this.restoreForces(rows, saved);
  }

  private forceScratch = new Float64Array(64);
  private saveForces(rows: RowBuffer): Float64Array {
    if (this.forceScratch.length < rows.count) this.forceScratch = new Float64Array(2 * rows.capacity);
    this.forceScratch.set(rows.force.subarray(0, rows.count));
    return this.forceScratch;
  }
  private restoreForces(rows: RowBuffer, saved: Float64Array): void {
    rows.force.set(saved.subarray(0, rows.count));
  }

  /**
   * Post-stabilisation (Cline thesis 3.4, eq. 3.7 in reduced coordinates): with the position errors
   * g of pins, limits and contacts at the new positions, solve K lambda + g = g+ (g+ = 0 for pins,
   * g+ >= 0 complementary to lambda >= 0 for unilateral rows) and move q by dq = M^-1 J^T lambda =
   * sum_i lambda_i dqdd_i: the mass-weighted least change that removes the drift.
   */
  private postStabilize(h: number): void {
    const st = this.stats;
    const bodies = this.bodies;
    for (let pass = 0; pass < 2; pass++) {
      for (const b of bodies) if (!b.sleeping) forwardKinematics(b.model, b.state, true);
      const rows = this.stabRows;
      rows.clear();
      const ctx = this.ctx(h);
      for (const src of this.sources) src.addRows(rows, ctx);
      // keep position rows only, and only when something is off
      let worst = 0;
      let n = 0;
      if (this.rhs.length < rows.count) this.rhs = new Float64Array(2 * rows.capacity);
      for (let j = 0; j < rows.count; j++) {
        const tag = rows.tag[j];
        if (tag !== RowTag.Pin && tag !== RowTag.Limit && tag !== RowTag.Contact) continue;
        const g = rows.error[j];
        const bad = tag === RowTag.Pin ? Math.abs(g) : -g;
        worst = Math.max(worst, bad);
        this.islandRows[n++] = j;
      }
      if (pass === 0) st.errorBefore = Math.max(st.errorBefore, worst);
      if (worst <= this.stabilizationTolerance || n === 0) {
        st.errorAfter = Math.max(st.errorAfter, worst);
        return;
      }
      // one problem for all rows (islands do not couple, so this is exact; sizes are small here)
      const solver = this.solver;
      solver.setRows(rows, this.islandRows, n, bodies);
      solver.dynamics(bodies);
      solver.buildK(rows, bodies, this.kMethod);
      for (let c = 0; c < solver.m; c++) {
        const j = solver.rowAt(c);
        this.rhs[j] = rows.error[j];
        // unilateral rows become lambda >= 0; pins free
      }
      solver.setRhs(rows, this.rhs);
      solver.solve(rows, { ...this.solverOptions, maxIterations: Math.max(50, this.solverOptions.maxIterations ?? 50), tolerance: 1e-12 }, false);
      solver.combine(bodies, 'dq');
      for (let k = 0; k < solver.nBodies; k++) {
        const b = bodies[solver.bodyList[k]];
        integratePositions(b.model, b.state.q, b.scratch, 1);
        b.state.work.dynamicsValid = false;
      }
    }
    // measure what is left, and make the velocities consistent with the corrected positions:
    // K mu + v = v+ (v+ = 0 for pins, v+ >= 0 complementary to mu >= 0 for closed unilateral rows),
    // qd += M^-1 J^T mu. Without it the positions move but the velocities keep the drift's
    // direction, and a closed loop can gain energy step after step.
    for (const b of bodies) if (!b.sleeping) forwardKinematics(b.model, b.state, true);
    const rows = this.stabRows;
    rows.clear();
    for (const src of this.sources) src.addRows(rows, this.ctx(h));
    let worst = 0;
    let n = 0;
    for (let j = 0; j < rows.count; j++) {
      const tag = rows.tag[j];
      if (tag === RowTag.Pin) worst = Math.max(worst, Math.abs(rows.error[j]));
      else if (tag === RowTag.Limit || tag === RowTag.Contact) worst = Math.max(worst, -rows.error[j]);
      else continue;
      if (tag === RowTag.Pin || rows.error[j] <= 0) this.islandRows[n++] = j;
    }
    st.errorAfter = Math.max(st.errorAfter, worst);
    if (n === 0) return;
    const solver = this.solver;
    solver.setRows(rows, this.islandRows, n, bodies);
    solver.dynamics(bodies);
    solver.buildK(rows, bodies, this.kMethod);
    for (let c = 0; c < solver.m; c++) {
      const j = solver.rowAt(c);
      this.rhs[j] = rowVelocity(rows, j, bodies);
    }
    solver.setRhs(rows, this.rhs);
    solver.solve(rows, { ...this.solverOptions, maxIterations: Math.max(50, this.solverOptions.maxIterations ?? 50), tolerance: 1e-12 }, false);
    solver.combine(bodies, 'qd');
  }
}
