/** Measures scenes report, computed the same way for every scene. */
import { JointType, type Model, type State } from '@sinew/featherstone';

/**
 * Largest distance beyond a position limit, in radians or metres, over the 1-dof joints
 * (revolute, prismatic) and the swing cones and twist ranges of spherical joints; 0 when every
 * joint is within its range.
 */
export function maxLimitViolation(model: Model, state: State): number {
  let worst = 0;
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i];
    if (t === JointType.spherical) {
      if (model.sphericalLimits[i]) worst = Math.max(worst, sphericalViolation(model, state, i));
      continue;
    }
    if (t !== JointType.revolute && t !== JointType.prismatic) continue;
    const d = model.vOffset[i];
    const q = state.q[model.qOffset[i]];
    worst = Math.max(worst, model.lower[d] - q, q - model.upper[d]);
  }
  return worst;
}

/**
 * How far a spherical joint is outside its range (radians): the swing angle beyond the elliptical
 * cone in the swing's direction, or the twist beyond its range, by the same swing-twist
 * decomposition as the limit rows of @sinew/constraints. Negative when inside.
 */
export function sphericalViolation(model: Model, state: State, link: number): number {
  const lim = model.sphericalLimits[link];
  if (!lim) return -Infinity;
  const qo = model.qOffset[link];
  const x = state.q[qo], y = state.q[qo + 1], z = state.q[qo + 2], w = state.q[qo + 3];
  const a = lim.twistAxis;
  const [ax, ay, az] = [a[0], a[1], a[2]];
  // b = R(q) a, the twist axis carried by the joint's rotation
  const tx = 2 * (y * az - z * ay), ty = 2 * (z * ax - x * az), tz = 2 * (x * ay - y * ax);
  const bx = ax + w * tx + (y * tz - z * ty), by = ay + w * ty + (z * tx - x * tz), bz = az + w * tz + (x * ty - y * tx);
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  const sn = Math.hypot(cx, cy, cz);
  const swing = Math.atan2(sn, ax * bx + ay * by + az * bz);
  let worst = -Infinity;
  if (sn > 1e-9) {
    const { u, v } = coneAxes(a);
    const nu = (cx * u[0] + cy * u[1] + cz * u[2]) / sn, nv = (cx * v[0] + cy * v[1] + cz * v[2]) / sn;
    worst = swing - coneHalfAngle(lim.swing, nu, nv);
  }
  let psi = 2 * Math.atan2(x * ax + y * ay + z * az, w);
  if (psi > Math.PI) psi -= 2 * Math.PI;
  if (psi < -Math.PI) psi += 2 * Math.PI;
  return Math.max(worst, lim.twist[0] - psi, psi - lim.twist[1]);
}

/**
 * The axes u, v perpendicular to a cone's twist axis `a` about which its two swing half-angles
 * are measured (u: the X axis made perpendicular to a, or Z when a is along X; v = a x u), as the
 * limit rows of @sinew/constraints take them.
 */
export function coneAxes(a: ArrayLike<number>): { u: [number, number, number]; v: [number, number, number] } {
  const ax = a[0], ay = a[1], az = a[2];
  let ux = 1 - ax * ax, uy = -ax * ay, uz = -ax * az;
  let un = Math.hypot(ux, uy, uz);
  if (un < 1e-6) { ux = -az * ax; uy = -az * ay; uz = 1 - az * az; un = Math.hypot(ux, uy, uz); }
  ux /= un; uy /= un; uz /= un;
  return { u: [ux, uy, uz], v: [ay * uz - az * uy, az * ux - ax * uz, ax * uy - ay * ux] };
}

/** Half-angle of an elliptical cone for a swing about the axis cos(phi) u + sin(phi) v (nu, nv its components). */
export function coneHalfAngle(swing: readonly [number, number], nu: number, nv: number): number {
  return 1 / Math.sqrt((nu / Math.max(swing[0], 1e-9)) ** 2 + (nv / Math.max(swing[1], 1e-9)) ** 2);
}

/** Throws, naming the scene and the time, when a state has a non-finite coordinate. */
export function assertFinite(scene: string, time: number, state: State): void {
  const k = state.firstNonFinite();
  if (k < 0) return;
  const nq = state.q.length;
  const what = k < nq ? `q[${k}]` : `qd[${k - nq}]`;
  throw new Error(`scene "${scene}": ${what} became non-finite at t = ${time.toFixed(4)} s`);
}
