export { importBvh, BVH_SCALE } from './import.js';
export type { BvhImport, BvhImportOptions, BvhJointInfo } from './import.js';
export { BVH_CHANNELS } from './channels.js';
export type { BvhChannel } from './channels.js';
