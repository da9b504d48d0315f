export * from './motion/index.js';
export * from './bvh/index.js';
export * from './gltf/index.js';
export * from './format/index.js';
export * from './mjcf/index.js';
export * from './presets/index.js';
export * from './control/index.js';
