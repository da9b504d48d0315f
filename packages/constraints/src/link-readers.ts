/**
 * What Body's link readers (Body.linkPosition, linkRotation, pointVelocity) share: naming a link by
 * index or name, checking the caller's output array, and the quaternion of a rotation matrix.
 */
import type { Model } from '@sinew/featherstone';

/** A link of a body: its index in the model or its name. */
export type LinkRef = number | string;

/**
 * An array the readers can write into: a gl-matrix `vec3` / `quat` (Float32Array), a Float64Array
 * or a plain array.
 */
export interface NumberArray {
  [index: number]: number;
  readonly length: number;
}

/** Index of `link` in the body's model; a clear error naming the body and the bad link otherwise. */
export function resolveLink(fn: string, bodyName: string, model: Model, link: LinkRef): number {
  if (typeof link === 'number') {
    if (Number.isInteger(link) && link >= 0 && link < model.nLinks) return link;
    throw new RangeError(`Body "${bodyName}".${fn}: link ${link} is not a link index (the model has ${model.nLinks} links, 0 to ${model.nLinks - 1})`);
  }
  if (typeof link === 'string') {
    const names = model.linkNames;
    for (let i = 0; i < names.length; i++) if (names[i] === link) return i;
    throw new RangeError(`Body "${bodyName}".${fn}: no link named "${link}" (links: ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', ...' : ''})`);
  }
  throw new RangeError(`Body "${bodyName}".${fn}: link must be an index or a name, got ${String(link)}`);
}

/** Throws unless out can take n numbers. */
export function checkOut(fn: string, bodyName: string, out: NumberArray, n: number): void {
  if (out === null || typeof out !== 'object' || typeof out.length !== 'number' || out.length < n) {
    throw new RangeError(`Body "${bodyName}".${fn}: out must be an array of at least ${n} numbers, got ${out === null || typeof out !== 'object' ? String(out) : `length ${out.length}`}`);
  }
}

/**
 * Unit quaternion [x, y, z, w] of the rotation matrix R (row-major, at R[o..o+9)), by Shepperd's
 * method (S. W. Shepperd, "Quaternion from rotation matrix", J. Guidance and Control 1(3), 1978):
 * the largest of 4w^2 = 1 + tr R, 4x^2 = 1 + 2 R00 - tr R, ... is taken to keep the square root
 * away from zero. w >= 0 when the trace is the largest term.
 */
export function quaternionOfMatrix(R: ArrayLike<number>, o: number, out: NumberArray): void {
  const m00 = R[o], m01 = R[o + 1], m02 = R[o + 2];
  const m10 = R[o + 3], m11 = R[o + 4], m12 = R[o + 5];
  const m20 = R[o + 6], m21 = R[o + 7], m22 = R[o + 8];
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr >= m00 && tr >= m11 && tr >= m22) {
    const s = 2 * Math.sqrt(1 + tr);
    w = s / 4; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 >= m11 && m00 >= m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    x = s / 4; w = (m21 - m12) / s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 >= m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    y = s / 4; w = (m02 - m20) / s; x = (m01 + m10) / s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    z = s / 4; w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s;
  }
  out[0] = x; out[1] = y; out[2] = z; out[3] = w;
}
