export { FormatError } from './errors.js';
export { characterFromJSON, type Character } from './build.js';
export { characterToJSON, type ToJSONOptions } from './write.js';
export { validateCharacter } from './validate.js';
export { gainsFromSettleTime, settleConstant, stepError, SETTLE_BAND } from './drives.js';
export { linkMassProps, shapesMass, shapeVolume } from './link-mass.js';
export {
  CHARACTER_FORMAT,
  CHARACTER_FORMAT_VERSION,
  type CharacterDescription,
  type ConeLimits,
  type DriveDescription,
  type GainDrive,
  type JointDescription,
  type JointDrive,
  type LinkDescription,
  type RangeLimits,
  type SettleTimeDrive,
  type ShapeDescription,
  type ShapeCommon,
} from './types.js';
export type { Vec3, Quat, Inertia6, MassProps } from './math.js';
