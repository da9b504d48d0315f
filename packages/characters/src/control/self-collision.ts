/**
 * Self-collision of a character whose shapes are coarser than its motion. Mass-sized shapes (the
 * humanoid preset's capsules and boxes hold each segment's mass at the density of water) overlap
 * their neighbours in ordinary poses: at the preset's own neutral pose the thighs overlap each
 * other by 3.7 cm and the forearms the pelvis by 2.5 cm, and a walk brings the feet and shanks
 * through each other. With self-collision on, such overlaps are resolved the moment physics takes
 * over, and the limbs jump apart. The usual cure (game engines' ragdoll setups do the same) is to
 * let those pairs pass through each other and keep every other pair colliding.
 */
import { forwardKinematics } from '@sinew/featherstone';
import type { Body, World } from '@sinew/constraints';
import { CONTACT_BODY_A, CONTACT_BODY_B, CONTACT_DEPTH, CONTACT_F64_STRIDE, CONTACT_I32_STRIDE, CONTACT_LINK_A, CONTACT_LINK_B } from '@sinew/constraints/internals';
import { JointTrajectory } from './joint-trajectory.js';

/**
 * Excludes from self-collision every pair of links of `body` whose shapes overlap deeper than
 * `tolerance` (m, default 2 mm) in any of the given poses (q arrays, or every key of a
 * trajectory), and in the model's neutral pose. The body's state is left as it was. Returns the
 * excluded pairs as link names.
 */
export function excludeOverlappingLinkPairs(
  world: World, body: Body, poses: JointTrajectory | Iterable<ArrayLike<number>> = [], tolerance = 0.002,
): [string, string][] {
  const m = body.model, st = body.state;
  const saved = st.save();
  const pairs = new Map<number, number>();
  const check = () => {
    forwardKinematics(m, st, false);
    world.contacts.detect(world.bodies);
    const C = world.collision.contacts, I = C.i32, F = C.f64;
    for (let k = 0; k < C.count; k++) {
      const io = k * CONTACT_I32_STRIDE;
      if (I[io + CONTACT_BODY_A] !== body.index || I[io + CONTACT_BODY_B] !== body.index) continue;
      if (F[k * CONTACT_F64_STRIDE + CONTACT_DEPTH] <= tolerance) continue;
      const a = I[io + CONTACT_LINK_A], b = I[io + CONTACT_LINK_B];
      pairs.set(Math.min(a, b) * m.nLinks + Math.max(a, b), 1);
    }
  };
  try {
    st.setNeutral();
    check();
    if (poses instanceof JointTrajectory) {
      if (poses.model !== m) throw new RangeError('excludeOverlappingLinkPairs: the trajectory is for another model');
      for (let k = 0; k < poses.frameCount; k++) {
        st.q.set(poses.q.subarray(k * m.nq, (k + 1) * m.nq));
        check();
      }
    } else {
      for (const q of poses) {
        if (q.length !== m.nq) throw new RangeError(`excludeOverlappingLinkPairs: a pose of ${q.length} numbers, expected ${m.nq}`);
        st.q.set(q);
        check();
      }
    }
  } finally {
    st.restore(saved);
    forwardKinematics(m, st, true);
  }
  const out: [string, string][] = [];
  for (const key of [...pairs.keys()].sort((x, y) => x - y)) {
    const a = Math.floor(key / m.nLinks), b = key % m.nLinks;
    world.collision.excludeLinkPair(body.index, a, b);
    out.push([m.linkNames[a], m.linkNames[b]]);
  }
  return out;
}
