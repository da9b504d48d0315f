/**
 * The humanoid preset against its sources: de Leva (1996) Table 4 (male segment masses, centres of
 * mass and radii of gyration; transcribed again here), the requested stature (measured on the
 * built model by forward kinematics and shape extents), the AAOS ranges of motion, and left/right
 * mirror symmetry.
 */
import { describe, expect, it } from 'vitest';
import { forwardKinematics, JointType, State, type Model } from '@sinew/featherstone';
import { characterFromJSON, characterToJSON, FormatError } from '../src/format/index.js';
import { humanoid } from '../src/presets/index.js';

/** de Leva 1996, Table 4, males: mass %, CoM % from the origin landmark, r_sag, r_trans, r_long % of length. */
const TABLE: Record<string, [number, number, number, number, number]> = {
  head: [6.94, 59.76, 36.2, 37.6, 31.2],
  thorax: [15.96, 29.99, 71.6, 45.4, 65.9], // upper trunk
  abdomen: [16.33, 45.02, 48.2, 38.3, 46.8], // middle trunk
  pelvis: [11.17, 61.15, 61.5, 55.1, 58.7], // lower trunk
  upper_arm: [2.71, 57.72, 28.5, 26.9, 15.8],
  forearm: [1.62, 45.74, 27.6, 26.5, 12.1],
  hand: [0.61, 79.0, 62.8, 51.3, 40.1],
  thigh: [14.16, 40.95, 32.9, 32.9, 14.9],
  shank: [4.33, 44.59, 25.5, 24.9, 10.3],
  foot: [1.37, 44.15, 25.7, 24.5, 12.4],
};
const segmentOf = (link: string): string => link.replace(/_(left|right)$/, '');
const DEG = Math.PI / 180;

function neutralPoses(model: Model): Float64Array {
  const st = new State(model);
  forwardKinematics(model, st, false);
  return st.work.pose;
}
const worldPoint = (P: Float64Array, i: number, p: ArrayLike<number>): number[] =>
  [0, 1, 2].map((k) => P[12 * i + 9 + k] + P[12 * i + 3 * k] * p[0] + P[12 * i + 3 * k + 1] * p[1] + P[12 * i + 3 * k + 2] * p[2]);
const dist = (a: number[], b: number[]): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Lowest and highest world Y of every shape (support function along Y), written for this test. */
function verticalExtent(model: Model): [number, number] {
  const P = neutralPoses(model);
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < model.nLinks; i++) {
    for (const s of model.shapes[i]) {
      const [x, y, z, w] = Array.from(s.rotation ?? [0, 0, 0, 1]);
      // rows of the shape's rotation in the link, then row Y of link-to-world times it
      const R = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
      const rowY = [0, 1, 2].map((k) => P[12 * i + 3] * R[k] + P[12 * i + 4] * R[3 + k] + P[12 * i + 5] * R[6 + k]);
      const c = worldPoint(P, i, s.position ?? [0, 0, 0])[1];
      const g = s.geometry;
      let e: number;
      if (g.type === 'sphere') e = g.radius;
      else if (g.type === 'capsule') e = Math.abs(rowY[1]) * g.halfLength + g.radius;
      else if (g.type === 'box') e = Array.from(g.halfExtents).reduce((sum, h, k) => sum + Math.abs(rowY[k]) * h, 0);
      else throw new Error(g.type);
      lo = Math.min(lo, c - e);
      hi = Math.max(hi, c + e);
    }
  }
  return [lo, hi];
}

describe('humanoid preset', () => {
  const sizes: [number, number][] = [[1.8, 75], [1.62, 58.7], [1.95, 102.3], [1.5, 45.1]];

  it('has 16 links with the joint types asked for', () => {
    const m = characterFromJSON(humanoid()).model;
    const types = Object.fromEntries(m.linkNames.map((n, i) => [n, m.jointType[i]]));
    expect(m.nLinks).toBe(16);
    expect(types.pelvis).toBe(JointType.free);
    for (const n of ['abdomen', 'thorax', 'head', 'upper_arm_left', 'hand_left', 'thigh_left', 'foot_left']) expect(types[n], n).toBe(JointType.spherical);
    for (const n of ['forearm_right', 'shank_right']) expect(types[n], n).toBe(JointType.revolute);
    expect(m.nv).toBe(6 + 3 * 11 + 4);
  });

  for (const [H, M] of sizes) {
    it(`${H} m, ${M} kg: total mass exactly ${M}, de Leva's mass fractions, standing height within 3 %`, () => {
      const { model } = characterFromJSON(humanoid({ height: H, mass: M }));
      expect(model.totalMass()).toBe(M);
      for (let i = 0; i < model.nLinks; i++) {
        const f = TABLE[segmentOf(model.linkNames[i])][0];
        expect(model.mass[i] / M).toBeCloseTo(f / 100, 13);
      }
      const [lo, hi] = verticalExtent(model);
      expect(Math.abs(hi - lo - H) / H).toBeLessThan(0.03);
      // q = 0 stands on the floor
      expect(Math.abs(lo)).toBeLessThan(1e-12);
    });
  }

  it('centres of mass at de Leva\'s percentages of the landmark-to-landmark lengths', () => {
    const H = 1.8;
    const { model } = characterFromJSON(humanoid({ height: H }));
    const P = neutralPoses(model);
    const at = (name: string) => model.linkIndex(name);
    const origin = (name: string) => worldPoint(P, at(name), [0, 0, 0]);
    const com = (name: string) => worldPoint(P, at(name), model.com.subarray(3 * at(name), 3 * at(name) + 3));
    // limbs: from the proximal joint toward the distal joint
    const limbs: [string, string][] = [['upper_arm_left', 'forearm_left'], ['forearm_left', 'hand_left'], ['thigh_right', 'shank_right'], ['shank_right', 'foot_right']];
    for (const [seg, next] of limbs) {
      const a = origin(seg), b = origin(next), c = com(seg);
      expect(dist(a, c) / dist(a, b), seg).toBeCloseTo(TABLE[segmentOf(seg)][1] / 100, 13);
      expect(dist(a, c) + dist(c, b)).toBeCloseTo(dist(a, b), 13); // on the segment
    }
    // trunk segments: from the cranial landmark (the next joint up) toward the caudal one (the link's joint)
    const trunk: [string, string][] = [['pelvis', 'abdomen'], ['abdomen', 'thorax'], ['thorax', 'head']];
    for (const [seg, up] of trunk) {
      const a = origin(up), b = origin(seg), c = com(seg);
      expect(dist(a, c) / dist(a, b), seg).toBeCloseTo(TABLE[seg][1] / 100, 13);
    }
    // head: from the vertex (the top of the model) to the cervicale (the neck joint)
    const vertex = [0, verticalExtent(model)[1], 0];
    expect(dist(vertex, com('head')) / dist(vertex, origin('head'))).toBeCloseTo(TABLE.head[1] / 100, 13);
    // radii of gyration: thigh about the transverse (X) and longitudinal (Y) axes
    const i = at('thigh_left'), L = dist(origin('thigh_left'), origin('shank_left'));
    expect(Math.sqrt(model.inertiaCom[6 * i] / model.mass[i]) / L).toBeCloseTo(TABLE.thigh[3] / 100, 13);
    expect(Math.sqrt(model.inertiaCom[6 * i + 1] / model.mass[i]) / L).toBeCloseTo(TABLE.thigh[4] / 100, 13);
    expect(Math.sqrt(model.inertiaCom[6 * i + 2] / model.mass[i]) / L).toBeCloseTo(TABLE.thigh[2] / 100, 13);
    // the foot's longitudinal axis is Z
    const f = at('foot_left');
    const footLen = 0.152 * H;
    expect(Math.sqrt(model.inertiaCom[6 * f + 2] / model.mass[f]) / footLen).toBeCloseTo(TABLE.foot[4] / 100, 13);
    expect(Math.sqrt(model.inertiaCom[6 * f + 1] / model.mass[f]) / footLen).toBeCloseTo(TABLE.foot[2] / 100, 13);
  });

  it('every joint range contains the neutral pose; AAOS values for knees, elbows, hips and shoulders', () => {
    const { model } = characterFromJSON(humanoid());
    let checked = 0;
    for (let i = 0; i < model.nLinks; i++) {
      const t = model.jointType[i];
      if (t === JointType.revolute) {
        const d = model.vOffset[i];
        expect(model.lower[d]).toBeLessThanOrEqual(0);
        expect(model.upper[d]).toBeGreaterThanOrEqual(0);
        checked++;
      } else if (t === JointType.spherical) {
        const l = model.sphericalLimits[i]!;
        expect(l.twist[0]).toBeLessThanOrEqual(0);
        expect(l.twist[1]).toBeGreaterThanOrEqual(0);
        expect(l.swing[0]).toBeGreaterThan(0);
        expect(l.swing[1]).toBeGreaterThan(0);
        checked++;
      }
    }
    expect(checked).toBe(15);
    const j = (n: string) => model.joint(n);
    expect([model.lower[j('knee_left').v], model.upper[j('knee_left').v]]).toEqual([0, 135 * DEG]);
    expect([model.lower[j('elbow_right').v], model.upper[j('elbow_right').v]]).toEqual([0, 150 * DEG]);
    const hip = model.sphericalLimits[j('hip_left').link]!;
    expect(hip.swing).toEqual([75 * DEG, 37.5 * DEG]); // (flexion 120 + extension 30) / 2, (abduction 45 + adduction 30) / 2
    expect(hip.twist).toEqual([-45 * DEG, 45 * DEG]);
    const shoulder = model.sphericalLimits[j('shoulder_left').link]!;
    expect(shoulder.swing).toEqual([120 * DEG, 90 * DEG]);
    expect(shoulder.twist).toEqual([-90 * DEG, 70 * DEG]); // external 90, internal 70
  });

  it('is mirror symmetric: masses, inertias, centres of mass, joint frames, limits and shapes', () => {
    const { model } = characterFromJSON(humanoid());
    const mirrorVec = (v: ArrayLike<number>) => [-v[0], v[1], v[2]];
    // an axial vector (rotation axis) reflects as -M a
    const mirrorAxis = (v: ArrayLike<number>) => [v[0], -v[1], -v[2]];
    let pairs = 0;
    for (let l = 0; l < model.nLinks; l++) {
      const name = model.linkNames[l];
      if (!name.endsWith('_left')) continue;
      const r = model.linkIndex(name.replace('_left', '_right'));
      pairs++;
      expect(model.mass[r]).toBe(model.mass[l]);
      const Il = model.inertiaCom.subarray(6 * l, 6 * l + 6), Ir = model.inertiaCom.subarray(6 * r, 6 * r + 6);
      expect(Array.from(Ir)).toEqual([Il[0], Il[1], Il[2], -Il[3] + 0, -Il[4] + 0, Il[5]]);
      expect(Array.from(model.com.subarray(3 * r, 3 * r + 3))).toEqual(mirrorVec(model.com.subarray(3 * l, 3 * l + 3)).map((x) => x + 0));
      expect([model.treeX[12 * r + 9], model.treeX[12 * r + 10], model.treeX[12 * r + 11]]).toEqual(mirrorVec(model.treeX.subarray(12 * l + 9, 12 * l + 12)).map((x) => x + 0));
      if (model.jointType[l] === JointType.revolute) {
        expect(Array.from(model.axis.subarray(3 * r, 3 * r + 3))).toEqual(mirrorAxis(model.axis.subarray(3 * l, 3 * l + 3)).map((x) => x + 0));
        expect([model.lower[model.vOffset[r]], model.upper[model.vOffset[r]]]).toEqual([model.lower[model.vOffset[l]], model.upper[model.vOffset[l]]]);
      } else {
        const a = model.sphericalLimits[l]!, b = model.sphericalLimits[r]!;
        expect(b.swing).toEqual(a.swing);
        // the same twist about the mirrored axis; about the same stated axis, the range negated
        const m = mirrorAxis(a.twistAxis);
        const sameAxis = m.every((x, k) => x === b.twistAxis[k]);
        expect(b.twist).toEqual(sameAxis ? a.twist : [-a.twist[1], -a.twist[0]]);
      }
      const sl = model.shapes[l][0], sr = model.shapes[r][0];
      expect(sr.geometry).toEqual(sl.geometry);
      expect(Array.from(sr.position!)).toEqual(mirrorVec(sl.position!).map((x) => x + 0));
    }
    expect(pairs).toBe(6);
  });

  it('round-trips through JSON text exactly', () => {
    const a = characterFromJSON(humanoid({ height: 1.71, mass: 68.2 }));
    const b = characterFromJSON(JSON.stringify(characterToJSON(a.model, a.drives)));
    for (const f of ['treeX', 'axis', 'mass', 'com', 'inertiaCom', 'I', 'lower', 'upper'] as const) {
      expect(Buffer.from(b.model[f].buffer).equals(Buffer.from(a.model[f].buffer)), f).toBe(true);
    }
    expect(b.drives).toEqual(a.drives);
    expect(b.model.totalMass()).toBe(68.2);
  });

  it('refuses bad options with the option\'s path', () => {
    expect(() => humanoid({ height: -1 })).toThrow(FormatError);
    expect(() => humanoid({ height: -1 })).toThrow(/^options\.height: expected a positive finite number \(got -1\)$/);
    expect(() => humanoid({ mass: Number.NaN })).toThrow(/^options\.mass: /);
  });
});
