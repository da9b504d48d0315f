/**
 * Trajectory following under perturbation: the humanoid walks around a circle, one gait cycle of
 * the CMU walk repeated (walker.ts), and is pushed: an impulse at a point (a click, or every few
 * seconds by itself) dips its muscle tone, and it recovers to the clip. The joints are driven
 * either by acceleration constraints (Kokkevis: TrajectoryFollower rows solved with the contacts
 * in one LCP, through a MotionFollower) or by joint torques from PD or stable PD controllers
 * (Tan et al. 2011) that know nothing of the contacts. The root is held by the follower in every
 * mode (assisted by default: a bounded hand of god a hard push overpowers).
 */
import { gainsFromSettleTime, World, type Body } from '@sinew/constraints';
import { DEFAULT_MAX_TORQUES, DEFAULT_SETTLE_TIMES, MotionFollower, PdController, StablePdController, jointGroups, type JointTrajectory, type RootMode } from '@sinew/characters';
import { forwardKinematics, massMatrix, State, type Model } from '@sinew/featherstone';
import { assertFinite } from '../sim/metrics.js';
import { pick } from '../sim/pick.js';
import type { PlotSpec, PointerRay, Scene, SceneContext, SceneControl, SceneStats, SceneView, SkinBinding } from '../sim/scene.js';
import { CMU_WALK, Ghost, humanoidModel, rootPath, walkingCircle, walkOnHumanoid, WALKER_COLORS } from './walker.js';
import { Gun } from './gun.js';
import { humanoidSkin, ROBOT_EXPRESSIVE } from './skins.js';
import { LinkMark, addRagdoll, bodiesEnergy, ContactCollector, overlappingPairs, SOLVER_PLOT, solverSeries, sceneStats } from './world-view.js';

type Drive = 'constraint rows' | 'stable PD' | 'PD';
const DRIVES: readonly Drive[] = ['constraint rows', 'stable PD', 'PD'];
const ROOTS: readonly RootMode[] = ['assisted', 'kinematic', 'free'];

const PLOTS: readonly PlotSpec[] = [
  { title: 'joint tracking error (mean over joints)', unit: 'rad', series: ['joint error'] },
  { title: 'root position error', unit: 'm', series: ['root error'] },
  { title: 'muscle tone', unit: '1 = full strength', series: ['tone'] },
  SOLVER_PLOT,
];

/** Automatic pushes: the first at 2 s, then every PUSH_EVERY seconds, alternating sides. */
const FIRST_PUSH = 2, PUSH_EVERY = 3.5;
/** Bounds of the hand of god, in body weights (force per axis; torque per axis times 1 m). */
const ASSIST = 0.8;
/**
 * Explicit PD at the rows' stiffness shakes at this step (the walker's kinetic energy swings up
 * to three times the clip's; earlier versions of the packages blew up): it runs at half their
 * natural frequency (a quarter of the stiffness, half the damping).
 */
const PD_SOFT = 0.5;
/** Sub-steps of the 1/60 s step for the torque drives (explicit in the step, so they need 1/240 s). */
const PD_SUBSTEPS = 4;

class FollowScene implements Scene {
  readonly name = 'follow';
  readonly title = 'Trajectory following';
  readonly summary =
    'A man walks in circles and gets shoved every few seconds; he stumbles and catches himself. Click him to fire a ball at him, or switch to pushes and shove him where you click. Compare the ways of driving his joints below.';
  readonly details =
    'The humanoid follows one gait cycle of the CMU walk around a circle (the thin yellow figure is the target pose, seen when the body leaves it) and gets pushed, by itself every 3.5 s or where you click: an impulse at a point, a dip in muscle tone, recovery to the clip. Drive the joints by acceleration constraints (rows solved with the contacts and limits in one LCP) or by PD / stable PD joint torques, and compare the tracking error. The PD and stable PD torques are applied in 4 sub-steps of each 1/60 s step (explicit torques need 1/240 s); the rows need none.';
  readonly pointerLabel = 'pushes';
  readonly hint = 'Click to fire a ball from the camera; with "pushes", a click shoves the body part under the pointer.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly camera = { position: [0.6, 4.6, 7.6], target: [0.2, 0.4, 0.5] } as const;
  readonly subject = ['walker'];
  readonly plots = PLOTS;
  readonly assets = [CMU_WALK, ROBOT_EXPRESSIVE];
  /** The walker is RobotExpressive's skin; its shapes are an overlay. */
  readonly shapesShown = false;
  private drive: Drive = 'constraint rows';
  private rootMode: RootMode = 'assisted';
  private push = 150;
  private auto = 'on';
  private ctx!: SceneContext;
  private model!: Model;
  private trajectory!: JointTrajectory;
  private pairs: [number, number][] = [];
  private skin!: SkinBinding;
  private gains!: { kp: Float64Array; kd: Float64Array; max: Float64Array };
  private ghost!: Ghost;
  private path!: Float64Array;
  private world!: World;
  private walker!: Body;
  private follower!: MotionFollower;
  private pd: PdController | StablePdController | null = null;
  private time = 0;
  private gun!: Gun;
  private nextPush = FIRST_PUSH;
  private pushes = 0;
  /** The last push: where it struck (moving with the link) and the arrow's tail, as an offset from there. */
  private readonly pushMark = new LinkMark();
  private readonly arrowTail = new Float64Array(3);
  private readonly arrowData = new Float64Array(6);
  private readonly contacts = new ContactCollector();

  get controls(): readonly SceneControl[] {
    return [
      { kind: 'choice', id: 'drive', label: 'joint drive', options: DRIVES, value: this.drive },
      { kind: 'choice', id: 'root', label: 'root', options: ROOTS, value: this.rootMode },
      { kind: 'slider', id: 'push', label: 'push', min: 10, max: 400, step: 10, value: this.push, unit: 'N s' },
      { kind: 'choice', id: 'auto', label: 'push every 3.5 s', options: ['on', 'off'], value: this.auto },
    ];
  }

  control(id: string, value: number | string): void {
    if (id === 'drive' && DRIVES.includes(value as Drive)) {
      this.drive = value as Drive;
      if (this.world) this.applyDrive();
    } else if (id === 'root' && ROOTS.includes(value as RootMode)) {
      this.rootMode = value as RootMode;
      if (this.follower) this.follower.root = this.rootMode;
    } else if (id === 'push') this.push = Number(value);
    else if (id === 'auto') this.auto = String(value);
  }

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    if (!this.model) {
      this.model = humanoidModel({ dampingRate: 1 });
      this.trajectory = walkingCircle(walkOnHumanoid(ctx, this.model).trajectory);
      this.pairs = overlappingPairs(this.model, this.trajectory);
      this.gains = pdGains(this.model);
      this.ghost = new Ghost(this.model);
      this.path = rootPath(this.trajectory);
      this.skin = humanoidSkin(ctx, ROBOT_EXPRESSIVE, this.model, 1.8);
    }
    this.time = 0;
    this.nextPush = FIRST_PUSH;
    this.pushes = 0;
    this.pushMark.clear();
    this.world = new World({ solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-8, sor: 1 } });
    this.gun = new Gun(this.world);
    this.world.addStatic({ geometry: { type: 'plane' }, friction: 0.9 }, 'floor');
    this.walker = addRagdoll(this.world, this.model, 'walker', this.pairs);
    // the hand of god pulls with up to 0.8 body weights: a hard push moves the walker off its path, and it comes back
    const weight = this.model.totalMass() * 9.81;
    this.follower = new MotionFollower(this.world, this.walker, { trajectory: this.trajectory, root: this.rootMode, assist: { force: ASSIST * weight, torque: ASSIST * weight } });
    this.applyDrive();
    forwardKinematics(this.model, this.walker.state);
  }

  /** Rows for every joint, or rows for the root only and torques from a PD controller for the rest. */
  private applyDrive(): void {
    const rows = this.drive === 'constraint rows';
    for (let i = 1; i < this.model.nLinks; i++) this.follower.drive.driven[i] = rows ? 1 : 0;
    if (rows) { this.pd = null; return; }
    const { kp, kd, max } = this.gains;
    const soft = this.drive === 'PD' ? PD_SOFT : 1;
    const options = { kp: kp.map((x) => x * soft * soft), kd: kd.map((x) => x * soft), maxTorque: max };
    this.pd = this.drive === 'PD' ? new PdController(this.model, this.walker.state, options) : new StablePdController(this.model, this.walker.state, options);
  }

  /** An impulse along `dir` at a world point of a link, through the follower (tone dip and recovery). */
  private pushAt(link: number, point: [number, number, number], dir: [number, number, number]): void {
    const n = Math.hypot(dir[0], dir[1], dir[2]) || 1;
    const p: [number, number, number] = [(this.push * dir[0]) / n, (this.push * dir[1]) / n, (this.push * dir[2]) / n];
    this.follower.hit({ link, point, impulse: p, tone: 0.4, recoverTime: 0.8 });
    this.pushes++;
    const len = 0.004 * this.push;
    for (let k = 0; k < 3; k++) this.arrowTail[k] = (-len * p[k]) / this.push;
    this.pushMark.set(this.walker, link, point, this.time + 0.6);
  }

  /** The automatic push: at the upper back or the side of the chest, from the walker's left or right. */
  private autoPush(): void {
    const thorax = this.model.linkIndex('thorax');
    const P = this.walker.state.work.pose, o = 12 * thorax;
    const side = this.pushes % 2 === 0 ? 1 : -1;
    // the thorax's own x axis points to the walker's left
    const dir: [number, number, number] = [-side * P[o], 0, -side * P[o + 6]];
    const local = [0.14 * side, 0.12, 0];
    const point: [number, number, number] = [0, 1, 2].map((k) => P[o + 3 * k] * local[0] + P[o + 3 * k + 1] * local[1] + P[o + 3 * k + 2] * local[2] + P[o + 9 + k]) as [number, number, number];
    this.pushAt(thorax, point, dir);
  }

  pointerDown(ray: PointerRay): boolean {
    const hit = pick([this.walker], ray);
    if (!hit) return false;
    this.pushAt(hit.link, hit.point, [ray.direction[0], ray.direction[1], ray.direction[2]]);
    return true;
  }

  step(dt: number): void {
    if (this.auto === 'on' && this.time >= this.nextPush) {
      this.autoPush();
      this.nextPush += PUSH_EVERY;
    }
    if (this.world.settings.solverOptions.maxIterations !== this.ctx.settings.solverIterations) this.world.configure({ solver: { maxIterations: this.ctx.settings.solverIterations } });
    let st;
    if (this.pd) {
      // joint torques are explicit: a PD controller is applied PD_SUBSTEPS times a step, each for a
      // sub-step of the world, as games sub-step their characters' controllers
      const h = dt / PD_SUBSTEPS;
      for (let k = 0; k < PD_SUBSTEPS; k++) {
        // the same targets as the rows would take, at the follower's clip time, and the same tone
        this.trajectory.sampleQ(this.follower.time, this.pd.targetQ);
        this.trajectory.sampleQd(this.follower.time, this.pd.targetQd);
        const tone = this.follower.tone.at(this.world.time);
        for (let d = 6; d < this.model.nv; d++) this.pd.maxTorque[d] = this.gains.max[d] * tone;
        this.pd.apply(h);
        st = this.world.step(h);
        if (st.error) break;
      }
    } else st = this.world.step(dt);
    st = st!;
    this.time += dt;
    if (st.error) throw new Error(st.error);
    this.gun.afterStep(this.time);
    assertFinite(this.name, this.time, this.walker.state);
    forwardKinematics(this.model, this.walker.state);
  }

  shoot(ray: PointerRay): void {
    this.gun.fire(ray, this.time);
  }

  sync(view: SceneView): void {
    this.gun.draw(view, this.time);
    view.skinnedMesh('walker', this.skin, this.model, this.walker.state);
    view.articulation('walker', this.model, this.walker.state, { colors: WALKER_COLORS, overlay: true });
    view.lines('path', this.path, this.path.length / 6, 0x4d6a86);
    // the target pose: hidden inside the body while it tracks, in the open when it is pushed off
    this.ghost.draw(view, 'target', this.trajectory, this.follower.time, 0xffe08a);
    const to = this.pushMark.at(this.time);
    if (to) {
      for (let k = 0; k < 3; k++) { this.arrowData[k] = to[k] + this.arrowTail[k]; this.arrowData[3 + k] = to[k]; }
      view.lines('push', this.arrowData, 1, 0xff5470, true);
      view.marker('push', to[0], to[1], to[2], 0.035, 0xff5470);
    }
    this.contacts.draw(view, 'floor', this.world);
  }

  info(): string[] {
    return [this.gun.info(), `drive        ${this.drive}, root ${this.rootMode}`, `pushes       ${this.pushes} of ${this.push} N s`];
  }

  stats(): SceneStats {
    const e = bodiesEnergy([this.walker]);
    const errors = this.follower.jointErrors();
    let sum = 0, n = 0;
    for (const [k, v] of Object.entries(errors)) if (!k.includes('.') && k !== this.model.jointNames[0]) { sum += v; n++; }
    return sceneStats(this.world, e, { 'joint error': n ? sum / n : 0, 'root error': errors[`${this.model.jointNames[0]}.position`] ?? 0, tone: this.follower.currentTone, ...solverSeries(this.world) });
  }
}

/**
 * PD gains that promise what the constraint rows do: per dof, the settle time of its joint group
 * (DEFAULT_SETTLE_TIMES), critically damped, on the joint's own inertia (the diagonal of the
 * mass matrix in the neutral pose): Kp = I w^2, Kd = 2 I w, w = 3.89 / ts; torque limits of the
 * group. The root gets none (the follower holds it).
 */
function pdGains(model: Model): { kp: Float64Array; kd: Float64Array; max: Float64Array } {
  const nv = model.nv;
  const M = massMatrix(model, new State(model), new Float64Array(nv * nv));
  const groups = jointGroups(model);
  const kp = new Float64Array(nv), kd = new Float64Array(nv), max = new Float64Array(nv);
  for (let i = 1; i < model.nLinks; i++) {
    const g = groups[i];
    const { kp: wp, kd: wd } = gainsFromSettleTime(DEFAULT_SETTLE_TIMES[g]); // w^2 and 2 w
    for (let k = 0; k < model.jointNv[i]; k++) {
      const d = model.vOffset[i] + k, inertia = M[d * nv + d];
      kp[d] = inertia * wp;
      kd[d] = inertia * wd;
      max[d] = DEFAULT_MAX_TORQUES[g];
    }
  }
  return { kp, kd, max };
}

export const follow = (): Scene => new FollowScene();
