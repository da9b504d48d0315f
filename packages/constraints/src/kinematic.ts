/**
 * Kinematic bodies and kinematic links: joints whose motion the game prescribes (a moving
 * platform, a door, an animated enemy's capsules, a character's animated upper body over simulated
 * legs), by a target position for the end of the next step or by a velocity.
 *
 * A prescribed joint moves at a constant rate through each step: a target q_t reached at the end of
 * a step of length dt gives the rate (q_t - q) / dt (through the joint's manifold: the rotation
 * vector of the relative quaternion for ball and free joints), a velocity the game sets is that
 * rate. Its acceleration at the start of each pass is then known, and the simulated joints get
 * the accelerations of hybrid dynamics (Featherstone, Rigid Body Dynamics Algorithms, 2008,
 * section 9.2: some joints' accelerations given, the others' forces): each prescribed dof is a
 * bilateral joint row asking qdd = (rate - qd) / h, solved with the step's other rows (contacts,
 * limits, pins) in the same mixed LCP. Its force is the torque that produces the prescribed
 * acceleration whatever else acts, so (K being the inverse mass matrix seen by the rows) a
 * prescribed joint has infinite inertia towards every row: a contact pushes a kinematic body no
 * more than the world, the free joints it is on react to it, and a kinematic body moving into a
 * dynamic one gives it the impulse an infinite mass would. In an impact (restitution) the
 * prescribed rows keep their velocity (a zero velocity change, unbounded impulse).
 *
 * After each pass the prescribed joints are set to exactly the motion the game asked for, from
 * their positions at the pass's start (the solve reaches them only to its tolerance, and a free
 * joint's screw rule differs from the world motion by O(h^2)); at the end of a step towards a
 * target they are set to the target itself. So their state is exactly what the game set.
 *
 * Free joints are prescribed in the world frame: the origin's linear velocity u and the angular
 * velocity w (world axes), constant through a step: the origin moves by u h and the body turns by
 * w h about its origin. Their qd (link frame) is then R^T w, R^T u.
 *
 * Rows between two sides that cannot move (a static shape, or a link all of whose joints to the
 * world are prescribed) are dropped, as are joint rows of other sources (limits, drives, motors)
 * on prescribed joints.
 */
import { JointType, detMath, type Model } from '@sinew/featherstone';
import { FAMILY_KEYS, BODY_KEYS } from './lifetime.js';
import { RowTag, RowType, type RowBuffer } from './rows/row-buffer.js';

/** Family of the warm-start keys of prescribed-joint rows (lifetime.ts BODY_KEYS: limits are 1, the characters' limit guard 7). */
export const PRESCRIBED_KEY_FAMILY = 2;

/** How the prescribed joints of a body move: at rates the game set, or to a target at the end of each step. */
export const KinematicMode = { Velocity: 0, Position: 1 } as const;

/**
 * The prescribed joints of one body and their motion: which links' joints are prescribed, the mode,
 * the rates (per dof; free joints in the world frame: angular, then the origin's linear velocity)
 * and the pending target of the next step. Sized when the body is made kinematic.
 */
export class KinematicJoints {
  /** Per link, 1 when its joint is prescribed. */
  readonly link: Uint8Array;
  /** Per link, 1 when it and every link between it and the world are prescribed (it cannot be moved by rows). */
  readonly fixed: Uint8Array;
  /** Per dof, 1 when prescribed. */
  readonly dof: Uint8Array;
  /** [0] mode (KinematicMode), [1] 1 while a target waits for the next step. */
  readonly flags = new Float64Array(2);
  /** The number of prescribed links (a small integer: no heap number when read). */
  count = 0;
  /** The target q of the next step (position mode), in the model's q layout. */
  readonly target: Float64Array;
  /** The rates of the prescribed joints (qd layout; free joints: world angular, world linear of the origin). */
  readonly rate: Float64Array;

  constructor(model: Model) {
    this.link = new Uint8Array(model.nLinks);
    this.fixed = new Uint8Array(model.nLinks);
    this.dof = new Uint8Array(model.nv);
    this.target = new Float64Array(model.nq);
    this.rate = new Float64Array(model.nv);
  }

  /** Sets the prescribed links (the per-link and per-dof flags and the fixed links). */
  setLinks(model: Model, links: ArrayLike<number>): void {
    this.link.fill(0);
    this.dof.fill(0);
    for (let k = 0; k < links.length; k++) this.link[links[k]] = 1;
    let n = 0;
    for (let i = 0; i < model.nLinks; i++) {
      if (this.link[i]) { n++; for (let d = model.vOffset[i]; d < model.vOffset[i] + model.jointNv[i]; d++) this.dof[d] = 1; }
      const p = model.parent[i];
      this.fixed[i] = this.link[i] === 1 && (p < 0 || this.fixed[p] === 1) ? 1 : 0;
    }
    this.count = n;
  }

  /** Numbers saved with the world (World.saveState): mode, pending flag, link flags, target, rates. */
  save(): Float64Array {
    const n = this.link.length, out = new Float64Array(2 + n + this.target.length + this.rate.length);
    out[0] = this.flags[0]; out[1] = this.flags[1];
    for (let i = 0; i < n; i++) out[2 + i] = this.link[i];
    out.set(this.target, 2 + n);
    out.set(this.rate, 2 + n + this.target.length);
    return out;
  }

  /** Takes back what save() wrote ('' or what does not fit). */
  restore(model: Model, s: Float64Array): string {
    const n = this.link.length;
    if (s.length !== 2 + n + this.target.length + this.rate.length) return `saves ${s.length} kinematic numbers, the body holds ${2 + n + this.target.length + this.rate.length}`;
    const links: number[] = [];
    for (let i = 0; i < n; i++) if (s[2 + i] === 1) links.push(i);
    this.setLinks(model, links);
    this.flags[0] = s[0]; this.flags[1] = s[1];
    this.target.set(s.subarray(2 + n, 2 + n + this.target.length));
    this.rate.set(s.subarray(2 + n + this.target.length));
    return '';
  }
}

/** Numbers KinematicJoints.save writes for a model: mode, pending flag, one flag per link, the target q and the rates. */
export function kinematicSlots(m: { nLinks: number; nq: number; nv: number }): number {
  return 2 + m.nLinks + m.nq + m.nv;
}

/**
 * Gives body b the kinematic joints `saved` holds (what KinematicJoints.save wrote, of
 * kinematicSlots(b.model) numbers), or none when saved is null: World.restoreState and
 * World.restore both take them back through this.
 */
export function restoreKinematicJoints(b: { model: Model; kinematic: KinematicJoints | null }, saved: Float64Array | null): void {
  if (!saved) { b.kinematic = null; return; }
  if (!b.kinematic) b.kinematic = new KinematicJoints(b.model);
  b.kinematic.restore(b.model, saved);
}

// ---- quaternion helpers (x, y, z, w), on typed arrays (doubles passed between calls are boxed) ----

/** Scratch: [0..3] a quaternion, [4..6] a vector, [7..9] a result vector. */
const Q = new Float64Array(10);

/** Q[7..9] = R^T Q[4..6], R the rotation of the unit quaternion q[o..o+3]. */
function rotateBack(q: ArrayLike<number>, o: number): void {
  const x = -q[o], y = -q[o + 1], z = -q[o + 2], w = q[o + 3];
  const vx = Q[4], vy = Q[5], vz = Q[6];
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  Q[7] = vx + w * tx + (y * tz - z * ty);
  Q[8] = vy + w * ty + (z * tx - x * tz);
  Q[9] = vz + w * tz + (x * ty - y * tx);
}

/**
 * The rotation vector (angle times axis) of the unit quaternion Q[0..3], taken the short way, into
 * Q[7..9]: 2 atan2(|v|, w) v / |v|.
 */
function rotationVector(): void {
  let x = Q[0], y = Q[1], z = Q[2], w = Q[3];
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  const s = Math.sqrt(x * x + y * y + z * z);
  // (near zero: atan2(s, w) / s = 1/w - s^2 / (3 w^3) + ...)
  const k = s < 1e-8 ? 2 / w : (2 * detMath.atan2(s, w)) / s;
  Q[7] = k * x; Q[8] = k * y; Q[9] = k * z;
}

/** Q[0..3] = exp(r / 2), r = Q[4..6] times h (a rotation by angle |r h| about r). */
function turnOf(h: number): void {
  const ax = 0.5 * h * Q[4], ay = 0.5 * h * Q[5], az = 0.5 * h * Q[6];
  const th = Math.sqrt(ax * ax + ay * ay + az * az);
  const k = th < 1e-8 ? 1 - (th * th) / 6 : detMath.sin(th) / th;
  Q[0] = ax * k; Q[1] = ay * k; Q[2] = az * k; Q[3] = detMath.cos(th);
}

/** out[oo..oo+3] = a * b (a = Q[0..3] when left, else b = Q[0..3]), normalised. */
function multiply(q: ArrayLike<number>, qo: number, left: boolean, out: Float64Array, oo: number): void {
  const ax = left ? Q[0] : q[qo], ay = left ? Q[1] : q[qo + 1], az = left ? Q[2] : q[qo + 2], aw = left ? Q[3] : q[qo + 3];
  const bx = left ? q[qo] : Q[0], by = left ? q[qo + 1] : Q[1], bz = left ? q[qo + 2] : Q[2], bw = left ? q[qo + 3] : Q[3];
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  out[oo] = x / n; out[oo + 1] = y / n; out[oo + 2] = z / n; out[oo + 3] = w / n;
}

/**
 * Position mode at the start of a step of length dt: the rates that take every prescribed joint
 * from q to the pending target within the step (rate zero, holding still, when none is pending).
 * Allocation-free.
 */
export function ratesFromTarget(model: Model, kin: KinematicJoints, q: Float64Array, dt: number): void {
  const rate = kin.rate, t = kin.target, pending = kin.flags[1] === 1;
  for (let i = 0; i < model.nLinks; i++) {
    if (!kin.link[i]) continue;
    const qo = model.qOffset[i], vo = model.vOffset[i], type = model.jointType[i];
    if (!pending) { for (let d = vo; d < vo + model.jointNv[i]; d++) rate[d] = 0; continue; }
    if (type === JointType.revolute || type === JointType.prismatic) rate[vo] = (t[qo] - q[qo]) / dt;
    else if (type === JointType.spherical) {
      // body rate: q (x) exp(w dt / 2) = t, so w dt is the rotation vector of q^-1 (x) t
      Q[0] = -q[qo]; Q[1] = -q[qo + 1]; Q[2] = -q[qo + 2]; Q[3] = q[qo + 3];
      multiply(t, qo, true, QT, 0);
      Q.set(QT.subarray(0, 4), 0);
      rotationVector();
      rate[vo] = Q[7] / dt; rate[vo + 1] = Q[8] / dt; rate[vo + 2] = Q[9] / dt;
    } else if (type === JointType.free) {
      // world rate: exp(w dt / 2) (x) q = t, so w dt is the rotation vector of t (x) q^-1
      Q[0] = -q[qo + 3]; Q[1] = -q[qo + 4]; Q[2] = -q[qo + 5]; Q[3] = q[qo + 6];
      multiply(t, qo + 3, true, QT, 4);
      // (QT[4..7] = q^-1 (x) t; the world rotation is t (x) q^-1 = q (q^-1 t) q^-1: the same angle, axis turned by q)
      Q[0] = QT[4]; Q[1] = QT[5]; Q[2] = QT[6]; Q[3] = QT[7];
      rotationVector();
      // R(q) times the body-frame rotation vector
      Q[4] = Q[7]; Q[5] = Q[8]; Q[6] = Q[9];
      const x = q[qo + 3], y = q[qo + 4], z = q[qo + 5], w = q[qo + 6];
      const vx = Q[4], vy = Q[5], vz = Q[6];
      const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
      rate[vo] = (vx + w * tx + (y * tz - z * ty)) / dt;
      rate[vo + 1] = (vy + w * ty + (z * tx - x * tz)) / dt;
      rate[vo + 2] = (vz + w * tz + (x * ty - y * tx)) / dt;
      rate[vo + 3] = (t[qo] - q[qo]) / dt; rate[vo + 4] = (t[qo + 1] - q[qo + 1]) / dt; rate[vo + 5] = (t[qo + 2] - q[qo + 2]) / dt;
    }
  }
}

/** Quaternion scratch of ratesFromTarget. */
const QT = new Float64Array(8);

/**
 * Whether any prescribed joint has a non-zero rate (the body is moving on purpose: it neither
 * sleeps nor lets what it touches sleep).
 */
export function prescribedMoving(kin: KinematicJoints): boolean {
  const r = kin.rate, dof = kin.dof;
  for (let d = 0; d < r.length; d++) if (dof[d] === 1 && r[d] !== 0) return true;
  return false;
}

/**
 * The velocity in qd coordinates that the prescribed joints have at orientation q (free joints:
 * R^T w, R^T u) written into qd, for the prescribed dofs only.
 */
export function prescribedVelocity(model: Model, kin: KinematicJoints, q: ArrayLike<number>, qd: Float64Array): void {
  const rate = kin.rate;
  for (let i = 0; i < model.nLinks; i++) {
    if (!kin.link[i]) continue;
    const vo = model.vOffset[i];
    if (model.jointType[i] !== JointType.free) { for (let d = vo; d < vo + model.jointNv[i]; d++) qd[d] = rate[d]; continue; }
    const qo = model.qOffset[i] + 3;
    Q[4] = rate[vo]; Q[5] = rate[vo + 1]; Q[6] = rate[vo + 2];
    rotateBack(q, qo);
    qd[vo] = Q[7]; qd[vo + 1] = Q[8]; qd[vo + 2] = Q[9];
    Q[4] = rate[vo + 3]; Q[5] = rate[vo + 4]; Q[6] = rate[vo + 5];
    rotateBack(q, qo);
    qd[vo + 3] = Q[7]; qd[vo + 4] = Q[8]; qd[vo + 5] = Q[9];
  }
}

/**
 * The prescribed joints moved exactly by h from q0 at their rates (q and qd of those joints only):
 * revolute and prismatic q0 + h rate; ball joints q0 (x) exp(rate h / 2); free joints origin + h u
 * and exp(w h / 2) (x) q0, their qd R^T w, R^T u at the new orientation.
 */
export function movePrescribed(model: Model, kin: KinematicJoints, q0: ArrayLike<number>, h: number, q: Float64Array, qd: Float64Array): void {
  const rate = kin.rate;
  for (let i = 0; i < model.nLinks; i++) {
    if (!kin.link[i]) continue;
    const qo = model.qOffset[i], vo = model.vOffset[i], type = model.jointType[i];
    if (type === JointType.revolute || type === JointType.prismatic) q[qo] = q0[qo] + h * rate[vo];
    else if (type === JointType.spherical) {
      Q[4] = rate[vo]; Q[5] = rate[vo + 1]; Q[6] = rate[vo + 2];
      turnOf(h);
      multiply(q0, qo, false, q, qo);
    } else if (type === JointType.free) {
      q[qo] = q0[qo] + h * rate[vo + 3]; q[qo + 1] = q0[qo + 1] + h * rate[vo + 4]; q[qo + 2] = q0[qo + 2] + h * rate[vo + 5];
      Q[4] = rate[vo]; Q[5] = rate[vo + 1]; Q[6] = rate[vo + 2];
      turnOf(h);
      multiply(q0, qo + 3, true, q, qo + 3);
    }
  }
  prescribedVelocity(model, kin, q, qd);
}

/** The rates of the prescribed joints from the state's q and qd (free joints: R w, R v in the world frame). */
export function ratesFromState(model: Model, kin: KinematicJoints, q: ArrayLike<number>, qd: ArrayLike<number>): void {
  const rate = kin.rate;
  for (let i = 0; i < model.nLinks; i++) {
    if (!kin.link[i]) continue;
    const vo = model.vOffset[i];
    if (model.jointType[i] !== JointType.free) { for (let d = vo; d < vo + model.jointNv[i]; d++) rate[d] = qd[d]; continue; }
    const qo = model.qOffset[i] + 3;
    for (let part = 0; part < 6; part += 3) {
      const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
      const vx = qd[vo + part], vy = qd[vo + part + 1], vz = qd[vo + part + 2];
      const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
      rate[vo + part] = vx + w * tx + (y * tz - z * ty);
      rate[vo + part + 1] = vy + w * ty + (z * tx - x * tz);
      rate[vo + part + 2] = vz + w * tz + (x * ty - y * tx);
    }
  }
}

/** q of the prescribed joints set to the target (the end of a step in position mode). */
export function landOnTarget(model: Model, kin: KinematicJoints, q: Float64Array, qd: Float64Array): void {
  const t = kin.target;
  for (let i = 0; i < model.nLinks; i++) {
    if (!kin.link[i]) continue;
    const qo = model.qOffset[i];
    for (let k = qo; k < qo + model.jointNq[i]; k++) q[k] = t[k];
  }
  prescribedVelocity(model, kin, q, qd);
}

/** Warm-start key of the prescribed row of dof d of body b (lifetime.ts BODY_KEYS). */
function prescribedKey(body: number, dof: number): number {
  return PRESCRIBED_KEY_FAMILY * FAMILY_KEYS + body * BODY_KEYS + dof * 8;
}

/** Whether row j is a prescribed-joint row (addPrescribedRows). */
export function isPrescribedRow(rows: RowBuffer, j: number): boolean {
  const key = rows.key[j];
  return rows.tag[j] === RowTag.Motor && key >= PRESCRIBED_KEY_FAMILY * FAMILY_KEYS && key < (PRESCRIBED_KEY_FAMILY + 1) * FAMILY_KEYS;
}

/**
 * The rows of one body's prescribed dofs for a pass of length h at the current q, qd: bilateral
 * joint rows (tagged Motor, unbounded) asking for the acceleration that brings qd to the prescribed
 * rate within the pass: (rate - qd) / h; for free joints the world rule's (featherstone
 * advanceFreeJoint: u' = R (v + h (v_dot + w x v))): (R^T w - w) / h and (R^T u - v) / h - w x v.
 */
export function addPrescribedRows(rows: RowBuffer, body: number, model: Model, kin: KinematicJoints, q: ArrayLike<number>, qd: ArrayLike<number>, h: number): void {
  const rate = kin.rate;
  for (let i = 0; i < model.nLinks; i++) {
    if (!kin.link[i]) continue;
    const vo = model.vOffset[i];
    if (model.jointType[i] !== JointType.free) {
      for (let d = vo; d < vo + model.jointNv[i]; d++) {
        const r = rows.addJoint(RowTag.Motor, body, d, 1);
        rows.desired[r] = (rate[d] - qd[d]) / h;
        rows.key[r] = prescribedKey(body, d);
      }
      continue;
    }
    const qo = model.qOffset[i] + 3;
    const wx = qd[vo], wy = qd[vo + 1], wz = qd[vo + 2], vx = qd[vo + 3], vy = qd[vo + 4], vz = qd[vo + 5];
    Q[4] = rate[vo]; Q[5] = rate[vo + 1]; Q[6] = rate[vo + 2];
    rotateBack(q, qo);
    const ax = Q[7], ay = Q[8], az = Q[9];
    Q[4] = rate[vo + 3]; Q[5] = rate[vo + 4]; Q[6] = rate[vo + 5];
    rotateBack(q, qo);
    for (let e = 0; e < 6; e++) {
      const d = vo + e;
      const r = rows.addJoint(RowTag.Motor, body, d, 1);
      let a = 0;
      if (e === 0) a = (ax - wx) / h;
      else if (e === 1) a = (ay - wy) / h;
      else if (e === 2) a = (az - wz) / h;
      else if (e === 3) a = (Q[7] - vx) / h - (wy * vz - wz * vy);
      else if (e === 4) a = (Q[8] - vy) / h - (wz * vx - wx * vz);
      else a = (Q[9] - vz) / h - (wx * vy - wy * vx);
      rows.desired[r] = a;
      rows.key[r] = prescribedKey(body, d);
    }
  }
}

/** Whether row j is a joint row (Joint, JointVec) of another source on a prescribed joint of its body. */
export function onPrescribedJoint(rows: RowBuffer, j: number, model: Model, kin: KinematicJoints): boolean {
  const t = rows.type[j];
  if (t === RowType.Joint) return kin.dof[rows.dof[j]] === 1 && !isPrescribedRow(rows, j);
  if (t === RowType.JointVec) return kin.link[rows.linkA[j]] === 1;
  return false;
}
