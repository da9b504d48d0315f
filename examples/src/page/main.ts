/** The examples page: a scene menu (URL hash), controls, the 3D view, the readout and the plots. */
import { DEFAULT_SCENE, sceneEntries } from '../scenes/index.js';
import { missingAssets, SceneRunner } from '../sim/runner.js';
import { DEFAULT_SETTINGS, type Scene, type SimSettings } from '../sim/scene.js';
import { CameraRig } from './camera-rig.js';
import { freeRect, type Rect } from './free-rect.js';
import { Panel } from './panel.js';
import { PlotPanel } from './plot.js';
import { chooseQuality } from './quality.js';
import { RateMeter } from './rate.js';
import { Stage } from './stage.js';
import { installHook } from './test-hook.js';
import { ThreeView } from './three-view.js';

const entries = sceneEntries();
const canvas = document.getElementById('view') as HTMLCanvasElement;
const quality = chooseQuality(location.search);
const stage = new Stage(canvas, quality);
const view = new ThreeView(stage.content);
const rig = new CameraRig(stage.camera, stage.controls);
const plotCanvas = document.getElementById('plot') as HTMLCanvasElement;
const plot = new PlotPanel(plotCanvas);
const settings: SimSettings = { ...DEFAULT_SETTINGS };
/** Files scenes read (BVH, glTF), fetched once, by path under the site root. */
const assets = new Map<string, Uint8Array>();
/** Wall milliseconds of stepping per animation frame at most: a heavy scene slows down instead of freezing the page. */
const STEP_BUDGET_MS = 30;
/** Longest wall time one frame may simulate (a game's cap after a stall): beyond it the simulation falls behind, and the readout says so. */
const MAX_FRAME_SECONDS = 0.1;
/** A narrow window (a phone): panel folded, plots off at first. */
const narrow = window.matchMedia('(max-width: 760px)').matches;

let runner!: SceneRunner; // undefined only if the first scene fails to build
let playing = true;
let timeScale = 1;
let failed = false;
let showForces = false;
let loadToken = 0;
/** What a click on the view does in a scene that can shoot: fire a ball, or the scene's own action (push, drag). */
let clickShoots = true;
const speed = new RateMeter(); // simulated time per wall time
const frames = new RateMeter(); // frames per second

function fail(e: unknown): void {
  failed = true;
  playing = false;
  panel.setPlaying(false);
  const message = e instanceof Error ? e.message : String(e);
  panel.showError(`${message}\n(Reset to start over.)`);
  console.error(e);
}
view.onError = fail;

function guarded(f: () => void): void {
  if (failed) return;
  try { f(); } catch (e) { fail(e); }
}

function sampleAndDraw(): void {
  plot.sample(runner.time, runner.latest.series);
  plot.draw();
}

// The part of the window no panel covers: the camera frames the subject there.
let free: Rect = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
const obstacles = ['panel', 'hud', 'plot'].map((id) => document.getElementById(id) as HTMLElement);
function layout(): void {
  const rects = obstacles.filter((el) => !el.hidden).map((el) => el.getBoundingClientRect());
  free = freeRect({ left: 0, top: 0, right: stage.width, bottom: stage.height }, rects);
}
const observer = new ResizeObserver(() => layout());
for (const el of obstacles) observer.observe(el);
window.addEventListener('resize', () => layout());

async function fetchAssets(scene: Scene): Promise<void> {
  await Promise.all(missingAssets(scene, assets).map(async (path) => {
    const res = await fetch(path);
    if (!res.ok) throw new Error(`scene "${scene.name}": could not load ${path} (HTTP ${res.status})`);
    assets.set(path, new Uint8Array(await res.arrayBuffer()));
  }));
}

async function load(name: string): Promise<void> {
  const entry = entries.find((e) => e.name === name);
  if (!entry) {
    history.replaceState(null, '', `#${DEFAULT_SCENE}`);
    return load(DEFAULT_SCENE);
  }
  const token = ++loadToken;
  const scene = entry.create();
  try {
    await fetchAssets(scene);
  } catch (e) {
    if (token === loadToken) fail(e);
    return;
  }
  if (token !== loadToken) return; // another scene was chosen meanwhile
  view.clear();
  failed = false;
  dragging = false;
  try {
    runner = new SceneRunner(scene, { settings, maxStepsPerAdvance: 48, budgetMs: STEP_BUDGET_MS, assets });
  } catch (e) {
    fail(e);
    return;
  }
  view.subject.keys = scene.subject ?? null;
  rig.setScene(scene.camera.position, scene.camera.target);
  clickShoots = (scene.click ?? 'shoot') === 'shoot';
  panel.showScene(runner);
  // each scene starts with its own choice of shapes: skinned characters hide theirs
  const shapes = scene.shapesShown ?? true;
  panel.setShapesShown(shapes);
  view.showShapes = shapes;
  panel.setClick(scene.shoot && scene.pointerDown ? (clickShoots ? 'shoot' : 'pointer') : null);
  plot.reset(scene.plots);
  speed.clear();
  sampleAndDraw();
  hook.scene = name;
  layout();
}

function resetScene(): void {
  view.clear();
  failed = false;
  dragging = false;
  stage.controls.enabled = true;
  panel.showError(null);
  speed.clear();
  guarded(() => { runner.reset(); plot.reset(runner.scene.plots); sampleAndDraw(); });
  view.subject.keys = runner.scene.subject ?? null; // a reset may change the bodies (the pile's count)
  rig.home();
}

const panel = new Panel(entries, {
  togglePlay() {
    if (failed) return;
    playing = !playing;
    panel.setPlaying(playing);
  },
  step() {
    playing = false;
    panel.setPlaying(false);
    guarded(() => { runner.step(); sampleAndDraw(); });
  },
  reset: resetScene,
  timeScale(s) { timeScale = s; speed.clear(); },
  solverIterations(n) {
    settings.solverIterations = n; // for the scenes loaded later
    runner.settings.solverIterations = n; // read live by the running scene
  },
  showShapes(on) { view.showShapes = on; },
  showForces(on) { showForces = on; view.showOverlays = on; },
  showPlots(on) { plot.shown = on; sampleAndDraw(); layout(); },
  frame() { rig.home(); },
  layout() { layout(); },
  click(mode) { clickShoots = mode === 'shoot'; },
  sceneControl(control, value) {
    if (!runner) return;
    guarded(() => runner.scene.control?.(control.id, value));
    if (control.kind !== 'button' && control.resets) resetScene();
  },
});
view.showOverlays = showForces;
plot.shown = !narrow;
panel.setPlotsShown(!narrow);
if (narrow) panel.setCollapsed(true);

// The pointer: a scene that takes a press (a drag, a push, a hit) keeps the camera still until the
// release. Listening on the window in the capture phase runs before the orbit controls' own handler.
// A click that shoots fires at once (the camera stays free: a drag after it still orbits).
let dragging = false;
window.addEventListener('pointerdown', (ev) => {
  if (ev.target !== canvas || ev.button !== 0 || !runner || failed) return;
  view.soundOn = true; // a user gesture: the page may play sound from now on
  const scene = runner.scene;
  const ray = stage.ray(ev.clientX, ev.clientY);
  if (scene.shoot && (clickShoots || !scene.pointerDown)) {
    guarded(() => scene.shoot!(ray));
    return;
  }
  if (!scene.pointerDown) return;
  let taken = false;
  guarded(() => { taken = scene.pointerDown!(ray); });
  if (!taken) return;
  dragging = true;
  stage.controls.enabled = false;
  canvas.setPointerCapture(ev.pointerId);
}, { capture: true });
window.addEventListener('pointermove', (ev) => {
  if (!dragging) return;
  guarded(() => runner.scene.pointerMove?.(stage.ray(ev.clientX, ev.clientY)));
});
const release = () => {
  if (!dragging) return;
  dragging = false;
  stage.controls.enabled = true;
  guarded(() => runner.scene.pointerUp?.());
};
window.addEventListener('pointerup', release);
window.addEventListener('pointercancel', release);

const hook = installHook(entries.map((e) => e.name), canvas, () => runner, () => playing, (x, y, z) => stage.project(x, y, z), () => view.subject.box, () => view.probe());

window.addEventListener('hashchange', () => void load(location.hash.slice(1) || DEFAULT_SCENE));
void load(location.hash.slice(1) || DEFAULT_SCENE);
panel.setPlaying(playing);
layout();

// The readout in the corner: frames per second, the real-time ratio, the step's wall time, the clock.
const hud = {
  fps: document.getElementById('hud-fps') as HTMLElement,
  ratio: document.getElementById('hud-ratio') as HTMLElement,
  step: document.getElementById('hud-step') as HTMLElement,
  time: document.getElementById('hud-time') as HTMLElement,
};
function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}
function updateHud(): void {
  const f = frames.fps();
  setText(hud.fps, f === null ? '– fps' : `${f.toFixed(f < 10 ? 2 : 1)} fps`);
  const r = speed.ratio();
  setText(hud.ratio, !playing || failed ? 'paused' : r === null ? '–' : `${r.toFixed(r < 1 ? 3 : 2)}× real time`);
  hud.ratio.classList.toggle('slow', playing && r !== null && r < 0.95 * timeScale);
  setText(hud.step, `step ${runner.averageStepMs.toFixed(runner.averageStepMs < 10 ? 2 : 1)} ms`);
  setText(hud.time, `${runner.time.toFixed(1)} s`);
}

/**
 * Draws the scene's state: the view follows the scene's sync(), the camera its subject, `dt` wall
 * seconds after the last call; `render` false skips the GPU (the test hook's fast-forward).
 */
function present(dt: number, render: boolean): void {
  view.beginFrame();
  guarded(() => runner.scene.sync(view));
  view.endFrame();
  const box = view.subject.empty ? null : view.subject.box;
  rig.update(box, free, stage.width, stage.height, dt);
  if (!render) return;
  stage.render(box ? 0.5 * Math.hypot(box[3] - box[0], box[4] - box[1], box[5] - box[2]) : 2);
  panel.update(runner, quality);
  updateHud();
}

let last = -1;
function frame(now: number): void {
  requestAnimationFrame(frame);
  const dt = last < 0 ? 0 : Math.max(0, now - last) / 1000; // animation-frame stamps: never negative
  last = now;
  frames.sample(now, 0);
  if (runner === undefined) return;
  if (playing && !failed) {
    guarded(() => runner.advance(Math.min(dt, MAX_FRAME_SECONDS) * timeScale));
    speed.sample(now, runner.time);
    sampleAndDraw();
  } else {
    speed.clear();
  }
  present(dt, true);
  hook.time = runner.time;
  hook.steps = runner.steps;
  hook.wall = now;
  hook.free = free;
  hook.speedSpan = speed.span();
  hook.frames++;
  hook.ready = true;
}
requestAnimationFrame(frame);

/**
 * For tests: runs the scene on to simulated time `t` as a page at 60 frames per second would (one
 * 1/60 s step, the scene drawn into the view and the camera moved, each frame), without rendering
 * those frames; the next animation frame renders the result. The real-time ratio starts over.
 */
hook.fastForward = (t: number) => {
  while (runner.time < t - 1e-9 && !failed) {
    guarded(() => { runner.step(); plot.sample(runner.time, runner.latest.series); });
    present(1 / 60, false);
  }
  speed.clear();
  hook.time = runner.time;
  hook.steps = runner.steps;
  return runner.time;
};
