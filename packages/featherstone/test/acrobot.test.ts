/**
 * ABA against closed-form equations of motion from a published source: the acrobot, a planar
 * two-link pendulum actuated at the second joint, as given by
 *   R. S. Sutton and A. G. Barto, "Reinforcement Learning: An Introduction", MIT Press (1998),
 *   section 11.3 "Acrobot", after M. W. Spong, "The swing up control problem for the Acrobot",
 *   IEEE Control Systems Magazine 15(1), 49-55 (1995):
 *
 *   theta1'' = -(d2 theta2'' + phi1) / d1
 *   theta2'' = (tau + d2/d1 phi1 - m2 l1 lc2 theta1'^2 sin theta2 - phi2) / (m2 lc2^2 + I2 - d2^2/d1)
 *   d1 = m1 lc1^2 + m2 (l1^2 + lc2^2 + 2 l1 lc2 cos theta2) + I1 + I2
 *   d2 = m2 (lc2^2 + l1 lc2 cos theta2) + I2
 *   phi1 = -m2 l1 lc2 theta2'^2 sin theta2 - 2 m2 l1 lc2 theta2' theta1' sin theta2
 *          + (m1 lc1 + m2 l1) g cos(theta1 - pi/2) + phi2
 *   phi2 = m2 lc2 g cos(theta1 + theta2 - pi/2)
 *
 * theta1 is the first link's angle from hanging straight down, theta2 the second link's angle
 * relative to the first; lc1, lc2 are the distances from each joint to its link's centre of mass
 * and I1, I2 the links' moments of inertia about their centres of mass (axis normal to the plane).
 */
import { describe, expect, it } from 'vitest';
import { forwardDynamics, ModelBuilder, State } from '../src/index.js';
import { rng } from './random-model.js';

interface Acrobot { m1: number; m2: number; l1: number; lc1: number; lc2: number; I1: number; I2: number; g: number }

function published(p: Acrobot, th1: number, th2: number, dth1: number, dth2: number, tau: number): [number, number] {
  const { m1, m2, l1, lc1, lc2, I1, I2, g } = p;
  const d1 = m1 * lc1 ** 2 + m2 * (l1 ** 2 + lc2 ** 2 + 2 * l1 * lc2 * Math.cos(th2)) + I1 + I2;
  const d2 = m2 * (lc2 ** 2 + l1 * lc2 * Math.cos(th2)) + I2;
  const phi2 = m2 * lc2 * g * Math.cos(th1 + th2 - Math.PI / 2);
  const phi1 = -m2 * l1 * lc2 * dth2 ** 2 * Math.sin(th2) - 2 * m2 * l1 * lc2 * dth2 * dth1 * Math.sin(th2) + (m1 * lc1 + m2 * l1) * g * Math.cos(th1 - Math.PI / 2) + phi2;
  const ddth2 = (tau + (d2 / d1) * phi1 - m2 * l1 * lc2 * dth1 ** 2 * Math.sin(th2) - phi2) / (m2 * lc2 ** 2 + I2 - d2 ** 2 / d1);
  const ddth1 = -(d2 * ddth2 + phi1) / d1;
  return [ddth1, ddth2];
}

/** The acrobot as a Sinew model: links hang along -y at zero angles and turn about z. */
function model(p: Acrobot) {
  const b = new ModelBuilder({ gravity: [0, -p.g, 0] });
  // The in-plane moment (about z) is I1 / I2; the other two only need to make the tensor valid,
  // and cannot act: the angular velocity stays along z and the principal axes are the link axes.
  b.addLink({ name: 'link1', parent: null, joint: { type: 'revolute', axis: [0, 0, 1] }, mass: p.m1, com: [0, -p.lc1, 0], inertia: [p.I1, 0.01, p.I1, 0, 0, 0] });
  b.addLink({ name: 'link2', parent: 'link1', joint: { type: 'revolute', axis: [0, 0, 1], position: [0, -p.l1, 0] }, mass: p.m2, com: [0, -p.lc2, 0], inertia: [p.I2, 0.01, p.I2, 0, 0, 0] });
  return b.build();
}

describe('acrobot: ABA == the closed-form equations of Sutton & Barto (1998) / Spong (1995)', () => {
  const sets: [string, Acrobot][] = [
    ['the book\'s parameters', { m1: 1, m2: 1, l1: 1, lc1: 0.5, lc2: 0.5, I1: 1, I2: 1, g: 9.8 }],
    ['unequal links', { m1: 1.3, m2: 0.7, l1: 0.9, lc1: 0.4, lc2: 0.6, I1: 0.11, I2: 0.05, g: 9.81 }],
  ];
  for (const [label, p] of sets) {
    it(`agrees to 1e-9 at 200 random states and torques (${label})`, () => {
      const m = model(p);
      const s = new State(m);
      const r = rng(label.length);
      let worst = 0;
      for (let trial = 0; trial < 200; trial++) {
        const th1 = Math.PI * (2 * r() - 1), th2 = Math.PI * (2 * r() - 1);
        const dth1 = 8 * r() - 4, dth2 = 8 * r() - 4, tau = 10 * r() - 5;
        s.q.set([th1, th2]);
        s.qd.set([dth1, dth2]);
        s.tau.set([0, tau]);
        const qdd = forwardDynamics(m, s);
        const [e1, e2] = published(p, th1, th2, dth1, dth2, tau);
        const scale = Math.max(1, Math.abs(e1), Math.abs(e2));
        worst = Math.max(worst, Math.abs(qdd[0] - e1) / scale, Math.abs(qdd[1] - e2) / scale);
        expect(Math.abs(qdd[0] - e1)).toBeLessThan(1e-9 * scale);
        expect(Math.abs(qdd[1] - e2)).toBeLessThan(1e-9 * scale);
      }
      console.log(`acrobot (${label}): worst relative difference ${worst.toExponential(2)}`);
    });
  }
});
