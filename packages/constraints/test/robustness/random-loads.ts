/**
 * Random pinned loads: a limb holding, or held by, a crate 10 to 150 times its mass (issue 20's
 * guarantee 4), from a seed, for tests that judge scenes nobody wrote for the code they test.
 * Each scene is one of four kinds, drawn with equal odds:
 *
 *   - the humanoid fixture or the peer benchmark's 15-part ragdoll, 2.2 m up, joints turning at
 *     up to 2 rad/s, pinned to the world at its root or at a hand, with a crate (10 to 120 times the
 *     link's mass, at most 150 kg) hung 0.26 m below a hand, forearm, foot or shin by a pin;
 *   - a chain of 2 to 9 hinge or ball-jointed capsule links of 0.3 to 2 kg (limits of 1.5 rad, or a
 *     cone of 1 rad and a twist of 0.5 rad), fixed to the world or pinned there by its free root,
 *     joints turning at up to 3 rad/s, with a crate of 10 to 120 times a link's mass hung from its tip.
 *
 * Half the scenes have a ground plane, half the crates a box shape. Nothing sets sub-steps: the
 * world chooses them (World.autoSubsteps, and a step whose loads did not hold is taken again).
 */
import { ModelBuilder, forwardKinematics, pointPosition, type Model, type ShapeDesc } from '@sinew/featherstone';
import { PointPin, World, type Body } from '../../src/index.js';
import { humanoidTree } from '../humanoid-fixture.js';
import { peerRagdollModel } from '../../bench/peer-ragdoll.js';

export interface LoadScene {
  world: World;
  /** The body whose joints and pins carry the load. */
  limb: Body;
  pins: PointPin[];
  what: string;
}

/** A crate of `mass` kg, half extent he, with or without a box shape. */
export function crate(mass: number, he: number, shape: boolean): Model {
  const b = new ModelBuilder();
  const I = (mass * 2 * he * he) / 3;
  b.addLink({ name: 'crate', parent: null, joint: { type: 'free' }, mass, inertia: [I, I, I, 0, 0, 0], shapes: shape ? ([{ geometry: { type: 'box', halfExtents: [he, he, he] } }] as ShapeDesc[]) : [] });
  return b.build();
}

/** n capsule links of `mass` kg, 0.3 m apart along x, hinged about z or ball-jointed, the first 2 m up (fixed, or on a free joint). */
function chain(n: number, mass: number, ball: boolean, fixed: boolean): Model {
  const b = new ModelBuilder();
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const position: [number, number, number] = i === 0 ? [0, 2, 0] : [0.3, 0, 0];
    const joint = i === 0 && !fixed ? { type: 'free' as const, position }
      : ball ? { type: 'spherical' as const, position, limits: { twistAxis: [1, 0, 0] as [number, number, number], swing: [1, 1] as [number, number], twist: [-0.5, 0.5] as [number, number] } }
        : { type: 'revolute' as const, axis: [0, 0, 1] as [number, number, number], position, limits: { lower: -1.5, upper: 1.5 } };
    b.addLink({ name: `l${i}`, parent, joint, mass, com: [0.15, 0, 0], inertia: [0.001 * mass, 0.0075 * mass, 0.0075 * mass, 0, 0, 0], shapes: [{ geometry: { type: 'capsule', radius: 0.04, halfLength: 0.1 }, position: [0.15, 0, 0], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] }] as ShapeDesc[] });
    parent = `l${i}`;
  }
  return b.build();
}

/** World position of a point given in a link's coordinates, at the body's current q. */
export function worldPoint(body: Body, link: number, local: [number, number, number]): Float64Array {
  forwardKinematics(body.model, body.state);
  const p = new Float64Array(3);
  pointPosition(body.state, link, local, p);
  return p;
}

/** The scenes of one seed, in order (a linear congruential generator: the same scenes on every machine). */
export function* randomLoads(seed: number, count: number): Generator<LoadScene> {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const R = (a: number, b: number) => a + (b - a) * rnd();
  for (let k = 0; k < count; k++) {
    const world = new World();
    const ground = rnd() < 0.5;
    if (ground) world.addStatic({ geometry: { type: 'plane' } });
    const kind = Math.floor(R(0, 4));
    const pins: PointPin[] = [];
    const ratio = R(10, 120);
    let limb: Body, what: string;
    if (kind < 2) {
      const peer = kind === 1;
      limb = world.addBody(peer ? peerRagdollModel() : humanoidTree(), { name: 'ragdoll' });
      limb.state.q[1] = 2.2;
      const m = limb.model, names = m.linkNames;
      for (let d = 6; d < m.nv; d++) limb.state.qd[d] = R(-2, 2);
      const hands = names.filter((n) => /hand|forearm|lower_arm/i.test(n));
      const feet = names.filter((n) => /foot|shin/i.test(n));
      const hold = hands[Math.floor(R(0, hands.length))];
      const hang = rnd() < 0.5 ? hands.find((h) => h !== hold)! : names[0];
      const hi = names.indexOf(hang);
      pins.push(world.addConstraint(new PointPin(limb.index, hi, [0, 0, 0], { body: -1, link: -1, point: worldPoint(limb, hi, [0, 0, 0]) })));
      const li = rnd() < 0.5 ? names.indexOf(hold) : names.indexOf(feet[Math.floor(R(0, feet.length))]);
      const mass = Math.min(150, ratio * m.mass[li]);
      const box = world.addBody(crate(mass, 0.2, rnd() < 0.5), { name: 'crate' });
      const g = worldPoint(limb, li, [0, -0.1, 0]);
      box.state.q.set([g[0], g[1] - 0.26, g[2]], 0);
      pins.push(world.addConstraint(new PointPin(limb.index, li, [0, -0.1, 0], { body: box.index, link: 0, point: [0, 0.26, 0] })));
      what = `${peer ? 'peer ragdoll' : 'humanoid'} pinned at ${hang}, ${mass.toFixed(0)} kg at ${names[li]} (${(mass / m.mass[li]).toFixed(0)}x)`;
    } else {
      const n = 2 + Math.floor(R(0, 8)), lm = R(0.3, 2), ball = kind === 3, fixed = rnd() < 0.6;
      limb = world.addBody(chain(n, lm, ball, fixed), { name: 'chain' });
      for (let d = fixed ? 0 : 6; d < limb.model.nv; d++) limb.state.qd[d] = R(-3, 3);
      if (!fixed) pins.push(world.addConstraint(new PointPin(limb.index, 0, [0, 0, 0], { body: -1, link: -1, point: worldPoint(limb, 0, [0, 0, 0]) })));
      const mass = ratio * lm;
      const box = world.addBody(crate(mass, 0.2, rnd() < 0.5), { name: 'crate' });
      const t = worldPoint(limb, n - 1, [0.3, 0, 0]);
      box.state.q.set([t[0], t[1] - 0.26, t[2]], 0);
      pins.push(world.addConstraint(new PointPin(limb.index, n - 1, [0.3, 0, 0], { body: box.index, link: 0, point: [0, 0.26, 0] })));
      what = `${n}-link ${ball ? 'ball' : 'hinge'} chain of ${lm.toFixed(2)} kg links (${fixed ? 'fixed' : 'pinned free'} base) holding ${mass.toFixed(0)} kg (${ratio.toFixed(0)}x)`;
    }
    yield { world, limb, pins, what: `${what}${ground ? ', over a plane' : ''}` };
  }
}
