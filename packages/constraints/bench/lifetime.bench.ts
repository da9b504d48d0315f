/**
 * What the world a game needs costs: a step of three ragdolls in a heap with contact events and
 * joint-limit hits off and on (drained, with the contact forces read, every step); removing a
 * ragdoll from a world of twenty and adding it back; a crate made with RigidBody.box.
 *
 * Run from the repository root:
 *   pnpm bench packages/constraints/bench/lifetime.bench.ts (bundled by esbuild first; see scripts/bench.mjs)
 */
import { forwardKinematics } from '@sinew/featherstone';
import { fmt, measure, printTable, writeResults } from '../../../bench/harness.js';
import { RigidBody, World, type ContactEvent, type ContactForce, type LimitHit } from '../src/index.js';
import { humanoidTree } from '../test/humanoid-fixture.js';

function heap(n: number, events: boolean): World {
  const world = new World({ sleep: false, contactEvents: events, limitEvents: events });
  world.addStatic({ geometry: { type: 'plane' } });
  for (let k = 0; k < n; k++) {
    const body = world.addBody(humanoidTree({ dampingTime: 0.25 }), { name: `tree${k}` });
    const yaw = 1.3 * k, c = Math.cos(yaw / 2), s = Math.sin(yaw / 2), r = Math.SQRT1_2;
    body.state.q.set([0.15 * (k % 5), 0.2 + 0.3 * k, 0.1 * k]);
    body.state.q.set([-c * r, s * r, -s * r, c * r], 3);
    forwardKinematics(body.model, body.state, true);
  }
  for (let i = 0; i < 300; i++) world.step(1 / 60);
  return world;
}

const sink = new Float64Array(2);
const onEvent = (e: ContactEvent): void => { sink[0] += e.impulse; sink[1]++; };
const onForce = (f: ContactForce): void => { sink[0] += f.normalForce; };
const onHit = (h: LimitHit): void => { sink[0] += h.speed; };

const table: Record<string, string | number>[] = [];
const off = heap(3, false), on = heap(3, true);
// stepped alternately, one step of each in turn, each step timed: the two worlds then share the
// machine's load and the compiled code of the step alike (timed one after the other, whichever ran
// second was up to twice as slow, whichever it was)
const STEPS = 3000;
const tOff = new Float64Array(STEPS), tOn = new Float64Array(STEPS);
for (let i = 0; i < STEPS; i++) {
  let t0 = performance.now();
  off.step(1 / 60);
  tOff[i] = performance.now() - t0;
  t0 = performance.now();
  on.step(1 / 60);
  on.drainContactEvents(onEvent);
  on.contactForces(onForce);
  on.drainLimitHits(onHit);
  tOn[i] = performance.now() - t0;
}
const median = (t: Float64Array) => 1000 * Float64Array.from(t).sort()[t.length >> 1];
const bestOff = median(tOff), bestOn = median(tOn);
table.push({ case: 'step, 3 ragdolls in a heap, events off', median: fmt(bestOff) });
table.push({ case: 'step + drain + contact forces + limit hits, events on', median: fmt(bestOn), note: `${sink[1]} events drained` });

const big = heap(20, false);
const victim = big.bodies[7];
const tRemove = measure('remove and add back a ragdoll (20 in the world)', () => {
  big.removeBody(big.bodies[7]);
  big.addBody(victim.model, { name: victim.name, state: victim.state });
}, { samples: 20, inner: 1 });
table.push({ case: 'removeBody + addBody of a ragdoll, 20 ragdolls (set-up time, allocates)', median: fmt(tRemove.medianUs) });
const tBox = measure('RigidBody.box', () => { RigidBody.box([0.3, 0.2, 0.25], { mass: 10 }); });
table.push({ case: 'RigidBody.box (a model)', median: fmt(tBox.medianUs) });
printTable('lifetime and events (median)', table);
console.log('command: pnpm bench packages/constraints/bench/lifetime.bench.ts');
console.log(`\nwrote ${writeResults('lifetime')}`);
