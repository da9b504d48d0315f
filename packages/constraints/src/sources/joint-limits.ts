/**
 * Joint limits as unilateral rows (Kokkevis section 8.2): a row for every joint at (or within a
 * margin of) a stop. Revolute and prismatic joints: the joint coordinate against lower/upper.
 * Spherical joints: a swing cone (elliptical, two half-angles about the axes perpendicular to the
 * twist axis) and a twist range about the twist axis, from a swing-twist decomposition of the
 * joint's rotation.
 */
import { JointType } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { RowTag, type RowBuffer } from '../rows/row-buffer.js';
import type { ConstraintSource, StepContext } from './source.js';

export interface JointLimitOptions {
  /** A limit row is added when the joint is within this distance of its stop (rad or m), or would reach it within the step. */
  margin?: number;
  /** Coefficient of restitution of a joint hitting its stop. */
  restitution?: number;
}

/** Key of a limit row: stable across steps for warm starts. */
function limitKey(body: number, link: number, which: number): number {
  return ((1 * 4096 + body) * 65536 + link) * 8 + which;
}

export class JointLimits implements ConstraintSource {
  margin: number;
  restitution: number;

  constructor(options: JointLimitOptions = {}) {
    this.margin = options.margin ?? 0.02;
    this.restitution = options.restitution ?? 0;
  }

  addRows(rows: RowBuffer, ctx: StepContext): void {
    for (const body of ctx.bodies) if (!body.sleeping) this.addBodyRows(rows, body, ctx.h);
  }

  private addBodyRows(rows: RowBuffer, body: Body, h: number): void {
    const { model, state } = body;
    for (let i = 0; i < model.nLinks; i++) {
      const t = model.jointType[i];
      if (t === JointType.revolute || t === JointType.prismatic) {
        const d = model.vOffset[i];
        const lo = model.lower[d], hi = model.upper[d];
        if (lo === -Infinity && hi === Infinity) continue;
        const x = state.q[model.qOffset[i]], v = state.qd[d];
        const gLo = x - lo, gHi = hi - x;
        if (gLo < this.margin + Math.max(0, -v * h * 2)) this.addRow(rows, body, i, 0, gLo, d, 1);
        if (gHi < this.margin + Math.max(0, v * h * 2)) this.addRow(rows, body, i, 1, gHi, d, -1);
      } else if (t === JointType.spherical && model.sphericalLimits[i]) {
        this.addSphericalRows(rows, body, i, h);
      }
    }
  }

  private addRow(rows: RowBuffer, body: Body, link: number, which: number, g: number, dof: number, c: number): void {
    const r = rows.addJoint(RowTag.Limit, body.index, dof, c);
    rows.setBounds(r, 0, Infinity);
    rows.error[r] = g;
    rows.restitution[r] = this.restitution;
    rows.key[r] = limitKey(body.index, link, which);
  }

  private addSphericalRows(rows: RowBuffer, body: Body, link: number, h: number): void {
    const { model, state } = body;
    const lim = model.sphericalLimits[link]!;
    const q = state.q, qo = model.qOffset[link];
    const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
    const a = lim.twistAxis;
    const ax = a[0], ay = a[1], az = a[2];
    // b = R_Q a: the twist axis of the link seen in the joint frame
    const tx = 2 * (y * az - z * ay), ty = 2 * (z * ax - x * az), tz = 2 * (x * ay - y * ax);
    const bx = ax + w * tx + (y * tz - z * ty);
    const by = ay + w * ty + (z * tx - x * tz);
    const bz = az + w * tz + (x * ty - y * tx);
    // swing angle and axis n = a x b / |a x b|
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const sn = Math.hypot(cx, cy, cz);
    const theta = Math.atan2(sn, ax * bx + ay * by + az * bz);
    const qd = state.qd, vo = model.vOffset[link];
    if (sn > 1e-9) {
      const nx = cx / sn, ny = cy / sn, nz = cz / sn;
      // perpendicular axes u, v of the cone (swing[0] about u, swing[1] about v)
      let ux = 1 - ax * ax, uy = -ax * ay, uz = -ax * az;
      let un = Math.hypot(ux, uy, uz);
      if (un < 1e-6) { ux = -az * ax; uy = -az * ay; uz = 1 - az * az; un = Math.hypot(ux, uy, uz); }
      ux /= un; uy /= un; uz /= un;
      const vx = ay * uz - az * uy, vy = az * ux - ax * uz, vz = ax * uy - ay * ux;
      const nu = nx * ux + ny * uy + nz * uz, nv = nx * vx + ny * vy + nz * vz;
      const [s1, s2] = lim.swing;
      // the cone's half-angle in the direction of the swing axis (polar form of an ellipse)
      const cone = 1 / Math.sqrt((nu / Math.max(s1, 1e-9)) ** 2 + (nv / Math.max(s2, 1e-9)) ** 2);
      // d(theta)/dt = n . (R_Q w) = (R_Q^T n) . w, w the link-frame angular velocity
      const mx = nx, my = ny, mz = nz;
      const t2x = 2 * (-y * mz + z * my), t2y = 2 * (-z * mx + x * mz), t2z = 2 * (-x * my + y * mx);
      const lx = mx + w * t2x + (-y * t2z + z * t2y);
      const ly = my + w * t2y + (-z * t2x + x * t2z);
      const lz = mz + w * t2z + (-x * t2y + y * t2x);
      const rate = lx * qd[vo] + ly * qd[vo + 1] + lz * qd[vo + 2];
      const g = cone - theta;
      if (g < this.margin + Math.max(0, rate * h * 2)) {
        const r = rows.addJointVec(RowTag.Limit, body.index, link, -lx, -ly, -lz);
        rows.setBounds(r, 0, Infinity);
        rows.error[r] = g;
        rows.restitution[r] = this.restitution;
        rows.key[r] = limitKey(body.index, link, 2);
      }
    }
    // twist angle about a (swing-twist decomposition: psi = 2 atan2(q_vec . a, w))
    let psi = 2 * Math.atan2(x * ax + y * ay + z * az, w);
    if (psi > Math.PI) psi -= 2 * Math.PI;
    if (psi < -Math.PI) psi += 2 * Math.PI;
    const twistRate = ax * qd[vo] + ay * qd[vo + 1] + az * qd[vo + 2];
    const [tLo, tHi] = lim.twist;
    const gLo = psi - tLo, gHi = tHi - psi;
    if (gLo < this.margin + Math.max(0, -twistRate * h * 2)) {
      const r = rows.addJointVec(RowTag.Limit, body.index, link, ax, ay, az);
      rows.setBounds(r, 0, Infinity);
      rows.error[r] = gLo;
      rows.restitution[r] = this.restitution;
      rows.key[r] = limitKey(body.index, link, 3);
    }
    if (gHi < this.margin + Math.max(0, twistRate * h * 2)) {
      const r = rows.addJointVec(RowTag.Limit, body.index, link, -ax, -ay, -az);
      rows.setBounds(r, 0, Infinity);
      rows.error[r] = gHi;
      rows.restitution[r] = this.restitution;
      rows.key[r] = limitKey(body.index, link, 4);
    }
  }
}
