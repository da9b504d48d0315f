/**
 * The World's two solver modes step alike: dense (K formed by AccelerationDeltas) and implicit
 * (inbound half-passes, K read as u^T D^-1 u), on a humanoid dropped on a bouncy floor, so that
 * the velocity solve, the impacts (velocity jumps) and post-stabilisation (position corrections)
 * all run through the implicit mode's combine. Both run the same 30 sweeps (tolerance 0). Before
 * every step the implicit world is set to the dense world's state (World.saveState), so rounding
 * cannot grow into a different landing: each step is compared on its own. The implicit mode defers
 * the friction rows of contacts with no normal force and builds them when their normal force
 * appears; the landing goes through both.
 */
import { describe, expect, it } from 'vitest';
import { World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';

function dropWorld(denseLimit: number): World {
  // (the energy account is off: it takes kinetic energy where a step's rise passes its bound, a
  // decision that can turn the two solvers' 1e-10 differences into different halvings; the solvers
  // are compared here, not the account)
  const world = new World({ sleep: false, energyBound: false, solver: { maxIterations: 30, tolerance: 0, sor: 1 } });
  world.solver.denseLimit = denseLimit;
  // (both solved by PGS: the comparison is of the two forms of K)
  world.solver.directLimit = denseLimit; world.solver.exactBlocks = false;
  world.addStatic({ geometry: { type: 'plane' }, restitution: 0.3 });
  const body = world.addBody(humanoidTree(), { name: 'dropped' });
  body.state.q[1] = 1.3;
  body.state.q.set([0.2, 0.1, 0, 0.9747], 3);
  return world;
}

describe('the implicit solver in the World', () => {
  it('steps as the dense solver does, step by step through a landing with impacts and post-stabilisation (q and qd to 1e-9)', () => {
    const dense = dropWorld(1000), implicit = dropWorld(0);
    let impacts = 0, stabilised = 0, implicitSteps = 0, worst = 0, deferred = 0, builtLater = 0;
    for (let s = 0; s < 90; s++) {
      implicit.restoreState(dense.saveState());
      const a = dense.step(1 / 60), b = implicit.step(1 / 60);
      expect(a.error).toBe('');
      expect(b.halvings).toBe(a.halvings);
      expect(b.impacts).toBe(a.impacts);
      if (b.impacts > 0) impacts++;
      if (b.errorBefore > implicit.settings.stabilizationTolerance) stabilised++;
      if (b.rows > 0 && !implicit.solver.dense) implicitSteps++;
      deferred += implicit.solver.deferredRows.deferred;
      builtLater += implicit.solver.deferredRows.built;
      const A = dense.bodies[0].state, B = implicit.bodies[0].state;
      for (let i = 0; i < A.q.length; i++) worst = Math.max(worst, Math.abs(A.q[i] - B.q[i]));
      for (let i = 0; i < A.qd.length; i++) worst = Math.max(worst, Math.abs(A.qd[i] - B.qd[i]) / Math.max(1, Math.abs(A.qd[i])));
    }
    console.log(`dense and implicit World steps: worst difference ${worst.toExponential(2)} over 90 steps (${impacts} with impacts, ${stabilised} stabilised, ${implicitSteps} implicit; ${deferred} friction rows deferred, ${builtLater} of them built within a solve)`);
    expect(impacts).toBeGreaterThan(0);
    expect(stabilised).toBeGreaterThan(0);
    expect(implicitSteps).toBeGreaterThan(30);
    expect(builtLater).toBeGreaterThan(0);
    expect(deferred).toBeGreaterThan(builtLater);
    expect(worst).toBeLessThan(1e-9);
  });
});
