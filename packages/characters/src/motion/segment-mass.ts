/**
 * Body segments and their mass fractions.
 *
 * de Leva, P. (1996). Adjustments to Zatsiorsky-Seluyanov's segment inertia parameters.
 * Journal of Biomechanics 29(9), 1223-1230, Table 4 (males): segment mass as a fraction of body
 * mass. The head segment runs from the vertex to C7 (head and neck); the trunk (43.46 %) is split
 * into upper (15.96 %), middle (16.33 %) and lower (11.17 %) parts. Limb fractions are per side.
 */

export type BodySegment =
  | 'head'
  | 'upperTrunk'
  | 'middleTrunk'
  | 'lowerTrunk'
  | 'upperArm'
  | 'forearm'
  | 'hand'
  | 'thigh'
  | 'shank'
  | 'foot';

/** The body segments that carry mass (de Leva 1996), in table order. */
export const BODY_SEGMENTS: readonly BodySegment[] = ['head', 'upperTrunk', 'middleTrunk', 'lowerTrunk', 'upperArm', 'forearm', 'hand', 'thigh', 'shank', 'foot'];

/** Segments that come in a left and a right copy; their fractions are per side. */
export const BILATERAL_SEGMENTS: ReadonlySet<BodySegment> = new Set<BodySegment>(['upperArm', 'forearm', 'hand', 'thigh', 'shank', 'foot']);

/** Mass fractions of de Leva (1996), males. They sum to 1 over both sides. */
export const DE_LEVA_1996_MALE: Readonly<Record<BodySegment, number>> = Object.freeze({
  head: 0.0694,
  upperTrunk: 0.1596,
  middleTrunk: 0.1633,
  lowerTrunk: 0.1117,
  upperArm: 0.0271,
  forearm: 0.0162,
  hand: 0.0061,
  thigh: 0.1416,
  shank: 0.0433,
  foot: 0.0137,
});

/**
 * Capsule radius as a fraction of bone length, for bones with no skinned vertices to measure
 * (BVH). Rough proportions of an adult: limbs are slender, trunk and head bones short and wide.
 */
export const DEFAULT_RADIUS_RATIO: Readonly<Record<BodySegment | 'other', number>> = Object.freeze({
  head: 0.45,
  upperTrunk: 0.6,
  middleTrunk: 0.7,
  lowerTrunk: 0.7,
  upperArm: 0.16,
  forearm: 0.14,
  hand: 0.3,
  thigh: 0.17,
  shank: 0.12,
  foot: 0.25,
  other: 0.2,
});
