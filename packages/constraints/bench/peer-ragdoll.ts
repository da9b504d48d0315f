/**
 * The peer scenes' 15-part ragdoll pile (../shared/bench/peer-scenes/common.mjs: PARTS, JOINTS,
 * pilePose) in Sinew and in Rapier with impulse joints, for pile.bench.ts.
 *
 * common.mjs is z up with quaternions [w, x, y, z]; Sinew is y up with [x, y, z, w]. A peer vector
 * (x, y, z) becomes the Sinew vector (y, z, x) (a cyclic permutation: a proper rotation, so axes,
 * angles and limit signs carry over), a peer quaternion [w, x, y, z] the Sinew [y, z, x, w].
 *
 * Sinew: one Model, a tree rooted at the pelvis (free joint); every link frame has identity
 * orientation in the reference (standing) pose, the pelvis frame at its centre of mass and every
 * other link's frame at its joint anchor; ball joints are spherical joints with the swing cone and
 * symmetric twist of common.mjs, hinges revolute joints with their limits. No joint damping (the
 * scene has none). Boxes and a sphere as in common.mjs, friction 0.8, restitution 0; a link never
 * collides with its parent (World.addBody), other links of a ragdoll collide (selfCollision, the
 * default).
 *
 * Rapier (@dimforge/rapier3d-compat 0.21, its defaults): one rigid body per part at its centre of
 * mass, mass and principal inertia set explicitly (colliders of zero density), impulse joints:
 * revolute with their limits (setLimits), spherical *without* the swing cone and twist limits
 * (the JS API has no limits for spherical impulse joints); contacts between a joint's two bodies
 * off; the ground a 400 m slab with its top at y = 0.
 */
import type RAPIER_NS from '@dimforge/rapier3d-compat';
import { kineticEnergy, ModelBuilder, type Model } from '@sinew/featherstone';
import { World, type WorldOptions } from '../src/index.js';
import { ragdollState, type RootPose } from './ragdoll-pile.js';
import type { loadRapier } from './rapier-pile.js';
// @ts-ignore: plain JavaScript shared by every engine's benchmark (no type declarations)
import * as peer from '../../../../shared/bench/peer-scenes/common.mjs';

type Rapier = Awaited<ReturnType<typeof loadRapier>>;
type V3 = [number, number, number];

interface PeerPart { name: string; shape: 'box' | 'sphere'; size: V3 | number; mass: number; c: V3 }
interface PeerJoint { name: string; type: 'ball' | 'hinge'; parent: number; child: number; anchor: V3; twistAxis?: V3; swing?: number; twist?: number; axis?: V3; lo?: number; hi?: number }

export const PARTS = peer.PARTS as PeerPart[];
export const JOINTS = peer.JOINTS as PeerJoint[];
export const RAGDOLL_MASS = peer.RAGDOLL_MASS as number;
export const FRICTION = peer.FRICTION as number;
export const DT = peer.RAGDOLL_DT as number;
export const STEPS = peer.RAGDOLL_STEPS as number;
export const REST_VRMS = peer.REST_VRMS as number;
export const warmup = peer.warmup as (step: () => void, ms?: number) => number;

/** Peer vector (x, y, z) as a Sinew vector (y, z, x). */
export const toSinew = (v: readonly number[]): V3 => [v[1], v[2], v[0]];
/** Peer quaternion [w, x, y, z] as a Sinew quaternion [x, y, z, w]. */
export const quatToSinew = (q: readonly number[]): [number, number, number, number] => [q[2], q[3], q[1], q[0]];

/** Principal inertia of a part in Sinew axes. */
function inertiaSinew(p: PeerPart): V3 {
  return toSinew(peer.partInertia(p) as V3);
}

/** Pelvis pose of ragdoll i in Sinew's frame. */
export function sinewPose(i: number): RootPose {
  const { p, q } = peer.pilePose(i) as { p: V3; q: [number, number, number, number] };
  return { p: toSinew(p), q: quatToSinew(q) };
}

/** The 15-part ragdoll as a Sinew Model. */
export function peerRagdollModel(): Model {
  const b = new ModelBuilder();
  // link frame origin (peer coordinates): the pelvis centre, else the joint anchor
  const origin: V3[] = PARTS.map(() => [0, 0, 0]);
  const jointOf = new Map<number, PeerJoint>();
  for (const j of JOINTS) {
    jointOf.set(j.child, j);
    origin[j.child] = j.anchor;
  }
  // parents before children: PARTS is ordered so (pelvis, torso, head, arms, hands, legs, feet), but sort by depth to be safe
  const depth = (k: number): number => (jointOf.has(k) ? 1 + depth(jointOf.get(k)!.parent) : 0);
  const order = PARTS.map((_, k) => k).sort((a, c) => depth(a) - depth(c));
  for (const k of order) {
    const p = PARTS[k];
    const j = jointOf.get(k);
    const o = origin[k];
    const com = toSinew([p.c[0] - o[0], p.c[1] - o[1], p.c[2] - o[2]]);
    const I = inertiaSinew(p);
    const geometry = p.shape === 'sphere'
      ? { type: 'sphere' as const, radius: p.size as number }
      : { type: 'box' as const, halfExtents: toSinew(p.size as V3) };
    let joint;
    if (!j) joint = { type: 'free' as const };
    else {
      const po = origin[j.parent];
      const position = toSinew([j.anchor[0] - po[0], j.anchor[1] - po[1], j.anchor[2] - po[2]]);
      joint = j.type === 'hinge'
        ? { type: 'revolute' as const, axis: toSinew(j.axis!), position, limits: { lower: j.lo!, upper: j.hi! } }
        : { type: 'spherical' as const, position, limits: { twistAxis: toSinew(j.twistAxis!), swing: j.swing!, twist: [-j.twist!, j.twist!] as [number, number] } };
    }
    b.addLink({
      name: p.name, parent: j ? PARTS[j.parent].name : null, joint, mass: p.mass, com,
      inertia: [I[0], I[1], I[2], 0, 0, 0],
      shapes: [{ geometry, position: com, friction: FRICTION, restitution: 0 }],
    });
  }
  return b.build();
}

/** A Sinew World (defaults, or `options`) with a ground plane and ragdolls 0..n-1 of the peer pile. */
export function sinewPeerPile(n: number, model = peerRagdollModel(), options: WorldOptions = {}): World {
  const world = new World(options);
  world.addStatic({ geometry: { type: 'plane' }, friction: FRICTION, restitution: 0 });
  for (let i = 0; i < n; i++) {
    const body = world.addBody(model);
    body.state.q.set(ragdollState(model, sinewPose(i)).q);
  }
  return world;
}

/** Kinetic energy (J) of every body of a Sinew world. */
export function sinewKineticEnergy(world: World): number {
  let ke = 0;
  for (const b of world.bodies) ke += kineticEnergy(b.model, b.state);
  return ke;
}

export interface RapierImpulsePile {
  world: RAPIER_NS.World;
  bodies: RAPIER_NS.RigidBody[];
  step(): void;
  /** Rigid bodies asleep. */
  sleeping(): number;
  kineticEnergy(): number;
  free(): void;
}

/** The peer pile of n ragdolls in Rapier with impulse joints (y up, Sinew's frame). */
export function rapierImpulsePile(R: Rapier, n: number): RapierImpulsePile {
  const world = new R.World({ x: 0, y: -peer.G, z: 0 });
  world.timestep = DT;
  const ground = world.createRigidBody(R.RigidBodyDesc.fixed());
  world.createCollider(R.ColliderDesc.cuboid(200, 1, 200).setTranslation(0, -1, 0).setFriction(FRICTION).setRestitution(0), ground);
  const bodies: RAPIER_NS.RigidBody[] = [];
  const inertia: V3[] = [];
  const masses: number[] = [];
  for (let i = 0; i < n; i++) {
    const { p, q } = peer.pilePose(i) as { p: V3; q: number[] };
    const qs = quatToSinew(q);
    const rot = { x: qs[0], y: qs[1], z: qs[2], w: qs[3] };
    const parts: RAPIER_NS.RigidBody[] = [];
    for (const part of PARTS) {
      const c = toSinew(peer.add(p, peer.qrot(q, part.c)) as V3);
      const I = inertiaSinew(part);
      const body = world.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(c[0], c[1], c[2]).setRotation(rot)
        .setAdditionalMassProperties(part.mass, { x: 0, y: 0, z: 0 }, { x: I[0], y: I[1], z: I[2] }, { x: 0, y: 0, z: 0, w: 1 }));
      const h = part.shape === 'box' ? toSinew(part.size as V3) : null;
      const cd = h ? R.ColliderDesc.cuboid(h[0], h[1], h[2]) : R.ColliderDesc.ball(part.size as number);
      world.createCollider(cd.setDensity(0).setFriction(FRICTION).setRestitution(0), body);
      parts.push(body);
      bodies.push(body);
      inertia.push(I);
      masses.push(part.mass);
    }
    for (const j of JOINTS) {
      const a = toSinew(peer.sub(j.anchor, PARTS[j.parent].c) as V3);
      const b2 = toSinew(peer.sub(j.anchor, PARTS[j.child].c) as V3);
      const a1 = { x: a[0], y: a[1], z: a[2] }, a2 = { x: b2[0], y: b2[1], z: b2[2] };
      if (j.type === 'hinge') {
        const ax = toSinew(j.axis!);
        const joint = world.createImpulseJoint(R.JointData.revolute(a1, a2, { x: ax[0], y: ax[1], z: ax[2] }), parts[j.parent], parts[j.child], true) as RAPIER_NS.RevoluteImpulseJoint;
        joint.setLimits(j.lo!, j.hi!);
        joint.setContactsEnabled(false);
      } else {
        world.createImpulseJoint(R.JointData.spherical(a1, a2), parts[j.parent], parts[j.child], true).setContactsEnabled(false);
      }
    }
  }
  return {
    world, bodies,
    step: () => world.step(),
    sleeping: () => {
      let s = 0;
      for (const b of bodies) if (b.isSleeping()) s++;
      return s;
    },
    kineticEnergy: () => {
      let ke = 0;
      for (let k = 0; k < bodies.length; k++) {
        const b = bodies[k], r = b.rotation(), v = b.linvel(), w = b.angvel();
        ke += peer.bodyKE(masses[k], inertia[k], [r.w, r.x, r.y, r.z], [v.x, v.y, v.z], [w.x, w.y, w.z]) as number;
      }
      return ke;
    },
    free: () => world.free(),
  };
}
