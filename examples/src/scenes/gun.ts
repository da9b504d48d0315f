/**
 * A gun for the World scenes: a click fires a ball from the camera at what the pointer's ray hits
 * (World.castRay finds it; the ball is launched on the parabola through that point), spent balls
 * are taken out of the world (World.removeBody: after LIFE seconds, once at rest, or fallen off),
 * and the contact events of the balls (World.drainContactEvents) flash where they strike and knock
 * through the page's sound.
 */
import { RayHit, RigidBody, World, type Body, type ContactEvent } from '@sinew/constraints';
import type { Model } from '@sinew/featherstone';
import type { PointerRay, SceneView, Vec3 } from '../sim/scene.js';

/** Ball radius (m), mass (kg) and muzzle speed (m/s): 2.5 kg at 24 m/s carries 60 N s. */
export const SHOT_RADIUS = 0.08, SHOT_MASS = 2.5, SHOT_SPEED = 24;
/** Seconds a ball lives at most; a ball slower than REST_SPEED after REST_AGE seconds is spent too. */
const LIFE = 4, REST_AGE = 1, REST_SPEED = 0.05;
/** How far a ray looks for a target (m), and where a ball starts, ahead of the camera (m). */
const RANGE = 80, MUZZLE = 0.4;
/** A flash lasts this long (s, simulated) and grows to this radius (m). */
const FLASH_TIME = 0.3, FLASH_RADIUS = 0.16;
/** The slowest strike that flashes and sounds (m/s). */
const MIN_STRIKE_SPEED = 1;

interface Shot { body: Body; id: number; born: number }
interface Strike { id: number; p: Vec3; strength: number; time: number }
interface Aim { from: Vec3; to: Vec3; until: number; hitBody: boolean }

export class Gun {
  /** Balls fired, balls removed as spent, strikes seen (contact events of a ball beginning at speed). */
  fired = 0;
  removed = 0;
  strikes = 0;
  private shots: Shot[] = [];
  private flashes: Strike[] = [];
  private aims: Aim[] = [];
  private readonly hit = new RayHit();
  private readonly model: Model;
  private readonly line = new Float64Array(6);
  private readonly isShot = (body: number) => this.shots.some((s) => s.body.index === body);

  constructor(readonly world: World, options: { radius?: number; mass?: number } = {}) {
    this.model = RigidBody.sphere(options.radius ?? SHOT_RADIUS, { mass: options.mass ?? SHOT_MASS, friction: 0.5, restitution: 0.2 });
    world.contactEvents = true;
  }

  /** The balls in flight. */
  get live(): number {
    return this.shots.length;
  }

  /** The bodies of the balls in flight. */
  get balls(): Body[] {
    return this.shots.map((s) => s.body);
  }

  /** Whether a body is one of the gun's balls. */
  owns(body: Body | null): boolean {
    return body !== null && this.shots.some((s) => s.body === body);
  }

  /**
   * Fires a ball from `ray.origin` (MUZZLE metres along the ray) at the first thing the ray meets
   * (World.castRay, balls in flight not counted) or, when it meets nothing, at a point RANGE away.
   * Returns the point aimed at and what it is: a body's index, or -1 (static or nothing).
   */
  fire(ray: PointerRay, time: number): { point: Vec3; body: number } {
    const o = ray.origin, d = ray.direction;
    const h = this.world.castRay(o, d, RANGE, { predicate: (body) => body < 0 || !this.isShot(body) }, this.hit);
    const target: Vec3 = h ? [h.point[0], h.point[1], h.point[2]] : [o[0] + RANGE * d[0], o[1] + RANGE * d[1], o[2] + RANGE * d[2]];
    const start: Vec3 = [o[0] + MUZZLE * d[0], o[1] + MUZZLE * d[1], o[2] + MUZZLE * d[2]];
    this.fireAt(start, target, time, SHOT_SPEED, !!h && h.body >= 0);
    return { point: target, body: h ? h.body : -1 };
  }

  /**
   * Fires a ball from `start` on the parabola through `target`, covering the straight distance at
   * `speed` (m/s); `hitBody` marks the aim line as aimed at a body. Returns the ball.
   */
  fireAt(start: Vec3, target: Vec3, time: number, speed = SHOT_SPEED, hitBody = true): Body {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`Gun.fireAt: speed must be a positive number of m/s, got ${speed}`);
    // the parabola from start through target: v0 = (target - start) / T - g T / 2
    const dist = Math.hypot(target[0] - start[0], target[1] - start[1], target[2] - start[2]);
    const T = Math.max(dist, 1e-3) / speed;
    const g = this.world.gravity;
    const v: Vec3 = [0, 1, 2].map((k) => (target[k] - start[k]) / T - 0.5 * g[k] * T) as unknown as Vec3;
    const id = ++this.fired;
    const body = this.world.addBody(this.model, { name: `shot${id}`, position: start, linearVelocity: v });
    this.shots.push({ body, id, born: time });
    this.aims.push({ from: [start[0], start[1], start[2]], to: [target[0], target[1], target[2]], until: time + 0.25, hitBody });
    return body;
  }

  /**
   * After each step: reads the world's contact events (each handed on to `each` too, as one
   * drain empties the queue), notes the balls' strikes, and removes spent balls.
   */
  afterStep(time: number, each?: (e: ContactEvent) => void): void {
    this.world.drainContactEvents((e) => {
      if (e.type === 'began' && e.speed >= MIN_STRIKE_SPEED && (this.owns(e.bodyA) || this.owns(e.bodyB))) {
        this.strikes++;
        this.flashes.push({ id: this.strikes, p: [e.point[0], e.point[1], e.point[2]], strength: Math.min(1, e.speed / SHOT_SPEED), time });
      }
      each?.(e);
    });
    for (let i = this.shots.length - 1; i >= 0; i--) {
      const s = this.shots[i], q = s.body.state.q, qd = s.body.state.qd;
      const age = time - s.born;
      const speed = Math.hypot(qd[3], qd[4], qd[5]);
      if (age > LIFE || q[1] < -2 || (age > REST_AGE && speed < REST_SPEED)) {
        this.world.removeBody(s.body);
        this.shots.splice(i, 1);
        this.removed++;
      }
    }
    this.flashes = this.flashes.filter((f) => time - f.time < FLASH_TIME);
    this.aims = this.aims.filter((a) => time < a.until);
  }

  /** Draws the balls, the aim lines of the last shots, and a flash (and a knock) at each strike. */
  draw(view: SceneView, time: number): void {
    for (const s of this.shots) view.articulation(`shot${s.id}`, this.model, s.body.state, { colors: [0xffd166] });
    this.aims.forEach((a, i) => {
      this.line.set(a.from, 0);
      this.line.set(a.to, 3);
      view.lines(`aim${i}`, this.line, 1, 0xffd166, true);
    });
    this.flashes.forEach((f, i) => {
      const k = Math.min(1, Math.max(0, (time - f.time) / FLASH_TIME));
      view.marker(`flash${i}`, f.p[0], f.p[1], f.p[2], 0.03 + FLASH_RADIUS * k * (0.4 + 0.6 * f.strength), 0xfff1a8);
      view.sound?.(f.id, f.strength);
    });
  }

  /** A line for the page's readout. */
  info(): string {
    return `shots        ${this.fired} fired, ${this.shots.length} in flight, ${this.removed} removed, ${this.strikes} strikes`;
  }
}
