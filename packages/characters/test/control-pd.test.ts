/**
 * Explicit PD against stable PD (Tan, Liu & Turk 2011) on a two-link arm hanging from a fixed
 * shoulder, both writing state.tau before every World step. At a stiff gain for the step, explicit
 * PD feeds energy in every step and blows up, while stable PD (the gains applied to the state one
 * step ahead, qdd implicit) settles on the target. At a small step both agree. The accelerations
 * stable PD predicts (solved from CRBA's mass matrix and RNEA's bias forces) are the accelerations
 * ABA then gives for its torques: an independent check of its M and C.
 */
import { describe, expect, it } from 'vitest';
import { forwardDynamics, forwardKinematics, kineticEnergy, ModelBuilder, potentialEnergy, State, type Model } from '@sinew/featherstone';
import { World } from '@sinew/constraints';
import { PdController, StablePdController } from '../src/control/index.js';

function twoLinkArm(): Model {
  const b = new ModelBuilder();
  // rods of 0.5 m and 1 kg along +x, hinged about z: I about the centre m L^2 / 12
  const I = (1 * 0.5 * 0.5) / 12;
  b.addLink({ name: 'upper', parent: null, joint: { type: 'revolute', axis: [0, 0, 1] }, mass: 1, com: [0.25, 0, 0], inertia: [1e-4, I, I, 0, 0, 0] });
  b.addLink({ name: 'lower', parent: 'upper', joint: { type: 'revolute', axis: [0, 0, 1], position: [0.5, 0, 0] }, mass: 1, com: [0.25, 0, 0], inertia: [1e-4, I, I, 0, 0, 0] });
  return b.build();
}

// Stable PD under the World's semi-implicit Euler, one joint of inertia m: the step matrix has
// determinant (m - Kp dt^2) / (m + Kd dt) (derived here), inside (-1, 1) for every m > 0 when
// Kd > Kp dt. At Kd = Kp dt the stiff mode decays slowly (eigenvalues near -1); Kd = 3 Kp dt at
// 1/60 s damps it within a few steps.
const KP = 4000, KD = 200;

function run(kind: 'pd' | 'spd', dt: number, seconds: number) {
  const model = twoLinkArm();
  const world = new World({ sleep: false });
  const body = world.addBody(model);
  body.state.q[0] = -0.6;
  body.state.q[1] = 0.9;
  const Ctrl = kind === 'pd' ? PdController : StablePdController;
  const ctrl = new Ctrl(model, body.state, { kp: KP, kd: KD });
  ctrl.targetQ.fill(0);
  const energy: number[] = [];
  let error = '';
  let predictionGap = 0;
  const steps = Math.round(seconds / dt);
  for (let s = 0; s < steps; s++) {
    ctrl.apply(dt);
    if (ctrl instanceof StablePdController) {
      // ABA with the controller's torques gives the accelerations it predicted
      const probe = new State(model);
      probe.copyFrom(body.state);
      const qdd = forwardDynamics(model, probe);
      for (let d = 0; d < model.nv; d++) predictionGap = Math.max(predictionGap, Math.abs(qdd[d] - ctrl.predictedQdd[d]) / (1 + Math.abs(qdd[d])));
    }
    const st = world.step(dt);
    if (st.error) { error = st.error; break; }
    forwardKinematics(model, body.state, true);
    energy.push(kineticEnergy(model, body.state) + potentialEnergy(model, body.state));
  }
  return { q: Array.from(body.state.q), energy, error, predictionGap };
}

describe('explicit PD against stable PD on a two-link arm', () => {
  // the lower link alone about the elbow: I = m L^2 / 3 = 0.083 kg m^2, so w = sqrt(Kp / I) = 219 rad/s;
  // at dt = 1/60 s, w dt = 3.7: far beyond explicit PD's stable range (w dt < 2 without damping)
  const dt = 1 / 60;

  it(`at Kp = ${KP} N m/rad, dt = 1/60 s explicit PD gains energy step after step; stable PD settles on the target`, () => {
    const pd = run('pd', dt, 2);
    const spd = run('spd', dt, 2);
    const e0 = spd.energy[0];
    const pdGrowth = pd.error ? Infinity : Math.max(...pd.energy.map((e) => Math.abs(e - e0)));
    console.log(`explicit PD: ${pd.error ? `blew up after ${pd.energy.length} steps (${pd.error.slice(0, 80)}...)` : `max |E - E0| ${pdGrowth.toExponential(2)} J`}; ` +
      `stable PD: final q ${spd.q.map((x) => (x * 180 / Math.PI).toFixed(3)).join(', ')} deg, energy ${spd.energy[spd.energy.length - 1].toFixed(3)} J, ABA vs predicted qdd ${spd.predictionGap.toExponential(1)}`);
    // explicit PD: the energy grows by orders of magnitude within the first 30 steps (or the state leaves the finite numbers)
    const early = pd.energy.slice(0, 30);
    expect(pd.error !== '' || Math.max(...early.map((e) => Math.abs(e))) > 1e3).toBe(true);
    // stable PD: finite, energy bounded by its start (it only dissipates, plus the gravity sag's work), on target within the gravity sag
    expect(spd.error).toBe('');
    const maxE = Math.max(...spd.energy);
    expect(maxE).toBeLessThan(Math.abs(e0) + 5);
    // gravity sag of a PD without gravity compensation: tau_g / Kp, with tau_g <= 2 kg * 9.81 * 0.5 m about the shoulder
    const sag = (2 * 9.81 * 0.5) / KP;
    expect(Math.abs(spd.q[0])).toBeLessThan(2 * sag);
    expect(Math.abs(spd.q[1])).toBeLessThan(2 * sag);
    // its kinetic energy died out: two successive energies agree
    const last = spd.energy.slice(-10);
    expect(Math.max(...last) - Math.min(...last)).toBeLessThan(1e-6);
    expect(spd.predictionGap).toBeLessThan(1e-9);
  });

  it('at a small step (0.1 ms) both are stable and follow the same path (stable PD is PD with a one-step look-ahead)', () => {
    const pd = run('pd', 1e-4, 0.5);
    const spd = run('spd', 1e-4, 0.5);
    expect(pd.error).toBe('');
    expect(spd.error).toBe('');
    const gap = Math.max(...pd.q.map((x, i) => Math.abs(x - spd.q[i])));
    console.log(`dt = 0.1 ms: final q PD ${pd.q.map((x) => x.toFixed(5)).join(', ')}, SPD ${spd.q.map((x) => x.toFixed(5)).join(', ')}`);
    expect(gap).toBeLessThan(2e-3);
    // and both on target within the gravity sag
    for (const x of [...pd.q, ...spd.q]) expect(Math.abs(x)).toBeLessThan((2 * 2 * 9.81 * 0.5) / KP);
  });
});
