/**
 * Balance (control/balance.ts): the humanoid preset (1.75 m, 70 kg) standing on a floor with a free
 * root and no assisting force on it, in the default World (30 solver iterations) at 1/60 s.
 *
 * No root assist, by construction: the only controller is the Balance (its MotionFollower has a
 * free root: drive.driven[0] is 0, so the root's six dofs get no drive row), and before every step
 * the root's six joint forces (tau[0..5]) and every link's external force (fext) are checked to be
 * zero; the pushes below are the only external forces, applied by the test itself.
 *
 * Standing: 60 s (3600 steps), checked at every step: pelvis within 2 cm of its standing height
 * (0.9275 m, the root joint's height in the neutral pose, feet flat on y = 0), thorax within 3
 * degrees of vertical, both feet touching the floor in the World's contact list; the body stays
 * awake (driven: the World does not put it to sleep), so it is balancing at every step.
 *
 * Pushes at the chest: a horizontal force at the thorax, 0.15 m above its joint (mid-chest), for
 * 0.1 s (6 steps), 1 s after the start; impulse J (N s) = force x 0.1 s. Every push of 2, 4, ... N s
 * up to a stated size must recover within 3 s of the push's end: from then on to the end (6 s) the
 * centre of mass stays within 3 cm of the middle of the soles (horizontally) and moves slower than
 * 0.05 m/s; and never `fallen`: from behind (force forward) to 12 N s, from the front (force
 * backward) to 17 N s, from the left and from the right to 13 N s. Swept with 1 N s steps from 1 N s
 * (scratch, the same push): every push recovers within 3 s up to 15 N s from behind (16 falls), to
 * 20 from the front, to 14 from the left (15 and 16 recover in 3.3 and 2.4 s, 17 falls) and to 15
 * from the right (16 recovers in 3.3 s, 17 falls). Sideways this needs eq. (2b) of balance.ts, the feet held flat about their length:
 * without it, 4 N s from the right and 9 N s from the left felled the preset while 13 N s recovered.
 * A clearly larger push, 30 N s (about twice the weakest direction's largest), must fall: `fallen` is set, the follower has died (its muscle tone fades to
 * its residual, 0.05, within 1 s) and 2 s later the pelvis lies below half its standing height.
 *
 * Allocation: Balance.update measured as the World's step is (world-allocation.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { forwardKinematics, State } from '@sinew/featherstone';
import { World, type Body } from '@sinew/constraints';
import { onFloor } from './floor-contacts.js';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import { Balance, JointTrajectory, MotionFollower, type BalanceOptions } from '../src/control/index.js';
import { quatFromAxisAngle } from '../src/motion/quat.js';
import { describeBatches, youngGenerationGrowth } from '../../featherstone/test/young-generation.js';

const H = 1 / 60;
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;
const PELVIS = model.linkIndex('pelvis'), THORAX = model.linkIndex('thorax');
const FEET = [model.linkIndex('foot_left'), model.linkIndex('foot_right')];
/** The pelvis's standing height: the root joint's height in the neutral pose (feet flat on y = 0). */
const STANDING = model.treeX[10];
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

function world(): World {
  const w = new World();
  w.addStatic({ geometry: { type: 'plane' } });
  return w;
}

/** The humanoid standing in the neutral pose at heading `yaw`, feet flat on the floor. */
function standing(yaw = 0): { w: World; body: Body } {
  const w = world();
  const body = w.addBody(model, { name: 'hero' });
  quatFromAxisAngle(0, 1, 0, yaw, body.state.q, 3);
  forwardKinematics(model, body.state, true);
  return { w, body };
}

/** The root's joint forces and every external force on the body are zero (nothing but the joints holds it up). */
function expectNoRootForce(body: Body): void {
  const st = body.state;
  for (let k = 0; k < 6; k++) if (st.tau[k] !== 0) throw new Error(`root force tau[${k}] = ${st.tau[k]}`);
  for (let k = 0; k < st.fext.length; k++) if (st.fext[k] !== 0) throw new Error(`external force fext[${k}] = ${st.fext[k]}`);
}

function tiltDeg(body: Body): number {
  const P = body.state.work.pose;
  return (Math.acos(Math.min(1, P[12 * THORAX + 4])) * 180) / Math.PI;
}

interface PushRun {
  fallen: boolean;
  fallenAt: number;
  /** Seconds after the push's end from which the centre of mass stays within 3 cm of the soles' middle, slower than 0.05 m/s (Infinity: never). */
  recovered: number;
  /** Largest horizontal distance of the capture point from the soles' middle (m), and largest trunk bend of the hip strategy (rad). */
  maxCapture: number;
  maxBend: number;
  tone: number;
  pelvisAfter: number;
}

const PUSH_START = 60, PUSH_STEPS = 6;

/** Pushes the standing body at the chest with a horizontal impulse J (N s) along (dx, dz) over 0.1 s, and runs `seconds`. */
async function push(dx: number, dz: number, J: number, seconds = 6, options: BalanceOptions = {}): Promise<PushRun> {
  const { w, body } = standing();
  const balance = new Balance(w, body, options);
  const F = balance.figures, st = body.state;
  const force = J / (PUSH_STEPS * H);
  let fallenAt = -1, lastBad = 0, maxCapture = 0, maxBend = 0, tone = 1;
  const steps = Math.round(seconds / H);
  for (let i = 0; i < steps; i++) {
    balance.update(H);
    expectNoRootForce(body);
    if (i >= PUSH_START && i < PUSH_START + PUSH_STEPS) {
      const p = body.linkPosition(THORAX);
      st.applyForce(THORAX, [dx * force, 0, dz * force], [p[0], p[1] + 0.15, p[2]]);
    }
    w.step(H);
    if (i % 60 === 59) await breathe();
    if (balance.fallen && fallenAt < 0) fallenAt = (i + 1) * H;
    if (balance.fallen) continue;
    const ox = F[0] - F[8], oz = F[2] - F[9], speed = Math.hypot(F[3], F[5]);
    if (Math.hypot(ox, oz) > 0.03 || speed > 0.05) lastBad = i + 1;
    maxCapture = Math.max(maxCapture, Math.hypot(F[6] - F[8], F[7] - F[9]));
    maxBend = Math.max(maxBend, Math.abs(F[14]));
  }
  tone = balance.follower.currentTone;
  const pushEnd = (PUSH_START + PUSH_STEPS) * H;
  const recovered = fallenAt >= 0 || lastBad >= steps ? Infinity : Math.max(0, lastBad * H - pushEnd);
  return { fallen: balance.fallen, fallenAt, recovered, maxCapture, maxBend, tone, pelvisAfter: st.work.pose[12 * PELVIS + 10] };
}

/** Each direction: every push of 2, 4, ... up to `upTo` N s must recover. */
const DIRECTIONS = [
  { name: 'from behind', dx: 0, dz: 1, upTo: 12 },
  { name: 'from the front', dx: 0, dz: -1, upTo: 17 },
  { name: 'from the left', dx: -1, dz: 0, upTo: 13 },
  { name: 'from the right', dx: 1, dz: 0, upTo: 13 },
] as const;

/** 2, 4, ... and upTo itself (N s). */
const sizesUpTo = (upTo: number): number[] => [...Array.from({ length: Math.floor((upTo - 1) / 2) }, (_, k) => 2 * (k + 1)), upTo];

describe('Balance: standing with a free root and no assist', () => {
  it('stands 60 s at 1/60 s: pelvis height, trunk upright and both feet on the floor at every step, no root force', async () => {
    const { w, body } = standing(0.7);
    const balance = new Balance(w, body);
    expect(balance.follower.root).toBe('free');
    expect(balance.follower.drive.driven[0]).toBe(0);
    let minY = Infinity, maxY = -Infinity, maxTilt = 0, feetSteps = 0, awake = 0;
    const P = body.state.work.pose;
    for (let i = 0; i < 3600; i++) {
      balance.update(H);
      expectNoRootForce(body);
      w.step(H);
      if (i % 60 === 59) await breathe();
      const y = P[12 * PELVIS + 10];
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      maxTilt = Math.max(maxTilt, tiltDeg(body));
      const touch = onFloor(w, body.index);
      if (FEET.every((f) => touch.has(f))) feetSteps++;
      if (!body.sleeping) awake++;
    }
    console.log(`[balance] stood 60 s (3600 steps at 1/60 s, heading 0.7 rad): pelvis ${minY.toFixed(4)}..${maxY.toFixed(4)} m (standing ${STANDING.toFixed(4)}), thorax at most ${maxTilt.toFixed(2)} deg from vertical, both feet on the floor ${feetSteps}/3600 steps, awake ${awake}/3600, fallen ${balance.fallen}`);
    expect(balance.fallen).toBe(false);
    expect(Math.abs(minY - STANDING)).toBeLessThan(0.02);
    expect(Math.abs(maxY - STANDING)).toBeLessThan(0.02);
    expect(maxTilt).toBeLessThan(3);
    expect(feetSteps).toBe(3600);
    expect(awake).toBe(3600);
  }, 240_000);
});

describe('Balance: pushes at the chest', () => {
  for (const d of DIRECTIONS) {
    it(`${d.name}: every push of ${sizesUpTo(d.upTo).join(', ')} N s recovers within 3 s`, async () => {
      const runs: string[] = [];
      let worst = 0, fell = '';
      for (const J of sizesUpTo(d.upTo)) {
        const r = await push(d.dx, d.dz, J);
        runs.push(`${J} N s: ${r.fallen ? `fallen at ${r.fallenAt.toFixed(2)} s` : `recovered ${r.recovered.toFixed(2)} s after the push, capture point at most ${r.maxCapture.toFixed(3)} m`}`);
        if (r.fallen && !fell) fell = `${J} N s`;
        worst = Math.max(worst, r.recovered);
      }
      console.log(`[balance] pushes ${d.name} over 0.1 s at the chest (recovered: centre of mass within 3 cm of the soles' middle, slower than 0.05 m/s, to the end): ${runs.join('; ')}`);
      expect(fell, 'the first push that fell').toBe('');
      expect(worst).toBeLessThanOrEqual(3);
    }, 240_000);

    it(`${d.name}: 30 N s falls as a death`, async () => {
      const over = await push(d.dx, d.dz, 30);
      console.log(`[balance] push ${d.name} of 30 N s: fallen at ${over.fallenAt.toFixed(2)} s (push at 1.00 s), muscle tone ${over.tone.toFixed(3)} at 6 s, pelvis at ${over.pelvisAfter.toFixed(3)} m`);
      expect(over.fallen).toBe(true);
      // died: the tone faded to its residual (0.05) within the death's 0.8 s fade, and it lies on the floor
      expect(over.fallenAt).toBeLessThan(4);
      expect(over.tone).toBeLessThanOrEqual(0.05 + 1e-9);
      expect(over.pelvisAfter).toBeLessThan(0.5 * STANDING);
    }, 240_000);
  }

  it('the hip strategy\'s trunk bend (eq. 3, hip.gain 20) stays 0 while the capture point is within the soles\' reach less the margin, and engages past it', async () => {
    // the soles' front edge is 0.133 m ahead of their middle (the preset's foot box), the margin 0.03 m
    const within = await push(0, 1, 12, 6, { hip: { gain: 20 } });
    const past = await push(0, 1, 16, 6, { hip: { gain: 20 } });
    console.log(`[balance] hip.gain 20, push from behind: 12 N s: capture point at most ${within.maxCapture.toFixed(3)} m ahead, bend at most ${within.maxBend.toFixed(2)} rad, fallen ${within.fallen}; ` +
      `16 N s: capture point at most ${past.maxCapture.toFixed(3)} m, bend at most ${past.maxBend.toFixed(2)} rad, fallen ${past.fallen}`);
    expect(within.maxCapture).toBeLessThan(0.133 - 0.03);
    expect(within.maxBend).toBe(0);
    expect(within.fallen).toBe(false);
    expect(past.maxCapture).toBeGreaterThan(0.133 - 0.03);
    expect(past.maxBend).toBeGreaterThan(0.05);
  }, 240_000);

  it('a fall with die: false sets fallen and leaves the drives on (no death)', async () => {
    const r = await push(0, 1, 30, 4, { die: false });
    expect(r.fallen).toBe(true);
    expect(r.tone).toBe(1);
  }, 240_000);
});

describe('Balance: bad input is refused by name, and nothing is changed', () => {
  it('refuses bad options, models and dt', () => {
    const { w, body } = standing();
    const q = Float64Array.from(body.state.q);
    expect(() => new Balance(w, body, { ankle: { gain: -1 } })).toThrow(/ankle\.gain -1/);
    expect(() => new Balance(w, body, { ankle: { settleTime: 0 } })).toThrow(/ankle\.settleTime/);
    expect(() => new Balance(w, body, { hip: { maxBend: Number.NaN } })).toThrow(/hip\.maxBend/);
    expect(() => new Balance(w, body, { fallHeight: 2 })).toThrow(/fallHeight 2/);
    expect(() => new Balance(w, body, { maxTorque: { legs: 300 } })).toThrow(/maxTorque of group "legs" 300.*DEFAULT_MAX_TORQUES/);
    expect(() => new Balance(w, body, { pose: [0, 1] })).toThrow(/pose has 2 numbers; expected the model's nq = 55/);
    const bad = new State(model).q;
    bad[20] = Number.NaN;
    expect(() => new Balance(w, body, { pose: bad })).toThrow(/pose\[20\] is not finite/);
    // a body whose legs are not the humanoid preset's (a hip renamed)
    const d = humanoid({ height: 1.75, mass: 70 });
    const renamed = characterFromJSON({ ...d, links: d.links.map((l) => (l.name === 'thigh_left' ? { ...l, joint: { ...l.joint, name: 'hip_l' } } : l)) }).model;
    const other = w.addBody(renamed, { name: 'other' });
    expect(() => new Balance(w, other)).toThrow(/Balance: body "other" has no joint "hip_left"/);
    // a body another follower still drives
    const f = new MotionFollower(w, body, { trajectory: new JointTrajectory(model, [0], new State(model).q), root: 'free', initialize: false });
    const n = w.sources.length;
    expect(() => new Balance(w, body)).toThrow(/Balance: body "hero" is still driven by a MotionFollower/);
    expect(w.sources.length).toBe(n);
    f.remove();
    expect(Array.from(body.state.q)).toEqual(Array.from(q));
    const b = new Balance(w, body);
    expect(() => b.update(0)).toThrow(/Balance\.update: dt 0 must be a positive number/);
    expect(() => b.update(Number.NaN)).toThrow(/Balance\.update: dt NaN/);
    expect(Array.from(body.state.q)).toEqual(Array.from(q));
  });

  it('update() allocates nothing (under 4 bytes a call)', () => {
    const { w, body } = standing();
    const balance = new Balance(w, body);
    for (let i = 0; i < 30; i++) { balance.update(H); w.step(H); }
    const m = youngGenerationGrowth(() => { balance.update(H); body.state.tau.fill(0); }, { warm: 4000, calls: 200, bound: 4, attempts: 60 });
    console.log(`[allocation] Balance.update: ${m.perCall.toFixed(2)} B/call young-generation growth`);
    expect(balance.feetOnGround).toBe(3);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });
});
