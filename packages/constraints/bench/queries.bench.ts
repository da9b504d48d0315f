/**
 * Scene query cost: castRay on 100 ragdoll-like bodies (15 capsules and boxes each, 1,500 shapes)
 * scattered over a 30 m square on a ground plane, through CollisionWorld.castRay (shapes as the
 * last update placed them) and World.castRay (which first checks that the bodies did not move
 * since its last query). Rays: horizontal at waist height, downward (onto the ground or a body),
 * and random directions, 40 m long. Shape queries on the same scene: intersectShape of a sphere,
 * capsule and box at random points, castShape of each swept 10 m at waist height.
 *
 * Run from the repository root:
 *   pnpm bench packages/constraints/bench/queries.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 */
import { ModelBuilder, forwardKinematics, type ShapeDesc } from '@sinew/featherstone';
import { fmt, measure, printTable, writeResults } from '../../../bench/harness.js';
import { RayHit, ShapeHit, World } from '../src/index.js';
import { SeededRandom } from '../src/lcp/random-problems.js';

/** Links of a ragdoll-like tree: parent, joint position in the parent, shape. */
const RAGDOLL: { parent: number; at: [number, number, number]; shape: ShapeDesc['geometry'] }[] = [
  { parent: -1, at: [0, 0, 0], shape: { type: 'box', halfExtents: [0.15, 0.1, 0.1] } }, // pelvis
  { parent: 0, at: [0, 0.2, 0], shape: { type: 'box', halfExtents: [0.14, 0.1, 0.09] } }, // abdomen
  { parent: 1, at: [0, 0.22, 0], shape: { type: 'box', halfExtents: [0.17, 0.14, 0.1] } }, // chest
  { parent: 2, at: [0, 0.25, 0], shape: { type: 'box', halfExtents: [0.08, 0.11, 0.1] } }, // head
  { parent: 2, at: [0.2, 0.1, 0], shape: { type: 'capsule', radius: 0.05, halfLength: 0.12 } }, // upper arms
  { parent: 4, at: [0, -0.3, 0], shape: { type: 'capsule', radius: 0.04, halfLength: 0.11 } },
  { parent: 5, at: [0, -0.25, 0], shape: { type: 'box', halfExtents: [0.04, 0.08, 0.02] } },
  { parent: 2, at: [-0.2, 0.1, 0], shape: { type: 'capsule', radius: 0.05, halfLength: 0.12 } },
  { parent: 7, at: [0, -0.3, 0], shape: { type: 'capsule', radius: 0.04, halfLength: 0.11 } },
  { parent: 8, at: [0, -0.25, 0], shape: { type: 'box', halfExtents: [0.04, 0.08, 0.02] } },
  { parent: 0, at: [0.1, -0.25, 0], shape: { type: 'capsule', radius: 0.07, halfLength: 0.16 } }, // legs
  { parent: 10, at: [0, -0.42, 0], shape: { type: 'capsule', radius: 0.055, halfLength: 0.17 } },
  { parent: 11, at: [0, -0.3, 0.05], shape: { type: 'box', halfExtents: [0.05, 0.03, 0.12] } },
  { parent: 0, at: [-0.1, -0.25, 0], shape: { type: 'capsule', radius: 0.07, halfLength: 0.16 } },
  { parent: 13, at: [0, -0.42, 0], shape: { type: 'capsule', radius: 0.055, halfLength: 0.17 } },
];

function ragdoll() {
  const b = new ModelBuilder();
  RAGDOLL.forEach((l, i) => {
    b.addLink({
      name: `l${i}`, parent: l.parent < 0 ? null : l.parent, joint: l.parent < 0 ? { type: 'free' } : { type: 'spherical', position: l.at },
      mass: 2, inertia: [0.02, 0.02, 0.02, 0, 0, 0], shapes: [{ geometry: l.shape }],
    });
  });
  return b.build();
}

const random = new SeededRandom(7);
const rand = (): number => random.next();
const world = new World();
world.addStatic({ geometry: { type: 'plane' } });
const model = ragdoll();
for (let k = 0; k < 100; k++) {
  const body = world.addBody(model, { name: `ragdoll${k}` });
  const yaw = 2 * Math.PI * rand();
  body.state.q.set([30 * rand() - 15, 1 + 0.5 * rand(), 30 * rand() - 15]);
  body.state.q.set([0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2)], 3);
  forwardKinematics(body.model, body.state, true);
}
const out = new RayHit();
world.castRay([0, 10, 0], [0, -1, 0], 40, undefined, out); // places the shapes

const N = 1024;
const rays = { horizontal: new Float64Array(6 * N), down: new Float64Array(6 * N), random: new Float64Array(6 * N) };
for (let i = 0; i < N; i++) {
  const a = 2 * Math.PI * rand();
  rays.horizontal.set([30 * rand() - 15, 1 + 0.3 * rand(), 30 * rand() - 15, Math.cos(a), 0, Math.sin(a)], 6 * i);
  rays.down.set([30 * rand() - 15, 3, 30 * rand() - 15, 0, -1, 0], 6 * i);
  let x = 0, y = 0, z = 0;
  do { x = 2 * rand() - 1; y = 2 * rand() - 1; z = 2 * rand() - 1; } while (x * x + y * y + z * z > 1 || x * x + y * y + z * z < 0.01);
  rays.random.set([30 * rand() - 15, 3 * rand(), 30 * rand() - 15, x, y, z], 6 * i);
}

const table: Record<string, string | number>[] = [];
for (const [kind, r] of Object.entries(rays)) {
  let i = 0, hits = 0;
  const o = new Float64Array(3), d = new Float64Array(3);
  const viaCollision = measure(`castRay ${kind} (CollisionWorld)`, () => {
    const k = 6 * (i++ & (N - 1));
    o[0] = r[k]; o[1] = r[k + 1]; o[2] = r[k + 2]; d[0] = r[k + 3]; d[1] = r[k + 4]; d[2] = r[k + 5];
    if (world.collision.castRay(o, d, 40, undefined, out)) hits++;
  });
  const viaWorld = measure(`castRay ${kind} (World)`, () => {
    const k = 6 * (i++ & (N - 1));
    o[0] = r[k]; o[1] = r[k + 1]; o[2] = r[k + 2]; d[0] = r[k + 3]; d[1] = r[k + 4]; d[2] = r[k + 5];
    world.castRay(o, d, 40, undefined, out);
  });
  let bodyHits = 0;
  for (let j = 0; j < N; j++) {
    const k = 6 * j;
    const h = world.collision.castRay(r.subarray(k, k + 3), r.subarray(k + 3, k + 6), 40, undefined, out);
    if (h && h.body >= 0) bodyHits++;
  }
  table.push({ rays: kind, 'CollisionWorld.castRay': fmt(viaCollision.medianUs), 'World.castRay': fmt(viaWorld.medianUs), 'hit a ragdoll': `${bodyHits} of ${N}` });
  void hits;
}
printTable('castRay, 100 ragdolls x 15 shapes + ground plane (1,501 shapes), 40 m rays (median per ray)', table);

// shape queries on the same scene: overlaps of a 0.5 m sphere at random points 0.2 to 2 m up, and
// sweeps of a sphere, a capsule and a box 10 m long, horizontal at waist height
const shapeTable: Record<string, string | number>[] = [];
const shapes = [
  { type: 'sphere', radius: 0.3 },
  { type: 'capsule', radius: 0.3, halfLength: 0.5 },
  { type: 'box', halfExtents: [0.3, 0.5, 0.3] },
] as const;
const shapeHit = new ShapeHit();
const pose = { position: new Float64Array(3), rotation: new Float64Array([0, 0, 0, 1]) };
const dir = new Float64Array(3);
for (const shape of shapes) {
  let i = 0, found = 0, hits = 0;
  const count = (): void => { found++; };
  const overlap = measure(`intersectShape ${shape.type}`, () => {
    const k = 6 * (i++ & (N - 1));
    pose.position[0] = rays.random[k]; pose.position[1] = 0.2 + 0.6 * rays.random[k + 1]; pose.position[2] = rays.random[k + 2];
    world.intersectShape(shape, pose, count);
  });
  const cast = measure(`castShape ${shape.type}`, () => {
    const k = 6 * (i++ & (N - 1));
    pose.position[0] = rays.horizontal[k]; pose.position[1] = rays.horizontal[k + 1]; pose.position[2] = rays.horizontal[k + 2];
    dir[0] = rays.horizontal[k + 3]; dir[1] = 0; dir[2] = rays.horizontal[k + 5];
    if (world.castShape(shape, pose, dir, 10, { predicate: (b) => b >= 0 }, shapeHit)) hits++;
  });
  shapeTable.push({ shape: shape.type, 'World.intersectShape': fmt(overlap.medianUs), 'World.castShape (10 m)': fmt(cast.medianUs) });
  void found; void hits;
}
printTable('shape queries, same scene (median per query)', shapeTable);
console.log('command: pnpm bench packages/constraints/bench/queries.bench.ts');
console.log(`\nwrote ${writeResults('queries')}`);
