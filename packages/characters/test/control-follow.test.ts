/**
 * Motion following (Kokkevis 8.3) of the CMU walk by the humanoid preset on a ground plane, at
 * 1/120 s: with a kinematic root the joints track the retargeted clip within a fraction of a degree
 * and the feet stay on the floor; with a free root and a bounded assist the character stays upright
 * for the whole clip (without the assist it falls); a 200 N s push at the chest is absorbed and the
 * walk recovers; the clock follows the World's. Errors are measured here from the body's q and the
 * trajectory's q (angle of Q^-1 Q_d for rotations), not by the follower's own report.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, ModelBuilder, momentum, State, type Model } from '@sinew/featherstone';
import { World } from '@sinew/constraints';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import { applyImpulse, CMU_TO_HUMANOID, MotionFollower, retargetClip, type RootMode } from '../src/control/index.js';

const DEG = 180 / Math.PI;
const DT = 1 / 120;
const bvh = importBvh(readFileSync(new URL('../../../../shared/data/bvh/cmu_02_01_walk.bvh', import.meta.url), 'utf8'), { scale: BVH_SCALE.cmu });
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
const traj = retargetClip(model, bvh.clip, { map: CMU_TO_HUMANOID, frames: [1, bvh.clip.frameCount - 1] }).trajectory;
const STEPS = Math.floor(traj.duration / DT);

/** Mean over the non-root joints of the joint error (rad): |q - q_d| for hinges, angle of Q^-1 Q_d for ball joints. */
function meanJointError(m: Model, q: ArrayLike<number>, target: ArrayLike<number>): number {
  let sum = 0, n = 0;
  for (let i = 1; i < m.nLinks; i++) {
    const o = m.qOffset[i];
    if (m.jointNq[i] === 1) sum += Math.abs(q[o] - target[o]);
    else sum += quatAngle(q, o, target, o);
    n++;
  }
  return sum / n;
}

function quatAngle(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  // vector part and scalar of conj(a) b
  const [ax, ay, az, aw] = [-a[ao], -a[ao + 1], -a[ao + 2], a[ao + 3]];
  const [bx, by, bz, bw] = [b[bo], b[bo + 1], b[bo + 2], b[bo + 3]];
  const x = aw * bx + ax * bw + ay * bz - az * by, y = aw * by - ax * bz + ay * bw + az * bx, z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  return 2 * Math.atan2(Math.hypot(x, y, z), Math.abs(w));
}

/** Lowest corner of the two foot boxes (world y). */
function soleHeight(s: State): number {
  let low = Infinity;
  for (const foot of ['foot_left', 'foot_right']) {
    const f = model.linkIndex(foot), P = s.work.pose;
    const hb = (model.shapes[f][0].geometry as { halfExtents: ArrayLike<number> }).halfExtents, c = model.shapes[f][0].position!;
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
      const l = [c[0] + sx * hb[0], c[1] + sy * hb[1], c[2] + sz * hb[2]];
      low = Math.min(low, P[12 * f + 3] * l[0] + P[12 * f + 4] * l[1] + P[12 * f + 5] * l[2] + P[12 * f + 10]);
    }
  }
  return low;
}

function walker(root: RootMode) {
  const world = new World({ timings: true });
  world.addStatic({ geometry: { type: 'plane' } });
  // the preset's mass-sized shapes overlap in ordinary poses (thighs at q = 0, feet in the walk): no self-collision while following
  const body = world.addBody(model, { name: 'walker', selfCollision: false });
  const follower = new MotionFollower(world, body, { trajectory: traj, root });
  return { world, body, follower };
}

describe('following the CMU walk on the humanoid preset', () => {
  it('kinematic root: mean joint error below 2 degrees, the root on its path, the feet never more than 1 cm into the ground', () => {
    const { world, body, follower } = walker('kinematic');
    const target = new Float64Array(model.nq);
    let sum = 0, worstFrame = 0, rootPos = 0, rootRot = 0, pen = 0, soles = Infinity, ms = 0;
    for (let s = 0; s < STEPS; s++) {
      const st = world.step(DT);
      expect(st.error).toBe('');
      ms += st.ms.rows + st.ms.dynamics + st.ms.k + st.ms.solve + st.ms.integrate + st.ms.stabilize;
      traj.sampleQ(follower.time, target);
      const e = meanJointError(model, body.state.q, target);
      sum += e;
      worstFrame = Math.max(worstFrame, e);
      rootPos = Math.max(rootPos, Math.hypot(body.state.q[0] - target[0], body.state.q[1] - target[1], body.state.q[2] - target[2]));
      rootRot = Math.max(rootRot, quatAngle(body.state.q, 3, target, 3));
      pen = Math.max(pen, st.maxPenetration);
      forwardKinematics(model, body.state, false);
      soles = Math.min(soles, soleHeight(body.state));
    }
    const mean = (sum / STEPS) * DEG;
    console.log(`kinematic root, ${STEPS} steps of 1/120 s (${(ms / STEPS).toFixed(2)} ms/step): mean joint error ${mean.toFixed(3)} deg (worst frame ${(worstFrame * DEG).toFixed(2)}), ` +
      `root within ${(rootPos * 1000).toFixed(2)} mm / ${(rootRot * DEG).toFixed(2)} deg, deepest contact ${(pen * 1000).toFixed(2)} mm, lowest sole corner ${(soles * 1000).toFixed(2)} mm`);
    expect(mean).toBeLessThan(2);
    expect(rootPos).toBeLessThan(0.005);
    expect(rootRot * DEG).toBeLessThan(2);
    expect(pen).toBeLessThan(0.01);
    expect(soles).toBeGreaterThan(-0.01);
  });

  it('free root with a bounded assist (half the body weight): upright for the whole clip; without the assist the character falls', () => {
    const run = (root: RootMode) => {
      const { world, body } = walker(root);
      let minPelvis = Infinity, maxTilt = 0, steps = 0;
      for (let s = 0; s < STEPS; s++) {
        expect(world.step(DT).error).toBe('');
        forwardKinematics(model, body.state, false);
        const P = body.state.work.pose, th = 12 * model.linkIndex('thorax');
        minPelvis = Math.min(minPelvis, P[10]);
        // trunk tilt: the thorax's long axis (link Y) against the vertical
        maxTilt = Math.max(maxTilt, Math.acos(Math.min(1, P[th + 4])) * DEG);
        steps++;
        if (minPelvis < 0.4) break;
      }
      return { minPelvis, maxTilt, steps };
    };
    const assisted = run('assisted');
    const free = run('free');
    console.log(`assisted: pelvis never below ${assisted.minPelvis.toFixed(3)} m (standing 0.928 m), trunk tilt at most ${assisted.maxTilt.toFixed(1)} deg; ` +
      `free: pelvis ${free.minPelvis.toFixed(3)} m after ${(free.steps * DT).toFixed(2)} s, tilt ${free.maxTilt.toFixed(0)} deg`);
    expect(assisted.steps).toBe(STEPS);
    expect(assisted.minPelvis).toBeGreaterThan(0.8);
    expect(assisted.maxTilt).toBeLessThan(20);
    expect(free.minPelvis).toBeLessThan(0.4);
    expect(free.steps).toBeLessThan(STEPS); // it falls before the clip ends
  });

  for (const root of ['kinematic', 'assisted'] as const) {
    it(`${root} root: a 200 N s push at the chest mid-walk; the error peaks, then returns below 5 degrees within 1 s`, () => {
      const { world, body, follower } = walker(root);
      const target = new Float64Array(model.nq);
      const th = model.linkIndex('thorax');
      const pushAt = Math.round(0.8 / DT);
      let peak = 0, back = -1, before = 0;
      for (let s = 0; s < pushAt + Math.round(1.0 / DT); s++) {
        if (s === pushAt) {
          forwardKinematics(model, body.state, true);
          const P = body.state.work.pose;
          // the front of the chest, pushed backwards (the walk goes along +Z)
          follower.hit({ link: th, point: [P[12 * th + 9], P[12 * th + 10] + 0.15, P[12 * th + 11] + 0.1], impulse: [0, 0, -200] });
        }
        expect(world.step(DT).error).toBe('');
        traj.sampleQ(follower.time, target);
        const e = meanJointError(model, body.state.q, target) * DEG;
        if (s < pushAt) before = Math.max(before, e);
        else {
          if (e > peak) peak = e;
          if (back < 0 && s > pushAt + 1 && e < 5) back = (s - pushAt + 1) * DT;
        }
      }
      console.log(`${root}: error before the push at most ${before.toFixed(2)} deg, peak ${peak.toFixed(1)} deg, below 5 deg again after ${back.toFixed(3)} s (tone back to ${follower.currentTone.toFixed(2)})`);
      expect(before).toBeLessThan(5);
      expect(peak).toBeGreaterThan(5);
      expect(back).toBeGreaterThan(0);
      expect(back).toBeLessThan(1);
      expect(follower.currentTone).toBe(1);
    });
  }

  it('the follower\'s clock is the World\'s times the playback rate, sub-steps included', () => {
    const world = new World({ substeps: 3 });
    const body = world.addBody(model, { selfCollision: false });
    const f = new MotionFollower(world, body, { trajectory: traj, startTime: 0.5, playbackRate: 0.5 });
    for (let s = 0; s < 12; s++) world.step(DT);
    expect(f.time).toBeCloseTo(0.5 + 0.5 * 12 * DT, 12);
    f.playbackRate = 2;
    for (let s = 0; s < 6; s++) world.step(DT);
    expect(f.time).toBeCloseTo(0.5 + 0.5 * 12 * DT + 2 * 6 * DT, 12);
  });
});

describe('impulses through the body\'s dynamics (velocity jump M^-1 J^T p)', () => {
  it('change the body\'s momentum by exactly p and its angular momentum by r x p (featherstone\'s momentum, no deltas involved)', () => {
    const s = new State(model);
    traj.sampleQ(1.0, s.q);
    traj.sampleQd(1.0, s.qd);
    forwardKinematics(model, s, true);
    const before = momentum(model, s, new Float64Array(6));
    const th = model.linkIndex('thorax');
    const point = [s.work.pose[12 * th + 9] + 0.05, s.work.pose[12 * th + 10] + 0.2, s.work.pose[12 * th + 11] + 0.1];
    const p = [30, -10, -80];
    applyImpulse(model, s, th, point, p);
    const after = momentum(model, s, new Float64Array(6));
    const rxp = [point[1] * p[2] - point[2] * p[1], point[2] * p[0] - point[0] * p[2], point[0] * p[1] - point[1] * p[0]];
    for (let k = 0; k < 3; k++) {
      expect(after[3 + k] - before[3 + k]).toBeCloseTo(p[k], 9);
      expect(after[k] - before[k]).toBeCloseTo(rxp[k], 9);
    }
  });

  it('with the root held (a kinematic root), the root keeps its velocity and the joints take the jump: K of the held rows solved exactly', () => {
    // a small tree where M can be checked by hand: a free block and a hinged arm
    const b = new ModelBuilder({ gravity: [0, 0, 0] });
    b.addLink({ name: 'block', parent: null, joint: { type: 'free' }, mass: 5, inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
    b.addLink({ name: 'arm', parent: 'block', joint: { type: 'revolute', axis: [0, 0, 1], position: [0.2, 0, 0] }, mass: 1, com: [0.3, 0, 0], inertia: [0.001, 0.03, 0.03, 0, 0, 0] });
    const m = b.build();
    const s = new State(m);
    forwardKinematics(m, s, true);
    // a unit impulse along +Y at the arm's tip (0.8, 0, 0): with the block held, the hinge alone takes it:
    // I_hinge dw = r p with I_hinge = 0.03 + 1 * 0.3^2 = 0.12 about the hinge, r = 0.6 m from the hinge
    const jump = applyImpulse(m, s, 1, [0.8, 0, 0], [0, 1, 0], { hold: [0, 1, 2, 3, 4, 5] });
    for (let k = 0; k < 6; k++) expect(Math.abs(s.qd[k])).toBeLessThan(1e-12);
    expect(jump[6]).toBeCloseTo(0.6 / 0.12, 10);
  });
});
