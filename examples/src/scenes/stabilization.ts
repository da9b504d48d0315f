/**
 * Stabilisation side by side (the 6-link chain experiment of the Cline thesis, section 5.2.1):
 * three copies of a 6-link chain whose first link is a free body held to the world by constraint
 * rows (a HingePin: a point pin and two angular rows), as in maximal coordinates, one World each
 * with stabilisation 'none', 'baumgarte' and 'post'. The plot shows each pin's separation on a log
 * scale; the red lines draw it magnified 10,000 times.
 *
 * Behind them, a closed loop: a chain of 100 links hinged at one end to the world and held at the
 * other by a PointPin, which post-stabilisation keeps closed while it swings; in front, the
 * quadruped preset on the ground, its joint drives (a TrajectoryFollower) holding it up, wagging
 * its tail and turning its head.
 */
import { HingePin, PointPin, TrajectoryFollower, World, type Body, type StabilizationMode } from '@sinew/constraints';
import { characterFromJSON, quadruped } from '@sinew/characters';
import { ModelBuilder, forwardKinematics, type Model } from '@sinew/featherstone';
import { assertFinite } from '../sim/metrics.js';
import type { PlotSpec, PointerRay, Scene, SceneContext, SceneStats, SceneView, Vec3 } from '../sim/scene.js';
import { capsuleInertiaX, capsuleLink } from './capsule.js';
import { Gun } from './gun.js';
import { ContactCollector, worldEnergy } from './world-view.js';

const LINK = 0.2, RADIUS = 0.025, LINK_MASS = 0.2, LINKS = 6;
const MAGNIFY = 1e4;

interface Lane {
  label: string;
  mode: StabilizationMode;
  color: number;
  pivot: Vec3;
  world: World;
  body: Body;
  hinge: HingePin;
  error: number;
}

const LANES: readonly { label: string; mode: StabilizationMode; color: number; x: number }[] = [
  { label: 'none', mode: 'none', color: 0xe4572e, x: -2.3 },
  { label: 'Baumgarte', mode: 'baumgarte', color: 0x4c9be8, x: -0.1 },
  { label: 'post', mode: 'post', color: 0x6cc551, x: 2.1 },
];

const css = (c: number) => `#${c.toString(16).padStart(6, '0')}`;
const PLOTS: readonly PlotSpec[] = [
  { title: 'pin separation of the 6-link chains', unit: 'm', series: LANES.map((l) => l.label), log: true, colors: LANES.map((l) => css(l.color)) },
  { title: 'loop closure error of the 100-link chain', unit: 'm', series: ['loop gap'], log: true, colors: ['#c9a0ff'] },
  { title: 'energy of the 6-link chains', unit: 'J', series: LANES.map((l) => `E ${l.label}`), colors: LANES.map((l) => css(l.color)) },
];

/** Six links along +X; the first is a free body whose frame is at its centre (held by a HingePin). */
function clineChain(pivot: Vec3): Model {
  const b = new ModelBuilder();
  const half = Math.max(0, LINK / 2 - RADIUS);
  for (let i = 0; i < LINKS; i++) {
    if (i === 0) {
      b.addLink({
        name: 'link0', parent: null,
        joint: { type: 'free', position: [pivot[0] + LINK / 2, pivot[1], pivot[2]] },
        mass: LINK_MASS, com: [0, 0, 0], inertia: capsuleInertiaX(LINK_MASS, RADIUS, half),
        shapes: [{ geometry: { type: 'capsule', radius: RADIUS, halfLength: half }, rotation: [0, 0, -Math.SQRT1_2, Math.SQRT1_2] }],
      });
    } else {
      b.addLink({
        name: `link${i}`, parent: i - 1,
        joint: { type: 'revolute', axis: [0, 0, 1], position: [i === 1 ? LINK / 2 : LINK, 0, 0] },
        ...capsuleLink(LINK, RADIUS, LINK_MASS),
      });
    }
  }
  return b.build();
}

const LOOP_LINKS = 100, LOOP_LINK = 0.03, LOOP_RADIUS = 0.012, LOOP_MASS = 0.03;
const LOOP_PIVOT: Vec3 = [-1.5, 2.9, -2.6];
/**
 * The loop starts as a circular arc hanging between its ends, 2 m apart (an arc of 3 m over a
 * chord of 2 m turns by 2.99 rad), turned 0.5 rad out of its vertical plane at the first bead so
 * that it swings.
 */
const LOOP_ARC = 2.99, LOOP_TILT = 0.5;

/** 100 links on hinges alternating between Z and Y, the first hinged to the world. */
function loopChain(): Model {
  const b = new ModelBuilder();
  for (let i = 0; i < LOOP_LINKS; i++) {
    b.addLink({
      name: `bead${i}`, parent: i === 0 ? null : i - 1,
      joint: { type: 'revolute', axis: i % 2 === 1 ? [0, 1, 0] : [0, 0, 1], position: i === 0 ? LOOP_PIVOT : [LOOP_LINK, 0, 0], damping: 0.0005 },
      ...capsuleLink(LOOP_LINK, LOOP_RADIUS, LOOP_MASS),
    });
  }
  return b.build();
}

function gradient(a: number, b: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = n > 1 ? i / (n - 1) : 0;
    let c = 0;
    for (const shift of [16, 8, 0]) c |= Math.round(((a >> shift) & 255) * (1 - t) + ((b >> shift) & 255) * t) << shift;
    out.push(c);
  }
  return out;
}
const LOOP_COLORS = gradient(0xc9a0ff, 0x3aa6a0, LOOP_LINKS);
const CREATURE_COLORS = [0xc58b4f, 0xd9a066, 0x9c6b3c];

class StabilizationScene implements Scene {
  readonly name = 'stabilization';
  readonly title = 'Stabilisation';
  readonly summary =
    'Three chains hang from their posts by joints held together by the solver, each with a different way of fixing drift: the red lines show the gap growing in the first and staying shut in the last. Behind them, a loop of 100 links; in front, a four-legged creature standing on its own.';
  readonly hint = 'Click to fire a ball from the camera at the quadruped (or anything on the ground).';
  readonly subject = ['chain-none', 'chain-baumgarte', 'chain-post', 'loop', 'quadruped'];
  readonly details =
    'Left to right, the same 6-link chain held to its post by constraint rows (a hinge pin) as in maximal coordinates, with no stabilisation, Baumgarte (alpha 50/s) and post-stabilisation (the Cline thesis experiment, 1 ms steps). The plot shows each pin separation on a log scale; red lines draw it 10,000x. Behind: a 100-link chain closed into a loop by a pin. In front: the quadruped preset standing on its joint drives.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly camera = { position: [-0.1, 2.6, 7.6], target: [-0.1, 1.1, -0.5] } as const;
  readonly plots = PLOTS;
  private ctx!: SceneContext;
  private lanes: Lane[] = [];
  private ground!: World;
  private loopWorld!: World;
  private loop!: Body;
  private loopPin!: PointPin;
  private creature!: Body;
  private drive!: TrajectoryFollower;
  private time = 0;
  /** Balls fired at the quadruped (only its World has them: the chains' worlds stay as the experiment wants). */
  private gun!: Gun;
  private readonly contacts = new ContactCollector();
  private readonly sep = new Float64Array(3);
  private readonly gapLines = new Float64Array(6 * 4);

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    this.time = 0;
    const solver = { maxIterations: ctx.settings.solverIterations, tolerance: 1e-12, sor: 1 };
    this.lanes = LANES.map((l) => {
      const pivot: Vec3 = [l.x, 1.75, 0];
      const world = new World({ stabilization: l.mode, baumgarteAlpha: 50, substeps: 16, stabilizationTolerance: 1e-12, solver, sleep: false });
      const body = world.addBody(clineChain(pivot), { name: `chain ${l.label}` });
      const hinge = world.addConstraint(new HingePin(0, 0, [-LINK / 2, 0, 0], pivot, [0, 0, 1], [0, 0, 1]));
      return { label: l.label, mode: l.mode, color: l.color, pivot, world, body, hinge, error: 0 };
    });

    this.ground = new World({ solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-8, sor: 1 } });
    this.gun = new Gun(this.ground);
    this.ground.addStatic({ geometry: { type: 'plane' } }, 'floor');
    // the loop: an arc whose tip is pinned where it starts; 3 cm links need short steps
    // (16 sub-steps of the 1/60 s step), as in the 100-link chain scene
    this.loopWorld = new World({ substeps: 16, solver: { maxIterations: 50, tolerance: 1e-10, sor: 1 }, sleep: false });
    const loopModel = loopChain();
    this.loop = this.loopWorld.addBody(loopModel, { name: 'loop', selfCollision: false });
    const q = this.loop.state.q;
    q[0] = -LOOP_ARC / 2;
    q[1] = LOOP_TILT;
    for (let i = 2; i < LOOP_LINKS; i += 2) q[i] = LOOP_ARC / (LOOP_LINKS / 2 - 1);
    forwardKinematics(loopModel, this.loop.state, false);
    const P = this.loop.state.work.pose, last = 12 * (LOOP_LINKS - 1);
    const tip = [0, 1, 2].map((k) => P[last + 3 * k] * LOOP_LINK + P[last + 9 + k]);
    this.loopPin = this.loopWorld.addConstraint(new PointPin(this.loop.index, LOOP_LINKS - 1, [LOOP_LINK, 0, 0], { body: -1, link: -1, point: tip }));

    // the quadruped, dropped from 15 cm onto its legs, held by its drives
    const creature = characterFromJSON(quadruped({ length: 0.8, mass: 25 }));
    this.creature = this.ground.addBody(creature.model, { name: 'quadruped' });
    this.creature.state.q[0] = -1.1;
    this.creature.state.q[1] = 0.15;
    this.creature.state.q[2] = 1.9;
    const yaw = 0.5; // facing a little towards the camera's right
    this.creature.state.q[4] = Math.sin(yaw / 2);
    this.creature.state.q[6] = Math.cos(yaw / 2);
    this.drive = this.ground.addConstraint(new TrajectoryFollower(this.creature, { settleTime: 0.12 }));
    for (const b of this.ground.bodies) forwardKinematics(b.model, b.state);
    forwardKinematics(loopModel, this.loop.state);
  }

  step(dt: number): void {
    const it = this.ctx.settings.solverIterations;
    this.time += dt;
    for (const lane of this.lanes) {
      if (lane.world.settings.solverOptions.maxIterations !== Math.max(it, 100)) lane.world.configure({ solver: { maxIterations: Math.max(it, 100) } }); // the experiment wants converged rows
      const st = lane.world.step(dt);
      if (st.error) throw new Error(st.error);
      forwardKinematics(lane.body.model, lane.body.state);
      lane.hinge.pin.separation(lane.world.bodies, this.sep);
      lane.error = Math.hypot(this.sep[0], this.sep[1], this.sep[2]);
    }
    const sl = this.loopWorld.step(dt);
    if (sl.error) throw new Error(sl.error);
    forwardKinematics(this.loop.model, this.loop.state);
    this.animateCreature(this.time);
    if (this.ground.settings.solverOptions.maxIterations !== it) this.ground.configure({ solver: { maxIterations: it } });
    const st = this.ground.step(dt);
    if (st.error) throw new Error(st.error);
    this.gun.afterStep(this.time);
    for (const b of this.ground.bodies) {
      assertFinite(this.name, this.time, b.state);
      forwardKinematics(b.model, b.state);
    }
  }

  /** Tail wagging and the head looking around: targets of the tail and neck drives. */
  private animateCreature(t: number): void {
    const m = this.creature.model, target = this.drive.targetQ;
    const setYaw = (joint: string, angle: number, pitch = 0) => {
      const o = m.joint(joint).q;
      // rotation about Y by `angle`, then about X by `pitch`
      const cy = Math.cos(angle / 2), sy = Math.sin(angle / 2), cx = Math.cos(pitch / 2), sx = Math.sin(pitch / 2);
      target[o] = cy * sx; target[o + 1] = sy * cx; target[o + 2] = -sy * sx; target[o + 3] = cy * cx;
    };
    setYaw('tail_root', 0.6 * Math.sin(2 * Math.PI * 1.6 * t), -0.3);
    setYaw('neck', 0.5 * Math.sin(2 * Math.PI * 0.25 * t), 0.15 * Math.sin(2 * Math.PI * 0.4 * t));
  }

  shoot(ray: PointerRay): void {
    this.gun.fire(ray, this.time);
  }

  sync(view: SceneView): void {
    this.gun.draw(view, this.time);
    let n = 0;
    const g = this.gapLines;
    for (const lane of this.lanes) {
      view.articulation(`chain-${lane.mode}`, lane.body.model, lane.body.state, { colors: [lane.color, shade(lane.color)] });
      const [x, y, z] = lane.pivot;
      view.staticShape(`post-${lane.mode}`, { geometry: { type: 'box', halfExtents: [0.03, y / 2, 0.03] }, position: [x, y / 2, z - 0.09] }, 0x4a5160);
      view.staticShape(`pin-${lane.mode}`, { geometry: { type: 'capsule', radius: 0.012, halfLength: 0.05 }, position: [x, y, z - 0.04], rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] }, 0xb9c0cc);
      lane.hinge.pin.separation(lane.world.bodies, this.sep);
      const o = 6 * n++;
      g[o] = x; g[o + 1] = y; g[o + 2] = z;
      for (let k = 0; k < 3; k++) g[o + 3 + k] = lane.pivot[k] + MAGNIFY * this.sep[k];
    }
    view.lines('gaps', g, n, 0xff4040, true);
    view.articulation('loop', this.loop.model, this.loop.state, { colors: LOOP_COLORS });
    const [px, py, pz] = LOOP_PIVOT;
    view.staticShape('loop-post-a', { geometry: { type: 'box', halfExtents: [0.03, py / 2, 0.03] }, position: [px, py / 2, pz - 0.05] }, 0x4a5160);
    const t = this.loopPin.target.point;
    view.staticShape('loop-post-b', { geometry: { type: 'box', halfExtents: [0.03, t[1] / 2, 0.03] }, position: [t[0], t[1] / 2, t[2] - 0.05] }, 0x4a5160);
    view.articulation('quadruped', this.creature.model, this.creature.state, { colors: CREATURE_COLORS });
    this.contacts.draw(view, 'floor', this.ground);
  }

  stats(): SceneStats {
    const series: Record<string, number> = {};
    let links = 0, kinetic = 0;
    for (const lane of this.lanes) {
      const e = worldEnergy(lane.world);
      series[lane.label] = lane.error;
      series[`E ${lane.label}`] = e.kinetic + e.potential;
      links += e.links;
      kinetic += e.kinetic;
    }
    this.loopPin.separation(this.loopWorld.bodies, this.sep);
    series['loop gap'] = Math.hypot(this.sep[0], this.sep[1], this.sep[2]);
    const g = worldEnergy(this.ground), l = worldEnergy(this.loopWorld);
    const st = this.ground.stats;
    return {
      links: links + g.links + l.links,
      contacts: st.contacts,
      kineticEnergy: kinetic + g.kinetic + l.kinetic,
      maxPenetration: st.maxPenetration,
      maxLimitViolation: Math.max(0, g.limit),
      series,
    };
  }
}

function shade(c: number): number {
  let out = 0;
  for (const s of [16, 8, 0]) out |= Math.round(((c >> s) & 255) * 0.72) << s;
  return out;
}

export const stabilization = (): Scene => new StabilizationScene();
