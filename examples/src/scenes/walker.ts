/**
 * The walking humanoid of the 'death' and 'follow' scenes: the humanoid preset, the CMU walk
 * (subject 02, trial 01, BVH) retargeted onto it with retargetClip and CMU_TO_HUMANOID, and, for a
 * walk that never ends, one gait cycle of it repeated around a circle (walkingCircle).
 */
import { characterFromJSON, humanoid, importBvh, BVH_SCALE, CMU_TO_HUMANOID, JointTrajectory, retargetClip, type RetargetedClip } from '@sinew/characters';
import { forwardKinematics, JointType, setJointDampingTimeConstant, State, type Model } from '@sinew/featherstone';
import type { SceneContext, SceneView } from '../sim/scene.js';

export const CMU_WALK = 'data/cmu_02_01_walk.bvh';

/**
 * Colours of the humanoid preset's links in link order (pelvis, abdomen, thorax, left arm, right
 * arm, left leg, right leg, head): trousers, shirt with short sleeves, skin, shoes.
 */
export const WALKER_COLORS = [
  0x3b4252, 0x5a9bd4, 0x4f7cac,
  0x4f7cac, 0xd9a27a, 0xd9a27a, 0x4f7cac, 0xd9a27a, 0xd9a27a,
  0x3b4252, 0x3b4252, 0x2a2f38, 0x3b4252, 0x3b4252, 0x2a2f38,
  0xd9a27a,
];

/**
 * The humanoid preset (1.8 m, 75 kg, no drives of its own), with viscous damping at every joint
 * but the root: a limp ragdoll's muscles and tissue are not frictionless. The damping is given as
 * a rate (1/s) and sized by the inertia each joint moves (setJointDampingTimeConstant with time
 * constant 1 / rate), so a hand settles as quickly as a hip.
 */
export function humanoidModel(options: { height?: number; mass?: number; dampingRate?: number } = {}): Model {
  const model = characterFromJSON(humanoid({ height: options.height ?? 1.8, mass: options.mass ?? 75, driveSettleTime: null })).model;
  const rate = options.dampingRate ?? 0;
  if (rate > 0) setJointDampingTimeConstant(model, 1 / rate);
  return model;
}

/** The CMU walk on the humanoid (frame 0 of cgspeed's files is a reference pose: it starts at frame 1). */
export function walkOnHumanoid(ctx: SceneContext, model: Model): RetargetedClip {
  const bvh = importBvh(ctx.asset(CMU_WALK), { scale: BVH_SCALE.cmu, file: CMU_WALK, name: 'cmu_02_01 walk' });
  return retargetClip(model, bvh.clip, { map: CMU_TO_HUMANOID, frames: [1, bvh.clip.frameCount - 1] });
}

// small quaternion helpers ([x, y, z, w])
type Q = [number, number, number, number];
const qmul = (a: ArrayLike<number>, b: ArrayLike<number>): Q => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const yawQ = (psi: number): Q => [0, Math.sin(psi / 2), 0, Math.cos(psi / 2)];
/** Heading of a rotation (a quaternion [x, y, z, w]): the angle about +Y of its forward (+Z) axis. */
export function yawOf(q: ArrayLike<number>): number {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const fx = 2 * (x * z + w * y), fz = 1 - 2 * (x * x + y * y);
  return Math.atan2(fx, fz);
}
function nlerp(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, f: number, out: Float64Array, oo: number): void {
  const s = a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3] < 0 ? -1 : 1;
  let n = 0;
  for (let c = 0; c < 4; c++) { out[oo + c] = (1 - f) * a[ao + c] + f * s * b[bo + c]; n += out[oo + c] ** 2; }
  n = Math.sqrt(n);
  for (let c = 0; c < 4; c++) out[oo + c] /= n;
}

/**
 * Finds one gait cycle in a walking trajectory: frames a < b, b - a between 0.9 and 1.4 s of
 * motion and a after `skip` seconds (the start of the walk), whose joint poses (all but the root's
 * heading and horizontal position) differ least.
 */
export function findCycle(traj: JointTrajectory, skip = 0.8): { a: number; b: number; distance: number } {
  const m = traj.model, nq = m.nq, Q = traj.q, t = traj.times;
  let best = { a: 0, b: traj.frameCount - 1, distance: Infinity };
  const dist = (i: number, j: number): number => {
    let d = 0;
    for (let l = 0; l < m.nLinks; l++) {
      const qo = m.qOffset[l];
      const oi = i * nq + qo, oj = j * nq + qo;
      switch (m.jointType[l]) {
        case JointType.revolute: d += (Q[oi] - Q[oj]) ** 2; break;
        case JointType.spherical: {
          const dot = Math.abs(Q[oi] * Q[oj] + Q[oi + 1] * Q[oj + 1] + Q[oi + 2] * Q[oj + 2] + Q[oi + 3] * Q[oj + 3]);
          d += (2 * Math.acos(Math.min(1, dot))) ** 2;
          break;
        }
        case JointType.free: {
          d += 10 * (Q[oi + 1] - Q[oj + 1]) ** 2; // height
          // the root's tilt: its rotation with the heading taken out
          const qi = qmul(yawQ(-yawOf(Q.subarray(oi + 3, oi + 7))), Q.subarray(oi + 3, oi + 7));
          const qj = qmul(yawQ(-yawOf(Q.subarray(oj + 3, oj + 7))), Q.subarray(oj + 3, oj + 7));
          const dot = Math.abs(qi[0] * qj[0] + qi[1] * qj[1] + qi[2] * qj[2] + qi[3] * qj[3]);
          d += (2 * Math.acos(Math.min(1, dot))) ** 2;
          break;
        }
      }
    }
    return d;
  };
  for (let a = 0; a < traj.frameCount; a++) {
    if (t[a] - t[0] < skip) continue;
    for (let b = a + 1; b < traj.frameCount; b++) {
      const T = t[b] - t[a];
      if (T < 0.9) continue;
      if (T > 1.4) break;
      const d = dist(a, b);
      if (d < best.distance) best = { a, b, distance: d };
    }
  }
  if (!Number.isFinite(best.distance)) throw new Error(`findCycle: no gait cycle of 0.9 to 1.4 s after ${skip} s in "${traj.name}"`);
  return best;
}

/**
 * An endless walk: the gait cycle [a, b) of a trajectory repeated `laps` times, each repetition
 * carried on from where the last one ended and turned so that the path bends into a closed circle
 * (the heading turns evenly, 2 pi / laps per cycle, the root's steps rotated with it), centred on
 * the origin; a looping trajectory. The last `blend` seconds of each cycle crossfade into the
 * frames before a, so that the joints run on smoothly into the next cycle. The root joint frame
 * must be unrotated (the humanoid preset's is).
 */
export function walkingCircle(traj: JointTrajectory, laps = 12, blend = 0.12): JointTrajectory {
  const m = traj.model, nq = m.nq, Q = traj.q, times = traj.times;
  if (m.jointType[0] !== JointType.free || m.qOffset[0] !== 0) throw new RangeError('walkingCircle: the root must be a free joint, link 0');
  const { a, b } = findCycle(traj);
  const n = b - a;
  const T = times[b] - times[a];
  const delta = yawOf(Q.subarray(b * nq + 3, b * nq + 7)) - yawOf(Q.subarray(a * nq + 3, a * nq + 7));
  const extra = (2 * Math.PI) / laps - delta;
  const W = Math.min(Math.round(blend / (T / n)), a, n - 1);
  // one cycle of joint poses with the crossfade at its end
  const cycle = new Float64Array(n * nq);
  for (let j = 0; j < n; j++) cycle.set(Q.subarray((a + j) * nq, (a + j + 1) * nq), j * nq);
  for (let j = n - W; j < n; j++) {
    const f = (j - (n - W) + 1) / (W + 1); // 0 -> 1 over the window
    const src = (a + j - n) * nq, o = j * nq; // the frame as far before a as j is before b
    for (let l = 1; l < m.nLinks; l++) {
      const qo = m.qOffset[l];
      if (m.jointType[l] === JointType.spherical) nlerp(cycle, o + qo, Q, src + qo, f, cycle, o + qo);
      else if (m.jointType[l] === JointType.revolute || m.jointType[l] === JointType.prismatic) cycle[o + qo] = (1 - f) * cycle[o + qo] + f * Q[src + qo];
    }
    cycle[o + 1] = (1 - f) * cycle[o + 1] + f * Q[src + 1]; // root height
  }
  const total = laps * n + 1;
  const out = new Float64Array(total * nq);
  const outTimes = new Float64Array(total);
  let x = 0, z = 0;
  for (let c = 0, k = 0; c <= laps; c++) {
    for (let j = 0; j < n && k < total; j++, k++) {
      const o = k * nq, src = j * nq;
      out.set(cycle.subarray(src, src + nq), o);
      const psi = c * (extra + delta) + (extra * j) / n;
      // the root's step since the last frame, turned by the heading change so far
      if (k > 0) {
        // from the frame before (at j = 0, the end of the last cycle: frame b - 1 to frame b)
        const to = j > 0 ? a + j : b;
        const dx = Q[to * nq] - Q[(to - 1) * nq], dz = Q[to * nq + 2] - Q[(to - 1) * nq + 2];
        const cs = Math.cos(psi), sn = Math.sin(psi);
        x += cs * dx + sn * dz;
        z += -sn * dx + cs * dz;
      }
      out[o] = x;
      out[o + 2] = z;
      const r = qmul(yawQ(psi), cycle.subarray(src + 3, src + 7));
      out.set(r, o + 3);
      outTimes[k] = (k * T) / n;
    }
  }
  // centred on the origin
  let cx = 0, cz = 0;
  for (let k = 0; k < total - 1; k++) { cx += out[k * nq] / (total - 1); cz += out[k * nq + 2] / (total - 1); }
  for (let k = 0; k < total; k++) { out[k * nq] -= cx; out[k * nq + 2] -= cz; }
  return new JointTrajectory(m, outTimes, out, { wrap: 'loop', name: `${traj.name} (circle)`, differenceStep: traj.differenceStep });
}

/**
 * The target pose of a trajectory at a time, drawn as a stick figure (a line from each joint to
 * its children's, and along the leaves): where the drives are pulling the body.
 */
export class Ghost {
  private readonly state: State;
  private data = new Float64Array(0);

  constructor(readonly model: Model) {
    this.state = new State(model);
    this.data = new Float64Array(6 * 2 * model.nLinks);
  }

  /** Draws the pose at time t; `overlay` draws it over the body instead of hidden inside it. */
  draw(view: SceneView, key: string, trajectory: JointTrajectory, t: number, color = 0x9fe3ff, overlay = false): void {
    const m = this.model, s = this.state;
    trajectory.sampleQ(t, s.q);
    forwardKinematics(m, s, false);
    const P = s.work.pose, d = this.data;
    let n = 0;
    for (let i = 0; i < m.nLinks; i++) {
      const po = 12 * i;
      const ends: number[][] = [];
      for (const c of m.children[i]) ends.push([P[12 * c + 9], P[12 * c + 10], P[12 * c + 11]]);
      if (ends.length === 0) {
        const cx = 2 * m.com[3 * i], cy = 2 * m.com[3 * i + 1], cz = 2 * m.com[3 * i + 2];
        ends.push([0, 1, 2].map((k) => P[po + 3 * k] * cx + P[po + 3 * k + 1] * cy + P[po + 3 * k + 2] * cz + P[po + 9 + k]));
      }
      for (const e of ends) {
        if (6 * (n + 1) > d.length) break;
        d.set([P[po + 9], P[po + 10], P[po + 11], e[0], e[1], e[2]], 6 * n++);
      }
    }
    view.lines(key, d, n, color, overlay);
  }
}

/** The path of a trajectory's root on the floor (a closed loop for a looping one), as line segments. */
export function rootPath(trajectory: JointTrajectory, every = 4, height = 0.005): Float64Array {
  const n = trajectory.frameCount;
  const keys: number[] = [];
  for (let k = 0; k < n; k += every) keys.push(k);
  if (keys[keys.length - 1] !== n - 1) keys.push(n - 1);
  const out = new Float64Array(6 * (keys.length - 1));
  const p = new Float64Array(3), q = new Float64Array(3);
  for (let j = 0; j + 1 < keys.length; j++) {
    trajectory.rootPosition(keys[j], p);
    trajectory.rootPosition(keys[j + 1], q);
    out.set([p[0], height, p[2], q[0], height, q[2]], 6 * j);
  }
  return out;
}
