/**
 * Exact ray tests against each shape kind, in the shape's local frame. A ray is o + t d with d a
 * unit vector and t in [0, tMax], passed as ray = [ox, oy, oz, dx, dy, dz, tMax, ...] (numbers in
 * a typed array, not as arguments: a double passed to a call that is not inlined is boxed). Each
 * test writes [t, nx, ny, nz] into `res` (the normal unit, in the local frame) and returns whether
 * the ray hits.
 *
 * Solid convex shapes (sphere, capsule, box, convex hull, plane as a half-space): a ray starting
 * inside reports t = 0 with the normal opposite the ray (-d). Triangle meshes and heightfields are
 * surfaces: the first triangle crossed, from either side, with its normal turned against the ray.
 *
 * Sources: C. Ericson, "Real-Time Collision Detection" (2005): 5.3.2 ray-sphere, 5.3.3 ray-box
 * slabs (Kay and Kajiya), 5.3.7 ray-cylinder, 5.3.8 ray-convex polyhedron (Cyrus-Beck / Haines
 * plane clipping); T. Moller and B. Trumbore, "Fast, Minimum Storage Ray-Triangle Intersection"
 * (1997); heightfield cells walked by J. Amanatides and A. Woo, "A Fast Voxel Traversal Algorithm
 * for Ray Tracing" (1987).
 */
import { clipRay } from './aabb.js';
import type { ConvexHullData } from './hull.js';
import type { HeightfieldData } from './heightfield.js';
import type { TriangleMeshData } from './mesh.js';

/** Sphere of radius r = ray[10] about (ray[7], ray[8], ray[9]) (Ericson 5.3.2). */
export function raySphere(ray: Float64Array, res: Float64Array): boolean {
  const ox = ray[0], oy = ray[1], oz = ray[2], dx = ray[3], dy = ray[4], dz = ray[5], tMax = ray[6];
  const cx = ray[7], cy = ray[8], cz = ray[9], r = ray[10];
  const mx = ox - cx, my = oy - cy, mz = oz - cz;
  const c = mx * mx + my * my + mz * mz - r * r;
  if (c <= 0) return inside(dx, dy, dz, res);
  const b = mx * dx + my * dy + mz * dz;
  if (b > 0) return false;
  const disc = b * b - c;
  if (disc < 0) return false;
  // -b - sqrt(disc) written as c / (-b + sqrt(disc)): no cancellation when the ray grazes
  const t = c / (-b + Math.sqrt(disc));
  if (!(t <= tMax)) return false;
  res[0] = t;
  res[1] = (mx + t * dx) / r; res[2] = (my + t * dy) / r; res[3] = (mz + t * dz) / r;
  normalize(res);
  return true;
}

/**
 * Capsule: the segment from (0, -h, 0) to (0, h, 0) swept by radius r (r = prm[po], h = prm[po + 1]),
 * as the union of the cylinder's side and the two end spheres; the first entry into the union is
 * the first of the entries into its parts (Ericson 5.3.7 for the side).
 */
export function rayCapsule(ray: Float64Array, prm: Float64Array, po: number, res: Float64Array): boolean {
  const ox = ray[0], oy = ray[1], oz = ray[2], dx = ray[3], dy = ray[4], dz = ray[5], tMax = ray[6];
  const r = prm[po], h = prm[po + 1];
  const ax = 0, ay = -h, az = 0, bx = 0, by = h, bz = 0;
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const uu = ux * ux + uy * uy + uz * uz;
  const mx = ox - ax, my = oy - ay, mz = oz - az;
  // start inside: distance from o to the segment <= r
  let s = uu > 0 ? (mx * ux + my * uy + mz * uz) / uu : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  const qx = mx - s * ux, qy = my - s * uy, qz = mz - s * uz;
  if (qx * qx + qy * qy + qz * qz <= r * r) return inside(dx, dy, dz, res);
  let best = Infinity, nx = 0, ny = 0, nz = 0;
  if (uu > 0) {
    // side: |(m + t d) x u|^2 = r^2 |u|^2 with the axis parameter in [0, 1]
    const md = mx * ux + my * uy + mz * uz, dd = dx * ux + dy * uy + dz * uz;
    const a = uu - dd * dd, k = mx * mx + my * my + mz * mz - r * r;
    const b = uu * (mx * dx + my * dy + mz * dz) - md * dd;
    const c = uu * k - md * md;
    if (a > 1e-300) {
      const disc = b * b - a * c;
      if (disc >= 0 && b < 0) {
        const t = c / (-b + Math.sqrt(disc));
        const w = md + t * dd;
        if (t >= 0 && w >= 0 && w <= uu) {
          best = t;
          const px = mx + t * dx - (w / uu) * ux, py = my + t * dy - (w / uu) * uy, pz = mz + t * dz - (w / uu) * uz;
          nx = px; ny = py; nz = pz;
        }
      }
    }
  }
  ray[7] = ax; ray[8] = ay; ray[9] = az; ray[10] = r;
  if (raySphere(ray, res) && res[0] < best) { best = res[0]; nx = res[1]; ny = res[2]; nz = res[3]; }
  ray[7] = bx; ray[8] = by; ray[9] = bz;
  if (raySphere(ray, res) && res[0] < best) { best = res[0]; nx = res[1]; ny = res[2]; nz = res[3]; }
  if (!(best <= tMax)) return false;
  res[0] = best; res[1] = nx; res[2] = ny; res[3] = nz;
  normalize(res);
  return true;
}

/** Box [-h, h] on each axis about the origin (h = prm[po .. po + 3]), by slabs (Ericson 5.3.3). */
export function rayBox(ray: Float64Array, prm: Float64Array, po: number, res: Float64Array): boolean {
  const ox = ray[0], oy = ray[1], oz = ray[2], dx = ray[3], dy = ray[4], dz = ray[5], tMax = ray[6];
  const hx = prm[po], hy = prm[po + 1], hz = prm[po + 2];
  let tIn = -Infinity, tOut = tMax, axis = -1, sign = 0;
  for (let k = 0; k < 3; k++) {
    const o = k === 0 ? ox : k === 1 ? oy : oz, d = k === 0 ? dx : k === 1 ? dy : dz, h = k === 0 ? hx : k === 1 ? hy : hz;
    if (d === 0) {
      if (o < -h || o > h) return false;
      continue;
    }
    let t1 = (-h - o) / d, t2 = (h - o) / d, s = -1;
    if (t1 > t2) { const t = t1; t1 = t2; t2 = t; s = 1; }
    if (t1 > tIn) { tIn = t1; axis = k; sign = s; }
    if (t2 < tOut) tOut = t2;
    if (tIn > tOut) return false;
  }
  if (tIn <= 0) return tOut >= 0 ? inside(dx, dy, dz, res) : false;
  res[0] = tIn; res[1] = 0; res[2] = 0; res[3] = 0;
  res[1 + axis] = sign;
  return true;
}

/**
 * Convex polyhedron given by `count` planes (nx, ny, nz, d) at planes[4 * first ..], solid where
 * n . x <= d for all of them, by plane clipping (Ericson 5.3.8).
 */
export function rayPlanes(ray: Float64Array, planes: Float64Array, first: number, count: number, res: Float64Array): boolean {
  const ox = ray[0], oy = ray[1], oz = ray[2], dx = ray[3], dy = ray[4], dz = ray[5], tMax = ray[6];
  let tIn = 0, tOut = tMax, face = -1;
  for (let f = first; f < first + count; f++) {
    const o = 4 * f, nx = planes[o], ny = planes[o + 1], nz = planes[o + 2];
    const denom = nx * dx + ny * dy + nz * dz;
    const dist = planes[o + 3] - (nx * ox + ny * oy + nz * oz);
    if (denom === 0) {
      if (dist < 0) return false;
    } else {
      const t = dist / denom;
      if (denom < 0) {
        if (t > tIn) { tIn = t; face = f; }
      } else if (t < tOut) {
        tOut = t;
      }
      if (tIn > tOut) return false;
    }
  }
  if (face < 0) return inside(dx, dy, dz, res);
  res[0] = tIn; res[1] = planes[4 * face]; res[2] = planes[4 * face + 1]; res[3] = planes[4 * face + 2];
  return true;
}

/** Convex hull (its face planes). */
export function rayHull(ray: Float64Array, hull: ConvexHullData, res: Float64Array): boolean {
  return rayPlanes(ray, hull.planes, 0, hull.faceCount, res);
}

/** The half-space y <= 0 (a plane shape: normal local +Y through the origin, solid below). */
export function rayHalfSpace(ray: Float64Array, res: Float64Array): boolean {
  const oy = ray[1], dx = ray[3], dy = ray[4], dz = ray[5], tMax = ray[6];
  if (oy <= 0) return inside(dx, dy, dz, res);
  if (dy >= 0) return false;
  const t = -oy / dy;
  if (!(t <= tMax)) return false;
  res[0] = t; res[1] = 0; res[2] = 1; res[3] = 0;
  return true;
}

/**
 * Triangle (v0, v1, v2) at tri[o..o+9), both sides, by Moller-Trumbore; the normal is the
 * triangle's, turned against the ray. Hits with t in [0, tMax].
 */
export function rayTriangle(ray: Float64Array, tri: Float64Array, o: number, res: Float64Array): boolean {
  const ox = ray[0], oy = ray[1], oz = ray[2], dx = ray[3], dy = ray[4], dz = ray[5], tMax = ray[6];
  const x0 = tri[o], y0 = tri[o + 1], z0 = tri[o + 2];
  const e1x = tri[o + 3] - x0, e1y = tri[o + 4] - y0, e1z = tri[o + 5] - z0;
  const e2x = tri[o + 6] - x0, e2y = tri[o + 7] - y0, e2z = tri[o + 8] - z0;
  const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0) return false;
  const inv = 1 / det;
  const sx = ox - x0, sy = oy - y0, sz = oz - z0;
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (u < 0 || u > 1) return false;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < 0 || u + v > 1) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (t < 0 || !(t <= tMax)) return false;
  let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  if (nx * dx + ny * dy + nz * dz > 0) { nx = -nx; ny = -ny; nz = -nz; }
  res[0] = t; res[1] = nx; res[2] = ny; res[3] = nz;
  normalize(res);
  return true;
}

/** First triangle of a mesh the ray crosses, through the mesh's BVH; res[4] = the kept triangle's index. */
export function rayMesh(ray: Float64Array, mesh: TriangleMeshData, tri: Float64Array, res: Float64Array): boolean {
  const tMax = ray[6];
  const n = mesh.rayQuery(ray);
  let best = tMax, found = -1, nx = 0, ny = 0, nz = 0;
  const v = mesh.vertices, idx = mesh.indices;
  for (let i = 0; i < n; i++) {
    const t = mesh.hits[i];
    for (let k = 0; k < 3; k++) {
      const j = 3 * idx[3 * t + k];
      tri[3 * k] = v[j]; tri[3 * k + 1] = v[j + 1]; tri[3 * k + 2] = v[j + 2];
    }
    ray[6] = best;
    if (rayTriangle(ray, tri, 0, res) && (found < 0 || res[0] < best || (res[0] === best && t < found))) {
      best = res[0]; found = t; nx = res[1]; ny = res[2]; nz = res[3];
    }
  }
  ray[6] = tMax;
  if (found < 0) return false;
  res[0] = best; res[1] = nx; res[2] = ny; res[3] = nz; res[4] = found;
  return true;
}

/**
 * First heightfield triangle the ray crosses: the ray is clipped to the field's bounds, then its
 * cells are walked in order along the ray (Amanatides and Woo) and both triangles of each cell are
 * tested; the first cell with a hit holds the first hit. res[4] = the triangle index.
 */
export function rayHeightfield(ray: Float64Array, hf: HeightfieldData, tri: Float64Array, res: Float64Array): boolean {
  const ox = ray[0], oy = ray[1], oz = ray[2], dx = ray[3], dy = ray[4], dz = ray[5], tMax = ray[6];
  // the span of the ray over the field's bounds, in ray[7..9)
  ray[7] = 0; ray[8] = tMax;
  if (!clipRay(ray, hf.bounds, 0, ray, 7)) return false;
  const t0 = ray[7], t1 = ray[8];
  const sx = hf.spacingX, sz = hf.spacingZ, lastC = hf.cols - 2, lastR = hf.rows - 2;
  let c = Math.floor((ox + t0 * dx) / sx), r = Math.floor((oz + t0 * dz) / sz);
  c = c < 0 ? 0 : c > lastC ? lastC : c;
  r = r < 0 ? 0 : r > lastR ? lastR : r;
  const stepC = dx > 0 ? 1 : dx < 0 ? -1 : 0, stepR = dz > 0 ? 1 : dz < 0 ? -1 : 0;
  const dtC = stepC !== 0 ? sx / Math.abs(dx) : Infinity, dtR = stepR !== 0 ? sz / Math.abs(dz) : Infinity;
  let nextC = stepC > 0 ? ((c + 1) * sx - ox) / dx : stepC < 0 ? (c * sx - ox) / dx : Infinity;
  let nextR = stepR > 0 ? ((r + 1) * sz - oz) / dz : stepR < 0 ? (r * sz - oz) / dz : Infinity;
  const h = hf.heights, cols = hf.cols;
  for (;;) {
    const x0 = c * sx, x1 = x0 + sx, z0 = r * sz, z1 = z0 + sz;
    const h00 = h[r * cols + c], h10 = h[r * cols + c + 1], h01 = h[(r + 1) * cols + c], h11 = h[(r + 1) * cols + c + 1];
    let best = Infinity, found = -1, nx = 0, ny = 0, nz = 0;
    tri[0] = x0; tri[1] = h00; tri[2] = z0; tri[3] = x0; tri[4] = h01; tri[5] = z1; tri[6] = x1; tri[7] = h11; tri[8] = z1;
    if (rayTriangle(ray, tri, 0, res)) { best = res[0]; found = 2 * (r * (cols - 1) + c); nx = res[1]; ny = res[2]; nz = res[3]; }
    tri[3] = x1; tri[4] = h11; tri[5] = z1; tri[6] = x1; tri[7] = h10; tri[8] = z0;
    if (rayTriangle(ray, tri, 0, res) && res[0] < best) { best = res[0]; found = 2 * (r * (cols - 1) + c) + 1; nx = res[1]; ny = res[2]; nz = res[3]; }
    if (found >= 0) {
      res[0] = best; res[1] = nx; res[2] = ny; res[3] = nz; res[4] = found;
      return true;
    }
    if (nextC < nextR) {
      if (nextC > t1) return false;
      c += stepC; nextC += dtC;
      if (c < 0 || c > lastC) return false;
    } else {
      if (nextR > t1) return false;
      r += stepR; nextR += dtR;
      if (r < 0 || r > lastR) return false;
    }
  }
}

/** A ray starting inside a solid: t = 0, the normal opposite the ray. */
function inside(dx: number, dy: number, dz: number, res: Float64Array): boolean {
  res[0] = 0; res[1] = -dx; res[2] = -dy; res[3] = -dz;
  return true;
}

function normalize(res: Float64Array): void {
  const l = Math.sqrt(res[1] * res[1] + res[2] * res[2] + res[3] * res[3]);
  if (l > 0) { res[1] /= l; res[2] /= l; res[3] /= l; }
}
