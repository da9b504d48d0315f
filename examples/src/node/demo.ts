/**
 * The headless demo: runs a scene in Node without a browser or three.js, summarises every
 * simulated second, and can write the final pose as JSON.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createScene } from '../scenes/index.js';
import { PoseRecorder } from '../sim/pose-recorder.js';
import type { BodyPose } from '../sim/pose.js';
import { SceneRunner } from '../sim/runner.js';
import type { PlotSpec, Scene, SceneStats, SimSettings } from '../sim/scene.js';
import { STATIC_DIR } from './paths.js';

export interface DemoOptions {
  scene: string;
  /** Simulated seconds (rounded to whole steps). */
  seconds: number;
  /** Where to write the final pose as JSON (none when absent). */
  out?: string;
  settings?: Partial<SimSettings>;
  /** Values of scene controls (see Scene.controls), set before the scene is built: id -> value. */
  controls?: Readonly<Record<string, number | string>>;
  /** Called with each row of the report as it is produced. */
  onRow?: (row: DemoRow, report: DemoHeader) => void;
}

/** One row of the report: the state at `time`, maxima and step times over the interval before it. */
export interface DemoRow {
  time: number;
  links: number;
  contacts: number;
  kineticEnergy: number;
  maxPenetration: number;
  maxLimitViolation: number;
  stepMsMean: number;
  stepMsMax: number;
  /** Values of the scene's named series at `time`... */
  series: Record<string, number>;
  /** ...and their smallest and largest values over the interval. */
  seriesRange: Record<string, [number, number]>;
}

export interface DemoHeader {
  scene: string;
  title: string;
  timeStep: number;
  plots: readonly PlotSpec[];
}

export interface DemoFinalPose {
  scene: string;
  time: number;
  bodies: BodyPose[];
}

export interface DemoReport extends DemoHeader {
  steps: number;
  time: number;
  initial: SceneStats;
  rows: DemoRow[];
  final: DemoFinalPose;
  wallMs: number;
  out?: string;
}

export function runDemo(options: DemoOptions): DemoReport {
  if (!(options.seconds > 0) || !Number.isFinite(options.seconds)) throw new RangeError(`demo: --seconds must be a positive number, got ${options.seconds}`);
  const scene = createScene(options.scene);
  applyControls(scene, options.controls ?? {});
  const runner = new SceneRunner(scene, { settings: options.settings, assets: readAssets(scene) });
  const header: DemoHeader = { scene: scene.name, title: scene.title, timeStep: scene.timeStep, plots: scene.plots };
  const initial = runner.latest;
  const totalSteps = Math.max(1, Math.round(options.seconds / scene.timeStep));
  const stepsPerRow = Math.max(1, Math.round(1 / scene.timeStep));
  const rows: DemoRow[] = [];
  const wall0 = performance.now();
  let maxPen = 0, maxLimit = 0, msSum = 0, msMax = 0, n = 0;
  let range: Record<string, [number, number]> = {};
  for (let k = 1; k <= totalSteps; k++) {
    const s = runner.step();
    maxPen = Math.max(maxPen, s.maxPenetration);
    maxLimit = Math.max(maxLimit, s.maxLimitViolation);
    msSum += runner.lastStepMs;
    msMax = Math.max(msMax, runner.lastStepMs);
    n++;
    for (const [name, x] of Object.entries(s.series)) {
      const r = range[name];
      if (r) { r[0] = Math.min(r[0], x); r[1] = Math.max(r[1], x); } else range[name] = [x, x];
    }
    if (k % stepsPerRow === 0 || k === totalSteps) {
      const row: DemoRow = {
        time: runner.time,
        links: s.links,
        contacts: s.contacts,
        kineticEnergy: s.kineticEnergy,
        maxPenetration: maxPen,
        maxLimitViolation: maxLimit,
        stepMsMean: msSum / n,
        stepMsMax: msMax,
        series: { ...s.series },
        seriesRange: range,
      };
      rows.push(row);
      options.onRow?.(row, header);
      maxPen = 0; maxLimit = 0; msSum = 0; msMax = 0; n = 0; range = {};
    }
  }
  const wallMs = performance.now() - wall0;
  const recorder = new PoseRecorder();
  scene.sync(recorder);
  const final: DemoFinalPose = { scene: scene.name, time: runner.time, bodies: recorder.poses() };
  if (options.out) {
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, JSON.stringify(final, null, 1) + '\n');
  }
  return { ...header, steps: runner.steps, time: runner.time, initial, rows, final, wallMs, out: options.out };
}

/** The files a scene lists in `assets`, read from examples/static. */
export function readAssets(scene: Scene): Map<string, Uint8Array> {
  return new Map((scene.assets ?? []).map((p) => [p, new Uint8Array(readFileSync(join(STATIC_DIR, p)))]));
}

/** Sets scene controls by id; refuses ids and values the scene does not have. */
function applyControls(scene: Scene, values: Readonly<Record<string, number | string>>): void {
  for (const [id, raw] of Object.entries(values)) {
    const c = (scene.controls ?? []).find((x) => x.id === id);
    if (!c) throw new RangeError(`scene "${scene.name}" has no control "${id}" (controls: ${(scene.controls ?? []).map((x) => x.id).join(', ') || 'none'})`);
    let value: number | string = raw;
    if (c.kind === 'slider') {
      value = Number(raw);
      if (!Number.isFinite(value) || value < c.min || value > c.max) throw new RangeError(`control "${id}": expected a number from ${c.min} to ${c.max}, got "${raw}"`);
    } else if (c.kind === 'choice') {
      if (!c.options.includes(String(raw))) throw new RangeError(`control "${id}": expected one of ${c.options.join(', ')}, got "${raw}"`);
      value = String(raw);
    } else value = '';
    scene.control?.(id, value);
  }
}
