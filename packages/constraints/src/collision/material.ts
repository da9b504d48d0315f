/**
 * How the materials of two touching shapes combine into one contact's coefficients.
 *
 * Friction is the geometric mean sqrt(mu_a * mu_b): symmetric, zero when either surface is
 * frictionless (ice on anything slides), and equal to mu when both are the same. Restitution is
 * the larger of the two, so a bouncy ball bounces on a dead floor as a game designer expects.
 */
export function combineFriction(muA: number, muB: number): number {
  return Math.sqrt(muA * muB);
}

/** Restitution of a contact from those of its two shapes (the larger). */
export function combineRestitution(eA: number, eB: number): number {
  return eA > eB ? eA : eB;
}

/** Friction coefficient of a shape that gives none. */
export const DEFAULT_FRICTION = 0.8;
/** Restitution of a shape that gives none. */
export const DEFAULT_RESTITUTION = 0;
