/**
 * Static triangle mesh prepared for collision: vertices welded (equal positions share an index, so
 * neighbouring triangles find each other), degenerate triangles dropped, unit normals and feature
 * flags per triangle (mesh-edges.ts), and a bounding-volume hierarchy for box queries.
 */
import { clipRay } from './aabb.js';
import { classifyMeshFeatures, ringConeContains, triangleNormals } from './mesh-edges.js';
import type { TriangleSource } from './triangle-contacts.js';
import { detMath } from '@sinew/featherstone';

const LEAF_SIZE = 4;
const STACK_SIZE = 128;

export class TriangleMeshData implements TriangleSource {
  readonly vertices: Float64Array;
  /** Welded vertex indices, three per kept triangle. */
  readonly indices: Int32Array;
  /** Index of each kept triangle in the description's index list (the contact's subShape). */
  readonly sourceTriangle: Int32Array;
  readonly normals: Float64Array;
  readonly flags: Uint16Array;
  /** Normal of the neighbour across each edge, 9 per triangle (see mesh-edges.ts). */
  readonly neighborNormals: Float64Array;
  private readonly ringStart: Int32Array;
  private readonly ring: Int32Array;
  /** Triangles around each vertex (CSR): vertexFaceList[vertexFaceStart[v] .. vertexFaceStart[v + 1]). */
  private readonly vertexFaceStart: Int32Array;
  private readonly vertexFaceList: Int32Array;
  /** Local bounds [minx, miny, minz, maxx, maxy, maxz]. */
  readonly bounds = new Float64Array(6);
  /**
   * BVH nodes: bounds (6 per node); inner node: nodeChild = left child, nodeSecond = right child;
   * leaf: nodeChild = -1 - (first slot in `order`), nodeSecond = triangle count.
   */
  private readonly nodeBounds: Float64Array;
  private readonly nodeChild: Int32Array;
  private readonly nodeSecond: Int32Array;
  private readonly order: Int32Array;
  private readonly stack = new Int32Array(STACK_SIZE);
  /** The span of a ray inside a node's bounds (rayQuery). */
  private readonly span = new Float64Array(2);
  /** Triangles found by the last query. */
  readonly hits: Int32Array;
  /** Each edge of the kept triangles once, as pairs of vertex indices (for drawing). */
  readonly edges: Int32Array;

  constructor(vertices: ArrayLike<number>, indices: ArrayLike<number>) {
    // Weld equal positions.
    const remap = new Int32Array(vertices.length / 3);
    const seen = new Map<string, number>();
    const welded: number[] = [];
    for (let v = 0; v < remap.length; v++) {
      const x = vertices[3 * v], y = vertices[3 * v + 1], z = vertices[3 * v + 2];
      const key = `${x},${y},${z}`;
      let id = seen.get(key);
      if (id === undefined) {
        id = welded.length / 3;
        seen.set(key, id);
        welded.push(x, y, z);
      }
      remap[v] = id;
    }
    this.vertices = Float64Array.from(welded);
    const all = new Int32Array(indices.length);
    for (let i = 0; i < indices.length; i++) all[i] = remap[indices[i]];
    const { normals, areas2 } = triangleNormals(this.vertices, all);
    let diag2 = 0;
    {
      const b = this.bounds;
      b[0] = b[1] = b[2] = Infinity;
      b[3] = b[4] = b[5] = -Infinity;
      for (let v = 0; v < this.vertices.length; v += 3) {
        for (let k = 0; k < 3; k++) {
          const x = this.vertices[v + k];
          if (x < b[k]) b[k] = x;
          if (x > b[3 + k]) b[3 + k] = x;
        }
      }
      diag2 = detMath.sq(b[3] - b[0]) + detMath.sq(b[4] - b[1]) + detMath.sq(b[5] - b[2]);
    }
    const keep: number[] = [];
    for (let t = 0; t < areas2.length; t++) if (areas2[t] > 1e-14 * diag2) keep.push(t);
    const n = keep.length;
    this.indices = new Int32Array(3 * n);
    this.normals = new Float64Array(3 * n);
    this.sourceTriangle = Int32Array.from(keep);
    for (let i = 0; i < n; i++) {
      const t = keep[i];
      for (let k = 0; k < 3; k++) {
        this.indices[3 * i + k] = all[3 * t + k];
        this.normals[3 * i + k] = normals[3 * t + k];
      }
    }
    const features = classifyMeshFeatures(this.vertices, this.indices, this.normals);
    this.flags = features.flags;
    this.neighborNormals = features.neighborNormals;
    this.ringStart = features.ringStart;
    this.ring = features.ring;
    const nv = this.vertices.length / 3;
    this.vertexFaceStart = new Int32Array(nv + 1);
    for (let i = 0; i < this.indices.length; i++) this.vertexFaceStart[this.indices[i] + 1]++;
    for (let v = 0; v < nv; v++) this.vertexFaceStart[v + 1] += this.vertexFaceStart[v];
    this.vertexFaceList = new Int32Array(this.indices.length);
    const fill = this.vertexFaceStart.slice(0, nv);
    for (let i = 0; i < this.indices.length; i++) this.vertexFaceList[fill[this.indices[i]]++] = (i / 3) | 0;
    this.hits = new Int32Array(n);
    {
      const seen = new Set<number>(), list: number[] = [];
      for (let i = 0; i < this.indices.length; i++) {
        const a = this.indices[i], b = this.indices[i % 3 === 2 ? i - 2 : i + 1];
        const key = a < b ? a * nv + b : b * nv + a;
        if (seen.has(key)) continue;
        seen.add(key);
        list.push(a, b);
      }
      this.edges = Int32Array.from(list);
    }

    // Top-down build, splitting the longest axis of the centroid bounds at the median.
    const centroids = new Float64Array(3 * n);
    for (let t = 0; t < n; t++) {
      for (let k = 0; k < 3; k++) {
        centroids[3 * t + k] = (this.vertices[3 * this.indices[3 * t] + k] + this.vertices[3 * this.indices[3 * t + 1] + k] + this.vertices[3 * this.indices[3 * t + 2] + k]) / 3;
      }
    }
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const bounds: number[] = [];
    const child: number[] = [];
    const second: number[] = [];
    const build = (start: number, end: number): number => {
      const node = child.length;
      child.push(0);
      second.push(0);
      let b0 = Infinity, b1 = Infinity, b2 = Infinity, b3 = -Infinity, b4 = -Infinity, b5 = -Infinity;
      let c0 = Infinity, c1 = Infinity, c2 = Infinity, c3 = -Infinity, c4 = -Infinity, c5 = -Infinity;
      for (let i = start; i < end; i++) {
        const t = order[i];
        for (let k = 0; k < 3; k++) {
          const v = 3 * this.indices[3 * t + k];
          const x = this.vertices[v], y = this.vertices[v + 1], z = this.vertices[v + 2];
          if (x < b0) b0 = x; if (y < b1) b1 = y; if (z < b2) b2 = z;
          if (x > b3) b3 = x; if (y > b4) b4 = y; if (z > b5) b5 = z;
        }
        const x = centroids[3 * t], y = centroids[3 * t + 1], z = centroids[3 * t + 2];
        if (x < c0) c0 = x; if (y < c1) c1 = y; if (z < c2) c2 = z;
        if (x > c3) c3 = x; if (y > c4) c4 = y; if (z > c5) c5 = z;
      }
      bounds.push(b0, b1, b2, b3, b4, b5);
      if (end - start <= LEAF_SIZE) {
        child[node] = -1 - start;
        second[node] = end - start;
        return node;
      }
      const ex = c3 - c0, ey = c4 - c1, ez = c5 - c2;
      const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
      const part = Array.from(order.subarray(start, end)).sort((p, q) => centroids[3 * p + axis] - centroids[3 * q + axis] || p - q);
      order.set(part, start);
      const mid = (start + end) >> 1;
      const left = build(start, mid);
      const right = build(mid, end);
      child[node] = left;
      second[node] = right;
      return node;
    };
    if (n > 0) build(0, n);
    this.nodeBounds = Float64Array.from(bounds);
    this.nodeChild = Int32Array.from(child);
    this.nodeSecond = Int32Array.from(second);
    this.order = order;
  }

  get triangleCount(): number {
    return this.normals.length / 3;
  }

  /** Triangles whose bounds overlap the box b = [min xyz, max xyz]; their indices go to `hits`, the count is returned. */
  query(b: Float64Array): number {
    if (this.nodeChild.length === 0) return 0;
    const minx = b[0], miny = b[1], minz = b[2], maxx = b[3], maxy = b[4], maxz = b[5];
    const nb = this.nodeBounds, stack = this.stack;
    let top = 0, found = 0;
    stack[top++] = 0;
    while (top > 0) {
      const node = stack[--top];
      const o = 6 * node;
      if (nb[o] > maxx || nb[o + 1] > maxy || nb[o + 2] > maxz || nb[o + 3] < minx || nb[o + 4] < miny || nb[o + 5] < minz) continue;
      const c = this.nodeChild[node];
      if (c < 0) {
        const start = -1 - c, end = start + this.nodeSecond[node];
        for (let i = start; i < end; i++) this.hits[found++] = this.order[i];
      } else if (top + 2 <= STACK_SIZE) {
        // Right first so the left subtree is visited first: hits come out in a fixed order.
        stack[top++] = this.nodeSecond[node];
        stack[top++] = c;
      }
    }
    return found;
  }

  /**
   * Triangles in the leaves whose bounds the ray o + t d, t in [0, tMax], crosses (ray = [ox, oy,
   * oz, dx, dy, dz, tMax]) (aabb.ts clipRay per node); their indices go to `hits`, the count is returned.
   */
  rayQuery(ray: Float64Array): number {
    if (this.nodeChild.length === 0) return 0;
    const nb = this.nodeBounds, stack = this.stack, span = this.span, tMax = ray[6];
    let top = 0, found = 0;
    stack[top++] = 0;
    while (top > 0) {
      const node = stack[--top];
      span[0] = 0; span[1] = tMax;
      if (!clipRay(ray, nb, 6 * node, span, 0)) continue;
      const c = this.nodeChild[node];
      if (c < 0) {
        const start = -1 - c, end = start + this.nodeSecond[node];
        for (let i = start; i < end; i++) this.hits[found++] = this.order[i];
      } else if (top + 2 <= STACK_SIZE) {
        stack[top++] = this.nodeSecond[node];
        stack[top++] = c;
      }
    }
    return found;
  }

  /** Writes triangle t (v0, v1, v2, normal, neighbour normals; see TRIANGLE_STRIDE) into out. */
  triangle(t: number, out: Float64Array): void {
    const v = this.vertices;
    for (let k = 0; k < 3; k++) {
      const i = 3 * this.indices[3 * t + k];
      out[3 * k] = v[i];
      out[3 * k + 1] = v[i + 1];
      out[3 * k + 2] = v[i + 2];
    }
    out[9] = this.normals[3 * t];
    out[10] = this.normals[3 * t + 1];
    out[11] = this.normals[3 * t + 2];
    for (let i = 0; i < 9; i++) out[12 + i] = this.neighborNormals[9 * t + i];
  }

  facesAroundVertex(t: number, k: number, faces: Int32Array): number {
    const v = this.indices[3 * t + k];
    const start = this.vertexFaceStart[v], end = Math.min(this.vertexFaceStart[v + 1], start + faces.length);
    for (let i = start; i < end; i++) faces[i - start] = this.vertexFaceList[i];
    return end - start;
  }

  triangleNormal(t: number, out: Float64Array, o: number): void {
    out[o] = this.normals[3 * t]; out[o + 1] = this.normals[3 * t + 1]; out[o + 2] = this.normals[3 * t + 2];
  }

  vertexConeContains(t: number, k: number, n: Float64Array, no: number): boolean {
    return ringConeContains(this.vertices, this.ringStart, this.ring, this.indices[3 * t + k], n, no);
  }
}
