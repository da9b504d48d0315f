/**
 * Ragdoll death scenes from any moment of a clip: the character, animated by the clip up to time
 * t, is handed to physics with the clip's pose and velocities at t (so the first simulated frame
 * continues the motion: no pop), optionally shot or punched (an impulse at a point, a velocity jump
 * through the body's dynamics), and its muscle tone fades to a small residual while the joint
 * limits (always on in the World) keep the body human.
 *
 * It is a MotionFollower with a free root that dies at once (MotionFollower.die): a game that
 * already drives the character with a follower calls follower.die() instead.
 */
import type { Body, World } from '@sinew/constraints';
import type { MotionClip } from '../motion/clip.js';
import type { Retargeter } from '../motion/retarget.js';
import type { JointTrajectory } from './joint-trajectory.js';
import type { JointGroup, PerGroup } from './joint-groups.js';
import { MotionFollower, type DeathOptions } from './motion-follower.js';

/** Options of `startDeathScene`: the motion before death, when death comes, gains and torque limits, and the death itself. */
export interface DeathSceneOptions extends DeathOptions {
  /** The motion the character was playing: a trajectory, or a clip with its Retargeter. */
  trajectory?: JointTrajectory;
  clip?: MotionClip;
  retargeter?: Retargeter;
  /** Clip time of the moment of death (default: the trajectory's start). */
  time?: number;
  /** Drive settings of the muscles while they fade (see MotionFollowerOptions). */
  settleTime?: PerGroup<number>;
  maxTorque?: PerGroup<number>;
  groups?: Readonly<Record<string, JointGroup>>;
}

/** Starts a death scene on `body` (see the module comment); returns the follower that plays it. */
export function startDeathScene(world: World, body: Body, options: DeathSceneOptions): MotionFollower {
  const follower = new MotionFollower(world, body, {
    trajectory: options.trajectory,
    clip: options.clip,
    retargeter: options.retargeter,
    startTime: options.time,
    root: 'free',
    settleTime: options.settleTime,
    maxTorque: options.maxTorque,
    groups: options.groups,
    initialize: options.fromClip !== false,
  });
  follower.die({ ...options, fromClip: false });
  return follower;
}
