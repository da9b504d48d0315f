/**
 * Contacts of a sphere, capsule or box (shape A) with a static plane (shape B): the plane through
 * the plane pose's origin with normal = its local +Y axis, solid below. Every point of A's support
 * features within the margin above the plane is a contact, with the plane normal as normal.
 * Sizes come from the parameter array prm at offset qa (see sphere-contacts.ts).
 *
 * Feature ids: sphere 0; capsule end 0 or 1; box vertex index x + 2y + 4z (bit set = + side).
 */
import type { ManifoldBuilder } from './manifold.js';

export function spherePlaneContact(pa: Float64Array, oa: number, pp: Float64Array, op: number, prm: Float64Array, qa: number, out: ManifoldBuilder): void {
  const r = prm[qa];
  const cx = pa[oa + 9], cy = pa[oa + 10], cz = pa[oa + 11];
  const nx = pp[op + 1], ny = pp[op + 4], nz = pp[op + 7];
  const depth = r - (nx * (cx - pp[op + 9]) + ny * (cy - pp[op + 10]) + nz * (cz - pp[op + 11]));
  if (depth < -out.margin) return;
  const c = out.next;
  c[0] = cx - nx * r; c[1] = cy - ny * r; c[2] = cz - nz * r;
  c[3] = nx; c[4] = ny; c[5] = nz;
  c[6] = depth;
  out.push(0);
}

/**
 * Each end of the axis within the margin is a contact. The point on the capsule is the lowest
 * point of the sphere at that end (its cap's lowest point for the lower end; for an upper end
 * within the margin, a point inside the capsule by at most r (1 - cos tilt)).
 */
export function capsulePlaneContact(pa: Float64Array, oa: number, pp: Float64Array, op: number, prm: Float64Array, qa: number, out: ManifoldBuilder): void {
  const r = prm[qa], h = prm[qa + 1];
  const nx = pp[op + 1], ny = pp[op + 4], nz = pp[op + 7];
  const ux = pa[oa + 1] * h, uy = pa[oa + 4] * h, uz = pa[oa + 7] * h;
  for (let e = 0; e < 2; e++) {
    const s = e === 0 ? -1 : 1;
    const x = pa[oa + 9] + s * ux, y = pa[oa + 10] + s * uy, z = pa[oa + 11] + s * uz;
    const depth = r - (nx * (x - pp[op + 9]) + ny * (y - pp[op + 10]) + nz * (z - pp[op + 11]));
    if (depth < -out.margin) continue;
    const c = out.next;
    c[0] = x - nx * r; c[1] = y - ny * r; c[2] = z - nz * r;
    c[3] = nx; c[4] = ny; c[5] = nz;
    c[6] = depth;
    out.push(e);
  }
}

export function boxPlaneContact(pa: Float64Array, oa: number, pp: Float64Array, op: number, prm: Float64Array, qa: number, out: ManifoldBuilder): void {
  const hx = prm[qa], hy = prm[qa + 1], hz = prm[qa + 2];
  const nx = pp[op + 1], ny = pp[op + 4], nz = pp[op + 7];
  const cHeight = nx * (pa[oa + 9] - pp[op + 9]) + ny * (pa[oa + 10] - pp[op + 10]) + nz * (pa[oa + 11] - pp[op + 11]);
  // Height of each box axis step along the plane normal.
  const ex = hx * (nx * pa[oa] + ny * pa[oa + 3] + nz * pa[oa + 6]);
  const ey = hy * (nx * pa[oa + 1] + ny * pa[oa + 4] + nz * pa[oa + 7]);
  const ez = hz * (nx * pa[oa + 2] + ny * pa[oa + 5] + nz * pa[oa + 8]);
  if (cHeight - Math.abs(ex) - Math.abs(ey) - Math.abs(ez) > out.margin) return;
  for (let v = 0; v < 8; v++) {
    const sx = v & 1 ? 1 : -1, sy = v & 2 ? 1 : -1, sz = v & 4 ? 1 : -1;
    const depth = -(cHeight + sx * ex + sy * ey + sz * ez);
    if (depth < -out.margin) continue;
    const lx = sx * hx, ly = sy * hy, lz = sz * hz;
    const c = out.next;
    c[0] = pa[oa] * lx + pa[oa + 1] * ly + pa[oa + 2] * lz + pa[oa + 9];
    c[1] = pa[oa + 3] * lx + pa[oa + 4] * ly + pa[oa + 5] * lz + pa[oa + 10];
    c[2] = pa[oa + 6] * lx + pa[oa + 7] * ly + pa[oa + 8] * lz + pa[oa + 11];
    c[3] = nx; c[4] = ny; c[5] = nz;
    c[6] = depth;
    out.push(v);
  }
  out.reduce();
}
