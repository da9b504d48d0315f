/**
 * Contacts of convex hulls (hull.ts; a box counts as one against a hull) with planes, spheres,
 * capsules, other hulls and mesh triangles, by separating axes (Gottschalk's SAT as Gregorius
 * applies it to polyhedra, GDC 2013): the face normals of both shapes and, for each pair of edges
 * whose arcs cross on the Gauss map (a face of the Minkowski difference), their cross product. The
 * least-overlap axis wins, faces preferred over edges by a small bias so a resting manifold does
 * not flip between them. A face axis gives a manifold: the other shape's most anti-parallel face
 * clipped by the side planes of the reference face (Sutherland-Hodgman), reduced to 4 points; an
 * edge axis gives one point at the edges' closest points, unless it is within 0.1 rad of a face
 * normal and that face's manifold holds two points or more (a face resting on an edge).
 *
 * Poses are 12 numbers (row-major rotation, then origin; see pose.ts). Normals run from shape B to
 * shape A as everywhere in the narrow phase. No float crosses a call boundary (see geometry.ts):
 * world-space vertices and planes live in module scratch, grown the first time a larger hull comes.
 *
 * Feature ids: face manifold = refIsB << 30 | refFace << 22 | incFace << 14 | inEdge << 7 |
 * outEdge (incident polygon edges 0..63, reference side planes 64..127); edge pair = 1 << 29 |
 * edgeA << 14 | edgeB; a rounded shape's points: face f end e = f << 2 | e, closest point = 1 << 28.
 */
import { ClipPolygon, clipPolygonByPlane } from './clip.js';
import { SEG, closestSegmentSegment } from './geometry.js';
import type { ConvexHullData } from './hull.js';
import type { ManifoldBuilder } from './manifold.js';
import { TC, type TriangleRef, featureIsCrease, featureOfVertexSet, featureOwnsNormal } from './triangle-contacts.js';
import { TRI_EDGE0, TRI_FACE } from './geometry.js';

/** The faces of a hull, as faceManifold reads them (a ConvexHullData, or a mesh triangle seen from both sides). */
interface HullFaces {
  readonly faceCount: number;
  readonly faceStart: Int32Array;
  readonly faceVertices: Int32Array;
}

/** A triangle (vertices 0, 1, 2) as a flat hull: its face (counter-clockwise about N) and its back. */
const TRIANGLE_FACES: HullFaces = { faceCount: 2, faceStart: new Int32Array([0, 3, 6]), faceVertices: new Int32Array([0, 1, 2, 0, 2, 1]) };

const FACE_B_BIAS_REL = 0.02;
const FACE_B_BIAS_ABS = 1e-6;
const EDGE_BIAS_REL = 0.05;
const EDGE_BIAS_ABS = 1e-5;
/** Edge pairs closer to parallel than this sine give no axis (the face axes cover that direction). */
const PARALLEL_SINE = 1e-3;
/** As box-box.ts's: an edge axis within 0.1 rad of a face normal is first tried as that face's manifold, kept when as deep as the edge pair's overlap within a fifth of the margin. */
const FACE_ON_EDGE_COS = 0.995;
const FACE_ON_EDGE_SLACK = 0.2;
const SIDE_PLANE_ID = 64;

/** World-space vertices (3 each) and planes (4 each) of the two hulls of a pair. */
let VA = new Float64Array(3 * 64), VB = new Float64Array(3 * 64);
let PA = new Float64Array(4 * 64), PB = new Float64Array(4 * 64);
let polyA = new ClipPolygon(32), polyB = new ClipPolygon(32);
/** Scratch: centre of A (0..2), of B (3..5), a plane (6..9), the winning axis (10..12) and separation (13), an axis being tried (14..16). */
const H = new Float64Array(17);
const PLANE = H.subarray(6, 10);

function ensureScratch(a: ConvexHullData, b: ConvexHullData | null): void {
  const nv = Math.max(a.vertexCount, b ? b.vertexCount : 3), nf = Math.max(a.faceCount, b ? b.faceCount : 2);
  if (VA.length < 3 * nv) { VA = new Float64Array(3 * nv); VB = new Float64Array(3 * nv); }
  if (PA.length < 4 * nf) { PA = new Float64Array(4 * nf); PB = new Float64Array(4 * nf); }
  const face = Math.max(largestFace(a), b ? largestFace(b) : 3);
  if (polyA.capacity < 2 * face + 8) { polyA = new ClipPolygon(2 * face + 8); polyB = new ClipPolygon(2 * face + 8); }
}

/** The most vertices of one face of a hull. */
function largestFace(h: ConvexHullData): number {
  let m = 3;
  for (let f = 0; f < h.faceCount; f++) if (h.faceStart[f + 1] - h.faceStart[f] > m) m = h.faceStart[f + 1] - h.faceStart[f];
  return m;
}

/** Hull vertices and planes in world space (pose p at o) into v and pl; its centre into H[c..c+3). */
function toWorld(h: ConvexHullData, p: Float64Array, o: number, v: Float64Array, pl: Float64Array, c: number): void {
  const r00 = p[o], r01 = p[o + 1], r02 = p[o + 2], r10 = p[o + 3], r11 = p[o + 4], r12 = p[o + 5];
  const r20 = p[o + 6], r21 = p[o + 7], r22 = p[o + 8], tx = p[o + 9], ty = p[o + 10], tz = p[o + 11];
  const lv = h.vertices;
  for (let i = 0; i < 3 * h.vertexCount; i += 3) {
    const x = lv[i], y = lv[i + 1], z = lv[i + 2];
    v[i] = r00 * x + r01 * y + r02 * z + tx;
    v[i + 1] = r10 * x + r11 * y + r12 * z + ty;
    v[i + 2] = r20 * x + r21 * y + r22 * z + tz;
  }
  const lp = h.planes;
  for (let i = 0; i < 4 * h.faceCount; i += 4) {
    const x = lp[i], y = lp[i + 1], z = lp[i + 2];
    const nx = r00 * x + r01 * y + r02 * z, ny = r10 * x + r11 * y + r12 * z, nz = r20 * x + r21 * y + r22 * z;
    pl[i] = nx; pl[i + 1] = ny; pl[i + 2] = nz; pl[i + 3] = lp[i + 3] + nx * tx + ny * ty + nz * tz;
  }
  const cx = h.center[0], cy = h.center[1], cz = h.center[2];
  H[c] = r00 * cx + r01 * cy + r02 * cz + tx;
  H[c + 1] = r10 * cx + r11 * cy + r12 * cz + ty;
  H[c + 2] = r20 * cx + r21 * cy + r22 * cz + tz;
}

/** Smallest n . v - d over the vertices v (count of them in v) for plane pl at po: the separation of those vertices from the plane. */
function planeSeparation(pl: Float64Array, po: number, v: Float64Array, count: number): number {
  const nx = pl[po], ny = pl[po + 1], nz = pl[po + 2];
  let s = Infinity;
  for (let i = 0; i < 3 * count; i += 3) {
    const t = nx * v[i] + ny * v[i + 1] + nz * v[i + 2];
    if (t < s) s = t;
  }
  return s - pl[po + 3];
}

/**
 * Whether edges with adjacent face normals (a, b) on A and (c, d) on B form a face of the
 * Minkowski difference A - B: their arcs a-b and (-c)-(-d) cross on the Gauss map (Gregorius).
 */
function minkowskiFace(pa: Float64Array, fa: number, fb: number, pb: Float64Array, fc: number, fd: number): boolean {
  const ax = pa[4 * fa], ay = pa[4 * fa + 1], az = pa[4 * fa + 2];
  const bx = pa[4 * fb], by = pa[4 * fb + 1], bz = pa[4 * fb + 2];
  const cx = -pb[4 * fc], cy = -pb[4 * fc + 1], cz = -pb[4 * fc + 2];
  const dx = -pb[4 * fd], dy = -pb[4 * fd + 1], dz = -pb[4 * fd + 2];
  const bax = by * az - bz * ay, bay = bz * ax - bx * az, baz = bx * ay - by * ax;
  const dcx = dy * cz - dz * cy, dcy = dz * cx - dx * cz, dcz = dx * cy - dy * cx;
  const cba = cx * bax + cy * bay + cz * baz, dba = dx * bax + dy * bay + dz * baz;
  const adc = ax * dcx + ay * dcy + az * dcz, bdc = bx * dcx + by * dcy + bz * dcz;
  return cba * dba < 0 && adc * bdc < 0 && cba * bdc > 0;
}

/** Convex hull A (pose pa at oa) against convex hull B (pose pb at ob). */
export function hullHullContact(pa: Float64Array, oa: number, A: ConvexHullData, pb: Float64Array, ob: number, B: ConvexHullData, out: ManifoldBuilder): void {
  ensureScratch(A, B);
  const margin = out.margin;
  toWorld(A, pa, oa, VA, PA, 0);
  toWorld(B, pb, ob, VB, PB, 3);
  // faces of A: B's vertices against A's planes
  let sA = -Infinity, faceA = -1;
  for (let f = 0; f < A.faceCount; f++) {
    const s = planeSeparation(PA, 4 * f, VB, B.vertexCount);
    if (s > margin) return;
    if (s > sA) { sA = s; faceA = f; }
  }
  let sB = -Infinity, faceB = -1;
  for (let f = 0; f < B.faceCount; f++) {
    const s = planeSeparation(PB, 4 * f, VA, A.vertexCount);
    if (s > margin) return;
    if (s > sB) { sB = s; faceB = f; }
  }
  // edge pairs that form faces of the Minkowski difference: axis u_A x u_B, pointing from A to B
  let sE = -Infinity, edgeA = -1, edgeB = -1;
  const eA = A.edges, eB = B.edges, efA = A.edgeFaces, efB = B.edgeFaces;
  for (let i = 0; i < A.edgeCount; i++) {
    const a0 = 3 * eA[2 * i], a1 = 3 * eA[2 * i + 1];
    for (let j = 0; j < B.edgeCount; j++) {
      if (!minkowskiFace(PA, efA[2 * i], efA[2 * i + 1], PB, efB[2 * j], efB[2 * j + 1])) continue;
      const b0 = 3 * eB[2 * j];
      if (!edgeAxis(a0, a1, b0, 3 * eB[2 * j + 1])) continue;
      const lx = H[14], ly = H[15], lz = H[16];
      const s = lx * (VB[b0] - VA[a0]) + ly * (VB[b0 + 1] - VA[a0 + 1]) + lz * (VB[b0 + 2] - VA[a0 + 2]);
      if (s > margin) return;
      if (s > sE) { sE = s; edgeA = i; edgeB = j; H[10] = lx; H[11] = ly; H[12] = lz; }
    }
  }
  const faceBest = sB > sA + FACE_B_BIAS_REL * Math.abs(sA) + FACE_B_BIAS_ABS ? sB : sA;
  if (!(edgeA >= 0 && sE > faceBest + EDGE_BIAS_REL * Math.abs(faceBest) + EDGE_BIAS_ABS)) {
    // reference face on A (outward normal towards B, incident face on B) or on B. When the incident
    // face misses the reference face's prism (the faces and the best edge pair within the bias of
    // each other, the shapes meeting near an edge), the edge pair or the other face makes the contact.
    const refA = faceBest === sA;
    if (refA ? faceManifold(A, faceA, PA, VA, B, PB, VB, 0, out) : faceManifold(B, faceB, PB, VB, A, PA, VA, 1, out)) return;
    if (edgeA < 0) {
      if (refA) faceManifold(B, faceB, PB, VB, A, PA, VA, 1, out);
      else faceManifold(A, faceA, PA, VA, B, PB, VB, 0, out);
      return;
    }
  }
  H[13] = sE;
  if (faceOnEdgeManifold(A, B, out)) return;
  edgeContact(3 * A.edges[2 * edgeA], 3 * A.edges[2 * edgeA + 1], 3 * B.edges[2 * edgeB], 3 * B.edges[2 * edgeB + 1], (1 << 29) | (edgeA << 14) | edgeB, out);
}

/**
 * The edge axis (A to B, H 10..12; separation H 13) within 0.1 rad of a face normal of either hull
 * is a face resting on an edge, tilted a little: that face's manifold gives the points of the line
 * contact, as box-box.ts faceOnEdgeContact does for boxes (see there). Returns whether it gave two
 * points or more, its deepest as deep as the edge pair's overlap within a fifth of the margin; if
 * not, none of them is kept.
 */
function faceOnEdgeManifold(A: ConvexHullData, B: ConvexHullData, out: ManifoldBuilder): boolean {
  const lx = H[10], ly = H[11], lz = H[12];
  // (started at a literal, the threshold after the loop: see box-box.ts faceOnEdgeContact)
  let best = 0, face = -1, onB = 0;
  // A's outward face normals along the axis, B's against it
  for (let f = 0; f < A.faceCount; f++) {
    const c = PA[4 * f] * lx + PA[4 * f + 1] * ly + PA[4 * f + 2] * lz;
    if (c > best) { best = c; face = f; onB = 0; }
  }
  for (let f = 0; f < B.faceCount; f++) {
    const c = -(PB[4 * f] * lx + PB[4 * f + 1] * ly + PB[4 * f + 2] * lz);
    if (c > best) { best = c; face = f; onB = 1; }
  }
  if (best < FACE_ON_EDGE_COS) return false;
  const before = out.count;
  if (onB) faceManifold(B, face, PB, VB, A, PA, VA, 1, out);
  else faceManifold(A, face, PA, VA, B, PB, VB, 0, out);
  // (the deepest point sought here, not by a call: a returned double is boxed on the heap)
  let deepest = -Infinity;
  for (let i = before; i < out.count; i++) if (out.depth[i] > deepest) deepest = out.depth[i];
  if (out.count - before >= 2 && Math.abs(deepest + H[13]) <= FACE_ON_EDGE_SLACK * out.margin) return true;
  out.count = before;
  return false;
}

/**
 * The unit axis u x w of the edge a0 -> a1 of VA and the edge b0 -> b1 of VB (vertex offsets),
 * pointing away from A's centre (H 0..2), into H 14..16; false for (nearly) parallel edges, whose
 * direction the face axes cover.
 */
function edgeAxis(a0: number, a1: number, b0: number, b1: number): boolean {
  const ux = VA[a1] - VA[a0], uy = VA[a1 + 1] - VA[a0 + 1], uz = VA[a1 + 2] - VA[a0 + 2];
  const wx = VB[b1] - VB[b0], wy = VB[b1 + 1] - VB[b0 + 1], wz = VB[b1 + 2] - VB[b0 + 2];
  let lx = uy * wz - uz * wy, ly = uz * wx - ux * wz, lz = ux * wy - uy * wx;
  const ll = lx * lx + ly * ly + lz * lz;
  if (ll <= PARALLEL_SINE * PARALLEL_SINE * (ux * ux + uy * uy + uz * uz) * (wx * wx + wy * wy + wz * wz)) return false;
  const len = Math.sqrt(ll);
  lx /= len; ly /= len; lz /= len;
  if (lx * (VA[a0] - H[0]) + ly * (VA[a0 + 1] - H[1]) + lz * (VA[a0 + 2] - H[2]) < 0) { lx = -lx; ly = -ly; lz = -lz; }
  H[14] = lx; H[15] = ly; H[16] = lz;
  return true;
}

/**
 * One point at the closest points of the edge a0 -> a1 of VA and the edge b0 -> b1 of VB (vertex
 * offsets); the axis (A to B) in H 10..12, its separation in H 13.
 */
function edgeContact(a0: number, a1: number, b0: number, b1: number, feature: number, out: ManifoldBuilder): void {
  const g = SEG;
  for (let k = 0; k < 3; k++) { g[k] = VA[a0 + k]; g[3 + k] = VA[a1 + k]; g[6 + k] = VB[b0 + k]; g[9 + k] = VB[b1 + k]; }
  closestSegmentSegment();
  const t = g[12];
  const c = out.next;
  for (let k = 0; k < 3; k++) { c[k] = g[k] + t * (g[3 + k] - g[k]); c[3 + k] = -H[10 + k]; }
  c[6] = -H[13];
  out.push(feature);
}

/**
 * The incident hull's face most anti-parallel to reference face `ref` of the reference hull,
 * clipped by the reference face's side planes; points within the margin of the reference plane
 * are contacts (returns whether there were any). refIsB: the reference hull is the pair's B (incident points are on A).
 */
function faceManifold(
  R: HullFaces, ref: number, pr: Float64Array, vr: Float64Array,
  I: HullFaces, pi: Float64Array, vi: Float64Array, refIsB: number, out: ManifoldBuilder,
): boolean {
  const rx = pr[4 * ref], ry = pr[4 * ref + 1], rz = pr[4 * ref + 2], rd = pr[4 * ref + 3];
  let inc = 0, best = Infinity;
  for (let f = 0; f < I.faceCount; f++) {
    const c = pi[4 * f] * rx + pi[4 * f + 1] * ry + pi[4 * f + 2] * rz;
    if (c < best) { best = c; inc = f; }
  }
  clipIncident(I.faceVertices, I.faceStart[inc], I.faceStart[inc + 1], vi);
  const src = clipBySidePlanes(R.faceVertices, R.faceStart[ref], R.faceStart[ref + 1], vr, rx, ry, rz);
  if (src === null) return false;
  const before = out.count;
  const plane = out.reference;
  plane[0] = rx; plane[1] = ry; plane[2] = rz; plane[3] = rd;
  out.pushClipped(src, refIsB, (refIsB << 30) | ((ref & 255) << 22) | ((inc & 255) << 14), 7);
  out.reduce();
  return out.count > before;
}

/** polyA <- the polygon of vertex indices idx[s..e) (into v, 3 each); edge k runs from its vertex k to k + 1. */
function clipIncident(idx: Int32Array, s: number, e: number, v: Float64Array): void {
  polyA.clear();
  const m = e - s;
  for (let k = 0; k < m; k++) {
    const o = 3 * idx[s + k];
    polyA.pushFrom(v, o, (k === 0 ? m - 1 : k - 1) & 63, k & 63);
  }
}

/** Clips polyA by the side planes of the face idx[s..e) (counter-clockwise about n); returns the result, or null when nothing is left. */
function clipBySidePlanes(idx: Int32Array, s: number, e: number, v: Float64Array, nx: number, ny: number, nz: number): ClipPolygon | null {
  let src = polyA, dst = polyB;
  const m = e - s;
  for (let k = 0; k < m; k++) {
    const p = 3 * idx[s + k], q = 3 * idx[s + (k + 1 === m ? 0 : k + 1)];
    const ex = v[q] - v[p], ey = v[q + 1] - v[p + 1], ez = v[q + 2] - v[p + 2];
    // outward in-plane normal of the edge: e x n for a counter-clockwise face
    let wx = ey * nz - ez * ny, wy = ez * nx - ex * nz, wz = ex * ny - ey * nx;
    const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
    if (wl === 0) continue;
    wx /= wl; wy /= wl; wz /= wl;
    PLANE[0] = wx; PLANE[1] = wy; PLANE[2] = wz; PLANE[3] = wx * v[p] + wy * v[p + 1] + wz * v[p + 2];
    clipPolygonByPlane(src, dst, PLANE, SIDE_PLANE_ID + (k & 63));
    const t = src; src = dst; dst = t;
    if (src.count === 0) return null;
  }
  return src;
}

/**
 * A convex hull (pose pa at oa) on a static plane (pose pp at op: normal = its local +Y): every
 * hull vertex within the margin above the plane, reduced to 4. Feature id: the vertex index.
 */
export function hullPlaneContact(pa: Float64Array, oa: number, A: ConvexHullData, pp: Float64Array, op: number, out: ManifoldBuilder): void {
  const nx = pp[op + 1], ny = pp[op + 4], nz = pp[op + 7];
  const h0 = nx * (pa[oa + 9] - pp[op + 9]) + ny * (pa[oa + 10] - pp[op + 10]) + nz * (pa[oa + 11] - pp[op + 11]);
  if (h0 - A.radius > out.margin) return;
  const lv = A.vertices;
  for (let v = 0; v < A.vertexCount; v++) {
    const x = lv[3 * v], y = lv[3 * v + 1], z = lv[3 * v + 2];
    const wx = pa[oa] * x + pa[oa + 1] * y + pa[oa + 2] * z + pa[oa + 9];
    const wy = pa[oa + 3] * x + pa[oa + 4] * y + pa[oa + 5] * z + pa[oa + 10];
    const wz = pa[oa + 6] * x + pa[oa + 7] * y + pa[oa + 8] * z + pa[oa + 11];
    const depth = -(nx * (wx - pp[op + 9]) + ny * (wy - pp[op + 10]) + nz * (wz - pp[op + 11]));
    if (depth < -out.margin) continue;
    const c = out.next;
    c[0] = wx; c[1] = wy; c[2] = wz; c[3] = nx; c[4] = ny; c[5] = nz; c[6] = depth;
    out.push(v);
  }
  out.reduce();
}

/**
 * Scratch of the rounded routine, in the hull's local frame: segment ends a0 (0..2), a1 (3..5),
 * direction a1 - a0 (6..8), the best face's separation (9), the best edge axis (10..12) and its
 * separation (13), the closest points on the segment (14..16) and on the hull (17..19), the radius (20).
 */
const R = new Float64Array(21);
/** A contact staged for pushRounded, in B's local frame: core point (0..2), normal B to A (3..5), depth (6). */
const PT = new Float64Array(7);

/**
 * A sphere or capsule A (pose pa at oa, parameters prm[qa..]: a capsule's axis is its local Y, of
 * half length h; a sphere has h = 0) of radius r against convex hull B (pose pb at ob): the separating axes of the
 * hull's faces and of hull edge x capsule axis. A face axis gives the capsule's core clipped to the
 * face's prism, each end within the margin a contact (a capsule lying on a face gets two); else
 * the exact closest points of the core and the hull give one contact.
 */
export function roundedHullContact(pa: Float64Array, oa: number, prm: Float64Array, qa: number, pb: Float64Array, ob: number, B: ConvexHullData, out: ManifoldBuilder): void {
  const margin = out.margin;
  const r = prm[qa], h = prm[qa + 1]; // a sphere's parameters are [r, 0, 0]
  // core segment in B's local frame: x_l = R_b^T (x - t_b)
  const ux = pa[oa + 1] * h, uy = pa[oa + 4] * h, uz = pa[oa + 7] * h;
  for (let e = 0; e < 2; e++) {
    const sg = e === 0 ? -1 : 1;
    const x = pa[oa + 9] + sg * ux - pb[ob + 9], y = pa[oa + 10] + sg * uy - pb[ob + 10], z = pa[oa + 11] + sg * uz - pb[ob + 11];
    R[3 * e] = pb[ob] * x + pb[ob + 3] * y + pb[ob + 6] * z;
    R[3 * e + 1] = pb[ob + 1] * x + pb[ob + 4] * y + pb[ob + 7] * z;
    R[3 * e + 2] = pb[ob + 2] * x + pb[ob + 5] * y + pb[ob + 8] * z;
  }
  const dx = R[3] - R[0], dy = R[4] - R[1], dz = R[5] - R[2];
  R[6] = dx; R[7] = dy; R[8] = dz; R[20] = r;
  const lim = r + margin;
  const pl = B.planes, lv = B.vertices;
  let sF = -Infinity, face = -1;
  for (let f = 0; f < B.faceCount; f++) {
    const nx = pl[4 * f], ny = pl[4 * f + 1], nz = pl[4 * f + 2], d = pl[4 * f + 3];
    const s0 = nx * R[0] + ny * R[1] + nz * R[2] - d, s1 = nx * R[3] + ny * R[4] + nz * R[5] - d;
    const s = s0 < s1 ? s0 : s1;
    if (s > lim) return;
    if (s > sF) { sF = s; face = f; }
  }
  let sE = -Infinity, edge = -1;
  const dd = dx * dx + dy * dy + dz * dz;
  if (dd > 0) {
    const mx = 0.5 * (R[0] + R[3]) - B.center[0], my = 0.5 * (R[1] + R[4]) - B.center[1], mz = 0.5 * (R[2] + R[5]) - B.center[2];
    for (let i = 0; i < B.edgeCount; i++) {
      const p = 3 * B.edges[2 * i], q = 3 * B.edges[2 * i + 1];
      const wx = lv[q] - lv[p], wy = lv[q + 1] - lv[p + 1], wz = lv[q + 2] - lv[p + 2];
      let lx = dy * wz - dz * wy, ly = dz * wx - dx * wz, lz = dx * wy - dy * wx;
      const ll = lx * lx + ly * ly + lz * lz;
      if (ll <= PARALLEL_SINE * PARALLEL_SINE * dd * (wx * wx + wy * wy + wz * wz)) continue;
      const len = Math.sqrt(ll);
      lx /= len; ly /= len; lz /= len;
      if (lx * mx + ly * my + lz * mz < 0) { lx = -lx; ly = -ly; lz = -lz; }
      let top = -Infinity;
      for (let v = 0; v < 3 * B.vertexCount; v += 3) { const t = lx * lv[v] + ly * lv[v + 1] + lz * lv[v + 2]; if (t > top) top = t; }
      const s0 = lx * R[0] + ly * R[1] + lz * R[2], s1 = lx * R[3] + ly * R[4] + lz * R[5];
      const s = (s0 < s1 ? s0 : s1) - top;
      if (s > lim) return;
      if (s > sE) { sE = s; edge = i; R[10] = lx; R[11] = ly; R[12] = lz; }
    }
  }
  R[9] = sF; R[13] = sE;
  const edgeWins = edge >= 0 && sE > sF + EDGE_BIAS_REL * Math.abs(sF) + EDGE_BIAS_ABS;
  const before = out.count;
  const onFace = !edgeWins && faceEnds(pb, ob, B, face, out);
  if (sF > 0 || sE > 0) {
    // apart: the exact closest points. When they are deeper than the face's points, the nearest
    // feature is not that face (a core end past its prism is nearer to an edge) and they alone
    // make the contact; otherwise the face's points are the nearest and stay.
    closestToHull(B);
    const cx = R[14] - R[17], cy = R[15] - R[18], cz = R[16] - R[19];
    const dist = Math.sqrt(cx * cx + cy * cy + cz * cz);
    if (dist > lim) return;
    let deepest = -Infinity;
    for (let k = before; k < out.count; k++) if (out.depth[k] > deepest) deepest = out.depth[k];
    if (onFace) {
      if (r - dist <= deepest + 1e-9) return;
      out.count = before;
    }
    PT[0] = R[14]; PT[1] = R[15]; PT[2] = R[16]; PT[6] = r - dist;
    if (dist > 1e-12) { PT[3] = cx / dist; PT[4] = cy / dist; PT[5] = cz / dist; }
    else { PT[3] = pl[4 * face]; PT[4] = pl[4 * face + 1]; PT[5] = pl[4 * face + 2]; } // touching: the face normal
    pushRounded(pb, ob, 1 << 28, out);
    return;
  }
  if (onFace) return;
  if (edgeWins) {
    // penetrating across an edge: the closest points of the core and that edge
    const g = SEG, p = 3 * B.edges[2 * edge], q = 3 * B.edges[2 * edge + 1];
    for (let k = 0; k < 3; k++) { g[k] = R[k]; g[3 + k] = R[3 + k]; g[6 + k] = lv[p + k]; g[9 + k] = lv[q + k]; }
    closestSegmentSegment();
    const t = g[12];
    PT[0] = R[0] + t * dx; PT[1] = R[1] + t * dy; PT[2] = R[2] + t * dz; PT[3] = R[10]; PT[4] = R[11]; PT[5] = R[12]; PT[6] = r - sE;
    pushRounded(pb, ob, (2 << 28) | edge, out);
  } else {
    // penetrating, the core outside the best face's prism: its deepest end along the face normal
    const nx = pl[4 * face], ny = pl[4 * face + 1], nz = pl[4 * face + 2];
    const e = nx * R[0] + ny * R[1] + nz * R[2] <= nx * R[3] + ny * R[4] + nz * R[5] ? 0 : 3;
    PT[0] = R[e]; PT[1] = R[e + 1]; PT[2] = R[e + 2]; PT[3] = nx; PT[4] = ny; PT[5] = nz; PT[6] = r - sF;
    pushRounded(pb, ob, (face << 2) | (e ? 1 : 0), out);
  }
}

/**
 * The core (R 0..8) clipped to the prism of face f (its side planes); each end of what is left
 * within the margin of the face plane is a contact with the face normal. Returns whether any was.
 */
function faceEnds(pb: Float64Array, ob: number, B: ConvexHullData, f: number, out: ManifoldBuilder): boolean {
  const r = R[20];
  const pl = B.planes, lv = B.vertices, idx = B.faceVertices;
  const nx = pl[4 * f], ny = pl[4 * f + 1], nz = pl[4 * f + 2], d = pl[4 * f + 3];
  let t0 = 0, t1 = 1;
  const s = B.faceStart[f], m = B.faceStart[f + 1] - s;
  for (let k = 0; k < m; k++) {
    const p = 3 * idx[s + k], q = 3 * idx[s + (k + 1 === m ? 0 : k + 1)];
    const ex = lv[q] - lv[p], ey = lv[q + 1] - lv[p + 1], ez = lv[q + 2] - lv[p + 2];
    const wx = ey * nz - ez * ny, wy = ez * nx - ex * nz, wz = ex * ny - ey * nx;
    const w0 = wx * lv[p] + wy * lv[p + 1] + wz * lv[p + 2];
    const g0 = wx * R[0] + wy * R[1] + wz * R[2] - w0, g1 = wx * R[3] + wy * R[4] + wz * R[5] - w0;
    if (g0 > 0 && g1 > 0) return false;
    if (g0 > 0) { const t = g0 / (g0 - g1); if (t > t0) t0 = t; } else if (g1 > 0) { const t = g0 / (g0 - g1); if (t < t1) t1 = t; }
    if (t0 > t1) return false;
  }
  const before = out.count;
  for (let e = 0; e < 2; e++) {
    if (e === 1 && t1 - t0 <= 1e-9) break;
    const t = e === 0 ? t0 : t1;
    const x = R[0] + t * R[6], y = R[1] + t * R[7], z = R[2] + t * R[8];
    const depth = r - (nx * x + ny * y + nz * z - d);
    if (depth < -out.margin) continue;
    PT[0] = x; PT[1] = y; PT[2] = z; PT[3] = nx; PT[4] = ny; PT[5] = nz; PT[6] = depth;
    pushRounded(pb, ob, (f << 2) | e, out);
  }
  return out.count > before;
}

/** Closest points of the core (R 0..8) and the hull surface, for a core outside the hull: R 14..16 on the core, 17..19 on the hull. */
function closestToHull(B: ConvexHullData): void {
  const pl = B.planes, lv = B.vertices, idx = B.faceVertices;
  let best = Infinity;
  // an end over a face: its projection
  for (let e = 0; e < 2; e++) {
    const ax = R[3 * e], ay = R[3 * e + 1], az = R[3 * e + 2];
    for (let f = 0; f < B.faceCount; f++) {
      const nx = pl[4 * f], ny = pl[4 * f + 1], nz = pl[4 * f + 2];
      const sd = nx * ax + ny * ay + nz * az - pl[4 * f + 3];
      if (sd <= 0 || sd * sd >= best) continue;
      const px = ax - sd * nx, py = ay - sd * ny, pz = az - sd * nz;
      let inside = true;
      const s = B.faceStart[f], m = B.faceStart[f + 1] - s;
      for (let k = 0; k < m && inside; k++) {
        const p = 3 * idx[s + k], q = 3 * idx[s + (k + 1 === m ? 0 : k + 1)];
        const ex = lv[q] - lv[p], ey = lv[q + 1] - lv[p + 1], ez = lv[q + 2] - lv[p + 2];
        const rx = px - lv[p], ry = py - lv[p + 1], rz = pz - lv[p + 2];
        // inside: (e x r) . n >= 0 for every edge of a counter-clockwise face
        if ((ey * rz - ez * ry) * nx + (ez * rx - ex * rz) * ny + (ex * ry - ey * rx) * nz < 0) inside = false;
      }
      if (!inside) continue;
      best = sd * sd;
      R[14] = ax; R[15] = ay; R[16] = az; R[17] = px; R[18] = py; R[19] = pz;
    }
  }
  // the core against every hull edge
  const g = SEG;
  for (let i = 0; i < B.edgeCount; i++) {
    const p = 3 * B.edges[2 * i], q = 3 * B.edges[2 * i + 1];
    for (let k = 0; k < 3; k++) { g[k] = R[k]; g[3 + k] = R[3 + k]; g[6 + k] = lv[p + k]; g[9 + k] = lv[q + k]; }
    closestSegmentSegment();
    if (g[14] >= best) continue;
    best = g[14];
    const s = g[12], t = g[13];
    for (let k = 0; k < 3; k++) { R[14 + k] = g[k] + s * (g[3 + k] - g[k]); R[17 + k] = g[6 + k] + t * (g[9 + k] - g[6 + k]); }
  }
}

/** Pushes the contact staged in PT (B's local frame) in world space; the point on A is the core point - n r. */
function pushRounded(pb: Float64Array, ob: number, feature: number, out: ManifoldBuilder): void {
  const c = out.next, r = R[20];
  const nx = PT[3], ny = PT[4], nz = PT[5], depth = PT[6];
  const px = PT[0] - nx * r, py = PT[1] - ny * r, pz = PT[2] - nz * r;
  c[0] = pb[ob] * px + pb[ob + 1] * py + pb[ob + 2] * pz + pb[ob + 9];
  c[1] = pb[ob + 3] * px + pb[ob + 4] * py + pb[ob + 5] * pz + pb[ob + 10];
  c[2] = pb[ob + 6] * px + pb[ob + 7] * py + pb[ob + 8] * pz + pb[ob + 11];
  c[3] = pb[ob] * nx + pb[ob + 1] * ny + pb[ob + 2] * nz;
  c[4] = pb[ob + 3] * nx + pb[ob + 4] * ny + pb[ob + 5] * nz;
  c[5] = pb[ob + 6] * nx + pb[ob + 7] * ny + pb[ob + 8] * nz;
  c[6] = depth;
  out.push(feature);
}

/**
 * Convex hull A (pose pa at oa in the mesh frame) against one triangle of a static mesh or
 * heightfield (one-sided, see triangle-contacts.ts), in the mesh frame. Axes: the triangle normal
 * N, the hull's face normals and the products of hull edges with triangle edges that form faces of
 * the Minkowski difference. Any of them may prove separation; only directions that push the hull
 * out of the front of the surface and whose triangle feature is a crease may carry the contact,
 * and a winner outside this triangle's wedge or cone is another triangle's to report (so a hull
 * sliding over a flat mesh does not catch on the edges between its triangles).
 */
export function hullTriangleContact(pa: Float64Array, oa: number, A: ConvexHullData, tri: TriangleRef, out: ManifoldBuilder): void {
  ensureScratch(A, null);
  toWorld(A, pa, oa, VA, PA, 0);
  const d = tri.data, margin = out.margin;
  const Nx = d[9], Ny = d[10], Nz = d[11];
  const Nd = Nx * d[0] + Ny * d[1] + Nz * d[2];
  if (Nx * H[0] + Ny * H[1] + Nz * H[2] < Nd) return; // centre behind the face
  for (let k = 0; k < 9; k++) VB[k] = d[k];
  PB[0] = Nx; PB[1] = Ny; PB[2] = Nz; PB[3] = Nd;
  PB[4] = -Nx; PB[5] = -Ny; PB[6] = -Nz; PB[7] = -Nd;
  // the triangle's face: the hull's lowest vertex above it
  let best = -Infinity;
  for (let v = 0; v < 3 * A.vertexCount; v += 3) { const t = Nd - (Nx * VA[v] + Ny * VA[v + 1] + Nz * VA[v + 2]); if (t > best) best = t; }
  const sN = -best;
  if (sN > margin) return;
  let kind = 0, which = -1, sBest = sN, winFeature = TRI_FACE;
  // the hull's faces: the triangle's vertices against each plane
  for (let f = 0; f < A.faceCount; f++) {
    const s = planeSeparation(PA, 4 * f, VB, 3);
    if (s > margin) return;
    const nx = PA[4 * f], ny = PA[4 * f + 1], nz = PA[4 * f + 2];
    if (-(nx * Nx + ny * Ny + nz * Nz) <= 0) continue; // would push the hull behind the surface
    if (!(s > sBest + FACE_B_BIAS_REL * Math.abs(sBest) + FACE_B_BIAS_ABS)) continue;
    // the triangle's feature touching that face: its vertices within a hair of the plane
    const tol = 1e-9 + 1e-6 * Math.abs(s);
    let mask = 0;
    for (let k = 0; k < 3; k++) if (nx * d[3 * k] + ny * d[3 * k + 1] + nz * d[3 * k + 2] - PA[4 * f + 3] <= s + tol) mask |= 1 << k;
    const feat = featureOfVertexSet(mask);
    if (!featureIsCrease(feat, tri.flags)) continue;
    kind = 1; which = f; sBest = s; winFeature = feat;
  }
  const faceBest = sBest;
  // edge pairs
  let edgeA = -1, edgeK = -1, sE = -Infinity;
  const eA = A.edges, efA = A.edgeFaces;
  for (let i = 0; i < A.edgeCount; i++) {
    const a0 = 3 * eA[2 * i], a1 = 3 * eA[2 * i + 1];
    if (!minkowskiFace(PA, efA[2 * i], efA[2 * i + 1], PB, 0, 1)) continue;
    for (let k = 0; k < 3; k++) {
      if (!edgeAxis(a0, a1, 3 * k, k === 2 ? 0 : 3 * k + 3)) continue;
      const lx = H[14], ly = H[15], lz = H[16];
      // separation along l (hull to triangle): the triangle's lowest vertex minus the hull's highest
      let top = -Infinity, low = Infinity;
      for (let v = 0; v < 3 * A.vertexCount; v += 3) { const t = lx * VA[v] + ly * VA[v + 1] + lz * VA[v + 2]; if (t > top) top = t; }
      for (let v = 0; v < 9; v += 3) { const t = lx * VB[v] + ly * VB[v + 1] + lz * VB[v + 2]; if (t < low) low = t; }
      const s = low - top;
      if (s > margin) return;
      if (-(lx * Nx + ly * Ny + lz * Nz) <= 0) continue;
      if (!featureIsCrease(TRI_EDGE0 + k, tri.flags)) continue;
      if (s > sE) { sE = s; edgeA = i; edgeK = k; H[10] = lx; H[11] = ly; H[12] = lz; }
    }
  }
  if (edgeA >= 0 && sE > faceBest + EDGE_BIAS_REL * Math.abs(faceBest) + EDGE_BIAS_ABS) {
    TC[0] = -H[10]; TC[1] = -H[11]; TC[2] = -H[12];
    if (!featureOwnsNormal(tri, TRI_EDGE0 + edgeK)) return;
    H[13] = sE;
    edgeContact(3 * eA[2 * edgeA], 3 * eA[2 * edgeA + 1], 3 * edgeK, edgeK === 2 ? 0 : 3 * edgeK + 3, (1 << 29) | (edgeA << 14) | edgeK, out);
  } else if (kind === 1) {
    TC[0] = -PA[4 * which]; TC[1] = -PA[4 * which + 1]; TC[2] = -PA[4 * which + 2];
    if (!featureOwnsNormal(tri, winFeature)) return;
    faceManifold(A, which, PA, VA, TRIANGLE_FACES, PB, VB, 0, out);
  } else {
    faceManifold(TRIANGLE_FACES, 0, PB, VB, A, PA, VA, 1, out);
  }
}
