/**
 * How the materials of two touching shapes combine into one contact's coefficients.
 *
 * Friction is by default the geometric mean sqrt(mu_a * mu_b): symmetric, zero when either surface
 * is frictionless (ice on anything slides), and equal to mu when both are the same. A shape may ask
 * for another rule (ShapeDesc.frictionCombine: average, min, multiply or max, by its code in
 * FRICTION_COMBINE); of two rules the later in that order wins, as PhysX's combine modes do (MJCF
 * models take max: MuJoCo's contacts have the larger of the two frictions). Restitution is the
 * larger of the two, so a bouncy ball bounces on a dead floor as a game designer expects.
 */
export function combineFriction(muA: number, muB: number, ruleA = 0, ruleB = 0): number {
  switch (ruleA > ruleB ? ruleA : ruleB) {
    case 1: return 0.5 * (muA + muB);
    case 2: return muA < muB ? muA : muB;
    case 3: return muA * muB;
    case 4: return muA > muB ? muA : muB;
    default: return Math.sqrt(muA * muB);
  }
}

/** Restitution of a contact from those of its two shapes (the larger). */
export function combineRestitution(eA: number, eB: number): number {
  return eA > eB ? eA : eB;
}

/** Friction coefficient of a shape that gives none. */
export const DEFAULT_FRICTION = 0.8;
/** Restitution of a shape that gives none. */
export const DEFAULT_RESTITUTION = 0;
