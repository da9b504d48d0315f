/** The examples page: a scene menu (URL hash), controls, the 3D view and the plots. */
import { DEFAULT_SCENE, sceneEntries } from '../scenes/index.js';
import { missingAssets, SceneRunner } from '../sim/runner.js';
import { DEFAULT_SETTINGS, type Scene, type SimSettings } from '../sim/scene.js';
import { Panel } from './panel.js';
import { PlotPanel } from './plot.js';
import { chooseQuality } from './quality.js';
import { Stage } from './stage.js';
import { installHook } from './test-hook.js';
import { ThreeView } from './three-view.js';

const entries = sceneEntries();
const canvas = document.getElementById('view') as HTMLCanvasElement;
const quality = chooseQuality(location.search);
const stage = new Stage(canvas, quality);
const view = new ThreeView(stage.content);
// the target in the middle of the space right of the side panel, a little above the middle
// (the plots take the lower right); narrow screens stack the panels and keep the centre
stage.setFocus((w, h) => {
  if (w <= 760) return null;
  const right = (document.getElementById('panel') as HTMLElement).getBoundingClientRect().right;
  return { x: (right + w) / 2, y: 0.42 * h };
});
const plot = new PlotPanel(document.getElementById('plot') as HTMLCanvasElement);
const settings: SimSettings = { ...DEFAULT_SETTINGS };
/** Files scenes read (BVH, glTF), fetched once, by path under the site root. */
const assets = new Map<string, Uint8Array>();
/** Wall milliseconds of stepping per animation frame at most: a heavy scene slows down instead of freezing the page. */
const STEP_BUDGET_MS = 30;

let runner!: SceneRunner; // undefined only if the first scene fails to build
let playing = true;
let timeScale = 1;
let failed = false;
let showForces = false;
// Real-time factor: simulated seconds per wall second, smoothed; wall time per frame, smoothed.
let speed = 0;
let frameMs = 0;
let loadToken = 0;

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
  stage.lookFrom(runner.scene.camera.position, runner.scene.camera.target);
  panel.showScene(runner);
  plot.reset(runner.scene.plots);
  sampleAndDraw();
  hook.scene = name;
}

function resetScene(): void {
  view.clear();
  failed = false;
  dragging = false;
  stage.controls.enabled = true;
  panel.showError(null);
  guarded(() => { runner.reset(); plot.reset(runner.scene.plots); sampleAndDraw(); });
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
  timeScale(s) { timeScale = s; },
  solverIterations(n) {
    settings.solverIterations = n; // for the scenes loaded later
    runner.settings.solverIterations = n; // read live by the running scene
  },
  showShapes(on) { view.showShapes = on; },
  showForces(on) { showForces = on; view.showOverlays = on; },
  sceneControl(control, value) {
    if (!runner) return;
    guarded(() => runner.scene.control?.(control.id, value));
    if (control.kind !== 'button' && control.resets) resetScene();
  },
});
view.showOverlays = showForces;

// The pointer: a scene that takes a press (a drag, a push, a hit) keeps the camera still until the
// release. Listening on the window in the capture phase runs before the orbit controls' own handler.
let dragging = false;
window.addEventListener('pointerdown', (ev) => {
  if (ev.target !== canvas || ev.button !== 0 || !runner?.scene.pointerDown || failed) return;
  let taken = false;
  guarded(() => { taken = runner.scene.pointerDown!(stage.ray(ev.clientX, ev.clientY)); });
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

const hook = installHook(entries.map((e) => e.name), canvas, () => runner, () => playing, (x, y, z) => stage.project(x, y, z));

window.addEventListener('hashchange', () => void load(location.hash.slice(1) || DEFAULT_SCENE));
void load(location.hash.slice(1) || DEFAULT_SCENE);
panel.setPlaying(playing);

let last = performance.now();
function frame(now: number): void {
  if (runner === undefined) {
    requestAnimationFrame(frame);
    return;
  }
  const wall = Math.min((now - last) / 1000, 0.1);
  frameMs = frameMs === 0 ? now - last : 0.9 * frameMs + 0.1 * (now - last);
  last = now;
  if (playing && !failed) {
    const before = runner.time;
    guarded(() => runner.advance(wall * timeScale));
    if (wall > 0) speed = 0.9 * speed + 0.1 * ((runner.time - before) / wall);
    sampleAndDraw();
  } else {
    speed = 0;
  }
  view.beginFrame();
  guarded(() => runner.scene.sync(view));
  view.endFrame();
  stage.render();
  panel.update(runner, playing && !failed, speed, quality, frameMs);
  hook.time = runner.time;
  hook.steps = runner.steps;
  hook.frames++;
  hook.ready = true;
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
