/**
 * The grid the scene queries walk: the broad phase's layout (broadphase.ts), a uniform grid over
 * the horizontal plane (x, z) with cells twice the mean horizontal extent of the dynamic shapes'
 * bounds, cells hashed into buckets by a counting sort; shapes whose bounds cover more than
 * MAX_CELLS cells are kept in a list of large shapes, planes (no finite bounds) in a list of their
 * own. The broad phase rebuilds its grid inside each step from the poses before integration; this
 * one is built from the bounds of the collision world's last update, when a query first needs it
 * after that update (no allocation once its arrays fit the scene).
 */
import { AABB_STRIDE } from './aabb.js';
import { MAX_CELLS } from './broadphase.js';
import type { ShapeStore } from './shape-store.js';

export class QueryGrid {
  /** [cell size] (m). */
  readonly cell = new Float64Array(1);
  /** Union of the bounds of the shapes in the grid [min xyz, max xyz] (empty: min > max). */
  readonly bounds = new Float64Array(6);
  large = new Int32Array(0);
  largeCount = 0;
  planes = new Int32Array(0);
  planeCount = 0;
  entrySlot = new Int32Array(0);
  entryX = new Int32Array(0);
  entryZ = new Int32Array(0);
  private entryBucket = new Int32Array(0);
  /** Entries sorted by bucket: bucket b holds bucketed[bucketStart[b] .. bucketStart[b + 1]). */
  bucketed = new Int32Array(0);
  bucketStart = new Int32Array(0);
  private cursor = new Int32Array(0);
  mask = 0;
  /** Per slot: the number of the last query that visited it (a shape in several cells is tested once). */
  stamp = new Int32Array(0);
  private stampValue = 0;
  /** Whether the grid holds the bounds of the collision world's last update. */
  current = false;

  /** A new query number for `stamp`. */
  nextStamp(): number {
    if (this.stampValue >= 0x7ffffff0) { this.stamp.fill(0); this.stampValue = 0; }
    return ++this.stampValue;
  }

  /** Bucket of cell (x, z). */
  bucket(x: number, z: number): number {
    return (Math.imul(x, 73856093) ^ Math.imul(z, 19349663)) & this.mask;
  }

  build(store: ShapeStore): void {
    const n = store.slotCount, aabb = store.aabb;
    if (this.stamp.length !== n) this.allocate(n);
    // cell size as the broad phase's, from the dynamic shapes (from all bounded ones without any)
    let sum = 0, counted = 0;
    for (let pass = 0; pass < 2 && counted === 0; pass++) {
      const end = pass === 0 ? store.dynamicCount : n;
      for (let s = 0; s < end; s++) {
        if (!store.bounded[s]) continue;
        const o = AABB_STRIDE * s;
        const ex = aabb[o + 3] - aabb[o], ez = aabb[o + 5] - aabb[o + 2];
        sum += ex > ez ? ex : ez;
        counted++;
      }
    }
    const cell = Math.max(2 * (counted > 0 ? sum / counted : 1), 1e-3);
    this.cell[0] = cell;
    const b = this.bounds;
    b[0] = b[1] = b[2] = Infinity;
    b[3] = b[4] = b[5] = -Infinity;
    this.planeCount = 0;
    this.largeCount = 0;
    let entries = 0;
    for (let s = 0; s < n; s++) {
      if (!store.bounded[s]) { this.planes[this.planeCount++] = s; continue; }
      const o = AABB_STRIDE * s;
      const x0 = Math.floor(aabb[o] / cell), x1 = Math.floor(aabb[o + 3] / cell);
      const z0 = Math.floor(aabb[o + 2] / cell), z1 = Math.floor(aabb[o + 5] / cell);
      if (!(x1 - x0 < MAX_CELLS && z1 - z0 < MAX_CELLS && (x1 - x0 + 1) * (z1 - z0 + 1) <= MAX_CELLS &&
        x0 >= -0x40000000 && x1 <= 0x40000000 && z0 >= -0x40000000 && z1 <= 0x40000000)) {
        this.large[this.largeCount++] = s;
        continue;
      }
      for (let k = 0; k < 3; k++) {
        if (aabb[o + k] < b[k]) b[k] = aabb[o + k];
        if (aabb[o + 3 + k] > b[3 + k]) b[3 + k] = aabb[o + 3 + k];
      }
      for (let x = x0; x <= x1; x++) {
        for (let z = z0; z <= z1; z++) {
          this.entrySlot[entries] = s;
          this.entryX[entries] = x;
          this.entryZ[entries] = z;
          this.entryBucket[entries] = this.bucket(x, z);
          entries++;
        }
      }
    }
    // counting sort of the entries by bucket
    const start = this.bucketStart, buckets = this.mask + 1, cursor = this.cursor;
    for (let k = 0; k <= buckets; k++) start[k] = 0;
    for (let e = 0; e < entries; e++) start[this.entryBucket[e] + 1]++;
    for (let k = 0; k < buckets; k++) start[k + 1] += start[k];
    for (let k = 0; k < buckets; k++) cursor[k] = start[k];
    for (let e = 0; e < entries; e++) this.bucketed[cursor[this.entryBucket[e]]++] = e;
    this.current = true;
  }

  private allocate(n: number): void {
    this.large = new Int32Array(n);
    this.planes = new Int32Array(n);
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
    this.stamp = new Int32Array(n);
    this.stampValue = 0;
  }
}
