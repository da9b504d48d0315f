/**
 * Stage 8 of a pass: the energy account. An island that no external work reached may not end a
 * pass with more mechanical energy than it began with, beyond the energy it lost in earlier passes,
 * up to its bound per step; an excess is taken from its kinetic energy (see boundEnergy).
 */
import { addRootVelocityWorld, energiesInto, forwardKinematics, integrateSemiImplicit, freeRootCount, freeRootCurrentMomenta, restoreFreeRootMomenta, subtreeMass } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { type RowBuffer, RowTag } from '../rows/row-buffer.js';
import { type StepData, hasLoad, pointPinOf } from './step-data.js';

/** Marks the bodies of pins whose targets moved since the last step: the energy account counts the pins' work as external. */
export function markMovedPins(d: StepData): void {
  if (d.pinWorked.length < d.bodies.length) d.pinWorked = new Uint8Array(2 * d.bodies.length);
  d.pinWorked.fill(0);
  for (const src of d.sources) {
    const pin = pointPinOf(src);
    if (!pin || !pin.targetMoved() || !src.enabled || !pin.enabled) continue;
    d.pinWorked[pin.bodyA] = 1;
    if (pin.target.body >= 0) d.pinWorked[pin.target.body] = 1;
  }
}

/** The mechanical energy of every awake body at the pass's start (its kinematics are current), for boundEnergy. */
export function startEnergy(d: StepData): void {
  const bodies = d.bodies;
  if (d.bodyWorked.length < bodies.length) d.bodyWorked = new Uint8Array(2 * bodies.length);
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    d.bodyWorked[bi] = 0;
    if (b.sleeping) continue;
    energiesInto(b.model, b.state, b.energy, 3);
    b.energy[0] = b.energy[3] + b.energy[4];
    b.energy[5] = b.energy[3];
    b.energy[7] = 0;
  }
}

/**
 * Adds sign times body b's potential energy (its kinematics current) to b.energy[7]: called before
 * (-1) and after (+1) post-stabilisation moves it, so the account knows the lift it gave.
 */
export function countStabilizationLift(d: StepData, b: Body, sign: number): void {
  energiesInto(b.model, b.state, d.liftEnergy, 0);
  b.energy[7] += sign * d.liftEnergy[1];
}

/**
 * The energy account of the pass, island by island: no energy from nowhere.
 *
 * A pass can raise an island's mechanical energy (kinetic + potential) with no work done on it:
 * semi-implicit Euler in reduced coordinates (a humanoid tumbling off a stair with 900 J of
 * kinetic energy gained 15.7 J in one 1/60 s step in flight, converging as O(h) with sub-steps:
 * 5.1 J at 2, 1.3 J at 8), post-stabilisation lifting bodies out of an overlap (m g d of
 * potential energy a pass, 2.7-6 J for a humanoid on stairs), friction rows PGS left unconverged
 * pushing with the sliding (+1 J in a step on a slope), and each piece of a halved step making
 * these errors again. The island's energy at the pass's end is compared with its energy at the
 * start plus its credit, the energy it lost in earlier passes that may come back (semi-implicit
 * Euler's energy oscillates: what a pass lost the next may regain), capped per body at its bound
 *   B = m |g| (contactSlop + |g| h^2 / 2)
 * (h the sub-step: the lift post-stabilisation may give within the slop, and the energy
 * semi-implicit Euler's free fall loses in a step, m g^2 h^2 / 2, which the next may get back;
 * 1.74 J for 75 kg at 60 Hz). An excess is taken from the island's kinetic energy (removeEnergy).
 * So the island's energy rises at most by its bound in a step and never drifts above its lowest
 * energy so far by more than it. Islands reached by external work in the pass are not accounted
 * (their credit starts full): rows of drives, motors and other sources, pins whose targets the
 * game moved (markMovedPins), joint torques or external forces on a body, impacts with
 * restitution. An island held by nothing (bodies meeting in flight, a ragdoll touching itself)
 * gives up only motion each body's momentum does not need (removeEnergy), so its momentum stays
 * what conserveGroupMomenta makes it. A tree that no row touches, held to the world by a joint or
 * free, is accounted as an island of its own under gravity (see below); a rigid body without rows
 * is left to its integrator: its free flight is exact. When the kinetic energy is less than the
 * excess (a body lifted out of a deep overlap), all of it goes and the rest of the rise stays. A
 * pass failed, and its bodies also go back to where it began (returnToPassStart), when it more than
 * doubled the island's kinetic energy, by more than FAILED_PASS bounds; or when the account cannot
 * take its excess from the kinetic energy and its integration, not its stabilisation
 * (countStabilizationLift), lifted the island by more than the bound: velocities the solve gave and
 * the momentum stage took back (preserveMomenta) carried the bodies up (a chain of 100 thin boxes:
 * 268 J of kinetic energy after the integration, 0.5 J after the momentum stage, 4.4 J of
 * potential energy gained).
 */
export function boundEnergy(d: StepData, rows: RowBuffer, nIslands: number): boolean {
  let undone = false;
  const bodies = d.byRank;
  const g = d.gravity, gn = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  const hs = d.scalars[5];
  const perKg = gn * (d.settings.contactSlop + 0.5 * gn * hs * hs);
  // a tree that no row touches, held by a joint to the world (a chain swinging free) or free (a
  // chain whipping in flight), is an island of its own here: semi-implicit Euler with the
  // velocity-product terms taken at the step's start gains energy on a whipping chain (a 60-link
  // chain: +24 J/s at 16 sub-steps; a 40-link chain of 0.1 kg boxes in flight at 275 rad/s: 5.9 J
  // to 47 J in one step). A rigid body in flight is left out: the exact world rule moves it
  let n = nIslands;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (perKg > 0 && !b.sleeping && b.island < 0 && !b.rigid && !hasLoad(b) && !d.bodyWorked[b.index]) b.island = n++;
  }
  if (d.islandEnergy.length < ISLAND_STRIDE * n) d.islandEnergy = new Float64Array(2 * ISLAND_STRIDE * n);
  if (d.islandWorked.length < n) d.islandWorked = new Uint8Array(2 * n);
  const E = d.islandEnergy, worked = d.islandWorked;
  E.fill(0, 0, ISLAND_STRIDE * n);
  worked.fill(0, 0, n);
  // rows that may do work: drives, motors, rows of other sources
  for (let j = 0; j < rows.count; j++) {
    const tag = rows.tag[j];
    // (a pin holding still does no work; one the game moved marks its bodies, markMovedPins)
    if (tag === RowTag.Contact || tag === RowTag.Friction || tag === RowTag.Limit || tag === RowTag.Pin) continue;
    const isl = d.bodies[rows.bodyA[j]].island;
    if (isl >= 0) worked[isl] = 1;
  }
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping) continue;
    const bound = perKg * b.energy[6];
    const isl = b.island;
    if (isl < 0) { b.energy[1] = bound; continue; }
    if (d.bodyWorked[b.index] || d.pinWorked[b.index] || hasLoad(b)) worked[isl] = 1;
    if (!(b.energy[1] >= 0)) b.energy[1] = bound; // (NaN: the body's first pass)
    forwardKinematics(b.model, b.state, true);
    energiesInto(b.model, b.state, b.energy, 3);
    const o = ISLAND_STRIDE * isl;
    E[o] += b.energy[0];
    E[o + 1] += b.energy[3] + b.energy[4];
    E[o + 2] += b.energy[1];
    E[o + 3] += bound;
    E[o + 4] += b.energy[5];
    E[o + 5] += b.energy[3];
    E[o + 6] += b.energy[7];
  }
  for (let isl = 0; isl < n; isl++) {
    const o = ISLAND_STRIDE * isl;
    const rise = E[o + 1] - E[o];
    let credit = 0; // (initialised: a variable that starts undefined boxes every double it is given)
    if (worked[isl]) credit = E[o + 3];
    else if (rise <= E[o + 2]) credit = Math.min(E[o + 3], E[o + 2] - rise);
    else {
      d.scalars[7] = rise - E[o + 2];
      // (a pass that more than doubled the island's kinetic energy, by more than FAILED_PASS
      // bounds, failed, and so did one whose excess the kinetic energy cannot pay while its
      // integration lifted the island by more than the bound; a lift by stabilisation, such as
      // bodies spawned inside each other pushed apart, is not a failure of the solve)
      const lift = (E[o + 1] - E[o + 5]) - (E[o] - E[o + 4]) - E[o + 6];
      const failed = (!(d.scalars[7] <= FAILED_PASS * E[o + 3]) && !(E[o + 5] - E[o + 4] <= E[o + 4] + FAILED_PASS * E[o + 3]))
        || (!(d.scalars[7] <= E[o + 5]) && !(lift <= E[o + 3]));
      // (an island held by nothing, a momentum group, gives up only motion that keeps each body's
      // momentum; when its pass failed, it is undone: see undoPass)
      // (a non-finite pass is not undone here: the step's recovery reports it and takes it again)
      if (heldByNothing(d, isl, nIslands) && E[o + 1] < Infinity) {
        // what its momenta leave to take may not pay the excess: then the pass failed too
        if (!failed) removeEnergy(d, isl, true);
        if (failed || d.scalars[7] > 0) { undoPass(d, isl); undone = true; }
      } else {
        removeEnergy(d, isl, false);
        if (failed) {
          d.scalars[7] = E[o];
          returnToPassStart(d, isl);
        }
      }
      credit = 0;
    }
    // the island's credit, shared by its bodies in proportion to their bounds
    E[o + 2] = E[o + 3] > 0 ? credit / E[o + 3] : 0;
  }
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping || b.island < 0) continue;
    b.energy[1] = E[ISLAND_STRIDE * b.island + 2] * perKg * b.energy[6];
    if (b.island >= nIslands) b.island = -1; // (the account's own island: no rows)
  }
  return undone;
}

/** Whether island isl is held by nothing: an island of rows whose rows hold it to nothing outside (momentum.ts momentumGroups), or a free tree no row touches (the account's own). */
function heldByNothing(d: StepData, isl: number, nIslands: number): boolean {
  if (isl < nIslands) return d.grounded[isl] === 0;
  const bodies = d.bodies;
  for (let bi = 0; bi < bodies.length; bi++) if (bodies[bi].island === isl) return bodies[bi].freeTree;
  return false;
}

/** Numbers per island in StepData.islandEnergy: energy at the pass's start and end, credit, bound, kinetic energy at the start and end, potential energy stabilisation gave. */
const ISLAND_STRIDE = 7;

/**
 * A pass whose island gained more than this many times its bound, in kinetic energy more than the
 * kinetic energy it began the pass with, failed: its solve left forces no stage answers for (a
 * 2 kg chain of thin boxes, 3 J of kinetic energy, gained 71 kJ in a pass), and the positions
 * have moved with that energy (0.3 m to 50 m up, before the account took the kinetic energy).
 */
const FAILED_PASS = 10;

/**
 * The bodies of island isl back where the failed pass began (Body.savedQ), then moved over the
 * pass's length by the velocities the account left them (removeEnergy): a failed pass keeps
 * neither its energy nor the positions that energy carried the bodies to. (Its stabilisation goes
 * with them; the next pass meets the same rows again.) Where those positions hold more energy than
 * the island began the pass with (E0, in scalars[7]), its velocities are scaled down to that (a
 * chain whipping at 60 J whose pass went to 740 J came back 18.6 J above its start otherwise).
 */
function returnToPassStart(d: StepData, isl: number): void {
  const bodies = d.byRank, h = d.stepLength as number;
  let ke = 0, e = 0;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping || b.island !== isl) continue;
    const n = b.model.nv;
    if (d.zeroAcc.length < n) d.zeroAcc = new Float64Array(2 * n);
    b.state.q.set(b.savedQ);
    integrateSemiImplicit(b.model, b.state, d.zeroAcc, h, false, b.worldRule);
    forwardKinematics(b.model, b.state, true);
    energiesInto(b.model, b.state, d.liftEnergy, 0);
    ke += d.liftEnergy[0];
    e += d.liftEnergy[0] + d.liftEnergy[1];
  }
  const over = e - d.scalars[7];
  if (!(over > 0) || !(ke > 0)) return;
  const s = Math.sqrt(Math.max(0, 1 - over / ke));
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping || b.island !== isl) continue;
    const qd = b.state.qd;
    for (let k = 0; k < b.model.nv; k++) qd[k] *= s;
    b.state.work.dynamicsValid = false;
    forwardKinematics(b.model, b.state, true);
  }
  d.scalars[6] += Math.min(over, ke);
}

/**
 * The bodies of island isl, held by nothing, back in the state the pass began in (Body.savedQ,
 * savedQd), and damped: each free tree's motion relative to the rigid motion with its momentum
 * (rigidMotion) halved, so that its momentum stays and its internal kinetic energy falls to a
 * quarter. conserveGroupMomenta, run again, then moves the group's centre of mass and sets its
 * momentum as for any pass (by h P / M, and P + h F); its bodies do not turn in that pass. Counted
 * in stats.undone. Called when the pass failed, or when the motion its momenta do not need cannot
 * pay its excess: the pass may leave the bodies in a shape whose least kinetic energy for their
 * momentum is itself the excess (a chain of 0.1 kg boxes whipping in flight straightened, the
 * rigid motion with its angular momentum spun it at 390 rad/s about its length, and moved back to
 * the pass's start with that spin it held 113 kJ). A tree whipping faster than the pass can
 * integrate (a 40-link chain of 5 cm links at 50 rad/s a joint: 0.8 rad a pass) is slowed until it
 * can be, instead of being undone for ever. (Moving each tree over the pass as a rigid body with
 * its momentum does not keep the energy: the world rule turns the root by the root's own inertia,
 * not the tree's, and a chain of thin boxes spinning about its length gained 0.26 J a pass so.)
 */
function undoPass(d: StepData, isl: number): void {
  const bodies = d.byRank;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping || b.island !== isl) continue;
    b.restore();
    forwardKinematics(b.model, b.state, true);
    if (!b.momentumTarget) continue;
    rigidMotion(d, b);
    const qd = b.state.qd, r = b.rigidQd;
    for (let k = 0; k < b.model.nv; k++) qd[k] = r[k] + UNDO_DAMPING * (qd[k] - r[k]);
    b.state.work.dynamicsValid = false;
    forwardKinematics(b.model, b.state, true);
  }
  d.stats.undone++;
}

/** The factor on a free tree's internal motion when its pass is undone (undoPass). */
const UNDO_DAMPING = 0.5;

/**
 * Takes `excess` joules of kinetic energy from island isl (boundEnergy), by one factor s on every
 * body's removable motion: a body nothing pushes from outside (its momentum kept whole by
 * preserveMomenta), or any free tree of an island held by nothing (keepMomenta), keeps its
 * momentum, and only its motion relative to the rigid motion with that momentum is scaled
 * (qd <- qd_r + s (qd - qd_r): the two are M-orthogonal, so its kinetic energy falls by
 * (1 - s^2) of that motion's); any other body's velocities are scaled whole (qd <- s qd: a contact
 * at rest stays at rest, a separating one separating). Kinematics with velocities of island isl's
 * bodies must be current; they are again afterwards. What it leaves unpaid goes to scalars[7].
 */
function removeEnergy(d: StepData, isl: number, keepMomenta: boolean): void {
  // (the excess in scalars[7]: a double argument to a call that is not inlined is boxed)
  const excess = d.scalars[7];
  const bodies = d.byRank;
  let removable = 0;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping || b.island !== isl) continue;
    let r = b.energy[3];
    if (b.momentumTarget && (b.pushCount === 0 || keepMomenta)) {
      rigidMotion(d, b);
      r = Math.max(0, r - b.energy[4]);
    } else if (b.momentumTarget && b.pushCount > 0) {
      // rows push it in pushCount world directions only (frictionless ground: vertically): its
      // linear momentum along the others is no energy to take (taking it would make the body
      // slow down sideways on ice), so that momentum is kept (rigidQd[0..2]) and its kinetic
      // energy |P_free|^2 / 2M is not removable
      freeMomentum(d, b, b.rigidQd);
      const P = b.rigidQd, M = subtreeMass(b.model, 0);
      r = Math.max(0, r - (P[0] * P[0] + P[1] * P[1] + P[2] * P[2]) / (2 * M));
    }
    b.energy[4] = r;
    removable += r;
  }
  if (!(removable > 0)) return;
  // (what is left unpaid, in scalars[7])
  d.scalars[7] = Math.max(0, excess - removable);
  const s = Math.sqrt(Math.max(0, 1 - excess / removable));
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    if (b.sleeping || b.island !== isl) continue;
    const qd = b.state.qd, n = b.model.nv;
    if (b.momentumTarget && (b.pushCount === 0 || keepMomenta)) {
      const r = b.rigidQd;
      for (let k = 0; k < n; k++) qd[k] = r[k] + s * (qd[k] - r[k]);
    } else for (let k = 0; k < n; k++) qd[k] *= s;
    b.state.work.dynamicsValid = false;
    forwardKinematics(b.model, b.state, true);
    if (b.momentumTarget && b.pushCount > 0 && !keepMomenta) {
      // the free directions' momentum back, by a translation of the whole body
      const P = b.rigidQd, now = d.dvScratch, M = subtreeMass(b.model, 0);
      freeMomentum(d, b, now);
      now[3] = (P[0] - now[0]) / M; now[4] = (P[1] - now[1]) / M; now[5] = (P[2] - now[2]) / M;
      now[0] = 0; now[1] = 0; now[2] = 0;
      addRootVelocityWorld(b.model, b.state, 0, now);
      forwardKinematics(b.model, b.state, true);
    }
  }
  d.scalars[6] += Math.min(excess, removable);
}

/**
 * Free tree b's rigid motion with its momentum (kinematics with velocities current): every joint
 * still and the root moving so that the tree's momentum is what it is now, into b.rigidQd, its
 * kinetic energy into b.energy[4] (the least any motion with that momentum has: the rest of b's
 * motion is M-orthogonal to it). b's velocities and kinematics are left as they were.
 */
function rigidMotion(d: StepData, b: Body): void {
  const m = b.model, qd = b.state.qd, keep = b.scratch;
  const roots = freeRootCount(m);
  if (d.energyMomenta.length < 6 * roots) d.energyMomenta = new Float64Array(6 * roots);
  freeRootCurrentMomenta(m, b.state, d.energyMomenta);
  for (let k = 0; k < m.nv; k++) keep[k] = qd[k];
  qd.fill(0);
  restoreFreeRootMomenta(m, b.state, d.energyMomenta);
  forwardKinematics(m, b.state, true);
  energiesInto(m, b.state, b.energy, 4);
  b.rigidQd.set(qd);
  for (let k = 0; k < m.nv; k++) qd[k] = keep[k];
  forwardKinematics(m, b.state, true);
}

/**
 * out[0..2] = the linear momentum of free tree b (kinematics with velocities current) less its
 * components along the directions its rows push in (Body.pushDirections, pushCount of them).
 */
function freeMomentum(d: StepData, b: Body, out: Float64Array): void {
  freeRootCurrentMomenta(b.model, b.state, d.momentumNow);
  let x = d.momentumNow[3], y = d.momentumNow[4], z = d.momentumNow[5];
  const D = b.pushDirections!;
  for (let k = 0; k < b.pushCount; k++) {
    const p = x * D[3 * k] + y * D[3 * k + 1] + z * D[3 * k + 2];
    x -= p * D[3 * k]; y -= p * D[3 * k + 1]; z -= p * D[3 * k + 2];
  }
  out[0] = x; out[1] = y; out[2] = z;
}
