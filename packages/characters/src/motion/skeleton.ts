/**
 * A neutral skeleton shared by the importers: named bones in a tree (parents before children,
 * one root at index 0), each with its rest transform relative to its parent. Lengths are in
 * metres once an importer's scale is applied; frames are rigid (no scale).
 *
 * The local transform of a bone is T(offset) R(rotation): a point p in the bone's frame is at
 * offset + rotation * p in the parent's frame. For the root, "parent" is the world.
 */
import { quatMultiply, quatNormalize, quatRotate } from './quat.js';

/** One bone for a Skeleton: name, parent, rest offset and rotation in the parent's frame, end sites and importer data. */
export interface BoneDesc {
  name: string;
  /** Parent bone index, -1 for the root. Must be lower than the bone's own index. */
  parent: number;
  /** Rest position of the bone's head in the parent frame (metres). */
  offset: ArrayLike<number>;
  /** Rest orientation relative to the parent frame, quaternion [x, y, z, w] (default identity). */
  rotation?: ArrayLike<number>;
  /** Tips with no bone of their own (BVH End Sites), in the bone's frame. */
  endSites?: readonly ArrayLike<number>[];
  /** glTF: index of the node the bone was read from. */
  node?: number;
  /** glTF: the skin's inverse bind matrix, as stored (column-major 4x4, file units, mesh space). */
  inverseBind?: ArrayLike<number>;
  /** glTF: rest positions of the skinned vertices this bone owns (largest weight), in the bone frame, flat xyz (metres). */
  vertices?: ArrayLike<number>;
}

/** A bone of a Skeleton: its index, name, parent, children and rest transform. */
export interface Bone {
  readonly index: number;
  readonly name: string;
  readonly parent: number;
  readonly offset: Float64Array;
  readonly rotation: Float64Array;
  readonly endSites: readonly Float64Array[];
  readonly node: number | undefined;
  readonly inverseBind: Float64Array | undefined;
  readonly vertices: Float64Array | undefined;
}

/** A neutral skeleton shared by the importers: named bones in a tree (parents first), each with its rest transform relative to its parent. */
export class Skeleton {
  readonly name: string;
  readonly bones: readonly Bone[];
  /** Children of each bone. */
  readonly children: readonly (readonly number[])[];
  private readonly byName: Map<string, number>;

  /** Validates the bones (unique non-empty names, parents first, finite numbers) and copies them. */
  constructor(name: string, bones: readonly BoneDesc[]) {
    if (bones.length === 0) throw new RangeError('Skeleton: no bones');
    this.name = name;
    this.byName = new Map();
    const out: Bone[] = [];
    const children: number[][] = bones.map(() => []);
    bones.forEach((b, i) => {
      const where = `Skeleton "${name}" bone ${i}`;
      if (typeof b.name !== 'string' || b.name.length === 0) throw new RangeError(`${where}: expected a non-empty name`);
      if (this.byName.has(b.name)) throw new RangeError(`${where}: duplicate bone name "${b.name}"`);
      if (i === 0 ? b.parent !== -1 : !(Number.isInteger(b.parent) && b.parent >= 0 && b.parent < i)) {
        throw new RangeError(`${where} "${b.name}": parent ${b.parent}; expected ${i === 0 ? '-1 (bone 0 is the root)' : `an index in [0, ${i - 1}]`}`);
      }
      const offset = finiteCopy(`${where} "${b.name}".offset`, b.offset, 3);
      const rotation = b.rotation ? finiteCopy(`${where} "${b.name}".rotation`, b.rotation, 4) : Float64Array.of(0, 0, 0, 1);
      if (!(quatNormalize(rotation, 0) > 1e-12)) throw new RangeError(`${where} "${b.name}".rotation: zero quaternion`);
      const endSites = (b.endSites ?? []).map((e, k) => finiteCopy(`${where} "${b.name}".endSites[${k}]`, e, 3));
      const inverseBind = b.inverseBind ? finiteCopy(`${where} "${b.name}".inverseBind`, b.inverseBind, 16) : undefined;
      let vertices: Float64Array | undefined;
      if (b.vertices) {
        if (b.vertices.length % 3 !== 0) throw new RangeError(`${where} "${b.name}".vertices: length ${b.vertices.length} is not a multiple of 3`);
        vertices = finiteCopy(`${where} "${b.name}".vertices`, b.vertices, b.vertices.length);
      }
      this.byName.set(b.name, i);
      if (i > 0) children[b.parent].push(i);
      out.push(Object.freeze({ index: i, name: b.name, parent: b.parent, offset, rotation, endSites, node: b.node, inverseBind, vertices }));
    });
    this.bones = Object.freeze(out);
    this.children = Object.freeze(children.map((c) => Object.freeze(c)));
    Object.freeze(this);
  }

  get boneCount(): number {
    return this.bones.length;
  }

  /** Index of the bone with this name, or -1. */
  indexOf(name: string): number {
    return this.byName.get(name) ?? -1;
  }

  /** Number of End Sites over all bones. */
  get endSiteCount(): number {
    let n = 0;
    for (const b of this.bones) n += b.endSites.length;
    return n;
  }

  /** Local rest rotations (4 per bone) and translations (3 per bone), in the layout of a clip pose. */
  restPose(): { rotations: Float64Array; translations: Float64Array } {
    const n = this.bones.length;
    const rotations = new Float64Array(4 * n), translations = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      rotations.set(this.bones[i].rotation, 4 * i);
      translations.set(this.bones[i].offset, 3 * i);
    }
    return { rotations, translations };
  }

  /**
   * World rotations (4 per bone) and head positions (3 per bone) for local rotations and
   * translations in clip-pose layout (the rest pose when omitted).
   */
  worldPose(
    local: { rotations: ArrayLike<number>; translations: ArrayLike<number> } = this.restPose(),
    out: { rotations: Float64Array; positions: Float64Array } = { rotations: new Float64Array(4 * this.bones.length), positions: new Float64Array(3 * this.bones.length) },
  ): { rotations: Float64Array; positions: Float64Array } {
    const { rotations: R, positions: P } = out;
    for (let i = 0; i < this.bones.length; i++) {
      const p = this.bones[i].parent;
      if (p < 0) {
        for (let k = 0; k < 4; k++) R[k] = local.rotations[k];
        for (let k = 0; k < 3; k++) P[k] = local.translations[k];
      } else {
        quatMultiply(R, 4 * p, local.rotations, 4 * i, R, 4 * i);
        quatRotate(R, 4 * p, local.translations, 3 * i, P, 3 * i);
        P[3 * i] += P[3 * p]; P[3 * i + 1] += P[3 * p + 1]; P[3 * i + 2] += P[3 * p + 2];
      }
    }
    return out;
  }
}

function finiteCopy(path: string, v: ArrayLike<number>, n: number): Float64Array {
  if (!v || v.length !== n) throw new RangeError(`${path}: expected ${n} numbers`);
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const x = v[k];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new RangeError(`${path}: element ${k} is ${String(x)}, expected a finite number`);
    out[k] = x;
  }
  return out;
}
