/**
 * Contacts of a sphere, capsule or box (shape A) with one triangle of a static mesh or heightfield
 * (shape B), all in the mesh's frame. Triangles are one-sided: solid behind the face normal
 * (counter-clockwise winding seen from outside), so shapes whose centre is behind are ignored.
 *
 * Triangle layout (TRIANGLE_STRIDE numbers): v0, v1, v2, unit normal N, then the unit normals N'_k
 * of the neighbours across edges k = 0..2 (-N at a border). Edge k runs from v_k to v_{k+1}.
 *
 * Meshes are made of many triangles, and a shape sliding over a flat floor must not catch on the
 * edges between them. Each triangle therefore carries flags (see mesh-edges.ts) saying which of its
 * edges and vertices are creases, where the surface bends outward (convex), or a border. Contacts
 * on creases use their true normal; contacts on flat or concave edges and vertices are dropped,
 * because a neighbouring face reports the same contact with its own face normal.
 *
 * A triangle alone also does not know which of its features the rest of the mesh covers. A contact
 * on edge k is kept only when its normal lies in the edge's wedge, between N and N'_k
 * (n . (e_k x N) >= 0 and n . (N'_k x e_k) >= 0); a contact on a vertex only when no neighbour of
 * the vertex in the mesh rises towards the normal (TriangleSource.vertexConeContains). Otherwise
 * another triangle holds the nearer feature and reports the contact.
 *
 * Sizes come from the parameter array prm at offset qa (see sphere-contacts.ts); no float crosses
 * a call boundary (see geometry.ts).
 */
import { ClipPolygon, clipPolygonByPlane, setQuad } from './clip.js';
import { SEG, TRIQ, TRI_EDGE0, TRI_FACE, closestPointOnTriangle, closestSegmentSegment } from './geometry.js';
import type { ManifoldBuilder } from './manifold.js';
import { EDGE_CONVEX_BIT, VERTEX_CONVEX_BIT } from './mesh-edges.js';

export const TRIANGLE_STRIDE = 21;

/** A mesh or heightfield seen by the triangle routines. */
export interface TriangleSource {
  /** Whether the direction n[no..no+3) lies in the normal cone of vertex k of triangle t (see ringConeContains). */
  vertexConeContains(t: number, k: number, n: Float64Array, no: number): boolean;
  /** Writes the triangles around vertex k of triangle t (t among them) into faces; returns how many (at most faces.length). */
  facesAroundVertex(t: number, k: number, faces: Int32Array): number;
  /** Writes the unit normal of triangle t at out[o..o+3). */
  triangleNormal(t: number, out: Float64Array, o: number): void;
}

/** The triangle being tested: its numbers (TRIANGLE_STRIDE), feature flags, index and mesh. */
export class TriangleRef {
  readonly data = new Float64Array(TRIANGLE_STRIDE);
  flags = 0;
  index = 0;
  source: TriangleSource | null = null;
}

/** Scratch: a normal to test (0..2; featureOwnsNormal reads it), a point (3..5), a plane (6..9), a box face quad (10..18). */
export const TC = new Float64Array(19);
const PLANE = TC.subarray(6, 10);

/** Whether a contact with normal n = TC 0..2 on triangle feature f is this triangle's to report. */
export function featureOwnsNormal(tri: TriangleRef, f: number): boolean {
  if (f === TRI_FACE) return true;
  const nx = TC[0], ny = TC[1], nz = TC[2];
  const d = tri.data;
  if (f >= TRI_EDGE0) {
    const k = f - TRI_EDGE0;
    const b = 3 * k, c = k === 2 ? 0 : b + 3;
    const ex = d[c] - d[b], ey = d[c + 1] - d[b + 1], ez = d[c + 2] - d[b + 2];
    const tol = -1e-9 * Math.sqrt(ex * ex + ey * ey + ez * ez);
    // Outside this triangle across the edge: n . (e x N) >= 0.
    const Nx = d[9], Ny = d[10], Nz = d[11];
    if (nx * (ey * Nz - ez * Ny) + ny * (ez * Nx - ex * Nz) + nz * (ex * Ny - ey * Nx) < tol) return false;
    // Outside the neighbour across the edge: n . (N' x e) >= 0.
    const o = 12 + 3 * k;
    const Mx = d[o], My = d[o + 1], Mz = d[o + 2];
    return nx * (My * ez - Mz * ey) + ny * (Mz * ex - Mx * ez) + nz * (Mx * ey - My * ex) >= tol;
  }
  return tri.source === null || tri.source.vertexConeContains(tri.index, f, TC, 0);
}

/** Below this sine between a capsule axis and a face, the capsule is lying on the face. */
const ALONG_SINE = 0.2;
const FACE_BIAS_REL = 0.02;
const FACE_BIAS_ABS = 1e-6;
const EDGE_BIAS_REL = 0.05;
const EDGE_BIAS_ABS = 1e-5;

/** Whether triangle feature f (TRI_VERTEX0 + k, TRI_EDGE0 + k, TRI_FACE) is the face or a crease of the surface. */
export function featureIsCrease(f: number, flags: number): boolean {
  if (f === TRI_FACE) return true;
  if (f >= TRI_EDGE0) return (flags & (EDGE_CONVEX_BIT << (f - TRI_EDGE0))) !== 0;
  return (flags & (VERTEX_CONVEX_BIT << f)) !== 0;
}

/** Feature of a triangle named by the set of its vertices (bit k = vertex k). */
export function featureOfVertexSet(mask: number): number {
  switch (mask) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 3: return TRI_EDGE0;
    case 6: return TRI_EDGE0 + 1;
    case 5: return TRI_EDGE0 + 2;
    default: return TRI_FACE;
  }
}

/** Sphere A (pose pa at oa in the mesh frame, radius prm[qa]) against a triangle. Feature id: the triangle feature (0..6). */
export function sphereTriangleContact(pa: Float64Array, oa: number, prm: Float64Array, qa: number, ref: TriangleRef, out: ManifoldBuilder): void {
  const tri = ref.data, flags = ref.flags, r = prm[qa], margin = out.margin;
  const cx = pa[oa + 9], cy = pa[oa + 10], cz = pa[oa + 11];
  const Nx = tri[9], Ny = tri[10], Nz = tri[11];
  const sd = Nx * (cx - tri[0]) + Ny * (cy - tri[1]) + Nz * (cz - tri[2]);
  if (sd < 0 || sd > r + margin) return;
  const q = TRIQ;
  q[0] = cx; q[1] = cy; q[2] = cz;
  const feature = closestPointOnTriangle(tri);
  const ex = cx - q[3], ey = cy - q[4], ez = cz - q[5];
  const d2 = ex * ex + ey * ey + ez * ez;
  const reach = r + margin;
  if (d2 > reach * reach) return;
  let nx = Nx, ny = Ny, nz = Nz, depth = r - sd;
  if (feature !== TRI_FACE) {
    if (!featureIsCrease(feature, flags)) return;
    const dist = Math.sqrt(d2);
    if (dist > 1e-12) {
      nx = ex / dist; ny = ey / dist; nz = ez / dist;
      depth = r - dist;
      TC[0] = nx; TC[1] = ny; TC[2] = nz;
      if (!featureOwnsNormal(ref, feature)) return;
    }
  }
  const c = out.next;
  c[0] = cx - nx * r; c[1] = cy - ny * r; c[2] = cz - nz * r;
  c[3] = nx; c[4] = ny; c[5] = nz;
  c[6] = depth;
  out.push(feature);
}

/**
 * Scratch of the capsule routines: axis start a0 (0..2), direction d (3..5), signed distances of
 * the ends sd0 (6), sd1 (7); the axis clipped to the triangle's prism: [t0, t1] (8..9) and what
 * cut each end (10..11).
 */
const CT = new Float64Array(12);

/**
 * Capsule A (pose pa at oa in the mesh frame; radius prm[qa], half length prm[qa + 1]) against a
 * triangle. Feature ids: single point = triangle feature (0..6); an end lying on the face = 8 + 4 end.
 */
export function capsuleTriangleContact(pa: Float64Array, oa: number, prm: Float64Array, qa: number, ref: TriangleRef, out: ManifoldBuilder): void {
  const tri = ref.data, flags = ref.flags, r = prm[qa], h = prm[qa + 1], margin = out.margin;
  const Nx = tri[9], Ny = tri[10], Nz = tri[11];
  const ux = pa[oa + 1] * h, uy = pa[oa + 4] * h, uz = pa[oa + 7] * h;
  const a0x = pa[oa + 9] - ux, a0y = pa[oa + 10] - uy, a0z = pa[oa + 11] - uz;
  const dx = 2 * ux, dy = 2 * uy, dz = 2 * uz;
  const sd0 = Nx * (a0x - tri[0]) + Ny * (a0y - tri[1]) + Nz * (a0z - tri[2]);
  const sd1 = sd0 + Nx * dx + Ny * dy + Nz * dz;
  if (sd0 + sd1 < 0) return; // centre behind the face
  if (sd0 > r + margin && sd1 > r + margin) return;
  const g = CT;
  g[0] = a0x; g[1] = a0y; g[2] = a0z; g[3] = dx; g[4] = dy; g[5] = dz; g[6] = sd0; g[7] = sd1;
  const dd = dx * dx + dy * dy + dz * dz;
  if (dd > 1e-24 && (sd1 - sd0) * (sd1 - sd0) <= ALONG_SINE * ALONG_SINE * dd) {
    // Lying on the face; when the axis does not pass over the triangle or a crease cut it, the
    // closest-point contact below adds the crease contact.
    if (capsuleAlongFace(prm, qa, tri, flags, out)) return;
  }

  let sx = 0, sy = 0, sz = 0, feature = TRI_FACE;
  let nx = Nx, ny = Ny, nz = Nz, depth: number;
  let crossing = false;
  if (sd0 * sd1 <= 0 && sd0 !== sd1) {
    const t = sd0 / (sd0 - sd1);
    TC[3] = a0x + dx * t; TC[4] = a0y + dy * t; TC[5] = a0z + dz * t;
    crossing = pointInTriangle(tri);
  }
  if (crossing) {
    // The axis pierces the face: push up through the face its deepest point over the triangle
    // (the lower end, or where the triangle's prism cuts the axis before it).
    clipAxisToPrism(tri);
    const t = sd1 < sd0 ? CT[9] : CT[8];
    sx = a0x + dx * t; sy = a0y + dy * t; sz = a0z + dz * t;
    depth = r - (sd0 + (sd1 - sd0) * t);
  } else {
    let best = Infinity, qx = 0, qy = 0, qz = 0;
    const q = TRIQ;
    for (let e = 0; e < 2; e++) {
      const px = a0x + dx * e, py = a0y + dy * e, pz = a0z + dz * e;
      q[0] = px; q[1] = py; q[2] = pz;
      const f = closestPointOnTriangle(tri);
      const d2 = (px - q[3]) * (px - q[3]) + (py - q[4]) * (py - q[4]) + (pz - q[5]) * (pz - q[5]);
      if (d2 < best) {
        best = d2; feature = f;
        sx = px; sy = py; sz = pz; qx = q[3]; qy = q[4]; qz = q[5];
      }
    }
    const s4 = SEG;
    for (let k = 0; k < 3; k++) {
      const b = 3 * k, c = k === 2 ? 0 : b + 3;
      s4[0] = a0x; s4[1] = a0y; s4[2] = a0z; s4[3] = a0x + dx; s4[4] = a0y + dy; s4[5] = a0z + dz;
      s4[6] = tri[b]; s4[7] = tri[b + 1]; s4[8] = tri[b + 2]; s4[9] = tri[c]; s4[10] = tri[c + 1]; s4[11] = tri[c + 2];
      closestSegmentSegment();
      if (s4[14] < best) {
        best = s4[14];
        const s = s4[12], t = s4[13];
        feature = t <= 0 ? k : t >= 1 ? (k === 2 ? 0 : k + 1) : TRI_EDGE0 + k;
        sx = a0x + dx * s; sy = a0y + dy * s; sz = a0z + dz * s;
        qx = tri[b] + (tri[c] - tri[b]) * t; qy = tri[b + 1] + (tri[c + 1] - tri[b + 1]) * t; qz = tri[b + 2] + (tri[c + 2] - tri[b + 2]) * t;
      }
    }
    const reach = r + margin;
    if (best > reach * reach) return;
    const sdS = Nx * (sx - tri[0]) + Ny * (sy - tri[1]) + Nz * (sz - tri[2]);
    depth = r - sdS;
    if (feature !== TRI_FACE) {
      if (sdS <= 0) return; // beside or behind the face: the neighbouring faces own this contact
      if (!featureIsCrease(feature, flags)) return;
      const dist = Math.sqrt(best);
      if (dist > 1e-12) {
        nx = (sx - qx) / dist; ny = (sy - qy) / dist; nz = (sz - qz) / dist;
        depth = r - dist;
        TC[0] = nx; TC[1] = ny; TC[2] = nz;
        if (!featureOwnsNormal(ref, feature)) return;
      }
    }
  }
  const c = out.next;
  c[0] = sx - nx * r; c[1] = sy - ny * r; c[2] = sz - nz * r;
  c[3] = nx; c[4] = ny; c[5] = nz;
  c[6] = depth;
  out.push(feature);
}

/**
 * A capsule (axis in CT) lying on the face: its axis clipped to the triangle's prism (the three
 * side planes through the edges, outward normal e_k x N). Each end of the clipped axis within the
 * margin is a contact with the face normal, unless an edge cut it there: past a flat or concave
 * edge the neighbouring face owns the stretch, and at a crease the closest-point contact (with the
 * crease's own normal) is the right one. Returns true when that covers the triangle: the axis
 * passes over it and no crease cut it.
 */
function capsuleAlongFace(prm: Float64Array, qa: number, tri: Float64Array, flags: number, out: ManifoldBuilder): boolean {
  if (!clipAxisToPrism(tri)) return false;
  const g = CT, r = prm[qa];
  const Nx = tri[9], Ny = tri[10], Nz = tri[11];
  let covered = true;
  for (let e = 0; e < 2; e++) {
    const t = g[8 + e];
    const clip = g[10 + e];
    if (clip > 0) {
      if (flags & (EDGE_CONVEX_BIT << (clip - 1))) covered = false;
      continue;
    }
    const depth = r - (g[6] + (g[7] - g[6]) * t);
    if (depth < -out.margin) continue;
    const c = out.next;
    c[0] = g[0] + g[3] * t - Nx * r; c[1] = g[1] + g[4] * t - Ny * r; c[2] = g[2] + g[5] * t - Nz * r;
    c[3] = Nx; c[4] = Ny; c[5] = Nz;
    c[6] = depth;
    out.push(8 + 4 * e);
  }
  return covered;
}

/**
 * Clips the capsule axis (CT 0..5) to the triangle's prism: the parameter range [t0, t1] goes to
 * CT 8..9 and what cut each end to CT 10..11 (0 the capsule's end, 1 + k edge k). Returns false
 * when the axis misses the prism.
 */
function clipAxisToPrism(tri: Float64Array): boolean {
  const g = CT;
  const a0x = g[0], a0y = g[1], a0z = g[2], dx = g[3], dy = g[4], dz = g[5];
  const Nx = tri[9], Ny = tri[10], Nz = tri[11];
  let t0 = 0, t1 = 1, clip0 = 0, clip1 = 0;
  for (let k = 0; k < 3; k++) {
    const b = 3 * k, c = k === 2 ? 0 : b + 3;
    const ex = tri[c] - tri[b], ey = tri[c + 1] - tri[b + 1], ez = tri[c + 2] - tri[b + 2];
    const ox = ey * Nz - ez * Ny, oy = ez * Nx - ex * Nz, oz = ex * Ny - ey * Nx;
    const p = ox * (a0x - tri[b]) + oy * (a0y - tri[b + 1]) + oz * (a0z - tri[b + 2]);
    const q = ox * dx + oy * dy + oz * dz;
    // Keep p + q t <= 0.
    if (q === 0) {
      if (p > 0) return false;
    } else if (q > 0) {
      const t = -p / q;
      if (t < t1) { t1 = t; clip1 = 1 + k; }
    } else {
      const t = -p / q;
      if (t > t0) { t0 = t; clip0 = 1 + k; }
    }
  }
  g[8] = t0; g[9] = t1; g[10] = clip0; g[11] = clip1;
  return t1 > t0;
}

/** Is p = TC 3..5 (on the triangle's plane) inside the triangle? Edge functions (e_k x (p - v_k)) . N >= 0. */
function pointInTriangle(tri: Float64Array): boolean {
  const px = TC[3], py = TC[4], pz = TC[5];
  const Nx = tri[9], Ny = tri[10], Nz = tri[11];
  for (let k = 0; k < 3; k++) {
    const b = 3 * k, c = k === 2 ? 0 : b + 3;
    const ex = tri[c] - tri[b], ey = tri[c + 1] - tri[b + 1], ez = tri[c + 2] - tri[b + 2];
    const wx = px - tri[b], wy = py - tri[b + 1], wz = pz - tri[b + 2];
    if ((ey * wz - ez * wy) * Nx + (ez * wx - ex * wz) * Ny + (ex * wy - ey * wx) * Nz < 0) return false;
  }
  return true;
}

const polyA = new ClipPolygon();
const polyB = new ClipPolygon();

const KIND_TRI_FACE = 0;
const KIND_BOX_FACE = 1;
const KIND_EDGE = 2;
const KIND_NEIGHBOR = 3;

/**
 * Box A (pose pa at oa in the mesh frame, half extents prm[qa..qa+3)) against a triangle:
 * separating axes N (one sided), the 3 box face normals, the 9 products box axis x triangle edge
 * and the normals of the faces around the triangle's convex vertices. Directions that would push
 * the box behind the face, or whose triangle support feature is not a crease of the surface (a
 * flat or concave edge or vertex, past which the surface goes on) are not candidates. The least
 * overlap wins, the face normal preferred, then box faces, then edges. When the winner is a
 * neighbouring face's normal, or a crease direction outside this triangle's wedge or cone, the box
 * lies over another triangle, which reports the contact: this one reports none. So does a winning
 * edge pair that does not cross.
 *
 * Feature ids: triangle face reference = incidentBoxFace << 6 | inEdge << 3 | outEdge (box quad
 * edges 0..3, triangle side planes 4..6); box face reference = 1 << 12 | boxFace << 6 | inEdge << 3
 * | outEdge (triangle edges 0..2, box side planes 3..6); edges = 2 << 12 | boxEdge << 4 | triEdge.
 */
export function boxTriangleContact(pa: Float64Array, oa: number, prm: Float64Array, qa: number, ref: TriangleRef, out: ManifoldBuilder): void {
  const tri = ref.data, flags = ref.flags, margin = out.margin;
  const hx = prm[qa], hy = prm[qa + 1], hz = prm[qa + 2];
  const Nx = tri[9], Ny = tri[10], Nz = tri[11];
  const cx = pa[oa + 9], cy = pa[oa + 10], cz = pa[oa + 11];
  const cN = Nx * (cx - tri[0]) + Ny * (cy - tri[1]) + Nz * (cz - tri[2]);
  if (cN < 0) return;
  const rN = hx * Math.abs(Nx * pa[oa] + Ny * pa[oa + 3] + Nz * pa[oa + 6]) +
    hy * Math.abs(Nx * pa[oa + 1] + Ny * pa[oa + 4] + Nz * pa[oa + 7]) +
    hz * Math.abs(Nx * pa[oa + 2] + Ny * pa[oa + 5] + Nz * pa[oa + 8]);
  if (cN - rN > margin) return;
  // Candidate axes, each with the overlap along its push direction.
  candCount = 0;
  candOverlap[0] = rN - cN;
  candNormal[0] = Nx; candNormal[1] = Ny; candNormal[2] = Nz;
  addCandidate(KIND_TRI_FACE, FACE_PREFERRED, -1, -1);

  // Faces around the triangle's convex vertices (its creases' neighbours among them).
  const ringCount = collectRingNormals(ref);

  // Axes: 0..2 box faces, 3..11 box axis k x triangle edge m, then the neighbouring faces' normals.
  const axes = 12 + ringCount;
  for (let axis = 0; axis < axes; axis++) {
    let lx: number, ly: number, lz: number;
    let k = -1, m = -1;
    if (axis < 3) {
      k = axis;
      lx = pa[oa + k]; ly = pa[oa + 3 + k]; lz = pa[oa + 6 + k];
    } else if (axis < 12) {
      k = ((axis - 3) / 3) | 0;
      m = (axis - 3) % 3;
      const b = 3 * m, c = m === 2 ? 0 : b + 3;
      const ex = tri[c] - tri[b], ey = tri[c + 1] - tri[b + 1], ez = tri[c + 2] - tri[b + 2];
      const ux = pa[oa + k], uy = pa[oa + 3 + k], uz = pa[oa + 6 + k];
      lx = uy * ez - uz * ey; ly = uz * ex - ux * ez; lz = ux * ey - uy * ex;
      const ll = lx * lx + ly * ly + lz * lz;
      if (ll < 1e-6 * (ex * ex + ey * ey + ez * ez)) continue;
      const len = Math.sqrt(ll);
      lx /= len; ly /= len; lz /= len;
    } else {
      // Around a convex vertex a neighbouring face owns the contacts its normal separates best.
      const o = 3 * (axis - 12);
      lx = ringNormals[o]; ly = ringNormals[o + 1]; lz = ringNormals[o + 2];
    }
    const rb = hx * Math.abs(lx * pa[oa] + ly * pa[oa + 3] + lz * pa[oa + 6]) +
      hy * Math.abs(lx * pa[oa + 1] + ly * pa[oa + 4] + lz * pa[oa + 7]) +
      hz * Math.abs(lx * pa[oa + 2] + ly * pa[oa + 5] + lz * pa[oa + 8]);
    const pc = lx * cx + ly * cy + lz * cz;
    const p0 = lx * tri[0] + ly * tri[1] + lz * tri[2];
    const p1 = lx * tri[3] + ly * tri[4] + lz * tri[5];
    const p2 = lx * tri[6] + ly * tri[7] + lz * tri[8];
    const tmin = Math.min(p0, p1, p2), tmax = Math.max(p0, p1, p2);
    const up = tmax - (pc - rb); // push the box along +L
    const down = pc + rb - tmin; // push the box along -L
    if (-up > margin || -down > margin) return;
    const preference = axis >= 3 && axis < 12 ? EDGE_PREFERRED : FACE_PREFERRED;
    if (axis >= 12) {
      candOverlap[candCount] = up;
      addCandidate(KIND_NEIGHBOR, preference, -1, m);
      continue;
    }
    const tol = 1e-9 * (1 + Math.abs(tmin) + Math.abs(tmax));
    const dotN = lx * Nx + ly * Ny + lz * Nz;
    for (let sg = 1; sg >= -1; sg -= 2) {
      if (sg * dotN < -1e-9) continue; // would push the box behind the face
      // Triangle vertices deepest into the box along sg * L.
      const ext = sg > 0 ? tmax : tmin;
      const mask = (Math.abs(p0 - ext) <= tol ? 1 : 0) | (Math.abs(p1 - ext) <= tol ? 2 : 0) | (Math.abs(p2 - ext) <= tol ? 4 : 0);
      const f = featureOfVertexSet(mask);
      if (f === TRI_FACE) continue; // L is (anti)parallel to N: the N axis covers it
      if (m >= 0 && f !== TRI_EDGE0 + m) continue; // support is not the edge that made L
      // Past a flat or concave edge or vertex the surface goes on: not a direction of the surface.
      if (!featureIsCrease(f, flags)) continue;
      TC[0] = sg * lx; TC[1] = sg * ly; TC[2] = sg * lz;
      const i = candCount;
      candOverlap[i] = sg > 0 ? up : down;
      candNormal[3 * i] = TC[0]; candNormal[3 * i + 1] = TC[1]; candNormal[3 * i + 2] = TC[2];
      if (!featureOwnsNormal(ref, f)) {
        // A crease whose wedge or cone does not hold the normal: the box lies over another
        // triangle, which reports.
        addCandidate(KIND_NEIGHBOR, preference, -1, -1);
      } else {
        addCandidate(axis < 3 ? KIND_BOX_FACE : KIND_EDGE, preference, k, m);
      }
    }
  }

  // Least (biased) overlap wins; ties keep the earlier candidate (the face normal first).
  let c = 0;
  for (let i = 1; i < candCount; i++) if (candRank[i] < candRank[c]) c = i;
  const kind = candKind[c];
  if (kind === KIND_NEIGHBOR) return;
  if (kind === KIND_TRI_FACE) boxUnderTriangleFace(pa, oa, prm, qa, tri, out);
  else if (kind === KIND_BOX_FACE) triangleUnderBoxFace(pa, oa, prm, qa, c, tri, out);
  else boxEdgeTriangleEdge(pa, oa, prm, qa, c, tri, out);
}

/** Most neighbouring faces considered around one triangle's vertices. */
const MAX_RING_FACES = 48;
const ringNormals = new Float64Array(3 * MAX_RING_FACES);
const ringFaces = new Int32Array(MAX_RING_FACES);
const vertexFaces = new Int32Array(MAX_RING_FACES);

/**
 * Collects into ringNormals the normals of the faces (other than the triangle) around its convex
 * vertices, each face once; returns their count.
 */
function collectRingNormals(ref: TriangleRef): number {
  const source = ref.source;
  if (source === null) return 0;
  let count = 0;
  for (let k = 0; k < 3; k++) {
    if (!(ref.flags & (VERTEX_CONVEX_BIT << k))) continue;
    const n = source.facesAroundVertex(ref.index, k, vertexFaces);
    for (let i = 0; i < n && count < MAX_RING_FACES; i++) {
      const f = vertexFaces[i];
      if (f === ref.index) continue;
      let seen = false;
      for (let j = 0; j < count; j++) if (ringFaces[j] === f) { seen = true; break; }
      if (seen) continue;
      ringFaces[count] = f;
      source.triangleNormal(f, ringNormals, 3 * count);
      count++;
    }
  }
  return count;
}

const MAX_CANDIDATES = 32 + MAX_RING_FACES;
const candKind = new Int32Array(MAX_CANDIDATES);
const candAxis = new Int32Array(MAX_CANDIDATES);
const candEdge = new Int32Array(MAX_CANDIDATES);
/** Overlap along the candidate's push direction, written by the caller before addCandidate. */
const candOverlap = new Float64Array(MAX_CANDIDATES);
const candRank = new Float64Array(MAX_CANDIDATES);
/** Push direction (from the triangle to the box), written by the caller before addCandidate. */
const candNormal = new Float64Array(3 * MAX_CANDIDATES);
let candCount = 0;

/** Preference biases: a candidate's rank is overlap + rel |overlap| + abs. */
const FACE_PREFERRED = 0;
const EDGE_PREFERRED = 1;

/** Records candidate candCount (overlap and normal already written); its rank is the overlap grown by its preference bias. */
function addCandidate(kind: number, preference: number, k: number, m: number): void {
  const i = candCount++;
  const overlap = candOverlap[i];
  const rel = kind === KIND_TRI_FACE ? 0 : preference === EDGE_PREFERRED ? EDGE_BIAS_REL : FACE_BIAS_REL;
  const abs = kind === KIND_TRI_FACE ? 0 : preference === EDGE_PREFERRED ? EDGE_BIAS_ABS : FACE_BIAS_ABS;
  candKind[i] = kind;
  candRank[i] = overlap + rel * Math.abs(overlap) + abs;
  candAxis[i] = k;
  candEdge[i] = m;
}

/** Reference = the triangle: the box face most anti-parallel to N clipped by the triangle's prism. */
function boxUnderTriangleFace(pa: Float64Array, oa: number, prm: Float64Array, qa: number, tri: Float64Array, out: ManifoldBuilder): void {
  const Nx = tri[9], Ny = tri[10], Nz = tri[11];
  let j = 0, bestDot = -1, dotj = 0;
  for (let k = 0; k < 3; k++) {
    const c = pa[oa + k] * Nx + pa[oa + 3 + k] * Ny + pa[oa + 6 + k] * Nz;
    if (Math.abs(c) > bestDot) { bestDot = Math.abs(c); j = k; dotj = c; }
  }
  const sgn = dotj > 0 ? -1 : 1;
  const hj = prm[qa + j];
  const j1 = j === 2 ? 0 : j + 1, j2 = j1 === 2 ? 0 : j1 + 1;
  const h1 = prm[qa + j1], h2 = prm[qa + j2];
  for (let k = 0; k < 3; k++) {
    TC[10 + k] = pa[oa + 9 + k] + sgn * hj * pa[oa + 3 * k + j];
    TC[13 + k] = h1 * pa[oa + 3 * k + j1];
    TC[16 + k] = h2 * pa[oa + 3 * k + j2];
  }
  setQuad(polyA, TC, 10);
  let src = polyA, dst = polyB;
  for (let k = 0; k < 3; k++) {
    const b = 3 * k, c = k === 2 ? 0 : b + 3;
    const ex = tri[c] - tri[b], ey = tri[c + 1] - tri[b + 1], ez = tri[c + 2] - tri[b + 2];
    const ox = ey * Nz - ez * Ny, oy = ez * Nx - ex * Nz, oz = ex * Ny - ey * Nx;
    PLANE[0] = ox; PLANE[1] = oy; PLANE[2] = oz; PLANE[3] = ox * tri[b] + oy * tri[b + 1] + oz * tri[b + 2];
    clipPolygonByPlane(src, dst, PLANE, 4 + k);
    const t = src; src = dst; dst = t;
    if (src.count === 0) return;
  }
  const d = Nx * tri[0] + Ny * tri[1] + Nz * tri[2];
  const incFace = 2 * j + (sgn > 0 ? 1 : 0);
  const margin = out.margin;
  for (let v = 0; v < src.count; v++) {
    const x = src.xyz[3 * v], y = src.xyz[3 * v + 1], z = src.xyz[3 * v + 2];
    const depth = d - (Nx * x + Ny * y + Nz * z);
    if (depth < -margin) continue;
    const c = out.next;
    c[0] = x; c[1] = y; c[2] = z;
    c[3] = Nx; c[4] = Ny; c[5] = Nz;
    c[6] = depth;
    out.push((incFace << 6) | (src.inEdge[v] << 3) | src.outEdge[v]);
  }
}

/**
 * Reference = box face candAxis[ci] on the side facing the triangle (outward normal -n, n =
 * candNormal of candidate ci pushing the box off the triangle): the triangle clipped by that face's
 * four side planes.
 */
function triangleUnderBoxFace(pa: Float64Array, oa: number, prm: Float64Array, qa: number, ci: number, tri: Float64Array, out: ManifoldBuilder): void {
  const axis = candAxis[ci];
  const nx = candNormal[3 * ci], ny = candNormal[3 * ci + 1], nz = candNormal[3 * ci + 2];
  polyA.clear();
  polyA.pushFrom(tri, 0, 2, 0);
  polyA.pushFrom(tri, 3, 0, 1);
  polyA.pushFrom(tri, 6, 1, 2);
  const cx = pa[oa + 9], cy = pa[oa + 10], cz = pa[oa + 11];
  const i1 = axis === 2 ? 0 : axis + 1, i2 = i1 === 2 ? 0 : i1 + 1;
  let src = polyA, dst = polyB;
  for (let p = 0; p < 4; p++) {
    const k = p < 2 ? i1 : i2;
    const sg = p & 1 ? -1 : 1;
    const ex = sg * pa[oa + k], ey = sg * pa[oa + 3 + k], ez = sg * pa[oa + 6 + k];
    PLANE[0] = ex; PLANE[1] = ey; PLANE[2] = ez; PLANE[3] = ex * cx + ey * cy + ez * cz + prm[qa + k];
    clipPolygonByPlane(src, dst, PLANE, 3 + p);
    const t = src; src = dst; dst = t;
    if (src.count === 0) return;
  }
  const base = prm[qa + axis] - (nx * cx + ny * cy + nz * cz); // depth(p) = base + n . p
  const outwardPositive = pa[oa + axis] * nx + pa[oa + 3 + axis] * ny + pa[oa + 6 + axis] * nz < 0;
  const refFace = 2 * axis + (outwardPositive ? 1 : 0);
  const margin = out.margin;
  for (let v = 0; v < src.count; v++) {
    const x = src.xyz[3 * v], y = src.xyz[3 * v + 1], z = src.xyz[3 * v + 2];
    const depth = base + nx * x + ny * y + nz * z;
    if (depth < -margin) continue;
    const c = out.next;
    c[0] = x - nx * depth; c[1] = y - ny * depth; c[2] = z - nz * depth;
    c[3] = nx; c[4] = ny; c[5] = nz;
    c[6] = depth;
    out.push((1 << 12) | (refFace << 6) | (src.inEdge[v] << 3) | src.outEdge[v]);
  }
}

/** One contact between the box edge along candAxis[ci] facing the triangle and triangle edge candEdge[ci]. */
function boxEdgeTriangleEdge(pa: Float64Array, oa: number, prm: Float64Array, qa: number, ci: number, tri: Float64Array, out: ManifoldBuilder): void {
  const axis = candAxis[ci], m = candEdge[ci];
  const nx = candNormal[3 * ci], ny = candNormal[3 * ci + 1], nz = candNormal[3 * ci + 2];
  let ex = pa[oa + 9], ey = pa[oa + 10], ez = pa[oa + 11];
  let signs = 0;
  for (let k = 0, bit = 1; k < 3; k++) {
    if (k === axis) continue;
    const c = pa[oa + k] * nx + pa[oa + 3 + k] * ny + pa[oa + 6 + k] * nz;
    const h = prm[qa + k];
    const sg = c > 0 ? -1 : 1; // the box side facing the triangle, along -n
    if (sg > 0) signs |= bit;
    bit <<= 1;
    ex += sg * h * pa[oa + k]; ey += sg * h * pa[oa + 3 + k]; ez += sg * h * pa[oa + 6 + k];
  }
  const h = prm[qa + axis];
  const ux = h * pa[oa + axis], uy = h * pa[oa + 3 + axis], uz = h * pa[oa + 6 + axis];
  const b = 3 * m, c = m === 2 ? 0 : b + 3;
  const g = SEG;
  g[0] = ex - ux; g[1] = ey - uy; g[2] = ez - uz; g[3] = ex + ux; g[4] = ey + uy; g[5] = ez + uz;
  g[6] = tri[b]; g[7] = tri[b + 1]; g[8] = tri[b + 2]; g[9] = tri[c]; g[10] = tri[c + 1]; g[11] = tri[c + 2];
  closestSegmentSegment();
  // The edges must cross as seen along n: closest points inside both segments.
  const sp = g[12], tp = g[13];
  if (sp <= 0 || sp >= 1 || tp <= 0 || tp >= 1) return;
  const s = 2 * sp - 1;
  const o = out.next;
  o[0] = ex + ux * s; o[1] = ey + uy * s; o[2] = ez + uz * s;
  o[3] = nx; o[4] = ny; o[5] = nz;
  o[6] = candOverlap[ci];
  out.push((2 << 12) | ((4 * axis + signs) << 4) | m);
}
