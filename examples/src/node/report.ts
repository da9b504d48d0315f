/** Text tables of the headless demo's report. */
import type { DemoHeader, DemoReport, DemoRow } from './demo.js';

interface Column {
  head: string;
  width: number;
  value: (r: DemoRow) => string;
}

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : String(x));
const sci = (x: number) => (x === 0 ? '0' : x.toExponential(2));
/** Four decimals, or three significant digits in exponent form for values below 0.01. */
const num = (x: number) => (x !== 0 && Math.abs(x) < 0.01 ? x.toExponential(2) : fixed(x, 4));

function columns(h: DemoHeader): Column[] {
  const cols: Column[] = [
    { head: 't [s]', width: 7, value: (r) => fixed(r.time, 2) },
    { head: 'links', width: 5, value: (r) => String(r.links) },
    { head: 'contacts', width: 8, value: (r) => String(r.contacts) },
    { head: 'KE [J]', width: 10, value: (r) => fixed(r.kineticEnergy, 3) },
    { head: 'max pen [m]', width: 11, value: (r) => sci(r.maxPenetration) },
    { head: 'max limit', width: 9, value: (r) => sci(r.maxLimitViolation) },
    { head: 'step [ms]', width: 9, value: (r) => fixed(r.stepMsMean, 3) },
  ];
  for (const plot of h.plots) {
    for (const name of plot.series) {
      if (name === 'kinetic') continue; // already the KE column
      const head = `${name} [${plot.unit}]`;
      cols.push({ head, width: Math.max(head.length, 10), value: (r) => num(r.series[name] ?? NaN) });
    }
  }
  return cols;
}

export function formatHeader(h: DemoHeader): string {
  const cols = columns(h);
  const steps = Math.round(1 / h.timeStep);
  return [
    `scene ${h.scene}: ${h.title}  (step ${fixed(h.timeStep * 1000, 3)} ms, ${steps} steps per simulated second; step [ms] is wall time per step)`,
    cols.map((c) => c.head.padStart(c.width)).join('  '),
  ].join('\n');
}

export function formatRow(h: DemoHeader, r: DemoRow): string {
  return columns(h).map((c) => c.value(r).padStart(c.width)).join('  ');
}

export function formatSummary(report: DemoReport): string {
  const perSim = report.wallMs / report.time;
  const lines = [
    `${report.steps} steps, ${fixed(report.time, 3)} s simulated in ${fixed(report.wallMs / 1000, 3)} s of wall time (${fixed(report.time / (report.wallMs / 1000), 1)}x real time, ${fixed(perSim, 1)} ms per simulated second)`,
  ];
  if (report.out) lines.push(`final pose written to ${report.out}`);
  return lines.join('\n');
}
