/**
 * Joint ranges in joint space: how far a q lies outside a model's joint limits, and its
 * projection back inside them. The measures are those of the constraints package's JointLimits
 * (Kokkevis 8.2): revolute and prismatic joints against [lower, upper]; spherical joints by a
 * swing-twist decomposition q = swing * twist about the twist axis a, the swing angle against an
 * elliptical cone (half-angles swing[0], swing[1] about the axes u, v perpendicular to a) and the
 * twist angle 2 atan2(q_vec . a, w) against [twist[0], twist[1]]; for a cone centred off the rest
 * pose (SphericalLimits.swingCentre, centre C) the decomposition is of C^-1 q.
 *
 * A motion clip retargeted onto a model may leave its range (the humanoid preset's ankle cone is
 * symmetric, +-35 degrees, while a push-off plantarflexes further); a drive asked to follow such a
 * target pushes into the limit for nothing, so a MotionFollower's targets are projected first.
 */
import { centredRotationInto, JointType, type Model } from '@sinew/featherstone';
import { quatFromAxisAngle, quatMultiply, quatNormalize } from '../motion/quat.js';
import { detMath } from '@sinew/featherstone';

type Limits = NonNullable<Model['sphericalLimits'][number]>;

/**
 * The cone axes u and v perpendicular to the twist axis a, as JointLimits builds them, into
 * out[o..o+3) and out[o+3..o+6) (the swing-twist measure here and LimitGuard's rows both use them).
 */
export function coneAxesInto(a: ArrayLike<number>, out: Float64Array, o: number): void {
  const io = detMath.io;
  let ux = 1 - a[0] * a[0], uy = -a[0] * a[1], uz = -a[0] * a[2];
  io[0] = ux; io[1] = uy; io[2] = uz; io[3] = 0;
  detMath.hypotIO();
  let n = io[0];
  if (n < 1e-6) {
    ux = -a[2] * a[0]; uy = -a[2] * a[1]; uz = 1 - a[2] * a[2];
    io[0] = ux; io[1] = uy; io[2] = uz; io[3] = 0;
    detMath.hypotIO();
    n = io[0];
  }
  ux /= n; uy /= n; uz /= n;
  out[o] = ux; out[o + 1] = uy; out[o + 2] = uz;
  out[o + 3] = a[1] * uz - a[2] * uy; out[o + 4] = a[2] * ux - a[0] * uz; out[o + 5] = a[0] * uy - a[1] * ux;
}

/**
 * The swing-twist decomposition of the quaternion at q[o..o+4) for limits lim, into ST (the
 * measures are needed every step by LimitGuard: numbers in a typed array, not a new object):
 * ST[THETA] the swing angle, ST[N..N+3) the unit swing axis (perpendicular to the twist axis a),
 * ST[PSI] the twist angle about a in (-pi, pi], ST[CONE] the cone's half-angle along the swing axis.
 */
const THETA = 0, N = 1, PSI = 4, CONE = 5, ST_U = 6, ST_V = 9, EXCESS = 12;
const ST = new Float64Array(13);
/** C^-1 Q of a cone centred off the rest pose (centredRotationInto). */
const CQ = new Float64Array(4);

function swingTwist(q: ArrayLike<number>, o: number, lim: Limits): void {
  // (the elementary functions through detMath.io: the step calls this, and nothing may be boxed)
  const a = lim.twistAxis, io = detMath.io;
  let x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
  const C = lim.centre;
  if (C !== undefined) {
    // a cone centred off the rest pose: the range is that of C^-1 Q (SphericalLimits.swingCentre)
    centredRotationInto(C, q, o, CQ, 0);
    x = CQ[0]; y = CQ[1]; z = CQ[2]; w = CQ[3];
  }
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  // twist t = normalise([(v . a) a, w]); swing s = q t^-1
  const p = x * a[0] + y * a[1] + z * a[2];
  io[0] = p; io[3] = w;
  detMath.atan2IO();
  let psi = 2 * io[0];
  if (psi > Math.PI) psi -= 2 * Math.PI;
  io[0] = p; io[1] = w; io[2] = 0; io[3] = 0;
  detMath.hypotIO();
  const tn = io[0];
  const tx = (p * a[0]) / tn, ty = (p * a[1]) / tn, tz = (p * a[2]) / tn, tw = w / tn;
  // s = q * conj(t)
  const sx = w * -tx + x * tw + y * -tz - z * -ty;
  const sy = w * -ty - x * -tz + y * tw + z * -tx;
  const sz = w * -tz + x * -ty - y * -tx + z * tw;
  const sw = w * tw - x * -tx - y * -ty - z * -tz;
  io[0] = sx; io[1] = sy; io[2] = sz; io[3] = 0;
  detMath.hypotIO();
  const sn = io[0];
  io[0] = sn; io[3] = Math.abs(sw);
  detMath.atan2IO();
  ST[THETA] = 2 * io[0];
  const sg = sw < 0 ? -1 : 1;
  if (sn > 1e-12) { ST[N] = (sg * sx) / sn; ST[N + 1] = (sg * sy) / sn; ST[N + 2] = (sg * sz) / sn; } else { ST[N] = 0; ST[N + 1] = 0; ST[N + 2] = 0; }
  let cone = Math.max(lim.swing[0], lim.swing[1]);
  if (sn > 1e-12) {
    coneAxesInto(a, ST, ST_U);
    const nu = ST[N] * ST[ST_U] + ST[N + 1] * ST[ST_U + 1] + ST[N + 2] * ST[ST_U + 2];
    const nv = ST[N] * ST[ST_V] + ST[N + 1] * ST[ST_V + 1] + ST[N + 2] * ST[ST_V + 2];
    cone = 1 / Math.sqrt(detMath.sq(nu / Math.max(lim.swing[0], 1e-9)) + detMath.sq(nv / Math.max(lim.swing[1], 1e-9)));
  }
  ST[PSI] = psi;
  ST[CONE] = cone;
}

/** Excursion (rad) of spherical joint `link` past its cone or twist range; 0 inside (or without limits). */
export function sphericalExcess(model: Model, q: ArrayLike<number>, link: number): number {
  sphericalExcessInto(model, q, link, ST, EXCESS);
  return ST[EXCESS];
}

/** sphericalExcess written into out[o] (the step's form: a number returned from a call the engine does not inline is boxed). */
export function sphericalExcessInto(model: Model, q: ArrayLike<number>, link: number, out: Float64Array, o: number): void {
  const lim = model.sphericalLimits[link];
  if (!lim) { out[o] = 0; return; }
  swingTwist(q, model.qOffset[link], lim);
  out[o] = Math.max(0, ST[THETA] - ST[CONE], lim.twist[0] - ST[PSI], ST[PSI] - lim.twist[1]);
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
      swingTwist(q, qo, lim);
      out[model.jointNames[i]] = Math.max(0, ST[THETA] - ST[CONE], lim.twist[0] - ST[PSI], ST[PSI] - lim.twist[1]);
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
      swingTwist(q, qo, lim);
      const psi = Math.min(lim.twist[1], Math.max(lim.twist[0], ST[PSI]));
      const theta = Math.min(ST[THETA], ST[CONE]);
      if (psi === ST[PSI] && theta === ST[THETA]) continue;
      worst = Math.max(worst, Math.abs(psi - ST[PSI]), ST[THETA] - theta);
      const a = lim.twistAxis;
      quatFromAxisAngle(ST[N], ST[N + 1], ST[N + 2], theta, scratch, 0);
      quatFromAxisAngle(a[0], a[1], a[2], psi, scratch, 4);
      if (lim.centre) {
        // back from C^-1 Q to Q
        quatMultiply(scratch, 0, scratch, 4, scratch, 0);
        quatMultiply(lim.centre, 0, scratch, 0, q, qo);
      } else quatMultiply(scratch, 0, scratch, 4, q, qo);
      quatNormalize(q, qo);
    }
  }
  return worst;
}
