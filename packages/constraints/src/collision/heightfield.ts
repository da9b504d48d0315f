/**
 * Static heightfield prepared for collision. Heights h[row * cols + col] sit at x = col * spacingX,
 * z = row * spacingZ in the local frame, solid below. Cell (row, col) is split along the diagonal
 * from (col, row) to (col + 1, row + 1) into triangle 0 = (v00, v01, v11) and triangle 1 =
 * (v00, v11, v10), where v_ab is the corner at (col + a, row + b); both are counter-clockwise seen
 * from +Y. Triangle index = 2 * (row * (cols - 1) + col) + k (the contact's subShape).
 */
import { classifyMeshFeatures, triangleNormals } from './mesh-edges.js';
import type { TriangleSource } from './triangle-contacts.js';

export class HeightfieldData implements TriangleSource {
  readonly rows: number;
  readonly cols: number;
  readonly spacingX: number;
  readonly spacingZ: number;
  readonly heights: Float64Array;
  readonly flags: Uint16Array;
  /** Local bounds [minx, miny, minz, maxx, maxy, maxz]. */
  readonly bounds = new Float64Array(6);
  private readonly scratch = new Float64Array(9);

  constructor(rows: number, cols: number, spacingX: number, spacingZ: number, heights: ArrayLike<number>) {
    this.rows = rows;
    this.cols = cols;
    this.spacingX = spacingX;
    this.spacingZ = spacingZ;
    this.heights = Float64Array.from(heights);
    let lo = Infinity, hi = -Infinity;
    for (const h of this.heights) {
      if (h < lo) lo = h;
      if (h > hi) hi = h;
    }
    this.bounds.set([0, lo, 0, (cols - 1) * spacingX, hi, (rows - 1) * spacingZ]);
    // Feature flags from the same triangles as an explicit mesh.
    const vertices = new Float64Array(3 * rows * cols);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const v = 3 * (r * cols + c);
        vertices[v] = c * spacingX;
        vertices[v + 1] = this.heights[r * cols + c];
        vertices[v + 2] = r * spacingZ;
      }
    }
    const cells = (rows - 1) * (cols - 1);
    const indices = new Int32Array(6 * cells);
    for (let r = 0; r < rows - 1; r++) {
      for (let c = 0; c < cols - 1; c++) {
        const i = 6 * (r * (cols - 1) + c);
        const v00 = r * cols + c, v10 = v00 + 1, v01 = v00 + cols, v11 = v01 + 1;
        indices[i] = v00; indices[i + 1] = v01; indices[i + 2] = v11;
        indices[i + 3] = v00; indices[i + 4] = v11; indices[i + 5] = v10;
      }
    }
    this.flags = classifyMeshFeatures(vertices, indices, triangleNormals(vertices, indices).normals).flags;
  }

  get triangleCount(): number {
    return 2 * (this.rows - 1) * (this.cols - 1);
  }

  /**
   * Writes triangle t into out: v0, v1, v2, unit normal, then the normals of the neighbours across
   * edges 0..2 (minus the own normal at the border). Triangle 0 of a cell has neighbours
   * (triangle 1 of the cell to the left, triangle 1 of the cell above in z, triangle 1 of the same
   * cell); triangle 1 has (triangle 0 of the same cell, triangle 0 to the right, triangle 0 below).
   */
  triangle(t: number, out: Float64Array): void {
    this.corners(t, out, 0);
    normalInto(out, 0, out, 9);
    const cols1 = this.cols - 1, rows1 = this.rows - 1;
    const cell = t >> 1, r = (cell / cols1) | 0, c = cell - r * cols1;
    const scratch = this.scratch;
    for (let k = 0; k < 3; k++) {
      let nr = r, nc = c;
      if ((t & 1) === 0) {
        if (k === 0) nc = c - 1;
        else if (k === 1) nr = r + 1;
      } else {
        if (k === 1) nc = c + 1;
        else if (k === 2) nr = r - 1;
      }
      const o = 12 + 3 * k;
      if (nr < 0 || nc < 0 || nr >= rows1 || nc >= cols1) {
        out[o] = -out[9]; out[o + 1] = -out[10]; out[o + 2] = -out[11];
      } else {
        this.corners(2 * (nr * cols1 + nc) + ((t & 1) ^ 1), scratch, 0);
        normalInto(scratch, 0, out, o);
      }
    }
  }

  /** Grid coordinates (row, col) of vertex k of triangle t, as row * cols + col. */
  vertexId(t: number, k: number): number {
    const cols1 = this.cols - 1;
    const cell = t >> 1, r = (cell / cols1) | 0, c = cell - r * cols1;
    if (k === 0) return r * this.cols + c;
    if ((t & 1) === 0) return k === 1 ? (r + 1) * this.cols + c : (r + 1) * this.cols + c + 1;
    return k === 1 ? (r + 1) * this.cols + c + 1 : r * this.cols + c + 1;
  }

  /**
   * Normal-cone test of a grid vertex over its ring: the four axis neighbours and the two diagonal
   * neighbours (row + 1, col + 1) and (row - 1, col - 1) joined by the cell diagonals.
   */
  vertexConeContains(t: number, k: number, n: Float64Array, no: number): boolean {
    const nx = n[no], ny = n[no + 1], nz = n[no + 2];
    const id = this.vertexId(t, k);
    const r = (id / this.cols) | 0, c = id - r * this.cols;
    const y = this.heights[id], x = c * this.spacingX, z = r * this.spacingZ;
    for (let i = 0; i < 6; i++) {
      const dr = RING_DR[i], dc = RING_DC[i];
      const rr = r + dr, cc = c + dc;
      if (rr < 0 || cc < 0 || rr >= this.rows || cc >= this.cols) continue;
      const dx = cc * this.spacingX - x, dy = this.heights[rr * this.cols + cc] - y, dz = rr * this.spacingZ - z;
      if (nx * dx + ny * dy + nz * dz > 1e-9 * Math.sqrt(dx * dx + dy * dy + dz * dz)) return false;
    }
    return true;
  }

  /**
   * The six triangles around grid vertex (row r, col c): both of cell (r - 1, c - 1) and of cell
   * (r, c), triangle 0 of cell (r - 1, c) and triangle 1 of cell (r, c - 1), those that exist.
   */
  facesAroundVertex(t: number, k: number, faces: Int32Array): number {
    const id = this.vertexId(t, k);
    const r = (id / this.cols) | 0, c = id - r * this.cols;
    let n = 0;
    n = this.addCellTriangle(r - 1, c - 1, 0, faces, n);
    n = this.addCellTriangle(r - 1, c - 1, 1, faces, n);
    n = this.addCellTriangle(r - 1, c, 0, faces, n);
    n = this.addCellTriangle(r, c - 1, 1, faces, n);
    n = this.addCellTriangle(r, c, 0, faces, n);
    n = this.addCellTriangle(r, c, 1, faces, n);
    return n;
  }

  triangleNormal(t: number, out: Float64Array, o: number): void {
    this.corners(t, this.scratch, 0);
    normalInto(this.scratch, 0, out, o);
  }

  /** Appends triangle k of cell (r, c) to faces at n when the cell exists; returns the new count. */
  private addCellTriangle(r: number, c: number, k: number, faces: Int32Array, n: number): number {
    const cols1 = this.cols - 1;
    if (r < 0 || c < 0 || r >= this.rows - 1 || c >= cols1 || n >= faces.length) return n;
    faces[n] = 2 * (r * cols1 + c) + k;
    return n + 1;
  }

  /** Writes the three corners of triangle t (9 numbers) at out[o]. */
  corners(t: number, out: Float64Array, o: number): void {
    const cell = t >> 1;
    const cols1 = this.cols - 1;
    const r = (cell / cols1) | 0, c = cell - r * cols1;
    const h = this.heights, cols = this.cols;
    const x0 = c * this.spacingX, x1 = (c + 1) * this.spacingX;
    const z0 = r * this.spacingZ, z1 = (r + 1) * this.spacingZ;
    const h00 = h[r * cols + c], h10 = h[r * cols + c + 1], h01 = h[(r + 1) * cols + c], h11 = h[(r + 1) * cols + c + 1];
    out[o] = x0; out[o + 1] = h00; out[o + 2] = z0;
    if ((t & 1) === 0) {
      out[o + 3] = x0; out[o + 4] = h01; out[o + 5] = z1;
      out[o + 6] = x1; out[o + 7] = h11; out[o + 8] = z1;
    } else {
      out[o + 3] = x1; out[o + 4] = h11; out[o + 5] = z1;
      out[o + 6] = x1; out[o + 7] = h10; out[o + 8] = z0;
    }
  }

  /**
   * Whether the local point p[o..o+3) lies in the field's solid: over its cells, at or below its
   * surface and not below its lowest height (so within its bounds, where the broad phase finds it).
   */
  contains(p: Float64Array, o: number): boolean {
    const x = p[o], y = p[o + 1], z = p[o + 2];
    const sx = this.spacingX, sz = this.spacingZ;
    if (x < 0 || z < 0 || x > (this.cols - 1) * sx || z > (this.rows - 1) * sz || y < this.bounds[1]) return false;
    const c = Math.min(Math.floor(x / sx), this.cols - 2), r = Math.min(Math.floor(z / sz), this.rows - 2);
    const u = x / sx - c, v = z / sz - r, h = this.heights, cols = this.cols;
    const h00 = h[r * cols + c], h10 = h[r * cols + c + 1], h01 = h[(r + 1) * cols + c], h11 = h[(r + 1) * cols + c + 1];
    // triangle 0 (v00, v01, v11) where v >= u, triangle 1 (v00, v11, v10) where u >= v
    const surface = v >= u ? h00 + u * (h11 - h01) + v * (h01 - h00) : h00 + u * (h10 - h00) + v * (h11 - h10);
    return y <= surface;
  }

  /** Writes [firstCol, firstRow, lastCol, lastRow] of the cells under the local box b = [min xyz, max xyz]; false when none. */
  cellRange(b: Float64Array, out: Int32Array): boolean {
    const minx = b[0], minz = b[2], maxx = b[3], maxz = b[5];
    const c0 = Math.floor(minx / this.spacingX), c1 = Math.floor(maxx / this.spacingX);
    const r0 = Math.floor(minz / this.spacingZ), r1 = Math.floor(maxz / this.spacingZ);
    const lastC = this.cols - 2, lastR = this.rows - 2;
    if (c1 < 0 || r1 < 0 || c0 > lastC || r0 > lastR) return false;
    out[0] = c0 < 0 ? 0 : c0;
    out[1] = r0 < 0 ? 0 : r0;
    out[2] = c1 > lastC ? lastC : c1;
    out[3] = r1 > lastR ? lastR : r1;
    return true;
  }
}

const RING_DR = [0, 0, 1, -1, 1, -1];
const RING_DC = [1, -1, 0, 0, 1, -1];

/** Unit normal (b - a) x (c - a) of the triangle at src[o..o+9), written at out[oo]. */
function normalInto(src: Float64Array, o: number, out: Float64Array, oo: number): void {
  const ux = src[o + 3] - src[o], uy = src[o + 4] - src[o + 1], uz = src[o + 5] - src[o + 2];
  const vx = src[o + 6] - src[o], vy = src[o + 7] - src[o + 1], vz = src[o + 8] - src[o + 2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  out[oo] = nx / len; out[oo + 1] = ny / len; out[oo + 2] = nz / len;
}
