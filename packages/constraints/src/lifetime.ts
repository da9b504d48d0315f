/**
 * Lifetime of what a World holds: what removing a body changes in the sources and the warm starts.
 *
 * A World names bodies by their place in `world.bodies` (rows, pins, drives, the collision world,
 * the solver's kept layout, the keys of joint-limit rows). World.removeBody takes the body out
 * and moves every later body down one place, so that the world left is the one that would have
 * been built without it: the same places, the same canonical ranks (Body.rank), the same row keys.
 * Row keys that hold no body index (contacts: shape handles, which are never given twice; pins,
 * drives and motors: their source ids) need nothing; joint-limit keys are renumbered here.
 *
 * A source is attached to the bodies it names: a PointPin its body and its target's, a HingePin
 * its pin's body, any source with a numeric `body` field (TrajectoryFollower, VelocityMotor,
 * character controllers) that body. Removing a body removes the sources attached to it (as Rapier
 * removes the joints of a removed rigid body) and renumbers the others. A source of another kind
 * that names bodies says what to do by a `bodyRemoved(index)` method (ConstraintSource).
 */
import { HingePin, PointPin } from './sources/pin.js';
import type { ConstraintSource } from './sources/source.js';
import type { WarmStartTable } from './solver/warm-start.js';

/**
 * Joint-limit row keys (joint-limits.ts, setLimitKey): ((4096 + body) * 65536 + link) * 8 + which,
 * so body b's keys lie in [LIMIT_KEYS + b * LIMIT_BODY_STRIDE, LIMIT_KEYS + (b + 1) * LIMIT_BODY_STRIDE).
 */
const LIMIT_BODY_STRIDE = 65536 * 8;
const LIMIT_KEYS = 4096 * LIMIT_BODY_STRIDE;

/** The body indices a source names (for attachments and for checks when it is added). */
export function sourceBodies(src: ConstraintSource): number[] {
  const pin = src instanceof HingePin ? src.pin : src instanceof PointPin ? src : null;
  if (pin) return pin.target.body >= 0 ? [pin.bodyA, pin.target.body] : [pin.bodyA];
  const b = (src as { body?: unknown }).body;
  return typeof b === 'number' ? [b] : [];
}

/**
 * Body `index` left the world: returns true when `src` is attached to it (the world removes the
 * source), else renumbers the body indices the source holds above it.
 */
export function sourceBodyRemoved(src: ConstraintSource, index: number): boolean {
  if (typeof src.bodyRemoved === 'function') return src.bodyRemoved(index);
  if (sourceBodies(src).includes(index)) return true;
  const pin = src instanceof HingePin ? src.pin : src instanceof PointPin ? src : null;
  if (pin) {
    const p = pin as unknown as { bodyA: number };
    if (p.bodyA > index) p.bodyA--;
    if (pin.target.body > index) pin.target.body--;
    return false;
  }
  const s = src as unknown as { body?: unknown };
  if (typeof s.body === 'number' && s.body > index) s.body--;
  return false;
}

/**
 * Body `index` left the world: its joint-limit warm starts are dropped and those of the bodies
 * after it renumbered, so the next step finds each limit's force under the key it now has.
 * Allocates (between steps).
 */
export function renumberWarmStarts(warm: WarmStartTable, index: number): void {
  const { keys, forces } = warm.entries();
  warm.clear();
  const lo = LIMIT_KEYS + index * LIMIT_BODY_STRIDE, hi = lo + LIMIT_BODY_STRIDE;
  for (let k = 0; k < keys.length; k++) {
    let key = keys[k];
    if (key >= LIMIT_KEYS && key < 2 * LIMIT_KEYS) {
      if (key >= lo && key < hi) continue;
      if (key >= hi) key -= LIMIT_BODY_STRIDE;
    }
    warm.set(key, forces[k]);
  }
}
