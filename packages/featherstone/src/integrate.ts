/**
 * Time integration in reduced coordinates: semi-implicit (symplectic) Euler, qd += dt qdd, then
 * q moves along the new qd, with quaternions of spherical and free joints advanced on the
 * manifold and renormalised (joints.ts).
 *
 * A free joint's linear velocity v is that of the link origin in the link's own (turning) frame,
 * so its rate qdd holds the term -w x v of a frame that turns under a constant world velocity
 * (v_dot = R^T u_dot - w x v). Stepped by Euler, that term rotates v by the tangent of the turn
 * rather than the turn itself and |v| grows by sqrt(1 + (w dt)^2) a step: a spinning ball would
 * speed up. The free joint therefore takes the turn exactly (advanceFreeJoint).
 */
import { forwardDynamics } from './aba.js';
import { integrateJoint, JointType } from './joints.js';
import type { Model } from './model.js';
import type { Arr } from './spatial.js';
import type { State } from './state.js';
import { forwardKinematics } from './kinematics.js';
import { freeRootCount, freeRootMomenta, restoreFreeRootMomenta } from './momentum-correction.js';

/**
 * One semi-implicit Euler step with the given accelerations. For models with free-floating roots
 * the root velocities are then corrected so the position update changes no momentum
 * (momentum-correction.ts); `preserveMomentum: false` skips that.
 */
export function integrateSemiImplicit(model: Model, state: State, qdd: ArrayLike<number>, dt: number, preserveMomentum = true): void {
  const { q, qd } = state;
  const roots = preserveMomentum ? freeRootCount(model) : 0;
  if (roots > 0 && model.nLinks > 1) {
    const target = state.work.momentumScratch;
    forwardKinematics(model, state, true);
    freeRootMomenta(model, state, qdd, dt, target);
    advanceJoints(model, q, qd, qdd, dt);
    restoreFreeRootMomenta(model, state, target);
  } else {
    advanceJoints(model, q, qd, qdd, dt);
  }
  state.work.dynamicsValid = false;
}

/** qd += dt qdd and q moves along the new qd, joint by joint (free joints: advanceFreeJoint). */
function advanceJoints(model: Model, q: Arr, qd: Arr, qdd: ArrayLike<number>, dt: number): void {
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i], vo = model.vOffset[i];
    if (t === JointType.free) { advanceFreeJoint(q, model.qOffset[i], qd, vo, qdd, dt); continue; }
    for (let d = vo; d < vo + model.jointNv[i]; d++) qd[d] += dt * qdd[d];
    integrateJoint(t, q, model.qOffset[i], qd, vo, dt);
  }
}

/**
 * One step of a free joint. The link-frame velocity obeys v_dot = a - w x v, a = v_dot + w x v
 * being the classical acceleration of the origin (link frame). Euler's v + h v_dot takes the turn
 * -w x v along its tangent, which lengthens v by sqrt(1 + (w h)^2): a spinning body speeds up.
 * Here the turn is exact and a is taken by Euler, with w the new angular velocity:
 *   v(h) = exp(-[w] h) v + h a,
 * which keeps |v| of a body spinning in free flight and v of a body turning about a fixed point,
 * and agrees with the constraint solver's qd + h qdd to O(h^2). The pose then moves along the new
 * twist (w, v(h)) as before (integrateJoint: the translation turned by the midpoint orientation),
 * like every other joint of semi-implicit Euler: a point held still by a constraint at the new
 * velocities stays still.
 */
function advanceFreeJoint(q: Arr, qo: number, qd: Arr, vo: number, qdd: ArrayLike<number>, dt: number): void {
  const w0x = qd[vo], w0y = qd[vo + 1], w0z = qd[vo + 2];
  const vx = qd[vo + 3], vy = qd[vo + 4], vz = qd[vo + 5];
  // classical acceleration of the origin (link frame)
  const ax = qdd[vo + 3] + (w0y * vz - w0z * vy);
  const ay = qdd[vo + 4] + (w0z * vx - w0x * vz);
  const az = qdd[vo + 5] + (w0x * vy - w0y * vx);
  const wx = w0x + dt * qdd[vo], wy = w0y + dt * qdd[vo + 1], wz = w0z + dt * qdd[vo + 2];
  qd[vo] = wx; qd[vo + 1] = wy; qd[vo + 2] = wz;
  const s = freeScratch;
  rotateByRate(wx, wy, wz, -dt, vx, vy, vz, s, 0);
  qd[vo + 3] = s[0] + dt * ax; qd[vo + 4] = s[1] + dt * ay; qd[vo + 5] = s[2] + dt * az;
  integrateJoint(JointType.free, q, qo, qd, vo, dt);
}

const freeScratch = new Float64Array(3);

/** out[oo..oo+2] = exp([w] t) u: u turned by the angle |w| t about w (through the unit quaternion of half that angle). */
function rotateByRate(wx: number, wy: number, wz: number, t: number, ux: number, uy: number, uz: number, out: Float64Array, oo: number): void {
  const hx = 0.5 * t * wx, hy = 0.5 * t * wy, hz = 0.5 * t * wz;
  const th = Math.sqrt(hx * hx + hy * hy + hz * hz);
  const k = th < 1e-8 ? 1 - (th * th) / 6 : Math.sin(th) / th;
  const rx = hx * k, ry = hy * k, rz = hz * k, rw = Math.cos(th);
  const tx = 2 * (ry * uz - rz * uy), ty = 2 * (rz * ux - rx * uz), tz = 2 * (rx * uy - ry * ux);
  out[oo] = ux + rw * tx + (ry * tz - rz * ty);
  out[oo + 1] = uy + rw * ty + (rz * tx - rx * tz);
  out[oo + 2] = uz + rw * tz + (rx * ty - ry * tx);
}

/** q <- q (+) qd dt, joint by joint. */
export function integratePositions(model: Model, q: Arr, qd: ArrayLike<number>, dt: number): void {
  for (let i = 0; i < model.nLinks; i++) integrateJoint(model.jointType[i], q, model.qOffset[i], qd, model.vOffset[i], dt);
}

/**
 * Advances an unconstrained articulated body by dt in `substeps` equal semi-implicit Euler steps
 * (ABA each sub-step), with the state's torques and external forces held.
 */
export function simulate(model: Model, state: State, dt: number, substeps = 1): void {
  if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`simulate: time step must be a positive finite number, got ${dt}`);
  if (!(Number.isInteger(substeps) && substeps >= 1)) throw new RangeError(`simulate: substeps must be a positive integer, got ${substeps}`);
  const h = dt / substeps;
  for (let s = 0; s < substeps; s++) {
    const qdd = forwardDynamics(model, state);
    integrateSemiImplicit(model, state, qdd, h);
  }
}
