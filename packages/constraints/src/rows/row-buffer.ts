/**
 * Constraint rows, stored column-wise in typed arrays and reused step after step.
 *
 * A row is one scalar condition on the motion of one body, or of two bodies relative to each other
 * (Kokkevis section 4: a linear function h(qdd) of the joint accelerations and the test force that
 * is its transpose). Its measure m is, by type:
 *
 * - Joint:    m = c qdd[dof]                               test force: torque c on that dof
 * - JointVec: m = c . qdd[joint dofs]  (c in the link frame)  test force: generalised force c on the joint
 * - Point:    m = d . (a_A(p_A) - a_B(p_B))  (d world)      test force: +d at p_A on A, -d at p_B on B
 * - Angular:  m = d . (dw_A - dw_B)                        test force: moment +d on A, -d on B
 *
 * Body B is -1 for the static world. Because each test force is the transpose of its measure, the
 * matrix K_ji = (measure of row j under row i's unit force) equals J M^-1 J^T: symmetric, positive
 * semi-definite.
 *
 * Every row also carries what the solver needs: the desired measure (acceleration level), the
 * position error g (>= 0 when a unilateral row is satisfied, 0 for bilateral rows at rest), bounds
 * (lo, hi, or friction scaled by another row's force), restitution, and a key that identifies it
 * across steps so its force can be warm-started.
 */

export const RowType = { Joint: 0, JointVec: 1, Point: 2, Angular: 3 } as const;
/** A row type code, one of the values of `RowType`. */
export type RowTypeCode = (typeof RowType)[keyof typeof RowType];

/** What produced a row (for ordering, statistics, and which rows take part in impacts). */
export const RowTag = { Pin: 0, Limit: 1, Contact: 2, Friction: 3, Drive: 4, Motor: 5, User: 6 } as const;
/** A row tag code, one of the values of `RowTag`. */
export type RowTagCode = (typeof RowTag)[keyof typeof RowTag];
/** Row tag names indexed by their code. */
export const ROW_TAG_NAMES = ['pin', 'limit', 'contact', 'friction', 'drive', 'motor', 'user'] as const;

/** The step's constraint rows in structure-of-arrays form: each row's bodies, links, direction, bounds, softness, tag and warm-start key; constraint sources write into it. */
export class RowBuffer {
  count = 0;
  capacity = 0;
  type = new Uint8Array(0);
  tag = new Uint8Array(0);
  bodyA = new Int32Array(0);
  linkA = new Int32Array(0);
  bodyB = new Int32Array(0);
  linkB = new Int32Array(0);
  /** Joint rows: the dof (in body A's qd). */
  dof = new Int32Array(0);
  /** Point rows: points in link coordinates of A and B (3 each); B's point is a world point when bodyB = -1. */
  pA = new Float64Array(0);
  pB = new Float64Array(0);
  /** Point/angular rows: world direction d; Joint rows: coefficient c in [0]; JointVec: c (3, link frame). */
  dir = new Float64Array(0);
  lo = new Float64Array(0);
  hi = new Float64Array(0);
  /** Friction rows: index of the normal row whose force scales lo/hi (-1 otherwise). */
  boundRow = new Int32Array(0);
  /** Desired measure at the acceleration level. */
  desired = new Float64Array(0);
  /** Position error g along the row (see the module comment). */
  error = new Float64Array(0);
  /** Measure at the velocity level of the current state (filled by measureVelocities). */
  velocity = new Float64Array(0);
  restitution = new Float64Array(0);
  /** Stable identity across steps (for warm starts). */
  key = new Float64Array(0);
  /** Solved force (or impulse), also the warm start. */
  force = new Float64Array(0);
  /**
   * error - (position measure) at the row's creation, for rows with an exact position measure
   * (point rows: d . (pA - pB) in the world; joint rows of 1-dof joints: c q): the error at other
   * positions is the measure plus this offset. NaN for rows without one (linearised instead).
   */
  offset = new Float64Array(0);

  constructor(capacity = 64) {
    this.grow(capacity);
  }

  clear(): void {
    this.count = 0;
  }

  /** Appends a row with neutral fields; returns its index. Grows the storage (doubling) when full. */
  add(type: RowTypeCode, tag: RowTagCode, bodyA: number, linkA: number, bodyB: number, linkB: number): number {
    const i = this.begin(type, tag, bodyA, linkA, bodyB, linkB);
    this.pA[3 * i] = 0; this.pA[3 * i + 1] = 0; this.pA[3 * i + 2] = 0;
    this.pB[3 * i] = 0; this.pB[3 * i + 1] = 0; this.pB[3 * i + 2] = 0;
    this.dir[3 * i] = 0; this.dir[3 * i + 1] = 0; this.dir[3 * i + 2] = 0;
    return i;
  }

  /** add() but for the points and direction, which the caller writes (addPoint). */
  private begin(type: RowTypeCode, tag: RowTagCode, bodyA: number, linkA: number, bodyB: number, linkB: number): number {
    if (this.count === this.capacity) this.grow(Math.max(16, 2 * this.capacity));
    const i = this.count++;
    this.type[i] = type;
    this.tag[i] = tag;
    this.bodyA[i] = bodyA;
    this.linkA[i] = linkA;
    this.bodyB[i] = bodyB;
    this.linkB[i] = linkB;
    this.dof[i] = -1;
    this.lo[i] = -Infinity;
    this.hi[i] = Infinity;
    this.boundRow[i] = -1;
    this.desired[i] = 0;
    this.error[i] = 0;
    this.velocity[i] = 0;
    this.restitution[i] = 0;
    this.key[i] = -1;
    this.force[i] = 0;
    this.offset[i] = NaN;
    return i;
  }

  /** A joint row on one dof of body A with coefficient c (+1 or -1 for limits). */
  addJoint(tag: RowTagCode, body: number, dof: number, c: number): number {
    const i = this.add(RowType.Joint, tag, body, -1, -1, -1);
    this.dof[i] = dof;
    this.dir[3 * i] = c;
    return i;
  }

  /** A joint-vector row on the joint of `link` (up to 3 dofs, coefficients c in the link frame). */
  addJointVec(tag: RowTagCode, body: number, link: number, cx: number, cy: number, cz: number): number {
    const i = this.add(RowType.JointVec, tag, body, link, -1, -1);
    this.dir[3 * i] = cx; this.dir[3 * i + 1] = cy; this.dir[3 * i + 2] = cz;
    return i;
  }

  /**
   * addJointVec with the coefficients sign * c[o..o+3) (no number arguments: a double passed to a
   * call the optimiser does not inline is boxed on the heap).
   */
  addJointVecFrom(tag: RowTagCode, body: number, link: number, c: ArrayLike<number>, o: number, sign: 1 | -1): number {
    const i = this.add(RowType.JointVec, tag, body, link, -1, -1);
    this.dir[3 * i] = sign * c[o]; this.dir[3 * i + 1] = sign * c[o + 1]; this.dir[3 * i + 2] = sign * c[o + 2];
    return i;
  }

  /** A point row: direction d (world), point a (link coordinates of A), point b (link coordinates of B, or world when B is the world). */
  addPoint(tag: RowTagCode, bodyA: number, linkA: number, a: ArrayLike<number>, bodyB: number, linkB: number, b: ArrayLike<number>, d: ArrayLike<number>): number {
    const i = this.begin(RowType.Point, tag, bodyA, linkA, bodyB, linkB);
    this.pA[3 * i] = a[0]; this.pA[3 * i + 1] = a[1]; this.pA[3 * i + 2] = a[2];
    this.pB[3 * i] = b[0]; this.pB[3 * i + 1] = b[1]; this.pB[3 * i + 2] = b[2];
    this.dir[3 * i] = d[0]; this.dir[3 * i + 1] = d[1]; this.dir[3 * i + 2] = d[2];
    return i;
  }

  /** An angular row: the relative angular acceleration of A's link with respect to B's along world direction d. */
  addAngular(tag: RowTagCode, bodyA: number, linkA: number, bodyB: number, linkB: number, d: ArrayLike<number>): number {
    const i = this.add(RowType.Angular, tag, bodyA, linkA, bodyB, linkB);
    this.dir[3 * i] = d[0]; this.dir[3 * i + 1] = d[1]; this.dir[3 * i + 2] = d[2];
    return i;
  }

  setBounds(i: number, lo: number, hi: number): void {
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.boundRow[i] = -1;
  }

  setFriction(i: number, normalRow: number, mu: number): void {
    this.lo[i] = -mu;
    this.hi[i] = mu;
    this.boundRow[i] = normalRow;
  }

  isUnilateral(i: number): boolean {
    return this.boundRow[i] < 0 && this.lo[i] === 0 && this.hi[i] === Infinity;
  }

  private grow(cap: number): void {
    const f64 = (a: Float64Array, k: number) => { const b = new Float64Array(cap * k); b.set(a.subarray(0, this.count * k)); return b; };
    const i32 = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a.subarray(0, this.count)); return b; };
    const u8 = (a: Uint8Array) => { const b = new Uint8Array(cap); b.set(a.subarray(0, this.count)); return b; };
    this.type = u8(this.type);
    this.tag = u8(this.tag);
    this.bodyA = i32(this.bodyA);
    this.linkA = i32(this.linkA);
    this.bodyB = i32(this.bodyB);
    this.linkB = i32(this.linkB);
    this.dof = i32(this.dof);
    this.pA = f64(this.pA, 3);
    this.pB = f64(this.pB, 3);
    this.dir = f64(this.dir, 3);
    this.lo = f64(this.lo, 1);
    this.hi = f64(this.hi, 1);
    this.boundRow = i32(this.boundRow);
    this.desired = f64(this.desired, 1);
    this.error = f64(this.error, 1);
    this.velocity = f64(this.velocity, 1);
    this.restitution = f64(this.restitution, 1);
    this.key = f64(this.key, 1);
    this.force = f64(this.force, 1);
    this.offset = f64(this.offset, 1);
    this.capacity = cap;
  }
}

/** Copies row j of a buffer over row k (k < j), for compaction. */
export function copyRow(r: RowBuffer, j: number, k: number): void {
  r.type[k] = r.type[j]; r.tag[k] = r.tag[j];
  r.bodyA[k] = r.bodyA[j]; r.linkA[k] = r.linkA[j]; r.bodyB[k] = r.bodyB[j]; r.linkB[k] = r.linkB[j]; r.dof[k] = r.dof[j];
  for (let e = 0; e < 3; e++) { r.pA[3 * k + e] = r.pA[3 * j + e]; r.pB[3 * k + e] = r.pB[3 * j + e]; r.dir[3 * k + e] = r.dir[3 * j + e]; }
  r.lo[k] = r.lo[j]; r.hi[k] = r.hi[j];
  // a friction row directly follows its normal row (same contact, kept or dropped together), so
  // both moved by the same offset
  const br = r.boundRow[j];
  r.boundRow[k] = br >= 0 ? br - (j - k) : -1;
  r.desired[k] = r.desired[j]; r.error[k] = r.error[j]; r.velocity[k] = r.velocity[j];
  r.restitution[k] = r.restitution[j]; r.key[k] = r.key[j]; r.force[k] = r.force[j];
}
