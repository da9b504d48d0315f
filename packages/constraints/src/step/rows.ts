/**
 * Stage 1 of a pass: detection and rows. Forward kinematics of the awake bodies, collision
 * detection (ContactSource.detectContacts: speculative margins, broad and narrow phase), then every
 * constraint source adds its rows (joint limits, pins, drives, motors; the contact source a normal
 * and friction rows per contact point found), kinematic joints add theirs
 * (kinematic-stage.ts), and rows that cannot act are dropped (sleep.ts, kinematic-stage.ts). Each
 * row then gets its velocity, its warm-start force from the last step (by key), and the offset of
 * its position measure, so that backtracking and stabilisation measure its exact gap later.
 */
import { rowPositionInto, rowVelocitiesInto } from '../rows/measure.js';
import { RowTag } from '../rows/row-buffer.js';
import type { StepContext } from '../sources/source.js';
import { startEnergy } from './energy-account.js';
import { addKinematicRows, awakeKinematics, dropKinematicRows } from './kinematic-stage.js';
import { dropSleepingRows } from './sleep.js';
import { type StepData, enabledPinOf } from './step-data.js';

/** The pass's rows (see the module comment), for a pass of length h; returns the context the sources were given. */
export function gatherRows(d: StepData, h: number): StepContext {
  const bodies = d.bodies;
  awakeKinematics(d, true);
  const rows = d.rows;
  rows.clear();
  const ctx = stepContext(d, h);
  // collision detection, its own stage (links a pin joins left out: excludePinnedPairs); then every
  // source's rows (the contact source's from the contacts just found)
  d.contacts.detectContacts(ctx);
  for (const src of d.sources) {
    if (src === d.contacts) d.contacts.contactRows(rows, ctx);
    else src.addRows(rows, ctx);
  }
  if (d.kinematicBodies > 0) addKinematicRows(d, rows);
  dropSleepingRows(d, rows);
  if (d.kinematicBodies > 0) dropKinematicRows(d, rows);
  if (d.events) d.events.detected(d.contacts, rows, bodies);
  if (d.settings.energyBound) startEnergy(d);
  // a rigid body moves by the world rule unless a pin holds it (Body.worldRule)
  for (let bi = 0; bi < bodies.length; bi++) bodies[bi].worldRule = bodies[bi].rigid;
  rowVelocitiesInto(rows, bodies, rows.velocity);
  if (d.warmSlot.length < rows.capacity) { const slots = new Int32Array(rows.capacity).fill(-1); slots.set(d.warmSlot); d.warmSlot = slots; }
  for (let j = 0; j < rows.count; j++) {
    if (rows.tag[j] === RowTag.Pin) {
      bodies[rows.bodyA[j]].worldRule = false;
      if (rows.bodyB[j] >= 0) bodies[rows.bodyB[j]].worldRule = false;
    }
    // (the slot the row of the same place had last step holds this key, at rest: no hashing)
    rows.force[j] = rows.key[j] === -1 ? 0 : d.warm.getAt(d.warmSlot[j], rows.key[j]);
    const tag = rows.tag[j];
    if (tag === RowTag.Pin || tag === RowTag.Limit || tag === RowTag.Contact) {
      rowPositionInto(rows, j, bodies, rows.offset, j);
      rows.offset[j] = rows.error[j] - rows.offset[j];
    }
  }
  d.stats.rows = Math.max(d.stats.rows, rows.count);
  if (d.limitHits) d.limitHits.detected(rows);
  return ctx;
}

/**
 * Gives collision detection the link pairs the enabled pins join, which it leaves out
 * (CollisionFilter), once at the start of a step: a hand holding a crate by a pin at its centre
 * overlaps it, and their contact and the pin pulled against each other (a 127 kg crate pinned to a
 * 2-link chain: the pin 0.75 m open after the first step, as post-stabilisation pushed the overlap
 * apart). A pin with collideConnected keeps the pair's contacts.
 */
export function excludePinnedPairs(d: StepData): void {
  const collision = d.contacts.collision;
  collision.clearPinnedPairs();
  for (const src of d.sources) {
    const pin = enabledPinOf(src);
    if (pin === null || pin.collideConnected || pin.target.body < 0) continue;
    collision.addPinnedPair(pin.bodyA, pin.linkA, pin.target.body, pin.target.link);
  }
}

/** The context handed to the sources (one object reused by every pass). */
export function stepContext(d: StepData, h: number): StepContext {
  d.stepContext.bodies = d.bodies;
  d.stepContext.h = h;
  return d.stepContext;
}
