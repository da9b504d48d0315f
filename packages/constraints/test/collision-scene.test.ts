/**
 * The collision world as a container: shape poses follow link poses and local offsets, contacts
 * carry their owners, manifolds list contiguous contacts, full buffers report overflow instead of
 * growing in the step, and growToFit then recovers the full result.
 */
import { describe, expect, it } from 'vitest';
import type { ShapeDesc } from '@sinew/featherstone';
import { CollisionWorld } from '../src/collision/index.js';
import { MANIFOLD_COUNT, MANIFOLD_FIRST, MANIFOLD_SHAPE_A, MANIFOLD_SHAPE_B, MANIFOLD_STRIDE } from '../src/internals.js';
import { IDENTITY, makePose, mulberry32, quatAxisAngle, randomRotation, readContacts, rotationAxisAngle } from './collision-helpers.js';

function pile(world: CollisionWorld, seed: number): Float64Array[] {
  const rand = mulberry32(seed);
  world.addStaticShape({ geometry: { type: 'plane' } });
  const poses: Float64Array[] = [];
  for (let b = 0; b < 6; b++) {
    world.setBody(b, 5, { excludedLinkPairs: [[0, 1], [1, 2], [2, 3], [3, 4]] });
    const lp = new Float64Array(60);
    for (let l = 0; l < 5; l++) {
      world.addDynamicShape(b, l, l % 2 ? { geometry: { type: 'box', halfExtents: [0.15, 0.1, 0.12] } } : { geometry: { type: 'capsule', radius: 0.07, halfLength: 0.2 } });
      lp.set(makePose(randomRotation(rand), [0.8 * rand(), 0.05 + 0.4 * rand(), 0.8 * rand()]), 12 * l);
    }
    poses.push(lp);
  }
  return poses;
}

describe('collision world', () => {
  it('shape world pose = link pose composed with the local offset', () => {
    const w = new CollisionWorld();
    w.setBody(0, 2);
    const q = quatAxisAngle([0, 0, 1], 0.5);
    const h = w.addDynamicShape(0, 1, { geometry: { type: 'capsule', radius: 0.1, halfLength: 0.3 }, position: [0.1, 0.2, 0.3], rotation: q });
    const link = rotationAxisAngle([1, 1, 0], 0.7);
    const lp = new Float64Array(24);
    lp.set(makePose(IDENTITY, [9, 9, 9]), 0);
    lp.set(makePose(link, [1, 2, 3]), 12);
    w.update([lp]);
    const pose = w.getShapeWorldPose(h, new Float64Array(12));
    // R = R_link R_local; p = R_link p_local + p_link.
    const local = rotationAxisAngle([0, 0, 1], 0.5);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        let r = 0;
        for (let k = 0; k < 3; k++) r += link[3 * i + k] * local[3 * k + j];
        expect(pose[3 * i + j]).toBeCloseTo(r, 14);
      }
      const p = link[3 * i] * 0.1 + link[3 * i + 1] * 0.2 + link[3 * i + 2] * 0.3 + [1, 2, 3][i];
      expect(pose[9 + i]).toBeCloseTo(p, 14);
    }
    expect(w.shapeKind(h)).toBe('capsule');
    expect(w.shapeOwner(h)).toEqual([0, 1]);
  });

  it('contacts carry body and link of both shapes; manifolds list them contiguously by pair', () => {
    const w = new CollisionWorld();
    const poses = pile(w, 3);
    w.detect(poses);
    expect(w.overflowed).toBe(false);
    const cs = readContacts(w.contacts);
    expect(cs.length).toBeGreaterThan(10);
    let covered = 0;
    const m = w.contacts.manifolds;
    for (let i = 0; i < w.contacts.manifoldCount; i++) {
      const o = i * MANIFOLD_STRIDE;
      expect(m[o + MANIFOLD_FIRST]).toBe(covered);
      const n = m[o + MANIFOLD_COUNT];
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(4);
      for (let c = covered; c < covered + n; c++) {
        expect(cs[c].shapeA).toBe(m[o + MANIFOLD_SHAPE_A]);
        expect(cs[c].shapeB).toBe(m[o + MANIFOLD_SHAPE_B]);
      }
      covered += n;
    }
    expect(covered).toBe(cs.length);
    for (const c of cs) {
      expect([c.bodyA, c.linkA]).toEqual(w.shapeOwner(c.shapeA));
      expect([c.bodyB, c.linkB]).toEqual(w.shapeOwner(c.shapeB));
      expect(c.bodyA).toBeGreaterThanOrEqual(0);
      if (c.bodyA === c.bodyB) expect(Math.abs(c.linkA - c.linkB)).toBeGreaterThan(1); // parent-child pairs excluded
    }
  });

  it('full buffers drop and count instead of growing; growToFit then gives the full result', () => {
    const big = new CollisionWorld();
    const posesBig = pile(big, 4);
    const n = big.detect(posesBig);
    const full = readContacts(big.contacts);
    const small = new CollisionWorld({ contactCapacity: 3, pairCapacity: 2 });
    const poses = pile(small, 4);
    small.detect(poses);
    expect(small.overflowed).toBe(true);
    expect(small.contacts.count).toBeLessThanOrEqual(3);
    const f64 = small.contacts.f64;
    small.growToFit();
    small.detect(poses);
    if (small.overflowed) {
      // The pair list grew first; now the contact count is known too.
      small.growToFit();
      small.detect(poses);
    }
    expect(small.overflowed).toBe(false);
    expect(small.contacts.f64).not.toBe(f64);
    expect(small.contacts.count).toBe(n);
    expect(readContacts(small.contacts)).toEqual(full);
  });

  it('a static sphere, capsule or box gives the same contacts as the same shape on a link', () => {
    const rand = mulberry32(12);
    const kinds: ShapeDesc[] = [
      { geometry: { type: 'sphere', radius: 0.3 } },
      { geometry: { type: 'capsule', radius: 0.15, halfLength: 0.4 } },
      { geometry: { type: 'box', halfExtents: [0.4, 0.2, 0.3] } },
    ];
    for (const a of kinds) {
      for (const b of kinds) {
        const poseA = makePose(randomRotation(rand), [0.1, 0.3, 0]);
        const q = quatAxisAngle([1, 2, 3], 0.7);
        const at: [number, number, number] = [0.05, -0.15, 0.1];
        const moving = new CollisionWorld();
        moving.setBody(0, 1);
        moving.setBody(1, 1);
        moving.addDynamicShape(0, 0, a);
        moving.addDynamicShape(1, 0, b);
        const posed = new CollisionWorld();
        posed.setBody(0, 1);
        posed.addDynamicShape(0, 0, a);
        posed.addStaticShape({ ...b, position: at, rotation: q });
        // The same pose for B, once as a link pose and once as the static pose.
        posed.update([poseA]);
        const poseB = posed.getShapeWorldPose(1, new Float64Array(12));
        moving.detect([poseA, poseB]);
        posed.detect([poseA]);
        const m = readContacts(moving.contacts), p = readContacts(posed.contacts);
        expect(p.length).toBe(m.length);
        expect(m.length).toBeGreaterThan(0);
        for (let i = 0; i < m.length; i++) {
          expect(p[i].pointA).toEqual(m[i].pointA);
          expect(p[i].normal).toEqual(m[i].normal);
          expect(p[i].depth).toBe(m[i].depth);
          expect(p[i].feature).toBe(m[i].feature);
          expect([p[i].bodyB, p[i].linkB]).toEqual([-1, -1]);
        }
      }
    }
  });

  it('moving a static shape moves its contacts', () => {
    const w = new CollisionWorld();
    w.setBody(0, 1);
    w.addDynamicShape(0, 0, { geometry: { type: 'sphere', radius: 0.5 } });
    const ground = w.addStaticShape({ geometry: { type: 'box', halfExtents: [2, 0.5, 2] }, position: [0, -0.5, 0] });
    const pose = makePose(IDENTITY, [0, 0.49, 0]);
    w.detect([pose]);
    expect(readContacts(w.contacts)[0].depth).toBeCloseTo(0.01, 14);
    w.setStaticPose(ground, [0, -0.48, 0]);
    w.detect([pose]);
    expect(readContacts(w.contacts)[0].depth).toBeCloseTo(0.03, 14);
    expect(() => w.setStaticPose(0, [0, 0, 0])).toThrow('0 is not a static shape handle');
  });
});
