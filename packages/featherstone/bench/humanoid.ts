/**
 * A 20-link, 36-dof humanoid-shaped tree for benchmarks and tests: a free pelvis; spherical
 * lumbar, thoracic and neck joints, a hinged head; fixed clavicles; spherical shoulders, hinged
 * elbows and wrists; spherical hips, hinged knees and ankles. Y is up, the character faces +z.
 * Masses follow adult segment fractions (about 75 kg in all); segment inertias are those of solid
 * cylinders along the bone.
 */
import { ModelBuilder, State, type JointSpec, type Model } from '../src/index.js';

/** Rotational inertia about the centre of mass of a solid cylinder of length L and radius r along y. */
function rod(m: number, L: number, r: number): number[] {
  const t = (m * (3 * r * r + L * L)) / 12;
  return [t, 0.5 * m * r * r, t, 0, 0, 0];
}

export function humanoid(): Model {
  const b = new ModelBuilder();
  const damped = (j: JointSpec): JointSpec => ({ damping: 0.5, ...j });
  b.addLink({ name: 'pelvis', parent: null, joint: { type: 'free', position: [0, 1, 0] }, mass: 11, com: [0, 0, 0], inertia: [0.09, 0.1, 0.07, 0, 0, 0] });
  b.addLink({ name: 'lumbar', parent: 'pelvis', joint: damped({ type: 'spherical', position: [0, 0.1, 0] }), mass: 6, com: [0, 0.075, 0], inertia: rod(6, 0.15, 0.12) });
  b.addLink({ name: 'thorax', parent: 'lumbar', joint: damped({ type: 'spherical', position: [0, 0.15, 0] }), mass: 15, com: [0, 0.1, 0], inertia: rod(15, 0.2, 0.15) });
  b.addLink({ name: 'upperChest', parent: 'thorax', joint: { type: 'fixed', position: [0, 0.2, 0] }, mass: 5, com: [0, 0.05, 0], inertia: rod(5, 0.1, 0.14) });
  b.addLink({ name: 'neck', parent: 'upperChest', joint: damped({ type: 'spherical', position: [0, 0.1, 0] }), mass: 1.5, com: [0, 0.05, 0], inertia: rod(1.5, 0.1, 0.05) });
  b.addLink({ name: 'head', parent: 'neck', joint: damped({ type: 'revolute', axis: [1, 0, 0], position: [0, 0.1, 0] }), mass: 5, com: [0, 0.1, 0.02], inertia: [0.03, 0.02, 0.025, 0, 0, 0] });
  for (const [side, s] of [['L', 1], ['R', -1]] as const) {
    b.addLink({ name: `clavicle${side}`, parent: 'upperChest', joint: { type: 'fixed', position: [0.03 * s, 0.05, 0] }, mass: 1, com: [0.08 * s, 0, 0], inertia: [0.0005, 0.002, 0.002, 0, 0, 0] });
    b.addLink({ name: `upperArm${side}`, parent: `clavicle${side}`, joint: damped({ type: 'spherical', position: [0.17 * s, 0, 0] }), mass: 2.1, com: [0, -0.15, 0], inertia: rod(2.1, 0.3, 0.045) });
    b.addLink({ name: `forearm${side}`, parent: `upperArm${side}`, joint: damped({ type: 'revolute', axis: [1, 0, 0], position: [0, -0.3, 0], limits: { lower: -2.6, upper: 0 } }), mass: 1.2, com: [0, -0.13, 0], inertia: rod(1.2, 0.27, 0.035) });
    b.addLink({ name: `hand${side}`, parent: `forearm${side}`, joint: damped({ type: 'revolute', axis: [0, 0, 1], position: [0, -0.27, 0], limits: { lower: -1.2, upper: 1.2 } }), mass: 0.45, com: [0, -0.08, 0], inertia: rod(0.45, 0.16, 0.03) });
  }
  for (const [side, s] of [['L', 1], ['R', -1]] as const) {
    b.addLink({ name: `thigh${side}`, parent: 'pelvis', joint: damped({ type: 'spherical', position: [0.09 * s, -0.05, 0] }), mass: 10, com: [0, -0.2, 0], inertia: rod(10, 0.42, 0.07) });
    b.addLink({ name: `shin${side}`, parent: `thigh${side}`, joint: damped({ type: 'revolute', axis: [1, 0, 0], position: [0, -0.42, 0], limits: { lower: 0, upper: 2.6 } }), mass: 3.5, com: [0, -0.19, 0], inertia: rod(3.5, 0.42, 0.045) });
    b.addLink({ name: `foot${side}`, parent: `shin${side}`, joint: damped({ type: 'revolute', axis: [1, 0, 0], position: [0, -0.42, 0], limits: { lower: -0.8, upper: 0.6 } }), mass: 1, com: [0, -0.04, 0.06], inertia: [0.004, 0.004, 0.001, 0, 0, 0] });
  }
  return b.build();
}

/** Mulberry32, so that a state is the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A moving, bent pose: every joint off its neutral position, every dof moving, joint torques set. */
export function humanoidState(model: Model, seed = 1): State {
  const r = rng(seed);
  const s = new State(model);
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i], o = model.qOffset[i];
    if (t === 1 || t === 2) s.q[o] = r() - 0.5;
    else if (t === 3 || t === 4) {
      const qo = t === 4 ? o + 3 : o;
      if (t === 4) s.q.set([0.1 * (r() - 0.5), 1 + 0.1 * r(), 0.1 * (r() - 0.5)], o);
      const x = 0.4 * (r() - 0.5), y = 0.4 * (r() - 0.5), z = 0.4 * (r() - 0.5);
      const n = Math.hypot(x, y, z, 1);
      s.q.set([x / n, y / n, z / n, 1 / n], qo);
    }
  }
  for (let d = 0; d < model.nv; d++) {
    s.qd[d] = 2 * r() - 1;
    s.tau[d] = 4 * (2 * r() - 1);
  }
  return s;
}
