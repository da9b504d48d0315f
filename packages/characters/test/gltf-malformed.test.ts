/**
 * Malformed glTF: every case throws an ImportError (never another error type) whose message
 * names the JSON path or byte range and what was expected; random damage either throws an
 * ImportError or gives a skeleton, clips and ragdoll whose numbers are all finite.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importGltf } from '../src/gltf/index.js';
import { ImportError, ragdollFromSkeleton } from '../src/motion/index.js';

const data = (name: string) => new URL(`../../../../shared/data/gltf/${name}`, import.meta.url);
const bytesOf = (name: string) => new Uint8Array(readFileSync(data(name)));
const GLBS = ['CesiumMan.glb', 'Fox.glb', 'RobotExpressive.glb'];

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

function refusal(input: string | Uint8Array, file: string, options: object = {}): ImportError {
  let err: unknown;
  try {
    importGltf(input, { file, ...options });
  } catch (e) {
    err = e;
  }
  expect(err, 'no error thrown').toBeInstanceOf(ImportError);
  const e = err as ImportError;
  expect(e.path).not.toBe('internal');
  expect(e.file).toBe(file);
  expect(e.message.startsWith(`${file}:`)).toBe(true);
  expect(e.message).toContain('expected');
  expect(e.expected.length).toBeGreaterThan(0);
  return e;
}

function expectFinite(r: ReturnType<typeof importGltf>): void {
  for (const b of r.skeleton.bones) {
    for (const v of [...b.offset, ...b.rotation, ...(b.vertices ?? [])]) expect(Number.isFinite(v)).toBe(true);
  }
  for (const c of r.clips) expect(c.rotations.every(Number.isFinite) && c.translations.every(Number.isFinite) && c.times.every(Number.isFinite)).toBe(true);
  const rd = ragdollFromSkeleton(r.skeleton, { mass: 50 });
  expect(rd.masses.every((m) => Number.isFinite(m) && m > 0)).toBe(true);
  expect(rd.model.inertiaCom.every(Number.isFinite)).toBe(true);
  expect(rd.capsules.every((c) => c.radius > 0 && Number.isFinite(c.radius) && Number.isFinite(c.halfLength))).toBe(true);
}

/** The .gltf sample as JSON and its decoded buffer, to edit and re-encode. */
function riggedSimple(): { json: any; bin: Uint8Array } {
  const json = JSON.parse(readFileSync(data('RiggedSimple.gltf'), 'utf8'));
  const uri: string = json.buffers[0].uri;
  return { json, bin: new Uint8Array(Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64')) };
}
const encode = (json: any, bin: Uint8Array) => {
  json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  return JSON.stringify(json);
};

describe('malformed glTF is refused with an ImportError naming the path', () => {
  it('truncated copies of every .glb (40 cut points each) and of the .gltf text (40)', () => {
    let cases = 0;
    for (const f of GLBS) {
      const bytes = bytesOf(f);
      const r = rng(11);
      const cuts = [0, 3, 11, 12, 19, 20, 100, bytes.length - 1];
      while (cuts.length < 40) cuts.push(Math.floor(r() * bytes.length));
      for (const cut of cuts) {
        const e = refusal(bytes.slice(0, cut), f);
        expect(e.path).toMatch(/glb header|bytes 0-3/);
        cases++;
      }
    }
    const text = readFileSync(data('RiggedSimple.gltf'), 'utf8');
    const r = rng(5);
    for (let k = 0; k < 40; k++) {
      const e = refusal(text.slice(0, 1 + Math.floor(r() * (text.length - 2))), 'RiggedSimple.gltf');
      expect(e.path).toMatch(/^JSON/);
      cases++;
    }
    expect(cases).toBe(160);
  });

  it('container damage: magic, version, lengths, chunk types', () => {
    const f = 'Fox.glb';
    const base = bytesOf(f);
    const edit = (fn: (b: Uint8Array, dv: DataView) => void) => {
      const b = base.slice();
      fn(b, new DataView(b.buffer));
      return b;
    };
    const jsonLen = new DataView(base.buffer, base.byteOffset).getUint32(12, true);
    const cases: [Uint8Array, RegExp, RegExp][] = [
      [edit((b) => (b[0] = 0x66)), /bytes 0-3/, /magic 'glTF'/],
      [edit((_, dv) => dv.setUint32(4, 1, true)), /version/, /glTF version 2/],
      [edit((_, dv) => dv.setUint32(4, 3, true)), /version/, /glTF version 2/],
      [edit((_, dv) => dv.setUint32(8, base.length + 4, true)), /header.length/, /file size/],
      [edit((_, dv) => dv.setUint32(8, base.length - 4, true)), /header.length/, /file size/],
      [edit((_, dv) => dv.setUint32(12, base.length, true)), /chunk 0/, /bytes left/],
      [edit((_, dv) => dv.setUint32(16, 0x004e4942, true)), /chunk 0.*type/, /first chunk to be JSON/],
      [edit((_, dv) => dv.setUint32(20 + jsonLen, base.length, true)), /chunk 1/, /bytes left/],
      [edit((b) => (b[25] = 0xff)), /JSON/, /UTF-8/],
      [edit((b) => (b[20] = 0x5b)), /JSON/, /valid JSON|JSON object/],
      [new Uint8Array(0), /bytes 0-3/, /magic/],
    ];
    for (const [input, path, expected] of cases) {
      const e = refusal(input, f);
      expect(e.path).toMatch(path);
      expect(e.message).toMatch(expected);
    }
    expect(cases.length).toBe(11);
  });

  it('JSON and buffer damage, each named by its JSON path', () => {
    type Edit = [string, (json: any, bin: Uint8Array) => void, RegExp];
    const ibm = riggedSimple().json.skins[0].inverseBindMatrices as number;
    const edits: Edit[] = [
      ['asset missing', (j) => delete j.asset, /^asset$/],
      ['asset.version 1.0', (j) => (j.asset.version = '1.0'), /^asset\.version$/],
      ['accessor count too large', (j) => (j.accessors[ibm].count = 1000), new RegExp(`^accessors\\[${ibm}\\]\\.count$`)],
      ['accessor count zero', (j) => (j.accessors[ibm].count = 0), new RegExp(`^accessors\\[${ibm}\\]\\.count$`)],
      ['out-of-range inverseBindMatrices', (j) => (j.skins[0].inverseBindMatrices = 999), /^skins\[0\]\.inverseBindMatrices$/],
      ['negative accessor index', (j) => (j.skins[0].inverseBindMatrices = -1), /^skins\[0\]\.inverseBindMatrices$/],
      ['fractional accessor index', (j) => (j.skins[0].inverseBindMatrices = 1.5), /^skins\[0\]\.inverseBindMatrices$/],
      ['IBM with the wrong type', (j) => (j.accessors[ibm].type = 'VEC4'), /inverseBindMatrices\)\.type$/],
      ['IBM with the wrong component type', (j) => (j.accessors[ibm].componentType = 5123), /inverseBindMatrices\)\.componentType$/],
      ['unknown component type', (j) => (j.accessors[ibm].componentType = 5124), /componentType$/],
      ['out-of-range bufferView', (j) => (j.accessors[ibm].bufferView = 77), new RegExp(`^accessors\\[${ibm}\\]\\.bufferView$`)],
      ['bufferView beyond its buffer', (j) => (j.bufferViews[0].byteLength = 1e6), /^bufferViews\[0\]\.byteLength$/],
      ['bad byteStride', (j) => (j.bufferViews[1].byteStride = 6), /byteStride$/],
      ['buffer shorter than declared', (j) => (j.buffers[0].byteLength += 64), /^buffers\[0\]\.byteLength$/],
      ['corrupt base64', (j, b) => { j.buffers[0].uri = encode(j, b) && `data:application/octet-stream;base64,${Buffer.from(b).toString('base64').replace(/^(.{100})./, '$1*')}`; }, /^buffers\[0\]\.uri$/],
      ['external buffer not given', (j) => (j.buffers[0].uri = 'missing.bin'), /^buffers\[0\]\.uri$/],
      ['node cycle', (j) => j.nodes[3].children = [2], /^nodes\[\d\]\.children/],
      ['node its own child', (j) => (j.nodes[2].children = [...(j.nodes[2].children ?? []), 2]), /^nodes\[2\]\.children\[\d\]$/],
      ['node with two parents', (j) => (j.nodes[0].children = [...j.nodes[0].children, 3]), /^nodes\[\d\]\.children\[\d\]$/],
      ['child index out of range', (j) => (j.nodes[0].children = [40]), /^nodes\[0\]\.children\[0\]$/],
      ['zero rotation', (j) => (j.nodes[2].rotation = [0, 0, 0, 0]), /^nodes\[2\]\.rotation$/],
      ['matrix of 15 numbers', (j) => (j.nodes[0].matrix = j.nodes[0].matrix ? j.nodes[0].matrix.slice(1) : new Array(15).fill(0)), /^nodes\[0\]\.matrix$/],
      ['translation as a string', (j) => (j.nodes[2].translation = 'up'), /^nodes\[2\]\.translation$/],
      ['skin joint out of range', (j) => (j.skins[0].joints[1] = 99), /^skins\[0\]\.joints\[1\]$/],
      ['skin joint twice', (j) => (j.skins[0].joints[1] = j.skins[0].joints[0]), /^skins\[0\]\.joints\[1\]$/],
      ['no skins', (j) => { delete j.skins; for (const n of j.nodes) delete n.skin; }, /^skins$/],
      ['sampler input out of range', (j) => (j.animations[0].samplers[0].input = 500), /^animations\[0\]\.samplers\[0\]\.input$/],
      ['unknown interpolation', (j) => (j.animations[0].samplers[0].interpolation = 'CUBIC'), /^animations\[0\]\.samplers\[0\]\.interpolation$/],
      ['output count of a LINEAR sampler', (j) => (j.animations[0].samplers[0].interpolation = 'CUBICSPLINE'), /^animations\[0\]\.samplers\[0\]\.output$/],
      ['unknown target path', (j) => (j.animations[0].channels[0].target.path = 'position'), /^animations\[0\]\.channels\[0\]\.target\.path$/],
      ['channel sampler out of range', (j) => (j.animations[0].channels[0].sampler = 9), /^animations\[0\]\.channels\[0\]\.sampler$/],
      ['decreasing key times', (j, b) => {
        const a = j.accessors[j.animations[0].samplers[0].input];
        const o = j.bufferViews[a.bufferView].byteOffset + (a.byteOffset ?? 0);
        new DataView(b.buffer).setFloat32(o + 4, -1, true);
      }, /^animations\[0\]\.samplers\[0\]\.input$/],
      ['NaN in an inverse bind matrix', (j, b) => {
        const a = j.accessors[ibm];
        new DataView(b.buffer).setFloat32(j.bufferViews[a.bufferView].byteOffset + (a.byteOffset ?? 0) + 8, NaN, true);
      }, new RegExp(`^accessors\\[${ibm}\\]$`)],
      ['Infinity in a vertex position', (j, b) => {
        const a = j.accessors[j.meshes[0].primitives[0].attributes.POSITION];
        new DataView(b.buffer).setFloat32(j.bufferViews[a.bufferView].byteOffset + (a.byteOffset ?? 0), Infinity, true);
      }, /^accessors\[\d+\]$/],
      ['vertex weight on a joint the skin lacks', (j, b) => {
        const a = j.accessors[j.meshes[0].primitives[0].attributes.JOINTS_0];
        const v = j.bufferViews[a.bufferView];
        const o = v.byteOffset + (a.byteOffset ?? 0);
        if (a.componentType === 5123) new DataView(b.buffer).setUint16(o, 7, true); else b[o] = 7;
        const w = j.accessors[j.meshes[0].primitives[0].attributes.WEIGHTS_0];
        new DataView(b.buffer).setFloat32(j.bufferViews[w.bufferView].byteOffset + (w.byteOffset ?? 0), 1, true);
      }, /attributes\.JOINTS_0$/],
      ['IBM not affine', (j, b) => {
        const a = j.accessors[ibm];
        new DataView(b.buffer).setFloat32(j.bufferViews[a.bufferView].byteOffset + (a.byteOffset ?? 0) + 12, 0.5, true);
      }, /^skins\[0\]\.inverseBindMatrices$/],
      ['required extension', (j) => (j.extensionsRequired = ['KHR_draco_mesh_compression']), /^extensionsRequired$/],
      ['mesh index out of range', (j) => (j.nodes.find((n: any) => n.mesh !== undefined).mesh = 4), /^nodes\[\d\]\.mesh$/],
    ];
    for (const [what, fn, path] of edits) {
      const { json, bin } = riggedSimple();
      fn(json, bin);
      const text = json.buffers[0].uri?.startsWith('data:') && what !== 'corrupt base64' ? encode(json, bin) : JSON.stringify(json);
      const e = refusal(text, 'RiggedSimple.gltf');
      expect(e.path, what).toMatch(path);
    }
    expect(edits.length).toBe(38);
  });

  it('random byte flips in each .glb (seeded): an ImportError or a fully finite result', () => {
    let refused = 0, accepted = 0;
    for (const f of GLBS) {
      const bytes = bytesOf(f);
      const jsonEnd = 20 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
      const r = rng(99 + f.length);
      for (let trial = 0; trial < 20; trial++) {
        const copy = bytes.slice();
        // alternate: flips in the JSON chunk, flips in the BIN chunk (floats, indices)
        const lo = trial % 2 === 0 ? 20 : jsonEnd + 8, hi = trial % 2 === 0 ? jsonEnd : bytes.length;
        for (let k = 0; k < 4; k++) copy[lo + Math.floor(r() * (hi - lo))] ^= 1 << Math.floor(r() * 8);
        let result;
        try {
          result = importGltf(copy, { file: f });
        } catch (e) {
          expect(e).toBeInstanceOf(ImportError);
          expect((e as ImportError).path).not.toBe('internal');
          refused++;
          continue;
        }
        expectFinite(result);
        accepted++;
      }
    }
    expect(refused + accepted).toBe(60);
    expect(refused).toBeGreaterThan(10);
    expect(accepted).toBeGreaterThan(10);
  });

  it('random edits of numbers in the JSON (seeded): an ImportError naming a path, or a fully finite result', () => {
    const replacements: unknown[] = [-1, 0, 1e9, 0.5, 'x', null, 2 ** 31, [], {}, true, -1e30];
    let refused = 0, accepted = 0;
    const r = rng(2024);
    for (let trial = 0; trial < 300; trial++) {
      const { json, bin } = riggedSimple();
      // collect numeric leaves (outside the buffer's uri) and replace one
      const leaves: [any, string | number][] = [];
      const walk = (o: any) => {
        if (o === null || typeof o !== 'object') return;
        for (const k of Object.keys(o)) {
          if (typeof o[k] === 'number') leaves.push([o, Array.isArray(o) ? Number(k) : k]);
          else walk(o[k]);
        }
      };
      walk(json);
      const [obj, key] = leaves[Math.floor(r() * leaves.length)];
      obj[key] = replacements[Math.floor(r() * replacements.length)];
      let result;
      try {
        result = importGltf(encode(json, bin), { file: 'RiggedSimple.gltf' });
      } catch (e) {
        expect(e).toBeInstanceOf(ImportError);
        expect((e as ImportError).path).not.toBe('internal');
        expect((e as ImportError).path?.length).toBeGreaterThan(0);
        refused++;
        continue;
      }
      expectFinite(result);
      accepted++;
    }
    expect(refused + accepted).toBe(300);
    expect(refused).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(10);
  });
});
