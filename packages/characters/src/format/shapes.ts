/** Conversion between the format's flat shape objects and @sinew/featherstone's ShapeDesc. */
import type { ShapeDesc } from '@sinew/featherstone';
import { FormatError } from './errors.js';
import type { ShapeDescription } from './types.js';

const COMMON = ['position', 'rotation', 'friction', 'frictionCombine', 'restitution', 'group', 'mask'] as const;

export function shapeToDesc(s: ShapeDescription): ShapeDesc {
  let d: ShapeDesc;
  switch (s.type) {
    case 'sphere': d = { geometry: { type: 'sphere', radius: s.radius } }; break;
    case 'capsule': d = { geometry: { type: 'capsule', radius: s.radius, halfLength: s.halfLength } }; break;
    case 'box': d = { geometry: { type: 'box', halfExtents: [s.halfExtents[0], s.halfExtents[1], s.halfExtents[2]] } }; break;
    case 'convex': d = { geometry: { type: 'convex', points: s.points.slice() } }; break;
  }
  for (const k of COMMON) {
    const v = s[k];
    if (v === undefined) continue;
    (d as unknown as Record<string, unknown>)[k] = Array.isArray(v) ? v.slice() : v;
  }
  return d;
}

export function descToShape(d: ShapeDesc, path: string): ShapeDescription {
  const g = d.geometry;
  let s: ShapeDescription;
  switch (g.type) {
    case 'sphere': s = { type: 'sphere', radius: g.radius }; break;
    case 'capsule': s = { type: 'capsule', radius: g.radius, halfLength: g.halfLength }; break;
    case 'box': s = { type: 'box', halfExtents: [g.halfExtents[0], g.halfExtents[1], g.halfExtents[2]] }; break;
    case 'convex': s = { type: 'convex', points: Array.from(g.points) }; break;
    default: throw new FormatError(path, `a ${g.type} shape is static geometry and has no place on a link (expected a sphere, capsule, box or convex shape)`);
  }
  for (const k of COMMON) {
    const v = d[k];
    if (v === undefined) continue;
    (s as unknown as Record<string, unknown>)[k] = typeof v === 'number' || typeof v === 'string' ? v : Array.from(v as ArrayLike<number>);
  }
  return s;
}
