/**
 * Scenes for the cross-engine test (cross-engine.test.ts): bundled once by esbuild into a script
 * that runs unchanged in V8 (Node), JavaScriptCore (Bun), QuickJS and Chromium. It reads no file:
 * the data files (a glTF character, a BVH walk) come in as text through `input`. Every scene is
 * set up with exact operations only (no Math.sin family here either), so any difference between
 * engines comes from the simulation.
 *
 * A checkpoint every CHECK_EVERY steps records, per body, the bits of q and qd (hex of each
 * float64) and the world time; the test compares them and names the first step, body, quantity and
 * index that differ.
 */
import { ModelBuilder, type Model } from '@sinew/featherstone';
import { World, type Body } from '@sinew/constraints';
import {
  BVH_SCALE, CMU_TO_HUMANOID, MotionFollower, characterFromJSON, excludeOverlappingLinkPairs, humanoid, importBvh, importGltf,
  ragdollFromSkeleton, retargetClip,
} from '@sinew/characters';

export const CHECK_EVERY = 60;

export interface SceneInput {
  /** The bytes of a glTF binary (.glb), base64. */
  glbBase64: string;
  /** A BVH file's text (a walk). */
  bvh: string;
  /** Steps per scene (the test keeps them small for QuickJS). */
  steps: Record<string, number>;
  /** A World.snapshot() of the ragdoll pile taken in V8 at step SNAPSHOT_STEP, base64 (makeSnapshot). */
  snapshotBase64?: string;
}

/** The pile's step at which makeSnapshot takes its snapshot. */
export const SNAPSHOT_STEP = 60;

export interface Checkpoint {
  step: number;
  time: string;
  /** `body.q` / `body.qd` -> hex of every float64, 16 digits each. */
  values: Record<string, string>;
  /** FNV-1a (64 bits) over every value above, for a compact comparison. */
  hash: string;
}

export interface SceneResult {
  name: string;
  checkpoints: Checkpoint[];
  /** Wall time of the scene in this engine (ms; not compared). */
  ms?: number;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HEX = '0123456789abcdef';
function hex32(v: number): string {
  let s = '';
  for (let k = 28; k >= 0; k -= 4) s += HEX[(v >>> k) & 15];
  return s;
}
/** Hex of the 64 bits of every number (high word first). */
function bitsOf(a: Float64Array): string {
  let s = '';
  for (let i = 0; i < a.length; i++) {
    f64[0] = a[i];
    s += hex32(u32[1]) + hex32(u32[0]);
  }
  return s;
}
/** FNV-1a over the characters of a string, 64 bits (two 32-bit halves with Math.imul). */
function fnv(text: string): string {
  let h = 0xcbf29ce4 >>> 0, l = 0x84222325 >>> 0;
  for (let i = 0; i < text.length; i++) {
    l ^= text.charCodeAt(i);
    // multiply (h, l) by the FNV prime 0x100000001b3 modulo 2^64
    const lo = l & 0xffff, hi16 = l >>> 16;
    const a = lo * 0x1b3, b = hi16 * 0x1b3;
    const nl = (a + ((b & 0xffff) << 16)) >>> 0;
    const carry = Math.floor((a + (b & 0xffff) * 65536) / 4294967296) + (b >>> 16);
    h = (Math.imul(h, 0x1b3) + Math.imul(l, 0x100) + carry) >>> 0;
    l = nl;
  }
  return hex32(h) + hex32(l);
}

function checkpoint(world: World, bodies: Body[], step: number): Checkpoint {
  const values: Record<string, string> = {};
  for (const b of bodies) {
    values[`${b.name}.q`] = bitsOf(b.state.q);
    values[`${b.name}.qd`] = bitsOf(b.state.qd);
  }
  f64[0] = world.time;
  const time = hex32(u32[1]) + hex32(u32[0]);
  return { step, time, values, hash: fnv(time + Object.keys(values).map((k) => k + values[k]).join('')) };
}

function run(name: string, world: World, bodies: Body[], steps: number, dt: number, before?: (step: number) => void, first = 0): SceneResult {
  const checkpoints: Checkpoint[] = [checkpoint(world, bodies, first)];
  for (let s = first + 1; s <= first + steps; s++) {
    before?.(s);
    world.step(dt);
    if (s % CHECK_EVERY === 0 || s === first + steps) checkpoints.push(checkpoint(world, bodies, s));
  }
  return { name, checkpoints };
}

/** Sets a free root's position and orientation (quaternion [x, y, z, w]). */
function place(body: Body, p: readonly number[], q: readonly number[] = [0, 0, 0, 1]): void {
  const o = body.model.qOffset[0];
  body.state.q.set(p, o);
  body.state.q.set(q, o + 3);
}

// lying face down: a quarter turn about x, then about y for the crossing layers (exact constants)
const S = Math.SQRT1_2;
const LYING_X: number[] = [-S, 0, 0, S];
const LYING_XY: number[] = [-0.5, 0.5, 0.5, 0.5];

function preset(): Model {
  return characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
}

/** Four humanoid ragdolls dropped criss-cross on a plane. */
function ragdollPile(steps: number): SceneResult {
  const { world, bodies } = pile();
  return run('ragdoll pile', world, bodies, steps, 1 / 60);
}

/** The pile restored from a snapshot taken in V8 at SNAPSHOT_STEP, stepped on from there. */
function restoredPile(snapshot: Uint8Array, steps: number): SceneResult {
  const { world, bodies } = pile();
  world.restore(snapshot);
  return run('ragdoll pile restored from a V8 snapshot', world, bodies, steps, 1 / 60, undefined, SNAPSHOT_STEP);
}

/** world.snapshot() of the pile at SNAPSHOT_STEP, base64. */
export function makeSnapshot(): string {
  const { world } = pile();
  for (let s = 0; s < SNAPSHOT_STEP; s++) world.step(1 / 60);
  return toBase64(world.snapshot());
}

function pile(): { world: World; bodies: Body[] } {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const model = preset();
  const bodies: Body[] = [];
  for (let i = 0; i < 4; i++) {
    const b = world.addBody(model, { name: `ragdoll${i}` });
    const layer = i >> 1, side = i & 1 ? 0.3 : -0.3;
    place(b, layer % 2 === 0 ? [side, 0.3 + 0.45 * layer, 0] : [0, 0.3 + 0.45 * layer, side], layer % 2 === 0 ? LYING_X : LYING_XY);
    bodies.push(b);
  }
  return { world, bodies };
}

/** A chain of 12 links hanging from the world, hinges and ball joints, swung hard against their limits. */
function limitChain(steps: number): SceneResult {
  const b = new ModelBuilder();
  const L = 0.15, m = 0.4, w = 0.03;
  const I = [(m * (L * L + w * w)) / 12, (m * w * w) / 6, (m * (L * L + w * w)) / 12, 0, 0, 0];
  for (let i = 0; i < 12; i++) {
    const ball = i % 3 === 2;
    b.addLink({
      name: `link${i}`,
      parent: i - 1,
      joint: ball
        ? { type: 'spherical', position: i === 0 ? [0, 0, 0] : [0, -L, 0], limits: { swing: [0.4, 0.25], twist: [-0.3, 0.3] } }
        : { type: 'revolute', axis: i % 2 ? [1, 0, 0] : [0, 0, 1], position: i === 0 ? [0, 0, 0] : [0, -L, 0], limits: { lower: -0.35, upper: 0.5 } },
      mass: m,
      com: [0, -L / 2, 0],
      inertia: I,
      shapes: [{ geometry: { type: 'capsule', radius: w, halfLength: L / 2 - w }, position: [0, -L / 2, 0] }],
    });
  }
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' }, position: [0, -2.5, 0] });
  const body = world.addBody(b.build(), { name: 'chain' });
  body.state.q.set([0, 0, 0, 0.7]); // hinge angles of the first links, before any ball joint
  for (let d = 0; d < body.model.nv; d++) body.state.qd[d] = d % 2 ? 2 : -1.5; // swung into the stops
  return run('chain against its limits', world, [body], steps, 1 / 60);
}

function sphereModel(r: number, mass: number): Model {
  const b = new ModelBuilder();
  const I = 0.4 * mass * r * r;
  b.addLink({ name: 'sphere', parent: null, joint: { type: 'free' }, mass, inertia: [I, I, I, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: r }, friction: 0.5 }] });
  return b.build();
}

/** Two ragdolls standing then falling; 0.05 kg spheres at 200-400 m/s fired into them. */
function bullets(steps: number): SceneResult {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const model = preset();
  const bodies: Body[] = [];
  for (let i = 0; i < 2; i++) {
    const b = world.addBody(model, { name: `target${i}` });
    place(b, [1.2 * i, 1.0, 0]);
    bodies.push(b);
  }
  const sphere = sphereModel(0.02, 0.05);
  for (let k = 0; k < 6; k++) {
    const s = world.addBody(sphere, { name: `bullet${k}` });
    place(s, [1.2 * (k & 1), 0.9 + 0.12 * (k >> 1), 3 + 0.5 * k]);
    s.state.qd[5] = -(200 + 40 * k);
    bodies.push(s);
  }
  return run('bullets into ragdolls', world, bodies, steps, 1 / 60);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i], b = i + 1 < bytes.length ? bytes[i + 1] : 0, c = i + 2 < bytes.length ? bytes[i + 2] : 0;
    s += BASE64[a >> 2] + BASE64[((a & 3) << 4) | (b >> 4)];
    s += i + 1 < bytes.length ? BASE64[((b & 15) << 2) | (c >> 6)] : '=';
    s += i + 2 < bytes.length ? BASE64[c & 63] : '=';
  }
  return s;
}

function fromBase64(text: string): Uint8Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) table[BASE64.charCodeAt(i)] = i;
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let acc = 0, bits = 0, o = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | table[clean.charCodeAt(i)];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 255;
    }
  }
  return out;
}

/** A ragdoll built from a glTF skin (its importer's numbers reach the model), dropped on its back. */
function gltfRagdoll(glb: Uint8Array, steps: number): SceneResult {
  const imported = importGltf(glb, { file: 'character.glb' });
  const { model } = ragdollFromSkeleton(imported.skeleton, { mass: 62.5 });
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(model, { name: 'gltf' });
  place(body, [0, 1.2, 0], LYING_X);
  body.state.qd[model.qOffset[0] === 0 ? 3 : 0] = 1.5; // a push along x (free root: angular, then linear)
  return run('glTF ragdoll', world, [body], steps, 1 / 60);
}

/** The humanoid preset following a retargeted CMU walk with an assisted root, shot dead halfway. */
function walkAndDie(bvhText: string, steps: number): SceneResult {
  const { clip } = importBvh(bvhText, { scale: BVH_SCALE.cmu });
  const model = preset();
  const walk = retargetClip(model, clip, { map: CMU_TO_HUMANOID, frames: [1, Math.min(clip.frameCount - 1, 240)] }).trajectory;
  const world = new World({ solver: { maxIterations: 100 } });
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(model, { name: 'hero' });
  excludeOverlappingLinkPairs(world, body, walk);
  const hero = new MotionFollower(world, body, { trajectory: walk, root: 'assisted' });
  const chest = model.linkIndex('thorax');
  const p = body.state.work.pose;
  return run('walk, follow and die', world, [body], steps, 1 / 120, (s) => {
    if (s === steps >> 1) hero.die({ impulse: { link: chest, point: [p[12 * chest + 9], p[12 * chest + 10] + 0.15, p[12 * chest + 11] + 0.1], impulse: [0, 0, -80] } });
  });
}

/** The scenes named in input.steps (pile, chain, bullets, gltf, walk, restored), each for its number of steps. */
export function runAll(input: SceneInput): SceneResult[] {
  const n = input.steps;
  const out: SceneResult[] = [];
  const timed = (scene: () => SceneResult) => {
    const t0 = Date.now();
    const r = scene();
    r.ms = Date.now() - t0;
    out.push(r);
  };
  if (n.pile) timed(() => ragdollPile(n.pile));
  if (n.chain) timed(() => limitChain(n.chain));
  if (n.bullets) timed(() => bullets(n.bullets));
  if (n.gltf) timed(() => gltfRagdoll(fromBase64(input.glbBase64), n.gltf));
  if (n.walk) timed(() => walkAndDie(input.bvh, n.walk));
  if (n.restored && input.snapshotBase64) timed(() => restoredPile(fromBase64(input.snapshotBase64!), n.restored));
  return out;
}
