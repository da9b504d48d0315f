/**
 * Joint ranges in joint space: how far a q lies outside a model's joint limits, and its
 * projection back inside them. The measures are those of the constraints package's JointLimits
 * (Kokkevis 8.2): revolute and prismatic joints against [lower, upper]; spherical joints by a
 * swing-twist decomposition q = swing * twist about the twist axis a, the swing angle against an
 * elliptical cone (half-angles swing[0], swing[1] about the axes u, v perpendicular to a) and the
 * twist angle 2 atan2(q_vec . a, w) against [twist[0], twist[1]].
 *
 * A motion clip retargeted onto a model may leave its range (the humanoid preset's ankle cone is
 * symmetric, +-35 degrees, while a push-off plantarflexes further); a drive asked to follow such a
 * target pushes into the limit for nothing, so a MotionFollower's targets are projected first.
 */
import { JointType, type Model } from '@sinew/featherstone';
import { quatFromAxisAngle, quatMultiply, quatNormalize } from '../motion/quat.js';
import { detMath } from '@sinew/featherstone';

type Limits = NonNullable<Model['sphericalLimits'][number]>;

/** Cone axes u, v perpendicular to the twist axis a (as JointLimits builds them). */
function coneAxes(a: ArrayLike<number>): [number[], number[]] {
  let u = [1 - a[0] * a[0], -a[0] * a[1], -a[0] * a[2]];
  let n = detMath.hypot(u[0], u[1], u[2]);
  if (n < 1e-6) {
    u = [-a[2] * a[0], -a[2] * a[1], 1 - a[2] * a[2]];
    n = detMath.hypot(u[0], u[1], u[2]);
  }
  u = [u[0] / n, u[1] / n, u[2] / n];
  const v = [a[1] * u[2] - a[2] * u[1], a[2] * u[0] - a[0] * u[2], a[0] * u[1] - a[1] * u[0]];
  return [u, v];
}

interface SwingTwist {
  /** Swing angle and unit swing axis (perpendicular to a). */
  theta: number;
  n: number[];
  /** Twist angle about a, in (-pi, pi]. */
  psi: number;
  /** Half-angle of the cone in the direction of n. */
  cone: number;
}

function swingTwist(q: ArrayLike<number>, o: number, lim: Limits): SwingTwist {
  const a = lim.twistAxis;
  let x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  // twist t = normalise([(v . a) a, w]); swing s = q t^-1
  const p = x * a[0] + y * a[1] + z * a[2];
  let psi = 2 * detMath.atan2(p, w);
  if (psi > Math.PI) psi -= 2 * Math.PI;
  const tn = detMath.hypot(p, w);
  const tx = (p * a[0]) / tn, ty = (p * a[1]) / tn, tz = (p * a[2]) / tn, tw = w / tn;
  // s = q * conj(t)
  const sx = w * -tx + x * tw + y * -tz - z * -ty;
  const sy = w * -ty - x * -tz + y * tw + z * -tx;
  const sz = w * -tz + x * -ty - y * -tx + z * tw;
  const sw = w * tw - x * -tx - y * -ty - z * -tz;
  const sn = detMath.hypot(sx, sy, sz);
  const theta = 2 * detMath.atan2(sn, Math.abs(sw));
  const sg = sw < 0 ? -1 : 1;
  const n = sn > 1e-12 ? [(sg * sx) / sn, (sg * sy) / sn, (sg * sz) / sn] : [0, 0, 0];
  let cone = Math.max(lim.swing[0], lim.swing[1]);
  if (sn > 1e-12) {
    const [u, v] = coneAxes(a);
    const nu = n[0] * u[0] + n[1] * u[1] + n[2] * u[2], nv = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
    cone = 1 / Math.sqrt(detMath.sq(nu / Math.max(lim.swing[0], 1e-9)) + detMath.sq(nv / Math.max(lim.swing[1], 1e-9)));
  }
  return { theta, n, psi, cone };
}

/** Excursion (rad) of spherical joint `link` past its cone or twist range; 0 inside (or without limits). */
export function sphericalExcess(model: Model, q: ArrayLike<number>, link: number): number {
  const lim = model.sphericalLimits[link];
  if (!lim) return 0;
  const st = swingTwist(q, model.qOffset[link], lim);
  return Math.max(0, st.theta - st.cone, lim.twist[0] - st.psi, st.psi - lim.twist[1]);
}

/** Largest excursion (rad or m) of each joint past its limits; 0 inside. Keys are joint names. */
export function jointLimitExcess(model: Model, q: ArrayLike<number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i], qo = model.qOffset[i];
    if (t === JointType.revolute || t === JointType.prismatic) {
      const d = model.vOffset[i];
      out[model.jointNames[i]] = Math.max(0, model.lower[d] - q[qo], q[qo] - model.upper[d]);
    } else if (t === JointType.spherical && model.sphericalLimits[i]) {
      const lim = model.sphericalLimits[i]!;
      const st = swingTwist(q, qo, lim);
      out[model.jointNames[i]] = Math.max(0, st.theta - st.cone, lim.twist[0] - st.psi, st.psi - lim.twist[1]);
    }
  }
  return out;
}

const scratch = new Float64Array(8);

/**
 * Moves q inside the joint limits: 1-dof joints clamped, spherical joints' twist clamped and swing
 * shortened to the cone along its own axis. Returns the largest change (rad or m).
 */
export function projectIntoLimits(model: Model, q: Float64Array, qOffset = 0): number {
  let worst = 0;
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i], qo = qOffset + model.qOffset[i];
    if (t === JointType.revolute || t === JointType.prismatic) {
      const d = model.vOffset[i];
      const x = q[qo], c = Math.min(model.upper[d], Math.max(model.lower[d], x));
      worst = Math.max(worst, Math.abs(c - x));
      q[qo] = c;
    } else if (t === JointType.spherical && model.sphericalLimits[i]) {
      const lim = model.sphericalLimits[i]!;
      const st = swingTwist(q, qo, lim);
      const psi = Math.min(lim.twist[1], Math.max(lim.twist[0], st.psi));
      const theta = Math.min(st.theta, st.cone);
      if (psi === st.psi && theta === st.theta) continue;
      worst = Math.max(worst, Math.abs(psi - st.psi), st.theta - theta);
      const a = lim.twistAxis;
      quatFromAxisAngle(st.n[0], st.n[1], st.n[2], theta, scratch, 0);
      quatFromAxisAngle(a[0], a[1], a[2], psi, scratch, 4);
      quatMultiply(scratch, 0, scratch, 4, q, qo);
      quatNormalize(q, qo);
    }
  }
  return worst;
}
