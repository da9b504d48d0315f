/**
 * Collision detection cost: update (shape poses and bounds) + broad phase + narrow phase for 1, 10,
 * 50 and 100 humanoid-like clusters of 20 capsules and boxes piled on a ground plane (and the same
 * piles on a heightfield), with contact counts and heap growth per call.
 *
 * Run from the repository root:
 *   pnpm bench packages/constraints/bench/collision.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 */
import type { ShapeDesc } from '@sinew/featherstone';
import { PerformanceObserver } from 'node:perf_hooks';
import { allocatedPerCall, fmt, heapGrowthPerCall, measure, printTable, record, writeResults } from '../../../bench/harness.js';
import { CollisionWorld } from '../src/collision/index.js';

/** Links of a humanoid-like tree: parent index and collision shape. */
const HUMANOID: { parent: number; shape: ShapeDesc }[] = [
  { parent: -1, shape: { geometry: { type: 'box', halfExtents: [0.15, 0.1, 0.1] } } }, // pelvis
  { parent: 0, shape: { geometry: { type: 'box', halfExtents: [0.14, 0.1, 0.09] } } }, // abdomen
  { parent: 1, shape: { geometry: { type: 'box', halfExtents: [0.17, 0.14, 0.1] } } }, // chest
  { parent: 2, shape: { geometry: { type: 'capsule', radius: 0.05, halfLength: 0.04 } } }, // neck
  { parent: 3, shape: { geometry: { type: 'box', halfExtents: [0.08, 0.11, 0.1] } } }, // head
  { parent: 2, shape: { geometry: { type: 'capsule', radius: 0.05, halfLength: 0.06 } } }, // left clavicle
  { parent: 5, shape: { geometry: { type: 'capsule', radius: 0.05, halfLength: 0.12 } } }, // left upper arm
  { parent: 6, shape: { geometry: { type: 'capsule', radius: 0.04, halfLength: 0.11 } } }, // left forearm
  { parent: 7, shape: { geometry: { type: 'box', halfExtents: [0.04, 0.08, 0.02] } } }, // left hand
  { parent: 2, shape: { geometry: { type: 'capsule', radius: 0.05, halfLength: 0.06 } } }, // right clavicle
  { parent: 9, shape: { geometry: { type: 'capsule', radius: 0.05, halfLength: 0.12 } } }, // right upper arm
  { parent: 10, shape: { geometry: { type: 'capsule', radius: 0.04, halfLength: 0.11 } } }, // right forearm
  { parent: 11, shape: { geometry: { type: 'box', halfExtents: [0.04, 0.08, 0.02] } } }, // right hand
  { parent: 0, shape: { geometry: { type: 'capsule', radius: 0.07, halfLength: 0.16 } } }, // left thigh
  { parent: 13, shape: { geometry: { type: 'capsule', radius: 0.055, halfLength: 0.17 } } }, // left shin
  { parent: 14, shape: { geometry: { type: 'box', halfExtents: [0.05, 0.03, 0.12] } } }, // left foot
  { parent: 0, shape: { geometry: { type: 'capsule', radius: 0.07, halfLength: 0.16 } } }, // right thigh
  { parent: 16, shape: { geometry: { type: 'capsule', radius: 0.055, halfLength: 0.17 } } }, // right shin
  { parent: 17, shape: { geometry: { type: 'box', halfExtents: [0.05, 0.03, 0.12] } } }, // right foot
  { parent: 15, shape: { geometry: { type: 'box', halfExtents: [0.04, 0.02, 0.04] } } }, // left toes
];

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random rotation (Rodrigues) and a position: one 12-number pose. */
function randomPose(rand: () => number, x: number, y: number, z: number, out: Float64Array, o: number): void {
  let ax = 2 * rand() - 1, ay = 2 * rand() - 1, az = 2 * rand() - 1;
  const n = Math.hypot(ax, ay, az) || 1;
  ax /= n; ay /= n; az /= n;
  const ang = Math.PI * (2 * rand() - 1), c = Math.cos(ang), s = Math.sin(ang), C = 1 - c;
  out.set([
    c + ax * ax * C, ax * ay * C - az * s, ax * az * C + ay * s,
    ay * ax * C + az * s, c + ay * ay * C, ay * az * C - ax * s,
    az * ax * C - ay * s, az * ay * C + ax * s, c + az * az * C,
    x, y, z,
  ], o);
}

interface Scene {
  world: CollisionWorld;
  poses: Float64Array[];
}

/** `clusters` humanoids lying in piles 1.2 m apart (neighbouring piles touch now and then). */
function buildScene(clusters: number, ground: 'plane' | 'heightfield'): Scene {
  const world = new CollisionWorld({ margin: 0.005 });
  const side = Math.ceil(Math.sqrt(clusters));
  if (ground === 'plane') world.addStaticShape({ geometry: { type: 'plane' } });
  else {
    const rows = 8 * side + 2, cols = 8 * side + 2;
    const rand = rng(99);
    const heights = Array.from({ length: rows * cols }, () => 0.04 * rand());
    world.addStaticShape({ geometry: { type: 'heightfield', rows, cols, spacingX: 0.2, spacingZ: 0.2, heights }, position: [-0.6, -0.04, -0.6] });
  }
  const rand = rng(clusters);
  const poses: Float64Array[] = [];
  for (let b = 0; b < clusters; b++) {
    world.setBody(b, HUMANOID.length, { excludedLinkPairs: HUMANOID.filter((l) => l.parent >= 0).map((l, i) => [l.parent, i + 1] as [number, number]) });
    HUMANOID.forEach((l, i) => world.addDynamicShape(b, i, l.shape));
    const cx = 1.2 * (b % side), cz = 1.2 * Math.floor(b / side);
    const lp = new Float64Array(12 * HUMANOID.length);
    for (let i = 0; i < HUMANOID.length; i++) randomPose(rand, cx + 0.7 * (rand() - 0.5), 0.03 + 0.35 * rand(), cz + 0.7 * (rand() - 0.5), lp, 12 * i);
    poses.push(lp);
  }
  world.prepare();
  world.detect(poses);
  while (world.overflowed) {
    world.growToFit();
    world.detect(poses);
  }
  return { world, poses };
}

const table: Record<string, string | number>[] = [];
for (const ground of ['plane', 'heightfield'] as const) {
  for (const clusters of [1, 10, 50, 100]) {
    const { world, poses } = buildScene(clusters, ground);
    const step = () => {
      world.detect(poses);
    };
    const t = measure(`collision ${ground} ${clusters}x20`, step);
    const contacts = world.contacts.count;
    const pairs = world.pairCount;
    // two windows of about half a second of calls each
    const heap = heapGrowthPerCall(step, Math.max(200, Math.round(500_000 / t.medianUs)));
    // Allocation: what a call allocates, garbage included (young-generation growth per batch), and
    // the number of garbage collections that ran during a run of calls
    const calls = clusters >= 50 ? 300 : 3000;
    const allocated = allocatedPerCall(step, clusters >= 50 ? 20 : 200, 15, 0);
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    let collections = 0;
    const observer = new PerformanceObserver((list) => { collections += list.getEntries().length; });
    observer.observe({ entryTypes: ['gc'] });
    for (let i = 0; i < calls; i++) step();
    await new Promise((resolve) => setTimeout(resolve, 10));
    observer.disconnect();
    t.contacts = contacts;
    t.pairs = pairs;
    t.heapBytesPerCall = heap;
    t.allocatedBytesPerCall = allocated;
    table.push({
      ground,
      clusters,
      shapes: 20 * clusters,
      median: fmt(t.medianUs),
      min: fmt(t.minUs),
      'per shape': fmt(t.medianUs / (20 * clusters)),
      pairs,
      contacts,
      'retained B/call': heap.toFixed(2),
      'allocated B/call': allocated.toFixed(2),
      'GCs while timing': `${collections} in ${calls} calls`,
    });
  }
}

// Where the time goes, 100 clusters on the plane.
{
  const { world, poses } = buildScene(100, 'plane');
  const tu = measure('collision update 100x20', () => world.update(poses));
  const tb = measure('collision broad phase 100x20', () => world.findPairs());
  const tn = measure('collision narrow phase 100x20', () => world.generateContacts());
  printTable('collision: phases, 100 clusters x 20 shapes on a plane', [
    { phase: 'update (poses + bounds)', median: fmt(tu.medianUs), min: fmt(tu.minUs) },
    { phase: 'broad phase (uniform grid)', median: fmt(tb.medianUs), min: fmt(tb.minUs) },
    { phase: 'narrow phase (manifolds)', median: fmt(tn.medianUs), min: fmt(tn.minUs) },
  ]);
  record({ name: 'collision phases 100x20', medianUs: tu.medianUs + tb.medianUs + tn.medianUs, minUs: 0, maxUs: 0, calls: 0 });
}

printTable('collision: update + broad phase + narrow phase per call', table);
console.log(`\nwrote ${writeResults('collision')}`);
