/**
 * Box friction PGS cannot solve, solved again in two convex parts (ConstraintSolver.solveStaggered).
 *
 * A chain of 20 thin boxes (5 cm by 5 mm, 0.1 kg each, on 19 hinges and a free root) dropped flat
 * onto the ground from 0.5 m: when it lies down, 80 contact points on 25 dofs, the sweeps keep
 * moving the friction boxes with the normal forces that bound them and end 3e2 m/s^2 from a
 * solution. The forces they leave gave the chain 71 kJ in one step, and with the kinetic energy
 * taken by the energy account, the positions it had moved to stayed: the chain flew 50 m up. The
 * same rows without friction converge (1e-10 after 3,000 sweeps), and so does friction with the
 * normal forces held: the two parts solved one after the other bound the step's energy.
 *
 * A failure the second solve does not cover (a contact normal as the worst row) is left to the
 * energy account, which takes such a pass back to where it began (the second and third tests).
 */
import { describe, expect, it } from 'vitest';
import { World } from '../src/index.js';
import { energyBound, mechanicalEnergy } from './body-measures.js';
import { rodChain } from './chain-fixture.js';

/** A free chain of thin boxes dropped onto a plane: its largest energy rise in a step, the energy bound, second solves, and its highest link from step 30 on. */
function dropChain(links: number, tilt: number): { rise: number; bound: number; staggered: number; highest: number; finite: boolean } {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const s = Math.sin(tilt / 2), c = Math.cos(tilt / 2);
  const chain = world.addBody(rodChain({ links, length: 0.05, mass: 0.1, root: 'free' }), { name: 'chain', position: [-1.5, 0.5, 0], rotation: [s, 0, 0, c] });
  const energy = (): number => mechanicalEnergy(world);
  // the energy account's bound per step: m |g| (contactSlop + |g| h^2 / 2)
  const h = 1 / 60, bound = energyBound(world, h);
  let before = energy(), rise = 0, staggered = 0, highest = -Infinity;
  for (let step = 0; step < 180; step++) {
    staggered += world.step(h).staggered;
    const e = energy();
    rise = Math.max(rise, e - before);
    before = e;
    if (step >= 30) for (let i = 0; i < chain.model.nLinks; i++) highest = Math.max(highest, chain.state.work.pose[12 * i + 10]);
  }
  return { rise, bound, staggered, highest, finite: chain.state.firstNonFinite() === -1 };
}

describe('failed solves: friction the sweeps cannot solve, and a pass that makes energy', () => {
  it('a chain of 20 thin boxes dropped flat: the failed solve is solved again in two parts, no step gains more than 2 times the energy bound, and the chain stays on the ground', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const chain = world.addBody(rodChain({ links: 20, length: 0.05, mass: 0.1, root: 'free' }), { name: 'chain', position: [-1.5, 0.5, 0] });
    const energy = (): number => mechanicalEnergy(world);
    // the energy account's bound per step: m |g| (contactSlop + |g| h^2 / 2)
    const h = 1 / 60, bound = energyBound(world, h);
    let before = energy(), worst = 0, staggered = 0, highest = -Infinity;
    for (let s = 0; s < 180; s++) {
      const st = world.step(h);
      staggered += st.staggered;
      const e = energy();
      worst = Math.max(worst, e - before);
      before = e;
      // (it lands at about step 18; without the second solve it left the ground again at step 20)
      if (s >= 20) for (let i = 0; i < chain.model.nLinks; i++) highest = Math.max(highest, chain.state.work.pose[12 * i + 10]);
    }
    console.log(`[friction] thin-box chain dropped flat: ${staggered} solve(s) taken again in two parts; largest energy rise in a step ${worst.toFixed(3)} J (bound ${bound.toFixed(3)} J); highest link from step 20 on ${highest.toFixed(3)} m`);
    expect(staggered).toBeGreaterThan(0);
    expect(worst).toBeLessThan(2 * bound);
    expect(highest).toBeLessThan(0.1);
    expect(chain.state.firstNonFinite()).toBe(-1);
  });

  // The pass in which the 40-link chain tilted 0.3 rad lies down fails through a contact normal
  // (the sweeps' worst row, 62 m/s^2 from a solution), which the second solve does not cover: the
  // step gained 10,092 times its bound and the chain flew up. The energy account takes a pass that
  // more than doubled its island's kinetic energy, by more than 10 bounds, back to where it began
  // (energy-account.ts returnToPassStart).
  it('a chain of 40 thin boxes dropped flat at a tilt: the pass that fails through a contact normal is taken back, and no step gains more than the energy bound', () => {
    const r = dropChain(40, 0.3);
    console.log(`[friction] 40 thin boxes tilted 0.3 rad: largest energy rise in a step ${r.rise.toFixed(3)} J (bound ${r.bound.toFixed(3)} J), second solves ${r.staggered}, highest link from step 30 on ${r.highest.toFixed(3)} m`);
    expect(r.rise).toBeLessThanOrEqual(r.bound * (1 + 1e-9));
    expect(r.highest).toBeLessThan(0.1);
    expect(r.finite).toBe(true);
  });

  it('a chain of 100 thin boxes dropped flat: the pass whose velocities lifted it before the momentum stage took them back is taken back, and no step gains more than the energy bound', () => {
    // (before: one pass gave 268 J of kinetic energy, the integration lifted the chain 4.4 J of
    // potential energy with it, and preserveMomenta took the velocities back, so the kinetic energy
    // never doubled: the step gained 4.14 J against the bound's 0.232 J)
    const r = dropChain(100, 0);
    console.log(`[friction] 100 thin boxes flat: largest energy rise in a step ${r.rise.toFixed(3)} J (bound ${r.bound.toFixed(3)} J), second solves ${r.staggered}, highest link from step 30 on ${r.highest.toFixed(3)} m`);
    expect(r.rise).toBeLessThanOrEqual(r.bound * (1 + 1e-9));
    expect(r.highest).toBeLessThan(0.1);
    expect(r.finite).toBe(true);
  });
});
