/**
 * Mass properties of solid shapes of uniform density: volume, centre of mass and rotational
 * inertia about the centre of mass, [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (the entries of the inertia
 * tensor: Ixy = -integral of rho x y, as featherstone's LinkSpec.inertia reads them).
 *
 * - box of half extents (a, b, c): Ixx = m (b^2 + c^2) / 3, and so on;
 * - sphere of radius r: I = 2 m r^2 / 5;
 * - capsule along Y, a cylinder of half height h and radius r capped by two hemispheres: the
 *   cylinder (m_c (3 r^2 + 4 h^2) / 12 about a transverse axis, m_c r^2 / 2 about Y) plus the two
 *   hemispheres, each with its mass m_h = 2 pi rho r^3 / 3 at 3 r / 8 from its flat face (about
 *   its own centre of mass 83 m_h r^2 / 320 transverse, 2 m_h r^2 / 5 about Y), moved by the
 *   parallel-axis theorem to the capsule's centre (h + 3 r / 8 away);
 * - convex hull: the hull's faces (collision/hull.ts) fanned into triangles, each with the hull's
 *   centroid forming a tetrahedron, whose second moments are those of the canonical tetrahedron
 *   mapped linearly (covariance C = det(A) A C0 A^T, C0 = [2 1 1; 1 2 1; 1 1 2] / 120, for the
 *   edge matrix A; Blow and Binstock, "How to find the inertia tensor (or other mass properties)
 *   of a 3D solid body represented by a triangle mesh", 2004; Tonon, "Explicit exact formulas for
 *   the 3-D tetrahedron inertia tensor in terms of its vertex coordinates", J. Math. Stat. 2005).
 *   The inertia about a point is trace(C) 1 - C.
 */
import { ConvexHullData } from './collision/hull.js';

/** Mass, volume, centre of mass and rotational inertia of a solid. */
export interface MassProperties {
  /** kg */
  mass: number;
  /** m^3 */
  volume: number;
  /** Centre of mass in the shape's frame (m). */
  com: [number, number, number];
  /** Rotational inertia about the centre of mass, [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (kg m^2). */
  inertia: [number, number, number, number, number, number];
}

/** The mass of a solid of `volume` m^3 given its mass or its density (exactly one of them). */
export function massFrom(volume: number, given: { mass?: number; density?: number }, where: string): number {
  const { mass, density } = given ?? {};
  if ((mass === undefined) === (density === undefined)) throw new RangeError(`${where}: give exactly one of mass (kg) and density (kg/m^3)`);
  if (mass !== undefined) {
    if (!(typeof mass === 'number' && Number.isFinite(mass) && mass > 0)) throw new RangeError(`${where}: mass must be a finite number > 0 (kg), got ${mass}`);
    return mass;
  }
  if (!(typeof density === 'number' && Number.isFinite(density) && density > 0)) throw new RangeError(`${where}: density must be a finite number > 0 (kg/m^3), got ${density}`);
  return density * volume;
}

function positive(where: string, name: string, v: unknown): number {
  if (!(typeof v === 'number' && Number.isFinite(v) && v > 0)) throw new RangeError(`${where}: ${name} must be a finite number > 0 (m), got ${String(v)}`);
  return v;
}

/** A solid box of half extents [a, b, c] centred on its frame. */
export function boxMassProperties(halfExtents: ArrayLike<number>, given: { mass?: number; density?: number }): MassProperties {
  const where = 'RigidBody.box';
  if (!halfExtents || halfExtents.length !== 3) throw new RangeError(`${where}: halfExtents must be 3 numbers`);
  const a = positive(where, 'halfExtents[0]', halfExtents[0]), b = positive(where, 'halfExtents[1]', halfExtents[1]), c = positive(where, 'halfExtents[2]', halfExtents[2]);
  const volume = 8 * a * b * c;
  const m = massFrom(volume, given, where);
  return { mass: m, volume, com: [0, 0, 0], inertia: [(m * (b * b + c * c)) / 3, (m * (a * a + c * c)) / 3, (m * (a * a + b * b)) / 3, 0, 0, 0] };
}

/** A solid sphere of radius `radius`. */
export function sphereMassProperties(radius: number, given: { mass?: number; density?: number }): MassProperties {
  const r = positive('RigidBody.sphere', 'radius', radius);
  const volume = (4 / 3) * Math.PI * r * r * r;
  const m = massFrom(volume, given, 'RigidBody.sphere');
  const I = 0.4 * m * r * r;
  return { mass: m, volume, com: [0, 0, 0], inertia: [I, I, I, 0, 0, 0] };
}

/** A capsule along Y: a cylinder of half height `halfHeight` (>= 0) and radius `radius`, capped by hemispheres. */
export function capsuleMassProperties(halfHeight: number, radius: number, given: { mass?: number; density?: number }): MassProperties {
  const where = 'RigidBody.capsule';
  if (!(typeof halfHeight === 'number' && Number.isFinite(halfHeight) && halfHeight >= 0)) throw new RangeError(`${where}: halfHeight must be a finite number >= 0 (m), got ${halfHeight}`);
  const r = positive(where, 'radius', radius), h = halfHeight;
  const vCyl = 2 * Math.PI * r * r * h, vHemi = (2 / 3) * Math.PI * r * r * r;
  const volume = vCyl + 2 * vHemi;
  const m = massFrom(volume, given, where);
  const rho = m / volume, mc = rho * vCyl, mh = rho * vHemi;
  const d = h + (3 * r) / 8;
  const axial = (mc * r * r) / 2 + 2 * ((2 * mh * r * r) / 5);
  const transverse = (mc * (3 * r * r + 4 * h * h)) / 12 + 2 * ((83 * mh * r * r) / 320 + mh * d * d);
  return { mass: m, volume, com: [0, 0, 0], inertia: [transverse, axial, transverse, 0, 0, 0] };
}

/** The solid convex hull of points (flat [x0, y0, z0, x1, ...]), in the points' frame. */
export function hullMassProperties(points: ArrayLike<number>, given: { mass?: number; density?: number }): MassProperties {
  const hull = new ConvexHullData(points, 'RigidBody.hull');
  const V = hull.vertices, o = hull.center;
  const ox = o[0], oy = o[1], oz = o[2];
  let vol = 0, sx = 0, sy = 0, sz = 0;
  // covariance about the reference point o: C = sum over tetrahedra of det(A) A C0 A^T
  let cxx = 0, cyy = 0, czz = 0, cxy = 0, cxz = 0, cyz = 0;
  for (let f = 0; f < hull.faceCount; f++) {
    const s = hull.faceStart[f], e = hull.faceStart[f + 1];
    const i0 = 3 * hull.faceVertices[s];
    for (let k = s + 1; k + 1 < e; k++) {
      const i1 = 3 * hull.faceVertices[k], i2 = 3 * hull.faceVertices[k + 1];
      // edges from o (columns of A)
      const ax = V[i0] - ox, ay = V[i0 + 1] - oy, az = V[i0 + 2] - oz;
      const bx = V[i1] - ox, by = V[i1 + 1] - oy, bz = V[i1 + 2] - oz;
      const cx = V[i2] - ox, cy = V[i2 + 1] - oy, cz = V[i2 + 2] - oz;
      const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
      vol += det / 6;
      sx += (det / 24) * (ax + bx + cx); sy += (det / 24) * (ay + by + cy); sz += (det / 24) * (az + bz + cz);
      // det * (sum_i a_i a_i^T + (sum a_i)(sum a_i)^T) / 120 is det A C0 A^T
      const tx = ax + bx + cx, ty = ay + by + cy, tz = az + bz + cz;
      const w = det / 120;
      cxx += w * (ax * ax + bx * bx + cx * cx + tx * tx);
      cyy += w * (ay * ay + by * by + cy * cy + ty * ty);
      czz += w * (az * az + bz * bz + cz * cz + tz * tz);
      cxy += w * (ax * ay + bx * by + cx * cy + tx * ty);
      cxz += w * (ax * az + bx * bz + cx * cz + tx * tz);
      cyz += w * (ay * az + by * bz + cy * cz + ty * tz);
    }
  }
  const m = massFrom(vol, given, 'RigidBody.hull');
  const rho = m / vol;
  // centre of mass relative to o, and the covariance moved to it: C_c = C_o - V d d^T
  const dx = sx / vol, dy = sy / vol, dz = sz / vol;
  cxx -= vol * dx * dx; cyy -= vol * dy * dy; czz -= vol * dz * dz;
  cxy -= vol * dx * dy; cxz -= vol * dx * dz; cyz -= vol * dy * dz;
  const tr = cxx + cyy + czz;
  return {
    mass: m,
    volume: vol,
    com: [ox + dx, oy + dy, oz + dz],
    inertia: [rho * (tr - cxx), rho * (tr - cyy), rho * (tr - czz), -rho * cxy, -rho * cxz, -rho * cyz],
  };
}
