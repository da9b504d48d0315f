/**
 * A 20-link humanoid-shaped tree for tests and benchmarks of this package (the anthropometric
 * preset lives in @sinew/characters): free pelvis, spherical spine, neck, shoulders, hips and
 * wrists, hinge elbows, knees and ankles, capsule limbs and box torso and feet, with joint limits.
 */
import { ModelBuilder, setJointDampingTimeConstant, type JointSpec, type Model, type ShapeDesc } from '@sinew/featherstone';

interface Seg {
  name: string;
  parent: string | null;
  at: [number, number, number];
  joint: JointSpec;
  mass: number;
  /** Capsule along -y of this length, or a box. */
  len?: number;
  radius?: number;
  box?: [number, number, number];
}

const cone = (swing: number | [number, number], twist: number) => ({ twistAxis: [0, -1, 0] as [number, number, number], swing, twist: [-twist, twist] as [number, number] });

function segments(): Seg[] {
  const s: Seg[] = [
    { name: 'pelvis', parent: null, at: [0, 0, 0], joint: { type: 'free' }, mass: 10, box: [0.14, 0.08, 0.1] },
    { name: 'abdomen', parent: 'pelvis', at: [0, 0.1, 0], joint: { type: 'spherical', limits: { twistAxis: [0, 1, 0], swing: [0.5, 0.3], twist: [-0.4, 0.4] } }, mass: 8, box: [0.13, 0.1, 0.09] },
    { name: 'chest', parent: 'abdomen', at: [0, 0.2, 0], joint: { type: 'spherical', limits: { twistAxis: [0, 1, 0], swing: [0.4, 0.3], twist: [-0.4, 0.4] } }, mass: 14, box: [0.16, 0.14, 0.1] },
    { name: 'neck', parent: 'chest', at: [0, 0.28, 0], joint: { type: 'spherical', limits: { twistAxis: [0, 1, 0], swing: [0.6, 0.5], twist: [-1, 1] } }, mass: 1, len: 0.06, radius: 0.05 },
    { name: 'head', parent: 'neck', at: [0, 0.1, 0], joint: { type: 'fixed' }, mass: 5, radius: 0.1, len: 0 },
  ];
  for (const [side, x] of [['l', 1], ['r', -1]] as const) {
    s.push(
      { name: `${side}_upperarm`, parent: 'chest', at: [0.2 * x, 0.22, 0], joint: { type: 'spherical', limits: cone([1.4, 1.4], 1.2) }, mass: 2, len: 0.22, radius: 0.045 },
      { name: `${side}_forearm`, parent: `${side}_upperarm`, at: [0, -0.3, 0], joint: { type: 'revolute', axis: [1, 0, 0], limits: { lower: -2.5, upper: 0 } }, mass: 1.2, len: 0.2, radius: 0.04 },
      { name: `${side}_hand`, parent: `${side}_forearm`, at: [0, -0.27, 0], joint: { type: 'spherical', limits: cone([0.8, 0.4], 0.5) }, mass: 0.5, box: [0.025, 0.08, 0.045] },
      { name: `${side}_thigh`, parent: 'pelvis', at: [0.1 * x, -0.08, 0], joint: { type: 'spherical', limits: cone([1.2, 0.6], 0.6) }, mass: 8, len: 0.32, radius: 0.07 },
      { name: `${side}_shin`, parent: `${side}_thigh`, at: [0, -0.44, 0], joint: { type: 'revolute', axis: [1, 0, 0], limits: { lower: 0, upper: 2.4 } }, mass: 3.5, len: 0.32, radius: 0.05 },
      { name: `${side}_foot`, parent: `${side}_shin`, at: [0, -0.43, 0], joint: { type: 'revolute', axis: [1, 0, 0], limits: { lower: -0.7, upper: 0.5 } }, mass: 1, box: [0.05, 0.04, 0.09] },
      { name: `${side}_toes`, parent: `${side}_foot`, at: [0, -0.04, 0.14], joint: { type: 'revolute', axis: [1, 0, 0], limits: { lower: -0.6, upper: 0.6 } }, mass: 0.2, box: [0.05, 0.02, 0.03] },
    );
  }
  return s;
}

/**
 * The humanoid tree: 20 links (19 without the short tail that `extra: false` leaves out), with no
 * joint damping unless `dampingTime` (s) asks for a ragdoll's (setJointDampingTimeConstant).
 * `convexFeetAndHands` makes the feet and hands convex hulls tapered from their boxes (a sole
 * narrower at the heel, a hand thinner at the fingertips), with the same mass and inertia.
 */
export function humanoidTree(options: { extra?: boolean; dampingTime?: number; convexFeetAndHands?: boolean } = {}): Model {
  const b = new ModelBuilder();
  const segs = segments();
  if (options.extra !== false) segs.push({ name: 'tail', parent: 'pelvis', at: [0, 0, -0.12], joint: { type: 'spherical', limits: cone([0.3, 0.3], 0.2) }, mass: 0.3, len: 0.1, radius: 0.02 });
  for (const g of segs) {
    let shape: ShapeDesc;
    let com: [number, number, number];
    let inertia: number[];
    const m = g.mass;
    if (g.box) {
      const [x, y, z] = g.box;
      const cy = g.name === 'pelvis' || g.name === 'abdomen' || g.name === 'chest' ? y : -y;
      const cz = g.name.endsWith('foot') ? 0.04 : 0;
      com = [0, cy, cz];
      shape = { geometry: { type: 'box', halfExtents: [x, y, z] }, position: com };
      if (options.convexFeetAndHands && (g.name.endsWith('foot') || g.name.endsWith('hand'))) shape = { geometry: { type: 'convex', points: taperedBox(x, y, z, g.name.endsWith('foot')) }, position: com };
      inertia = [(m * (y * y + z * z)) / 3, (m * (x * x + z * z)) / 3, (m * (x * x + y * y)) / 3, 0, 0, 0];
    } else {
      const r = g.radius!, L = g.len!;
      const cy = g.name === 'head' ? 0.08 : -(L / 2 + r);
      com = [0, cy, 0];
      shape = L > 0 ? { geometry: { type: 'capsule', radius: r, halfLength: L / 2 }, position: com } : { geometry: { type: 'sphere', radius: r }, position: com };
      const Iax = 0.5 * m * r * r, Iperp = (m * (3 * r * r + (L + 2 * r) ** 2)) / 12;
      inertia = [Iperp, Iax, Iperp, 0, 0, 0];
    }
    b.addLink({ name: g.name, parent: g.parent, joint: { ...g.joint, position: g.at }, mass: m, com, inertia, shapes: [shape] });
  }
  const model = b.build();
  if (options.dampingTime !== undefined) setJointDampingTimeConstant(model, options.dampingTime);
  return model;
}

/**
 * Corners of a box of half extents (x, y, z), tapered: a foot's sole (-y) keeps its width at the
 * toes (+z) and narrows to 70 % at the heel, its top falls to 60 % of the height at the toes; a
 * hand (fingers along -y) thins to 60 % at the fingertips. Ten points: the eight corners and two
 * mid-edge points on the sole, which lie on its face.
 */
function taperedBox(x: number, y: number, z: number, foot: boolean): number[] {
  const p: number[] = [];
  for (const sz of [-1, 1]) for (const sy of [-1, 1]) for (const sx of [-1, 1]) {
    if (foot) p.push(sx * x * (sz < 0 ? 0.7 : 1), sy > 0 && sz > 0 ? y * 0.2 : sy * y, sz * z);
    else p.push(sx * x, sy * y, sz * z * (sy < 0 ? 0.6 : 1));
  }
  if (foot) p.push(0, -y, -z, 0, -y, z);
  else p.push(0, -y, 0, 0, y, 0);
  return p;
}
