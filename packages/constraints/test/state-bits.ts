/** Every body's saved State of a world, as bytes: equal bytes are the same bits. */
import type { World } from '../src/index.js';

export function stateBits(world: World): Uint8Array {
  const parts = world.bodies.map((b) => b.state.save());
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return new Uint8Array(out.buffer);
}

export const sameBits = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
