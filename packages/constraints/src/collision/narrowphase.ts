/**
 * Narrow phase: for each broad-phase pair, the routine for its two shape kinds fills the pair's
 * manifold, which is then written to the contact buffer. A pair's A is its lower slot, always a
 * dynamic shape (statics sort last and never pair with each other); routines written for the
 * opposite order run with the shapes swapped and the manifold flips them back.
 *
 * Against a triangle mesh or heightfield the dynamic shape is moved into the mesh's frame, the
 * triangles under its bounds are collected (BVH for meshes, cell range for heightfields), each
 * triangle adds its points, and the pair's points are merged and reduced to at most four.
 */
import { primitiveAabb, transformedAabb } from './aabb.js';
import { boxBoxContact } from './box-box.js';
import { capsuleBoxContact, capsuleCapsuleContact } from './capsule-contacts.js';
import type { ContactBuffer } from './contact-buffer.js';
import type { HeightfieldData } from './heightfield.js';
import type { ConvexHullData } from './hull.js';
import { hullHullContact, hullPlaneContact, hullTriangleContact, roundedHullContact } from './hull-contacts.js';
import { ManifoldBuilder } from './manifold.js';
import type { TriangleMeshData } from './mesh.js';
import { boxPlaneContact, capsulePlaneContact, spherePlaneContact } from './plane-contacts.js';
import { POSE_STRIDE, relativePose } from './pose.js';
import {
  SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CONVEX, SHAPE_HEIGHTFIELD, SHAPE_PARAM_STRIDE, SHAPE_PLANE, SHAPE_SPHERE, SHAPE_TRIMESH,
} from './shape-types.js';
import type { ShapeStore } from './shape-store.js';
import { sphereBoxContact, sphereCapsuleContact, sphereSphereContact } from './sphere-contacts.js';
import { TriangleRef, boxTriangleContact, capsuleTriangleContact, sphereTriangleContact } from './triangle-contacts.js';

/** Points of one mesh pair closer than this (m) with the same normal are one point. */
const MESH_DUPLICATE_DISTANCE = 1e-6;

export class NarrowPhase {
  readonly builder = new ManifoldBuilder();
  /** The dynamic shape's pose in the mesh frame. */
  private readonly local = new Float64Array(POSE_STRIDE);
  /** The mesh pose (contacts go back to world through it). */
  private readonly frame = new Float64Array(POSE_STRIDE);
  private readonly tri = new TriangleRef();
  /** The dynamic shape's bounds in the mesh frame. */
  private readonly bounds = new Float64Array(6);
  private readonly cells = new Int32Array(4);

  /** Contact margin (m) of every pair. */
  private readonly margin: number;

  constructor(margin: number) {
    this.margin = margin;
  }

  /**
   * Collides every pair but those of resting (resting[body] = 1) or static shapes only, and appends
   * the manifolds to `out` (which the caller cleared). A pair's
   * margin grows by the larger speculative margin of its two shapes (store.extraMargin); links of
   * one body move together, so their pairs keep the plain margin.
   */
  run(store: ShapeStore, pairs: Int32Array, pairCount: number, out: ContactBuffer, resting: Uint8Array): void {
    const extra = store.extraMargin, body = store.body, margin = this.margin;
    const nr = resting.length;
    for (let i = 0; i < pairCount; i++) {
      const a = pairs[2 * i], b = pairs[2 * i + 1];
      const ba = body[a], bb = body[b];
      // both sides at rest or static: nothing moves, no contacts needed
      if ((ba < 0 || (ba < nr && resting[ba] === 1)) && (bb < 0 || (bb < nr && resting[bb] === 1))) continue;
      const spec = body[a] === body[b] ? 0 : extra[a] > extra[b] ? extra[a] : extra[b];
      this.builder.margin = margin + spec;
      this.collidePair(store, a, b, out);
    }
  }

  collidePair(store: ShapeStore, a: number, b: number, out: ContactBuffer): void {
    const m = this.builder;
    m.reset();
    const ka = store.kind[a], kb = store.kind[b];
    const pose = store.worldPose, prm = store.params;
    const oa = POSE_STRIDE * a, ob = POSE_STRIDE * b;
    const qa = SHAPE_PARAM_STRIDE * a, qb = SHAPE_PARAM_STRIDE * b;
    const hull = store.hull;
    if (kb === SHAPE_TRIMESH || kb === SHAPE_HEIGHTFIELD) {
      this.collideWithTriangles(store, a, b);
    } else if (ka === SHAPE_CONVEX || kb === SHAPE_CONVEX) {
      // hulls: boxes meet them as hulls, spheres and capsules as rounded cores
      if (kb === SHAPE_PLANE) hullPlaneContact(pose, oa, hull[a] as ConvexHullData, pose, ob, m);
      else if (ka === SHAPE_SPHERE || ka === SHAPE_CAPSULE) roundedHullContact(pose, oa, prm, qa, pose, ob, hull[b] as ConvexHullData, m);
      else if (kb === SHAPE_SPHERE || kb === SHAPE_CAPSULE) {
        m.flipped = true;
        roundedHullContact(pose, ob, prm, qb, pose, oa, hull[a] as ConvexHullData, m);
      } else hullHullContact(pose, oa, hull[a] as ConvexHullData, pose, ob, hull[b] as ConvexHullData, m);
    } else if (ka === SHAPE_SPHERE) {
      if (kb === SHAPE_SPHERE) sphereSphereContact(pose, oa, pose, ob, prm, qa, qb, m);
      else if (kb === SHAPE_CAPSULE) sphereCapsuleContact(pose, oa, pose, ob, prm, qa, qb, m);
      else if (kb === SHAPE_BOX) sphereBoxContact(pose, oa, pose, ob, prm, qa, qb, m);
      else if (kb === SHAPE_PLANE) spherePlaneContact(pose, oa, pose, ob, prm, qa, m);
    } else if (ka === SHAPE_CAPSULE) {
      if (kb === SHAPE_SPHERE) {
        m.flipped = true;
        sphereCapsuleContact(pose, ob, pose, oa, prm, qb, qa, m);
      } else if (kb === SHAPE_CAPSULE) capsuleCapsuleContact(pose, oa, pose, ob, prm, qa, qb, m);
      else if (kb === SHAPE_BOX) capsuleBoxContact(pose, oa, pose, ob, prm, qa, qb, m);
      else if (kb === SHAPE_PLANE) capsulePlaneContact(pose, oa, pose, ob, prm, qa, m);
    } else if (ka === SHAPE_BOX) {
      if (kb === SHAPE_SPHERE) {
        m.flipped = true;
        sphereBoxContact(pose, ob, pose, oa, prm, qb, qa, m);
      } else if (kb === SHAPE_CAPSULE) {
        m.flipped = true;
        capsuleBoxContact(pose, ob, pose, oa, prm, qb, qa, m);
      } else if (kb === SHAPE_BOX) boxBoxContact(pose, oa, pose, ob, prm, qa, qb, m);
      else if (kb === SHAPE_PLANE) boxPlaneContact(pose, oa, pose, ob, prm, qa, m);
    }
    if (m.count > 0) m.commit(out, store, a, b);
  }

  /** Dynamic primitive a against static mesh or heightfield b, worked in b's frame. */
  private collideWithTriangles(store: ShapeStore, a: number, b: number): void {
    const m = this.builder;
    const local = this.local, frame = this.frame, bounds = this.bounds;
    // The shape's pose in the mesh frame; contacts go back to world through the mesh pose.
    relativePose(store.worldPose, POSE_STRIDE * b, store.worldPose, POSE_STRIDE * a, local, 0);
    for (let i = 0; i < POSE_STRIDE; i++) frame[i] = store.worldPose[POSE_STRIDE * b + i];
    m.frame = frame;
    // Local bounds of the shape (from its pose and size, grown by the margin), as the world's (aabb.ts).
    const ka = store.kind[a];
    const p = store.params, qa = SHAPE_PARAM_STRIDE * a;
    if (ka === SHAPE_CONVEX) transformedAabb((store.hull[a] as ConvexHullData).bounds, local, 0, 0, bounds, 0);
    else primitiveAabb(ka, local, 0, p, qa, bounds, 0);
    // grown here rather than through a call: a double passed to a call that is not inlined is boxed
    const margin = m.margin;
    bounds[0] -= margin; bounds[1] -= margin; bounds[2] -= margin;
    bounds[3] += margin; bounds[4] += margin; bounds[5] += margin;

    const mesh = store.mesh[b];
    if (mesh !== null) {
      const n = mesh.query(bounds);
      for (let i = 0; i < n; i++) this.collideTriangle(mesh, null, mesh.hits[i], ka, p, qa, store.hull[a]);
    } else {
      const hf = store.heightfield[b] as HeightfieldData;
      const cells = this.cells;
      if (hf.bounds[1] > bounds[4] || hf.bounds[4] < bounds[1]) return;
      if (!hf.cellRange(bounds, cells)) return;
      const cols1 = hf.cols - 1;
      for (let r = cells[1]; r <= cells[3]; r++) {
        for (let c = cells[0]; c <= cells[2]; c++) {
          const cell = r * cols1 + c;
          this.collideTriangle(null, hf, 2 * cell, ka, p, qa, store.hull[a]);
          this.collideTriangle(null, hf, 2 * cell + 1, ka, p, qa, store.hull[a]);
        }
      }
    }
    if (m.count > 1) {
      m.removeDuplicates(MESH_DUPLICATE_DISTANCE);
      m.reduce(3);
    }
  }

  private collideTriangle(mesh: TriangleMeshData | null, hf: HeightfieldData | null, t: number, ka: number, p: Float64Array, qa: number, hull: ConvexHullData | null): void {
    const tri = this.tri, local = this.local, m = this.builder;
    tri.index = t;
    if (mesh !== null) {
      mesh.triangle(t, tri.data);
      tri.flags = mesh.flags[t];
      tri.source = mesh;
      m.currentSubShape = mesh.sourceTriangle[t];
    } else {
      const h = hf as HeightfieldData;
      h.triangle(t, tri.data);
      tri.flags = h.flags[t];
      tri.source = h;
      m.currentSubShape = t;
    }
    if (ka === SHAPE_SPHERE) sphereTriangleContact(local, 0, p, qa, tri, m);
    else if (ka === SHAPE_CAPSULE) capsuleTriangleContact(local, 0, p, qa, tri, m);
    else if (ka === SHAPE_BOX) boxTriangleContact(local, 0, p, qa, tri, m);
    else hullTriangleContact(local, 0, hull as ConvexHullData, tri, m);
  }
}
