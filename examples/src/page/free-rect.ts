/**
 * The part of the window the scene can be seen in: the largest rectangle that none of the page's
 * panels (side panel, plots, readout) covers, by the size of the largest sphere it can show
 * (its shorter side), ties broken by area. Pure, for tests.
 */

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Space kept between the free rectangle and a panel, CSS pixels. */
const GAP = 6;

function overlaps(a: Rect, b: Rect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** The largest rectangle of `view` that overlaps none of `panels` (each grown by GAP). */
export function freeRect(view: Rect, panels: readonly Rect[]): Rect {
  const grown = panels
    .filter((p) => p.right > p.left && p.bottom > p.top)
    .map((p) => ({ left: p.left - GAP, top: p.top - GAP, right: p.right + GAP, bottom: p.bottom + GAP }))
    .filter((p) => overlaps(p, view));
  const xs = [view.left, view.right, ...grown.flatMap((p) => [p.left, p.right])].filter((x) => x >= view.left && x <= view.right).sort((a, b) => a - b);
  const ys = [view.top, view.bottom, ...grown.flatMap((p) => [p.top, p.bottom])].filter((y) => y >= view.top && y <= view.bottom).sort((a, b) => a - b);
  let best: Rect = view, bestSide = -1, bestArea = -1;
  for (let i = 0; i < xs.length; i++) for (let j = i + 1; j < xs.length; j++) {
    for (let k = 0; k < ys.length; k++) for (let l = k + 1; l < ys.length; l++) {
      const r = { left: xs[i], right: xs[j], top: ys[k], bottom: ys[l] };
      const w = r.right - r.left, h = r.bottom - r.top;
      const side = Math.min(w, h), area = w * h;
      if (side < bestSide || (side === bestSide && area <= bestArea)) continue;
      if (grown.some((p) => overlaps(p, r))) continue;
      best = r; bestSide = side; bestArea = area;
    }
  }
  return best;
}
