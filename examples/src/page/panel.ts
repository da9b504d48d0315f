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
  showPlots(on: boolean): void;
  /** What a click on the view does: fire a ball, or the scene's own action. */
  click(mode: 'shoot' | 'pointer'): void;
  /** Frame the subject again (the camera's home). */
  frame(): void;
  /** The panel was shown or hidden (the free part of the window changed). */
  layout(): void;
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
  private readonly physics = byId<HTMLDetailsElement>('scene-physics');
  private readonly details = byId<HTMLElement>('scene-details');
  private readonly short = byId<HTMLElement>('scene-short');
  private readonly root = byId<HTMLElement>('panel');
  private readonly toggle = byId<HTMLButtonElement>('panel-toggle');
  private readonly plots = byId<HTMLInputElement>('show-plots');
  private readonly clickRow = byId<HTMLElement>('click-row');
  private readonly clickMode = byId<HTMLElement>('click-mode');
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
    byId('frame').addEventListener('click', () => h.frame());
    this.toggle.addEventListener('click', () => this.setCollapsed(!this.collapsed));
    this.plots.addEventListener('change', () => h.showPlots(this.plots.checked));
    for (const b of Array.from(this.clickMode.querySelectorAll('button'))) {
      b.addEventListener('click', () => {
        const mode = b.dataset.mode === 'pointer' ? 'pointer' : 'shoot';
        this.setClick(mode);
        h.click(mode);
      });
    }
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
      else if (ev.key === 'f' || ev.key === 'F') h.frame();
    });
  }

  get collapsed(): boolean {
    return this.root.classList.contains('collapsed');
  }

  /** Hides everything but the title and the buttons (the default on a phone), or shows it all. */
  setCollapsed(on: boolean): void {
    this.root.classList.toggle('collapsed', on);
    this.toggle.setAttribute('aria-expanded', String(!on));
    this.handlers.layout();
  }

  /** Shows which click mode is on, or hides the switch (null: the scene has one action at most). */
  setClick(mode: 'shoot' | 'pointer' | null): void {
    this.clickRow.hidden = mode === null;
    for (const b of Array.from(this.clickMode.querySelectorAll('button'))) b.classList.toggle('active', b.dataset.mode === mode);
  }

  /** Ticks "show shapes" (its handler is not called). */
  setShapesShown(on: boolean): void {
    byId<HTMLInputElement>('show-shapes').checked = on;
  }

  /** Ticks the plots' switch (its handler is not called). */
  setPlotsShown(on: boolean): void {
    this.plots.checked = on;
  }

  showScene(runner: SceneRunner): void {
    const s = runner.scene;
    for (const a of Array.from(this.menu.querySelectorAll('a'))) a.classList.toggle('active', a.dataset.scene === s.name);
    this.title.textContent = s.title;
    this.summary.textContent = s.summary;
    this.short.textContent = s.title;
    this.details.textContent = s.details ?? '';
    this.physics.hidden = !s.details;
    this.iterations.disabled = !s.usesSolver;
    this.iterationsRow.classList.toggle('disabled', !s.usesSolver);
    this.iterationsRow.title = s.usesSolver ? '' : 'this scene has no constraint solver';
    this.showError(null);
    byId('click-pointer').textContent = s.pointerLabel ?? 'pushes';
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

  /** The panel's readout: what the scene holds and how it is drawn (the timings are in the HUD). */
  update(runner: SceneRunner, quality: Quality): void {
    const st = runner.latest;
    const lines = [
      `links        ${st.links}`,
      `contacts     ${st.contacts}`,
      `kinetic      ${st.kineticEnergy.toFixed(3)} J`,
      `penetration  ${st.maxPenetration.toExponential(1)} m`,
      `limit error  ${st.maxLimitViolation.toExponential(1)}`,
      `time step    ${(runner.scene.timeStep * 1000).toFixed(2)} ms (1/${Math.round(1 / runner.scene.timeStep)} s)`,
      `rendering    ${quality.level === 'high' ? 'full' : quality.shadows ? 'reduced, hard shadows' : 'reduced, no shadows'}`,
      ...(runner.scene.info?.() ?? []),
    ];
    const text = lines.join('\n');
    if (this.readout.textContent !== text) this.readout.textContent = text;
    this.readout.title = `rendering: ${quality.reason}`;
  }
}

function formatControl(x: number, step: number): string {
  const digits = step >= 1 ? 0 : Math.min(4, Math.ceil(-Math.log10(step) - 1e-9));
  return x.toFixed(digits);
}
