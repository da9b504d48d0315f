/**
 * Rollback of a World with a character in it: World.snapshot() and the controllers' own snapshots
 * (MotionFollower.snapshot, AnimationBlend.snapshot), restored into a fresh World with a fresh
 * follower and blend built the same way, continue bit for bit.
 *
 * The scene: the humanoid preset (1.75 m, 70 kg) follows the CMU walk (assisted root) on a ground
 * plane at 1/60 s with an AnimationBlend whose weights a script changes over time (the arms ramped
 * to animated, to powered and back, a forearm and a thigh ramped to limp, the legs softened), the
 * clip's direction turned once (playbackRate -1), and a 40 N s hit at the chest at step 150 (its
 * dip in muscle tone and recovery take 0.65 s). The snapshot is taken at steps drawn at random
 * (seeded) while the hit's recovery and the weight ramps are in flight; from there the original
 * and the restored world each take 600 steps under the same script, and their q and qd are
 * compared bit for bit at every step. As a control, restoring the World alone (fresh controllers
 * at their defaults) does not continue bit for bit: the controllers' state is what the test tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { World, type Body } from '@sinew/constraints';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import { AnimationBlend, CMU_TO_HUMANOID, GetUp, MotionFollower, MuscleTone, retargetClip } from '../src/control/index.js';

const DT = 1 / 60;
const bvh = importBvh(readFileSync(new URL('../../../../shared/data/bvh/cmu_02_01_walk.bvh', import.meta.url), 'utf8'), { scale: BVH_SCALE.cmu });
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
const traj = retargetClip(model, bvh.clip, { map: CMU_TO_HUMANOID, frames: [1, bvh.clip.frameCount - 1] }).trajectory;
const TURN = Math.floor((traj.duration - 0.1) / DT);

interface Scene { world: World; body: Body; follower: MotionFollower; blend: AnimationBlend }

function scene(): Scene {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(model, { name: 'walker', selfCollision: false });
  const follower = new MotionFollower(world, body, { trajectory: traj, root: 'assisted' });
  const blend = new AnimationBlend(follower, { weight: 0.3 });
  return { world, body, follower, blend };
}

/** The script of step s (before the blend's update and the World's step). */
function script(s: number, { body, follower, blend }: Scene): void {
  if (s === 20) blend.setGroupWeight('arms', 0, 0.5);
  if (s === 60) blend.setWeight(['forearm_left', 'thigh_right'], 1, 1);
  if (s === 150) {
    const p = body.linkPosition('thorax');
    follower.hit({ link: 'thorax', point: [p[0], p[1] + 0.1, p[2]], impulse: [40, 0, 10] });
    blend.setGroupWeight('arms', 0.6, 0.8);
  }
  if (s === 170) blend.setGroupWeight('legs', 0.1, 0.5);
  if (s === TURN) follower.playbackRate = -follower.playbackRate;
  if (s === 300) blend.setGroupWeight('arms', 0, 0.2);
}

function step(s: number, sc: Scene, scr: (s: number, sc: Scene) => void = script): void {
  scr(s, sc);
  sc.blend.update(DT);
  const r = sc.world.step(DT);
  if (r.error) throw new Error(`step ${s}: ${r.error}`);
}

/** Steps from..to-1, the q and qd bits of each step after it. */
function run(sc: Scene, from: number, to: number, scr: (s: number, sc: Scene) => void = script): Float64Array[] {
  const out: Float64Array[] = [];
  for (let s = from; s < to; s++) {
    step(s, sc, scr);
    const x = new Float64Array(model.nq + model.nv);
    x.set(sc.body.state.q);
    x.set(sc.body.state.qd, model.nq);
    out.push(x);
  }
  return out;
}

/** The first step at which two runs differ in any bit (Object.is: -0 and NaN as bits), or -1. */
function firstDifference(a: Float64Array[], b: Float64Array[]): number {
  for (let s = 0; s < a.length; s++) for (let k = 0; k < a[s].length; k++) if (!Object.is(a[s][k], b[s][k])) return s;
  return -1;
}

/** A seeded draw in [lo, hi] (LCG of Numerical Recipes). */
function draws(seed: number, n: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  let x = seed >>> 0;
  for (let k = 0; k < n; k++) { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; out.push(lo + (x % (hi - lo + 1))); }
  return out;
}

describe('rolling back a World with a following, blending character (World.snapshot + MotionFollower and AnimationBlend snapshots)', () => {
  for (const at of draws(20261127, 3, 152, 185)) {
    it(`snapshot at step ${at} (hit recovering, weights ramping), restored into a fresh World and fresh controllers: the next 600 steps bit for bit`, () => {
      const a = scene();
      run(a, 0, at);
      const ws = a.world.snapshot(), fs = a.follower.snapshot(), bs = a.blend.snapshot();
      // the hit's recovery and the ramps are in flight: state a fresh controller does not have
      expect(a.follower.tone.at(a.world.time)).toBeLessThan(1);
      const arm = a.blend.weight('upper_arm_left');
      expect(arm > 0 && arm < 0.6).toBe(true);
      const original = run(a, at, at + 600);

      const b = scene();
      b.world.restore(ws);
      b.follower.restore(fs);
      b.blend.restore(bs);
      const restored = run(b, at, at + 600);
      expect(firstDifference(original, restored)).toBe(-1);

      // control: the World alone restored, the controllers fresh
      const c = scene();
      c.world.restore(ws);
      const worldOnly = run(c, at, at + 600);
      const d = firstDifference(original, worldOnly);
      console.log(`[snapshot] at step ${at}: follower ${fs.length} numbers, blend ${bs.length}; world + controllers restored: 600 steps bit for bit; world alone: differs from step ${d}`);
      expect(d).toBeGreaterThanOrEqual(0);
    });
  }

  for (const [at, flags, what] of [[101, 32 + 64, 'crumple targets blending in'], [120, 16 + 64, 'crumpled targets held']] as const) {
    it(`a crumpling death (shot at step 100, arm reflex toward the fall, tone fading): snapshot at step ${at} (${what}), restored into a fresh World and fresh controllers: the next 300 steps bit for bit`, () => {
      const dying = (s: number, sc: Scene): void => {
        script(s, sc);
        if (s === 100) {
          const p = sc.body.linkPosition('thorax');
          sc.follower.die({ impulse: { link: 'thorax', point: [p[0], p[1] + 0.15, p[2]], impulse: [0, 0, 60] } });
        }
      };
      const a = scene();
      run(a, 0, at, dying);
      const ws = a.world.snapshot(), fs = a.follower.snapshot(), bs = a.blend.snapshot();
      expect(fs[4] & (16 + 32 + 64)).toBe(flags);
      const original = run(a, at, at + 300, dying);
      const b = scene();
      b.world.restore(ws);
      b.follower.restore(fs);
      b.blend.restore(bs);
      expect(firstDifference(original, run(b, at, at + 300, dying))).toBe(-1);
      expect(b.follower.root).toBe('free');
    });
  }

  it('GetUp: a ragdoll getting up, snapshot 1.5 s in (assist on, between key poses), restored into a fresh World and a fresh GetUp built from the same lying pose: the next 300 steps bit for bit; a GetUp built from another pose refuses it', () => {
    /** The walker shot down and lying (a World restored to the start of the get-up is built the same way: the follower removed). */
    const fallen = () => {
      const sc = scene();
      run(sc, 0, 30, () => {});
      sc.follower.die({});
      run(sc, 30, 180, () => {});
      sc.follower.remove();
      return sc;
    };
    const a = fallen();
    const start = a.world.snapshot();
    const gu = new GetUp(a.world, a.body);
    const up = (_s: number, sc: Scene & { gu?: GetUp }) => sc.gu!.update(DT);
    const A = Object.assign(a, { gu });
    run(A, 0, 90, up);
    const ws = a.world.snapshot(), gs = gu.snapshot();
    expect(gu.assistFigures[0]).toBeGreaterThan(0);
    const original = run(A, 90, 390, up);

    const b = fallen();
    b.world.restore(start);
    const gu2 = new GetUp(b.world, b.body);
    b.world.restore(ws);
    gu2.restore(gs);
    expect(firstDifference(original, run(Object.assign(b, { gu: gu2 }), 90, 390, up))).toBe(-1);
    expect(gu2.time).toBe(gu.time);

    // built from the same body lying 10 cm further along x: another path
    const c = fallen();
    c.body.state.q[0] += 0.1;
    const gu3 = new GetUp(c.world, c.body);
    expect(() => gu3.restore(gs)).toThrow(/GetUp.restore: the snapshot's get-up went along another path/);
  });

  it('a snapshot taken into a buffer of its own is the same numbers, and restoring it into the follower and blend it came from changes nothing', () => {
    const a = scene();
    run(a, 0, 160);
    const fs = a.follower.snapshot(), bs = a.blend.snapshot();
    const buf = new Float64Array(fs.length + 10);
    expect(Array.from(a.follower.snapshot(buf))).toEqual(Array.from(fs));
    expect(a.follower.snapshot(buf).buffer).toBe(buf.buffer);
    a.follower.restore(fs);
    a.blend.restore(bs);
    expect(Array.from(a.follower.snapshot())).toEqual(Array.from(fs));
    expect(Array.from(a.blend.snapshot())).toEqual(Array.from(bs));
  });

  it('bad snapshots are refused with a message, and nothing changes', () => {
    const a = scene();
    run(a, 0, 160);
    const fs = a.follower.snapshot(), bs = a.blend.snapshot();
    const before = Array.from(fs), blendBefore = Array.from(bs);
    expect(() => a.follower.restore(bs)).toThrow(/MotionFollower.restore: number 0 does not start a follower snapshot/);
    expect(() => a.blend.restore(fs)).toThrow(/AnimationBlend.restore: number 0 does not start a blend snapshot/);
    expect(() => a.follower.restore(fs.subarray(0, fs.length - 3))).toThrow(/MotionFollower.restore: its muscle tones \(from number \d+\): MuscleTone.restore/);
    expect(() => a.follower.restore(Float64Array.from([...fs, 0]))).toThrow(/MotionFollower.restore: the snapshot holds \d+ numbers; its flags/);
    const wrongModel = fs.slice();
    wrongModel[2] += 1;
    expect(() => a.follower.restore(wrongModel)).toThrow(/a model with \d+ q and \d+ qd; body "walker" has/);
    const badTone = fs.slice();
    badTone[18 + model.nv] = -1; // the tone's base
    expect(() => a.follower.restore(badTone)).toThrow(/MotionFollower.restore: its muscle tones .*MuscleTone.restore: no tone schedule at offset \d+ \(base -1/);
    const badWeight = bs.slice();
    badWeight[5] = 2;
    expect(() => a.blend.restore(badWeight)).toThrow(/weight or goal 0 of weights is 2/);
    expect(Array.from(a.follower.snapshot())).toEqual(before);
    expect(Array.from(a.blend.snapshot())).toEqual(blendBefore);
  });

  it('MuscleTone.snapshot/restore: a restored schedule gives the same tone at every time (a dip and recovery, then a fade)', () => {
    const t = new MuscleTone(1).rampTo(0.3, 0.05, 1).rampTo(1, 0.6, 1.05);
    t.rampTo(0.05, 0.8, 1.3);
    const u = new MuscleTone(0.7);
    const n = u.restore(t.snapshot());
    expect(n).toBe(t.snapshotLength);
    for (let k = 0; k <= 300; k++) expect(Object.is(u.at(k / 100), t.at(k / 100))).toBe(true);
  });
});
