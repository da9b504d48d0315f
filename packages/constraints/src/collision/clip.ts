/**
 * Convex polygon clipping (Sutherland-Hodgman) that remembers where each vertex came from.
 *
 * Every polygon edge carries an id; a vertex carries the ids of its incoming and outgoing edges.
 * A vertex of the original polygon has (previous edge, next edge); a vertex made by cutting edge e
 * with plane k has (e, k) when leaving the kept side and (k, e) when entering it. The pair of ids
 * is a stable name for the contact point as long as the same features touch, which is what a
 * contact cache needs to warm-start forces.
 */

export const CLIP_CAPACITY = 16;

export class ClipPolygon {
  count = 0;
  readonly capacity: number;
  readonly xyz: Float64Array;
  readonly inEdge: Int32Array;
  readonly outEdge: Int32Array;

  /** Room for `capacity` vertices (a convex polygon of k vertices clipped by p planes needs k + p). */
  constructor(capacity = CLIP_CAPACITY) {
    this.capacity = capacity;
    this.xyz = new Float64Array(3 * capacity);
    this.inEdge = new Int32Array(capacity);
    this.outEdge = new Int32Array(capacity);
  }

  clear(): void {
    this.count = 0;
  }

  /** Appends a vertex whose coordinates the caller writes to xyz[3 * index ...]; returns the index, -1 when full. */
  push(inEdge: number, outEdge: number): number {
    const i = this.count;
    if (i >= this.capacity) return -1; // sized for the polygons it clips: never gets here
    this.inEdge[i] = inEdge;
    this.outEdge[i] = outEdge;
    this.count = i + 1;
    return i;
  }

  /** Appends vertex (src[so], src[so + 1], src[so + 2]). */
  pushFrom(src: Float64Array, so: number, inEdge: number, outEdge: number): void {
    const i = this.push(inEdge, outEdge);
    if (i < 0) return;
    this.xyz[3 * i] = src[so];
    this.xyz[3 * i + 1] = src[so + 1];
    this.xyz[3 * i + 2] = src[so + 2];
  }
}

/**
 * Clips src by the half-space n . x <= d into dst (dst is cleared first), the plane given as
 * plane[0..4) = [nx, ny, nz, d]. planeId names the new edge created along the plane.
 */
export function clipPolygonByPlane(src: ClipPolygon, dst: ClipPolygon, plane: Float64Array, planeId: number): void {
  dst.clear();
  const n = src.count;
  if (n === 0) return;
  const nx = plane[0], ny = plane[1], nz = plane[2], d = plane[3];
  const p = src.xyz;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const cx = p[3 * i], cy = p[3 * i + 1], cz = p[3 * i + 2];
    const qx = p[3 * j], qy = p[3 * j + 1], qz = p[3 * j + 2];
    const dc = nx * cx + ny * cy + nz * cz - d;
    const dn = nx * qx + ny * qy + nz * qz - d;
    if (dc <= 0) dst.pushFrom(p, 3 * i, src.inEdge[i], src.outEdge[i]);
    if ((dc < 0 && dn > 0) || (dc > 0 && dn < 0)) {
      // The edge i -> j crosses the plane at fraction t.
      const t = dc / (dc - dn);
      const edge = src.outEdge[i];
      const k = dc < 0 ? dst.push(edge, planeId) : dst.push(planeId, edge);
      if (k >= 0) {
        dst.xyz[3 * k] = cx + t * (qx - cx);
        dst.xyz[3 * k + 1] = cy + t * (qy - cy);
        dst.xyz[3 * k + 2] = cz + t * (qz - cz);
      }
    }
  }
}

/** Writes the four corners of a box face into poly: centre, half-edge vectors u1 and u2 (3 numbers each in v at o, o + 3, o + 6). */
export function setQuad(poly: ClipPolygon, v: Float64Array, o: number): void {
  poly.clear();
  // Corners (+,+), (-,+), (-,-), (+,-): edge m runs from corner m to corner m + 1.
  for (let m = 0; m < 4; m++) {
    const s1 = m === 0 || m === 3 ? 1 : -1, s2 = m < 2 ? 1 : -1;
    const i = poly.push(m === 0 ? 3 : m - 1, m);
    for (let k = 0; k < 3; k++) poly.xyz[3 * i + k] = v[o + k] + s1 * v[o + 3 + k] + s2 * v[o + 6 + k];
  }
}
