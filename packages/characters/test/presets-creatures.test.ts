/** The quadruped and snake presets: mass, standing on the ground, ranges, symmetry, JSON round trip. */
import { describe, expect, it } from 'vitest';
import { forwardKinematics, JointType, State, type Model } from '@sinew/featherstone';
import { characterFromJSON, characterToJSON, FormatError } from '../src/format/index.js';
import { quadruped, snake } from '../src/presets/index.js';

/** World-axis extents [min, max] along axis k of all shapes at the neutral pose (support functions, written here). */
function extent(model: Model, k: number): [number, number] {
  const st = new State(model);
  forwardKinematics(model, st, false);
  const P = st.work.pose;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < model.nLinks; i++) {
    for (const s of model.shapes[i]) {
      const [x, y, z, w] = Array.from(s.rotation ?? [0, 0, 0, 1]);
      const R = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
      const row = [0, 1, 2].map((c) => P[12 * i + 3 * k] * R[c] + P[12 * i + 3 * k + 1] * R[3 + c] + P[12 * i + 3 * k + 2] * R[6 + c]);
      const p = s.position ?? [0, 0, 0];
      const centre = P[12 * i + 9 + k] + P[12 * i + 3 * k] * p[0] + P[12 * i + 3 * k + 1] * p[1] + P[12 * i + 3 * k + 2] * p[2];
      const g = s.geometry;
      const e = g.type === 'sphere' ? g.radius
        : g.type === 'capsule' ? Math.abs(row[1]) * g.halfLength + g.radius
          : g.type === 'box' ? Array.from(g.halfExtents).reduce((sum, h, c) => sum + Math.abs(row[c]) * h, 0) : NaN;
      lo = Math.min(lo, centre - e);
      hi = Math.max(hi, centre + e);
    }
  }
  return [lo, hi];
}

function rangesContainZero(model: Model): number {
  let n = 0;
  for (let i = 0; i < model.nLinks; i++) {
    if (model.jointType[i] === JointType.revolute) {
      expect(model.lower[model.vOffset[i]]).toBeLessThanOrEqual(0);
      expect(model.upper[model.vOffset[i]]).toBeGreaterThanOrEqual(0);
      n++;
    } else if (model.jointType[i] === JointType.spherical) {
      const l = model.sphericalLimits[i]!;
      expect(l.twist[0] <= 0 && l.twist[1] >= 0).toBe(true);
      n++;
    }
  }
  return n;
}

describe('quadruped preset', () => {
  it('11 links, exact total mass, masses in proportion to shape volumes, standing on y = 0', () => {
    for (const [L, M] of [[0.8, 25], [1.3, 61.7]]) {
      const { model } = characterFromJSON(quadruped({ length: L, mass: M }));
      expect(model.nLinks).toBe(11);
      expect(model.totalMass()).toBe(M);
      const [lo] = extent(model, 1);
      expect(Math.abs(lo)).toBeLessThan(1e-12);
      // the torso box: 0.3 L x 0.3 L x L; a leg's upper capsule: radius 0.06 L, tip to tip 0.3 L
      const box = 0.09 * L ** 3;
      const upper = Math.PI * (0.06 * L) ** 2 * (0.3 * L - 0.12 * L) + (4 / 3) * Math.PI * (0.06 * L) ** 3;
      const m = (n: string) => model.mass[model.linkIndex(n)];
      expect(m('torso') / m('front_upper_leg_left')).toBeCloseTo(box / upper, 12);
    }
  });

  it('every range contains the neutral pose; left and right legs mirror each other', () => {
    const { model } = characterFromJSON(quadruped());
    expect(rangesContainZero(model)).toBe(10);
    for (const end of ['front', 'hind']) {
      for (const part of ['upper', 'lower']) {
        const l = model.linkIndex(`${end}_${part}_leg_left`), r = model.linkIndex(`${end}_${part}_leg_right`);
        expect(model.mass[r]).toBe(model.mass[l]);
        expect(Array.from(model.inertiaCom.subarray(6 * r, 6 * r + 6))).toEqual(Array.from(model.inertiaCom.subarray(6 * l, 6 * l + 6)).map((x, k) => (k === 3 || k === 4 ? -x : x) + 0));
        expect(model.treeX[12 * r + 9]).toBe(-model.treeX[12 * l + 9] + 0);
        expect(model.treeX[12 * r + 11]).toBe(model.treeX[12 * l + 11]);
      }
    }
  });

  it('round-trips through JSON text', () => {
    const a = characterFromJSON(quadruped({ length: 0.9 }));
    const b = characterFromJSON(JSON.stringify(characterToJSON(a.model, a.drives)));
    for (const f of ['treeX', 'mass', 'inertiaCom', 'lower', 'upper'] as const) expect(Array.from(b.model[f])).toEqual(Array.from(a.model[f]));
    expect(b.drives).toEqual(a.drives);
  });
});

describe('snake preset', () => {
  it('n equal links along Z, alternating yaw and pitch hinges, lying on y = 0, exact mass', () => {
    for (const n of [1, 2, 7, 12]) {
      const length = 1.5, mass = 3.3, radius = 0.03;
      const { model } = characterFromJSON(snake({ segments: n, length, mass, radius }));
      expect(model.nLinks).toBe(n);
      expect(model.totalMass()).toBe(mass);
      for (let i = 1; i < n; i++) {
        expect(model.mass[i]).toBeCloseTo(mass / n, 13);
        expect(Array.from(model.axis.subarray(3 * i, 3 * i + 3))).toEqual(i % 2 === 1 ? [0, 1, 0] : [1, 0, 0]);
      }
      const [zlo, zhi] = extent(model, 2);
      expect(zhi - zlo).toBeCloseTo(length, 13);
      expect(extent(model, 1)[0]).toBeCloseTo(0, 14);
      expect(rangesContainZero(model)).toBe(n - 1);
    }
  });

  it('refuses impossible options', () => {
    expect(() => snake({ segments: 0 })).toThrow(FormatError);
    expect(() => snake({ segments: 2.5 })).toThrow(/^options\.segments: expected an integer >= 1/);
    expect(() => snake({ segments: 10, length: 0.5, radius: 0.05 })).toThrow(/^options\.radius: expected at most half a segment's length/);
  });
});
