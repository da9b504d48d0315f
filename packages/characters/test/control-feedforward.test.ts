/**
 * Feed-forward torques of a clip (control/feed-forward.ts): RNEA on the retargeted CMU walk's q, qd
 * and qdd. Checked against the articulated-body algorithm (forwardDynamics, which shares no code
 * with RNEA): the torques, root wrench included, applied in the clip's state give back the clip's
 * accelerations; and the torque controllers pass them through (kp = kd = 0: tau = tau_ff).
 *
 * Following the walk (root on the clip's path, 'kinematic', the floor present, 2 s at 1/120 s): the
 * drive rows already aim at the clip's accelerations (qdd_d in their targets), so their settle
 * times (gains) need no feed-forward; what it saves is strength. With MotionFollower
 * .applyFeedForward() before each step, drives limited to 5 % of the default torques track as
 * the full-strength ones do; without it they fall far behind. The solver's sweeps per step are
 * printed with the errors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardDynamics, State } from '@sinew/featherstone';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import { World } from '@sinew/constraints';
import { CMU_TO_HUMANOID, DEFAULT_MAX_TORQUES, excludeOverlappingLinkPairs, InverseDynamicsFeedForward, MotionFollower, PdController, retargetClip, StablePdController } from '../src/control/index.js';

const bvh = importBvh(readFileSync(new URL('../../../../shared/data/bvh/cmu_02_01_walk.bvh', import.meta.url), 'utf8'), { scale: BVH_SCALE.cmu });
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
const walk = retargetClip(model, bvh.clip, { map: CMU_TO_HUMANOID, frames: [1, bvh.clip.frameCount - 1] }).trajectory;

describe('inverse-dynamics feed-forward of a clip', () => {
  it('the torques (root wrench included) give back the clip\'s accelerations through ABA, at playback rates 1 and 1.5 (1e-9 relative)', () => {
    const ff = new InverseDynamicsFeedForward(walk, { skipRoot: false });
    let worst = 0;
    for (const rate of [1, 1.5]) {
      for (const t of [0.3, 0.9, 1.7, 2.4]) {
        const tau = ff.torques(t, new Float64Array(model.nv), rate);
        const s = new State(model);
        walk.sampleQ(t, s.q);
        walk.sampleQd(t, s.qd);
        const want = walk.sampleQdd(t);
        for (let d = 0; d < model.nv; d++) { s.qd[d] *= rate; want[d] *= rate * rate; }
        s.tau.set(tau);
        const qdd = forwardDynamics(model, s, new Float64Array(model.nv));
        const scale = Math.max(...Array.from(want, Math.abs), 1);
        for (let d = 0; d < model.nv; d++) worst = Math.max(worst, Math.abs(qdd[d] - want[d]) / scale);
      }
    }
    console.log(`ABA(RNEA(q, qd, qdd)) against the clip's qdd: largest relative difference ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-9);
  });

  it('skipRoot leaves the free root\'s six forces out and keeps the joints\' torques', () => {
    const all = new InverseDynamicsFeedForward(walk, { skipRoot: false }).torques(1.1);
    const joints = new InverseDynamicsFeedForward(walk).torques(1.1);
    for (let d = 0; d < 6; d++) expect(joints[d]).toBe(0);
    for (let d = 6; d < model.nv; d++) expect(joints[d]).toBe(all[d]);
    // the root wrench carries the body: its vertical force is of the order of the weight (70 kg)
    expect(Math.hypot(all[3], all[4], all[5])).toBeGreaterThan(0.3 * 70 * 9.81);
  });

  it('PD and stable PD with zero gains apply the feed-forward torques as they are', () => {
    const tau = new InverseDynamicsFeedForward(walk).torques(0.7);
    for (const Ctrl of [PdController, StablePdController]) {
      const s = new State(model);
      walk.sampleQ(0.7, s.q);
      const c = new Ctrl(model, s, { kp: 0, kd: 0 });
      c.feedforward.set(tau);
      c.apply(1 / 120);
      for (let d = 0; d < model.nv; d++) expect(s.tau[d]).toBe(tau[d]);
    }
  });

  it('bad input is refused by name', () => {
    const ff = new InverseDynamicsFeedForward(walk);
    expect(() => ff.torques(Number.NaN)).toThrow(/time NaN/);
    expect(() => ff.torques(0.5, new Float64Array(3))).toThrow(new RegExp(`out has 3 numbers, expected ${model.nv}`));
  });

  /** RMS over 2 s of the mean joint error (rad) following the walk with torque limits scaled by `strength`, and the solver's sweeps. */
  async function follow(strength: number, feedForward: boolean) {
    const world = new World({ solver: { maxIterations: 100 } });
    world.addStatic({ geometry: { type: 'plane' } });
    const body = world.addBody(model, { name: 'walker' });
    excludeOverlappingLinkPairs(world, body, walk);
    const maxTorque = Object.fromEntries(Object.entries(DEFAULT_MAX_TORQUES).map(([g, v]) => [g, g === 'root' ? v : v * strength]));
    const f = new MotionFollower(world, body, { trajectory: walk, root: 'kinematic', startTime: 0.5, maxTorque });
    let sum = 0, sweeps = 0, atCap = 0;
    const steps = 240;
    for (let s = 0; s < steps; s++) {
      if (s % 60 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (feedForward) f.applyFeedForward();
      const st = world.step(1 / 120);
      expect(st.error).toBe('');
      sweeps += st.iterations;
      if (st.iterations >= 100) atCap++;
      const e = f.jointErrors();
      const joints = Object.keys(e).filter((k) => k !== model.jointNames[0] && !k.endsWith('.position'));
      const mean = joints.reduce((a, k) => a + e[k], 0) / joints.length;
      sum += mean * mean;
    }
    return { rms: Math.sqrt(sum / steps), sweeps: sweeps / steps, atCap: atCap / steps };
  }

  it('following the walk: with feed-forward, drives at 5 % of the default torques track as full-strength ones do; without, they fall behind', async () => {
    const DEG = 180 / Math.PI;
    const full = await follow(1, false), weak = await follow(0.05, false), weakFf = await follow(0.05, true), weaker = await follow(0.02, false), weakerFf = await follow(0.02, true);
    const show = (label: string, r: typeof full) => `${label}: ${(r.rms * DEG).toFixed(2)} deg, ${r.sweeps.toFixed(1)} sweeps a step (${(100 * r.atCap).toFixed(0)} % at the 100 cap)`;
    console.log([show('full strength', full), show('5 %', weak), show('5 % with feed-forward', weakFf), show('2 %', weaker), show('2 % with feed-forward', weakerFf)].join('\n'));
    expect(weakFf.rms).toBeLessThan(1.5 * full.rms);
    expect(weak.rms).toBeGreaterThan(5 * full.rms);
    expect(weakerFf.rms).toBeLessThan(weaker.rms / 5);
  });
});
