/**
 * What a Model cannot give back exactly. ModelBuilder keeps a joint's frame as a rotation matrix
 * and its axes normalised, so the quaternion and axis it was given are gone, and recovering them
 * from the matrix can miss the last bit. Models built by characterFromJSON are therefore
 * remembered with the exact rotation, axis and twist axis given to the builder, and
 * characterToJSON writes those, which rebuild the same bits. For other models the values are
 * recovered from the matrices, searching the neighbouring floating-point numbers for ones the
 * builder maps back to the same bits; when none is found the written value is off in the last bit.
 */
import type { Model } from '@sinew/featherstone';
import { mat3ToQuat, type Quat, type Vec3 } from './math.js';
import { detMath } from '@sinew/featherstone';

export interface BuilderInputs {
  rotation: (Quat | undefined)[];
  axis: (Vec3 | undefined)[];
  twistAxis: (Vec3 | undefined)[];
}

const registry = new WeakMap<Model, BuilderInputs>();

export function rememberInputs(model: Model, inputs: BuilderInputs): void {
  registry.set(model, inputs);
}

export function builderInputs(model: Model): BuilderInputs | undefined {
  return registry.get(model);
}

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
/** The float k steps (units in the last place) away from v. */
function ulpStep(v: number, k: number): number {
  if (k === 0 || v === 0) return v;
  f64[0] = v;
  i64[0] += BigInt(k);
  return f64[0];
}

/** E = R^T as ModelBuilder computes it from a quaternion (row-major, normalised input). */
function builderMatrix(r: readonly number[], out: Float64Array): void {
  const rn = detMath.hypot(r[0], r[1], r[2], r[3]);
  const x = r[0] / rn, y = r[1] / rn, z = r[2] / rn, w = r[3] / rn;
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[0] = 1 - 2 * (yy + zz); out[3] = 2 * (xy - wz); out[6] = 2 * (xz + wy);
  out[1] = 2 * (xy + wz); out[4] = 1 - 2 * (xx + zz); out[7] = 2 * (yz - wx);
  out[2] = 2 * (xz - wy); out[5] = 2 * (yz + wx); out[8] = 1 - 2 * (xx + yy);
}

function sameBits(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (!Object.is(a[ao + k], b[bo + k])) return false;
  return true;
}

/** A quaternion the builder maps to the joint rotation E stored at treeX[12 i .. 12 i + 8]. */
export function recoverRotation(treeX: Float64Array, i: number): Quat {
  const o = 12 * i;
  // E maps parent to joint coordinates; the joint frame's rotation is R = E^T
  const R = [treeX[o], treeX[o + 3], treeX[o + 6], treeX[o + 1], treeX[o + 4], treeX[o + 7], treeX[o + 2], treeX[o + 5], treeX[o + 8]];
  const q = mat3ToQuat(R);
  const E = new Float64Array(9);
  const K = 2;
  for (let a = -K; a <= K; a++) for (let b = -K; b <= K; b++) for (let c = -K; c <= K; c++) for (let d = -K; d <= K; d++) {
    const cand: Quat = [ulpStep(q[0], a), ulpStep(q[1], b), ulpStep(q[2], c), ulpStep(q[3], d)];
    builderMatrix(cand, E);
    if (sameBits(E, 0, treeX, o, 9)) return cand;
  }
  return q;
}

/** A vector whose normalisation (as the builder computes it) gives the unit vector u exactly. */
export function recoverUnit(u: ArrayLike<number>, o = 0): Vec3 {
  const K = 3;
  const n = new Float64Array(3);
  for (let a = -K; a <= K; a++) for (let b = -K; b <= K; b++) for (let c = -K; c <= K; c++) {
    const v: Vec3 = [ulpStep(u[o], a), ulpStep(u[o + 1], b), ulpStep(u[o + 2], c)];
    const len = detMath.hypot(v[0], v[1], v[2]);
    n[0] = v[0] / len; n[1] = v[1] / len; n[2] = v[2] / len;
    if (sameBits(n, 0, u, o, 3)) return v;
  }
  return [u[o], u[o + 1], u[o + 2]];
}
