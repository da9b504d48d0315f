/**
 * The contact pool: a preallocated structure-of-arrays buffer that the narrow phase fills.
 *
 * Contact i occupies f64[i * CONTACT_F64_STRIDE ...] and i32[i * CONTACT_I32_STRIDE ...]:
 *
 *   f64: pointA xyz (world point on A's surface, the deepest point of A), pointB xyz (world point
 *        on B's surface, pointB = pointA + normal * depth), normal xyz (unit, from B to A: the
 *        direction that pushes A out of B), depth (> 0 overlapping, <= 0 within the margin),
 *        friction, restitution (combined, see material.ts).
 *   i32: shapeA, shapeB (shape handles), bodyA, linkA, bodyB, linkB (-1, -1 for static shapes),
 *        subShape (triangle index in a trimesh or heightfield, else -1), featureId.
 *
 * (shapeA, shapeB, subShape, featureId) names a contact point across steps for warm starting.
 *
 * The contacts of one shape pair are contiguous and listed as a manifold:
 * manifolds[m * MANIFOLD_STRIDE ...] = shapeA, shapeB, first contact, contact count.
 *
 * The buffer never grows during a detection pass: contacts beyond the capacity are counted in
 * `required` and dropped, `overflowed` says so, and reserve() grows it outside the step.
 */

/** Float64 values per contact in `ContactBuffer.f64`. */
export const CONTACT_F64_STRIDE = 12;
/** Offset of pointA (xyz, world, on A's surface) in a contact's float64 record. */
export const CONTACT_POINT_A = 0;
/** Offset of pointB (xyz, world, on B's surface) in a contact's float64 record. */
export const CONTACT_POINT_B = 3;
/** Offset of the unit normal (xyz, from B to A) in a contact's float64 record. */
export const CONTACT_NORMAL = 6;
/** Offset of the depth (> 0 overlapping) in a contact's float64 record. */
export const CONTACT_DEPTH = 9;
/** Offset of the combined friction coefficient in a contact's float64 record. */
export const CONTACT_FRICTION = 10;
/** Offset of the combined restitution in a contact's float64 record. */
export const CONTACT_RESTITUTION = 11;

/** Int32 values per contact in `ContactBuffer.i32`. */
export const CONTACT_I32_STRIDE = 8;
/** Offset of shape A's handle in a contact's int32 record. */
export const CONTACT_SHAPE_A = 0;
/** Offset of shape B's handle in a contact's int32 record. */
export const CONTACT_SHAPE_B = 1;
/** Offset of body A's index (-1 for a static shape) in a contact's int32 record. */
export const CONTACT_BODY_A = 2;
/** Offset of link A (-1 for a static shape) in a contact's int32 record. */
export const CONTACT_LINK_A = 3;
/** Offset of body B's index (-1 for a static shape) in a contact's int32 record. */
export const CONTACT_BODY_B = 4;
/** Offset of link B (-1 for a static shape) in a contact's int32 record. */
export const CONTACT_LINK_B = 5;
/** Offset of the triangle index in a trimesh or heightfield (else -1) in a contact's int32 record. */
export const CONTACT_SUB_SHAPE = 6;
/** Offset of the feature id (which names the contact across steps) in a contact's int32 record. */
export const CONTACT_FEATURE = 7;

/** Int32 values per manifold in `ContactBuffer.manifolds`. */
export const MANIFOLD_STRIDE = 4;
/** Offset of shape A's handle in a manifold record. */
export const MANIFOLD_SHAPE_A = 0;
/** Offset of shape B's handle in a manifold record. */
export const MANIFOLD_SHAPE_B = 1;
/** Offset of the manifold's first contact index in a manifold record. */
export const MANIFOLD_FIRST = 2;
/** Offset of the manifold's contact count in a manifold record. */
export const MANIFOLD_COUNT = 3;

/** The preallocated contact pool the narrow phase fills: float64 and int32 records per contact (CONTACT_* offsets) and manifolds per shape pair (MANIFOLD_* offsets). */
export class ContactBuffer {
  /** Number of contacts written by the last pass (<= capacity). */
  count = 0;
  /** Number of contacts the last pass produced, including the ones dropped for lack of room. */
  required = 0;
  manifoldCount = 0;
  manifoldsRequired = 0;
  private _capacity = 0;
  private _manifoldCapacity = 0;
  f64: Float64Array = new Float64Array(0);
  i32: Int32Array = new Int32Array(0);
  manifolds: Int32Array = new Int32Array(0);

  constructor(capacity = 1024, manifoldCapacity = capacity) {
    this.reserve(capacity, manifoldCapacity);
  }

  get capacity(): number {
    return this._capacity;
  }

  get manifoldCapacity(): number {
    return this._manifoldCapacity;
  }

  /** True when the last pass dropped contacts or manifolds; call reserve(required, manifoldsRequired) and detect again. */
  get overflowed(): boolean {
    return this.required > this._capacity || this.manifoldsRequired > this._manifoldCapacity;
  }

  /** Grows the buffers to hold at least the given counts (never shrinks). Allocates: call outside the step. */
  reserve(capacity: number, manifoldCapacity = capacity): void {
    if (!(Number.isInteger(capacity) && capacity >= 0) || !(Number.isInteger(manifoldCapacity) && manifoldCapacity >= 0)) {
      throw new Error(`ContactBuffer.reserve: capacities must be non-negative integers, got ${capacity}, ${manifoldCapacity}`);
    }
    if (capacity > this._capacity) {
      const f = new Float64Array(capacity * CONTACT_F64_STRIDE);
      f.set(this.f64);
      const i = new Int32Array(capacity * CONTACT_I32_STRIDE);
      i.set(this.i32);
      this.f64 = f;
      this.i32 = i;
      this._capacity = capacity;
    }
    if (manifoldCapacity > this._manifoldCapacity) {
      const m = new Int32Array(manifoldCapacity * MANIFOLD_STRIDE);
      m.set(this.manifolds);
      this.manifolds = m;
      this._manifoldCapacity = manifoldCapacity;
    }
  }

  clear(): void {
    this.count = 0;
    this.required = 0;
    this.manifoldCount = 0;
    this.manifoldsRequired = 0;
  }

  depth(i: number): number {
    return this.f64[i * CONTACT_F64_STRIDE + CONTACT_DEPTH];
  }

  featureId(i: number): number {
    return this.i32[i * CONTACT_I32_STRIDE + CONTACT_FEATURE];
  }

  shapeA(i: number): number {
    return this.i32[i * CONTACT_I32_STRIDE + CONTACT_SHAPE_A];
  }

  shapeB(i: number): number {
    return this.i32[i * CONTACT_I32_STRIDE + CONTACT_SHAPE_B];
  }
}
