/**
 * Joint ranges drawn as line segments: for a spherical joint its swing cone (the elliptical cone
 * of model.sphericalLimits about the twist axis, in the joint frame) and the link's current twist
 * axis; for a revolute joint the arc from model.lower to model.upper swept by the child link, and
 * the child's current direction. The current direction is drawn in a second colour when the joint
 * is within 10% of its range of a stop.
 */
import { JointType, type Model, type State } from '@sinew/featherstone';
import { coneAxes, coneHalfAngle } from '../sim/metrics.js';
import type { SceneView } from '../sim/scene.js';

const RING = 28;
const SPOKES = 6;
const ARC = 16;

export class LimitGizmos {
  private range = new Float64Array(0);
  private ok = new Float64Array(0);
  private near = new Float64Array(0);
  private readonly size: Float64Array;
  private readonly R = new Float64Array(9);
  private readonly o = new Float64Array(3);

  constructor(readonly model: Model, scale = 1) {
    // gizmo length per link: the distance from its joint to its centre of mass, doubled, bounded
    this.size = new Float64Array(model.nLinks);
    for (let i = 0; i < model.nLinks; i++) {
      const c = Math.hypot(model.com[3 * i], model.com[3 * i + 1], model.com[3 * i + 2]);
      this.size[i] = scale * Math.min(0.22, Math.max(0.08, 1.2 * c));
    }
    let nRange = 0;
    for (let i = 0; i < model.nLinks; i++) {
      if (model.jointType[i] === JointType.spherical && model.sphericalLimits[i]) nRange += RING + SPOKES;
      else if (model.jointType[i] === JointType.revolute && Number.isFinite(model.lower[model.vOffset[i]])) nRange += ARC + 2;
    }
    this.range = new Float64Array(6 * nRange);
    this.ok = new Float64Array(6 * model.nLinks);
    this.near = new Float64Array(6 * model.nLinks);
  }

  draw(view: SceneView, key: string, state: State, colors = { range: 0x9fb3c8, ok: 0x7bd88f, near: 0xff5470 }): void {
    const m = this.model;
    let nr = 0, nok = 0, nnear = 0;
    const r = this.range;
    const seg = (x0: number, y0: number, z0: number, x1: number, y1: number, z1: number) => {
      const k = 6 * nr++;
      r[k] = x0; r[k + 1] = y0; r[k + 2] = z0; r[k + 3] = x1; r[k + 4] = y1; r[k + 5] = z1;
    };
    const current = (near: boolean, x1: number, y1: number, z1: number) => {
      const arr = near ? this.near : this.ok;
      const k = 6 * (near ? nnear++ : nok++);
      arr[k] = this.o[0]; arr[k + 1] = this.o[1]; arr[k + 2] = this.o[2]; arr[k + 3] = x1; arr[k + 4] = y1; arr[k + 5] = z1;
    };
    for (let i = 0; i < m.nLinks; i++) {
      const t = m.jointType[i];
      const lim = t === JointType.spherical ? m.sphericalLimits[i] : undefined;
      const revolute = t === JointType.revolute && Number.isFinite(m.lower[m.vOffset[i]]);
      if (!lim && !revolute) continue;
      this.jointFrame(state, i);
      const L = this.size[i];
      // joint frame vector -> world point at the joint
      const at = (x: number, y: number, z: number, s: number): [number, number, number] => {
        const R = this.R;
        return [
          this.o[0] + s * (R[0] * x + R[1] * y + R[2] * z),
          this.o[1] + s * (R[3] * x + R[4] * y + R[5] * z),
          this.o[2] + s * (R[6] * x + R[7] * y + R[8] * z),
        ];
      };
      if (lim) {
        const a = lim.twistAxis;
        const { u, v } = coneAxes(a);
        let prev: [number, number, number] | null = null, first: [number, number, number] | null = null;
        for (let k = 0; k < RING; k++) {
          const phi = (2 * Math.PI * k) / RING;
          // swing axis n = cos(phi) u + sin(phi) v; the cone edge is a turned about n by the half-angle
          const nu = Math.cos(phi), nv = Math.sin(phi);
          const c = coneHalfAngle(lim.swing, nu, nv);
          const nx = nu * u[0] + nv * v[0], ny = nu * u[1] + nv * v[1], nz = nu * u[2] + nv * v[2];
          // n x a is perpendicular to both; rotating a about n by c: a cos c + (n x a) sin c
          const px = ny * a[2] - nz * a[1], py = nz * a[0] - nx * a[2], pz = nx * a[1] - ny * a[0];
          const d = [a[0] * Math.cos(c) + px * Math.sin(c), a[1] * Math.cos(c) + py * Math.sin(c), a[2] * Math.cos(c) + pz * Math.sin(c)];
          const p = at(d[0], d[1], d[2], L);
          if (prev) seg(prev[0], prev[1], prev[2], p[0], p[1], p[2]);
          else first = p;
          if (k % (RING / SPOKES) === 0) seg(this.o[0], this.o[1], this.o[2], p[0], p[1], p[2]);
          prev = p;
        }
        if (prev && first) seg(prev[0], prev[1], prev[2], first[0], first[1], first[2]);
        // the link's twist axis now: b = R(q) a in the joint frame
        const qo = m.qOffset[i];
        const x = state.q[qo], y = state.q[qo + 1], z = state.q[qo + 2], w = state.q[qo + 3];
        const tx = 2 * (y * a[2] - z * a[1]), ty = 2 * (z * a[0] - x * a[2]), tz = 2 * (x * a[1] - y * a[0]);
        const bx = a[0] + w * tx + (y * tz - z * ty), by = a[1] + w * ty + (z * tx - x * tz), bz = a[2] + w * tz + (x * ty - y * tx);
        const cx = a[1] * bz - a[2] * by, cy = a[2] * bx - a[0] * bz, cz = a[0] * by - a[1] * bx;
        const sn = Math.hypot(cx, cy, cz);
        const swing = Math.atan2(sn, a[0] * bx + a[1] * by + a[2] * bz);
        const edge = sn > 1e-9 ? coneHalfAngle(lim.swing, (cx * u[0] + cy * u[1] + cz * u[2]) / sn, (cx * v[0] + cy * v[1] + cz * v[2]) / sn) : Infinity;
        const p = at(bx, by, bz, 1.15 * L);
        current(swing > 0.9 * edge, p[0], p[1], p[2]);
      } else {
        const d = m.vOffset[i];
        const lo = m.lower[d], hi = m.upper[d];
        const ax = m.axis[3 * i], ay = m.axis[3 * i + 1], az = m.axis[3 * i + 2];
        // the child's direction at q = 0: towards its centre of mass, made perpendicular to the axis
        let cx = m.com[3 * i], cy = m.com[3 * i + 1], cz = m.com[3 * i + 2];
        const dot = cx * ax + cy * ay + cz * az;
        cx -= dot * ax; cy -= dot * ay; cz -= dot * az;
        const cn = Math.hypot(cx, cy, cz);
        if (!(cn > 1e-9)) continue;
        cx /= cn; cy /= cn; cz /= cn;
        const turn = (angle: number): [number, number, number] => {
          // Rodrigues: c cos + (axis x c) sin (c is perpendicular to the axis)
          const s = Math.sin(angle), co = Math.cos(angle);
          const px = ay * cz - az * cy, py = az * cx - ax * cz, pz = ax * cy - ay * cx;
          return [cx * co + px * s, cy * co + py * s, cz * co + pz * s];
        };
        let prev: [number, number, number] | null = null;
        for (let k = 0; k <= ARC; k++) {
          const dir = turn(lo + ((hi - lo) * k) / ARC);
          const p = at(dir[0], dir[1], dir[2], L);
          if (prev) seg(prev[0], prev[1], prev[2], p[0], p[1], p[2]);
          if (k === 0 || k === ARC) seg(this.o[0], this.o[1], this.o[2], p[0], p[1], p[2]);
          prev = p;
        }
        const q = state.q[m.qOffset[i]];
        const dir = turn(q);
        const p = at(dir[0], dir[1], dir[2], 1.15 * L);
        current(q < lo + 0.1 * (hi - lo) || q > hi - 0.1 * (hi - lo), p[0], p[1], p[2]);
      }
    }
    view.lines(`${key}-range`, r, nr, colors.range, true);
    view.lines(`${key}-ok`, this.ok, nok, colors.ok, true);
    view.lines(`${key}-near`, this.near, nnear, colors.near, true);
  }

  /** World rotation (row-major) and origin of link i's joint frame: parent pose times the tree transform. */
  private jointFrame(state: State, i: number): void {
    const m = this.model, P = state.work.pose, X = m.treeX, xo = 12 * i, p = m.parent[i];
    const R = this.R, o = this.o;
    // R_J = E^T with E = treeX rotation (row-major): R_J[k][c] = E[c][k]
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        if (p < 0) { R[3 * r + c] = X[xo + 3 * c + r]; continue; }
        const po = 12 * p;
        R[3 * r + c] = P[po + 3 * r] * X[xo + 3 * c] + P[po + 3 * r + 1] * X[xo + 3 * c + 1] + P[po + 3 * r + 2] * X[xo + 3 * c + 2];
      }
    }
    const rx = X[xo + 9], ry = X[xo + 10], rz = X[xo + 11];
    if (p < 0) { o[0] = rx; o[1] = ry; o[2] = rz; return; }
    const po = 12 * p;
    for (let r = 0; r < 3; r++) o[r] = P[po + 3 * r] * rx + P[po + 3 * r + 1] * ry + P[po + 3 * r + 2] * rz + P[po + 9 + r];
  }
}
