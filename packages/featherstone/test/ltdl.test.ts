/**
 * The sparse L^T D L factorisation (Featherstone 2005) against its defining identity L^T D L = M,
 * against mathjs's dense solve of M x = b, and against AccelerationDeltas (M^-1 with the implicit
 * damping of the step on the diagonal); the branch-induced sparsity it relies on (M is zero off
 * the paths, and L^-T keeps a vector on the path of its dof).
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, SparseLTDL, accelerationDeltasTorque, forwardDynamics, massMatrix } from '../src/index.js';
import { relErr, solveDense } from './dense.js';
import { randomModel, randomState, rng } from './random-model.js';

/** Whether dof a is d or one of d's ancestors. */
function onPath(f: SparseLTDL, a: number, d: number): boolean {
  for (let j = d; j >= 0; j = f.parent[j]) if (j === a) return true;
  return false;
}

/** L_ki of the unit lower-triangular factor (k at or below i). */
function entryL(f: SparseLTDL, k: number, i: number): number {
  if (k === i) return 1;
  for (let t = f.pathStart[k]; t < f.pathStart[k + 1]; t++) if (f.pathDofs[t] === i) return f.L[t];
  return 0;
}

describe('L^T D L factorisation of the joint-space inertia matrix', () => {
  it('of 40 random trees (several roots, fixed, free and ball joints): L^T D L = M to 1e-12, and M x = b solved as mathjs does', () => {
    const r = rng(612);
    for (let trial = 0; trial < 40; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 20) });
      const state = randomState(r, model);
      const nv = model.nv;
      const M = massMatrix(model, state, new Float64Array(nv * nv));
      const f = new SparseLTDL(model);
      for (let d = 0; d < nv; d++) expect(f.parent[d]).toBeLessThan(d);
      // branch-induced sparsity: M_ij = 0 unless one of i, j is on the other's path
      for (let i = 0; i < nv; i++) for (let j = 0; j < i; j++) if (!onPath(f, j, i)) expect(M[i * nv + j]).toBe(0);
      expect(f.factor(M)).toBe(-1);
      // (L^T D L)_ij = sum_k L_ki D_k L_kj over k at or below both
      let scale = 0;
      for (let e = 0; e < nv * nv; e++) scale = Math.max(scale, Math.abs(M[e]));
      for (let i = 0; i < nv; i++) for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let k = i; k < nv; k++) s += entryL(f, k, i) * f.D[k] * entryL(f, k, j);
        expect(Math.abs(s - M[i * nv + j])).toBeLessThan(1e-12 * scale);
      }
      const b = Float64Array.from({ length: nv }, () => 2 * r() - 1);
      const x = Float64Array.from(b);
      f.solve(x);
      expect(relErr(x, solveDense(M, b, nv))).toBeLessThan(1e-9);
    }
  });

  it('L^-T keeps a vector on the path of its dof, and the path-ordered solve gives the same; L^-1 undoes L', () => {
    const r = rng(77);
    for (let trial = 0; trial < 20; trial++) {
      const model = randomModel(r, { links: 4 + Math.floor(r() * 16) });
      const state = randomState(r, model);
      const nv = model.nv;
      const f = new SparseLTDL(model);
      f.factor(massMatrix(model, state, new Float64Array(nv * nv)));
      const d = Math.floor(r() * nv);
      const x = new Float64Array(nv);
      for (let j = d; j >= 0; j = f.parent[j]) x[j] = 2 * r() - 1;
      const y = Float64Array.from(x);
      f.solveLTransposed(y);
      for (let j = 0; j < nv; j++) if (!onPath(f, j, d)) expect(y[j]).toBe(0);
      // L^T y = x, written out
      for (let i = 0; i < nv; i++) {
        let s = y[i];
        for (let k = i + 1; k < nv; k++) s += entryL(f, k, i) * y[k];
        expect(Math.abs(s - x[i])).toBeLessThan(1e-12 * (1 + Math.abs(x[i])));
      }
      // the same values stored along the path (d first), at an offset
      const path: number[] = [];
      for (let j = d; j >= 0; j = f.parent[j]) path.push(j);
      const local = new Float64Array(3 + path.length);
      path.forEach((j, t) => { local[3 + t] = x[j]; });
      f.solveLTransposedOnPath(d, local, 3);
      path.forEach((j, t) => expect(local[3 + t]).toBe(y[j]));
      // L z = x, written out
      const z = Float64Array.from(x);
      f.solveL(z);
      for (let i = 0; i < nv; i++) {
        let s = z[i];
        for (let j = 0; j < i; j++) s += entryL(f, i, j) * z[j];
        expect(Math.abs(s - x[i])).toBeLessThan(1e-12 * (1 + Math.abs(x[i])));
      }
    }
  });

  it('with armature + h damping on the diagonal it inverts what AccelerationDeltas inverts (the implicit damping of a step)', () => {
    const r = rng(5150);
    for (let trial = 0; trial < 20; trial++) {
      const model = randomModel(r, { links: 2 + Math.floor(r() * 15) });
      const state = randomState(r, model);
      state.implicitDampingStep = 0.01 + 0.05 * r();
      forwardDynamics(model, state);
      const nv = model.nv;
      const f = new SparseLTDL(model);
      expect(f.factor(massMatrix(model, state, new Float64Array(nv * nv), state.work.jointArmature, false))).toBe(-1);
      const fast = new Float64Array(nv);
      for (let d = 0; d < nv; d++) {
        accelerationDeltasTorque(model, state, d, 1, fast);
        const x = new Float64Array(nv);
        x[d] = 1;
        f.solve(x);
        expect(relErr(x, fast)).toBeLessThan(1e-9);
      }
    }
  });

  it('refuses a matrix that is not positive definite, naming the dof whose pivot failed', () => {
    // a revolute joint under a revolute joint: dof 1 under dof 0
    const b = new ModelBuilder();
    for (let i = 0; i < 2; i++) b.addLink({ name: `L${i}`, parent: i - 1, joint: { type: 'revolute', axis: [0, 0, 1] }, mass: 1, com: [0.5, 0, 0], inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
    const f = new SparseLTDL(b.build());
    expect(Array.from(f.parent)).toEqual([-1, 0]);
    // M = [[1, 2], [2, 1]]: the pivot of dof 1 is 1, that of dof 0 then 1 - 4
    expect(f.factor(Float64Array.from([1, 2, 2, 1]))).toBe(0);
    expect(f.factor(Float64Array.from([1, 0, 0, 0]))).toBe(1);
  });
});
