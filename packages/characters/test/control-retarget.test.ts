/**
 * The CMU walk (02_01, BVH) retargeted onto the humanoid preset: after rest-pose alignment every
 * limb of the preset points where the actor's bone points, frame by frame (checked against the
 * BVH skeleton's own forward kinematics); the corrections are the T-pose differences read off the
 * BVH offsets; the root's path is the actor's, scaled; every key lies inside the joint limits and
 * on the floor. JointTrajectory's finite differences are checked against closed-form motion.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, integrateJoint, JointType, ModelBuilder, State, type Model } from '@sinew/featherstone';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import { CMU_TO_HUMANOID, JointTrajectory, modelStandingHeight, retargetClip } from '../src/control/index.js';

const DEG = 180 / Math.PI;
const bvh = importBvh(readFileSync(new URL('../../../../shared/data/bvh/cmu_02_01_walk.bvh', import.meta.url), 'utf8'), { scale: BVH_SCALE.cmu });
const H = 1.75;
const model = characterFromJSON(humanoid({ height: H, mass: 70 })).model;
// frame 0 of cgspeed's CMU BVH files is a reference pose, not part of the walk
const rc = retargetClip(model, bvh.clip, { map: CMU_TO_HUMANOID, frames: [1, bvh.clip.frameCount - 1] });
const traj = rc.trajectory;

function keyState(k: number): State {
  const s = new State(model);
  s.q.set(traj.q.subarray(k * model.nq, (k + 1) * model.nq));
  forwardKinematics(model, s, false);
  return s;
}

/** q v q* for a quaternion [x, y, z, w]. */
function rotate(q: ArrayLike<number>, v: number[]): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]), v[2] + w * t[2] + (x * t[1] - y * t[0])];
}

const angleBetween = (a: number[], b: number[]) => Math.acos(Math.min(1, Math.max(-1, (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (Math.hypot(...a) * Math.hypot(...b)))));

/** Excursion (rad) of q past every joint's limits, computed here from the limit definitions (swing-twist, elliptical cone). */
function limitExcess(m: Model, q: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < m.nLinks; i++) {
    const qo = m.qOffset[i];
    if (m.jointType[i] === JointType.revolute) {
      const d = m.vOffset[i];
      worst = Math.max(worst, m.lower[d] - q[qo], q[qo] - m.upper[d]);
    } else if (m.jointType[i] === JointType.spherical && m.sphericalLimits[i]) {
      const L = m.sphericalLimits[i]!;
      const a = Array.from(L.twistAxis);
      const [x, y, z, w] = [q[qo], q[qo + 1], q[qo + 2], q[qo + 3]];
      // b = R a; swing angle between a and b; swing axis a x b
      const R = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
      const b = [0, 1, 2].map((r) => R[3 * r] * a[0] + R[3 * r + 1] * a[1] + R[3 * r + 2] * a[2]);
      const c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
      const theta = angleBetween(a, b);
      let cone = Math.max(L.swing[0], L.swing[1]);
      const sn = Math.hypot(...c);
      if (sn > 1e-9) {
        // u: a's perpendicular nearest X (or Z), v = a x u
        let u = [1 - a[0] * a[0], -a[0] * a[1], -a[0] * a[2]];
        if (Math.hypot(...u) < 1e-6) u = [-a[2] * a[0], -a[2] * a[1], 1 - a[2] * a[2]];
        u = u.map((e) => e / Math.hypot(...u));
        const v = [a[1] * u[2] - a[2] * u[1], a[2] * u[0] - a[0] * u[2], a[0] * u[1] - a[1] * u[0]];
        const nu = (c[0] * u[0] + c[1] * u[1] + c[2] * u[2]) / sn, nv = (c[0] * v[0] + c[1] * v[1] + c[2] * v[2]) / sn;
        cone = 1 / Math.hypot(nu / L.swing[0], nv / L.swing[1]);
      }
      let psi = 2 * Math.atan2(x * a[0] + y * a[1] + z * a[2], w);
      if (psi > Math.PI) psi -= 2 * Math.PI;
      if (psi < -Math.PI) psi += 2 * Math.PI;
      worst = Math.max(worst, theta - cone, L.twist[0] - psi, psi - L.twist[1]);
    }
  }
  return worst;
}

describe('the CMU walk retargeted onto the humanoid preset', () => {
  it('every limb and trunk segment points where the actor\'s bone points, in every frame', () => {
    const sk = bvh.skeleton;
    // bone (head -> child head) against link (joint origin -> child joint origin)
    const pairs: [string, string, string, string][] = [
      ['LeftUpLeg', 'LeftLeg', 'thigh_left', 'shank_left'], ['RightUpLeg', 'RightLeg', 'thigh_right', 'shank_right'],
      ['LeftLeg', 'LeftFoot', 'shank_left', 'foot_left'], ['RightLeg', 'RightFoot', 'shank_right', 'foot_right'],
      ['LeftArm', 'LeftForeArm', 'upper_arm_left', 'forearm_left'], ['RightArm', 'RightForeArm', 'upper_arm_right', 'forearm_right'],
      ['LeftForeArm', 'LeftHand', 'forearm_left', 'hand_left'], ['RightForeArm', 'RightHand', 'forearm_right', 'hand_right'],
      ['Spine', 'Spine1', 'abdomen', 'thorax'],
    ];
    const pose = bvh.clip.createPose();
    const worst: Record<string, number> = {};
    for (let k = 0; k < traj.frameCount; k++) {
      const s = keyState(k);
      const W = sk.worldPose(bvh.clip.frame(k + 1, pose));
      const P = s.work.pose;
      for (const [b1, b2, l1, l2] of pairs) {
        const i1 = sk.indexOf(b1), i2 = sk.indexOf(b2), j1 = model.linkIndex(l1), j2 = model.linkIndex(l2);
        const d = rotate(rc.floorRotation, [0, 1, 2].map((c) => W.positions[3 * i2 + c] - W.positions[3 * i1 + c]));
        const e = [0, 1, 2].map((c) => P[12 * j2 + 9 + c] - P[12 * j1 + 9 + c]);
        worst[l1] = Math.max(worst[l1] ?? 0, angleBetween(d, e) * DEG);
      }
    }
    // (the actor's directions turned by the rotation that levelled the capture floor)
    const tilt = rc.floorTilt * DEG;
    console.log(`worst direction gap (deg) over ${traj.frameCount} frames (floor levelled by ${tilt.toFixed(2)} deg):`, Object.entries(worst).map(([k, v]) => `${k} ${v.toExponential(1)}`).join(', '));
    expect(tilt).toBeLessThan(3);
    for (const v of Object.values(worst)) expect(v).toBeLessThan(1e-3);
  });

  it('the alignment undoes the T-pose: arms turned down by 90 degrees, legs brought together by the CMU spread', () => {
    const al = rc.alignment!;
    const angle = (bone: string) => al.angles[bvh.skeleton.indexOf(bone)] * DEG;
    // CMU 02_01's thigh runs along its LeftLeg offset (2.59720, -7.13576, 0): 20.0 degrees off vertical
    const spread = Math.atan2(2.5972, 7.13576) * DEG;
    expect(angle('LeftUpLeg')).toBeCloseTo(spread, 1);
    expect(angle('RightUpLeg')).toBeCloseTo(Math.atan2(2.59502, 7.12977) * DEG, 1);
    // arms straight out (LeftForeArm offset along +X) turned to hang: 90 degrees, plus the turn about
    // the arm that puts the actor's elbow axis on the preset's
    expect(angle('LeftArm')).toBeGreaterThan(89);
    expect(angle('LeftArm')).toBeLessThan(100);
    // the feet and hands keep their rest pose relative to the shank and forearm
    expect(al.corrections.subarray(4 * bvh.skeleton.indexOf('LeftFoot'), 4 * bvh.skeleton.indexOf('LeftFoot') + 4))
      .toEqual(al.corrections.subarray(4 * bvh.skeleton.indexOf('LeftLeg'), 4 * bvh.skeleton.indexOf('LeftLeg') + 4));
  });

  it('a stance foot lies flat on the floor (the actor\'s feet are rolled 20 degrees in the BVH rest pose)', () => {
    const tilts: number[] = [];
    for (let k = 0; k < traj.frameCount; k++) {
      const s = keyState(k);
      for (const foot of ['foot_left', 'foot_right']) {
        const f = model.linkIndex(foot), P = s.work.pose;
        // the foot's sole height: its box's lowest corner; a stance foot is within 5 mm of the floor and its origin slow
        const k2 = Math.min(traj.frameCount - 1, k + 1);
        const s2 = keyState(k2);
        const speed = Math.hypot(s2.work.pose[12 * f + 9] - P[12 * f + 9], s2.work.pose[12 * f + 11] - P[12 * f + 11]) / (traj.times[k2] - traj.times[k] || 1);
        const hb = model.shapes[f][0].geometry as { halfExtents: ArrayLike<number> };
        const c = model.shapes[f][0].position!;
        let low = Infinity;
        for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
          const l = [c[0] + sx * hb.halfExtents[0], c[1] + sy * hb.halfExtents[1], c[2] + sz * hb.halfExtents[2]];
          low = Math.min(low, P[12 * f + 3] * l[0] + P[12 * f + 4] * l[1] + P[12 * f + 5] * l[2] + P[12 * f + 10]);
        }
        if (low < 0.005 && speed < 0.2) tilts.push(Math.acos(Math.min(1, P[12 * f + 4])) * DEG);
      }
    }
    tilts.sort((a, b) => a - b);
    const median = tilts[Math.floor(tilts.length / 2)];
    console.log(`stance feet: ${tilts.length} foot-frames, tilt of the sole median ${median.toFixed(1)} deg, 90th percentile ${tilts[Math.floor(0.9 * tilts.length)].toFixed(1)} deg`);
    expect(tilts.length).toBeGreaterThan(traj.frameCount / 2);
    expect(median).toBeLessThan(6);
  });

  it('the root follows the actor\'s path scaled by the ratio of standing heights', () => {
    // the preset's pelvis joint is at Winter's hip height 0.530 H above the soles
    expect(modelStandingHeight(model)).toBeCloseTo(0.53 * H, 9);
    const first = bvh.clip.createPose(), last = bvh.clip.createPose();
    bvh.clip.frame(1, first);
    bvh.clip.frame(bvh.clip.frameCount - 1, last);
    const actor = Math.hypot(last.translations[0] - first.translations[0], last.translations[2] - first.translations[2]);
    const p0 = traj.rootPosition(0), p1 = traj.rootPosition(traj.frameCount - 1);
    const ours = Math.hypot(p1[0] - p0[0], p1[2] - p0[2]);
    console.log(`actor walks ${actor.toFixed(3)} m, the preset ${ours.toFixed(3)} m (scale ${rc.translationScale.toFixed(4)})`);
    expect(ours / actor).toBeCloseTo(rc.translationScale, 2);
    expect(rc.translationScale).toBeGreaterThan(0.8);
    expect(rc.translationScale).toBeLessThan(1.2);
    // the walk starts above the origin
    expect(Math.hypot(p0[0], p0[2])).toBeLessThan(1e-9);
  });

  it('every key lies inside the joint limits and on the floor', () => {
    let worst = 0;
    const lows: number[] = [];
    for (let k = 0; k < traj.frameCount; k++) {
      worst = Math.max(worst, limitExcess(model, traj.q.subarray(k * model.nq, (k + 1) * model.nq)));
      const s = keyState(k), P = s.work.pose;
      let low = Infinity;
      for (const foot of ['foot_left', 'foot_right']) {
        const f = model.linkIndex(foot);
        const hb = (model.shapes[f][0].geometry as { halfExtents: ArrayLike<number> }).halfExtents, c = model.shapes[f][0].position!;
        for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
          const l = [c[0] + sx * hb[0], c[1] + sy * hb[1], c[2] + sz * hb[2]];
          low = Math.min(low, P[12 * f + 3] * l[0] + P[12 * f + 4] * l[1] + P[12 * f + 5] * l[2] + P[12 * f + 10]);
        }
      }
      lows.push(low);
    }
    lows.sort((a, b) => a - b);
    console.log(`limits: worst excess ${(worst * DEG).toExponential(1)} deg after a projection that moved targets by up to ${(rc.limitCorrection * DEG).toFixed(1)} deg; ` +
      `lowest sole point per frame: min ${(lows[0] * 1000).toFixed(1)} mm, median ${(lows[lows.length >> 1] * 1000).toFixed(1)} mm, max ${(lows[lows.length - 1] * 1000).toFixed(1)} mm`);
    expect(worst).toBeLessThan(1e-9);
    expect(Math.abs(lows[lows.length >> 1])).toBeLessThan(0.003);
    // a swing foot scuffing lower than the stance feet (the contacts hold it at the floor)
    expect(lows[0]).toBeGreaterThan(-0.02);
  });
});

describe('JointTrajectory: velocities and accelerations by differences on the joints\' manifolds', () => {
  // a revolute joint, a spherical joint turning about a fixed axis, a free root moving on a circle
  const b = new ModelBuilder();
  b.addLink({ name: 'root', parent: null, joint: { type: 'free' }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
  b.addLink({ name: 'ball', parent: 'root', joint: { type: 'spherical', position: [0, 1, 0] }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
  b.addLink({ name: 'hinge', parent: 'ball', joint: { type: 'revolute', axis: [1, 0, 0], position: [0, 1, 0] }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
  const m = b.build();
  const axis = [0.6, 0, 0.8];
  const qAt = (t: number): number[] => {
    const th = t * t; // spherical angle t^2 about `axis`: w = 2t axis, dw/dt = 2 axis
    const s = Math.sin(th / 2), c = Math.cos(th / 2);
    // root: position (cos t, 0, sin t), no rotation
    return [Math.cos(t), 0, Math.sin(t), 0, 0, 0, 1, axis[0] * s, axis[1] * s, axis[2] * s, c, Math.sin(t)];
  };
  const times = Array.from({ length: 401 }, (_, k) => k / 200);
  const tr = new JointTrajectory(m, times, times.flatMap(qAt), { differenceStep: 1 / 200 });

  it('qd and qdd match the closed forms to the order of the difference step', () => {
    for (const t of [0.3, 0.77, 1.5]) {
      const qd = tr.sampleQd(t), qdd = tr.sampleQdd(t);
      // root: link-frame origin velocity = world velocity (no rotation): (-sin t, 0, cos t); acceleration (-cos t, 0, -sin t)
      expect(qd[3]).toBeCloseTo(-Math.sin(t), 4);
      expect(qd[5]).toBeCloseTo(Math.cos(t), 4);
      expect(qdd[3]).toBeCloseTo(-Math.cos(t), 3);
      expect(qdd[5]).toBeCloseTo(-Math.sin(t), 3);
      // spherical: body angular velocity 2t axis (a fixed axis is the same in the body frame), acceleration 2 axis
      for (let c = 0; c < 3; c++) {
        expect(qd[6 + c]).toBeCloseTo(2 * t * axis[c], 4);
        expect(qdd[6 + c]).toBeCloseTo(2 * axis[c], 3);
      }
      expect(qd[9]).toBeCloseTo(Math.cos(t), 4);
      expect(qdd[9]).toBeCloseTo(-Math.sin(t), 3);
    }
  });

  it('qd carries q(t - h/2) to q(t + h/2) through featherstone\'s integrator', () => {
    const h = tr.differenceStep;
    const t = 0.9;
    const qd = tr.sampleQd(t);
    const q = tr.sampleQ(t - h / 2);
    for (let i = 0; i < m.nLinks; i++) integrateJoint(m.jointType[i], q, m.qOffset[i], qd, m.vOffset[i], h);
    const want = tr.sampleQ(t + h / 2);
    for (let k = 0; k < m.nq; k++) expect(q[k]).toBeCloseTo(want[k], 9);
  });
});
