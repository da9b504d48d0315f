/**
 * A spherical joint is the composition of three revolute joints about x, y, z of the same frame,
 * joined by two massless links of zero length: the same rigid-body system in other coordinates.
 *
 * Oracle. Model S has a spherical joint (coordinates: quaternion Q, angular velocity w in the link
 * frame). Model R replaces it by revolute joints about x, then y, then z, at the same place, with
 * angles theta = (a, b, c), so that the link's orientation in the joint frame is
 * Rx(a) Ry(b) Rz(c) = R(Q). Its body angular velocity is
 *   w = E(theta) theta',  E = [Rz^T Ry^T e_x, Rz^T e_y, e_z]
 *     = [[cb cc, sc, 0], [-cb sc, cc, 0], [sb, 0, 1]]
 * and therefore w' = E theta'' + E' theta'. By the principle of virtual work the joint torques map as
 * tau_theta = E^T tau_w, and the mass matrices as M_R = T^T M_S T with T = diag(1, E, 1) (qd_S = T qd_R).
 * So at matching states ABA on R, mapped through E, must give ABA on S; and the CRBA mass matrix
 * of R must equal T^T M_S T. The two models share no joint code path for the ball: R runs the
 * revolute (nv = 1) branches, S the 3-dof branches.
 *
 * Massless links: ModelBuilder refuses a zero mass (it is almost always an input error), but the
 * dynamics are well defined for massless links whose subtree has a full-rank inertia, as here.
 * The split model is therefore built with placeholder masses on the two intermediate links, and
 * their spatial inertias are then set to exactly zero in the built model's arrays.
 */
import { describe, expect, it } from 'vitest';
import {
  forwardDynamics,
  forwardKinematics,
  kineticEnergy,
  massMatrix,
  ModelBuilder,
  State,
  type JointSpec,
  type JointTypeName,
  type Model,
} from '../src/index.js';
import { randomInertia, rng, unitQuat, unitVec } from './random-model.js';

interface BodySpec {
  mass: number;
  com: [number, number, number];
  inertia: number[];
}

function body(r: () => number): BodySpec {
  const mass = 0.3 + 2 * r();
  return { mass, com: [r() - 0.5, r() - 0.5, r() - 0.5], inertia: randomInertia(r, mass) };
}

function jointOf(r: () => number, type: JointTypeName): JointSpec {
  return {
    type,
    axis: type === 'revolute' || type === 'prismatic' ? unitVec(r) : undefined,
    position: [r() - 0.5, r() - 0.5, r() - 0.5],
    rotation: unitQuat(r),
  };
}

/** Builds S (spherical ball) and R (three revolutes, two massless links) from the same random draws. */
function buildPair(r: () => number): { S: Model; R: Model } {
  const baseType = (['revolute', 'free', 'spherical'] as const)[Math.floor(r() * 3)];
  const base = { joint: jointOf(r, baseType), ...body(r) };
  const ballJoint = jointOf(r, 'spherical');
  const ball = body(r);
  const tip = { joint: jointOf(r, 'revolute'), ...body(r) };
  const side = { joint: jointOf(r, 'prismatic'), ...body(r) };

  const bS = new ModelBuilder();
  bS.addLink({ name: 'base', parent: null, ...base });
  bS.addLink({ name: 'ball', parent: 'base', joint: ballJoint, ...ball });
  bS.addLink({ name: 'tip', parent: 'ball', ...tip });
  bS.addLink({ name: 'side', parent: 'base', ...side });

  const bR = new ModelBuilder();
  const placeholder = { mass: 1, inertia: [1, 1, 1, 0, 0, 0] };
  bR.addLink({ name: 'base', parent: null, ...base });
  bR.addLink({ name: 'ballX', parent: 'base', joint: { type: 'revolute', axis: [1, 0, 0], position: ballJoint.position, rotation: ballJoint.rotation }, ...placeholder });
  bR.addLink({ name: 'ballY', parent: 'ballX', joint: { type: 'revolute', axis: [0, 1, 0] }, ...placeholder });
  bR.addLink({ name: 'ball', parent: 'ballY', joint: { type: 'revolute', axis: [0, 0, 1] }, ...ball });
  bR.addLink({ name: 'tip', parent: 'ball', ...tip });
  bR.addLink({ name: 'side', parent: 'base', ...side });
  const R = bR.build();
  for (const name of ['ballX', 'ballY']) {
    const i = R.linkIndex(name);
    R.I.fill(0, 36 * i, 36 * i + 36);
    R.mass[i] = 0;
    R.inertiaCom.fill(0, 6 * i, 6 * i + 6);
  }
  return { S: bS.build(), R };
}

/** Hamilton product of [x, y, z, w] quaternions, written out here. */
function qmul(a: number[], b: number[]): number[] {
  const [ax, ay, az, aw] = a, [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** E(theta) (row-major 3x3) and E'(theta, theta') theta'. */
function eulerRates(a: number, b: number, c: number, ad: number, bd: number, cd: number): { E: number[]; Edot_td: number[] } {
  void a;
  const cb = Math.cos(b), sb = Math.sin(b), cc = Math.cos(c), sc = Math.sin(c);
  const E = [cb * cc, sc, 0, -cb * sc, cc, 0, sb, 0, 1];
  // d/dt of column 1 [cb cc, -cb sc, sb] and of column 2 [sc, cc, 0]
  const d1 = [-sb * cc * bd - cb * sc * cd, sb * sc * bd - cb * cc * cd, cb * bd];
  const d2 = [cc * cd, -sc * cd, 0];
  return { E, Edot_td: [0, 1, 2].map((k) => d1[k] * ad + d2[k] * bd) };
}

describe('a spherical joint == three revolute joints (x, y, z) on massless zero-length links', () => {
  it('same poses, kinetic energy, ABA accelerations (w\' = E theta\'\' + E\' theta\') and mass matrix (M_R = T^T M_S T) at 100 random states', () => {
    const r = rng(4242);
    let worstQdd = 0, worstM = 0;
    for (let trial = 0; trial < 100; trial++) {
      const { S, R } = buildPair(r);
      const sS = new State(S), sR = new State(R);
      // base, tip, side: same coordinates in both models
      const baseType = S.jointType[0];
      if (baseType === 1) sS.q[0] = 2 * r() - 1;
      else {
        const o = baseType === 4 ? 3 : 0;
        if (o) sS.q.set([r() - 0.5, r() - 0.5, r() - 0.5], 0);
        sS.q.set(unitQuat(r), o);
      }
      const a = Math.PI * (2 * r() - 1), b = 1.2 * (2 * r() - 1), c = Math.PI * (2 * r() - 1);
      const ad = 2 * r() - 1, bd = 2 * r() - 1, cd = 2 * r() - 1;
      const Q = qmul(qmul([Math.sin(a / 2), 0, 0, Math.cos(a / 2)], [0, Math.sin(b / 2), 0, Math.cos(b / 2)]), [0, 0, Math.sin(c / 2), Math.cos(c / 2)]);
      const { E, Edot_td } = eulerRates(a, b, c, ad, bd, cd);
      const w = [0, 1, 2].map((k) => E[3 * k] * ad + E[3 * k + 1] * bd + E[3 * k + 2] * cd);
      const tauW = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
      const jS = { base: S.joint('base'), ball: S.joint('ball'), tip: S.joint('tip'), side: S.joint('side') };
      const jR = { base: R.joint('base'), x: R.joint('ballX'), tip: R.joint('tip'), side: R.joint('side') };

      sS.q.set(Q, jS.ball.q);
      sS.q[jS.tip.q] = 2 * r() - 1;
      sS.q[jS.side.q] = r() - 0.5;
      for (let d = 0; d < S.nv; d++) { sS.qd[d] = 2 * r() - 1; sS.tau[d] = 2 * r() - 1; }
      sS.qd.set(w, jS.ball.v);
      sS.tau.set(tauW, jS.ball.v);
      for (let k = 0; k < sS.fext.length; k++) sS.fext[k] = 2 * r() - 1;

      // the same state in R's coordinates
      sR.q.set(sS.q.subarray(0, jS.base.nq), 0);
      sR.q[jR.x.q] = a; sR.q[jR.x.q + 1] = b; sR.q[jR.x.q + 2] = c;
      sR.q[jR.tip.q] = sS.q[jS.tip.q];
      sR.q[jR.side.q] = sS.q[jS.side.q];
      for (const [js, jr] of [[jS.base, jR.base], [jS.tip, jR.tip], [jS.side, jR.side]] as const) {
        for (let k = 0; k < js.nv; k++) { sR.qd[jr.v + k] = sS.qd[js.v + k]; sR.tau[jr.v + k] = sS.tau[js.v + k]; }
      }
      sR.qd[jR.x.v] = ad; sR.qd[jR.x.v + 1] = bd; sR.qd[jR.x.v + 2] = cd;
      for (let k = 0; k < 3; k++) sR.tau[jR.x.v + k] = E[k] * tauW[0] + E[3 + k] * tauW[1] + E[6 + k] * tauW[2]; // E^T tau_w
      for (const name of ['base', 'ball', 'tip', 'side']) {
        const ls = S.linkIndex(name), lr = R.linkIndex(name);
        sR.fext.set(sS.fext.subarray(6 * ls, 6 * ls + 6), 6 * lr);
      }

      // matching configurations: every real link at the same pose, same kinetic energy
      forwardKinematics(S, sS);
      forwardKinematics(R, sR);
      for (const name of ['base', 'ball', 'tip', 'side']) {
        const ls = S.linkIndex(name), lr = R.linkIndex(name);
        for (let k = 0; k < 12; k++) expect(Math.abs(sS.work.pose[12 * ls + k] - sR.work.pose[12 * lr + k])).toBeLessThan(1e-13);
      }
      const ke = kineticEnergy(S, sS);
      expect(Math.abs(kineticEnergy(R, sR) - ke)).toBeLessThan(1e-12 * Math.max(1, ke));

      // ABA
      const qddS = forwardDynamics(S, sS, new Float64Array(S.nv));
      const qddR = forwardDynamics(R, sR, new Float64Array(R.nv));
      const scale = Math.max(1, ...Array.from(qddS, Math.abs));
      const check = (x: number, y: number) => {
        worstQdd = Math.max(worstQdd, Math.abs(x - y) / scale);
        expect(Math.abs(x - y)).toBeLessThan(1e-9 * scale);
      };
      for (const [js, jr] of [[jS.base, jR.base], [jS.tip, jR.tip], [jS.side, jR.side]] as const) {
        for (let k = 0; k < js.nv; k++) check(qddR[jr.v + k], qddS[js.v + k]);
      }
      const th = [qddR[jR.x.v], qddR[jR.x.v + 1], qddR[jR.x.v + 2]];
      for (let k = 0; k < 3; k++) check(E[3 * k] * th[0] + E[3 * k + 1] * th[1] + E[3 * k + 2] * th[2] + Edot_td[k], qddS[jS.ball.v + k]);

      // CRBA: M_R = T^T M_S T
      const MS = massMatrix(S, sS, new Float64Array(S.nv * S.nv));
      const MR = massMatrix(R, sR, new Float64Array(R.nv * R.nv));
      // T (S.nv x R.nv): identity on base, tip, side; E on the ball
      const T = new Float64Array(S.nv * R.nv);
      for (const [js, jr] of [[jS.base, jR.base], [jS.tip, jR.tip], [jS.side, jR.side]] as const) {
        for (let k = 0; k < js.nv; k++) T[(js.v + k) * R.nv + jr.v + k] = 1;
      }
      for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) T[(jS.ball.v + i) * R.nv + jR.x.v + k] = E[3 * i + k];
      const mScale = Math.max(...Array.from(MS, Math.abs));
      for (let i = 0; i < R.nv; i++) {
        for (let j = 0; j < R.nv; j++) {
          let s = 0;
          for (let p = 0; p < S.nv; p++) for (let q = 0; q < S.nv; q++) s += T[p * R.nv + i] * MS[p * S.nv + q] * T[q * R.nv + j];
          worstM = Math.max(worstM, Math.abs(MR[i * R.nv + j] - s) / mScale);
          expect(Math.abs(MR[i * R.nv + j] - s)).toBeLessThan(1e-12 * mScale);
        }
      }
    }
    console.log(`spherical vs x-y-z revolute split: worst qdd error ${worstQdd.toExponential(2)}, worst M error ${worstM.toExponential(2)} (relative)`);
  });
});
