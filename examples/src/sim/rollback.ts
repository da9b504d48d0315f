/**
 * Rollback netcode with two simulated peers in one process: each peer has its own World of ten
 * humanoid ragdolls falling onto the ground, and pushes ragdolls at frames of its own choosing
 * (its inputs). A peer applies its own inputs at once and learns the other's `delay` frames late;
 * until then it predicts "no input". When a late input arrives for a frame it has already
 * simulated, it restores its snapshot of that frame (World.snapshot / World.restore) and
 * simulates again up to the present. Once every input has arrived, both peers hold the same bits
 * as a world that had every input on time, frame after frame.
 *
 *   const r = runRollbackPeers({ frames: 240, delay: 4 });
 *   r.firstDifference === ''  // the peers agree with the on-time world from the last input on
 */
import { World } from '@sinew/constraints';
import { humanoidModel } from '../scenes/walker.js';

/** A push: at `frame`, `peer` applies `force` (N, world) for one step at the pelvis of ragdoll `body`. */
export interface PushInput {
  frame: number;
  peer: 0 | 1;
  body: number;
  force: [number, number, number];
}

export interface RollbackOptions {
  /** Frames simulated (60 Hz). */
  frames?: number;
  /** Frames a peer's input takes to reach the other peer. */
  delay?: number;
  /** Ragdolls in the scene. */
  ragdolls?: number;
}

export interface RollbackResult {
  /** Both peers' snapshots equal the on-time world's at every frame from `settledFrom` on ('' if so), else where they first differ. */
  firstDifference: string;
  /** First frame by which every input had arrived at both peers. */
  settledFrom: number;
  /** Rollbacks made (both peers), and frames simulated again for them. */
  rollbacks: number;
  resimulated: number;
  /** Inputs each peer sent. */
  inputs: PushInput[];
}

const DT = 1 / 60;

/** The scene every world starts from: ragdolls in two rows, dropped from 1 to 2 m. */
export function rollbackWorld(ragdolls = 10): World {
  const world = new World();
  world.addStatic({ geometry: { type: 'plane' }, friction: 0.8 });
  const model = humanoidModel();
  for (let i = 0; i < ragdolls; i++) {
    const body = world.addBody(model, { name: `ragdoll${i}` });
    body.state.q[0] = 0.9 * (i % 5) - 1.8;
    body.state.q[1] = 1 + 0.25 * i;
    body.state.q[2] = i < 5 ? 0 : 1.2;
  }
  return world;
}

/** The inputs of both peers: a few pushes each, at fixed frames (the game's "random" choices, seeded). */
export function pushInputs(frames: number, ragdolls: number): PushInput[] {
  const out: PushInput[] = [];
  let seed = 12345;
  const next = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
  for (let f = 10; f < frames - 40; f += 7 + Math.floor(next() * 11)) {
    const peer = next() < 0.5 ? 0 : 1;
    out.push({ frame: f, peer, body: Math.floor(next() * ragdolls), force: [4000 * (next() - 0.5), 3000 * next(), 4000 * (next() - 0.5)] });
  }
  return out;
}

function apply(world: World, inputs: readonly PushInput[], frame: number): void {
  for (const i of inputs) if (i.frame === frame) world.bodies[i.body].state.applyForce(0, i.force, [0, 0, 0]);
}

class Peer {
  readonly world: World;
  /** Inputs this peer knows, in a canonical order (frame, peer, body). */
  readonly known: PushInput[] = [];
  /** Snapshot taken before simulating each frame. */
  readonly snaps: Uint8Array[] = [];
  frame = 0;
  rollbacks = 0;
  resimulated = 0;

  constructor(readonly id: 0 | 1, ragdolls: number) {
    this.world = rollbackWorld(ragdolls);
  }

  learn(input: PushInput): void {
    this.known.push(input);
    this.known.sort((a, b) => a.frame - b.frame || a.peer - b.peer || a.body - b.body);
    if (input.frame < this.frame) {
      // a late input for a frame already simulated: back to that frame, then forward again
      this.world.restore(this.snaps[input.frame]);
      const now = this.frame;
      this.frame = input.frame;
      this.rollbacks++;
      while (this.frame < now) { this.advance(); this.resimulated++; }
    }
  }

  advance(): void {
    this.snaps[this.frame] = this.world.snapshot();
    apply(this.world, this.known, this.frame);
    this.world.step(DT);
    this.frame++;
  }
}

/** Runs both peers and the on-time world for `frames` frames and compares them. */
export function runRollbackPeers(options: RollbackOptions = {}): RollbackResult {
  const frames = options.frames ?? 240, delay = options.delay ?? 4, ragdolls = options.ragdolls ?? 10;
  const inputs = pushInputs(frames, ragdolls);
  const peers = [new Peer(0, ragdolls), new Peer(1, ragdolls)];
  const reference = rollbackWorld(ragdolls);
  const lastInput = inputs.reduce((m, i) => Math.max(m, i.frame), 0);
  const settledFrom = lastInput + delay + 1;
  let firstDifference = '';
  for (let t = 0; t < frames; t++) {
    // what reaches each peer at the start of frame t: its own inputs of frame t, the other's of frame t - delay
    for (const p of peers) {
      for (const i of inputs) {
        if ((i.peer === p.id && i.frame === t) || (i.peer !== p.id && i.frame + delay === t)) p.learn(i);
      }
      p.advance();
    }
    apply(reference, inputs, t);
    reference.step(DT);
    if (t + 1 >= settledFrom && !firstDifference) {
      const want = reference.snapshot();
      for (const p of peers) {
        const got = p.world.snapshot();
        if (got.length !== want.length || got.some((v, k) => v !== want[k])) { firstDifference = `peer ${p.id} after frame ${t}`; break; }
      }
    }
  }
  return { firstDifference, settledFrom, rollbacks: peers[0].rollbacks + peers[1].rollbacks, resimulated: peers[0].resimulated + peers[1].resimulated, inputs };
}
