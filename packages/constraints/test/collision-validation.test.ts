/**
 * Bad input is refused with an error that names the shape and says what was expected.
 */
import { describe, expect, it } from 'vitest';
import type { ShapeDesc } from '@sinew/featherstone';
import { CollisionShapeError, CollisionWorld } from '../src/collision/index.js';
import { IDENTITY, makePose } from './collision-helpers.js';

function dynamicError(desc: ShapeDesc, name?: string): string {
  const w = new CollisionWorld();
  w.setBody(2, 4);
  try {
    w.addDynamicShape(2, 3, desc, name);
  } catch (e) {
    expect(e).toBeInstanceOf(CollisionShapeError);
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

function staticError(desc: ShapeDesc): string {
  const w = new CollisionWorld();
  w.addStaticShape({ geometry: { type: 'plane' } });
  try {
    w.addStaticShape(desc, 'terrain');
  } catch (e) {
    expect(e).toBeInstanceOf(CollisionShapeError);
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('shape errors name the shape and what was expected', () => {
  it('non-positive or non-finite radius', () => {
    expect(dynamicError({ geometry: { type: 'sphere', radius: 0 } })).toBe('shape 0 (body 2, link 3) (sphere): radius must be a finite number > 0, got 0');
    expect(dynamicError({ geometry: { type: 'sphere', radius: -1 } }, 'head')).toBe('shape 0 (body 2, link 3, "head") (sphere): radius must be a finite number > 0, got -1');
    expect(dynamicError({ geometry: { type: 'capsule', radius: NaN, halfLength: 1 } })).toContain('radius must be a finite number > 0, got NaN');
    expect(dynamicError({ geometry: { type: 'capsule', radius: 0.1, halfLength: -0.2 } })).toContain('halfLength must be a finite number >= 0, got -0.2');
  });

  it('bad box half extents', () => {
    expect(dynamicError({ geometry: { type: 'box', halfExtents: [1, 0, 1] } })).toContain('halfExtents must be 3 finite numbers > 0, got [1, 0, 1]');
    expect(dynamicError({ geometry: { type: 'box', halfExtents: [1, 1] as unknown as [number, number, number] } })).toContain('halfExtents must be 3 finite numbers, got [1, 1]');
  });

  it('NaN position, zero quaternion, bad material and filter bits', () => {
    expect(dynamicError({ geometry: { type: 'sphere', radius: 1 }, position: [0, NaN, 0] })).toBe('shape 0 (body 2, link 3) (sphere): position must be 3 finite numbers, got [0, NaN, 0]');
    expect(dynamicError({ geometry: { type: 'sphere', radius: 1 }, rotation: [0, 0, 0, 0] })).toContain('rotation must be a non-zero quaternion [x, y, z, w], got [0, 0, 0, 0]');
    expect(dynamicError({ geometry: { type: 'sphere', radius: 1 }, friction: -0.1 })).toContain('friction must be a finite number >= 0, got -0.1');
    expect(dynamicError({ geometry: { type: 'sphere', radius: 1 }, restitution: 1.5 })).toContain('restitution must be a number in [0, 1], got 1.5');
    expect(dynamicError({ geometry: { type: 'sphere', radius: 1 }, group: 1.5 })).toContain('group must be an integer bit mask (32 bits), got 1.5');
  });

  it('static-only geometry on a link', () => {
    expect(dynamicError({ geometry: { type: 'plane' } })).toBe(
      'shape 0 (body 2, link 3) (plane): a plane is static geometry (an infinite half-space); add it with addStaticShape, not to a link, got a dynamic link');
    expect(dynamicError({ geometry: { type: 'trimesh', vertices: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 2, 1] } })).toContain('a triangle mesh is static geometry');
    expect(dynamicError({ geometry: { type: 'heightfield', rows: 2, cols: 2, spacingX: 1, spacingZ: 1, heights: [0, 0, 0, 0] } })).toContain('a heightfield is static geometry');
  });

  it('heightfield whose heights count is not rows * cols', () => {
    expect(staticError({ geometry: { type: 'heightfield', rows: 3, cols: 4, spacingX: 1, spacingZ: 1, heights: new Array(11).fill(0) } })).toBe(
      'static shape 1 "terrain" (heightfield): heights must hold rows * cols = 3 * 4 = 12 values, got 11 values');
    expect(staticError({ geometry: { type: 'heightfield', rows: 1, cols: 4, spacingX: 1, spacingZ: 1, heights: [0, 0, 0, 0] } })).toContain('rows must be an integer >= 2, got 1');
    expect(staticError({ geometry: { type: 'heightfield', rows: 2, cols: 2, spacingX: 0, spacingZ: 1, heights: [0, 0, 0, 0] } })).toContain('spacingX must be a finite number > 0, got 0');
    expect(staticError({ geometry: { type: 'heightfield', rows: 2, cols: 2, spacingX: 1, spacingZ: 1, heights: [0, 0, Infinity, 0] } })).toContain('heights[2] (row 1, col 0) must be finite, got Infinity');
  });

  it('triangle mesh with an index out of range or a ragged array', () => {
    expect(staticError({ geometry: { type: 'trimesh', vertices: [0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1], indices: [0, 2, 1, 1, 7, 3] } })).toBe(
      'static shape 1 "terrain" (trimesh): indices[4] (triangle 1) must be an integer vertex index in [0, 3], got 7');
    expect(staticError({ geometry: { type: 'trimesh', vertices: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 2, -1] } })).toContain('indices[2] (triangle 0) must be an integer vertex index in [0, 2], got -1');
    expect(staticError({ geometry: { type: 'trimesh', vertices: [0, 0, 0, 1, 0], indices: [0, 1, 2] } })).toContain('vertices must hold 3 numbers per vertex');
    expect(staticError({ geometry: { type: 'trimesh', vertices: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 2] } })).toContain('indices must hold 3 vertex indices per triangle');
    expect(staticError({ geometry: { type: 'trimesh', vertices: [0, 0, 0, 1, 0, 0, 2, 0, 0], indices: [0, 1, 2] } })).toContain('at least one triangle of non-zero area');
  });

  it('convex hulls without volume, with too few or non-finite points, are refused naming the shape', () => {
    const flat = dynamicError({ geometry: { type: 'convex', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 0] } });
    expect(flat).toMatch(/^shape 0 \(body 2, link 3\) \(convex\): /);
    expect(flat).toMatch(/coplanar|flat|volume/);
    expect(dynamicError({ geometry: { type: 'convex', points: [0, 0, 0, 1, 0, 0, 0, 1, 0] } })).toMatch(/4|four/);
    expect(dynamicError({ geometry: { type: 'convex', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, Infinity] } })).toMatch(/finite|Infinity/);
    expect(dynamicError({ geometry: { type: 'convex', points: [0, 0, 0, 1, 0, 0, 0, 1] } })).toMatch(/multiple of 3|3 numbers/);
    expect(dynamicError({ geometry: { type: 'convex', points: 'abc' as unknown as number[] } })).toContain('points must be an array');
  });

  it('undeclared bodies, links out of range, bad link poses', () => {
    const w = new CollisionWorld();
    expect(() => w.addDynamicShape(0, 0, { geometry: { type: 'sphere', radius: 1 } })).toThrow('body 0 is not declared; call setBody(0, linkCount) first');
    w.setBody(0, 2);
    expect(() => w.addDynamicShape(0, 2, { geometry: { type: 'sphere', radius: 1 } })).toThrow('link must be an integer in [0, 1] for body 0, got 2');
    w.addDynamicShape(0, 1, { geometry: { type: 'sphere', radius: 1 } });
    expect(() => w.update([])).toThrow('linkPoses[0] must hold 12 numbers per link (24 numbers for body 0), got undefined');
    expect(() => w.update([new Float64Array(12)])).toThrow('got 12 numbers');
    const lp = new Float64Array(24);
    lp.set(makePose(IDENTITY, [0, 0, 0]), 0);
    lp.set(makePose(IDENTITY, [0, NaN, 0]), 12);
    expect(() => w.update([lp])).toThrow('the pose of body 0 link 1 is not finite (numbers 12..23 of linkPoses[0])');
    expect(() => new CollisionWorld({ margin: -1 })).toThrow('margin must be a finite number >= 0, got -1');
    expect(() => w.excludeLinkPair(0, 0, 5)).toThrow('link 5 of body 0 must be an integer in [0, 1]');
  });
});
