/**
 * What a World carries from one step to the next, for saving and restoring a running world bit for
 * bit (World.saveState / World.restoreState), and the check of user input that World.step makes
 * before it touches anything (refusedInput).
 *
 * Besides each body's State (q, qd, tau, fext, gravity: State.save), a step's outcome depends on
 *   - the warm starts: the PGS starts from the forces of the previous step's rows with the same
 *     key, and stops after a fixed number of iterations or at a tolerance, so its answer (to the
 *     last bit, and beyond when it stops early) depends on where it started;
 *   - the sleep timers: how long each body has rested (restTime) and whether it sleeps;
 *   - whether a body's island first checks its warm forces (Body.checkWarmStart): the forces
 *     then reached differ within the tolerance;
 *   - each body's energy credit (step/energy-account.ts boundEnergy) and its ordering key (Body.key);
 *   - the simulated time.
 * Restoring only the States into a fresh world restarts the PGS cold and the timers at zero: the
 * continuation is physically the same but not bit-identical.
 *
 * Warm starts are found by row key, and the keys of drives, motors and pins are built from the
 * source's id, which a process-wide counter hands out: a world built again gets new ids. The
 * saved state therefore lists the ids of the world's sources in order, and restoring gives the
 * sources of the target world (which must be built the same way: the same kinds of sources in the
 * same order) the saved ids, so that the saved warm-start forces find their rows.
 *
 * The collision detection keeps no state that changes its output (its sort orders are canonical),
 * the row sources none besides their ids; but a sleeping body is not re-posed by the step, so the
 * restore runs the kinematics of every body, and World.restoreState has the collision world place
 * every shape again (CollisionWorld.repose): a body asleep before and after the restore must not
 * keep its shapes where it slept before.
 */
import { forwardKinematics } from '@sinew/featherstone';
import type { Body } from './body.js';
import { TrajectoryFollower, VelocityMotor } from './sources/drives.js';
import { HingePin, PointPin } from './sources/pin.js';
import type { ConstraintSource } from './sources/source.js';
import type { WarmStartTable } from './solver/warm-start.js';

/** A saved World (`World.saveState`): every body's state and what the step keeps between steps, restored bit for bit by `World.restoreState`. */
export interface WorldState {
  /** Simulated time (s). */
  time: number;
  /**
   * Per body, in the world's order: State.save(), sleep flag, rest timer and Body.checkWarmStart
   * (true when absent); for a body with kinematic joints, what the next step reads of them
   * (KinematicJoints.save: mode, pending target, links, target, rates).
   */
  bodies: { name: string; key?: string; state: Float64Array; sleeping: boolean; restTime: number; checkWarmStart?: boolean; energyCredit?: number; serial?: number; enabled?: boolean; kinematic?: Float64Array }[];
  /**
   * The world that saved it (World's serial): restoring into that same world after a body was
   * removed from it (or added) is refused with a message naming the body.
   */
  world?: number;
  /** Per source of the world, in order: its kind and the id its warm-start keys are built from (-1: none). */
  sources: { kind: string; id: number; pinId: number }[];
  /** Warm-start forces by row key, keys ascending. */
  warmKeys: Float64Array;
  warmForces: Float64Array;
}

/** The part of a World these functions read and write. */
interface WorldLike {
  time: number;
  readonly bodies: readonly Body[];
  readonly sources: readonly ConstraintSource[];
}

/** Kind and warm-start ids of a source (drives, motors and pins key their rows by id). */
export function sourceIds(src: ConstraintSource): { kind: string; id: number; pinId: number } {
  if (src instanceof HingePin) return { kind: 'HingePin', id: src.id, pinId: src.pin.id };
  if (src instanceof PointPin) return { kind: 'PointPin', id: src.id, pinId: -1 };
  if (src instanceof TrajectoryFollower) return { kind: 'TrajectoryFollower', id: src.id, pinId: -1 };
  if (src instanceof VelocityMotor) return { kind: 'VelocityMotor', id: src.id, pinId: -1 };
  return { kind: (src as object).constructor?.name ?? 'source', id: -1, pinId: -1 };
}

export function saveWorldState(world: WorldLike, warm: WarmStartTable): WorldState {
  const { keys, forces } = warm.entries();
  return {
    time: world.time,
    bodies: world.bodies.map((b) => ({ name: b.name, key: b.key, state: b.state.save(), sleeping: b.sleeping, restTime: b.restTime, checkWarmStart: b.checkWarmStart, energyCredit: b.energy[1] })),
    sources: world.sources.map(sourceIds),
    warmKeys: keys,
    warmForces: forces,
  };
}

/** Gives a source the warm-start ids of a saved one of its kind (-1: keeps its own). */
export function setSourceIds(src: ConstraintSource, id: number, pinId: number): void {
  if (id >= 0) (src as unknown as { id: number }).id = id;
  if (pinId >= 0) ((src as HingePin).pin as unknown as { id: number }).id = pinId;
}

/** What a saved body carries besides its State. */
export interface SavedBodyFlags {
  sleeping: boolean;
  restTime: number;
  key?: string;
  checkWarmStart?: boolean;
  enabled?: boolean;
  energyCredit?: number;
}

/**
 * Sets what a body carries besides its State (its State restored already) and what a step would
 * have left with it: the state the sleep test compares with, and the link poses and velocities.
 */
export function bodyRestored(b: Body, sb: SavedBodyFlags): void {
  b.sleeping = sb.sleeping;
  b.restTime = sb.restTime;
  if (sb.key !== undefined) b.key = sb.key;
  b.checkWarmStart = sb.checkWarmStart ?? true;
  b.enabled = sb.enabled ?? true;
  // (NaN, as for a body never stepped, when the saved world did not keep one)
  b.energy[1] = sb.energyCredit ?? NaN;
  // as a step would leave them (a sleeper whose state differs from these wakes)
  b.frameQ.set(b.state.q);
  b.frameQd.set(b.state.qd);
  b.sleepSnapshot = b.sleeping;
  // link poses and velocities: a sleeping body is not stepped, so its collision shapes stay where
  // its last kinematics left them; they must be those of the restored q
  forwardKinematics(b.model, b.state, true);
}

/** Restores a saved state into the same world or one built the same way (same bodies, models, sources); checks first, then writes. */
export function restoreWorldState(world: WorldLike, warm: WarmStartTable, s: WorldState): void {
  const bodies = world.bodies;
  if (s.bodies.length !== bodies.length) throw new RangeError(`World.restoreState: the state has ${s.bodies.length} bodies, the world ${bodies.length}`);
  bodies.forEach((b, i) => {
    if (s.bodies[i].state.length !== b.state.savedLength) {
      throw new RangeError(`World.restoreState: body ${i} ("${b.name}") saves ${b.state.savedLength} numbers, the state holds ${s.bodies[i].state.length} (was it saved from "${s.bodies[i].name}" of another model?)`);
    }
  });
  if (s.warmKeys.length !== s.warmForces.length) throw new RangeError('World.restoreState: warm-start keys and forces differ in length');
  const here = world.sources.map(sourceIds);
  if (here.length !== s.sources.length || here.some((x, k) => x.kind !== s.sources[k].kind)) {
    throw new RangeError(`World.restoreState: the world's constraint sources (${here.map((x) => x.kind).join(', ')}) differ from the saved ones (${s.sources.map((x) => x.kind).join(', ')})`);
  }
  // the saved ids, so that the saved warm-start keys meet their rows (see the note at the top)
  world.sources.forEach((src, k) => setSourceIds(src, s.sources[k].id, s.sources[k].pinId));
  bodies.forEach((b, i) => {
    const sb = s.bodies[i];
    b.state.restore(sb.state);
    bodyRestored(b, sb);
  });
  warm.clear();
  for (let k = 0; k < s.warmKeys.length; k++) warm.set(s.warmKeys[k], s.warmForces[k]);
  world.time = s.time;
}

/** A constraint source that can say whether its user-written inputs (targets, gains, points) are usable. */
interface InputChecked {
  checkInputs?(bodies: readonly Body[]): string;
}

function jointOfDof(b: Body, d: number): string {
  return b.model.jointNames[b.model.dofLink[d]];
}

/**
 * '' when every input the user can write directly is finite: the sources' targets, gains and
 * points (sources with a checkInputs method: drives, motors, pins), and each body's q, qd, joint
 * torques tau, external forces fext and gravity. Else a message naming the source or the body, and
 * the dof, joint or link. World.step refuses to step on it (RangeError) before changing anything.
 */
export function refusedInput(sources: readonly ConstraintSource[], bodies: readonly Body[]): string {
  for (const src of sources) {
    const check = (src as InputChecked).checkInputs;
    if (typeof check === 'function' && (src as { enabled?: boolean }).enabled !== false) {
      const bad = check.call(src, bodies);
      if (bad) return bad;
    }
  }
  for (const b of bodies) {
    const s = b.state;
    const joint = b.nonFiniteJoint();
    if (joint) {
      const k = s.firstNonFinite();
      const which = k < s.q.length ? `q[${k}]` : `qd[${k - s.q.length}]`;
      return `body "${b.name}": ${which} (joint "${joint}") is not finite; expected finite joint positions and velocities`;
    }
    for (let d = 0; d < s.tau.length; d++) {
      if (!Number.isFinite(s.tau[d])) return `body "${b.name}": joint torque tau[${d}] (joint "${jointOfDof(b, d)}") is ${s.tau[d]}; expected a finite number`;
    }
    for (let k = 0; k < s.fext.length; k++) {
      if (!Number.isFinite(s.fext[k])) return `body "${b.name}": external force fext[${k}] (link "${b.model.linkNames[Math.floor(k / 6)]}") is ${s.fext[k]}; expected a finite number`;
    }
    for (let k = 0; k < 3; k++) if (!Number.isFinite(s.gravity[k])) return `body "${b.name}": gravity[${k}] is ${s.gravity[k]}; expected a finite number`;
  }
  return '';
}
