/**
 * Death and getting up of a walking character, shared by the ragdoll death scenes (#death,
 * #getup) and the crowd (#crowd): a MotionFollower that dies (MotionFollower.die: the root let go,
 * the muscle tone fading), lies until the World has kept the body asleep for a while, then gets up
 * (GetUp of @sinew/characters: key poses driven with the contacts, a bounded assist at the pelvis)
 * and hands the body to the follower the scene makes next (standing in #death, walking on in
 * #crowd). Shot while getting up, it lets go of the get-up and dies again.
 */
import type { Body, World } from '@sinew/constraints';
import { GetUp, type DeathOptions, type GetUpOptions, type MotionFollower } from '@sinew/characters';

/** Seconds a dead body lies asleep before it gets up, unless told otherwise. */
export const REST_BEFORE_GETTING_UP = 1;

export class Mortal {
  /** The follower driving the body now (a dead one while it lies). */
  follower: MotionFollower;
  /** The get-up under way, or null. */
  getUp: GetUp | null = null;
  /** Scene time of death (-1: alive, or up again). */
  deathTime = -1;
  /** Scene time at which the dead body fell asleep (-1: not asleep). */
  asleepAt = -1;
  /** How many times it got up. */
  standings = 0;

  /**
   * `next` makes the follower that takes the body over once it has got up (or is shot while
   * getting up); `getUpOptions`, when given, the options of each get-up.
   */
  constructor(
    readonly world: World,
    readonly body: Body,
    follower: MotionFollower,
    private readonly next: () => MotionFollower,
    private readonly getUpOptions?: () => GetUpOptions,
  ) {
    this.follower = follower;
  }

  /** Dead and not up again (lying, or getting up). */
  get dead(): boolean {
    return this.deathTime >= 0;
  }

  /** Dies at scene time `time` (a get-up under way lets go first); false when already dead. */
  die(time: number, options: DeathOptions): boolean {
    if (this.deathTime >= 0 && !this.getUp) return false;
    if (this.getUp) this.handOver();
    this.deathTime = time;
    this.asleepAt = -1;
    this.follower.die(options);
    return true;
  }

  /** The get-up lets go; the next follower takes the body. */
  private handOver(): void {
    this.getUp!.remove();
    this.getUp = null;
    this.follower = this.next();
  }

  /**
   * Before each step of `dt` at scene time `time`: a dead body asleep for `rest` seconds starts
   * getting up (when `getsUp`); a get-up done hands over. Returns true at the step it has got up.
   */
  update(time: number, dt: number, getsUp = true, rest = REST_BEFORE_GETTING_UP): boolean {
    if (this.getUp) {
      if (!this.getUp.done) { this.getUp.update(dt); return false; }
      this.handOver();
      this.deathTime = -1;
      this.standings++;
      return true;
    }
    if (this.deathTime < 0 || !getsUp) return false;
    if (!this.body.sleeping) { this.asleepAt = -1; return false; }
    if (this.asleepAt < 0) this.asleepAt = time;
    if (time - this.asleepAt < rest) return false;
    this.follower.remove(); // the dead follower lets go of the body
    this.getUp = new GetUp(this.world, this.body, this.getUpOptions?.());
    this.getUp.update(dt);
    return false;
  }
}
