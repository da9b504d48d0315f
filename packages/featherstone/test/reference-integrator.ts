/**
 * A classical fourth-order Runge-Kutta integrator over (q, qd), used by tests that check
 * conservation laws of the dynamics (forwardDynamics) to a bound far below the first-order error
 * of the package's semi-implicit Euler.
 *
 * Position derivatives per joint (layouts of joints.ts):
 *   revolute, prismatic:  q' = qd
 *   spherical:            Q' = 1/2 Q (x) [w; 0]          (w: angular velocity in the link frame)
 *   free:                 p' = R(Q) v,  Q' = 1/2 Q (x) [w; 0]
 * Quaternions are normalised before every evaluation: the vector field f(P(y)) (P the projection
 * onto unit quaternions) agrees with f on the manifold, where the exact solution lives, so RK4
 * keeps its fourth order.
 */
import { forwardDynamics, JointType, type Model, type State } from '../src/index.js';

export class Rk4 {
  private readonly y0q: Float64Array;
  private readonly y0v: Float64Array;
  private readonly kq: Float64Array[];
  private readonly kv: Float64Array[];

  constructor(private readonly model: Model) {
    this.y0q = new Float64Array(model.nq);
    this.y0v = new Float64Array(model.nv);
    this.kq = [0, 1, 2, 3].map(() => new Float64Array(model.nq));
    this.kv = [0, 1, 2, 3].map(() => new Float64Array(model.nv));
  }

  /** Advances state by one step h with its tau, fext and gravity held. */
  step(state: State, h: number): void {
    const { y0q, y0v, kq, kv } = this;
    y0q.set(state.q);
    y0v.set(state.qd);
    const c = [0, 0.5, 0.5, 1];
    for (let s = 0; s < 4; s++) {
      if (s > 0) {
        for (let k = 0; k < y0q.length; k++) state.q[k] = y0q[k] + c[s] * h * kq[s - 1][k];
        for (let k = 0; k < y0v.length; k++) state.qd[k] = y0v[k] + c[s] * h * kv[s - 1][k];
      }
      this.derivative(state, kq[s], kv[s]);
    }
    for (let k = 0; k < y0q.length; k++) state.q[k] = y0q[k] + (h / 6) * (kq[0][k] + 2 * kq[1][k] + 2 * kq[2][k] + kq[3][k]);
    for (let k = 0; k < y0v.length; k++) state.qd[k] = y0v[k] + (h / 6) * (kv[0][k] + 2 * kv[1][k] + 2 * kv[2][k] + kv[3][k]);
    normaliseQuaternions(this.model, state.q);
    state.work.dynamicsValid = false;
  }

  /** dq (nq) and dqd (nv) at the state (whose quaternions are normalised first). */
  derivative(state: State, dq: Float64Array, dqd: Float64Array): void {
    const m = this.model, q = state.q, qd = state.qd;
    normaliseQuaternions(m, q);
    forwardDynamics(m, state, dqd);
    for (let i = 0; i < m.nLinks; i++) {
      const t = m.jointType[i], qo = m.qOffset[i], vo = m.vOffset[i];
      if (t === JointType.revolute || t === JointType.prismatic) dq[qo] = qd[vo];
      else if (t === JointType.spherical) quatRate(q, qo, qd[vo], qd[vo + 1], qd[vo + 2], dq, qo);
      else if (t === JointType.free) {
        const x = q[qo + 3], y = q[qo + 4], z = q[qo + 5], w = q[qo + 6];
        const vx = qd[vo + 3], vy = qd[vo + 4], vz = qd[vo + 5];
        // R(Q) v written out from the rotation matrix of a unit quaternion
        dq[qo] = (1 - 2 * (y * y + z * z)) * vx + 2 * (x * y - w * z) * vy + 2 * (x * z + w * y) * vz;
        dq[qo + 1] = 2 * (x * y + w * z) * vx + (1 - 2 * (x * x + z * z)) * vy + 2 * (y * z - w * x) * vz;
        dq[qo + 2] = 2 * (x * z - w * y) * vx + 2 * (y * z + w * x) * vy + (1 - 2 * (x * x + y * y)) * vz;
        quatRate(q, qo + 3, qd[vo], qd[vo + 1], qd[vo + 2], dq, qo + 3);
      }
    }
  }
}

/** out = 1/2 Q (x) [w; 0] for Q = [x, y, z, w] (Hamilton product, body-frame rate). */
function quatRate(q: Float64Array, qo: number, wx: number, wy: number, wz: number, out: Float64Array, oo: number): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  out[oo] = 0.5 * (w * wx + y * wz - z * wy);
  out[oo + 1] = 0.5 * (w * wy + z * wx - x * wz);
  out[oo + 2] = 0.5 * (w * wz + x * wy - y * wx);
  out[oo + 3] = -0.5 * (x * wx + y * wy + z * wz);
}

export function normaliseQuaternions(model: Model, q: Float64Array): void {
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i];
    if (t !== JointType.spherical && t !== JointType.free) continue;
    const o = model.qOffset[i] + (t === JointType.free ? 3 : 0);
    const n = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]);
    for (let k = 0; k < 4; k++) q[o + k] /= n;
  }
}
