/**
 * AccelerationDeltas (Kokkevis 4.3) against the test-force method (4.2, two ABA calls) and against
 * M^-1 J^T computed from the CRBA mass matrix and the Jacobians, solved by mathjs.
 */
import { describe, expect, it } from 'vitest';
import {
  accelerationDeltas,
  accelerationDeltasForce,
  accelerationDeltasForces,
  accelerationDeltasInbound,
  accelerationDeltasInboundBatch,
  accelerationDeltasInboundPair,
  accelerationDeltasJointForce,
  accelerationDeltasOutbound,
  accelerationDeltasOutboundScaled,
  accelerationDeltasTorque,
  forceLinkToWorld,
  forwardDynamics,
  INBOUND_BATCH,
  linkJacobian,
  massMatrix,
  pointJacobian,
  pointPosition,
  testForceDeltasForce,
  testForceDeltasTorque,
} from '../src/index.js';
import { relErr, solveDense } from './dense.js';
import { randomModel, randomState, rng, unitVec } from './random-model.js';

describe('AccelerationDeltas == test-force method == M^-1 J^T', () => {
  it('for spatial forces on every link and torques on every dof of 60 random trees', () => {
    const r = rng(2024);
    let worst = 0;
    for (let trial = 0; trial < 60; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 25) });
      const state = randomState(r, model);
      const nv = model.nv;
      const M = massMatrix(model, state, new Float64Array(nv * nv));
      forwardDynamics(model, state);
      const fast = new Float64Array(nv), slow = new Float64Array(nv);
      const J = new Float64Array(6 * nv);
      for (let l = 0; l < model.nLinks; l++) {
        const f = Float64Array.from({ length: 6 }, () => 2 * r() - 1);
        accelerationDeltasForce(model, state, l, f, 0, fast);
        testForceDeltasForce(model, state, l, f, 0, slow);
        // generalized force of f: J_l^T [R n; R f] (moment about the link origin, world coordinates)
        linkJacobian(model, state, l, J);
        const P = state.work.pose, po = 12 * l;
        const world = new Float64Array(6);
        for (let a = 0; a < 3; a++) {
          world[a] = P[po + 3 * a] * f[0] + P[po + 3 * a + 1] * f[1] + P[po + 3 * a + 2] * f[2];
          world[3 + a] = P[po + 3 * a] * f[3] + P[po + 3 * a + 1] * f[4] + P[po + 3 * a + 2] * f[5];
        }
        const gen = new Float64Array(nv);
        for (let d = 0; d < nv; d++) for (let k = 0; k < 6; k++) gen[d] += J[k * nv + d] * world[k];
        const oracle = solveDense(M, gen, nv);
        worst = Math.max(worst, relErr(fast, oracle));
        expect(relErr(fast, slow)).toBeLessThan(1e-9);
        expect(relErr(fast, oracle)).toBeLessThan(1e-9);
      }
      for (let d = 0; d < nv; d++) {
        accelerationDeltasTorque(model, state, d, 1, fast);
        testForceDeltasTorque(model, state, d, 1, slow);
        const e = new Float64Array(nv);
        e[d] = 1;
        const oracle = solveDense(M, e, nv);
        expect(relErr(fast, slow)).toBeLessThan(1e-9);
        expect(relErr(fast, oracle)).toBeLessThan(1e-9);
      }
    }
    console.log(`AccelerationDeltas vs M^-1 J^T: worst relative error ${worst.toExponential(2)}`);
  });

  it('a unit force at a world point along a world direction equals M^-1 Jp^T d', () => {
    const r = rng(5);
    for (let trial = 0; trial < 40; trial++) {
      const model = randomModel(r, { links: 2 + Math.floor(r() * 15) });
      const state = randomState(r, model);
      const nv = model.nv;
      const M = massMatrix(model, state, new Float64Array(nv * nv));
      forwardDynamics(model, state);
      const l = Math.floor(r() * model.nLinks);
      const local = [r() - 0.5, r() - 0.5, r() - 0.5];
      const point = new Float64Array(3);
      pointPosition(state, l, local, point);
      const dir = unitVec(r);
      const out = accelerationDeltas(model, state, { link: l, point, direction: dir }, new Float64Array(nv));
      const Jp = new Float64Array(3 * nv);
      pointJacobian(model, state, l, local, Jp);
      const gen = new Float64Array(nv);
      for (let d = 0; d < nv; d++) gen[d] = Jp[d] * dir[0] + Jp[nv + d] * dir[1] + Jp[2 * nv + d] * dir[2];
      expect(relErr(out, solveDense(M, gen, nv))).toBeLessThan(1e-9);
    }
  });

  it('split in its inbound and outbound halves: the outbound of a sum of inbound results (given as du or as D^-1 du) is the sum of the deltas, and u . D^-1 u\' is the pairing J M^-1 J\'^T (60 random trees, forces on links and on joints)', () => {
    const r = rng(77);
    let worst = 0;
    for (let trial = 0; trial < 60; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 20) });
      const state = randomState(r, model);
      state.implicitDampingStep = r() < 0.5 ? 0 : 0.02;
      const nv = model.nv;
      forwardDynamics(model, state);
      // two test forces: a spatial force on one link, a joint force on another link's joint
      const la = Math.floor(r() * model.nLinks), lb = Math.floor(r() * model.nLinks);
      const fa = Float64Array.from({ length: 6 }, () => 2 * r() - 1);
      const jb = Float64Array.from({ length: 6 }, () => 2 * r() - 1);
      const dofs = new Int32Array(nv), du = new Float64Array(nv), w = new Float64Array(nv);
      const na = accelerationDeltasInbound(model, state, la, fa, 0, null, 0, dofs, du, w, 0);
      const ua = new Float64Array(nv), wa = new Float64Array(nv);
      for (let k = 0; k < na; k++) { ua[dofs[k]] = du[k]; wa[dofs[k]] = w[k]; }
      const nb = accelerationDeltasInbound(model, state, lb, null, 0, jb, 0, dofs, du, w, 0);
      const ub = new Float64Array(nv), wb = new Float64Array(nv);
      for (let k = 0; k < nb; k++) { ub[dofs[k]] = du[k]; wb[dofs[k]] = w[k]; }
      // the path: every dof of the link and its ancestors, each once
      let count = 0;
      for (let i = la; i >= 0; i = model.parent[i]) count += model.jointNv[i];
      expect(na).toBe(count);
      // full deltas of each, and of both at once through the outbound half
      const da = accelerationDeltasForce(model, state, la, fa, 0, new Float64Array(nv));
      const db = accelerationDeltasJointForce(model, state, lb, jb, 0, new Float64Array(nv));
      const sum = new Float64Array(nv);
      for (let d = 0; d < nv; d++) sum[d] = ua[d] + ub[d];
      const both = accelerationDeltasOutbound(model, state, sum, 0, new Float64Array(nv));
      const expected = Float64Array.from(da, (x, d) => x + db[d]);
      worst = Math.max(worst, relErr(both, expected));
      expect(relErr(both, expected)).toBeLessThan(1e-9);
      // the same from z = D^-1 du (the inbound halves' D^-1 u entries summed), as the solver keeps it
      const z = Float64Array.from(wa, (x, d) => x + wb[d]);
      const fromZ = accelerationDeltasOutboundScaled(model, state, z, 0, new Float64Array(nv));
      worst = Math.max(worst, relErr(fromZ, expected));
      expect(relErr(fromZ, expected)).toBeLessThan(1e-9);
      // the pairing: J_b^T of the joint force on b's dofs, against the response to a
      const v0 = model.vOffset[lb];
      let pairing = 0;
      for (let k = 0; k < model.jointNv[lb]; k++) pairing += jb[k] * da[v0 + k];
      let viaInbound = 0;
      for (let d = 0; d < nv; d++) viaInbound += ub[d] * wa[d];
      expect(Math.abs(viaInbound - pairing)).toBeLessThan(1e-9 * Math.max(1, Math.abs(pairing)));
    }
    console.log(`inbound + outbound halves (from du and from D^-1 du) vs AccelerationDeltas: worst relative error ${worst.toExponential(2)}`);
  });

  it('in batches: up to INBOUND_BATCH forces on one link give, to the bit, what one inbound half each gives, dof indices offset by dofBase (60 random trees, every joint type)', () => {
    const r = rng(91);
    let forces = 0;
    for (let trial = 0; trial < 60; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 20) });
      const state = randomState(r, model);
      state.implicitDampingStep = r() < 0.5 ? 0 : 0.02;
      forwardDynamics(model, state);
      const link = Math.floor(r() * model.nLinks), count = 1 + Math.floor(r() * INBOUND_BATCH), stride = 6 + Math.floor(r() * 7);
      const f = Float64Array.from({ length: 3 + stride * count }, () => 2 * r() - 1);
      const size = count * model.nv + 5;
      const dofs = new Int32Array(size), du = new Float64Array(size), w = new Float64Array(size);
      // (the batch writes its dof indices plus a base, as a caller keeping several bodies' dofs in one array asks)
      const base = Math.floor(r() * 100);
      const n = accelerationDeltasInboundBatch(model, state, link, f, 3, stride, count, dofs, du, w, 5, base);
      const one = { dofs: new Int32Array(model.nv), du: new Float64Array(model.nv), w: new Float64Array(model.nv) };
      for (let v = 0; v < count; v++) {
        expect(accelerationDeltasInbound(model, state, link, f, 3 + v * stride, null, 0, one.dofs, one.du, one.w, 0)).toBe(n);
        for (let k = 0; k < n; k++) {
          expect(dofs[5 + v * n + k]).toBe(one.dofs[k] + base);
          expect(du[5 + v * n + k]).toBe(one.du[k]);
          expect(w[5 + v * n + k]).toBe(one.w[k]);
        }
        forces++;
      }
    }
    expect(forces).toBeGreaterThan(150);
    const model = randomModel(rng(3), { links: 3 });
    const state = randomState(rng(4), model);
    forwardDynamics(model, state);
    const big = new Float64Array(6 * (INBOUND_BATCH + 1)), out = new Float64Array(64);
    expect(() => accelerationDeltasInboundBatch(model, state, 0, big, 0, 6, INBOUND_BATCH + 1, new Int32Array(64), out, out, 0)).toThrow(/count must be/);
  });

  it('for a pair of forces on two links of one tree: each joint once, u = u_A + u_B and u . D^-1 u as the two inbound halves give them (60 random trees and forests)', () => {
    const r = rng(77);
    let shared = 0, worst = 0;
    for (let trial = 0; trial < 60; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 20) });
      const state = randomState(r, model);
      forwardDynamics(model, state);
      const nv = model.nv;
      const la = Math.floor(r() * model.nLinks), lb = r() < 0.1 ? la : Math.floor(r() * model.nLinks);
      const f = Float64Array.from({ length: 14 }, () => 2 * r() - 1);
      // the two halves alone, summed per dof
      const u = new Float64Array(nv), w = new Float64Array(nv);
      const sides: { dofs: Int32Array; du: Float64Array; w: Float64Array; n: number }[] = [];
      for (const [link, fo] of [[la, 1], [lb, 8]]) {
        const one = { dofs: new Int32Array(nv), du: new Float64Array(nv), w: new Float64Array(nv), n: 0 };
        one.n = accelerationDeltasInbound(model, state, link, f, fo, null, 0, one.dofs, one.du, one.w, 0);
        for (let k = 0; k < one.n; k++) { u[one.dofs[k]] += one.du[k]; w[one.dofs[k]] += one.w[k]; }
        sides.push(one);
      }
      // u_A . D^-1 u_A + u_B . D^-1 u_B + 2 u_A . D^-1 u_B over the joints both paths share
      const wB = new Float64Array(nv), onB = new Uint8Array(nv);
      for (let k = 0; k < sides[1].n; k++) { wB[sides[1].dofs[k]] = sides[1].w[k]; onB[sides[1].dofs[k]] = 1; }
      let diag = 0, cross = 0;
      for (const one of sides) for (let k = 0; k < one.n; k++) diag += one.du[k] * one.w[k];
      for (let k = 0; k < sides[0].n; k++) if (onB[sides[0].dofs[k]]) { cross += sides[0].du[k] * wB[sides[0].dofs[k]]; shared++; }
      diag += 2 * cross;
      const base = Math.floor(r() * 50);
      const dofs = new Int32Array(2 * nv + 3), du = new Float64Array(2 * nv + 3), dw = new Float64Array(2 * nv + 3);
      const n = accelerationDeltasInboundPair(model, state, la, lb, f, 1, 8, dofs, du, dw, 3, base);
      const seen = new Uint8Array(nv), pu = new Float64Array(nv), pw = new Float64Array(nv);
      let pairDiag = 0;
      for (let k = 3; k < 3 + n; k++) {
        const d = dofs[k] - base;
        expect(seen[d]).toBe(0); // each joint once
        seen[d] = 1;
        pu[d] = du[k]; pw[d] = dw[k];
        pairDiag += du[k] * dw[k];
      }
      // the union of the two paths, nothing else
      for (let d = 0; d < nv; d++) expect(seen[d]).toBe(sides.some((one) => one.dofs.subarray(0, one.n).includes(d)) ? 1 : 0);
      const scale = Math.max(1, ...Array.from(u, Math.abs), ...Array.from(w, Math.abs));
      for (let d = 0; d < nv; d++) {
        worst = Math.max(worst, Math.abs(pu[d] - u[d]) / scale, Math.abs(pw[d] - w[d]) / scale);
      }
      worst = Math.max(worst, Math.abs(pairDiag - diag) / Math.max(1, Math.abs(diag)));
    }
    console.log(`inbound pair vs two inbound halves: worst relative error ${worst.toExponential(2)}, ${shared} shared dofs`);
    expect(shared).toBeGreaterThan(50);
    expect(worst).toBeLessThan(1e-12);
  });

  it('for forces on many links and joints at once: the test-force method with all of them applied in one ABA call, and the sum of one call each, and its z = D^-1 du through the scaled outbound pass (60 random trees and forests)', () => {
    const r = rng(303);
    let worstAba = 0, worstSum = 0, worstZ = 0;
    for (let trial = 0; trial < 60; trial++) {
      const model = randomModel(r, { links: 1 + Math.floor(r() * 25) });
      const state = randomState(r, model);
      const nv = model.nv, n = model.nLinks;
      forwardDynamics(model, state);
      const qdd0 = Float64Array.from(state.work.qdd);
      // a force on about half the links, a torque on about half the dofs (offsets 3 and 5)
      const f = new Float64Array(3 + 6 * n), tau = new Float64Array(5 + nv);
      for (let l = 0; l < n; l++) if (r() < 0.5) for (let e = 0; e < 6; e++) f[3 + 6 * l + e] = 2 * r() - 1;
      for (let d = 0; d < nv; d++) if (r() < 0.5) tau[5 + d] = 2 * r() - 1;
      const z = new Float64Array(2 + nv);
      const all = accelerationDeltasForces(model, state, f, 3, tau, 5, new Float64Array(nv), z, 2);
      // z = D^-1 du joint by joint: the outbound pass from it gives the same accelerations
      const fromZ = accelerationDeltasOutboundScaled(model, state, z, 2, new Float64Array(nv));
      worstZ = Math.max(worstZ, relErr(fromZ, all));
      // one call per link and per joint, summed
      const sum = new Float64Array(nv), one = new Float64Array(nv);
      for (let l = 0; l < n; l++) {
        accelerationDeltasForce(model, state, l, f, 3 + 6 * l, one);
        for (let d = 0; d < nv; d++) sum[d] += one[d];
        if (model.jointNv[l] === 0) continue;
        accelerationDeltasJointForce(model, state, l, tau, 5 + model.vOffset[l], one);
        for (let d = 0; d < nv; d++) sum[d] += one[d];
      }
      // ABA with every force applied (world coordinates) and every torque added: minus qdd0
      const ext = state.fext;
      const fw = new Float64Array(6);
      for (let l = 0; l < n; l++) {
        forceLinkToWorld(state.work.pose, 12 * l, f, 3 + 6 * l, fw, 0);
        for (let e = 0; e < 6; e++) ext[6 * l + e] += fw[e];
      }
      for (let d = 0; d < nv; d++) state.tau[d] += tau[5 + d];
      const loaded = forwardDynamics(model, state, new Float64Array(nv));
      for (let d = 0; d < nv; d++) loaded[d] -= qdd0[d];
      worstAba = Math.max(worstAba, relErr(all, loaded));
      worstSum = Math.max(worstSum, relErr(all, sum));
    }
    console.log(`accelerationDeltasForces vs loaded ABA: ${worstAba.toExponential(2)}, vs the sum of single calls: ${worstSum.toExponential(2)}, outbound from its z: ${worstZ.toExponential(2)}`);
    expect(worstAba).toBeLessThan(1e-9);
    expect(worstSum).toBeLessThan(1e-12);
    expect(worstZ).toBeLessThan(1e-12);
  });

  it('refuses to run before forwardDynamics has left its quantities', () => {
    const r = rng(1);
    const model = randomModel(r, { links: 3 });
    const state = randomState(r, model);
    expect(() => accelerationDeltasTorque(model, state, 0, 1, new Float64Array(model.nv))).toThrow(/forwardDynamics/);
  });
});
