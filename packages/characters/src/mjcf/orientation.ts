/**
 * MJCF frame orientations (MuJoCo XML Reference, "Frame orientations"): quat (w x y z), axisangle
 * (axis, angle), euler (three angles in the compiler's eulerseq: lower-case axes rotate with the
 * frame, upper-case axes stay fixed), xyaxes (X and Y axes, Y made orthogonal, Z = X x Y) and zaxis
 * (the shortest rotation taking Z to the given direction; exactly opposite: half a turn about X,
 * as MuJoCo's mju_quatZ2Vec). Angles are degrees unless the compiler says angle="radian".
 */
import type { Attrs } from './attributes.js';
import { cross3, dot3, mat3ToQuat, norm3, quatAxisAngle, quatMul, type Quat, type Vec3 } from '../format/math.js';
import { detMath } from '@sinew/featherstone';

export interface AngleSettings {
  degree: boolean;
  eulerseq: string;
}

const ORIENTATIONS = ['quat', 'axisangle', 'euler', 'xyaxes', 'zaxis'] as const;

export function toRadians(v: number, s: AngleSettings): number {
  return s.degree ? (v * Math.PI) / 180 : v;
}

/** The shortest rotation taking +Z to direction v (MuJoCo's mju_quatZ2Vec). */
export function quatZToVec(v: readonly number[]): Quat | null {
  const n = norm3(v);
  if (!(n > 1e-14)) return null;
  const vn: Vec3 = [v[0] / n, v[1] / n, v[2] / n];
  const axis = cross3([0, 0, 1], vn);
  const s = norm3(axis);
  if (s < 1e-15) return vn[2] < 0 ? [1, 0, 0, 0] : [0, 0, 0, 1];
  return quatAxisAngle([axis[0] / s, axis[1] / s, axis[2] / s], detMath.atan2(s, vn[2]));
}

const EULER_AXES: Record<string, Vec3> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

/** The element's frame orientation, identity when it has none. */
export function frameOrientation(a: Attrs, s: AngleSettings): Quat {
  const own = ORIENTATIONS.filter((k) => a.own.has(k));
  const given = own.length > 0 ? own : ORIENTATIONS.filter((k) => a.has(k));
  if (given.length > 1) a.fail(given[1], `expected one orientation, but ${given.join(' and ')} are both given`);
  if (given.length === 0) return [0, 0, 0, 1];
  const key = given[0];
  switch (key) {
    case 'quat': {
      const [w, x, y, z] = a.vec(key, 4)!;
      const n = detMath.hypot(w, x, y, z);
      if (!(n > 1e-14)) a.fail(key, 'expected a non-zero quaternion');
      return [x / n, y / n, z / n, w / n];
    }
    case 'axisangle': {
      const [x, y, z, angle] = a.vec(key, 4)!;
      const n = detMath.hypot(x, y, z);
      if (!(n > 1e-14)) a.fail(key, 'expected a non-zero axis');
      return quatAxisAngle([x / n, y / n, z / n], toRadians(angle, s));
    }
    case 'euler': {
      const e = a.vec(key, 3)!;
      let q: Quat = [0, 0, 0, 1];
      for (let i = 0; i < 3; i++) {
        const c = s.eulerseq[i];
        const r = quatAxisAngle(EULER_AXES[c.toLowerCase()], toRadians(e[i], s));
        q = c === c.toLowerCase() ? quatMul(q, r) : quatMul(r, q);
      }
      return q;
    }
    case 'xyaxes': {
      const v = a.vec(key, 6)!;
      const xn = norm3(v);
      if (!(xn > 1e-14)) a.fail(key, 'expected a non-zero X axis');
      const x: Vec3 = [v[0] / xn, v[1] / xn, v[2] / xn];
      const d = dot3(x, v.slice(3));
      const y0: Vec3 = [v[3] - d * x[0], v[4] - d * x[1], v[5] - d * x[2]];
      const yn = norm3(y0);
      if (!(yn > 1e-14)) a.fail(key, 'expected a Y axis not parallel to the X axis');
      const y: Vec3 = [y0[0] / yn, y0[1] / yn, y0[2] / yn];
      const z = cross3(x, y);
      return mat3ToQuat([x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]]);
    }
    case 'zaxis': {
      const q = quatZToVec(a.vec(key, 3)!);
      if (!q) a.fail(key, 'expected a non-zero direction');
      return q;
    }
  }
}

/** Checks the compiler's eulerseq: exactly three of x, y, z, X, Y, Z. */
export function isEulerSeq(v: string): boolean {
  return /^[xyzXYZ]{3}$/.test(v);
}
