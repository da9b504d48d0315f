/** Test helper: which links of a body touch static geometry (the floor), read from the World's contact list. */
import type { World } from '@sinew/constraints';
import { CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_I32_STRIDE, CONTACT_LINK_A, CONTACT_LINK_B } from '@sinew/constraints/internals';

/** Links of `body` touching a static (the floor) in the World's contact list. */
export function onFloor(world: World, body: number): Set<number> {
  const C = world.collision.contacts, out = new Set<number>();
  for (let k = 0; k < C.count; k++) {
    const io = k * CONTACT_I32_STRIDE;
    const a = C.i32[io + CONTACT_BODY_A], b = C.i32[io + CONTACT_BODY_B];
    if (a === body && b < 0) out.add(C.i32[io + CONTACT_LINK_A]);
    if (b === body && a < 0) out.add(C.i32[io + CONTACT_LINK_B]);
  }
  return out;
}
