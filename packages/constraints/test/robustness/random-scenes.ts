/**
 * Random scenes, seeded: one to five bodies (the humanoid fixture, the 15-part peer ragdoll, a
 * chain of 5 to 34 boxes with or without limits, a chain of 10 to 29 thin boxes of 5 cm by 5 mm
 * with none, a box, a sphere) at random poses and joint speeds, over a plane, a flight of stairs, a
 * ramp or nothing. The same seed gives the same scenes on every machine (a linear congruential
 * generator, and only exactly rounded arithmetic). scripts/energy-search.ts searches them; the
 * tests keep the scenes it found.
 */
import type { Model } from '@sinew/featherstone';
import { World } from '../../src/index.js';
import { peerRagdollModel } from '../../bench/peer-ragdoll.js';
import { rodChain } from '../chain-fixture.js';
import { humanoidTree } from '../humanoid-fixture.js';
import { boxModel, sphereModel, turn } from './scenes.js';

const KINDS = ['humanoid', 'peer', 'chain', 'box', 'sphere', 'thin chain'] as const;

/** The scenes of `seed` in order (with thin-box chains or without), made one at a time. */
export class RandomScenes {
  private state: number;
  constructor(seed: number, private readonly thin = true) {
    this.state = seed;
  }

  private rnd(): number {
    this.state = (this.state * 1103515245 + 12345) % 2147483648;
    return this.state / 2147483648;
  }

  private R(a: number, b: number): number {
    return a + (b - a) * this.rnd();
  }

  private modelOf(kind: (typeof KINDS)[number]): Model {
    switch (kind) {
      case 'humanoid': return humanoidTree();
      case 'peer': return peerRagdollModel();
      case 'chain': return rodChain({ links: 5 + Math.floor(this.R(0, 30)), length: this.R(0.05, 0.2), mass: this.R(0.05, 1), root: 'free', limits: this.rnd() < 0.5 ? { lower: -1, upper: 1 } : undefined });
      case 'thin chain': return rodChain({ links: 10 + Math.floor(this.R(0, 20)), length: 0.05, mass: 0.1, root: 'free' });
      case 'box': return boxModel(this.R(0.5, 50), [this.R(0.05, 0.4), this.R(0.02, 0.4), this.R(0.05, 0.4)], this.R(0, 1));
      case 'sphere': return sphereModel(this.R(0.1, 20), this.R(0.05, 0.3), this.R(0, 1));
    }
  }

  /** The next scene: its world (default settings, or sleep off) and what it holds. */
  next(): { world: World; what: string } {
    const R = (a: number, b: number): number => this.R(a, b);
    const world = new World(this.rnd() < 0.5 ? { sleep: false } : {});
    const g = this.rnd();
    let ground = 'nothing';
    if (g < 0.4) { world.addStatic({ geometry: { type: 'plane' } }); ground = 'a plane'; }
    else if (g < 0.7) {
      world.addStatic({ geometry: { type: 'plane' } });
      for (let i = 0; i < 6; i++) world.addStatic({ geometry: { type: 'box', halfExtents: [1.5, 0.1 * (i + 1), 0.15] }, position: [0, 0.1 * (i + 1), -0.3 * i] });
      ground = 'stairs';
    } else if (g < 0.85) {
      const t = Math.tan(R(0.2, 0.6));
      world.addStatic({ geometry: { type: 'trimesh', vertices: [-4, 4 * t, -3, 4, -4 * t, -3, 4, -4 * t, 3, -4, 4 * t, 3], indices: [0, 2, 1, 0, 3, 2] }, friction: R(0, 1) });
      ground = 'a ramp';
    }
    const kinds: string[] = [];
    const n = 1 + Math.floor(R(0, 5));
    for (let i = 0; i < n; i++) {
      const kind = KINDS[Math.floor(R(0, this.thin ? 6 : 5))];
      kinds.push(kind);
      const b = world.addBody(this.modelOf(kind));
      const axis = [R(-1, 1), R(-1, 1), R(-1, 1)];
      const len = Math.hypot(axis[0], axis[1], axis[2]);
      const rotation = turn([axis[0] / len, axis[1] / len, axis[2] / len], R(0, 6.28));
      b.state.q.set([R(-1, 1), R(0.3, 2.5), R(-1, 1)], 0);
      b.state.q.set(rotation, 3);
      for (let k = 0; k < b.model.nv; k++) b.state.qd[k] = R(-1, 1) * (k < 6 ? 3 : R(0, 8));
    }
    return { world, what: `${kinds.join(', ')} over ${ground}` };
  }

  /** Scene k of the seed (the scenes before it are made and dropped). */
  static scene(seed: number, k: number, thin = true): { world: World; what: string } {
    const scenes = new RandomScenes(seed, thin);
    for (let i = 0; i < k; i++) scenes.next();
    return scenes.next();
  }
}
