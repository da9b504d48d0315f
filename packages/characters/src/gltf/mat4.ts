/**
 * 4x4 affine matrices, column-major as glTF stores them (element [col * 4 + row]).
 */
import { quatFromMatrix } from '../motion/quat.js';
import { detMath } from '@sinew/featherstone';

export type Mat4 = Float64Array;

export function identity4(): Mat4 {
  return Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
}

/** out = T(t) R(q) S(s), the glTF node transform. */
export function fromTRS(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>, out: Mat4 = new Float64Array(16)): Mat4 {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[0] = (1 - 2 * (yy + zz)) * s[0]; out[1] = 2 * (xy + wz) * s[0]; out[2] = 2 * (xz - wy) * s[0]; out[3] = 0;
  out[4] = 2 * (xy - wz) * s[1]; out[5] = (1 - 2 * (xx + zz)) * s[1]; out[6] = 2 * (yz + wx) * s[1]; out[7] = 0;
  out[8] = 2 * (xz + wy) * s[2]; out[9] = 2 * (yz - wx) * s[2]; out[10] = (1 - 2 * (xx + yy)) * s[2]; out[11] = 0;
  out[12] = t[0]; out[13] = t[1]; out[14] = t[2]; out[15] = 1;
  return out;
}

/** out = a b for affine matrices (last rows 0 0 0 1). out must not alias a or b. */
export function multiply4(a: ArrayLike<number>, b: ArrayLike<number>, out: Mat4 = new Float64Array(16)): Mat4 {
  const a00 = a[0], a01 = a[4], a02 = a[8], a03 = a[12];
  const a10 = a[1], a11 = a[5], a12 = a[9], a13 = a[13];
  const a20 = a[2], a21 = a[6], a22 = a[10], a23 = a[14];
  for (let c = 0; c < 4; c++) {
    const b0 = b[4 * c], b1 = b[4 * c + 1], b2 = b[4 * c + 2], b3 = b[4 * c + 3];
    out[4 * c] = a00 * b0 + a01 * b1 + a02 * b2 + a03 * b3;
    out[4 * c + 1] = a10 * b0 + a11 * b1 + a12 * b2 + a13 * b3;
    out[4 * c + 2] = a20 * b0 + a21 * b1 + a22 * b2 + a23 * b3;
    out[4 * c + 3] = b3;
  }
  return out;
}

/** Inverse of an affine matrix (last row 0 0 0 1); undefined when singular or not finite. */
export function invertAffine(m: ArrayLike<number>, out: Mat4 = new Float64Array(16)): Mat4 | undefined {
  const a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  const scale = Math.max(Math.abs(a), Math.abs(b), Math.abs(c), Math.abs(d), Math.abs(e), Math.abs(f), Math.abs(g), Math.abs(h), Math.abs(i));
  if (!Number.isFinite(det) || !(Math.abs(det) > 1e-12 * scale * scale * scale) || scale === 0) return undefined;
  const inv = 1 / det;
  // rows of the inverse 3x3 = cofactors transposed / det
  const r00 = A * inv, r01 = -(b * i - c * h) * inv, r02 = (b * f - c * e) * inv;
  const r10 = B * inv, r11 = (a * i - c * g) * inv, r12 = -(a * f - c * d) * inv;
  const r20 = C * inv, r21 = -(a * h - b * g) * inv, r22 = (a * e - b * d) * inv;
  const tx = m[12], ty = m[13], tz = m[14];
  out[0] = r00; out[1] = r10; out[2] = r20; out[3] = 0;
  out[4] = r01; out[5] = r11; out[6] = r21; out[7] = 0;
  out[8] = r02; out[9] = r12; out[10] = r22; out[11] = 0;
  out[12] = -(r00 * tx + r01 * ty + r02 * tz);
  out[13] = -(r10 * tx + r11 * ty + r12 * tz);
  out[14] = -(r20 * tx + r21 * ty + r22 * tz);
  out[15] = 1;
  for (let k = 0; k < 16; k++) if (!Number.isFinite(out[k])) return undefined;
  return out;
}

export interface RigidFrame {
  /** Origin (the matrix's translation). */
  position: Float64Array;
  /** Orientation, quaternion [x, y, z, w]. */
  rotation: Float64Array;
  /** Uniform scale: cube root of |det| of the 3x3 part. */
  scale: number;
  /** Largest relative difference between the column lengths (0 for a uniform scale). */
  anisotropy: number;
  /** True when the 3x3 part has a negative determinant (a mirror, dropped from the rotation). */
  mirrored: boolean;
}

const frameScratch = new Float64Array(9);

/**
 * The rigid part of an affine matrix: its translation (into pos[po]) and the rotation of its
 * orthonormalised first two columns (Gram-Schmidt, third column their cross product; into
 * rot[ro]), which is exact for a rotation times a uniform scale. Returns the uniform scale
 * (cube root of |det|), or NaN when a column is zero or a value not finite.
 */
export function rigidFrameInto(m: ArrayLike<number>, pos: Float64Array, po: number, rot: Float64Array, ro: number): number {
  const l0 = Math.sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
  const l1 = Math.sqrt(m[4] * m[4] + m[5] * m[5] + m[6] * m[6]);
  const l2 = Math.sqrt(m[8] * m[8] + m[9] * m[9] + m[10] * m[10]);
  if (!(l0 > 0 && l1 > 0 && l2 > 0) || !Number.isFinite(l0 + l1 + l2 + m[12] + m[13] + m[14])) return NaN;
  const x0 = m[0] / l0, x1 = m[1] / l0, x2 = m[2] / l0;
  const d = x0 * m[4] + x1 * m[5] + x2 * m[6];
  let y0 = m[4] - d * x0, y1 = m[5] - d * x1, y2 = m[6] - d * x2;
  const ly = Math.sqrt(y0 * y0 + y1 * y1 + y2 * y2);
  if (!(ly > 1e-12 * l1)) return NaN;
  y0 /= ly; y1 /= ly; y2 /= ly;
  const R = frameScratch; // row-major, columns x, y, x cross y
  R[0] = x0; R[1] = y0; R[2] = x1 * y2 - x2 * y1;
  R[3] = x1; R[4] = y1; R[5] = x2 * y0 - x0 * y2;
  R[6] = x2; R[7] = y2; R[8] = x0 * y1 - x1 * y0;
  quatFromMatrix(R, 0, rot, ro);
  pos[po] = m[12]; pos[po + 1] = m[13]; pos[po + 2] = m[14];
  return detMath.cbrt(Math.abs(determinant3(m)));
}

function determinant3(m: ArrayLike<number>): number {
  return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
}

export interface RigidFrame {
  /** Origin (the matrix's translation). */
  position: Float64Array;
  /** Orientation, quaternion [x, y, z, w]. */
  rotation: Float64Array;
  /** Uniform scale: cube root of |det| of the 3x3 part. */
  scale: number;
  /** Largest relative difference between the column lengths (0 for a uniform scale). */
  anisotropy: number;
  /** True when the 3x3 part has a negative determinant (a mirror, dropped from the rotation). */
  mirrored: boolean;
}

/** rigidFrameInto with the frame's scale details, or undefined for a degenerate matrix. */
export function rigidFrame(m: ArrayLike<number>): RigidFrame | undefined {
  const position = new Float64Array(3), rotation = new Float64Array(4);
  const scale = rigidFrameInto(m, position, 0, rotation, 0);
  if (Number.isNaN(scale)) return undefined;
  const l0 = detMath.hypot(m[0], m[1], m[2]), l1 = detMath.hypot(m[4], m[5], m[6]), l2 = detMath.hypot(m[8], m[9], m[10]);
  const mean = (l0 + l1 + l2) / 3;
  return { position, rotation, scale, anisotropy: (Math.max(l0, l1, l2) - Math.min(l0, l1, l2)) / mean, mirrored: determinant3(m) < 0 };
}

/** out = m p for the point p. */
export function transformPoint(m: ArrayLike<number>, x: number, y: number, z: number, out: Float64Array | number[], oo = 0): void {
  out[oo] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[oo + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[oo + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}
