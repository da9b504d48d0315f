/**
 * Same input, same bits; the order in which bodies are registered and the history of earlier
 * steps do not change the contact set; feature ids stay the same while a shape slides a little.
 */
import { describe, expect, it } from 'vitest';
import type { ShapeDesc } from '@sinew/featherstone';
import { CollisionWorld } from '../src/collision/index.js';
import { CONTACT_F64_STRIDE, CONTACT_I32_STRIDE, CONTACT_SHAPE_A, CONTACT_SHAPE_B } from '../src/internals.js';
import {
  IDENTITY, type Contact, add, makePose, mulberry32, norm, quatAxisAngle, randomRotation, readContacts, rotationAxisAngle, sub,
} from './collision-helpers.js';

interface BodySpec {
  links: number;
  shapes: { link: number; desc: ShapeDesc }[];
}

function ragdollSpecs(seed: number, count: number): BodySpec[] {
  const rand = mulberry32(seed);
  const specs: BodySpec[] = [];
  for (let b = 0; b < count; b++) {
    const links = 10;
    const shapes: BodySpec['shapes'] = [];
    for (let l = 0; l < links; l++) {
      const k = Math.floor(3 * rand());
      const desc: ShapeDesc =
        k === 0 ? { geometry: { type: 'sphere', radius: 0.1 + 0.05 * rand() } }
        : k === 1 ? { geometry: { type: 'capsule', radius: 0.06, halfLength: 0.15 + 0.1 * rand() }, position: [0, 0.05, 0] }
        : { geometry: { type: 'box', halfExtents: [0.12, 0.08 + 0.05 * rand(), 0.1] }, rotation: quatAxisAngle([0, 1, 0], rand()) };
      shapes.push({ link: l, desc });
      if (rand() < 0.3) shapes.push({ link: l, desc: { geometry: { type: 'sphere', radius: 0.05 }, position: [0.1, 0, 0] } });
    }
    specs.push({ links, shapes });
  }
  return specs;
}

const statics: ShapeDesc[] = [
  { geometry: { type: 'plane' } },
  { geometry: { type: 'trimesh', vertices: [0, 0.02, 0, 1.5, 0.1, 0, 1.5, 0.02, 1.5, 0, 0.15, 1.5], indices: [0, 2, 1, 0, 3, 2] }, position: [-0.5, 0, -0.5] },
  { geometry: { type: 'heightfield', rows: 5, cols: 5, spacingX: 0.4, spacingZ: 0.4, heights: [0, 0.05, 0.1, 0.02, 0, 0.04, 0.12, 0.08, 0, 0.03, 0.1, 0.02, 0.2, 0.05, 0, 0, 0.06, 0.03, 0.09, 0.01, 0.02, 0, 0.07, 0.04, 0] }, position: [1, -0.05, -1] },
  { geometry: { type: 'box', halfExtents: [0.3, 0.2, 0.3] }, position: [0.5, 0.2, 0.8] },
];

/** Random piles of links over the floor (some resting, some interpenetrating). */
function randomPoses(seed: number, specs: BodySpec[]): Float64Array[] {
  const rand = mulberry32(seed);
  return specs.map(() => {
    const root = [2 * rand() - 0.5, 0, 2 * rand() - 0.5];
    const lp = new Float64Array(12 * 10);
    for (let l = 0; l < 10; l++) lp.set(makePose(randomRotation(rand), add(root, [0.6 * (rand() - 0.5), 0.05 + 0.4 * rand(), 0.6 * (rand() - 0.5)])), 12 * l);
    return lp;
  });
}

function build(specs: BodySpec[], order: number[], staticsFirst: boolean): { world: CollisionWorld; owner: Map<number, string> } {
  const world = new CollisionWorld({ margin: 0.01, contactCapacity: 16, pairCapacity: 16 });
  const owner = new Map<number, string>();
  const addStatics = () => statics.forEach((d, i) => owner.set(world.addStaticShape(d), `static ${i}`));
  if (staticsFirst) addStatics();
  for (const b of order) {
    world.setBody(b, specs[b].links);
    specs[b].shapes.forEach((s, i) => owner.set(world.addDynamicShape(b, s.link, s.desc), `body ${b} shape ${i}`));
  }
  if (!staticsFirst) addStatics();
  return { world, owner };
}

function detectAll(world: CollisionWorld, poses: Float64Array[]): number {
  let n = world.detect(poses);
  while (world.overflowed) {
    world.growToFit();
    n = world.detect(poses);
  }
  return n;
}

describe('determinism', () => {
  const specs = ragdollSpecs(5, 8);
  const poses = randomPoses(6, specs);
  const order = specs.map((_, i) => i);

  it('the same input gives bit-identical contacts, in a new world and after other steps', () => {
    const a = build(specs, order, true).world, b = build(specs, order, true).world;
    const n = detectAll(a, poses);
    expect(n).toBeGreaterThan(40);
    expect(detectAll(b, poses)).toBe(n);
    const bitsA = new Uint8Array(a.contacts.f64.buffer, 0, 8 * n * CONTACT_F64_STRIDE);
    const bitsB = new Uint8Array(b.contacts.f64.buffer, 0, 8 * n * CONTACT_F64_STRIDE);
    expect(Buffer.compare(bitsA, bitsB)).toBe(0);
    expect(Array.from(a.contacts.i32.subarray(0, n * CONTACT_I32_STRIDE))).toEqual(Array.from(b.contacts.i32.subarray(0, n * CONTACT_I32_STRIDE)));
    const saved = a.contacts.f64.slice(0, n * CONTACT_F64_STRIDE);
    // Other poses in between must leave no trace.
    for (let s = 0; s < 3; s++) detectAll(a, randomPoses(100 + s, specs));
    expect(detectAll(a, poses)).toBe(n);
    expect(Buffer.compare(new Uint8Array(saved.buffer), new Uint8Array(a.contacts.f64.buffer, 0, 8 * n * CONTACT_F64_STRIDE))).toBe(0);
  });

  it('registering bodies in another order (and statics last) gives the same contacts', () => {
    const first = build(specs, order, true);
    const shuffled = [3, 7, 0, 5, 1, 6, 2, 4];
    const second = build(specs, shuffled, false);
    const n = detectAll(first.world, poses);
    expect(detectAll(second.world, poses)).toBe(n);
    const f1 = first.world.contacts.f64, f2 = second.world.contacts.f64;
    expect(Buffer.compare(new Uint8Array(f1.buffer, 0, 8 * n * CONTACT_F64_STRIDE), new Uint8Array(f2.buffer, 0, 8 * n * CONTACT_F64_STRIDE))).toBe(0);
    const i1 = first.world.contacts.i32, i2 = second.world.contacts.i32;
    for (let c = 0; c < n; c++) {
      for (let k = 0; k < CONTACT_I32_STRIDE; k++) {
        const o = c * CONTACT_I32_STRIDE + k;
        if (k === CONTACT_SHAPE_A || k === CONTACT_SHAPE_B) expect(second.owner.get(i2[o])).toBe(first.owner.get(i1[o]));
        else expect(i2[o]).toBe(i1[o]);
      }
    }
  });
});

describe('feature ids are stable while a shape slides', () => {
  const key = (c: Contact) => `${c.shapeA}/${c.shapeB}/${c.subShape}/${c.feature}`;

  /** Contacts before and after moving shape A (body 0) by `step`: same keys, points moved by step. */
  function slide(dynamic: ShapeDesc, pose: Float64Array, other: ShapeDesc, otherPose: Float64Array | null, step: [number, number, number], exact = true): number {
    const run = (p: Float64Array) => {
      const w = new CollisionWorld({ margin: 0.01 });
      w.setBody(0, 1);
      w.addDynamicShape(0, 0, dynamic);
      if (otherPose === null) {
        w.addStaticShape(other);
        w.detect([p]);
      } else {
        w.setBody(1, 1);
        w.addDynamicShape(1, 0, other);
        w.detect([p, otherPose]);
      }
      return readContacts(w.contacts);
    };
    const before = run(pose);
    const moved = Float64Array.from(pose);
    moved[9] += step[0]; moved[10] += step[1]; moved[11] += step[2];
    const after = run(moved);
    expect(after.map(key).sort()).toEqual(before.map(key).sort());
    expect(new Set(before.map(key)).size).toBe(before.length);
    for (const c of before) {
      const d = after.find((x) => key(x) === key(c)) as Contact;
      // Points at a vertex of the moving shape move with it; points cut by the other shape's
      // edges slide along those edges, never farther than the step.
      if (exact) expect(norm(sub(sub(d.pointA, c.pointA), step))).toBeLessThan(1e-12);
      else expect(norm(sub(d.pointA, c.pointA))).toBeLessThanOrEqual(norm(step) * (1 + 1e-9));
    }
    return before.length;
  }

  const boxDesc: ShapeDesc = { geometry: { type: 'box', halfExtents: [0.3, 0.2, 0.25] } };
  const yawed = makePose(rotationAxisAngle([0, 1, 0], 0.3), [0.1, 0.198, 0.2]);

  it('box on a plane, a box, a trimesh floor and a heightfield', () => {
    expect(slide(boxDesc, yawed, { geometry: { type: 'plane' } }, null, [0.001, 0, 0.0005])).toBe(4);
    const top = makePose(rotationAxisAngle([0, 1, 0], 0.3), [0.1, 1 + 0.2 - 0.002, 0.2]);
    expect(slide(boxDesc, top, { geometry: { type: 'box', halfExtents: [1, 1, 1] } }, makePose(IDENTITY, [0, 0, 0]), [0.001, 0, -0.001])).toBe(4);
    const floor: ShapeDesc = { geometry: { type: 'trimesh', vertices: [-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2], indices: [0, 2, 1, 0, 3, 2] } };
    expect(slide(boxDesc, yawed, floor, null, [0.001, 0, 0.0005])).toBe(4);
    const field: ShapeDesc = { geometry: { type: 'heightfield', rows: 9, cols: 9, spacingX: 0.5, spacingZ: 0.5, heights: new Array(81).fill(0) }, position: [-2, 0, -2] };
    expect(slide(boxDesc, yawed, field, null, [0.001, 0, 0.0005])).toBe(4);
  });

  it('box hanging over a box edge (clipped points) and capsules lying on a box and a plane', () => {
    const over = makePose(rotationAxisAngle([0, 1, 0], 0.2), [1, 1 + 0.2 - 0.002, 0]);
    expect(slide(boxDesc, over, { geometry: { type: 'box', halfExtents: [1, 1, 1] } }, makePose(IDENTITY, [0, 0, 0]), [0.001, 0, 0.001], false)).toBe(4);
    const capsuleDesc: ShapeDesc = { geometry: { type: 'capsule', radius: 0.1, halfLength: 0.5 } };
    const lying = makePose(rotationAxisAngle([0, 0, 1], Math.PI / 2), [0.9, 1 + 0.1 - 0.001, 0.3]);
    expect(slide(capsuleDesc, lying, { geometry: { type: 'box', halfExtents: [1, 1, 1] } }, makePose(IDENTITY, [0, 0, 0]), [0.001, 0, 0.001], false)).toBe(2);
    const onFloor = makePose(rotationAxisAngle([0, 0, 1], Math.PI / 2), [0, 0.099, 0]);
    expect(slide(capsuleDesc, onFloor, { geometry: { type: 'plane' } }, null, [0.001, 0, 0.001])).toBe(2);
  });

  it('sphere rolling across a heightfield triangle edge keeps one contact per feature', () => {
    const field: ShapeDesc = { geometry: { type: 'heightfield', rows: 3, cols: 3, spacingX: 1, spacingZ: 1, heights: [0, 0, 0, 0, 0.2, 0, 0, 0, 0] } };
    // Over the middle of a sloped face, away from its edges.
    const pose = makePose(IDENTITY, [0.65, 0.3, 0.4]);
    expect(slide({ geometry: { type: 'sphere', radius: 0.25 } }, pose, field, null, [0.001, 0, 0])).toBe(1);
  });
});
