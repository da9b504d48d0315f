/** The side panel: scene menu, controls, and the readout of time, step time and stats. */
import type { SceneEntry } from '../scenes/index.js';
import type { SceneRunner } from '../sim/runner.js';
import type { Quality } from './quality.js';

export const TIME_SCALES = [0.05, 0.1, 0.25, 0.5, 1, 2, 4] as const;

export interface PanelHandlers {
  togglePlay(): void;
  step(): void;
  reset(): void;
  timeScale(scale: number): void;
  solverIterations(n: number): void;
  showShapes(on: boolean): void;
  showForces(on: boolean): void;
}

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page: missing element #${id}`);
  return el as T;
}

export class Panel {
  private readonly menu = byId<HTMLElement>('scene-menu');
  private readonly title = byId<HTMLElement>('scene-title');
  private readonly summary = byId<HTMLElement>('scene-summary');
  private readonly play = byId<HTMLButtonElement>('play');
  private readonly timeScale = byId<HTMLInputElement>('time-scale');
  private readonly timeScaleValue = byId<HTMLOutputElement>('time-scale-value');
  private readonly iterations = byId<HTMLInputElement>('iterations');
  private readonly iterationsRow = byId<HTMLElement>('iterations-row');
  private readonly readout = byId<HTMLElement>('readout');
  private readonly error = byId<HTMLElement>('error');

  constructor(entries: readonly SceneEntry[], h: PanelHandlers) {
    for (const e of entries) {
      const a = document.createElement('a');
      a.href = `#${e.name}`;
      a.textContent = e.title;
      a.dataset.scene = e.name;
      a.title = e.summary;
      this.menu.append(a);
    }
    this.play.addEventListener('click', () => h.togglePlay());
    byId('step').addEventListener('click', () => h.step());
    byId('reset').addEventListener('click', () => h.reset());
    this.timeScale.addEventListener('input', () => {
      const s = TIME_SCALES[Number(this.timeScale.value)] ?? 1;
      this.timeScaleValue.textContent = `${s}×`;
      h.timeScale(s);
    });
    this.iterations.addEventListener('change', () => {
      const n = Math.round(Number(this.iterations.value));
      if (Number.isFinite(n) && n >= 1) h.solverIterations(n);
    });
    const shapes = byId<HTMLInputElement>('show-shapes');
    shapes.addEventListener('change', () => h.showShapes(shapes.checked));
    const forces = byId<HTMLInputElement>('show-forces');
    forces.addEventListener('change', () => h.showForces(forces.checked));
    window.addEventListener('keydown', (ev) => {
      if (ev.target instanceof HTMLInputElement || ev.metaKey || ev.ctrlKey || ev.altKey) return;
      if (ev.key === ' ') { h.togglePlay(); ev.preventDefault(); }
      else if (ev.key === 's' || ev.key === 'S' || ev.key === 'ArrowRight') h.step();
      else if (ev.key === 'r' || ev.key === 'R') h.reset();
    });
  }

  showScene(runner: SceneRunner): void {
    const s = runner.scene;
    for (const a of Array.from(this.menu.querySelectorAll('a'))) a.classList.toggle('active', a.dataset.scene === s.name);
    this.title.textContent = s.title;
    this.summary.textContent = s.summary;
    this.iterations.disabled = !s.usesSolver;
    this.iterationsRow.classList.toggle('disabled', !s.usesSolver);
    this.iterationsRow.title = s.usesSolver ? '' : 'this scene has no constraint solver';
    this.showError(null);
    document.title = `${s.title} · Sinew examples`;
  }

  setPlaying(playing: boolean): void {
    this.play.textContent = playing ? 'Pause' : 'Play';
  }

  showError(message: string | null): void {
    this.error.hidden = message === null;
    this.error.textContent = message ?? '';
  }

  update(runner: SceneRunner, playing: boolean, realTimeFactor: number, quality: Quality): void {
    const st = runner.latest;
    const dt = runner.scene.timeStep;
    const lines = [
      `sim time     ${runner.time.toFixed(3)} s`,
      `step time    ${runner.averageStepMs.toFixed(3)} ms (dt ${(dt * 1000).toFixed(2)} ms)`,
      `speed        ${playing ? `${realTimeFactor.toFixed(2)}× real time` : 'paused'}`,
      `links        ${st.links}`,
      `contacts     ${st.contacts}`,
      `kinetic      ${st.kineticEnergy.toFixed(3)} J`,
      `penetration  ${st.maxPenetration.toExponential(1)} m`,
      `limit error  ${st.maxLimitViolation.toExponential(1)}`,
      `rendering    ${quality.level === 'high' ? 'full' : 'reduced, no shadows'}`,
    ];
    this.readout.textContent = lines.join('\n');
    this.readout.title = `rendering: ${quality.reason}`;
  }
}
