/**
 * Abuse that games produce. Each scene must end at rest or in sensible motion, with no NaN, no
 * body through the ground (measured on the shapes' geometry, not on reported contacts, which a
 * tunnelled body no longer has), no energy gained beyond a stated bound without external work,
 * and a character spawned 30 cm deep must be out within 1 s. The World is slow (milliseconds per
 * humanoid step), so the simulated times are short; every scene prints its figures and timing.
 *
 *   - mass ratio 1:1000: a 0.1 kg link hinged to the world holds a 100 kg box by a pin;
 *   - a 20-link humanoid ragdoll dropped from 100 m;
 *   - a 1 kg sphere at 200 m/s into a standing ragdoll;
 *   - a character spawned 30 cm deep in the ground;
 *   - 5 characters spawned in the same place (SINEW_ABUSE_PILE=50 for the issue's 50, which
 *     passes the same assertions: 14.3 s for the first step, 372,750 rows, then 0.52 s per step,
 *     about a minute in all; too slow for the suite);
 *   - joints started far outside their limits;
 *   - time steps of 1/10 s and 1/1000 s.
 *
 * The 1:1000 pin, the 200 m/s projectile and its minimal case, a sphere sliding on a frictional
 * floor, were known bugs once (pins at the velocity level and a direct solve of bilateral
 * problems; the free joint's turn taken exactly in featherstone integrate.ts).
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardKinematics, kineticEnergy, pointPosition, pointVelocity, potentialEnergy, type Model } from '@sinew/featherstone';
import { PointPin, World, type Body, type WorldOptions } from '../src/index.js';
import { lowestPoint, limitViolation } from './body-measures.js';
import { humanoidTree } from './humanoid-fixture.js';

// ---------------------------------------------------------------------------------------------
// Measures
// ---------------------------------------------------------------------------------------------

/**
 * Kinetic and potential energy of all bodies (J), and the largest body speed (m/s) as the World's
 * sleep test measures it: sqrt(2 KE / m) per body (a whipping toe of 0.2 kg does not count as
 * the character flying off).
 */
function energies(world: World): { ke: number; pe: number; speed: number } {
  let ke = 0, pe = 0, speed = 0;
  for (const b of world.bodies) {
    forwardKinematics(b.model, b.state, true);
    const k = kineticEnergy(b.model, b.state);
    ke += k;
    pe += potentialEnergy(b.model, b.state);
    speed = Math.max(speed, Math.sqrt((2 * k) / b.model.totalMass()));
  }
  return { ke, pe, speed };
}

/**
 * Steps a world, watching every step: NaN, the lowest point, energy, speed, penetration, timing.
 * Yields to the event loop every 20 steps (a test computing for a minute without a break trips
 * vitest's worker RPC timeout; the 50-character pile can).
 */
async function watch(world: World, dt: number, steps: number, each?: (i: number) => void) {
  const w = { nan: 0, errors: [] as string[], minLowest: Infinity, maxKe: 0, maxE: -Infinity, maxSpeed: 0, maxPen: 0, halvings: 0, ms: 0, maxMs: 0, lowestAt: [] as number[] };
  for (let i = 0; i < steps; i++) {
    if (i % 20 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    each?.(i);
    const t0 = performance.now();
    const s = world.step(dt);
    const ms = performance.now() - t0;
    w.ms += ms;
    w.maxMs = Math.max(w.maxMs, ms);
    if (s.error) w.errors.push(s.error);
    w.halvings += s.halvings;
    w.maxPen = Math.max(w.maxPen, s.maxPenetration);
    for (const b of world.bodies) if (b.state.firstNonFinite() >= 0) w.nan++;
    const e = energies(world);
    w.maxKe = Math.max(w.maxKe, e.ke);
    w.maxE = Math.max(w.maxE, e.ke + e.pe);
    w.maxSpeed = Math.max(w.maxSpeed, e.speed);
    const low = Math.min(...world.bodies.map(lowestPoint));
    w.minLowest = Math.min(w.minLowest, low);
    w.lowestAt.push(low);
  }
  return w;
}

const fmt = (x: number, d = 3) => (Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(2) : x.toFixed(d));

function ground(options: WorldOptions = {}): World {
  const world = new World(options);
  world.addStatic({ geometry: { type: 'plane' } });
  return world;
}

/** A humanoid standing with its feet `feet` metres above the ground (the fixture's feet are 0.97 m below the pelvis origin... measured). */
function humanoid(world: World, name: string, x: number, feet: number, z = 0): Body {
  const b = world.addBody(humanoidTree(), { name });
  b.state.q[0] = x;
  b.state.q[2] = z;
  forwardKinematics(b.model, b.state, true);
  b.state.q[1] = feet - lowestPoint(b);
  forwardKinematics(b.model, b.state, true);
  return b;
}

// ---------------------------------------------------------------------------------------------

/** Figures of scenes whose known failures are asserted in it.fails blocks after them. */
const known: Record<string, { gain: number; bound: number; sep?: number; errors: number; speed?: number }> = {};

describe('abuse that games produce', () => {
  it('mass ratio 1:1000: a 0.1 kg link hinged to the world holds a 100 kg box by a pin: never a NaN state, the world keeps stepping', async () => {
    const b = new ModelBuilder();
    b.addLink({ name: 'hand', parent: null, joint: { type: 'revolute', axis: [0, 0, 1], position: [0, 2, 0] }, mass: 0.1, com: [0.15, 0, 0], inertia: [1e-5, 7.5e-4, 7.5e-4, 0, 0, 0] });
    const hand = b.build();
    const bb = new ModelBuilder();
    const h = 0.2, M = 100, I = (M * 2 * h * h) / 3;
    bb.addLink({ name: 'box', parent: null, joint: { type: 'free' }, mass: M, inertia: [I, I, I, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: [h, h, h] } }] });
    const world = ground({ sleep: false });
    const hb = world.addBody(hand, { name: 'hand' });
    const box = world.addBody(bb.build(), { name: 'box' });
    // the hand horizontal, the box hanging from its tip by its top centre: a double pendulum
    box.state.q.set([0.3, 2 - h, 0]);
    const pin = world.addConstraint(new PointPin(hb.index, 0, [0.3, 0, 0], { body: box.index, link: 0, point: [0, h, 0] }));
    const sep = new Float64Array(3);
    let worstSep = 0, firstError = -1;
    const e0 = energies(world);
    const E0 = e0.ke + e0.pe;
    const w = await watch(world, 1 / 60, 240, (i) => {
      pin.separation(world.bodies, sep);
      worstSep = Math.max(worstSep, Math.hypot(sep[0], sep[1], sep[2]));
      if (firstError < 0 && world.stats.error) firstError = i - 1;
    });
    const swingScale = M * 9.81 * 0.5; // 100 kg falling half a metre: the scale of the motion's energy
    known.pin = { gain: w.maxE - E0, bound: 0.01 * swingScale, sep: worstSep, errors: w.errors.length, speed: w.maxSpeed };
    console.log(`[abuse] 1:1000 pin: 4 s at 1/60 s, ${fmt(w.ms / 240, 2)} ms/step; pin separation <= ${fmt(worstSep)} m (bound 1 mm); energy gain ${fmt(w.maxE - E0)} J (bound ${fmt(0.01 * swingScale)} J = 1 % of m g 0.5 m); max body speed ${fmt(w.maxSpeed)} m/s; ${w.errors.length} steps rolled back, the first at step ${firstError}: ${JSON.stringify(w.errors[0] ?? '')}`);
    expect(w.nan).toBe(0); // every non-finite step was rolled back
  });
  // (Once a known bug: the pin drifted and the pendulum gained energy without bound. Pins are now
  // velocity-level rows (J (qd + h qdd) = 0, ConstraintSolver.setAccelerationRhs), and a problem of
  // bilateral rows only is solved by Cholesky, which the 1:1000 conditioning does not slow down.)
  it('mass ratio 1:1000: the pin holds within 1 mm and the energy stays within 1 %', () => {
    expect(known.pin.errors).toBe(0);
    expect(known.pin.sep!).toBeLessThan(1e-3);
    expect(known.pin.gain).toBeLessThan(known.pin.bound);
  });

  it('a humanoid ragdoll dropped from 100 m: no tunnelling, no energy gain, settles', async () => {
    const world = ground();
    const man = humanoid(world, 'faller', 0, 100);
    const e0 = energies(world);
    const E0 = e0.ke + e0.pe;
    const dt = 1 / 60;
    let impact = -1, keImpact = 0, keBefore = 0;
    const fall = await watch(world, dt, 330, (i) => {
      // (called before step i: the state is that after step i - 1)
      if (impact < 0 && lowestPoint(man) < 0.02) { impact = i; keImpact = keBefore; }
      keBefore = energies(world).ke;
    });
    const after = await watch(world, dt, 90); // 1.5 s more
    const eEnd = energies(world);
    console.log(`[abuse] drop from 100 m: ground reached at step ${impact} (${fmt(impact * dt, 2)} s; free fall predicts ${fmt(Math.sqrt(200 / 9.81), 2)} s), KE at impact ${fmt(keImpact, 0)} J (${fmt(Math.sqrt((2 * keImpact) / man.model.totalMass()), 1)} m/s); deepest point ${fmt(Math.min(fall.minLowest, after.minLowest))} m (reported penetration ${fmt(Math.max(fall.maxPen, after.maxPen))} m), halvings ${fall.halvings + after.halvings}; energy gain ${fmt(Math.max(fall.maxE, after.maxE) - E0)} J (bound 0.01 E0 = ${fmt(0.01 * E0, 0)} J); at 7 s KE ${fmt(eEnd.ke)} J, lowest ${fmt(lowestPoint(man))} m, ${man.sleeping ? 'asleep' : 'awake'}; ${fmt((fall.ms + after.ms) / 420, 2)} ms/step (max ${fmt(Math.max(fall.maxMs, after.maxMs), 1)} ms)`);
    expect(fall.nan + after.nan).toBe(0);
    expect([...fall.errors, ...after.errors]).toEqual([]);
    expect(impact * dt).toBeGreaterThan(4.3);
    expect(impact * dt).toBeLessThan(4.7);
    expect(Math.min(fall.minLowest, after.minLowest)).toBeGreaterThan(-0.1); // at 44 m/s, never 10 cm into the ground
    expect(lowestPoint(man)).toBeGreaterThan(-0.01);
    expect(Math.max(fall.maxE, after.maxE) - E0).toBeLessThan(0.01 * E0);
    expect(eEnd.ke).toBeLessThan(0.01 * keImpact); // the impact's energy is gone, not bouncing on
  });

  it('a 1 kg sphere at 200 m/s into a standing ragdoll: never a NaN state, nothing through the ground', async () => {
    const world = ground();
    const man = humanoid(world, 'target', 0, 0.001);
    const sb = new ModelBuilder();
    const r = 0.05, m = 1;
    sb.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: r }, restitution: 0.2 }] });
    const ball = world.addBody(sb.build(), { name: 'ball' });
    // chest height, 3 m away, flying along +x straight at the chest: free-joint qd = [w; v] in the link frame
    const c = new Float64Array(3);
    pointPosition(man.state, man.model.linkIndex('chest'), [0, 0.14, 0], c);
    ball.state.q.set([-3, c[1], c[2]]);
    ball.state.qd.set([0, 0, 0, 200, 0, 0]);
    forwardKinematics(ball.model, ball.state, true);
    const e0 = energies(world);
    const E0 = e0.ke + e0.pe;
    const p0 = man.state.q.slice(0, 3);
    const w = await watch(world, 1 / 60, 60);
    const hit = Math.hypot(man.state.q[0] - p0[0], man.state.q[2] - p0[2]);
    known.projectile = { gain: w.maxE - E0, bound: 0.01 * E0, errors: w.errors.length, speed: w.maxSpeed };
    console.log(`[abuse] 200 m/s sphere: ball at x = ${fmt(ball.state.q[0])} m after 1 s (it started at -3 m, the ragdoll at 0), ragdoll pelvis moved ${fmt(hit)} m; deepest point ${fmt(w.minLowest)} m; energy gain ${fmt(w.maxE - E0)} J of ${fmt(E0, 0)} J (bound 1 %); max body speed ${fmt(w.maxSpeed, 1)} m/s; halvings ${w.halvings}; ${w.errors.length} steps rolled back; ${fmt(w.ms / 60, 2)} ms/step (max ${fmt(w.maxMs, 1)} ms)`);
    expect(w.nan).toBe(0);
    expect(w.minLowest).toBeGreaterThan(-0.05);
  });
  // (Once a known bug: a free body's link-frame velocity stepped by Euler grew by sqrt(1 + (w dt)^2)
  // a step while it spun, so the ball came back at hundreds of m/s; featherstone integrate.ts now
  // steps the free joint in world terms.)
  it('a 1 kg sphere at 200 m/s into a ragdoll: no energy gained, nothing faster than the projectile', () => {
    expect(known.projectile.errors).toBe(0);
    expect(known.projectile.gain).toBeLessThan(known.projectile.bound);
    expect(known.projectile.speed!).toBeLessThan(200);
  });
  it('a sphere sliding at 1 m/s on a frictional ground rolls (v = w r) and does not gain energy', async () => {
    // friction turns sliding into rolling and loses energy: a solid sphere ends rolling at 5/7 of
    // its speed (angular momentum about the contact point is kept), KE from 0.5 J to 5/14 J
    const r = 0.05, m = 1;
    const roll = async (substeps: number) => {
      const world = ground({ sleep: false, substeps });
      const sb = new ModelBuilder();
      sb.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: r }, friction: 0.5 }] });
      const ball = world.addBody(sb.build(), { name: 'ball' });
      ball.state.q[1] = r;
      ball.state.qd[3] = 1;
      const e0 = energies(world);
      const w = await watch(world, 1 / 60, 120);
      // the centre's world velocity (the free joint's linear velocity is in the turning link frame)
      forwardKinematics(ball.model, ball.state, true);
      const u = new Float64Array(3);
      pointVelocity(ball.state, 0, [0, 0, 0], u);
      const v = Math.hypot(u[0], u[2]);
      const spin = Math.hypot(ball.state.qd[0], ball.state.qd[1], ball.state.qd[2]);
      const eEnd = energies(world);
      console.log(`[abuse] sliding sphere, ${substeps} sub-step(s) of 1/60 s: after 2 s ${fmt(v)} m/s (rolling predicts ${fmt(5 / 7)}), spin ${fmt(spin)} rad/s (v / r = ${fmt(v / r)}), KE ${fmt(eEnd.ke)} J (5/14 J = ${fmt(5 / 14)}), energy gain ${fmt(w.maxE - (e0.ke + e0.pe))} J`);
      return { v, spin, gain: w.maxE - (e0.ke + e0.pe) };
    };
    // at 60 Hz the ball turns 0.24 rad a step (14 rad/s): the step's turn puts v and w r about
    // (w h)^2 / 2 = 3 % apart; with 4 sub-steps (0.06 rad a step) they agree within 0.5 %
    const coarse = await roll(1), fine = await roll(4);
    for (const x of [coarse, fine]) {
      expect(x.gain).toBeLessThan(1e-3);
      expect(Math.abs(x.v - 5 / 7)).toBeLessThan(0.02 * (5 / 7));
    }
    expect(Math.abs(coarse.spin * r - coarse.v)).toBeLessThan(0.04 * coarse.v);
    expect(Math.abs(fine.spin * r - fine.v)).toBeLessThan(0.005 * fine.v);
  });

  it('a character spawned 30 cm deep in the ground is out within 1 s, without being shot out', async () => {
    const world = ground();
    const man = humanoid(world, 'buried', 0, -0.3);
    const stand = man.state.q[1] + 0.3; // pelvis height when standing on the ground
    const e0 = energies(world);
    const E0 = e0.ke + e0.pe;
    const lift = man.model.totalMass() * 9.81 * 0.3; // lifting the whole body 30 cm: the energy depenetration must add
    let pelvisMax = -Infinity, keOut = 0;
    const w = await watch(world, 1 / 60, 60, (i) => {
      pelvisMax = Math.max(pelvisMax, man.state.q[1]);
      if (i > 0 && i <= 6) keOut = Math.max(keOut, energies(world).ke); // the first 0.1 s: the push out
    });
    const outAt = w.lowestAt.findIndex((y) => y > -0.01);
    const later = await watch(world, 1 / 60, 30, () => { pelvisMax = Math.max(pelvisMax, man.state.q[1]); });
    console.log(`[abuse] spawned 30 cm deep: out (< 1 cm deep) after step ${outAt + 1} (${fmt((outAt + 1) / 60, 3)} s), ${fmt(w.lowestAt[59])} m at 1 s, ${fmt(lowestPoint(man))} m at 1.5 s; pelvis at most ${fmt(pelvisMax - stand)} m above standing height; KE in the first 0.1 s at most ${fmt(keOut)} J; max body speed ${fmt(Math.max(w.maxSpeed, later.maxSpeed))} m/s (it then topples); energy gain ${fmt(w.maxE - E0)} J (the lift is ${fmt(lift, 0)} J; bound: lift + 50 %); ${fmt(w.ms / 60, 2)} ms/step`);
    expect(w.nan + later.nan).toBe(0);
    expect([...w.errors, ...later.errors]).toEqual([]);
    expect(outAt).toBeGreaterThanOrEqual(0);
    expect(outAt).toBeLessThan(60); // out within 1 s
    expect(w.lowestAt[59]).toBeGreaterThan(-0.01);
    expect(later.minLowest).toBeGreaterThan(-0.03); // it then topples and lands: a landing's overlap
    expect(w.maxE - E0).toBeLessThan(1.5 * lift);
    expect(pelvisMax - stand).toBeLessThan(0.1); // pushed out, not launched
    expect(keOut).toBeLessThan(0.1 * lift); // the push moves it, it does not throw it
    expect(Math.max(w.maxSpeed, later.maxSpeed)).toBeLessThan(Math.sqrt(2 * 9.81 * 1)); // no faster than toppling from its height
  });

  const SAME_PLACE = Number(process.env.SINEW_ABUSE_PILE ?? 5);
  it(`${SAME_PLACE} characters spawned in the same place separate without exploding`, async () => {
    const world = ground();
    for (let k = 0; k < SAME_PLACE; k++) humanoid(world, `clone${k}`, 0, 0.05);
    const e0 = energies(world);
    const E0 = e0.ke + e0.pe;
    let first = 0, top = 0;
    const w = await watch(world, 1 / 60, 90, (i) => {
      if (i === 1) first = world.stats.rows;
      for (const b of world.bodies) top = Math.max(top, b.state.q[1]);
    });
    const pelvis = world.bodies.map((b) => [b.state.q[0], b.state.q[1], b.state.q[2]]);
    let minDist = Infinity;
    for (let i = 0; i < pelvis.length; i++) for (let j = i + 1; j < pelvis.length; j++) minDist = Math.min(minDist, Math.hypot(pelvis[i][0] - pelvis[j][0], pelvis[i][1] - pelvis[j][1], pelvis[i][2] - pelvis[j][2]));
    const mass = SAME_PLACE * world.bodies[0].model.totalMass();
    const eEnd = energies(world);
    console.log(`[abuse] ${SAME_PLACE} in the same place: the first step took ${fmt(w.maxMs, 0)} ms (${first} rows), then ${fmt((w.ms - w.maxMs) / 89, 1)} ms/step; closest pelvises ${fmt(minDist)} m apart at 1.5 s; highest pelvis ${fmt(top)} m; max body speed ${fmt(w.maxSpeed)} m/s; energy gain ${fmt(w.maxE - E0)} J (bound: the pile lifted 1 m, ${fmt(mass * 9.81, 0)} J); KE at 1.5 s ${fmt(eEnd.ke)} J; deepest point ${fmt(w.minLowest)} m; errors ${w.errors.length}`);
    expect(w.nan).toBe(0);
    expect(w.errors).toEqual([]);
    expect(w.minLowest).toBeGreaterThan(-0.05);
    expect(minDist).toBeGreaterThan(0.1); // untangled
    expect(w.maxE - E0).toBeLessThan(mass * 9.81);
    expect(w.maxSpeed).toBeLessThan(Math.sqrt(2 * 9.81 * top) + 1); // no body faster than a fall from the highest pelvis
  }, SAME_PLACE > 10 ? 3_600_000 : undefined);

  /** A humanoid 2 cm above the ground with four joints far outside their limits (raised by `lift` more). */
  function twisted(world: World, lift = 0): Body {
    const man = humanoid(world, 'twisted', 0, 0.02 + lift);
    const set = (joint: string, v: number | number[]) => man.state.setJointQ(joint, v);
    set('l_shin', -2); // limits [0, 2.4]: 2 rad past the stop
    set('r_forearm', 2.5); // limits [-2.5, 0]
    set('r_foot', 2.0); // limits [-0.7, 0.5]
    const a = 2.8; // the left upper arm's swing cone is 1.4 rad: swung 2.8 rad about z
    set('l_upperarm', [0, 0, Math.sin(a / 2), Math.cos(a / 2)]);
    forwardKinematics(man.model, man.state, true);
    return man;
  }

  it('joints started far outside their limits come back within 1 s, without an explosion', async () => {
    const world = ground();
    const man = twisted(world);
    const v0 = limitViolation(man);
    const e0 = energies(world);
    const E0 = e0.ke + e0.pe;
    const viol: number[] = [];
    const w = await watch(world, 1 / 60, 90, () => viol.push(limitViolation(man)));
    viol.push(limitViolation(man));
    const backAt = viol.findIndex((x) => x < 0.05);
    console.log(`[abuse] joints outside their limits: ${fmt(v0, 2)} rad at the start; below 0.05 rad from step ${backAt} (${fmt(backAt / 60, 3)} s), ${fmt(viol[60])} rad at 1 s, ${fmt(viol[90])} at 1.5 s; max body speed ${fmt(w.maxSpeed)} m/s; energy gain ${fmt(w.maxE - E0)} J (bound 50 J); deepest point ${fmt(w.minLowest)} m; ${fmt(w.ms / 90, 2)} ms/step`);
    expect(v0).toBeGreaterThan(1.3);
    expect(w.nan).toBe(0);
    expect(w.errors).toEqual([]);
    expect(backAt).toBeGreaterThanOrEqual(0);
    expect(backAt).toBeLessThanOrEqual(60);
    expect(viol[90]).toBeLessThan(0.05);
    expect(w.maxSpeed).toBeLessThan(Math.sqrt(2 * 9.81 * 1)); // no faster than falling its own height (it topples)
    expect(w.maxE - E0).toBeLessThan(50);
    // no tunnelling (the 5 cm this scene should keep to is the known failure below)
    expect(w.minLowest).toBeGreaterThan(-0.1);
  });

  // Once a known failure: over starts 1 nm apart the scene landed at -3.9 to -5.6 cm (16 starts: 5
  // below -5 cm): post-stabilisation corrected a hand's cone limit, 0.4 rad out, in one linearised
  // move that turned the whole tree, and a shin without a contact row went 5.5 cm into the ground.
  // The tree's momentum and centre of mass kept through its flight (step/momentum.ts conserveGroupMomenta) and
  // the kinetic energy such corrections add taken back (step/energy-account.ts boundEnergy), it lands at about -2 to
  // -3 cm.
  it('joints started far outside their limits: no point goes 5 cm into the ground, from 8 starts 1 nm apart', async () => {
    let deepest = 0;
    for (let k = 1; k <= 8; k++) {
      const world = ground();
      twisted(world, k * 1e-9);
      const w = await watch(world, 1 / 60, 90);
      deepest = Math.min(deepest, w.minLowest);
    }
    console.log(`[abuse] joints outside their limits, 8 starts 1 nm apart: deepest point ${fmt(deepest)} m (bound -0.05 m)`);
    expect(deepest).toBeGreaterThan(-0.05);
  });

  // At 1/10 s the dropped humanoid stands for a while and then topples; when it topples is chaotic
  // (a change of 1e-9 m in the drop height moves it by seconds, in the dense solver as in the
  // implicit one), so its rest is judged after 15 s. Over 256 drops from heights 0 to 255 nm apart
  // it fell asleep at 5.0 s (median), 6.8 s (90 %), 9.1 s (99 %) and 11.1 s at the latest; 55 of
  // them were still awake at 6 s, where this test used to judge.
  for (const [dt, seconds] of [[1 / 10, 15], [1 / 1000, 0.6]] as const) {
    it(`time step ${dt === 0.1 ? '1/10' : '1/1000'} s: a humanoid dropped from 0.5 m lands without NaN, tunnelling or energy gain`, async () => {
      const world = ground();
      const man = humanoid(world, 'dropped', 0, 0.5);
      const e0 = energies(world);
      const E0 = e0.ke + e0.pe;
      const steps = Math.round(seconds / dt);
      const w = await watch(world, dt, steps);
      const eEnd = energies(world);
      console.log(`[abuse] dt = ${fmt(dt, 3)} s: ${steps} steps (${fmt(seconds, 1)} s) at ${fmt(w.ms / steps, 2)} ms/step (max ${fmt(w.maxMs, 1)}), halvings ${w.halvings}; deepest point ${fmt(w.minLowest)} m, reported penetration ${fmt(w.maxPen)} m; energy gain ${fmt(w.maxE - E0)} J (bound 5 J); KE at the end ${fmt(eEnd.ke)} J, lowest ${fmt(lowestPoint(man))} m, ${man.sleeping ? 'asleep' : 'awake'}; errors ${w.errors.length}`);
      expect(w.nan).toBe(0);
      expect(w.errors).toEqual([]);
      // at 1/10 s the landing overlaps the ground by 3 to 4 cm (measured 2.8 and 4.1 cm while the
      // World was being reworked): a 5 cm bound; at 1/1000 s 2 cm
      expect(w.minLowest).toBeGreaterThan(dt === 0.1 ? -0.05 : -0.02);
      expect(lowestPoint(man)).toBeGreaterThan(dt === 0.1 ? -0.05 : -0.01);
      expect(w.maxE - E0).toBeLessThan(5);
      if (dt === 0.1) {
        expect(eEnd.ke).toBeLessThan(1); // at rest after 15 s
        expect(man.sleeping).toBe(true);
      }
    });
  }
});
