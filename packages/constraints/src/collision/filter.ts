/**
 * Which shape pairs may collide:
 * - never two static shapes;
 * - only when (groupA & maskB) != 0 and (groupB & maskA) != 0;
 * - never two shapes on the same link;
 * - two links of the same body only when the body's self-collision is on and the link pair is not
 *   excluded (the World excludes parent-child pairs; callers may exclude more);
 * - never two links a pin joins (a hand and the crate it holds), unless the pin asks for it
 *   (PointPin.collideConnected), as bodies a joint connects do not collide in Box2D
 *   (b2JointDef.collideConnected), PhysX (PxConstraintFlag::eCOLLISION_ENABLED) and Jolt's ragdolls.
 */
import type { ShapeStore } from './shape-store.js';

export class CollisionFilter {
  /** Per body: self-collision on (1) or off (0). */
  selfCollision: Uint8Array = new Uint8Array(0);
  /** Per body: link count and offset of its linkCount x linkCount exclusion table in `excluded`. */
  linkCount: Int32Array = new Int32Array(0);
  excludedOffset: Int32Array = new Int32Array(0);
  excluded: Uint8Array = new Uint8Array(0);
  /** Link pairs a pin joins: body and link of one end, body and link of the other, per pair (pinnedCount of them). */
  pinned: Int32Array = new Int32Array(16);
  pinnedCount = 0;

  /** Rebuilds the tables for bodies 0..n-1 (allocates; outside the step). */
  setBodies(
    n: number, linkCounts: ArrayLike<number>, selfCollision: ArrayLike<boolean>,
    excludedPairs: ReadonlyArray<ReadonlyArray<readonly [number, number]>>,
  ): void {
    this.selfCollision = new Uint8Array(n);
    this.linkCount = new Int32Array(n);
    this.excludedOffset = new Int32Array(n);
    let total = 0;
    for (let b = 0; b < n; b++) {
      this.selfCollision[b] = selfCollision[b] ? 1 : 0;
      this.linkCount[b] = linkCounts[b];
      this.excludedOffset[b] = total;
      total += linkCounts[b] * linkCounts[b];
    }
    this.excluded = new Uint8Array(total);
    for (let b = 0; b < n; b++) {
      const m = this.linkCount[b], o = this.excludedOffset[b];
      for (const [i, j] of excludedPairs[b] ?? []) {
        this.excluded[o + i * m + j] = 1;
        this.excluded[o + j * m + i] = 1;
      }
    }
  }

  /** Link pairs a pin joins: none (before the pins of a step are added by addPinned). */
  clearPinned(): void {
    this.pinnedCount = 0;
  }

  /** Link linkA of bodyA and link linkB of bodyB are joined by a pin: they do not collide. */
  addPinned(bodyA: number, linkA: number, bodyB: number, linkB: number): void {
    if (this.pinned.length < 4 * (this.pinnedCount + 1)) {
      const grown = new Int32Array(8 * (this.pinnedCount + 1));
      grown.set(this.pinned);
      this.pinned = grown;
    }
    const o = 4 * this.pinnedCount++;
    this.pinned[o] = bodyA; this.pinned[o + 1] = linkA; this.pinned[o + 2] = bodyB; this.pinned[o + 3] = linkB;
  }

  canCollide(store: ShapeStore, a: number, b: number): boolean {
    const dyn = store.dynamicCount;
    if (a >= dyn && b >= dyn) return false;
    if ((store.group[a] & store.mask[b]) === 0 || (store.group[b] & store.mask[a]) === 0) return false;
    if (a < dyn && b < dyn) {
      const body = store.body[a];
      if (body === store.body[b]) {
        const la = store.link[a], lb = store.link[b];
        if (la === lb || this.selfCollision[body] === 0) return false;
        if (this.excluded[this.excludedOffset[body] + la * this.linkCount[body] + lb] !== 0) return false;
      }
      if (this.pinnedCount > 0 && this.joinedByPin(store.body[a], store.link[a], store.body[b], store.link[b])) return false;
    }
    return true;
  }

  /** Whether a pin joins link la of body ba and link lb of body bb (either way round). */
  private joinedByPin(ba: number, la: number, bb: number, lb: number): boolean {
    const p = this.pinned;
    for (let o = 0; o < 4 * this.pinnedCount; o += 4) {
      if (p[o] === ba && p[o + 1] === la && p[o + 2] === bb && p[o + 3] === lb) return true;
      if (p[o] === bb && p[o + 1] === lb && p[o + 2] === ba && p[o + 3] === la) return true;
    }
    return false;
  }
}
