/**
 * The ragdoll pile of ragdoll-pile.ts in PhysX 5 (the npm package physx-js-webidl, a WebAssembly
 * build), for a side-by-side timing: one reduced-coordinate articulation (Featherstone, like Sinew)
 * per ragdoll. Every link of the Sinew Model becomes a PxArticulationLink at the same world pose,
 * with the same mass, centre of mass and inertia (set explicitly), the same shapes (capsule along
 * local y, box, sphere), friction 0.8 (static and dynamic; every material alike, so PhysX's
 * averaging gives Sinew's geometric mean) and restitution 0. Joints: spherical -> eSPHERICAL,
 * revolute -> eREVOLUTE about the same axis, fixed -> eFIX, the free root being the articulation's
 * floating base; the same joint limits and the same joint damping (drives of stiffness 0, no
 * joint friction, no link damping: PhysX's defaults of 0.05 are set to 0). PhysX turns
 * contacts between a link and its parent off and keeps the other links of an articulation
 * colliding, as Sinew does (its other self-collision exclusion, shapes overlapping in the neutral
 * pose, excludes no pair of this ragdoll).
 *
 * Not the same as Sinew, and said so in the printed tables: PhysX limits a spherical joint's two
 * swing angles separately, so Sinew's elliptical cone (half-angles s1, s2 about the axes u, v
 * perpendicular to the twist axis) becomes the box |swing1| <= s1, |swing2| <= s2 around it (its
 * corners reach further than the ellipse); PhysX runs its default solver (PGS; 4 position and
 * 1 velocity iterations per articulation) where Sinew runs 30 PGS sweeps and stabilisation. So
 * few iterations leave PhysX's limits soft (a knee passes its stop by a few hundredths of a
 * radian, a foot loaded by the body by tenths) and a pile of ragdolls jittering (links at up to
 * 0.2 m/s, a centimetre or so into the ground) and never asleep; with 32 position iterations it
 * comes to rest. PhysX caps joint speeds at 100 rad/s (its default), Sinew does not.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type PhysXModule from 'physx-js-webidl';
import { JointType, type Model, type ShapeDesc, type State } from '@sinew/featherstone';
import { matToQuat, principal } from './rapier-pile.js';

type PX = typeof PhysXModule & typeof PhysXModule.PxTopLevelFunctions;

/** The loaded module and the process-wide PhysX objects every pile shares. */
export interface PhysX {
  PX: PX;
  physics: PhysXModule.PxPhysics;
  dispatcher: PhysXModule.PxDefaultCpuDispatcher;
  /** "5.6.1" */
  version: string;
}

let loaded: PhysX | null = null;

/**
 * Loads PhysX's wasm (read from the package's folder: no network) and creates the foundation, the
 * physics object and a CPU dispatcher with no worker threads (the simulation runs on the calling
 * thread, as Sinew's and Rapier's do). A foundation can be created once per process: later calls
 * return the same objects.
 */
export async function loadPhysX(): Promise<PhysX> {
  if (loaded) return loaded;
  const wasmBinary = readFileSync(createRequire(import.meta.url).resolve('physx-js-webidl/physx-js-webidl.wasm'));
  const factory = (await import('physx-js-webidl')).default as unknown as (module: { wasmBinary: Uint8Array }) => Promise<PX>;
  const PX = await asWebWorker(() => factory({ wasmBinary }));
  const foundation = PX.CreateFoundation(PX.PHYSICS_VERSION, new PX.PxDefaultAllocator(), new PX.PxDefaultErrorCallback());
  const scale = new PX.PxTolerancesScale();
  const physics = PX.CreatePhysics(PX.PHYSICS_VERSION, foundation, scale);
  PX.destroy(scale);
  const dispatcher = PX.DefaultCpuDispatcherCreate(0);
  const v = PX.PHYSICS_VERSION;
  loaded = { PX, physics, dispatcher, version: `${(v >>> 24) & 255}.${(v >>> 16) & 255}.${(v >>> 8) & 255}` };
  return loaded;
}

/**
 * Calls `start` as if in a web worker. The package is built for browsers and workers only: its
 * factory throws at once where `process.versions.node` is set, although with its wasm bytes handed
 * over (wasmBinary) it needs nothing from the environment. The check runs in the factory's
 * synchronous start, so `process` is hidden and a worker global shown for that call only, and
 * both restored before anything else runs.
 */
function asWebWorker<T>(start: () => T): T {
  const g = globalThis as { WorkerGlobalScope?: unknown };
  const processDesc = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
  const hadWorker = 'WorkerGlobalScope' in g;
  Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
  if (!hadWorker) g.WorkerGlobalScope = function WorkerGlobalScope() {};
  try {
    return start();
  } finally {
    Object.defineProperty(globalThis, 'process', processDesc);
    if (!hadWorker) delete g.WorkerGlobalScope;
  }
}

export interface PhysXPile {
  physx: PhysX;
  scene: PhysXModule.PxScene;
  articulations: PhysXModule.PxArticulationReducedCoordinate[];
  /** Root (pelvis) link of each ragdoll. */
  roots: PhysXModule.PxArticulationLink[];
  /** Links of each ragdoll, in the Sinew Model's order. */
  links: PhysXModule.PxArticulationLink[][];
  joints: number;
  /** Solver of the scene ('PGS' or 'TGS'). */
  solver: string;
  step(): void;
  /** Links of the ragdolls that are awake. */
  awake(): number;
  /** Pelvis heights. */
  pelvisY(): Float64Array;
  /** Lowest point of any link's shapes (m, world y; from the shapes' world bounds). */
  lowestPoint(): number;
  free(): void;
}

export interface PhysXPileOptions {
  canSleep?: boolean;
  friction?: number;
  gravity?: [number, number, number];
  dt?: number;
}

/** Unit quaternion {x, y, z, w}. */
type Quat = { x: number; y: number; z: number; w: number };

/** a * b (rotation b first). */
function quatMul(a: Quat, b: Quat): Quat {
  return {
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
  };
}

/** 90 degrees about z: takes local x (a PhysX capsule's axis, a plane's normal) to local y. */
const X_TO_Y: Quat = { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 };

/**
 * A right-handed frame whose x axis is the unit vector `a` (a PhysX joint's twist, or a revolute
 * joint's, axis), y the axis u and z the axis v = a x u of Sinew's swing cone (joint-limits.ts:
 * u is x projected off a, or z where a is along x; swing[0] is about u, swing[1] about v).
 * Row-major 3x3 with the axes as columns.
 */
function axisFrame(a: ArrayLike<number>): number[] {
  const ax = a[0], ay = a[1], az = a[2];
  let ux = 1 - ax * ax, uy = -ax * ay, uz = -ax * az;
  let un = Math.hypot(ux, uy, uz);
  if (un < 1e-6) { ux = -az * ax; uy = -az * ay; uz = 1 - az * az; un = Math.hypot(ux, uy, uz); }
  ux /= un; uy /= un; uz /= un;
  const vx = ay * uz - az * uy, vy = az * ux - ax * uz, vz = ax * uy - ay * ux;
  return [ax, ux, vx, ay, uy, vy, az, uz, vz];
}

/** Row-major 3x3 product a b. */
function mat3Mul(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(9);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[3 * r + c] = a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c];
  return out;
}

/** Damping (per dof, in the joint's own coordinates: angular velocity in the link frame for a spherical joint) about unit axis e of a link: e^T D e for a diagonal D. */
function dampingAbout(model: Model, link: number, e: ArrayLike<number>): number {
  const o = model.vOffset[link];
  if (model.jointType[link] === JointType.revolute) return model.damping[o];
  return model.damping[o] * e[0] * e[0] + model.damping[o + 1] * e[1] * e[1] + model.damping[o + 2] * e[2] * e[2];
}

/** Scratch PhysX value objects for building a pile (WebAssembly heap: destroyed at the end). */
class Scratch {
  readonly v: PhysXModule.PxVec3;
  readonly q: PhysXModule.PxQuat;
  readonly t: PhysXModule.PxTransform;
  readonly limit: PhysXModule.PxArticulationLimit;
  readonly drive: PhysXModule.PxArticulationDrive;
  constructor(private readonly PX: PX) {
    this.v = new PX.PxVec3(0, 0, 0);
    this.q = new PX.PxQuat(0, 0, 0, 1);
    this.t = new PX.PxTransform(PX.PxIDENTITYEnum.PxIdentity);
    this.limit = new PX.PxArticulationLimit(0, 0);
    this.drive = new PX.PxArticulationDrive(0, 0, 3.4028234663852886e38, PX.PxArticulationDriveTypeEnum.eFORCE);
  }

  vec(x: number, y: number, z: number): PhysXModule.PxVec3 {
    this.v.x = x; this.v.y = y; this.v.z = z;
    return this.v;
  }

  transform(p: ArrayLike<number>, r: Quat): PhysXModule.PxTransform {
    this.q.x = r.x; this.q.y = r.y; this.q.z = r.z; this.q.w = r.w;
    this.t.p = this.vec(p[0], p[1], p[2]);
    this.t.q = this.q;
    return this.t;
  }

  free(): void {
    for (const o of [this.v, this.q, this.t, this.limit, this.drive]) this.PX.destroy(o);
  }
}

/**
 * PxRigidActorExt's functions. The typings declare them static, but the bindings put them on the
 * prototype (the class itself cannot be constructed).
 */
function rigidActorExt(PX: PX): typeof PhysXModule.PxRigidActorExt {
  return PX.PxRigidActorExt.prototype as unknown as typeof PhysXModule.PxRigidActorExt;
}

/** The PhysX geometry of a Sinew shape and the rotation of the shape's local pose (PhysX capsules lie along x). */
function shapeGeometry(PX: PX, shape: ShapeDesc): { geometry: PhysXModule.PxGeometry; rotation: Quat } {
  const gm = shape.geometry;
  const r = shape.rotation ?? [0, 0, 0, 1];
  const rotation = { x: r[0], y: r[1], z: r[2], w: r[3] };
  if (gm.type === 'capsule') return { geometry: new PX.PxCapsuleGeometry(gm.radius, gm.halfLength), rotation: quatMul(rotation, X_TO_Y) };
  if (gm.type === 'box') return { geometry: new PX.PxBoxGeometry(gm.halfExtents[0], gm.halfExtents[1], gm.halfExtents[2]), rotation };
  if (gm.type === 'sphere') return { geometry: new PX.PxSphereGeometry(gm.radius), rotation };
  throw new Error(`physxPile: shape type ${gm.type} is not mapped`);
}

/**
 * Sets the inbound joint of `link` (index i of the model) as Sinew's: its frames, type, motions,
 * limits and damping. The joint frame sits in the parent at X_tree (origin r, orientation
 * R_joint = E^T) turned by the axis frame F (x = twist or hinge axis); in the child, whose origin
 * and axes are the joint frame's at q = 0, it is F alone.
 */
function setJoint(PX: PX, s: Scratch, model: Model, i: number, joint: PhysXModule.PxArticulationJointReducedCoordinate): void {
  const X = model.treeX, o = 12 * i;
  const Rj = [X[o], X[o + 3], X[o + 6], X[o + 1], X[o + 4], X[o + 7], X[o + 2], X[o + 5], X[o + 8]];
  const t = model.jointType[i];
  const lim = model.sphericalLimits[i];
  const twistAxis = t === JointType.revolute ? [model.axis[3 * i], model.axis[3 * i + 1], model.axis[3 * i + 2]] : lim ? Array.from(lim.twistAxis) : [1, 0, 0];
  const F = axisFrame(twistAxis);
  joint.setParentPose(s.transform([X[o + 9], X[o + 10], X[o + 11]], matToQuat(mat3Mul(Rj, F))));
  joint.setChildPose(s.transform([0, 0, 0], matToQuat(F)));
  joint.setFrictionCoefficient(0); // PhysX's default joint friction is 0.05; Sinew has none
  const Axis = PX.PxArticulationAxisEnum, Motion = PX.PxArticulationMotionEnum;
  if (t === JointType.fixed) {
    joint.setJointType(PX.PxArticulationJointTypeEnum.eFIX);
    return;
  }
  // columns of F: the twist (or hinge) axis, u and v in the link frame, for the damping about each
  const col = (c: number) => [F[c], F[3 + c], F[6 + c]];
  const dampAxis = (axis: PhysXModule.PxArticulationAxisEnum, d: number) => {
    if (d <= 0) return;
    s.drive.stiffness = 0;
    s.drive.damping = d;
    joint.setDriveParams(axis, s.drive);
  };
  if (t === JointType.revolute) {
    joint.setJointType(PX.PxArticulationJointTypeEnum.eREVOLUTE);
    const lo = model.lower[model.vOffset[i]], hi = model.upper[model.vOffset[i]];
    const limited = Number.isFinite(lo) || Number.isFinite(hi);
    joint.setMotion(Axis.eTWIST, limited ? Motion.eLIMITED : Motion.eFREE);
    if (limited) setLimit(joint, s, Axis.eTWIST, Math.max(lo, -Math.PI), Math.min(hi, Math.PI));
    dampAxis(Axis.eTWIST, dampingAbout(model, i, col(0)));
  } else if (t === JointType.spherical) {
    joint.setJointType(PX.PxArticulationJointTypeEnum.eSPHERICAL);
    const axes = [Axis.eTWIST, Axis.eSWING1, Axis.eSWING2];
    for (const a of axes) joint.setMotion(a, lim ? Motion.eLIMITED : Motion.eFREE);
    if (lim) {
      setLimit(joint, s, Axis.eTWIST, lim.twist[0], lim.twist[1]);
      setLimit(joint, s, Axis.eSWING1, -lim.swing[0], lim.swing[0]);
      setLimit(joint, s, Axis.eSWING2, -lim.swing[1], lim.swing[1]);
    }
    axes.forEach((a, k) => dampAxis(a, dampingAbout(model, i, col(k))));
  } else throw new Error(`physxPile: joint type ${t} of link ${model.linkNames[i]} is not mapped`);
}

function setLimit(joint: PhysXModule.PxArticulationJointReducedCoordinate, s: Scratch, axis: PhysXModule.PxArticulationAxisEnum, low: number, high: number): void {
  s.limit.low = low;
  s.limit.high = high;
  joint.setLimitParams(axis, s.limit);
}

/**
 * A PhysX scene with a ground plane (y = 0) and one articulation per state (each state after
 * forward kinematics, at the pose Sinew starts from).
 */
export function physxPile(physx: PhysX, model: Model, states: readonly State[], options: PhysXPileOptions = {}): PhysXPile {
  const { PX, physics } = physx;
  const s = new Scratch(PX);
  const g = options.gravity ?? [0, -9.81, 0];
  const dt = options.dt ?? 1 / 60;
  const friction = options.friction ?? 0.8;
  // the scene: PhysX's default description (solver, broad phase, friction model) but for gravity,
  // the filter shader (the default one) and the dispatcher
  const scale = new PX.PxTolerancesScale();
  const desc = new PX.PxSceneDesc(scale);
  desc.gravity = s.vec(g[0], g[1], g[2]);
  desc.cpuDispatcher = physx.dispatcher;
  desc.filterShader = PX.DefaultFilterShader();
  const scene = physics.createScene(desc);
  PX.destroy(desc);
  PX.destroy(scale);
  const solver = scene.getSolverType() === PX.PxSolverTypeEnum.eTGS ? 'TGS' : 'PGS';

  const materials = new Map<string, PhysXModule.PxMaterial>();
  const material = (mu: number, e: number) => {
    const key = `${mu} ${e}`;
    let m = materials.get(key);
    if (!m) { m = physics.createMaterial(mu, mu, e); materials.set(key, m); }
    return m;
  };
  // the filter shader the bindings offer lets two shapes touch when the group bits (word0) of one
  // meet the mask (word1) of the other: every shape here is in group 1 and collides with it
  const filter = new PX.PxFilterData(1, 1, 0, 0);
  // the ground: a half-space below y = 0 (a PhysX plane faces its local +x: turned to +y)
  const ground = physics.createRigidStatic(s.transform([0, 0, 0], { x: 0, y: 0, z: 0, w: 1 }));
  const plane = new PX.PxPlaneGeometry();
  const groundShape = rigidActorExt(PX).createExclusiveShape(ground, plane, material(friction, 0));
  PX.destroy(plane);
  groundShape.setLocalPose(s.transform([0, 0, 0], X_TO_Y));
  groundShape.setSimulationFilterData(filter);
  scene.addActor(ground);

  const inertia = Array.from({ length: model.nLinks }, (_, i) => principal(model.inertiaCom, 6 * i));
  const articulations: PhysXModule.PxArticulationReducedCoordinate[] = [];
  const roots: PhysXModule.PxArticulationLink[] = [];
  const links: PhysXModule.PxArticulationLink[][] = [];
  let joints = 0;
  for (const state of states) {
    const pose = state.work.pose;
    const art = physics.createArticulationReducedCoordinate();
    // sleep off: an articulation sleeps when its kinetic energy per unit mass stays below the
    // threshold for the wake-counter time; with a threshold of 0 it never does
    if (options.canSleep === false) art.setSleepThreshold(0);
    const own: PhysXModule.PxArticulationLink[] = [];
    for (let i = 0; i < model.nLinks; i++) {
      const o = 12 * i;
      const parent = model.parent[i];
      const link = art.createLink(parent < 0 ? null! : own[parent], s.transform([pose[o + 9], pose[o + 10], pose[o + 11]], matToQuat(pose, o)));
      // mass properties: Sinew's, with the inertia in its principal axes
      const { moments, axes } = inertia[i];
      link.setMass(model.mass[i]);
      link.setCMassLocalPose(s.transform([model.com[3 * i], model.com[3 * i + 1], model.com[3 * i + 2]], matToQuat(axes)));
      link.setMassSpaceInertiaTensor(s.vec(moments[0], moments[1], moments[2]));
      // PhysX damps links by default (0.05 linear and angular); Sinew does not
      link.setLinearDamping(0);
      link.setAngularDamping(0);
      for (const shape of model.shapes[i]) {
        const { geometry, rotation } = shapeGeometry(PX, shape);
        const sh = rigidActorExt(PX).createExclusiveShape(link, geometry, material(shape.friction ?? friction, shape.restitution ?? 0));
        PX.destroy(geometry);
        sh.setLocalPose(s.transform(shape.position ?? [0, 0, 0], rotation));
        sh.setSimulationFilterData(filter);
      }
      own.push(link);
      if (parent >= 0) {
        setJoint(PX, s, model, i, link.getInboundJoint());
        joints++;
      }
    }
    scene.addArticulation(art);
    articulations.push(art);
    roots.push(own[0]);
    links.push(own);
  }
  s.free();
  PX.destroy(filter);

  const ys = new Float64Array(roots.length);
  return {
    physx, scene, articulations, roots, links, joints, solver,
    step: () => {
      scene.simulate(dt);
      scene.fetchResults(true);
    },
    awake: () => {
      let n = 0;
      for (const a of articulations) if (!a.isSleeping()) n += model.nLinks;
      return n;
    },
    pelvisY: () => {
      for (let k = 0; k < roots.length; k++) ys[k] = roots[k].getGlobalPose().p.y;
      return ys;
    },
    lowestPoint: () => {
      let low = Infinity;
      for (const own of links) for (const l of own) low = Math.min(low, l.getWorldBounds(1).minimum.y);
      return low;
    },
    free: () => {
      for (const a of articulations) {
        scene.removeArticulation(a);
        a.release();
      }
      scene.removeActor(ground);
      ground.release();
      scene.release();
      for (const m of materials.values()) m.release();
    },
  };
}
