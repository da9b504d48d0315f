/**
 * BVH import: a Skeleton (one bone per ROOT/JOINT, End Sites as bone tips) and a MotionClip
 * (one sample per frame, at k * Frame Time).
 *
 * Units: BVH has none. Lengths are multiplied by `scale` (default 1). Common values are in
 * BVH_SCALE: CMU's cgspeed conversions are in the CMU ASF unit of 1/0.45 inch, 0.056444 m
 * (0.0254 / 0.45); files from Poser and many game tools are in centimetres (0.01).
 */
import { MotionClip, type WrapMode } from '../motion/clip.js';
import { ImportError, withImportErrors } from '../motion/import-error.js';
import { Skeleton, type BoneDesc } from '../motion/skeleton.js';
import { channelCodes, channelRotation, isRotation, type BvhChannel } from './channels.js';
import { parseHierarchy, type BvhJoint } from './hierarchy.js';
import { parseMotion } from './motion-section.js';
import { decodeText, splitLines, TokenStream } from './text.js';

/** Metres per BVH length unit for common sources. */
export const BVH_SCALE = Object.freeze({
  metres: 1,
  centimetres: 0.01,
  millimetres: 0.001,
  inches: 0.0254,
  /** CMU mocap (ASF/AMC and the cgspeed BVH conversions): one unit is 1/0.45 inch. */
  cmu: 0.0254 / 0.45,
});

/** Options of `importBvh`: file name for errors, scale to metres, clip name and wrap mode. */
export interface BvhImportOptions {
  /** Name used in errors (default '<input>'). */
  file?: string;
  /** Metres per file unit (default 1); see BVH_SCALE. */
  scale?: number;
  /** Name of the skeleton and clip (default: the file name). */
  name?: string;
  /** Wrap mode of the clip (default 'clamp'). */
  wrap?: WrapMode;
}

/** One joint as the BVH file declares it: name, parent, channels, rotation order and column in a motion row. */
export interface BvhJointInfo {
  name: string;
  parent: number;
  channels: readonly BvhChannel[];
  /** Rotation channels' axes in composition order, e.g. 'ZXY'. */
  rotationOrder: string;
  /** Column of the first channel in a motion row. */
  column: number;
  line: number;
}

/** What `importBvh` returns: the skeleton, the motion clip, and the joints as the file declares them. */
export interface BvhImport {
  skeleton: Skeleton;
  clip: MotionClip;
  joints: BvhJointInfo[];
  jointCount: number;
  endSiteCount: number;
  channelCount: number;
  frameCount: number;
  frameTime: number;
  scale: number;
  /** Raw motion values as written, frameCount x channelCount. */
  values: Float64Array;
}

/** Imports a BVH motion capture file (text or bytes) into a Skeleton and a MotionClip; errors name the line and what was expected. */
export function importBvh(source: string | Uint8Array | ArrayBuffer, options: BvhImportOptions = {}): BvhImport {
  const file = options.file ?? '<input>';
  return withImportErrors(file, () => readBvh(source, options, file));
}

function readBvh(source: string | Uint8Array | ArrayBuffer, options: BvhImportOptions, file: string): BvhImport {
  const scale = options.scale ?? 1;
  if (!(Number.isFinite(scale) && scale > 0)) throw new ImportError({ file, path: 'options.scale' }, 'a positive finite number of metres per unit', String(scale));
  const name = options.name ?? file;
  const lines = splitLines(decodeText(source, file));
  const h = parseHierarchy(new TokenStream(lines), file);
  const columnOwner = new Int32Array(h.channelCount);
  h.joints.forEach((j, ji) => j.channels.forEach((_, k) => (columnOwner[j.column + k] = ji)));
  const motion = parseMotion(lines, h.motionLine, h.channelCount, (c) => {
    const j = h.joints[columnOwner[c]];
    return `${j.channels[c - j.column]} of ${j.name}`;
  }, file);

  const seen = new Map<string, number>();
  for (const [i, j] of h.joints.entries()) {
    const prev = seen.get(j.name);
    if (prev !== undefined) throw new ImportError({ file, line: j.line }, `unique joint names`, `"${j.name}" again (first at line ${h.joints[prev].line})`);
    seen.set(j.name, i);
  }

  const bones: BoneDesc[] = h.joints.map((j) => ({
    name: j.name,
    parent: j.parent,
    offset: j.offset.map((v) => v * scale),
    endSites: j.endSites.map((e) => e.map((v) => v * scale)),
  }));
  const skeleton = new Skeleton(name, bones);

  const nb = h.joints.length, nf = motion.frameCount, nc = h.channelCount;
  const rotations = new Float64Array(nf * nb * 4);
  const translations = new Float64Array(nf * nb * 3);
  const codes = h.joints.map((j) => channelCodes(j.channels));
  for (let f = 0; f < nf; f++) {
    const row = f * nc;
    for (let b = 0; b < nb; b++) {
      const j = h.joints[b];
      channelRotation(codes[b], motion.values, row + j.column, rotations, 4 * (f * nb + b));
      writeTranslation(j, codes[b], motion.values, row + j.column, scale, translations, 3 * (f * nb + b));
    }
  }
  const times = new Float64Array(Math.max(nf, 1));
  for (let f = 0; f < nf; f++) times[f] = f * motion.frameTime;
  const clip = nf > 0
    ? new MotionClip({ name, skeleton, times, rotations, translations, wrap: options.wrap })
    : new MotionClip({ name, skeleton, times: [0], rotations: skeleton.restPose().rotations, wrap: options.wrap });

  return {
    skeleton,
    clip,
    joints: h.joints.map((j) => ({
      name: j.name,
      parent: j.parent,
      channels: j.channels,
      rotationOrder: j.channels.filter(isRotation).map((c) => c[0]).join(''),
      column: j.column,
      line: j.line,
    })),
    jointCount: nb,
    endSiteCount: skeleton.endSiteCount,
    channelCount: nc,
    frameCount: nf,
    frameTime: motion.frameTime,
    scale,
    values: motion.values,
  };
}

/** The joint's translation in one row: its OFFSET with position channels written over their components. */
function writeTranslation(j: BvhJoint, codes: Int8Array, row: Float64Array, ro: number, scale: number, out: Float64Array, oo: number): void {
  out[oo] = j.offset[0] * scale; out[oo + 1] = j.offset[1] * scale; out[oo + 2] = j.offset[2] * scale;
  for (let k = 0; k < codes.length; k++) if (codes[k] < 3) out[oo + codes[k]] = row[ro + k] * scale;
}
