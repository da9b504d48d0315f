/**
 * Body's link readers (linkPosition, linkRotation, pointVelocity): checked against featherstone's
 * own forward kinematics on a separate State, against the free joint's quaternion, and
 * pointVelocity against central finite differences of linkPosition and linkRotation; reading
 * every step leaves a world's simulation bit for bit as it is without reading.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, State, forwardKinematics, integratePositions, pointPosition, type Model } from '@sinew/featherstone';
import { Body, World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';
import { stateBits, sameBits } from './state-bits.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

/** A valid random state: q moved from the model's neutral q along random velocities (quaternions stay unit). */
function randomState(model: Model, state: State, rand: () => number): void {
  const dir = new Float64Array(model.nv);
  for (let k = 0; k < model.nv; k++) dir[k] = 2 * rand() - 1;
  integratePositions(model, state.q, dir, 0.8);
  for (let k = 0; k < model.nv; k++) state.qd[k] = 4 * rand() - 2;
}

/** Rotation matrix (row-major) of a unit quaternion [x, y, z, w]. */
function matrixOfQuaternion(q: ArrayLike<number>): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

function freeBox(): Model {
  const b = new ModelBuilder();
  b.addLink({ name: 'crate', parent: null, joint: { type: 'free' }, mass: 2, inertia: [0.1, 0.2, 0.3, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: [0.2, 0.1, 0.3] } }] });
  return b.build();
}

describe('link readers', () => {
  it('linkPosition and linkRotation match featherstone forward kinematics on every link of random humanoid states', () => {
    const model = humanoidTree();
    const body = new Body(0, 'hero', model);
    const rand = rng(7);
    const ref = new State(model);
    const p = new Float64Array(3), quat = new Float64Array(4);
    for (let trial = 0; trial < 20; trial++) {
      randomState(model, body.state, rand);
      ref.q.set(body.state.q); ref.qd.set(body.state.qd);
      forwardKinematics(model, ref, true);
      for (let i = 0; i < model.nLinks; i++) {
        pointPosition(ref, i, [0, 0, 0], p);
        const got = body.linkPosition(i);
        expect([...got]).toEqual([...p]);
        body.linkRotation(model.linkNames[i], quat);
        expect(Math.hypot(quat[0], quat[1], quat[2], quat[3])).toBeCloseTo(1, 14);
        const R = matrixOfQuaternion(quat);
        for (let k = 0; k < 9; k++) expect(Math.abs(R[k] - ref.work.pose[12 * i + k])).toBeLessThan(1e-14);
      }
    }
  });

  it("linkRotation of a free rigid body is its free joint's quaternion (up to sign)", () => {
    const model = freeBox();
    const body = new Body(0, 'crate', model);
    const rand = rng(3);
    for (let trial = 0; trial < 50; trial++) {
      randomState(model, body.state, rand);
      const q = body.state.q, r = body.linkRotation('crate');
      const sign = Math.sign(r[3] * q[6] + r[0] * q[3] + r[1] * q[4] + r[2] * q[5]);
      for (let k = 0; k < 4; k++) expect(Math.abs(sign * r[k] - q[3 + k])).toBeLessThan(1e-15);
      expect([...body.linkPosition(0)]).toEqual([q[0], q[1], q[2]]);
    }
  });

  it('pointVelocity matches central differences of linkPosition + linkRotation along qd', () => {
    const model = humanoidTree();
    const body = new Body(0, 'hero', model);
    const rand = rng(11);
    const h = 1e-6;
    const at = (q: Float64Array, link: number, local: number[]): number[] => {
      body.state.q.set(q);
      const o = body.linkPosition(link), R = matrixOfQuaternion(body.linkRotation(link));
      return [0, 1, 2].map((r) => o[r] + R[3 * r] * local[0] + R[3 * r + 1] * local[1] + R[3 * r + 2] * local[2]);
    };
    let worst = 0;
    for (let trial = 0; trial < 10; trial++) {
      randomState(model, body.state, rand);
      const q0 = Float64Array.from(body.state.q), qd = body.state.qd;
      for (let i = 0; i < model.nLinks; i++) {
        const local = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
        body.state.q.set(q0);
        const v = body.pointVelocity(model.linkNames[i], local);
        const qp = Float64Array.from(q0), qm = Float64Array.from(q0);
        integratePositions(model, qp, qd, h);
        integratePositions(model, qm, qd, -h);
        const a = at(qp, i, local), b = at(qm, i, local);
        for (let r = 0; r < 3; r++) {
          const fd = (a[r] - b[r]) / (2 * h);
          worst = Math.max(worst, Math.abs(fd - v[r]) / (1 + Math.abs(v[r])));
        }
      }
    }
    expect(worst).toBeLessThan(1e-6);
    expect(worst).toBeGreaterThan(0); // (the two computations share no code: their roundings differ)
  });

  it('writes into gl-matrix Float32Array vec3/quat, Float64Array and plain arrays alike', () => {
    const model = humanoidTree();
    const body = new Body(0, 'hero', model);
    randomState(model, body.state, rng(5));
    const link = model.nLinks - 1;
    const p64 = body.linkPosition(link, new Float64Array(3));
    const p32 = body.linkPosition(link, new Float32Array(3));
    const pArr = body.linkPosition(link, [0, 0, 0]);
    const q32 = body.linkRotation(link, new Float32Array(4));
    const qArr = body.linkRotation(link, [0, 0, 0, 0]);
    const v32 = body.pointVelocity(link, new Float32Array([0.1, 0, 0]), new Float32Array(3));
    const v64 = body.pointVelocity(link, [0.1, 0, 0]);
    expect(p32).toBeInstanceOf(Float32Array);
    expect(pArr).toEqual([...p64]);
    expect([...p32]).toEqual([...Float32Array.from(p64)]);
    expect([...q32]).toEqual([...Float32Array.from(qArr)]);
    expect([...v32]).toEqual([...Float32Array.from(v64)]);
  });

  it('refuses a bad link or output with an error naming the body and the link', () => {
    const body = new Body(0, 'hero', humanoidTree());
    expect(() => body.linkPosition(99)).toThrow(/Body "hero"\.linkPosition: link 99 is not a link index \(the model has 20 links/);
    expect(() => body.linkRotation(-1)).toThrow(/link -1 is not a link index/);
    expect(() => body.linkRotation(1.5)).toThrow(/link 1.5 is not a link index/);
    expect(() => body.pointVelocity('wing', [0, 0, 0])).toThrow(/Body "hero"\.pointVelocity: no link named "wing" \(links: pelvis/);
    expect(() => body.linkRotation(0, new Float32Array(3))).toThrow(/out must be an array of at least 4 numbers, got length 3/);
    expect(() => body.pointVelocity(0, [0, NaN, 0])).toThrow(/localPoint must hold three finite numbers/);
  });

  it('reading every link every step leaves the simulation bit for bit as without reading', () => {
    const run = (read: boolean): { bits: Uint8Array; seen: number } => {
      const world = new World();
      world.addStatic({ geometry: { type: 'plane' } });
      const hero = world.addBody(humanoidTree({ dampingTime: 0.25 }), { name: 'hero' });
      hero.state.q[1] = 1.2;
      const crate = world.addBody(freeBox(), { name: 'crate' });
      crate.state.q.set([0.1, 2.2, 0.05], 0);
      const p = new Float32Array(3), r = new Float32Array(4), v = new Float64Array(3);
      let seen = 0;
      const readAll = (): void => {
        for (const b of world.bodies) {
          for (let i = 0; i < b.model.nLinks; i++) {
            b.linkPosition(i, p); b.linkRotation(i, r); b.pointVelocity(i, [0.05, 0.02, 0], v);
            seen += p[1];
          }
        }
      };
      for (let s = 0; s < 150; s++) {
        if (read) readAll();
        world.step(1 / 60);
        if (read) readAll();
      }
      return { bits: stateBits(world), seen };
    };
    const plain = run(false), read = run(true);
    expect(sameBits(plain.bits, read.bits)).toBe(true);
    expect(read.seen).not.toBe(0);
  });

  it('reads the state the world left after a step: the pelvis position is q of its free joint', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const hero = world.addBody(humanoidTree(), { name: 'hero' });
    hero.state.q[1] = 1.5;
    for (let s = 0; s < 30; s++) {
      world.step(1 / 60);
      const p = hero.linkPosition('pelvis');
      const root = hero.model.linkNames.indexOf('pelvis');
      expect(root).toBe(0);
      // link 0's frame is its free joint's position (the humanoid's tree transform of link 0 is the identity)
      expect([...p]).toEqual([hero.state.q[0], hero.state.q[1], hero.state.q[2]]);
    }
  });

  it('refuses a removed body by name, as the World does, and reads it again once it is added back in a new body', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const hero = world.addBody(humanoidTree(), { name: 'hero' });
    hero.state.q[1] = 1.2;
    world.step(1 / 60);
    const before = Float64Array.from(hero.linkPosition('pelvis'));
    world.removeBody(hero);
    expect(() => hero.linkPosition('pelvis')).toThrow('Body "hero".linkPosition: the body was removed from its world');
    expect(() => hero.linkRotation(0)).toThrow('Body "hero".linkRotation: the body was removed from its world');
    expect(() => hero.pointVelocity(0, [0, 0, 0])).toThrow('Body "hero".pointVelocity: the body was removed from its world');
    const again = world.addBody(hero.model, { name: 'hero' });
    again.state.q.set(hero.state.q);
    expect([...again.linkPosition('pelvis')]).toEqual([...before]);
  });
});
