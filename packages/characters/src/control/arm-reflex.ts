/**
 * The protective arm reflex of a falling body (the upper limbs' protective extension: hands out
 * ahead in a forward fall, behind in a backward one, to the side in a sideways one; Hsiao &
 * Robinovitch 1998, J. Biomech. 31(1):1-9), as shoulder targets that follow the fall while it
 * happens.
 *
 * Every step, the horizontal direction of the fall is the velocity of the upper trunk's centre of
 * mass relative to the slower foot (the one bearing weight, or the one nearer to rest); while that
 * is slower than 0.2 m/s the last direction stands. Each upper arm is aimed at "down, turned toward
 * the fall by the reach angle" (reachForward for a fall toward the trunk's front, reachBackward
 * toward its back, in between by the cosine), written as the shortest-arc rotation from the bone's
 * rest direction in its joint frame: no twist. The target is blended with the one already there by
 * a weight, so a death can bring it in smoothly.
 *
 * Allocation-free after construction: it runs inside the World's step.
 */
import { JointType, type Model, type State } from '@sinew/featherstone';
import { segmentFromPattern } from '../motion/bone-names.js';
import { quatFromAxisAngle, quatRotate, quatSlerp } from '../motion/quat.js';
import { detMath } from '@sinew/featherstone';

/** Shoulder targets toward the fall (see the module comment). */
export class ArmReflex {
  readonly model: Model;
  /** The shoulders (upper-arm links below no other upper arm, spherical joints). */
  readonly shoulders: Int32Array;
  /** Upper trunk link, whose centre of mass leads the fall, and the feet. */
  readonly trunk: number;
  readonly feet: Int32Array;
  reachForward: number;
  reachBackward: number;
  /** The current horizontal fall direction (world, unit), and whether one was seen. */
  readonly fall = new Float64Array(3);
  hasFall = false;
  private readonly restDir: Float64Array;
  /** The trunk's forward axis in its own frame. */
  private readonly forwardLocal = new Float64Array(3);
  private readonly up = new Float64Array(3);
  private readonly t = new Float64Array(12);

  constructor(model: Model, options: { reachForward?: number; reachBackward?: number } = {}) {
    this.model = model;
    this.reachForward = options.reachForward ?? 1.3;
    this.reachBackward = options.reachBackward ?? 0.7;
    const seg = (i: number) => segmentFromPattern(model.linkNames[i]) ?? segmentFromPattern(model.jointNames[i]);
    const shoulders: number[] = [], feet: number[] = [];
    let trunk = 0, rank = -1;
    const ranks: Record<string, number> = { lowerTrunk: 0, middleTrunk: 1, upperTrunk: 2 };
    for (let i = 0; i < model.nLinks; i++) {
      const s = seg(i), p = model.parent[i];
      if (s === 'upperArm' && p >= 0 && seg(p) !== 'upperArm' && model.jointType[i] === JointType.spherical) shoulders.push(i);
      if (s === 'foot' && (p < 0 || seg(p) !== 'foot')) feet.push(i);
      if (s && ranks[s] !== undefined && ranks[s] > rank) { rank = ranks[s]; trunk = i; }
    }
    this.shoulders = Int32Array.from(shoulders);
    this.feet = Int32Array.from(feet);
    this.trunk = trunk;
    this.restDir = new Float64Array(3 * shoulders.length);
    shoulders.forEach((i, k) => {
      // the upper arm's bone: toward its farthest child's joint, else its centre of mass
      let x = model.com[3 * i], y = model.com[3 * i + 1], z = model.com[3 * i + 2], best = 0;
      for (const c of model.children[i]) {
        const cx = model.treeX[12 * c + 9], cy = model.treeX[12 * c + 10], cz = model.treeX[12 * c + 11];
        const l = cx * cx + cy * cy + cz * cz;
        if (l > best) { best = l; x = cx; y = cy; z = cz; }
      }
      const n = Math.sqrt(x * x + y * y + z * z);
      this.restDir[3 * k] = n > 0 ? x / n : 0;
      this.restDir[3 * k + 1] = n > 0 ? y / n : -1;
      this.restDir[3 * k + 2] = n > 0 ? z / n : 0;
    });
    const g = model.gravity, gn = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (gn > 0) { this.up[0] = -g[0] / gn; this.up[1] = -g[1] / gn; this.up[2] = -g[2] / gn; } else this.up[1] = 1;
  }

  /** The forward direction setForward remembered (trunk frame) into out[o..o+3) (MotionFollower.snapshot). */
  saveForward(out: Float64Array, o: number): void {
    out.set(this.forwardLocal, o);
  }

  /** Takes back what saveForward wrote (MotionFollower.restore). */
  restoreForward(from: ArrayLike<number>, o: number): void {
    for (let k = 0; k < 3; k++) this.forwardLocal[k] = from[o + k];
  }

  /** Remembers the body's forward direction (world, horizontal) in the trunk's frame; `state` with forward kinematics done. */
  setForward(state: State, forward: ArrayLike<number>): void {
    const P = state.work.pose, o = 12 * this.trunk;
    for (let r = 0; r < 3; r++) this.forwardLocal[r] = P[o + r] * forward[0] + P[o + 3 + r] * forward[1] + P[o + 6 + r] * forward[2];
  }

  /** Sets the fall direction by hand (world; its horizontal part is used). */
  setFall(direction: ArrayLike<number>): void {
    const u = this.up, s = direction[0] * u[0] + direction[1] * u[1] + direction[2] * u[2];
    const x = direction[0] - s * u[0], y = direction[1] - s * u[1], z = direction[2] - s * u[2];
    const n = Math.sqrt(x * x + y * y + z * z);
    if (!(n > 1e-9)) return;
    this.fall[0] = x / n; this.fall[1] = y / n; this.fall[2] = z / n;
    this.hasFall = true;
  }

  /** Updates the fall direction from `state` (link velocities of forward kinematics done). */
  observe(state: State): void {
    const m = this.model, P = state.work.pose, v = state.work.v, t = this.t;
    this.pointVelocity(P, v, this.trunk, m.com[3 * this.trunk], m.com[3 * this.trunk + 1], m.com[3 * this.trunk + 2], t, 0);
    let slow = Infinity;
    for (let k = 0; k < this.feet.length; k++) {
      const f = this.feet[k];
      this.pointVelocity(P, v, f, m.com[3 * f], m.com[3 * f + 1], m.com[3 * f + 2], t, 3);
      const h = this.horizontalSq(t, 3);
      if (h < slow) { slow = h; t[6] = t[3]; t[7] = t[4]; t[8] = t[5]; }
    }
    if (slow < Infinity) { t[0] -= t[6]; t[1] -= t[7]; t[2] -= t[8]; }
    if (this.horizontalSq(t, 0) > 0.04) this.setFall(t);
  }

  /**
   * Writes the shoulders' targets into q (a model q vector): each the slerp from its present value
   * toward the reflex's by `weight` (0..1). `state` with forward kinematics done.
   */
  write(state: State, q: Float64Array, weight: number): void {
    if (!this.hasFall) return;
    const m = this.model, P = state.work.pose, u = this.up, f = this.fall, t = this.t;
    // the trunk's forward in the world, and how much of the fall is toward it
    const to = 12 * this.trunk, fl = this.forwardLocal;
    let fx = P[to] * fl[0] + P[to + 1] * fl[1] + P[to + 2] * fl[2];
    let fy = P[to + 3] * fl[0] + P[to + 4] * fl[1] + P[to + 5] * fl[2];
    let fz = P[to + 6] * fl[0] + P[to + 7] * fl[1] + P[to + 8] * fl[2];
    const fu = fx * u[0] + fy * u[1] + fz * u[2];
    fx -= fu * u[0]; fy -= fu * u[1]; fz -= fu * u[2];
    const fn = Math.sqrt(fx * fx + fy * fy + fz * fz);
    const along = fn > 1e-9 ? (fx * f[0] + fy * f[1] + fz * f[2]) / fn : 0;
    const reach = along >= 0 ? this.reachBackward + (this.reachForward - this.reachBackward) * along : this.reachBackward;
    const c = detMath.cos(reach), s = detMath.sin(reach);
    const wx = -u[0] * c + f[0] * s, wy = -u[1] * c + f[1] * s, wz = -u[2] * c + f[2] * s;
    for (let k = 0; k < this.shoulders.length; k++) {
      const i = this.shoulders[k], o = 12 * i, qo = m.qOffset[i];
      // wanted direction in the joint frame: Q (R_link^T w), Q the joint's present rotation
      t[0] = P[o] * wx + P[o + 3] * wy + P[o + 6] * wz;
      t[1] = P[o + 1] * wx + P[o + 4] * wy + P[o + 7] * wz;
      t[2] = P[o + 2] * wx + P[o + 5] * wy + P[o + 8] * wz;
      quatRotate(state.q, qo, t, 0, t, 0);
      const r = this.restDir, a = 3 * k;
      const ax = r[a + 1] * t[2] - r[a + 2] * t[1], ay = r[a + 2] * t[0] - r[a] * t[2], az = r[a] * t[1] - r[a + 1] * t[0];
      const sn = Math.sqrt(ax * ax + ay * ay + az * az), cs = r[a] * t[0] + r[a + 1] * t[1] + r[a + 2] * t[2];
      if (sn > 1e-9) quatFromAxisAngle(ax / sn, ay / sn, az / sn, detMath.atan2(sn, cs), t, 4);
      else { t[4] = 0; t[5] = 0; t[6] = 0; t[7] = 1; }
      quatSlerp(q, qo, t, 4, weight, q, qo);
    }
  }

  private pointVelocity(P: ArrayLike<number>, v: ArrayLike<number>, i: number, x: number, y: number, z: number, out: Float64Array, oo: number): void {
    // world velocity of a link point: R (v_o + w x r), the spatial velocity in link coordinates
    const o = 6 * i, wx = v[o], wy = v[o + 1], wz = v[o + 2];
    const lx = v[o + 3] + wy * z - wz * y, ly = v[o + 4] + wz * x - wx * z, lz = v[o + 5] + wx * y - wy * x;
    const po = 12 * i;
    out[oo] = P[po] * lx + P[po + 1] * ly + P[po + 2] * lz;
    out[oo + 1] = P[po + 3] * lx + P[po + 4] * ly + P[po + 5] * lz;
    out[oo + 2] = P[po + 6] * lx + P[po + 7] * ly + P[po + 8] * lz;
  }

  private horizontalSq(a: Float64Array, o: number): number {
    const u = this.up, s = a[o] * u[0] + a[o + 1] * u[1] + a[o + 2] * u[2];
    const x = a[o] - s * u[0], y = a[o + 1] - s * u[1], z = a[o + 2] - s * u[2];
    return x * x + y * y + z * z;
  }
}
