/**
 * World.settings and World.configure: the settings are one frozen object, configure replaces it
 * between steps and the next step obeys the new values, and a bad value is refused by name before
 * anything changes, so the world goes on exactly as a twin that was never touched.
 */
import { describe, expect, it } from 'vitest';
import { World, type SettingsPatch } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';

/** A humanoid-shaped tree dropped onto a plane from 1 m (it lands at about step 25 at 60 Hz). */
function drop(options = {}): World {
  const world = new World(options);
  world.addStatic({ geometry: { type: 'plane' } });
  const body = world.addBody(humanoidTree(), { name: 'tree' });
  body.state.q[1] = 2.0;
  body.state.q.set([0.2, 0.1, 0, 0.9747], 3);
  return world;
}

function bits(world: World): number[] {
  return world.bodies.flatMap((b) => [...b.state.q, ...b.state.qd]);
}

describe('World.settings and World.configure', () => {
  it('the settings are frozen, the solver options too: assigning throws and changes nothing', () => {
    const world = new World({ maxPasses: 5, solver: { maxIterations: 12 } });
    const s = world.settings;
    expect(s.maxPasses).toBe(5);
    expect(s.solverOptions.maxIterations).toBe(12);
    expect(s.solverOptions.tolerance).toBe(1e-3); // the default kept beside the one given
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.solverOptions)).toBe(true);
    expect(() => { (s as { maxPasses: number }).maxPasses = 1; }).toThrow(TypeError);
    expect(() => { (s.solverOptions as { maxIterations: number }).maxIterations = 1; }).toThrow(TypeError);
    expect(() => { (world as unknown as { settings: unknown }).settings = {}; }).toThrow(TypeError);
    expect(world.settings.maxPasses).toBe(5);
  });

  it('the next step obeys configure: a pass budget of 1 and 3 sweeps at the landing, where the defaults take more', () => {
    const world = drop();
    let passes = 0, iterations = 0;
    for (let s = 0; s < 60; s++) { world.step(1 / 60); passes = Math.max(passes, world.stats.passes); iterations = Math.max(iterations, world.stats.iterations); }
    // with the defaults the landing takes more than one pass and more than 3 sweeps
    expect(passes).toBeGreaterThan(1);
    expect(iterations).toBeGreaterThan(3);
    const again = drop();
    again.configure({ maxPasses: 1, solver: { maxIterations: 3 } });
    expect(again.settings.solverOptions.tolerance).toBe(1e-3);
    passes = 0; iterations = 0;
    for (let s = 0; s < 60; s++) { again.step(1 / 60); passes = Math.max(passes, again.stats.passes); iterations = Math.max(iterations, again.stats.iterations); }
    expect(passes).toBe(1);
    expect(iterations).toBeLessThanOrEqual(3);
  });

  it('sleep turned off and on again by configure', () => {
    const world = drop({ sleep: false });
    for (let s = 0; s < 300; s++) world.step(1 / 60);
    expect(world.bodies[0].sleeping).toBe(false);
    world.configure({ sleep: { sleepTime: 0.25 } });
    expect(world.settings.sleepEnabled).toBe(true);
    expect(world.settings.sleepTime).toBe(0.25);
    let s = 0;
    for (; s < 120 && !world.bodies[0].sleeping; s++) world.step(1 / 60);
    expect(world.bodies[0].sleeping).toBe(true);
  });

  const bad: [SettingsPatch, RegExp][] = [
    [{ maxPasses: 0 }, /maxPasses must be an integer >= 1, got 0/],
    [{ maxPasses: 2.5 }, /maxPasses must be an integer >= 1, got 2.5/],
    [{ substeps: -1 }, /substeps must be a whole number/],
    [{ maxJointSpeed: 0 }, /maxJointSpeed must be > 0/],
    [{ backtrackTolerance: NaN }, /backtrackTolerance must be a finite number > 0 \(m\), got NaN/],
    [{ contactSlop: -1e-3 }, /contactSlop must be a finite number >= 0/],
    [{ stabilization: 'soft' as never }, /stabilization must be 'post', 'baumgarte' or 'none', got 'soft'/],
    [{ solver: { maxIterations: 0 } }, /solver: maxIterations must be a whole number >= 1, got 0/],
    [{ solver: { sor: 2 } }, /solver: sor must be a number in \(0, 2\), got 2/],
    [{ sleep: { sleepTime: Infinity } }, /sleep: sleepTime must be a finite number >= 0/],
    [{ gravity: [0, 0, 0] } as SettingsPatch, /unknown setting 'gravity'/],
  ];
  it.each(bad)('configure(%j) is refused by name, and the world goes on bit for bit as an untouched twin', (patch, message) => {
    const world = drop(), twin = drop();
    for (let s = 0; s < 20; s++) { world.step(1 / 60); twin.step(1 / 60); }
    const before = world.settings;
    expect(() => world.configure(patch)).toThrow(message);
    expect(world.settings).toBe(before);
    for (let s = 0; s < 20; s++) { world.step(1 / 60); twin.step(1 / 60); }
    expect(bits(world)).toEqual(bits(twin));
  });

  it('new World refuses the same values by name', () => {
    expect(() => new World({ maxPasses: 0 })).toThrow(/World: maxPasses must be an integer >= 1, got 0/);
    expect(() => new World({ solver: { tolerance: -1 } })).toThrow(/World solver: tolerance must be a finite number >= 0, got -1/);
  });
});
