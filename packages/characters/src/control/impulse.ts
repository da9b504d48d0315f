/**
 * Impulses on a character: a shot, a punch, a shove. An impulse p (N s, world) at a world point on
 * a link changes the joint velocities by the velocity jump
 *
 *   dqd = M^-1 J^T p   (Kokkevis section 5: velocity jump = K * impulse, here for one point)
 *
 * computed without forming M: one ABA pass (forwardDynamics leaves the articulated inertias) and
 * one AccelerationDeltas pass for a unit force along p at the point give M^-1 J^T p / |p|.
 *
 * With `hold` dofs (e.g. a root driven by an unbounded drive, which no impulse can move), those
 * dofs are held still by a bilateral constraint, as the World's rows would: with D the deltas of
 * unit torques on the held dofs (columns M^-1 e_k) and H their rows, the held reaction lambda
 * solves H D lambda = -H dqd and the jump is dqd + D lambda (the Kokkevis K-matrix solve on six
 * rows).
 *
 * Contacts and joint limits are not part of this jump: a foot on the ground takes its share in the
 * next World step (contacts stop the velocity into the ground), which is the usual split of an
 * impact into an impulse and the constraint response. For an impulse the World's contacts share
 * from the start, give the force p / h for one step of length h instead (impulseAsForce).
 */
import {
  accelerationDeltasPointForce, accelerationDeltasTorque, choleskyFactor, choleskySolve, forwardDynamics, forwardKinematics, momentum, type Model, type State,
} from '@sinew/featherstone';
import { detMath } from '@sinew/featherstone';

/** Options of `applyImpulse`: degrees of freedom held still. */
export interface ImpulseOptions {
  /** Dofs held still (velocity indices), e.g. [0..5] for a kinematically driven free root. */
  hold?: ArrayLike<number>;
}

/**
 * Applies an impulse to a state: qd += the velocity jump. Returns the jump (nv numbers). The
 * state's kinematics and dynamics are brought up to date first.
 */
export function applyImpulse(model: Model, state: State, link: number, point: ArrayLike<number>, impulse: ArrayLike<number>, options: ImpulseOptions = {}): Float64Array {
  if (!(link >= 0 && link < model.nLinks)) throw new RangeError(`applyImpulse: no link ${link}`);
  for (let k = 0; k < 3; k++) {
    if (!Number.isFinite(point[k]) || !Number.isFinite(impulse[k])) throw new RangeError(`applyImpulse: link "${model.linkNames[link]}": point and impulse must be 3 finite numbers`);
  }
  const nv = model.nv;
  const jump = new Float64Array(nv);
  const mag = detMath.hypot(impulse[0], impulse[1], impulse[2]);
  if (mag === 0) return jump;
  forwardKinematics(model, state, true);
  // the articulated inertias do not depend on tau or fext, so they are valid for any load
  forwardDynamics(model, state);
  const dir = [impulse[0] / mag, impulse[1] / mag, impulse[2] / mag];
  accelerationDeltasPointForce(model, state, link, point, dir, jump);
  for (let d = 0; d < nv; d++) jump[d] *= mag;
  const hold = options.hold ?? [];
  const nh = hold.length;
  if (nh > 0) {
    const D = new Float64Array(nh * nv); // column k = M^-1 e_hold[k]
    const col = new Float64Array(nv);
    for (let k = 0; k < nh; k++) {
      const dof = hold[k];
      if (!(Number.isInteger(dof) && dof >= 0 && dof < nv)) throw new RangeError(`applyImpulse: held dof ${dof} outside 0..${nv - 1}`);
      accelerationDeltasTorque(model, state, dof, 1, col);
      D.set(col, k * nv);
    }
    // H D (nh x nh): entry (r, k) = D[k][hold[r]]
    const A = new Float64Array(nh * nh), b = new Float64Array(nh);
    for (let r = 0; r < nh; r++) {
      b[r] = -jump[hold[r]];
      for (let k = 0; k < nh; k++) A[r * nh + k] = D[k * nv + hold[r]];
    }
    const lambda = solveSpd(A, b, nh);
    for (let k = 0; k < nh; k++) for (let d = 0; d < nv; d++) jump[d] += lambda[k] * D[k * nv + d];
    for (let r = 0; r < nh; r++) jump[hold[r]] = 0;
  }
  for (let d = 0; d < nv; d++) state.qd[d] += jump[d];
  state.work.dynamicsValid = false;
  forwardKinematics(model, state, true);
  return jump;
}

/** Adds the force p / h at the point to the state's external forces: the impulse p spread over one step of length h. */
export function impulseAsForce(state: State, link: number, point: ArrayLike<number>, impulse: ArrayLike<number>, h: number): void {
  if (!(h > 0) || !Number.isFinite(h)) throw new RangeError(`impulseAsForce: step ${h} must be a positive number of seconds`);
  state.applyForce(link, [impulse[0] / h, impulse[1] / h, impulse[2] / h], point);
}

/** Linear momentum of the whole body (world, kg m/s). Requires forwardKinematics with velocities. */
export function linearMomentum(model: Model, state: State): [number, number, number] {
  const m = momentum(model, state, new Float64Array(6));
  return [m[3], m[4], m[5]];
}

/** Solves the small symmetric positive definite system A x = b by Cholesky (A row-major n x n). */
function solveSpd(A: Float64Array, b: Float64Array, n: number): Float64Array {
  const L = Float64Array.from(A);
  if (choleskyFactor(L, n, L) >= 0) throw new Error('applyImpulse: the held dofs have a singular response (are they independent?)');
  const x = Float64Array.from(b);
  choleskySolve(L, n, x, x);
  return x;
}
