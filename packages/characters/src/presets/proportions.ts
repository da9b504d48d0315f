/**
 * Body proportions as fractions of stature H, from D. A. Winter, Biomechanics and Motor Control
 * of Human Movement, 4th ed., Wiley 2009, Figure 4.1 (after R. Drillis and R. Contini, "Body
 * segment parameters", Technical Report 1166-03, New York University, 1966). Heights are above
 * the floor in upright standing, arms hanging.
 */
export const WINTER_PROPORTIONS = {
  /** Lateral malleolus (ankle joint) height. */
  ankleHeight: 0.039,
  kneeHeight: 0.285,
  /** Greater trochanter: taken as the hip joint centres' height. */
  hipHeight: 0.53,
  shoulderHeight: 0.818,
  chinHeight: 0.87,
  elbowHeight: 0.63,
  wristHeight: 0.485,
  fingertipHeight: 0.377,
  footLength: 0.152,
  footWidth: 0.055,
  shoulderWidth: 0.259,
  hipWidth: 0.191,
} as const;
