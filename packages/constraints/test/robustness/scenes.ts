/**
 * Game scenes for the robustness suite: each is a list of spawns (a model and where it starts),
 * static geometry and optional constraints, so that a test can add the bodies in any order and
 * compare what each spawn did.
 */
import { ModelBuilder, forwardKinematics, pointPosition, type Model, type ShapeDesc } from '@sinew/featherstone';
import { PointPin, World, type WorldOptions } from '../../src/index.js';
import { humanoidTree } from '../humanoid-fixture.js';
import { rodChain } from '../chain-fixture.js';

export interface Spawn {
  /** Stable id of the spawn within its scene (the test compares spawns by it). */
  id: string;
  model: () => Model;
  /** Writes the spawn's initial q and qd (called after the body is added). */
  place: (q: Float64Array, qd: Float64Array) => void;
}

export interface Scene {
  name: string;
  steps: number;
  statics: ShapeDesc[];
  spawns: Spawn[];
  /** Constraints, given the bodies by spawn id (after every body is added). */
  constraints?: (world: World, byId: Map<string, number>) => void;
  options?: WorldOptions;
  /** Why the scene does not yet keep every guarantee (the test then expects it to fail). */
  knownFailure?: string;
  /**
   * The energy check: 'external' where the scene does work on purpose (restitution e > 0), or why
   * the scene does not yet keep the bound (its energy test is then a known failure); unset: checked.
   */
  energy?: { external: string } | { knownFailure: string };
}

function rigid(name: string, mass: number, geometry: ShapeDesc['geometry'], inertia: [number, number, number], friction = 0.6, restitution = 0): Model {
  const b = new ModelBuilder();
  b.addLink({ name, parent: null, joint: { type: 'free' }, mass, inertia: [inertia[0], inertia[1], inertia[2], 0, 0, 0], shapes: [{ geometry, friction, restitution }] as ShapeDesc[] });
  return b.build();
}

export const boxModel = (m: number, he: [number, number, number], mu = 0.6): Model =>
  rigid('box', m, { type: 'box', halfExtents: he }, [(m * (he[1] ** 2 + he[2] ** 2)) / 3, (m * (he[0] ** 2 + he[2] ** 2)) / 3, (m * (he[0] ** 2 + he[1] ** 2)) / 3], mu);

export const sphereModel = (m: number, r: number, mu = 0.3, e = 0): Model => rigid('ball', m, { type: 'sphere', radius: r }, [0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r], mu, e);

/** A quaternion [x, y, z, w] for a turn of `angle` about a unit axis. */
export function turn(axis: [number, number, number], angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** The quaternion product a b (turn b, then a). */
function times(a: [number, number, number, number], b: [number, number, number, number]): [number, number, number, number] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** A flight of n steps, 2 m wide, rising 0.18 m over 0.3 m each (31 degrees): step i's front edge is at z = 0.3 i - 0.15, y = 0.18 (i + 1). */
const flight = (n: number): ShapeDesc[] => Array.from({ length: n }, (_, i) => ({ geometry: { type: 'box', halfExtents: [1, 0.09 * (i + 1), 0.15] }, position: [0, 0.09 * (i + 1), 0.3 * i] } as ShapeDesc));

/** A plank lying down the stairs' slope (its long axis up the flight), rolled `roll` about its length. */
const downTheFlight = (roll: number): [number, number, number, number] => times(turn([1, 0, 0], -Math.atan2(0.18, 0.3)), turn([0, 0, 1], roll));

/** Places a free root (q: position then quaternion). */
function at(p: [number, number, number], rot: [number, number, number, number] = [0, 0, 0, 1], v?: [number, number, number]) {
  return (q: Float64Array, qd: Float64Array): void => {
    q.set(p, 0);
    q.set(rot, 3);
    if (v) qd.set(v, 3);
  };
}

const plane: ShapeDesc = { geometry: { type: 'plane' } };

/** A chain of `n` capsule links hanging from a world hinge (a rope, a tail). */
export function capsuleChain(n: number, length = 0.1, mass = 0.2, top: [number, number, number] = [0, 6.5, 0]): Model {
  const b = new ModelBuilder();
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const I = (mass * length * length) / 12;
    b.addLink({
      name: `l${i}`, parent,
      joint: { type: i === 0 ? 'revolute' : 'spherical', axis: [0, 0, 1], position: i === 0 ? top : [length, 0, 0] },
      mass, com: [length / 2, 0, 0], inertia: [1e-5, I, I, 0, 0, 0],
      shapes: [{ geometry: { type: 'capsule', radius: 0.02, halfLength: length / 2 - 0.02 }, position: [length / 2, 0, 0], rotation: turn([0, 0, 1], Math.PI / 2) }] as ShapeDesc[],
    });
    parent = `l${i}`;
  }
  return b.build();
}

/** A chain of `n` capsule links on ball joints with a free first link (a rope, a snake). */
export function freeChain(n: number, length = 0.05, mass = 0.05): Model {
  const b = new ModelBuilder();
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const I = (mass * length * length) / 12;
    b.addLink({
      name: `l${i}`, parent,
      joint: i === 0 ? { type: 'free' } : { type: 'spherical', position: [length, 0, 0] },
      mass, com: [length / 2, 0, 0], inertia: [1e-6, I, I, 0, 0, 0],
      shapes: [{ geometry: { type: 'capsule', radius: 0.015, halfLength: length / 2 - 0.015 }, position: [length / 2, 0, 0], rotation: turn([0, 0, 1], Math.PI / 2) }] as ShapeDesc[],
    });
    parent = `l${i}`;
  }
  return b.build();
}

const layered = (i: number, perLayer: number, dy: number, y0: number): [number, number, number] => {
  const layer = Math.floor(i / perLayer), k = i % perLayer;
  return [(k - (perLayer - 1) / 2) * 0.45, y0 + dy * layer, (layer % 2) * 0.15 - 0.07];
};

export const SCENES: Scene[] = [
  {
    name: 'four ragdolls dropped onto each other',
    steps: 240, statics: [plane],
    spawns: [0, 1, 2, 3].map((i) => ({ id: `r${i}`, model: () => humanoidTree(), place: at([0.1 * (i % 2), 1.2 + 0.5 * i, 0.05 * i], turn([1, 0, 0], i % 2 ? Math.PI / 2 : -Math.PI / 2)) })),
  },
  {
    name: 'eight ragdolls spawned inside each other and the ground',
    steps: 180, statics: [plane],
    energy: { knownFailure: 'pushing the overlapping bodies apart gives them 2.6 kJ in a step: post-stabilisation lifts them out at once, and the account cannot take potential energy (an overlap has no energy of its own to pay the lift; slowing the lift to the bound would keep them inside for ever, as the account also bounds the rise above the lowest energy)' },
    spawns: Array.from({ length: 8 }, (_, i) => ({ id: `r${i}`, model: () => humanoidTree(), place: at(layered(i, 4, 0.15, 0.4), turn([0, 1, 0], 0.7 * i)) })),
  },
  {
    name: 'a stack of six boxes',
    steps: 240, statics: [plane],
    spawns: Array.from({ length: 6 }, (_, i) => ({ id: `b${i}`, model: () => boxModel(2, [0.25, 0.1, 0.2]), place: at([0.01 * (i % 2), 0.1 + 0.2 * i + 0.001, 0]) })),
  },
  {
    name: 'a pyramid of ten spheres',
    steps: 240, statics: [plane],
    spawns: (() => {
      const s: Spawn[] = [];
      let k = 0;
      for (let row = 0; row < 4; row++) for (let c = 0; c < 4 - row; c++) {
        const x = (c - (3 - row) / 2) * 0.2, y = 0.1 + row * 0.174;
        s.push({ id: `s${k++}`, model: () => sphereModel(1, 0.1), place: at([x, y, 0]) });
      }
      return s;
    })(),
  },
  {
    name: "a row of five spheres hit by a sixth (Newton's cradle on the ground)",
    steps: 180, statics: [plane],
    energy: { external: 'restitution 0.9' },
    spawns: [
      ...Array.from({ length: 5 }, (_, i) => ({ id: `s${i}`, model: () => sphereModel(1, 0.1, 0, 0.9), place: at([0.2 * i, 0.1, 0]) })),
      { id: 'cue', model: () => sphereModel(1, 0.1, 0, 0.9), place: at([-0.6, 0.1, 0], [0, 0, 0, 1], [4, 0, 0]) },
    ],
  },
  {
    name: 'crates thrown into a standing-height ragdoll',
    steps: 180, statics: [plane],
    spawns: [
      { id: 'ragdoll', model: () => humanoidTree(), place: at([0, 1.0, 0]) },
      { id: 'crate1', model: () => boxModel(20, [0.2, 0.2, 0.2]), place: at([-2, 1.2, 0], [0, 0, 0, 1], [12, 1, 0]) },
      { id: 'crate2', model: () => boxModel(5, [0.15, 0.15, 0.15]), place: at([2, 0.6, 0.1], turn([0, 1, 0], 0.4), [-15, 2, 0]) },
      { id: 'bullet', model: () => sphereModel(0.05, 0.01), place: at([0, 1.3, -3], [0, 0, 0, 1], [0, 0, 200]) },
    ],
  },
  {
    name: 'a ragdoll dropped on stairs',
    steps: 240,
    // (once a known failure: the torso's boxes lay across the stairs' edges on one point of the edge
    // pair at a time, rocked from side to side, and post-stabilisation lifted them a little at each
    // rock: 3.0 J above the lowest energy against the bound's 1.65 J; collision/box-box.ts
    // faceOnEdgeContact holds them on two)
    statics: [plane, ...Array.from({ length: 6 }, (_, i) => ({ geometry: { type: 'box', halfExtents: [1, 0.09 * (i + 1), 0.15] }, position: [0, 0.09 * (i + 1), 0.3 * i] } as ShapeDesc))],
    spawns: [{ id: 'ragdoll', model: () => humanoidTree(), place: at([0, 1.9, 1.2], turn([1, 0, 0], Math.PI / 2)) }],
  },
  {
    name: 'boxes and a ragdoll on a 25 degree slope',
    steps: 240,
    statics: [plane, { geometry: { type: 'box', halfExtents: [2, 0.1, 2] }, position: [0, 0.5, 0], rotation: turn([1, 0, 0], (25 * Math.PI) / 180) } as ShapeDesc],
    spawns: [
      { id: 'box', model: () => boxModel(3, [0.15, 0.1, 0.15], 0.2), place: at([0.5, 1.0, 0], turn([1, 0, 0], (25 * Math.PI) / 180)) },
      { id: 'sticky', model: () => boxModel(3, [0.15, 0.1, 0.15], 1.0), place: at([-0.5, 1.0, 0], turn([1, 0, 0], (25 * Math.PI) / 180)) },
      { id: 'ragdoll', model: () => humanoidTree(), place: at([0, 1.6, 0.2], turn([0, 0, 1], Math.PI / 2)) },
    ],
  },
  {
    name: 'spheres and a ragdoll on a heightfield',
    steps: 180,
    statics: [{ geometry: { type: 'heightfield', rows: 9, cols: 9, spacingX: 0.5, spacingZ: 0.5, heights: Array.from({ length: 81 }, (_, k) => 0.15 * Math.sin(k * 0.9) + 0.1 * Math.cos(k * 0.37)) }, position: [-2, 0, -2] } as ShapeDesc],
    spawns: [
      { id: 'ragdoll', model: () => humanoidTree(), place: at([0, 1.5, 0], turn([1, 0, 0], -Math.PI / 2)) },
      ...Array.from({ length: 4 }, (_, i) => ({ id: `s${i}`, model: () => sphereModel(2, 0.15), place: at([-1 + 0.6 * i, 1.0 + 0.3 * i, 0.7]) })),
    ],
  },
  {
    name: 'a 60-link capsule chain swinging into a box wall',
    steps: 120,
    statics: [plane, { geometry: { type: 'box', halfExtents: [0.1, 1, 1] }, position: [-1.5, 3, 0] } as ShapeDesc],
    // (once a known failure: the chain went non-finite in 11 of 120 steps at 60 Hz, 8 rolled back;
    // with the World's energy account it no longer gains energy, and needs no recovery)
    spawns: [{ id: 'chain', model: () => capsuleChain(60), place: (q) => { q[0] = 0.3; } }],
  },
  {
    name: 'a box held by a pin to a swinging ragdoll hand',
    steps: 180, statics: [plane],
    spawns: [
      { id: 'ragdoll', model: () => humanoidTree(), place: at([0, 2.2, 0]) },
      { id: 'crate', model: () => boxModel(5, [0.1, 0.1, 0.1]), place: at([0.6, 2.2, 0]) },
    ],
    constraints: (world, byId) => {
      const r = byId.get('ragdoll')!, c = byId.get('crate')!;
      const rb = world.bodies[r], cb = world.bodies[c];
      forwardKinematics(rb.model, rb.state);
      const p = new Float64Array(3);
      pointPosition(rb.state, 0, [0, 0, 0], p);
      world.addConstraint(new PointPin(r, 0, [0, 0, 0], { body: -1, link: -1, point: p }));
      // the crate hangs from a point 0.6 m to the side of the pelvis, where it starts
      pointPosition(rb.state, 0, [0.6, 0, 0], p);
      cb.state.q.set(p, 0);
      world.addConstraint(new PointPin(c, 0, [0, 0, 0], { body: r, link: 0, point: [0.6, 0, 0] }));
    },
  },
  {
    name: 'a 200-link chain hanging from a hinge, swinging free',
    steps: 120, statics: [plane],
    spawns: [{ id: 'chain', model: () => capsuleChain(200, 0.05, 0.05, [0, 11, 0]), place: (q) => { q[0] = -0.5; } }],
  },
  {
    name: 'a box spinning about its intermediate axis and a tumbling ragdoll, in the air',
    steps: 120, statics: [plane],
    spawns: [
      { id: 'box', model: () => boxModel(2, [0.3, 0.15, 0.05]), place: at([2, 8, 0], [0, 0, 0, 1], [0, 0, 0]) },
      { id: 'ragdoll', model: () => humanoidTree(), place: at([-1, 8, 0], turn([0, 0, 1], 0.4)) },
    ],
    constraints: (world, byId) => {
      // spin: the box about its intermediate axis with a small perturbation; the ragdoll's root spun
      world.bodies[byId.get('box')!].state.qd.set([0.05, 12, 0.05], 0);
      world.bodies[byId.get('ragdoll')!].state.qd.set([3, 5, -2], 0);
    },
  },
  {
    name: 'billiards: a cue ball into a rack of ten on a frictional table',
    steps: 180, statics: [plane],
    energy: { external: 'restitution 0.9' },
    spawns: (() => {
      const s: Spawn[] = [];
      let k = 0;
      for (let row = 0; row < 4; row++) for (let c = 0; c <= row; c++) {
        s.push({ id: `b${k++}`, model: () => sphereModel(0.17, 0.028, 0.2, 0.9), place: at([1 + row * 0.0486, 0.028, (c - row / 2) * 0.0562]) });
      }
      s.push({ id: 'cue', model: () => sphereModel(0.17, 0.028, 0.2, 0.9), place: at([0, 0.028, 0.001], [0, 0, 0, 1], [6, 0, 0]) });
      return s;
    })(),
  },
  {
    name: 'twelve ragdolls dropped face down in criss-cross layers (a pile)',
    steps: 150, statics: [plane],
    // face down, three a layer, the layers crossed (x, z as the peer benchmark's pile lays them)
    spawns: Array.from({ length: 12 }, (_, i) => {
      const layer = Math.floor(i / 3), k = i % 3, across = layer % 2 === 1;
      const p: [number, number, number] = across ? [0, 0.3 + 0.35 * layer, (k - 1) * 0.5] : [(k - 1) * 0.5, 0.3 + 0.35 * layer, 0];
      const down = turn([1, 0, 0], Math.PI / 2), yaw = turn([0, 1, 0], across ? Math.PI / 2 : 0);
      // yaw then face down: q = yaw * down
      const q: [number, number, number, number] = [
        yaw[3] * down[0] + yaw[0] * down[3] + yaw[1] * down[2] - yaw[2] * down[1],
        yaw[3] * down[1] - yaw[0] * down[2] + yaw[1] * down[3] + yaw[2] * down[0],
        yaw[3] * down[2] + yaw[0] * down[1] - yaw[1] * down[0] + yaw[2] * down[3],
        yaw[3] * down[3] - yaw[0] * down[0] - yaw[1] * down[1] - yaw[2] * down[2],
      ];
      return { id: `r${i}`, model: () => humanoidTree(), place: at(p, q) };
    }),
  },
  {
    name: 'boxes and a ragdoll on a triangle-mesh terrain',
    steps: 180,
    statics: [{ geometry: { type: 'trimesh', vertices: Array.from({ length: 25 }, (_, k) => [(k % 5) - 2, 0.2 * Math.sin(k * 1.7) + 0.15 * ((k % 5) - 2), Math.floor(k / 5) - 2]).flat(), indices: Array.from({ length: 16 }, (_, c) => { const x = c % 4, z = Math.floor(c / 4), v = z * 5 + x; return [v, v + 5, v + 1, v + 1, v + 5, v + 6]; }).flat() } } as ShapeDesc],
    spawns: [
      { id: 'ragdoll', model: () => humanoidTree(), place: at([0, 1.6, 0], turn([1, 0, 0], Math.PI / 2)) },
      ...Array.from({ length: 4 }, (_, i) => ({ id: `b${i}`, model: () => boxModel(4, [0.15, 0.15, 0.15]), place: at([-1.2 + 0.8 * i, 1.2, 0.8], turn([0, 1, 0], 0.3 * i)) })),
    ],
  },
  {
    name: 'a tower of eight boxes knocked over by a falling ragdoll',
    steps: 180, statics: [plane],
    spawns: [
      ...Array.from({ length: 8 }, (_, i) => ({ id: `b${i}`, model: () => boxModel(1.5, [0.15, 0.15, 0.15]), place: at([0, 0.15 + 0.3 * i + 0.001 * i, 0]) })),
      { id: 'ragdoll', model: () => humanoidTree(), place: at([-0.6, 3.2, 0], turn([0, 0, 1], -Math.PI / 2)) },
    ],
  },
  {
    name: 'crates and spheres spawned half inside the ground and inside each other',
    steps: 120, statics: [plane],
    energy: { knownFailure: 'pushing the overlapping bodies apart gives them 40 J in a step' },
    spawns: [
      { id: 'deep', model: () => boxModel(10, [0.3, 0.3, 0.3]), place: at([0, 0.05, 0], turn([1, 1, 0].map((x) => x / Math.SQRT2) as [number, number, number], 0.5)) },
      { id: 'inside', model: () => boxModel(2, [0.2, 0.2, 0.2]), place: at([0.1, 0.2, 0.05]) },
      { id: 'ball', model: () => sphereModel(3, 0.25), place: at([-0.1, 0.1, 0.1]) },
    ],
  },
  {
    name: 'a ragdoll dropped face down alone',
    steps: 180, statics: [plane],
    spawns: [{ id: 'ragdoll', model: () => humanoidTree(), place: at([0, 1.2, 0], turn([1, 0, 0], Math.PI / 2)) }],
  },
  {
    name: 'five ragdolls dropped onto stairs',
    steps: 180,
    statics: [plane, ...Array.from({ length: 6 }, (_, i) => ({ geometry: { type: 'box', halfExtents: [1.5, 0.09 * (i + 1), 0.15] }, position: [0, 0.09 * (i + 1), 0.3 * i] } as ShapeDesc))],
    spawns: Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, model: () => humanoidTree(), place: at([-1 + 0.5 * i, 1.6 + 0.4 * i, 0.4 + 0.2 * i], turn([1, 0, 0], i % 2 ? Math.PI / 2 : -Math.PI / 2)) })),
  },
  {
    name: 'a ragdoll sliding down a frictionless 30 degree slope',
    steps: 150,
    statics: [plane, { geometry: { type: 'box', halfExtents: [1, 0.1, 4] }, position: [0, 1.5, 0], rotation: turn([1, 0, 0], Math.PI / 6), friction: 0 } as ShapeDesc],
    spawns: [{ id: 'ragdoll', model: () => humanoidTree(), place: at([0, 3.2, -1.5], turn([1, 0, 0], Math.PI / 2 + Math.PI / 6)) }],
  },
  {
    name: 'a 100 kg crate dropped onto a ragdoll lying on the ground',
    steps: 180, statics: [plane],
    spawns: [
      { id: 'ragdoll', model: () => humanoidTree(), place: at([0, 0.15, 0], turn([1, 0, 0], -Math.PI / 2)) },
      { id: 'crate', model: () => boxModel(100, [0.3, 0.3, 0.3]), place: at([0, 1.2, 0.1], turn([0, 1, 0], 0.3)) },
    ],
  },
  {
    name: 'two ragdolls hanging from pins swinging into each other',
    steps: 180, statics: [plane],
    spawns: [
      { id: 'left', model: () => humanoidTree(), place: at([-0.8, 2.5, 0], turn([0, 0, 1], -0.8)) },
      { id: 'right', model: () => humanoidTree(), place: at([0.8, 2.5, 0.05], turn([0, 0, 1], 0.8)) },
    ],
    constraints: (world, byId) => {
      for (const [id, x] of [['left', -0.4], ['right', 0.4]] as const) {
        const b = world.bodies[byId.get(id)!];
        const head = b.model.linkNames.indexOf('head');
        forwardKinematics(b.model, b.state);
        const p = new Float64Array(3);
        pointPosition(b.state, head, [0, 0, 0], p);
        p[0] = x; // the pins stand inward of the heads: both swing down and meet
        world.addConstraint(new PointPin(b.index, head, [0, 0, 0], { body: -1, link: -1, point: p }));
      }
    },
  },
  {
    name: 'a 100-link chain dropped over a box',
    steps: 150,
    statics: [plane, { geometry: { type: 'box', halfExtents: [0.4, 0.5, 0.4] }, position: [0, 0.5, 0] } as ShapeDesc],
    spawns: [{ id: 'chain', model: () => freeChain(100, 0.05, 0.05), place: at([-2.4, 1.5, 0]) }],
  },
  {
    name: 'two chains of thin boxes (5 cm by 5 mm) dropped flat side by side, one tilted',
    steps: 180, statics: [plane],
    spawns: [
      { id: 'straight', model: () => rodChain({ links: 20, length: 0.05, mass: 0.1, root: 'free' }), place: at([-1.5, 0.5, 0]) },
      { id: 'tilted', model: () => rodChain({ links: 40, length: 0.05, mass: 0.1, root: 'free' }), place: at([-1.0, 0.5, -0.6], turn([1, 0, 0], 0.3)) },
    ],
  },
  {
    name: 'a ragdoll and a box thrown spinning inside a closed static crate',
    steps: 240,
    // (once a known failure: the right hand ended caught between the abdomen, a self-contact, and
    // its wrist cone, and post-stabilisation lifted the ragdoll out of the two for 7 steps, 4.9 J
    // above its lowest against the bound 1.76 J; with every joint held within 0.1 rad of its stops
    // by post-stabilisation (step/stops.ts), 1.61 J)
    statics: [plane, ...([[[1.05, 1, 0], [0.05, 1, 1]], [[-1.05, 1, 0], [0.05, 1, 1]], [[0, 1, 1.05], [1, 1, 0.05]], [[0, 1, -1.05], [1, 1, 0.05]], [[0, 2.05, 0], [1.1, 0.05, 1.1]]] as [number[], number[]][]).map(([p, he]) => ({ geometry: { type: 'box', halfExtents: he }, position: p } as ShapeDesc))],
    spawns: [
      { id: 'ragdoll', model: () => humanoidTree(), place: (q, qd) => { at([0, 1.2, 0], turn([1, 0, 0], 1.2), [4, 2, 1])(q, qd); qd.set([8, 3, -5], 0); } },
      { id: 'box', model: () => boxModel(5, [0.15, 0.15, 0.15]), place: at([0.5, 0.5, 0.5], [0, 0, 0, 1], [-6, 3, 0]) },
    ],
  },
  {
    name: 'a 10 g ball on a 200 kg crate on a ragdoll lying on the ground',
    steps: 240, statics: [plane],
    spawns: [
      { id: 'ragdoll', model: () => humanoidTree(), place: at([0, 0.3, 0], turn([1, 0, 0], -Math.PI / 2)) },
      { id: 'crate', model: () => boxModel(200, [0.3, 0.2, 0.3]), place: at([0, 0.9, 0]) },
      { id: 'pea', model: () => sphereModel(0.01, 0.03), place: at([0, 1.3, 0]) },
    ],
  },
  {
    name: 'a ragdoll thrown at 20 m/s into a wall of twelve boxes',
    steps: 180, statics: [plane],
    spawns: [
      ...Array.from({ length: 12 }, (_, k) => ({ id: `b${k}`, model: () => boxModel(4, [0.2, 0.2, 0.2]), place: at([0, 0.2 + 0.4 * (k % 3), -0.6 + 0.41 * Math.floor(k / 3)]) })),
      { id: 'ragdoll', model: () => humanoidTree(), place: at([-3, 1.0, 0], turn([0, 0, 1], Math.PI / 2), [1, -20, 0]) }, // (qd is in the root's frame: 20 m/s along world x)
    ],
  },
  {
    name: 'planks dropped across the nosings of a flight of stairs, a crate on a step edge, a box thrown down the flight',
    steps: 240,
    statics: [plane, ...flight(5)],
    spawns: [
      // across the front edges of steps 1 and 2, and of steps 2 and 3 (friction 0.9 > tan 31 degrees: they must stick)
      { id: 'plank1', model: () => boxModel(4, [0.12, 0.02, 0.45], 0.9), place: at([-0.5, 0.495, 0.3], downTheFlight(0.02)) },
      { id: 'plank2', model: () => boxModel(4, [0.12, 0.02, 0.45], 0.9), place: at([0.5, 0.675, 0.6], downTheFlight(-0.03)) },
      { id: 'crate', model: () => boxModel(10, [0.15, 0.15, 0.15]), place: at([0, 0.56, 0.2], turn([0, 0, 1], 0.2)) },
      { id: 'box', model: () => boxModel(2, [0.1, 0.1, 0.1]), place: at([0.3, 1.2, 1.2], turn([0, 1, 0], 0.5), [0, 0, -2]) },
    ],
  },
  {
    name: 'a ragdoll and a crate tumbling down a flight of stairs',
    steps: 300,
    statics: [plane, ...flight(6)],
    spawns: [
      { id: 'ragdoll', model: () => humanoidTree(), place: (q, qd) => { at([0, 1.45, 1.45], turn([0, 1, 0], 0.3), [0.2, 0, -2.5])(q, qd); qd.set([3, 0, 0.5], 0); } },
      { id: 'crate', model: () => boxModel(8, [0.15, 0.15, 0.15]), place: at([0.6, 1.3, 1.5], turn([Math.SQRT1_2, Math.SQRT1_2, 0], 0.4), [0, 0, -1.5]) },
    ],
  },
];

/** Builds a scene's world, adding its spawns in `order` (indices into scene.spawns); returns the body index of each spawn. */
export function buildScene(scene: Scene, order: readonly number[], options: WorldOptions = {}): { world: World; bodyOf: number[] } {
  const world = new World({ ...scene.options, ...options });
  for (const s of scene.statics) world.addStatic(s);
  const bodyOf = new Array<number>(scene.spawns.length);
  for (const k of order) {
    const sp = scene.spawns[k];
    const body = world.addBody(sp.model());
    sp.place(body.state.q, body.state.qd);
    bodyOf[k] = body.index;
  }
  const byId = new Map(scene.spawns.map((s, k) => [s.id, bodyOf[k]]));
  scene.constraints?.(world, byId);
  return { world, bodyOf };
}
