/**
 * Segment inertia parameters of young adult males from
 *   P. de Leva, "Adjustments to Zatsiorsky-Seluyanov's segment inertia parameters",
 *   Journal of Biomechanics 29(9), 1223-1230, 1996, Table 4 (males).
 * Mass: percent of body mass. Centre of mass: percent of the segment length from the first
 * (origin) landmark. Radii of gyration: percent of the segment length, about the sagittal axis
 * (in the sagittal plane, perpendicular to the segment: antero-posterior for an upright
 * segment), the transverse (medio-lateral) axis and the longitudinal axis. Length: the
 * reference subjects' mean segment length in mm (stature 1741 mm, body mass 73.0 kg).
 * Landmarks: VERT vertex, CERV cervicale (C7), XYPH xiphion, OMPH omphalion, MIDH mid-hip (between
 * the hip joint centres), SJC/EJC/WJC shoulder/elbow/wrist joint centres, MET3 third metacarpale,
 * HJC/KJC hip/knee joint centres, LMAL lateral malleolus, HEEL, TTIP tip of the longest toe.
 */

export interface SegmentParameters {
  origin: string;
  end: string;
  lengthMm: number;
  massPercent: number;
  comPercent: number;
  rSagittal: number;
  rTransverse: number;
  rLongitudinal: number;
}

/** Stature of the de Leva (1996) male reference (mm). */
export const DE_LEVA_STATURE_MM = 1741;
/** Body mass of the de Leva (1996) male reference (kg). */
export const DE_LEVA_BODY_MASS_KG = 73.0;

/** Segment parameters of the de Leva (1996) male reference: mass fraction, length, centre of mass and radii of gyration. */
export const DE_LEVA_MALE = {
  head: { origin: 'VERT', end: 'CERV', lengthMm: 203.3, massPercent: 6.94, comPercent: 59.76, rSagittal: 36.2, rTransverse: 37.6, rLongitudinal: 31.2 },
  upperTrunk: { origin: 'CERV', end: 'XYPH', lengthMm: 170.7, massPercent: 15.96, comPercent: 29.99, rSagittal: 71.6, rTransverse: 45.4, rLongitudinal: 65.9 },
  middleTrunk: { origin: 'XYPH', end: 'OMPH', lengthMm: 215.5, massPercent: 16.33, comPercent: 45.02, rSagittal: 48.2, rTransverse: 38.3, rLongitudinal: 46.8 },
  lowerTrunk: { origin: 'OMPH', end: 'MIDH', lengthMm: 145.7, massPercent: 11.17, comPercent: 61.15, rSagittal: 61.5, rTransverse: 55.1, rLongitudinal: 58.7 },
  upperArm: { origin: 'SJC', end: 'EJC', lengthMm: 281.7, massPercent: 2.71, comPercent: 57.72, rSagittal: 28.5, rTransverse: 26.9, rLongitudinal: 15.8 },
  forearm: { origin: 'EJC', end: 'WJC', lengthMm: 268.9, massPercent: 1.62, comPercent: 45.74, rSagittal: 27.6, rTransverse: 26.5, rLongitudinal: 12.1 },
  hand: { origin: 'WJC', end: 'MET3', lengthMm: 86.2, massPercent: 0.61, comPercent: 79.0, rSagittal: 62.8, rTransverse: 51.3, rLongitudinal: 40.1 },
  thigh: { origin: 'HJC', end: 'KJC', lengthMm: 422.2, massPercent: 14.16, comPercent: 40.95, rSagittal: 32.9, rTransverse: 32.9, rLongitudinal: 14.9 },
  shank: { origin: 'KJC', end: 'LMAL', lengthMm: 434.0, massPercent: 4.33, comPercent: 44.59, rSagittal: 25.5, rTransverse: 24.9, rLongitudinal: 10.3 },
  foot: { origin: 'HEEL', end: 'TTIP', lengthMm: 258.1, massPercent: 1.37, comPercent: 44.15, rSagittal: 25.7, rTransverse: 24.5, rLongitudinal: 12.4 },
} as const satisfies Record<string, SegmentParameters>;

/** A segment of the de Leva (1996) tables. */
export type DeLevaSegment = keyof typeof DE_LEVA_MALE;
