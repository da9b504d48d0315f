/**
 * The uniform grid over the horizontal plane (x, z) that the broad phase pairs shapes in
 * (broadphase.ts) and the scene queries walk (query-grid.ts). The cell size is twice the mean
 * horizontal extent of the bounds it is computed from, so a shape covers a few cells. Each bounded
 * shape is entered in the cells its bounds cover, unless those are more than MAX_CELLS (or beyond
 * 32-bit cell indices): such large shapes are listed apart. Entries are bucketed by a hash of their
 * cell with a stable counting sort (slot order within a bucket), so bucket b holds
 * bucketed[bucketStart[b] .. bucketStart[b + 1]) and two entries of one bucket may still be of
 * different cells. Planes (no finite bounds) are not entered. No allocation once allocate() has
 * sized the arrays for the store.
 */
import { AABB_STRIDE } from './aabb.js';
import type { ShapeStore } from './shape-store.js';

/** Shapes covering more cells than this are listed as large instead of entered in the grid. */
export const MAX_CELLS = 16;

export class CellGrid {
  /** [cell size] (m) (a typed array: a double in a field may be boxed at every write). */
  readonly cell = new Float64Array(1);
  /** Union of the bounds of the shapes entered [min xyz, max xyz] (empty: min > max). */
  readonly bounds = new Float64Array(6);
  /** Slots of the large shapes, in slot order: large[0 .. largeCount). */
  large = new Int32Array(0);
  largeCount = 0;
  /** Per entry: its slot and cell (x, z). */
  entrySlot = new Int32Array(0);
  entryX = new Int32Array(0);
  entryZ = new Int32Array(0);
  private entryBucket = new Int32Array(0);
  entryCount = 0;
  /** Entries sorted by bucket: bucket b holds bucketed[bucketStart[b] .. bucketStart[b + 1]). */
  bucketed = new Int32Array(0);
  bucketStart = new Int32Array(0);
  private cursor = new Int32Array(0);
  /** Buckets - 1 (a power of two less one). */
  mask = 0;
  /** Per slot entered: its first cell (x, z), where its bounds begin. */
  cellX0 = new Int32Array(0);
  cellZ0 = new Int32Array(0);

  /** Sizes the arrays for a store of n slots (allocates; outside the step). */
  allocate(n: number): void {
    this.large = new Int32Array(n);
    this.cellX0 = new Int32Array(n);
    this.cellZ0 = new Int32Array(n);
    const entries = MAX_CELLS * n;
    this.entrySlot = new Int32Array(entries);
    this.entryX = new Int32Array(entries);
    this.entryZ = new Int32Array(entries);
    this.entryBucket = new Int32Array(entries);
    this.bucketed = new Int32Array(entries);
    let size = 16;
    while (size < 4 * n) size *= 2;
    this.mask = size - 1;
    this.bucketStart = new Int32Array(size + 1);
    this.cursor = new Int32Array(size);
  }

  /** Bucket of cell (x, z). */
  bucket(x: number, z: number): number {
    return (Math.imul(x, 73856093) ^ Math.imul(z, 19349663)) & this.mask;
  }

  /**
   * Sets the cell size to twice the mean horizontal extent (the larger of x and z) of the bounds
   * of the bounded slots in [0, end), at least 1 mm; returns how many were counted (none: the cell
   * size is left as it was).
   */
  cellSizeFrom(store: ShapeStore, end: number): number {
    const aabb = store.aabb;
    let sum = 0, counted = 0;
    for (let s = 0; s < end; s++) {
      if (!store.bounded[s]) continue;
      const o = AABB_STRIDE * s;
      const ex = aabb[o + 3] - aabb[o], ez = aabb[o + 5] - aabb[o + 2];
      sum += ex > ez ? ex : ez;
      counted++;
    }
    if (counted > 0) this.cell[0] = Math.max(2 * (sum / counted), 1e-3);
    return counted;
  }

  /** Enters the bounded slots of the store at the current cell size, lists the large ones, buckets the entries. */
  fill(store: ShapeStore): void {
    const aabb = store.aabb, n = store.slotCount, cell = this.cell[0], b = this.bounds;
    b[0] = b[1] = b[2] = Infinity;
    b[3] = b[4] = b[5] = -Infinity;
    let entries = 0;
    this.largeCount = 0;
    for (let s = 0; s < n; s++) {
      if (!store.bounded[s]) continue;
      const o = AABB_STRIDE * s;
      const x0 = Math.floor(aabb[o] / cell), x1 = Math.floor(aabb[o + 3] / cell);
      const z0 = Math.floor(aabb[o + 2] / cell), z1 = Math.floor(aabb[o + 5] / cell);
      if (!(x1 - x0 < MAX_CELLS && z1 - z0 < MAX_CELLS && (x1 - x0 + 1) * (z1 - z0 + 1) <= MAX_CELLS &&
        x0 >= -0x40000000 && x1 <= 0x40000000 && z0 >= -0x40000000 && z1 <= 0x40000000)) {
        this.large[this.largeCount++] = s;
        continue;
      }
      this.cellX0[s] = x0;
      this.cellZ0[s] = z0;
      for (let k = 0; k < 3; k++) {
        if (aabb[o + k] < b[k]) b[k] = aabb[o + k];
        if (aabb[o + 3 + k] > b[3 + k]) b[3 + k] = aabb[o + 3 + k];
      }
      for (let x = x0; x <= x1; x++) {
        for (let z = z0; z <= z1; z++) {
          this.entrySlot[entries] = s;
          this.entryX[entries] = x;
          this.entryZ[entries] = z;
          this.entryBucket[entries] = (Math.imul(x, 73856093) ^ Math.imul(z, 19349663)) & this.mask;
          entries++;
        }
      }
    }
    this.entryCount = entries;
    // counting sort of the entries by bucket (stable)
    const start = this.bucketStart, buckets = this.mask + 1, cursor = this.cursor;
    for (let k = 0; k <= buckets; k++) start[k] = 0;
    for (let e = 0; e < entries; e++) start[this.entryBucket[e] + 1]++;
    for (let k = 0; k < buckets; k++) start[k + 1] += start[k];
    for (let k = 0; k < buckets; k++) cursor[k] = start[k];
    for (let e = 0; e < entries; e++) this.bucketed[cursor[this.entryBucket[e]]++] = e;
  }

  /** Whether slot s is among the large shapes listed before index k (all of them: k = largeCount). */
  isLarge(s: number, k: number): boolean {
    for (let i = 0; i < k; i++) if (this.large[i] === s) return true;
    return false;
  }
}
