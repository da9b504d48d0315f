/**
 * Per-pair scratch where a narrow-phase routine collects candidate contact points, and the rules
 * that turn them into the pair's manifold: drop near duplicates, keep at most four points that
 * span the contact area, then write them into the ContactBuffer in world coordinates.
 */
import {
  CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_DEPTH, CONTACT_F64_STRIDE, CONTACT_FEATURE, CONTACT_FRICTION, CONTACT_I32_STRIDE,
  CONTACT_LINK_A, CONTACT_LINK_B, CONTACT_NORMAL, CONTACT_POINT_A, CONTACT_POINT_B, CONTACT_RESTITUTION, CONTACT_SHAPE_A,
  CONTACT_SHAPE_B, CONTACT_SUB_SHAPE, MANIFOLD_COUNT, MANIFOLD_FIRST, MANIFOLD_SHAPE_A, MANIFOLD_SHAPE_B, MANIFOLD_STRIDE,
  ContactBuffer,
} from './contact-buffer.js';
import type { ClipPolygon } from './clip.js';
import { combineFriction, combineRestitution } from './material.js';
import type { ShapeStore } from './shape-store.js';

/** Candidate points one pair may collect before the shallowest ones are replaced. */
export const MANIFOLD_CANDIDATE_CAPACITY = 64;
/** Most points a pair's manifold keeps. */
export const MAX_MANIFOLD_POINTS = 4;
/** Depths closer than this (m) count as equal when choosing the first point of a manifold. */
const DEPTH_TIE = 1e-7;

export class ManifoldBuilder {
  count = 0;
  /** Point on the routine's shape A, in the routine's frame. */
  readonly point = new Float64Array(3 * MANIFOLD_CANDIDATE_CAPACITY);
  /** Unit normal from the routine's B to its A. */
  readonly normal = new Float64Array(3 * MANIFOLD_CANDIDATE_CAPACITY);
  readonly depth = new Float64Array(MANIFOLD_CANDIDATE_CAPACITY);
  readonly feature = new Int32Array(MANIFOLD_CANDIDATE_CAPACITY);
  readonly subShape = new Int32Array(MANIFOLD_CANDIDATE_CAPACITY);
  /** Sub-shape (triangle) id stamped on the points added next. */
  currentSubShape = -1;
  /** True when the routine was called with the pair's shapes swapped (its A is the pair's B). */
  flipped = false;
  /** When set, the routine worked in this frame (a pose, 12 numbers) and results go to world through it. */
  frame: Float64Array | null = null;
  /** Contact margin (m): routines keep points no more than this far apart. */
  margin = 0;
  /**
   * The point a routine stages before push(): point on A xyz, unit normal (B to A) xyz, depth.
   * (Passing them as arguments would box the floats on the heap; see geometry.ts.)
   */
  readonly next = new Float64Array(7);
  private readonly keep = new Int32Array(MAX_MANIFOLD_POINTS);

  reset(): void {
    this.count = 0;
    this.currentSubShape = -1;
    this.flipped = false;
    this.frame = null;
  }

  /** Adds the staged point `next` with its feature id; when full, it replaces the shallowest candidate if it is deeper. */
  push(feature: number): void {
    const c = this.next;
    const depth = c[6];
    let i = this.count;
    if (i === MANIFOLD_CANDIDATE_CAPACITY) {
      let k = 0;
      for (let j = 1; j < i; j++) if (this.depth[j] < this.depth[k]) k = j;
      if (!(depth > this.depth[k])) return;
      i = k;
    } else {
      this.count = i + 1;
    }
    const p = this.point, n = this.normal;
    p[3 * i] = c[0]; p[3 * i + 1] = c[1]; p[3 * i + 2] = c[2];
    n[3 * i] = c[3]; n[3 * i + 1] = c[4]; n[3 * i + 2] = c[5];
    this.depth[i] = depth;
    this.feature[i] = feature;
    this.subShape[i] = this.currentSubShape;
  }

  /**
   * The reference face's plane n . x = d (n unit, out of the reference shape) for pushClipped,
   * written by the caller (passing it as arguments would box the floats).
   */
  readonly reference = new Float64Array(4);

  /**
   * Face-against-face contacts: adds the vertices of `poly` (the incident face clipped by the
   * reference face's side planes) that lie within the margin of the plane `reference`, with depth
   * d - n . x. The normal points from B to A: n when the reference shape is B (refIsB = 1), -n
   * otherwise. The incident points are on A when the reference is B; otherwise they are on B, and
   * A's point is depth back along the normal. Feature id: base | inEdge << edgeBits | outEdge,
   * each edge id masked to edgeBits.
   */
  pushClipped(poly: ClipPolygon, refIsB: number, base: number, edgeBits: number): void {
    const r = this.reference, rx = r[0], ry = r[1], rz = r[2], rd = r[3];
    const nx = refIsB ? rx : -rx, ny = refIsB ? ry : -ry, nz = refIsB ? rz : -rz;
    const mask = (1 << edgeBits) - 1, xyz = poly.xyz, margin = this.margin;
    for (let v = 0; v < poly.count; v++) {
      const x = xyz[3 * v], y = xyz[3 * v + 1], z = xyz[3 * v + 2];
      const depth = rd - (rx * x + ry * y + rz * z);
      if (depth < -margin) continue;
      const c = this.next;
      const back = refIsB ? 0 : depth;
      c[0] = x - nx * back; c[1] = y - ny * back; c[2] = z - nz * back;
      c[3] = nx; c[4] = ny; c[5] = nz;
      c[6] = depth;
      this.push(base | ((poly.inEdge[v] & mask) << edgeBits) | (poly.outEdge[v] & mask));
    }
  }

  /**
   * Removes candidates closer than `distance` to an earlier kept one with nearly the same normal,
   * keeping the deeper of the two (the earlier on ties). Adjacent triangles of a mesh report the
   * same point twice where a shape rests across their shared edge.
   */
  removeDuplicates(distance: number): void {
    const p = this.point, n = this.normal, d = this.depth;
    const d2 = distance * distance;
    let w = 0;
    for (let i = 0; i < this.count; i++) {
      let dup = -1;
      for (let j = 0; j < w; j++) {
        const dx = p[3 * i] - p[3 * j], dy = p[3 * i + 1] - p[3 * j + 1], dz = p[3 * i + 2] - p[3 * j + 2];
        if (dx * dx + dy * dy + dz * dz > d2) continue;
        const c = n[3 * i] * n[3 * j] + n[3 * i + 1] * n[3 * j + 1] + n[3 * i + 2] * n[3 * j + 2];
        if (c > 0.999) {
          dup = j;
          break;
        }
      }
      if (dup >= 0) {
        if (d[i] > d[dup]) this.copy(i, dup);
        continue;
      }
      if (w !== i) this.copy(i, w);
      w++;
    }
    this.count = w;
  }

  /**
   * Keeps at most four points that cover the contact patch: (1) the deepest point (among equally
   * deep ones the farthest from the centroid, a corner of the patch); (2) the point farthest from
   * it; (3) the point farthest from the line through the two; (4) the point adding the most area
   * outside the triangle of the first three. Distance and area maxima over a convex patch are at
   * its corners, so a box face on a floor keeps its four corners whatever else was collected.
   * Runs when there are at least `minCount` points (default: more than four); with a lower count
   * it also drops points inside or on the line of the others.
   */
  reduce(minCount = MAX_MANIFOLD_POINTS + 1): void {
    const n = this.count;
    if (n < minCount || n < 3) return;
    const p = this.point, d = this.depth, keep = this.keep;
    let cx = 0, cy = 0, cz = 0;
    let maxDepth = -Infinity;
    for (let i = 0; i < n; i++) {
      cx += p[3 * i]; cy += p[3 * i + 1]; cz += p[3 * i + 2];
      if (d[i] > maxDepth) maxDepth = d[i];
    }
    cx /= n; cy /= n; cz /= n;
    let i1 = -1, best = -1;
    for (let i = 0; i < n; i++) {
      if (d[i] < maxDepth - DEPTH_TIE) continue;
      const dx = p[3 * i] - cx, dy = p[3 * i + 1] - cy, dz = p[3 * i + 2] - cz;
      const s = dx * dx + dy * dy + dz * dz;
      if (s > best) { best = s; i1 = i; }
    }
    const ax = p[3 * i1], ay = p[3 * i1 + 1], az = p[3 * i1 + 2];
    let i2 = -1;
    best = -1;
    for (let i = 0; i < n; i++) {
      if (i === i1) continue;
      const dx = p[3 * i] - ax, dy = p[3 * i + 1] - ay, dz = p[3 * i + 2] - az;
      const s = dx * dx + dy * dy + dz * dz;
      if (s > best) { best = s; i2 = i; }
    }
    const ux = p[3 * i2] - ax, uy = p[3 * i2 + 1] - ay, uz = p[3 * i2 + 2] - az;
    let i3 = -1;
    best = -1;
    let mx = 0, my = 0, mz = 0;
    for (let i = 0; i < n; i++) {
      if (i === i1 || i === i2) continue;
      const vx = p[3 * i] - ax, vy = p[3 * i + 1] - ay, vz = p[3 * i + 2] - az;
      const kx = uy * vz - uz * vy, ky = uz * vx - ux * vz, kz = ux * vy - uy * vx;
      const s = kx * kx + ky * ky + kz * kz;
      if (s > best) { best = s; i3 = i; mx = kx; my = ky; mz = kz; }
    }
    keep[0] = i1; keep[1] = i2; keep[2] = i3;
    const uu = ux * ux + uy * uy + uz * uz;
    if (best <= 1e-18 * uu * uu) {
      // All candidates lie on one line (a capsule along its length): its two ends suffice.
      keep[2] = -1;
      this.compact(2);
      return;
    }
    let kept = 3;
    // Fourth point: for each edge (a, b) of the triangle, (b - a) x (p - a) . m < 0 means p lies
    // outside that edge, and minus that value is twice the area p adds there.
    let i4 = -1;
    best = 1e-18 * (mx * mx + my * my + mz * mz);
    for (let i = 0; i < n; i++) {
      if (i === i1 || i === i2 || i === i3) continue;
      let gain = 0;
      for (let e = 0; e < 3; e++) {
        const a = keep[e], b = keep[e === 2 ? 0 : e + 1];
        const ex = p[3 * b] - p[3 * a], ey = p[3 * b + 1] - p[3 * a + 1], ez = p[3 * b + 2] - p[3 * a + 2];
        const vx = p[3 * i] - p[3 * a], vy = p[3 * i + 1] - p[3 * a + 1], vz = p[3 * i + 2] - p[3 * a + 2];
        const s = (ey * vz - ez * vy) * mx + (ez * vx - ex * vz) * my + (ex * vy - ey * vx) * mz;
        if (-s > gain) gain = -s;
      }
      if (gain > best) { best = gain; i4 = i; }
    }
    if (i4 >= 0) keep[kept++] = i4;
    this.compact(kept);
  }

  /** Keeps candidates keep[0..kept) in ascending candidate order, so the output order does not depend on the choice order. */
  private compact(kept: number): void {
    const keep = this.keep;
    for (let a = 1; a < kept; a++) {
      const v = keep[a];
      let b = a - 1;
      while (b >= 0 && keep[b] > v) { keep[b + 1] = keep[b]; b--; }
      keep[b + 1] = v;
    }
    for (let k = 0; k < kept; k++) if (keep[k] !== k) this.copy(keep[k], k);
    this.count = kept;
  }

  /**
   * Writes the manifold into the buffer in world coordinates and in the pair's orientation (A the
   * pair's first shape, slot a; normal from B to A), with the pair's combined material. Points
   * beyond the buffer's capacity are counted only.
   */
  commit(out: ContactBuffer, store: ShapeStore, a: number, b: number): void {
    const n = this.count;
    if (n === 0) return;
    out.manifoldsRequired++;
    const first = out.count;
    out.required += n;
    const frame = this.frame;
    const friction = combineFriction(store.friction[a], store.friction[b], store.frictionCombine[a], store.frictionCombine[b]);
    const restitution = combineRestitution(store.restitution[a], store.restitution[b]);
    const shapeA = store.handle[a], shapeB = store.handle[b];
    const dynamicB = b < store.dynamicCount;
    let written = 0;
    for (let i = 0; i < n; i++) {
      const c = out.count;
      if (c >= out.capacity) break;
      let px = this.point[3 * i], py = this.point[3 * i + 1], pz = this.point[3 * i + 2];
      let nx = this.normal[3 * i], ny = this.normal[3 * i + 1], nz = this.normal[3 * i + 2];
      const depth = this.depth[i];
      if (this.flipped) {
        // The routine's A is our B: its point B = point A + n depth lies on our A; the normal turns.
        px += nx * depth; py += ny * depth; pz += nz * depth;
        nx = -nx; ny = -ny; nz = -nz;
      }
      if (frame !== null) {
        const wx = frame[0] * px + frame[1] * py + frame[2] * pz + frame[9];
        const wy = frame[3] * px + frame[4] * py + frame[5] * pz + frame[10];
        const wz = frame[6] * px + frame[7] * py + frame[8] * pz + frame[11];
        const vx = frame[0] * nx + frame[1] * ny + frame[2] * nz;
        const vy = frame[3] * nx + frame[4] * ny + frame[5] * nz;
        const vz = frame[6] * nx + frame[7] * ny + frame[8] * nz;
        px = wx; py = wy; pz = wz;
        nx = vx; ny = vy; nz = vz;
      }
      const f = out.f64, o = c * CONTACT_F64_STRIDE;
      f[o + CONTACT_POINT_A] = px;
      f[o + CONTACT_POINT_A + 1] = py;
      f[o + CONTACT_POINT_A + 2] = pz;
      f[o + CONTACT_POINT_B] = px + nx * depth;
      f[o + CONTACT_POINT_B + 1] = py + ny * depth;
      f[o + CONTACT_POINT_B + 2] = pz + nz * depth;
      f[o + CONTACT_NORMAL] = nx;
      f[o + CONTACT_NORMAL + 1] = ny;
      f[o + CONTACT_NORMAL + 2] = nz;
      f[o + CONTACT_DEPTH] = depth;
      f[o + CONTACT_FRICTION] = friction;
      f[o + CONTACT_RESTITUTION] = restitution;
      const k = out.i32, q = c * CONTACT_I32_STRIDE;
      k[q + CONTACT_SHAPE_A] = shapeA;
      k[q + CONTACT_SHAPE_B] = shapeB;
      k[q + CONTACT_BODY_A] = store.body[a];
      k[q + CONTACT_LINK_A] = store.link[a];
      k[q + CONTACT_BODY_B] = dynamicB ? store.body[b] : -1;
      k[q + CONTACT_LINK_B] = dynamicB ? store.link[b] : -1;
      k[q + CONTACT_SUB_SHAPE] = this.subShape[i];
      k[q + CONTACT_FEATURE] = this.feature[i];
      out.count = c + 1;
      written++;
    }
    if (written > 0 && out.manifoldCount < out.manifoldCapacity) {
      const m = out.manifoldCount;
      const r = out.manifolds, o = m * MANIFOLD_STRIDE;
      r[o + MANIFOLD_SHAPE_A] = shapeA;
      r[o + MANIFOLD_SHAPE_B] = shapeB;
      r[o + MANIFOLD_FIRST] = first;
      r[o + MANIFOLD_COUNT] = written;
      out.manifoldCount = m + 1;
    }
  }

  private copy(from: number, to: number): void {
    const p = this.point, n = this.normal;
    p[3 * to] = p[3 * from]; p[3 * to + 1] = p[3 * from + 1]; p[3 * to + 2] = p[3 * from + 2];
    n[3 * to] = n[3 * from]; n[3 * to + 1] = n[3 * from + 1]; n[3 * to + 2] = n[3 * from + 2];
    this.depth[to] = this.depth[from];
    this.feature[to] = this.feature[from];
    this.subShape[to] = this.subShape[from];
  }
}
