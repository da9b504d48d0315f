/**
 * Distance between a convex core (a point, a segment or a box) and a triangle, with the closest
 * points, by the GJK distance algorithm: E. G. Gilbert, D. W. Johnson and S. S. Keerthi, "A Fast
 * Procedure for Computing the Distance Between Complex Objects in Three-Dimensional Space" (1988),
 * in the form of G. van den Bergen, "Collision Detection in Interactive 3D Environments" (2003),
 * 4.3: the simplex of support points of the Minkowski difference A - B moves towards the origin
 * until the support point in the direction of the origin brings it no closer. The point of each
 * simplex nearest the origin comes from its Voronoi regions (C. Ericson, "Real-Time Collision
 * Detection", 2005, 5.1.2 segment, 5.1.5 triangle, 5.1.6 tetrahedron). A sphere is a point core
 * and a capsule a segment core grown by their radius: the caller subtracts it.
 *
 * Numbers live in typed arrays (a double passed to a call that is not inlined is boxed).
 */

/** Core kinds: a point (a sphere's centre), a segment along local y (a capsule's axis), a box. */
export const CORE_POINT = 0;
/** See CORE_POINT. */
export const CORE_SEGMENT = 1;
/** See CORE_POINT. */
export const CORE_BOX = 2;

const MAX_ITERATIONS = 64;

export class GjkDistance {
  /** Kind of core A (CORE_POINT, CORE_SEGMENT, CORE_BOX). */
  kind = CORE_POINT;
  /** Pose of core A in B's frame (pose.ts layout: rotation row-major, then position). */
  readonly pose = new Float64Array(12);
  /** Half sizes of core A: the segment's half length at [1] (along local y); the box's half extents. */
  readonly size = new Float64Array(3);
  /** Triangle B: its three corners. */
  readonly tri = new Float64Array(9);
  /**
   * Result of run(): [distance, point of A (3), point of B (3), unit normal from B to A (3)]; when
   * the cores overlap, distance 0, both points one common point, normal 0.
   */
  readonly out = new Float64Array(10);
  /** Simplex: per vertex w = a - b (3), a (3), b (3); up to 4 vertices. */
  private readonly simplex = new Float64Array(36);
  private count = 0;
  /** Barycentric weights of the simplex's closest point (4), a trial's weights (4). */
  private readonly lambda = new Float64Array(8);
  /**
   * v (the closest point so far, 0..2), the support point (3..8: a, b), the direction of the next
   * support (9..11), the squared distance a sub-simplex test found (12), the new support point
   * w = a - b (13..15).
   */
  private readonly v = new Float64Array(16);

  /** Distance between core A and triangle B into `out`; returns whether they overlap. */
  run(): boolean {
    const S = this.simplex, v = this.v, P = this.pose, t = this.tri;
    // start from a = A's centre, b = B's first corner
    S[3] = P[9]; S[4] = P[10]; S[5] = P[11];
    S[6] = t[0]; S[7] = t[1]; S[8] = t[2];
    S[0] = S[3] - S[6]; S[1] = S[4] - S[7]; S[2] = S[5] - S[8];
    this.count = 1;
    this.lambda[0] = 1;
    v[0] = S[0]; v[1] = S[1]; v[2] = S[2];
    let overlap = false;
    for (let it = 0; it < MAX_ITERATIONS; it++) {
      const vx = v[0], vy = v[1], vz = v[2];
      const vv = vx * vx + vy * vy + vz * vz;
      if (vv <= 1e-30) { overlap = true; break; }
      v[9] = vx; v[10] = vy; v[11] = vz;
      this.supportA();
      this.supportB();
      const wx = v[3] - v[6], wy = v[4] - v[7], wz = v[5] - v[8];
      // no support point gets closer: v is the closest point (to rounding)
      if (vv - (vx * wx + vy * wy + vz * wz) <= 1e-13 * vv) break;
      v[13] = wx; v[14] = wy; v[15] = wz;
      if (this.contains()) break;
      const o = 9 * this.count++;
      S[o] = wx; S[o + 1] = wy; S[o + 2] = wz;
      S[o + 3] = v[3]; S[o + 4] = v[4]; S[o + 5] = v[5];
      S[o + 6] = v[6]; S[o + 7] = v[7]; S[o + 8] = v[8];
      if (this.closest()) { overlap = true; break; }
      this.pointOf(0);
      const nv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
      if (!(nv < vv)) break; // no progress (rounding): keep this simplex's point
    }
    this.finish(overlap);
    return overlap;
  }

  /** Whether w = v[13..16) is already a vertex of the simplex. */
  private contains(): boolean {
    const S = this.simplex, v = this.v, wx = v[13], wy = v[14], wz = v[15];
    for (let i = 0; i < this.count; i++) if (S[9 * i] === wx && S[9 * i + 1] === wy && S[9 * i + 2] === wz) return true;
    return false;
  }

  /** The weighted sum of the simplex's w (k = 0), a (k = 3) or b (k = 6) into v[0..3). */
  private pointOf(k: number): void {
    const S = this.simplex, L = this.lambda, v = this.v;
    let x = 0, y = 0, z = 0;
    for (let i = 0; i < this.count; i++) {
      const o = 9 * i + k, l = L[i];
      x += l * S[o]; y += l * S[o + 1]; z += l * S[o + 2];
    }
    v[0] = x; v[1] = y; v[2] = z;
  }

  private finish(overlap: boolean): void {
    const out = this.out, v = this.v;
    this.pointOf(3);
    out[1] = v[0]; out[2] = v[1]; out[3] = v[2];
    this.pointOf(6);
    out[4] = v[0]; out[5] = v[1]; out[6] = v[2];
    this.pointOf(0);
    const d = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (overlap || !(d > 0)) {
      out[0] = 0; out[7] = 0; out[8] = 0; out[9] = 0;
      // a common point: A's point (B's differs from it by rounding only)
      out[4] = out[1]; out[5] = out[2]; out[6] = out[3];
      return;
    }
    out[0] = d; out[7] = v[0] / d; out[8] = v[1] / d; out[9] = v[2] / d;
  }

  /** Support point of A in direction -v[9..12) into v[3..6). */
  private supportA(): void {
    const P = this.pose, v = this.v, h = this.size;
    const dx = -v[9], dy = -v[10], dz = -v[11];
    let x = P[9], y = P[10], z = P[11];
    if (this.kind === CORE_SEGMENT) {
      const s = dx * P[1] + dy * P[4] + dz * P[7] >= 0 ? h[1] : -h[1];
      x += s * P[1]; y += s * P[4]; z += s * P[7];
    } else if (this.kind === CORE_BOX) {
      for (let k = 0; k < 3; k++) {
        const ax = P[k], ay = P[3 + k], az = P[6 + k];
        const s = dx * ax + dy * ay + dz * az >= 0 ? h[k] : -h[k];
        x += s * ax; y += s * ay; z += s * az;
      }
    }
    v[3] = x; v[4] = y; v[5] = z;
  }

  /** Support point of the triangle in direction d = v[9..12) into v[6..9) (the first corner of the largest d . x). */
  private supportB(): void {
    const t = this.tri, v = this.v;
    const dx = v[9], dy = v[10], dz = v[11];
    let best = 0, bestDot = dx * t[0] + dy * t[1] + dz * t[2];
    const d1 = dx * t[3] + dy * t[4] + dz * t[5], d2 = dx * t[6] + dy * t[7] + dz * t[8];
    if (d1 > bestDot) { best = 3; bestDot = d1; }
    if (d2 > bestDot) best = 6;
    v[6] = t[best]; v[7] = t[best + 1]; v[8] = t[best + 2];
  }

  /**
   * Replaces the simplex by the smallest sub-simplex holding its point nearest the origin, with
   * that point's weights in lambda[0..count); returns true when a tetrahedron contains the origin.
   */
  private closest(): boolean {
    const n = this.count, L = this.lambda;
    if (n === 2) {
      this.segment(0, 1, 4);
      this.keep(0, 1, -1, 4);
    } else if (n === 3) {
      this.triangle(0, 1, 2, 4);
      this.keep(0, 1, 2, 4);
    } else if (n === 4) {
      return this.tetrahedron();
    } else {
      L[0] = 1;
    }
    return false;
  }

  /** Keeps vertices i, j, k (k -1: none) with the trial weights at lambda[from..], dropping those of weight 0. */
  private keep(i: number, j: number, k: number, from: number): void {
    const L = this.lambda;
    const wi = L[from], wj = L[from + 1], wk = k >= 0 ? L[from + 2] : 0;
    // copy the kept vertices to the front (indices ascending, so no vertex is overwritten before it is read)
    let m = 0;
    if (wi > 0) { this.move(i, m); L[m++] = wi; }
    if (wj > 0) { this.move(j, m); L[m++] = wj; }
    if (k >= 0 && wk > 0) { this.move(k, m); L[m++] = wk; }
    if (m === 0) { this.move(i, 0); L[0] = 1; m = 1; }
    this.count = m;
  }

  private move(from: number, to: number): void {
    if (from === to) return;
    const S = this.simplex;
    for (let q = 0; q < 9; q++) S[9 * to + q] = S[9 * from + q];
  }

  /** Weights of the point of segment (i, j) nearest the origin into lambda[at, at + 1]; its squared distance into v[12]. */
  private segment(i: number, j: number, at: number): void {
    const S = this.simplex, L = this.lambda;
    const ax = S[9 * i], ay = S[9 * i + 1], az = S[9 * i + 2];
    const ex = S[9 * j] - ax, ey = S[9 * j + 1] - ay, ez = S[9 * j + 2] - az;
    const ee = ex * ex + ey * ey + ez * ez;
    let s = ee > 0 ? -(ax * ex + ay * ey + az * ez) / ee : 0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    L[at] = 1 - s; L[at + 1] = s;
    const x = ax + s * ex, y = ay + s * ey, z = az + s * ez;
    this.v[12] = x * x + y * y + z * z;
  }

  /**
   * Weights of the point of triangle (i, j, k) nearest the origin into lambda[at..at + 3), by its
   * Voronoi regions (Ericson 5.1.5); its squared distance into v[12].
   */
  private triangle(i: number, j: number, k: number, at: number): void {
    const S = this.simplex, L = this.lambda;
    const ax = S[9 * i], ay = S[9 * i + 1], az = S[9 * i + 2];
    const bx = S[9 * j], by = S[9 * j + 1], bz = S[9 * j + 2];
    const cx = S[9 * k], cy = S[9 * k + 1], cz = S[9 * k + 2];
    const abx = bx - ax, aby = by - ay, abz = bz - az, acx = cx - ax, acy = cy - ay, acz = cz - az;
    let u = 1, v = 0, w = 0;
    const d1 = -(abx * ax + aby * ay + abz * az), d2 = -(acx * ax + acy * ay + acz * az);
    const d3 = -(abx * bx + aby * by + abz * bz), d4 = -(acx * bx + acy * by + acz * bz);
    const d5 = -(abx * cx + aby * cy + abz * cz), d6 = -(acx * cx + acy * cy + acz * cz);
    const vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d1 <= 0 && d2 <= 0) { u = 1; v = 0; w = 0; }
    else if (d3 >= 0 && d4 <= d3) { u = 0; v = 1; w = 0; }
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) { v = d1 / (d1 - d3); u = 1 - v; w = 0; }
    else if (d6 >= 0 && d5 <= d6) { u = 0; v = 0; w = 1; }
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) { w = d2 / (d2 - d6); u = 1 - w; v = 0; }
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) { w = (d4 - d3) / ((d4 - d3) + (d5 - d6)); u = 0; v = 1 - w; }
    else if (va + vb + vc > 0) {
      const inv = 1 / (va + vb + vc);
      v = vb * inv; w = vc * inv; u = 1 - v - w;
    } else {
      // degenerate (the corners on a line): the nearest of its edges
      this.segment(i, j, at);
      let best = this.v[12], bu = L[at], bv = L[at + 1], bw = 0;
      this.segment(i, k, at);
      if (this.v[12] < best) { best = this.v[12]; bu = L[at]; bv = 0; bw = L[at + 1]; }
      this.segment(j, k, at);
      if (this.v[12] < best) { bu = 0; bv = L[at]; bw = L[at + 1]; }
      u = bu; v = bv; w = bw;
    }
    L[at] = u; L[at + 1] = v; L[at + 2] = w;
    const x = u * ax + v * bx + w * cx, y = u * ay + v * by + w * cy, z = u * az + v * bz + w * cz;
    this.v[12] = x * x + y * y + z * z;
  }

  /**
   * Tetrahedron (0, 1, 2, 3): the nearest point of the faces the origin lies outside of (Ericson
   * 5.1.6); with none, the origin is inside and the weights are its barycentric coordinates.
   */
  private tetrahedron(): boolean {
    const S = this.simplex, L = this.lambda;
    let best = Infinity, bi = -1, bj = -1, bk = -1, wi = 0, wj = 0, wk = 0;
    for (let f = 0; f < 4; f++) {
      // face (i, j, k) opposite vertex l
      const i = f === 0 ? 1 : 0, j = f <= 1 ? 2 : 1, k = f <= 2 ? 3 : 2, l = f;
      if (!this.outside(i, j, k, l)) continue;
      this.triangle(i, j, k, 4);
      const d = this.v[12];
      if (d < best) { best = d; bi = i; bj = j; bk = k; wi = L[4]; wj = L[5]; wk = L[6]; }
    }
    if (bi < 0) {
      // inside: barycentric coordinates of the origin from signed volumes
      const ax = S[0], ay = S[1], az = S[2];
      const bx = S[9] - ax, by = S[10] - ay, bz = S[11] - az;
      const cx = S[18] - ax, cy = S[19] - ay, cz = S[20] - az;
      const dx = S[27] - ax, dy = S[28] - ay, dz = S[29] - az;
      const det = bx * (cy * dz - cz * dy) - by * (cx * dz - cz * dx) + bz * (cx * dy - cy * dx);
      const px = -ax, py = -ay, pz = -az;
      const l1 = (px * (cy * dz - cz * dy) - py * (cx * dz - cz * dx) + pz * (cx * dy - cy * dx)) / det;
      const l2 = (bx * (py * dz - pz * dy) - by * (px * dz - pz * dx) + bz * (px * dy - py * dx)) / det;
      const l3 = (bx * (cy * pz - cz * py) - by * (cx * pz - cz * px) + bz * (cx * py - cy * px)) / det;
      L[0] = 1 - l1 - l2 - l3; L[1] = l1; L[2] = l2; L[3] = l3;
      return true;
    }
    L[4] = wi; L[5] = wj; L[6] = wk;
    this.keep(bi, bj, bk, 4);
    return false;
  }

  /** Whether the origin lies outside face (i, j, k) of the tetrahedron, on the side away from vertex l (or the tetrahedron is flat there). */
  private outside(i: number, j: number, k: number, l: number): boolean {
    const S = this.simplex;
    const ax = S[9 * i], ay = S[9 * i + 1], az = S[9 * i + 2];
    const abx = S[9 * j] - ax, aby = S[9 * j + 1] - ay, abz = S[9 * j + 2] - az;
    const acx = S[9 * k] - ax, acy = S[9 * k + 1] - ay, acz = S[9 * k + 2] - az;
    const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
    const sp = -(nx * ax + ny * ay + nz * az);
    const ldx = S[9 * l] - ax, ldy = S[9 * l + 1] - ay, ldz = S[9 * l + 2] - az;
    const sd = nx * ldx + ny * ldy + nz * ldz;
    const scale = Math.sqrt((nx * nx + ny * ny + nz * nz) * (ldx * ldx + ldy * ldy + ldz * ldz));
    if (Math.abs(sd) <= 1e-12 * scale) return true; // flat: every face is a candidate
    return sp * sd < 0;
  }
}
