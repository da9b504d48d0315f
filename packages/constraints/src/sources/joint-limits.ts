/**
 * Joint limits as unilateral rows (Kokkevis section 8.2): a row for every joint at (or within a
 * margin of) a stop. Revolute and prismatic joints: the joint coordinate against lower/upper.
 * Spherical joints: a swing cone (elliptical, two half-angles about the axes perpendicular to the
 * twist axis) and a twist range about the twist axis, from a swing-twist decomposition of the
 * joint's rotation (relative to the cone's centre C when it is off the rest pose: of C^-1 Q).
 */
import { centredRotationInto, JointType } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { RowTag, type RowBuffer } from '../rows/row-buffer.js';
import type { ConstraintSource, StepContext } from './source.js';
import { detMath } from '@sinew/featherstone';

/** Options of the joint-limit rows: the margin at which a stop's row starts, restitution, and the backtracking tolerance. */
export interface JointLimitOptions {
  /** A limit row is added when the joint is within this distance of its stop (rad or m), or would reach it within the step. */
  margin?: number;
  /** Coefficient of restitution of a joint hitting its stop. */
  restitution?: number;
  /**
   * A step is halved when a joint would pass its limit within it by more than this (rad or m,
   * default 0.05); smaller overshoots are left to the next step's rows and to stabilisation.
   */
  backtrackTolerance?: number;
  /**
   * Coefficient of friction of a ball joint pressed against its swing cone (default 0, a
   * frictionless rim): while the cone's row pushes, the joint's turning along the cone's rim and
   * about its twist axis is resisted by up to this times the cone's reaction torque, as a
   * contact's sliding is by its normal force. It stands for the ligaments a real joint stops
   * against: without it a head or a limb resting on its stop slides back and forth along the rim
   * for as long as nothing damps it (0.1 brings a head lying on its neck's cone to rest).
   */
  friction?: number;
}

/** Key of a limit row: stable across steps for warm starts. */
function setLimitKey(rows: RowBuffer, row: number, body: number, link: number, which: number): void {
  // written straight into the row: a returned key (not a small integer) would be boxed
  rows.key[row] = ((1 * 4096 + body) * 65536 + link) * 8 + which;
}

/** Joint limits as unilateral rows at the stops: revolute and prismatic ranges, ball joints' swing cones and twist ranges. */
export class JointLimits implements ConstraintSource {
  margin: number;
  restitution: number;
  backtrackTolerance: number;
  friction: number;

  constructor(options: JointLimitOptions = {}) {
    this.margin = options.margin ?? 0.02;
    this.restitution = options.restitution ?? 0;
    this.backtrackTolerance = options.backtrackTolerance ?? 0.05;
    this.friction = options.friction ?? 0;
    if (!(this.friction >= 0 && this.friction < Infinity)) throw new RangeError(`JointLimits (World option limits): friction must be a finite number >= 0, got ${options.friction}`);
  }

  /** The step of the current addRows (kept in a field: a double argument to a call that is not inlined is boxed). */
  private h = 0;

  addRows(rows: RowBuffer, ctx: StepContext): void {
    this.h = ctx.h;
    for (const body of ctx.bodies) if (!body.sleeping) this.addBodyRows(rows, body);
  }

  /** The rows of one body's limits near their stops, and each limit's violation at the start of the step (for violation()). */
  private addBodyRows(rows: RowBuffer, body: Body): void {
    const { model, state } = body;
    const h = this.h;
    let start = this.startViolation.get(body);
    // (3 per link, then the count of the model's limited joints: -1 until the first call counts them)
    if (!start || start.length !== 3 * model.nLinks + 1) { start = new Float64Array(3 * model.nLinks + 1); start[3 * model.nLinks] = -1; this.startViolation.set(body, start); }
    if (start[3 * model.nLinks] === 0) return; // (a model without limits: no rows, nothing violated)
    start.fill(0, 0, 3 * model.nLinks);
    let limited = 0;
    for (let i = 0; i < model.nLinks; i++) {
      const t = model.jointType[i], o = 3 * i;
      if (t === JointType.revolute || t === JointType.prismatic) {
        const d = model.vOffset[i];
        const lo = model.lower[d], hi = model.upper[d];
        if (lo === -Infinity && hi === Infinity) continue;
        limited++;
        const x = state.q[model.qOffset[i]], v = state.qd[d];
        const gLo = x - lo, gHi = hi - x;
        start[o] = Math.max(0, -gLo); start[o + 1] = Math.max(0, -gHi);
        // (the row is added before rows.error is read: see asLimit)
        if (gLo < this.margin + Math.max(0, -v * h * 2)) { const r = this.asLimit(rows, rows.addJoint(RowTag.Limit, body.index, d, 1), body, i, 0); rows.error[r] = gLo; }
        if (gHi < this.margin + Math.max(0, v * h * 2)) { const r = this.asLimit(rows, rows.addJoint(RowTag.Limit, body.index, d, -1), body, i, 1); rows.error[r] = gHi; }
      } else if (t === JointType.spherical && model.sphericalLimits[i]) {
        limited++;
        const sg = sphericalGaps(body, i, SG);
        start[o] = sg[0] === sg[0] ? Math.max(0, -sg[0]) : 0; start[o + 1] = Math.max(0, -sg[5]); start[o + 2] = Math.max(0, -sg[6]);
        this.addSphericalRows(rows, body, i, sg);
      }
    }
    start[3 * model.nLinks] = limited;
  }

  /**
   * Makes row r a limit row (unilateral, the limits' restitution, a stable key); returns r. The
   * caller then writes its gap into rows.error, in a statement of its own after the add: adding a
   * row may grow the buffer, which replaces rows.error, and `rows.error[add()] = gap` reads
   * rows.error before the add, so in the step that grows the buffer the gap went into the replaced
   * array and the row kept error 0. (The gap is not passed in: a double argument to a call that
   * is not inlined is boxed.)
   */
  private asLimit(rows: RowBuffer, r: number, body: Body, link: number, which: number): number {
    rows.setBounds(r, 0, Infinity);
    rows.restitution[r] = this.restitution;
    setLimitKey(rows, r, body.index, link, which);
    return r;
  }

  /** The rows of a spherical joint's cone and twist range near their stops, from its gaps `sg` (sphericalGaps). */
  private addSphericalRows(rows: RowBuffer, body: Body, link: number, sg: Float64Array): void {
    const { model } = body;
    const h = this.h;
    if (sg[0] === sg[0]) {
      const g = sg[0];
      if (g < this.margin + Math.max(0, sg[4] * h * 2)) {
        const r = this.asLimit(rows, rows.addJointVecFrom(RowTag.Limit, body.index, link, sg, 1, -1), body, link, 2);
        rows.error[r] = g;
        if (this.friction > 0) this.addRimFriction(rows, body, link, sg, r);
      }
    }
    const gLo = sg[5], gHi = sg[6], twistRate = sg[7];
    if (gLo < this.margin + Math.max(0, -twistRate * h * 2)) {
      const r = this.asLimit(rows, rows.addJointVecFrom(RowTag.Limit, body.index, link, sg, 8, 1), body, link, 3);
      rows.error[r] = gLo;
    }
    if (gHi < this.margin + Math.max(0, twistRate * h * 2)) {
      const r = this.asLimit(rows, rows.addJointVecFrom(RowTag.Limit, body.index, link, sg, 8, -1), body, link, 4);
      rows.error[r] = gHi;
    }
  }

  /**
   * The friction rows of a cone row r: two directions of the joint's angular velocity (link frame)
   * perpendicular to the cone row's l = sg[1..3] (which is a unit vector), t1 along the twist
   * rate's direction j = sg[8..10] with its part along l taken out, and t2 = l x t1 (along the
   * rim), each bounded by friction times r's force (the bounds RowBuffer.setFriction sets). Keyed after the cone
   * row (which 5 and 6), so they are warm-started with it.
   */
  private addRimFriction(rows: RowBuffer, body: Body, link: number, sg: Float64Array, r: number): void {
    const lx = sg[1], ly = sg[2], lz = sg[3];
    const jl = sg[8] * lx + sg[9] * ly + sg[10] * lz;
    let ax = sg[8] - jl * lx, ay = sg[9] - jl * ly, az = sg[10] - jl * lz;
    let n = Math.sqrt(ax * ax + ay * ay + az * az);
    if (!(n > 1e-6)) {
      // (j along l: any direction perpendicular to l)
      if (Math.abs(lx) < 0.9) { ax = 0; ay = lz; az = -ly; } else { ax = -lz; ay = 0; az = lx; }
      n = Math.sqrt(ax * ax + ay * ay + az * az);
    }
    const T = RIM;
    T[0] = ax / n; T[1] = ay / n; T[2] = az / n;
    T[3] = ly * T[2] - lz * T[1]; T[4] = lz * T[0] - lx * T[2]; T[5] = lx * T[1] - ly * T[0];
    for (let k = 0; k < 2; k++) {
      const f = rows.addJointVecFrom(RowTag.Friction, body.index, link, T, 3 * k, 1);
      // (written here, not by setFriction: a double argument to a call not inlined is boxed)
      rows.lo[f] = -this.friction; rows.hi[f] = this.friction; rows.boundRow[f] = r;
      setLimitKey(rows, f, body.index, link, 5 + k);
    }
  }

  /**
   * Largest violation of any limit in the tentative state beyond the violation the joint had at
   * the start of the step (rad or m). A joint driven into its stop within the step by an impact has
   * no row yet (its rows were chosen at the start of the step); backtracking catches it here. A
   * joint that started outside its limit does not count until it goes further out.
   */
  violation(ctx: StepContext, out: Float64Array): void {
    let worst = 0;
    for (const body of ctx.bodies) {
      if (body.sleeping) continue;
      const start = this.startViolation.get(body);
      // (a body whose model has no limited joint has nothing to violate)
      if (!start || start[3 * body.model.nLinks] === 0) continue;
      for (let i = 0; i < body.model.nLinks; i++) {
        if (!jointViolations(body, i, V)) continue;
        const o = 3 * i;
        const w = Math.max(V[0] - start[o], V[1] - start[o + 1], V[2] - start[o + 2]);
        if (w > worst) worst = w;
      }
    }
    out[0] = worst;
  }

  /** Violation of each limit (>= 0) per body and link at the start of the step, [3 per link], then the count of the body's limited joints. */
  private startViolation = new Map<Body, Float64Array>();
}

const SG = new Float64Array(11);
/** The two friction directions of a cone row (addRimFriction). */
const RIM = new Float64Array(6);
/** C^-1 Q of a cone centred off the rest pose (centredRotationInto). */
const CQ = new Float64Array(4);

/**
 * The swing cone and twist range of a spherical joint (swing-twist decomposition about the
 * limit's twist axis a), into out: [cone gap (NaN when the swing axis is undefined), swing-rate
 * direction l (3, link frame: d theta/dt = l . w), swing rate, twist gap to lower, twist gap to
 * upper, twist rate, twist-rate direction j (3, link frame: d psi/dt = j . w)]. Gaps are positive inside the limit.
 */
function sphericalGaps(body: Body, link: number, out: Float64Array): Float64Array {
  const { model, state } = body;
  const lim = model.sphericalLimits[link]!;
  const q = state.q, qo = model.qOffset[link];
  let x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const C = lim.centre;
  if (C !== undefined) {
    // a cone centred off the rest pose (SphericalLimits.swingCentre): the range is that of C^-1 Q,
    // whose link-frame rate is Q's (C is fixed), so the rows below hold with it in Q's place
    centredRotationInto(C, q, qo, CQ, 0);
    x = CQ[0]; y = CQ[1]; z = CQ[2]; w = CQ[3];
  }
  const a = lim.twistAxis;
  const ax = a[0], ay = a[1], az = a[2];
  // b = R_Q a: the twist axis of the link seen in the joint frame
  const tx = 2 * (y * az - z * ay), ty = 2 * (z * ax - x * az), tz = 2 * (x * ay - y * ax);
  const bx = ax + w * tx + (y * tz - z * ty);
  const by = ay + w * ty + (z * tx - x * tz);
  const bz = az + w * tz + (x * ty - y * tx);
  // swing angle and axis n = a x b / |a x b|
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  const sn = Math.sqrt(cx * cx + cy * cy + cz * cz);
  const theta = detMath.atan2(sn, ax * bx + ay * by + az * bz);
  const qd = state.qd, vo = model.vOffset[link];
  out[0] = NaN;
  if (sn > 1e-9) {
    const nx = cx / sn, ny = cy / sn, nz = cz / sn;
    // perpendicular axes u, v of the cone (swing[0] about u, swing[1] about v)
    let ux = 1 - ax * ax, uy = -ax * ay, uz = -ax * az;
    let un = Math.sqrt(ux * ux + uy * uy + uz * uz);
    if (un < 1e-6) { ux = -az * ax; uy = -az * ay; uz = 1 - az * az; un = Math.sqrt(ux * ux + uy * uy + uz * uz); }
    ux /= un; uy /= un; uz /= un;
    const vx = ay * uz - az * uy, vy = az * ux - ax * uz, vz = ax * uy - ay * ux;
    const nu = nx * ux + ny * uy + nz * uz, nv = nx * vx + ny * vy + nz * vz;
    const s1 = lim.swing[0], s2 = lim.swing[1];
    // the cone's half-angle in the direction of the swing axis (polar form of an ellipse)
    const e1 = nu / Math.max(s1, 1e-9), e2 = nv / Math.max(s2, 1e-9);
    const cone = 1 / Math.sqrt(e1 * e1 + e2 * e2);
    // d(theta)/dt = n . (R_Q w) = (R_Q^T n) . w, w the link-frame angular velocity
    const mx = nx, my = ny, mz = nz;
    const t2x = 2 * (-y * mz + z * my), t2y = 2 * (-z * mx + x * mz), t2z = 2 * (-x * my + y * mx);
    const lx = mx + w * t2x + (-y * t2z + z * t2y);
    const ly = my + w * t2y + (-z * t2x + x * t2z);
    const lz = mz + w * t2z + (-x * t2y + y * t2x);
    out[0] = cone - theta;
    out[1] = lx; out[2] = ly; out[3] = lz;
    out[4] = lx * qd[vo] + ly * qd[vo + 1] + lz * qd[vo + 2];
  }
  // twist angle about a (swing-twist decomposition: psi = 2 atan2(q_vec . a, w))
  let psi = 2 * detMath.atan2(x * ax + y * ay + z * az, w);
  if (psi > Math.PI) psi -= 2 * Math.PI;
  if (psi < -Math.PI) psi += 2 * Math.PI;
  out[5] = psi - lim.twist[0];
  out[6] = lim.twist[1] - psi;
  // d(psi)/dt = j . w with j = (w^2 a + w (a x q_v) + p q_v) / (p^2 + w^2), p = q_v . a (from
  // q' = q (0, w) / 2): a itself only without swing; with the swing the twist also moves with the
  // swing axis (3 times a . w at a swing of 1.2 rad in a finite-difference check)
  const p = x * ax + y * ay + z * az, pw = p * p + w * w;
  let jx = ax, jy = ay, jz = az;
  if (pw > 1e-12) {
    jx = (w * w * ax + w * (ay * z - az * y) + p * x) / pw;
    jy = (w * w * ay + w * (az * x - ax * z) + p * y) / pw;
    jz = (w * w * az + w * (ax * y - ay * x) + p * z) / pw;
  }
  out[7] = jx * qd[vo] + jy * qd[vo + 1] + jz * qd[vo + 2];
  out[8] = jx; out[9] = jy; out[10] = jz;
  return out;
}

const V = new Float64Array(3);

/**
 * How far joint `link`'s coordinates stand past its stops (rad or m; negative inside the range)
 * into out[0..2]: lower and upper stop of a revolute or prismatic joint (and 0), or the swing cone
 * (0 where the swing has no axis) and the two twist stops of a spherical joint. False for a joint
 * without limits of these kinds.
 */
export function jointViolations(body: Body, link: number, out: Float64Array): boolean {
  const { model, state } = body;
  const t = model.jointType[link];
  if (t === JointType.revolute || t === JointType.prismatic) {
    const d = model.vOffset[link], x = state.q[model.qOffset[link]];
    out[0] = model.lower[d] - x; out[1] = x - model.upper[d]; out[2] = 0;
    return true;
  }
  if (t !== JointType.spherical || !model.sphericalLimits[link]) return false;
  const sg = sphericalGaps(body, link, SG);
  out[0] = sg[0] === sg[0] ? -sg[0] : 0; out[1] = -sg[5]; out[2] = -sg[6];
  return true;
}

/**
 * For a row JointLimits made for a spherical joint's cone or twist stop (the limit key family 1),
 * writes its gap at the body's current q into out[k] (exact, as the row's error was at its
 * creation: > 0 within the range) and returns true; false for any other row. Post-stabilisation
 * reports the error it leaves by it (its rows aim at their linear prediction, which a turn of
 * the cone's geometry within a step can leave behind).
 */
export function sphericalLimitGapInto(rows: RowBuffer, j: number, body: Body, out: Float64Array, k: number): boolean {
  const key = rows.key[j];
  if (!(key >= 0) || Math.floor(key / (8 * 65536 * 4096)) !== 1) return false;
  const which = key % 8;
  if (which < 2 || which > 4) return false;
  const sg = sphericalGaps(body, rows.linkA[j], SG);
  out[k] = which === 2 ? sg[0] : which === 3 ? sg[5] : sg[6];
  return out[k] === out[k];
}

/**
 * How far a body's joints stand past their limits (rad or m, 0 when every joint is within its
 * range): revolute and prismatic joints against lower/upper, spherical joints against their swing
 * cone and twist range. Writes the worst violation and the link where it occurs into out.
 */
export function worstLimitViolation(body: Body, out: { violation: number; link: number } = { violation: 0, link: -1 }): { violation: number; link: number } {
  out.violation = 0; out.link = -1;
  for (let i = 0; i < body.model.nLinks; i++) {
    if (!jointViolations(body, i, V)) continue;
    const v = Math.max(0, V[0], V[1], V[2]);
    if (v > out.violation) { out.violation = v; out.link = i; }
  }
  return out;
}
