/**
 * Anatomical joints for a ragdoll built from a skeleton: which joint each bone gets and its range,
 * from the bones' body segments (the bone map: motion/bone-names.ts) and the rest pose.
 *
 * Ranges are the average adult ranges of motion of the AAOS (presets/range-of-motion.ts, degrees),
 * measured from the anatomical neutral (standing, arms hanging) and so shifted by the rest pose's
 * own angle where the skin's rest is not neutral (arms held out in a T- or A-pose, a quadruped's
 * bent legs). The body's axes come from the rest pose: up is against gravity, forward is the
 * horizontal direction of the feet (foot bone toward the toes; else from the root toward the
 * head), left = up x forward.
 *
 *  - Knees and elbows (a shank below a thigh or shank, a forearm below an upper arm or forearm):
 *    hinges. A limb bent at rest (more than 10 degrees) flexes further the way it is bent; a
 *    straight one flexes as a human's does (the shank backward, the forearm forward). Axis
 *    perpendicular to both segments; range from straight (q = -rest bend) to 135 degrees (knee) or
 *    150 (elbow) of bend.
 *  - Hips and shoulders: ball joints whose twist axis is the axis of the range that is most
 *    asymmetric, so that its range can be asymmetric: hips twist about the lateral axis
 *    (extension 30 to flexion 120 degrees), shoulders about the forward axis (adduction 0 to
 *    abduction 180). The swing of that axis is an elliptical cone whose half-angles are half the
 *    remaining arcs: hips abduction + adduction (75 / 2) and internal + external rotation (90 / 2),
 *    shoulders flexion + extension (240 / 2) and internal + external rotation (160 / 2), centred
 *    (SphericalLimits.swingCentre) half the difference of each pair off the rest pose, so that the
 *    arcs are the AAOS ones on each side: hips 7.5 degrees toward abduction (45 and 30). The
 *    shoulders' cones stay on the rest pose (flexion and extension +-120, rotation +-80 degrees):
 *    a flexion centre (60 degrees about the lateral axis) is a flexion only for an arm hanging at
 *    rest (for an arm held out in an A- or T-pose a turn about the lateral axis is mostly the
 *    bone's own rotation), and on RobotExpressive, whose arms hang, it made the fall of
 *    motion-anatomical.test.ts roll on past its 10 s.
 *  - The spine (trunk joints between two trunk segments on the way from the root to the head)
 *    and the neck (head joints): ball joints twisting about the lateral axis; the thoracolumbar
 *    range (flexion 80, extension 25, lateral flexion 35 a side, rotation 45 a side) shared equally
 *    by the spine's joints, the cervical range (45, 45, 45, 60) by the neck's, so that the segments
 *    share the bend.
 *  - Wrists: twist about the bone (pronation and supination, 80 each, as the elbow is a hinge),
 *    swing 75 degrees (flexion + extension over 2) and 25 (radial + ulnar deviation over 2).
 *    Ankles: twist about the foot (25 either way: inversion 35 and eversion 15 are mirrored on the
 *    two sides, and the side is not always known), swing 35
 *    (dorsiflexion + plantarflexion over 2) and 15.
 *  - Every other joint (fingers, toes, clavicles, tails, bones of no segment): a 30 degree cone and
 *    15 degrees of twist either way about the bone.
 *
 * The swing half-angles of SphericalLimits are about the cone axes u, v that the limit rows build
 * from the twist axis a (u = x - (x . a) a normalised, or z - (z . a) a where a is along x; v = a x
 * u); each half-angle goes to the axis nearer to the rotation it limits.
 */
import type { SphericalLimits } from '@sinew/featherstone';
import { AAOS_ROM_DEG as ROM } from '../presets/range-of-motion.js';
import { quatRotate, quatRotateInverse } from './quat.js';
import type { BodySegment } from './segment-mass.js';
import type { Skeleton } from './skeleton.js';
import { detMath } from '@sinew/featherstone';

const DEG = Math.PI / 180;

/** The joint a ragdoll link gets: a hinge (axis in the joint frame, range in radians) or a ball joint with limits. */
export type AnatomicalJoint =
  | { type: 'revolute'; role: AnatomicalRole; axis: [number, number, number]; lower: number; upper: number }
  | { type: 'spherical'; role: AnatomicalRole; limits: SphericalLimits };

/** What a joint is, anatomically. */
export type AnatomicalRole = 'knee' | 'elbow' | 'hip' | 'shoulder' | 'spine' | 'neck' | 'wrist' | 'ankle' | 'other';

type V = [number, number, number];
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const scale = (a: ArrayLike<number>, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
function unit(a: V): V | null {
  const n = detMath.hypot(a[0], a[1], a[2]);
  return n > 1e-9 && Number.isFinite(n) ? [a[0] / n, a[1] / n, a[2] / n] : null;
}
/** The part of a normal to the unit vector n, normalised (null when a is along n). */
const normalTo = (a: V, n: V): V | null => unit(sub(a, scale(n, dot(a, n))));

const TRUNK = new Set<BodySegment>(['lowerTrunk', 'middleTrunk', 'upperTrunk']);

/**
 * The anatomical joint of every bone (index = bone; the root's is null: a free joint), from the
 * bones' segments, their tips (bone direction, bone frame; a zero tip has no direction) and the
 * gravity. See the module comment.
 */
export function anatomicalJoints(skeleton: Skeleton, segments: readonly (BodySegment | null)[], tips: readonly ArrayLike<number>[], gravity: ArrayLike<number> = [0, -9.81, 0]): (AnatomicalJoint | null)[] {
  const bones = skeleton.bones, n = bones.length;
  const rest = skeleton.worldPose();
  const R = rest.rotations, P = rest.positions;
  const gn = detMath.hypot(gravity[0], gravity[1], gravity[2]);
  const up: V = gn > 0 ? [-gravity[0] / gn, -gravity[1] / gn, -gravity[2] / gn] : [0, 1, 0];
  // world direction of each bone at rest (null for a bone of no length)
  const dir: (V | null)[] = [];
  for (let i = 0; i < n; i++) {
    const w = new Float64Array(3);
    quatRotate(R, 4 * i, tips[i], 0, w, 0);
    dir.push(unit([w[0], w[1], w[2]]));
  }
  const seg = (i: number) => (i >= 0 ? segments[i] : null);

  // forward: the feet's horizontal direction, else root toward the head, else +z
  let fwd: V = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    if (seg(i) === 'foot' && seg(bones[i].parent) !== 'foot' && dir[i]) fwd = [fwd[0] + dir[i]![0], fwd[1] + dir[i]![1], fwd[2] + dir[i]![2]];
  }
  let forward = normalTo(fwd, up);
  if (!forward) {
    const head = segments.indexOf('head');
    if (head >= 0) forward = normalTo(sub(P.subarray(3 * head, 3 * head + 3), P.subarray(0, 3)), up);
  }
  if (!forward) forward = normalTo([0, 0, 1], up) ?? [1, 0, 0];
  const left = unit(cross(up, forward))!;

  // the spine: trunk joints between two trunk segments on the way from the root to a head bone
  const onHeadPath = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (seg(i) !== 'head') continue;
    for (let k = bones[i].parent; k >= 0; k = bones[k].parent) onHeadPath[k] = 1;
  }
  const isSpine = (i: number) => TRUNK.has(seg(i)!) && TRUNK.has(seg(bones[i].parent)!) && onHeadPath[i] === 1;
  const isNeck = (i: number) => seg(i) === 'head' && (seg(bones[i].parent) === 'head' || TRUNK.has(seg(bones[i].parent)!));
  let nSpine = 0, nNeck = 0;
  for (let i = 1; i < n; i++) { if (bones[i].parent < 0) continue; if (isSpine(i)) nSpine++; if (isNeck(i)) nNeck++; }

  const out: (AnatomicalJoint | null)[] = [];
  for (let i = 0; i < n; i++) {
    const p = bones[i].parent;
    if (p < 0) { out.push(null); continue; }
    const s = seg(i), ps = seg(p), d = dir[i], pd = dir[p];
    // world -> joint frame (the bone's rest frame)
    const toJoint = (v: V): V => { const w = new Float64Array(3); quatRotateInverse(R, 4 * i, v, 0, w, 0); return [w[0], w[1], w[2]]; };
    const small = (): AnatomicalJoint => ({ type: 'spherical', role: 'other', limits: { twistAxis: d ? toJoint(d) : [0, 1, 0], swing: 30 * DEG, twist: [-15 * DEG, 15 * DEG] } });
    /**
     * Ball joint twisting about the world axis a (positive = the range's "plus" side), swings about
     * the world axes su (half-angle hu) and sv (hv), the cone centred off the rest pose by the
     * world rotation vector `centre` when given (SphericalLimits.swingCentre: its components on
     * the cone axes u and v).
     */
    const ball = (role: AnatomicalRole, a: V, twist: [number, number], su: V, hu: number, sv: V, hv: number, centre?: V): AnatomicalJoint => {
      const aj = toJoint(a);
      // the cone axis u as the limit rows build it from a
      let u = normalTo([1, 0, 0], aj);
      if (!u || Math.abs(aj[0]) > 1 - 1e-6) u = normalTo([0, 0, 1], aj)!;
      const uw = new Float64Array(3);
      quatRotate(R, 4 * i, u, 0, uw, 0);
      const onU = Math.abs(dot(uw, su)) >= Math.abs(dot(uw, sv));
      const limits: SphericalLimits = { twistAxis: aj, swing: onU ? [hu, hv] : [hv, hu], twist };
      if (centre) {
        const cj = toJoint(centre), v = cross(aj, u);
        limits.swingCentre = [dot(cj, u), dot(cj, v)];
      }
      return { type: 'spherical', role, limits };
    };
    const limb = (s === 'shank' && (ps === 'thigh' || ps === 'shank')) ? 'knee' : (s === 'forearm' && (ps === 'upperArm' || ps === 'forearm')) ? 'elbow' : null;
    if (limb && d && pd) {
      const bend = detMath.atan2(detMath.hypot(...cross(pd, d)), dot(pd, d));
      let axis: V | null = null, rest = 0;
      if (bend > 10 * DEG) { axis = unit(cross(pd, d)); rest = bend; }
      if (!axis) {
        // straight: the shank flexes backward (axis forward x d), the forearm forward (d x forward)
        const f = normalTo(forward, d) ?? normalTo(up, d)!;
        axis = limb === 'knee' ? unit(cross(f, d)) : unit(cross(d, f));
        rest = 0;
      }
      if (axis) {
        const max = (limb === 'knee' ? ROM.knee.flexion : ROM.elbow.flexion) * DEG;
        out.push({ type: 'revolute', role: limb, axis: toJoint(axis), lower: -rest, upper: Math.max(max - rest, 10 * DEG) });
        continue;
      }
    }
    if (!d) { out.push(small()); continue; }
    const hipLike = s === 'thigh' || (s === 'shank' && ps !== 'thigh' && ps !== 'shank');
    if (hipLike) {
      // twist about -left: positive twist = flexion (the thigh forward); rest flexion from the thigh's direction
      const hip = ROM.hip;
      const flex0 = detMath.atan2(dot(d, forward), -dot(d, up));
      // the leg's side (its head along left): abduction turns it about side * forward; the cone is
      // centred half the difference of abduction and adduction toward abduction (7.5 degrees)
      const side = Math.sign(dot(sub(P.subarray(3 * i, 3 * i + 3), P.subarray(0, 3)), left)) || 1;
      const abd = (((hip.abduction - hip.adduction) / 2) * DEG) * side;
      out.push(ball('hip', scale(left, -1), [-hip.extension * DEG - flex0, hip.flexion * DEG - flex0],
        forward, ((hip.abduction + hip.adduction) / 2) * DEG, d, ((hip.internalRotation + hip.externalRotation) / 2) * DEG,
        abd !== 0 ? scale(forward, abd) : undefined));
      continue;
    }
    if (s === 'upperArm' && ps !== 'upperArm') {
      // the arm's side from its direction (else its head's position) along left; twist about +-forward: positive = abduction
      const sh = ROM.shoulder;
      let side = Math.sign(dot(d, left));
      if (side === 0) side = Math.sign(dot(sub(P.subarray(3 * i, 3 * i + 3), P.subarray(0, 3)), left)) || 1;
      const ab0 = detMath.atan2(side * dot(d, left), -dot(d, up));
      // (the cone stays on the rest pose: see the module comment on shoulders)
      out.push(ball('shoulder', scale(forward, side), [-sh.adduction * DEG - ab0, Math.min(sh.abduction * DEG - ab0, 175 * DEG)],
        left, ((sh.flexion + sh.extension) / 2) * DEG, d, ((sh.internalRotation + sh.externalRotation) / 2) * DEG));
      continue;
    }
    if (isSpine(i) || isNeck(i)) {
      const neck = isNeck(i), k = neck ? nNeck : nSpine;
      const r = neck ? ROM.cervicalSpine : ROM.thoracolumbarSpine;
      // twist about left: positive = flexion (the trunk bends forward)
      out.push(ball(neck ? 'neck' : 'spine', left, [(-r.extension / k) * DEG, (r.flexion / k) * DEG],
        forward, (r.lateralFlexion / k) * DEG, up, (r.rotation / k) * DEG));
      continue;
    }
    if (s === 'hand' && ps === 'forearm') {
      const wr = ROM.wrist, fa = ROM.forearm;
      out.push(ball('wrist', d, [-fa.supination * DEG, fa.pronation * DEG],
        left, ((wr.flexion + wr.extension) / 2) * DEG, forward, ((wr.radialDeviation + wr.ulnarDeviation) / 2) * DEG));
      continue;
    }
    if (s === 'foot' && (ps === 'shank' || ps === 'thigh')) {
      const an = ROM.ankle;
      // (inversion and eversion are mirrored on the two sides: the mean arc either way)
      const ie = ((an.inversion + an.eversion) / 2) * DEG;
      out.push(ball('ankle', d, [-ie, ie], left, ((an.dorsiflexion + an.plantarflexion) / 2) * DEG, up, 15 * DEG));
      continue;
    }
    out.push(small());
  }
  return out;
}
