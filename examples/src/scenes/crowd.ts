/**
 * A crowd under fire: six humanoid presets, skinned (CesiumMan and RobotExpressive in turn), walk
 * in circles around a turret, each following the CMU walk (one gait cycle repeated around a
 * circle, walker.ts) with a MotionFollower. The turret fires a ball at one of them every
 * SHOT_EVERY seconds; a click fires one from the camera. What a ball does to a walker is read off
 * the World's contact events: a first hit slower than LETHAL_SPEED is a hit reaction (the
 * follower's tone dip and recovery, the clip slowed and back: a stagger, then the walk goes on);
 * a hit at LETHAL_SPEED or faster, or a second hit within HIT_MEMORY seconds, kills (a crumpling
 * death). The dead lie until the World puts them to sleep, get up (GetUp) and walk on, on a circle
 * from where they stand that drifts back to their own place (Mortal, mortal.ts).
 */
import { World, type Body, type ContactEvent } from '@sinew/constraints';
import { JointTrajectory, MotionFollower } from '@sinew/characters';
import { forwardKinematics, State, type Model, type ShapeDesc } from '@sinew/featherstone';
import { assertFinite } from '../sim/metrics.js';
import { pick } from '../sim/pick.js';
import type { PlotSpec, PointerRay, Scene, SceneContext, SceneControl, SceneStats, SceneView, SkinBinding, Vec3 } from '../sim/scene.js';
import { CMU_WALK, humanoidModel, walkingCircle, walkOnHumanoid, WALKER_COLORS, yawOf } from './walker.js';
import { Gun } from './gun.js';
import { Mortal } from './mortal.js';
import { CESIUM_MAN, humanoidSkin, ROBOT_EXPRESSIVE } from './skins.js';
import { LinkMark, addRagdoll, applyImpulse, bodiesEnergy, ContactCollector, overlappingPairs, SOLVER_PLOT, solverSeries, sceneStats } from './world-view.js';

/** Walkers in the crowd. */
export const CROWD_SIZE = 6;
/** Gait cycles per circle (walkingCircle): a circle of about 1.25 m radius, turning 60 degrees a cycle. */
const LAPS = 6;
/** Distance of each walker's circle centre from the turret (m). */
const RING = 3.4;
/** The turret: a post at the origin; balls leave from MUZZLE_HEIGHT, MUZZLE_OUT metres towards the target. */
const POST: ShapeDesc = { geometry: { type: 'box', halfExtents: [0.14, 0.7, 0.14] }, position: [0, 0.7, 0], friction: 0.6 };
const MUZZLE_HEIGHT = 1.45, MUZZLE_OUT = 0.35;
/** The turret's first shot (s), the time between shots (s), and its balls' speed (m/s; 2.5 kg: 27 N s). */
export const FIRST_SHOT = 1.5, SHOT_EVERY = 1.5, TURRET_SPEED = 11;
/**
 * Whom the turret aims at, in turn: a walker named twice in a row is hit twice within HIT_MEMORY
 * (the second shot kills), once only staggers. A walker down when its turn comes is passed over.
 */
export const TURRET_TARGETS: readonly number[] = [0, 0, 1, 2, 2, 3, 4, 4, 5, 1, 1, 3];
/** A ball striking at this speed (m/s, its speed at the start of the step it strikes in) or faster kills (the camera's gun fires at 24 m/s). */
export const LETHAL_SPEED = 16;
/** A second hit within this many seconds of the first kills. */
export const HIT_MEMORY = 4;
/** Balls slower than this (m/s: rolling into a foot) strike no one. */
const MIN_HIT_SPEED = 3;
/** A hit's stagger: the muscle tone dips to HIT_TONE and recovers over HIT_RECOVER s; the clip slows to STAGGER_RATE and speeds up again over STAGGER_TIME s. */
const HIT_TONE = 0.35, HIT_RECOVER = 1, STAGGER_RATE = 0.3, STAGGER_TIME = 1.2;
/** A click with "pushes": a shove of this impulse (N s). */
const SHOVE = 40;
/** The fade of the muscle tone at death (s). */
const DEATH_FADE = 0.6;
/** Speed (m/s) at which a walker's circle moves back to its own place after it got up elsewhere. */
const HOMING_SPEED = 0.25;
/** Bounds of the hand of god that holds a walking root, in body weights (the 0.5 of MotionFollower lets a circling walker sink). */
const ASSIST = 0.8;

const PLOTS: readonly PlotSpec[] = [
  { title: 'walkers', unit: 'count', series: ['walking', 'staggering', 'down', 'getting up'] },
  { title: 'pelvis height of each walker', unit: 'm', series: Array.from({ length: CROWD_SIZE }, (_, i) => `pelvis ${i}`) },
  SOLVER_PLOT,
];

/** What happened in the crowd, for the readout and the tests. */
export interface CrowdEvent {
  readonly time: number;
  readonly walker: number;
  /** 'shot': the turret fired at the walker; 'hit' / 'killed': a ball struck it (the ball at `speed`, on `link`, with `impulse`); 'up': it got up. */
  readonly kind: 'shot' | 'hit' | 'killed' | 'up';
  readonly speed?: number;
  readonly impulse?: number;
  readonly link?: number;
}

/** A walker's state as the crowd sees it. */
export type WalkerState = 'walking' | 'staggering' | 'down' | 'getting up';

interface Walker {
  readonly index: number;
  readonly key: string;
  readonly body: Body;
  readonly life: Mortal;
  /** Its own copy of the circle walk, placed (turned and moved) where it walks. */
  readonly walk: JointTrajectory;
  /** Where its circle belongs, and where its circle's centre is now (x, z). */
  readonly home: Float64Array;
  readonly centre: Float64Array;
  /** Scene time of the last hit it survived, and of the stagger under way. */
  lastHit: number;
  staggerFrom: number;
  readonly mark: LinkMark;
}

export class CrowdScene implements Scene {
  readonly name = 'crowd';
  readonly title = 'Crowd under fire';
  readonly summary =
    'Six people walk in circles around a turret that fires at one of them every 1.5 s. A first hit makes them stagger and walk on; a second hit soon after, or a fast ball, kills: they crumple, lie still, get up and walk on. Click to fire at them yourself: your balls are fast enough to kill.';
  readonly details =
    'Each walker is the humanoid preset (16 links, 43 dofs) following one gait cycle of the CMU walk around its own circle with a MotionFollower (joint drives as constraint rows solved with the contacts; the root held by a bounded hand of god), drawn as CesiumMan or RobotExpressive. A ball strike is read off the World\'s contact events: below 16 m/s the first hit dips the muscle tone to 35 % (recovering over 1 s) and slows the clip to 30 % (back to full speed over 1.2 s), so the body staggers under the ball and walks on; a strike at 16 m/s or faster, or a second one within 4 s, kills (MotionFollower.die: the root let go, the tone fading over 0.6 s, the muscles aiming at a crumpled pose). Once a body has lain asleep for a second it gets up through key poses (GetUp) and walks on from where it stands, its circle drifting back to its place at 0.25 m/s.';
  readonly hint = 'Click to fire a ball from the camera (aimed with World.castRay); with "pushes", a click shoves the walker under the pointer.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly camera = { position: [0, 8.5, 7.5], target: [0, 0.5, 0] } as const;
  readonly subject = Array.from({ length: CROWD_SIZE }, (_, i) => `walker${i}`);
  readonly pointerLabel = 'pushes';
  readonly plots = PLOTS;
  readonly assets = [CMU_WALK, CESIUM_MAN, ROBOT_EXPRESSIVE];
  /** The walkers are skinned; their shapes are an overlay. */
  readonly shapesShown = false;
  /** What happened so far (turret shots, hits, deaths, get-ups). */
  readonly log: CrowdEvent[] = [];
  private turretOn = true;
  private ctx!: SceneContext;
  private model!: Model;
  private circle!: JointTrajectory;
  private pairs: [number, number][] = [];
  private skins: SkinBinding[] = [];
  private world!: World;
  private walkers: Walker[] = [];
  private gun!: Gun;
  private time = 0;
  private nextShot = FIRST_SHOT;
  private turn = 0;
  /** Balls that have struck a walker already (a ball hits once). */
  private struck = new WeakSet<Body>();
  /** A state for poses of the clip (aiming). */
  private aimState: State | null = null;
  private readonly contacts = new ContactCollector();
  /** Each ball's speed at the start of the step (m/s). */
  private readonly ballSpeed = new Map<Body, number>();
  /** The strikes of a step: per ball, the touch of a walker with the largest impulse (a ball reaching an arm and the chest in one step strikes the chest). */
  private readonly strikes: { ball: Body; body: Body; link: number; speed: number; impulse: number; point: Vec3 }[] = [];
  private readonly onContact = (e: ContactEvent) => this.contact(e);

  get controls(): readonly SceneControl[] {
    return [
      { kind: 'choice', id: 'turret', label: 'turret', options: ['fires', 'holds fire'], value: this.turretOn ? 'fires' : 'holds fire' },
      { kind: 'button', id: 'fire', label: 'Fire the turret now' },
    ];
  }

  control(id: string, value: number | string): void {
    if (id === 'turret') this.turretOn = value === 'fires';
    else if (id === 'fire' && this.world) this.fireTurret();
  }

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    if (!this.model) {
      this.model = humanoidModel({ dampingRate: 2 });
      const walk = walkOnHumanoid(ctx, this.model).trajectory;
      this.circle = walkingCircle(walk, LAPS);
      this.pairs = overlappingPairs(this.model, this.circle);
      this.skins = [CESIUM_MAN, ROBOT_EXPRESSIVE].map((asset) => humanoidSkin(ctx, asset, this.model, 1.8));
    }
    this.time = 0;
    this.nextShot = FIRST_SHOT;
    this.turn = 0;
    this.log.length = 0;
    this.struck = new WeakSet();
    this.world = new World({ solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-8, sor: 1 } });
    this.world.addStatic({ geometry: { type: 'plane' }, friction: 0.9 }, 'floor');
    this.world.addStatic(POST, 'turret');
    this.gun = new Gun(this.world);
    this.walkers = [];
    const c = this.circle;
    for (let i = 0; i < CROWD_SIZE; i++) {
      const key = `walker${i}`;
      const body = addRagdoll(this.world, this.model, key, this.pairs);
      // circles on a ring around the turret, each walker at its own point of its circle
      const a = (2 * Math.PI * i) / CROWD_SIZE;
      const home = Float64Array.of(RING * Math.sin(a), RING * Math.cos(a));
      const walk = new JointTrajectory(this.model, c.times, c.q, { wrap: 'loop', name: `${c.name} ${i}`, differenceStep: c.differenceStep });
      walk.transformRoot([0, 0, 0, 1], [home[0], 0, home[1]]);
      const start = c.startTime + ((0.37 * i) % 1) * c.duration;
      const follower = new MotionFollower(this.world, body, { trajectory: walk, root: 'assisted', startTime: start, assist: this.assist() });
      // once up again, it walks on (the get-up ends in the walk's first pose)
      const life = new Mortal(this.world, body, follower, () => this.walkOn(w), () => ({ pose: c.sampleQ(c.startTime) }));
      const w: Walker = { index: i, key, body, life, walk, home, centre: Float64Array.from(home), lastHit: -Infinity, staggerFrom: -Infinity, mark: new LinkMark() };
      this.walkers.push(w);
      forwardKinematics(this.model, body.state);
    }
  }

  /**
   * A walker that got up walks on: its circle walk turned and moved so that the clip's start (the
   * pose the get-up ended in) is where the body stands, facing where it faces.
   */
  private walkOn(w: Walker): MotionFollower {
    const c = this.circle, q = w.body.state.q;
    const t0 = c.startTime, q0 = c.sampleQ(t0);
    const d = yawOf(q.subarray(3, 7)) - yawOf(q0.subarray(3, 7));
    const cs = Math.cos(d), sn = Math.sin(d);
    // the clip's root at t0, turned by d about +y, lands on the body's root (x, z)
    const tx = q[0] - (cs * q0[0] + sn * q0[2]), tz = q[2] - (-sn * q0[0] + cs * q0[2]);
    w.walk.q.set(c.q);
    w.walk.transformRoot([0, Math.sin(d / 2), 0, Math.cos(d / 2)], [tx, 0, tz]);
    // the circle is centred on the origin: turned and moved, its centre is the translation
    w.centre[0] = tx;
    w.centre[1] = tz;
    w.staggerFrom = -Infinity;
    w.lastHit = -Infinity;
    return new MotionFollower(this.world, w.body, { trajectory: w.walk, root: 'assisted', startTime: t0, initialize: false, assist: this.assist() });
  }

  /** Bounds of the hand of god that holds a walker's root: ASSIST body weights (force per axis; torque per axis times 1 m). */
  private assist(): { force: number; torque: number } {
    const weight = this.model.totalMass() * Math.hypot(...this.world.gravity);
    return { force: ASSIST * weight, torque: ASSIST * weight };
  }

  /** What a walker is doing. */
  walkerState(i: number): WalkerState {
    const w = this.walkers[i];
    if (w.life.getUp) return 'getting up';
    if (w.life.dead) return 'down';
    return this.time - w.staggerFrom < STAGGER_TIME ? 'staggering' : 'walking';
  }

  /** A walker's body (for the tests and the readout). */
  walkerBody(i: number): Body {
    return this.walkers[i].body;
  }

  /** Scene time (s). */
  get now(): number {
    return this.time;
  }

  /** Where walker `w`'s thorax will be `ahead` seconds from now, going by its clip, 5 cm below (the belly). */
  private aimPoint(w: Walker, ahead: number): Vec3 {
    const s = (this.aimState ??= new State(this.model));
    w.walk.sampleQ(w.life.follower.time + ahead * w.life.follower.playbackRate, s.q);
    forwardKinematics(this.model, s, false);
    const o = 12 * this.model.linkIndex('thorax'), P = s.work.pose;
    return [P[o + 9] - 0.05 * P[o + 1], P[o + 10] - 0.05 * P[o + 4], P[o + 11] - 0.05 * P[o + 7]];
  }

  /** The turret fires at the next walker on its list that is up (none when all are down). */
  private fireTurret(): void {
    for (let tries = 0; tries < TURRET_TARGETS.length; tries++) {
      const i = TURRET_TARGETS[this.turn++ % TURRET_TARGETS.length];
      const w = this.walkers[i];
      if (w.life.dead) continue;
      // lead the target: aim where it will be when the ball arrives (two passes of the flight time)
      let target = this.aimPoint(w, 0);
      let start: Vec3 = [0, MUZZLE_HEIGHT, 0];
      for (let pass = 0; pass < 2; pass++) {
        const dx = target[0], dz = target[2], n = Math.hypot(dx, dz) || 1;
        start = [(MUZZLE_OUT * dx) / n, MUZZLE_HEIGHT, (MUZZLE_OUT * dz) / n];
        const flight = Math.hypot(target[0] - start[0], target[1] - start[1], target[2] - start[2]) / TURRET_SPEED;
        target = this.aimPoint(w, flight);
      }
      this.gun.fireAt(start, target, this.time, TURRET_SPEED);
      this.log.push({ time: this.time, walker: i, kind: 'shot' });
      return;
    }
  }

  /**
   * A contact event: a ball touching a walker it has not struck yet is a strike, at the ball's
   * speed at the start of the step (the event's own speed is the surfaces' closing speed in the
   * pass where they first touched, less than the ball's once a speculative contact has slowed it).
   */
  private contact(e: ContactEvent): void {
    if (e.type !== 'began' || !e.bodyA || !e.bodyB) return;
    const ballA = this.gun.owns(e.bodyA), ballB = this.gun.owns(e.bodyB);
    if (ballA === ballB) return;
    const ball = ballA ? e.bodyA : e.bodyB, body = ballA ? e.bodyB : e.bodyA;
    const speed = this.ballSpeed.get(ball) ?? 0;
    if (speed < MIN_HIT_SPEED || this.struck.has(ball) || !this.walkers.some((x) => x.body === body)) return;
    const link = ballA ? e.linkB : e.linkA;
    const known = this.strikes.find((x) => x.ball === ball);
    if (known && known.impulse >= e.impulse) return;
    const strike = { ball, body, link, speed, impulse: e.impulse, point: [e.point[0], e.point[1], e.point[2]] as Vec3 };
    if (known) Object.assign(known, strike);
    else this.strikes.push(strike);
  }

  /** After the step's contact events: each ball's strike hits (or kills) the walker it struck. */
  private strike(ball: Body, body: Body, link: number, speed: number, impulse: number, point: Vec3): void {
    const w = this.walkers.find((x) => x.body === body)!;
    this.struck.add(ball);
    w.mark.set(w.body, link, point, this.time + 0.6);
    if (w.life.dead && !w.life.getUp) return; // a ball on a body lying dead just pushes it
    const lethal = speed >= LETHAL_SPEED || this.time - w.lastHit < HIT_MEMORY || w.life.getUp !== null;
    if (lethal) {
      w.life.die(this.time, { fromClip: false, fadeTime: DEATH_FADE, pose: 'crumple' });
      w.life.follower.playbackRate = 1;
      this.log.push({ time: this.time, walker: w.index, kind: 'killed', speed, impulse, link });
      return;
    }
    this.stagger(w, link, point, [0, 0, 0]);
    this.log.push({ time: this.time, walker: w.index, kind: 'hit', speed, impulse, link });
  }

  /** A hit the walker survives: an impulse (if any), the follower's tone dip and recovery, and the clip slowed. */
  private stagger(w: Walker, link: number, point: ArrayLike<number>, impulse: Vec3): void {
    w.life.follower.hit({ link, point, impulse, tone: HIT_TONE, recoverTime: HIT_RECOVER });
    w.lastHit = this.time;
    w.staggerFrom = this.time;
  }

  pointerDown(ray: PointerRay): boolean {
    const hit = pick(this.walkers.map((w) => w.body), ray);
    if (!hit) return false;
    const w = this.walkers[hit.target];
    const p: Vec3 = [SHOVE * ray.direction[0], SHOVE * ray.direction[1], SHOVE * ray.direction[2]];
    if (w.life.dead) applyImpulse(this.world, w.body, hit.link, hit.point, p);
    else this.stagger(w, hit.link, hit.point, p);
    w.mark.set(w.body, hit.link, hit.point, this.time + 0.6);
    return true;
  }

  shoot(ray: PointerRay): void {
    this.gun.fire(ray, this.time);
  }

  step(dt: number): void {
    if (this.turretOn && this.time >= this.nextShot) {
      this.fireTurret();
      this.nextShot += SHOT_EVERY;
    }
    for (const w of this.walkers) {
      if (w.life.update(this.time, dt)) this.log.push({ time: this.time, walker: w.index, kind: 'up' });
      if (w.life.dead) continue;
      // the stagger: the clip slowed, then back to full speed
      const s = (this.time - w.staggerFrom) / STAGGER_TIME;
      const rate = s < 1 ? STAGGER_RATE + (1 - STAGGER_RATE) * s : 1;
      if (w.life.follower.playbackRate !== rate) w.life.follower.playbackRate = rate;
      this.home(w, dt);
    }
    this.ballSpeed.clear();
    for (const b of this.gun.balls) this.ballSpeed.set(b, Math.hypot(b.state.qd[3], b.state.qd[4], b.state.qd[5]));
    if (this.world.settings.solverOptions.maxIterations !== this.ctx.settings.solverIterations) this.world.configure({ solver: { maxIterations: this.ctx.settings.solverIterations } });
    const st = this.world.step(dt);
    this.time += dt;
    if (st.error) throw new Error(st.error);
    this.gun.afterStep(this.time, this.onContact);
    for (const s of this.strikes) this.strike(s.ball, s.body, s.link, s.speed, s.impulse, s.point);
    this.strikes.length = 0;
    for (const b of this.world.bodies) {
      assertFinite(this.name, this.time, b.state);
      forwardKinematics(b.model, b.state);
    }
  }

  /** Moves a walking walker's circle back towards its own place, at HOMING_SPEED at most. */
  private home(w: Walker, dt: number): void {
    const dx = w.home[0] - w.centre[0], dz = w.home[1] - w.centre[1];
    const n = Math.hypot(dx, dz);
    if (n < 1e-9) return;
    const f = Math.min(1, (HOMING_SPEED * dt) / n), mx = f * dx, mz = f * dz;
    const Q = w.walk.q, nq = this.model.nq;
    // the root joint frame is unrotated (walkingCircle): its q's first three numbers are the position
    for (let k = 0; k < w.walk.frameCount; k++) { Q[k * nq] += mx; Q[k * nq + 2] += mz; }
    w.centre[0] += mx;
    w.centre[1] += mz;
  }

  sync(view: SceneView): void {
    view.staticShape('turret', POST, 0x6b7385);
    for (const w of this.walkers) {
      view.skinnedMesh(w.key, this.skins[w.index % this.skins.length], this.model, w.body.state);
      view.articulation(w.key, this.model, w.body.state, { colors: WALKER_COLORS, overlay: true });
      const at = w.mark.at(this.time);
      if (at) view.marker(`hit${w.index}`, at[0], at[1], at[2], 0.04, 0xff5470);
    }
    this.gun.draw(view, this.time);
    this.contacts.draw(view, 'floor', this.world);
  }

  info(): string[] {
    const lines = [this.gun.info()];
    const by: Record<WalkerState, number[]> = { walking: [], staggering: [], down: [], 'getting up': [] };
    this.walkers.forEach((w) => by[this.walkerState(w.index)].push(w.index));
    for (const k of Object.keys(by) as WalkerState[]) if (by[k].length) lines.push(`${k.padEnd(12)} ${by[k].map((i) => `#${i}`).join(' ')}`);
    const hits = this.log.filter((e) => e.kind === 'hit').length, kills = this.log.filter((e) => e.kind === 'killed').length, ups = this.log.filter((e) => e.kind === 'up').length;
    lines.push(`so far       ${hits} hits, ${kills} deaths, ${ups} got up`);
    return lines;
  }

  stats(): SceneStats {
    const e = bodiesEnergy(this.walkers.map((w) => w.body));
    const series: Record<string, number> = { walking: 0, staggering: 0, down: 0, 'getting up': 0, ...solverSeries(this.world) };
    for (const w of this.walkers) {
      series[this.walkerState(w.index)]++;
      series[`pelvis ${w.index}`] = w.body.state.work.pose[10];
    }
    return sceneStats(this.world, e, series);
  }
}

export const crowd = (): Scene => new CrowdScene();
