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
 * (momentum-correction.ts); `preserveMomentum: false` skips that. `freeFlight` (default true)
 * moves a free joint's origin by its world velocity at the end of the step (advanceFreeJoint);
 * false keeps the midpoint rule of integrateJoint, which a constraint solver that measured the
 * step's velocities in the links' starting frames was validated with.
 */
export function integrateSemiImplicit(model: Model, state: State, qdd: ArrayLike<number>, dt: number, preserveMomentum = true, freeFlight = true): void {
  const { q, qd } = state;
  const roots = preserveMomentum ? freeRootCount(model) : 0;
  if (roots > 0) {
    const target = state.work.momentumScratch;
    forwardKinematics(model, state, true);
    freeRootMomenta(model, state, qdd, dt, target);
    advanceJoints(model, q, qd, qdd, dt, freeFlight);
    restoreFreeRootMomenta(model, state, target);
  } else {
    advanceJoints(model, q, qd, qdd, dt, freeFlight);
  }
  state.work.dynamicsValid = false;
}

/** qd += dt qdd and q moves along the new qd, joint by joint (free joints: advanceFreeJoint). */
function advanceJoints(model: Model, q: Arr, qd: Arr, qdd: ArrayLike<number>, dt: number, freeFlight: boolean): void {
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i], vo = model.vOffset[i];
    if (t === JointType.free) { advanceFreeJoint(q, model.qOffset[i], qd, vo, qdd, dt, freeFlight); continue; }
    for (let d = vo; d < vo + model.jointNv[i]; d++) qd[d] += dt * qdd[d];
    integrateJoint(t, q, model.qOffset[i], qd, vo, dt);
  }
}

/**
 * One step of a free joint. The link-frame velocity obeys v_dot = a - w x v, a = v_dot + w x v
 * being the classical acceleration of the origin (link frame). Euler's v + h v_dot takes the turn
 * -w x v along its tangent, which lengthens v by sqrt(1 + (w h)^2): a spinning body speeds up.
 * Here the turn is exact, at the step's starting w, and a is taken by Euler:
 *   v(h) = exp(-[w] h) v + h a = v + h v_dot + d,   d = exp(-[w] h) v - v + h w x v,
 * which keeps |v| of a body spinning in free flight. d depends only on the state at the start of
 * the step (freeJointTurn), so a constraint solver that predicts qd + h qdd adds it and stays exact.
 * The orientation then turns by the new w; the origin moves by h times the world velocity at the
 * end of the step, R0 (v + h a), exact for Euler in the world frame (freeFlight; else by the
 * midpoint rule of integrateJoint).
 */
function advanceFreeJoint(q: Arr, qo: number, qd: Arr, vo: number, qdd: ArrayLike<number>, dt: number, freeFlight: boolean): void {
  const s = freeScratch;
  // freeFlight: the world velocity of the origin at the end of the step, u = R0 (v + h a) with
  // a = v_dot + w x v the classical acceleration (start frame and values), into s[0..2]: the origin
  // moves by h u, semi-implicit Euler in the world frame, whatever the spin (integrateJoint's
  // midpoint rule, right for a constant twist, would turn a spinning body's flight by half a
  // step's turn off its line)
  if (freeFlight) {
    const wx = qd[vo], wy = qd[vo + 1], wz = qd[vo + 2], vx = qd[vo + 3], vy = qd[vo + 4], vz = qd[vo + 5];
    const lx = vx + dt * (qdd[vo + 3] + wy * vz - wz * vy);
    const ly = vy + dt * (qdd[vo + 4] + wz * vx - wx * vz);
    const lz = vz + dt * (qdd[vo + 5] + wx * vy - wy * vx);
    const x = q[qo + 3], y = q[qo + 4], z = q[qo + 5], w = q[qo + 6];
    const tx = 2 * (y * lz - z * ly), ty = 2 * (z * lx - x * lz), tz = 2 * (x * ly - y * lx);
    s[0] = lx + w * tx + (y * tz - z * ty); s[1] = ly + w * ty + (z * tx - x * tz); s[2] = lz + w * tz + (x * ty - y * tx);
  }
  const ux = s[0], uy = s[1], uz = s[2];
  freeJointTurnAt(qd, vo, dt, s, 0);
  for (let e = 0; e < 6; e++) qd[vo + e] += dt * qdd[vo + e];
  qd[vo + 3] += s[3]; qd[vo + 4] += s[4]; qd[vo + 5] += s[5];
  if (!freeFlight) { integrateJoint(JointType.free, q, qo, qd, vo, dt); return; }
  // the orientation turns by the new angular velocity (as a ball joint's); the origin moves by h u
  integrateJoint(JointType.spherical, q, qo + 3, qd, vo, dt);
  q[qo] += dt * ux; q[qo + 1] += dt * uy; q[qo + 2] += dt * uz;
}

/**
 * The velocity change d that advanceFreeJoint adds to qd + h qdd over a step of dt, for every dof of
 * the model (zero except the linear dofs of free joints), from the current qd: a solver that
 * predicts the velocities after the step adds it (ConstraintSolver.setAccelerationRhs).
 */
export function freeJointTurn(model: Model, qd: ArrayLike<number>, dt: number, out: Arr): Arr {
  for (let d = 0; d < model.nv; d++) out[d] = 0;
  for (let i = 0; i < model.nLinks; i++) if (model.jointType[i] === JointType.free) freeJointTurnAt(qd, model.vOffset[i], dt, out, model.vOffset[i]);
  return out;
}

/** d = exp(-[w] dt) v - v + dt w x v into out[oo + 3 .. oo + 5] (out[oo .. oo + 2] = 0) for the free joint at vo. */
function freeJointTurnAt(qd: ArrayLike<number>, vo: number, dt: number, out: Arr, oo: number): void {
  const wx = qd[vo], wy = qd[vo + 1], wz = qd[vo + 2];
  const vx = qd[vo + 3], vy = qd[vo + 4], vz = qd[vo + 5];
  // exp(-[w] dt) v through the unit quaternion of half the angle
  const hx = -0.5 * dt * wx, hy = -0.5 * dt * wy, hz = -0.5 * dt * wz;
  const th = Math.sqrt(hx * hx + hy * hy + hz * hz);
  const k = th < 1e-8 ? 1 - (th * th) / 6 : Math.sin(th) / th;
  const rx = hx * k, ry = hy * k, rz = hz * k, rw = Math.cos(th);
  const tx = 2 * (ry * vz - rz * vy), ty = 2 * (rz * vx - rx * vz), tz = 2 * (rx * vy - ry * vx);
  const ex = vx + rw * tx + (ry * tz - rz * ty);
  const ey = vy + rw * ty + (rz * tx - rx * tz);
  const ez = vz + rw * tz + (rx * ty - ry * tx);
  out[oo] = 0; out[oo + 1] = 0; out[oo + 2] = 0;
  out[oo + 3] = ex - vx + dt * (wy * vz - wz * vy);
  out[oo + 4] = ey - vy + dt * (wz * vx - wx * vz);
  out[oo + 5] = ez - vz + dt * (wx * vy - wy * vx);
}

const freeScratch = new Float64Array(6);

/** q <- q (+) qd dt, joint by joint. */
export function integratePositions(model: Model, q: Arr, qd: ArrayLike<number>, dt: number): void {
  for (let i = 0; i < model.nLinks; i++) integrateJoint(model.jointType[i], q, model.qOffset[i], qd, model.vOffset[i], dt);
}

/**
 * Advances an unconstrained articulated body by dt in `substeps` equal semi-implicit Euler steps
 * (ABA each sub-step), with the state's torques and external forces held; joint damping is taken
 * implicitly (State.implicitDampingStep).
 */
export function simulate(model: Model, state: State, dt: number, substeps = 1): void {
  if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`simulate: time step must be a positive finite number, got ${dt}`);
  if (!(Number.isInteger(substeps) && substeps >= 1)) throw new RangeError(`simulate: substeps must be a positive integer, got ${substeps}`);
  const h = dt / substeps;
  state.work.dampingStep[0] = h; // joint damping by backward Euler: stable for any damping (State.implicitDampingStep)
  for (let s = 0; s < substeps; s++) {
    const qdd = forwardDynamics(model, state);
    integrateSemiImplicit(model, state, qdd, h);
  }
}
