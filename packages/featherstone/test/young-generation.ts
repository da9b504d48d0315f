/**
 * Allocation measured as the growth of V8's young generation over a batch of calls, minus the
 * growth over an empty batch (what the measurement itself allocates, a kilobyte or two). Used by
 * the allocation tests of every package.
 *
 * A batch is not clean when a garbage collection falls inside it, or when code that the
 * optimising compiler has not yet replaced (or has just thrown away and not yet recompiled) runs
 * in it: unoptimised code boxes its floating-point temporaries. So a measurement passes once
 * three batches in a row are within the bound, within a budget of batches; code that allocates
 * on every call never gets there. The batches are kept so that a failure can show them.
 */
import { getHeapSpaceStatistics } from 'node:v8';

export function youngGenerationUsed(): number {
  for (const s of getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size;
  throw new Error('no new_space in this V8');
}

export interface GrowthMeasure {
  /** The largest |bytes per call| of the first three clean batches in a row; Infinity if none. */
  perCall: number;
  /** Bytes per call of every batch measured, in order (for the failure message). */
  batches: number[];
}

/**
 * Runs `warm` calls of `fn`, then batches of `calls` calls until three in a row grow the young
 * generation by less than `bound` bytes a call, or `attempts` batches have run.
 */
export function youngGenerationGrowth(
  fn: () => void,
  options: { warm: number; calls: number; bound: number; attempts: number },
): GrowthMeasure {
  const { warm, calls, bound, attempts } = options;
  for (let i = 0; i < warm; i++) fn();
  const batches: number[] = [];
  let streak = 0, worst = 0;
  for (let k = 0; k < attempts; k++) {
    const b0 = youngGenerationUsed();
    const b1 = youngGenerationUsed(); // the cost of one measurement
    for (let i = 0; i < calls; i++) fn();
    const b2 = youngGenerationUsed();
    const perCall = (b2 - b1 - (b1 - b0)) / calls;
    batches.push(perCall);
    if (Math.abs(perCall) < bound) {
      worst = Math.max(worst, Math.abs(perCall));
      if (++streak === 3) return { perCall: worst, batches };
    } else {
      streak = 0;
      worst = 0;
    }
  }
  return { perCall: Infinity, batches };
}

/** "per-batch bytes a call: 16, 16, 0.1, ..." for an assertion message. */
export function describeBatches(m: GrowthMeasure): string {
  return `bytes a call in each batch: ${m.batches.map((b) => +b.toFixed(2)).join(', ')}`;
}
