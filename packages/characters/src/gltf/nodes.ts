/**
 * The glTF node graph: each node's local transform (TRS, or a matrix split into TRS so that
 * animations can override parts of it), its parent, and world matrices. The graph must be a
 * forest: a node with two parents or a cycle is an error naming the nodes.
 */
import type { Json } from './buffers.js';
import type { JsonFields } from './json-fields.js';
import { fromTRS, multiply4, rigidFrame, type Mat4 } from './mat4.js';
import { detMath } from '@sinew/featherstone';

export interface NodeTRS {
  translation: Float64Array;
  rotation: Float64Array;
  scale: Float64Array;
}

export class GltfNodes {
  readonly count: number;
  readonly names: (string | undefined)[];
  readonly parent: Int32Array;
  readonly children: number[][];
  /** Rest local transforms as TRS (from `matrix` when given). */
  readonly rest: NodeTRS[];
  /** Rest local matrices (the matrix itself when given, exactly). */
  readonly restMatrix: Mat4[];
  readonly mesh: (number | undefined)[];
  readonly skin: (number | undefined)[];

  constructor(f: JsonFields, root: Json, warnings: string[]) {
    const nodes = f.optionalArray(root, 'nodes', '');
    const n = nodes.length;
    this.count = n;
    this.names = [];
    this.parent = new Int32Array(n).fill(-1);
    this.children = [];
    this.rest = [];
    this.restMatrix = [];
    this.mesh = [];
    this.skin = [];
    for (let i = 0; i < n; i++) {
      const path = `nodes[${i}]`;
      const node = f.object(nodes[i], path);
      this.names.push(typeof node.name === 'string' ? node.name : undefined);
      const kids = f.optionalArray(node, 'children', path).map((c, k) => f.index(c, `${path}.children[${k}]`, n, 'nodes'));
      this.children.push(kids);
      this.mesh.push(node.mesh === undefined ? undefined : f.integer(node.mesh, `${path}.mesh`, 0));
      this.skin.push(node.skin === undefined ? undefined : f.integer(node.skin, `${path}.skin`, 0));
      if (node.matrix !== undefined) {
        const m = Float64Array.from(f.numbers(node.matrix, `${path}.matrix`, 16));
        if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1) f.fail(`${path}.matrix`, 'an affine matrix (last row 0 0 0 1, column-major)', `[${m[3]}, ${m[7]}, ${m[11]}, ${m[15]}]`);
        const frame = rigidFrame(m);
        if (!frame) f.fail(`${path}.matrix`, 'an invertible transform', 'a zero or degenerate column');
        if (node.translation !== undefined || node.rotation !== undefined || node.scale !== undefined) warnings.push(`${path}: both matrix and TRS given; the matrix is used`);
        if (frame!.anisotropy > 1e-4 || frame!.mirrored) warnings.push(`${path}.matrix: scale is not uniform or mirrored; its rotation is approximated`);
        const s = frame!.scale * (frame!.mirrored ? -1 : 1);
        this.rest.push({ translation: frame!.position, rotation: frame!.rotation, scale: Float64Array.of(s, s, s) });
        this.restMatrix.push(m);
      } else {
        const t = node.translation === undefined ? [0, 0, 0] : f.numbers(node.translation, `${path}.translation`, 3);
        const r = node.rotation === undefined ? [0, 0, 0, 1] : f.numbers(node.rotation, `${path}.rotation`, 4);
        const s = node.scale === undefined ? [1, 1, 1] : f.numbers(node.scale, `${path}.scale`, 3);
        const len = detMath.hypot(r[0], r[1], r[2], r[3]);
        if (!(len > 1e-6)) f.fail(`${path}.rotation`, 'a unit quaternion', `[${r.join(', ')}]`);
        const trs = { translation: Float64Array.from(t), rotation: Float64Array.from(r, (v) => v / len), scale: Float64Array.from(s) };
        this.rest.push(trs);
        this.restMatrix.push(fromTRS(trs.translation, trs.rotation, trs.scale));
      }
    }
    // parents: each node at most one, and no cycles
    for (let i = 0; i < n; i++) {
      this.children[i].forEach((c, k) => {
        if (c === i) f.fail(`nodes[${i}].children[${k}]`, 'a node other than itself (the node graph must be a tree)', c);
        if (this.parent[c] >= 0) f.fail(`nodes[${i}].children[${k}]`, `a node with no other parent (node ${c} is already a child of node ${this.parent[c]})`, c);
        this.parent[c] = i;
      });
    }
    const state = new Uint8Array(n); // 0 unvisited, 1 on the current path, 2 done
    for (let i = 0; i < n; i++) {
      const path: number[] = [];
      let j = i;
      while (j >= 0 && state[j] === 0) {
        state[j] = 1;
        path.push(j);
        j = this.parent[j];
      }
      if (j >= 0 && state[j] === 1) {
        const cycle = path.slice(path.indexOf(j)).reverse();
        f.fail(`nodes[${j}].children`, 'a tree (no cycles in the node graph)', `the cycle ${[...cycle, cycle[0]].join(' -> ')}`);
      }
      for (const p of path) state[p] = 2;
    }
  }

  /** Nodes of `needed` and all their ancestors, parents before children. */
  withAncestors(needed: Iterable<number>): number[] {
    const out: number[] = [];
    const seen = new Set<number>();
    const visit = (i: number): void => {
      if (seen.has(i)) return;
      seen.add(i);
      if (this.parent[i] >= 0) visit(this.parent[i]);
      out.push(i);
    };
    for (const i of needed) visit(i);
    return out;
  }

  /** Ancestors of node i from its parent to the top. */
  ancestors(i: number): number[] {
    const out: number[] = [];
    for (let j = this.parent[i]; j >= 0; j = this.parent[j]) out.push(j);
    return out;
  }

  /**
   * World matrices of the nodes in `needed` (with all their ancestors), from local matrices given
   * by `local` (the rest matrices by default), premultiplied by `base` at the top.
   */
  worldMatrices(needed: Iterable<number>, base: Mat4, local: (i: number) => Mat4 = (i) => this.restMatrix[i], out = new Map<number, Mat4>()): Map<number, Mat4> {
    const visit = (i: number): Mat4 => {
      const known = out.get(i);
      if (known) return known;
      const p = this.parent[i];
      const w = multiply4(p >= 0 ? visit(p) : base, local(i), new Float64Array(16));
      out.set(i, w);
      return w;
    };
    for (const i of needed) visit(i);
    return out;
  }
}
