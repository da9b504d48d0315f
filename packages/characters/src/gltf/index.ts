export { importGltf } from './import.js';
export type { GltfImport, GltfImportOptions } from './import.js';
export type { GltfSkinInfo } from './skin-skeleton.js';
export type { GltfAnimationInfo, Interpolation as GltfInterpolation } from './animation.js';
