/** Test fixtures: chains and pendulums built with the featherstone ModelBuilder. */
import { ModelBuilder, type Model } from '@sinew/featherstone';

export interface ChainOptions {
  links: number;
  length?: number;
  mass?: number;
  /** Joint of the first link: 'free' (held by constraint rows) or 'revolute' (a hinge to the world). */
  root?: 'free' | 'revolute';
  axis?: [number, number, number];
  limits?: { lower: number; upper: number };
}

/**
 * Where the first link's frame sits: its start (default) or, for a free first link held by
 * constraint rows as in maximal coordinates, its centre of mass.
 */
export function rootOffset(o: ChainOptions): number {
  return o.root === 'free' ? (o.length ?? 0.1) / 2 : 0;
}

/** A chain of uniform rods along +x in the reference pose, hinged about z. */
export function rodChain(o: ChainOptions): Model {
  const L = o.length ?? 0.1, m = o.mass ?? 0.1, w = L / 10;
  const b = new ModelBuilder();
  const I = [(m * (w * w + w * w)) / 12, (m * (L * L + w * w)) / 12, (m * (L * L + w * w)) / 12, 0, 0, 0];
  for (let i = 0; i < o.links; i++) {
    const shift = i === 0 ? rootOffset(o) : 0;
    const parentShift = i === 1 ? rootOffset(o) : 0;
    b.addLink({
      name: `link${i}`,
      parent: i - 1,
      joint: {
        type: i === 0 ? o.root ?? 'revolute' : 'revolute',
        axis: i === 0 && o.root === 'free' ? undefined : o.axis ?? [0, 0, 1],
        position: i === 0 ? [shift, 0, 0] : [L - parentShift, 0, 0],
        limits: o.limits && !(i === 0 && o.root === 'free') ? o.limits : undefined,
      },
      mass: m,
      com: [L / 2 - shift, 0, 0],
      inertia: I,
      shapes: [{ geometry: { type: 'box', halfExtents: [L / 2, w / 2, w / 2] }, position: [L / 2 - shift, 0, 0] }],
    });
  }
  return b.build();
}
