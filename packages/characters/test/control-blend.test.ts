/**
 * Per-link blending between animation and physics (AnimationBlend) on the humanoid preset walking
 * the CMU walk at 1/120 s: links at w = 0 follow the clip exactly while the others are simulated;
 * weights changed over time never pop a joint's velocity.
 *
 * The velocity measure: at each step, the largest change of any measured joint velocity across
 * the step (rad/s; ball joints per component of their body-frame rate; the free root's linear rate
 * in m/s). Its yardstick, C, is the clip's own sharpest step: the same measure over the same seconds with every link at w = 0 (the
 * body played kinematically, each joint moving at the clip's rate, so C is the clip's largest
 * velocity change per step: 6.25 rad/s, from the wrists' mocap noise). Errors are measured here
 * from the body's q and the trajectory's q.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Model } from '@sinew/featherstone';
import { World } from '@sinew/constraints';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import { AnimationBlend, CMU_TO_HUMANOID, jointErrors, MotionFollower, retargetClip, type RootMode } from '../src/control/index.js';

const DT = 1 / 120;
const STEPS = 240;
const bvh = importBvh(readFileSync(new URL('../../../../shared/data/bvh/cmu_02_01_walk.bvh', import.meta.url), 'utf8'), { scale: BVH_SCALE.cmu });
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
const traj = retargetClip(model, bvh.clip, { map: CMU_TO_HUMANOID, frames: [1, bvh.clip.frameCount - 1] }).trajectory;
const ARM = ['upper_arm_right', 'forearm_right', 'hand_right'];
const JOINTS = model.linkNames.slice(1);
/** The hit on the forearm (N s, backwards at its joint). */
const IMPULSE = 3;
const UPPER = ['abdomen', 'thorax', 'head', 'upper_arm_left', 'forearm_left', 'hand_left', 'upper_arm_right', 'forearm_right', 'hand_right'];

function dofsOf(m: Model, links: readonly string[]): number[] {
  const out: number[] = [];
  for (const l of links) { const i = m.linkIndex(l); for (let d = m.vOffset[i]; d < m.vOffset[i] + m.jointNv[i]; d++) out.push(d); }
  return out;
}

interface Walk {
  /** Per step: the largest change of a measured joint velocity across it (rad/s). */
  jumps: number[];
  /** Per step: the largest joint error (rad) over `exact` links after it. */
  exactError: number[];
  /** Per step: the weight of the first measured link during it. */
  weights: number[];
  /** Pelvis height per step (m). */
  pelvisY: number[];
  blend: AnimationBlend;
}

/** The walk with a blend; `script(step, blend, follower)` runs before each blend.update. */
function walk(o: { root?: RootMode; weight: number; groups?: Record<string, number>; blendTime?: number; measure: readonly string[]; exact?: readonly string[];
  script?: (s: number, b: AnimationBlend, f: MotionFollower) => void; }): Walk {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(model, { name: 'walker', selfCollision: false });
  const follower = new MotionFollower(world, body, { trajectory: traj, root: o.root ?? 'kinematic' });
  const blend = new AnimationBlend(follower, { weight: o.weight, groups: o.groups, blendTime: o.blendTime });
  const dofs = dofsOf(model, o.measure), prev = Float64Array.from(body.state.qd), target = new Float64Array(model.nq);
  const w: Walk = { jumps: [], exactError: [], weights: [], pelvisY: [], blend };
  const first = model.linkIndex(o.measure[0]);
  for (let s = 0; s < STEPS; s++) {
    o.script?.(s, blend, follower);
    blend.update(DT);
    w.weights.push(blend.weights[first]);
    const r = world.step(DT);
    expect(r.error).toBe('');
    let j = 0;
    for (const d of dofs) j = Math.max(j, Math.abs(body.state.qd[d] - prev[d]));
    prev.set(body.state.qd);
    w.jumps.push(j);
    if (o.exact) {
      traj.sampleQ(follower.time, target);
      const e = jointErrors(model, body.state.q, target);
      let worst = 0;
      for (const l of o.exact) worst = Math.max(worst, e[model.jointNames[model.linkIndex(l)]]);
      w.exactError.push(worst);
    }
    w.pelvisY.push(body.state.q[1]);
  }
  return w;
}

const max = (a: readonly number[]) => a.reduce((x, y) => Math.max(x, y), 0);

/** C: the clip's own largest velocity change per step over the same seconds (every link kinematic). */
const CLIP_JUMP = max(walk({ weight: 0, measure: model.linkNames }).jumps);

describe('AnimationBlend: per-link weights between animation (0), motors (0 < w < 1) and limp (1)', () => {
  it('the clip itself changes a joint velocity by at most C = 6.25 rad/s in one step (the yardstick of the bounds below)', () => {
    // recorded from this clip and step (the wrists' mocap noise); a blend bug cannot change it
    expect(CLIP_JUMP).toBeGreaterThan(5);
    expect(CLIP_JUMP).toBeLessThan(7);
  });

  it('(a) the upper body at w = 0 follows the clip to 1e-12 rad while the legs at w = 1 fall with a simulated root', () => {
    const w = walk({ root: 'free', weight: 1, groups: { spine: 0, head: 0, arms: 0 }, measure: ['thigh_left'], exact: UPPER });
    console.log(`(a) upper body's largest joint error ${max(w.exactError).toExponential(2)} rad; pelvis drop ${(w.pelvisY[0] - Math.min(...w.pelvisY)).toFixed(3)} m`);
    // every upper-body joint on the clip after every step (rounding of the quaternion angle only)
    expect(max(w.exactError)).toBeLessThan(1e-12);
    // the root is simulated and the limp legs give way: the pelvis drops more than 0.3 m
    expect(w.pelvisY[0] - Math.min(...w.pelvisY)).toBeGreaterThan(0.3);
    expect(w.blend.follower.bodyRef.kinematic!.link[0]).toBe(0);
  });

  it('(b) a hit arm ramped from w = 0.3 to 1 over 0.2 s while the rest walks: no step of the ramp changes its velocity by more than C', () => {
    const w = walk({
      weight: 0, measure: ARM, exact: JOINTS.filter((l) => !ARM.includes(l)),
      script: (s, b, f) => {
        if (s === 0) b.setWeight(ARM, 0.3);
        if (s === 60) {
          f.hit({ link: 'forearm_right', point: f.bodyRef.linkPosition('forearm_right'), impulse: [0, 0, -IMPULSE] });
          b.setWeight(ARM, 1, 0.2);
        }
      },
    });
    // the ramp: 0.3 until the hit, 1 from 0.2 s after it
    expect(w.weights[59]).toBe(0.3);
    console.log(`(b) hit step ${w.jumps[60].toFixed(3)} rad/s; largest during the ramp ${max(w.jumps.slice(61, 86)).toFixed(3)}; the rest's largest joint error ${max(w.exactError).toExponential(2)} rad`);
    expect(w.weights[60]).toBeCloseTo(0.3 + 0.7 / 24, 12);
    expect(w.weights[60 + 24]).toBe(1);
    // the hit itself is a velocity jump (step 60); after it, no step jumps more than the clip's own sharpest step
    expect(w.jumps[60]).toBeGreaterThan(max(w.jumps.slice(0, 60)));
    // while the weight changes (the 24 steps of the ramp and the one after), no step jumps more than the
    // clip's own sharpest step (the largest, 5.4 rad/s, is the step after the hit: the hit's aftermath).
    // (Later the arm is limp and may stop against a joint limit: a limp arm's own jumps, which reach
    // 7.3 rad/s with w = 1 throughout.)
    expect(max(w.jumps.slice(61, 86))).toBeLessThan(CLIP_JUMP);
    // the rest walks on the clip exactly
    expect(max(w.exactError)).toBeLessThan(1e-12);
  });

  it('(c) the whole body (root included) ramped 0 -> 1 -> 0 over 1 s: no step jumps more than C, and the return to the clip is smooth where an abrupt one is not', () => {
    const script = (s: number, b: AnimationBlend) => {
      if (s === 0) b.setWeight(model.linkNames, 1, 0.5);
      if (s === 60) b.setWeight(model.linkNames, 0, 0.5);
    };
    const smooth = walk({ weight: 0, measure: model.linkNames, script });
    const abrupt = walk({ weight: 0, measure: model.linkNames, script, blendTime: 0 });
    const k0 = smooth.weights.indexOf(0, 60);
    console.log(`(c) C ${CLIP_JUMP.toFixed(3)} rad/s; largest step ${max(smooth.jumps).toFixed(3)}; at the return (step ${k0}) ${smooth.jumps[k0].toFixed(3)}, abrupt ${abrupt.jumps[k0].toFixed(3)}, the ten steps either side up to ${max([...smooth.jumps.slice(k0 - 10, k0), ...smooth.jumps.slice(k0 + 1, k0 + 11)]).toFixed(3)}`);
    expect(max(smooth.jumps)).toBeLessThan(CLIP_JUMP);
    // the step where the joints become kinematic again, and the ten steps either side
    const k = smooth.weights.indexOf(0, 60);
    expect(k).toBe(119);
    const around = [...smooth.jumps.slice(k - 10, k), ...smooth.jumps.slice(k + 1, k + 11)];
    expect(smooth.jumps[k]).toBeLessThanOrEqual(max(around));
    // the abrupt switch (blendTime 0) takes the joints' remaining error in one step
    expect(abrupt.jumps[k]).toBeGreaterThan(5 * smooth.jumps[k]);
    // leaving w = 0 at the start: the first step no sharper than the clip's own motion there
    expect(smooth.jumps[0]).toBeLessThan(CLIP_JUMP);
  });

  it('a limp arm (w = 1) snapped to w = 0 at once joins the clip without a pop; without the continuity handling it jumps 150 rad/s', () => {
    const script = (s: number, b: AnimationBlend) => { if (s === 0) b.setWeight(ARM, 1); if (s === 60) b.setWeight(ARM, 0); };
    const smooth = walk({ weight: 0, measure: ARM, script, exact: ARM, blendTime: 0.2 });
    const abrupt = walk({ weight: 0, measure: ARM, script, blendTime: 0 });
    console.log(`(snap) arm error at the switch ${smooth.exactError[59].toFixed(3)} rad; jump at the switch ${smooth.jumps[60].toFixed(3)} rad/s (its last ten steps up to ${max(smooth.jumps.slice(50, 60)).toFixed(3)}), abrupt ${abrupt.jumps[60].toFixed(1)}`);
    expect(smooth.weights[59]).toBe(1);
    expect(smooth.weights[60]).toBe(0);
    // the limp arm is well off the clip when it is snapped back (so an abrupt switch has something to jump)
    expect(smooth.exactError[59]).toBeGreaterThan(0.3);
    // the switch step changes the arm's velocity no more than the limp arm's own last ten steps did
    expect(smooth.jumps[60]).toBeLessThanOrEqual(max(smooth.jumps.slice(50, 60)));
    expect(max(smooth.jumps.slice(60))).toBeLessThan(CLIP_JUMP);
    // abrupt: the error taken in one step
    expect(abrupt.jumps[60]).toBeGreaterThan(100);
    expect(abrupt.jumps[60]).toBeGreaterThan(50 * smooth.jumps[60]);
    // the offset is gone after blendTime: on the clip exactly from then on
    expect(max(smooth.exactError.slice(60 + 25))).toBeLessThan(1e-12);
  });

  it('(d) refuses a weight outside [0, 1] or not a number, an unknown link or group, naming it, and changes nothing', () => {
    const world = new World();
    const body = world.addBody(model, { name: 'walker', selfCollision: false });
    const follower = new MotionFollower(world, body, { trajectory: traj });
    const blend = new AnimationBlend(follower, { weight: 0.5 });
    expect(() => blend.setWeight('forearm_left', 1.5)).toThrow(/setWeight: weight must be a number within \[0, 1\].*got 1.5/);
    expect(() => blend.setWeight('forearm_left', -0.1)).toThrow(/got -0.1/);
    expect(() => blend.setWeight('forearm_left', NaN)).toThrow(/got NaN/);
    expect(() => blend.setWeight('forearm_left', '0.5' as unknown as number)).toThrow(/got 0.5/);
    expect(() => blend.setWeight(['forearm_left', 'tail'], 0)).toThrow(/body "walker" has no link "tail"/);
    expect(() => blend.setWeight(99, 0)).toThrow(/link 99 is not a link of body "walker" \(it has 16\)/);
    expect(() => blend.setGroupWeight('wings' as never, 0)).toThrow(/unknown joint group "wings"/);
    expect(() => blend.setWeight('forearm_left', 0, -1)).toThrow(/seconds must be finite and >= 0, got -1/);
    expect(() => new AnimationBlend(follower, { weight: 2 })).toThrow(/constructor: weight must be a number within \[0, 1\].*got 2/);
    expect(() => new AnimationBlend(follower, { groups: { legs: NaN } })).toThrow(/groups.legs must be .* got NaN/);
    expect(() => blend.update(0)).toThrow(/dt must be finite and > 0, got 0/);
    // nothing changed: every weight still 0.5, and the list with a bad name set none of its links
    expect(Array.from(blend.weights)).toEqual(new Array(model.nLinks).fill(0.5));
    // the mapping of the powered range: strength 1 - w on the follower's drive
    blend.setWeight('forearm_left', 0.3);
    blend.update(DT);
    expect(follower.strength[model.vOffset[model.linkIndex('forearm_left')]]).toBeCloseTo(0.7, 15);
    expect(follower.strength[model.vOffset[model.linkIndex('forearm_right')]]).toBe(0.5);
  });

  it('the powered range: strength s = 1 - w on the drive rows (torque limit times s, gains of natural frequency times s); w = 1 leaves no drive', () => {
    const world = new World();
    const body = world.addBody(model, { name: 'walker', selfCollision: false });
    const follower = new MotionFollower(world, body, { trajectory: traj });
    const blend = new AnimationBlend(follower, { weight: 0.5 });
    blend.setWeight('forearm_left', 0.3);
    blend.setWeight('hand_left', 1);
    blend.update(DT);
    world.step(DT);
    const d = follower.drive;
    for (const [link, s] of [['forearm_left', 0.7], ['forearm_right', 0.5], ['hand_left', 0]] as const) {
      const k = model.vOffset[model.linkIndex(link)];
      // the follower's gains at full strength (critically damped: kd^2 = 4 kp), scaled, then taken one step ahead
      const kp = follower.kp[k] * s * s, kd = follower.kd[k] * s, h = DT;
      expect(d.maxTorque[k]).toBeCloseTo(follower.maxTorque[k] * s, 9);
      expect(d.kp[k]).toBeCloseTo(kp / (1 + kd * h), 9);
      expect(d.kd[k]).toBeCloseTo((kd + kp * h) / (1 + kd * h), 9);
    }
    expect(d.maxTorque[model.vOffset[model.linkIndex('hand_left')]]).toBe(0);
  });
});
