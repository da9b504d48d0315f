/**
 * glTF 2.0 import (.gltf with data URIs or external buffers passed in, and .glb): the skeleton
 * of one skin, the skinned vertices each bone owns, and the animations as MotionClips.
 */
import type { MotionClip, WrapMode } from '../motion/clip.js';
import { withImportErrors } from '../motion/import-error.js';
import type { Skeleton } from '../motion/skeleton.js';
import { GltfAccessors } from './accessors.js';
import { clipFromTracks, readAnimations, type GltfAnimationInfo } from './animation.js';
import { GltfBuffers } from './buffers.js';
import { readContainer } from './container.js';
import { JsonFields } from './json-fields.js';
import { GltfNodes } from './nodes.js';
import { readSkin, skeletonFromSkin, type GltfSkinInfo } from './skin-skeleton.js';
import { ownedVertices, rigidMeshPositions, type SkinData } from './skin-vertices.js';

/** Options of `importGltf`: file name for errors, which skin, scale, rest pose, vertices, animation merging and external resources. */
export interface GltfImportOptions {
  /** Name used in errors (default '<input>'). */
  file?: string;
  /** Skin whose joints become the skeleton (default 0). */
  skin?: number;
  /** Metres per scene unit (default 1; glTF is in metres, but some assets are not). */
  scale?: number;
  /** Rest pose of the skeleton: the nodes' transforms (default) or the bind pose of the inverse bind matrices. */
  restPose?: 'nodes' | 'bind';
  /** Gather the skinned vertices each bone owns (default true). */
  vertices?: boolean;
  /** One clip from all animations together instead of one per animation (for files that split a motion by joint). */
  mergeAnimations?: boolean;
  /** Samples per CUBICSPLINE key interval (default 4). */
  cubicSubdivisions?: number;
  /** Wrap mode of the clips (default 'clamp'). */
  wrap?: WrapMode;
  /** Bytes of external buffers by uri, for a .gltf that does not embed its data. */
  resources?: Readonly<Record<string, Uint8Array>>;
}

/** What `importGltf` returns: the skin as a Skeleton, its animations as MotionClips, the skins and animations the file holds, and warnings. */
export interface GltfImport {
  skeleton: Skeleton;
  /** One clip per animation (or one merged clip), on `skeleton`. */
  clips: MotionClip[];
  skins: GltfSkinInfo[];
  animations: GltfAnimationInfo[];
  nodeCount: number;
  meshCount: number;
  isGlb: boolean;
  /** Things read but approximated or ignored. */
  warnings: string[];
}

/** Imports a glTF 2.0 skin and its animations (.gltf JSON or .glb bytes) into a Skeleton and MotionClips. */
export function importGltf(source: string | Uint8Array | ArrayBuffer, options: GltfImportOptions = {}): GltfImport {
  const file = options.file ?? '<input>';
  return withImportErrors(file, () => readGltf(source, options, file));
}

function readGltf(source: string | Uint8Array | ArrayBuffer, options: GltfImportOptions, file: string): GltfImport {
  const f = new JsonFields(file);
  const scale = options.scale ?? 1;
  if (!(Number.isFinite(scale) && scale > 0)) f.fail('options.scale', 'a positive finite number of metres per unit', scale);
  const cubicSubdivisions = options.cubicSubdivisions ?? 4;
  if (!(Number.isInteger(cubicSubdivisions) && cubicSubdivisions >= 1 && cubicSubdivisions <= 64)) f.fail('options.cubicSubdivisions', 'an integer from 1 to 64', cubicSubdivisions);
  const warnings: string[] = [];

  const { json, bin, isGlb } = readContainer(source, file);
  const root = f.object(json, 'JSON root');
  const asset = f.object(root.asset, 'asset');
  const version = f.string(asset.version, 'asset.version');
  if (!/^2\.\d+$/.test(version)) f.fail('asset.version', 'a glTF 2.x version such as "2.0"', version);
  if (asset.minVersion !== undefined) {
    const min = f.string(asset.minVersion, 'asset.minVersion');
    if (!/^2\.0$/.test(min)) f.fail('asset.minVersion', '"2.0" (this reader implements glTF 2.0)', min);
  }
  const required = f.optionalArray(root, 'extensionsRequired', '');
  if (required.length > 0) f.fail('extensionsRequired', 'no required extensions (none are implemented)', required.map(String).join(', '));

  const buffers = new GltfBuffers(f, root, bin, options.resources ?? {});
  const accessors = new GltfAccessors(f, root, buffers);
  buffers.validate();
  accessors.validate();
  const nodes = new GltfNodes(f, root, warnings);
  const skinsJson = f.optionalArray(root, 'skins', '');
  if (skinsJson.length === 0) f.fail('skins', 'at least one skin (a skinned character)', 'none');
  const skinIndex = options.skin ?? 0;
  if (!(Number.isInteger(skinIndex) && skinIndex >= 0 && skinIndex < skinsJson.length)) f.fail('options.skin', `a skin index below ${skinsJson.length}`, skinIndex);

  const skinCache = new Map<number, ReturnType<typeof readSkin>>();
  const skin = (i: number): SkinData & { info: GltfSkinInfo } => {
    let s = skinCache.get(i);
    if (!s) {
      f.index(i, `skins[${i}]`, skinsJson.length, 'skins');
      s = readSkin(f, root, nodes, accessors, i);
      skinCache.set(i, s);
    }
    return s;
  };
  for (let i = 0; i < skinsJson.length; i++) skin(i);
  for (let n = 0; n < nodes.count; n++) {
    const s = nodes.skin[n];
    if (s !== undefined) f.index(s, `nodes[${n}].skin`, skinsJson.length, 'skins');
    if (s !== undefined && nodes.mesh[n] === undefined) f.fail(`nodes[${n}].skin`, 'a mesh on the node that uses the skin', 'no mesh');
  }

  const vertices = options.vertices === false ? undefined : ownedVertices(f, root, nodes, accessors, skin);
  const main = skin(skinIndex);
  const rig = skeletonFromSkin(f, nodes, main, skinIndex, {
    file,
    name: main.info.name ?? file,
    scale,
    restPose: options.restPose ?? 'nodes',
    vertices,
    rigidMesh: options.vertices === false ? undefined : (n) => rigidMeshPositions(f, root, nodes, accessors, n),
    warnings,
  });

  const anims = readAnimations(f, root, accessors, nodes);
  const o = { file, cubicSubdivisions, wrap: options.wrap, warnings };
  let clips: MotionClip[];
  if (options.mergeAnimations && anims.info.length > 0) {
    const times = Float64Array.from(anims.times.flatMap((t) => Array.from(t))).sort();
    clips = [clipFromTracks(file, rig, nodes, anims.tracks.flat(), times, o)];
  } else {
    clips = anims.info.map((a, i) => clipFromTracks(a.name, rig, nodes, anims.tracks[i], anims.times[i], o));
  }

  return {
    skeleton: rig.skeleton,
    clips,
    skins: skinsJson.map((_, i) => skin(i).info),
    animations: anims.info,
    nodeCount: nodes.count,
    meshCount: f.optionalArray(root, 'meshes', '').length,
    isGlb,
    warnings,
  };
}
