/**
 * World.step allocates nothing once warm (the design's "no allocation in the step"): ragdolls
 * resting on the ground and against each other, with contacts, friction, joint limits, islands,
 * the solver (dense and implicit), backtracking checks and post-stabilisation all running every
 * step, sleep off so that nothing is skipped.
 *
 * Measured as featherstone's allocation test measures the dynamics: the growth of V8's young
 * generation over a batch of steps minus the growth over an empty batch. Any object made per step
 * costs at least 16 bytes a step; the bound is 4 bytes a step in every case. The worlds of the
 * earlier cases stay alive while the later ones run, as in a game with several worlds. (The step
 * used to allocate 13-21 KB for one ragdoll and 230 KB for ten, from boxed returns, subarray views
 * and closures; 32 bytes a step from the step length passed as a fresh double; and 16 bytes a step
 * once a second World had stepped, whose first step threw away the code compiled for the first.)
 * Code that the optimising compiler has not yet replaced boxes its floating-point temporaries (a
 * function called once a step takes thousands of steps to become hot), so the worlds are stepped
 * for a while first, and a case passes once three batches in a row are within the bound, within a
 * budget of batches. Timing is left to the benchmark.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, forwardKinematics } from '@sinew/featherstone';
import { RigidBody, World } from '../src/index.js';
import { RowTag } from '../src/internals.js';
import { humanoidTree } from './humanoid-fixture.js';
import { describeBatches, youngGenerationGrowth, type GrowthMeasure } from '../../featherstone/test/young-generation.js';

/** Growth per step of a warm world (see young-generation.ts), within a budget of 60 batches. */
function bytesPerStep(world: World, warmSteps: number, batch: number, bound: number): GrowthMeasure {
  return youngGenerationGrowth(() => world.step(1 / 60), { warm: warmSteps, calls: batch, bound, attempts: 60 });
}

/** n humanoid trees lying side by side and across each other on the ground (contacts between them). */
/** Every world made here, kept alive to the end of the file. */
const alive: World[] = [];

function restingTrees(n: number, convexFeetAndHands = false, limitFriction = 0): World {
  const world = new World({ sleep: false, limits: { friction: limitFriction } });
  alive.push(world);
  world.addStatic({ geometry: { type: 'plane' } });
  for (let k = 0; k < n; k++) {
    const body = world.addBody(humanoidTree({ convexFeetAndHands }), { name: `tree${k}` });
    const yaw = 1.3 * k, c = Math.cos(yaw / 2), s = Math.sin(yaw / 2), r = Math.SQRT1_2;
    body.state.q.set([0.15 * k, 0.2 + 0.3 * k, 0.1 * k]);
    body.state.q.set([-c * r, s * r, -s * r, c * r], 3);
    forwardKinematics(body.model, body.state, true);
  }
  return world;
}

describe('allocation in World.step', () => {
  it('a box resting on the ground (dense solver: 12 rows): nothing allocated (under 4 bytes a step)', () => {
    const world = new World({ sleep: false });
    alive.push(world);
    world.addStatic({ geometry: { type: 'plane' } });
    const b = new ModelBuilder();
    b.addLink({ name: 'crate', parent: null, joint: { type: 'free' }, mass: 10, inertia: [0.2, 0.2, 0.2, 0, 0, 0], shapes: [{ geometry: { type: 'box', halfExtents: [0.2, 0.2, 0.2] } }] });
    const crate = world.addBody(b.build(), { name: 'crate' });
    crate.state.q[1] = 0.2;
    const m = bytesPerStep(world, 4000, 200, 4);
    console.log(`[allocation] a box: ${m.perCall.toFixed(2)} B/step young-generation growth (${world.stats.rows} rows, ${world.stats.contacts} contacts)`);
    expect(world.solver.dense).toBe(true);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('one ragdoll resting on the ground (implicit solver): nothing allocated (under 4 bytes a step)', () => {
    const world = restingTrees(1);
    const m = bytesPerStep(world, 4000, 200, 4);
    console.log(`[allocation] 1 ragdoll: ${m.perCall.toFixed(2)} B/step young-generation growth (${world.stats.rows} rows, ${world.stats.contacts} contacts)`);
    expect(world.solver.dense).toBe(false);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('three ragdolls in a heap (implicit solver, contacts between bodies): nothing allocated (under 4 bytes a step)', () => {
    const world = restingTrees(3);
    const m = bytesPerStep(world, 2500, 60, 4);
    console.log(`[allocation] 3 ragdolls: ${m.perCall.toFixed(2)} B/step young-generation growth (${world.stats.rows} rows, ${world.stats.contacts} contacts, ${world.stats.islands} islands)`);
    expect(world.solver.dense).toBe(false);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('three ragdolls in a heap with friction on their cones (limits.friction 0.1: friction rows bound to limit rows): nothing allocated (under 4 bytes a step)', () => {
    const world = restingTrees(3, false, 0.1);
    const m = bytesPerStep(world, 2500, 60, 4);
    // (rim friction rows: tag friction, keyed in the limits' family, 1)
    let rim = 0;
    for (let j = 0; j < world.rows.count; j++) if (world.rows.tag[j] === RowTag.Friction && Math.floor(world.rows.key[j] / (8 * 65536 * 4096)) === 1) rim++;
    console.log(`[allocation] 3 ragdolls, cone friction: ${m.perCall.toFixed(2)} B/step young-generation growth (${world.stats.rows} rows, ${rim} of them friction on cones)`);
    expect(rim).toBeGreaterThan(0);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('two ragdolls with convex-hull feet and hands (hull contacts on the ground): nothing allocated (under 4 bytes a step)', () => {
    const world = restingTrees(2, true);
    const m = bytesPerStep(world, 2500, 60, 4);
    const c = world.collision.contacts;
    let hullContacts = 0;
    for (let k = 0; k < c.count; k++) {
      const i = k * 8, body = c.i32[i + 2];
      if (body >= 0 && /(foot|hand)$/.test(world.bodies[body].model.linkNames[c.i32[i + 3]])) hullContacts++;
    }
    expect(hullContacts).toBeGreaterThan(0);
    console.log(`[allocation] 2 ragdolls with hull feet and hands: ${m.perCall.toFixed(2)} B/step young-generation growth (${world.stats.rows} rows, ${world.stats.contacts} contacts)`);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('two ragdolls tumbling in zero gravity and a ball flying alone (islands held by nothing: momentum kept by group): nothing allocated (under 4 bytes a step)', () => {
    const world = new World({ sleep: false, gravity: [0, 0, 0] });
    alive.push(world);
    const a = world.addBody(humanoidTree(), { name: 'a' });
    const b = world.addBody(humanoidTree(), { name: 'b' });
    b.state.q[0] = 1;
    for (let d = 6; d < a.model.nv; d++) { a.state.qd[d] = 0.5 * Math.sin(d); b.state.qd[d] = 0.5 * Math.cos(d); }
    a.state.qd.set([0.3, 1, 0.2, 0.1, 0, 0]);
    const bb = new ModelBuilder();
    bb.addLink({ name: 'ball', parent: null, joint: { type: 'free' }, mass: 1, inertia: [0.01, 0.01, 0.01, 0, 0, 0], shapes: [{ geometry: { type: 'sphere', radius: 0.1 } }] });
    const ball = world.addBody(bb.build(), { name: 'ball' });
    ball.state.q.set([0, 50, 0]);
    ball.state.qd.set([0, 0, 0, 0, 0.01, 0]);
    const m = bytesPerStep(world, 2500, 60, 4);
    console.log(`[allocation] 2 ragdolls tumbling in zero gravity and a ball: ${m.perCall.toFixed(2)} B/step young-generation growth (${world.stats.rows} rows, ${world.stats.islands} islands)`);
    expect(world.stats.islands).toBeGreaterThan(0);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('two kinematic bodies, one moved by a target pose each step, one by a velocity (kinematic rows, exact moves, targets): nothing allocated (under 4 bytes a step)', () => {
    const world = new World({ sleep: false });
    alive.push(world);
    world.addStatic({ geometry: { type: 'plane' } });
    const lift = world.addBody(RigidBody.box([1, 0.1, 1], { mass: 10 }), { name: 'lift', kinematic: true, position: [0, 2, -4] });
    const slider = world.addBody(RigidBody.box([1, 0.1, 1], { mass: 10 }), { name: 'slider', kinematic: true, position: [0, 2, 4], linearVelocity: [0.01, 0, 0] });
    const position = new Float64Array(3), rotation = new Float64Array([0, 0, 0, 1]);
    let n = 0;
    const step = (): void => {
      // the lift goes up and down by target poses (from a counter: no Math.sin needed)
      n++;
      position[1] = 2 + 0.001 * ((n % 400) < 200 ? n % 200 : 200 - (n % 200));
      position[2] = -4;
      lift.setNextKinematicPose(position, rotation);
      world.step(1 / 60);
    };
    const m = youngGenerationGrowth(step, { warm: 2500, calls: 60, bound: 4, attempts: 60 });
    console.log(`[allocation] kinematic lift (poses) and slider (velocity): ${m.perCall.toFixed(2)} B/step young-generation growth (${world.stats.rows} rows)`);
    expect(lift.state.q[1]).toBe(position[1]);
    expect(slider.state.q[0]).toBeGreaterThan(0.4);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('a ragdoll resting on the ground with kinematic arms (kinematic links: their rows, limit rows dropped, exact moves): nothing allocated (under 4 bytes a step)', () => {
    const world = restingTrees(1);
    const tree = world.bodies[0];
    tree.setKinematicLinks(['l_upperarm', 'r_forearm']);
    const m = bytesPerStep(world, 2500, 60, 4);
    console.log(`[allocation] ragdoll with kinematic arms: ${m.perCall.toFixed(2)} B/step young-generation growth (${world.stats.rows} rows, ${world.stats.contacts} contacts)`);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });
});
