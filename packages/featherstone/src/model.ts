/**
 * The articulated model: topology, joints, inertias, limits and shapes of a tree of links, built
 * once by a ModelBuilder and then immutable, so that many characters (States) can share it.
 *
 * Frames: each link's frame is its joint's frame moved by the joint (X_i = X_J(q_i) X_tree,i).
 * The joint frame sits in the parent link's frame at `joint.position` with orientation
 * `joint.rotation`. Centres of mass, inertias and shapes are given in the link's own frame.
 */
import { JOINT_NQ, JOINT_NV, JOINT_TYPE_NAMES, JointType, motionSubspace, type JointTypeName } from './joints.js';
import { rigidBodyInertia } from './spatial.js';
import type { ShapeDesc } from './shapes.js';
import * as detMath from './det-math.js';

/** Thrown for an invalid model description; `path` names the link and field at fault. */
export class ModelError extends Error {
  constructor(public readonly path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'ModelError';
  }
}

/** A 3-vector as the model builder takes it: a tuple, a typed array or a gl-matrix `vec3`. */
export type Vec3Tuple = readonly [number, number, number] | ArrayLike<number>;

/** Range of a spherical joint: a swing cone (elliptical, two half-angles) about the twist axis and a twist range. */
export interface SphericalLimits {
  /** Twist axis in the joint frame (default [0, 1, 0], along a bone). */
  twistAxis?: Vec3Tuple;
  /** Swing half-angles (radians) about the two axes perpendicular to the twist axis; one number for a circular cone. */
  swing: number | readonly [number, number];
  /** Twist range (radians) about the twist axis. */
  twist: readonly [number, number];
  /**
   * Where the cone is centred (default [0, 0]: on the twist axis of the rest pose): the rotation
   * vector swingCentre[0] u + swingCentre[1] v (radians, about the cone axes u and v of `swing`),
   * turning the whole range (cone and twist) away from the rest pose. The limit is the range of
   * C^-1 Q for the joint's rotation Q and this centre C: an asymmetric range (a hip's abduction
   * 45 and adduction 30 degrees) is a cone of half-angle 37.5 turned by 7.5 toward abduction.
   */
  swingCentre?: readonly [number, number];
}

/**
 * A spherical joint's limits as the model keeps them: the unit twist axis, the swing half-angles,
 * the twist range, and when the cone is centred off the rest pose (SphericalLimits.swingCentre)
 * that centre and its unit quaternion C ([x, y, z, w]).
 */
export interface ModelSphericalLimits {
  twistAxis: Float64Array;
  swing: [number, number];
  twist: [number, number];
  swingCentre?: [number, number];
  centre?: Float64Array;
}

/**
 * The cone axes u, v perpendicular to the unit twist axis a, as the limit rows build them (u = x -
 * (x . a) a normalised, or z - (z . a) a when a is along x; v = a x u), into out[o..o+6).
 */
export function sphericalConeAxes(a: ArrayLike<number>, out: Float64Array, o: number): void {
  let ux = 1 - a[0] * a[0], uy = -a[0] * a[1], uz = -a[0] * a[2];
  let n = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (n < 1e-6) {
    ux = -a[2] * a[0]; uy = -a[2] * a[1]; uz = 1 - a[2] * a[2];
    n = Math.sqrt(ux * ux + uy * uy + uz * uz);
  }
  ux /= n; uy /= n; uz /= n;
  out[o] = ux; out[o + 1] = uy; out[o + 2] = uz;
  out[o + 3] = a[1] * uz - a[2] * uy; out[o + 4] = a[2] * ux - a[0] * uz; out[o + 5] = a[0] * uy - a[1] * ux;
}

/**
 * out[o..o+4) <- C^-1 Q, for a spherical joint's rotation Q = q[qo..qo+4) and the unit quaternion C
 * of its cone's centre (ModelSphericalLimits.centre): the rotation whose swing and twist a cone
 * centred off the rest pose limits (SphericalLimits.swingCentre). Its link-frame rate is Q's, as C
 * is fixed.
 */
export function centredRotationInto(C: ArrayLike<number>, q: ArrayLike<number>, qo: number, out: Float64Array, o: number): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const cx = -C[0], cy = -C[1], cz = -C[2], cw = C[3];
  out[o] = cw * x + cx * w + cy * z - cz * y;
  out[o + 1] = cw * y - cx * z + cy * w + cz * x;
  out[o + 2] = cw * z + cx * y - cy * x + cz * w;
  out[o + 3] = cw * w - cx * x - cy * y - cz * z;
}

/** The joint that connects a link to its parent: type, axis, frame in the parent link, limits, damping, armature and spring. */
export interface JointSpec {
  type: JointTypeName;
  /** Joint name (default: the link's name). Names are unique across the model. */
  name?: string;
  /** Joint axis in the joint frame, for revolute and prismatic joints (normalised here). */
  axis?: Vec3Tuple;
  /** Joint frame origin in the parent link's frame (default [0, 0, 0]). */
  position?: Vec3Tuple;
  /** Joint frame orientation in the parent link's frame, quaternion [x, y, z, w] (default identity). */
  rotation?: ArrayLike<number>;
  /** Lower and upper position limits for revolute and prismatic joints. */
  limits?: { lower: number; upper: number } | SphericalLimits;
  /** Viscous damping per degree of freedom (N m s / rad or N s / m): tau = -damping * qd. */
  damping?: number;
  /** Rotor inertia added to the joint-space mass matrix diagonal (kg m^2 or kg). */
  armature?: number;
  /** Spring stiffness toward `springRef` for revolute and prismatic joints: tau = -stiffness (q - springRef). */
  stiffness?: number;
  springRef?: number;
}

/** One link for `ModelBuilder.addLink`: its name, parent, joint, mass properties and collision shapes. */
export interface LinkSpec {
  name: string;
  /** Parent link: its index, its name, or -1 / null for the world. The parent must already exist. */
  parent: number | string | null;
  joint: JointSpec;
  mass: number;
  /** Centre of mass in the link frame (default [0, 0, 0]). */
  com?: Vec3Tuple;
  /** Rotational inertia about the centre of mass in the link frame: [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]. */
  inertia: ArrayLike<number>;
  shapes?: ShapeDesc[];
}

/** What a model knows of one joint: its name, link, type and where its coordinates sit in q and qd. */
export interface JointInfo {
  readonly name: string;
  readonly link: number;
  readonly type: JointTypeName;
  /** Offset of the joint's coordinates in q. */
  readonly q: number;
  /** Offset of the joint's degrees of freedom in qd, qdd and tau. */
  readonly v: number;
  readonly nq: number;
  readonly nv: number;
}

/** Options of `ModelBuilder.build` that apply to the whole model (gravity). */
export interface ModelOptions {
  /** Gravity in world coordinates (default [0, -9.81, 0]). */
  gravity?: Vec3Tuple;
}

const DEFAULT_GRAVITY = [0, -9.81, 0];

/** An immutable articulated model: topology, joints, inertias, limits and shapes of a tree of links, shared by every State built on it. */
export class Model {
  readonly nLinks: number;
  readonly nq: number;
  readonly nv: number;
  /** Parent index of each link, -1 for the world. Parents come before children. */
  readonly parent: Int32Array;
  /** Joint type code (JointType) of each link's joint. */
  readonly jointType: Uint8Array;
  /** Offsets of each link's joint in q and qd. */
  readonly qOffset: Int32Array;
  readonly vOffset: Int32Array;
  readonly jointNq: Int32Array;
  readonly jointNv: Int32Array;
  /** Link of each degree of freedom. */
  readonly dofLink: Int32Array;
  readonly linkNames: readonly string[];
  readonly jointNames: readonly string[];
  /** Fixed transform parent -> joint frame, short form (E, r), 12 per link. */
  readonly treeX: Float64Array;
  /** Unit axis of revolute and prismatic joints (joint frame), 3 per link. */
  readonly axis: Float64Array;
  /** Motion subspace, 36 per link (6 x nv column-major, the unused rest zero). */
  readonly S: Float64Array;
  readonly mass: Float64Array;
  /** Centre of mass in the link frame, 3 per link. */
  readonly com: Float64Array;
  /** Rotational inertia about the centre of mass, [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] per link. */
  readonly inertiaCom: Float64Array;
  /** Spatial inertia at the link origin in link coordinates, 36 per link. */
  readonly I: Float64Array;
  /** Per-dof lower and upper limits (-Infinity / +Infinity where none; spherical dofs use sphericalLimits). */
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly damping: Float64Array;
  readonly armature: Float64Array;
  readonly stiffness: Float64Array;
  readonly springRef: Float64Array;
  /** Spherical limits by link index (undefined where none). */
  readonly sphericalLimits: readonly (Readonly<ModelSphericalLimits> | undefined)[];
  /** Shapes of each link. */
  readonly shapes: readonly (readonly ShapeDesc[])[];
  readonly gravity: Float64Array;
  /** Children of each link (indices), for tree walks. */
  readonly children: readonly Int32Array[];
  /** True when some joint of the model has position coordinates that are not velocity integrals (quaternions). */
  readonly hasQuaternions: boolean;
  private readonly linkByName: Map<string, number>;
  private readonly jointByName: Map<string, JointInfo>;

  /** @internal Built by ModelBuilder.build(). */
  constructor(b: BuiltData) {
    this.nLinks = b.n;
    this.nq = b.nq;
    this.nv = b.nv;
    this.parent = b.parent;
    this.jointType = b.jointType;
    this.qOffset = b.qOffset;
    this.vOffset = b.vOffset;
    this.jointNq = b.jointNq;
    this.jointNv = b.jointNv;
    this.dofLink = b.dofLink;
    this.linkNames = b.linkNames;
    this.jointNames = b.jointNames;
    this.treeX = b.treeX;
    this.axis = b.axis;
    this.S = b.S;
    this.mass = b.mass;
    this.com = b.com;
    this.inertiaCom = b.inertiaCom;
    this.I = b.I;
    this.lower = b.lower;
    this.upper = b.upper;
    this.damping = b.damping;
    this.armature = b.armature;
    this.stiffness = b.stiffness;
    this.springRef = b.springRef;
    this.sphericalLimits = b.sphericalLimits;
    this.shapes = b.shapes;
    this.gravity = b.gravity;
    this.children = b.children;
    this.hasQuaternions = b.jointType.some((t) => t === JointType.spherical || t === JointType.free);
    this.linkByName = new Map(b.linkNames.map((n, i) => [n, i]));
    this.jointByName = new Map(
      b.jointNames.map((n, i) => [
        n,
        Object.freeze({
          name: n, link: i, type: JOINT_TYPE_NAMES[b.jointType[i]], q: b.qOffset[i], v: b.vOffset[i], nq: b.jointNq[i], nv: b.jointNv[i],
        }),
      ]),
    );
    Object.freeze(this);
  }

  /** Index of the link with this name; throws a ModelError naming the unknown link. */
  linkIndex(name: string): number {
    const i = this.linkByName.get(name);
    if (i === undefined) throw new ModelError(`link "${name}"`, `no such link (links: ${this.linkNames.slice(0, 8).join(', ')}${this.nLinks > 8 ? ', ...' : ''})`);
    return i;
  }

  hasLink(name: string): boolean {
    return this.linkByName.has(name);
  }

  /** The joint with this name: its link, type and offsets in q and qd. */
  joint(name: string): JointInfo {
    const j = this.jointByName.get(name);
    if (!j) throw new ModelError(`joint "${name}"`, 'no such joint');
    return j;
  }

  hasJoint(name: string): boolean {
    return this.jointByName.has(name);
  }

  /** Joint info of link i. */
  jointOfLink(i: number): JointInfo {
    return this.jointByName.get(this.jointNames[i])!;
  }

  totalMass(): number {
    let m = 0;
    for (let i = 0; i < this.nLinks; i++) m += this.mass[i];
    return m;
  }

  /** True when link a is an ancestor of link b (or a === b). */
  isAncestor(a: number, b: number): boolean {
    for (let i = b; i >= 0; i = this.parent[i]) if (i === a) return true;
    return false;
  }
}

interface BuiltData {
  n: number; nq: number; nv: number;
  parent: Int32Array; jointType: Uint8Array; qOffset: Int32Array; vOffset: Int32Array; jointNq: Int32Array; jointNv: Int32Array; dofLink: Int32Array;
  linkNames: string[]; jointNames: string[];
  treeX: Float64Array; axis: Float64Array; S: Float64Array;
  mass: Float64Array; com: Float64Array; inertiaCom: Float64Array; I: Float64Array;
  lower: Float64Array; upper: Float64Array; damping: Float64Array; armature: Float64Array; stiffness: Float64Array; springRef: Float64Array;
  sphericalLimits: (ModelSphericalLimits | undefined)[];
  shapes: ShapeDesc[][];
  gravity: Float64Array;
  children: Int32Array[];
}

/**
 * Collects links (parent before child) and builds an immutable Model. Every link is checked as it
 * is added; errors name the link and the field.
 */
export class ModelBuilder {
  private readonly links: LinkSpec[] = [];
  private readonly parents: number[] = [];
  private readonly names = new Map<string, number>();
  private readonly jointNames = new Set<string>();
  private gravity: number[];

  constructor(options: ModelOptions = {}) {
    this.gravity = Array.from(options.gravity ?? DEFAULT_GRAVITY);
    checkFiniteVec('model.gravity', this.gravity, 3);
  }

  get linkCount(): number {
    return this.links.length;
  }

  setGravity(g: Vec3Tuple): this {
    checkFiniteVec('model.gravity', g, 3);
    this.gravity = Array.from(g as ArrayLike<number>);
    return this;
  }

  /** Adds a link with its joint to its parent; returns the link's index. */
  addLink(spec: LinkSpec): number {
    const index = this.links.length;
    const where = `links[${index}]${spec && typeof spec.name === 'string' ? ` "${spec.name}"` : ''}`;
    if (!spec || typeof spec !== 'object') throw new ModelError(where, 'expected a link description object');
    if (typeof spec.name !== 'string' || spec.name.length === 0) throw new ModelError(`${where}.name`, 'expected a non-empty string');
    if (this.names.has(spec.name)) throw new ModelError(`${where}.name`, `duplicate link name (also links[${this.names.get(spec.name)}])`);

    // parent
    let parent: number;
    if (spec.parent === null || spec.parent === -1 || spec.parent === undefined) parent = -1;
    else if (typeof spec.parent === 'string') {
      if (spec.parent === spec.name) throw new ModelError(`${where}.parent`, 'a link cannot be its own parent (cycle)');
      const p = this.names.get(spec.parent);
      if (p === undefined) throw new ModelError(`${where}.parent`, `unknown parent link "${spec.parent}" (parents must be added before their children; a missing parent or a cycle)`);
      parent = p;
    } else if (typeof spec.parent === 'number' && Number.isInteger(spec.parent)) {
      if (spec.parent >= index) throw new ModelError(`${where}.parent`, `parent index ${spec.parent} must be less than the link's own index ${index} (a missing parent or a cycle)`);
      if (spec.parent < -1) throw new ModelError(`${where}.parent`, `invalid parent index ${spec.parent}`);
      parent = spec.parent;
    } else throw new ModelError(`${where}.parent`, 'expected a link index, a link name, or -1/null for the world');

    // joint
    const j = spec.joint;
    if (!j || typeof j !== 'object') throw new ModelError(`${where}.joint`, 'expected a joint description object');
    if (typeof j.type !== 'string' || !Object.prototype.hasOwnProperty.call(JointType, j.type)) throw new ModelError(`${where}.joint.type`, `unknown joint type "${String(j.type)}" (expected one of ${JOINT_TYPE_NAMES.join(', ')})`);
    const jname = j.name ?? spec.name;
    if (typeof jname !== 'string' || jname.length === 0) throw new ModelError(`${where}.joint.name`, 'expected a non-empty string');
    if (this.jointNames.has(jname)) throw new ModelError(`${where}.joint.name`, `duplicate joint name "${jname}"`);
    if (j.type === 'revolute' || j.type === 'prismatic') {
      if (j.axis === undefined) throw new ModelError(`${where}.joint.axis`, `a ${j.type} joint needs an axis: expected 3 numbers`);
      checkFiniteVec(`${where}.joint.axis`, j.axis, 3);
      const len = detMath.hypot(j.axis[0], j.axis[1], j.axis[2]);
      if (!(len > 1e-12)) throw new ModelError(`${where}.joint.axis`, 'zero-length axis');
    }
    if (j.position !== undefined) checkFiniteVec(`${where}.joint.position`, j.position, 3);
    if (j.rotation !== undefined) {
      checkFiniteVec(`${where}.joint.rotation`, j.rotation, 4);
      const n = detMath.hypot(j.rotation[0], j.rotation[1], j.rotation[2], j.rotation[3]);
      if (!(n > 1e-12)) throw new ModelError(`${where}.joint.rotation`, 'zero quaternion');
    }
    for (const key of ['damping', 'armature', 'stiffness'] as const) {
      const v = j[key];
      if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw new ModelError(`${where}.joint.${key}`, `expected a finite number >= 0, got ${v}`);
    }
    if (j.springRef !== undefined && !Number.isFinite(j.springRef)) throw new ModelError(`${where}.joint.springRef`, `expected a finite number, got ${j.springRef}`);
    if (j.limits !== undefined) checkLimits(`${where}.joint.limits`, j.type, j.limits);

    // mass properties
    if (!(typeof spec.mass === 'number' && Number.isFinite(spec.mass) && spec.mass > 0)) throw new ModelError(`${where}.mass`, `expected a positive finite mass, got ${spec.mass}`);
    if (spec.com !== undefined) checkFiniteVec(`${where}.com`, spec.com, 3);
    checkFiniteVec(`${where}.inertia`, spec.inertia, 6);
    checkInertia(`${where}.inertia`, spec.inertia);
    if (spec.shapes !== undefined) {
      if (!Array.isArray(spec.shapes)) throw new ModelError(`${where}.shapes`, 'expected an array');
      spec.shapes.forEach((shape, k) => checkShape(`${where}.shapes[${k}]`, shape));
    }

    this.links.push(spec);
    this.parents.push(parent);
    this.names.set(spec.name, index);
    this.jointNames.add(jname);
    return index;
  }

  build(): Model {
    const n = this.links.length;
    if (n === 0) throw new ModelError('model', 'no links');
    const parent = Int32Array.from(this.parents);
    const jointType = new Uint8Array(n);
    const qOffset = new Int32Array(n), vOffset = new Int32Array(n), jointNq = new Int32Array(n), jointNv = new Int32Array(n);
    let nq = 0, nv = 0;
    for (let i = 0; i < n; i++) {
      const t = JointType[this.links[i].joint.type];
      jointType[i] = t;
      qOffset[i] = nq; vOffset[i] = nv;
      jointNq[i] = JOINT_NQ[t]; jointNv[i] = JOINT_NV[t];
      nq += JOINT_NQ[t]; nv += JOINT_NV[t];
    }
    const dofLink = new Int32Array(nv);
    const treeX = new Float64Array(12 * n), axis = new Float64Array(3 * n), S = new Float64Array(36 * n);
    const mass = new Float64Array(n), com = new Float64Array(3 * n), inertiaCom = new Float64Array(6 * n), I = new Float64Array(36 * n);
    const lower = new Float64Array(nv).fill(-Infinity), upper = new Float64Array(nv).fill(Infinity);
    const damping = new Float64Array(nv), armature = new Float64Array(nv), stiffness = new Float64Array(nv), springRef = new Float64Array(nv);
    const sphericalLimits: BuiltData['sphericalLimits'] = new Array(n).fill(undefined);
    const shapes: ShapeDesc[][] = [];
    const children: number[][] = Array.from({ length: n }, () => []);
    const rot = new Float64Array(9);
    for (let i = 0; i < n; i++) {
      const L = this.links[i], j = L.joint, t = jointType[i];
      if (parent[i] >= 0) children[parent[i]].push(i);
      for (let k = 0; k < jointNv[i]; k++) dofLink[vOffset[i] + k] = i;
      // X_tree: E = R_joint^T, r = joint position in parent frame
      const r = j.rotation ?? [0, 0, 0, 1];
      const rn = detMath.hypot(r[0], r[1], r[2], r[3]);
      quatToRowMajorTransposed(r[0] / rn, r[1] / rn, r[2] / rn, r[3] / rn, rot);
      treeX.set(rot, 12 * i);
      const p = j.position ?? [0, 0, 0];
      treeX[12 * i + 9] = p[0]; treeX[12 * i + 10] = p[1]; treeX[12 * i + 11] = p[2];
      if (j.axis) {
        const len = detMath.hypot(j.axis[0], j.axis[1], j.axis[2]);
        axis[3 * i] = j.axis[0] / len; axis[3 * i + 1] = j.axis[1] / len; axis[3 * i + 2] = j.axis[2] / len;
      }
      motionSubspace(t, axis, 3 * i, S, 36 * i);
      mass[i] = L.mass;
      const c = L.com ?? [0, 0, 0];
      com[3 * i] = c[0]; com[3 * i + 1] = c[1]; com[3 * i + 2] = c[2];
      for (let k = 0; k < 6; k++) inertiaCom[6 * i + k] = L.inertia[k];
      rigidBodyInertia(L.mass, c[0], c[1], c[2], L.inertia, I, 36 * i);
      for (let k = 0; k < jointNv[i]; k++) {
        const d = vOffset[i] + k;
        damping[d] = j.damping ?? 0;
        armature[d] = j.armature ?? 0;
        if (t === JointType.revolute || t === JointType.prismatic) {
          stiffness[d] = j.stiffness ?? 0;
          springRef[d] = j.springRef ?? 0;
        }
      }
      if (j.limits) {
        if ('lower' in j.limits) {
          lower[vOffset[i]] = j.limits.lower;
          upper[vOffset[i]] = j.limits.upper;
        } else {
          const sl = j.limits as SphericalLimits;
          const ta = sl.twistAxis ?? [0, 1, 0];
          const tl = detMath.hypot(ta[0], ta[1], ta[2]);
          const swing: [number, number] = typeof sl.swing === 'number' ? [sl.swing, sl.swing] : [sl.swing[0], sl.swing[1]];
          const lim: ModelSphericalLimits = { twistAxis: Float64Array.of(ta[0] / tl, ta[1] / tl, ta[2] / tl), swing, twist: [sl.twist[0], sl.twist[1]] };
          if (sl.swingCentre && (sl.swingCentre[0] !== 0 || sl.swingCentre[1] !== 0)) {
            // C = exp of the rotation vector c0 u + c1 v
            const uv = new Float64Array(6);
            sphericalConeAxes(lim.twistAxis, uv, 0);
            const c0 = sl.swingCentre[0], c1 = sl.swingCentre[1];
            const rx = c0 * uv[0] + c1 * uv[3], ry = c0 * uv[1] + c1 * uv[4], rz = c0 * uv[2] + c1 * uv[5];
            const th = Math.sqrt(rx * rx + ry * ry + rz * rz), k = detMath.sin(0.5 * th) / th;
            lim.swingCentre = [c0, c1];
            lim.centre = Float64Array.of(k * rx, k * ry, k * rz, detMath.cos(0.5 * th));
          }
          sphericalLimits[i] = lim;
        }
      }
      shapes.push((L.shapes ?? []).map((s) => ({ ...s })));
    }
    return new Model({
      n, nq, nv, parent, jointType, qOffset, vOffset, jointNq, jointNv, dofLink,
      linkNames: this.links.map((l) => l.name), jointNames: this.links.map((l) => l.joint.name ?? l.name),
      treeX, axis, S, mass, com, inertiaCom, I, lower, upper, damping, armature, stiffness, springRef, sphericalLimits, shapes,
      gravity: Float64Array.from(this.gravity),
      children: children.map((c) => Int32Array.from(c)),
    });
  }
}

function quatToRowMajorTransposed(x: number, y: number, z: number, w: number, out: Float64Array): void {
  const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[0] = 1 - 2 * (yy + zz); out[3] = 2 * (xy - wz); out[6] = 2 * (xz + wy);
  out[1] = 2 * (xy + wz); out[4] = 1 - 2 * (xx + zz); out[7] = 2 * (yz - wx);
  out[2] = 2 * (xz - wy); out[5] = 2 * (yz + wx); out[8] = 1 - 2 * (xx + yy);
}

function checkFiniteVec(path: string, v: unknown, n: number): void {
  const a = v as ArrayLike<unknown>;
  if (!a || typeof a !== 'object' || a.length !== n) throw new ModelError(path, `expected ${n} numbers`);
  for (let k = 0; k < n; k++) {
    if (typeof a[k] !== 'number' || !Number.isFinite(a[k] as number)) throw new ModelError(path, `expected ${n} finite numbers, element ${k} is ${String(a[k])}`);
  }
}

function checkLimits(path: string, type: JointTypeName, limits: JointSpec['limits']): void {
  if (type === 'revolute' || type === 'prismatic') {
    const l = limits as { lower?: unknown; upper?: unknown };
    for (const side of ['lower', 'upper'] as const) {
      const v = l[side];
      if (typeof v !== 'number' || Number.isNaN(v)) throw new ModelError(`${path}.${side}`, `expected a number (or -/+Infinity for no limit), got ${String(v)}`);
    }
    if ((l.lower as number) > (l.upper as number)) throw new ModelError(path, `lower ${l.lower} is above upper ${l.upper}`);
  } else if (type === 'spherical') {
    const l = limits as SphericalLimits;
    const sw = typeof l.swing === 'number' ? [l.swing, l.swing] : l.swing;
    if (!sw || sw.length !== 2 || !sw.every((s) => typeof s === 'number' && s >= 0 && s <= Math.PI)) {
      throw new ModelError(`${path}.swing`, `expected a swing half-angle (or two) between 0 and pi, got ${Array.isArray(sw) ? `[${sw.join(', ')}]` : String(sw)}`);
    }
    if (!l.twist || l.twist.length !== 2 || !(l.twist[0] <= l.twist[1])) {
      throw new ModelError(`${path}.twist`, `expected [lower, upper] with lower <= upper, got ${Array.isArray(l.twist) ? `[${l.twist.join(', ')}]` : String(l.twist)}`);
    }
    if (l.swingCentre !== undefined) {
      const c = l.swingCentre;
      if (!c || c.length !== 2 || !Array.from(c).every((x) => typeof x === 'number' && Math.abs(x) <= Math.PI)) {
        throw new ModelError(`${path}.swingCentre`, `expected two angles (radians) between -pi and pi, got ${Array.isArray(c) ? `[${c.join(', ')}]` : String(c)}`);
      }
      if (!(Math.sqrt(c[0] * c[0] + c[1] * c[1]) <= Math.PI)) throw new ModelError(`${path}.swingCentre`, `the centre's turn sqrt(${c[0]}^2 + ${c[1]}^2) is more than pi`);
    }
    if (l.twistAxis !== undefined) {
      checkFiniteVec(`${path}.twistAxis`, l.twistAxis, 3);
      if (!(detMath.hypot(l.twistAxis[0], l.twistAxis[1], l.twistAxis[2]) > 1e-12)) throw new ModelError(`${path}.twistAxis`, 'zero-length axis');
    }
  } else {
    throw new ModelError(path, `a ${type} joint takes no limits`);
  }
}

const SHAPE_SIZES: Readonly<Record<string, readonly string[]>> = {
  sphere: ['radius'],
  capsule: ['radius', 'halfLength'],
  box: [],
  convex: [],
  plane: [],
  trimesh: [],
  heightfield: ['spacingX', 'spacingZ'],
};

/** Checks a shape description: a known geometry, finite sizes, pose and contact coefficients. */
function checkShape(path: string, shape: ShapeDesc): void {
  if (!shape || typeof shape !== 'object') throw new ModelError(path, 'expected a shape description object');
  const g = shape.geometry as { type?: unknown } & Record<string, unknown>;
  if (!g || typeof g !== 'object') throw new ModelError(`${path}.geometry`, 'expected a geometry object');
  const type = g.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(SHAPE_SIZES, type)) {
    throw new ModelError(`${path}.geometry.type`, `unknown geometry type "${String(type)}" (expected one of ${Object.keys(SHAPE_SIZES).join(', ')})`);
  }
  for (const key of SHAPE_SIZES[type]) {
    const v = g[key];
    const ok = typeof v === 'number' && Number.isFinite(v) && (key === 'halfLength' ? v >= 0 : v > 0);
    if (!ok) throw new ModelError(`${path}.geometry.${key}`, `expected a finite number ${key === 'halfLength' ? '>= 0' : '> 0'}, got ${String(v)}`);
  }
  if (type === 'box') {
    checkFiniteVec(`${path}.geometry.halfExtents`, g.halfExtents, 3);
    const h = g.halfExtents as number[];
    if (!(h[0] > 0 && h[1] > 0 && h[2] > 0)) throw new ModelError(`${path}.geometry.halfExtents`, `expected 3 positive numbers, got [${h.join(', ')}]`);
  }
  if (type === 'convex') checkFiniteList(`${path}.geometry.points`, g.points, 3);
  if (type === 'trimesh') {
    checkFiniteList(`${path}.geometry.vertices`, g.vertices, 3);
    checkFiniteList(`${path}.geometry.indices`, g.indices, 3);
  }
  if (type === 'heightfield') {
    for (const key of ['rows', 'cols'] as const) {
      const v = g[key];
      if (!(typeof v === 'number' && Number.isInteger(v) && v >= 2)) throw new ModelError(`${path}.geometry.${key}`, `expected an integer >= 2, got ${String(v)}`);
    }
    checkFiniteList(`${path}.geometry.heights`, g.heights, 1);
    const count = (g.rows as number) * (g.cols as number);
    if ((g.heights as number[]).length !== count) throw new ModelError(`${path}.geometry.heights`, `expected rows * cols = ${count} heights, got ${(g.heights as number[]).length}`);
  }
  if (shape.position !== undefined) checkFiniteVec(`${path}.position`, shape.position, 3);
  if (shape.rotation !== undefined) {
    checkFiniteVec(`${path}.rotation`, shape.rotation, 4);
    const r = shape.rotation;
    if (!(detMath.hypot(r[0], r[1], r[2], r[3]) > 1e-12)) throw new ModelError(`${path}.rotation`, 'zero quaternion');
  }
  for (const key of ['friction', 'restitution'] as const) {
    const v = shape[key];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) throw new ModelError(`${path}.${key}`, `expected a finite number >= 0, got ${String(v)}`);
  }
  for (const key of ['group', 'mask'] as const) {
    const v = shape[key];
    if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v))) throw new ModelError(`${path}.${key}`, `expected an integer bit mask, got ${String(v)}`);
  }
}

/** Checks a flat array of finite numbers whose length is a multiple of `stride`. */
function checkFiniteList(path: string, v: unknown, stride: number): void {
  const a = v as ArrayLike<unknown>;
  if (!a || typeof a !== 'object' || typeof a.length !== 'number' || a.length % stride !== 0) {
    throw new ModelError(path, stride === 1 ? 'expected an array of numbers' : `expected an array of numbers, ${stride} per item`);
  }
  for (let k = 0; k < a.length; k++) {
    if (typeof a[k] !== 'number' || !Number.isFinite(a[k] as number)) throw new ModelError(path, `element ${k} is ${String(a[k])}, expected a finite number`);
  }
}

/** Checks that [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] is symmetric positive definite (Sylvester's criterion). */
function checkInertia(path: string, I: ArrayLike<number>): void {
  const [a, b, c, d, e, f] = [I[0], I[1], I[2], I[3], I[4], I[5]];
  const m1 = a;
  const m2 = a * b - d * d;
  const m3 = a * (b * c - f * f) - d * (d * c - f * e) + e * (d * f - b * e);
  const scale = Math.max(Math.abs(a), Math.abs(b), Math.abs(c), 1e-300);
  if (!(m1 > 0 && m2 > 1e-14 * scale * scale && m3 > 1e-14 * scale * scale * scale)) {
    throw new ModelError(path, `inertia [${Array.from({ length: 6 }, (_, k) => I[k]).join(', ')}] is not symmetric positive definite`);
  }
}
