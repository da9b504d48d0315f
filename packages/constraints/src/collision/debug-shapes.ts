/**
 * Wire outlines of the collision shapes for debug drawing (World.debugLines): a box's 12 edges, a
 * sphere's three great circles, a capsule's two rings, four side lines and the arcs of its caps,
 * a convex hull's edges, a plane's 10 m square about its origin with its normal, each edge of a
 * triangle mesh once, a heightfield's grid lines along x and z and the diagonal of each cell (the
 * edges of its triangles). Segments go to a DebugLineWriter (layout in its comment).
 */
import { detMath } from '@sinew/featherstone';
import type { HeightfieldData } from './heightfield.js';
import type { ConvexHullData } from './hull.js';
import type { TriangleMeshData } from './mesh.js';
import { POSE_STRIDE } from './pose.js';
import type { ShapeStore } from './shape-store.js';
import { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CONVEX, SHAPE_HEIGHTFIELD, SHAPE_PARAM_STRIDE, SHAPE_PLANE, SHAPE_SPHERE, SHAPE_TRIMESH } from './shape-types.js';

/** Floats per segment in a debug line array: x0, y0, z0, x1, y1, z1, then the colour r, g, b (0..1). */
export const DEBUG_LINE_STRIDE = 9;
/** Segments per full circle of a sphere or capsule outline. */
const CIRCLE_SEGMENTS = 16;

/**
 * Writes segments into a Float32Array, DEBUG_LINE_STRIDE floats each; counts every segment, writes
 * those that fit. The colour is the current one (`colour`).
 */
export class DebugLineWriter {
  out: Float32Array = new Float32Array(0);
  count = 0;
  /** Colour of the next segments (r, g, b). */
  readonly colour = new Float64Array(3);
  /** A segment's two ends (world), staged in a typed array (doubles passed as arguments may be boxed). */
  readonly ends = new Float64Array(6);

  begin(out: Float32Array): void {
    this.out = out;
    this.count = 0;
  }

  setColour(r: number, g: number, b: number): void {
    this.colour[0] = r; this.colour[1] = g; this.colour[2] = b;
  }

  /** Adds the segment staged in `ends`. */
  push(): void {
    const o = DEBUG_LINE_STRIDE * this.count++;
    const out = this.out;
    if (o + DEBUG_LINE_STRIDE > out.length) return;
    const e = this.ends, c = this.colour;
    out[o] = e[0]; out[o + 1] = e[1]; out[o + 2] = e[2]; out[o + 3] = e[3]; out[o + 4] = e[4]; out[o + 5] = e[5];
    out[o + 6] = c[0]; out[o + 7] = c[1]; out[o + 8] = c[2];
  }

  /** Adds the segment between the local points staged in `ends` of pose (P, o) (carried to world here). */
  pushLocalEnds(P: Float64Array, o: number): void {
    const e = this.ends;
    for (let k = 0; k < 6; k += 3) {
      const x = e[k], y = e[k + 1], z = e[k + 2];
      e[k] = P[o] * x + P[o + 1] * y + P[o + 2] * z + P[o + 9];
      e[k + 1] = P[o + 3] * x + P[o + 4] * y + P[o + 5] * z + P[o + 10];
      e[k + 2] = P[o + 6] * x + P[o + 7] * y + P[o + 8] * z + P[o + 11];
    }
    this.push();
  }

  /** Adds the segment between the local points a and b of pose (P, o). */
  pushLocal(P: Float64Array, o: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number): void {
    const e = this.ends;
    e[0] = P[o] * ax + P[o + 1] * ay + P[o + 2] * az + P[o + 9];
    e[1] = P[o + 3] * ax + P[o + 4] * ay + P[o + 5] * az + P[o + 10];
    e[2] = P[o + 6] * ax + P[o + 7] * ay + P[o + 8] * az + P[o + 11];
    e[3] = P[o] * bx + P[o + 1] * by + P[o + 2] * bz + P[o + 9];
    e[4] = P[o + 3] * bx + P[o + 4] * by + P[o + 5] * bz + P[o + 10];
    e[5] = P[o + 6] * bx + P[o + 7] * by + P[o + 8] * bz + P[o + 11];
    this.push();
  }
}

/**
 * Arc of radius r about local centre (0, cy, 0) in the plane of local axes u and v (0: x, 1: y,
 * 2: z), from angle a0 to a1 in n segments.
 */
function arc(w: DebugLineWriter, P: Float64Array, o: number, cy: number, r: number, u: number, v: number, a0: number, a1: number, n: number): void {
  let px = 0, py = 0, pz = 0;
  for (let k = 0; k <= n; k++) {
    const a = a0 + ((a1 - a0) * k) / n, cu = r * detMath.cos(a), sv = r * detMath.sin(a);
    const x = (u === 0 ? cu : 0) + (v === 0 ? sv : 0);
    const y = cy + (u === 1 ? cu : 0) + (v === 1 ? sv : 0);
    const z = (u === 2 ? cu : 0) + (v === 2 ? sv : 0);
    if (k > 0) w.pushLocal(P, o, px, py, pz, x, y, z);
    px = x; py = y; pz = z;
  }
}

/** The outline of slot s at its world pose. */
export function drawShape(store: ShapeStore, s: number, w: DebugLineWriter): void {
  const P = store.worldPose, o = POSE_STRIDE * s, prm = store.params, q = SHAPE_PARAM_STRIDE * s;
  const full = 2 * Math.PI, half = Math.PI;
  switch (store.kind[s]) {
    case SHAPE_BOX: {
      const hx = prm[q], hy = prm[q + 1], hz = prm[q + 2];
      // the 4 edges along each axis
      for (let k = 0; k < 4; k++) {
        const a = k & 1 ? 1 : -1, b = k & 2 ? 1 : -1;
        w.pushLocal(P, o, -hx, a * hy, b * hz, hx, a * hy, b * hz);
        w.pushLocal(P, o, a * hx, -hy, b * hz, a * hx, hy, b * hz);
        w.pushLocal(P, o, a * hx, b * hy, -hz, a * hx, b * hy, hz);
      }
      break;
    }
    case SHAPE_SPHERE: {
      const r = prm[q];
      arc(w, P, o, 0, r, 0, 1, 0, full, CIRCLE_SEGMENTS);
      arc(w, P, o, 0, r, 1, 2, 0, full, CIRCLE_SEGMENTS);
      arc(w, P, o, 0, r, 2, 0, 0, full, CIRCLE_SEGMENTS);
      break;
    }
    case SHAPE_CAPSULE: {
      const r = prm[q], h = prm[q + 1];
      arc(w, P, o, h, r, 2, 0, 0, full, CIRCLE_SEGMENTS);
      arc(w, P, o, -h, r, 2, 0, 0, full, CIRCLE_SEGMENTS);
      w.pushLocal(P, o, r, -h, 0, r, h, 0);
      w.pushLocal(P, o, -r, -h, 0, -r, h, 0);
      w.pushLocal(P, o, 0, -h, r, 0, h, r);
      w.pushLocal(P, o, 0, -h, -r, 0, h, -r);
      arc(w, P, o, h, r, 0, 1, 0, half, CIRCLE_SEGMENTS / 2);
      arc(w, P, o, -h, r, 0, 1, half, full, CIRCLE_SEGMENTS / 2);
      arc(w, P, o, h, r, 2, 1, 0, half, CIRCLE_SEGMENTS / 2);
      arc(w, P, o, -h, r, 2, 1, half, full, CIRCLE_SEGMENTS / 2);
      break;
    }
    case SHAPE_CONVEX: {
      const hull = store.hull[s] as ConvexHullData, v = hull.vertices, e = hull.edges;
      for (let k = 0; k < hull.edgeCount; k++) {
        const a = 3 * e[2 * k], b = 3 * e[2 * k + 1];
        w.pushLocal(P, o, v[a], v[a + 1], v[a + 2], v[b], v[b + 1], v[b + 2]);
      }
      break;
    }
    case SHAPE_PLANE: {
      const h = 5;
      w.pushLocal(P, o, -h, 0, -h, h, 0, -h);
      w.pushLocal(P, o, h, 0, -h, h, 0, h);
      w.pushLocal(P, o, h, 0, h, -h, 0, h);
      w.pushLocal(P, o, -h, 0, h, -h, 0, -h);
      w.pushLocal(P, o, 0, 0, 0, 0, 1, 0);
      break;
    }
    case SHAPE_TRIMESH: {
      const mesh = store.mesh[s] as TriangleMeshData, v = mesh.vertices, edges = mesh.edges, e = w.ends;
      for (let k = 0; k < edges.length; k += 2) {
        const a = 3 * edges[k], b = 3 * edges[k + 1];
        e[0] = v[a]; e[1] = v[a + 1]; e[2] = v[a + 2]; e[3] = v[b]; e[4] = v[b + 1]; e[5] = v[b + 2];
        w.pushLocalEnds(P, o);
      }
      break;
    }
    case SHAPE_HEIGHTFIELD: drawHeightfield(store.heightfield[s] as HeightfieldData, P, o, w); break;
    default: break;
  }
}

/**
 * A heightfield's triangle edges: along x on each row, along z on each column, and each cell's
 * diagonal from (col, row) to (col + 1, row + 1) (heightfield.ts).
 */
function drawHeightfield(hf: HeightfieldData, P: Float64Array, o: number, w: DebugLineWriter): void {
  const h = hf.heights, rows = hf.rows, cols = hf.cols, sx = hf.spacingX, sz = hf.spacingZ, e = w.ends;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      // (c, r) to (c + 1, r), to (c, r + 1), to (c + 1, r + 1)
      for (let k = 0; k < 3; k++) {
        const dc = k === 1 ? 0 : 1, dr = k === 0 ? 0 : 1;
        if (c + dc >= cols || r + dr >= rows) continue;
        e[0] = c * sx; e[1] = h[i]; e[2] = r * sz;
        e[3] = (c + dc) * sx; e[4] = h[i + dr * cols + dc]; e[5] = (r + dr) * sz;
        w.pushLocalEnds(P, o);
      }
    }
  }
}
