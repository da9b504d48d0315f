export { humanoid, SHAPE_DENSITY, type HumanoidOptions } from './humanoid.js';
export { quadruped, snake, type QuadrupedOptions, type SnakeOptions } from './creatures.js';
export { DE_LEVA_MALE, DE_LEVA_STATURE_MM, DE_LEVA_BODY_MASS_KG, type DeLevaSegment, type SegmentParameters } from './de-leva.js';
export { WINTER_PROPORTIONS } from './proportions.js';
export { AAOS_ROM_DEG } from './range-of-motion.js';
