/**
 * Joint limits made visible: the humanoid preset as a limp ragdoll hung from a string at its upper
 * back, limbs thrown about at the start. Every joint's range is drawn: the swing cone of each
 * spherical joint (model.sphericalLimits) and the arc of each hinge (model.lower / upper), with the
 * link's current direction, as World.debugLines draws them (DebugLines.joints). Any body part can be dragged with the mouse:
 * the rows of a PointPin hold the grabbed point to a world target that follows the pointer
 * (setWorldTarget), as a stiff spring with a bounded force (DragSpring), so that a pull beyond
 * the body's reach saturates instead of fighting the string without limit.
 */
import { DebugLines, PointPin, World, type Body } from '@sinew/constraints';
import { forwardKinematics, pointPosition, type Model } from '@sinew/featherstone';
import { assertFinite } from '../sim/metrics.js';
import { pick, rayPlane } from '../sim/pick.js';
import type { PlotSpec, PointerRay, Scene, SceneContext, SceneControl, SceneStats, SceneView, Vec3 } from '../sim/scene.js';
import { humanoidModel, WALKER_COLORS } from './walker.js';
import { Gun } from './gun.js';
import { addRagdoll, ContactCollector, DebugDraw, DragSpring, SOLVER_PLOT, solverSeries, worldEnergy, sceneStats } from './world-view.js';

const PLOTS: readonly PlotSpec[] = [
  { title: 'energy', unit: 'J', series: ['kinetic', 'potential'] },
  { title: 'largest joint-limit violation', unit: 'rad', series: ['limit violation'] },
  SOLVER_PLOT,
];

const STRING_TOP = 4;

class LimitsScene implements Scene {
  readonly name = 'limits';
  readonly title = 'Joint limits, drag';
  readonly summary =
    'A limp man dangles on a string and flings his limbs about; the coloured arcs and cones show how far each joint may bend, and they never bend further. Drag a limb to pull it, or switch a click to shoot.';
  readonly details =
    'The humanoid preset (de Leva masses, AAOS joint ranges) as a limp ragdoll on a string. Every joint range is drawn by World.debugLines (DebugLines.joints): swing cones of the ball joints and arcs of the hinges in yellow, with the line where the limb points now; pins in magenta. Limit rows keep every limb inside its range.';
  readonly click = 'pointer';
  readonly subject = ['humanoid'];
  readonly pointerLabel = 'drags';
  readonly hint = 'Drag any body part (a pin follows the pointer, with at most 1.5 body weights of force); drag the background to orbit. Set a click to shoot to fire balls instead.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly camera = { position: [1.7, 1.9, 3.6], target: [0, 1.15, 0] } as const;
  readonly plots = PLOTS;
  readonly controls: readonly SceneControl[] = [
    { kind: 'choice', id: 'string', label: 'string', options: ['attached', 'cut'], value: 'attached' },
    { kind: 'button', id: 'fling', label: 'Fling the limbs' },
  ];
  private ctx!: SceneContext;
  private world!: World;
  private body!: Body;
  private model!: Model;
  /** The joint ranges, as World.debugLines draws them (hinge arcs, swing cones, the current angle or axis, the pins). */
  private readonly gizmos = new DebugDraw(DebugLines.joints);
  private hook: PointPin | null = null;
  private drag: DragSpring | null = null;
  private dragNormal: Vec3 = [0, 0, 1];
  private stringOn = true;
  private time = 0;
  private gun!: Gun;
  private readonly contacts = new ContactCollector();
  private readonly p = new Float64Array(3);
  private readonly line = new Float64Array(12);

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    this.time = 0;
    this.drag = null;
    this.world = new World({ solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-8, sor: 1 }, sleep: false });
    this.gun = new Gun(this.world);
    this.world.addStatic({ geometry: { type: 'plane' } }, 'floor');
    this.model = humanoidModel({ dampingRate: 3 });
    this.body = addRagdoll(this.world, this.model, 'humanoid');
    // lifted so that the feet hang above the floor, turned a little
    const q = this.body.state.q;
    q[1] = 0.35;
    q[4] = Math.sin(0.3); q[6] = Math.cos(0.3);
    forwardKinematics(this.model, this.body.state);
    this.hook = null;
    if (this.stringOn) this.attachString();
    this.fling();
  }

  /** A pin from the top of the thorax to the hook above. */
  private attachString(): void {
    const thorax = this.model.linkIndex('thorax');
    const local = [0, 0.16, -0.04];
    pointPosition(this.body.state, thorax, local, this.p);
    // the hook where the point is now: a pin holds a point to a point, it is not a rope
    this.hook = this.world.addConstraint(new PointPin(this.body.index, thorax, local, { body: -1, link: -1, point: this.p }));
  }

  /** Throws the limbs about: joint velocities at the shoulders, hips and knees. */
  private fling(): void {
    const m = this.model, qd = this.body.state.qd;
    const spin = (joint: string, w: Vec3) => { const v = m.joint(joint).v; qd[v] = w[0]; qd[v + 1] = w[1]; qd[v + 2] = w[2]; };
    spin('shoulder_left', [-9, 0, 4]);
    spin('shoulder_right', [3, 2, -10]);
    spin('hip_left', [-8, 0, 2]);
    spin('hip_right', [5, 0, -4]);
    qd[m.joint('knee_left').v] = 9;
    qd[m.joint('elbow_right').v] = -8;
    spin('lumbar', [1.5, 2, 0]);
    this.world.wake(this.body);
  }

  control(id: string, value: number | string): void {
    if (id === 'fling') { this.fling(); return; }
    if (id === 'string') {
      this.stringOn = value === 'attached';
      if (!this.world) return;
      if (!this.stringOn && this.hook) { this.world.removeConstraint(this.hook); this.hook = null; }
      else if (this.stringOn && !this.hook) this.attachString();
    }
  }

  pointerDown(ray: PointerRay): boolean {
    const hit = pick([this.body], ray);
    if (!hit) return false;
    this.dragNormal = [-ray.direction[0], -ray.direction[1], -ray.direction[2]];
    this.drag = this.world.addConstraint(new DragSpring(this.body, hit.link, hit.local, hit.point));
    this.world.wake(this.body);
    return true;
  }

  pointerMove(ray: PointerRay): void {
    if (!this.drag) return;
    const t = this.drag.pin.target.point;
    const p = rayPlane(ray, [t[0], t[1], t[2]], this.dragNormal);
    if (!p) return;
    p[1] = Math.max(p[1], 0.02); // not into the floor
    this.drag.setWorldTarget(p);
  }

  pointerUp(): void {
    if (this.drag) this.world.removeConstraint(this.drag);
    this.drag = null;
  }

  step(dt: number): void {
    if (this.world.settings.solverOptions.maxIterations !== this.ctx.settings.solverIterations) this.world.configure({ solver: { maxIterations: this.ctx.settings.solverIterations } });
    const st = this.world.step(dt);
    this.time += dt;
    if (st.error) throw new Error(st.error);
    this.gun.afterStep(this.time);
    assertFinite(this.name, this.time, this.body.state);
    forwardKinematics(this.model, this.body.state);
  }

  shoot(ray: PointerRay): void {
    this.gun.fire(ray, this.time);
  }

  sync(view: SceneView): void {
    this.gun.draw(view, this.time);
    view.articulation('humanoid', this.model, this.body.state, { colors: WALKER_COLORS, opacity: 0.55 });
    this.gizmos.draw(view, 'limits', this.world);
    let n = 0;
    if (this.hook) {
      // the string: from the hook up out of the picture
      const h = this.hook.target.point;
      this.line.set([h[0], h[1], h[2], h[0], STRING_TOP, h[2]], 0);
      n++;
    }
    if (this.drag) {
      const pin = this.drag.pin;
      pointPosition(this.body.state, pin.linkA, pin.localA, this.p);
      this.line.set(this.p, 6 * n);
      this.line.set(pin.target.point, 6 * n + 3);
      n++;
    }
    view.lines('strings', this.line, n, 0xe8e2d0);
    if (this.drag) {
      const t = this.drag.pin.target.point;
      view.marker('drag', t[0], t[1], t[2], 0.03, 0xffd166);
    }
    this.contacts.draw(view, 'floor', this.world);
  }

  stats(): SceneStats {
    const e = worldEnergy(this.world);
    return sceneStats(this.world, e, { kinetic: e.kinetic, potential: e.potential, 'limit violation': Math.max(0, e.limit), ...solverSeries(this.world) });
  }
}

export const limits = (): Scene => new LimitsScene();
