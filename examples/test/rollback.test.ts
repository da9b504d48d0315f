/**
 * Rollback netcode with two peers (examples/src/sim/rollback.ts): each peer predicts "no input"
 * for the other's pushes it has not received, and rolls back with World.snapshot / World.restore
 * when they arrive 4 frames late. Once every input has arrived, both peers hold the bytes of a world
 * that had every input on time, at every frame. The check could fail: a peer that ignored late
 * inputs, or a restore that did not continue bit for bit, would differ from the on-time world.
 */
import { describe, expect, it } from 'vitest';
import { World } from '@sinew/constraints';
import { pushInputs, rollbackWorld, runRollbackPeers } from '../src/sim/rollback.js';

describe('rollback with two peers', () => {
  it('ten ragdolls, pushes from both peers arriving 4 frames late: both peers equal the on-time world, byte for byte, from the last input on', () => {
    const r = runRollbackPeers({ frames: 150, delay: 4, ragdolls: 10 });
    console.log(`[rollback] ${r.inputs.length} inputs, ${r.rollbacks} rollbacks, ${r.resimulated} frames simulated again; peers equal the on-time world from frame ${r.settledFrom}: ${r.firstDifference || 'yes'}`);
    expect(r.inputs.length).toBeGreaterThan(5);
    expect(new Set(r.inputs.map((i) => i.peer)).size).toBe(2);
    // every input of the other peer arrives late, and each rollback replays the delay
    expect(r.rollbacks).toBe(r.inputs.length);
    expect(r.resimulated).toBe(4 * r.inputs.length);
    expect(r.firstDifference).toBe('');
  });

  it('the prediction is wrong until the late input arrives: a world that never learns it differs', () => {
    const inputs = pushInputs(150, 10);
    const withAll = rollbackWorld(10), without = rollbackWorld(10);
    const skipped = inputs[0];
    for (let t = 0; t <= skipped.frame + 5; t++) {
      for (const i of inputs) if (i.frame === t) {
        withAll.bodies[i.body].state.applyForce(0, i.force, [0, 0, 0]);
        if (i !== skipped) without.bodies[i.body].state.applyForce(0, i.force, [0, 0, 0]);
      }
      withAll.step(1 / 60); without.step(1 / 60);
    }
    const a = withAll.snapshot(), b = without.snapshot();
    expect(a.length === b.length && a.every((v, k) => v === b[k])).toBe(false);
    expect(withAll).toBeInstanceOf(World);
  });
});
