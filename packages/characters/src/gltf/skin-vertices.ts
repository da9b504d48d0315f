/**
 * Which skinned vertices each joint owns: for every mesh primitive drawn with a skin, each
 * vertex goes to the joint with its largest weight (over JOINTS_n / WEIGHTS_n sets), and its
 * bind-pose position is carried into that joint's frame by the joint's inverse bind matrix.
 */
import type { GltfAccessors } from './accessors.js';
import { COMPONENT } from './accessors.js';
import type { Json } from './buffers.js';
import type { JsonFields } from './json-fields.js';
import { transformPoint } from './mat4.js';
import type { GltfNodes } from './nodes.js';

export interface SkinData {
  /** Node of each joint. */
  joints: number[];
  /** Inverse bind matrix of each joint (identity when the skin has none), column-major. */
  inverseBind: Float64Array[];
}

/**
 * Positions in joint space (inverseBind * bind position) of the vertices owned by each node,
 * gathered over all skinned mesh nodes; keyed by node index, flat xyz.
 */
export function ownedVertices(f: JsonFields, root: Json, nodes: GltfNodes, accessors: GltfAccessors, skins: (i: number) => SkinData): Map<number, number[]> {
  const meshes = f.optionalArray(root, 'meshes', '');
  const owned = new Map<number, number[]>();
  const p = new Float64Array(3);
  for (let ni = 0; ni < nodes.count; ni++) {
    const mi = nodes.mesh[ni], si = nodes.skin[ni];
    if (mi === undefined || si === undefined) continue;
    const meshPath = `meshes[${f.index(mi, `nodes[${ni}].mesh`, meshes.length, 'meshes')}]`;
    const skin = skins(si);
    const mesh = f.object(meshes[mi], meshPath);
    const prims = f.array(mesh.primitives, `${meshPath}.primitives`);
    prims.forEach((pr, pi) => {
      const primPath = `${meshPath}.primitives[${pi}]`;
      const attrs = f.object(f.object(pr, primPath).attributes, `${primPath}.attributes`);
      if (attrs.POSITION === undefined || attrs.JOINTS_0 === undefined) return;
      const pos = accessors.read(attrs.POSITION, `${primPath}.attributes.POSITION`, { types: ['VEC3'], componentTypes: [COMPONENT.FLOAT] });
      const sets: { joints: Float64Array; weights: Float64Array; path: string }[] = [];
      for (let s = 0; attrs[`JOINTS_${s}`] !== undefined; s++) {
        const jp = `${primPath}.attributes.JOINTS_${s}`, wp = `${primPath}.attributes.WEIGHTS_${s}`;
        if (attrs[`WEIGHTS_${s}`] === undefined) f.fail(wp, `a WEIGHTS_${s} accessor to go with JOINTS_${s}`, 'none');
        const j = accessors.read(attrs[`JOINTS_${s}`], jp, { types: ['VEC4'], componentTypes: [COMPONENT.UNSIGNED_BYTE, COMPONENT.UNSIGNED_SHORT], normalized: false });
        const w = accessors.read(attrs[`WEIGHTS_${s}`], wp, { types: ['VEC4'], componentTypes: [COMPONENT.FLOAT, COMPONENT.UNSIGNED_BYTE, COMPONENT.UNSIGNED_SHORT], normalized: true });
        if (j.count !== pos.count) f.fail(`${jp}`, `${pos.count} elements like POSITION`, j.count);
        if (w.count !== pos.count) f.fail(`${wp}`, `${pos.count} elements like POSITION`, w.count);
        sets.push({ joints: j.data, weights: w.data, path: jp });
      }
      for (let v = 0; v < pos.count; v++) {
        let best = -1, bestWeight = 0;
        for (const s of sets) {
          for (let k = 0; k < 4; k++) {
            const w = s.weights[4 * v + k];
            if (w < 0) f.fail(s.path.replace('JOINTS', 'WEIGHTS'), `weights >= 0 (vertex ${v})`, w);
            if (w > bestWeight) {
              const j = s.joints[4 * v + k];
              if (j >= skin.joints.length) f.fail(s.path, `joint indices below the skin's ${skin.joints.length} joints (vertex ${v} has weight ${w} on joint ${j})`, j);
              best = j;
              bestWeight = w;
            }
          }
        }
        if (best < 0) continue;
        const node = skin.joints[best];
        transformPoint(skin.inverseBind[best], pos.data[3 * v], pos.data[3 * v + 1], pos.data[3 * v + 2], p, 0);
        let list = owned.get(node);
        if (!list) owned.set(node, (list = []));
        list.push(p[0], p[1], p[2]);
      }
    });
  }
  return owned;
}

/**
 * Vertex positions (node space, flat xyz) of the mesh on node `ni` when the node has a mesh but
 * no skin: parts attached rigidly to a bone, as in RobotExpressive, whose head and body are
 * separate meshes parented to bone nodes.
 */
export function rigidMeshPositions(f: JsonFields, root: Json, nodes: GltfNodes, accessors: GltfAccessors, ni: number): Float64Array | undefined {
  const mi = nodes.mesh[ni];
  if (mi === undefined || nodes.skin[ni] !== undefined) return undefined;
  const meshes = f.optionalArray(root, 'meshes', '');
  const meshPath = `meshes[${f.index(mi, `nodes[${ni}].mesh`, meshes.length, 'meshes')}]`;
  const mesh = f.object(meshes[mi], meshPath);
  const parts: Float64Array[] = [];
  f.array(mesh.primitives, `${meshPath}.primitives`).forEach((pr, pi) => {
    const primPath = `${meshPath}.primitives[${pi}]`;
    const attrs = f.object(f.object(pr, primPath).attributes, `${primPath}.attributes`);
    if (attrs.POSITION === undefined) return;
    parts.push(accessors.read(attrs.POSITION, `${primPath}.attributes.POSITION`, { types: ['VEC3'], componentTypes: [COMPONENT.FLOAT] }).data);
  });
  if (parts.length === 0) return undefined;
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}
