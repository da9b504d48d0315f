/**
 * Body segment of a bone from its name. Each rig family names bones its own way, and a name
 * can mean different segments in two families (CMU's cgspeed "LeftShoulder" is a clavicle, the
 * 3dsMax-friendly "LeftShoulder" the upper arm), so the tables below are per family and the one
 * matching most of a skeleton's names is used; names no table knows fall back to word patterns,
 * and bones left over (fingers, toes, eyes) take the segment of their nearest classified ancestor.
 */
import type { BodySegment } from './segment-mass.js';
import type { Skeleton } from './skeleton.js';

/** A side of the body, 'left' or 'right'. */
export type BodySide = 'left' | 'right';
/** Body segment of each bone, by bone name. */
export type SegmentMap = Readonly<Record<string, BodySegment>>;

/** Builds a table from center names and `${L}` / `${R}` patterns expanded for both sides. */
function table(center: Record<string, BodySegment>, sided: Record<string, BodySegment>, left: (n: string) => string, right: (n: string) => string): SegmentMap {
  const t: Record<string, BodySegment> = { ...center };
  for (const [n, s] of Object.entries(sided)) {
    t[left(n)] = s;
    t[right(n)] = s;
  }
  return Object.freeze(t);
}

/** Mixamo (names after the 'mixamorig:' namespace, which is stripped before lookup). */
export const MIXAMO_SEGMENTS: SegmentMap = table(
  { Hips: 'lowerTrunk', Spine: 'middleTrunk', Spine1: 'middleTrunk', Spine2: 'upperTrunk', Neck: 'head', Head: 'head', HeadTop_End: 'head' },
  { Shoulder: 'upperTrunk', Arm: 'upperArm', ForeArm: 'forearm', Hand: 'hand', UpLeg: 'thigh', Leg: 'shank', Foot: 'foot', ToeBase: 'foot', Toe_End: 'foot' },
  (n) => `Left${n}`, (n) => `Right${n}`,
);

/** VRM humanoid bone names (VRM 0.x / 1.0 specification). */
export const VRM_SEGMENTS: SegmentMap = table(
  { hips: 'lowerTrunk', spine: 'middleTrunk', chest: 'upperTrunk', upperChest: 'upperTrunk', neck: 'head', head: 'head', jaw: 'head', leftEye: 'head', rightEye: 'head' },
  { Shoulder: 'upperTrunk', UpperArm: 'upperArm', LowerArm: 'forearm', Hand: 'hand', UpperLeg: 'thigh', LowerLeg: 'shank', Foot: 'foot', Toes: 'foot' },
  (n) => `left${n}`, (n) => `right${n}`,
);

/** Blender rigify deform bones. */
export const RIGIFY_SEGMENTS: SegmentMap = table(
  {
    'DEF-spine': 'lowerTrunk', 'DEF-spine.001': 'middleTrunk', 'DEF-spine.002': 'middleTrunk', 'DEF-spine.003': 'upperTrunk',
    'DEF-spine.004': 'head', 'DEF-spine.005': 'head', 'DEF-spine.006': 'head',
  },
  {
    'DEF-pelvis': 'lowerTrunk', 'DEF-shoulder': 'upperTrunk', 'DEF-breast': 'upperTrunk',
    'DEF-upper_arm': 'upperArm', 'DEF-upper_arm.*.001': 'upperArm', 'DEF-forearm': 'forearm', 'DEF-forearm.*.001': 'forearm', 'DEF-hand': 'hand',
    'DEF-thigh': 'thigh', 'DEF-thigh.*.001': 'thigh', 'DEF-shin': 'shank', 'DEF-shin.*.001': 'shank', 'DEF-foot': 'foot', 'DEF-toe': 'foot',
  },
  (n) => (n.includes('.*') ? n.replace('.*', '.L') : `${n}.L`), (n) => (n.includes('.*') ? n.replace('.*', '.R') : `${n}.R`),
);

/** CMU motion capture in the cgspeed BVH conversion (e.g. 02_01): segments named as in Motionbuilder. */
export const CMU_BVH_SEGMENTS: SegmentMap = table(
  { Hips: 'lowerTrunk', LHipJoint: 'lowerTrunk', RHipJoint: 'lowerTrunk', LowerBack: 'middleTrunk', Spine: 'middleTrunk', Spine1: 'upperTrunk', Neck: 'head', Neck1: 'head', Head: 'head', LThumb: 'hand', RThumb: 'hand' },
  { Shoulder: 'upperTrunk', Arm: 'upperArm', ForeArm: 'forearm', Hand: 'hand', FingerBase: 'hand', HandIndex1: 'hand', UpLeg: 'thigh', Leg: 'shank', Foot: 'foot', ToeBase: 'foot' },
  (n) => `Left${n}`, (n) => `Right${n}`,
);

/** CMU motion capture in cgspeed's 3dsMax-friendly release (e.g. 131_01): bones named after the joint at their head. */
export const CMU_3DSMAX_SEGMENTS: SegmentMap = table(
  {
    Hips: 'lowerTrunk', LHipJoint: 'lowerTrunk', RHipJoint: 'lowerTrunk', lowerback: 'middleTrunk', Chest: 'middleTrunk', Chest2: 'upperTrunk',
    lowerneck: 'head', Neck: 'head', Head: 'head', lhand: 'hand', rhand: 'hand', LFingers: 'hand', RFingers: 'hand', LThumb: 'hand', RThumb: 'hand',
  },
  { Collar: 'upperTrunk', Shoulder: 'upperArm', Elbow: 'forearm', Wrist: 'hand', Hip: 'thigh', Knee: 'shank', Ankle: 'foot', Toe: 'foot' },
  (n) => `Left${n}`, (n) => `Right${n}`,
);

/** Poser / DAZ figures (e.g. three.js pirouette.bvh). */
export const POSER_SEGMENTS: SegmentMap = table(
  { hip: 'lowerTrunk', abdomen: 'middleTrunk', chest: 'upperTrunk', neck: 'head', head: 'head', leftEye: 'head', rightEye: 'head' },
  { Collar: 'upperTrunk', Shldr: 'upperArm', ForeArm: 'forearm', Hand: 'hand', Buttock: 'lowerTrunk', Thigh: 'thigh', Shin: 'shank', Foot: 'foot' },
  (n) => `l${n}`, (n) => `r${n}`,
);

/** The tables tried by the automatic choice, in order of preference on a tie. */
export const BONE_NAME_MAPS: Readonly<Record<string, SegmentMap>> = Object.freeze({
  mixamo: MIXAMO_SEGMENTS,
  vrm: VRM_SEGMENTS,
  rigify: RIGIFY_SEGMENTS,
  cmuBvh: CMU_BVH_SEGMENTS,
  cmu3dsMax: CMU_3DSMAX_SEGMENTS,
  poser: POSER_SEGMENTS,
});

/** The name without a namespace ('mixamorig:Hips' -> 'Hips'). */
export function stripNamespace(name: string): string {
  const k = name.lastIndexOf(':');
  return k >= 0 ? name.slice(k + 1) : name;
}

/** Left or right from a name: 'Left'/'Right' anywhere, '.L'/'_R' style suffixes or separators, or a single l/r prefix before a capital (lShldr, RHipJoint, LThumb). */
export function boneSide(name: string): BodySide | undefined {
  const n = stripNamespace(name);
  if (/left/i.test(n)) return 'left';
  if (/right/i.test(n)) return 'right';
  if (/(^|[._\-\s])l($|[._\-\s\d])/i.test(n) || /^[lL](?=[A-Z])/.test(n)) return 'left';
  if (/(^|[._\-\s])r($|[._\-\s\d])/i.test(n) || /^[rR](?=[A-Z])/.test(n)) return 'right';
  return undefined;
}

/** BodySegment from word patterns, for names that no table knows. */
export function segmentFromPattern(name: string): BodySegment | undefined {
  const side = boneSide(name);
  let s = stripNamespace(name)
    .replace(/^(DEF|ORG|MCH)-/i, '')
    .replace(/^(b|bip\d*|j_bip_[clr])_/i, '')
    .replace(/left|right/gi, '')
    .replace(/(^|[._\-\s])[lr](?=$|[._\-\s\d])/gi, '$1')
    .replace(/^[lLrR](?=[A-Z])/, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  if (s.length === 0) return undefined;
  if (/head|neck|skull|jaw|eye|face|nose/.test(s)) return 'head';
  if (/hand|palm|wrist|finger|thumb|index|middle|ring|pinky|little|carpal/.test(s)) return 'hand';
  if (/forearm|lowerarm|elbow|radius|ulna/.test(s)) return 'forearm';
  if (/upperarm|shldr|humerus|uparm/.test(s)) return 'upperArm';
  if (/foot|ankle|toe|heel/.test(s)) return 'foot';
  if (/thigh|upleg|upperleg|femur/.test(s)) return 'thigh';
  if (/shin|calf|lowerleg|knee|tibia|shank/.test(s)) return 'shank';
  if (side && /^hip$/.test(s)) return 'thigh'; // a sided "Hip" is the joint at the thigh's head
  if (/buttock|pelvis|hips?|hipjoint/.test(s)) return 'lowerTrunk';
  if (/chest|thorax|torso|clavicle|collar|shoulder|breast/.test(s)) return 'upperTrunk';
  if (/spine|abdomen|belly|back|waist|lumbar/.test(s)) return 'middleTrunk';
  if (/arm/.test(s)) return 'upperArm';
  if (/leg/.test(s)) return 'shank';
  return undefined;
}

/** The table that knows most of the skeleton's bone names, with how many it knows. */
export function detectNameMap(skeleton: Skeleton): { name: string; map: SegmentMap; matched: number } | undefined {
  let best: { name: string; map: SegmentMap; matched: number } | undefined;
  for (const [name, map] of Object.entries(BONE_NAME_MAPS)) {
    let matched = 0;
    for (const b of skeleton.bones) if (stripNamespace(b.name) in map || b.name in map) matched++;
    if (matched > 0 && (!best || matched > best.matched)) best = { name, map, matched };
  }
  return best;
}

/** Where a bone's body segment comes from: 'auto' (recognised from bone names), a map, or a function of the bone's name and index. */
export type SegmentSource = 'auto' | SegmentMap | ((name: string, index: number) => BodySegment | null | undefined);

/**
 * BodySegment of every bone: from the given table or function, or (auto) the best-matching family
 * table then word patterns; bones still unknown inherit their nearest classified ancestor's
 * segment. null where no ancestor is classified either.
 */
export function classifyBones(skeleton: Skeleton, source: SegmentSource = 'auto'): (BodySegment | null)[] {
  const n = skeleton.boneCount;
  const out: (BodySegment | null)[] = new Array(n).fill(null);
  const lookup = (map: SegmentMap, name: string): BodySegment | undefined => map[name] ?? map[stripNamespace(name)];
  if (source === 'auto') {
    const best = detectNameMap(skeleton);
    for (let i = 0; i < n; i++) {
      const name = skeleton.bones[i].name;
      out[i] = (best && lookup(best.map, name)) ?? segmentFromPattern(name) ?? null;
    }
  } else if (typeof source === 'function') {
    for (let i = 0; i < n; i++) out[i] = source(skeleton.bones[i].name, i) ?? null;
  } else {
    for (let i = 0; i < n; i++) out[i] = lookup(source, skeleton.bones[i].name) ?? null;
  }
  for (let i = 0; i < n; i++) {
    const p = skeleton.bones[i].parent;
    if (out[i] === null && p >= 0) out[i] = out[p];
  }
  return out;
}

/** BodySide of every bone: from its name, else its nearest sided ancestor's (fingers under a left hand are left). */
export function boneSides(skeleton: Skeleton): (BodySide | undefined)[] {
  const out: (BodySide | undefined)[] = [];
  for (const b of skeleton.bones) out.push(boneSide(b.name) ?? (b.parent >= 0 ? out[b.parent] : undefined));
  return out;
}
