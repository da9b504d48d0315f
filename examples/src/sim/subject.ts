/**
 * The subject of a scene: the box of world space the page's camera frames and follows (the walker,
 * not the balls thrown at it). It is gathered while a scene draws: every articulation whose key
 * the scene names in `Scene.subject` (every articulation when it names none) adds its links.
 */
import type { Model, State } from '@sinew/featherstone';

/** An axis-aligned box: [min x, min y, min z, max x, max y, max z], metres. */
export type Box = [number, number, number, number, number, number];

/** Padding around the link points, metres: what a link's shape reaches beyond its origin and centre of mass. */
export const SUBJECT_PAD = 0.15;

export class SubjectBox {
  readonly box: Box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];

  /** Keys of the articulations that make the subject; null: all of them. */
  constructor(public keys: readonly string[] | null = null) {}

  clear(): void {
    this.box.fill(Infinity, 0, 3);
    this.box.fill(-Infinity, 3, 6);
  }

  get empty(): boolean {
    return !(this.box[3] >= this.box[0]);
  }

  /**
   * Adds a body's links when `key` belongs to the subject: each link's origin, and the point as far
   * past its centre of mass again (the far end of a limb or a chain link), padded by SUBJECT_PAD.
   * `state` must have current forward kinematics.
   */
  add(key: string, model: Model, state: State): void {
    if (this.keys && !this.keys.includes(key)) return;
    const P = state.work.pose, c = model.com, b = this.box, pad = SUBJECT_PAD;
    for (let i = 0; i < model.nLinks; i++) {
      const o = 12 * i;
      for (let far = 0; far < 2; far++) {
        const lx = 2 * far * c[3 * i], ly = 2 * far * c[3 * i + 1], lz = 2 * far * c[3 * i + 2];
        for (let k = 0; k < 3; k++) {
          const x = P[o + 3 * k] * lx + P[o + 3 * k + 1] * ly + P[o + 3 * k + 2] * lz + P[o + 9 + k];
          if (!Number.isFinite(x)) continue;
          if (x - pad < b[k]) b[k] = x - pad;
          if (x + pad > b[3 + k]) b[3 + k] = x + pad;
        }
      }
    }
  }
}
