/**
 * A character's controllers allocate nothing per step (the design's "no allocation in the step"),
 * measured as world-allocation.test.ts measures World.step: the growth of V8's young generation
 * over batches of steps minus that of an empty batch (featherstone's young-generation.ts), under
 * 4 bytes a step in three batches in a row, within a budget of batches, after a warm-up.
 *
 * The humanoid preset (1.75 m, 70 kg) follows the CMU walk (shared/data/bvh/cmu_02_01_walk.bvh)
 * on a ground plane at 1/60 s; the clip is played forwards and backwards in turn (playbackRate
 * 1, -1: the walk goes on for as long as the measure needs, without the jump of a loop).
 *
 * Two measures:
 *  1. The controllers' own step work, replayed on 600 recorded states of a real walk with ground
 *     contact: per step the state is put back and World time set, then the follower's and the
 *     limit guard's rows (addRows, with the World's row buffer and the step's context) and the
 *     guard's violation for backtracking, the AnimationBlend's update, GetUp's update: what the
 *     characters package adds to a World step, without the World's own work. (Before the samplers
 *     and the guard kept their numbers in typed arrays, the walk allocated 3.4-8.3 KB a step, from
 *     doubles boxed by the clip's sampling, slerps and the guard's trigonometry.)
 *  2. World.step with the follower and blend in it (kinematic and assisted root), the World's
 *     backtracking off (maxHalvings 0): World.advance keeps the step length of a halved step as a
 *     number object and allocates one per halving, a matter of world.ts, not of the characters.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { World, type StepContext } from '@sinew/constraints';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import {
  AnimationBlend, CMU_TO_HUMANOID, ensureSphericalLimitGuard, GetUp, MotionFollower, retargetClip, type RootMode,
} from '../src/control/index.js';
import { describeBatches, youngGenerationGrowth } from '../../featherstone/test/young-generation.js';

const DT = 1 / 60;
const bvh = importBvh(readFileSync(new URL('../../../../shared/data/bvh/cmu_02_01_walk.bvh', import.meta.url), 'utf8'), { scale: BVH_SCALE.cmu });
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
const traj = retargetClip(model, bvh.clip, { map: CMU_TO_HUMANOID, frames: [1, bvh.clip.frameCount - 1] }).trajectory;
/** Steps between turns of the playback direction (the clip less 0.1 s). */
const TURN = Math.floor((traj.duration - 0.1) / DT);
/** Every World made here, kept alive to the end of the file (as in a game with several). */
const alive: World[] = [];

function walker(root: RootMode, options: { maxHalvings?: number } = {}) {
  const world = new World(options);
  alive.push(world);
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(model, { name: 'walker', selfCollision: false });
  const follower = new MotionFollower(world, body, { trajectory: traj, root });
  return { world, body, follower };
}

/** n steps of the walk, q, qd and World time of each recorded (one array per step: put back without a view). */
function record(root: RootMode, n: number, blend: boolean) {
  const w = walker(root);
  const b = blend ? new AnimationBlend(w.follower, { weight: 0.4, groups: { arms: 0 } }) : null;
  const q: Float64Array[] = [], qd: Float64Array[] = [], t = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    if (s > 0 && s % TURN === 0) w.follower.playbackRate = -w.follower.playbackRate;
    b?.update(DT);
    t[s] = w.world.time;
    q.push(Float64Array.from(w.body.state.q));
    qd.push(Float64Array.from(w.body.state.qd));
    expect(w.world.step(DT).error).toBe('');
  }
  return { ...w, blend: b, q, qd, t };
}

describe('allocation of the characters controllers per step', () => {
  for (const root of ['kinematic', 'assisted'] as const) {
    it(`the walk's follower and limit guard (${root} root), replayed on 600 recorded states with ground contact: nothing allocated (under 4 bytes a step)`, () => {
      const r = record(root, 600, false);
      const guard = ensureSphericalLimitGuard(r.world);
      const ctx: StepContext = { bodies: r.world.bodies, h: DT };
      const rows = r.world.rows, out = new Float64Array(1), st = r.body.state;
      let k = 0, n = 0, most = 0;
      const step = (): void => {
        st.q.set(r.q[k]);
        st.qd.set(r.qd[k]);
        r.world.time = r.t[k];
        rows.clear();
        r.follower.addRows(rows, ctx);
        guard.addRows(rows, ctx);
        guard.violation(ctx, out);
        if (rows.count > most) most = rows.count;
        if (++k === r.q.length) k = 0;
        n++;
      };
      const m = youngGenerationGrowth(step, { warm: 3000, calls: 200, bound: 4, attempts: 60 });
      console.log(`[allocation] follower + limit guard, ${root} root, replayed walk: ${m.perCall.toFixed(2)} B/step young-generation growth (${n} steps, up to ${most} rows)`);
      // the drive's rows (one per driven dof) and guard rows near the stops were written
      expect(most).toBeGreaterThan(model.nv - (root === 'kinematic' ? 0 : 6));
      expect(m.perCall, describeBatches(m)).toBeLessThan(4);
    });
  }

  it('AnimationBlend.update with weights ramping between animated, powered and limp (kinematic links changing), replayed walk: nothing allocated (under 4 bytes a step) but when its set of kinematic links changes', () => {
    const r = record('assisted', 600, true);
    const blend = r.blend!, st = r.body.state, arms = ['upper_arm_left', 'forearm_left', 'upper_arm_right', 'forearm_right'];
    let k = 0, s = 0;
    // the arms go from w = 0 (kinematic) to 0.2 and back over 0.5 s every 240 steps: the set of
    // kinematic links changes (and Body.setKinematicLinks is called) only at the ends of the ramps
    const step = (): void => {
      st.q.set(r.q[k]);
      st.qd.set(r.qd[k]);
      r.world.time = r.t[k];
      if (s % 240 === 0) blend.setWeight(arms, (s / 240) % 2 === 0 ? 0.2 : 0, 0.5);
      blend.update(DT);
      if (++k === r.q.length) k = 0;
      s++;
    };
    // batches of 30 steps fall between the changes of the kinematic set (at most 2 in 240 steps)
    const m = youngGenerationGrowth(step, { warm: 3000, calls: 30, bound: 4, attempts: 60 });
    console.log(`[allocation] AnimationBlend.update, replayed walk: ${m.perCall.toFixed(2)} B/step young-generation growth`);
    expect(blend.weights[model.linkIndex('thigh_left')]).toBe(0.4);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('GetUp.update on a ragdoll getting up, replayed from 300 recorded states of the get-up: nothing allocated (under 4 bytes a step)', () => {
    const w = walker('kinematic');
    for (let s = 0; s < 30; s++) w.world.step(DT);
    w.follower.die({});
    for (let s = 0; s < 150; s++) w.world.step(DT);
    w.follower.remove();
    const gu = new GetUp(w.world, w.body);
    const q: Float64Array[] = [], qd: Float64Array[] = [], t: number[] = [];
    for (let s = 0; s < 300; s++) {
      t.push(w.world.time);
      q.push(Float64Array.from(w.body.state.q));
      qd.push(Float64Array.from(w.body.state.qd));
      gu.update(DT);
      w.world.step(DT);
    }
    const times = Float64Array.from(t), st = w.body.state;
    let k = 0;
    const step = (): void => {
      st.q.set(q[k]);
      st.qd.set(qd[k]);
      w.world.time = times[k];
      gu.update(DT);
      st.tau.fill(0);
      if (++k === q.length) k = 0;
    };
    const m = youngGenerationGrowth(step, { warm: 3000, calls: 200, bound: 4, attempts: 60 });
    console.log(`[allocation] GetUp.update, replayed get-up: ${m.perCall.toFixed(2)} B/step young-generation growth`);
    expect(gu.assistFigures[2]).toBeGreaterThan(0);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  for (const root of ['kinematic', 'assisted'] as const) {
    it(`World.step of the walk with the follower and a blend (${root} root, ground contact, backtracking off): nothing allocated (under 4 bytes a step)`, () => {
      const w = walker(root, { maxHalvings: 0 });
      const blend = new AnimationBlend(w.follower, { weight: 0.3 });
      let s = 0;
      const step = (): void => {
        if (++s % TURN === 0) w.follower.playbackRate = -w.follower.playbackRate;
        blend.update(DT);
        w.world.step(DT);
      };
      const m = youngGenerationGrowth(step, { warm: 4000, calls: 60, bound: 4, attempts: 80 });
      console.log(`[allocation] World.step of the walk, ${root} root, blend at 0.3: ${m.perCall.toFixed(2)} B/step young-generation growth (${w.world.stats.contacts} contacts)`);
      expect(w.world.stats.contacts).toBeGreaterThan(0);
      expect(m.perCall, describeBatches(m)).toBeLessThan(4);
    });
  }
});
