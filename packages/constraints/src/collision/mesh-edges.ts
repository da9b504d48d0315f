/**
 * Classification of mesh edges and vertices, computed once when a mesh is registered.
 *
 * For an edge shared by two triangles with normals n1, n2, let w be the vertex of the second
 * triangle off the edge and h = n1 . (w - a) / |w - a| (a on the edge): h < 0 means the surface
 * bends down past the edge (a convex crease), h > 0 up (a concave valley), h ~ 0 flat. Creases and
 * borders (edges with one triangle, more than two, or neighbours of opposite winding) are marked
 * convex; a vertex is convex when any of its edges is. Only convex features produce contacts of
 * their own (see triangle-contacts.ts): elsewhere the surface goes on past the feature and a
 * neighbouring face reports the contact.
 */

export const EDGE_CONVEX_BIT = 1; // << k for edge k (bits 0..2)
export const VERTEX_CONVEX_BIT = 8; // << k for vertex k (bits 3..5)

/** Below this sine of the bend an edge counts as flat. */
const FLAT_SINE = 1e-7;

export interface MeshFeatures {
  /** Per triangle: EDGE_CONVEX_BIT << k, VERTEX_CONVEX_BIT << k. */
  flags: Uint16Array;
  /**
   * Per triangle, the unit normal of the neighbour across each edge (9 numbers); minus the
   * triangle's own normal at a border (or a non-manifold edge), where the surface folds back.
   */
  neighborNormals: Float64Array;
  /** Vertex adjacency (CSR): the neighbours of vertex v are ring[ringStart[v] .. ringStart[v + 1]). */
  ringStart: Int32Array;
  ring: Int32Array;
}

/**
 * Feature flags, neighbour normals and vertex rings for triangles given by `indices` into
 * `vertices` (xyz) with unit normals `normals` (3 per triangle). Vertices must already be welded:
 * triangles that share an edge must share its vertex indices.
 */
export function classifyMeshFeatures(vertices: ArrayLike<number>, indices: Int32Array, normals: Float64Array): MeshFeatures {
  const triCount = indices.length / 3;
  const vertexCount = vertices.length / 3;
  const flags = new Uint16Array(triCount);
  const neighborNormals = new Float64Array(9 * triCount);
  for (let t = 0; t < triCount; t++) {
    for (let k = 0; k < 3; k++) {
      for (let i = 0; i < 3; i++) neighborNormals[9 * t + 3 * k + i] = -normals[3 * t + i];
    }
  }
  // Edge (min, max vertex) -> triangles using it, as tri * 3 + local edge.
  const edges = new Map<number, number[]>();
  for (let t = 0; t < triCount; t++) {
    for (let k = 0; k < 3; k++) {
      const a = indices[3 * t + k], b = indices[3 * t + (k === 2 ? 0 : k + 1)];
      const key = a < b ? a * vertexCount + b : b * vertexCount + a;
      const list = edges.get(key);
      if (list) list.push(3 * t + k);
      else edges.set(key, [3 * t + k]);
    }
  }
  const vertexConvex = new Uint8Array(vertexCount);
  for (const list of edges.values()) {
    let convex = true;
    if (list.length === 2) {
      const t1 = (list[0] / 3) | 0, k1 = list[0] % 3;
      const t2 = (list[1] / 3) | 0, k2 = list[1] % 3;
      const a1 = indices[3 * t1 + k1];
      const a2 = indices[3 * t2 + k2];
      // Consistent winding runs the shared edge in opposite directions.
      if (a1 !== a2) {
        const w = indices[3 * t2 + (k2 === 0 ? 2 : k2 - 1)];
        const wx = vertices[3 * w] - vertices[3 * a1], wy = vertices[3 * w + 1] - vertices[3 * a1 + 1], wz = vertices[3 * w + 2] - vertices[3 * a1 + 2];
        const len = Math.sqrt(wx * wx + wy * wy + wz * wz);
        const h = (normals[3 * t1] * wx + normals[3 * t1 + 1] * wy + normals[3 * t1 + 2] * wz) / len;
        convex = h < -FLAT_SINE;
        for (let i = 0; i < 3; i++) {
          neighborNormals[9 * t1 + 3 * k1 + i] = normals[3 * t2 + i];
          neighborNormals[9 * t2 + 3 * k2 + i] = normals[3 * t1 + i];
        }
      }
    }
    for (const e of list) {
      const t = (e / 3) | 0, k = e % 3;
      if (convex) {
        flags[t] |= EDGE_CONVEX_BIT << k;
        vertexConvex[indices[3 * t + k]] = 1;
        vertexConvex[indices[3 * t + (k === 2 ? 0 : k + 1)]] = 1;
      }
    }
  }
  for (let t = 0; t < triCount; t++) {
    for (let k = 0; k < 3; k++) {
      const v = indices[3 * t + k];
      if (vertexConvex[v]) flags[t] |= VERTEX_CONVEX_BIT << k;
    }
  }
  // Rings from the distinct edges.
  const degree = new Int32Array(vertexCount + 1);
  for (const key of edges.keys()) {
    degree[Math.floor(key / vertexCount)]++;
    degree[key % vertexCount]++;
  }
  const ringStart = new Int32Array(vertexCount + 1);
  for (let v = 0; v < vertexCount; v++) ringStart[v + 1] = ringStart[v] + degree[v];
  const fill = ringStart.slice(0, vertexCount);
  const ring = new Int32Array(ringStart[vertexCount]);
  for (const key of edges.keys()) {
    const a = Math.floor(key / vertexCount), b = key % vertexCount;
    ring[fill[a]++] = b;
    ring[fill[b]++] = a;
  }
  return { flags, neighborNormals, ringStart, ring };
}

/**
 * Whether direction n (n[no..no+3)) lies in the normal cone of vertex v: no neighbour w rises towards n,
 * n . (w - v) <= 0 (with a relative tolerance). Only then is v the surface point nearest a shape
 * in direction n; otherwise an edge or face of another triangle is nearer.
 */
export function ringConeContains(
  vertices: Float64Array, ringStart: Int32Array, ring: Int32Array, v: number, n: Float64Array, no: number,
): boolean {
  const nx = n[no], ny = n[no + 1], nz = n[no + 2];
  const x = vertices[3 * v], y = vertices[3 * v + 1], z = vertices[3 * v + 2];
  for (let i = ringStart[v]; i < ringStart[v + 1]; i++) {
    const w = 3 * ring[i];
    const dx = vertices[w] - x, dy = vertices[w + 1] - y, dz = vertices[w + 2] - z;
    const s = nx * dx + ny * dy + nz * dz;
    if (s > 1e-9 * Math.sqrt(dx * dx + dy * dy + dz * dz)) return false;
  }
  return true;
}

/** Unit normals (3 per triangle) of counter-clockwise triangles; returns them with the doubled areas. */
export function triangleNormals(vertices: ArrayLike<number>, indices: Int32Array): { normals: Float64Array; areas2: Float64Array } {
  const n = indices.length / 3;
  const normals = new Float64Array(3 * n);
  const areas2 = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const a = 3 * indices[3 * t], b = 3 * indices[3 * t + 1], c = 3 * indices[3 * t + 2];
    const ux = vertices[b] - vertices[a], uy = vertices[b + 1] - vertices[a + 1], uz = vertices[b + 2] - vertices[a + 2];
    const vx = vertices[c] - vertices[a], vy = vertices[c + 1] - vertices[a + 1], vz = vertices[c + 2] - vertices[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    areas2[t] = len;
    if (len > 0) {
      normals[3 * t] = nx / len; normals[3 * t + 1] = ny / len; normals[3 * t + 2] = nz / len;
    }
  }
  return { normals, areas2 };
}
