/**
 * A glTF skin to a Skeleton. The bones are the skin's joints, each parented to its nearest
 * ancestor node that is also a joint. When the joints have several top joints, their common
 * ancestor node (the skin's `skeleton` node if it is one) becomes the root bone, or a synthetic
 * root at the scene origin when they share none.
 *
 * World transforms may carry scale (RobotExpressive's armature is scaled by 100): each bone's
 * world matrix is split into a rigid frame and a uniform scale, and the skeleton keeps the rigid
 * frames, so bone offsets come out in scene units (times `scale`) and rotations are unscaled.
 *
 * The rest pose is either the nodes' own transforms ('nodes', default) or the bind pose of the
 * inverse bind matrices ('bind'): world_j = C inverse(IBM_j), with C = world_r IBM_r for the
 * first joint r, which leaves that joint where the nodes put it.
 */
import { ImportError } from '../motion/import-error.js';
import { quatConjMultiply, quatRotateInverse } from '../motion/quat.js';
import { Skeleton, type BoneDesc } from '../motion/skeleton.js';
import { COMPONENT, type GltfAccessors } from './accessors.js';
import type { Json } from './buffers.js';
import type { JsonFields } from './json-fields.js';
import { identity4, invertAffine, multiply4, rigidFrame, transformPoint, type Mat4, type RigidFrame } from './mat4.js';
import type { GltfNodes } from './nodes.js';
import type { SkinData } from './skin-vertices.js';

/**
 * Largest bone offset or vertex distance accepted (m): far beyond any character, and small enough
 * that the ragdoll's inertias (mass times length squared) and their sums stay finite.
 */
const MAX_EXTENT = 1e9;

/** A skin of a glTF file: its name, joint nodes, skeleton root and inverse bind matrices. */
export interface GltfSkinInfo {
  name: string | undefined;
  /** Node index of each joint. */
  joints: number[];
  /** The `skeleton` node, when given. */
  skeleton: number | undefined;
  /** Accessor of the inverse bind matrices, when given. */
  inverseBindMatrices: number | undefined;
}

/** How a skeleton's bones relate to the glTF nodes, for animation import. */
export interface Rig {
  skeleton: Skeleton;
  /** Node of each bone; -1 for a synthetic root. */
  boneNodes: Int32Array;
  /** Matrix applied above the top-level nodes (the import scale). */
  base: Mat4;
}

export function readSkin(f: JsonFields, root: Json, nodes: GltfNodes, accessors: GltfAccessors, index: number): SkinData & { info: GltfSkinInfo } {
  const skins = f.optionalArray(root, 'skins', '');
  const path = `skins[${index}]`;
  const s = f.object(skins[index], path);
  const joints = f.array(s.joints, `${path}.joints`).map((j, k) => f.index(j, `${path}.joints[${k}]`, nodes.count, 'nodes'));
  if (joints.length === 0) f.fail(`${path}.joints`, 'at least one joint', 'an empty array');
  const seen = new Map<number, number>();
  joints.forEach((j, k) => {
    if (seen.has(j)) f.fail(`${path}.joints[${k}]`, `distinct joints (node ${j} is also joints[${seen.get(j)}])`, j);
    seen.set(j, k);
  });
  const skeleton = s.skeleton === undefined ? undefined : f.index(s.skeleton, `${path}.skeleton`, nodes.count, 'nodes');
  let inverseBind: Float64Array[];
  let ibmIndex: number | undefined;
  if (s.inverseBindMatrices !== undefined) {
    const a = accessors.read(s.inverseBindMatrices, `${path}.inverseBindMatrices`, { types: ['MAT4'], componentTypes: [COMPONENT.FLOAT] });
    if (a.count < joints.length) f.fail(`${path}.inverseBindMatrices`, `at least ${joints.length} matrices, one per joint`, `accessors[${s.inverseBindMatrices}].count ${a.count}`);
    inverseBind = joints.map((_, k) => a.data.slice(16 * k, 16 * k + 16));
    inverseBind.forEach((m, k) => {
      if (Math.abs(m[3]) > 1e-6 || Math.abs(m[7]) > 1e-6 || Math.abs(m[11]) > 1e-6 || Math.abs(m[15] - 1) > 1e-6) {
        f.fail(`${path}.inverseBindMatrices`, `affine matrices (last row 0 0 0 1; matrix ${k} of accessors[${s.inverseBindMatrices}])`, `[${m[3]}, ${m[7]}, ${m[11]}, ${m[15]}]`);
      }
    });
    ibmIndex = s.inverseBindMatrices as number;
  } else {
    inverseBind = joints.map(() => identity4());
  }
  return { joints, inverseBind, info: { name: typeof s.name === 'string' ? s.name : undefined, joints, skeleton, inverseBindMatrices: ibmIndex } };
}

export interface SkeletonBuildOptions {
  file: string;
  name: string;
  scale: number;
  restPose: 'nodes' | 'bind';
  /** Joint-space vertex positions owned by each node (see skin-vertices). */
  vertices?: Map<number, number[]>;
  /** Node-space vertex positions of a rigid (unskinned) mesh on a node, if any. */
  rigidMesh?: (node: number) => Float64Array | undefined;
  warnings: string[];
}

export function skeletonFromSkin(f: JsonFields, nodes: GltfNodes, skin: SkinData & { info: GltfSkinInfo }, skinIndex: number, o: SkeletonBuildOptions): Rig {
  const path = `skins[${skinIndex}]`;
  const jointSet = new Set(skin.joints);
  const jointIndex = new Map(skin.joints.map((n, k) => [n, k]));
  // nearest joint ancestor of each joint
  const jointParent = new Map<number, number>();
  const tops: number[] = [];
  for (const j of skin.joints) {
    const anc = nodes.ancestors(j).find((a) => jointSet.has(a));
    if (anc === undefined) tops.push(j);
    else jointParent.set(j, anc);
  }
  // the root: the single top joint, else a common ancestor node, else a synthetic root (-1)
  let rootNode: number;
  if (tops.length === 1) rootNode = tops[0];
  else {
    const chains = tops.map((t) => [t, ...nodes.ancestors(t)]);
    const preferred = skin.info.skeleton !== undefined && chains.every((c) => c.includes(skin.info.skeleton!)) ? skin.info.skeleton : undefined;
    rootNode = preferred ?? chains[0].find((a) => chains.every((c) => c.includes(a))) ?? -1;
    for (const t of tops) jointParent.set(t, rootNode);
    o.warnings.push(`${path}: ${tops.length} top joints; ${rootNode >= 0 ? `their common ancestor node ${rootNode}` : 'a synthetic root at the origin'} is the root bone`);
  }

  // bone order: depth first from the root, children in skin order
  const kids = new Map<number, number[]>();
  for (const j of skin.joints) {
    const p = jointParent.get(j);
    if (p === undefined) continue;
    if (!kids.has(p)) kids.set(p, []);
    kids.get(p)!.push(j);
  }
  const order: number[] = [];
  const stack = [rootNode];
  while (stack.length > 0) {
    const nd = stack.pop()!;
    order.push(nd);
    const c = kids.get(nd) ?? [];
    for (let k = c.length - 1; k >= 0; k--) stack.push(c[k]);
  }
  const boneOf = new Map(order.map((nd, b) => [nd, b]));

  // rest world matrices
  const base = Float64Array.of(o.scale, 0, 0, 0, 0, o.scale, 0, 0, 0, 0, o.scale, 0, 0, 0, 0, 1);
  const worlds = nodes.worldMatrices(order.filter((nd) => nd >= 0), base);
  const restWorld = (nd: number): Mat4 => (nd >= 0 ? worlds.get(nd)! : base);
  let bindC: Mat4 | undefined;
  if (o.restPose === 'bind') {
    const r = order.find((nd) => jointIndex.has(nd))!;
    bindC = multiply4(restWorld(r), skin.inverseBind[jointIndex.get(r)!], new Float64Array(16));
  }
  const frames: RigidFrame[] = order.map((nd) => {
    let W = restWorld(nd);
    const k = jointIndex.get(nd);
    if (bindC && k !== undefined) {
      const inv = invertAffine(skin.inverseBind[k]);
      if (!inv) f.fail(`${path}.inverseBindMatrices`, `an invertible matrix for joint ${k} (node ${nd})`, 'a singular matrix');
      W = multiply4(bindC, inv!, new Float64Array(16));
    }
    const fr = rigidFrame(W);
    if (!fr) throw new ImportError({ file: o.file, path: nd >= 0 ? `nodes[${nd}]` : path }, 'a world transform with finite, non-zero scale', 'a degenerate or non-finite transform');
    if (fr.anisotropy > 1e-3 || fr.mirrored) o.warnings.push(`nodes[${nd}]: world scale is not uniform or mirrored; the bone frame keeps only its rotation`);
    return fr;
  });

  // names: the node's name, else node_<index>; made unique
  const used = new Set<string>();
  const names = order.map((nd) => {
    let name = nd >= 0 ? nodes.names[nd] || `node_${nd}` : '__root';
    if (used.has(name)) name = `${name}_${nd >= 0 ? nd : 'root'}`;
    for (let k = 2; used.has(name); k++) name = `${name}_${k}`;
    used.add(name);
    return name;
  });

  // rigid meshes under bone nodes: carried into the nearest bone's frame, taken at the nodes' rest
  // pose, where they are fixed to that bone whatever the rest pose of the skeleton
  const attached = new Map<number, number[]>();
  if (o.rigidMesh) {
    const nodeFrames = new Map<number, RigidFrame>();
    for (let mn = 0; mn < nodes.count; mn++) {
      if (nodes.mesh[mn] === undefined || nodes.skin[mn] !== undefined) continue;
      const bone = [mn, ...nodes.ancestors(mn)].find((a) => boneOf.has(a));
      if (bone === undefined) continue;
      const local = o.rigidMesh(mn);
      if (!local) continue;
      const W = nodes.worldMatrices([mn], base).get(mn)!;
      let fr = nodeFrames.get(bone);
      if (!fr) {
        fr = rigidFrame(restWorld(bone));
        if (!fr) continue;
        nodeFrames.set(bone, fr);
      }
      const list = attached.get(bone) ?? [];
      const p = new Float64Array(3);
      for (let k = 0; k < local.length; k += 3) {
        transformPoint(W, local[k], local[k + 1], local[k + 2], p, 0);
        p[0] -= fr.position[0]; p[1] -= fr.position[1]; p[2] -= fr.position[2];
        quatRotateInverse(fr.rotation, 0, p, 0, p, 0);
        list.push(p[0], p[1], p[2]);
      }
      attached.set(bone, list);
    }
  }

  const bones: BoneDesc[] = order.map((nd, b) => {
    const fr = frames[b];
    const parentNode = b === 0 ? -1 : jointParent.get(nd)!;
    const pb = b === 0 ? -1 : boneOf.get(parentNode)!;
    const offset = new Float64Array(3), rotation = new Float64Array(4);
    if (pb < 0) {
      offset.set(fr.position);
      rotation.set(fr.rotation);
    } else {
      const pf = frames[pb];
      const d = Float64Array.of(fr.position[0] - pf.position[0], fr.position[1] - pf.position[1], fr.position[2] - pf.position[2]);
      quatRotateInverse(pf.rotation, 0, d, 0, offset, 0);
      quatConjMultiply(pf.rotation, 0, fr.rotation, 0, rotation, 0);
    }
    if (!(Math.max(Math.abs(offset[0]), Math.abs(offset[1]), Math.abs(offset[2])) <= MAX_EXTENT)) {
      throw new ImportError({ file: o.file, path: `nodes[${nd}]` }, `a bone offset of finite size (at most ${MAX_EXTENT} m per axis)`, `[${Array.from(offset).join(', ')}]`);
    }
    const k = jointIndex.get(nd);
    const desc: BoneDesc = { name: names[b], parent: pb, offset, rotation, node: nd >= 0 ? nd : undefined };
    if (k !== undefined) desc.inverseBind = skin.inverseBind[k];
    const owned = nd >= 0 ? o.vertices?.get(nd) : undefined;
    const rigid = nd >= 0 ? attached.get(nd) : undefined;
    if ((owned && owned.length > 0) || rigid) {
      // joint space to the rigid bone frame: multiply by the bone's world scale
      const v = Float64Array.from([...(owned ?? []).map((x) => x * fr.scale), ...(rigid ?? [])]);
      for (let i = 0; i < v.length; i++) {
        if (!(Math.abs(v[i]) <= MAX_EXTENT)) throw new ImportError({ file: o.file, path: `${path} joint node ${nd}` }, `finite skinned vertex positions in joint space (at most ${MAX_EXTENT} m from the joint)`, String(v[i]));
      }
      desc.vertices = v;
    }
    return desc;
  });
  const skeleton = new Skeleton(o.name, bones);
  return { skeleton, boneNodes: Int32Array.from(order), base };
}
