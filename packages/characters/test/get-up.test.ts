/**
 * Get-up (control/get-up.ts): the humanoid preset (1.75 m, 70 kg) lying at rest on a floor gets up
 * through its key poses, physically (joint drives solved with the contacts and limits, a bounded
 * root assist faded out once standing), simulated at 1/60 s with 100 solver sweeps.
 *
 * Five resting bodies: placed lying face down (heading 0), face up (yaw 2 rad) and on its side
 * (rolled 1.55 rad about its long axis from face down, yaw -0.5: it rests with the pelvis on its
 * side and the chest turned to the floor), each dropped from 0.15 m and left until the World puts it to sleep; and two deaths from standing (a MotionFollower holding the
 * neutral pose, `die()` with an 80 N s shot into the chest from behind and from the front, at yaws
 * 0.7 and -1.2 rad), left until the World puts the body to sleep, plus one more second.
 *
 * Measured from the simulated states:
 *  - standing: the pelvis within 10 % of its standing height (0.9275 m for this preset: the hip
 *    joint's height in the neutral pose, the feet flat on y = 0), the thorax's long axis within 15
 *    degrees of vertical, and both feet touching the floor in the World's contact list;
 *  - time to stand: the first step at which the body stands; at most 3 s after the get-up starts;
 *  - stays standing: it stands at every step of the second after the assist has faded out
 *    (`done`), when nothing but its own joints and the floor hold it up;
 *  - joint limits: the largest excursion past any joint's range over the whole get-up
 *    (jointLimitExcess), at most 1 degree;
 *  - no pop at the hand-over: at each step the largest change of any joint velocity (rad/s; ball
 *    and free joints per component of their body-frame rate, the root's linear rate in m/s) and of
 *    any link's centre-of-mass velocity (m/s) across the step. The hand-over step (the first with
 *    the get-up) must change neither by more than the largest change in the ten steps after it (the
 *    motion's own ramp-up), and move no link's centre by more than 0.1 m/s (0.6 g over the step).
 *    The same measure on a get-up that snaps to its first authored key (the key reached after one
 *    step instead of 0.7 s, what a get-up that starts from a fixed pose rather than the body's own
 *    does) moves a link's centre by more than the 0.1 m/s bound in its first step (its later steps
 *    jump more still, so the comparison with the next steps alone would not catch it);
 *  - allocation: GetUp.update measured as the World's step is (world-allocation.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { forwardKinematics, State } from '@sinew/featherstone';
import { World, type Body } from '@sinew/constraints';
import { onFloor } from './floor-contacts.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import {
  FACE_DOWN_KEYS, FACE_UP_KEYS, GetUp, jointErrors, jointLimitExcess, JointTrajectory, lyingSide, MotionFollower, type GetUpOptions, type LyingSide,
} from '../src/control/index.js';
import { quatFromAxisAngle, quatMultiply } from '../src/motion/quat.js';
import { describeBatches, youngGenerationGrowth } from '../../featherstone/test/young-generation.js';

const H = 1 / 60;
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
const PELVIS = model.linkIndex('pelvis'), THORAX = model.linkIndex('thorax');
const FEET = [model.linkIndex('foot_left'), model.linkIndex('foot_right')];
/** The pelvis's standing height: the root joint's height in the neutral pose, whose feet stand flat on y = 0 (presets/humanoid.ts). */
const STANDING = model.treeX[10];
const HEIGHT_FRACTION = 0.9;
const TILT_DEG = 15;
const weight = model.totalMass() * 9.81;
/** Lets the test runner's messages through during a long simulation (a worker computing for a minute on a loaded machine misses them). */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

function world(): World {
  const w = new World({ solver: { maxIterations: 100 } });
  w.addStatic({ geometry: { type: 'plane' } });
  return w;
}

/** The root rotation Ry(yaw) Rx(pitch) written into a q. */
function setRoot(q: Float64Array, yaw: number, pitch: number): void {
  const t = new Float64Array(8);
  quatFromAxisAngle(0, 1, 0, yaw, t, 0);
  quatFromAxisAngle(1, 0, 0, pitch, t, 4);
  quatMultiply(t, 0, t, 4, q, 3);
}

/** The body placed lying (pitch pi/2: face down), turned by `roll` about its long axis, dropped from 0.15 m and left until the World puts it to sleep. */
async function placed(side: LyingSide, yaw: number, roll = 0): Promise<{ w: World; body: Body }> {
  const w = world();
  const body = w.addBody(model, { name: 'hero' });
  setRoot(body.state.q, yaw, side === 'faceDown' ? Math.PI / 2 : -Math.PI / 2);
  if (roll !== 0) {
    const t = new Float64Array(4);
    quatFromAxisAngle(0, 1, 0, roll, t, 0);
    quatMultiply(body.state.q, 3, t, 0, body.state.q, 3);
  }
  body.state.q[1] = 0.15 - STANDING;
  forwardKinematics(model, body.state, true);
  for (let i = 0; i < 600 && !body.sleeping; i++) {
    w.step(H);
    if (i % 60 === 0) await breathe();
  }
  expect(body.sleeping).toBe(true);
  return { w, body };
}

/** The body standing at `yaw`, shot dead in the chest (80 N s, from behind: +1, from the front: -1, along its facing), left until asleep and one more second. */
async function died(from: 1 | -1, yaw: number): Promise<{ w: World; body: Body }> {
  const w = world();
  const body = w.addBody(model, { name: 'hero' });
  const q = new State(model).q;
  setRoot(q, yaw, 0);
  const stand = new JointTrajectory(model, [0, 1], [...q, ...q]);
  const f = new MotionFollower(w, body, { trajectory: stand, root: 'free' });
  for (let i = 0; i < 10; i++) w.step(H);
  const p = body.linkPosition('thorax');
  const J = 80 * from;
  f.die({ impulse: { link: THORAX, point: [p[0], p[1] + 0.15, p[2]], impulse: [J * Math.sin(yaw), 0, J * Math.cos(yaw)] } });
  for (let i = 0; i < 600 && !body.sleeping; i++) {
    w.step(H);
    if (i % 60 === 0) await breathe();
  }
  expect(body.sleeping).toBe(true);
  for (let i = 0; i < 60; i++) w.step(H);
  f.remove();
  return { w, body };
}

interface Run {
  side: LyingSide;
  tStand: number;
  done: number;
  minPelvisAfter: number;
  maxTiltAfter: number;
  feetAfter: number;
  stepsAfter: number;
  worstLimit: number;
  jumps: number[];
  linkJumps: number[];
  maxForce: number;
  maxTorque: number;
  impulse: number;
}

function tilt(body: Body): number {
  const P = body.state.work.pose;
  return (Math.acos(Math.min(1, P[12 * THORAX + 4])) * 180) / Math.PI;
}

/** The get-up from the body's rest, with the measures of the module comment. */
async function getUp(w: World, body: Body, options: GetUpOptions = {}, steps = 0): Promise<Run> {
  const st = body.state, nv = model.nv;
  const prevQd = new Float64Array(nv), prevV = new Float64Array(3 * model.nLinks), v = new Float64Array(3 * model.nLinks);
  const jumps: number[] = [], linkJumps: number[] = [];
  const com = (l: number) => model.com.subarray(3 * l, 3 * l + 3);
  const record = () => {
    let j = 0, lj = 0;
    for (let d = 0; d < nv; d++) j = Math.max(j, Math.abs(st.qd[d] - prevQd[d]));
    for (let l = 0; l < model.nLinks; l++) v.set(body.pointVelocity(l, com(l)), 3 * l);
    for (let k = 0; k < v.length; k += 3) lj = Math.max(lj, Math.hypot(v[k] - prevV[k], v[k + 1] - prevV[k + 1], v[k + 2] - prevV[k + 2]));
    prevQd.set(st.qd);
    prevV.set(v);
    jumps.push(j);
    linkJumps.push(lj);
  };
  record();
  jumps.length = 0;
  linkJumps.length = 0;
  const gu = new GetUp(w, body, options);
  const P = st.work.pose;
  let tStand = Infinity, worstLimit = 0, minPelvisAfter = Infinity, maxTiltAfter = 0, feetAfter = 0, stepsAfter = 0;
  const doneAt = gu.duration + gu.assistFade;
  const total = steps || Math.ceil((doneAt + 1) / H) + 1;
  for (let i = 0; i < total; i++) {
    gu.update(H);
    w.step(H);
    record();
    if (i % 60 === 59) await breathe();
    const ex = jointLimitExcess(model, st.q);
    for (const k in ex) worstLimit = Math.max(worstLimit, ex[k]);
    const y = P[12 * PELVIS + 10], t = tilt(body), touch = onFloor(w, body.index);
    const feet = FEET.every((f) => touch.has(f));
    const standing = Math.abs(y - STANDING) <= (1 - HEIGHT_FRACTION) * STANDING && t <= TILT_DEG && feet;
    if (standing && tStand === Infinity) tStand = gu.time;
    if (gu.done && gu.time <= doneAt + 1 + 1e-9) {
      stepsAfter++;
      minPelvisAfter = Math.min(minPelvisAfter, y);
      maxTiltAfter = Math.max(maxTiltAfter, t);
      if (feet) feetAfter++;
    }
  }
  const F = gu.assistFigures;
  gu.remove();
  return { side: gu.side, tStand, done: doneAt, minPelvisAfter, maxTiltAfter, feetAfter, stepsAfter, worstLimit, jumps, linkJumps, maxForce: F[2], maxTorque: F[3], impulse: F[4] };
}

function report(name: string, r: Run): string {
  const after = Math.max(...r.jumps.slice(1, 11)), linkAfter = Math.max(...r.linkJumps.slice(1, 11));
  return `[get-up] ${name}: ${r.side}, standing at ${r.tStand.toFixed(2)} s (pelvis within ${((1 - HEIGHT_FRACTION) * 100).toFixed(0)} % of ${STANDING.toFixed(4)} m, thorax within ${TILT_DEG} deg, both feet on the floor); ` +
    `the second after the assist faded (${r.done.toFixed(2)} s): pelvis never below ${r.minPelvisAfter.toFixed(3)} m, thorax at most ${r.maxTiltAfter.toFixed(1)} deg, feet on the floor ${r.feetAfter}/${r.stepsAfter} steps; ` +
    `worst joint excess ${((r.worstLimit * 180) / Math.PI).toFixed(3)} deg; hand-over jump ${r.jumps[0].toFixed(3)} rad/s (next 10 steps up to ${after.toFixed(3)}), link ${r.linkJumps[0].toFixed(3)} m/s (next 10 up to ${linkAfter.toFixed(3)}); ` +
    `assist at most ${r.maxForce.toFixed(0)} N (bound ${(0.5 * weight).toFixed(0)}) and ${r.maxTorque.toFixed(0)} N m, ${r.impulse.toFixed(0)} N s in all`;
}

function expectGotUp(r: Run): void {
  expect(r.tStand).toBeLessThanOrEqual(3);
  expect(r.stepsAfter).toBeGreaterThanOrEqual(59);
  expect(Math.abs(r.minPelvisAfter - STANDING)).toBeLessThanOrEqual((1 - HEIGHT_FRACTION) * STANDING);
  expect(r.maxTiltAfter).toBeLessThanOrEqual(TILT_DEG);
  expect(r.feetAfter).toBe(r.stepsAfter);
  expect(r.worstLimit).toBeLessThan(Math.PI / 180);
  // no pop: the hand-over changes no velocity more than the motion's own next ten steps do
  expect(r.jumps[0]).toBeLessThanOrEqual(Math.max(...r.jumps.slice(1, 11)));
  expect(r.linkJumps[0]).toBeLessThanOrEqual(Math.max(...r.linkJumps.slice(1, 11)));
  expect(r.linkJumps[0]).toBeLessThan(0.1);
  expect(r.maxForce).toBeLessThanOrEqual(0.5 * weight + 1e-9);
  expect(r.maxTorque).toBeLessThanOrEqual(0.5 * weight + 1e-9);
}

describe('GetUp', () => {
  it('placed face down: detected face down, stands within 3 s, stays standing a second without the assist, no pop at the hand-over', async () => {
    const { w, body } = await placed('faceDown', 0);
    expect(lyingSide(model, body.state)).toBe('faceDown');
    const r = await getUp(w, body);
    console.log(report('placed face down, yaw 0', r));
    expect(r.side).toBe('faceDown');
    expectGotUp(r);
  });

  it('placed face up at yaw 2 rad: detected face up, stands within 3 s facing its feet, stays standing', async () => {
    const { w, body } = await placed('faceUp', 2);
    expect(lyingSide(model, body.state)).toBe('faceUp');
    // lying face up at yaw 2 the head points along -(sin 2, 0, cos 2): standing, it faces the other way
    const r = await getUp(w, body);
    console.log(report('placed face up, yaw 2', r));
    expect(r.side).toBe('faceUp');
    const P = body.state.work.pose;
    // the pelvis's forward axis (link +Z) in the world after the get-up, against the yaw's forward
    const fx = P[12 * PELVIS + 2], fz = P[12 * PELVIS + 8];
    expect(fx * Math.sin(2) + fz * Math.cos(2)).toBeGreaterThan(Math.cos((20 * Math.PI) / 180));
    expectGotUp(r);
  });

  it('dropped on its side (rolled 1.55 rad from face down, yaw -0.5; it rests with the pelvis on its side, the chest turned to the floor): stands within 3 s, stays standing, no pop', async () => {
    const { w, body } = await placed('faceDown', -0.5, 1.55);
    const P = body.state.work.pose;
    // how it came to rest: the world y of the pelvis's and thorax's forward axes (link +Z), -1 lying face down
    const pelvisY = P[12 * PELVIS + 5], thoraxY = P[12 * THORAX + 5];
    const r = await getUp(w, body);
    console.log(`${report('dropped on its side, yaw -0.5', r)}; at rest the pelvis's forward axis at y ${pelvisY.toFixed(2)}, the thorax's ${thoraxY.toFixed(2)}`);
    expect(r.side).toBe(pelvisY + thoraxY > 0 ? 'faceUp' : 'faceDown');
    expectGotUp(r);
  });

  for (const [name, from, yaw] of [['shot from behind', 1, 0.7], ['shot from the front', -1, -1.2]] as const) {
    it(`after a death (${name}, yaw ${yaw}): stands within 3 s, stays standing, no pop`, async () => {
      const { w, body } = await died(from, yaw);
      const side = lyingSide(model, body.state);
      // the thorax alone tells the same side (its forward axis, link +Z, up or down)
      expect(side).toBe(body.state.work.pose[12 * THORAX + 5] > 0 ? 'faceUp' : 'faceDown');
      const r = await getUp(w, body);
      console.log(report(`died ${name}, yaw ${yaw}`, r));
      expect(r.side).toBe(side);
      expectGotUp(r);
    });
  }

  it('ends in a given pose (arms out, head turned, its root at another yaw): its joints within 0.05 rad of it a second after the assist, the heading the get-up\'s', async () => {
    const { w, body } = await placed('faceDown', 0.4);
    const pose = new State(model).q;
    setRoot(pose, 1.0, 0);
    quatFromAxisAngle(0, 0, 1, 1.2, pose, model.joint('shoulder_left').q);
    quatFromAxisAngle(0, 0, 1, -1.2, pose, model.joint('shoulder_right').q);
    quatFromAxisAngle(0, 1, 0, 0.5, pose, model.joint('neck').q);
    const expected = jointErrors(model, pose, pose);
    const r = await getUp(w, body, { pose });
    const errors = jointErrors(model, body.state.q, pose);
    const worst = Object.keys(expected).filter((k) => k !== 'pelvis' && !k.includes('position')).reduce((m, k) => Math.max(m, errors[k]), 0);
    const P = body.state.work.pose, heading = Math.atan2(P[12 * PELVIS + 2], P[12 * PELVIS + 8]);
    console.log(`${report('to a given pose, placed face down, yaw 0.4', r)}; worst joint error at the end ${worst.toFixed(3)} rad (shoulders ${errors.shoulder_left.toFixed(3)}, ${errors.shoulder_right.toFixed(3)}, neck ${errors.neck.toFixed(3)}), heading ${heading.toFixed(3)} rad`);
    expectGotUp(r);
    expect(worst).toBeLessThan(0.05);
    // face down at yaw 0.4 the head points along (sin 0.4, 0, cos 0.4): it stands up facing that way, not the pose's yaw 1
    expect(Math.abs(heading - 0.4)).toBeLessThan(0.1);
  });

  it('without the assist the same get-up does not stand (the preset\'s muscles alone do not lift it along these keys)', async () => {
    for (const side of ['faceDown', 'faceUp'] as const) {
      const { w, body } = await placed(side, 0);
      const r = await getUp(w, body, { assist: { force: 0, torque: 0 } });
      console.log(`[get-up] ${side} without the assist: standing at ${r.tStand} s, pelvis at the end ${body.state.work.pose[12 * PELVIS + 10].toFixed(3)} m`);
      expect(r.tStand).toBe(Infinity);
      expect(r.maxForce).toBe(0);
    }
  });

  it('a get-up that snaps to its first key pose instead of starting from the body\'s own pops: the measure catches it', async () => {
    const { w, body } = await placed('faceDown', 0);
    const keys = [{ ...FACE_DOWN_KEYS[0], at: H }, ...FACE_DOWN_KEYS.slice(1)];
    const r = await getUp(w, body, { keys }, 12);
    console.log(`[get-up] snapping to the first key: hand-over jump ${r.jumps[0].toFixed(2)} rad/s, link ${r.linkJumps[0].toFixed(2)} m/s (next 10 steps up to ${Math.max(...r.jumps.slice(1, 11)).toFixed(2)}, ${Math.max(...r.linkJumps.slice(1, 11)).toFixed(2)})`);
    expect(r.linkJumps[0]).toBeGreaterThan(0.1);
  });

  it('refuses bad input by name and leaves the body as it was', async () => {
    const { w, body } = await placed('faceUp', 0);
    const hold = new MotionFollower(w, body, { trajectory: new JointTrajectory(model, [0], body.state.q), root: 'free', initialize: false });
    expect(() => new GetUp(w, body)).toThrow(/body "hero" is still driven by a MotionFollower/);
    hold.remove();
    const q = Float64Array.from(body.state.q), sources = w.sources.length;
    expect(() => new GetUp(w, body, { speed: 0 })).toThrow(/speed 0/);
    expect(() => new GetUp(w, body, { assist: { force: -1 } })).toThrow(/assist.force -1/);
    expect(() => new GetUp(w, body, { pose: [1, 2, 3] })).toThrow(/pose has 3 numbers/);
    expect(() => new GetUp(w, body, { keys: [{ ...FACE_UP_KEYS[1], at: 1 }, { ...FACE_UP_KEYS[0], at: 0.5 }] })).toThrow(/key 1 \("sit up"\)/);
    const other = characterFromJSON({ ...humanoid({ height: 1.75, mass: 70 }), links: humanoid({ height: 1.75, mass: 70 }).links.map((l) => (l.name === 'shank_left' ? { ...l, joint: { ...l.joint, name: 'knee_l' } } : l)) }).model;
    const b2 = w.addBody(other, { name: 'other' });
    expect(() => new GetUp(w, b2)).toThrow(/body "other" has no joint "knee_left"/);
    expect(Array.from(body.state.q)).toEqual(Array.from(q));
    expect(w.sources.length).toBe(sources);
  });

  it('update() allocates nothing (under 4 bytes a call)', async () => {
    const { w, body } = await placed('faceDown', 0);
    const gu = new GetUp(w, body);
    for (let i = 0; i < 30; i++) { gu.update(H); w.step(H); }
    const m = youngGenerationGrowth(() => { gu.update(H); body.state.tau.fill(0); }, { warm: 4000, calls: 200, bound: 4, attempts: 60 });
    console.log(`[allocation] GetUp.update: ${m.perCall.toFixed(2)} B/call young-generation growth`);
    expect(gu.assistFigures[0]).toBeGreaterThan(0);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });
});
