/**
 * The gun of the examples (scenes/gun.ts) and the death scene's shot, headless: a ball aimed by
 * World.castRay strikes where the ray met the target, its strike is a contact event, it is removed
 * when spent; a walker shot before the thrown ball leaves is not thrown at.
 */
import { describe, expect, it } from 'vitest';
import { RigidBody, World, type ContactEvent } from '@sinew/constraints';
import { Gun, SHOT_RADIUS, SHOT_SPEED } from '../src/scenes/gun.js';
import { createScene } from '../src/scenes/index.js';
import { readAssets } from '../src/node/demo.js';
import { SceneRunner } from '../src/sim/runner.js';
import { PoseRecorder } from '../src/sim/pose-recorder.js';

describe('Gun', () => {
  function range() {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    // a heavy 1 m crate resting on the floor, its front face at z = 0.5
    const crate = world.addBody(RigidBody.box([0.5, 0.5, 0.5], { mass: 400 }), { position: [0, 0.5, 0], name: 'crate' });
    const gun = new Gun(world);
    return { world, crate, gun };
  }

  it('aims with castRay: the ball strikes the crate where the ray meets its face, when a ball at the muzzle speed would', () => {
    const { world, crate, gun } = range();
    const aimed = gun.fire({ origin: [0.1, 0.8, 6], direction: [0, 0, -1] }, 0);
    expect(aimed.body).toBe(crate.index);
    expect(aimed.point[2]).toBeCloseTo(0.5, 9); // the face, from the ray alone
    expect(aimed.point[0]).toBeCloseTo(0.1, 9);
    expect(aimed.point[1]).toBeCloseTo(0.8, 9);
    const strikes: { time: number; point: number[]; other: string }[] = [];
    let t = 0;
    for (let i = 0; i < 30 && strikes.length === 0; i++) {
      world.step(1 / 60);
      t += 1 / 60;
      gun.afterStep(t, (e: ContactEvent) => {
        if (e.type !== 'began' || !(gun.owns(e.bodyA) || gun.owns(e.bodyB))) return;
        strikes.push({ time: e.time, point: [...e.point], other: (gun.owns(e.bodyA) ? e.bodyB : e.bodyA)?.name ?? 'static' });
      });
    }
    expect(strikes.length).toBeGreaterThan(0);
    expect(strikes[0].other).toBe('crate');
    // its centre flies the parabola through the aimed point: it touches the face SHOT_RADIUS before,
    // at (6 - 0.4 - 0.5 - r) / 24 s, within a step
    const flight = (6 - 0.4 - 0.5 - SHOT_RADIUS) / SHOT_SPEED;
    expect(Math.abs(strikes[0].time - flight)).toBeLessThanOrEqual(1 / 60 + 1e-9);
    const p = strikes[0].point;
    expect(Math.hypot(p[0] - 0.1, p[1] - 0.8, p[2] - 0.5)).toBeLessThan(0.05);
    expect(gun.strikes).toBe(1);
  });

  it('removes a spent ball from the world (World.removeBody), and the world goes on without it', () => {
    const { world, crate, gun } = range();
    gun.fire({ origin: [3, 1, 3], direction: [-Math.SQRT1_2, 0, -Math.SQRT1_2] }, 0);
    expect(world.bodies).toHaveLength(2);
    let t = 0, removedAt = -1;
    for (let i = 0; i < 5 * 60; i++) {
      world.step(1 / 60);
      t += 1 / 60;
      gun.afterStep(t);
      if (removedAt < 0 && gun.removed === 1) removedAt = t;
    }
    expect(gun.fired).toBe(1);
    expect(gun.removed).toBe(1);
    expect(gun.live).toBe(0);
    expect(world.bodies).toEqual([crate]);
    expect(removedAt).toBeGreaterThan(1); // at rest after its first second, or at 4 s at the latest
    expect(removedAt).toBeLessThanOrEqual(4 + 1 / 60 + 1e-9);
  });

  it('misses nothing and counts each strike once: the strikes are the balls\' contact events that began at 1 m/s or more', () => {
    const { world, gun } = range();
    let own = 0;
    let t = 0;
    for (let i = 0; i < 3 * 60; i++) {
      if (i % 20 === 0) gun.fire({ origin: [-2 + 0.5 * (i / 20), 1.5, 5], direction: [0.1, -0.2, -1].map((x, _k, a) => x / Math.hypot(...a)) as [number, number, number] }, t);
      world.step(1 / 60);
      t += 1 / 60;
      gun.afterStep(t, (e) => { if (e.type === 'began' && e.speed >= 1 && (gun.owns(e.bodyA) || gun.owns(e.bodyB))) own++; });
    }
    expect(gun.fired).toBe(9);
    expect(own).toBeGreaterThanOrEqual(9);
    expect(gun.strikes).toBe(own);
  });
});

describe('death scene', () => {
  it('a walker shot before the ball is thrown dies of the shot, and no ball is thrown at it', () => {
    const scene = createScene('death');
    const runner = new SceneRunner(scene, { assets: readAssets(scene) });
    for (let i = 0; i < 12; i++) runner.step(); // 0.2 s
    // from 4 m in front of the walker's chest, level, aimed at it
    const rec = new PoseRecorder();
    scene.sync(rec);
    const thorax = rec.poses()[0].links.find((l) => l.name === 'thorax')!.position;
    const origin: [number, number, number] = [thorax[0] + 4, thorax[1] + 0.1, thorax[2]];
    const d = [thorax[0] - origin[0], thorax[1] + 0.1 - origin[1], thorax[2] - origin[2]];
    const n = Math.hypot(d[0], d[1], d[2]);
    scene.shoot!({ origin, direction: [d[0] / n, d[1] / n, d[2] / n] });
    while (runner.time < 3) runner.step();
    const info = scene.info!().join(' ');
    expect(info).toMatch(/dead at 0\.\d+ s, shot in the/);
    const keys = (() => { const r = new PoseRecorder(); scene.sync(r); return r.poses().map((b) => b.key); })();
    expect(keys).toContain('walker');
    expect(keys.filter((k) => k.startsWith('ball'))).toEqual([]); // the ball of 1.3 s never came
    // and without the shot, the ball comes and kills
    const calm = createScene('death');
    const r2 = new SceneRunner(calm, { assets: readAssets(calm) });
    while (r2.time < 3) r2.step();
    expect(calm.info!().join(' ')).toMatch(/hit by the ball/);
  });
});
