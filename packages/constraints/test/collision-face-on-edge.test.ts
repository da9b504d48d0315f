/**
 * A face resting on an edge, tilted a little (box-box.ts faceOnEdgeContact, hull-contacts.ts
 * faceOnEdgeManifold): a plank lying across a step's nosing, rolled 0.01 rad about its length.
 * The separating axes pick the edge pair (the step's far corners, 1 m away, decide the face axes'
 * overlap), whose single point lets the plank rock from one side to the other; the face's manifold
 * holds it on two points. Checked against the brute-force oracle of collision-helpers.ts (exact
 * depth and least-overlap normal), and in a World: a plank dropped on the nosings of a flight of
 * stairs (slope 31 degrees, friction 0.9 > tan 31 degrees = 0.6, so it must stick) comes to rest
 * where it lands and sleeps.
 */
import { describe, expect, it } from 'vitest';
import { forwardKinematics, kineticEnergy, potentialEnergy, type ShapeDesc } from '@sinew/featherstone';
import { CollisionWorld } from '../src/collision/index.js';
import { FACE_ON_EDGE_COS } from '../src/collision/box-box.js';
import { World } from '../src/index.js';
import { type V3, dot, exactDepth, makePose, norm, oracleBox, oracleHull, readContacts, sub } from './collision-helpers.js';
import { boxModel } from './robustness/scenes.js';

const PLANK: V3 = [0.12, 0.02, 0.45];
const STEP: V3 = [1, 0.09, 0.15];

/** Row-major rotation about x by a, then about the new z by b (pitch, then roll about the plank's length). */
function pitchRoll(a: number, b: number): number[] {
  const ca = Math.cos(a), sa = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b);
  const X = [1, 0, 0, 0, ca, -sa, 0, sa, ca], Z = [cb, -sb, 0, sb, cb, 0, 0, 0, 1];
  const R: number[] = [];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) R.push(X[3 * i] * Z[j] + X[3 * i + 1] * Z[3 + j] + X[3 * i + 2] * Z[6 + j]);
  return R;
}

const corners = (h: V3): number[] => {
  const p: number[] = [];
  for (const x of [-1, 1]) for (const y of [-1, 1]) for (const z of [-1, 1]) p.push(x * h[0], y * h[1], z * h[2]);
  return p;
};

/** The plank pitched 31 degrees up the step, rolled `roll`, its underside `depth` into the step's front edge 0.2 m from its lower end. */
function plankOnEdge(hull: boolean, roll: number, depth: number) {
  const R = pitchRoll(-Math.atan2(0.18, 0.3), roll);
  const edge: V3 = [0, STEP[1], -STEP[2]];
  const local: V3 = [0, -PLANK[1] + depth, -0.2];
  const centre: V3 = [0, 0, 0];
  for (let i = 0; i < 3; i++) centre[i] = edge[i] - (R[3 * i] * local[0] + R[3 * i + 1] * local[1] + R[3 * i + 2] * local[2]);
  const poseA = makePose(R, centre), poseB = makePose([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0]);
  const world = new CollisionWorld({ margin: 0.005 });
  world.setBody(0, 1);
  world.setBody(1, 1);
  const plank: ShapeDesc = hull ? { geometry: { type: 'convex', points: corners(PLANK) } } : { geometry: { type: 'box', halfExtents: PLANK } };
  world.addDynamicShape(0, 0, plank);
  world.addDynamicShape(1, 0, { geometry: { type: 'box', halfExtents: STEP } });
  world.detect([poseA, poseB]);
  const oA = hull ? oracleHull(poseA, corners(PLANK)) : oracleBox(poseA, PLANK);
  return { contacts: readContacts(world.contacts), truth: exactDepth(oA, oracleBox(poseB, STEP)) };
}

describe('a face resting on an edge', () => {
  for (const hull of [false, true]) {
    for (const roll of [0.01, -0.01, 0.03]) {
      it(`a ${hull ? 'box-shaped hull' : 'box'} plank across a step's edge, rolled ${roll} rad: two points across its width, as deep as the oracle's overlap, normals within 0.1 rad of its axis`, () => {
        const { contacts, truth } = plankOnEdge(hull, roll, 0.002);
        const depths = contacts.map((k) => k.depth);
        const width = contacts.length === 2 ? norm(sub(contacts[0].pointA, contacts[1].pointA)) : 0;
        console.log(`[face on edge] ${hull ? 'hull' : 'box'} roll ${roll}: ${contacts.length} points, depths ${depths.map((d) => (1000 * d).toFixed(3)).join(', ')} mm (oracle ${(1000 * truth.depth).toFixed(3)} mm), ${width.toFixed(3)} m apart, normal . oracle ${contacts.map((k) => dot(k.normal, truth.normal).toFixed(6)).join(', ')}`);
        expect(contacts).toHaveLength(2);
        // where the edge crosses the underside's sides (x = +-0.12 in the plank's frame), the
        // underside stands 0.12 tan(roll) above and below its middle, which is 2 mm deep
        const sorted = [...depths].sort((a, b) => a - b);
        expect(sorted[0]).toBeCloseTo(0.002 - PLANK[0] * Math.tan(Math.abs(roll)), 9);
        expect(sorted[1]).toBeCloseTo(0.002 + PLANK[0] * Math.tan(Math.abs(roll)), 9);
        // the deepest point is the overlap (within the 6 % the oracle tests allow box pairs)
        expect(Math.abs(Math.max(...depths) - truth.depth)).toBeLessThan(0.06 * truth.depth + 2e-5);
        for (const k of contacts) expect(dot(k.normal, truth.normal)).toBeGreaterThan(FACE_ON_EDGE_COS);
        // one point at each side of the plank's underside (0.24 m wide), where the edge crosses it
        expect(width).toBeGreaterThan(0.2);
        expect(width).toBeLessThan(0.25);
      });
    }
  }

  it('a plank dropped on the nosings of a flight of stairs (friction 0.9, slope 31 degrees) rests where it lands and sleeps', async () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    for (let i = 0; i < 4; i++) world.addStatic({ geometry: { type: 'box', halfExtents: [1, 0.09 * (i + 1), 0.15] }, position: [0, 0.09 * (i + 1), 0.3 * i] });
    const slope = Math.atan2(0.18, 0.3), roll = 0.02;
    const qx = Math.sin(-slope / 2), qw = Math.cos(-slope / 2), rz = Math.sin(roll / 2), rw = Math.cos(roll / 2);
    const plank = world.addBody(boxModel(4, PLANK, 0.9), { name: 'plank', position: [0.05, 0.495, 0.3], rotation: [qx * rw, -qx * rz, qw * rz, qw * rw] });
    const m = plank.model.totalMass(), g = 9.81, h = 1 / 60;
    const bound = m * g * (world.settings.contactSlop + 0.5 * g * h * h);
    const energy = (): number => { forwardKinematics(plank.model, plank.state); return kineticEnergy(plank.model, plank.state) + potentialEnergy(plank.model, plank.state); };
    let low = energy(), drift = 0, asleepAt = -1, landed: V3 | null = null;
    for (let s = 0; s < 600; s++) {
      world.step(h);
      const e = energy();
      low = Math.min(low, e);
      drift = Math.max(drift, e - low);
      if (s === 59) landed = [plank.state.q[0], plank.state.q[1], plank.state.q[2]];
      if (plank.sleeping && asleepAt < 0) asleepAt = s;
      if (s % 60 === 59) await new Promise((r) => setImmediate(r));
    }
    const moved = norm(sub([plank.state.q[0], plank.state.q[1], plank.state.q[2]], landed!));
    console.log(`[face on edge] plank on stairs: asleep from step ${asleepAt}, moved ${(1000 * moved).toFixed(3)} mm from 1 s to 10 s, centre at y ${plank.state.q[1].toFixed(4)} z ${plank.state.q[2].toFixed(4)} (dropped at 0.495, 0.300), energy above its lowest at most ${drift.toFixed(4)} J (bound ${bound.toFixed(4)} J)`);
    expect(asleepAt).toBeGreaterThanOrEqual(0);
    expect(asleepAt).toBeLessThan(60);
    expect(moved).toBeLessThan(0.001);
    // still on the nosings of steps 1 and 2, not walked down the flight
    expect(plank.state.q[2]).toBeGreaterThan(0.29);
    expect(plank.state.q[1]).toBeGreaterThan(0.46);
    expect(drift).toBeLessThanOrEqual(bound);
  });
});
