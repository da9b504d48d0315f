/**
 * Extra care for spherical joint limits, on top of the constraints package's JointLimits (which
 * the World always runs). Two things that source does not do:
 *
 * 1. The rate of an elliptical cone's constraint. JointLimits writes the swing limit as
 *    g = cone(phi) - theta (theta the swing angle, phi the direction of the swing axis n = cos phi u
 *    + sin phi v about the twist axis a) with the row -R^T n, the rate of -theta only. When the swing
 *    turns from the wide axis of the cone toward the narrow one (an ankle rolling from flexion,
 *    35 degrees, into inversion, 15 degrees) g falls while theta stands still, and the row neither
 *    sees it coming nor stops it. With b = R a and m = n x a, b = cos(theta) a + sin(theta) m, the
 *    joint-frame angular velocity W = R w gives (derived here):
 *        d theta / dt = W . n,    d phi / dt = W . a - cot(theta) W . m,
 *        cone'(phi) = -cone^3 sin(phi) cos(phi) (1 / s2^2 - 1 / s1^2),
 *    so the row of g in the link frame is  cone'(phi) (R^T a - cot(theta) R^T m) - R^T n.
 *    The twist psi of q = swing * twist has the rate a . w + (1 - cos theta) d phi / dt (the body
 *    rate of a swing exp(theta n) has the component -(1 - cos theta) d phi / dt along a), where
 *    JointLimits takes a . w. The guard adds these rows next to JointLimits' own (both push inward,
 *    so together they only ask for more: a swing sliding along the cone toward its wider side is
 *    held a little harder than it need be).
 *
 * 2. Backtracking. The World halves a step whose tentative state violates a unilateral condition
 *    deeper than its tolerance, asking every source for its violation; JointLimits.violation()
 *    answers for revolute and prismatic joints only. The guard answers for spherical joints: how
 *    much deeper than at the start of the step a joint has gone past its cone or twist range (the
 *    growth, so a joint resting a little past its stop does not halve every step).
 *
 * One guard per World (ensureSphericalLimitGuard); MotionFollower adds it.
 */
import { centredRotationInto, JointType, type Model } from '@sinew/featherstone';
import type { Body, ConstraintSource, StepContext, World } from '@sinew/constraints';
import { RowTag, type RowBuffer } from '@sinew/constraints/internals';
import { quatTurnInto } from '../motion/quat.js';
import { coneAxesInto, sphericalExcessInto } from './joint-range.js';
import { detMath } from '@sinew/featherstone';

/** Options of the SphericalLimitGuard: margin, swing-twist handling and which rows it adds. */
export interface SphericalLimitGuardOptions {
  /**
   * Rows are added within this distance of a stop (rad), or when the stop would be reached within
   * two steps (default 0.1, five times JointLimits' margin: a row that is there, even open, also
   * takes part in the World's post-stabilisation, whose position correction can otherwise carry a
   * joint through a stop it has no row for).
   */
  margin?: number;
  /** Twist rows are corrected only beyond this swing angle (rad, default 0.1): below it (1 - cos theta) is negligible. */
  twistSwing?: number;
  /** Add the corrected rows (default true); false leaves only the backtracking. */
  rows?: boolean;
}

/** Writes the warm-start key of a guard row to rows.key[r]: its own key space, away from the World's. (Written, not returned: the key is no small integer, and a returned one would be boxed.) */
function setGuardKey(rows: RowBuffer, r: number, body: number, link: number, which: number): void {
  rows.key[r] = ((7 * 4096 + body) * 65536 + link) * 8 + which;
}

/** Slots of SphericalLimitGuard's scratch. */
const H = 24, VN = 25, VM = 28, EXCESS = 31, QR = 32;

/** Rows that keep ball joints inside their swing cones and twist ranges while a motion is followed. */
export class SphericalLimitGuard implements ConstraintSource {
  margin: number;
  twistSwing: number;
  rows: boolean;
  /** Excess per (body, link) at the start of the current step piece. */
  private start: Float64Array[] = [];

  constructor(options: SphericalLimitGuardOptions = {}) {
    this.margin = options.margin ?? 0.1;
    this.twistSwing = options.twistSwing ?? 0.1;
    this.rows = options.rows ?? true;
  }

  /** A body left the world (World.removeBody): its excesses go, the later bodies' move down one place; the guard stays. */
  bodyRemoved(index: number): boolean {
    this.start.splice(index, 1);
    return false;
  }

  addRows(rows: RowBuffer, ctx: StepContext): void {
    const bodies = ctx.bodies;
    if (this.start.length !== bodies.length) this.start = bodies.map((b) => new Float64Array(b.model.nLinks));
    this.f[H] = ctx.h;
    for (let k = 0; k < bodies.length; k++) {
      const b = bodies[k];
      if (b.sleeping) continue;
      const m = b.model, s = this.start[k];
      for (let i = 0; i < m.nLinks; i++) {
        if (m.jointType[i] !== JointType.spherical || !m.sphericalLimits[i]) { s[i] = 0; continue; }
        sphericalExcessInto(m, b.state.q, i, s, i);
        if (this.rows) this.addJointRows(rows, b, i);
      }
    }
  }

  violation(ctx: StepContext, out: Float64Array): void {
    let worst = 0;
    const bodies = ctx.bodies;
    for (let k = 0; k < bodies.length && k < this.start.length; k++) {
      const b = bodies[k];
      if (b.sleeping) continue;
      const m = b.model, s = this.start[k];
      for (let i = 0; i < m.nLinks; i++) {
        if (m.jointType[i] !== JointType.spherical || !m.sphericalLimits[i]) continue;
        sphericalExcessInto(m, b.state.q, i, this.f, EXCESS);
        const e = this.f[EXCESS] - s[i];
        if (e > worst) worst = e;
      }
    }
    out[0] = worst;
  }

  /**
   * Scratch of the rows, in a typed array (numbers passed to calls the engine may not inline, or
   * stored in fields, are boxed): the vectors at 0..24 (see addJointRows), the step length at H,
   * the vectors n and m at VN, VM, an excess at EXCESS, the rotation from a cone's centre at QR.
   */
  private readonly f = new Float64Array(36);

  private addJointRows(rows: RowBuffer, body: Body, link: number): void {
    const m: Model = body.model;
    const lim = m.sphericalLimits[link]!;
    const f = this.f, h = f[H], io = detMath.io;
    let q: Float64Array = body.state.q, qo = m.qOffset[link];
    const C = lim.centre;
    if (C !== undefined) {
      // a cone centred off the rest pose: the rows of C^-1 Q (its link-frame rate is Q's), at f[QR..QR+4)
      centredRotationInto(C, q, qo, f, QR);
      q = f;
      qo = QR;
    }
    const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
    const a = lim.twistAxis;
    const s1 = lim.swing[0], s2 = lim.swing[1];
    // b = R a; swing angle theta and axis n = a x b / |a x b|
    quatTurnInto(q, qo, false, a, 0, f, 0);
    const bx = f[0], by = f[1], bz = f[2];
    const cx = a[1] * bz - a[2] * by, cy = a[2] * bx - a[0] * bz, cz = a[0] * by - a[1] * bx;
    io[0] = cx; io[1] = cy; io[2] = cz; io[3] = 0;
    detMath.hypotIO();
    const sn = io[0];
    io[0] = sn; io[3] = a[0] * bx + a[1] * by + a[2] * bz;
    detMath.atan2IO();
    const theta = io[0];
    if (sn < 1e-6 || theta < 1e-3) return; // direction undefined: nothing turns the cone
    const nx = cx / sn, ny = cy / sn, nz = cz / sn;
    // m = n x a
    const mx = ny * a[2] - nz * a[1], my = nz * a[0] - nx * a[2], mz = nx * a[1] - ny * a[0];
    f[VN] = nx; f[VN + 1] = ny; f[VN + 2] = nz;
    f[VM] = mx; f[VM + 1] = my; f[VM + 2] = mz;
    // link-frame images R^T n, R^T a, R^T m
    quatTurnInto(q, qo, true, f, VN, f, 3);
    quatTurnInto(q, qo, true, a, 0, f, 6);
    quatTurnInto(q, qo, true, f, VM, f, 9);
    io[0] = theta;
    detMath.cosIO();
    const cosTheta = io[0];
    io[0] = theta;
    detMath.sinIO();
    const cot = cosTheta / io[0];
    // d phi / dt = w . (R^T a - cot(theta) R^T m)
    const px = f[6] - cot * f[9], py = f[7] - cot * f[10], pz = f[8] - cot * f[11];
    const vo = m.vOffset[link], qd = body.state.qd;
    // cone axes u, v (as JointLimits builds them) at f[18..24)
    coneAxesInto(a, f, 18);
    const c = nx * f[18] + ny * f[19] + nz * f[20], s = nx * f[21] + ny * f[22] + nz * f[23];
    const S1 = Math.max(s1, 1e-9), S2 = Math.max(s2, 1e-9);
    if (Math.abs(s1 - s2) > 1e-9) {
      const cone = 1 / Math.sqrt(detMath.sq(c / S1) + detMath.sq(s / S2));
      const dcone = -cone * cone * cone * s * c * (1 / (S2 * S2) - 1 / (S1 * S1));
      // row of g = cone(phi) - theta
      // (the row's coefficients from f[12..15): a double passed to a call that is not inlined is boxed)
      f[12] = dcone * px - f[3]; f[13] = dcone * py - f[4]; f[14] = dcone * pz - f[5];
      const rate = f[12] * qd[vo] + f[13] * qd[vo + 1] + f[14] * qd[vo + 2];
      const g = cone - theta;
      if (g < this.margin + Math.max(0, -rate * h * 2)) {
        const r = rows.addJointVecFrom(RowTag.Limit, body.index, link, f, 12, 1);
        rows.setBounds(r, 0, Infinity);
        rows.error[r] = g;
        setGuardKey(rows, r, body.index, link, 0);
      }
    }
    if (theta > this.twistSwing) {
      io[0] = x * a[0] + y * a[1] + z * a[2]; io[3] = w;
      detMath.atan2IO();
      let psi = 2 * io[0];
      if (psi > Math.PI) psi -= 2 * Math.PI;
      if (psi < -Math.PI) psi += 2 * Math.PI;
      const k = 1 - cosTheta;
      // row of psi: a + (1 - cos theta) (R^T a - cot(theta) R^T m)
      f[15] = a[0] + k * px; f[16] = a[1] + k * py; f[17] = a[2] + k * pz;
      const rate = f[15] * qd[vo] + f[16] * qd[vo + 1] + f[17] * qd[vo + 2];
      const lo = lim.twist[0], hi = lim.twist[1];
      if (psi - lo < this.margin + Math.max(0, -rate * h * 2)) {
        const r = rows.addJointVecFrom(RowTag.Limit, body.index, link, f, 15, 1);
        rows.setBounds(r, 0, Infinity);
        rows.error[r] = psi - lo;
        setGuardKey(rows, r, body.index, link, 1);
      }
      if (hi - psi < this.margin + Math.max(0, rate * h * 2)) {
        const r = rows.addJointVecFrom(RowTag.Limit, body.index, link, f, 15, -1);
        rows.setBounds(r, 0, Infinity);
        rows.error[r] = hi - psi;
        setGuardKey(rows, r, body.index, link, 2);
      }
    }
  }
}

/** The World's SphericalLimitGuard, added if it has none. */
export function ensureSphericalLimitGuard(world: World): SphericalLimitGuard {
  for (const s of world.sources) if (s instanceof SphericalLimitGuard) return s;
  return world.addConstraint(new SphericalLimitGuard());
}
