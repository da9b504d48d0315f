/**
 * Joints held near their stops: how far a move of the positions (a pass's integration, a Newton
 * step of post-stabilisation) may take a limited joint past its stops, against where the step
 * began (Body.frameQ). Used where nothing else
 * checks the move: post-stabilisation's Newton step, linear in the errors, may turn a short link
 * without bound (stabilize.ts MAX_PAST); and the last pass of a sub-step, which takes what remains
 * of it without backtracking (backtrack.ts).
 */
import { JointType } from '@sinew/featherstone';
import type { Body } from '../body.js';
import { jointViolations } from '../sources/joint-limits.js';

/**
 * Holds each limited joint of b within `maxPast` (rad or m) of its stops, or within where it stood
 * at the step's start (Body.frameQ) if that was further past: a revolute or prismatic joint at
 * that distance, a ball joint turned back toward its rotation then (holdBallPastStops); joints
 * the game prescribes (Body.kinematic) are left as they are. Returns how many joints it held.
 */
export function holdPastStops(b: Body, maxPast: number): number {
  const m = b.model, q = b.state.q, before = b.frameQ, prescribed = b.kinematic ? b.kinematic.link : null;
  let held = 0;
  for (let i = 0; i < m.nLinks; i++) {
    if (prescribed && prescribed[i]) continue;
    const t = m.jointType[i];
    if (t === JointType.spherical && m.sphericalLimits[i]) { if (holdBallPastStops(b, i, before, maxPast)) held++; continue; }
    if (t !== JointType.revolute && t !== JointType.prismatic) continue;
    const d = m.vOffset[i], k = m.qOffset[i], lo = m.lower[d], hi = m.upper[d];
    if (lo === lo && q[k] < lo - maxPast) { const floor = Math.min(before[k], lo - maxPast); if (q[k] < floor) { q[k] = floor; held++; } }
    if (hi === hi && q[k] > hi + maxPast) { const ceiling = Math.max(before[k], hi + maxPast); if (q[k] > ceiling) { q[k] = ceiling; held++; } }
  }
  return held;
}

/** Violations of a ball joint's cone and twist stops (jointViolations), and its rotation after the move. */
const BALL = new Float64Array(3), TURNED = new Float64Array(4);

/**
 * Holds ball joint `link` of b within maxPast of its cone and twist stops, or within where it stood
 * at `before` if that was further past: where the move took it further, its rotation goes back
 * along the shortest arc toward the one it had, to the furthest point (by bisection, to 2^-20 of
 * the arc) within that distance. Returns whether it held the joint.
 */
function holdBallPastStops(b: Body, link: number, before: Float64Array, maxPast: number): boolean {
  const q = b.state.q, o = b.model.qOffset[link];
  if (!jointViolations(b, link, BALL)) return false;
  const after = Math.max(BALL[0], BALL[1], BALL[2]);
  if (!(after > maxPast)) return false;
  for (let k = 0; k < 4; k++) { TURNED[k] = q[o + k]; q[o + k] = before[o + k]; }
  jointViolations(b, link, BALL);
  const allowed = Math.max(maxPast, BALL[0], BALL[1], BALL[2]);
  if (after <= allowed) { for (let k = 0; k < 4; k++) q[o + k] = TURNED[k]; return false; }
  // (the two rotations' quaternions on the same side: the blend follows the shorter arc)
  const sign = before[o] * TURNED[0] + before[o + 1] * TURNED[1] + before[o + 2] * TURNED[2] + before[o + 3] * TURNED[3] < 0 ? -1 : 1;
  let inside = 0, outside = 1;
  for (let it = 0; it <= 20; it++) {
    // the last round sets the furthest blend found within the distance
    const t = it < 20 ? 0.5 * (inside + outside) : inside;
    let n = 0;
    for (let k = 0; k < 4; k++) { const x = (1 - t) * before[o + k] + t * sign * TURNED[k]; q[o + k] = x; n += x * x; }
    n = Math.sqrt(n);
    for (let k = 0; k < 4; k++) q[o + k] /= n;
    if (it === 20) break;
    jointViolations(b, link, BALL);
    if (Math.max(BALL[0], BALL[1], BALL[2]) <= allowed) inside = t; else outside = t;
  }
  return true;
}
