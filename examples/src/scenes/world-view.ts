/**
 * Helpers shared by the scenes built on a World of @sinew/constraints: the contact points and
 * forces of the last step for SceneView.contacts, the world's energy and limit errors for stats,
 * and an impulse at a point of a body (a push, a hit).
 */
import { DEBUG_LINE_STRIDE, DebugLines, PointPin, World, type Body, type ConstraintSource, type StepContext } from '@sinew/constraints';
import { RowTag, type RowBuffer } from '@sinew/constraints/internals';
import { excludeOverlappingLinkPairs, type JointTrajectory } from '@sinew/characters';
import { accelerationDeltasPointForce, forwardDynamics, forwardKinematics, kineticEnergy, pointPosition, pointVelocity, potentialEnergy, type Model } from '@sinew/featherstone';
import { maxLimitViolation } from '../sim/metrics.js';
import type { SceneStats, SceneView } from '../sim/scene.js';

/** Gathers the contact rows of a world's last step as SceneView.contacts data. */
export class ContactCollector {
  private data = new Float64Array(7 * 64);

  /** Draws the contacts of the last step under `key`. */
  draw(view: SceneView, key: string, world: World, metresPerNewton = 0.01): number {
    const n = this.collect(world);
    view.contacts(key, this.data, n, metresPerNewton);
    return n;
  }

  /** World points, normals and forces of the contact rows of the last step; returns their count. */
  collect(world: World): number {
    const rows = world.rows;
    let n = 0;
    for (let r = 0; r < rows.count; r++) {
      if (rows.tag[r] !== RowTag.Contact) continue;
      if (7 * (n + 1) > this.data.length) {
        const bigger = new Float64Array(2 * this.data.length);
        bigger.set(this.data);
        this.data = bigger;
      }
      const onA = rows.bodyA[r] >= 0;
      const b = onA ? rows.bodyA[r] : rows.bodyB[r];
      const link = onA ? rows.linkA[r] : rows.linkB[r];
      const p = onA ? rows.pA : rows.pB;
      const P = world.bodies[b].state.work.pose, po = 12 * link;
      const x = p[3 * r], y = p[3 * r + 1], z = p[3 * r + 2];
      const d = this.data, o = 7 * n;
      d[o] = P[po] * x + P[po + 1] * y + P[po + 2] * z + P[po + 9];
      d[o + 1] = P[po + 3] * x + P[po + 4] * y + P[po + 5] * z + P[po + 10];
      d[o + 2] = P[po + 6] * x + P[po + 7] * y + P[po + 8] * z + P[po + 11];
      const sign = onA ? 1 : -1;
      d[o + 3] = sign * rows.dir[3 * r]; d[o + 4] = sign * rows.dir[3 * r + 1]; d[o + 5] = sign * rows.dir[3 * r + 2];
      d[o + 6] = rows.force[r];
      n++;
    }
    return n;
  }
}

/** Kinetic and potential energy of every body of a world, and the largest joint-limit violation. */
export function worldEnergy(world: World): { kinetic: number; potential: number; limit: number; links: number } {
  return bodiesEnergy(world.bodies);
}

/** Kinetic and potential energy of some bodies, and their largest joint-limit violation. */
export function bodiesEnergy(bodies: readonly Body[]): { kinetic: number; potential: number; limit: number; links: number } {
  let kinetic = 0, potential = 0, limit = 0, links = 0;
  for (const b of bodies) {
    kinetic += kineticEnergy(b.model, b.state);
    potential += potentialEnergy(b.model, b.state);
    limit = Math.max(limit, maxLimitViolation(b.model, b.state));
    links += b.model.nLinks;
  }
  return { kinetic, potential, limit, links };
}

/**
 * Gives a body the velocity jump of an impulse `impulse` (N s, world vector) at the world point
 * `point` on `link`: qd += |p| * dqdd, where dqdd is the joint-acceleration change of a unit force
 * along p at that point (AccelerationDeltas, O(n)), i.e. qd += M^-1 J^T p. The body wakes.
 */
export function applyImpulse(world: World, body: Body, link: number, point: ArrayLike<number>, impulse: ArrayLike<number>): void {
  const m = Math.hypot(impulse[0], impulse[1], impulse[2]);
  if (!(m > 0)) return;
  const dir = [impulse[0] / m, impulse[1] / m, impulse[2] / m];
  const { model, state } = body;
  forwardKinematics(model, state, true);
  forwardDynamics(model, state);
  const dqdd = new Float64Array(model.nv);
  accelerationDeltasPointForce(model, state, link, point, dir, dqdd);
  for (let d = 0; d < model.nv; d++) state.qd[d] += m * dqdd[d];
  state.work.dynamicsValid = false;
  world.wake(body);
}

/** World position of a link's centre of mass. */
export function linkCom(body: Body, link: number, out: Float64Array | number[] = [0, 0, 0]): Float64Array | number[] {
  const P = body.state.work.pose, po = 12 * link, c = body.model.com;
  const x = c[3 * link], y = c[3 * link + 1], z = c[3 * link + 2];
  out[0] = P[po] * x + P[po + 1] * y + P[po + 2] * z + P[po + 9];
  out[1] = P[po + 3] * x + P[po + 4] * y + P[po + 5] * z + P[po + 10];
  out[2] = P[po + 6] * x + P[po + 7] * y + P[po + 8] * z + P[po + 11];
  return out;
}

/**
 * Sets the velocity of a body's free root (link 0) from world vectors: the free joint's qd is the
 * angular velocity and the origin's velocity, both in the link frame, so qd = R^T w, R^T v.
 * Forward kinematics must be current.
 */
export function setRootVelocity(body: Body, angular: ArrayLike<number>, linear: ArrayLike<number>): void {
  const P = body.state.work.pose, qd = body.state.qd;
  for (let k = 0; k < 3; k++) {
    qd[k] = P[k] * angular[0] + P[3 + k] * angular[1] + P[6 + k] * angular[2];
    qd[3 + k] = P[k] * linear[0] + P[3 + k] * linear[1] + P[6 + k] * linear[2];
  }
  body.state.work.dynamicsValid = false;
}

/**
 * Link pairs (indices) of a model whose shapes overlap in its neutral pose, or in any frame of a
 * trajectory, found once in a World of their own (excludeOverlappingLinkPairs of
 * @sinew/characters). Mass-sized shapes overlap their neighbours in ordinary poses, and a
 * ragdoll whose parts already interpenetrate would be torn apart by its first contact rows, so
 * such pairs are left out of self-collision, as game engines' ragdoll setups do.
 */
export function overlappingPairs(model: Model, trajectory?: JointTrajectory): [number, number][] {
  const probe = new World({ gravity: [0, 0, 0], sleep: false });
  const body = probe.addBody(model, { name: 'probe' });
  return excludeOverlappingLinkPairs(probe, body, trajectory ?? []).map(([a, b]) => [model.linkIndex(a), model.linkIndex(b)]);
}

/** Adds a body whose self-collision leaves out the given link pairs (default: those overlapping in its neutral pose, see overlappingPairs). */
export function addRagdoll(world: World, model: Model, name: string, overlaps: readonly (readonly [number, number])[] = overlappingPairs(model)): Body {
  const body = world.addBody(model, { name });
  for (const [a, b] of overlaps) world.collision.excludeLinkPair(body.index, a, b);
  return body;
}

/**
 * A mouse grab: the rows of a PointPin (a point of a link held to a world target that follows the
 * pointer, PointPin.setWorldTarget) turned into a bounded spring. A plain pin is a rigid,
 * unbounded constraint: dragged beyond what the rest of the body allows (a hand pulled away from a
 * pinned chest), its rows fight the others without limit. Here each row asks for a critically
 * damped approach to the target, a = w^2 (target - p) - 2 w v along its axis, with a force of at
 * most `maxForce` newtons, tagged as a drive so that post-stabilisation leaves it alone.
 */
export class DragSpring implements ConstraintSource {
  enabled = true;
  readonly pin: PointPin;
  /** Natural frequency of the spring (rad/s) and its largest force (N). */
  omega: number;
  maxForce: number;
  private readonly p = new Float64Array(3);
  private readonly v = new Float64Array(3);

  constructor(body: Body, link: number, local: ArrayLike<number>, target: ArrayLike<number>, options: { omega?: number; maxForce?: number } = {}) {
    this.pin = new PointPin(body.index, link, local, { body: -1, link: -1, point: target });
    this.omega = options.omega ?? 2 * Math.PI * 2.5;
    this.maxForce = options.maxForce ?? 1.5 * body.model.totalMass() * 9.81;
  }

  /** The body this grab acts on (the World does not put a body with a drive to sleep). */
  get body(): number {
    return this.pin.bodyA;
  }

  setWorldTarget(p: ArrayLike<number>): void {
    this.pin.setWorldTarget(p);
  }

  addRows(rows: RowBuffer, ctx: StepContext): void {
    if (!this.enabled) return;
    const first = rows.count;
    this.pin.addRows(rows, ctx);
    const state = ctx.bodies[this.pin.bodyA].state;
    pointPosition(state, this.pin.linkA, this.pin.localA, this.p);
    pointVelocity(state, this.pin.linkA, this.pin.localA, this.v);
    const w = this.omega, t = this.pin.target.point;
    for (let r = first; r < rows.count; r++) {
      // the pin's rows are along the world axes, in order
      let k = 0;
      for (let c = 1; c < 3; c++) if (Math.abs(rows.dir[3 * r + c]) > Math.abs(rows.dir[3 * r + k])) k = c;
      rows.tag[r] = RowTag.Drive;
      rows.desired[r] = w * w * (t[k] - this.p[k]) - 2 * w * this.v[k];
      rows.setBounds(r, -this.maxForce, this.maxForce);
    }
  }
}

/** The plot every World scene shows: how well the LCP was solved and how much drift was left. */
export const SOLVER_PLOT = {
  title: 'PGS residual; drift before / after stabilisation',
  unit: 'SI',
  series: ['residual', 'error before', 'error after'],
  log: true,
} as const;

/** The SOLVER_PLOT series of a world's last step. */
export function solverSeries(world: World): Record<string, number> {
  const st = world.stats;
  return { residual: st.residual, 'error before': st.errorBefore, 'error after': st.errorAfter };
}

/** A scene's readout: the world's contacts and deepest penetration, the links, kinetic energy and worst limit violation of `e` (worldEnergy or bodiesEnergy), and the scene's series. */
export function sceneStats(world: World, e: { kinetic: number; limit: number; links: number }, series: Record<string, number>): SceneStats {
  const st = world.stats;
  return {
    links: e.links,
    contacts: st.contacts,
    kineticEnergy: e.kinetic,
    maxPenetration: st.maxPenetration,
    maxLimitViolation: Math.max(0, e.limit),
    series,
  };
}

/**
 * A mark on a body where it was hit, that moves with the link it marks (a mark left at a world
 * point floats in the air once the body has moved on): the point is kept in the link's frame.
 */
export class LinkMark {
  private body: Body | null = null;
  private link = 0;
  private readonly local = new Float64Array(3);
  private until = -1;
  private readonly out = new Float64Array(3);

  /** Marks the world point `p` of `link` until simulated time `until`. Forward kinematics must be current. */
  set(body: Body, link: number, p: ArrayLike<number>, until: number): void {
    const P = body.state.work.pose, o = 12 * link;
    const d0 = p[0] - P[o + 9], d1 = p[1] - P[o + 10], d2 = p[2] - P[o + 11];
    // the link frame's coordinates: R^T d (R row-major, link to world)
    for (let c = 0; c < 3; c++) this.local[c] = P[o + c] * d0 + P[o + 3 + c] * d1 + P[o + 6 + c] * d2;
    this.body = body;
    this.link = link;
    this.until = until;
  }

  /** Marks a point given in the link's own frame. */
  setLocal(body: Body, link: number, local: ArrayLike<number>, until: number): void {
    this.body = body;
    this.link = link;
    this.local.set([local[0], local[1], local[2]]);
    this.until = until;
  }

  clear(): void {
    this.body = null;
  }

  /** Where the mark is now, or null once its time is over. */
  at(time: number): Float64Array | null {
    if (!this.body || time >= this.until) return null;
    const P = this.body.state.work.pose, o = 12 * this.link, l = this.local;
    for (let k = 0; k < 3; k++) this.out[k] = P[o + 3 * k] * l[0] + P[o + 3 * k + 1] * l[1] + P[o + 3 * k + 2] * l[2] + P[o + 9 + k];
    return this.out;
  }
}

/**
 * Draws World.debugLines (`include`: DebugLines flags) in their own colours: the segments are
 * sorted into one line set per colour (at most `colours` of them; keys `key/0`, `key/1`, ...).
 */
export class DebugDraw {
  private data = new Float32Array(DEBUG_LINE_STRIDE * 1024);
  private readonly sets: { colour: number; lines: Float64Array; n: number }[] = [];

  constructor(private readonly include: number = DebugLines.all, private readonly colours = 8) {}

  draw(view: SceneView, key: string, world: World, overlay = true): void {
    let n = world.debugLines(this.data, this.include);
    if (DEBUG_LINE_STRIDE * n > this.data.length) { this.data = new Float32Array(DEBUG_LINE_STRIDE * 2 * n); n = world.debugLines(this.data, this.include); }
    for (const set of this.sets) set.n = 0;
    const d = this.data;
    for (let i = 0; i < n; i++) {
      const o = DEBUG_LINE_STRIDE * i;
      const colour = (Math.round(255 * d[o + 6]) << 16) | (Math.round(255 * d[o + 7]) << 8) | Math.round(255 * d[o + 8]);
      let set = this.sets.find((x) => x.colour === colour);
      if (!set) {
        if (this.sets.length >= this.colours) continue;
        set = { colour, lines: new Float64Array(6 * 256), n: 0 };
        this.sets.push(set);
      }
      if (6 * (set.n + 1) > set.lines.length) { const grown = new Float64Array(2 * set.lines.length); grown.set(set.lines); set.lines = grown; }
      for (let k = 0; k < 6; k++) set.lines[6 * set.n + k] = d[o + k];
      set.n++;
    }
    this.sets.forEach((set, k) => view.lines(`${key}/${k}`, set.lines, set.n, set.colour, overlay));
  }
}
