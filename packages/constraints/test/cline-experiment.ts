/**
 * The 6-link chain experiment of the Cline thesis (section 5.2.1): six 100 mm links, horizontal at
 * rest, falling under gravity with h = 1 ms for 600 steps. The chain's own joints are revolute
 * joints, which cannot drift in reduced coordinates, so its first link is held to the world by
 * constraint rows instead (a point pin at its end plus the two angular rows that make a hinge), as
 * in the thesis's maximal coordinates. The error is the pin separation.
 */
import { HingePin, World, type StabilizationMode } from '../src/index.js';
import { rodChain } from './chain-fixture.js';

export interface ClineRun {
  label: string;
  /** Pin separation after each step (m). */
  error: Float64Array;
  /** Separation along x after each step (signed, m), to see jiggle. */
  errorX: Float64Array;
  max: number;
  /** Sign changes of the step-to-step change of the x error. */
  reversals: number;
  /**
   * Jiggle: sum over steps of |e_k - e_(k-1)| divided by sum of e_k, e the pin separation. An error
   * that settles smoothly gives a small ratio; one that jumps between about 0 and its peak every
   * step (Baumgarte with alpha h = 2 overshoots its goal in a single step) gives about 1.
   */
  jiggle: number;
  /** A step failed (non-finite state, rolled back by the World). */
  failed: boolean;
}

export function runClineChain(label: string, mode: StabilizationMode, alpha = 0, steps = 600): ClineRun {
  const model = rodChain({ links: 6, length: 0.1, mass: 0.1, root: 'free' });
  const world = new World({ substeps: 1, stabilization: mode, baumgarteAlpha: alpha, stabilizationTolerance: 1e-12, solver: { maxIterations: 200, tolerance: 1e-13 } });
  world.addBody(model);
  const hinge = world.addConstraint(new HingePin(0, 0, [-0.05, 0, 0], [0, 0, 0], [0, 0, 1], [0, 0, 1]));
  const error = new Float64Array(steps), errorX = new Float64Array(steps);
  const sep = new Float64Array(3);
  let reversals = 0;
  let failed = false;
  for (let s = 0; s < steps; s++) {
    if (world.step(0.001).error) failed = true;
    hinge.pin.separation(world.bodies, sep);
    error[s] = Math.hypot(sep[0], sep[1], sep[2]);
    errorX[s] = sep[0];
    if (s >= 2 && (errorX[s] - errorX[s - 1]) * (errorX[s - 1] - errorX[s - 2]) < 0) reversals++;
  }
  let variation = 0, total = 0;
  for (let s = 1; s < steps; s++) {
    variation += Math.abs(error[s] - error[s - 1]);
    total += error[s];
  }
  return { label, error, errorX, max: Math.max(...error), reversals, jiggle: variation / total, failed };
}

export function runAllClineModes(): ClineRun[] {
  return [
    runClineChain('no stabilisation', 'none'),
    runClineChain('Baumgarte alpha = 50', 'baumgarte', 50),
    runClineChain('Baumgarte alpha = 200', 'baumgarte', 200),
    runClineChain('Baumgarte alpha = 2000', 'baumgarte', 2000),
    runClineChain('post-stabilisation', 'post'),
  ];
}

/** An SVG plot of the error curves (log scale), one polyline per run. */
export function clineSvg(runs: ClineRun[]): string {
  const W = 900, H = 420, left = 70, right = 300, top = 20, bottom = 40;
  const colors = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd'];
  const lo = -12, hi = Math.ceil(Math.log10(Math.max(...runs.map((r) => r.max))) + 0.5);
  const x = (s: number, n: number) => left + ((W - left - right) * s) / (n - 1);
  const y = (e: number) => top + ((H - top - bottom) * (hi - Math.max(lo, Math.log10(Math.max(e, 1e-15))))) / (hi - lo);
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`];
  parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  for (let p = lo; p <= hi; p++) {
    parts.push(`<line x1="${left}" x2="${W - right}" y1="${y(10 ** p)}" y2="${y(10 ** p)}" stroke="#ddd"/>`);
    parts.push(`<text x="${left - 6}" y="${y(10 ** p) + 4}" text-anchor="end">1e${p}</text>`);
  }
  parts.push(`<text x="${(left + W - right) / 2}" y="${H - 8}" text-anchor="middle">step (h = 1 ms)</text>`);
  parts.push(`<text x="14" y="${H / 2}" transform="rotate(-90 14 ${H / 2})" text-anchor="middle">largest pin separation (m)</text>`);
  runs.forEach((r, k) => {
    const n = r.error.length;
    const pts = Array.from(r.error, (e, s) => `${x(s, n).toFixed(1)},${y(e).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${colors[k % colors.length]}" stroke-width="1.5" points="${pts}"/>`);
    parts.push(`<text x="${W - right + 10}" y="${top + 20 + 18 * k}" fill="${colors[k % colors.length]}">${r.label}: max ${(r.max * 1000).toExponential(2)} mm</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
