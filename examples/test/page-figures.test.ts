/**
 * The page's pure parts, without a browser: the real-time ratio and frame rate of the HUD, the
 * plots' axes, the free part of the window the camera frames the subject in, and the subject's box.
 */
import { describe, expect, it } from 'vitest';
import { freeRect } from '../src/page/free-rect.js';
import { formatTick, niceAxis } from '../src/page/plot-axes.js';
import { RateMeter, WINDOW_MS } from '../src/page/rate.js';
import { SubjectBox, SUBJECT_PAD } from '../src/sim/subject.js';
import { ModelBuilder, State, forwardKinematics } from '@sinew/featherstone';

describe('RateMeter', () => {
  it('gives simulated over wall time across the last window, whatever the frames did before it', () => {
    const m = new RateMeter();
    expect(m.ratio()).toBeNull();
    // 50 frames of 100 ms at full speed (0.1 s simulated each), then 40 frames of 250 ms at a
    // quarter of real time (1/60 s simulated each... 15 ms of 250): the window sees only the slow part
    let wall = 1000, sim = 0;
    for (let i = 0; i < 50; i++) { wall += 100; sim += 0.1; m.sample(wall, sim); }
    expect(m.ratio()).toBeCloseTo(1, 12);
    expect(m.fps()).toBeCloseTo(10, 12);
    for (let i = 0; i < 40; i++) { wall += 250; sim += 1 / 60; m.sample(wall, sim); }
    expect(m.ratio()).toBeCloseTo((1 / 60) / 0.25, 12);
    expect(m.fps()).toBeCloseTo(4, 12);
    const s = m.span()!;
    expect(s.wall1 - s.wall0).toBe(WINDOW_MS); // 8 frames of 250 ms exactly
    expect(s.frames).toBe(8);
  });

  it('starts over when a clock goes back (a reset) and after clear()', () => {
    const m = new RateMeter();
    m.sample(0, 5); m.sample(100, 5.1);
    m.sample(200, 0); // reset: simulated time back to 0
    expect(m.ratio()).toBeNull();
    m.sample(300, 0.05);
    expect(m.ratio()).toBeCloseTo(0.5, 12);
    m.clear();
    expect(m.ratio()).toBeNull();
  });
});

describe('niceAxis', () => {
  it('covers the data with round steps, and never goes below zero for data that is never negative', () => {
    const a = niceAxis(0.013, 812.4);
    expect(a.lo).toBe(0);
    expect(a.hi).toBeGreaterThanOrEqual(812.4);
    expect([1, 2, 5].some((m) => Math.abs(a.step / 10 ** Math.floor(Math.log10(a.step)) - m) < 1e-9)).toBe(true);
    expect(a.hi / a.step).toBeCloseTo(Math.round(a.hi / a.step), 9);
    const e = niceAxis(3.2, 7.9); // kinetic energy, say
    expect(e.lo).toBeGreaterThanOrEqual(0);
    expect(e.lo).toBeLessThanOrEqual(3.2);
    expect(e.hi).toBeGreaterThanOrEqual(7.9);
  });

  it('spans negative data as it is', () => {
    const a = niceAxis(-0.31, 0.12);
    expect(a.lo).toBeLessThanOrEqual(-0.31);
    expect(a.hi).toBeGreaterThanOrEqual(0.12);
    expect(a.lo).toBeGreaterThan(-0.31 - a.step);
  });

  it('opens a flat series to a range whose two ends read differently ("1.00 / 1.00" before)', () => {
    const a = niceAxis(1, 1);
    expect(a.lo).toBeLessThan(1);
    expect(a.hi).toBeGreaterThan(1);
    expect(formatTick(a.lo, a)).not.toBe(formatTick(a.hi, a));
    const z = niceAxis(0, 0);
    expect(z.lo).toBe(0);
    expect(z.hi).toBeGreaterThan(0);
    const tiny = niceAxis(1.00001, 1.00002);
    expect(formatTick(tiny.lo, tiny)).not.toBe(formatTick(tiny.hi, tiny));
    const small = niceAxis(2e-6, 9e-6);
    expect(formatTick(small.lo, small)).not.toBe(formatTick(small.hi, small));
    expect(Number(formatTick(small.hi, small))).toBeCloseTo(small.hi, 15);
  });
});

describe('freeRect', () => {
  const view = { left: 0, top: 0, right: 1280, bottom: 800 };

  it('is the whole window without panels', () => {
    expect(freeRect(view, [])).toEqual(view);
  });

  it('leaves out a side panel, a readout in the top right corner and plots in the bottom right', () => {
    const panel = { left: 12, top: 12, right: 302, bottom: 788 };
    const hud = { left: 900, top: 12, right: 1268, bottom: 40 };
    const plots = { left: 868, top: 470, right: 1268, bottom: 788 };
    const r = freeRect(view, [panel, hud, plots]);
    for (const p of [panel, hud, plots]) {
      const overlap = r.left < p.right && p.left < r.right && r.top < p.bottom && p.top < r.bottom;
      expect(overlap).toBe(false);
    }
    // brute force over a grid of rectangles: none free has a longer shorter side
    const side = Math.min(r.right - r.left, r.bottom - r.top);
    for (let x0 = 0; x0 < 1280; x0 += 40) for (let x1 = x0 + 40; x1 <= 1280; x1 += 40) for (let y0 = 0; y0 < 800; y0 += 40) for (let y1 = y0 + 40; y1 <= 800; y1 += 40) {
      const c = { left: x0, top: y0, right: x1, bottom: y1 };
      const free = [panel, hud, plots].every((p) => !(c.left < p.right + 6 && p.left - 6 < c.right && c.top < p.bottom + 6 && p.top - 6 < c.bottom));
      if (free) expect(Math.min(x1 - x0, y1 - y0)).toBeLessThanOrEqual(side);
    }
  });

  it('on a phone, is the band between the readout at the top and the panel at the bottom', () => {
    const phone = { left: 0, top: 0, right: 390, bottom: 844 };
    const r = freeRect(phone, [{ left: 8, top: 8, right: 382, bottom: 34 }, { left: 0, top: 750, right: 390, bottom: 844 }]);
    expect(r).toEqual({ left: 0, top: 40, right: 390, bottom: 744 });
  });
});

describe('SubjectBox', () => {
  it('holds every link origin and far end of the bodies named, padded, and nothing of the others', () => {
    const b = new ModelBuilder();
    // a 1 m rod on a hinge at (0, 2, 0): its centre of mass 0.5 m along x, its far end 1 m
    b.addLink({ name: 'rod', parent: null, joint: { type: 'revolute', axis: [0, 0, 1], position: [0, 2, 0] }, mass: 1, com: [0.5, 0, 0], inertia: [0.01, 0.1, 0.1, 0, 0, 0] });
    const model = b.build();
    const s = new State(model);
    s.q[0] = -Math.PI / 2; // hanging straight down
    forwardKinematics(model, s);
    const box = new SubjectBox(['rod']);
    expect(box.empty).toBe(true);
    box.add('other', model, s);
    expect(box.empty).toBe(true);
    box.add('rod', model, s);
    const p = SUBJECT_PAD;
    const want = [-p, 1 - p, -p, p, 2 + p, p];
    box.box.forEach((x, i) => expect(x).toBeCloseTo(want[i], 12));
  });
});
