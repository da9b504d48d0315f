/**
 * Rigid poses as 12 numbers [R00, R01, R02, R10, R11, R12, R20, R21, R22, px, py, pz]: R row-major,
 * world = R * local + p. Column c of R (R[c], R[3 + c], R[6 + c]) is the local axis c seen in world.
 */

export const POSE_STRIDE = 12;

/** poseFromQuaternion's quaternion and position, as poseFromArrays reads them. */
const QP = new Float64Array(7);

/** Writes the pose of rotation quaternion q = [x, y, z, w] (normalised here) and position p at out[o]. */
export function poseFromQuaternion(
  qx: number, qy: number, qz: number, qw: number,
  px: number, py: number, pz: number,
  out: Float64Array, o: number,
): void {
  QP[0] = qx; QP[1] = qy; QP[2] = qz; QP[3] = qw; QP[4] = px; QP[5] = py; QP[6] = pz;
  poseFromArrays(QP, 0, QP, 4, out, o);
}

/** out = a ∘ b: first b, then a (a maps b's frame into the world). out may not alias a or b. */
export function composePoses(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Float64Array, oo: number): void {
  for (let r = 0; r < 3; r++) {
    const a0 = a[ao + 3 * r], a1 = a[ao + 3 * r + 1], a2 = a[ao + 3 * r + 2];
    out[oo + 3 * r] = a0 * b[bo] + a1 * b[bo + 3] + a2 * b[bo + 6];
    out[oo + 3 * r + 1] = a0 * b[bo + 1] + a1 * b[bo + 4] + a2 * b[bo + 7];
    out[oo + 3 * r + 2] = a0 * b[bo + 2] + a1 * b[bo + 5] + a2 * b[bo + 8];
    out[oo + 9 + r] = a0 * b[bo + 9] + a1 * b[bo + 10] + a2 * b[bo + 11] + a[ao + 9 + r];
  }
}

/** out = a^-1 ∘ b: the pose of b's frame expressed in a's frame. out may not alias a or b. */
export function relativePose(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Float64Array, oo: number): void {
  const dx = b[bo + 9] - a[ao + 9], dy = b[bo + 10] - a[ao + 10], dz = b[bo + 11] - a[ao + 11];
  for (let r = 0; r < 3; r++) {
    // Row r of R_a^T is column r of R_a.
    const a0 = a[ao + r], a1 = a[ao + 3 + r], a2 = a[ao + 6 + r];
    out[oo + 3 * r] = a0 * b[bo] + a1 * b[bo + 3] + a2 * b[bo + 6];
    out[oo + 3 * r + 1] = a0 * b[bo + 1] + a1 * b[bo + 4] + a2 * b[bo + 7];
    out[oo + 3 * r + 2] = a0 * b[bo + 2] + a1 * b[bo + 5] + a2 * b[bo + 8];
    out[oo + 9 + r] = a0 * dx + a1 * dy + a2 * dz;
  }
}

/** True when all 12 numbers of the pose are finite. */
export function poseIsFinite(p: ArrayLike<number>, o: number): boolean {
  for (let i = 0; i < POSE_STRIDE; i++) if (!Number.isFinite(p[o + i])) return false;
  return true;
}

/**
 * poseFromQuaternion with the quaternion q[qo..qo+4) and position p[po..po+3) read from arrays
 * (doubles passed as arguments to a call that is not inlined are boxed).
 */
export function poseFromArrays(q: Float64Array, qo: number, p: Float64Array, po: number, out: Float64Array, o: number): void {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  const len = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  const x = qx / len, y = qy / len, z = qz / len, w = qw / len;
  const xx = x * x, yy = y * y, zz = z * z;
  const xy = x * y, xz = x * z, yz = y * z;
  const wx = w * x, wy = w * y, wz = w * z;
  out[o] = 1 - 2 * (yy + zz);
  out[o + 1] = 2 * (xy - wz);
  out[o + 2] = 2 * (xz + wy);
  out[o + 3] = 2 * (xy + wz);
  out[o + 4] = 1 - 2 * (xx + zz);
  out[o + 5] = 2 * (yz - wx);
  out[o + 6] = 2 * (xz - wy);
  out[o + 7] = 2 * (yz + wx);
  out[o + 8] = 1 - 2 * (xx + yy);
  out[o + 9] = p[po];
  out[o + 10] = p[po + 1];
  out[o + 11] = p[po + 2];
}
