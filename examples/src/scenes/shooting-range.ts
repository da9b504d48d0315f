/**
 * A shooting range: the game-facing calls of @sinew/constraints in one scene. A turret fires a
 * ball every second at a stack of crates and a dummy hung by a pin (and a click fires one from
 * the camera): each shot is aimed by World.castRay, each strike is a contact event
 * (World.drainContactEvents) that flashes and knocks, spent balls leave the world
 * (World.removeBody), and the debug lines (World.debugLines) can be drawn over it all.
 */
import { PointPin, RigidBody, World, type Body } from '@sinew/constraints';
import { forwardKinematics, pointPosition, type Model } from '@sinew/featherstone';
import { assertFinite } from '../sim/metrics.js';
import type { PlotSpec, PointerRay, Scene, SceneContext, SceneControl, SceneStats, SceneView, Vec3 } from '../sim/scene.js';
import { Gun } from './gun.js';
import { humanoidModel, WALKER_COLORS } from './walker.js';
import { addRagdoll, DebugDraw, SOLVER_PLOT, solverSeries, worldEnergy, sceneStats } from './world-view.js';

const CRATE = 0.2; // half extent, m
const ROWS = [4, 3, 2, 1];
const MUZZLE: Vec3 = [-3.2, 1.3, 4.2];
const FIRE_EVERY = 1;
const CRATE_COLORS = [0xc58b4f, 0xb07a42, 0xd39a5c];

const PLOTS: readonly PlotSpec[] = [
  { title: 'balls', unit: 'count', series: ['fired', 'in the world', 'removed'] },
  { title: 'strikes (contact events of a ball)', unit: 'count', series: ['strikes'] },
  SOLVER_PLOT,
];

class ShootingRangeScene implements Scene {
  readonly name = 'gun';
  readonly title = 'Shooting range';
  readonly summary =
    'A turret on the left fires a ball every second at a stack of crates and at a dummy hanging from a hook; each hit flashes (and knocks, once you have clicked the page). Click anything to fire from where you look.';
  readonly details =
    'Every shot is aimed with World.castRay (the first shape on the ray from the muzzle or the camera; the ball is launched on the parabola through that point at 24 m/s). Strikes are the contact events the world records (World.drainContactEvents: "began" at more than 1 m/s, with the approach speed and the deepest point). A ball that has lived 4 s, or rests, is taken out with World.removeBody. "Debug lines" draws World.debugLines: shape outlines (awake green, asleep blue), joint ranges, the pin, contact normals.';
  readonly hint = 'Click to fire a ball at what is under the pointer.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly camera = { position: [-1.2, 2.4, 6.2], target: [0.4, 0.9, 0] } as const;
  readonly subject = ['dummy', ...Array.from({ length: 10 }, (_, i) => `crate${i}`)];
  readonly plots = PLOTS;
  private auto = 'on';
  private debug = 'off';
  private ctx!: SceneContext;
  private world!: World;
  private gun!: Gun;
  private crateModel!: Model;
  private crates: Body[] = [];
  private dummyModel!: Model;
  private dummy!: Body;
  private time = 0;
  private nextShot = 0.5;
  private turn = 0;
  private readonly debugDraw = new DebugDraw();
  private readonly p = new Float64Array(3);

  get controls(): readonly SceneControl[] {
    return [
      { kind: 'choice', id: 'auto', label: 'turret fires', options: ['on', 'off'], value: this.auto },
      { kind: 'choice', id: 'debug', label: 'debug lines', options: ['off', 'on'], value: this.debug },
    ];
  }

  control(id: string, value: number | string): void {
    if (id === 'auto') this.auto = String(value);
    else if (id === 'debug') this.debug = String(value);
  }

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    this.time = 0;
    this.nextShot = 0.5;
    this.turn = 0;
    this.world = new World({ solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-6, sor: 1 } });
    this.gun = new Gun(this.world);
    this.world.addStatic({ geometry: { type: 'plane' }, friction: 0.8 }, 'floor');
    this.crateModel = RigidBody.box([CRATE, CRATE, CRATE], { mass: 6, friction: 0.7 });
    this.crates = [];
    ROWS.forEach((n, row) => {
      for (let k = 0; k < n; k++) {
        const x = (k - (n - 1) / 2) * (2 * CRATE + 0.02);
        const crate = this.world.addBody(this.crateModel, { name: `crate${this.crates.length}`, position: [x, CRATE + row * 2 * CRATE + 0.001, 0] });
        this.crates.push(crate);
      }
    });
    // the dummy: a limp humanoid hung by its upper back from a hook, 1.8 m to the right
    this.dummyModel = humanoidModel({ dampingRate: 3 });
    this.dummy = addRagdoll(this.world, this.dummyModel, 'dummy');
    const q = this.dummy.state.q;
    q[0] = 1.9; q[1] = 0.3; q[2] = -0.2;
    forwardKinematics(this.dummyModel, this.dummy.state);
    const thorax = this.dummyModel.linkIndex('thorax'), local = [0, 0.16, -0.04];
    pointPosition(this.dummy.state, thorax, local, this.p);
    this.world.addConstraint(new PointPin(this.dummy.index, thorax, local, { body: -1, link: -1, point: this.p }));
  }

  shoot(ray: PointerRay): void {
    this.gun.fire(ray, this.time);
  }

  /** The turret's next mark: the crates in turn, every third shot the dummy's chest. */
  private turretShot(): void {
    const k = this.turn++;
    const body = k % 3 === 2 ? this.dummy : this.crates[(k - Math.floor(k / 3)) % this.crates.length];
    const link = body === this.dummy ? this.dummyModel.linkIndex('thorax') : 0;
    const P = body.state.work.pose, o = 12 * link;
    const d = [P[o + 9] - MUZZLE[0], P[o + 10] - MUZZLE[1], P[o + 11] - MUZZLE[2]];
    const n = Math.hypot(d[0], d[1], d[2]);
    this.gun.fire({ origin: MUZZLE, direction: [d[0] / n, d[1] / n, d[2] / n] }, this.time);
  }

  step(dt: number): void {
    if (this.auto === 'on' && this.time >= this.nextShot) {
      this.turretShot();
      this.nextShot += FIRE_EVERY;
    }
    if (this.world.settings.solverOptions.maxIterations !== this.ctx.settings.solverIterations) this.world.configure({ solver: { maxIterations: this.ctx.settings.solverIterations } });
    const st = this.world.step(dt);
    this.time += dt;
    if (st.error) throw new Error(st.error);
    this.gun.afterStep(this.time);
    for (const b of this.world.bodies) {
      assertFinite(this.name, this.time, b.state);
      forwardKinematics(b.model, b.state);
    }
  }

  sync(view: SceneView): void {
    this.crates.forEach((c, i) => view.articulation(`crate${i}`, this.crateModel, c.state, { colors: [CRATE_COLORS[i % CRATE_COLORS.length]] }));
    view.articulation('dummy', this.dummyModel, this.dummy.state, { colors: WALKER_COLORS });
    view.marker('muzzle', MUZZLE[0], MUZZLE[1], MUZZLE[2], 0.07, 0x9aa5b8);
    this.gun.draw(view, this.time);
    if (this.debug === 'on') {
      this.debugDraw.draw(view, 'debug', this.world);
    }
  }

  info(): string[] {
    return [this.gun.info()];
  }

  stats(): SceneStats {
    const e = worldEnergy(this.world);
    return sceneStats(this.world, e, { fired: this.gun.fired, 'in the world': this.gun.live, removed: this.gun.removed, strikes: this.gun.strikes, ...solverSeries(this.world) });
  }
}

export const shootingRange = (): Scene => new ShootingRangeScene();
