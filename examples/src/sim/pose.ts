/** World poses of links as plain data: what the headless demo writes and the page's test hook reads. */
import type { Model, State } from '@sinew/featherstone';

export interface LinkPose {
  readonly name: string;
  /** Link origin in the world, metres. */
  readonly position: [number, number, number];
  /** Link orientation in the world, quaternion [x, y, z, w]. */
  readonly quaternion: [number, number, number, number];
}

export interface BodyPose {
  readonly key: string;
  readonly links: LinkPose[];
  /** Joint coordinates and velocities, as in State.q and State.qd. */
  readonly q: number[];
  readonly qd: number[];
}

/** Link poses of a state after forwardKinematics. */
export function bodyPose(key: string, model: Model, state: State): BodyPose {
  const P = state.work.pose;
  const links: LinkPose[] = [];
  for (let i = 0; i < model.nLinks; i++) {
    const o = 12 * i;
    links.push({
      name: model.linkNames[i],
      position: [P[o + 9], P[o + 10], P[o + 11]],
      quaternion: quaternionFromRowMajor(P, o),
    });
  }
  return { key, links, q: Array.from(state.q), qd: Array.from(state.qd) };
}

/** Quaternion [x, y, z, w] of a row-major rotation matrix at m[o..o+8] (Shepperd's method). */
export function quaternionFromRowMajor(m: ArrayLike<number>, o = 0): [number, number, number, number] {
  const m00 = m[o], m01 = m[o + 1], m02 = m[o + 2];
  const m10 = m[o + 3], m11 = m[o + 4], m12 = m[o + 5];
  const m20 = m[o + 6], m21 = m[o + 7], m22 = m[o + 8];
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  return w < 0 ? [-x, -y, -z, -w] : [x, y, z, w];
}
