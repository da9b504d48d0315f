/**
 * glTF features the sample files do not use, on a small file written here: STEP and CUBICSPLINE
 * samplers, normalized SHORT rotations, a sparse accessor, byteStride, a node matrix with
 * uniform scale above the skeleton, an animated non-joint ancestor, and skinned vertices.
 * Expected values come from the numbers written into the file and formulas in this test.
 */
import { inv, multiply } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { importGltf } from '../src/gltf/index.js';

type V = number[];
const qAxis = (axis: V, angle: number): V => [...axis.map((a) => a * Math.sin(angle / 2)), Math.cos(angle / 2)];
const qNorm = (q: V) => q.map((x) => x / Math.hypot(...q));
const qMat = (q: V): number[][] => {
  const [x, y, z, w] = qNorm(q);
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
};
const trs = (t: V, q: V, s: number): number[][] => {
  const R = qMat(q);
  return [[...R[0].map((v) => v * s), t[0]], [...R[1].map((v) => v * s), t[1]], [...R[2].map((v) => v * s), t[2]], [0, 0, 0, 1]];
};
const colMajor = (m: number[][]) => [0, 1, 2, 3].flatMap((c) => [0, 1, 2, 3].map((r) => m[r][c]));
const rotDiff = (a: V, b: V) => Math.max(...qMat(a).flatMap((row, r) => row.map((v, c) => Math.abs(v - qMat(b)[r][c]))));
const hermite = (p0: V, m0: V, p1: V, m1: V, s: number, td: number) =>
  p0.map((_, i) => (2 * s ** 3 - 3 * s ** 2 + 1) * p0[i] + (s ** 3 - 2 * s ** 2 + s) * td * m0[i] + (-2 * s ** 3 + 3 * s ** 2) * p1[i] + (s ** 3 - s ** 2) * td * m1[i]);

/** Collects binary data and writes bufferViews and accessors. */
class Writer {
  bytes: number[] = [];
  views: any[] = [];
  accessors: any[] = [];
  view(data: Uint8Array, stride?: number): number {
    while (this.bytes.length % 4) this.bytes.push(0);
    this.views.push({ buffer: 0, byteOffset: this.bytes.length, byteLength: data.length, ...(stride ? { byteStride: stride } : {}) });
    this.bytes.push(...data);
    return this.views.length - 1;
  }
  floats(values: number[][], type: string, stride?: number): number {
    const n = values[0].length, es = stride ?? 4 * n;
    const buf = new Uint8Array(es * values.length);
    const dv = new DataView(buf.buffer);
    values.forEach((v, e) => v.forEach((x, c) => dv.setFloat32(e * es + 4 * c, x, true)));
    this.accessors.push({ bufferView: this.view(buf, stride), componentType: 5126, count: values.length, type });
    return this.accessors.length - 1;
  }
}

const ARMATURE_T = [1, 0.5, 0], ARMATURE_Q = qAxis([0, 0, 1], Math.PI / 6), ARMATURE_S = 2;
const HIP_T = [0, 1, 0], KNEE_T = [0, -0.5, 0], FOOT_T = [0, -0.5, 0.1], TAIL_T = [0, 0, -0.3];
const KNEE_Q = qAxis([1, 0, 0], 0.2);
const STEP_KEYS = [qAxis([1, 0, 0], 0.1), qAxis([1, 0, 0], 0.7), qAxis([0, 1, 0], -0.4)];
const CUBIC_TIMES = [0, 1, 2];
const CUBIC_ROT = [ // in-tangent, value, out-tangent per key
  [[0, 0, 0, 0], qAxis([0, 0, 1], 0), [0.1, 0, 0.2, 0]],
  [[0, 0.3, 0, 0], qAxis([0, 0, 1], 0.9), [0.2, -0.1, 0, 0]],
  [[0, 0, 0.1, 0], qAxis([1, 0, 0], 0.5), [0, 0, 0, 0]],
];
const CUBIC_POS = [
  [[0, 0, 0], [0, 1, 0], [0.5, 0, 0]],
  [[0, 0.2, 0], [0.3, 1.2, 0], [0, 0, 0.4]],
  [[0.1, 0, 0], [0, 1, 0.2], [0, 0, 0]],
];
const SHORT_KEYS = [[0, 0, 0, 32767], [12000, -3000, 500, 30000], [-32768, 0, 0, 100]];
const SPARSE_BASE = [[0, -0.5, 0], [0, -0.5, 0], [0, -0.5, 0]], SPARSE_VALUE = [0.05, -0.6, 0.02];

function build(): { json: any; bin: Uint8Array } {
  const w = new Writer();
  const nodes: any[] = [
    { name: 'Armature', matrix: colMajor(trs(ARMATURE_T, ARMATURE_Q, ARMATURE_S)), children: [1] },
    { name: 'hip', translation: HIP_T, children: [2, 5] },
    { name: 'knee', translation: KNEE_T, rotation: KNEE_Q, children: [3] },
    { name: 'foot', translation: FOOT_T },
    { name: 'body', mesh: 0, skin: 0 },
    { name: 'tail', translation: TAIL_T },
  ];
  // bind pose = the nodes' rest pose; vertices 0.05 around each joint's head in its frame
  const world = (i: number): number[][] => {
    const local = nodes[i].matrix ? [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => nodes[i].matrix[4 * c + r])) : trs(nodes[i].translation ?? [0, 0, 0], nodes[i].rotation ?? [0, 0, 0, 1], 1);
    const p = nodes.findIndex((n) => (n.children ?? []).includes(i));
    return p < 0 ? local : (multiply(world(p), local) as number[][]);
  };
  const joints = [1, 2, 3, 5];
  const ibm = w.floats(joints.map((j) => colMajor(inv(world(j)) as number[][])), 'MAT4');
  const positions: number[][] = [], jointIdx: number[][] = [], weights: number[][] = [];
  joints.forEach((j, k) => {
    for (const local of [[0.05, 0.1, 0], [-0.05, 0.1, 0], [0, 0.1, 0.05], [0, 0.1, -0.05], [0.05, 0.05, 0.05], [-0.05, 0.05, -0.05], [0.03, 0.2, 0], [0, 0.15, 0.03]]) {
      const W = world(j);
      positions.push([0, 1, 2].map((r) => W[r][0] * local[0] + W[r][1] * local[1] + W[r][2] * local[2] + W[r][3]));
      jointIdx.push([k, (k + 1) % 4, 0, 0]);
      weights.push([255, 0, 0, 0]);
    }
  });
  const pos = w.floats(positions, 'VEC3', 16); // strided
  w.accessors.push({ bufferView: w.view(Uint8Array.from(jointIdx.flat())), componentType: 5121, count: jointIdx.length, type: 'VEC4' });
  const jnt = w.accessors.length - 1;
  w.accessors.push({ bufferView: w.view(Uint8Array.from(weights.flat())), componentType: 5121, normalized: true, count: weights.length, type: 'VEC4' });
  const wgt = w.accessors.length - 1;

  const stepT = w.floats([[0], [0.5], [1]], 'SCALAR');
  const stepV = w.floats(STEP_KEYS, 'VEC4');
  const cubicT = w.floats(CUBIC_TIMES.map((t) => [t]), 'SCALAR');
  const cubicR = w.floats(CUBIC_ROT.flat(), 'VEC4');
  const cubicP = w.floats(CUBIC_POS.flat(), 'VEC3');
  const shorts = new Uint8Array(8 * 3);
  SHORT_KEYS.flat().forEach((v, i) => new DataView(shorts.buffer).setInt16(2 * i, v, true));
  w.accessors.push({ bufferView: w.view(shorts), componentType: 5122, normalized: true, count: 3, type: 'VEC4' });
  const shortV = w.accessors.length - 1;
  const base = w.floats(SPARSE_BASE, 'VEC3');
  const sparseIdx = w.view(Uint8Array.of(1));
  const sparseVal = w.view(new Uint8Array(Float32Array.from(SPARSE_VALUE).buffer));
  w.accessors.push({ ...w.accessors[base], sparse: { count: 1, indices: { bufferView: sparseIdx, componentType: 5121 }, values: { bufferView: sparseVal } } });
  const sparse = w.accessors.length - 1;
  const armT = w.floats([[0], [1]], 'SCALAR');
  const armV = w.floats([[0, 0, 0, 1], qAxis([0, 1, 0], 1.2)], 'VEC4');

  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0, 4] }],
    nodes,
    meshes: [{ primitives: [{ attributes: { POSITION: pos, JOINTS_0: jnt, WEIGHTS_0: wgt } }] }],
    skins: [{ joints, inverseBindMatrices: ibm, skeleton: 1 }],
    animations: [
      { name: 'steps', samplers: [{ input: stepT, output: stepV, interpolation: 'STEP' }], channels: [{ sampler: 0, target: { node: 2, path: 'rotation' } }] },
      {
        name: 'cubic',
        samplers: [{ input: cubicT, output: cubicR, interpolation: 'CUBICSPLINE' }, { input: cubicT, output: cubicP, interpolation: 'CUBICSPLINE' }],
        channels: [{ sampler: 0, target: { node: 3, path: 'rotation' } }, { sampler: 1, target: { node: 1, path: 'translation' } }],
      },
      {
        name: 'packed',
        samplers: [{ input: stepT, output: shortV }, { input: stepT, output: sparse }],
        channels: [{ sampler: 0, target: { node: 1, path: 'rotation' } }, { sampler: 1, target: { node: 2, path: 'translation' } }],
      },
      { name: 'armature', samplers: [{ input: armT, output: armV }], channels: [{ sampler: 0, target: { node: 0, path: 'rotation' } }] },
    ],
    accessors: w.accessors,
    bufferViews: w.views,
    buffers: [{ byteLength: w.bytes.length }],
  };
  return { json, bin: Uint8Array.from(w.bytes) };
}

function load(extra: Record<string, unknown> = {}) {
  const { json, bin } = build();
  json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  return importGltf(JSON.stringify(json), { file: 'encodings.gltf', ...extra });
}

describe('glTF encodings on a file written here', () => {
  const r = load();
  const sk = r.skeleton;
  const idx = (n: string) => sk.indexOf(n);

  it('skeleton: scaled armature matrix above the root, offsets in metres, vertices in bone frames', () => {
    expect(sk.bones.map((b) => b.name)).toEqual(['hip', 'knee', 'foot', 'tail']);
    expect(r.warnings).toEqual([]);
    const hip = sk.bones[0];
    // root: armature transform applied to the hip's translation, rotation the armature's
    const A = trs(ARMATURE_T, ARMATURE_Q, ARMATURE_S);
    const want = [0, 1, 2].map((r) => A[r][0] * HIP_T[0] + A[r][1] * HIP_T[1] + A[r][2] * HIP_T[2] + A[r][3]);
    for (let c = 0; c < 3; c++) expect(hip.offset[c]).toBeCloseTo(want[c], 12);
    expect(rotDiff(Array.from(hip.rotation), ARMATURE_Q)).toBeLessThan(1e-12);
    // child offsets carry the armature's scale of 2
    for (let c = 0; c < 3; c++) expect(sk.bones[idx('knee')].offset[c]).toBeCloseTo(2 * KNEE_T[c], 12);
    for (let c = 0; c < 3; c++) expect(sk.bones[idx('foot')].offset[c]).toBeCloseTo(2 * FOOT_T[c], 12);
    expect(rotDiff(Array.from(sk.bones[idx('knee')].rotation), KNEE_Q)).toBeLessThan(1e-12);
    // each bone owns its 8 vertices, at twice their local offsets (scale 2), float32-rounded
    for (const b of sk.bones) {
      expect(b.vertices!.length).toBe(24);
      expect(b.vertices![0]).toBeCloseTo(0.1, 6);
      expect(b.vertices![1]).toBeCloseTo(0.2, 6);
    }
  });

  it('STEP: each key holds until the next, with an exact jump', () => {
    const clip = r.clips[0];
    const pose = clip.createPose();
    const k = idx('knee');
    const at = (t: number) => Array.from(clip.sample(t, pose).rotations.subarray(4 * k, 4 * k + 4));
    for (const [t, key] of [[0, 0], [0.2, 0], [0.4999, 0], [0.5, 1], [0.75, 1], [0.999999, 1], [1, 2], [3, 2]] as const) {
      expect(rotDiff(at(t), STEP_KEYS[key])).toBeLessThan(1e-7);
    }
  });

  it('CUBICSPLINE: the Hermite spline at keys and at the subdivision points, smooth in between', () => {
    const clip = r.clips[1];
    const pose = clip.createPose();
    const f = idx('foot'), h = idx('hip');
    let checks = 0;
    for (let k = 0; k < 2; k++) {
      for (const s of [0, 0.25, 0.5, 0.75]) {
        const t = CUBIC_TIMES[k] + s;
        clip.sample(t, pose);
        const rot = hermite(CUBIC_ROT[k][1], CUBIC_ROT[k][2], CUBIC_ROT[k + 1][1], CUBIC_ROT[k + 1][0], s, 1);
        expect(rotDiff(Array.from(pose.rotations.subarray(4 * f, 4 * f + 4)), rot)).toBeLessThan(1e-6);
        // hip translation in the world: armature transform of the spline point
        const p = hermite(CUBIC_POS[k][1], CUBIC_POS[k][2], CUBIC_POS[k + 1][1], CUBIC_POS[k + 1][0], s, 1);
        const A = trs(ARMATURE_T, ARMATURE_Q, ARMATURE_S);
        const want = [0, 1, 2].map((r) => A[r][0] * p[0] + A[r][1] * p[1] + A[r][2] * p[2] + A[r][3]);
        for (let c = 0; c < 3; c++) expect(pose.translations[3 * h + c]).toBeCloseTo(want[c], 6);
        checks++;
      }
    }
    expect(checks).toBe(8);
    expect(clip.frameCount).toBe(9); // 3 keys + 3 points in each of 2 intervals
    // between subdivision points the clip slerps: the gap to the spline shrinks like 1 / N^2
    const gap = (n: number) => {
      const c = load({ cubicSubdivisions: n }).clips[1];
      const t = 0.5 / n;
      const want = hermite(CUBIC_ROT[0][1], CUBIC_ROT[0][2], CUBIC_ROT[1][1], CUBIC_ROT[1][0], t, 1);
      return rotDiff(Array.from(c.sample(t, c.createPose()).rotations.subarray(4 * f, 4 * f + 4)), want);
    };
    const [g4, g16] = [gap(4), gap(16)];
    expect(g4).toBeLessThan(0.05);
    expect(g16).toBeLessThan(g4 / 8);
  });

  it('normalized SHORT rotations and a sparse translation accessor', () => {
    const clip = r.clips[2];
    const pose = clip.createPose();
    const k = idx('knee');
    [0, 0.5, 1].forEach((t, key) => {
      clip.sample(t, pose);
      const rq = SHORT_KEYS[key].map((v) => Math.max(v / 32767, -1));
      // the root's world rotation: the armature's rotation times the key
      const R = multiply(qMat(ARMATURE_Q), qMat(rq)) as number[][];
      const got = qMat(Array.from(pose.rotations.subarray(0, 4)));
      expect(Math.max(...R.flatMap((row, a) => row.map((v, b) => Math.abs(v - got[a][b]))))).toBeLessThan(1e-12);
      const want = (key === 1 ? SPARSE_VALUE.map((v) => Math.fround(v)) : SPARSE_BASE[key]).map((v) => 2 * v);
      for (let c = 0; c < 3; c++) expect(pose.translations[3 * k + c]).toBeCloseTo(want[c], 12);
    });
  });

  it('an animated ancestor that is not a joint turns the root bone in the world', () => {
    const clip = r.clips[3];
    const pose = clip.createPose();
    clip.sample(1, pose);
    const want = multiply(qMat(qAxis([0, 1, 0], 1.2)), [[2, 0, 0], [0, 2, 0], [0, 0, 2]]) as number[][];
    // world rotation of the root = the animated armature rotation (scale divided out)
    const got = qMat(Array.from(pose.rotations.subarray(0, 4)));
    expect(Math.max(...want.flatMap((row, a) => row.map((v, b) => Math.abs(v / 2 - got[a][b]))))).toBeLessThan(1e-7);
    const p = want.map((row, a) => row[0] * HIP_T[0] + row[1] * HIP_T[1] + row[2] * HIP_T[2] + ARMATURE_T[a]);
    for (let c = 0; c < 3; c++) expect(pose.translations[c]).toBeCloseTo(p[c], 6);
  });

  it('mergeAnimations puts every channel in one clip, and scale multiplies every length', () => {
    const merged = load({ mergeAnimations: true });
    expect(merged.clips.length).toBe(1);
    const scaled = load({ scale: 0.5 });
    sk.bones.forEach((b, i) => {
      for (let c = 0; c < 3; c++) expect(scaled.skeleton.bones[i].offset[c]).toBeCloseTo(0.5 * b.offset[c], 12);
      for (let v = 0; v < b.vertices!.length; v++) expect(scaled.skeleton.bones[i].vertices![v]).toBeCloseTo(0.5 * b.vertices![v], 12);
    });
  });
});
