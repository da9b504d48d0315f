/**
 * MuJoCo MJCF -> featherstone Model (by way of the JSON character format, so that an imported
 * model can be saved as JSON). Semantics follow the MuJoCo XML Reference and Modeling chapter.
 *
 * Bodies and joints. A body's joints move it relative to its parent, applied in order, each about
 * (or along) its own axis through its own position in the body frame (mj_kinematics: a hinge
 * rotates the body frame about the anchor, so the body origin is anchor - R pos). Featherstone
 * links carry one joint each, so a body with k joints becomes a chain of k links: link j's frame
 * sits at joint j's anchor, with the body's axes after joints 1..j; the body's mass, geoms and
 * children hang on the last link (shifted by minus the last anchor); the links before it are
 * massless, exactly as in MuJoCo, where the intermediate "bodies" of a joint chain do not exist
 * (see format/build.ts for how massless links enter a Model). A body without joints is welded to
 * its parent: its mass and geoms join its parent's link; one welded to the world is static, and its
 * geoms become static shapes. A free joint must be the only joint of a child of the world; its
 * link frame starts parallel to the world at the body's position, so q = 0 is the model's pose.
 *
 * Coordinates. MJCF is Z-up. With yUp (default) the importer turns MuJoCo's world (X forward,
 * Y left, Z up) into the SDK's (Z forward, X left, Y up, as glTF): (x, y, z) -> (y, z, x), a
 * rotation of 120 degrees about (-1, -1, -1). Joint coordinates are MuJoCo's minus its `ref`
 * (hinge, slide), so q = 0 is MuJoCo's qpos0; ball quaternions are stored [x, y, z, w].
 *
 * Masses (MuJoCo's compiler): from <inertial>, or with inertiafromgeom from the geoms whose group is
 * in inertiagrouprange (default 0..5), at their mass or density (default 1000); then boundmass,
 * boundinertia (on the principal moments), balanceinertia, and last settotalmass.
 *
 * Not imported (listed in `warnings`): actuators, tendons, equality constraints, contact pairs and
 * exclusions, sensors, frictionloss, springs on ball and free joints, sites, cameras and lights.
 */
import type { Model, ShapeDesc } from '@sinew/featherstone';
import { characterFromJSON } from '../format/build.js';
import { FormatError } from '../format/errors.js';
import {
  combineMass,
  composePose,
  IDENTITY_POSE,
  inertiaToMat3,
  mat3Mul,
  mat3ToInertia,
  mat3Transpose,
  quatConj,
  quatMul,
  quatNormalize,
  quatRotate,
  scale3,
  sub3,
  symmetricEigen3,
  transformMass,
  type Inertia6,
  type MassProps,
  type Pose,
  type Quat,
  type Vec3,
} from '../format/math.js';
import type { CharacterDescription, JointDescription, LinkDescription, ShapeDescription } from '../format/types.js';
import { descToShape } from '../format/shapes.js';
import { Attrs, ownAttrs } from './attributes.js';
import { DefaultClasses } from './defaults.js';
import { errorAt, type SourcePos } from './errors.js';
import { type Geom, geomShape, readGeom } from './geom.js';
import { expandIncludes, type IncludeReader } from './include.js';
import { frameOrientation, isEulerSeq, toRadians, type AngleSettings } from './orientation.js';
import { parseXML, type XmlElement } from './xml.js';
import { detMath } from '@sinew/featherstone';

/** Options of `importMJCF`: reader of <include> files, file name for errors, and whether to turn MuJoCo's Z up into Y up. */
export interface MJCFOptions {
  /** Reads an included file, given its path as written in <include file="...">. */
  readInclude?: IncludeReader;
  /** Name of the main file, for error messages and include cycles (default "model.xml"). */
  fileName?: string;
  /** Rotate MuJoCo's Z-up world into the SDK's Y-up world (default true). */
  yUp?: boolean;
}

/** A MuJoCo joint type. */
export type MJCFJointType = 'free' | 'ball' | 'slide' | 'hinge';

/** A MuJoCo body as imported: its parent, the link that carries it and its frame there, its joints and mass. */
export interface MJCFBody {
  name: string;
  /** Index of the parent body in `bodies`; -1 for the world body. */
  parent: number;
  /** Link that carries the body (the last of its joint chain, or its parent's link when welded); -1 when fixed to the world. */
  link: number;
  /** The body frame in that link's frame (in the world frame when link is -1). */
  frameInLink: { position: Vec3; rotation: Quat };
  joints: string[];
  /** Mass of this body alone, after boundmass and settotalmass. */
  mass: number;
}

/** A MuJoCo joint as imported: its type, body, link and where it sits in MuJoCo's qpos and qvel. */
export interface MJCFJoint {
  name: string;
  type: MJCFJointType;
  /** Index in `bodies`. */
  body: number;
  link: number;
  /** Offsets of the joint in MuJoCo's qpos and qvel. */
  qposAddress: number;
  dofAddress: number;
  /** MuJoCo's ref (hinge: radians; slide: metres; 0 otherwise): q = qpos - ref. */
  ref: number;
}

/** A MuJoCo keyframe as q and qd of the imported model. */
export interface MJCFKeyframe {
  name: string;
  q: Float64Array;
  qd: Float64Array;
}

/** What `importMJCF` returns: the model and its description, the bodies, joints and keyframes, and converters from MuJoCo's qpos and qvel. */
export interface MJCFImport {
  model: Model;
  /** The model in the JSON character format. */
  description: CharacterDescription;
  /** <mujoco model="..."> */
  name: string;
  /** <option timestep> (default 0.002 s). */
  timestep: number;
  /** Gravity in the SDK's frame (also the model's). */
  gravity: Vec3;
  /** Every MJCF body except the world, in document order (MuJoCo's body ids minus one). */
  bodies: MJCFBody[];
  /**
   * Link pairs of `<contact><exclude body1 body2>` (by link name), to pass on as
   * `world.addBody(model, { excludedLinkPairs })`. (MuJoCo's own rule that a body never touches its
   * parent body is the World's: a link never collides with its nearest ancestor that has shapes.)
   */
  excludedLinkPairs: [string, string][];
  /** Every MJCF joint, in MuJoCo's order. */
  joints: MJCFJoint[];
  /** Sizes of MuJoCo's qpos and qvel. */
  nq: number;
  nv: number;
  /** Geoms of the world body and of bodies welded to it, in world coordinates. */
  staticShapes: ShapeDesc[];
  /** Sum of all body masses, static bodies included (MuJoCo's mj_getTotalmass). */
  totalMass: number;
  keyframes: MJCFKeyframe[];
  warnings: string[];
  /** MuJoCo qpos -> q of the model. */
  qposToQ(qpos: ArrayLike<number>, out?: Float64Array): Float64Array;
  /** MuJoCo qvel (at configuration qpos) -> qd of the model. */
  qvelToQd(qpos: ArrayLike<number>, qvel: ArrayLike<number>, out?: Float64Array): Float64Array;
}

/** MuJoCo's world (X forward, Y left, Z up) -> the SDK's (Z forward, X left, Y up): (x, y, z) -> (y, z, x). */
const Z_UP_TO_Y_UP: Quat = [-0.5, -0.5, -0.5, 0.5];

interface Compiler extends AngleSettings {
  inertiaFromGeom: 'true' | 'false' | 'auto';
  groupRange: [number, number];
  boundMass: number;
  boundInertia: number;
  balanceInertia: boolean;
  setTotalMass: number;
  autoLimits: boolean;
}

interface LinkDraft {
  name: string;
  parent: number;
  joint: JointDescription;
  parts: MassProps[];
  shapes: ShapeDescription[];
  pos: SourcePos;
}

interface BodyDraft {
  info: MJCFBody;
  /** Body frame -> link (or world) coordinates. */
  toLink: Pose;
  mass: MassProps;
  pos: SourcePos;
}

interface JointDraft extends MJCFJoint {
  /** For free joints: the link's rotation relative to the body (toLink.q) and the joint frame's position. */
  bodyInLink: Quat;
  origin: Vec3;
}

const BODY_CHILDREN = new Set(['body', 'joint', 'freejoint', 'geom', 'site', 'camera', 'light', 'inertial', 'frame', 'plugin']);
const UNSUPPORTED_BODY_CHILDREN = new Set(['composite', 'flexcomp', 'attach', 'replicate']);
const SECTIONS = new Set(['compiler', 'option', 'size', 'visual', 'statistic', 'default', 'asset', 'worldbody', 'contact', 'equality', 'tendon', 'actuator', 'sensor', 'keyframe', 'custom', 'extension', 'deformable']);
const NOT_IMPORTED = ['equality', 'tendon', 'actuator', 'sensor'];

function readCompiler(els: XmlElement[]): Compiler {
  const c: Compiler = {
    degree: true, eulerseq: 'xyz', inertiaFromGeom: 'auto', groupRange: [0, 5],
    boundMass: 0, boundInertia: 0, balanceInertia: false, setTotalMass: -1, autoLimits: true,
  };
  for (const el of els) {
    const a = ownAttrs(el);
    if (a.has('angle')) c.degree = a.keyword('angle', ['degree', 'radian'] as const, 'degree') === 'degree';
    if (a.has('eulerseq')) {
      const s = a.string('eulerseq', 'xyz');
      if (!isEulerSeq(s)) a.fail('eulerseq', `expected three of x, y, z, X, Y, Z (got "${s}")`);
      c.eulerseq = s;
    }
    if (a.has('coordinate') && a.keyword('coordinate', ['local', 'global'] as const, 'local') === 'global') {
      a.fail('coordinate', 'global coordinates were removed from MuJoCo (2.3.3): expected "local"');
    }
    if (a.has('inertiafromgeom')) c.inertiaFromGeom = a.keyword('inertiafromgeom', ['true', 'false', 'auto'] as const, 'auto');
    if (a.has('inertiagrouprange')) c.groupRange = a.vec('inertiagrouprange', 2) as [number, number];
    for (const [key, field] of [['boundmass', 'boundMass'], ['boundinertia', 'boundInertia']] as const) {
      if (!a.has(key)) continue;
      const v = a.number(key, 0);
      if (v < 0) a.fail(key, `expected a number >= 0 (got ${v})`);
      c[field] = v;
    }
    if (a.has('settotalmass')) c.setTotalMass = a.number('settotalmass', -1);
    if (a.has('balanceinertia')) c.balanceInertia = a.bool('balanceinertia', false);
    if (a.has('autolimits')) c.autoLimits = a.bool('autolimits', true);
  }
  return c;
}

/** Principal moments and axes of an inertia; the moments raised to `bound`, or balanced (MuJoCo's balanceinertia). */
function adjustPrincipal(I: Inertia6, bound: number, balance: boolean): { inertia: Inertia6; triangle: boolean } {
  const { values, vectors } = symmetricEigen3(inertiaToMat3(I));
  let v = values.map((x) => Math.max(x, bound)) as Vec3;
  const [a, b, c] = [...v].sort((x, y) => x - y);
  let triangle = a + b >= c * (1 - 1e-9);
  if (!triangle && balance) {
    const mean = (v[0] + v[1] + v[2]) / 3;
    v = [mean, mean, mean];
    triangle = true;
  }
  if (v.every((x, k) => x === values[k])) return { inertia: I, triangle };
  const D = [v[0], 0, 0, 0, v[1], 0, 0, 0, v[2]];
  return { inertia: mat3ToInertia(mat3Mul(mat3Mul(vectors, D), mat3Transpose(vectors))), triangle };
}

/** Imports a MuJoCo MJCF model (XML text) into a Model and a character description; errors name the element and line. */
export function importMJCF(xmlText: string, options: MJCFOptions = {}): MJCFImport {
  const file = options.fileName ?? 'model.xml';
  if (typeof xmlText !== 'string') throw errorAt({ file, line: 1, column: 1 }, `expected the MJCF text as a string (got ${typeof xmlText})`);
  const root = parseXML(xmlText, file);
  if (root.name !== 'mujoco') throw errorAt(root.pos, `expected the root element <mujoco> (found <${root.name}>)`);
  expandIncludes(root, options.readInclude, file);
  const warnings: string[] = [];
  const world: Pose = { p: [0, 0, 0], q: options.yUp === false ? [0, 0, 0, 1] : Z_UP_TO_Y_UP };

  const sections = (name: string): XmlElement[] => root.children.filter((c) => c.name === name);
  for (const c of root.children) {
    if (!SECTIONS.has(c.name)) warnings.push(`${c.pos.file}:${c.pos.line}: unknown section <${c.name}> ignored`);
  }
  for (const s of NOT_IMPORTED) {
    const n = sections(s).reduce((k, e) => k + e.children.length, 0);
    if (n > 0) warnings.push(`<${s}> is not imported (${n} element${n > 1 ? 's' : ''})`);
  }
  const compiler = readCompiler(sections('compiler'));
  let timestep = 0.002;
  let gravityZ: Vec3 = [0, 0, -9.81];
  for (const el of sections('option')) {
    const a = ownAttrs(el);
    if (a.has('timestep')) {
      timestep = a.number('timestep', timestep);
      if (!(timestep > 0)) a.fail('timestep', `expected a positive time step (got ${timestep})`);
    }
    if (a.has('gravity')) gravityZ = a.vec('gravity', 3) as Vec3;
  }
  const defaults = new DefaultClasses();
  for (const el of sections('default')) defaults.addTopLevel(el);

  const bodies: BodyDraft[] = [];
  const links: LinkDraft[] = [];
  const joints: JointDraft[] = [];
  const staticShapes: ShapeDesc[] = [];
  const census = new GeomCensus();
  let softLimits = 0;
  const bodyNames = new Set<string>();
  const jointNames = new Set<string>();
  let nq = 0, nv = 0;

  const uniqueJointName = (wanted: string): string => {
    let n = wanted;
    for (let k = 2; jointNames.has(n); k++) n = `${wanted}#${k}`;
    jointNames.add(n);
    return n;
  };

  /** The body's children with the poses and childclasses of enclosing <frame>s applied. */
  interface Child { el: XmlElement; frame: Pose; childclass: string }
  const children = (el: XmlElement, frame: Pose, childclass: string, out: Child[] = []): Child[] => {
    for (const c of el.children) {
      if (c.name === 'frame') {
        const a = defaults.resolve(c, childclass, false);
        const f = composePose(frame, { p: (a.vec('pos', 3) ?? [0, 0, 0]) as Vec3, q: frameOrientation(a, compiler) });
        const cc = c.attrs.childclass ?? childclass;
        if (!defaults.has(cc)) throw errorAt(c.attrPos.childclass, `unknown default class "${cc}" (expected ${defaults.describe()})`);
        children(c, f, cc, out);
      } else out.push({ el: c, frame, childclass });
    }
    return out;
  };

  /** Mass properties of a body in its own frame (MuJoCo's compiler rules, before settotalmass). */
  const bodyMass = (el: XmlElement, kids: Child[], name: string): MassProps => {
    const inertials = kids.filter((k) => k.el.name === 'inertial');
    if (inertials.length > 1) throw errorAt(inertials[1].el.pos, `body "${name}" has more than one <inertial> (expected at most one)`);
    const useGeoms = compiler.inertiaFromGeom === 'true' || (compiler.inertiaFromGeom === 'auto' && inertials.length === 0);
    let mp: MassProps;
    if (useGeoms) {
      const parts: MassProps[] = [];
      for (const k of kids) {
        if (k.el.name !== 'geom') continue;
        const g = readGeom(defaults.resolve(k.el, k.childclass), compiler, k.frame);
        if (g.group < compiler.groupRange[0] || g.group > compiler.groupRange[1]) continue;
        if (g.mass) parts.push(g.mass);
        else if (g.type === 'mesh' || g.type === 'hfield' || g.type === 'sdf') {
          const a = defaults.resolve(k.el, k.childclass);
          if (a.number('mass', 1) !== 0) a.fail('type', `a ${g.type} geom cannot give the body its mass here: expected an <inertial> in body "${name}", or mass="0" on the geom`);
        }
      }
      mp = combineMass(parts);
    } else if (inertials.length === 1) {
      const k = inertials[0];
      const a = ownAttrs(k.el);
      if (!a.has('pos')) a.fail(null, 'expected a pos attribute (MuJoCo requires it)');
      if (!a.has('mass')) a.fail(null, 'expected a mass attribute');
      const mass = a.number('mass', 0);
      if (mass < 0) a.fail('mass', `expected a mass >= 0 (got ${mass})`);
      const pose = composePose(k.frame, { p: a.vec('pos', 3) as Vec3, q: frameOrientation(a, compiler) });
      let I: Inertia6 = [0, 0, 0, 0, 0, 0];
      if (a.has('fullinertia')) {
        I = a.vec('fullinertia', 6) as Inertia6;
        const ev = symmetricEigen3(inertiaToMat3(I)).values;
        if (ev.some((e) => !(e > 0))) a.fail('fullinertia', `expected a positive definite inertia (eigenvalues ${ev.map((e) => e.toPrecision(4)).join(', ')})`);
      } else if (a.has('diaginertia')) {
        const d = a.vec('diaginertia', 3)!;
        if (d.some((x) => x < 0)) a.fail('diaginertia', `expected 3 numbers >= 0 (got "${a.raw('diaginertia')}")`);
        I = [d[0], d[1], d[2], 0, 0, 0];
      } else a.fail(null, 'expected diaginertia or fullinertia');
      mp = transformMass(pose, { mass, com: [0, 0, 0], inertia: I });
    } else {
      throw errorAt(el.pos, `body "${name}" has no <inertial>, and the compiler's inertiafromgeom="false" forbids taking its mass from geoms (expected an <inertial>)`);
    }
    if (compiler.boundMass > 0 && mp.mass < compiler.boundMass) mp = { ...mp, mass: compiler.boundMass };
    const adj = adjustPrincipal(mp.inertia, compiler.boundInertia, compiler.balanceInertia);
    if (!adj.triangle) {
      const at = inertials[0]?.el.pos ?? el.pos;
      throw errorAt(at, `body "${name}": its principal moments of inertia break A + B >= C (expected the moments of a rigid body; set the compiler's balanceinertia="true" to even them out)`);
    }
    return { ...mp, inertia: adj.inertia };
  };

  const readJoint = (k: Child, bodyName: string, count: number, index: number): { a: Attrs; type: MJCFJointType; name: string } => {
    if (k.el.name === 'freejoint') {
      const a = ownAttrs(k.el);
      for (const key of Object.keys(k.el.attrs)) {
        if (!['name', 'group', 'align'].includes(key)) a.fail(key, 'a <freejoint> takes only name, group and align (expected no other attribute)');
      }
      return { a, type: 'free', name: uniqueNamed(a, k.el, bodyName) };
    }
    const a = defaults.resolve(k.el, k.childclass);
    const type = a.keyword('type', ['free', 'ball', 'slide', 'hinge'] as const, 'hinge');
    const fallback = type === 'free' || count === 1 ? bodyName : `${bodyName}/joint${index}`;
    return { a, type, name: uniqueNamed(a, k.el, fallback) };
  };
  const uniqueNamed = (a: Attrs, el: XmlElement, fallback: string): string => {
    const n = el.attrs.name;
    if (n !== undefined) {
      if (jointNames.has(n)) a.fail('name', `joint name "${n}" is used twice (expected unique joint names)`);
      jointNames.add(n);
      return n;
    }
    return uniqueJointName(fallback);
  };

  const visitBody = (el: XmlElement, frame: Pose, parentBody: number, parentLink: number, parentToLink: Pose, childclass: string): void => {
    const own = defaults.resolve(el, childclass, false);
    const bodyIndex = bodies.length;
    let name = el.attrs.name;
    if (name !== undefined) {
      if (bodyNames.has(name)) own.fail('name', `body name "${name}" is used twice (expected unique body names)`);
    } else {
      name = `body${bodyIndex + 1}`;
      for (let k = 2; bodyNames.has(name); k++) name = `body${bodyIndex + 1}#${k}`;
    }
    bodyNames.add(name);
    const cc = el.attrs.childclass ?? childclass;
    if (!defaults.has(cc)) throw errorAt(el.attrPos.childclass, `unknown default class "${cc}" (expected ${defaults.describe()})`);
    const mocap = own.bool('mocap', false);
    const local = composePose(frame, { p: (own.vec('pos', 3) ?? [0, 0, 0]) as Vec3, q: frameOrientation(own, compiler) });
    const kids = children(el, IDENTITY_POSE, cc);
    for (const k of kids) {
      if (UNSUPPORTED_BODY_CHILDREN.has(k.el.name)) throw errorAt(k.el.pos, `<${k.el.name}> is not supported: expected bodies, joints and geoms`);
      if (!BODY_CHILDREN.has(k.el.name)) throw errorAt(k.el.pos, `unknown element <${k.el.name}> in body "${name}" (expected body, joint, freejoint, geom, inertial, site, camera, light or frame)`);
    }
    const jointKids = kids.filter((k) => k.el.name === 'joint' || k.el.name === 'freejoint');
    if (mocap && jointKids.length > 0) throw errorAt(jointKids[0].el.pos, `mocap body "${name}" cannot have joints (expected none)`);
    const inParent = composePose(parentToLink, local); // body frame -> parent link (or world) coordinates
    const info: MJCFBody = { name, parent: parentBody, link: parentLink, frameInLink: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, joints: [], mass: 0 };
    let toLink: Pose = inParent;

    if (jointKids.length > 0) {
      const read = jointKids.map((k, i) => ({ k, ...readJoint(k, name!, jointKids.length, i) }));
      const free = read.findIndex((r) => r.type === 'free');
      if (free >= 0) {
        if (read.length > 1) throw errorAt(read[free].k.el.pos, `a free joint must be the only joint of its body ("${name}" has ${read.length}, expected 1)`);
        if (parentBody !== -1 || parentLink !== -1) throw errorAt(read[free].k.el.pos, `a free joint is allowed only in a child of the world body ("${name}" is inside "${bodies[parentBody]?.info.name ?? 'a static body'}"; expected a hinge, slide or ball joint here)`);
      }
      if (read.some((r) => r.type === 'ball') && read.filter((r) => r.type === 'ball' || r.type === 'hinge').length > 1) {
        throw errorAt(read.find((r) => r.type === 'ball')!.k.el.pos, `a ball joint cannot share body "${name}" with other rotational joints (MuJoCo's rule; expected the ball joint alone)`);
      }
      let prevAnchor: Vec3 = [0, 0, 0];
      let link = parentLink;
      read.forEach((r, i) => {
        const a = r.a;
        const last = i === read.length - 1;
        const joint: JointDescription = { type: 'fixed', name: r.name };
        const draft: JointDraft = {
          name: r.name, type: r.type, body: bodyIndex, link: links.length, qposAddress: nq, dofAddress: nv, ref: 0,
          bodyInLink: [0, 0, 0, 1], origin: [0, 0, 0],
        };
        let anchor: Vec3 = [0, 0, 0];
        if (r.type === 'free') {
          joint.type = 'free';
          joint.position = inParent.p;
          toLink = { p: [0, 0, 0], q: inParent.q };
          draft.bodyInLink = inParent.q;
          draft.origin = inParent.p;
          nq += 7; nv += 6;
          if (a.number('stiffness', 0) > 0) warnings.push(`joint "${r.name}": stiffness on a free joint is not imported`);
        } else {
          const k = r.k;
          const p = (a.vec('pos', 3) ?? [0, 0, 0]) as Vec3;
          anchor = composePose(k.frame, { p, q: [0, 0, 0, 1] }).p;
          if (i === 0) {
            const f = composePose(inParent, { p: anchor, q: [0, 0, 0, 1] });
            joint.position = f.p;
            joint.rotation = quatNormalize(f.q);
          } else {
            joint.position = sub3(anchor, prevAnchor);
          }
          if (r.type === 'hinge' || r.type === 'slide') {
            const ax = a.vec('axis', 3) ?? [0, 0, 1];
            const axis = quatRotate(k.frame.q, ax);
            if (!(detMath.hypot(axis[0], axis[1], axis[2]) > 1e-14)) a.fail('axis', 'expected a non-zero axis');
            joint.type = r.type === 'hinge' ? 'revolute' : 'prismatic';
            joint.axis = axis;
            const conv = (v: number): number => (r.type === 'hinge' ? toRadians(v, compiler) : v);
            const ref = conv(a.number('ref', 0));
            draft.ref = ref;
            const lim = limitsOf(a, compiler);
            if (lim) joint.limits = { lower: conv(lim[0]) - ref, upper: conv(lim[1]) - ref };
            const stiffness = a.number('stiffness', 0);
            if (stiffness < 0) a.fail('stiffness', `expected a number >= 0 (got ${stiffness})`);
            if (stiffness > 0) {
              joint.stiffness = stiffness;
              const sr = conv(a.number('springref', 0)) - ref;
              if (sr !== 0) joint.springRef = sr;
            }
            nq += 1; nv += 1;
          } else {
            joint.type = 'spherical';
            const lim = limitsOf(a, compiler);
            if (lim) {
              const max = toRadians(lim[1], compiler);
              if (!(max > 0)) a.fail('range', `a ball joint's range is "0 max" with max > 0 (got "${a.raw('range')}", expected "0 max")`);
              joint.limits = { swing: Math.min(max, Math.PI), twist: [-max, max] };
            }
            if (a.number('stiffness', 0) > 0) warnings.push(`joint "${r.name}": stiffness on a ball joint is not imported`);
            nq += 4; nv += 3;
          }
          prevAnchor = anchor;
        }
        // a <freejoint> is a free joint with zero damping and armature whatever the defaults say
        if (r.k.el.name !== 'freejoint') {
          for (const key of ['damping', 'armature'] as const) {
            const v = a.number(key, 0);
            if (v < 0) a.fail(key, `expected a number >= 0 (got ${v})`);
            if (v > 0) joint[key] = v;
          }
        }
        if (a.number('frictionloss', 0) > 0) warnings.push(`joint "${r.name}": frictionloss is not imported`);
        if (joint.limits && ['solreflimit', 'solimplimit', 'margin'].some((key) => a.has(key))) softLimits++;
        links.push({
          name: last ? name! : `${name}/${r.name}`,
          parent: link,
          joint,
          parts: [],
          shapes: [],
          pos: r.k.el.pos,
        });
        link = links.length - 1;
        joints.push(draft);
        info.joints.push(r.name);
      });
      if (read[0].type !== 'free') toLink = { p: scale3(prevAnchor, -1), q: [0, 0, 0, 1] };
      info.link = link;
    } else if (parentLink === -1 || mocap) {
      info.link = -1;
    }
    info.frameInLink = { position: toLink.p, rotation: toLink.q };
    bodies.push({ info, toLink, mass: bodyMass(el, kids, name), pos: el.pos });

    // collision shapes
    for (const k of kids) {
      if (k.el.name !== 'geom') continue;
      const g = readGeom(defaults.resolve(k.el, k.childclass), compiler, k.frame);
      if (!g.collides) continue;
      census.add(g);
      if (info.link === -1) {
        const s = geomShape(g, toLink);
        if (s) staticShapes.push(s);
        continue;
      }
      if (g.type === 'plane') throw errorAt(k.el.pos, `a plane can only belong to the world or a static body ("${name}" moves; expected a plane in <worldbody>)`);
      const s = geomShape(g, toLink);
      if (!s) {
        warnings.push(`body "${name}": a ${g.type} geom has no collision shape here and is left out`);
        continue;
      }
      links[info.link].shapes.push(descToShape(s, `body "${name}"`));
    }
    for (const k of kids) {
      if (k.el.name === 'body') visitBody(k.el, k.frame, bodyIndex, info.link, toLink, k.childclass);
    }
  };

  // the world body
  const worldbodies = sections('worldbody');
  if (worldbodies.length === 0) throw errorAt(root.pos, 'expected a <worldbody>');
  for (const wb of worldbodies) {
    const kids = children(wb, IDENTITY_POSE, 'main');
    for (const k of kids) {
      if (k.el.name === 'body') visitBody(k.el, k.frame, -1, -1, world, k.childclass);
      else if (k.el.name === 'geom') {
        const g = readGeom(defaults.resolve(k.el, k.childclass), compiler, k.frame);
        if (!g.collides) continue;
        census.add(g);
        const s = geomShape(g, world);
        if (s) staticShapes.push(s);
      } else if (k.el.name === 'joint' || k.el.name === 'freejoint') throw errorAt(k.el.pos, 'joints cannot be defined in the world body (expected them inside a <body>)');
      else if (k.el.name === 'inertial') throw errorAt(k.el.pos, 'the world body has no <inertial> (expected none in <worldbody>)');
      else if (!BODY_CHILDREN.has(k.el.name)) throw errorAt(k.el.pos, `unknown element <${k.el.name}> in the world body (expected body, geom, site, camera, light or frame)`);
    }
  }
  if (links.length === 0) throw errorAt(worldbodies[0].pos, 'expected at least one body with a joint: the model has nothing that moves');
  const excludedLinkPairs = readContactSection(sections('contact'), bodies.map((b) => b.info), links.map((l) => l.name), warnings);
  warnings.push(...census.warnings());
  if (softLimits > 0) warnings.push(`solreflimit, solimplimit and margin are not imported (${softLimits} limited joint${softLimits > 1 ? 's' : ''}): joint limits are hard rows`);

  // settotalmass, then the links' mass properties
  let totalMass = bodies.reduce((m, b) => m + b.mass.mass, 0);
  if (compiler.setTotalMass > 0) {
    if (!(totalMass > 0)) throw errorAt(root.pos, 'settotalmass needs a model with mass (expected geoms or inertials with positive mass)');
    const s = compiler.setTotalMass / totalMass;
    for (const b of bodies) b.mass = { mass: b.mass.mass * s, com: b.mass.com, inertia: b.mass.inertia.map((x) => x * s) as Inertia6 };
    totalMass = bodies.reduce((m, b) => m + b.mass.mass, 0);
  }
  for (const b of bodies) {
    b.info.mass = b.mass.mass;
    if (b.info.link >= 0 && (b.mass.mass > 0 || b.mass.inertia.some((x) => x !== 0))) links[b.info.link].parts.push(transformMass(b.toLink, b.mass));
  }

  const rootName = root.attrs.name ?? root.attrs.model ?? 'MuJoCo Model';
  const gravity = quatRotate(world.q, gravityZ);
  const description: CharacterDescription = {
    format: 'sinew-character',
    version: 1,
    name: rootName,
    gravity,
    links: links.map((l): LinkDescription => {
      const mp = combineMass(l.parts);
      const link: LinkDescription = { name: l.name, parent: l.parent < 0 ? null : links[l.parent].name, joint: l.joint, mass: mp.mass, com: mp.com, inertia: mp.inertia };
      if (l.shapes.length > 0) link.shapes = l.shapes;
      return link;
    }),
    metadata: { source: file, format: 'MJCF' },
  };
  let built;
  try {
    built = characterFromJSON(description);
  } catch (e) {
    if (e instanceof FormatError) {
      const m = /^links\[(\d+)\]/.exec(e.path);
      const at = m ? links[Number(m[1])].pos : root.pos;
      throw errorAt(at, e.expected);
    }
    throw e;
  }
  const model = built.model;

  const qposToQ = (qpos: ArrayLike<number>, out = new Float64Array(model.nq)): Float64Array => {
    if (qpos.length !== nq) throw new RangeError(`qposToQ: expected ${nq} numbers (MuJoCo's nq), got ${qpos.length}`);
    for (const j of joints) {
      const o = model.joint(j.name).q, a = j.qposAddress;
      switch (j.type) {
        case 'hinge':
        case 'slide':
          out[o] = qpos[a] - j.ref;
          break;
        case 'ball':
          out[o] = qpos[a + 1]; out[o + 1] = qpos[a + 2]; out[o + 2] = qpos[a + 3]; out[o + 3] = qpos[a];
          break;
        case 'free': {
          const p = quatRotate(world.q, [qpos[a], qpos[a + 1], qpos[a + 2]]);
          out[o] = p[0] - j.origin[0]; out[o + 1] = p[1] - j.origin[1]; out[o + 2] = p[2] - j.origin[2];
          const body = quatNormalize([qpos[a + 4], qpos[a + 5], qpos[a + 6], qpos[a + 3]]);
          const q = quatMul(quatMul(world.q, body), quatConj(j.bodyInLink));
          out.set(q, o + 3);
          break;
        }
      }
    }
    return out;
  };
  const qvelToQd = (qpos: ArrayLike<number>, qvel: ArrayLike<number>, out = new Float64Array(model.nv)): Float64Array => {
    if (qvel.length !== nv) throw new RangeError(`qvelToQd: expected ${nv} numbers (MuJoCo's nv), got ${qvel.length}`);
    const q = qposToQ(qpos);
    for (const j of joints) {
      const info = model.joint(j.name);
      const o = info.v, a = j.dofAddress;
      switch (j.type) {
        case 'hinge':
        case 'slide':
          out[o] = qvel[a];
          break;
        case 'ball':
          out[o] = qvel[a]; out[o + 1] = qvel[a + 1]; out[o + 2] = qvel[a + 2];
          break;
        case 'free': {
          const link = Array.from(q.subarray(info.q + 3, info.q + 7));
          const w = quatRotate(j.bodyInLink, [qvel[a + 3], qvel[a + 4], qvel[a + 5]]);
          const v = quatRotate(quatConj(link), quatRotate(world.q, [qvel[a], qvel[a + 1], qvel[a + 2]]));
          out.set(w, o);
          out.set(v, o + 3);
          break;
        }
      }
    }
    return out;
  };

  const keyframes: MJCFKeyframe[] = [];
  for (const kf of sections('keyframe')) {
    for (const key of kf.children) {
      if (key.name !== 'key') throw errorAt(key.pos, `unknown element <${key.name}> in <keyframe> (expected <key>)`);
      const a = ownAttrs(key);
      const qpos = a.has('qpos') ? a.numbers('qpos', nq) : undefined;
      const qvel = a.has('qvel') ? a.numbers('qvel', nv) : undefined;
      const q0 = qpos ?? Array.from(qposZero());
      keyframes.push({
        name: key.attrs.name ?? `key${keyframes.length}`,
        q: qposToQ(q0),
        qd: qvel ? qvelToQd(q0, qvel) : new Float64Array(model.nv),
      });
    }
  }
  /** MuJoCo's qpos0: ref for hinges and slides, identity quaternions, the bodies' model positions. */
  function qposZero(): Float64Array {
    const z = new Float64Array(nq);
    for (const j of joints) {
      const a = j.qposAddress;
      if (j.type === 'hinge' || j.type === 'slide') z[a] = j.ref;
      else if (j.type === 'ball') z[a] = 1;
      else {
        const p = quatRotate(quatConj(world.q), j.origin);
        const body = quatMul(quatConj(world.q), j.bodyInLink);
        z.set(p, a);
        z[a + 3] = body[3]; z[a + 4] = body[0]; z[a + 5] = body[1]; z[a + 6] = body[2];
      }
    }
    return z;
  }

  return {
    model,
    description: built.description,
    name: rootName,
    timestep,
    gravity,
    bodies: bodies.map((b) => b.info),
    excludedLinkPairs,
    joints: joints.map(({ name, type, body, link, qposAddress, dofAddress, ref }) => ({ name, type, body, link, qposAddress, dofAddress, ref })),
    nq,
    nv,
    staticShapes,
    totalMass,
    keyframes,
    warnings,
    qposToQ,
    qvelToQd,
  };
}

/** [lower, upper] of a joint's range in the file's units when the joint is limited, else null. */
function limitsOf(a: Attrs, c: Compiler): [number, number] | null {
  const limited = a.keyword('limited', ['true', 'false', 'auto'] as const, 'auto');
  const hasRange = a.has('range');
  if (limited === 'auto' && !c.autoLimits && hasRange) a.fail('range', 'a range without limited="true" is an error when the compiler has autolimits="false" (expected limited="true" or "false")');
  const on = limited === 'true' || (limited === 'auto' && c.autoLimits && hasRange);
  if (!on) return null;
  const r = (a.vec('range', 2) ?? [0, 0]) as [number, number];
  if (r[0] > r[1]) a.fail('range', `expected lower <= upper (got "${a.raw('range')}")`);
  return r;
}

/**
 * What MuJoCo does with contacts that the import does not, told once for the whole model.
 * Imported: sliding friction combined as MuJoCo does, the larger of the two geoms' (frictionCombine
 * 'max'), and condim 1 (frictionless) as a friction of 0, so that two condim 1 geoms slide and a
 * condim 1 geom takes the other geom's friction. Told: condim 4 and 6 (torsional and rolling
 * friction: only the sliding friction is imported); a condim 1 geom whose own friction MuJoCo
 * would use against a condim 3 geom of less friction; priority; soft contact parameters (Sinew's
 * contact rows are hard).
 */
class GeomCensus {
  private readonly condim = new Map<number, number>();
  private soft = 0;
  private priority = 0;
  /** The largest friction of a condim 1 geom, and the least of any other. */
  private frictionless = 0;
  private leastOther = Infinity;

  add(g: Geom): void {
    if (g.condim !== 3 && g.condim !== 1) this.condim.set(g.condim, (this.condim.get(g.condim) ?? 0) + 1);
    if (g.soft) this.soft++;
    if (g.priority !== 0) this.priority++;
    if (g.condim === 1) this.frictionless = Math.max(this.frictionless, g.friction);
    else this.leastOther = Math.min(this.leastOther, g.friction);
  }

  warnings(): string[] {
    const out: string[] = [];
    for (const [c, n] of [...this.condim].sort((x, y) => x[0] - y[0])) {
      out.push(`condim ${c} is imported as condim 3 (${n} geom${n > 1 ? 's' : ''}): sliding friction only, no torsional or rolling friction`);
    }
    if (this.frictionless > this.leastOther) out.push(`condim 1 geoms (friction up to ${this.frictionless}) meet geoms of friction ${this.leastOther} with that lesser friction here; MuJoCo would take the condim 1 geom's`);
    if (this.priority > 0) out.push(`priority is not imported (${this.priority} geom${this.priority > 1 ? 's' : ''}): every contact takes the larger friction`);
    if (this.soft > 0) out.push(`solref, solimp, solmix, margin and gap are not imported (${this.soft} geom${this.soft > 1 ? 's' : ''}): contacts are hard rows`);
    return out;
  }
}

/**
 * The <contact> section: each <exclude body1 body2> as the pair of links that carry the two
 * bodies (by name); <pair> elements are not imported (a warning says how many). An exclude that
 * names an unknown body, or a body fixed to the world, is refused or told.
 */
function readContactSection(els: XmlElement[], bodies: MJCFBody[], linkNames: string[], warnings: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  let notImported = 0;
  for (const el of els) {
    for (const c of el.children) {
      if (c.name === 'pair') { notImported++; continue; }
      if (c.name !== 'exclude') throw errorAt(c.pos, `unknown element <${c.name}> in <contact> (expected <pair> or <exclude>)`);
      const a = ownAttrs(c);
      const link = (key: 'body1' | 'body2'): number => {
        const name = a.raw(key);
        if (name === undefined) a.fail(key, 'expected the name of a body');
        const b = bodies.find((x) => x.name === name);
        if (!b) a.fail(key, `no body is named "${name}" (expected the name of a body)`);
        return b!.link;
      };
      const l1 = link('body1'), l2 = link('body2');
      if (l1 === l2) continue; // (one link: its shapes never collide with each other)
      if (l1 < 0 || l2 < 0) { warnings.push(`${c.pos.file}:${c.pos.line}: <exclude> of a body fixed to the world is not imported (its geoms are static shapes)`); continue; }
      pairs.push([linkNames[l1], linkNames[l2]]);
    }
  }
  if (notImported > 0) warnings.push(`<contact><pair> is not imported (${notImported} element${notImported > 1 ? 's' : ''})`);
  return pairs;
}
