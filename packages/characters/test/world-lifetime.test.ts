/**
 * World.removeBody with the character controls' sources in the world: the spherical limit guard
 * keys its rows' warm starts by body index (limit-guard.ts, family 7 of the joint-row keys) and
 * keeps per-body excesses, both renumbered when a body before its characters is removed. Two
 * humanoid presets fall onto the ground beside a ball dropped far away; the ball is removed at step
 * 60, and the characters go on bit for bit as in a world that never had it (300 steps), with the
 * guard's rows acting after the removal.
 */
import { describe, expect, it } from 'vitest';
import { RigidBody, World, type Body } from '@sinew/constraints';
import { RowTag } from '@sinew/constraints/internals';
import { characterFromJSON } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';
import { SphericalLimitGuard } from '../src/control/index.js';

const DT = 1 / 60;
const model = characterFromJSON(humanoid({ height: 1.75, mass: 70 })).model;

function bits(bodies: readonly Body[]): Uint8Array {
  const parts: number[] = [];
  for (const b of bodies) parts.push(...b.state.q, ...b.state.qd);
  return new Uint8Array(Float64Array.from(parts).buffer);
}

function scene(withBall: boolean): { world: World; ball: Body | null; guard: SphericalLimitGuard } {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' } });
  const ball = withBall ? world.addBody(RigidBody.sphere(0.2, { mass: 3 }), { position: [40, 60, 0], name: 'ball' }) : null;
  for (let k = 0; k < 2; k++) {
    const b = world.addBody(model, { name: `character${k}` });
    const a = 0.6 + 0.7 * k;
    b.state.q.set([0.9 * k, 1.2 + 0.2 * k, 0, Math.sin(a / 2), 0, 0, Math.cos(a / 2)], 0);
  }
  const guard = world.addConstraint(new SphericalLimitGuard());
  return { world, ball, guard };
}

describe('World.removeBody with a spherical limit guard', () => {
  it('a ball removed at step 60: the characters go on bit for bit as in a world that never had it (300 steps)', () => {
    const a = scene(true), b = scene(false);
    let guardRows = 0;
    for (let s = 0; s < 300; s++) {
      if (s === 60) a.world.removeBody(a.ball!);
      a.world.step(DT); b.world.step(DT);
      const rest = a.world.bodies.filter((x) => x !== a.ball);
      expect(sameBytes(bits(rest), bits(b.world.bodies)), `step ${s}`).toBe(true);
      // the guard's own rows (limit rows with its family of keys)
      if (s > 60) for (let j = 0; j < a.world.rows.count; j++) if (a.world.rows.tag[j] === RowTag.Limit && a.world.rows.key[j] >= 7 * 4096 * 65536 * 8) guardRows++;
    }
    expect(a.world.sources.includes(a.guard)).toBe(true);
    expect(guardRows).toBeGreaterThan(0);
  });
});

function sameBytes(x: Uint8Array, y: Uint8Array): boolean {
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
