/**
 * Shape queries against the surfaces of static triangle meshes and heightfields: whether a sphere,
 * capsule or box touches one, and where a sweep of one first touches it. Meshes and heightfields
 * are surfaces here, as they are for rays (queries.ts): a shape meets one where it touches a
 * triangle, from either side. A shape whose position lies in a heightfield's solid (below its
 * surface over its cells, not below its lowest height: HeightfieldData.contains, as pointQuery
 * sees it) also overlaps the field.
 *
 * Work is done in the surface's frame. The triangles near the query come from the mesh's BVH or
 * the heightfield's cell range under the query's bounds (for a cast, the bounds of the sweep, in
 * pieces along it for a mesh and cells in order along it for a heightfield, so that a near hit
 * cuts the rest off; then a cheaper cut: the triangle's bounding sphere against the capsule the
 * query's bounding sphere sweeps up to the nearest hit so far). Each is measured by the GJK distance between the query's core (a point,
 * a segment or a box; gjk.ts) and the triangle, less the query's radius.
 *
 * A cast against one triangle is conservative advancement (B. Mirtich, "Impulse-based Dynamic
 * Simulation of Rigid Body Systems", 1996, ch. 2) by Newton steps on the distance f(t) between the
 * shape translated by t along the unit direction u and the triangle: f is convex in t (the distance
 * between two convex sets under a translation), its slope at t is u . n (n the unit normal from
 * the triangle to the shape), so its tangent meets zero no later than f does and the step f / (-u . n)
 * never passes the first touch; when the slope is >= 0 the shape never comes closer. Each step aims
 * at half SURFACE_TOLERANCE short of the touch, so the shapes stay apart and the distance still has
 * its normal and closest points; the cast stops when they are apart by less than SURFACE_TOLERANCE
 * and takes a last Newton step, reporting the normal and the point on the triangle found there.
 */
import { CORE_BOX, CORE_POINT, CORE_SEGMENT, GjkDistance } from './gjk.js';
import type { HeightfieldData } from './heightfield.js';
import type { TriangleMeshData } from './mesh.js';
import { POSE_STRIDE, relativePose } from './pose.js';
import { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_SPHERE } from './shape-types.js';

/**
 * Distance (m) at which a cast against a triangle counts as touching, before its last Newton step
 * (CAST_TOLERANCE, as for the other shapes). Not much less: the normal is the direction between
 * the closest points found there, whose rounding (1e-16 of the coordinates) grows relative to
 * their distance.
 */
const SURFACE_TOLERANCE = 1e-7;
/** Most Newton steps of one cast against one triangle. */
const CAST_STEPS = 64;

export class SurfaceQueries {
  private readonly gjk = new GjkDistance();
  /** The surface's world pose. */
  private readonly frame = new Float64Array(POSE_STRIDE);
  /** Query: start position in the surface frame (0..2), unit direction there (3..5), radius (6), bounding radius (7). */
  private readonly q = new Float64Array(8);
  /** Bounds in the surface frame of what is looked for (the shape, or its sweep). */
  private readonly bounds = new Float64Array(6);
  /** The shape's bounds at the start of a cast (surface frame). */
  private readonly startBounds = new Float64Array(6);
  private readonly cells = new Int32Array(4);
  /**
   * The nearest hit of the last cast: [distance, world point (3), world normal (3)], its triangle
   * in `subShape`.
   */
  readonly hit = new Float64Array(7);
  /** Triangle of the last cast's hit: its index in the mesh description, or the heightfield triangle. */
  subShape = -1;

  /**
   * Sets the query: a sphere, capsule or box (kind, sizes prm[0..3)) at the world pose
   * pose[0..12), and the surface's world pose W[o..o+12).
   */
  begin(kind: number, prm: Float64Array, pose: Float64Array, W: Float64Array, o: number): void {
    const F = this.frame, g = this.gjk, q = this.q;
    for (let i = 0; i < POSE_STRIDE; i++) F[i] = W[o + i];
    relativePose(F, 0, pose, 0, g.pose, 0);
    q[0] = g.pose[9]; q[1] = g.pose[10]; q[2] = g.pose[11];
    if (kind === SHAPE_SPHERE) { g.kind = CORE_POINT; q[6] = prm[0]; q[7] = prm[0]; }
    else if (kind === SHAPE_CAPSULE) { g.kind = CORE_SEGMENT; g.size[1] = prm[1]; q[6] = prm[0]; q[7] = prm[0] + prm[1]; }
    else {
      g.kind = CORE_BOX; g.size[0] = prm[0]; g.size[1] = prm[1]; g.size[2] = prm[2]; q[6] = 0;
      q[7] = Math.sqrt(prm[0] * prm[0] + prm[1] * prm[1] + prm[2] * prm[2]);
    }
    // the shape's bounds in the surface frame
    const P = g.pose, b = this.bounds;
    for (let k = 0; k < 3; k++) {
      let e: number;
      if (kind === SHAPE_SPHERE) e = prm[0];
      else if (kind === SHAPE_CAPSULE) e = prm[0] + Math.abs(P[3 * k + 1]) * prm[1];
      else if (kind === SHAPE_BOX) e = Math.abs(P[3 * k]) * prm[0] + Math.abs(P[3 * k + 1]) * prm[1] + Math.abs(P[3 * k + 2]) * prm[2];
      else e = 0;
      b[k] = P[9 + k] - e;
      b[3 + k] = P[9 + k] + e;
    }
  }

  /** Whether the query shape set by begin touches the mesh or heightfield (one of them non-null). */
  overlaps(mesh: TriangleMeshData | null, hf: HeightfieldData | null): boolean {
    const g = this.gjk, r = this.q[6];
    if (mesh !== null) {
      const n = mesh.query(this.bounds);
      for (let i = 0; i < n; i++) {
        meshCorners(mesh, mesh.hits[i], g.tri);
        g.run();
        if (g.out[0] <= r) return true;
      }
      return false;
    }
    const field = hf as HeightfieldData;
    if (field.contains(this.q, 0)) return true;
    if (!this.fieldCells(field)) return false;
    const cols1 = field.cols - 1, c = this.cells;
    for (let row = c[1]; row <= c[3]; row++) {
      for (let col = c[0]; col <= c[2]; col++) {
        for (let k = 0; k < 2; k++) {
          field.corners(2 * (row * cols1 + col) + k, g.tri, 0);
          g.run();
          if (g.out[0] <= r) return true;
        }
      }
    }
    return false;
  }

  /**
   * Nearest touch of the query shape swept from its pose along the world unit direction
   * sweep[3..6) within sweep[6] (m), against the mesh or heightfield; the hit goes to `hit` and
   * `subShape` (ties: the lower triangle). Returns whether it touches.
   */
  cast(mesh: TriangleMeshData | null, hf: HeightfieldData | null, sweep: Float64Array): boolean {
    const F = this.frame, q = this.q, b = this.bounds;
    const dx = sweep[3], dy = sweep[4], dz = sweep[5];
    // the direction in the surface frame: R^T u
    q[3] = F[0] * dx + F[3] * dy + F[6] * dz;
    q[4] = F[1] * dx + F[4] * dy + F[7] * dz;
    q[5] = F[2] * dx + F[5] * dy + F[8] * dz;
    const limit = sweep[6];
    this.startBounds.set(b);
    // the sweep's bounds: the shape's at the start and at the end
    for (let k = 0; k < 3; k++) {
      const d = q[3 + k] * limit;
      if (d < 0) b[k] += d; else b[3 + k] += d;
    }
    this.hit[0] = limit;
    this.subShape = -1;
    const g = this.gjk;
    if (mesh !== null) {
      // the sweep in pieces of a few of the shape's sizes, each piece's triangles from the BVH
      // under its bounds, in order along the sweep: past the nearest hit found, the rest is left
      // (a triangle under two pieces is tested twice, to the same result)
      const sb = this.startBounds, piece = 4 * q[7] + 1e-3;
      for (let t0 = 0; t0 === 0 || t0 < this.hit[0]; t0 += piece) {
        const t1 = t0 + piece < this.hit[0] ? t0 + piece : this.hit[0];
        for (let k = 0; k < 3; k++) {
          const d0 = q[3 + k] * t0, d1 = q[3 + k] * t1;
          b[k] = sb[k] + (d0 < d1 ? d0 : d1);
          b[3 + k] = sb[3 + k] + (d0 < d1 ? d1 : d0);
        }
        const n = mesh.query(b);
        for (let i = 0; i < n; i++) {
          const t = mesh.hits[i];
          meshCorners(mesh, t, g.tri);
          this.castTriangle(mesh.sourceTriangle[t]);
        }
      }
    } else {
      const field = hf as HeightfieldData;
      if (!this.fieldCells(field)) return false;
      // cells in the order the sweep meets them (rows and columns from its start's side), so that
      // the nearest hit found early cuts the later cells off (castTriangle's bounding-sphere test)
      const cols1 = field.cols - 1, c = this.cells;
      const rowStep = q[5] < 0 ? -1 : 1, colStep = q[3] < 0 ? -1 : 1;
      const rowCount = c[3] - c[1] + 1, colCount = c[2] - c[0] + 1;
      for (let i = 0; i < rowCount; i++) {
        const row = rowStep > 0 ? c[1] + i : c[3] - i;
        for (let j = 0; j < colCount; j++) {
          const col = colStep > 0 ? c[0] + j : c[2] - j;
          for (let k = 0; k < 2; k++) {
            const t = 2 * (row * cols1 + col) + k;
            field.corners(t, g.tri, 0);
            this.castTriangle(t);
          }
        }
      }
    }
    if (this.subShape < 0) return false;
    // to world: point = R x + p, normal = R n
    const h = this.hit;
    const px = h[1], py = h[2], pz = h[3], nx = h[4], ny = h[5], nz = h[6];
    h[1] = F[0] * px + F[1] * py + F[2] * pz + F[9];
    h[2] = F[3] * px + F[4] * py + F[5] * pz + F[10];
    h[3] = F[6] * px + F[7] * py + F[8] * pz + F[11];
    h[4] = F[0] * nx + F[1] * ny + F[2] * nz;
    h[5] = F[3] * nx + F[4] * ny + F[5] * nz;
    h[6] = F[6] * nx + F[7] * ny + F[8] * nz;
    return true;
  }

  /** The heightfield cells under the bounds into `cells`; false when none (or the bounds miss its heights). */
  private fieldCells(field: HeightfieldData): boolean {
    const b = this.bounds;
    if (field.bounds[1] > b[4] || field.bounds[4] < b[1]) return false;
    return field.cellRange(b, this.cells);
  }

  /**
   * Conservative advancement of the sweep against the triangle in gjk.tri (local frame); keeps the
   * hit when nearer than the best so far (hit[0]), or as near and of a lower triangle index.
   */
  private castTriangle(index: number): void {
    const g = this.gjk, q = this.q, tri = g.tri, h = this.hit, P = g.pose, out = g.out;
    const limit = h[0], ux = q[3], uy = q[4], uz = q[5], r = q[6];
    // cut: the triangle's bounding sphere against the capsule swept by the query's bounding sphere
    const cx = (tri[0] + tri[3] + tri[6]) / 3, cy = (tri[1] + tri[4] + tri[7]) / 3, cz = (tri[2] + tri[5] + tri[8]) / 3;
    let rt = 0;
    for (let k = 0; k < 9; k += 3) {
      const ex = tri[k] - cx, ey = tri[k + 1] - cy, ez = tri[k + 2] - cz, e = ex * ex + ey * ey + ez * ez;
      if (e > rt) rt = e;
    }
    const mx = cx - q[0], my = cy - q[1], mz = cz - q[2];
    let s = mx * ux + my * uy + mz * uz;
    s = s < 0 ? 0 : s > limit ? limit : s;
    const fx = mx - s * ux, fy = my - s * uy, fz = mz - s * uz;
    const reach = Math.sqrt(rt) + q[7] + SURFACE_TOLERANCE;
    if (fx * fx + fy * fy + fz * fz > reach * reach) return;
    let t = 0, found = false;
    for (let it = 0; it < CAST_STEPS; it++) {
      P[9] = q[0] + t * ux; P[10] = q[1] + t * uy; P[11] = q[2] + t * uz;
      g.run();
      const d = out[0] - r;
      const rate = -(ux * out[7] + uy * out[8] + uz * out[9]);
      if (d <= SURFACE_TOLERANCE) {
        if (d > 0 && rate > 1e-12 && t + d / rate <= limit) t += d / rate;
        found = true;
        break;
      }
      // moving apart or along the surface: the distance never falls (it is convex in t)
      if (!(rate > 1e-12)) break;
      // to where the tangent falls to half the tolerance: the shapes stay apart (so the distance
      // routine still gives the normal and the closest points), the next step ends the cast
      t += (d - 0.5 * SURFACE_TOLERANCE) / rate;
      if (t > limit) break;
    }
    if (found && (t < limit || (t === limit && (this.subShape < 0 || index < this.subShape)))) {
      h[0] = t;
      // the point on the triangle; the normal from it to the shape (against the sweep when the cores overlap)
      h[1] = out[4]; h[2] = out[5]; h[3] = out[6];
      if (out[0] > 0) { h[4] = out[7]; h[5] = out[8]; h[6] = out[9]; } else { h[4] = -ux; h[5] = -uy; h[6] = -uz; }
      this.subShape = index;
    }
    P[9] = q[0]; P[10] = q[1]; P[11] = q[2];
  }
}

/** The three corners of mesh triangle t into out[0..9). */
function meshCorners(mesh: TriangleMeshData, t: number, out: Float64Array): void {
  const v = mesh.vertices, idx = mesh.indices;
  for (let k = 0; k < 3; k++) {
    const j = 3 * idx[3 * t + k];
    out[3 * k] = v[j]; out[3 * k + 1] = v[j + 1]; out[3 * k + 2] = v[j + 2];
  }
}
