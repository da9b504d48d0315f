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
  /**
   * Bytes of a file the scene lists in `assets` (a path under examples/static, e.g.
   * 'data/cmu_02_01_walk.bvh'): fetched by the page, read from disk by the headless demo, always
   * before setup(). Throws naming the file when it was not loaded.
   */
  asset(path: string): Uint8Array;
}

/** One plot panel on the page: the named series of SceneStats.series drawn together. */
export interface PlotSpec {
  readonly title: string;
  readonly unit: string;
  readonly series: readonly string[];
  /** Logarithmic vertical axis (for errors spanning decades); values <= 0 are left out. */
  readonly log?: boolean;
  /** CSS colours of the series (default: the page's palette), e.g. to match the bodies they describe. */
  readonly colors?: readonly string[];
}

/**
 * A control of one scene, shown on the page under the scene's summary. The scene keeps the value
 * (it survives reset); the page calls Scene.control(id, value) when the user changes it.
 */
export type SceneControl =
  | {
      readonly kind: 'slider';
      readonly id: string;
      readonly label: string;
      readonly min: number;
      readonly max: number;
      readonly step: number;
      readonly value: number;
      /** Shown after the value, e.g. 's'. */
      readonly unit?: string;
      /** Changing it rebuilds the scene (the page resets it). */
      readonly resets?: boolean;
    }
  | {
      /** One of a few named options (a segmented switch). */
      readonly kind: 'choice';
      readonly id: string;
      readonly label: string;
      readonly options: readonly string[];
      readonly value: string;
      readonly resets?: boolean;
    }
  | { readonly kind: 'button'; readonly id: string; readonly label: string };

/** A ray from the camera through the pointer, in world coordinates (direction of unit length). */
export interface PointerRay {
  readonly origin: Vec3;
  readonly direction: Vec3;
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
  /** Opacity of the shapes (default 1, 0.4 for an overlay), e.g. to show collision capsules inside a skinned mesh. */
  readonly opacity?: number;
  /**
   * The body's collision shapes over a skinned mesh that shows it (SceneView.skinnedMesh): drawn
   * translucent and seen through the skin while the page's "show shapes" is on, and not at all
   * (no skeleton either) while it is off.
   */
  readonly overlay?: boolean;
}

/**
 * A bone of a retargeted skin (see scenes/skin-retarget.ts): the glTF node, the link it follows,
 * and the transform that carries its rest pose in the file's scene onto the model's neutral pose
 * (column-major 4x4, world coordinates): bone(t) = link(t) link(neutral)^-1 restToModel bone(rest).
 */
export interface SkinBone {
  readonly node: number;
  readonly link: number;
  readonly restToModel: ArrayLike<number>;
}

/** A skinned mesh (glTF) whose bones follow the links of an articulated body. */
export interface SkinBinding {
  /** The glTF file, a path under examples/static (the page loads it with three.js). */
  readonly asset: string;
  /**
   * glTF node index of the bone each link follows (-1: none). The link frames in the model's
   * neutral pose must be the bones' rest frames in the file's scene (as ragdollFromSkeleton makes
   * them), times `scale`. Ignored when `bones` is given.
   */
  readonly linkNodes?: readonly number[];
  /** Every bone with its link and rest-to-model transform, for a skin retargeted onto a model built otherwise. */
  readonly bones?: readonly SkinBone[];
  /** Metres per scene unit used when the skeleton was imported (default 1). */
  readonly scale?: number;
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
  /** Line segments in world coordinates: 6 numbers per segment (start, end). Drawn over the shapes when `overlay`. */
  lines(key: string, data: ArrayLike<number>, count: number, color?: number, overlay?: boolean): void;
  /** A small sphere at a world point (a target, a grab point, an impact). */
  marker(key: string, x: number, y: number, z: number, radius: number, color?: number): void;
  /** A skinned mesh following the links of a body (the page only; Node ignores it). */
  skinnedMesh(key: string, binding: SkinBinding, model: Model, state: State): void;
  /** An impact's sound (strength 0..1), played once per id where the page can play sound (Node ignores it). */
  sound?(id: number, strength: number): void;
}

/**
 * A scene: one small module, registered in scenes/index.ts. setup() builds (or rebuilds, on
 * reset) everything from scratch; step() advances by exactly `timeStep` seconds.
 */
export interface Scene {
  /** Identifier used in the URL hash (#name) and by `npm start -- demo --scene name`. */
  readonly name: string;
  readonly title: string;
  /** One or two plain sentences: what one sees, and what to try. */
  readonly summary: string;
  /** The physics behind it, in its own terms (shown folded, under "The physics"). */
  readonly details?: string;
  /** Seconds advanced by one step() (the scene may sub-step inside). */
  readonly timeStep: number;
  /**
   * The direction the page's camera looks from (position - target) and where it starts; the page
   * then frames the subject and follows it.
   */
  readonly camera: { readonly position: Vec3; readonly target: Vec3 };
  /**
   * Keys of the articulations (SceneView.articulation) the camera frames and follows, e.g.
   * ['walker']; absent: every articulation drawn. See sim/subject.ts.
   */
  readonly subject?: readonly string[];
  readonly plots: readonly PlotSpec[];
  /** True when the scene has a constraint solver that reads settings.solverIterations. */
  readonly usesSolver: boolean;
  /** Files under examples/static that setup() reads through ctx.asset(). */
  readonly assets?: readonly string[];
  /** Scene-specific controls (sliders, switches, buttons). */
  readonly controls?: readonly SceneControl[];
  /** What the mouse does in this scene, shown on the page. */
  readonly hint?: string;
  setup(ctx: SceneContext): void;
  step(dt: number): void;
  sync(view: SceneView): void;
  stats(): SceneStats;
  /** A control changed (see `controls`): a number for sliders, the option for choices, '' for buttons. */
  control?(id: string, value: number | string): void;
  /** Extra lines for the page's readout (e.g. a timing breakdown). */
  info?(): string[];
  /** Pointer pressed on the 3D view: return true to take the drag (the camera then stays put until up). */
  pointerDown?(ray: PointerRay): boolean;
  /**
   * Fires a ball from the ray's origin (the camera) at what the ray hits (the scene aims with
   * World.castRay); the page calls it on a click in scenes that have it, when "click" is set to shoot.
   */
  shoot?(ray: PointerRay): void;
  /** What a click does first in this scene when it has both: 'shoot' (default) or the scene's own 'pointer' action. */
  readonly click?: 'shoot' | 'pointer';
  /**
   * Whether the page's "show shapes" starts on when the scene is loaded (default true); false in
   * scenes whose bodies are skinned meshes with their shapes as an overlay (BodyStyle.overlay).
   */
  readonly shapesShown?: boolean;
  /** What the scene's own pointer action is called on the page's click switch ('pushes', 'drags'). */
  readonly pointerLabel?: string;
  pointerMove?(ray: PointerRay): void;
  pointerUp?(): void;
}

/** Scenes are registered as factories so that every runner owns a fresh instance. */
export type SceneFactory = () => Scene;
