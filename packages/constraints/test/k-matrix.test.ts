/**
 * K three ways: by AccelerationDeltas (Kokkevis 4.3), by the test-force method (4.2, one ABA per
 * column), and as J M^-1 J^T from the Jacobians and the CRBA mass matrix solved by mathjs.
 */
import { describe, expect, it } from 'vitest';
import { lusolve, matrix, type Matrix } from 'mathjs';
import { ModelBuilder, State, forwardKinematics, linkJacobian, massMatrix, pointJacobian, type Model } from '@sinew/featherstone';
import { Body } from '../src/index.js';
import { ConstraintSolver, RowBuffer, RowTag, RowType } from '../src/internals.js';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomTree(r: () => number, links: number): Model {
  const b = new ModelBuilder();
  const types = ['revolute', 'prismatic', 'spherical', 'revolute'] as const;
  for (let i = 0; i < links; i++) {
    const type = i === 0 ? 'free' : types[Math.floor(r() * types.length)];
    const m = 0.5 + r();
    const ax = [r() - 0.5, r() - 0.5, r() - 0.5];
    b.addLink({
      name: `l${i}`, parent: i === 0 ? -1 : Math.floor(r() * i),
      joint: { type, axis: type === 'revolute' || type === 'prismatic' ? ax : undefined, position: [r() - 0.5, r() - 0.5, r() - 0.5] },
      mass: m, com: [0.1 * r(), 0.1 * r(), 0.1 * r()], inertia: [0.1 + r() * 0.1, 0.1 + r() * 0.1, 0.1 + r() * 0.1, 0.01 * r(), 0.01 * r(), 0.01 * r()],
    });
  }
  return b.build();
}

function randomState(r: () => number, body: Body): void {
  const { model, state } = body;
  for (let i = 0; i < model.nLinks; i++) {
    const o = model.qOffset[i], t = model.jointType[i];
    if (t === 1 || t === 2) state.q[o] = r() - 0.5;
    else if (t === 3 || t === 4) {
      const off = t === 4 ? 3 : 0;
      if (t === 4) state.q.set([r(), r(), r()], o);
      const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
      const n = Math.hypot(...q);
      state.q.set(q.map((x) => x / n), o + off);
    }
  }
  for (let d = 0; d < model.nv; d++) state.qd[d] = r() - 0.5;
}

/** J row (1 x nv for each body) of a row, from the featherstone Jacobians: the oracle's measure. */
function jacobianRows(rows: RowBuffer, j: number, bodies: Body[]): Map<number, Float64Array> {
  const out = new Map<number, Float64Array>();
  const t = rows.type[j];
  const d = rows.dir.subarray(3 * j, 3 * j + 3);
  for (let side = 0; side < 2; side++) {
    const bi = side === 0 ? rows.bodyA[j] : rows.bodyB[j];
    if (bi < 0 || (side === 1 && t < RowType.Point)) continue;
    const body = bodies[bi];
    const nv = body.model.nv;
    const row = out.get(bi) ?? new Float64Array(nv);
    const sign = side === 0 ? 1 : -1;
    if (t === RowType.Joint) row[rows.dof[j]] += d[0];
    else if (t === RowType.JointVec) {
      const v0 = body.model.vOffset[rows.linkA[j]];
      for (let k = 0; k < 3; k++) row[v0 + k] += d[k];
    } else {
      const link = side === 0 ? rows.linkA[j] : rows.linkB[j];
      if (t === RowType.Point) {
        const local = (side === 0 ? rows.pA : rows.pB).subarray(3 * j, 3 * j + 3);
        const J = new Float64Array(3 * nv);
        pointJacobian(body.model, body.state, link, local, J);
        for (let c = 0; c < nv; c++) row[c] += sign * (d[0] * J[c] + d[1] * J[nv + c] + d[2] * J[2 * nv + c]);
      } else {
        const J = new Float64Array(6 * nv);
        linkJacobian(body.model, body.state, link, J);
        for (let c = 0; c < nv; c++) row[c] += sign * (d[0] * J[c] + d[1] * J[nv + c] + d[2] * J[2 * nv + c]);
      }
    }
    out.set(bi, row);
  }
  return out;
}

function minv(M: Float64Array, nv: number, rhs: Float64Array): Float64Array {
  const rowsM: number[][] = [];
  for (let i = 0; i < nv; i++) rowsM.push(Array.from(M.subarray(i * nv, i * nv + nv)));
  const x = lusolve(matrix(rowsM), matrix(Array.from(rhs, (v) => [v]))) as Matrix;
  return Float64Array.from((x.toArray() as number[][]).map((r) => r[0]));
}

describe('the constraint matrix K', () => {
  it('by AccelerationDeltas equals the test-force method and J M^-1 J^T (30 random two-body scenes, every row type)', () => {
    const r = rng(4242);
    let worst = 0;
    for (let trial = 0; trial < 30; trial++) {
      const bodies = [0, 1].map((k) => new Body(k, `b${k}`, randomTree(r, 2 + Math.floor(r() * 8))));
      bodies.forEach((b) => { randomState(r, b); forwardKinematics(b.model, b.state); });
      const rows = new RowBuffer(8);
      const unit = () => { const v = [r() - 0.5, r() - 0.5, r() - 0.5]; const n = Math.hypot(...v); return v.map((x) => x / n); };
      for (let k = 0; k < 12; k++) {
        const bi = Math.floor(r() * 2), body = bodies[bi];
        const link = Math.floor(r() * body.model.nLinks);
        const kind = Math.floor(r() * 5);
        if (kind === 0) rows.addJoint(RowTag.User, bi, Math.floor(r() * body.model.nv), r() < 0.5 ? 1 : -1);
        else if (kind === 1) {
          const sph = [...Array(body.model.nLinks).keys()].filter((i) => body.model.jointType[i] === 3);
          if (sph.length) rows.addJointVec(RowTag.User, bi, sph[0], ...(unit() as [number, number, number]));
          else rows.addJoint(RowTag.User, bi, 0, 1);
        } else if (kind === 2) rows.addPoint(RowTag.User, bi, link, [r(), r(), r()], -1, -1, [0, 0, 0], unit());
        else if (kind === 3) {
          const other = bodies[1 - bi];
          rows.addPoint(RowTag.User, bi, link, [r(), r(), r()], 1 - bi, Math.floor(r() * other.model.nLinks), [r(), r(), r()], unit());
        } else rows.addAngular(RowTag.User, bi, link, r() < 0.5 ? 1 - bi : -1, 0, unit());
      }
      const idx = Int32Array.from({ length: rows.count }, (_, i) => i);
      const fast = new ConstraintSolver();
      fast.setRows(rows, idx, rows.count, bodies);
      fast.dynamics(bodies);
      fast.buildK(rows, bodies, 'deltas');
      const slow = new ConstraintSolver();
      slow.setRows(rows, idx, rows.count, bodies);
      slow.dynamics(bodies);
      slow.buildK(rows, bodies, 'testForce');
      // oracle: J M^-1 J^T, block by body
      const m = rows.count;
      const Ms = bodies.map((b) => massMatrix(b.model, b.state, new Float64Array(b.model.nv * b.model.nv)));
      const J = Array.from({ length: m }, (_, j) => jacobianRows(rows, j, bodies));
      let scale = 0;
      for (let a = 0; a < m; a++) {
        for (let c = 0; c < m; c++) {
          let oracle = 0;
          for (const [bi, Jc] of J[c]) {
            const Ja = J[a].get(bi);
            if (!Ja) continue;
            const x = minv(Ms[bi], bodies[bi].model.nv, Jc);
            for (let d = 0; d < x.length; d++) oracle += Ja[d] * x[d];
          }
          // problem order may differ from row order: map through rowAt
          const ia = fast.rowList.indexOf(a), ic = fast.rowList.indexOf(c);
          const kf = fast.lcp.A[ia * m + ic], ks = slow.lcp.A[ia * m + ic];
          scale = Math.max(scale, Math.abs(oracle));
          worst = Math.max(worst, Math.abs(kf - oracle));
          expect(Math.abs(kf - oracle)).toBeLessThan(1e-9 * Math.max(1, Math.abs(oracle)));
          expect(Math.abs(ks - oracle)).toBeLessThan(1e-9 * Math.max(1, Math.abs(oracle)));
        }
      }
      // symmetric by construction (the test force is the transpose of the measure)
      for (let a = 0; a < m; a++) for (let c = 0; c < a; c++) expect(Math.abs(fast.lcp.A[a * m + c] - fast.lcp.A[c * m + a])).toBeLessThan(1e-9 * Math.max(1, scale));
    }
    console.log(`K by deltas vs J M^-1 J^T: worst absolute difference ${worst.toExponential(2)}`);
  });

  it('the implicit PGS (K never formed: M factorised, Y = L^-T J^T) gives the dense PGS forces, for point rows between two bodies and within one, joint and angular rows', () => {
    const r = rng(99);
    for (let trial = 0; trial < 10; trial++) {
      const bodies = [0, 1].map((k) => new Body(k, `b${k}`, randomTree(r, 4 + Math.floor(r() * 8))));
      bodies.forEach((b) => { randomState(r, b); forwardKinematics(b.model, b.state); });
      const rows = new RowBuffer(8);
      const unit = () => { const v = [r() - 0.5, r() - 0.5, r() - 0.5]; const n = Math.hypot(...v); return v.map((x) => x / n); };
      for (let k = 0; k < 20; k++) {
        const bi = Math.floor(r() * 2), link = Math.floor(r() * bodies[bi].model.nLinks);
        const j = k % 3 === 2
          ? rows.addPoint(RowTag.User, bi, link, [r(), r(), r()], k % 2 === 0 ? 1 - bi : bi, Math.floor(r() * bodies[k % 2 === 0 ? 1 - bi : bi].model.nLinks), [r(), r(), r()], unit())
          : rows.addPoint(RowTag.User, bi, link, [r(), r(), r()], -1, -1, [0, 0, 0], unit());
        if (k % 2 === 0) rows.setBounds(j, 0, Infinity);
        else if (k % 5 === 1) rows.setBounds(j, -0.3, 0.3);
      }
      // joint rows (a limit, a joint vector) and an angular row between the two bodies
      for (let k = 0; k < 4; k++) {
        const bi = k % 2, model = bodies[bi].model;
        const dof = Math.floor(r() * model.nv), link = model.dofLink[dof];
        rows.setBounds(rows.addJoint(RowTag.User, bi, dof, r() < 0.5 ? 1 : -1), 0, Infinity);
        rows.addJointVec(RowTag.User, bi, link, r() - 0.5, r() - 0.5, r() - 0.5);
      }
      rows.addAngular(RowTag.User, 0, Math.floor(r() * bodies[0].model.nLinks), 1, Math.floor(r() * bodies[1].model.nLinks), unit());
      const idx = Int32Array.from({ length: rows.count }, (_, i) => i);
      const out: Float64Array[] = [];
      for (const limit of [1000, 0]) {
        const s = new ConstraintSolver();
        // (both solved by PGS: the comparison is of the two forms of K)
        s.denseLimit = limit; s.directLimit = limit; s.exactBlocks = false;
        s.setRows(rows, idx, rows.count, bodies);
        expect(s.dense).toBe(limit > 0);
        s.dynamics(bodies);
        s.buildK(rows, bodies);
        s.setAccelerationRhs(rows, bodies);
        const f = new Float64Array(rows.count);
        s.solve(rows, { maxIterations: 40, tolerance: 0 }, false, f);
        out.push(f);
      }
      for (let i = 0; i < rows.count; i++) expect(Math.abs(out[0][i] - out[1][i])).toBeLessThan(1e-9 * Math.max(1, Math.abs(out[0][i])));
    }
  });

  it('a solver given other rows under the same indices (other bodies, links, tags or types) orders and builds them as a fresh solver does', () => {
    // setRows keeps its order and entries while it is given the same rows (sameLayout): any change
    // of a row's tag, type, bodies or links must be seen. Each trial fills one RowBuffer twice with
    // the same number of rows, and the solver that saw the first fill must build the K of the second
    // as a fresh solver does, in dense and implicit mode.
    const r = rng(31);
    const bodies = [0, 1].map((k) => new Body(k, `b${k}`, randomTree(r, 6)));
    bodies.forEach((b) => { randomState(r, b); forwardKinematics(b.model, b.state); });
    const fill = (rows: RowBuffer, change: number) => {
      rows.clear();
      for (let k = 0; k < 16; k++) {
        const bi = k % 2, link = (k * 5) % bodies[bi].model.nLinks;
        // the change: one row goes to another link, another body, another tag, or another type
        const l = k === 7 && change === 1 ? (link + 1) % bodies[bi].model.nLinks : link;
        const b = k === 7 && change === 2 ? 1 - bi : bi;
        const tag = k === 7 && change === 3 ? RowTag.Contact : RowTag.User;
        if (k === 7 && change === 4) rows.addAngular(tag, b, l, -1, 0, [0, 0.6, 0.8]);
        else rows.addPoint(tag, b, l, [0.1 * k, 0.2, 0.3], -1, -1, [0, 0, 0], [0.6, 0, 0.8]);
        rows.setBounds(k, 0, Infinity);
      }
    };
    const idx = Int32Array.from({ length: 16 }, (_, i) => i);
    for (const limit of [1000, 0]) {
      for (let change = 1; change <= 4; change++) {
        const rows = new RowBuffer(16);
        const reused = new ConstraintSolver(), fresh = new ConstraintSolver();
        reused.denseLimit = limit; fresh.denseLimit = limit;
        fill(rows, 0);
        reused.setRows(rows, idx, 16, bodies);
        reused.dynamics(bodies);
        reused.buildK(rows, bodies);
        fill(rows, change);
        const f = [reused, fresh].map((s) => {
          s.setRows(rows, idx, 16, bodies);
          s.dynamics(bodies);
          s.buildK(rows, bodies);
          s.setAccelerationRhs(rows, bodies);
          const out = new Float64Array(16);
          s.solve(rows, { maxIterations: 20, tolerance: 0 }, false, out);
          return out;
        });
        expect(Array.from(reused.rowList.subarray(0, 16))).toEqual(Array.from(fresh.rowList.subarray(0, 16)));
        expect(Array.from(f[0])).toEqual(Array.from(f[1]));
      }
    }
  });

  it('its solution, applied as qdd0 + sum f dqdd, meets the rows it was solved for (a point held still)', () => {
    const r = rng(7);
    const body = new Body(0, 'b', randomTree(r, 6));
    randomState(r, body);
    body.state.qd.fill(0);
    forwardKinematics(body.model, body.state);
    const rows = new RowBuffer(4);
    for (const d of [[1, 0, 0], [0, 1, 0], [0, 0, 1]]) rows.addPoint(RowTag.Pin, 0, 3, [0.1, 0.2, 0.3], -1, -1, [0, 0, 0], d);
    const s = new ConstraintSolver();
    s.setRows(rows, [0, 1, 2], 3, [body]);
    s.dynamics([body]);
    s.buildK(rows, [body]);
    s.setAccelerationRhs(rows, [body]);
    const res = s.solve(rows, { maxIterations: 500, tolerance: 1e-12 }, false);
    expect(res.residual).toBeLessThan(1e-10);
    s.combine([body], 'qdd');
    // independent check: J qdd + Jdot qd = 0 with qd = 0 means J qdd = 0 at this point
    const J = new Float64Array(3 * body.model.nv);
    pointJacobian(body.model, body.state, 3, [0.1, 0.2, 0.3], J);
    const nv = body.model.nv;
    for (let k = 0; k < 3; k++) {
      let a = 0;
      for (let d = 0; d < nv; d++) a += J[k * nv + d] * body.qdd[d];
      expect(Math.abs(a)).toBeLessThan(1e-9);
    }
    void State;
  });
});
