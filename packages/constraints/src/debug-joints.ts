/**
 * Debug outlines of joint limits and pins (World.debugLines), from the link poses in each body's
 * State work arrays (forward kinematics at the current q, which World.debugLines runs first):
 *
 * - a revolute joint's range: an arc of JOINT_DRAW_SIZE about its axis in the joint's rest frame
 *   (the parent's frame moved by the joint's tree transform), from the lower to the upper limit,
 *   and a spoke at the current angle (yellow);
 * - a spherical joint's swing cone about its twist axis (turned by its centre C when it has one,
 *   SphericalLimits.swingCentre): 16 lines from the joint to the rim, where
 *   the rim direction swung about n = cos(phi) u + sin(phi) v reaches the half-angle
 *   1 / sqrt((n.u / swing[0])^2 + (n.v / swing[1])^2) (the ellipse of JointLimits, joint-limits.ts),
 *   the rim itself, and the current twist axis (yellow);
 * - a PointPin: a line from its point on the body to its target, and a cross at the target (magenta).
 */
import { JointType, detMath, type Model } from '@sinew/featherstone';
import type { Body } from './body.js';
import type { DebugLineWriter } from './collision/debug-shapes.js';
import { PointPin } from './sources/pin.js';
import type { ConstraintSource } from './sources/source.js';

/** Length (m) of the limit spokes, cones and arcs. */
export const JOINT_DRAW_SIZE = 0.15;
const RIM = 16;

/** The joint rest frame of link i (R row-major, then origin) into f[0..12): parent pose times the tree transform. */
function restFrame(model: Model, pose: Float64Array, i: number, f: Float64Array): void {
  const T = model.treeX, t = 12 * i, p = model.parent[i];
  // R0 = R_parent E^T, o = p_parent + R_parent r (E, r: the tree transform's short form)
  for (let r = 0; r < 3; r++) {
    const a0 = p < 0 ? (r === 0 ? 1 : 0) : pose[12 * p + 3 * r];
    const a1 = p < 0 ? (r === 1 ? 1 : 0) : pose[12 * p + 3 * r + 1];
    const a2 = p < 0 ? (r === 2 ? 1 : 0) : pose[12 * p + 3 * r + 2];
    for (let c = 0; c < 3; c++) f[3 * r + c] = a0 * T[t + 3 * c] + a1 * T[t + 3 * c + 1] + a2 * T[t + 3 * c + 2];
    f[9 + r] = (p < 0 ? 0 : pose[12 * p + 9 + r]) + a0 * T[t + 9] + a1 * T[t + 10] + a2 * T[t + 11];
  }
}

/** A unit vector perpendicular to unit a into out[o..o+3) (the construction of joint-limits.ts). */
function perpendicular(ax: number, ay: number, az: number, out: Float64Array, o: number): void {
  let ux = 1 - ax * ax, uy = -ax * ay, uz = -ax * az;
  let un = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (un < 1e-6) { ux = -az * ax; uy = -az * ay; uz = 1 - az * az; un = Math.sqrt(ux * ux + uy * uy + uz * uz); }
  out[o] = ux / un; out[o + 1] = uy / un; out[o + 2] = uz / un;
}

/** Joint-limit and pin outlines of the enabled bodies; scratch holds at least 24 numbers. */
export function drawJoints(bodies: readonly Body[], sources: readonly ConstraintSource[], w: DebugLineWriter, scratch: Float64Array): void {
  const f = scratch, L = JOINT_DRAW_SIZE;
  w.setColour(1, 0.85, 0.2);
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (!b.enabled) continue;
    const m = b.model, pose = b.state.work.pose, q = b.state.q;
    for (let i = 0; i < m.nLinks; i++) {
      const type = m.jointType[i];
      if (type === JointType.revolute) {
        const d = m.vOffset[i], lo = m.lower[d], hi = m.upper[d];
        if (!(lo > -Infinity && hi < Infinity)) continue;
        restFrame(m, pose, i, f);
        const ax = m.axis[3 * i], ay = m.axis[3 * i + 1], az = m.axis[3 * i + 2];
        perpendicular(ax, ay, az, f, 12);
        const ux = f[12], uy = f[13], uz = f[14];
        const vx = ay * uz - az * uy, vy = az * ux - ax * uz, vz = ax * uy - ay * ux;
        const n = RIM;
        let px = 0, py = 0, pz = 0;
        for (let k = 0; k <= n; k++) {
          const a = lo + ((hi - lo) * k) / n, c = L * detMath.cos(a), s = L * detMath.sin(a);
          const x = c * ux + s * vx, y = c * uy + s * vy, z = c * uz + s * vz;
          if (k === 0 || k === n) w.pushLocal(f, 0, 0, 0, 0, x, y, z);
          if (k > 0) w.pushLocal(f, 0, px, py, pz, x, y, z);
          px = x; py = y; pz = z;
        }
        // the current angle: u carried by the joint (the child frame)
        const a = q[m.qOffset[i]], c = 1.2 * L * detMath.cos(a), s = 1.2 * L * detMath.sin(a);
        w.pushLocal(f, 0, 0, 0, 0, c * ux + s * vx, c * uy + s * vy, c * uz + s * vz);
      } else if (type === JointType.spherical) {
        const lim = m.sphericalLimits[i];
        if (lim === undefined) continue;
        restFrame(m, pose, i, f);
        const ta = lim.twistAxis, ax = ta[0], ay = ta[1], az = ta[2];
        perpendicular(ax, ay, az, f, 12);
        const ux = f[12], uy = f[13], uz = f[14];
        const vx = ay * uz - az * uy, vy = az * ux - ax * uz, vz = ax * uy - ay * ux;
        let px = 0, py = 0, pz = 0;
        for (let k = 0; k <= RIM; k++) {
          const phi = (2 * Math.PI * k) / RIM, cp = detMath.cos(phi), sp = detMath.sin(phi);
          const e1 = cp / Math.max(lim.swing[0], 1e-9), e2 = sp / Math.max(lim.swing[1], 1e-9);
          const cone = 1 / Math.sqrt(e1 * e1 + e2 * e2);
          // the twist axis a swung about n = cp u + sp v by the cone angle: cos a + sin (n x a)
          const nx = cp * ux + sp * vx, ny = cp * uy + sp * vy, nz = cp * uz + sp * vz;
          const cx = ny * az - nz * ay, cy = nz * ax - nx * az, cz = nx * ay - ny * ax;
          const cc = L * detMath.cos(cone), ss = L * detMath.sin(cone);
          let x = cc * ax + ss * cx, y = cc * ay + ss * cy, z = cc * az + ss * cz;
          const C = lim.centre;
          if (C !== undefined) {
            // a cone centred off the rest pose: its rim turned by the centre C (SphericalLimits.swingCentre)
            const tx = 2 * (C[1] * z - C[2] * y), ty = 2 * (C[2] * x - C[0] * z), tz = 2 * (C[0] * y - C[1] * x);
            const rx = x + C[3] * tx + (C[1] * tz - C[2] * ty), ry = y + C[3] * ty + (C[2] * tx - C[0] * tz), rz = z + C[3] * tz + (C[0] * ty - C[1] * tx);
            x = rx; y = ry; z = rz;
          }
          if (k < RIM) w.pushLocal(f, 0, 0, 0, 0, x, y, z);
          if (k > 0) w.pushLocal(f, 0, px, py, pz, x, y, z);
          px = x; py = y; pz = z;
        }
        // the current twist axis, carried by the child link
        w.pushLocal(pose, 12 * i, 0, 0, 0, 1.2 * L * ax, 1.2 * L * ay, 1.2 * L * az);
      }
    }
  }
  w.setColour(1, 0.3, 1);
  for (let k = 0; k < sources.length; k++) {
    const pin = sources[k];
    if (!(pin instanceof PointPin)) continue;
    const A = bodies[pin.bodyA];
    if (A === undefined || !A.enabled) continue;
    const e = w.ends, la = pin.localA, P = A.state.work.pose, o = 12 * pin.linkA;
    e[0] = P[o] * la[0] + P[o + 1] * la[1] + P[o + 2] * la[2] + P[o + 9];
    e[1] = P[o + 3] * la[0] + P[o + 4] * la[1] + P[o + 5] * la[2] + P[o + 10];
    e[2] = P[o + 6] * la[0] + P[o + 7] * la[1] + P[o + 8] * la[2] + P[o + 11];
    const t = pin.target, tp = t.point;
    if (t.body >= 0) {
      const B = bodies[t.body];
      if (B === undefined) continue;
      const Q = B.state.work.pose, u = 12 * t.link;
      e[3] = Q[u] * tp[0] + Q[u + 1] * tp[1] + Q[u + 2] * tp[2] + Q[u + 9];
      e[4] = Q[u + 3] * tp[0] + Q[u + 4] * tp[1] + Q[u + 5] * tp[2] + Q[u + 10];
      e[5] = Q[u + 6] * tp[0] + Q[u + 7] * tp[1] + Q[u + 8] * tp[2] + Q[u + 11];
    } else { e[3] = tp[0]; e[4] = tp[1]; e[5] = tp[2]; }
    w.push();
    // a cross at the target
    const x = e[3], y = e[4], z = e[5], c = 0.25 * L;
    for (let axis = 0; axis < 3; axis++) {
      e[0] = x - (axis === 0 ? c : 0); e[1] = y - (axis === 1 ? c : 0); e[2] = z - (axis === 2 ? c : 0);
      e[3] = x + (axis === 0 ? c : 0); e[4] = y + (axis === 1 ? c : 0); e[5] = z + (axis === 2 ? c : 0);
      w.push();
    }
  }
}
