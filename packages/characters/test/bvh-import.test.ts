/**
 * BVH import against the figures of shared/data/SOURCES.md, and forward kinematics through the
 * whole pipeline (importer -> Skeleton -> clip sample -> ragdoll model -> retargeted q ->
 * featherstone forwardKinematics) against joint positions computed here, straight from the raw
 * channel numbers with plain rotation matrices.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, State } from '@sinew/featherstone';
import { BVH_SCALE, importBvh } from '../src/bvh/index.js';
import { ragdollFromSkeleton, Retargeter } from '../src/motion/index.js';

const data = (name: string) => new URL(`../../../../shared/data/bvh/${name}`, import.meta.url);

/** Figures stated in SOURCES.md. */
const FILES = [
  { file: 'pirouette.bvh', joints: 43, endSites: 14, channels: 132, frames: 592, frameTime: 0.00833333, root: 'hip', orders: ['ZYX', 'ZXY'], crlf: false, scale: BVH_SCALE.centimetres },
  { file: 'cmu_02_01_walk.bvh', joints: 31, endSites: 7, channels: 96, frames: 344, frameTime: 0.0083333, root: 'Hips', orders: ['ZYX'], crlf: false, scale: BVH_SCALE.cmu },
  { file: 'cmu_131_01_start_walk_stop.bvh', joints: 31, endSites: 7, channels: 96, frames: 994, frameTime: 0.0083333, root: 'Hips', orders: ['ZYX', 'ZXY'], crlf: true, scale: BVH_SCALE.cmu },
  { file: 'cmu_131_03_start_hop_stop.bvh', joints: 31, endSites: 7, channels: 96, frames: 1102, frameTime: 0.0083333, root: 'Hips', orders: ['ZYX', 'ZXY'], crlf: true, scale: BVH_SCALE.cmu },
];

// ---- an independent reading of a BVH file: plain tokens, plain 3x3 matrices --------------------

interface RawJoint { name: string; parent: number; offset: number[]; channels: string[]; ends: number[][] }

function rawParse(text: string): { joints: RawJoint[]; rows: number[][] } {
  const [head, motion] = text.split(/\bMOTION\b/);
  const tok = head.split(/\s+/).filter((t) => t.length > 0);
  const joints: RawJoint[] = [];
  const stack: number[] = [];
  let inEnd = false;
  for (let i = 0; i < tok.length; i++) {
    const t = tok[i];
    if (t === 'ROOT' || t === 'JOINT') {
      joints.push({ name: tok[++i], parent: stack.length ? stack[stack.length - 1] : -1, offset: [], channels: [], ends: [] });
    } else if (t === 'End') {
      i++;
      inEnd = true;
    } else if (t === '{') {
      if (!inEnd) stack.push(joints.length - 1);
    } else if (t === '}') {
      if (inEnd) inEnd = false;
      else stack.pop();
    } else if (t === 'OFFSET') {
      const o = [Number(tok[i + 1]), Number(tok[i + 2]), Number(tok[i + 3])];
      i += 3;
      if (inEnd) joints[stack[stack.length - 1]].ends.push(o);
      else joints[joints.length - 1].offset = o;
    } else if (t === 'CHANNELS') {
      const n = Number(tok[++i]);
      for (let k = 0; k < n; k++) joints[joints.length - 1].channels.push(tok[++i]);
    }
  }
  const lines = motion.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  const rows = lines.slice(2).map((l) => l.split(/\s+/).map(Number));
  return { joints, rows };
}

type M3 = number[]; // row-major 3x3
const mul = (a: M3, b: M3): M3 => [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c]));
const apply = (a: M3, v: number[]) => [0, 1, 2].map((r) => a[3 * r] * v[0] + a[3 * r + 1] * v[1] + a[3 * r + 2] * v[2]);
function axisRotation(axis: string, degrees: number): M3 {
  const t = (degrees * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
  if (axis === 'X') return [1, 0, 0, 0, c, -s, 0, s, c];
  if (axis === 'Y') return [c, 0, s, 0, 1, 0, -s, 0, c];
  return [c, -s, 0, s, c, 0, 0, 0, 1];
}

/** World joint heads and End Sites of one frame: R = product of the channel rotations in file order. */
function rawFk(raw: { joints: RawJoint[]; rows: number[][] }, frame: number, scale: number) {
  const row = raw.rows[frame];
  let col = 0;
  const R: M3[] = [], P: number[][] = [], ends: number[][] = [];
  raw.joints.forEach((j, i) => {
    let local: M3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    const t = j.offset.slice();
    for (const c of j.channels) {
      const v = row[col++];
      if (c.endsWith('rotation')) local = mul(local, axisRotation(c[0], v));
      else t['XYZ'.indexOf(c[0])] = v;
    }
    if (j.parent < 0) {
      R[i] = local;
      P[i] = t.map((x) => x * scale);
    } else {
      R[i] = mul(R[j.parent], local);
      const d = apply(R[j.parent], t);
      P[i] = [0, 1, 2].map((k) => P[j.parent][k] + d[k] * scale);
    }
    for (const e of j.ends) {
      const d = apply(R[i], e);
      ends.push([0, 1, 2].map((k) => P[i][k] + d[k] * scale));
    }
  });
  return { R, P, ends };
}

describe('BVH import: counts of SOURCES.md', () => {
  for (const f of FILES) {
    it(`${f.file}: ${f.joints} joints, ${f.endSites} End Sites, ${f.channels} channels, ${f.frames} frames of ${f.frameTime} s`, () => {
      const text = readFileSync(data(f.file), 'utf8');
      expect(text.includes('\r\n')).toBe(f.crlf);
      const r = importBvh(text, { file: f.file, scale: f.scale });
      expect(r.jointCount).toBe(f.joints);
      expect(r.skeleton.boneCount).toBe(f.joints);
      expect(r.endSiteCount).toBe(f.endSites);
      expect(r.channelCount).toBe(f.channels);
      expect(r.frameCount).toBe(f.frames);
      expect(r.clip.frameCount).toBe(f.frames);
      expect(r.frameTime).toBe(f.frameTime);
      expect(r.clip.duration).toBeCloseTo((f.frames - 1) * f.frameTime, 12);
      expect(r.skeleton.bones[0].name).toBe(f.root);
      expect(r.joints[0].channels.length).toBe(6);
      expect(r.joints.slice(1).every((j) => j.channels.length === 3)).toBe(true);
      expect(r.joints[0].rotationOrder).toBe('ZYX');
      expect([...new Set(r.joints.map((j) => j.rotationOrder))].sort()).toEqual(f.orders.slice().sort());
    });
  }

  it('reads every motion value exactly as Number() does (the fast number scanner)', () => {
    let values = 0;
    for (const f of FILES) {
      const text = readFileSync(data(f.file), 'utf8');
      const raw = rawParse(text);
      const r = importBvh(text, { file: f.file });
      const flat = raw.rows.flat();
      expect(flat.length).toBe(r.values.length);
      for (let k = 0; k < flat.length; k++) if (!Object.is(flat[k], r.values[k])) expect([k, r.values[k]]).toEqual([k, flat[k]]);
      values += flat.length;
    }
    expect(values).toBe(132 * 592 + 96 * (344 + 994 + 1102));
  });

  it('takes the same file with LF, CRLF or CR line endings, and as UTF-8 bytes', () => {
    const text = readFileSync(data('cmu_02_01_walk.bvh'), 'utf8');
    const base = importBvh(text);
    for (const variant of [text.replace(/\n/g, '\r\n'), text.replace(/\n/g, '\r'), new TextEncoder().encode(text)]) {
      const r = importBvh(variant);
      expect(r.frameCount).toBe(base.frameCount);
      expect(Array.from(r.clip.rotations)).toEqual(Array.from(base.clip.rotations));
    }
  });
});

describe('BVH forward kinematics: importer + ragdoll + retarget + featherstone FK == raw channels with plain matrices', () => {
  for (const f of FILES) {
    it(`${f.file}: every joint head, End Site and joint rotation at 5 frames`, () => {
      const text = readFileSync(data(f.file), 'utf8');
      const raw = rawParse(text);
      const r = importBvh(text, { file: f.file, scale: f.scale });
      const rd = ragdollFromSkeleton(r.skeleton, { mass: 70, joints: 'ball' });
      const model = rd.model;
      expect(model.nLinks).toBe(f.joints);
      const rt = new Retargeter(model, r.skeleton);
      const state = new State(model);
      const ends = r.skeleton.bones.flatMap((b, i) => b.endSites.map((e) => ({ link: i, e })));
      let worst = 0, worstR = 0, points = 0;
      for (const frame of [0, 1, Math.floor(f.frames / 3), Math.floor((2 * f.frames) / 3), f.frames - 1]) {
        const want = rawFk(raw, frame, f.scale);
        rt.sampleQ(r.clip, frame * f.frameTime, state.q);
        forwardKinematics(model, state, false);
        const P = state.work.pose;
        for (let i = 0; i < f.joints; i++) {
          for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(P[12 * i + 9 + k] - want.P[i][k]));
          for (let k = 0; k < 9; k++) worstR = Math.max(worstR, Math.abs(P[12 * i + k] - want.R[i][k]));
          points++;
        }
        ends.forEach(({ link, e }, k) => {
          for (let c = 0; c < 3; c++) {
            const got = P[12 * link + 9 + c] + P[12 * link + 3 * c] * e[0] + P[12 * link + 3 * c + 1] * e[1] + P[12 * link + 3 * c + 2] * e[2];
            worst = Math.max(worst, Math.abs(got - want.ends[k][c]));
          }
          points++;
        });
      }
      expect(points).toBe(5 * (f.joints + f.endSites));
      expect(worst).toBeLessThan(1e-12); // metres (measured about 1e-15)
      expect(worstR).toBeLessThan(1e-12);
    });
  }
});
