/**
 * A pile of ragdolls on stairs: 1 to 100 humanoid presets (16 links, 43 dofs each) dropped in
 * layers over a flight of static boxes. Contacts between ragdolls couple them into islands, each
 * solved as one LCP; resting islands fall asleep. The readout and the plot break a step down into
 * its phases (World.stats.ms).
 */
import { World, type Body } from '@sinew/constraints';
import { forwardKinematics, JointType, State, type Model, type ShapeDesc } from '@sinew/featherstone';
import type { JointTrajectory } from '@sinew/characters';
import { assertFinite } from '../sim/metrics.js';
import type { PlotSpec, PointerRay, Scene, SceneContext, SceneControl, SceneStats, SceneView, SkinBinding } from '../sim/scene.js';
import { CMU_WALK, humanoidModel, walkOnHumanoid } from './walker.js';
import { Gun } from './gun.js';
import { CESIUM_MAN, humanoidSkin, ROBOT_EXPRESSIVE } from './skins.js';
import { addRagdoll, ContactCollector, overlappingPairs, setRootVelocity, SOLVER_PLOT, solverSeries, worldEnergy, sceneStats } from './world-view.js';

const STEPS = 7, RISE = 0.2, TREAD = 0.36, WIDTH = 3.2;
/** Top landing: its front edge at z = TOP_Z, height STEPS * RISE. */
const TOP_Z = -STEPS * TREAD;
const PHASES = ['rows', 'dynamics', 'k', 'solve', 'integrate', 'stabilize'] as const;
const PALETTE = [0xe8833a, 0x3aa6a0, 0xf2b541, 0x4c9be8, 0xc77dff, 0x6cc551, 0xe4572e, 0xd9a27a, 0x2f6f8f, 0xff6b9a];

const PLOTS: readonly PlotSpec[] = [
  { title: 'wall time of a step, by phase', unit: 'ms', series: ['step', 'rows', 'K', 'solve', 'stab'] },
  { title: 'contacts and sleeping ragdolls', unit: 'count', series: ['contacts', 'awake'] },
  { title: 'kinetic energy', unit: 'J', series: ['kinetic'] },
  SOLVER_PLOT,
];

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The flight of stairs as boxes, each from the ground up to its tread; the landing at the top is deep. */
function stairs(): ShapeDesc[] {
  const out: ShapeDesc[] = [];
  for (let k = 0; k < STEPS; k++) {
    const h = (STEPS - k) * RISE;
    // step k spans z in [TOP_Z + k TREAD, TOP_Z + (k + 1) TREAD]; the landing (k = 0) reaches back 2.4 m further
    const z0 = k === 0 ? TOP_Z - 2.4 : TOP_Z + k * TREAD, z1 = TOP_Z + (k + 1) * TREAD;
    out.push({ geometry: { type: 'box', halfExtents: [WIDTH / 2, h / 2, (z1 - z0) / 2] }, position: [0, h / 2, (z0 + z1) / 2], friction: 0.7 });
  }
  return out;
}

class PileScene implements Scene {
  readonly name = 'pile';
  readonly title = 'Pile of ragdolls';
  readonly hint = 'Click to fire a ball from the camera into the pile.';
  readonly summary =
    'Ragdolls tumble down a flight of stairs and pile up at the bottom; once they stop moving they fall asleep and cost almost nothing. Add more with the slider, and click to fire balls into the pile.';
  readonly details =
    'Humanoid ragdolls (16 links, 43 dofs each) dropped in layers onto a flight of stairs. Contacts between them couple them into islands, each one LCP; resting islands sleep. The readout splits a step into its phases: rows (collision and constraint rows), K (AccelerationDeltas), solve (PGS), integrate, stabilise. Large piles run slower than real time: the page caps the steps per frame.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly camera = { position: [4.6, 3.6, 4.4], target: [0, 1.0, -1.4] } as const;
  readonly plots = PLOTS;
  /** The walk lends the ragdolls their poses (arms down, legs apart), the elbows and knees bent at random on top. */
  readonly assets = [CMU_WALK, CESIUM_MAN, ROBOT_EXPRESSIVE];
  /** The ragdolls are skinned (CesiumMan and RobotExpressive in turn); their shapes are an overlay. */
  readonly shapesShown = false;
  private skins: SkinBinding[] = [];
  private count = 4;
  /** The ragdolls, not the balls fired at them. */
  get subject(): readonly string[] {
    return Array.from({ length: this.count }, (_, i) => `ragdoll${i}`);
  }
  private walk: JointTrajectory | null = null;
  private overlaps: [number, number][] = [];
  private ctx!: SceneContext;
  private world!: World;
  private model!: Model;
  private bodies: Body[] = [];
  private shapes: ShapeDesc[] = [];
  private time = 0;
  private gun!: Gun;
  private readonly contacts = new ContactCollector();

  get controls(): readonly SceneControl[] {
    return [{ kind: 'slider', id: 'count', label: 'ragdolls', min: 1, max: 100, step: 1, value: this.count, resets: true }];
  }

  control(id: string, value: number | string): void {
    if (id === 'count') this.count = Math.max(1, Math.min(100, Math.round(Number(value))));
  }

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    this.time = 0;
    this.world = new World({ timings: true, solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-6, sor: 1 } });
    this.gun = new Gun(this.world);
    this.world.addStatic({ geometry: { type: 'plane' } }, 'floor');
    this.shapes = stairs();
    this.shapes.forEach((s, k) => this.world.addStatic(s, `step${k}`));
    if (!this.walk) {
      this.model = humanoidModel({ height: 1.75, mass: 70, dampingRate: 3 });
      this.walk = walkOnHumanoid(ctx, this.model).trajectory;
      this.overlaps = overlappingPairs(this.model, this.walk);
      this.skins = [CESIUM_MAN, ROBOT_EXPRESSIVE].map((asset) => humanoidSkin(ctx, asset, this.model, 1.75));
    }
    const overlaps = this.overlaps;
    const pose = new State(this.model);
    const rnd = random(7);
    this.bodies = [];
    const top = STEPS * RISE;
    for (let i = 0; i < this.count; i++) {
      const body = addRagdoll(this.world, this.model, `ragdoll${i}`, overlaps);
      // layers of three, 0.42 m apart, lying along the fall line over the upper steps
      const layer = Math.floor(i / 3), slot = i % 3;
      const q = body.state.q;
      this.pose(rnd, pose.q);
      q.set(pose.q.subarray(7), 7); // the joints; the root is placed below
      const pelvisY = 0.53 * 1.75;
      q[0] = (slot - 1) * 0.95 + 0.2 * (rnd() - 0.5);
      q[1] = top + 0.6 + 0.42 * layer - pelvisY + 0.15 * rnd();
      q[2] = TOP_Z + 0.5 + 0.6 * (rnd() - 0.5);
      // lying face down or up along the fall line, turned a little: about X by +-90 deg, then yaw
      const pitch = (rnd() < 0.5 ? 1 : -1) * (Math.PI / 2 + 0.3 * (rnd() - 0.5));
      const yaw = 0.8 * (rnd() - 0.5);
      const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2), cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
      q[3] = cy * sp; q[4] = sy * cp; q[5] = -sy * sp; q[6] = cy * cp;
      forwardKinematics(this.model, body.state);
      // thrown down the stairs, tumbling
      setRootVelocity(body, [2 * (rnd() - 0.5), 2 * (rnd() - 0.5), 2 * (rnd() - 0.5)], [0.4 * (rnd() - 0.5), 0, 1.6 + 0.6 * rnd()]);
      this.bodies.push(body);
    }
  }

  /**
   * A pose for a ragdoll: a random moment of the walk (its ball joints: arms hanging, legs apart,
   * the trunk turned), the hinges (elbows, knees) bent to a random point of the inner 70 % of
   * their range.
   */
  private pose(rnd: () => number, q: Float64Array): void {
    const m = this.model, walk = this.walk!;
    walk.sampleQ(walk.startTime + rnd() * walk.duration, q);
    for (let i = 1; i < m.nLinks; i++) {
      if (m.jointType[i] !== JointType.revolute) continue;
      const v = m.vOffset[i], lo = m.lower[v], hi = m.upper[v];
      if (!Number.isFinite(lo) || !Number.isFinite(hi)) continue;
      const mid = (lo + hi) / 2, half = 0.35 * (hi - lo);
      q[m.qOffset[i]] = mid + half * (2 * rnd() - 1);
    }
  }

  step(dt: number): void {
    if (this.world.settings.solverOptions.maxIterations !== this.ctx.settings.solverIterations) this.world.configure({ solver: { maxIterations: this.ctx.settings.solverIterations } });
    const st = this.world.step(dt);
    this.time += dt;
    if (st.error) throw new Error(st.error);
    this.gun.afterStep(this.time);
    for (const b of this.bodies) {
      assertFinite(this.name, this.time, b.state);
      forwardKinematics(this.model, b.state);
    }
  }

  shoot(ray: PointerRay): void {
    this.gun.fire(ray, this.time);
  }

  sync(view: SceneView): void {
    this.gun.draw(view, this.time);
    this.shapes.forEach((s, k) => view.staticShape(`step${k}`, s, k % 2 === 0 ? 0x5b6475 : 0x535c6c));
    this.bodies.forEach((b, i) => {
      const c = PALETTE[i % PALETTE.length];
      view.skinnedMesh(`ragdoll${i}`, this.skins[i % this.skins.length], this.model, b.state);
      view.articulation(`ragdoll${i}`, this.model, b.state, { colors: [c, 0x3b4252, c, 0x2e3440], overlay: true });
    });
    this.contacts.draw(view, 'contacts', this.world, 0.002);
  }

  info(): string[] {
    const st = this.world.stats, ms = st.ms;
    const total = PHASES.reduce((s, p) => s + ms[p], 0);
    return [this.gun.info(), 
      `ragdolls     ${this.count} (${this.count - st.sleeping} awake), ${st.islands} islands, ${st.rows} rows`,
      `step split   ${total.toFixed(2)} ms: rows ${ms.rows.toFixed(2)}, dyn ${ms.dynamics.toFixed(2)}`,
      `             K ${ms.k.toFixed(2)}, solve ${ms.solve.toFixed(2)}, integ ${ms.integrate.toFixed(2)}, stab ${ms.stabilize.toFixed(2)}`,
    ];
  }

  stats(): SceneStats {
    const e = worldEnergy(this.world);
    const st = this.world.stats;
    const series: Record<string, number> = { kinetic: e.kinetic, contacts: st.contacts, awake: this.count - st.sleeping, ...solverSeries(this.world) };
    let total = 0;
    for (const p of PHASES) total += st.ms[p];
    series.step = total;
    series.rows = st.ms.rows;
    series.K = st.ms.k;
    series.solve = st.ms.solve;
    series.stab = st.ms.stabilize;
    return sceneStats(this.world, e, series);
  }
}

export const pile = (): Scene => new PileScene();
