/**
 * The peer scenes of ../shared/bench/peer-scenes/common.mjs (the 15-part ragdoll pile and the 7-link
 * chain) built in MuJoCo (mujoco-js), Jolt (jolt-physics, its embedded-wasm build) and cannon-es,
 * for peers.bench.ts. All three run in common.mjs's own frame (z up, gravity (0, 0, -9.81)), each
 * engine with its defaults but for friction 0.8 and restitution 0 on every shape.
 *
 * MuJoCo: the MJCF text is generated from PARTS / JOINTS (one tree per ragdoll, every body frame at
 * its part's centre with identity orientation in the reference pose, the pelvis on a free joint;
 * geoms carry their mass, so MuJoCo computes the same box and sphere inertia as common.mjs), written
 * into the Emscripten file system and loaded with MjModel.loadFromXML. Hinges are limited; a ball
 * joint's MJCF limit is a single cone (range="0 swing"), so the symmetric twist limit is not
 * expressed. MuJoCo filters parent-child contacts itself (filterparent). Energy from mjData.energy
 * (the energy flag on). MuJoCo has no sleeping: "asleep" is not reported.
 *
 * Jolt: one body per part (mass given, inertia computed by Jolt from the shape: the same solid box
 * and sphere inertia), SwingTwistConstraint for the ball joints (cone and twist limits as
 * common.mjs) and limited HingeConstraints; a GroupFilterTable per ragdoll switches off contacts
 * between jointed neighbours (what Jolt's Ragdoll does). Box convex radius: Jolt's 0.05 m clamped to
 * half the smallest half extent. Sleeping on (Jolt's default).
 *
 * cannon-es: one body per part (cannon computes box and sphere inertia from the shape), ball joints
 * as ConeTwistConstraint (cone angle and twist angle), hinges as HingeConstraint (cannon hinges have
 * no limits), collideConnected false. Sleep on (cannon's default is off; switched on so "asleep"
 * means the same thing as for the other engines), its default (naive) broadphase and 10 iterations.
 */
// @ts-ignore: plain JavaScript shared by every engine's benchmark (no type declarations)
import * as peer from '../../../../shared/bench/peer-scenes/common.mjs';

type V3 = [number, number, number];
type Q4 = [number, number, number, number];
/** A pose in common.mjs's frame: position and quaternion [w, x, y, z]. */
export interface PeerPose { p: V3; q: Q4 }

interface PeerPart { name: string; shape: 'box' | 'sphere'; size: V3 | number; mass: number; c: V3 }
interface PeerJoint { name: string; type: 'ball' | 'hinge'; parent: number; child: number; anchor: V3; twistAxis?: V3; swing?: number; twist?: number; axis?: V3; lo?: number; hi?: number }
const PARTS = peer.PARTS as PeerPart[];
const JOINTS = peer.JOINTS as PeerJoint[];
const FRICTION = peer.FRICTION as number;
const CHAIN = peer.CHAIN as { links: number; mass: number; length: number; halfExtents: V3; axis: V3; dt: number; steps: number };

/** What a benchmark needs of a scene in one engine. */
export interface PeerSim {
  /** One step of the scene's dt. */
  step(): void;
  /** World pose of every body: per ragdoll the 15 parts in PARTS order, or the chain's links. */
  poses(): PeerPose[];
  /** Kinetic energy (J). */
  kineticEnergy(): number;
  /** Fraction of bodies asleep, or null when the engine does not sleep. */
  asleep(): number | null;
  free(): void;
}

const f = (x: number) => (Math.abs(x) < 1e-12 ? '0' : String(+x.toPrecision(12)));
const v = (a: readonly number[]) => a.map(f).join(' ');

// ---------------------------------------------------------------- MuJoCo

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type MJ = any;
let mujoco: MJ = null;
/** Loads mujoco-js's wasm (embedded in the package) and mounts a memory file system at /peers. */
export async function loadMujoco(): Promise<MJ> {
  if (mujoco) return mujoco;
  const mod = await import('mujoco-js');
  mujoco = await (mod.default as unknown as () => Promise<MJ>)();
  mujoco.FS.mkdir('/peers');
  return mujoco;
}

/**
 * MJCF of the ragdoll pile (n ragdolls) of common.mjs, and `order`: for each of MuJoCo's bodies
 * after the world (depth-first, in the text's order) its index in the PARTS order of ragdoll after
 * ragdoll (15 i + part).
 */
export function mujocoPileXML(n: number): { xml: string; order: number[] } {
  const order: number[] = [];
  const out: string[] = [];
  out.push('<mujoco model="peer ragdoll pile">');
  out.push('  <compiler angle="radian" inertiafromgeom="true"/>');
  out.push(`  <option timestep="${f(peer.RAGDOLL_DT)}" gravity="0 0 ${f(-peer.G)}"><flag energy="enable"/></option>`);
  out.push(`  <default><geom friction="${f(FRICTION)} 0.005 0.0001"/></default>`);
  out.push('  <worldbody>');
  out.push('    <geom name="ground" type="plane" size="0 0 1"/>');
  const children = PARTS.map(() => [] as number[]);
  const jointOf = new Map<number, PeerJoint>();
  for (const j of JOINTS) { children[j.parent].push(j.child); jointOf.set(j.child, j); }
  const geom = (p: PeerPart) => p.shape === 'sphere'
    ? `<geom type="sphere" size="${f(p.size as number)}" mass="${f(p.mass)}"/>`
    : `<geom type="box" size="${v(p.size as V3)}" mass="${f(p.mass)}"/>`;
  const body = (i: number, k: number, indent: string) => {
    const p = PARTS[k];
    const j = jointOf.get(k);
    const pos = j ? peer.sub(p.c, PARTS[j.parent].c) as V3 : [0, 0, 0];
    out.push(`${indent}<body name="r${i}_${p.name}" pos="${v(pos)}">`);
    order.push(15 * i + k);
    if (j) {
      const a = peer.sub(j.anchor, p.c) as V3;
      if (j.type === 'hinge') out.push(`${indent}  <joint type="hinge" pos="${v(a)}" axis="${v(j.axis!)}" limited="true" range="${f(j.lo!)} ${f(j.hi!)}"/>`);
      else out.push(`${indent}  <joint type="ball" pos="${v(a)}" limited="true" range="0 ${f(j.swing!)}"/>`);
    }
    out.push(`${indent}  ${geom(p)}`);
    for (const c of children[k]) body(i, c, indent + '  ');
    out.push(`${indent}</body>`);
  };
  for (let i = 0; i < n; i++) {
    const { p, q } = peer.pilePose(i) as PeerPose;
    out.push(`    <body name="r${i}" pos="${v(p)}" quat="${v(q)}">`);
    order.push(15 * i);
    out.push('      <freejoint/>');
    out.push(`      ${geom(PARTS[0])}`);
    for (const c of children[0]) body(i, c, '      ');
    out.push('    </body>');
  }
  out.push('  </worldbody>');
  out.push('</mujoco>');
  return { xml: out.join('\n'), order };
}

/** MJCF of the 7-link chain of common.mjs (hinges about +y, link 0 pinned at the origin, no contacts). */
export function mujocoChainXML(): string {
  const h = CHAIN.halfExtents;
  const out: string[] = ['<mujoco model="peer chain">', `  <option timestep="${f(CHAIN.dt)}" gravity="0 0 ${f(-peer.G)}"><flag energy="enable"/></option>`, '  <worldbody>'];
  let indent = '    ';
  for (let i = 0; i < CHAIN.links; i++) {
    const pos = i === 0 ? peer.chainLinkCenter(0) : [CHAIN.length, 0, 0];
    out.push(`${indent}<body name="link${i}" pos="${v(pos)}">`);
    out.push(`${indent}  <joint type="hinge" pos="${f(-CHAIN.length / 2)} 0 0" axis="${v(CHAIN.axis)}"/>`);
    out.push(`${indent}  <geom type="box" size="${v(h)}" mass="${f(CHAIN.mass)}" contype="0" conaffinity="0"/>`);
    indent += '  ';
  }
  for (let i = CHAIN.links - 1; i >= 0; i--) { indent = indent.slice(2); out.push(`${indent}</body>`); }
  out.push('  </worldbody>', '</mujoco>');
  return out.join('\n');
}

let mjFiles = 0;
/** A MuJoCo scene from MJCF text (written into the memory file system), with its bodies' poses (body 0, the world, left out). */
export function mujocoSim(M: MJ, xml: string, order?: readonly number[]): PeerSim & { model: MJ; data: MJ; potentialEnergy(): number } {
  const path = `/peers/scene${mjFiles++}.xml`;
  M.FS.writeFile(path, xml);
  const model = M.MjModel.loadFromXML(path);
  const data = new M.MjData(model);
  M.mj_forward(model, data);
  const nb = model.nbody as number;
  return {
    model, data,
    step: () => M.mj_step(model, data),
    poses: () => {
      const x = data.xpos as Float64Array, q = data.xquat as Float64Array;
      const out: PeerPose[] = [];
      for (let b = 1; b < nb; b++) out[order ? order[b - 1] : b - 1] = { p: [x[3 * b], x[3 * b + 1], x[3 * b + 2]], q: [q[4 * b], q[4 * b + 1], q[4 * b + 2], q[4 * b + 3]] };
      return out;
    },
    kineticEnergy: () => (data.energy as Float64Array)[1],
    potentialEnergy: () => (data.energy as Float64Array)[0],
    asleep: () => null,
    free: () => { data.delete(); model.delete(); },
  };
}

// ---------------------------------------------------------------- Jolt

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JoltNS = any;
let jolt: JoltNS = null;
/** Loads jolt-physics (the wasm build with the wasm embedded). */
export async function loadJolt(): Promise<JoltNS> {
  if (jolt) return jolt;
  const mod = await import('jolt-physics');
  jolt = await (mod.default as unknown as () => Promise<JoltNS>)();
  return jolt;
}

interface JoltWorld { J: JoltNS; iface: JoltNS; system: JoltNS; bodies: JoltNS; ground: JoltNS }
const MOVING = 1, NON_MOVING = 0;
function joltWorld(J: JoltNS, maxBodies: number): JoltWorld {
  const settings = new J.JoltSettings();
  // body pairs and contact constraints: JoltSettings's defaults (65536, 10240), enough for N = 100;
  // more contact constraints overflow the temp allocator of the JS build (10 MB)
  settings.mMaxBodies = Math.max(10240, maxBodies + 16);
  const pairs = new J.ObjectLayerPairFilterTable(2);
  pairs.EnableCollision(NON_MOVING, MOVING);
  pairs.EnableCollision(MOVING, MOVING);
  const bp = new J.BroadPhaseLayerInterfaceTable(2, 2);
  bp.MapObjectToBroadPhaseLayer(NON_MOVING, new J.BroadPhaseLayer(0));
  bp.MapObjectToBroadPhaseLayer(MOVING, new J.BroadPhaseLayer(1));
  settings.mObjectLayerPairFilter = pairs;
  settings.mBroadPhaseLayerInterface = bp;
  settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(settings.mBroadPhaseLayerInterface, 2, settings.mObjectLayerPairFilter, 2);
  const iface = new J.JoltInterface(settings);
  J.destroy(settings);
  const system = iface.GetPhysicsSystem();
  system.SetGravity(new J.Vec3(0, 0, -peer.G));
  return { J, iface, system, bodies: system.GetBodyInterface(), ground: null };
}

function joltBody(w: JoltWorld, shape: JoltNS, mass: number, pose: PeerPose, group: JoltNS | null, undamped = false): JoltNS {
  const J = w.J;
  const { p, q } = pose;
  const s = new J.BodyCreationSettings(shape, new J.RVec3(p[0], p[1], p[2]), new J.Quat(q[1], q[2], q[3], q[0]), J.EMotionType_Dynamic, MOVING);
  s.mOverrideMassProperties = J.EOverrideMassProperties_CalculateInertia;
  s.mMassPropertiesOverride.mMass = mass;
  s.mFriction = FRICTION;
  s.mRestitution = 0;
  if (group) s.mCollisionGroup = group;
  if (undamped) { s.mLinearDamping = 0; s.mAngularDamping = 0; }
  const body = w.bodies.CreateBody(s);
  J.destroy(s);
  w.bodies.AddBody(body.GetID(), J.EActivation_Activate);
  return body;
}

function joltBox(J: JoltNS, h: readonly number[]): JoltNS {
  const r = Math.min(0.05, 0.5 * Math.min(h[0], h[1], h[2]));
  return new J.BoxShape(new J.Vec3(h[0], h[1], h[2]), r, null);
}

function joltSim(w: JoltWorld, bodies: JoltNS[], masses: number[], inertia: V3[], dt: number): PeerSim {
  const J = w.J;
  return {
    step: () => w.iface.Step(dt, 1),
    poses: () => bodies.map((b) => {
      const p = b.GetCenterOfMassPosition(), q = b.GetRotation();
      return { p: [p.GetX(), p.GetY(), p.GetZ()] as V3, q: [q.GetW(), q.GetX(), q.GetY(), q.GetZ()] as Q4 };
    }),
    kineticEnergy: () => {
      let ke = 0;
      for (let k = 0; k < bodies.length; k++) {
        const b = bodies[k], q = b.GetRotation(), lv = b.GetLinearVelocity(), av = b.GetAngularVelocity();
        ke += peer.bodyKE(masses[k], inertia[k], [q.GetW(), q.GetX(), q.GetY(), q.GetZ()], [lv.GetX(), lv.GetY(), lv.GetZ()], [av.GetX(), av.GetY(), av.GetZ()]) as number;
      }
      return ke;
    },
    asleep: () => {
      let s = 0;
      for (const b of bodies) if (!b.IsActive()) s++;
      return s / bodies.length;
    },
    free: () => J.destroy(w.iface),
  };
}

/** A unit vector perpendicular to a (for Jolt's normal / plane axes). */
function perpendicular(a: readonly number[]): V3 {
  const t: V3 = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const c: V3 = [a[1] * t[2] - a[2] * t[1], a[2] * t[0] - a[0] * t[2], a[0] * t[1] - a[1] * t[0]];
  const l = Math.hypot(c[0], c[1], c[2]);
  return [c[0] / l, c[1] / l, c[2] / l];
}

/** The ragdoll pile of n ragdolls in Jolt. */
export function joltPile(J: JoltNS, n: number): PeerSim {
  const w = joltWorld(J, 15 * n);
  const groundSettings = new J.BodyCreationSettings(new J.BoxShape(new J.Vec3(200, 200, 1), 0.05, null), new J.RVec3(0, 0, -1), new J.Quat(0, 0, 0, 1), J.EMotionType_Static, NON_MOVING);
  groundSettings.mFriction = FRICTION;
  groundSettings.mRestitution = 0;
  w.bodies.CreateAndAddBody(groundSettings, J.EActivation_DontActivate);
  J.destroy(groundSettings);
  const shapes = PARTS.map((p) => (p.shape === 'sphere' ? new J.SphereShape(p.size as number, null) : joltBox(J, p.size as V3)));
  const filter = new J.GroupFilterTable(PARTS.length);
  for (const j of JOINTS) filter.DisableCollision(j.parent, j.child);
  const bodies: JoltNS[] = [], masses: number[] = [], inertia: V3[] = [];
  const V = (a: readonly number[]) => new J.Vec3(a[0], a[1], a[2]);
  const RV = (a: readonly number[]) => new J.RVec3(a[0], a[1], a[2]);
  for (let i = 0; i < n; i++) {
    const world = peer.ragdollWorld(i) as { parts: (PeerPart & PeerPose)[]; joints: (PeerJoint & { worldAnchor: V3; worldAxis: V3 | null; worldTwist: V3 | null })[] };
    const parts = world.parts.map((pt, k) => {
      const b = joltBody(w, shapes[k], pt.mass, { p: pt.p, q: pt.q }, new J.CollisionGroup(filter, i, k));
      bodies.push(b); masses.push(pt.mass); inertia.push(peer.partInertia(pt) as V3);
      return b;
    });
    for (const j of world.joints) {
      let s: JoltNS;
      if (j.type === 'hinge') {
        s = new J.HingeConstraintSettings();
        s.mPoint1 = RV(j.worldAnchor); s.mPoint2 = RV(j.worldAnchor);
        s.mHingeAxis1 = V(j.worldAxis!); s.mHingeAxis2 = V(j.worldAxis!);
        const nrm = perpendicular(j.worldAxis!);
        s.mNormalAxis1 = V(nrm); s.mNormalAxis2 = V(nrm);
        s.mLimitsMin = j.lo!; s.mLimitsMax = j.hi!;
      } else {
        s = new J.SwingTwistConstraintSettings();
        s.mPosition1 = RV(j.worldAnchor); s.mPosition2 = RV(j.worldAnchor);
        s.mTwistAxis1 = V(j.worldTwist!); s.mTwistAxis2 = V(j.worldTwist!);
        const pl = perpendicular(j.worldTwist!);
        s.mPlaneAxis1 = V(pl); s.mPlaneAxis2 = V(pl);
        s.mNormalHalfConeAngle = j.swing!; s.mPlaneHalfConeAngle = j.swing!;
        s.mTwistMinAngle = -j.twist!; s.mTwistMaxAngle = j.twist!;
      }
      s.mSpace = J.EConstraintSpace_WorldSpace;
      w.system.AddConstraint(s.Create(parts[j.parent], parts[j.child]));
      J.destroy(s);
    }
  }
  w.system.OptimizeBroadPhase();
  return joltSim(w, bodies, masses, inertia, peer.RAGDOLL_DT);
}

/** The 7-link chain in Jolt: hinges about +y, link 0 hinged to the fixed world body; damping 0 (the scene's; Jolt's default is 0.05). */
export function joltChain(J: JoltNS): PeerSim {
  const w = joltWorld(J, CHAIN.links);
  const bodies: JoltNS[] = [], masses: number[] = [], inertia: V3[] = [];
  const shape = joltBox(J, CHAIN.halfExtents);
  for (let i = 0; i < CHAIN.links; i++) {
    bodies.push(joltBody(w, shape, CHAIN.mass, { p: peer.chainLinkCenter(i), q: [1, 0, 0, 0] }, null, true));
    masses.push(CHAIN.mass); inertia.push(peer.boxInertia(CHAIN.mass, CHAIN.halfExtents) as V3);
  }
  const fixed = w.iface.sGetFixedToWorldBody();
  for (let i = 0; i < CHAIN.links; i++) {
    const s = new J.HingeConstraintSettings();
    const a = peer.chainJointPoint(i) as V3;
    s.mSpace = J.EConstraintSpace_WorldSpace;
    s.mPoint1 = new J.RVec3(a[0], a[1], a[2]); s.mPoint2 = new J.RVec3(a[0], a[1], a[2]);
    s.mHingeAxis1 = new J.Vec3(0, 1, 0); s.mHingeAxis2 = new J.Vec3(0, 1, 0);
    s.mNormalAxis1 = new J.Vec3(1, 0, 0); s.mNormalAxis2 = new J.Vec3(1, 0, 0);
    w.system.AddConstraint(s.Create(i === 0 ? fixed : bodies[i - 1], bodies[i]));
    J.destroy(s);
  }
  return joltSim(w, bodies, masses, inertia, CHAIN.dt);
}

// ---------------------------------------------------------------- cannon-es

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CannonNS = any;
/** Loads cannon-es. */
export async function loadCannon(): Promise<CannonNS> {
  return await import('cannon-es');
}

function cannonSim(C: CannonNS, world: CannonNS, bodies: CannonNS[], dt: number): PeerSim {
  return {
    step: () => world.step(dt),
    poses: () => bodies.map((b) => ({ p: [b.position.x, b.position.y, b.position.z] as V3, q: [b.quaternion.w, b.quaternion.x, b.quaternion.y, b.quaternion.z] as Q4 })),
    kineticEnergy: () => {
      let ke = 0;
      for (const b of bodies) {
        const q = b.quaternion, lv = b.velocity, av = b.angularVelocity, I = b.inertia;
        ke += peer.bodyKE(b.mass, [I.x, I.y, I.z], [q.w, q.x, q.y, q.z], [lv.x, lv.y, lv.z], [av.x, av.y, av.z]) as number;
      }
      return ke;
    },
    asleep: () => {
      let s = 0;
      for (const b of bodies) if (b.sleepState === C.Body.SLEEPING) s++;
      return s / bodies.length;
    },
    free: () => {},
  };
}

/** The ragdoll pile of n ragdolls in cannon-es. */
export function cannonPile(C: CannonNS, n: number): PeerSim {
  const world = new C.World({ gravity: new C.Vec3(0, 0, -peer.G), allowSleep: true });
  world.defaultContactMaterial.friction = FRICTION;
  world.defaultContactMaterial.restitution = 0;
  const ground = new C.Body({ mass: 0, shape: new C.Plane() });
  world.addBody(ground);
  const bodies: CannonNS[] = [];
  const V = (a: readonly number[]) => new C.Vec3(a[0], a[1], a[2]);
  for (let i = 0; i < n; i++) {
    const rw = peer.ragdollWorld(i) as { parts: (PeerPart & PeerPose)[]; joints: (PeerJoint & { localA: V3; localB: V3 })[] };
    const parts = rw.parts.map((pt) => {
      const shape = pt.shape === 'sphere' ? new C.Sphere(pt.size as number) : new C.Box(V(pt.size as V3));
      const b = new C.Body({ mass: pt.mass, shape, position: V(pt.p), quaternion: new C.Quaternion(pt.q[1], pt.q[2], pt.q[3], pt.q[0]) });
      world.addBody(b);
      bodies.push(b);
      return b;
    });
    for (const j of rw.joints) {
      const A = parts[j.parent], B = parts[j.child];
      // body frames have the reference-pose axes, so common.mjs's axes are already body-local
      const c = j.type === 'hinge'
        ? new C.HingeConstraint(A, B, { pivotA: V(j.localA), pivotB: V(j.localB), axisA: V(j.axis!), axisB: V(j.axis!), collideConnected: false })
        : new C.ConeTwistConstraint(A, B, { pivotA: V(j.localA), pivotB: V(j.localB), axisA: V(j.twistAxis!), axisB: V(j.twistAxis!), angle: j.swing!, twistAngle: j.twist!, collideConnected: false });
      world.addConstraint(c);
    }
  }
  return cannonSim(C, world, bodies, peer.RAGDOLL_DT);
}

/** The 7-link chain in cannon-es (no contacts: no shapes collide; damping 0, the scene's, where cannon's default is 0.01). */
export function cannonChain(C: CannonNS): PeerSim {
  const world = new C.World({ gravity: new C.Vec3(0, 0, -peer.G) });
  const h = CHAIN.halfExtents;
  const anchor = new C.Body({ mass: 0 });
  world.addBody(anchor);
  const bodies: CannonNS[] = [];
  for (let i = 0; i < CHAIN.links; i++) {
    const c = peer.chainLinkCenter(i) as V3;
    const b = new C.Body({ mass: CHAIN.mass, shape: new C.Box(new C.Vec3(h[0], h[1], h[2])), position: new C.Vec3(c[0], c[1], c[2]), collisionResponse: false, linearDamping: 0, angularDamping: 0 });
    b.collisionFilterMask = 0;
    world.addBody(b);
    bodies.push(b);
  }
  const axis = new C.Vec3(0, 1, 0), hl = CHAIN.length / 2;
  for (let i = 0; i < CHAIN.links; i++) {
    const A = i === 0 ? anchor : bodies[i - 1];
    world.addConstraint(new C.HingeConstraint(A, bodies[i], { pivotA: new C.Vec3(i === 0 ? 0 : hl, 0, 0), pivotB: new C.Vec3(-hl, 0, 0), axisA: axis, axisB: axis, collideConnected: false }));
  }
  return cannonSim(C, world, bodies, CHAIN.dt);
}
