/** A strip chart on a 2D canvas: named series over the last seconds of simulated time. */
import type { PlotSpec } from '../sim/scene.js';
import { formatTick, niceAxis, type Axis } from './plot-axes.js';

const COLORS = ['#ffd166', '#4cc9f0', '#f78c6b', '#b8f2a0', '#c77dff', '#ff6b9a'];
const STRIP = 80; // CSS pixels per plot
const WINDOW = 10; // seconds shown
const MAX_SAMPLES = 4000;
/** Decades a log axis spans at most; smaller values are drawn at its floor. */
const LOG_DECADES = 12;

export class PlotPanel {
  private specs: readonly PlotSpec[] = [];
  private times: number[] = [];
  private values = new Map<string, number[]>();
  private readonly ctx: CanvasRenderingContext2D;

  constructor(private readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('plot: no 2D canvas context');
    this.ctx = ctx;
  }

  /** Starts over with these plots (scene change or reset). */
  reset(specs: readonly PlotSpec[]): void {
    this.specs = specs;
    this.times = [];
    this.values = new Map(specs.flatMap((s) => s.series).map((n) => [n, []]));
    this.canvas.style.height = `${STRIP * specs.length}px`;
    this.canvas.hidden = !(this.shown && specs.length);
  }

  private shownFlag = false;

  /** Whether the plots are on the page (they are sampled either way). */
  get shown(): boolean {
    return this.shownFlag;
  }

  set shown(on: boolean) {
    this.shownFlag = on;
    this.canvas.hidden = !(on && this.specs.length);
  }

  sample(time: number, series: Readonly<Record<string, number>>): void {
    if (this.times.length && time <= this.times[this.times.length - 1]) return;
    this.times.push(time);
    for (const [name, arr] of this.values) arr.push(series[name] ?? NaN);
    // Drop what fell out of the window (keep one point before it so the line reaches the edge).
    let drop = 0;
    while (drop + 1 < this.times.length && this.times[drop + 1] < time - WINDOW) drop++;
    if (this.times.length - drop > MAX_SAMPLES) drop = this.times.length - MAX_SAMPLES;
    if (drop > 0) {
      this.times.splice(0, drop);
      for (const arr of this.values.values()) arr.splice(0, drop);
    }
  }

  draw(): void {
    const { canvas, ctx } = this;
    if (canvas.hidden) return;
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (w === 0 || h === 0) return;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const t1 = this.times.length ? this.times[this.times.length - 1] : 0;
    const t0 = Math.max(0, t1 - WINDOW);
    const tSpan = Math.max(t1 - t0, 1e-9);
    let colorIndex = 0;
    ctx.font = '11px ui-monospace, SFMono-Regular, Menlo, monospace';
    this.specs.forEach((spec, row) => {
      const top = row * STRIP;
      const left = 54, right = w - 8;
      const title = `${spec.title} [${spec.unit}${spec.log ? ', log' : ''}]`;
      const legend = spec.series.map((name) => {
        const raw = this.values.get(name) ?? [];
        // a log axis plots log10 of the positive values
        const arr = spec.log ? raw.map((v) => (v > 0 ? Math.log10(v) : NaN)) : raw;
        return { name, text: `${name} ${raw.length ? formatValue(raw[raw.length - 1]) : ''}`, arr };
      });
      const legendWidth = legend.reduce((sum, l) => sum + ctx.measureText(l.text).width + 12, 0);
      // The legend shares the title's line when it fits, else it takes a line of its own.
      const twoLines = ctx.measureText(title).width + 16 + legendWidth > w - 8;
      const legendY = top + (twoLines ? 26 : 13);
      const plotTop = top + (twoLines ? 32 : 20), plotBottom = top + STRIP - 14;
      // range
      let lo = Infinity, hi = -Infinity;
      for (const l of legend) for (const x of l.arr) if (Number.isFinite(x)) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
      let axis: Axis | null = null;
      if (spec.log) {
        if (!Number.isFinite(lo)) { lo = -1; hi = 0; }
        // at most LOG_DECADES below the top: a value at the floor (a denormal, a tiny round-off) would
        // otherwise stretch the axis to 1e-324 and flatten everything else
        hi = Math.ceil(hi); lo = Math.max(Math.floor(lo), hi - LOG_DECADES); hi = Math.max(hi, lo + 1);
      } else {
        // round numbers, never below zero for a quantity that is never negative
        axis = niceAxis(lo, hi);
        lo = axis.lo; hi = axis.hi;
      }
      const y = (x: number) => plotBottom - ((x - lo) / (hi - lo)) * (plotBottom - plotTop);
      const x = (t: number) => left + ((t - t0) / tSpan) * (right - left);
      // frame and labels
      ctx.fillStyle = 'rgba(255,255,255,0.04)';
      ctx.fillRect(left, plotTop, right - left, plotBottom - plotTop);
      ctx.textBaseline = 'alphabetic';
      ctx.textAlign = 'left';
      ctx.fillStyle = '#c9d1dc';
      ctx.fillText(title, 4, top + 13);
      ctx.fillStyle = '#8993a3';
      ctx.textAlign = 'right';
      ctx.fillText(axis ? formatTick(hi, axis) : `1e${hi}`, left - 4, plotTop + 9);
      ctx.fillText(axis ? formatTick(lo, axis) : `1e${lo}`, left - 4, plotBottom);
      // grid lines at every round value (every decade on a log axis), zero brighter
      ctx.lineWidth = 1;
      const stepY = axis ? axis.step : 1;
      for (let k = 1; lo + k * stepY < hi - 1e-9 * stepY; k++) {
        const v = lo + k * stepY;
        ctx.strokeStyle = axis && Math.abs(v) < 1e-9 * stepY ? 'rgba(255,255,255,0.18)' : 'rgba(255,255,255,0.07)';
        ctx.beginPath(); ctx.moveTo(left, y(v)); ctx.lineTo(right, y(v)); ctx.stroke();
      }
      ctx.textAlign = 'left';
      ctx.fillText(`${t0.toFixed(1)} s`, left, top + STRIP - 2);
      ctx.textAlign = 'right';
      ctx.fillText(`${t1.toFixed(1)} s`, right, top + STRIP - 2);
      // series and legend, right-aligned
      let legendX = right;
      for (let k = legend.length - 1; k >= 0; k--) {
        const { text, arr } = legend[k];
        const color = spec.colors?.[k] ?? COLORS[(colorIndex + k) % COLORS.length];
        ctx.strokeStyle = color;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        let pen = false;
        for (let i = 0; i < arr.length; i++) {
          const v = arr[i];
          if (!Number.isFinite(v) || this.times[i] < t0 - 1e-9) { pen = false; continue; }
          const yv = y(Math.max(lo, Math.min(hi, v)));
          if (pen) ctx.lineTo(x(this.times[i]), yv); else ctx.moveTo(x(this.times[i]), yv);
          pen = true;
        }
        ctx.stroke();
        ctx.textAlign = 'right';
        ctx.fillStyle = color;
        ctx.fillText(text, legendX, legendY);
        legendX -= ctx.measureText(text).width + 12;
      }
      colorIndex += spec.series.length;
    });
  }
}

function formatValue(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? x.toExponential(2) : x.toFixed(a < 1 ? 4 : a < 100 ? 3 : 1);
}

