/**
 * Broad phase: a uniform grid over the horizontal plane (x, z) (cell-grid.ts), rebuilt every call.
 *
 * The cell size is twice the mean horizontal extent of the dynamic shapes' bounds, so a shape
 * covers a few cells. Each shape is entered in the cells its bounds cover; entries are bucketed by
 * a hash of the cell (counting sort, no allocation) and every two entries of the same cell are
 * tested: bounds overlap on all three axes and the filter allows the pair. A pair sharing several
 * cells is reported only in the cell holding the low corner of the overlap of their bounds
 * (max of the two minima in x and z), so exactly once. Shapes whose bounds would cover more than
 * MAX_CELLS cells (long props, big static boxes, meshes, heightfields) are tested against every
 * other shape instead; planes (no finite bounds) are tested against each dynamic shape's bounds.
 * A scene of few bounded shapes (at most `allPairsUpTo`, default 64: one ragdoll has 20) skips the
 * grid and tests every two of them, which costs less than filling the grid there.
 *
 * Output: pairs (slotA < slotB) sorted by (slotA, slotB), so the pair list depends only on the
 * scene, not on the grid, the hash or earlier calls. The buffers never grow here: pairs beyond the
 * capacity are counted in `required` and dropped; reserve() grows them outside the step.
 */
import { AABB_STRIDE } from './aabb.js';
import { CellGrid } from './cell-grid.js';
import type { CollisionFilter } from './filter.js';
import type { ShapeStore } from './shape-store.js';


export class GridBroadPhase {
  /** Scenes of at most this many bounded shapes test every two of them instead of using the grid (the same pairs). */
  allPairsUpTo = 64;
  /** Pair i = (pairs[2i], pairs[2i + 1]) as slots, slotA < slotB, sorted. */
  pairs: Int32Array = new Int32Array(0);
  count = 0;
  required = 0;
  /** Cell size (m) used by the last call. */
  get cellSize(): number {
    return this.grid.cell[0];
  }
  private rawLo: Int32Array = new Int32Array(0);
  private rawHi: Int32Array = new Int32Array(0);
  private _capacity = 0;
  /** The grid the bounded shapes are entered in (cell-grid.ts). */
  private readonly grid = new CellGrid();
  private planes = new Int32Array(0);
  private planeCount = 0;
  // Sorting pairs by (lo, hi).
  private loStart = new Int32Array(0);

  constructor(capacity: number) {
    this.reserve(capacity);
  }

  get capacity(): number {
    return this._capacity;
  }

  get overflowed(): boolean {
    return this.required > this._capacity;
  }

  reserve(capacity: number): void {
    if (capacity <= this._capacity) return;
    const pairs = new Int32Array(2 * capacity);
    pairs.set(this.pairs);
    this.pairs = pairs;
    this.rawLo = new Int32Array(capacity);
    this.rawHi = new Int32Array(capacity);
    this._capacity = capacity;
  }

  /** Prepares for a new set of shapes (allocates; outside the step). */
  setShapes(store: ShapeStore): void {
    const n = store.slotCount;
    this.grid.allocate(n);
    this.planes = new Int32Array(n);
    this.loStart = new Int32Array(n + 1);
    this.still = new Uint8Array(n);
  }

  /** Per slot, whether it cannot move this step (static, or its body rests): findPairs skips pairs of two such. */
  private still = new Uint8Array(0);

  /**
   * The pairs whose bounds overlap and that the filter lets collide, sorted by (lo, hi) slot;
   * a pair of two shapes that cannot move (static, or of bodies that `resting` marks with 1) is
   * left out. Returns the pair count.
   */
  findPairs(store: ShapeStore, filter: CollisionFilter, resting?: Uint8Array): number {
    const aabb = store.aabb, n = store.slotCount, dyn = store.dynamicCount;
    this.required = 0;
    this.count = 0;
    // a pair of shapes that both stay where they are (static, or of resting bodies) needs no contacts
    const still = this.still, body = store.body, nr = resting ? resting.length : 0;
    for (let s = 0; s < n; s++) {
      const b = body[s];
      still[s] = s >= dyn || (b >= 0 && b < nr && (resting as Uint8Array)[b] === 1) ? 1 : 0;
    }

    // Cell size from the mean horizontal extent of the dynamic shapes.
    if (this.grid.cellSizeFrom(store, dyn) === 0) return 0;
    // planes (no finite bounds) apart; the others pair through the grid or all with all
    this.planeCount = 0;
    for (let s = 0; s < n; s++) if (!store.bounded[s]) this.planes[this.planeCount++] = s;
    if (n - this.planeCount <= this.allPairsUpTo) this.allBoundedPairs(store, filter);
    else this.gridPairs(store, filter);
    this.planePairs(store, filter);
    this.sortPairs(n);
    return this.count;
  }

  /** Every two bounded shapes, not both still, whose bounds overlap and that the filter lets collide. */
  private allBoundedPairs(store: ShapeStore, filter: CollisionFilter): void {
    const aabb = store.aabb, n = store.slotCount, still = this.still, bounded = store.bounded;
    for (let si = 0; si < n; si++) {
      if (!bounded[si]) continue;
      const oi = AABB_STRIDE * si;
      for (let sj = si + 1; sj < n; sj++) {
        if (!bounded[sj] || (still[si] === 1 && still[sj] === 1)) continue;
        const oj = AABB_STRIDE * sj;
        if (aabb[oj] > aabb[oi + 3] || aabb[oi] > aabb[oj + 3]) continue;
        if (aabb[oj + 1] > aabb[oi + 4] || aabb[oi + 1] > aabb[oj + 4]) continue;
        if (aabb[oj + 2] > aabb[oi + 5] || aabb[oi + 2] > aabb[oj + 5]) continue;
        if (filter.canCollide(store, si, sj)) this.push(si, sj);
      }
    }
  }

  /** The bounded shapes' pairs through the grid (and the large shapes against all). */
  private gridPairs(store: ShapeStore, filter: CollisionFilter): void {
    const aabb = store.aabb, n = store.slotCount, still = this.still, g = this.grid;
    g.fill(store);
    const start = g.bucketStart, buckets = g.mask + 1, bucketed = g.bucketed;
    const entrySlot = g.entrySlot, entryX = g.entryX, entryZ = g.entryZ, cellX0 = g.cellX0, cellZ0 = g.cellZ0;

    // Pairs within each bucket: same cell, overlapping bounds, reported in the low-corner cell.
    for (let b = 0; b < buckets; b++) {
      const begin = start[b], end = start[b + 1];
      // a bucket of shapes that all stay where they are has no pair to report
      let moving = false;
      for (let i = begin; i < end && !moving; i++) moving = still[entrySlot[bucketed[i]]] === 0;
      if (!moving) continue;
      for (let i = begin; i < end; i++) {
        const ei = bucketed[i];
        const si = entrySlot[ei], cx = entryX[ei], cz = entryZ[ei];
        const oi = AABB_STRIDE * si;
        for (let j = i + 1; j < end; j++) {
          const ej = bucketed[j];
          if (entryX[ej] !== cx || entryZ[ej] !== cz) continue; // another cell, same hash
          const sj = entrySlot[ej];
          if (still[si] === 1 && still[sj] === 1) continue;
          const oj = AABB_STRIDE * sj;
          if (aabb[oj] > aabb[oi + 3] || aabb[oi] > aabb[oj + 3]) continue;
          if (aabb[oj + 1] > aabb[oi + 4] || aabb[oi + 1] > aabb[oj + 4]) continue;
          if (aabb[oj + 2] > aabb[oi + 5] || aabb[oi + 2] > aabb[oj + 5]) continue;
          // The overlap's low corner: the larger minimum on each axis, in that shape's first cell.
          const cornerX = aabb[oi] >= aabb[oj] ? cellX0[si] : cellX0[sj];
          const cornerZ = aabb[oi + 2] >= aabb[oj + 2] ? cellZ0[si] : cellZ0[sj];
          if (cornerX !== cx || cornerZ !== cz) continue;
          const lo = si < sj ? si : sj, hi = si < sj ? sj : si;
          if (filter.canCollide(store, lo, hi)) this.push(lo, hi);
        }
      }
    }

    // Large shapes against every other bounded shape (large pairs once).
    for (let k = 0; k < g.largeCount; k++) {
      const l = g.large[k], ol = AABB_STRIDE * l;
      for (let s = 0; s < n; s++) {
        if (s === l || !store.bounded[s]) continue;
        if (still[l] === 1 && still[s] === 1) continue;
        if (s < l && g.isLarge(s, k)) continue; // that pair was found from s
        const os = AABB_STRIDE * s;
        if (aabb[os] > aabb[ol + 3] || aabb[ol] > aabb[os + 3]) continue;
        if (aabb[os + 1] > aabb[ol + 4] || aabb[ol + 1] > aabb[os + 4]) continue;
        if (aabb[os + 2] > aabb[ol + 5] || aabb[ol + 2] > aabb[os + 5]) continue;
        const lo = s < l ? s : l, hi = s < l ? l : s;
        if (filter.canCollide(store, lo, hi)) this.push(lo, hi);
      }
    }
  }

  /** Planes against the dynamic shapes near them. */
  private planePairs(store: ShapeStore, filter: CollisionFilter): void {
    const aabb = store.aabb, dyn = store.dynamicCount, still = this.still;

    // Planes (normal = local +Y of the pose, solid below): a box is near the plane when its lowest
    // corner along the normal, n.(c - p) - sum_i |n_i| e_i, is below it (the bounds already carry
    // the margin).
    const pose = store.worldPose;
    for (let k = 0; k < this.planeCount; k++) {
      const pl = this.planes[k], po = 12 * pl;
      const nx = pose[po + 1], ny = pose[po + 4], nz = pose[po + 7];
      const px = pose[po + 9], py = pose[po + 10], pz = pose[po + 11];
      for (let s = 0; s < dyn; s++) {
        if (!store.bounded[s] || still[s] === 1) continue;
        const o = AABB_STRIDE * s;
        const cx = 0.5 * (aabb[o] + aabb[o + 3]), cy = 0.5 * (aabb[o + 1] + aabb[o + 4]), cz = 0.5 * (aabb[o + 2] + aabb[o + 5]);
        const ex = 0.5 * (aabb[o + 3] - aabb[o]), ey = 0.5 * (aabb[o + 4] - aabb[o + 1]), ez = 0.5 * (aabb[o + 5] - aabb[o + 2]);
        const h = nx * (cx - px) + ny * (cy - py) + nz * (cz - pz) - Math.abs(nx) * ex - Math.abs(ny) * ey - Math.abs(nz) * ez;
        if (h > 0) continue;
        if (filter.canCollide(store, s, pl)) this.push(s, pl);
      }
    }
  }

  private push(lo: number, hi: number): void {
    this.required++;
    if (this.count < this._capacity) {
      this.rawLo[this.count] = lo;
      this.rawHi[this.count] = hi;
      this.count++;
    }
  }

  /** Counting sort by lo, then insertion sort of each lo's his: pairs sorted by (lo, hi). */
  private sortPairs(n: number): void {
    const start = this.loStart, c = this.count;
    for (let s = 0; s <= n; s++) start[s] = 0;
    for (let i = 0; i < c; i++) start[this.rawLo[i] + 1]++;
    for (let s = 0; s < n; s++) start[s + 1] += start[s];
    const pairs = this.pairs;
    for (let i = 0; i < c; i++) {
      const lo = this.rawLo[i];
      const at = start[lo]++;
      pairs[2 * at] = lo;
      pairs[2 * at + 1] = this.rawHi[i];
    }
    // start[s] now ends the run of lo = s.
    let begin = 0;
    for (let s = 0; s < n; s++) {
      const end = start[s];
      for (let i = begin + 1; i < end; i++) {
        const v = pairs[2 * i + 1];
        let j = i - 1;
        while (j >= begin && pairs[2 * j + 1] > v) { pairs[2 * j + 3] = pairs[2 * j + 1]; j--; }
        pairs[2 * j + 3] = v;
      }
      begin = end;
    }
  }
}
