/**
 * The headless demo: runs a scene in Node without a browser or three.js, summarises every
 * simulated second, and can write the final pose as JSON.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createScene } from '../scenes/index.js';
import { PoseRecorder } from '../sim/pose-recorder.js';
import type { BodyPose } from '../sim/pose.js';
import { SceneRunner } from '../sim/runner.js';
import type { PlotSpec, SceneStats, SimSettings } from '../sim/scene.js';

export interface DemoOptions {
  scene: string;
  /** Simulated seconds (rounded to whole steps). */
  seconds: number;
  /** Where to write the final pose as JSON (none when absent). */
  out?: string;
  settings?: Partial<SimSettings>;
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
  const runner = new SceneRunner(scene, { settings: options.settings });
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
