/**
 * The ragdoll pile of ragdoll-pile.ts in Rapier (@dimforge/rapier3d-compat), for a side-by-side
 * timing: every link of the Sinew Model becomes a Rapier rigid body at the same world pose, with the
 * same mass, centre of mass and inertia (set explicitly; colliders have zero density), the same
 * shapes (capsule along local y, box, sphere), the same friction (0.8 everywhere: Sinew's geometric
 * mean and Rapier's default average agree when all coefficients are equal) and restitution 0; the
 * joints are Rapier *multibody* joints (reduced coordinates, like Sinew): spherical, revolute and
 * fixed, the free root being the multibody's root body. Contacts between a link and its parent are
 * off (as in Sinew); other links of a ragdoll collide with each other (Sinew's selfCollision).
 *
 * Not the same as Sinew, and said so in the printed tables: the JS API of Rapier 0.21 has no joint
 * limits for multibody joints (JointData.intoRaw() passes limits for prismatic joints only, and
 * MultibodyJoint exposes no setLimits), so Rapier's ragdolls have no joint limits, and no joint
 * damping either (multibody joints have no motors there to give it); Rapier runs its
 * default solver (4 iterations, soft contacts) where Sinew runs 30 PGS sweeps and stabilisation.
 */
import type RAPIER_NS from '@dimforge/rapier3d-compat';
import { JointType, type Model, type State } from '@sinew/featherstone';

type Rapier = typeof RAPIER_NS;

let rapier: Rapier | null = null;

/** Loads Rapier's wasm (embedded in the compat build: no network). */
export async function loadRapier(): Promise<Rapier> {
  if (rapier) return rapier;
  const mod = (await import('@dimforge/rapier3d-compat')) as unknown as { default?: Rapier } & Rapier;
  const R = (mod.default ?? mod) as Rapier;
  // init() takes an optional object; without one the compat build decodes its inlined wasm. It
  // warns about deprecated parameters on some versions: keep the console clean.
  const warn = console.warn;
  console.warn = () => {};
  try {
    await R.init();
  } finally {
    console.warn = warn;
  }
  rapier = R;
  return R;
}

/** Rotation matrix (row-major, 9 numbers at o) to a quaternion {x, y, z, w}. */
export function matToQuat(m: ArrayLike<number>, o = 0): { x: number; y: number; z: number; w: number } {
  const m00 = m[o], m01 = m[o + 1], m02 = m[o + 2], m10 = m[o + 3], m11 = m[o + 4], m12 = m[o + 5], m20 = m[o + 6], m21 = m[o + 7], m22 = m[o + 8];
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const s = 0.5 / Math.sqrt(tr + 1);
    w = 0.25 / s; x = (m21 - m12) * s; y = (m02 - m20) * s; z = (m10 - m01) * s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  const n = Math.hypot(x, y, z, w);
  return { x: x / n, y: y / n, z: z / n, w: w / n };
}

/**
 * Principal moments and axes of a symmetric 3x3 inertia [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (cyclic
 * Jacobi). Returns the moments and the rotation (columns = principal axes) as a row-major matrix.
 */
export function principal(I: ArrayLike<number>, o: number): { moments: [number, number, number]; axes: Float64Array } {
  const a = [[I[o], I[o + 3], I[o + 4]], [I[o + 3], I[o + 1], I[o + 5]], [I[o + 4], I[o + 5], I[o + 2]]];
  const v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[0][1]) + Math.abs(a[0][2]) + Math.abs(a[1][2]);
    if (off < 1e-15 * (Math.abs(a[0][0]) + Math.abs(a[1][1]) + Math.abs(a[2][2]))) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]] as const) {
      if (a[p][q] === 0) continue;
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k][p], akq = a[k][q];
        a[k][p] = c * akp - s * akq; a[k][q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k], aqk = a[q][k];
        a[p][k] = c * apk - s * aqk; a[q][k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k][p], vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq; v[k][q] = s * vkp + c * vkq;
      }
    }
  }
  // right-handed axes
  const det = v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) - v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0]) + v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0]);
  if (det < 0) for (let k = 0; k < 3; k++) v[k][2] = -v[k][2];
  return { moments: [a[0][0], a[1][1], a[2][2]], axes: Float64Array.from(v.flat()) };
}

export interface RapierPile {
  R: Rapier;
  world: RAPIER_NS.World;
  /** Root (pelvis) rigid body of each ragdoll. */
  roots: RAPIER_NS.RigidBody[];
  bodies: RAPIER_NS.RigidBody[];
  joints: number;
  step(): void;
  /** Bodies (links) awake. */
  awake(): number;
  /** Pelvis heights. */
  pelvisY(): Float64Array;
  free(): void;
}

export interface RapierPileOptions {
  canSleep?: boolean;
  friction?: number;
  gravity?: [number, number, number];
  dt?: number;
}

/**
 * A Rapier world with a ground half-space and one multibody ragdoll per state (each state after
 * forward kinematics, at the pose Sinew starts from).
 */
export function rapierPile(R: Rapier, model: Model, states: readonly State[], options: RapierPileOptions = {}): RapierPile {
  const g = options.gravity ?? [0, -9.81, 0];
  const world = new R.World({ x: g[0], y: g[1], z: g[2] });
  world.timestep = options.dt ?? 1 / 60;
  const friction = options.friction ?? 0.8;
  const ground = world.createRigidBody(R.RigidBodyDesc.fixed());
  // the ground: a 400 m x 400 m slab with its top at y = 0 (this build of Rapier's JS API has no
  // half-space collider)
  world.createCollider(R.ColliderDesc.cuboid(200, 1, 200).setTranslation(0, -1, 0).setFriction(friction).setRestitution(0), ground);
  const roots: RAPIER_NS.RigidBody[] = [];
  const bodies: RAPIER_NS.RigidBody[] = [];
  let joints = 0;
  const inertia = new Map<number, ReturnType<typeof principal>>();
  for (let i = 0; i < model.nLinks; i++) inertia.set(i, principal(model.inertiaCom, 6 * i));
  for (const state of states) {
    const pose = state.work.pose;
    const links: RAPIER_NS.RigidBody[] = [];
    for (let i = 0; i < model.nLinks; i++) {
      const o = 12 * i;
      const { moments, axes } = inertia.get(i)!;
      const desc = R.RigidBodyDesc.dynamic()
        .setTranslation(pose[o + 9], pose[o + 10], pose[o + 11])
        .setRotation(matToQuat(pose, o))
        .setAdditionalMassProperties(
          model.mass[i],
          { x: model.com[3 * i], y: model.com[3 * i + 1], z: model.com[3 * i + 2] },
          { x: moments[0], y: moments[1], z: moments[2] },
          matToQuat(axes),
        )
        .setCanSleep(options.canSleep ?? true);
      const body = world.createRigidBody(desc);
      for (const shape of model.shapes[i]) {
        const gm = shape.geometry;
        let cd: RAPIER_NS.ColliderDesc;
        if (gm.type === 'capsule') cd = R.ColliderDesc.capsule(gm.halfLength, gm.radius);
        else if (gm.type === 'box') cd = R.ColliderDesc.cuboid(gm.halfExtents[0], gm.halfExtents[1], gm.halfExtents[2]);
        else if (gm.type === 'sphere') cd = R.ColliderDesc.ball(gm.radius);
        else throw new Error(`rapierPile: shape type ${gm.type} is not mapped`);
        const p = shape.position ?? [0, 0, 0];
        const r = shape.rotation ?? [0, 0, 0, 1];
        cd.setTranslation(p[0], p[1], p[2]).setRotation({ x: r[0], y: r[1], z: r[2], w: r[3] })
          .setDensity(0).setFriction(shape.friction ?? friction).setRestitution(shape.restitution ?? 0);
        world.createCollider(cd, body);
      }
      links.push(body);
      bodies.push(body);
      const parent = model.parent[i];
      if (parent < 0) { roots.push(body); continue; }
      // joint frame in the parent: X_tree = (E, r) with E = R_joint^T (row-major), r its origin;
      // the child link's origin is the joint's, and at q = 0 its axes are the joint frame's
      const X = model.treeX, xo = 12 * i;
      const anchor1 = { x: X[xo + 9], y: X[xo + 10], z: X[xo + 11] };
      const anchor2 = { x: 0, y: 0, z: 0 };
      // R_joint = E^T: row-major R[r][c] = E[c][r]
      const Rj = [X[xo], X[xo + 3], X[xo + 6], X[xo + 1], X[xo + 4], X[xo + 7], X[xo + 2], X[xo + 5], X[xo + 8]];
      const t = model.jointType[i];
      let data: RAPIER_NS.JointData;
      if (t === JointType.spherical) data = R.JointData.spherical(anchor1, anchor2);
      else if (t === JointType.revolute) {
        const a = [model.axis[3 * i], model.axis[3 * i + 1], model.axis[3 * i + 2]];
        const a1 = { x: Rj[0] * a[0] + Rj[1] * a[1] + Rj[2] * a[2], y: Rj[3] * a[0] + Rj[4] * a[1] + Rj[5] * a[2], z: Rj[6] * a[0] + Rj[7] * a[1] + Rj[8] * a[2] };
        data = R.JointData.revoluteWithAxes(anchor1, anchor2, a1, { x: a[0], y: a[1], z: a[2] });
      } else if (t === JointType.fixed) data = R.JointData.fixed(anchor1, matToQuat(Rj), anchor2, { x: 0, y: 0, z: 0, w: 1 });
      else throw new Error(`rapierPile: joint type ${t} of link ${model.linkNames[i]} is not mapped`);
      const joint = world.createMultibodyJoint(data, links[parent], body, true);
      joint.setContactsEnabled(false);
      joints++;
    }
  }
  const ys = new Float64Array(roots.length);
  return {
    R, world, roots, bodies, joints,
    step: () => world.step(),
    awake: () => {
      let n = 0;
      for (const b of bodies) if (!b.isSleeping()) n++;
      return n;
    },
    pelvisY: () => {
      for (let k = 0; k < roots.length; k++) ys[k] = roots[k].translation().y;
      return ys;
    },
    free: () => world.free(),
  };
}
