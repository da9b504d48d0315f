/**
 * Contact events and joint-limit hits allocate nothing per event or per step (events.ts,
 * limit-events.ts): worlds with contact events on (and limit hits, in the ragdoll worlds), drained
 * every step and their contact forces read every step, measured as the allocation test
 * of World.step measures (world-allocation.test.ts: young-generation growth of a batch of steps
 * minus that of an empty batch, under 4 bytes a step, once the code is hot; the worlds of the
 * earlier cases stay alive). Scenes: a ball flying through sensors again and again (pairs beginning
 * and ending), one ragdoll resting, three ragdolls in a heap (persisted events every step).
 */
import { describe, expect, it } from 'vitest';
import { forwardKinematics } from '@sinew/featherstone';
import { RigidBody, World, type ContactEvent, type ContactForce, type LimitHit } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';
import { describeBatches, youngGenerationGrowth } from '../../featherstone/test/young-generation.js';

/** What the callbacks saw, in typed arrays (a game reading the events allocates nothing either). */
const seen = new Float64Array(4);
const onEvent = (e: ContactEvent): void => {
  seen[0]++;
  if (e.type === 'began') seen[1]++;
  else if (e.type === 'ended') seen[2]++;
  seen[3] += e.impulse;
};
const onForce = (f: ContactForce): void => { seen[3] += f.normalForce; };
const onHit = (h: LimitHit): void => { seen[3] += h.speed; };

const alive: World[] = [];

function stepDrained(world: World): () => void {
  return () => {
    world.step(1 / 60);
    world.drainContactEvents(onEvent);
    world.contactForces(onForce);
    if (world.limitEvents) world.drainLimitHits(onHit);
  };
}

function trees(n: number): World {
  const world = new World({ sleep: false, contactEvents: true, limitEvents: true });
  alive.push(world);
  world.addStatic({ geometry: { type: 'plane' } });
  for (let k = 0; k < n; k++) {
    const body = world.addBody(humanoidTree(), { name: `tree${k}` });
    const yaw = 1.3 * k, c = Math.cos(yaw / 2), s = Math.sin(yaw / 2), r = Math.SQRT1_2;
    body.state.q.set([0.15 * k, 0.2 + 0.3 * k, 0.1 * k]);
    body.state.q.set([-c * r, s * r, -s * r, c * r], 3);
    forwardKinematics(body.model, body.state, true);
  }
  return world;
}

describe('allocation of contact events', () => {
  it('one ragdoll resting, events drained and forces read every step: nothing allocated (under 4 bytes a step)', () => {
    const world = trees(1);
    seen.fill(0);
    const m = youngGenerationGrowth(stepDrained(world), { warm: 6000, calls: 200, bound: 4, attempts: 60 });
    console.log(`[allocation] 1 ragdoll with contact events: ${m.perCall.toFixed(2)} B/step (${seen[0]} events)`);
    expect(seen[0]).toBeGreaterThan(6000);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('three ragdolls in a heap, events drained and forces read every step: nothing allocated (under 4 bytes a step)', () => {
    const world = trees(3);
    seen.fill(0);
    const m = youngGenerationGrowth(stepDrained(world), { warm: 2500, calls: 60, bound: 4, attempts: 60 });
    console.log(`[allocation] 3 ragdolls with contact events: ${m.perCall.toFixed(2)} B/step (${seen[0]} events)`);
    expect(seen[0]).toBeGreaterThan(2500);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });

  it('a ball flying through two sensor boxes again and again (pairs beginning and ending), events drained and forces read every step: nothing allocated (under 4 bytes a step)', () => {
    // (last: a ragdoll world stepped after this zero-gravity world allocates 190-850 bytes a step,
    // with contact events on or off, as it did before they existed; and a ball dropped on the ground
    // again and again allocates 30-90 bytes a step with contact events on or off, in the impacts and
    // halvings of its landings: known failures of the step, left out here)
    const world = new World({ sleep: false, contactEvents: true, gravity: [0, 0, 0] });
    alive.push(world);
    world.addStatic({ geometry: { type: 'box', halfExtents: [0.2, 0.5, 0.5] }, position: [-0.5, 0, 0], sensor: true });
    world.addStatic({ geometry: { type: 'box', halfExtents: [0.2, 0.5, 0.5] }, position: [0.5, 0, 0], sensor: true });
    const ball = world.addBody(RigidBody.sphere(0.1, { mass: 1 }), { position: [-1.5, 0, 0], linearVelocity: [3, 0, 0], name: 'ball' });
    seen.fill(0);
    const step = stepDrained(world);
    // back to the start every 60 steps (3 m at 3 m/s)
    const count = new Int32Array(1);
    const m = youngGenerationGrowth(() => {
      if (++count[0] % 60 === 0) ball.state.q[0] = -1.5;
      step();
    }, { warm: 4000, calls: 120, bound: 4, attempts: 60 });
    console.log(`[allocation] a ball through sensors, with contact events: ${m.perCall.toFixed(2)} B/step (${seen[1]} began, ${seen[2]} ended)`);
    expect(seen[1]).toBeGreaterThan(100);
    expect(seen[2]).toBeGreaterThan(100);
    expect(m.perCall, describeBatches(m)).toBeLessThan(4);
  });
});
