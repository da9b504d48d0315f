/**
 * Sorts keys[0..n) ascending, stably, and returns the array that holds them: keys or scratch
 * (bottom-up merge sort over runs first sorted by insertion; only the n keys are touched, where the
 * native sort of a typed array would need a view of them, which is allocated, or the whole
 * scratch). The rows arrive nearly in order (a source adds its rows link by link), which the
 * insertion runs and the merges take in about n log(n / 16) steps.
 */
export function sortKeysInPlace(keys: Float64Array, scratch: Float64Array, n: number): Float64Array {
  const RUN = 16;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(lo + RUN, n);
    for (let i = lo + 1; i < hi; i++) {
      const x = keys[i];
      let j = i - 1;
      while (j >= lo && keys[j] > x) { keys[j + 1] = keys[j]; j--; }
      keys[j + 1] = x;
    }
  }
  let src = keys, dst = scratch;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    const t = src; src = dst; dst = t;
  }
  return src;
}
