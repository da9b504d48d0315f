/**
 * glTF animations to MotionClips. Every channel that moves a bone's node or one of its
 * ancestors is evaluated at every key time of the animation; the nodes' world matrices are
 * rebuilt at each, and each bone's local rotation and translation are read off the rigid frames
 * (see skin-skeleton.ts), so scaled armatures and animated non-bone ancestors come out right.
 *
 * Interpolation (glTF 2.0 specification, Appendix C): LINEAR lerps translations and scales and
 * slerps rotations along the shorter arc; STEP holds each key until the next, kept exact in the
 * clip by a pair of samples at each jump (left and right limits at the same time); CUBICSPLINE is
 * a Hermite spline with tangents times the key interval, evaluated exactly at the keys and at
 * `cubicSubdivisions - 1` points inside each interval, between which the clip slerps and lerps.
 */
import { MotionClip, type WrapMode } from '../motion/clip.js';
import { ImportError } from '../motion/import-error.js';
import { quatConjMultiply, quatNormalize, quatRotateInverse, quatSlerp } from '../motion/quat.js';
import { COMPONENT, type GltfAccessors } from './accessors.js';
import type { Json } from './buffers.js';
import type { JsonFields } from './json-fields.js';
import { fromTRS, multiply4, rigidFrameInto } from './mat4.js';
import type { GltfNodes } from './nodes.js';
import type { Rig } from './skin-skeleton.js';

/** A glTF animation sampler's interpolation. */
export type Interpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';
type TrsPath = 'translation' | 'rotation' | 'scale';

/** An animation of a glTF file: its name, channels, samplers, interpolations and time range. */
export interface GltfAnimationInfo {
  name: string;
  channels: number;
  samplers: number;
  interpolations: Interpolation[];
  startTime: number;
  endTime: number;
}

interface Track {
  node: number;
  path: TrsPath;
  times: Float64Array;
  /** Keys: comps values each; for CUBICSPLINE triples (in-tangent, value, out-tangent). */
  values: Float64Array;
  comps: number;
  interpolation: Interpolation;
  where: string;
}

export interface AnimationOptions {
  file: string;
  cubicSubdivisions: number;
  wrap: WrapMode | undefined;
  warnings: string[];
}

/** Reads every animation's channels; `relevant` nodes are the bones' nodes and their ancestors. */
export function readAnimations(f: JsonFields, root: Json, accessors: GltfAccessors, nodes: GltfNodes): { info: GltfAnimationInfo[]; tracks: Track[][]; times: Float64Array[] } {
  const animations = f.optionalArray(root, 'animations', '');
  const info: GltfAnimationInfo[] = [];
  const tracks: Track[][] = [];
  const allTimes: Float64Array[] = [];
  animations.forEach((a, ai) => {
    const path = `animations[${ai}]`;
    const anim = f.object(a, path);
    const samplers = f.array(anim.samplers, `${path}.samplers`);
    const channels = f.array(anim.channels, `${path}.channels`);
    const interps: Interpolation[] = [];
    const sampled = new Map<number, { times: Float64Array; out: Float64Array; comps: number; interpolation: Interpolation }>();
    const list: Track[] = [];
    let times: number[] = [];
    channels.forEach((c, ci) => {
      const cp = `${path}.channels[${ci}]`;
      const ch = f.object(c, cp);
      const si = f.index(ch.sampler, `${cp}.sampler`, samplers.length, `${path}.samplers`);
      const target = f.object(ch.target, `${cp}.target`);
      const tp = f.string(target.path, `${cp}.target.path`);
      const node = target.node === undefined ? undefined : f.index(target.node, `${cp}.target.node`, nodes.count, 'nodes');
      const sp = `${path}.samplers[${si}]`;
      const s = f.object(samplers[si], sp);
      const interpolation = (s.interpolation === undefined ? 'LINEAR' : f.string(s.interpolation, `${sp}.interpolation`)) as Interpolation;
      if (interpolation !== 'LINEAR' && interpolation !== 'STEP' && interpolation !== 'CUBICSPLINE') f.fail(`${sp}.interpolation`, 'LINEAR, STEP or CUBICSPLINE', interpolation);
      if (!interps.includes(interpolation)) interps.push(interpolation);
      const input = accessors.read(s.input, `${sp}.input`, { types: ['SCALAR'], componentTypes: [COMPONENT.FLOAT] });
      for (let k = 1; k < input.count; k++) {
        if (input.data[k] < input.data[k - 1]) f.fail(`${sp}.input`, `key times that do not decrease (accessors[${s.input}] element ${k})`, `${input.data[k]} after ${input.data[k - 1]}`);
      }
      times = times.concat(Array.from(input.data));
      if (tp !== 'translation' && tp !== 'rotation' && tp !== 'scale') {
        if (tp !== 'weights') f.fail(`${cp}.target.path`, 'translation, rotation, scale or weights', tp);
        return; // morph weights do not move bones
      }
      if (node === undefined) return;
      let sd = sampled.get(si);
      if (!sd) {
        const comps = tp === 'rotation' ? 4 : 3;
        const out = accessors.read(s.output, `${sp}.output`, tp === 'rotation'
          ? { types: ['VEC4'], componentTypes: [COMPONENT.FLOAT, COMPONENT.BYTE, COMPONENT.UNSIGNED_BYTE, COMPONENT.SHORT, COMPONENT.UNSIGNED_SHORT], normalized: true }
          : { types: ['VEC3'], componentTypes: [COMPONENT.FLOAT] });
        const per = interpolation === 'CUBICSPLINE' ? 3 : 1;
        if (out.count !== per * input.count) {
          f.fail(`${sp}.output`, `${per === 3 ? `3 x ${input.count} elements (in-tangent, value, out-tangent per key) for CUBICSPLINE` : `${input.count} elements, one per key time`}`, `accessors[${s.output}].count ${out.count}`);
        }
        if (comps === 4) {
          for (let k = 0; k < out.count; k++) {
            // tangents may be zero; key values must be rotations
            const isValue = per === 1 || k % 3 === 1;
            if (isValue && !(quatNormalize(out.data, 4 * k) > 1e-6)) f.fail(`${sp}.output`, `unit quaternions (key ${per === 3 ? (k - 1) / 3 : k})`, 'a zero quaternion');
          }
        }
        sd = { times: input.data, out: out.data, comps, interpolation };
        sampled.set(si, sd);
      } else if (sd.comps !== (tp === 'rotation' ? 4 : 3)) {
        f.fail(`${cp}.sampler`, `a sampler of ${tp} values`, `samplers[${si}], used for another path`);
      }
      list.push({ node, path: tp, times: sd.times, values: sd.out, comps: sd.comps, interpolation: sd.interpolation, where: cp });
    });
    const sorted = Float64Array.from(times).sort();
    info.push({
      name: typeof anim.name === 'string' && anim.name.length > 0 ? anim.name : `animation_${ai}`,
      channels: channels.length,
      samplers: samplers.length,
      interpolations: interps,
      startTime: sorted.length > 0 ? sorted[0] : 0,
      endTime: sorted.length > 0 ? sorted[sorted.length - 1] : 0,
    });
    tracks.push(list);
    allTimes.push(sorted);
  });
  return { info, tracks, times: allTimes };
}

/** Value of a track at time t (the limit from the left when `left`, which differs only at STEP keys). */
function evaluate(tr: Track, t: number, left: boolean, out: Float64Array): void {
  const T = tr.times, V = tr.values, c = tr.comps, n = T.length;
  // offset of key k's value: k * c, or (3k + 1) * c inside CUBICSPLINE's (in-tangent, value, out-tangent) triples
  const stride = tr.interpolation === 'CUBICSPLINE' ? 3 * c : c;
  const first = tr.interpolation === 'CUBICSPLINE' ? c : 0;
  let k: number;
  if (tr.interpolation === 'STEP') {
    // largest k with T[k] <= t (or < t for the left limit)
    k = -1;
    let lo = 0, hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (left ? T[mid] < t : T[mid] <= t) { k = mid; lo = mid + 1; } else hi = mid - 1;
    }
    k = k < 0 ? 0 : k;
    for (let i = 0; i < c; i++) out[i] = V[k * stride + i];
    return;
  }
  if (t <= T[0] || n === 1) { for (let i = 0; i < c; i++) out[i] = V[first + i]; return; }
  if (t >= T[n - 1]) { for (let i = 0; i < c; i++) out[i] = V[first + (n - 1) * stride + i]; return; }
  let lo = 0, hi = n - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (T[mid] <= t) lo = mid; else hi = mid - 1;
  }
  k = lo;
  const td = T[k + 1] - T[k];
  const s = td > 0 ? (t - T[k]) / td : 0;
  const vk = first + k * stride, vk1 = vk + stride;
  if (tr.interpolation === 'LINEAR') {
    if (c === 4) quatSlerp(V, vk, V, vk1, s, out, 0);
    else for (let i = 0; i < c; i++) out[i] = V[vk + i] + s * (V[vk1 + i] - V[vk + i]);
    return;
  }
  // Hermite: p = h00 v_k + h10 td b_k + h01 v_{k+1} + h11 td a_{k+1} (b: out-tangent, a: in-tangent)
  const s2 = s * s, s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  const bk = vk + c, ak1 = vk1 - c;
  for (let i = 0; i < c; i++) out[i] = h00 * V[vk + i] + h10 * td * V[bk + i] + h01 * V[vk1 + i] + h11 * td * V[ak1 + i];
  if (c === 4) quatNormalize(out, 0);
}

/**
 * A clip from some tracks over the given key times (all the animation's key times, so that the
 * clip spans the animation even where no bone moves).
 */
export function clipFromTracks(name: string, rig: Rig, nodes: GltfNodes, tracks: Track[], keyTimes: Float64Array, o: AnimationOptions): MotionClip {
  const sk = rig.skeleton, nb = sk.boneCount;
  // nodes whose world matrices are needed: the bones and their ancestors
  const relevant = new Set<number>();
  for (const nd of rig.boneNodes) if (nd >= 0) { relevant.add(nd); for (const a of nodes.ancestors(nd)) relevant.add(a); }
  const used = tracks.filter((t) => relevant.has(t.node));
  const seen = new Map<string, string>();
  const active: Track[] = [];
  for (const t of used) {
    const key = `${t.node}/${t.path}`;
    if (seen.has(key)) { o.warnings.push(`${t.where}: node ${t.node} ${t.path} is also animated by ${seen.get(key)}; the first is used`); continue; }
    seen.set(key, t.where);
    active.push(t);
  }

  // sample times: the key times, cubic subdivisions, and a left sample at every STEP jump
  const times = new Set<number>(keyTimes);
  const jumps = new Set<number>();
  for (const t of active) {
    if (t.interpolation === 'CUBICSPLINE') {
      for (let k = 0; k + 1 < t.times.length; k++) {
        for (let m = 1; m < o.cubicSubdivisions; m++) times.add(t.times[k] + ((t.times[k + 1] - t.times[k]) * m) / o.cubicSubdivisions);
      }
    } else if (t.interpolation === 'STEP') {
      for (let k = 1; k < t.times.length; k++) jumps.add(t.times[k]);
    }
  }
  const sortedTimes = Float64Array.from(times).sort();
  const samples: { t: number; left: boolean }[] = [];
  for (const t of sortedTimes) {
    if (jumps.has(t)) samples.push({ t, left: true });
    samples.push({ t, left: false });
  }
  if (samples.length === 0) samples.push({ t: 0, left: false });

  const nf = samples.length;
  const clipTimes = new Float64Array(nf);
  const rotations = new Float64Array(nf * nb * 4);
  const translations = new Float64Array(nf * nb * 3);
  const byNode = new Map<number, Track[]>();
  for (const t of active) {
    if (!byNode.has(t.node)) byNode.set(t.node, []);
    byNode.get(t.node)!.push(t);
  }
  const value = new Float64Array(4);
  // world matrices in parent-first order, one buffer per node, reused for every sample
  const order = nodes.withAncestors(Array.from(rig.boneNodes).filter((nd) => nd >= 0));
  const world = new Map<number, Float64Array>(order.map((nd) => [nd, new Float64Array(16)]));
  const localBuf = new Map<number, Float64Array>(Array.from(byNode.keys(), (nd) => [nd, new Float64Array(16)]));
  const trs = { translation: new Float64Array(3), rotation: new Float64Array(4), scale: new Float64Array(3) };
  const pos = new Float64Array(3 * nb), rot = new Float64Array(4 * nb), d = new Float64Array(3);
  for (let s = 0; s < nf; s++) {
    const { t, left } = samples[s];
    clipTimes[s] = t;
    for (const nd of order) {
      let local = nodes.restMatrix[nd];
      const list = byNode.get(nd);
      if (list) {
        const r = nodes.rest[nd];
        trs.translation.set(r.translation); trs.rotation.set(r.rotation); trs.scale.set(r.scale);
        for (let k = 0; k < list.length; k++) {
          const tr = list[k];
          evaluate(tr, t, left, value);
          const dst = trs[tr.path];
          for (let i = 0; i < tr.comps; i++) dst[i] = value[i];
        }
        local = fromTRS(trs.translation, trs.rotation, trs.scale, localBuf.get(nd));
      }
      const p = nodes.parent[nd];
      multiply4(p >= 0 ? world.get(p)! : rig.base, local, world.get(nd));
    }
    for (let b = 0; b < nb; b++) {
      const nd = rig.boneNodes[b];
      const scale = rigidFrameInto(nd >= 0 ? world.get(nd)! : rig.base, pos, 3 * b, rot, 4 * b);
      if (Number.isNaN(scale)) throw new ImportError({ file: o.file, path: `animation "${name}" at t=${t}` }, `a finite, non-degenerate world transform of bone "${sk.bones[b].name}"`, 'a degenerate or non-finite transform');
      const p = sk.bones[b].parent;
      const ro = 4 * (s * nb + b), to = 3 * (s * nb + b);
      if (p < 0) {
        rotations.set(rot.subarray(4 * b, 4 * b + 4), ro);
        translations.set(pos.subarray(3 * b, 3 * b + 3), to);
      } else {
        quatConjMultiply(rot, 4 * p, rot, 4 * b, rotations, ro);
        d[0] = pos[3 * b] - pos[3 * p]; d[1] = pos[3 * b + 1] - pos[3 * p + 1]; d[2] = pos[3 * b + 2] - pos[3 * p + 2];
        quatRotateInverse(rot, 4 * p, d, 0, translations, to);
      }
      if (!Number.isFinite(translations[to] + translations[to + 1] + translations[to + 2])) {
        throw new ImportError({ file: o.file, path: `animation "${name}" at t=${t}` }, `a finite translation of bone "${sk.bones[b].name}"`, 'an overflow');
      }
    }
  }
  return new MotionClip({ name, skeleton: sk, times: clipTimes, rotations, translations, wrap: o.wrap });
}
