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
import { expPureQuaternion, integrateJoint, JointType } from './joints.js';
import type { Model } from './model.js';
import type { Arr } from './spatial.js';
import type { State } from './state.js';
import { forwardKinematics } from './kinematics.js';
import { freeRootCount, freeRootMomenta, restoreFreeRootMomenta } from './momentum-correction.js';

/**
 * One semi-implicit Euler step with the given accelerations. For models with free-floating roots
 * the root velocities are then corrected so the position update changes no momentum
 * (momentum-correction.ts); `preserveMomentum: false` skips that. `worldRule` (default true)
 * moves free joints by semi-implicit Euler in the world frame; false by the screw of their new
 * twist (advanceFreeJoint has both rules and what each is exact for).
 */
export function integrateSemiImplicit(model: Model, state: State, qdd: ArrayLike<number>, dt: number, preserveMomentum = true, worldRule = true): void {
  const { q, qd } = state;
  const roots = preserveMomentum ? freeRootCount(model) : 0;
  if (roots > 0) {
    const target = state.work.momentumScratch;
    forwardKinematics(model, state, true);
    freeRootMomenta(model, state, qdd, dt, target);
    advanceJoints(model, q, qd, qdd, dt, worldRule);
    restoreFreeRootMomenta(model, state, target);
  } else {
    advanceJoints(model, q, qd, qdd, dt, worldRule);
  }
  state.work.dynamicsValid = false;
}

/** qd += dt qdd and q moves along the new qd, joint by joint (free joints: advanceFreeJoint). */
function advanceJoints(model: Model, q: Arr, qd: Arr, qdd: ArrayLike<number>, dt: number, worldRule: boolean): void {
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i], vo = model.vOffset[i];
    if (t === JointType.free) { advanceFreeJoint(q, model.qOffset[i], qd, vo, qdd, dt, worldRule); continue; }
    for (let d = vo; d < vo + model.jointNv[i]; d++) qd[d] += dt * qdd[d];
    integrateJoint(t, q, model.qOffset[i], qd, vo, dt);
  }
}

/**
 * One step of a free joint. With R0 the orientation at the start, v and w the link-frame
 * velocities and a = v_dot + w x v the classical acceleration of the origin (link frame), the
 * world velocity of the origin at the end of the step is u = R0 (v + h a). The angular velocity
 * becomes w' = w + h w_dot. Two rules move the body:
 *
 * - World rule (`worldRule`): semi-implicit Euler in the world frame. The origin moves by h u and
 *   the orientation turns by w' about it, R1 = R0 exp([w'] h); v is re-expressed in the turned
 *   frame, v' = exp(-[w'] h) (v + h a), so that R1 v' = u exactly. Exact for a body in flight
 *   whatever its spin, and for a ball rolling on the ground; what a row that measures the
 *   classical acceleration of a point predicts (the point's velocity after the step is its
 *   velocity now plus h times that acceleration), with the position following that velocity.
 * - Screw rule: v' = exp(-[w] h) v + h a, and the body moves along the constant twist (w', v')
 *   (integrateJoint's midpoint rule): exact for a body turning about a fixed pin, which the rows'
 *   velocity measures of a tree were validated with. For a rolling body the twist's axis runs
 *   through the contact point, and turning about it lifts the body off the ground by
 *   r (1 - cos(w h)) a step (3 mm for a 5 cm ball at 1 m/s at 60 Hz).
 *
 * Both take the frame's turn exactly (Euler's v + h v_dot takes the turn -w x v along its
 * tangent, which lengthens v by sqrt(1 + (w h)^2) a step: a spinning body would speed up).
 */
function advanceFreeJoint(q: Arr, qo: number, qd: Arr, vo: number, qdd: ArrayLike<number>, dt: number, worldRule: boolean): void {
  if (!worldRule) {
    // v' = (v + h v_dot) + d, d = exp(-[w] h) v - v + h w x v as freeJointTurn gives it
    const d = screwTurn;
    freeJointTurnAt(qd, vo, dt, d, 0);
    for (let e = 0; e < 6; e++) {
      qd[vo + e] += dt * qdd[vo + e];
      qd[vo + e] += d[e];
    }
    integrateJoint(JointType.free, q, qo, qd, vo, dt);
    return;
  }
  const wx = qd[vo], wy = qd[vo + 1], wz = qd[vo + 2], vx = qd[vo + 3], vy = qd[vo + 4], vz = qd[vo + 5];
  // v + h a, link frame at the start
  const lx = vx + dt * (qdd[vo + 3] + wy * vz - wz * vy);
  const ly = vy + dt * (qdd[vo + 4] + wz * vx - wx * vz);
  const lz = vz + dt * (qdd[vo + 5] + wx * vy - wy * vx);
  const nx = wx + dt * qdd[vo], ny = wy + dt * qdd[vo + 1], nz = wz + dt * qdd[vo + 2];
  // v' = exp(-[w'] h) (v + h a): the orientation turns by exactly that
  const t = TURN;
  t[0] = nx; t[1] = ny; t[2] = nz; t[3] = lx; t[4] = ly; t[5] = lz; t[6] = dt;
  turnBack();
  qd[vo] = nx; qd[vo + 1] = ny; qd[vo + 2] = nz;
  qd[vo + 3] = t[7]; qd[vo + 4] = t[8]; qd[vo + 5] = t[9];
  // u = R0 (v + h a) with the starting orientation quaternion (x, y, z, w)
  const x = q[qo + 3], y = q[qo + 4], z = q[qo + 5], w = q[qo + 6];
  const tx = 2 * (y * lz - z * ly), ty = 2 * (z * lx - x * lz), tz = 2 * (x * ly - y * lx);
  q[qo] += dt * (lx + w * tx + (y * tz - z * ty));
  q[qo + 1] += dt * (ly + w * ty + (z * tx - x * tz));
  q[qo + 2] += dt * (lz + w * tz + (x * ty - y * tx));
  integrateJoint(JointType.spherical, q, qo + 3, qd, vo, dt);
}

/** The screw rule's velocity change d of one free joint (6 numbers, freeJointTurnAt). */
const screwTurn = new Float64Array(6);

/**
 * Scratch of turnBack: angular velocity w at 0..2, vector p at 3..5, step h at 6; the result
 * exp(-[w] h) p at 7..9. (Passed as arguments, the floats would be boxed on the heap.)
 */
const TURN = new Float64Array(10);
/** turnBack's unit quaternion of half the turn. */
const TURN_QUAT = new Float64Array(4);

/** TURN[7..9] = exp(-[w] h) p: p seen from a frame that turned by w h, through the unit quaternion of half the angle. */
function turnBack(): void {
  const t = TURN, h = t[6];
  const r = TURN_QUAT;
  r[0] = -0.5 * h * t[0]; r[1] = -0.5 * h * t[1]; r[2] = -0.5 * h * t[2];
  expPureQuaternion(r);
  const rx = r[0], ry = r[1], rz = r[2], rw = r[3];
  const px = t[3], py = t[4], pz = t[5];
  const sx = 2 * (ry * pz - rz * py), sy = 2 * (rz * px - rx * pz), sz = 2 * (rx * py - ry * px);
  t[7] = px + rw * sx + (ry * sz - rz * sy);
  t[8] = py + rw * sy + (rz * sx - rx * sz);
  t[9] = pz + rw * sz + (rx * sy - ry * sx);
}

/**
 * The velocity change d that advanceFreeJoint's screw rule adds to qd + h qdd over a step of dt
 * (d = exp(-[w] h) v - v + h w x v), for every dof of the model (zero except the linear dofs of
 * free joints), from the current qd: a solver that predicts the velocities after the step adds it
 * (ConstraintSolver.setAccelerationRhs).
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
  const t = TURN;
  t[0] = wx; t[1] = wy; t[2] = wz; t[3] = vx; t[4] = vy; t[5] = vz; t[6] = dt;
  turnBack();
  out[oo] = 0; out[oo + 1] = 0; out[oo + 2] = 0;
  out[oo + 3] = t[7] - vx + dt * (wy * vz - wz * vy);
  out[oo + 4] = t[8] - vy + dt * (wz * vx - wx * vz);
  out[oo + 5] = t[9] - vz + dt * (wx * vy - wy * vx);
}

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
