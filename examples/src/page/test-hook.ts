/**
 * window.__sinew: what the page exposes to scripts (the browser test, the console): the running
 * scene, its clock, link positions, and a cheap signature of the last rendered frame.
 */
import { PoseRecorder } from '../sim/pose-recorder.js';
import type { SceneRunner } from '../sim/runner.js';
import type { Box } from '../sim/subject.js';
import type { Rect } from './free-rect.js';
import type { SkinProbe } from './three-view.js';

export interface SinewHook {
  ready: boolean;
  scenes: string[];
  scene: string;
  time: number;
  steps: number;
  frames: number;
  /** The animation-frame timestamp (ms, performance.now's clock) of the last frame drawn. */
  wall: number;
  /** The span the real-time ratio shown was measured over: first and last frame's wall (ms) and simulated (s) times. */
  speedSpan: { wall0: number; wall1: number; sim0: number; sim1: number; frames: number } | null;
  /** The part of the window no panel covers (CSS pixels), where the camera frames the subject. */
  free: Rect;
  playing: boolean;
  /** The running scene's solver iterations setting. */
  readonly solverIterations: number;
  /** Keys of the articulations the scene drew at its last sync, in the order first drawn. */
  bodies(): string[];
  /** World positions of every link origin of every body, flattened [x, y, z, ...]. */
  linkPositions(): number[];
  /** World positions of the link origins of the body drawn as `key`, flattened (empty when none is). */
  linkPositionsOf(key: string): number[];
  /** Distinct colours (quantised) on a 64x36 sample of the 3D canvas and a hash of those pixels. */
  canvasSignature(): { distinctColors: number; hash: number };
  /** Where a world point appears on the page (client pixels), for driving the mouse. */
  project(x: number, y: number, z: number): { x: number; y: number; inFront: boolean };
  /** The box of the scene's subject at the last frame (see sim/subject.ts): [min x, y, z, max x, y, z]. */
  subjectBox(): number[];
  /** The scene's own readout lines (Scene.info). */
  info(): string[];
  /** The skinned characters of the last frame (bones and skinned vertices per link) and whether each body's shapes are shown. */
  view(): { skins: SkinProbe[]; shapes: Record<string, boolean> };
  /** Runs the scene on to simulated time t as 60 frames a second would, without rendering them (set by the page). */
  fastForward(t: number): number;
}

declare global {
  interface Window {
    __sinew?: SinewHook;
  }
}

export function installHook(
  scenes: string[], canvas: HTMLCanvasElement, current: () => SceneRunner, playing: () => boolean,
  project: (x: number, y: number, z: number) => { x: number; y: number; inFront: boolean },
  subject: () => Box,
  view: () => { skins: SkinProbe[]; shapes: Record<string, boolean> },
): SinewHook {
  const probe = document.createElement('canvas');
  probe.width = 64;
  probe.height = 36;
  const probeCtx = probe.getContext('2d', { willReadFrequently: true });
  const hook: SinewHook = {
    ready: false,
    scenes,
    scene: '',
    time: 0,
    steps: 0,
    frames: 0,
    wall: 0,
    speedSpan: null,
    free: { left: 0, top: 0, right: 0, bottom: 0 },
    subjectBox: () => [...subject()],
    view,
    fastForward: () => { throw new Error('the page has not started'); },
    get playing() { return playing(); },
    get solverIterations() { return current().settings.solverIterations; },
    project,
    info() { return current().scene.info?.() ?? []; },
    bodies() {
      const rec = new PoseRecorder();
      current().scene.sync(rec);
      return rec.poses().map((b) => b.key);
    },
    linkPositions() {
      const rec = new PoseRecorder();
      current().scene.sync(rec);
      return rec.poses().flatMap((b) => b.links.flatMap((l) => l.position));
    },
    linkPositionsOf(key: string) {
      const rec = new PoseRecorder();
      current().scene.sync(rec);
      return rec.poses().find((b) => b.key === key)?.links.flatMap((l) => l.position) ?? [];
    },
    canvasSignature() {
      if (!probeCtx) return { distinctColors: 0, hash: 0 };
      probeCtx.drawImage(canvas, 0, 0, probe.width, probe.height);
      const px = probeCtx.getImageData(0, 0, probe.width, probe.height).data;
      const colors = new Set<number>();
      let hash = 2166136261;
      for (let i = 0; i < px.length; i += 4) {
        colors.add(((px[i] >> 3) << 10) | ((px[i + 1] >> 3) << 5) | (px[i + 2] >> 3));
        hash = Math.imul(hash ^ px[i], 16777619);
        hash = Math.imul(hash ^ px[i + 1], 16777619);
        hash = Math.imul(hash ^ px[i + 2], 16777619);
      }
      return { distinctColors: colors.size, hash: hash >>> 0 };
    },
  };
  window.__sinew = hook;
  return hook;
}
