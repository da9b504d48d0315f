/**
 * Renderer output: the world transforms a renderer needs each frame, written into a caller's
 * array with one call, column-major 4x4 (the order of three.js Matrix4.elements and of Babylon's
 * matrices): every link's transform, and for an imported skeleton every bone's transform and its
 * skinning matrix (bone world transform times the bone's inverse bind matrix, glTF's joint matrix).
 */
import { forwardKinematics, linkMatrix4, type Model, type State } from '@sinew/featherstone';
import type { Skeleton } from './skeleton.js';

/** Writes 16 numbers per link (column-major world transform) into out from `offset`. Runs forward kinematics. */
export function writeLinkMatrices(model: Model, state: State, out: Float32Array | Float64Array, offset = 0): void {
  if (out.length < offset + 16 * model.nLinks) throw new RangeError(`writeLinkMatrices: the output holds ${out.length} numbers, expected at least ${offset + 16 * model.nLinks}`);
  forwardKinematics(model, state, false);
  for (let i = 0; i < model.nLinks; i++) linkMatrix4(state, i, out, offset + 16 * i);
}

/**
 * Binds a skeleton's bones to the links of a ragdoll built from it (ragdollFromSkeleton names each
 * link after its bone and puts the link frame on the bone frame), so the bone transforms follow
 * the simulation. Bones are found by name, or through `map` (bone name -> link name).
 */
export class SkinBinding {
  /** Link of each bone. */
  readonly links: Int32Array;
  /** Inverse bind matrix of each bone (16, column-major; identity where the skeleton has none). */
  readonly inverseBind: Float64Array;
  private readonly link = new Float64Array(16);

  constructor(readonly model: Model, readonly skeleton: Skeleton, options: { map?: Readonly<Record<string, string>> } = {}) {
    const n = skeleton.bones.length;
    this.links = new Int32Array(n);
    this.inverseBind = new Float64Array(16 * n);
    for (let b = 0; b < n; b++) {
      const bone = skeleton.bones[b];
      const name = options.map?.[bone.name] ?? bone.name;
      if (!model.hasLink(name)) throw new Error(`SkinBinding: bone "${bone.name}" has no link "${name}" in the model (pass a map from bone names to link names)`);
      this.links[b] = model.linkIndex(name);
      if (bone.inverseBind) this.inverseBind.set(bone.inverseBind, 16 * b);
      else for (let k = 0; k < 4; k++) this.inverseBind[16 * b + 5 * k] = 1;
    }
  }

  /** World transform of every bone (16 numbers each, column-major). Runs forward kinematics. */
  writeBoneMatrices(state: State, out: Float32Array | Float64Array, offset = 0): void {
    this.check(out, offset);
    forwardKinematics(this.model, state, false);
    for (let b = 0; b < this.links.length; b++) linkMatrix4(state, this.links[b], out, offset + 16 * b);
  }

  /**
   * Skinning matrix of every bone: world transform times inverse bind matrix (what a skinned
   * mesh's shader multiplies bind-pose vertices by). Runs forward kinematics.
   */
  writeSkinningMatrices(state: State, out: Float32Array | Float64Array, offset = 0): void {
    this.check(out, offset);
    forwardKinematics(this.model, state, false);
    const L = this.link, B = this.inverseBind;
    for (let b = 0; b < this.links.length; b++) {
      linkMatrix4(state, this.links[b], L, 0);
      const bo = 16 * b, oo = offset + 16 * b;
      // column-major product: (L B)[r + 4c] = sum_k L[r + 4k] B[k + 4c]
      for (let c = 0; c < 4; c++) {
        for (let r = 0; r < 4; r++) {
          out[oo + r + 4 * c] = L[r] * B[bo + 4 * c] + L[r + 4] * B[bo + 4 * c + 1] + L[r + 8] * B[bo + 4 * c + 2] + L[r + 12] * B[bo + 4 * c + 3];
        }
      }
    }
  }

  private check(out: ArrayLike<number>, offset: number): void {
    const need = offset + 16 * this.links.length;
    if (out.length < need) throw new RangeError(`SkinBinding: the output holds ${out.length} numbers, expected at least ${need} (16 per bone)`);
  }
}
