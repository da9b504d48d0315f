/**
 * Seeded random trees, states and forces for the oracle tests: random topology, random joint
 * types (revolute, prismatic, spherical, free, fixed), random axes, joint placements, masses,
 * centres of mass and inertias, random q, qd, tau and external forces.
 */
import { ModelBuilder, State, type JointTypeName, type Model } from '../src/index.js';

/** Mulberry32: a small deterministic PRNG. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function unitVec(r: () => number): [number, number, number] {
  for (;;) {
    const v: [number, number, number] = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
    const n = Math.hypot(...v);
    if (n > 0.1 && n <= 1) return [v[0] / n, v[1] / n, v[2] / n];
  }
}

export function unitQuat(r: () => number): [number, number, number, number] {
  for (;;) {
    const q: [number, number, number, number] = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
    const n = Math.hypot(...q);
    if (n > 0.1 && n <= 1) return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
  }
}

/** A random SPD rotational inertia satisfying the triangle inequalities: R diag(principal) R^T. */
export function randomInertia(r: () => number, mass: number): number[] {
  const a = 0.05 + r(), b = 0.05 + r(), c = 0.05 + r();
  // principal moments of a box-like body with dimensions a, b, c
  const p = [(mass * (b * b + c * c)) / 12, (mass * (a * a + c * c)) / 12, (mass * (a * a + b * b)) / 12];
  const [x, y, z, w] = unitQuat(r);
  const R = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
  const I = (i: number, j: number) => R[3 * i] * p[0] * R[3 * j] + R[3 * i + 1] * p[1] * R[3 * j + 1] + R[3 * i + 2] * p[2] * R[3 * j + 2];
  return [I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)];
}

export interface RandomTreeOptions {
  links: number;
  types?: JointTypeName[];
  /** Probability that the first link gets a free joint. */
  freeRoot?: number;
}

export function randomModel(r: () => number, opts: RandomTreeOptions): Model {
  const types = opts.types ?? ['revolute', 'prismatic', 'spherical', 'free', 'fixed'];
  const b = new ModelBuilder();
  for (let i = 0; i < opts.links; i++) {
    const parent = i === 0 ? -1 : Math.floor(r() * (i + 1)) - 1; // -1 allows several roots
    let type = types[Math.floor(r() * types.length)];
    if (i === 0 && opts.freeRoot !== undefined) type = r() < opts.freeRoot ? 'free' : type;
    // a fixed joint on a root link is fine; keep at least one dof in the model
    if (i === 0 && type === 'fixed') type = 'revolute';
    const mass = 0.2 + 3 * r();
    b.addLink({
      name: `L${i}`,
      parent,
      joint: {
        type,
        axis: type === 'revolute' || type === 'prismatic' ? unitVec(r) : undefined,
        position: [r() - 0.5, r() - 0.5, r() - 0.5],
        rotation: unitQuat(r),
        damping: r() < 0.3 ? r() : 0,
        armature: r() < 0.3 ? 0.1 * r() : 0,
        stiffness: r() < 0.2 && (type === 'revolute' || type === 'prismatic') ? 5 * r() : 0,
        springRef: r() - 0.5,
      },
      mass,
      com: [0.4 * (r() - 0.5), 0.4 * (r() - 0.5), 0.4 * (r() - 0.5)],
      inertia: randomInertia(r, mass),
    });
  }
  return b.build();
}

/** Random q (unit quaternions where needed), qd, tau, external forces. */
export function randomState(r: () => number, model: Model, scale = 1): State {
  const s = new State(model);
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i], o = model.qOffset[i];
    if (t === 1 || t === 2) s.q[o] = 2 * r() - 1;
    else if (t === 3) s.q.set(unitQuat(r), o);
    else if (t === 4) {
      s.q.set([r() - 0.5, r() - 0.5, r() - 0.5], o);
      s.q.set(unitQuat(r), o + 3);
    }
  }
  for (let d = 0; d < model.nv; d++) {
    s.qd[d] = scale * (2 * r() - 1);
    s.tau[d] = scale * (2 * r() - 1);
  }
  for (let k = 0; k < s.fext.length; k++) s.fext[k] = scale * (2 * r() - 1);
  return s;
}
