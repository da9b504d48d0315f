/**
 * Average ranges of motion of healthy adults, in degrees, from the American Academy of
 * Orthopaedic Surgeons, Joint Motion: Method of Measuring and Recording (AAOS, 1965), as
 * tabulated in C. C. Norkin and D. J. White, Measurement of Joint Motion: A Guide to Goniometry,
 * 5th ed., F. A. Davis 2016 (the AAOS column of each joint's normative table).
 */
export const AAOS_ROM_DEG = {
  shoulder: { flexion: 180, extension: 60, abduction: 180, adduction: 0, internalRotation: 70, externalRotation: 90 },
  elbow: { flexion: 150, extension: 0 },
  forearm: { pronation: 80, supination: 80 },
  wrist: { flexion: 80, extension: 70, radialDeviation: 20, ulnarDeviation: 30 },
  hip: { flexion: 120, extension: 30, abduction: 45, adduction: 30, internalRotation: 45, externalRotation: 45 },
  knee: { flexion: 135, extension: 0 },
  ankle: { dorsiflexion: 20, plantarflexion: 50, inversion: 35, eversion: 15 },
  cervicalSpine: { flexion: 45, extension: 45, lateralFlexion: 45, rotation: 60 },
  thoracolumbarSpine: { flexion: 80, extension: 25, lateralFlexion: 35, rotation: 45 },
} as const;
