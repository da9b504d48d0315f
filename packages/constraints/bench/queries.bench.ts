/**
 * Scene query cost: castRay on 100 ragdoll-like bodies (15 capsules and boxes each, 1,500 shapes)
 * scattered over a 30 m square on a ground plane, through CollisionWorld.castRay (shapes as the
 * last update placed them) and World.castRay (which first checks that the bodies did not move
 * since its last query). Rays: horizontal at waist height, downward (onto the ground or a body),
 * and random directions, 40 m long. Shape queries on the same scene: intersectShape of a sphere,
 * capsule and box at random points, castShape of each swept 10 m at waist height.
 *
 * Then a level whose ground is a triangle mesh (a 64 x 64 grid of bumpy quads, 8,192 triangles,
 * over x < 0) and a heightfield (129 x 129 heights 0.25 m apart, 32,768 triangles, over x > 0),
 * with the same 100 ragdolls standing on it: castRay down onto the ground, castShape of a sphere,
 * capsule and box swept down 5 m onto it and 10 m along it at knee height, intersectShape at the
 * ground's height, pointQuery and bodiesInAabb (a 2 m box) at random points, through
 * CollisionWorld.
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

// ---- a level on a triangle mesh and a heightfield ----
const terrain = new World();
const bumps = new SeededRandom(11);
const GRID = 64, SPACING = 15 / GRID;
const vertices: number[] = [], indices: number[] = [];
for (let i = 0; i <= GRID; i++) for (let j = 0; j <= GRID; j++) vertices.push(i * SPACING, 0.3 * bumps.next(), j * SPACING);
for (let i = 0; i < GRID; i++) for (let j = 0; j < GRID; j++) {
  const a = i * (GRID + 1) + j, b = a + 1, c = a + GRID + 1, e = c + 1;
  indices.push(a, b, e, a, e, c);
}
terrain.addStatic({ geometry: { type: 'trimesh', vertices, indices }, position: [-15, 0, -15] });
const FIELD = 129;
terrain.addStatic({ geometry: { type: 'heightfield', rows: FIELD, cols: FIELD, spacingX: 15 / (FIELD - 1), spacingZ: 30 / (FIELD - 1), heights: Array.from({ length: FIELD * FIELD }, () => 0.3 * bumps.next()) }, position: [0, 0, -15] });
for (let k = 0; k < 100; k++) {
  const body = terrain.addBody(model, { name: `ragdoll${k}` });
  const yaw = 2 * Math.PI * rand();
  body.state.q.set([30 * rand() - 15, 1.3 + 0.5 * rand(), 30 * rand() - 15]);
  body.state.q.set([0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2)], 3);
  forwardKinematics(body.model, body.state, true);
}
terrain.castRay([0, 10, 0], [0, -1, 0], 40, undefined, out); // places the shapes
const terrainTable: Record<string, string | number>[] = [];
const down = new Float64Array([0, -1, 0]), p3 = new Float64Array(3), lo = new Float64Array(3), hi = new Float64Array(3);
{
  let i = 0, ground = 0;
  const ray = measure('castRay down (terrain)', () => {
    const k = 6 * (i++ & (N - 1));
    p3[0] = rays.down[k]; p3[1] = 3; p3[2] = rays.down[k + 2];
    terrain.collision.castRay(p3, down, 10, undefined, out);
  });
  for (let j = 0; j < N; j++) {
    p3[0] = rays.down[6 * j]; p3[1] = 3; p3[2] = rays.down[6 * j + 2];
    if (terrain.castRay(p3, down, 10, undefined, out)?.body === -1) ground++;
  }
  terrainTable.push({ query: 'castRay down 10 m', 'median per query': fmt(ray.medianUs), 'hit the ground': `${ground} of ${N}` });
}
for (const shape of shapes) {
  let i = 0;
  const onGround = (): void => { pose.position[1] = 2.5; };
  const sweepDown = measure(`castShape ${shape.type} down (terrain)`, () => {
    const k = 6 * (i++ & (N - 1));
    pose.position[0] = rays.down[k]; onGround(); pose.position[2] = rays.down[k + 2];
    terrain.collision.castShape(shape, pose, down, 5, undefined, shapeHit);
  });
  let ground = 0;
  for (let j = 0; j < N; j++) {
    pose.position[0] = rays.down[6 * j]; pose.position[1] = 2.5; pose.position[2] = rays.down[6 * j + 2];
    if (terrain.castShape(shape, pose, down, 5, undefined, shapeHit)?.body === -1) ground++;
  }
  const along = measure(`castShape ${shape.type} along (terrain)`, () => {
    const k = 6 * (i++ & (N - 1));
    pose.position[0] = rays.horizontal[k]; pose.position[1] = 0.9; pose.position[2] = rays.horizontal[k + 2];
    dir[0] = rays.horizontal[k + 3]; dir[1] = 0; dir[2] = rays.horizontal[k + 5];
    terrain.collision.castShape(shape, pose, dir, 10, undefined, shapeHit);
  });
  let found = 0;
  const count = (): void => { found++; };
  const overlap = measure(`intersectShape ${shape.type} (terrain)`, () => {
    const k = 6 * (i++ & (N - 1));
    pose.position[0] = rays.down[k]; pose.position[1] = 0.3; pose.position[2] = rays.down[k + 2];
    terrain.collision.intersectShape(shape, pose, count);
  });
  terrainTable.push({ query: `castShape ${shape.type} down 5 m`, 'median per query': fmt(sweepDown.medianUs), 'hit the ground': `${ground} of ${N}` });
  terrainTable.push({ query: `castShape ${shape.type} along 10 m at 0.9 m`, 'median per query': fmt(along.medianUs), 'hit the ground': '' });
  terrainTable.push({ query: `intersectShape ${shape.type} at 0.3 m`, 'median per query': fmt(overlap.medianUs), 'hit the ground': '' });
}
{
  let i = 0, found = 0;
  const count = (): void => { found++; };
  const point = measure('pointQuery (terrain)', () => {
    const k = 6 * (i++ & (N - 1));
    p3[0] = rays.random[k]; p3[1] = rays.random[k + 1]; p3[2] = rays.random[k + 2];
    terrain.collision.pointQuery(p3, count);
  });
  const box = measure('bodiesInAabb (terrain)', () => {
    const k = 6 * (i++ & (N - 1));
    for (let a = 0; a < 3; a++) { lo[a] = rays.random[k + a] - 1; hi[a] = rays.random[k + a] + 1; }
    terrain.collision.bodiesInAabb(lo, hi, count);
  });
  terrainTable.push({ query: 'pointQuery', 'median per query': fmt(point.medianUs), 'hit the ground': '' });
  terrainTable.push({ query: 'bodiesInAabb 2 m box', 'median per query': fmt(box.medianUs), 'hit the ground': '' });
}
printTable('queries on a level: 100 ragdolls (1,500 shapes) on a triangle mesh (8,192 triangles) and a heightfield (32,768 triangles), through CollisionWorld (shapes as the last update placed them; World.* adds its check that the bodies did not move, as in the first table)', terrainTable);
console.log('command: pnpm bench packages/constraints/bench/queries.bench.ts');
console.log(`\nwrote ${writeResults('queries')}`);
