/**
 * Lifetime of what a World holds: what removing a body changes in the sources and the warm starts.
 *
 * A World names bodies by their place in `world.bodies` (rows, pins, drives, the collision world,
 * the solver's kept layout, the keys of joint-limit rows). World.removeBody takes the body out
 * and moves every later body down one place, so that the world left is the one that would have
 * been built without it: the same places, the same canonical ranks (Body.rank), the same row keys.
 * Row keys that hold no body index (contacts: shape handles, which are never given twice; pins,
 * drives and motors: their source ids) need nothing; keys of joint rows (joint limits and the
 * like, BODY_KEYS) are renumbered here.
 *
 * A source is attached to the bodies it names: a PointPin its body and its target's, a HingePin
 * its pin's body, any source with a numeric `body` field (TrajectoryFollower, VelocityMotor,
 * character controllers) that body. Removing a body removes the sources attached to it (as Rapier
 * removes the joints of a removed rigid body) and renumbers the others, and the sources they hold
 * and add rows through (a character controller's drive). A source of another kind that names
 * bodies says what to do by a `bodyRemoved(index)` method (ConstraintSource).
 */
import { HingePin, PointPin } from './sources/pin.js';
import type { ConstraintSource } from './sources/source.js';
import type { WarmStartTable } from './solver/warm-start.js';

/**
 * Row keys that name a body's joint: ((family * 4096 + body) * 65536 + link) * 8 + which, family
 * >= 1 (joint-limits.ts, setLimitKey: family 1; the characters package's limit guard: 7). Every
 * other row key is below 4096 * 65536 * 8 = 2^31 (pins, drives and motors by their ids) or
 * negative (contacts). Body b of a family's keys lies in [F + b * BODY_KEYS, F + (b + 1) * BODY_KEYS),
 * F = family * FAMILY_KEYS.
 */
export const BODY_KEYS = 65536 * 8;
export const FAMILY_KEYS = 4096 * BODY_KEYS;

/** The body a joint row key names (see BODY_KEYS), or -1 for another key. */
export function keyBody(key: number): number {
  if (!(key >= FAMILY_KEYS)) return -1;
  return Math.floor((key % FAMILY_KEYS) / BODY_KEYS);
}

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
  renumber(src, index);
  // sources it holds and adds rows through (a character controller's drive)
  for (const v of Object.values(src)) {
    if (v !== src && typeof v === 'object' && v !== null && typeof (v as ConstraintSource).addRows === 'function') renumber(v as ConstraintSource, index);
  }
  return false;
}

/** The body indices a source holds above `index`, one lower. */
function renumber(src: ConstraintSource, index: number): void {
  const pin = src instanceof HingePin ? src.pin : src instanceof PointPin ? src : null;
  if (pin) {
    const p = pin as unknown as { bodyA: number };
    if (p.bodyA > index) p.bodyA--;
    if (pin.target.body > index) pin.target.body--;
    return;
  }
  const s = src as unknown as { body?: unknown };
  if (typeof s.body === 'number' && s.body > index) s.body--;
}

/**
 * Body `index` left the world: its joint-limit warm starts are dropped and those of the bodies
 * after it renumbered, so the next step finds each limit's force under the key it now has.
 * Allocates (between steps).
 */
export function renumberWarmStarts(warm: WarmStartTable, index: number): void {
  const { keys, forces } = warm.entries();
  warm.clear();
  for (let k = 0; k < keys.length; k++) {
    let key = keys[k];
    const body = keyBody(key);
    if (body === index) continue;
    if (body > index) key -= BODY_KEYS;
    warm.set(key, forces[k]);
  }
}
