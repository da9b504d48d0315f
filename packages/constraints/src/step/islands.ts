/**
 * Stage 3 of a pass: islands, the bodies joined by two-body rows (union-find with path halving),
 * numbered in order of their smallest body index, with their rows listed island by island.
 */
import type { RowBuffer } from '../rows/row-buffer.js';
import type { StepData } from './step-data.js';

/** buildIslands for a world of one body: its rows, in order, are the one island (none without rows). */
function oneIsland(d: StepData, rows: RowBuffer): number {
  const count = rows.count;
  if (d.islandStart.length < 2) d.islandStart = new Int32Array(2);
  if (d.islandRows.length < count) d.islandRows = new Int32Array(2 * count);
  for (let j = 0; j < count; j++) d.islandRows[j] = j;
  d.islandStart[0] = 0;
  d.islandStart[1] = count;
  d.bodies[0].island = count > 0 ? 0 : -1;
  return count > 0 ? 1 : 0;
}

/** Groups rows by island (bodies linked by two-body rows). Returns the island count. */
export function buildIslands(d: StepData, rows: RowBuffer): number {
  const nb = d.bodies.length;
  if (d.islandOf.length < nb) {
    d.islandOf = new Int32Array(2 * nb);
    d.islandId = new Int32Array(2 * nb);
    d.islandCount = new Int32Array(2 * nb);
  }
  if (nb === 1) return oneIsland(d, rows);
  const parent = d.islandOf, id = d.islandId, countByRoot = d.islandCount;
  for (let b = 0; b < nb; b++) { parent[b] = b; id[b] = -1; countByRoot[b] = 0; }
  for (let j = 0; j < rows.count; j++) {
    const b = rows.bodyB[j];
    if (b >= 0) {
      const ra = islandRoot(d, rows.bodyA[j]), rb = islandRoot(d, b);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  // every body's root, once (parent[] holds it from here on: each entry points at its root)
  for (let b = 0; b < nb; b++) parent[b] = islandRoot(d, b);
  // island index per root with rows, in order of the smallest body index (deterministic)
  let n = 0;
  const count = rows.count, bodyA = rows.bodyA;
  for (let j = 0; j < count; j++) countByRoot[parent[bodyA[j]]]++;
  for (let b = 0; b < nb; b++) if (parent[b] === b && countByRoot[b] > 0) id[b] = n++;
  if (d.islandStart.length < n + 1) d.islandStart = new Int32Array(2 * n + 1);
  if (d.islandRows.length < count) d.islandRows = new Int32Array(2 * count);
  const start = d.islandStart, islandRows = d.islandRows;
  start.fill(0, 0, n + 1);
  for (let b = 0; b < nb; b++) {
    const r = parent[b];
    d.bodies[b].island = countByRoot[r] > 0 ? id[r] : -1;
    // (rows per island, from the rows per root)
    if (r === b && countByRoot[b] > 0) start[id[b] + 1] = countByRoot[b];
  }
  for (let k = 0; k < n; k++) start[k + 1] += start[k];
  // countByRoot becomes the fill cursor of each island
  for (let k = 0; k < n; k++) countByRoot[k] = start[k];
  for (let j = 0; j < count; j++) islandRows[countByRoot[id[parent[bodyA[j]]]]++] = j;
  return n;
}

/** Root of body x in the union-find of buildIslands (with path halving). */
function islandRoot(d: StepData, x: number): number {
  const parent = d.islandOf;
  while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; }
  return x;
}
