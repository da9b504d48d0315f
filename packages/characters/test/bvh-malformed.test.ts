/**
 * Malformed BVH input: every case must throw an ImportError (never another error type) whose
 * message names the file, the line and what was expected; random byte flips either throw an
 * ImportError or give a skeleton, clip and ragdoll with only finite numbers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importBvh } from '../src/bvh/index.js';
import { ImportError, ragdollFromSkeleton, Retargeter } from '../src/motion/index.js';

const data = (name: string) => new URL(`../../../../shared/data/bvh/${name}`, import.meta.url);
const FILES = ['pirouette.bvh', 'cmu_02_01_walk.bvh', 'cmu_131_01_start_walk_stop.bvh', 'cmu_131_03_start_hop_stop.bvh'];
const texts = new Map(FILES.map((f) => [f, readFileSync(data(f), 'utf8')]));

/** mulberry32: a small seeded generator, so that failures reproduce. */
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

/** Asserts that the input is refused with an ImportError naming the file, a line and an expectation. */
function expectRefused(input: string | Uint8Array, file: string, lineWanted?: number, mention?: RegExp): ImportError {
  let err: unknown;
  try {
    importBvh(input, { file });
  } catch (e) {
    err = e;
  }
  expect(err, 'no error thrown').toBeInstanceOf(ImportError);
  const e = err as ImportError;
  expect(e.path).not.toBe('internal');
  expect(e.file).toBe(file);
  expect(e.expected.length).toBeGreaterThan(0);
  expect(e.message).toContain(file);
  expect(e.message).toContain('expected');
  if (e.line !== undefined) expect(e.message).toContain(`${file}:${e.line}:`);
  if (lineWanted !== undefined) expect(e.line).toBe(lineWanted);
  if (mention) expect(e.message).toMatch(mention);
  return e;
}

/** All numbers of an import are finite, and a ragdoll built from it and driven by its clip too. */
function expectFinite(r: ReturnType<typeof importBvh>): void {
  for (const b of r.skeleton.bones) for (const v of [...b.offset, ...b.rotation, ...b.endSites.flatMap((e) => [...e])]) expect(Number.isFinite(v)).toBe(true);
  expect(r.clip.rotations.every(Number.isFinite) && r.clip.translations.every(Number.isFinite)).toBe(true);
  const rd = ragdollFromSkeleton(r.skeleton, { mass: 70 });
  expect(rd.masses.every((m) => Number.isFinite(m) && m > 0)).toBe(true);
  expect(rd.model.inertiaCom.every(Number.isFinite)).toBe(true);
  const rt = new Retargeter(rd.model, r.skeleton);
  expect(rt.sampleQ(r.clip, 0.5 * r.clip.duration).every(Number.isFinite)).toBe(true);
}

const lineOf = (text: string, index: number) => text.slice(0, index).split(/\r\n|\r|\n/).length;

describe('malformed BVH is refused with an ImportError naming line and expectation', () => {
  it('truncated copies: 60 cut points per file, all before the last value', () => {
    let cases = 0;
    for (const f of FILES) {
      const text = texts.get(f)!;
      const lastValue = text.trimEnd().search(/\S+$/);
      const r = rng(7);
      const cuts = [0, 1, 5, 9, text.indexOf('MOTION'), text.indexOf('Frames:') + 8, text.indexOf('Frame Time:') + 5, lastValue - 1];
      while (cuts.length < 60) cuts.push(Math.floor(r() * lastValue));
      for (const cut of cuts) {
        const e = expectRefused(text.slice(0, cut), f);
        expect(e.line).toBeDefined();
        cases++;
      }
    }
    expect(cases).toBe(240);
  });

  it('wrong numbers of values in a motion row, and Frames counts that do not match the rows', () => {
    let cases = 0;
    for (const f of FILES) {
      const text = texts.get(f)!;
      const lines = text.split('\n');
      const frames = Number(/Frames:\s*(\d+)/.exec(text)![1]);
      const firstRow = lines.findIndex((l) => /^Frame Time/.test(l)) + 1;
      const target = firstRow + 10;
      const drop = lines.slice();
      drop[target] = drop[target].trim().split(/\s+/).slice(1).join(' ');
      expectRefused(drop.join('\n'), f, target + 1, /values in motion row 11/);
      const extra = lines.slice();
      extra[target] = `${extra[target].trim()} 0.5`;
      expectRefused(extra.join('\n'), f, target + 1, /found \d+$/);
      const more = text.replace(/Frames:\s*\d+/, `Frames: ${frames + 1}`);
      expectRefused(more, f, undefined, new RegExp(`${frames + 1} motion rows`));
      const fewer = text.replace(/Frames:\s*\d+/, `Frames: ${frames - 1}`);
      expectRefused(fewer, f, firstRow + frames, /another row/);
      const missingRow = lines.slice(0, target).concat(lines.slice(target + 1)).join('\n');
      expectRefused(missingRow, f, undefined, /motion rows/);
      cases += 5;
    }
    expect(cases).toBe(20);
  });

  it('non-numeric, NaN, Infinity and malformed numbers in rows and OFFSETs', () => {
    const bad = ['nan', 'NaN', 'Infinity', '-Infinity', 'inf', '1e999', '0x10', '--1', '1.2.3', '1e', '.', '-', '1,5', '3f', '1e10'];
    let cases = 0;
    for (const f of FILES) {
      const text = texts.get(f)!;
      const lines = text.split('\n');
      const row = lines.findIndex((l) => /^Frame Time/.test(l)) + 4;
      const offsetLine = lines.findIndex((l, i) => i > 3 && /OFFSET/.test(l));
      for (const b of bad) {
        const rowEdit = lines.slice();
        const vals = rowEdit[row].trim().split(/\s+/);
        vals[7] = b;
        rowEdit[row] = vals.join(' ');
        expectRefused(rowEdit.join('\n'), f, row + 1, /value 8 of motion row 4/);
        const offEdit = lines.slice();
        offEdit[offsetLine] = offEdit[offsetLine].replace(/OFFSET\s+\S+/, `OFFSET ${b}`);
        expectRefused(offEdit.join('\n'), f, offsetLine + 1, /OFFSET/);
        cases += 2;
      }
    }
    expect(cases).toBe(120);
  });

  it('unknown channel names, wrong CHANNELS counts, missing braces and keywords', () => {
    const f = 'cmu_131_01_start_walk_stop.bvh'; // CRLF
    const text = texts.get(f)!;
    const at = (s: string) => lineOf(text, text.indexOf(s));
    const cases: [string, number | undefined, RegExp][] = [
      [text.replace('CHANNELS 3 Zrotation Yrotation Xrotation', 'CHANNELS 3 Zrotation Wrotation Xrotation'), at('CHANNELS 3 Zrotation Yrotation Xrotation'), /channel name.*'Wrotation'/],
      [text.replace('CHANNELS 3 Zrotation Yrotation Xrotation', 'CHANNELS 3 Zrotation Yrotation Yrotation'), at('CHANNELS 3 Zrotation Yrotation Xrotation'), /each channel once/],
      [text.replace('CHANNELS 3 Zrotation Yrotation Xrotation', 'CHANNELS 2 Zrotation Yrotation Xrotation'), at('CHANNELS 3 Zrotation Yrotation Xrotation'), /OFFSET, CHANNELS, JOINT, End Site or '}'.*'Xrotation'/],
      [text.replace('CHANNELS 3 Zrotation Yrotation Xrotation', 'CHANNELS 4 Zrotation Yrotation Xrotation'), undefined, /4 channel names/],
      [text.replace('CHANNELS 3 Zrotation Yrotation Xrotation', 'CHANNELS 7 Zrotation Yrotation Xrotation'), at('CHANNELS 3 Zrotation Yrotation Xrotation'), /at most 6 channels/],
      [text.replace('CHANNELS 3 Zrotation Yrotation Xrotation', 'CHANNELS x Zrotation Yrotation Xrotation'), at('CHANNELS 3 Zrotation Yrotation Xrotation'), /channel count/],
      [text.replace('JOINT LHipJoint\r\n\t{', 'JOINT LHipJoint\r\n'), at('JOINT LHipJoint') + 2, /'\{' opening JOINT LHipJoint/],
      [text.replace(/}\s*MOTION/, 'MOTION'), undefined, /'}' closing ROOT Hips/],
      [text.replace(/MOTION/, '}\r\nMOTION'), undefined, /'MOTION' after the hierarchy/],
      [text.replace('HIERARCHY', 'HIERARCHIE'), 1, /'HIERARCHY'/],
      [text.replace('ROOT Hips', 'ROOT'), 2, /a name after ROOT/],
      [text.replace('End Site', 'End Sight'), at('End Site'), /'Site' after 'End'/],
      [text.replace('Frames:', 'Frame:'), at('Frames:'), /'Frames: <count>'/],
      [text.replace(/Frames:\s*\d+/, 'Frames: -3'), at('Frames:'), /whole number of frames/],
      [text.replace(/Frame Time:\s*\S+/, 'Frame Time: 0'), at('Frame Time'), /positive finite frame time/],
      [text.replace(/Frame Time:\s*\S+/, 'Frame Time: NaN'), at('Frame Time'), /positive finite frame time/],
      [text.replace('OFFSET 1.24777 -1.64261 0.71711', 'OFFSET 1.24777 -1.64261'), undefined, /z of the OFFSET of JOINT LeftHip/],
      [text.replace('JOINT LeftKnee', 'JOINT LHipJoint'), at('JOINT LeftKnee'), /unique joint names/],
      [text.replace('ROOT Hips', 'ROOT Hips\r\nROOT Other'), 3, /'\{' opening ROOT Hips/],
      ['', 1, /'HIERARCHY'/],
      ['HIERARCHY', 1, /'ROOT' after HIERARCHY/],
    ];
    cases.forEach(([input, line, mention]) => expectRefused(input, f, line, mention));
    expect(cases.length).toBe(21);
    // bytes that are not UTF-8
    const bytes = new TextEncoder().encode(text);
    bytes[200] = 0xff;
    expectRefused(bytes, f, undefined, /UTF-8/);
  });

  it('random byte flips (seeded): an ImportError or a fully finite result, never another error', () => {
    let refused = 0, accepted = 0;
    for (const f of FILES) {
      const bytes = new TextEncoder().encode(texts.get(f)!);
      const r = rng(1234 + f.length);
      // half of the flips in the hierarchy, where they do most harm
      const motionAt = texts.get(f)!.indexOf('MOTION');
      for (let trial = 0; trial < 100; trial++) {
        const copy = bytes.slice();
        const flips = 1 + Math.floor(r() * 3);
        for (let k = 0; k < flips; k++) {
          const pos = Math.floor(r() * (trial % 2 === 0 ? motionAt + 40 : copy.length));
          copy[pos] = r() < 0.7 ? 32 + Math.floor(r() * 95) : Math.floor(r() * 256);
        }
        let result: ReturnType<typeof importBvh> | undefined;
        try {
          result = importBvh(copy, { file: f });
        } catch (e) {
          expect(e).toBeInstanceOf(ImportError);
          expect((e as ImportError).path).not.toBe('internal');
          expect((e as ImportError).message).toContain(f);
          refused++;
          continue;
        }
        expectFinite(result);
        accepted++;
      }
    }
    expect(refused + accepted).toBe(400);
    expect(refused).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(5);
  });
});
