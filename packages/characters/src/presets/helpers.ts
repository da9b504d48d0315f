/** Small construction helpers shared by the presets. */
import { FormatError } from '../format/errors.js';

export const DEG = Math.PI / 180;

/** Checks a preset option: a positive finite number. */
export function positive(name: string, v: number): number {
  if (!(typeof v === 'number' && Number.isFinite(v) && v > 0)) throw new FormatError(`options.${name}`, `expected a positive finite number (got ${String(v)})`);
  return v;
}

/**
 * Radius r of a capsule of tip-to-tip length L holding volume V:
 * V = pi r^2 (L - 2r) + 4/3 pi r^3 = pi r^2 L - 2/3 pi r^3, solved by Newton's method from the
 * cylinder's radius (the volume grows with r up to r = L, the capsule stays valid for r <= L / 2).
 */
export function capsuleRadius(volume: number, length: number): number {
  let r = Math.min(Math.sqrt(volume / (Math.PI * length)), length / 2);
  for (let k = 0; k < 60; k++) {
    const f = Math.PI * r * r * length - (2 / 3) * Math.PI * r * r * r - volume;
    const df = 2 * Math.PI * r * length - 2 * Math.PI * r * r;
    const step = f / df;
    r -= step;
    if (Math.abs(step) < 1e-15 * r) break;
  }
  if (!(r > 0 && r <= length / 2)) throw new FormatError('options', `a segment of length ${length} m cannot hold ${volume} m^3 as a capsule`);
  return r;
}

/**
 * Masses m_i = total * w_i / sum(w) whose sum, added in link order (as Model.totalMass adds them),
 * is `total` exactly: the last mass is total - (sum of the others), which is exact, and so is the
 * final addition, when the others weigh between half and twice the total (Sterbenz's lemma).
 */
export function exactMasses(total: number, weights: readonly number[]): number[] {
  const W = weights.reduce((a, b) => a + b, 0);
  const m = weights.map((w) => (total * w) / W);
  if (m.length > 1) {
    const others = m.slice(0, -1).reduce((a, b) => a + b, 0);
    m[m.length - 1] = total - others;
  }
  if (m.reduce((a, b) => a + b, 0) !== total || !(m[m.length - 1] > 0)) {
    throw new FormatError('options.mass', `could not split ${total} kg exactly over ${weights.length} links`);
  }
  return m;
}

/** Mirrors a name's side: "left" <-> "right". */
export function mirrorName(name: string): string {
  return name.replace(/left|right/g, (s) => (s === 'left' ? 'right' : 'left'));
}
