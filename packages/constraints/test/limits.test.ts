/**
 * Joint limits: a rod pendulum released horizontal swings into its lower stop. Analytic answers:
 * energy conservation gives the speed at the stop, and with restitution e the rebound rises to the
 * height where the kinetic energy left, e^2 of the impact's, is spent. A rod resting on a ball
 * joint's cone with friction on the rim (limits.friction) holds where Coulomb's law says it does.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, State, forwardKinematics } from '@sinew/featherstone';
import { World, type Body } from '../src/index.js';
import { RowBuffer, RowTag, rowVelocity } from '../src/internals.js';
import { rodChain } from './chain-fixture.js';

const LOWER = -0.5;

function pendulum(e: number, stabilization: 'post' | 'baumgarte' | 'none' = 'post') {
  const model = rodChain({ links: 1, length: 1, mass: 1, limits: { lower: LOWER, upper: 3 } });
  const world = new World({ limits: { restitution: e }, stabilization });
  const body = world.addBody(model);
  return { world, body };
}

describe('joint limits', () => {
  it('stop a pendulum at the limit with e = 0: overshoot below 1e-3 rad, no pull, rest at the stop', () => {
    const { world, body } = pendulum(0);
    let minQ = 0;
    let minForce = Infinity;
    for (let s = 0; s < 480; s++) {
      world.step(1 / 240);
      minQ = Math.min(minQ, body.state.q[0]);
      const rows = world.rows;
      for (let j = 0; j < rows.count; j++) if (rows.tag[j] === RowTag.Limit) minForce = Math.min(minForce, rows.force[j]);
    }
    expect(LOWER - minQ).toBeLessThan(1e-3);
    expect(minForce).toBeGreaterThanOrEqual(0); // a stop pushes, it never pulls the joint into itself
    expect(Math.abs(body.state.q[0] - LOWER)).toBeLessThan(1e-3);
    expect(Math.abs(body.state.qd[0])).toBeLessThan(1e-6);
  });

  it('rebound with e = 0.5 to the height energy conservation predicts (within 1%), and the impact reverses the speed by e', () => {
    const { world, body } = pendulum(0.5);
    // speed at the stop from energy: I w^2 / 2 = m g (L/2) sin(0.5)
    const m = 1, L = 1, w = 0.1, g = 9.81;
    const I = (m * (L * L + w * w)) / 12 + m * (L / 2) ** 2;
    const vStop = Math.sqrt((2 * m * g * (L / 2) * Math.sin(-LOWER)) / I);
    let peak = -Infinity, bounced = false, minQ = 0;
    let vBefore = 0, vAfterImpulse = 0;
    for (let s = 0; s < 2400 && !(bounced && body.state.qd[0] < 0); s++) {
      const v0 = body.state.qd[0];
      world.step(1 / 2400);
      minQ = Math.min(minQ, body.state.q[0]);
      if (!bounced && world.stats.impacts > 0) {
        bounced = true;
        vBefore = v0;
        vAfterImpulse = body.state.qd[0];
      }
      if (bounced) peak = Math.max(peak, body.state.q[0]);
    }
    expect(bounced).toBe(true);
    // the approach speed seen by the impact is the analytic speed at the stop
    expect(Math.abs(-vBefore - vStop) / vStop).toBeLessThan(0.01);
    // the rebound height: the kinetic energy after the impact is e^2 that before it
    const predictedPeak = Math.asin(Math.sin(LOWER) * (1 - 0.25));
    expect(Math.abs(peak - predictedPeak) / Math.abs(predictedPeak - LOWER)).toBeLessThan(0.01);
    expect(vAfterImpulse).toBeGreaterThan(0);
    expect(LOWER - minQ).toBeLessThan(1e-3);
  });

  it('hold a spherical joint inside its swing cone and twist range', () => {
    const b = new ModelBuilder();
    b.addLink({
      name: 'arm', parent: null,
      joint: { type: 'spherical', limits: { twistAxis: [0, -1, 0], swing: [0.6, 0.3], twist: [-0.2, 0.2] } },
      mass: 1, com: [0, -0.3, 0], inertia: [0.03, 0.002, 0.03, 0, 0, 0],
    });
    const model = b.build();
    const world = new World();
    const body = world.addBody(model);
    // spin it hard about x and about the bone: gravity and the kick push both limits
    body.state.qd.set([4, 3, 2]);
    let worstSwing = 0, worstTwist = 0;
    for (let s = 0; s < 600; s++) {
      world.step(1 / 240);
      const [x, y, z, w] = body.state.q;
      // bone axis in the joint frame: R_Q (0,-1,0); swing angle from (0,-1,0)
      const by = -(1 - 2 * (x * x + z * z));
      const bx = -2 * (x * y - w * z), bz = -2 * (y * z + w * x);
      const theta = Math.acos(Math.min(1, -by));
      // elliptical cone: swing about x limited by 0.6, about z by 0.3 (axes u = x, v = a x u)
      const n = [-bz, 0, bx].map((c) => c / Math.max(1e-12, Math.hypot(bx, bz))); // a x b with a = (0,-1,0)
      const cone = 1 / Math.sqrt((n[0] / 0.6) ** 2 + (n[2] / 0.3) ** 2);
      worstSwing = Math.max(worstSwing, theta - cone);
      const psi = 2 * Math.atan2(-y, w);
      worstTwist = Math.max(worstTwist, Math.abs(psi) - 0.2);
    }
    expect(worstSwing).toBeLessThan(2e-3);
    expect(worstTwist).toBeLessThan(2e-3);
    void State;
  });
});

/** The twist rate d(psi)/dt as a twist-stop row of the body's limits measures it (+1: lower stop, -1: upper). */
function twistRowRate(world: World, body: Body): number {
  forwardKinematics(body.model, body.state, true);
  const rows = new RowBuffer(16);
  world.limits.addRows(rows, { bodies: world.bodies, h: 1 / 60 });
  for (let j = 0; j < rows.count; j++) {
    const which = rows.key[j] % 8;
    if (rows.tag[j] === RowTag.Limit && (which === 3 || which === 4)) return (which === 3 ? 1 : -1) * rowVelocity(rows, j, world.bodies);
  }
  throw new Error('no twist row');
}

describe('spherical limits: the twist rate', () => {
  // The exact rate is j . w with j = (w^2 a + w (a x q_v) + p q_v) / (p^2 + w^2), p = q_v . a (from
  // psi = 2 atan2(q_v . a, w) and q' = q (0, w) / 2); a . w alone is the rate only without swing
  // (at a swing of 1.2 rad about a third of d(psi)/dt).
  it('a twist-stop row measures d(psi)/dt, checked by finite differences of the twist angle, at swings up to 1.4 rad', () => {
    // a ball joint whose twist range about y is narrow, so a twist row is always made; psi =
    // 2 atan2(q_v . a, w) (swing-twist decomposition)
    const b = new ModelBuilder();
    b.addLink({ name: 'arm', parent: null, joint: { type: 'spherical', limits: { twistAxis: [0, 1, 0], swing: [2, 2], twist: [-0.01, 0.01] } }, mass: 1, com: [0, -0.3, 0], inertia: [0.01, 0.002, 0.01, 0, 0, 0] });
    const model = b.build();
    const psi = (q: ArrayLike<number>): number => { let p = 2 * Math.atan2(q[1], q[3]); if (p > Math.PI) p -= 2 * Math.PI; if (p < -Math.PI) p += 2 * Math.PI; return p; };
    let worst = 0, worstAxisRate = 0;
    for (let k = 0; k < 20; k++) {
      const swing = 1.4 * (k / 19), twist = 0.3 * Math.sin(k);
      // q = q_swing (about x) * q_twist (about y)
      const sx = Math.sin(swing / 2), cx = Math.cos(swing / 2), sy = Math.sin(twist / 2), cy = Math.cos(twist / 2);
      const q = [sx * cy, cx * sy, sx * sy, cx * cy];
      const w = [0.7 * Math.cos(k), 1.1 * Math.sin(2 * k), -0.5];
      // d psi/dt by central differences along q' = q (0, w) / 2 (w in the link frame)
      const [x, y, z, ww] = q, [a, bb, c] = w;
      const dq = [ww * a + y * c - z * bb, ww * bb + z * a - x * c, ww * c + x * bb - y * a, -(x * a + y * bb + z * c)].map((v) => 0.5 * v);
      const e = 1e-6, fd = (psi(q.map((v, i) => v + e * dq[i])) - psi(q.map((v, i) => v - e * dq[i]))) / (2 * e);
      const world = new World({ gravity: [0, 0, 0] });
      const body = world.addBody(model);
      body.state.q.set(q);
      body.state.qd.set(w);
      worst = Math.max(worst, Math.abs(twistRowRate(world, body) - fd));
      worstAxisRate = Math.max(worstAxisRate, Math.abs(w[1] - fd));
    }
    console.log(`[limits] twist rate against finite differences: worst ${worst.toExponential(2)} rad/s (the twist axis alone, a . w, errs by up to ${worstAxisRate.toFixed(3)} rad/s)`);
    expect(worst).toBeLessThan(1e-6);
    expect(worstAxisRate).toBeGreaterThan(0.1); // the check tells the exact rate from a . w
  });
});

describe('spherical limits: friction along the cone', () => {
  // A rod on a ball joint whose cone (half-angle ALPHA about the horizontal x axis) it rests
  // against, gravity -y, placed on the rim at an azimuth phi from the rim's lowest point (rod
  // direction d = (cos ALPHA, -sin ALPHA cos phi, sin ALPHA sin phi)). Gravity's torque about the
  // pivot, m g L (d x -y), has the part m g L cos ALPHA cos phi along the cone's swing axis (into the
  // stop: the cone row's reaction), m g L sin phi along the rim and none about the rod, so
  // Coulomb friction of coefficient mu holds the rod where tan phi <= mu cos ALPHA and nowhere else.
  const ALPHA = 0.6, L = 0.3;
  function rodOnRim(mu: number, phi0: number, seconds: number): { phi: number[]; world: World; body: Body } {
    const b = new ModelBuilder();
    b.addLink({ name: 'rod', parent: null, joint: { type: 'spherical', limits: { twistAxis: [1, 0, 0], swing: [ALPHA, ALPHA], twist: [-3, 3] } }, mass: 2, com: [L, 0, 0], inertia: [0.002, 0.02, 0.02, 0, 0, 0] });
    const world = new World({ limits: { friction: mu } });
    const body = world.addBody(b.build());
    // the swing taking x to d without twist: about x cross d by ALPHA
    const ax = [0, -Math.sin(ALPHA) * Math.sin(phi0), -Math.sin(ALPHA) * Math.cos(phi0)], n = Math.hypot(...ax), s = Math.sin(ALPHA / 2);
    body.state.q.set([ax[0] / n * s, ax[1] / n * s, ax[2] / n * s, Math.cos(ALPHA / 2)]);
    const phi: number[] = [];
    for (let k = 0; k < seconds * 60; k++) {
      world.step(1 / 60);
      const [x, y, z, w] = body.state.q;
      phi.push(Math.atan2(2 * (x * z - w * y), -2 * (x * y + w * z))); // of d = R_Q x
    }
    return { phi, world, body };
  }
  const band = (mu: number) => Math.atan(mu * Math.cos(ALPHA));

  it('holds a rod on the rim where tan phi <= mu cos(alpha) and lets it slide beyond (0.9 and 1.1 times the angle)', () => {
    const hold = rodOnRim(0.1, 0.9 * band(0.1), 2), slide = rodOnRim(0.1, 1.1 * band(0.1), 2);
    const moved = (r: { phi: number[] }, phi0: number) => Math.max(...r.phi.map((p) => Math.abs(p - phi0)));
    console.log(`[rim friction] mu 0.1, band ${band(0.1).toFixed(4)} rad: from 0.9 of it the rod moves ${moved(hold, 0.9 * band(0.1)).toExponential(2)} rad in 2 s, from 1.1 of it ${moved(slide, 1.1 * band(0.1)).toExponential(2)} rad`);
    expect(moved(hold, 0.9 * band(0.1))).toBeLessThan(1e-3);
    expect(moved(slide, 1.1 * band(0.1))).toBeGreaterThan(5e-3);
  });

  it('brings a rod released far up the rim to rest inside its band (mu 0.1 and 0.3); without friction it swings along the rim undamped', () => {
    for (const mu of [0.1, 0.3]) {
      const r = rodOnRim(mu, 0.4, 3);
      const end = r.phi[r.phi.length - 1];
      console.log(`[rim friction] mu ${mu}: released at 0.4 rad, at rest at ${end.toFixed(4)} rad (band ${band(mu).toFixed(4)}), asleep ${r.body.sleeping}`);
      expect(Math.abs(end)).toBeLessThanOrEqual(band(mu));
      expect(Math.hypot(...r.body.state.qd)).toBeLessThan(1e-3);
    }
    const free = rodOnRim(0, 0.4, 5);
    const last = free.phi.slice(-60);
    console.log(`[rim friction] mu 0: azimuth over the fifth second ${Math.min(...last).toFixed(3)} to ${Math.max(...last).toFixed(3)} rad`);
    expect(Math.min(...last)).toBeLessThan(-0.8 * 0.4);
    expect(Math.max(...last)).toBeGreaterThan(0.8 * 0.4);
  });

  it('is refused below 0 or when not finite, naming the option', () => {
    expect(() => new World({ limits: { friction: -0.1 } })).toThrow(/friction must be a finite number >= 0/);
    expect(() => new World({ limits: { friction: NaN } })).toThrow(/friction/);
  });
});
