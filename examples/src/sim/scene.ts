/**
 * The contract between a scene and whatever runs it: the page (three.js, in a browser) or the
 * headless demo (Node). A scene holds the simulation only; it never imports three.js. It tells a
 * SceneView what to draw, and the view decides how (meshes on the page, nothing or a pose record
 * in Node).
 */
import type { Model, ShapeDesc, State } from '@sinew/featherstone';

export type Vec3 = readonly [number, number, number];

/** Settings a runner passes to its scene; the page changes them live, so read them in step(). */
export interface SimSettings {
  /** Iterations of the constraint solver, for scenes that have one. */
  solverIterations: number;
}

export const DEFAULT_SETTINGS: Readonly<SimSettings> = Object.freeze({ solverIterations: 30 });

export interface SceneContext {
  readonly settings: Readonly<SimSettings>;
}

/** One plot panel on the page: the named series of SceneStats.series drawn together. */
export interface PlotSpec {
  readonly title: string;
  readonly unit: string;
  readonly series: readonly string[];
}

/** What a scene reports after each step. Maxima are over the scene's current state. */
export interface SceneStats {
  readonly links: number;
  readonly contacts: number;
  /** Joules. */
  readonly kineticEnergy: number;
  /** Deepest interpenetration of any contact, metres (0 without contacts). */
  readonly maxPenetration: number;
  /** Largest distance of any joint beyond its limit, radians or metres (0 within limits). */
  readonly maxLimitViolation: number;
  /** Named values plotted over time on the page and printed by the headless demo. */
  readonly series: Readonly<Record<string, number>>;
}

export interface BodyStyle {
  /** Colours (0xRRGGBB) cycled over the links. */
  readonly colors?: readonly number[];
}

/**
 * Immediate-mode drawing: sync() calls these every frame with the current state, and the view
 * creates what it draws the first time it sees a key. Nothing is retained by the scene.
 */
export interface SceneView {
  /** An articulated body drawn from its model's shapes at the poses of `state` (after forwardKinematics). */
  articulation(key: string, model: Model, state: State, style?: BodyStyle): void;
  /**
   * A static shape in world coordinates (stairs, obstacles). The stage always shows a floor at
   * y = 0, so a ground plane there need not be drawn.
   */
  staticShape(key: string, shape: ShapeDesc, color?: number): void;
  /**
   * Force arrows: `data` holds 6 numbers per force, the world point then the force (newtons);
   * drawn `metresPerNewton` long, in `color` (0xRRGGBB).
   */
  forces(key: string, data: ArrayLike<number>, count: number, metresPerNewton: number, color?: number): void;
  /**
   * Contact points: 7 numbers per contact, the world point, the unit normal, the normal force
   * (newtons), the force drawn `metresPerNewton` long along the normal.
   */
  contacts(key: string, data: ArrayLike<number>, count: number, metresPerNewton?: number): void;
}

/**
 * A scene: one small module, registered in scenes/index.ts. setup() builds (or rebuilds, on
 * reset) everything from scratch; step() advances by exactly `timeStep` seconds.
 */
export interface Scene {
  /** Identifier used in the URL hash (#name) and by `npm start -- demo --scene name`. */
  readonly name: string;
  readonly title: string;
  /** One or two sentences on what the scene shows. */
  readonly summary: string;
  /** Seconds advanced by one step() (the scene may sub-step inside). */
  readonly timeStep: number;
  /** Where the page's camera starts. */
  readonly camera: { readonly position: Vec3; readonly target: Vec3 };
  readonly plots: readonly PlotSpec[];
  /** True when the scene has a constraint solver that reads settings.solverIterations. */
  readonly usesSolver: boolean;
  setup(ctx: SceneContext): void;
  step(dt: number): void;
  sync(view: SceneView): void;
  stats(): SceneStats;
}

/** Scenes are registered as factories so that every runner owns a fresh instance. */
export type SceneFactory = () => Scene;
