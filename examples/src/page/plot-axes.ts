/**
 * Axes for the page's strip charts: a range of round numbers (steps of 1, 2 or 5 times a power
 * of ten) that holds the data, never below zero for data that is never negative, and tick labels
 * with as many digits as the step needs, so that the two ends of an axis never read the same.
 */

export interface Axis {
  lo: number;
  hi: number;
  step: number;
  /** Digits after the decimal point the labels need. */
  digits: number;
}

/** A round axis over [min, max] with about `intervals` steps. Non-finite or empty data: [0, 1]. */
export function niceAxis(min: number, max: number, intervals = 4): Axis {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return { lo: 0, hi: 1, step: 0.25, digits: 2 };
  const nonNegative = min >= 0;
  const span = max - min;
  if (!(span > 1e-12 * Math.max(Math.abs(min), Math.abs(max)))) {
    // flat data: a range around it a fifth of its size (or +-1 around zero)
    const half = Math.abs(max) > 0 ? 0.1 * Math.abs(max) : 1;
    min -= half;
    max += half;
  }
  if (nonNegative) min = Math.max(min, 0);
  const raw = (max - min) / intervals;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * p;
  const lo = Math.max(Math.floor(min / step + 1e-9) * step, nonNegative ? 0 : -Infinity);
  const hi = Math.ceil(max / step - 1e-9) * step;
  return { lo, hi: hi > lo ? hi : lo + step, step, digits: Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) };
}

/** A tick label: the digits the step needs, in exponent notation for axes of very large or very small values. */
export function formatTick(x: number, axis: Axis): string {
  if (x === 0) return '0';
  const size = Math.max(Math.abs(axis.lo), Math.abs(axis.hi));
  if (size >= 1e5 || size < 1e-3) return x.toExponential(Math.min(12, Math.max(1, Math.ceil(Math.log10(Math.abs(x) / axis.step)))));
  return x.toFixed(Math.min(12, axis.digits));
}
