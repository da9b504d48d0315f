/**
 * The judges of the other LCP tests: the direct condition check (check.ts) and the natural-map
 * residual (residual.ts), on problems whose solutions are known in closed form.
 */
import { describe, expect, it } from 'vitest';
import { LcpProblem, checkMixedLcp, computeMeasures, naturalMapResidual } from '../src/lcp/index.js';

const tight = { force: 1e-12, measure: 1e-12 };

/** One row: A = [d], b = [b], bounds [lo, hi]. */
function oneRow(d: number, b: number, lo: number, hi: number): LcpProblem {
  const p = new LcpProblem(1).resize(1);
  p.A[0] = d;
  p.b[0] = b;
  p.setBounds(0, lo, hi);
  return p;
}

function residual(p: LcpProblem, f: number[]): number {
  const ff = Float64Array.from(f);
  return naturalMapResidual(p, ff, computeMeasures(p, ff, new Float64Array(p.n)));
}

describe('checkMixedLcp on one-row problems with closed-form solutions', () => {
  // Each case: the solution f*, and forces that break exactly one condition.
  const cases: { name: string; p: LcpProblem; solution: number; wrong: number[] }[] = [
    // a = 2 f - 4: unconstrained root f = 2.
    { name: 'bilateral', p: oneRow(2, -4, -Infinity, Infinity), solution: 2, wrong: [1.9, 2.1, 0] },
    // a = 2 f + 4 >= 0 needs f = 0 (separating contact).
    { name: 'unilateral, separating', p: oneRow(2, 4, 0, Infinity), solution: 0, wrong: [0.5, -0.1] },
    // a = 2 f - 4: pressing contact, f = 2 with a = 0.
    { name: 'unilateral, pressing', p: oneRow(2, -4, 0, Infinity), solution: 2, wrong: [0, 1, 3] },
    // Box [0, 1]: the unconstrained root 2 saturates at 1 with a = -2 <= 0.
    { name: 'box, saturated', p: oneRow(2, -4, 0, 1), solution: 1, wrong: [0.9, 1.1, 0] },
    // Box [-3, 5] containing the root.
    { name: 'box, interior', p: oneRow(2, -4, -3, 5), solution: 2, wrong: [-3, 5, 2.5] },
    // Upper bound only, hi = 0.5 below the root: f = 0.5, a = -3.
    { name: 'upper only', p: oneRow(2, -4, -Infinity, 0.5), solution: 0.5, wrong: [0.4, 0.6] },
    // Fixed row: f = lo = hi whatever the measure.
    { name: 'fixed', p: oneRow(2, -4, 0.7, 0.7), solution: 0.7, wrong: [0.6, 2] },
  ];
  for (const c of cases) {
    it(`${c.name}: accepts f = ${c.solution} and rejects ${c.wrong.join(', ')}`, () => {
      const good = checkMixedLcp(c.p, [c.solution], tight);
      expect(good.ok, good.message).toBe(true);
      expect(residual(c.p, [c.solution])).toBe(0);
      for (const f of c.wrong) {
        const bad = checkMixedLcp(c.p, [f], tight);
        expect(bad.ok).toBe(false);
        expect(bad.row).toBe(0);
        expect(residual(c.p, [f])).toBeGreaterThan(1e-3);
      }
    });
  }

  it('residual of a free row is |a| exactly, and at a bound it is the wrong-signed measure', () => {
    // a = 2 f - 4 at f = 0.5 is -3.
    expect(residual(oneRow(2, -4, -Infinity, Infinity), [0.5])).toBe(3);
    // Unilateral at f = 0 with a = -4: the push the bound cannot absorb is 4.
    expect(residual(oneRow(2, -4, 0, Infinity), [0])).toBe(4);
    // Box [0, 1] at f = 0 with a = -4: capped by A_ii * width = 2.
    expect(residual(oneRow(2, -4, 0, 1), [0])).toBe(2);
    // Force outside its bounds: A_ii * violation at least.
    expect(residual(oneRow(2, 4, 0, Infinity), [-0.25])).toBeGreaterThanOrEqual(0.5);
  });

  it('tolerances are honoured: a violation just below passes, just above fails', () => {
    const p = oneRow(1, -1, -Infinity, Infinity); // solution f = 1
    expect(checkMixedLcp(p, [1 + 0.9e-6], { force: 0, measure: 1e-6 }).ok).toBe(true);
    expect(checkMixedLcp(p, [1 + 1.1e-6], { force: 0, measure: 1e-6 }).ok).toBe(false);
  });
});

describe('checkMixedLcp on friction: a point mass on an incline (stick and slip in closed form)', () => {
  // Unit mass: contact-space matrix is the identity. Row 0 normal, row 1 tangent (up the slope).
  // Gravity gives a_n = -g cos(theta), a_t = -g sin(theta) at zero force.
  const g = 9.81;
  function incline(theta: number, mu: number): LcpProblem {
    const p = new LcpProblem(2).resize(2);
    p.A[0] = 1;
    p.A[3] = 1;
    p.b[0] = -g * Math.cos(theta);
    p.b[1] = -g * Math.sin(theta);
    p.setUnilateral(0);
    p.setFriction(1, 0, mu);
    return p;
  }

  it('sticks when tan(theta) < mu: f_t = g sin(theta), a_t = 0', () => {
    const theta = 0.3;
    const p = incline(theta, 0.5);
    const stick = [g * Math.cos(theta), g * Math.sin(theta)];
    expect(checkMixedLcp(p, stick, tight).ok).toBe(true);
    // Sliding answer is wrong here: friction at its bound while the measure would need more force.
    const slide = [g * Math.cos(theta), 0.5 * g * Math.cos(theta)];
    expect(checkMixedLcp(p, slide, tight).ok).toBe(false);
  });

  it('slides when tan(theta) > mu: f_t = mu f_n, a_t = -g (sin(theta) - mu cos(theta))', () => {
    const theta = 0.8;
    const mu = 0.5;
    const p = incline(theta, mu);
    const slide = [g * Math.cos(theta), mu * g * Math.cos(theta)];
    const check = checkMixedLcp(p, slide, tight);
    expect(check.ok, check.message).toBe(true);
    // Sticking force exceeds the friction bound.
    const stick = [g * Math.cos(theta), g * Math.sin(theta)];
    const bad = checkMixedLcp(p, stick, tight);
    expect(bad.ok).toBe(false);
    expect(bad.row).toBe(1);
    expect(bad.maxBoundViolation).toBeCloseTo(g * (Math.sin(theta) - mu * Math.cos(theta)), 12);
  });
});
