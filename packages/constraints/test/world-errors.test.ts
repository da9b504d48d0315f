/**
 * World.step and errors: a state that goes bad is rolled back and reported (tested in
 * reliability-input), but a programming error (a TypeError inside a constraint source) must
 * surface with its stack, after the rollback, instead of freezing the world quietly.
 */
import { describe, expect, it } from 'vitest';
import { World, type ConstraintSource } from '../src/index.js';
import { rodChain } from './chain-fixture.js';

describe('World.step and programming errors', () => {
  it('rethrows a TypeError from a source after restoring the state from before the step', () => {
    const world = new World();
    const body = world.addBody(rodChain({ links: 3 }));
    body.state.q.set([0.3, -0.2, 0.1]);
    for (let s = 0; s < 5; s++) world.step(1 / 60);
    const q = Float64Array.from(body.state.q), qd = Float64Array.from(body.state.qd), t = world.time;
    const broken: ConstraintSource = {
      addRows() {
        const missing = undefined as unknown as { x: number[] };
        missing.x.push(1); // a bug: reads a property of undefined
      },
    };
    world.addConstraint(broken);
    expect(() => world.step(1 / 60)).toThrow(TypeError);
    expect(Array.from(body.state.q)).toEqual(Array.from(q));
    expect(Array.from(body.state.qd)).toEqual(Array.from(qd));
    expect(world.time).toBe(t);
  });
});
