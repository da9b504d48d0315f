/**
 * Contacts, friction and the World's step against analytic answers: a box on an incline (sticks
 * when tan(theta) < mu, slides with a = g (sin theta - mu cos theta) otherwise), a ball's rebound
 * height e^2 h, a ball rolling and a sliding ball rolling off at 5/7 of its speed, a projectile
 * stopped by a thin wall, a box sliding on a plane under each friction combine rule, bodies coming to rest and sleeping, the LCP
 * conditions of a pile's contact forces, and momentum kept on frictionless ground.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardKinematics, kineticEnergy, momentum, type Model } from '@sinew/featherstone';
import { World, type Body, type WorldOptions } from '../src/index.js';
import { RowTag } from '../src/internals.js';
import { rodChain } from './chain-fixture.js';
import { humanoidTree } from './humanoid-fixture.js';
import { slidingDeceleration } from './body-measures.js';

function ballModel(r: number, m: number, e: number, mu = 0.5): Model {
  const b = new ModelBuilder();
  const I = 0.4 * m * r * r;
  b.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: r }, restitution: e, friction: mu }] });
  return b.build();
}

function boxModel(m: number, mu: number, he: [number, number, number] = [0.2, 0.1, 0.15]): Model {
  const b = new ModelBuilder();
  const [x, y, z] = he;
  b.addLink({ name: 'box', parent: null, joint: { type: 'free' }, mass: m, inertia: [(m * (y * y + z * z)) / 3, (m * (x * x + z * z)) / 3, (m * (x * x + y * y)) / 3, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: he }, friction: mu }] });
  return b.build();
}

describe('a box on an incline', () => {
  for (const mu of [0.2, 0.5, 1.0]) {
    for (const deg of [10, 25, 40, 55]) {
      const th = (deg * Math.PI) / 180;
      const slides = Math.tan(th) > mu;
      it(`mu = ${mu}, theta = ${deg} deg: ${slides ? 'slides with a = g (sin - mu cos)' : 'sticks'} (within 1%), resting on 4 points without rocking`, () => {
        const world = new World({ sleep: false });
        const q = [0, 0, Math.sin(th / 2), Math.cos(th / 2)];
        world.addStatic({ geometry: { type: 'plane' }, rotation: q, friction: mu });
        const body = world.addBody(boxModel(2, mu));
        body.state.q.set([-Math.sin(th) * 0.1, Math.cos(th) * 0.1, 0, ...q]);
        const down = [-Math.cos(th), -Math.sin(th)];
        const along = () => body.state.q[0] * down[0] + body.state.q[1] * down[1];
        const s0 = along();
        let maxTilt = 0;
        const t1 = 0.25, t2 = 1.25;
        let p1 = 0;
        for (let s = 1; s <= 300; s++) {
          world.step(1 / 240);
          expect(world.stats.contacts).toBe(4);
          // rocking: the box's orientation leaves the incline's
          const [x, y, z, w] = body.state.q.subarray(3, 7);
          maxTilt = Math.max(maxTilt, 2 * Math.acos(Math.min(1, Math.abs(x * q[0] + y * q[1] + z * q[2] + w * q[3]))));
          if (s === 60) p1 = along();
        }
        const p2 = along();
        const a = (2 * (p2 - p1)) / (t2 * t2 - t1 * t1);
        const expected = slides ? 9.81 * (Math.sin(th) - mu * Math.cos(th)) : 0;
        if (slides) expect(Math.abs(a - expected) / expected).toBeLessThan(0.01);
        else expect(Math.abs(p2 - s0)).toBeLessThan(1e-6);
        expect(maxTilt).toBeLessThan(1e-4);
      });
    }
  }
});

describe('friction combine rules (ShapeDesc.frictionCombine)', () => {
  // a box slides on a plane at 3 m/s: it decelerates at mu g, mu the two frictions combined by
  // the rule that wins (geometric < average < min < multiply < max, as PhysX's modes)
  const cases: [string | undefined, number, string | undefined, number, number][] = [
    [undefined, 0.3, undefined, 0.6, Math.sqrt(0.3 * 0.6)],
    ['average', 0.3, undefined, 0.6, 0.45],
    ['min', 0.3, 'average', 0.6, 0.3],
    ['multiply', 0.3, 'min', 0.6, 0.18],
    ['max', 0.3, 'multiply', 0.6, 0.6],
    [undefined, 0.3, 'max', 0.6, 0.6],
    ['max', 0, undefined, 0.6, 0.6], // a frictionless shape that takes the other's friction (MJCF's condim 1)
    ['max', 0, 'max', 0, 0], // two of them slide freely
  ];
  for (const [boxRule, boxMu, planeRule, planeMu, mu] of cases) {
    it(`box ${boxRule ?? 'geometric'} (mu ${boxMu}) on a plane ${planeRule ?? 'geometric'} (mu ${planeMu}): decelerates at ${mu.toFixed(4)} g (1 %)`, () => {
      const world = new World({ sleep: false });
      world.addStatic({ geometry: { type: 'plane' }, friction: planeMu, ...(planeRule ? { frictionCombine: planeRule as never } : {}) });
      const b = new ModelBuilder();
      const m = 2, he = [0.2, 0.1, 0.15];
      b.addLink({ name: 'box', parent: null, joint: { type: 'free' }, mass: m, inertia: [(m * (he[1] ** 2 + he[2] ** 2)) / 3, (m * (he[0] ** 2 + he[2] ** 2)) / 3, (m * (he[0] ** 2 + he[1] ** 2)) / 3, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: he as [number, number, number] }, friction: boxMu, ...(boxRule ? { frictionCombine: boxRule as never } : {}) }] });
      const body = world.addBody(b.build(), { position: [0, 0.1, 0], linearVelocity: [3, 0, 0] });
      // (still sliding at 0.3 s: 3 m/s stops after 3 / (0.6 g) = 0.51 s at the most)
      const a = slidingDeceleration(world, body);
      if (mu === 0) expect(Math.abs(a)).toBeLessThan(1e-9);
      else expect(Math.abs(a - mu * 9.81) / (mu * 9.81)).toBeLessThan(0.01);
    });
  }

  it('refuses a rule it does not know, naming the shape and the rules', () => {
    const world = new World();
    expect(() => world.addStatic({ geometry: { type: 'plane' }, frictionCombine: 'maximum' as never })).toThrow(/frictionCombine must be one of 'geometric', 'average', 'min', 'multiply', 'max', got maximum/);
  });
});

describe('torsional friction', () => {
  it('a ball spinning on its contact normal slows at I dw/dt = spinFriction mu m g and stops (analytic, 1 %)', () => {
    const r = 0.1, m = 2, I = 0.4 * m * r * r, mu = 0.5, spin = 0.005, w0 = 10;
    const world = new World({ sleep: false, friction: { spinFriction: spin } });
    world.addStatic({ geometry: { type: 'plane' }, friction: 0.5 });
    const sb = new ModelBuilder();
    sb.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: m, inertia: [I, I, I, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: r }, friction: mu }] });
    const ball = world.addBody(sb.build(), { name: 'ball' });
    ball.state.q[1] = r;
    ball.state.qd[1] = w0; // about the vertical: no point contact's sliding friction can stop that
    const rate = (spin * mu * m * 9.81) / I;
    for (let i = 1; i <= 60; i++) {
      world.step(1 / 60);
      if (i % 15 === 0) expect(Math.abs(ball.state.qd[1] - (w0 - (rate * i) / 60))).toBeLessThan(0.01 * w0);
    }
    for (let i = 0; i < 60; i++) world.step(1 / 60); // past w0 / rate = 1.63 s
    expect(Math.abs(ball.state.qd[1])).toBeLessThan(1e-6);
    expect(ball.state.q[1]).toBeCloseTo(r, 3);
  });
});

/** World velocity of a free body's origin and its world angular velocity: R v and R w, R from the joint's quaternion. */
function worldTwist(body: Body): { u: number[]; w: number[] } {
  const q = body.state.q, qd = body.state.qd;
  const x = q[3], y = q[4], z = q[5], s = q[6];
  const rotate = (l: number[]): number[] => {
    const t = [2 * (y * l[2] - z * l[1]), 2 * (z * l[0] - x * l[2]), 2 * (x * l[1] - y * l[0])];
    return [l[0] + s * t[0] + (y * t[2] - z * t[1]), l[1] + s * t[1] + (z * t[0] - x * t[2]), l[2] + s * t[2] + (x * t[1] - y * t[0])];
  };
  return { u: rotate([qd[3], qd[4], qd[5]]), w: rotate([qd[0], qd[1], qd[2]]) };
}

describe('rolling', () => {
  it('a ball rolling at 1 and 2.4 m/s stays on the ground and keeps x = v t (it used to hover 3 mm and hop 28 mm at 60 Hz)', () => {
    const r = 0.05, m = 1;
    for (const v of [1, 2.4]) {
      const world = new World({ sleep: false });
      world.addStatic({ geometry: { type: 'plane' } });
      const ball = world.addBody(ballModel(r, m, 0));
      ball.state.q[1] = r;
      ball.state.qd.set([0, 0, -v / r, v, 0, 0]); // rolling without slipping along +x
      let highest = 0, lowest = 0;
      const n = 120, h = 1 / 60;
      for (let k = 0; k < n; k++) {
        world.step(h);
        highest = Math.max(highest, ball.state.q[1] - r);
        lowest = Math.min(lowest, ball.state.q[1] - r);
      }
      expect(highest, `${v} m/s: highest centre above r`).toBeLessThan(1e-6);
      expect(lowest, `${v} m/s: lowest centre below r`).toBeGreaterThan(-1e-6);
      expect(Math.abs(ball.state.q[0] - v * n * h)).toBeLessThan(1e-6);
      const { u, w } = worldTwist(ball);
      expect(Math.abs(u[0] - v)).toBeLessThan(1e-6);
      expect(Math.abs(w[2] * r + v)).toBeLessThan(1e-6);
    }
  });

  it('a ball launched sliding decelerates at mu g, spins up, and rolls off at 5/7 of its speed (its angular momentum about the contact point is kept), for mu 0.2 and 0.5 at 1 and 3 m/s', () => {
    // the friction force F = mu m g slows the centre at mu g and spins the ball up at F r / I
    // until v = w r; F acts at the contact point, so m v r + I w is constant: v_end = v0 / (1 + I / (m r^2)) = 5/7 v0
    const r = 0.05, m = 1, g = 9.81, h = 1 / 60;
    for (const mu of [0.2, 0.5]) {
      for (const v0 of [1, 3]) {
        const world = new World({ sleep: false });
        world.addStatic({ geometry: { type: 'plane' }, friction: mu });
        const ball = world.addBody(ballModel(r, m, 0, mu));
        ball.state.q[1] = r;
        ball.state.qd[3] = v0;
        const slipSteps = Math.floor((2 * v0) / (7 * mu * g) / h); // steps wholly before it rolls
        let offGround = 0;
        for (let k = 1; k <= 90; k++) {
          world.step(h);
          offGround = Math.max(offGround, Math.abs(ball.state.q[1] - r));
          const { u } = worldTwist(ball);
          if (k <= slipSteps) expect(Math.abs(u[0] - (v0 - mu * g * h * k)), `mu ${mu}, ${v0} m/s, step ${k}: sliding`).toBeLessThan(1e-6);
        }
        const { u, w } = worldTwist(ball);
        expect(Math.abs(u[0] - (5 / 7) * v0), `mu ${mu}, ${v0} m/s: rolling speed`).toBeLessThan(1e-6 * v0);
        expect(Math.abs(w[2] * r + u[0]), `mu ${mu}, ${v0} m/s: rolls without slipping`).toBeLessThan(1e-6);
        expect(Math.abs(u[1])).toBeLessThan(1e-6);
        expect(offGround).toBeLessThan(1e-6);
      }
    }
  });
});

describe('restitution', () => {
  for (const e of [0, 0.5, 0.9]) {
    it(`a ball dropped from 1 m rebounds to e^2 h = ${(e * e).toFixed(2)} m (within 2%, h = 1 ms)`, () => {
      const world = new World({ sleep: false });
      world.addStatic({ geometry: { type: 'plane' }, restitution: e });
      const body = world.addBody(ballModel(0.1, 1, e));
      body.state.q[1] = 1.1;
      let peak = 0, bounced = false;
      for (let s = 0; s < 3000; s++) {
        const vy = body.state.qd[4];
        world.step(1 / 1000);
        if (!bounced && vy < 0 && body.state.qd[4] >= 0) bounced = true;
        if (bounced) {
          peak = Math.max(peak, body.state.q[1] - 0.1);
          if (body.state.qd[4] < 0) break;
        }
      }
      expect(bounced).toBe(true);
      if (e === 0) expect(peak).toBeLessThan(1e-3);
      else expect(Math.abs(peak - e * e) / (e * e)).toBeLessThan(0.02);
    });
  }
});

describe('backtracking and continuous contact', () => {
  it('a 50 m/s projectile does not pass through a 5 cm wall', () => {
    for (const start of [0, 0.13, 0.31, 0.47]) {
      const world = new World({ gravity: [0, 0, 0], sleep: false });
      world.addStatic({ geometry: { type: 'box', halfExtents: [0.025, 1, 1] }, position: [2, 0, 0] });
      const body = world.addBody(ballModel(0.05, 0.2, 0));
      body.state.q[0] = start;
      body.state.qd[3] = 50;
      let maxX = 0;
      for (let s = 0; s < 30; s++) {
        world.step(1 / 60);
        maxX = Math.max(maxX, body.state.q[0]);
      }
      expect(maxX).toBeLessThan(2 - 0.025 - 0.05 + 0.005);
    }
  });
});

/**
 * A humanoid-shaped tree dropped with its feet about 1 m (plus dh) above a ground plane, stepped
 * 300 times at 60 Hz: the world, the body, and the deepest contact with the ground and within the
 * body seen in any step's detection.
 */
function dropHumanoidTree(dh: number, options: WorldOptions = {}): { world: World; body: Body; deepest: number; selfDeepest: number } {
  const world = new World(options);
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(humanoidTree());
  body.state.q[1] = 2.0 + dh;
  body.state.q.set([0.2, 0.1, 0, 0.9747], 3);
  let deepest = 0, selfDeepest = 0;
  for (let s = 0; s < 300; s++) {
    world.step(1 / 60);
    const c = world.collision.contacts;
    for (let k = 0; k < c.count; k++) {
      const i = k * 8;
      if (c.i32[i + 2] === c.i32[i + 4] && c.i32[i + 2] >= 0) selfDeepest = Math.max(selfDeepest, c.depth(k));
      else deepest = Math.max(deepest, c.depth(k));
    }
  }
  return { world, body, deepest, selfDeepest };
}

describe('coming to rest', () => {
  it('a 6-link chain dropped on the ground comes to rest', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const model = rodChain({ links: 6, length: 0.2, mass: 0.3, root: 'free' });
    const body = world.addBody(model);
    body.state.q[1] = 0.5;
    for (let s = 0; s < 300; s++) world.step(1 / 60);
    forwardKinematics(model, body.state);
    expect(kineticEnergy(model, body.state)).toBeLessThan(1e-3);
    expect(world.stats.maxPenetration).toBeLessThan(5e-3);
  });

  it('a humanoid-shaped tree dropped from 1 m rests within 5 s (KE < 1e-3 J) and sleeps, over 8 drops a nanometre to a millimetre apart: contacts within 1 cm of the ground, self-contacts within 2 cm, and half of the drops or more within 5 mm throughout (60 Hz)', () => {
    // Steps are halved where the landing would overlap by more than 5 mm (the default backtracking
    // tolerance), at most 4 times a piece. How deep the landing goes is chaotic: changing the drop
    // height by 1e-9 m moved the deepest contact of one drop between 3.6 and 14 mm (16 heights,
    // 0 to 1 cm apart: 7 above 5 mm, the ground at most 6.0 mm, a hand in its thigh at most 14 mm,
    // in steps where 30 PGS sweeps left a large residual; the dense solver scatters alike). One drop
    // is one draw: the claims are made over eight.
    const within5mm: boolean[] = [];
    for (const dh of [0, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3]) {
      const { world, body, deepest, selfDeepest } = dropHumanoidTree(dh);
      const model = body.model;
      forwardKinematics(model, body.state);
      expect(kineticEnergy(model, body.state)).toBeLessThan(1e-3);
      expect(deepest).toBeLessThan(0.01);
      expect(selfDeepest).toBeLessThan(0.02);
      within5mm.push(Math.max(deepest, selfDeepest) < 5e-3);
      for (let s = 0; s < 60 && !body.sleeping; s++) world.step(1 / 60);
      expect(body.sleeping).toBe(true);
    }
    expect(within5mm.filter(Boolean).length).toBeGreaterThanOrEqual(4);
  });

  // A further post-stabilisation pass measures its rows again: a row without an exact measure (a
  // spherical stop, an angular row) once aimed at its linear prediction from the step's start, so
  // the second and third passes corrected the same error again; with stabilizationPasses 3 every
  // one of these drops put a hand 24-25 cm into a thigh (and 2 passes 19 cm in one drop of eight).
  it('two and three post-stabilisation passes do not correct an error twice: the drops above with stabilizationPasses 2 and 3 keep contacts within 1 cm and self-contacts within 2 cm', () => {
    for (const passes of [2, 3]) {
      for (const dh of [0, 1e-9, 1e-7, 1e-3]) {
        const { deepest, selfDeepest } = dropHumanoidTree(dh, { stabilizationPasses: passes });
        console.log(`[contacts] stabilizationPasses ${passes}, drop +${dh} m: deepest ground contact ${(deepest * 1000).toFixed(1)} mm, self-contact ${(selfDeepest * 1000).toFixed(1)} mm`);
        expect(deepest).toBeLessThan(0.01);
        expect(selfDeepest).toBeLessThan(0.02);
      }
    }
  });

  // When the pile comes to rest is a draw: over 64 drops whose heights differ by 1 nm steps, KE
  // was below 1e-3 J at 5 s in 42; in the others a tree was still sliding or toppling off the pile
  // (up to 1.2 J). From 2.5 to 5 s the deepest contact was 5.7 mm at most (10 of the 64 above the
  // 5 mm halving tolerance: where four halvings were not enough, as while landing, up to 15 mm),
  // the deepest self-contact 4.8 mm (32 drops). With sleep turned on at 5 s, all ten slept within
  // 3.02 s in every drop. The bounds below are those figures with margin; this drop's own figures
  // are printed.
  it('ten trees dropped in a pile: every normal force >= 0 and friction within the pyramid at every step, no contact deeper than 1 cm once landed; with sleep on from 5 s, all ten sleep within 5 s', async () => {
    // Ragdoll joints dissipate (dampingTime 0.25 s, as ragdollFromSkeleton gives): without joint
    // damping a head or a tail left hanging in the air over the pile's edge swings as an undamped
    // pendulum for ever (the pile's KE then stays at 0.01-0.3 J, all of it in links touching nothing).
    const world = new World({ sleep: false });
    world.addStatic({ geometry: { type: 'plane' } });
    const bodies: Body[] = [];
    for (let k = 0; k < 10; k++) {
      const body = world.addBody(humanoidTree({ dampingTime: 0.25 }));
      // lying on its back (-90 deg about x), turned by a yaw that changes from one to the next, stacked with gaps
      const yaw = 0.9 * k, c = Math.cos(yaw / 2), sn = Math.sin(yaw / 2), r = Math.SQRT1_2;
      body.state.q.set([0.1 * ((k % 3) - 1), 0.3 + 0.45 * k, 0.1 * ((k % 2) - 0.5)]);
      body.state.q.set([-c * r, sn * r, -sn * r, c * r], 3);
      bodies.push(body);
    }
    const kinetic = () => bodies.reduce((e, b) => { forwardKinematics(b.model, b.state, true); return e + kineticEnergy(b.model, b.state); }, 0);
    let deepest = 0, selfDeepest = 0, landingDeepest = 0, landingSelf = 0;
    for (let s = 1; s <= 300; s++) {
      // a long synchronous loop would starve the test runner's messages: yield now and then
      if (s % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(world.step(1 / 60).error).toBe('');
      const rows = world.rows;
      for (let j = 0; j < rows.count; j++) {
        if (rows.tag[j] === RowTag.Contact) expect(rows.force[j]).toBeGreaterThanOrEqual(0);
        if (rows.tag[j] === RowTag.Friction) {
          const fn = rows.force[rows.boundRow[j]];
          expect(Math.abs(rows.force[j])).toBeLessThanOrEqual(rows.hi[j] * fn + 1e-9);
        }
      }
      // the top tree lands at about 1 s; the pile is still collapsing until about 2.5 s (landing
      // overlaps beyond the halving tolerance remain where four halvings were not enough)
      const landing = s <= 150;
      let self = 0;
      const c = world.collision.contacts;
      for (let k = 0; k < c.count; k++) {
        const i = k * 8;
        if (c.i32[i + 2] === c.i32[i + 4] && c.i32[i + 2] >= 0) self = Math.max(self, c.depth(k));
      }
      if (landing) { landingDeepest = Math.max(landingDeepest, world.stats.maxPenetration); landingSelf = Math.max(landingSelf, self); }
      else { deepest = Math.max(deepest, world.stats.maxPenetration); selfDeepest = Math.max(selfDeepest, self); }
    }
    const ke = kinetic();
    console.log(`pile of 10 at 5 s: KE ${ke.toExponential(2)} J; deepest contact ${(1e3 * landingDeepest).toFixed(1)} mm (self ${(1e3 * landingSelf).toFixed(1)} mm) while landing (to 2.5 s), ${(1e3 * deepest).toFixed(2)} mm (self ${(1e3 * selfDeepest).toFixed(2)} mm) from 2.5 to 5 s`);
    expect(deepest).toBeLessThan(0.01);
    expect(selfDeepest).toBeLessThan(0.01);
    for (const b of bodies) expect(b.state.firstNonFinite()).toBe(-1);
    world.configure({ sleep: {} });
    let steps = 0;
    for (; steps < 300 && world.stats.sleeping < 10; steps++) world.step(1 / 60);
    console.log(`pile of 10: all asleep ${(steps / 60).toFixed(2)} s after sleep was turned on at 5 s`);
    expect(world.stats.sleeping).toBe(10);
    // asleep, the pile has nothing to do: no contacts are generated, no state changes by a bit,
    // and time goes on
    const asleep = bodies.map((b) => Array.from(b.state.q).concat(Array.from(b.state.qd)));
    const t0 = world.time;
    for (let s = 0; s < 30; s++) world.step(1 / 60);
    expect(world.collision.contacts.count).toBe(0);
    bodies.forEach((b, k) => expect(Array.from(b.state.q).concat(Array.from(b.state.qd))).toEqual(asleep[k]));
    expect(Math.abs(world.time - t0 - 30 / 60)).toBeLessThan(1e-12);
    // a ball dropped on it is found touching a sleeper, which wakes
    let top = 0;
    for (const b of bodies) top = Math.max(top, b.state.q[1]);
    const ball = world.addBody(ballModel(0.1, 5, 0), { name: 'ball' });
    ball.state.q.set([bodies[9].state.q[0], top + 0.6, bodies[9].state.q[2]]);
    let woke = false;
    for (let s = 0; s < 120 && !woke; s++) { world.step(1 / 60); woke = bodies.some((b) => !b.sleeping); }
    expect(woke).toBe(true);
  });

  it('a world whose every body sleeps steps without changing a bit; a sleeper moved by hand wakes and falls; a force on a sleeper wakes it and rolls it at 5 F / (7 m)', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const m = 2, r = 0.1;
    const ball = world.addBody(ballModel(r, m, 0), { name: 'ball' });
    ball.state.q[1] = r;
    for (let s = 0; s < 120 && !ball.sleeping; s++) world.step(1 / 60);
    expect(ball.sleeping).toBe(true);
    const q = Array.from(ball.state.q);
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    expect(Array.from(ball.state.q)).toEqual(q);
    expect(world.collision.contacts.count).toBe(0);
    // moved by hand while asleep, it wakes and falls from where it was put
    const lifted = Array.from(ball.state.q);
    lifted[1] += 0.5;
    ball.state.q.set(lifted);
    world.step(1 / 60);
    expect(ball.sleeping).toBe(false);
    expect(Math.abs(ball.state.q[1] - (lifted[1] - (9.81 / 3600)))).toBeLessThan(1e-9);
    for (let s = 0; s < 240 && !ball.sleeping; s++) world.step(1 / 60);
    expect(ball.sleeping).toBe(true);
    q.splice(0, q.length, ...Array.from(ball.state.q));
    // a horizontal push through the centre, with friction below its strength: the ball rolls
    // (I = 2/5 m r^2), so its centre accelerates at F / (m + I / r^2) = 5 F / (7 m)
    const F = 1, h = 1 / 60;
    ball.state.applyForce(0, [F, 0, 0], [ball.state.q[0], ball.state.q[1], ball.state.q[2]]);
    world.step(h);
    expect(ball.sleeping).toBe(false);
    expect(Math.abs(ball.state.q[0] - q[0] - (h * h * 5 * F) / (7 * m))).toBeLessThan(1e-9);
  });

  it('a body put to sleep by hand stays where it was put, with its shapes there: a ball dropped on it lands on it and wakes it', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const r = 0.1;
    const spawned = world.addBody(ballModel(r, 2, 0), { name: 'spawned' });
    spawned.state.q.set([5, r, 0]); // set after addBody: its links must follow
    spawned.sleeping = true;
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    expect(spawned.sleeping).toBe(true);
    expect(spawned.state.q[1]).toBe(r);
    const dropped = world.addBody(ballModel(r, 2, 0), { name: 'dropped' });
    dropped.state.q.set([5, 4 * r, 0]);
    for (let s = 0; s < 60 && spawned.sleeping; s++) world.step(1 / 60);
    expect(spawned.sleeping).toBe(false);
    // woken as the dropped ball reached its top (centres 2 r apart), not at the spawn pose's place
    expect(Math.abs(dropped.state.q[1] - 3 * r)).toBeLessThan(0.02);
  });

  it('a character pushed sideways on frictionless ground keeps its horizontal momentum', () => {
    const world = new World({ sleep: false });
    world.addStatic({ geometry: { type: 'plane' }, friction: 0 });
    const model = humanoidTree();
    const body = world.addBody(model);
    body.state.q[1] = 1.02;
    for (let s = 0; s < 30; s++) world.step(1 / 60); // settle
    for (let s = 0; s < 30; s++) world.step(1 / 60);
    forwardKinematics(model, body.state);
    const p0 = momentum(model, body.state, new Float64Array(6));
    // a sideways impulse: 200 N for one step at the pelvis
    body.state.applyForce(0, [200, 0, 100], [0, 1, 0]);
    world.step(1 / 60);
    forwardKinematics(model, body.state);
    const p1 = momentum(model, body.state, new Float64Array(6));
    const expectedX = p0[3] + 200 / 60, expectedZ = p0[5] + 100 / 60;
    expect(Math.abs(p1[3] - expectedX)).toBeLessThan(1e-6 * Math.abs(expectedX) + 1e-9);
    for (let s = 0; s < 120; s++) world.step(1 / 60);
    forwardKinematics(model, body.state);
    const p2 = momentum(model, body.state, new Float64Array(6));
    expect(Math.abs(p2[3] - expectedX) / Math.abs(expectedX)).toBeLessThan(1e-6);
    expect(Math.abs(p2[5] - expectedZ) / Math.abs(expectedZ)).toBeLessThan(1e-6);
  });
});
