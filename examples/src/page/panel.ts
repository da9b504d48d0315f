/** The side panel: scene menu, controls, and the readout of time, step time and stats. */
import type { SceneEntry } from '../scenes/index.js';
import type { SceneRunner } from '../sim/runner.js';
import type { SceneControl } from '../sim/scene.js';
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
  /** A scene control changed (see SceneControl). */
  sceneControl(control: SceneControl, value: number | string): void;
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
  private readonly hint = byId<HTMLElement>('scene-hint');
  private readonly sceneControls = byId<HTMLElement>('scene-controls');
  private readonly handlers: PanelHandlers;

  constructor(entries: readonly SceneEntry[], h: PanelHandlers) {
    this.handlers = h;
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
    // a clicked button gives the focus back, so that space and S act on the page, not on it again
    document.addEventListener('click', (ev) => { if (ev.target instanceof HTMLButtonElement && ev.detail > 0) ev.target.blur(); });
    window.addEventListener('keydown', (ev) => {
      if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLButtonElement || ev.metaKey || ev.ctrlKey || ev.altKey) return;
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
    this.hint.textContent = s.hint ?? '';
    this.hint.hidden = !s.hint;
    this.buildControls(s.controls ?? []);
    document.title = `${s.title} · Sinew examples`;
  }

  /** The scene's own sliders, switches and buttons. */
  private buildControls(controls: readonly SceneControl[]): void {
    this.sceneControls.replaceChildren();
    this.sceneControls.hidden = controls.length === 0;
    const h = this.handlers;
    for (const c of controls) {
      if (c.kind === 'slider') {
        const label = document.createElement('label');
        label.className = 'row';
        label.append(c.label);
        const input = document.createElement('input');
        input.type = 'range';
        input.id = `control-${c.id}`;
        Object.assign(input, { min: String(c.min), max: String(c.max), step: String(c.step), value: String(c.value) });
        const out = document.createElement('output');
        const show = () => { out.textContent = `${formatControl(Number(input.value), c.step)}${c.unit ? ` ${c.unit}` : ''}`; };
        show();
        input.addEventListener('input', () => { show(); if (!c.resets) h.sceneControl(c, Number(input.value)); });
        // a slider that rebuilds the scene acts when released, not on every pixel of a drag
        input.addEventListener('change', () => { if (c.resets) h.sceneControl(c, Number(input.value)); });
        label.append(input, out);
        this.sceneControls.append(label);
      } else if (c.kind === 'choice') {
        const row = document.createElement('div');
        // a long set of options takes a line of its own under the label
        row.className = c.options.join('').length + c.label.length > 26 ? 'choice wide' : 'choice';
        const name = document.createElement('span');
        name.textContent = c.label;
        const group = document.createElement('div');
        group.className = 'segments';
        group.id = `control-${c.id}`;
        for (const option of c.options) {
          const b = document.createElement('button');
          b.textContent = option;
          b.dataset.option = option;
          b.classList.toggle('active', option === c.value);
          b.addEventListener('click', () => {
            for (const x of Array.from(group.children)) x.classList.toggle('active', x === b);
            h.sceneControl(c, option);
          });
          group.append(b);
        }
        row.append(name, group);
        this.sceneControls.append(row);
      } else {
        const b = document.createElement('button');
        b.textContent = c.label;
        b.id = `control-${c.id}`;
        b.className = 'scene-button';
        b.addEventListener('click', () => h.sceneControl(c, ''));
        this.sceneControls.append(b);
      }
    }
  }

  setPlaying(playing: boolean): void {
    this.play.textContent = playing ? 'Pause' : 'Play';
  }

  showError(message: string | null): void {
    this.error.hidden = message === null;
    this.error.textContent = message ?? '';
  }

  update(runner: SceneRunner, playing: boolean, realTimeFactor: number, quality: Quality, frameMs: number): void {
    const st = runner.latest;
    const dt = runner.scene.timeStep;
    const lines = [
      `sim time     ${runner.time.toFixed(3)} s`,
      `step time    ${runner.averageStepMs.toFixed(3)} ms (dt ${(dt * 1000).toFixed(2)} ms)`,
      `frame time   ${frameMs.toFixed(1)} ms`,
      `speed        ${playing ? `${realTimeFactor.toFixed(2)}× real time` : 'paused'}`,
      `links        ${st.links}`,
      `contacts     ${st.contacts}`,
      `kinetic      ${st.kineticEnergy.toFixed(3)} J`,
      `penetration  ${st.maxPenetration.toExponential(1)} m`,
      `limit error  ${st.maxLimitViolation.toExponential(1)}`,
      `rendering    ${quality.level === 'high' ? 'full' : 'reduced, no shadows'}`,
      ...(runner.scene.info?.() ?? []),
    ];
    this.readout.textContent = lines.join('\n');
    this.readout.title = `rendering: ${quality.reason}`;
  }
}

function formatControl(x: number, step: number): string {
  const digits = step >= 1 ? 0 : Math.min(4, Math.ceil(-Math.log10(step) - 1e-9));
  return x.toFixed(digits);
}
