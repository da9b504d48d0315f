/**
 * The readout's honest figures: the real-time ratio (simulated seconds per wall second over the
 * last WINDOW_MS of wall time, measured, not capped) and frames per second. Pure, fed with the
 * animation frame's timestamps, so it can be tested without a browser.
 */

/** Wall milliseconds the ratio and the frame rate are measured over. */
export const WINDOW_MS = 2000;

export class RateMeter {
  private wall: number[] = [];
  private sim: number[] = [];

  /** Forgets every sample (reset, scene change, pause). */
  clear(): void {
    this.wall = [];
    this.sim = [];
  }

  /** A frame at wall time `wallMs` (milliseconds) with the simulation clock at `simTime` (seconds). */
  sample(wallMs: number, simTime: number): void {
    const n = this.wall.length;
    if (n > 0 && (wallMs < this.wall[n - 1] || simTime < this.sim[n - 1])) this.clear(); // a clock went back: start over
    this.wall.push(wallMs);
    this.sim.push(simTime);
    // keep one sample at or before the window's start, so that the window is always covered
    let drop = 0;
    while (drop + 1 < this.wall.length && this.wall[drop + 1] <= wallMs - WINDOW_MS) drop++;
    if (drop > 0) { this.wall.splice(0, drop); this.sim.splice(0, drop); }
  }

  /** The span measured: the first and last sample, wall milliseconds and simulated seconds. */
  span(): { wall0: number; wall1: number; sim0: number; sim1: number; frames: number } | null {
    const n = this.wall.length;
    if (n < 2 || !(this.wall[n - 1] > this.wall[0])) return null;
    return { wall0: this.wall[0], wall1: this.wall[n - 1], sim0: this.sim[0], sim1: this.sim[n - 1], frames: n - 1 };
  }

  /** Simulated seconds per wall second over the window; null until two frames have been seen. */
  ratio(): number | null {
    const s = this.span();
    return s ? (s.sim1 - s.sim0) / ((s.wall1 - s.wall0) / 1000) : null;
  }

  /** Frames per wall second over the window; null until two frames have been seen. */
  fps(): number | null {
    const s = this.span();
    return s ? s.frames / ((s.wall1 - s.wall0) / 1000) : null;
  }
}
