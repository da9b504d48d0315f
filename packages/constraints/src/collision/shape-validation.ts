/**
 * Checks a ShapeDesc and turns it into the numbers the collision world stores. Every error names
 * the shape (its label: body, link and index, or the static index, and the caller's name) and says
 * what was expected and what was given.
 */
import { FRICTION_COMBINE, type ShapeDesc } from '@sinew/featherstone';
import { HeightfieldData } from './heightfield.js';
import { ConvexHullData } from './hull.js';
import { DEFAULT_FRICTION, DEFAULT_RESTITUTION } from './material.js';
import { TriangleMeshData } from './mesh.js';
import { poseFromQuaternion, POSE_STRIDE } from './pose.js';
import {
  SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CONVEX, SHAPE_HEIGHTFIELD, SHAPE_PLANE, SHAPE_SPHERE, SHAPE_TRIMESH,
} from './shape-types.js';

/** Thrown for a shape description that cannot be used; the message names the shape and what was expected. */
export class CollisionShapeError extends Error {
  override name = 'CollisionShapeError';
}

export interface CompiledShape {
  kind: number;
  /** sphere [r, 0, 0], capsule [r, halfLength, 0], box [hx, hy, hz], others zeros. */
  params: Float64Array;
  /** Pose of the shape in its link's frame (dynamic) or in the world (static). */
  localPose: Float64Array;
  friction: number;
  /** Code of the shape's friction rule: its index in FRICTION_COMBINE (combineFriction). */
  frictionCombine: number;
  restitution: number;
  group: number;
  mask: number;
  mesh: TriangleMeshData | null;
  heightfield: HeightfieldData | null;
  hull: ConvexHullData | null;
  label: string;
}

function show(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'string') return v;
  if (ArrayBuffer.isView(v) || Array.isArray(v)) {
    const a = Array.from(v as ArrayLike<unknown>);
    return a.length > 8 ? `[${a.slice(0, 8).map(show).join(', ')}, ... (${a.length} values)]` : `[${a.map(show).join(', ')}]`;
  }
  return typeof v;
}

function fail(label: string, what: string, got: unknown): never {
  throw new CollisionShapeError(`${label}: ${what}, got ${show(got)}`);
}

function positive(label: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(label, `${name} must be a finite number > 0`, v);
  return v;
}

function finiteVector(label: string, name: string, v: unknown, n: number): ArrayLike<number> {
  const a = v as ArrayLike<number> | undefined;
  if (a === null || typeof a !== 'object' || typeof a.length !== 'number' || a.length !== n) {
    fail(label, `${name} must be ${n} finite numbers`, v);
  }
  for (let i = 0; i < n; i++) if (typeof a[i] !== 'number' || !Number.isFinite(a[i])) fail(label, `${name} must be ${n} finite numbers`, v);
  return a;
}

function bits(label: string, name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) {
    fail(label, `${name} must be an integer bit mask (32 bits)`, v);
  }
  return v >>> 0;
}

/**
 * Validates `desc` and compiles it. `isStatic` tells whether it is placed in the world (static) or
 * attached to a link (dynamic): planes, triangle meshes and heightfields must be static.
 */
export function compileShape(desc: ShapeDesc, label: string, isStatic: boolean): CompiledShape {
  if (desc === null || typeof desc !== 'object') fail(label, 'expected a shape description object', desc);
  const g = desc.geometry as ShapeDesc['geometry'] | undefined;
  if (g === null || typeof g !== 'object' || typeof g.type !== 'string') fail(label, 'geometry must be an object with a type', g);
  const where = `${label} (${g.type})`;
  const params = new Float64Array(3);
  let kind: number;
  let mesh: TriangleMeshData | null = null;
  let heightfield: HeightfieldData | null = null;
  let hull: ConvexHullData | null = null;
  switch (g.type) {
    case 'sphere':
      kind = SHAPE_SPHERE;
      params[0] = positive(where, 'radius', g.radius);
      break;
    case 'capsule':
      kind = SHAPE_CAPSULE;
      params[0] = positive(where, 'radius', g.radius);
      if (typeof g.halfLength !== 'number' || !Number.isFinite(g.halfLength) || g.halfLength < 0) {
        fail(where, 'halfLength must be a finite number >= 0', g.halfLength);
      }
      params[1] = g.halfLength;
      break;
    case 'box': {
      kind = SHAPE_BOX;
      const h = finiteVector(where, 'halfExtents', g.halfExtents, 3);
      for (let k = 0; k < 3; k++) if (!(h[k] > 0)) fail(where, 'halfExtents must be 3 finite numbers > 0', g.halfExtents);
      params[0] = h[0]; params[1] = h[1]; params[2] = h[2];
      break;
    }
    case 'plane':
      kind = SHAPE_PLANE;
      if (!isStatic) fail(where, 'a plane is static geometry (an infinite half-space); add it with addStaticShape, not to a link', 'a dynamic link');
      break;
    case 'trimesh': {
      kind = SHAPE_TRIMESH;
      if (!isStatic) fail(where, 'a triangle mesh is static geometry; add it with addStaticShape, not to a link', 'a dynamic link');
      const v = g.vertices, idx = g.indices;
      if (!Array.isArray(v) && !ArrayBuffer.isView(v)) fail(where, 'vertices must be an array of xyz numbers', v);
      if (v.length === 0 || v.length % 3 !== 0) fail(where, 'vertices must hold 3 numbers per vertex (length a positive multiple of 3)', `length ${v.length}`);
      for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) fail(where, `vertices must be finite numbers (vertex ${Math.floor(i / 3)})`, v[i]);
      if (!Array.isArray(idx) && !ArrayBuffer.isView(idx)) fail(where, 'indices must be an array of vertex indices', idx);
      if (idx.length === 0 || idx.length % 3 !== 0) fail(where, 'indices must hold 3 vertex indices per triangle (length a positive multiple of 3)', `length ${idx.length}`);
      const nv = v.length / 3;
      for (let i = 0; i < idx.length; i++) {
        const k = idx[i];
        if (!Number.isInteger(k) || k < 0 || k >= nv) {
          fail(where, `indices[${i}] (triangle ${Math.floor(i / 3)}) must be an integer vertex index in [0, ${nv - 1}]`, k);
        }
      }
      mesh = new TriangleMeshData(v, idx);
      if (mesh.triangleCount === 0) fail(where, 'the mesh must have at least one triangle of non-zero area', `${idx.length / 3} degenerate triangles`);
      break;
    }
    case 'heightfield': {
      kind = SHAPE_HEIGHTFIELD;
      if (!isStatic) fail(where, 'a heightfield is static geometry; add it with addStaticShape, not to a link', 'a dynamic link');
      const { rows, cols, heights } = g;
      if (!Number.isInteger(rows) || rows < 2) fail(where, 'rows must be an integer >= 2', rows);
      if (!Number.isInteger(cols) || cols < 2) fail(where, 'cols must be an integer >= 2', cols);
      const sx = positive(where, 'spacingX', g.spacingX);
      const sz = positive(where, 'spacingZ', g.spacingZ);
      if (!Array.isArray(heights) && !ArrayBuffer.isView(heights)) fail(where, 'heights must be an array of rows * cols numbers', heights);
      if (heights.length !== rows * cols) {
        fail(where, `heights must hold rows * cols = ${rows} * ${cols} = ${rows * cols} values`, `${heights.length} values`);
      }
      for (let i = 0; i < heights.length; i++) {
        if (!Number.isFinite(heights[i])) fail(where, `heights[${i}] (row ${Math.floor(i / cols)}, col ${i % cols}) must be finite`, heights[i]);
      }
      heightfield = new HeightfieldData(rows, cols, sx, sz, heights);
      break;
    }
    case 'convex': {
      kind = SHAPE_CONVEX;
      const pts = g.points;
      if (!Array.isArray(pts) && !ArrayBuffer.isView(pts)) fail(where, 'points must be an array of xyz numbers', pts);
      try {
        hull = new ConvexHullData(pts, where);
      } catch (e) {
        if (e instanceof Error && !(e instanceof TypeError)) throw new CollisionShapeError(e.message);
        throw e;
      }
      break;
    }
    default:
      fail(label, "geometry.type must be one of 'sphere', 'capsule', 'box', 'convex', 'plane', 'trimesh', 'heightfield'", (g as { type: unknown }).type);
  }

  const p = desc.position === undefined ? [0, 0, 0] : finiteVector(where, 'position', desc.position, 3);
  const q = desc.rotation === undefined ? [0, 0, 0, 1] : finiteVector(where, 'rotation', desc.rotation, 4);
  const qn = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(qn > 1e-9)) fail(where, 'rotation must be a non-zero quaternion [x, y, z, w]', desc.rotation);
  const localPose = new Float64Array(POSE_STRIDE);
  poseFromQuaternion(q[0], q[1], q[2], q[3], p[0], p[1], p[2], localPose, 0);

  if (desc.sensor !== undefined && typeof desc.sensor !== 'boolean') fail(where, 'sensor must be true or false', desc.sensor);
  const friction = desc.friction === undefined ? DEFAULT_FRICTION : desc.friction;
  if (typeof friction !== 'number' || !Number.isFinite(friction) || friction < 0) fail(where, 'friction must be a finite number >= 0', friction);
  const frictionCombine = FRICTION_COMBINE.indexOf(desc.frictionCombine ?? 'geometric');
  if (frictionCombine < 0) fail(where, `frictionCombine must be one of ${FRICTION_COMBINE.map((r) => `'${r}'`).join(', ')}`, desc.frictionCombine);
  const restitution = desc.restitution === undefined ? DEFAULT_RESTITUTION : desc.restitution;
  if (typeof restitution !== 'number' || !Number.isFinite(restitution) || restitution < 0 || restitution > 1) {
    fail(where, 'restitution must be a number in [0, 1]', restitution);
  }
  return {
    kind,
    params,
    localPose,
    friction,
    frictionCombine,
    restitution,
    group: bits(where, 'group', desc.group, 1),
    mask: bits(where, 'mask', desc.mask, 0xffffffff),
    mesh,
    heightfield,
    hull,
    label,
  };
}
