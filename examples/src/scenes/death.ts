/**
 * A ragdoll death scene: the humanoid preset walks by following the CMU walk (a MotionFollower of
 * @sinew/characters: joint drives as constraint rows, the root held by a bounded 'assisted' drive),
 * a ball thrown at it knocks it over, and at the first touch it dies (MotionFollower.die): the root
 * is let go and the muscle tone fades to a residual over the chosen time while the joint limits
 * keep the body human. A click shoots it instead: an impulse at the point clicked. Once the body
 * lies at rest (the World puts it to sleep), it gets up (GetUp of @sinew/characters: key poses
 * driven with the contacts, a bounded assist at the pelvis) and stands, held upright by a bounded
 * assist, until it is shot again.
 */
import { World, type Body } from '@sinew/constraints';
import { RowTag } from '@sinew/constraints/internals';
import { JointTrajectory, MotionFollower } from '@sinew/characters';
import { ModelBuilder, State, forwardKinematics, type Model } from '@sinew/featherstone';
import { assertFinite } from '../sim/metrics.js';
import { pick } from '../sim/pick.js';
import type { PlotSpec, PointerRay, Scene, SceneContext, SceneControl, SceneStats, SceneView, SkinBinding } from '../sim/scene.js';
import { CMU_WALK, humanoidModel, walkOnHumanoid, WALKER_COLORS } from './walker.js';
import { Gun } from './gun.js';
import { CESIUM_MAN, humanoidSkin } from './skins.js';
import { Mortal } from './mortal.js';
import { LinkMark, addRagdoll, applyImpulse, bodiesEnergy, ContactCollector, overlappingPairs, SOLVER_PLOT, solverSeries, worldEnergy, sceneStats } from './world-view.js';

const PLOTS: readonly PlotSpec[] = [
  { title: 'muscle tone', unit: '1 = full strength', series: ['tone'] },
  { title: 'energy of the walker', unit: 'J', series: ['kinetic', 'potential'] },
  { title: 'joint tracking error (mean over joints)', unit: 'rad', series: ['tracking error'] },
  SOLVER_PLOT,
];

const BALL_RADIUS = 0.12, BALL_MASS = 8;
/** The first ball leaves at this time and reaches the walker's chest FLIGHT seconds later. */
const LAUNCH = 1.3, FLIGHT = 0.3;
const SHOT = 60; // N s, a click
/** Factor on a ball's angular velocity per 1/60 s step (about e^-5 per second). */
const BALL_SPIN_DECAY = 0.92;

type DeathPose = 'crumple' | 'clip' | 'hold' | 'relaxed';

function ballModel(): Model {
  const b = new ModelBuilder();
  const I = 0.4 * BALL_MASS * BALL_RADIUS * BALL_RADIUS;
  b.addLink({
    name: 'ball', parent: null, joint: { type: 'free' }, mass: BALL_MASS, inertia: [I, I, I, 0, 0, 0],
    shapes: [{ geometry: { type: 'sphere', radius: BALL_RADIUS }, friction: 0.5, restitution: 0.3 }],
  });
  return b.build();
}

/** Copy of the get-up variant of the scene (#getup): the man starts on the floor instead of walking. */
const GETUP_TEXT = {
  title: 'Getting up',
  summary: 'A man lies face down on the floor. Once he lies still he gets up, on hands and knees, then feet, and stands. Click him to fire a ball: he falls and gets up again, face up or face down as he lands.',
  details: 'The humanoid preset, limp (a MotionFollower that has died: muscle tone at 5 %), is dropped face down. Once the World puts it to sleep, GetUp of @sinew/characters reads from the pelvis and thorax whether it lies face up or face down and drives its joints through key poses that start at its own pose (face down: hands and knees, hands and feet, rise; face up: sit up, tuck the feet, crouch, rise), with the contacts and a bounded assist at the pelvis (half the body weight) that fades out once it stands. It then stands, held by a bounded hand of god, until the next shot.',
};

class DeathScene implements Scene {
  readonly name: string;
  readonly title: string;
  readonly summary: string;
  readonly details: string;
  readonly camera: { readonly position: readonly [number, number, number]; readonly target: readonly [number, number, number] };
  /** 'death' (#death: he walks until a ball kills him) or 'getup' (#getup: he starts on the floor). */
  private readonly variant: 'death' | 'getup';

  constructor(variant: 'death' | 'getup' = 'death') {
    this.variant = variant;
    this.name = variant;
    const getup = variant === 'getup';
    this.title = getup ? GETUP_TEXT.title : 'Ragdoll death';
    this.summary = getup ? GETUP_TEXT.summary :
      'A man walks towards you; a ball knocks him over and he goes limp as he falls. Once he lies still he gets up again. Click him to fire a ball from where you look (he dies where it hits), or change how fast his muscles let go and replay with R.';
    this.details = getup ? GETUP_TEXT.details :
      'The humanoid preset walks by following the CMU walk (joint drives solved with the contacts, the root held by a bounded hand of god). An 8 kg ball knocks it over and at the first touch it dies: the root is let go and the muscle tone fades to 5 % over the fade time while its muscles aim at the chosen pose; joint limits keep the fall human. Once the body lies still (asleep) it gets up through key poses, face down or face up as it lies, driven by its joints with the contacts and a bounded assist at the pelvis (GetUp), then stands with a bounded hand of god until the next shot.';
    this.camera = getup ? { position: [2.4, 1.5, 3.0], target: [0, 0.5, 0] } : { position: [2.2, 1.6, 5.4], target: [0, 0.75, 1.9] };
  }

  readonly hint = 'Click to fire a ball from the camera (aimed with World.castRay); with "pushes", a click shoves the body part under the pointer. Reset (R) replays with the fade time and aim set below.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly subject = ['walker'];
  readonly pointerLabel = 'pushes';
  readonly plots = PLOTS;
  readonly assets = [CMU_WALK, CESIUM_MAN];
  /** The walker is CesiumMan's skin; its shapes are an overlay. */
  readonly shapesShown = false;
  private fade = 0.8;
  private pose: DeathPose = 'crumple';
  private ctx!: SceneContext;
  private model!: Model;
  private trajectory!: JointTrajectory;
  private pairs: [number, number][] = [];
  private skin!: SkinBinding;
  private world!: World;
  private walker!: Body;
  /** The walker's follower, its death and its getting up. */
  private life!: Mortal;
  private balls: Body[] = [];
  private ballModel = ballModel();
  private time = 0;
  private cause = '';
  private launched = false;
  /** Whether the dead walker gets up once it lies still. */
  private getsUp = true;
  /** A mark on the walker where it was hit, moving with the link. */
  private readonly mark = new LinkMark();
  private gun!: Gun;
  private readonly contacts = new ContactCollector();

  get controls(): readonly SceneControl[] {
    return [
      { kind: 'slider', id: 'fade', label: 'muscle tone fade', min: 0.05, max: 3, step: 0.05, value: this.fade, unit: 's' },
      { kind: 'choice', id: 'pose', label: 'dying muscles aim at', options: ['crumple', 'clip', 'hold', 'relaxed'], value: this.pose },
      { kind: 'button', id: 'ball', label: 'Throw another ball' },
      { kind: 'choice', id: 'afterwards', label: 'once he lies still', options: ['gets up', 'stays down'], value: this.getsUp ? 'gets up' : 'stays down' },
    ];
  }

  control(id: string, value: number | string): void {
    if (id === 'fade') this.fade = Math.max(0, Number(value));
    else if (id === 'pose' && (value === 'crumple' || value === 'clip' || value === 'hold' || value === 'relaxed')) this.pose = value;
    else if (id === 'ball' && this.world) this.throwBall(this.aimPoint(0.3), FLIGHT);
    else if (id === 'afterwards') this.getsUp = value === 'gets up';
  }

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    if (!this.model) {
      // built once per scene: the retargeting reads every frame of the clip
      this.model = humanoidModel({ dampingRate: 2 });
      this.trajectory = walkOnHumanoid(ctx, this.model).trajectory;
      this.pairs = overlappingPairs(this.model, this.trajectory);
      this.skin = humanoidSkin(ctx, CESIUM_MAN, this.model, 1.8);
    }
    this.time = 0;
    this.cause = '';
    this.launched = false;
    this.mark.clear();
    this.balls = [];
    this.world = new World({ solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-8, sor: 1 } });
    this.world.addStatic({ geometry: { type: 'plane' }, friction: 0.9 }, 'floor');
    this.walker = addRagdoll(this.world, this.model, 'walker', this.pairs);
    this.life = new Mortal(this.world, this.walker, new MotionFollower(this.world, this.walker, { trajectory: this.trajectory, root: 'assisted' }), () => this.stand());
    this.gun = new Gun(this.world);
    if (this.variant === 'getup') {
      // on the floor from the start: face down (turned +90 degrees about x: his front, +z, faces
      // down), dropped from a few centimetres, limp; no ball is thrown
      const q = this.walker.state.q;
      q[0] = 0; q[1] = 0.3; q[2] = 0;
      q[3] = Math.SQRT1_2; q[4] = 0; q[5] = 0; q[6] = Math.SQRT1_2;
      this.launched = true;
      this.die('lying on the floor');
    }
    forwardKinematics(this.model, this.walker.state);
  }

  /** Where the walker's belly (just below the thorax) will be in `ahead` seconds (from the clip while it walks, else where it is). */
  private aimPoint(ahead: number): [number, number, number] {
    const thorax = this.model.linkIndex('thorax');
    if (!this.life.dead) {
      const s = new State(this.model);
      this.trajectory.sampleQ(this.life.follower.time + ahead, s.q);
      forwardKinematics(this.model, s, false);
      const P = s.work.pose, o = 12 * thorax;
      return [P[o + 9] - 0.05 * P[o + 1], P[o + 10] - 0.05 * P[o + 4], P[o + 11] - 0.05 * P[o + 7]];
    }
    const P = this.walker.state.work.pose, o = 12 * thorax;
    return [P[o + 9], P[o + 10], P[o + 11]];
  }

  /** A ball from the walker's left, 3 m away, reaching `target` after `flight` seconds. */
  private throwBall(target: [number, number, number], flight: number): void {
    const body = this.world.addBody(this.ballModel, { name: `ball${this.balls.length}` });
    const start = [target[0] + 3.2, target[1] + 0.3, target[2] - 0.6];
    const g = this.world.gravity;
    const q = body.state.q, qd = body.state.qd;
    q.set(start, 0);
    // free joint qd: angular, then the origin's velocity in the link frame (the ball starts unrotated)
    for (let k = 0; k < 3; k++) qd[3 + k] = (target[k] - start[k] - 0.5 * g[k] * flight * flight) / flight;
    forwardKinematics(this.ballModel, body.state);
    this.balls.push(body);
  }

  private die(cause: string, impulse?: { link: number; point: [number, number, number]; impulse: [number, number, number] }): void {
    if (this.life.dead) return;
    this.cause = cause;
    this.life.die(this.time, { fromClip: false, fadeTime: this.fade, pose: this.pose, impulse });
  }

  /** Once the walker got up: a follower holds its present pose, its root by a bounded assist (it stands where it is). */
  private stand(): MotionFollower {
    const q = this.walker.state.q;
    const hold = new JointTrajectory(this.model, [0, 1], [...q, ...q]);
    return new MotionFollower(this.world, this.walker, { trajectory: hold, root: 'assisted' });
  }

  pointerDown(ray: PointerRay): boolean {
    const hit = pick([this.walker], ray);
    if (!hit) return false;
    const p: [number, number, number] = [SHOT * ray.direction[0], SHOT * ray.direction[1], SHOT * ray.direction[2]];
    if (!this.life.dead) this.die(`shot in the ${this.model.linkNames[hit.link].replace(/_/g, ' ')}`, { link: hit.link, point: hit.point, impulse: p });
    else applyImpulse(this.world, this.walker, hit.link, hit.point, [0.5 * p[0], 0.5 * p[1], 0.5 * p[2]]);
    this.mark.set(this.walker, hit.link, hit.point, this.time + 0.6);
    return true;
  }

  shoot(ray: PointerRay): void {
    this.gun.fire(ray, this.time);
  }

  step(dt: number): void {
    // the thrown ball is for a living walker: once it is dead (shot first), none comes
    if (!this.launched && !this.life.dead && this.time >= LAUNCH) {
      this.launched = true;
      this.throwBall(this.aimPoint(FLIGHT), FLIGHT);
    }
    // the balls do not roll: a free body spinning fast while it moves gains energy step by step
    // in featherstone's integrator (see examples/README.md), so their spin is damped away
    for (const b of this.balls) for (let k = 0; k < 3; k++) b.state.qd[k] *= BALL_SPIN_DECAY;
    // the dead walker, asleep for a second, gets up; once up, it stands and can die again
    if (this.life.update(this.time, dt, this.getsUp)) this.cause = '';
    if (this.world.settings.solverOptions.maxIterations !== this.ctx.settings.solverIterations) this.world.configure({ solver: { maxIterations: this.ctx.settings.solverIterations } });
    const st = this.world.step(dt);
    this.time += dt;
    if (st.error) throw new Error(st.error);
    this.gun.afterStep(this.time);
    for (const b of this.world.bodies) {
      assertFinite(this.name, this.time, b.state);
      forwardKinematics(b.model, b.state);
    }
    if (!this.life.dead) {
      // a ball about to touch kills: the contact rows of the step reach a few centimetres ahead
      // (the collision margin), so the walker goes limp and its root free just before the impact
      const rows = this.world.rows, w = this.walker.index;
      for (let r = 0; r < rows.count; r++) {
        if (rows.tag[r] !== RowTag.Contact || !(rows.error[r] < 0.08)) continue;
        const a = rows.bodyA[r], b = rows.bodyB[r];
        if ((a === w && b > w) || (b === w && a > w)) {
          const other = this.world.bodies[a === w ? b : a];
          const link = a === w ? rows.linkA[r] : rows.linkB[r];
          const local = a === w ? rows.pA : rows.pB; // the contact point in the walker's link frame
          this.mark.setLocal(this.walker, link, local.subarray(3 * r, 3 * r + 3), this.time + 0.6);
          this.die(this.gun.owns(other) ? `shot in the ${this.model.linkNames[link].replace(/_/g, ' ')}` : 'hit by the ball');
          break;
        }
      }
    }
  }

  sync(view: SceneView): void {
    view.skinnedMesh('walker', this.skin, this.model, this.walker.state);
    view.articulation('walker', this.model, this.walker.state, { colors: WALKER_COLORS, overlay: true });
    this.balls.forEach((b, i) => view.articulation(`ball${i}`, b.model, b.state, { colors: [0xe4572e] }));
    const at = this.mark.at(this.time);
    if (at) view.marker('hit', at[0], at[1], at[2], 0.04, 0xff5470);
    this.gun.draw(view, this.time);
    this.contacts.draw(view, 'floor', this.world);
  }

  info(): string[] {
    const { getUp, standings, follower, deathTime } = this.life;
    if (getUp) return [this.gun.info(), `walker       getting up (${getUp.side === 'faceDown' ? 'face down' : 'face up'}, ${getUp.time.toFixed(2)} s)`];
    if (deathTime < 0 && standings > 0) return [`walker       standing (got up ${standings === 1 ? 'once' : `${standings} times`})`, this.gun.info()];
    if (deathTime < 0) return [`walker       alive, walking (clip ${follower.time.toFixed(2)} s)`, this.gun.info()];
    return [this.gun.info(), `walker       dead at ${deathTime.toFixed(2)} s, ${this.cause}`, `             tone ${follower.currentTone.toFixed(2)}, fade ${this.fade.toFixed(2)} s, aim: ${this.pose}`];
  }

  stats(): SceneStats {
    const e = worldEnergy(this.world);
    const errors = this.life.follower.jointErrors();
    let sum = 0, n = 0;
    for (const [k, v] of Object.entries(errors)) if (!k.includes('.')) { sum += v; n++; }
    const walker = bodiesEnergy([this.walker]);
    return sceneStats(this.world, e, { tone: this.life.follower.currentTone, kinetic: walker.kinetic, potential: walker.potential, 'tracking error': n ? sum / n : 0, ...solverSeries(this.world) });
  }
}

export const death = (): Scene => new DeathScene();

/** #getup: the death scene's man, starting on the floor, gets up (and again after each shot). */
export const getUp = (): Scene => new DeathScene('getup');
