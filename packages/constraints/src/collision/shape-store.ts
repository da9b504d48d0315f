/**
 * The collision world's shapes as flat arrays indexed by slot. Slots are in a canonical order that
 * does not depend on the order of registration across bodies: dynamic shapes sorted by (body,
 * link, order of registration on that link), then static shapes in registration order. Pairs and
 * contacts are listed in slot order, so the output depends only on what was registered where.
 */
import type { HeightfieldData } from './heightfield.js';
import type { ConvexHullData } from './hull.js';
import type { TriangleMeshData } from './mesh.js';
import { POSE_STRIDE } from './pose.js';
import { SHAPE_PARAM_STRIDE } from './shape-types.js';
import { AABB_STRIDE } from './aabb.js';

export class ShapeStore {
  readonly slotCount: number;
  /** Slots [0, dynamicCount) are dynamic, the rest static. */
  readonly dynamicCount: number;
  readonly kind: Uint8Array;
  readonly body: Int32Array;
  readonly link: Int32Array;
  /** Shape handle (registration index) of each slot. */
  readonly handle: Int32Array;
  readonly params: Float64Array;
  readonly localPose: Float64Array;
  readonly worldPose: Float64Array;
  readonly aabb: Float64Array;
  readonly friction: Float64Array;
  /** Each slot's friction rule (CompiledShape.frictionCombine). */
  readonly frictionCombine: Uint8Array;
  readonly restitution: Float64Array;
  readonly group: Uint32Array;
  readonly mask: Uint32Array;
  /** 1 for shapes with finite bounds (all but planes). */
  readonly bounded: Uint8Array;
  /** 1 for shapes turned off (their own switch or their body's): they meet nothing (group and mask 0) and no query sees them. */
  readonly disabled: Uint8Array;
  /** Extra (speculative) margin of each slot, set from its body's speed each step; 0 for statics. */
  readonly extraMargin: Float64Array;
  readonly mesh: (TriangleMeshData | null)[];
  readonly heightfield: (HeightfieldData | null)[];
  /** The hull of each convex shape, and of each box (boxes meet hulls as hulls); null for the rest. */
  readonly hull: (ConvexHullData | null)[];

  constructor(slotCount: number, dynamicCount: number) {
    this.slotCount = slotCount;
    this.dynamicCount = dynamicCount;
    this.kind = new Uint8Array(slotCount);
    this.body = new Int32Array(slotCount);
    this.link = new Int32Array(slotCount);
    this.handle = new Int32Array(slotCount);
    this.params = new Float64Array(SHAPE_PARAM_STRIDE * slotCount);
    this.localPose = new Float64Array(POSE_STRIDE * slotCount);
    this.worldPose = new Float64Array(POSE_STRIDE * slotCount);
    this.aabb = new Float64Array(AABB_STRIDE * slotCount);
    this.friction = new Float64Array(slotCount);
    this.frictionCombine = new Uint8Array(slotCount);
    this.restitution = new Float64Array(slotCount);
    this.group = new Uint32Array(slotCount);
    this.mask = new Uint32Array(slotCount);
    this.bounded = new Uint8Array(slotCount);
    this.disabled = new Uint8Array(slotCount);
    this.extraMargin = new Float64Array(slotCount);
    this.mesh = new Array<TriangleMeshData | null>(slotCount).fill(null);
    this.heightfield = new Array<HeightfieldData | null>(slotCount).fill(null);
    this.hull = new Array<ConvexHullData | null>(slotCount).fill(null);
  }
}
