/**
 * The ragdoll-pile scene of the World benchmark, shared by the Sinew side (world.bench.ts), the
 * Rapier side (rapier-pile.ts) and the PhysX side (physx-pile.ts) so all engines start from the
 * same poses.
 *
 * Ragdolls are the package's 20-link, 44-dof humanoid tree (test/humanoid-fixture.ts: free pelvis,
 * spherical spine, neck, shoulders, wrists, hips and tail, hinge elbows, knees, ankles and toes,
 * capsule limbs, box torso, hands and feet, joint limits; 71.1 kg) with a ragdoll's joint damping
 * (time constant 0.25 s, what ragdollFromSkeleton gives by default). They start lying face down in
 * neutral pose, in piles of PILE_SIZE: two ragdolls per layer, 0.6 m apart, each layer turned 90
 * degrees from the one below (a criss-cross pile), LAYER_GAP between layers so nothing starts
 * interpenetrating. Piles stand on a square grid PILE_SPACING apart (a ragdoll is about 1.8 m
 * long, so neighbouring piles touch now and then once they collapse).
 */
import { forwardKinematics, State, type Model } from '@sinew/featherstone';
import { World, type WorldOptions } from '../src/index.js';
import { humanoidTree } from '../test/humanoid-fixture.js';

export const PILE_SIZE = 10;
export const LAYER_GAP = 0.4;
export const PILE_SPACING = 2.6;
/** Height of the lowest pelvis (m): the lying body spans about -0.17..+0.14 m around it. */
export const FIRST_LAYER = 0.25;

export interface RootPose {
  /** Pelvis position (world). */
  p: [number, number, number];
  /** Pelvis orientation, quaternion [x, y, z, w]. */
  q: [number, number, number, number];
}

/** q_y(yaw) * q_x(+90 deg): lying face down (local +y, the head, along world +z before the yaw). */
function lying(yaw: number): [number, number, number, number] {
  const s = Math.SQRT1_2;
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2);
  // (0, sy, 0, cy) * (s, 0, 0, s)
  return [cy * s, sy * s, -sy * s, cy * s];
}

/** Pelvis poses of `n` ragdolls in criss-cross piles of PILE_SIZE. */
export function pileLayout(n: number): RootPose[] {
  const piles = Math.ceil(n / PILE_SIZE);
  const side = Math.ceil(Math.sqrt(piles));
  const out: RootPose[] = [];
  for (let i = 0; i < n; i++) {
    const pile = Math.floor(i / PILE_SIZE), j = i % PILE_SIZE;
    const px = (pile % side) * PILE_SPACING, pz = Math.floor(pile / side) * PILE_SPACING;
    const layer = j >> 1, slot = j & 1 ? 0.3 : -0.3;
    const along = layer % 2 === 0;
    out.push({
      p: [px + (along ? slot : 0), FIRST_LAYER + LAYER_GAP * layer, pz + (along ? 0 : slot)],
      q: lying(along ? 0 : Math.PI / 2),
    });
  }
  return out;
}

/** The ragdoll model (one Model shared by every body). */
export function ragdollModel(): Model {
  return humanoidTree({ dampingTime: RAGDOLL_DAMPING_TIME });
}

/** Joint damping time constant of the ragdolls (s; setJointDampingTimeConstant). */
export const RAGDOLL_DAMPING_TIME = 0.25;

/** A State of `model` at a root pose, every other joint neutral, forward kinematics done. */
export function ragdollState(model: Model, pose: RootPose): State {
  const s = new State(model);
  const o = model.qOffset[0];
  s.q[o] = pose.p[0]; s.q[o + 1] = pose.p[1]; s.q[o + 2] = pose.p[2];
  s.q[o + 3] = pose.q[0]; s.q[o + 4] = pose.q[1]; s.q[o + 5] = pose.q[2]; s.q[o + 6] = pose.q[3];
  forwardKinematics(model, s);
  return s;
}

/** A Sinew World with a ground plane and `n` ragdolls in piles. */
export function sinewPile(n: number, options: WorldOptions = {}, model = ragdollModel()): World {
  const world = new World(options);
  world.addStatic({ geometry: { type: 'plane' } });
  for (const pose of pileLayout(n)) {
    const body = world.addBody(model);
    const s = ragdollState(model, pose);
    body.state.q.set(s.q);
  }
  return world;
}

/** Highest pelvis of the layout (m): the fall time to the ground is about sqrt(2 h / g). */
export function topHeight(n: number): number {
  let h = 0;
  for (const p of pileLayout(n)) h = Math.max(h, p.p[1]);
  return h;
}

/** Mean and largest pelvis height of the bodies (for checking both engines reach a similar pile). */
export function pelvisHeights(ys: ArrayLike<number>): { mean: number; max: number } {
  let s = 0, m = -Infinity;
  for (let i = 0; i < ys.length; i++) { s += ys[i]; m = Math.max(m, ys[i]); }
  return { mean: s / Math.max(1, ys.length), max: m };
}
