/**
 * Semi-implicit Euler in reduced coordinates changes a free tree's momentum when its joints move
 * (the momentum depends on q at fixed qd); the root-velocity correction of integrateSemiImplicit
 * keeps it: linear momentum, and angular momentum about the centre of mass, of a free-floating
 * tree are conserved to round-off, and under gravity the linear momentum grows by exactly m g dt
 * per step. (About the centre of mass: the origin of a free joint moves along the step's twist,
 * which bends its path slightly, so the moment of the linear momentum about a fixed point is not
 * what the correction keeps.)
 */
import { describe, expect, it } from 'vitest';
import { State, forwardDynamics, forwardKinematics, integrateSemiImplicit, momentumAboutCenterOfMass } from '../src/index.js';
import { humanoid as humanoidModel } from '../bench/humanoid.js';

function run(preserve: boolean, gravity: boolean): { p0: Float64Array; p1: Float64Array; mass: number } {
  const model = humanoidModel();
  const s = new State(model);
  if (!gravity) s.gravity.fill(0);
  for (let d = 0; d < model.nv; d++) s.qd[d] = 0.5 * Math.sin(1.7 * d);
  forwardKinematics(model, s);
  const p0 = (momentumAboutCenterOfMass(model, s, new Float64Array(6)) as Float64Array);
  for (let k = 0; k < 60; k++) integrateSemiImplicit(model, s, forwardDynamics(model, s), 1 / 120, preserve);
  forwardKinematics(model, s);
  return { p0, p1: (momentumAboutCenterOfMass(model, s, new Float64Array(6)) as Float64Array), mass: model.totalMass() };
}

describe('momentum-preserving semi-implicit Euler', () => {
  it('keeps the linear momentum and the angular momentum about the centre of mass of a free-floating humanoid tree to round-off (without it they drift)', () => {
    const fixed = run(true, false), drift = run(false, false);
    const scale = Math.max(...Array.from(fixed.p0, Math.abs));
    for (let k = 0; k < 6; k++) expect(Math.abs(fixed.p1[k] - fixed.p0[k])).toBeLessThan(1e-10 * scale);
    let worst = 0;
    for (let k = 0; k < 6; k++) worst = Math.max(worst, Math.abs(drift.p1[k] - drift.p0[k]));
    expect(worst).toBeGreaterThan(1e-4 * scale); // the plain update really does drift
  });

  it('under gravity the linear momentum grows by m g t exactly', () => {
    const r = run(true, true);
    const t = 60 / 120;
    expect(Math.abs(r.p1[3] - r.p0[3])).toBeLessThan(1e-9 * r.mass);
    expect(Math.abs(r.p1[4] - (r.p0[4] - r.mass * 9.81 * t))).toBeLessThan(1e-9 * r.mass * 9.81 * t);
    expect(Math.abs(r.p1[5] - r.p0[5])).toBeLessThan(1e-9 * r.mass);
  });
});
