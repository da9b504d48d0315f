/**
 * MJCF geoms: their frame in the body, their mass properties by MuJoCo's rules and their collision
 * shape. MuJoCo (XML Reference, "geom"): type defaults to sphere; size holds up to three numbers
 * whose meaning depends on the type (sphere radius; capsule and cylinder radius and half-length
 * along local Z; box and ellipsoid half-sizes); fromto gives the frame of capsules, cylinders,
 * boxes and ellipsoids from two end points (Z along the segment, half-length half its length,
 * the two transverse sizes both size[0]); mass, when given, overrides density (default 1000
 * kg/m^3) as mass / volume. Solids are uniform; capsules are a cylinder and two hemispheres.
 */
import type { ShapeDesc } from '@sinew/featherstone';
import type { Attrs } from './attributes.js';
import { frameOrientation, quatZToVec, type AngleSettings } from './orientation.js';
import { add3, norm3, quatMul, quatRotate, scale3, sub3, transformMass, type MassProps, type Pose, type Quat, type Vec3 } from '../format/math.js';
import {
  boxMass,
  boxVolume,
  capsuleMass,
  capsuleVolume,
  cylinderMass,
  cylinderVolume,
  ellipsoidMass,
  ellipsoidVolume,
  scaleMass,
  sphereMass,
  sphereVolume,
} from '../format/solids.js';
import { detMath } from '@sinew/featherstone';

export const GEOM_TYPES = ['plane', 'hfield', 'sphere', 'capsule', 'ellipsoid', 'cylinder', 'box', 'mesh', 'sdf'] as const;
export type GeomType = (typeof GEOM_TYPES)[number];

/** Quarter turn about X: takes a local +Y axis (SDK capsules, planes) onto local +Z (MuJoCo's). */
const Y_TO_Z: Quat = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];

export interface Geom {
  type: GeomType;
  /** Frame of the geom in its body (or in its frame, for geoms inside <frame>). */
  pose: Pose;
  /** Sizes in MuJoCo's sense after fromto: radius / half-length / half-sizes. */
  size: Vec3;
  /** Mass properties in the body frame (null for types without volume: plane, hfield, mesh, sdf). */
  mass: MassProps | null;
  group: number;
  /** False for purely visual geoms (contype = conaffinity = 0). */
  collides: boolean;
  friction: number;
  /** Contact dimensionality (1 frictionless, 3 sliding friction, 4 and 6 with torsional and rolling friction). */
  condim: number;
  /** Whether solref, solimp, solmix, margin or gap is set (MuJoCo's soft contact parameters). */
  soft: boolean;
  /** MuJoCo's contact priority (default 0). */
  priority: number;
}

function volumeOf(type: GeomType, s: Vec3): number {
  switch (type) {
    case 'sphere': return sphereVolume(s[0]);
    case 'capsule': return capsuleVolume(s[0], s[1]);
    case 'cylinder': return cylinderVolume(s[0], s[1]);
    case 'box': return boxVolume(s);
    case 'ellipsoid': return ellipsoidVolume(s);
    default: return 0;
  }
}

function unitMass(type: GeomType, s: Vec3): MassProps | null {
  switch (type) {
    case 'sphere': return sphereMass(s[0], 1);
    case 'capsule': return capsuleMass(s[0], s[1], 1, 'z');
    case 'cylinder': return cylinderMass(s[0], s[1], 1, 'z');
    case 'box': return boxMass(s, 1);
    case 'ellipsoid': return ellipsoidMass(s, 1);
    default: return null;
  }
}

export function readGeom(a: Attrs, angles: AngleSettings, framePose: Pose): Geom {
  const type = a.keyword('type', GEOM_TYPES, 'sphere');
  const raw = a.numbers('size', 1, 3) ?? [];
  const size: Vec3 = [raw[0] ?? 0, raw[1] ?? 0, raw[2] ?? 0];
  let pose: Pose;
  const fromto = a.vec('fromto', 6);
  if (fromto) {
    if (!['capsule', 'cylinder', 'box', 'ellipsoid'].includes(type)) a.fail('fromto', `only capsule, cylinder, box and ellipsoid geoms take fromto (expected one of them, this one is a ${type})`);
    const p0 = fromto.slice(0, 3), p1 = fromto.slice(3);
    const d = sub3(p1, p0);
    const len = norm3(d);
    if (!(len > 1e-14)) a.fail('fromto', 'expected two different end points');
    pose = { p: scale3(add3(p0, p1), 0.5), q: quatZToVec(d)! };
    if (!(size[0] > 0)) a.fail('size', `expected a positive radius (size[0]) with fromto (got ${raw.length ? raw.join(' ') : 'no size'})`);
    if (type === 'capsule' || type === 'cylinder') { size[1] = len / 2; size[2] = 0; }
    else { size[1] = size[0]; size[2] = len / 2; }
  } else {
    pose = { p: (a.vec('pos', 3) ?? [0, 0, 0]) as Vec3, q: frameOrientation(a, angles) };
    const need = type === 'sphere' ? 1 : type === 'capsule' || type === 'cylinder' ? 2 : type === 'box' || type === 'ellipsoid' ? 3 : 0;
    for (let k = 0; k < need; k++) {
      if (!(size[k] > 0)) a.fail('size', `a ${type} needs ${need} positive size${need > 1 ? 's' : ''} (got ${raw.length ? `"${a.raw('size')}"` : 'none'}): expected ${need} number${need > 1 ? 's' : ''} > 0`);
    }
  }
  pose = { p: add3(framePose.p, quatRotate(framePose.q, pose.p)), q: quatMul(framePose.q, pose.q) };
  if (a.bool('shellinertia', false)) a.fail('shellinertia', 'shell inertia is not supported: expected "false"');

  let mass: MassProps | null = null;
  const unit = unitMass(type, size);
  if (unit) {
    const given = a.number('mass');
    let density: number;
    if (given !== undefined) {
      if (given < 0) a.fail('mass', `expected a mass >= 0 (got ${given})`);
      density = given === 0 ? 0 : given / volumeOf(type, size);
    } else {
      density = a.number('density', 1000);
      if (density < 0) a.fail('density', `expected a density >= 0 (got ${density})`);
    }
    mass = transformMass(pose, scaleMass(unit, density));
    if (given !== undefined) mass.mass = given; // exactly the given mass
  }
  const contype = a.number('contype', 1), conaffinity = a.number('conaffinity', 1);
  return {
    type,
    pose,
    size,
    mass,
    group: a.number('group', 0),
    collides: contype !== 0 || conaffinity !== 0,
    friction: (a.numbers('friction', 1, 3) ?? [1])[0],
    condim: a.number('condim', 3),
    soft: ['solref', 'solimp', 'solmix', 'margin', 'gap'].some((k) => a.has(k)),
    priority: a.number('priority', 0),
  };
}

/** Points on a cylinder's rims (16 per rim), for a convex-hull collision shape. */
function cylinderPoints(r: number, h: number): number[] {
  const pts: number[] = [];
  for (const z of [-h, h]) for (let k = 0; k < 16; k++) {
    const t = (2 * Math.PI * k) / 16;
    pts.push(r * detMath.cos(t), r * detMath.sin(t), z);
  }
  return pts;
}

/** Points on an ellipsoid (poles and 7 latitudes of 12), for a convex-hull collision shape. */
function ellipsoidPoints(s: Vec3): number[] {
  const pts: number[] = [0, 0, s[2], 0, 0, -s[2]];
  for (let i = 1; i < 8; i++) {
    const phi = (Math.PI * i) / 8;
    for (let k = 0; k < 12; k++) {
      const t = (2 * Math.PI * k) / 12;
      pts.push(s[0] * detMath.sin(phi) * detMath.cos(t), s[1] * detMath.sin(phi) * detMath.sin(t), s[2] * detMath.cos(phi));
    }
  }
  return pts;
}

/**
 * The geom's collision shape with its pose mapped by `toLink` (body -> link or world
 * coordinates); null for geoms without one here (mesh, hfield, sdf).
 */
export function geomShape(g: Geom, toLink: Pose): ShapeDesc | null {
  const p = add3(toLink.p, quatRotate(toLink.q, g.pose.p));
  const q = quatMul(toLink.q, g.pose.q);
  const [a, b, c] = g.size;
  let geometry: ShapeDesc['geometry'];
  let rotation: Quat = q;
  switch (g.type) {
    case 'sphere': geometry = { type: 'sphere', radius: a }; break;
    case 'capsule': geometry = { type: 'capsule', radius: a, halfLength: b }; rotation = quatMul(q, Y_TO_Z); break;
    case 'box': geometry = { type: 'box', halfExtents: [a, b, c] }; break;
    case 'cylinder': geometry = { type: 'convex', points: cylinderPoints(a, b) }; break;
    case 'ellipsoid': geometry = { type: 'convex', points: ellipsoidPoints([a, b, c]) }; break;
    case 'plane': geometry = { type: 'plane' }; rotation = quatMul(q, Y_TO_Z); break;
    default: return null;
  }
  // MuJoCo gives a contact the larger of its geoms' frictions and the larger condim: a condim 1
  // (frictionless) geom takes its friction from the other geom, none if that one is condim 1 too
  return { geometry, position: p, rotation, friction: g.condim === 1 ? 0 : g.friction, frictionCombine: 'max' };
}
