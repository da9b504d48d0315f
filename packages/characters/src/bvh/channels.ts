/**
 * BVH channels. A joint lists its channels in the order its values appear in each motion row.
 * Rotation channels compose in the listed order as intrinsic rotations: for
 * "Zrotation Xrotation Yrotation" the local rotation is R = Rz(z) Rx(x) Ry(y), so a point p of
 * the joint's frame is at offset + R p in the parent's frame. Angles are in degrees.
 * Position channels replace the matching component of the joint's OFFSET.
 */
import { quatFromAxisAngle, quatMultiply } from '../motion/quat.js';

/** A BVH channel name. */
export type BvhChannel = 'Xposition' | 'Yposition' | 'Zposition' | 'Xrotation' | 'Yrotation' | 'Zrotation';

/** The six BVH channel names. */
export const BVH_CHANNELS: readonly BvhChannel[] = ['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation'];

/** The channel a name stands for, case-insensitively; undefined for an unknown name. */
export function channelFromName(name: string): BvhChannel | undefined {
  const lower = name.toLowerCase();
  return BVH_CHANNELS.find((c) => c.toLowerCase() === lower);
}

/** 0, 1, 2 for X, Y, Z. */
export function channelAxis(c: BvhChannel): number {
  return c.charCodeAt(0) - 88;
}

export function isRotation(c: BvhChannel): boolean {
  return c.endsWith('rotation');
}

const DEG = Math.PI / 180;
const axisQuat = new Float64Array(4);

/** Channel codes for fast row conversion: 0..2 position X/Y/Z, 3..5 rotation X/Y/Z. */
export function channelCodes(channels: readonly BvhChannel[]): Int8Array {
  return Int8Array.from(channels, (c) => channelAxis(c) + (isRotation(c) ? 3 : 0));
}

/**
 * Local rotation of a joint from its channel values in one row: the product of the rotation
 * channels' axis rotations in listed order, written at out[oo].
 */
export function channelRotation(codes: Int8Array, row: ArrayLike<number>, ro: number, out: Float64Array, oo: number): void {
  out[oo] = 0; out[oo + 1] = 0; out[oo + 2] = 0; out[oo + 3] = 1;
  for (let k = 0; k < codes.length; k++) {
    const a = codes[k] - 3;
    if (a < 0) continue;
    quatFromAxisAngle(a === 0 ? 1 : 0, a === 1 ? 1 : 0, a === 2 ? 1 : 0, row[ro + k] * DEG, axisQuat, 0);
    quatMultiply(out, oo, axisQuat, 0, out, oo);
  }
}
