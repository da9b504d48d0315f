/**
 * Motion clips: sampling against an independent slerp formula (acos form), looping and clamping,
 * jumps at repeated times, and angular velocities against motions whose velocity is known.
 */
import { describe, expect, it } from 'vitest';
import { clipVelocity, MotionClip, Skeleton } from '../src/motion/index.js';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Q = number[];
const randomQuat = (r: () => number): Q => {
  const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
  const n = Math.hypot(...q);
  return q.map((x) => x / n);
};
const dot = (a: Q, b: Q) => a.reduce((s, x, i) => s + x * b[i], 0);
/** Textbook slerp: sin((1-u) th) / sin th a + sin(u th) / sin th b, th = acos(a . b), shorter arc. */
function slerp(a: Q, b: Q, u: number): Q {
  if (dot(a, b) < 0) b = b.map((x) => -x);
  const th = Math.acos(Math.min(1, dot(a, b)));
  if (th < 1e-10) return a.map((x, i) => x + u * (b[i] - x));
  return a.map((x, i) => (Math.sin((1 - u) * th) * x + Math.sin(u * th) * b[i]) / Math.sin(th));
}
/** Same rotation: q and -q are equal. */
const rotationGap = (a: Q, b: Q) => Math.min(Math.max(...a.map((x, i) => Math.abs(x - b[i]))), Math.max(...a.map((x, i) => Math.abs(x + b[i]))));
const mulQ = (a: Q, b: Q): Q => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const expQ = (w: number[], t: number): Q => {
  const th = Math.hypot(...w) * t;
  const s = th > 0 ? Math.sin(th / 2) / Math.hypot(...w) : 0;
  return [w[0] * s, w[1] * s, w[2] * s, Math.cos(th / 2)];
};

const skeleton = new Skeleton('three', [
  { name: 'root', parent: -1, offset: [0, 1, 0] },
  { name: 'a', parent: 0, offset: [0, 0.5, 0] },
  { name: 'b', parent: 1, offset: [0.3, 0, 0], endSites: [[0.2, 0, 0]] },
]);

function randomClip(seed: number, times: number[], wrap: 'clamp' | 'loop' = 'clamp') {
  const r = rng(seed);
  const rot = times.flatMap(() => [0, 1, 2].flatMap(() => randomQuat(r)));
  const tr = times.flatMap(() => [0, 1, 2].flatMap(() => [r() - 0.5, r() + 0.5, r() - 0.5]));
  return { clip: new MotionClip({ name: 'random', skeleton, times, rotations: rot, translations: tr, wrap }), rot, tr };
}

describe('MotionClip sampling', () => {
  it('between keys equals the textbook slerp and lerp (uniform and uneven times, 600 samples)', () => {
    let checks = 0, worst = 0;
    for (const times of [[0, 0.1, 0.2, 0.3, 0.4, 0.5], [0, 0.05, 0.3, 0.31, 1.2, 2]]) {
      const { clip, rot, tr } = randomClip(3, times);
      expect(clip.uniformStep > 0).toBe(times[1] === 0.1);
      const pose = clip.createPose();
      const r = rng(17);
      for (let s = 0; s < 100; s++) {
        const k = Math.floor(r() * (times.length - 1)), u = r();
        clip.sample(times[k] + u * (times[k + 1] - times[k]), pose);
        for (let b = 0; b < 3; b++) {
          const a = rot.slice(12 * k + 4 * b, 12 * k + 4 * b + 4), c = rot.slice(12 * (k + 1) + 4 * b, 12 * (k + 1) + 4 * b + 4);
          worst = Math.max(worst, rotationGap(Array.from(pose.rotations.subarray(4 * b, 4 * b + 4)), slerp(a, c, u)));
          for (let i = 0; i < 3; i++) {
            const want = tr[9 * k + 3 * b + i] + u * (tr[9 * (k + 1) + 3 * b + i] - tr[9 * k + 3 * b + i]);
            expect(pose.translations[3 * b + i]).toBeCloseTo(want, 12);
          }
          checks++;
        }
      }
    }
    expect(checks).toBe(600);
    expect(worst).toBeLessThan(1e-9);
  });

  it('at a key returns the key; the shorter arc is taken even when keys flip sign', () => {
    const times = [0, 1];
    const q = [0, Math.sin(0.2), 0, Math.cos(0.2)];
    const neg = [0, -Math.sin(0.3), 0, -Math.cos(0.3)]; // = a 0.6 rad turn about +Y, written with w < 0
    const clip = new MotionClip({ skeleton, times, rotations: [...q, ...q, ...q, ...neg, ...neg, ...neg] });
    const pose = clip.sample(0.5, clip.createPose());
    // halfway between 0.4 rad and 0.6 rad about Y: 0.5 rad
    expect(rotationGap(Array.from(pose.rotations.subarray(0, 4)), [0, Math.sin(0.25), 0, Math.cos(0.25)])).toBeLessThan(1e-14);
    expect(rotationGap(Array.from(clip.sample(1, pose).rotations.subarray(0, 4)), neg)).toBeLessThan(1e-15);
  });

  it('looping wraps by the duration; clamping holds the end samples', () => {
    const times = [0.5, 0.6, 0.7, 0.8, 0.9];
    const { clip } = randomClip(8, times, 'loop');
    const a = clip.createPose(), b = clip.createPose();
    const r = rng(4);
    for (let s = 0; s < 50; s++) {
      const t = 0.5 + 0.4 * r();
      clip.sample(t, a);
      for (const n of [-3, -1, 1, 2, 7]) {
        clip.sample(t + n * clip.duration, b);
        for (let i = 0; i < a.rotations.length; i++) expect(b.rotations[i]).toBeCloseTo(a.rotations[i], 9);
        for (let i = 0; i < a.translations.length; i++) expect(b.translations[i]).toBeCloseTo(a.translations[i], 9);
      }
    }
    // the end of a loop is its start
    expect(Array.from(clip.sample(0.9, a).rotations)).toEqual(Array.from(clip.frame(0).rotations));
    // clamped: before the start and after the end
    expect(Array.from(clip.sample(-10, a, 'clamp').rotations)).toEqual(Array.from(clip.frame(0).rotations));
    expect(Array.from(clip.sample(10, a, 'clamp').translations)).toEqual(Array.from(clip.frame(4).translations));
  });

  it('repeated times make a jump: right-continuous at the repeated time', () => {
    const q0 = [0, 0, 0, 1], q1 = [0, 0, Math.sin(0.5), Math.cos(0.5)];
    const rot = (q: Q) => [...q, ...q, ...q];
    const clip = new MotionClip({ skeleton, times: [0, 1, 1, 2], rotations: [...rot(q0), ...rot(q0), ...rot(q1), ...rot(q1)] });
    const p = clip.createPose();
    expect(rotationGap(Array.from(clip.sample(0.999999, p).rotations.subarray(0, 4)), q0)).toBe(0);
    expect(rotationGap(Array.from(clip.sample(1, p).rotations.subarray(0, 4)), q1)).toBe(0);
    expect(rotationGap(Array.from(clip.sample(1.5, p).rotations.subarray(0, 4)), q1)).toBe(0);
  });

  it('refuses bad data with RangeErrors that say what is wrong', () => {
    expect(() => new MotionClip({ skeleton, times: [0, 1], rotations: new Array(12).fill(0.5) })).toThrow(/expected 2 x 3 x 4/);
    expect(() => new MotionClip({ skeleton, times: [1, 0], rotations: new Array(24).fill(0.5) })).toThrow(/before time 0/);
    expect(() => new MotionClip({ skeleton, times: [0], rotations: [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1] })).toThrow(/zero rotation/);
    expect(() => new MotionClip({ skeleton, times: [0], rotations: [NaN, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1] })).toThrow(/not finite/);
    const { clip } = randomClip(1, [0, 1]);
    expect(() => clip.sample(NaN)).toThrow(/not finite/);
  });
});

describe('clip velocities by differences on the rotation manifold', () => {
  it('a constant body-frame angular velocity is recovered exactly (120 Hz samples)', () => {
    const w = [[1.3, -0.4, 2.1], [0, 0, 6], [-0.2, 0.1, 0.05]];
    const q0 = [[0, 0, 0, 1], [0.1, 0.7, -0.1, 0.7], [0.5, 0.5, 0.5, 0.5]].map((q) => q.map((x) => x / Math.hypot(...q)));
    const times = Array.from({ length: 121 }, (_, k) => k / 120);
    const rotations = times.flatMap((t) => [0, 1, 2].flatMap((b) => mulQ(q0[b], expQ(w[b], t))));
    const translations = times.flatMap((t) => [0, 1, 2].flatMap((b) => [t * (b + 1), -2 * t, 0.5]));
    const clip = new MotionClip({ skeleton, times, rotations, translations });
    let worst = 0;
    for (const t of [0, 0.013, 0.5, 0.77, 1]) {
      const v = clipVelocity(clip, t);
      for (let b = 0; b < 3; b++) {
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(v.angular[3 * b + c] - w[b][c]));
        expect(v.linear[3 * b]).toBeCloseTo(b + 1, 9);
        expect(v.linear[3 * b + 1]).toBeCloseTo(-2, 9);
      }
    }
    expect(worst).toBeLessThan(1e-9);
  });

  it('a varying rate: second order at the midpoints between samples, first order anywhere', () => {
    // q(t) = exp(a t^3 / 3 about a fixed axis n): body rate a t^2 n. The clip moves along the
    // geodesic between samples, so its rate is the samples' central difference.
    const n = [2, -1, 2].map((x) => x / 3), a = 3;
    const gapAt = (hz: number, where: number) => {
      const times = Array.from({ length: hz + 1 }, (_, k) => k / hz);
      const rotations = times.flatMap((t) => [0, 1, 2].flatMap(() => expQ(n, (a * t ** 3) / 3)));
      const clip = new MotionClip({ skeleton, times, rotations });
      const t = 0.5 + where / hz;
      const v = clipVelocity(clip, t);
      return Math.max(...[0, 1, 2].map((c) => Math.abs(v.angular[c] - a * t * t * n[c])));
    };
    const [m60, m240] = [gapAt(60, 0.5), gapAt(240, 0.5)];
    expect(m60).toBeLessThan(1e-3);
    expect(m240).toBeLessThan(m60 / 12); // 16 for exact second order
    const [q60, q240] = [gapAt(60, 0.2), gapAt(240, 0.2)];
    expect(q60).toBeLessThan(a * 2 * 0.5 / 60); // at most the rate's change over one interval
    expect(q240).toBeLessThan(q60 / 3);
  });
});
