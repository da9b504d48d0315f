/**
 * The grid the scene queries walk: the broad phase's grid (cell-grid.ts, the cell size from the
 * dynamic shapes' bounds, from all bounded shapes without any), with the planes (no finite bounds)
 * listed apart and a stamp per slot, so that a shape entered in several cells is tested once a
 * query. The broad phase rebuilds its grid inside each step from the poses before integration;
 * this one is built from the bounds of the collision world's last update, when a query first needs
 * it after that update (no allocation once its arrays fit the scene).
 */
import { CellGrid } from './cell-grid.js';
import type { ShapeStore } from './shape-store.js';

export class QueryGrid extends CellGrid {
  /** Slots of the planes: planes[0 .. planeCount). */
  planes = new Int32Array(0);
  planeCount = 0;
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

  build(store: ShapeStore): void {
    const n = store.slotCount;
    if (this.stamp.length !== n) {
      this.allocate(n);
      this.planes = new Int32Array(n);
      this.stamp = new Int32Array(n);
      this.stampValue = 0;
    }
    // cell size as the broad phase's, from the dynamic shapes (from all bounded ones without any)
    if (this.cellSizeFrom(store, store.dynamicCount) === 0 && this.cellSizeFrom(store, n) === 0) this.cell[0] = 2;
    this.planeCount = 0;
    for (let s = 0; s < n; s++) if (!store.bounded[s]) this.planes[this.planeCount++] = s;
    this.fill(store);
    this.current = true;
  }
}
