/**
 * Validation of the JSON character format (schema/character.schema.json) by hand-written checks,
 * so that every error names the JSON path and what was expected there:
 * `links[3].joint.axis: expected 3 numbers (got 2)`. Beyond the schema it checks what a schema
 * cannot: parents listed before children, no cycles, unique names, non-zero axes, ordered ranges,
 * positive semi-definite inertias.
 */
import { FRICTION_COMBINE, JOINT_TYPE_NAMES, type FrictionCombine, type JointTypeName } from '@sinew/featherstone';
import { FormatError } from './errors.js';
import { symmetricEigen3, inertiaToMat3 } from './math.js';
import {
  CHARACTER_FORMAT,
  CHARACTER_FORMAT_VERSION,
  type CharacterDescription,
  type ConeLimits,
  type DriveDescription,
  type JointDescription,
  type LinkDescription,
  type RangeLimits,
  type ShapeDescription,
} from './types.js';

type Obj = Record<string, unknown>;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`;
  if (typeof v === 'number') return String(v);
  return typeof v === 'object' ? 'an object' : typeof v;
}

function object(v: unknown, path: string, allowed: readonly string[]): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new FormatError(path, `expected an object (got ${describe(v)})`);
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k)) throw new FormatError(`${path}.${k}`, `unknown property (expected one of ${allowed.join(', ')})`);
  }
  return v as Obj;
}

function required(o: Obj, key: string, path: string): unknown {
  if (!(key in o) || o[key] === undefined) throw new FormatError(`${path}.${key}`, `missing required property (expected a value for "${key}")`);
  return o[key];
}

interface NumOpts {
  min?: number;
  exclusiveMin?: number;
  max?: number;
  integer?: boolean;
}

function number(v: unknown, path: string, opts: NumOpts = {}): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new FormatError(path, `expected a finite number (got ${describe(v)})`);
  if (opts.integer && !Number.isInteger(v)) throw new FormatError(path, `expected an integer (got ${v})`);
  if (opts.min !== undefined && v < opts.min) throw new FormatError(path, `expected a number >= ${opts.min} (got ${v})`);
  if (opts.exclusiveMin !== undefined && !(v > opts.exclusiveMin)) throw new FormatError(path, `expected a number > ${opts.exclusiveMin} (got ${v})`);
  if (opts.max !== undefined && v > opts.max) throw new FormatError(path, `expected a number <= ${opts.max} (got ${v})`);
  return v + 0; // -0 -> +0: JSON text cannot carry the sign of zero, so the model never holds one
}

function numbers(v: unknown, path: string, n: number, opts: NumOpts = {}): number[] {
  if (!Array.isArray(v) || v.length !== n) throw new FormatError(path, `expected ${n} numbers (got ${describe(v)})`);
  v.forEach((x, k) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new FormatError(`${path}[${k}]`, `expected ${n} finite numbers (element ${k} is ${describe(x)})`);
  });
  return v.map((x: number, k) => number(x, `${path}[${k}]`, opts));
}

function nonZero(v: number[], path: string, what: string): void {
  if (!(Math.sqrt(v.reduce((s, x) => s + x * x, 0)) > 1e-12)) throw new FormatError(path, `expected a non-zero ${what}`);
}

function string(v: unknown, path: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new FormatError(path, `expected a non-empty string (got ${describe(v)})`);
  return v;
}

function optional<T>(o: Obj, key: string, f: (v: unknown, path: string) => T, path: string): T | undefined {
  return o[key] === undefined ? undefined : f(o[key], `${path}.${key}`);
}

const SHAPE_KEYS: Record<ShapeDescription['type'], readonly string[]> = {
  sphere: ['radius'],
  capsule: ['radius', 'halfLength'],
  box: ['halfExtents'],
  convex: ['points'],
};
const SHAPE_COMMON = ['type', 'position', 'rotation', 'friction', 'frictionCombine', 'restitution', 'group', 'mask'];

export function validateShape(v: unknown, path: string): ShapeDescription {
  const pre = object(v, path, Object.keys(v && typeof v === 'object' ? v : {}));
  const type = required(pre, 'type', path);
  if (typeof type !== 'string' || !(type in SHAPE_KEYS)) {
    throw new FormatError(`${path}.type`, `expected one of ${Object.keys(SHAPE_KEYS).join(', ')} (got ${describe(type)}; planes, meshes and heightfields are static geometry, not link shapes)`);
  }
  const t = type as ShapeDescription['type'];
  const o = object(v, path, [...SHAPE_COMMON, ...SHAPE_KEYS[t]]);
  const common = {
    position: optional(o, 'position', (x, p) => numbers(x, p, 3), path),
    rotation: optional(o, 'rotation', (x, p) => { const q = numbers(x, p, 4); nonZero(q, p, 'quaternion'); return q; }, path),
    friction: optional(o, 'friction', (x, p) => number(x, p, { min: 0 }), path),
    frictionCombine: optional(o, 'frictionCombine', (x, p) => {
      if (typeof x !== 'string' || !(FRICTION_COMBINE as readonly string[]).includes(x)) throw new FormatError(p, `expected one of ${FRICTION_COMBINE.join(', ')} (got ${describe(x)})`);
      return x as FrictionCombine;
    }, path),
    restitution: optional(o, 'restitution', (x, p) => number(x, p, { min: 0, max: 1 }), path),
    group: optional(o, 'group', (x, p) => number(x, p, { integer: true, min: 0, max: 0xffffffff }), path),
    mask: optional(o, 'mask', (x, p) => number(x, p, { integer: true, min: 0, max: 0xffffffff }), path),
  };
  let s: ShapeDescription;
  switch (t) {
    case 'sphere':
      s = { type: t, radius: number(required(o, 'radius', path), `${path}.radius`, { exclusiveMin: 0 }) };
      break;
    case 'capsule':
      s = {
        type: t,
        radius: number(required(o, 'radius', path), `${path}.radius`, { exclusiveMin: 0 }),
        halfLength: number(required(o, 'halfLength', path), `${path}.halfLength`, { min: 0 }),
      };
      break;
    case 'box':
      s = { type: t, halfExtents: numbers(required(o, 'halfExtents', path), `${path}.halfExtents`, 3, { exclusiveMin: 0 }) as [number, number, number] };
      break;
    case 'convex': {
      const pts = required(o, 'points', path);
      if (!Array.isArray(pts) || pts.length < 12 || pts.length % 3 !== 0) {
        throw new FormatError(`${path}.points`, `expected at least 4 points as a flat array of 3n numbers (got ${describe(pts)})`);
      }
      s = { type: t, points: numbers(pts, `${path}.points`, pts.length) };
      break;
    }
  }
  for (const [k, val] of Object.entries(common)) if (val !== undefined) (s as unknown as Record<string, unknown>)[k] = val;
  return s;
}

function validateLimits(v: unknown, path: string, type: JointTypeName): RangeLimits | ConeLimits {
  if (type === 'revolute' || type === 'prismatic') {
    const o = object(v, path, ['lower', 'upper']);
    const side = (k: 'lower' | 'upper'): number | null => {
      const x = required(o, k, path);
      return x === null ? null : number(x, `${path}.${k}`);
    };
    const lower = side('lower'), upper = side('upper');
    if (lower !== null && upper !== null && lower > upper) throw new FormatError(path, `expected lower <= upper (got ${lower} > ${upper})`);
    return { lower, upper };
  }
  if (type === 'spherical') {
    const o = object(v, path, ['swing', 'twist', 'twistAxis', 'swingCentre']);
    const sw = required(o, 'swing', path);
    const swing = typeof sw === 'number'
      ? number(sw, `${path}.swing`, { min: 0, max: Math.PI })
      : (numbers(sw, `${path}.swing`, 2, { min: 0, max: Math.PI }) as [number, number]);
    const twist = numbers(required(o, 'twist', path), `${path}.twist`, 2) as [number, number];
    if (twist[0] > twist[1]) throw new FormatError(`${path}.twist`, `expected [lower, upper] with lower <= upper (got [${twist.join(', ')}])`);
    const c: ConeLimits = { swing, twist };
    if (o.twistAxis !== undefined) {
      c.twistAxis = numbers(o.twistAxis, `${path}.twistAxis`, 3) as [number, number, number];
      nonZero(c.twistAxis, `${path}.twistAxis`, 'axis');
    }
    if (o.swingCentre !== undefined) {
      c.swingCentre = numbers(o.swingCentre, `${path}.swingCentre`, 2, { min: -Math.PI, max: Math.PI }) as [number, number];
      if (!(Math.sqrt(c.swingCentre[0] * c.swingCentre[0] + c.swingCentre[1] * c.swingCentre[1]) <= Math.PI)) throw new FormatError(`${path}.swingCentre`, `expected a turn of at most pi (got [${c.swingCentre.join(', ')}])`);
    }
    return c;
  }
  throw new FormatError(path, `a ${type} joint takes no limits (expected no limits property)`);
}

function validateDrive(v: unknown, path: string, type: JointTypeName): DriveDescription {
  if (type === 'free' || type === 'fixed') throw new FormatError(path, `a ${type} joint cannot be driven (expected no drive property)`);
  const pre = object(v, path, ['kp', 'kd', 'settleTime', 'dampingRatio', 'maxTorque']);
  const maxTorque = optional(pre, 'maxTorque', (x, p) => number(x, p, { exclusiveMin: 0 }), path);
  let d: DriveDescription;
  if (pre.settleTime !== undefined) {
    object(v, path, ['settleTime', 'dampingRatio', 'maxTorque']);
    d = { settleTime: number(pre.settleTime, `${path}.settleTime`, { exclusiveMin: 0 }) };
    if (pre.dampingRatio !== undefined) d.dampingRatio = number(pre.dampingRatio, `${path}.dampingRatio`, { exclusiveMin: 0 });
  } else {
    object(v, path, ['kp', 'kd', 'maxTorque']);
    if (pre.kp === undefined) throw new FormatError(`${path}.kp`, 'missing required property (expected kp and kd, or settleTime)');
    d = { kp: number(pre.kp, `${path}.kp`, { min: 0 }), kd: number(required(pre, 'kd', path), `${path}.kd`, { min: 0 }) };
  }
  if (maxTorque !== undefined) d.maxTorque = maxTorque;
  return d;
}

function validateJoint(v: unknown, path: string): JointDescription {
  const o = object(v, path, ['type', 'name', 'position', 'rotation', 'axis', 'limits', 'damping', 'armature', 'stiffness', 'springRef', 'drive']);
  const type = required(o, 'type', path);
  if (typeof type !== 'string' || !(JOINT_TYPE_NAMES as readonly string[]).includes(type)) {
    throw new FormatError(`${path}.type`, `expected one of ${JOINT_TYPE_NAMES.join(', ')} (got ${describe(type)})`);
  }
  const t = type as JointTypeName;
  const j: JointDescription = { type: t };
  if (o.name !== undefined) j.name = string(o.name, `${path}.name`);
  if (o.position !== undefined) j.position = numbers(o.position, `${path}.position`, 3) as [number, number, number];
  if (o.rotation !== undefined) {
    j.rotation = numbers(o.rotation, `${path}.rotation`, 4) as [number, number, number, number];
    nonZero(j.rotation, `${path}.rotation`, 'quaternion');
  }
  const scalar = t === 'revolute' || t === 'prismatic';
  if (scalar) {
    if (o.axis === undefined) throw new FormatError(`${path}.axis`, `a ${t} joint needs an axis: expected 3 numbers`);
    j.axis = numbers(o.axis, `${path}.axis`, 3) as [number, number, number];
    nonZero(j.axis, `${path}.axis`, 'axis');
  } else if (o.axis !== undefined) throw new FormatError(`${path}.axis`, `a ${t} joint takes no axis (expected no axis property)`);
  if (o.limits !== undefined) j.limits = validateLimits(o.limits, `${path}.limits`, t);
  for (const k of ['damping', 'armature'] as const) if (o[k] !== undefined) j[k] = number(o[k], `${path}.${k}`, { min: 0 });
  for (const k of ['stiffness', 'springRef'] as const) {
    if (o[k] === undefined) continue;
    if (!scalar) throw new FormatError(`${path}.${k}`, `only revolute and prismatic joints have a spring (this one is ${t}; expected no ${k})`);
    j[k] = number(o[k], `${path}.${k}`, k === 'stiffness' ? { min: 0 } : {});
  }
  if (o.drive !== undefined) j.drive = validateDrive(o.drive, `${path}.drive`, t);
  return j;
}

function checkInertia(I: number[], path: string): void {
  const { values } = symmetricEigen3(inertiaToMat3(I));
  const scale = Math.max(Math.abs(I[0]), Math.abs(I[1]), Math.abs(I[2]), 1e-300);
  if (values.some((e) => e < -1e-12 * scale)) {
    throw new FormatError(path, `expected a positive semi-definite inertia (principal moments ${values.map((e) => e.toPrecision(4)).join(', ')})`);
  }
  const [a, b, c] = [...values].sort((x, y) => x - y);
  if (a + b < c * (1 - 1e-9) - 1e-12 * scale) {
    throw new FormatError(path, `principal moments ${[a, b, c].map((e) => e.toPrecision(4)).join(', ')} break the triangle inequality (no rigid body has them; expected A + B >= C)`);
  }
}

function validateLink(v: unknown, path: string): LinkDescription {
  const o = object(v, path, ['name', 'parent', 'joint', 'mass', 'density', 'com', 'inertia', 'shapes']);
  const name = string(required(o, 'name', path), `${path}.name`);
  const p = required(o, 'parent', path);
  const parent = p === null ? null : string(p, `${path}.parent`);
  const joint = validateJoint(required(o, 'joint', path), `${path}.joint`);
  const link: LinkDescription = { name, parent, joint };
  if (o.shapes !== undefined) {
    if (!Array.isArray(o.shapes)) throw new FormatError(`${path}.shapes`, `expected an array of shapes (got ${describe(o.shapes)})`);
    link.shapes = o.shapes.map((s, k) => validateShape(s, `${path}.shapes[${k}]`));
  }
  const volumetric = (link.shapes ?? []).some((s) => s.type !== 'convex');
  if (o.mass !== undefined && o.density !== undefined) throw new FormatError(`${path}.density`, 'give mass or density, not both (expected one of them)');
  if (o.density !== undefined) {
    link.density = number(o.density, `${path}.density`, { exclusiveMin: 0 });
    if (o.com !== undefined || o.inertia !== undefined) throw new FormatError(`${path}.${o.com !== undefined ? 'com' : 'inertia'}`, 'with a density, the centre of mass and inertia follow from the shapes: remove this property or give mass instead (expected no com or inertia)');
    if (!volumetric) throw new FormatError(`${path}.density`, 'a density needs sphere, capsule or box shapes to give the link a volume (expected such shapes, or mass)');
    return link;
  }
  if (o.mass === undefined) throw new FormatError(`${path}.mass`, 'missing required property (give mass, or density with shapes): expected one of them');
  link.mass = number(o.mass, `${path}.mass`, { min: 0 });
  if (o.com !== undefined) link.com = numbers(o.com, `${path}.com`, 3) as [number, number, number];
  if (o.inertia !== undefined) {
    link.inertia = numbers(o.inertia, `${path}.inertia`, 6) as LinkDescription['inertia'];
    checkInertia(link.inertia!, `${path}.inertia`);
    if (link.mass === 0 && link.inertia!.some((x) => x !== 0)) throw new FormatError(`${path}.inertia`, 'a massless link has no inertia: expected all zeros');
  } else if (link.mass > 0) {
    if (!volumetric) throw new FormatError(`${path}.inertia`, 'missing: give the inertia, or sphere, capsule or box shapes to derive it from (expected one of them)');
    if (o.com !== undefined) throw new FormatError(`${path}.com`, 'when the inertia is derived from the shapes, so is the centre of mass: remove com or give inertia too (expected both or neither)');
  }
  return link;
}

/** Checks a parsed JSON value against the character format and returns it typed (a copy). */
export function validateCharacter(json: unknown): CharacterDescription {
  const o = object(json, '(root)', ['$schema', 'format', 'version', 'name', 'gravity', 'links', 'metadata']);
  if (o.format !== CHARACTER_FORMAT) throw new FormatError('format', `expected "${CHARACTER_FORMAT}" (got ${describe(o.format)})`);
  if (o.version !== CHARACTER_FORMAT_VERSION) throw new FormatError('version', `expected ${CHARACTER_FORMAT_VERSION} (got ${describe(o.version)})`);
  const d: CharacterDescription = { format: CHARACTER_FORMAT, version: CHARACTER_FORMAT_VERSION, links: [] };
  if (o.name !== undefined) d.name = string(o.name, 'name');
  if (o.gravity !== undefined) d.gravity = numbers(o.gravity, 'gravity', 3) as [number, number, number];
  if (o.metadata !== undefined) {
    if (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata)) throw new FormatError('metadata', `expected an object (got ${describe(o.metadata)})`);
    d.metadata = JSON.parse(JSON.stringify(o.metadata)) as Record<string, unknown>;
  }
  const links = required(o, 'links', '(root)');
  if (!Array.isArray(links) || links.length === 0) throw new FormatError('links', `expected a non-empty array of links (got ${describe(links)})`);
  d.links = links.map((l, i) => validateLink(l, `links[${i}]`));

  // names, parents before children, cycles
  const index = new Map<string, number>();
  d.links.forEach((l, i) => {
    if (index.has(l.name)) throw new FormatError(`links[${i}].name`, `expected a unique link name ("${l.name}" is also links[${index.get(l.name)}])`);
    index.set(l.name, i);
  });
  const jointNames = new Map<string, number>();
  d.links.forEach((l, i) => {
    const jn = l.joint.name ?? l.name;
    if (jointNames.has(jn)) throw new FormatError(`links[${i}].joint.name`, `expected a unique joint name ("${jn}" is also the joint of links[${jointNames.get(jn)}])`);
    jointNames.set(jn, i);
  });
  d.links.forEach((l, i) => {
    if (l.parent === null) return;
    const p = index.get(l.parent);
    if (p === undefined) throw new FormatError(`links[${i}].parent`, `expected the name of a link or null (no link is named "${l.parent}")`);
    if (p >= i) {
      // a parent listed later: a cycle, or an ordering error
      const chain = [l.name];
      let at: string | null = l.parent;
      while (at !== null && !chain.includes(at)) {
        chain.push(at);
        const k = index.get(at);
        at = k === undefined ? null : d.links[k].parent;
      }
      if (at === l.name) throw new FormatError(`links[${i}].parent`, `expected a tree: the links ${[...chain, l.name].map((n) => `"${n}"`).join(' -> ')} form a cycle`);
      throw new FormatError(`links[${i}].parent`, `expected a parent listed before its child ("${l.parent}" is links[${p}])`);
    }
  });
  return d;
}
