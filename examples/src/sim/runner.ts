/**
 * Runs a scene at its fixed time step: the page calls advance() once per animation frame with the
 * elapsed wall time, the headless demo calls step() in a loop. Both see the same numbers.
 */
import { DEFAULT_SETTINGS, type Scene, type SceneContext, type SceneStats, type SimSettings } from './scene.js';

/** Files loaded for scenes, by path under examples/static. */
export type AssetStore = ReadonlyMap<string, Uint8Array>;

export interface RunnerOptions {
  settings?: Partial<SimSettings>;
  /** Most steps taken by one advance() call; beyond it the simulation runs slower than real time. */
  maxStepsPerAdvance?: number;
  /**
   * Wall milliseconds one advance() may spend stepping: after the first step, it stops when the
   * budget is spent (a heavy scene then runs slower than real time, and the page stays responsive).
   */
  budgetMs?: number;
  /** The files the scene's `assets` name. */
  assets?: AssetStore;
}

/** Paths a scene needs that are not in the store. */
export function missingAssets(scene: Scene, assets: AssetStore | undefined): string[] {
  return (scene.assets ?? []).filter((p) => !assets?.has(p));
}

export class SceneRunner {
  readonly scene: Scene;
  readonly settings: SimSettings;
  /** Simulated seconds since the last reset. */
  time = 0;
  steps = 0;
  /** Wall time of the last step() in milliseconds, and its exponential average. */
  lastStepMs = 0;
  averageStepMs = 0;
  /** Stats after the last step (or after setup). */
  latest: SceneStats;
  private readonly maxStepsPerAdvance: number;
  private readonly budgetMs: number;
  private readonly context: SceneContext;
  private pending = 0;

  constructor(scene: Scene, options: RunnerOptions = {}) {
    this.scene = scene;
    this.settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.maxStepsPerAdvance = options.maxStepsPerAdvance ?? 64;
    this.budgetMs = options.budgetMs ?? Infinity;
    const assets = options.assets;
    const settings = this.settings;
    this.context = {
      settings,
      asset(path: string): Uint8Array {
        const bytes = assets?.get(path);
        if (!bytes) throw new Error(`scene "${scene.name}": asset "${path}" was not loaded (list it in the scene's assets)`);
        return bytes;
      },
    };
    scene.setup(this.context);
    this.latest = scene.stats();
  }

  /** Rebuilds the scene from scratch and sets the clock to zero. */
  reset(): void {
    this.scene.setup(this.context);
    this.time = 0;
    this.steps = 0;
    this.pending = 0;
    this.lastStepMs = 0;
    this.averageStepMs = 0;
    this.latest = this.scene.stats();
  }

  /** One step of the scene's time step. */
  step(): SceneStats {
    const dt = this.scene.timeStep;
    const t0 = performance.now();
    this.scene.step(dt);
    const ms = performance.now() - t0;
    this.lastStepMs = ms;
    this.averageStepMs = this.steps === 0 ? ms : 0.95 * this.averageStepMs + 0.05 * ms;
    this.steps++;
    this.time = this.steps * dt;
    this.latest = this.scene.stats();
    return this.latest;
  }

  /**
   * Advances by `seconds` of simulated time in whole steps, carrying the remainder to the next
   * call. Returns the number of steps taken.
   */
  advance(seconds: number): number {
    this.pending += Math.max(0, seconds);
    const dt = this.scene.timeStep;
    const t0 = performance.now();
    let n = 0, capped = false;
    while (this.pending >= dt) {
      if (n >= this.maxStepsPerAdvance || (n > 0 && performance.now() - t0 > this.budgetMs)) { capped = true; break; }
      this.step();
      this.pending -= dt;
      n++;
    }
    if (capped) this.pending = Math.min(this.pending, dt);
    return n;
  }
}
