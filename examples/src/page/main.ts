/** The examples page: a scene menu (URL hash), controls, the 3D view and the plots. */
import { DEFAULT_SCENE, sceneEntries } from '../scenes/index.js';
import { SceneRunner } from '../sim/runner.js';
import { DEFAULT_SETTINGS, type SimSettings } from '../sim/scene.js';
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
const plot = new PlotPanel(document.getElementById('plot') as HTMLCanvasElement);
const settings: SimSettings = { ...DEFAULT_SETTINGS };

let runner!: SceneRunner; // undefined only if the first scene fails to build
let playing = true;
let timeScale = 1;
let failed = false;
let showForces = false;
// Real-time factor: simulated seconds per wall second, smoothed.
let speed = 0;

function fail(e: unknown): void {
  failed = true;
  playing = false;
  panel.setPlaying(false);
  const message = e instanceof Error ? e.message : String(e);
  panel.showError(`${message}\n(Reset to start over.)`);
  console.error(e);
}

function guarded(f: () => void): void {
  if (failed) return;
  try { f(); } catch (e) { fail(e); }
}

function sampleAndDraw(): void {
  plot.sample(runner.time, runner.latest.series);
  plot.draw();
}

function load(name: string): void {
  const entry = entries.find((e) => e.name === name);
  if (!entry) {
    history.replaceState(null, '', `#${DEFAULT_SCENE}`);
    load(DEFAULT_SCENE);
    return;
  }
  view.clear();
  failed = false;
  try {
    runner = new SceneRunner(entry.create(), { settings, maxStepsPerAdvance: 48 });
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
  reset() {
    view.clear();
    failed = false;
    panel.showError(null);
    guarded(() => { runner.reset(); plot.reset(runner.scene.plots); sampleAndDraw(); });
  },
  timeScale(s) { timeScale = s; },
  solverIterations(n) {
    settings.solverIterations = n; // for the scenes loaded later
    runner.settings.solverIterations = n; // read live by the running scene
  },
  showShapes(on) { view.showShapes = on; },
  showForces(on) { showForces = on; view.showOverlays = on; },
});
view.showOverlays = showForces;

const hook = installHook(entries.map((e) => e.name), canvas, () => runner, () => playing);

window.addEventListener('hashchange', () => load(location.hash.slice(1) || DEFAULT_SCENE));
load(location.hash.slice(1) || DEFAULT_SCENE);
panel.setPlaying(playing);

let last = performance.now();
function frame(now: number): void {
  if (runner === undefined) {
    requestAnimationFrame(frame);
    return;
  }
  const wall = Math.min((now - last) / 1000, 0.1);
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
  panel.update(runner, playing && !failed, speed, quality);
  hook.time = runner.time;
  hook.steps = runner.steps;
  hook.frames++;
  hook.ready = true;
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
