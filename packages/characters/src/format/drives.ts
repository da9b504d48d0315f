/**
 * PD drive gains from a settle time. A joint alone (the rest of the character locked, no
 * gravity) with effective inertia I under tau = kp (target - q) - kd qd is the second-order system
 * I q'' + kd q' + kp q = kp target, with natural frequency wn = sqrt(kp / I) and damping ratio
 * zeta = kd / (2 sqrt(kp I)). Its step response settles within 2 % at t_s = c(zeta) / wn, where
 * c(zeta) is found here from the exact step response (the textbook shortcut 4 / zeta, Ogata,
 * Modern Control Engineering, 5th ed., section 5-3, underestimates it by 30 % near zeta = 1):
 *   zeta < 1 (envelope):  e^{-zeta x} / sqrt(1 - zeta^2) = 0.02
 *   zeta = 1:             (1 + x) e^{-x} = 0.02
 *   zeta > 1:             (s2 e^{s1 x} - s1 e^{s2 x}) / (s2 - s1) = 0.02, s1,2 = -zeta +/- sqrt(zeta^2 - 1)
 * so wn = c / t_s, kp = I wn^2, kd = 2 zeta I wn. I is the joint's diagonal of the joint-space
 * mass matrix at the neutral pose (the mean over a spherical joint's three dofs), armature included.
 */

import { detMath } from '@sinew/featherstone';

/** The 2 % band of the settle time. */
export const SETTLE_BAND = 0.02;

/** Remaining error of the unit step response at x = wn t (monotone for zeta >= 1). */
export function stepError(zeta: number, x: number): number {
  if (zeta < 1) {
    const wd = Math.sqrt(1 - zeta * zeta);
    return detMath.exp(-zeta * x) * (detMath.cos(wd * x) + (zeta / wd) * detMath.sin(wd * x));
  }
  if (zeta === 1) return (1 + x) * detMath.exp(-x);
  const r = Math.sqrt(zeta * zeta - 1);
  const s1 = -zeta + r, s2 = -zeta - r;
  return (s2 * detMath.exp(s1 * x) - s1 * detMath.exp(s2 * x)) / (s2 - s1);
}

/** wn t_s of the 2 % settle time for damping ratio zeta. */
export function settleConstant(zeta: number): number {
  if (!(zeta > 0)) throw new RangeError(`damping ratio ${zeta}: expected a number > 0`);
  if (zeta < 1) return -detMath.log(SETTLE_BAND * Math.sqrt(1 - zeta * zeta)) / zeta;
  // monotone decreasing error: bisection on [0, hi]
  let lo = 0, hi = 1;
  while (stepError(zeta, hi) > SETTLE_BAND) hi *= 2;
  for (let k = 0; k < 200 && hi - lo > 1e-15 * hi; k++) {
    const mid = 0.5 * (lo + hi);
    if (stepError(zeta, mid) > SETTLE_BAND) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/** kp and kd that settle a joint of effective inertia `inertia` in `settleTime` seconds. */
export function gainsFromSettleTime(inertia: number, settleTime: number, zeta = 1): { kp: number; kd: number } {
  const wn = settleConstant(zeta) / settleTime;
  return { kp: inertia * wn * wn, kd: 2 * zeta * inertia * wn };
}
