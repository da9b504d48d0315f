/**
 * Model <-> JSON: a model written with characterToJSON, sent through JSON text and read back with
 * characterFromJSON is the same model, field by field and bit for bit. Also: mass properties from
 * shapes and densities against formulas written here, massless links against a closed-form mass
 * matrix, and drive gains from a settle time against a simulated step response.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardDynamics, massMatrix, ModelBuilder, State, type Model } from '@sinew/featherstone';
import { characterFromJSON, characterToJSON, type CharacterDescription } from '../src/format/index.js';
import { humanoid, quadruped, snake } from '../src/presets/index.js';
import { importMJCF } from '../src/mjcf/index.js';

const DATA = new URL('../../../../shared/data/mjcf/', import.meta.url);
const mjcfFile = (p: string) => {
  const url = new URL(p, DATA);
  return importMJCF(readFileSync(url, 'utf8'), { readInclude: (f) => readFileSync(new URL(f, new URL('./', url)), 'utf8') });
};

/** Every field of two models, compared bit for bit (Object.is: -0 differs from 0, NaN equals NaN). */
function expectSameModel(a: Model, b: Model): void {
  const arrays = ['parent', 'jointType', 'qOffset', 'vOffset', 'jointNq', 'jointNv', 'dofLink', 'treeX', 'axis', 'S', 'mass', 'com', 'inertiaCom', 'I',
    'lower', 'upper', 'damping', 'armature', 'stiffness', 'springRef', 'gravity'] as const;
  expect([a.nLinks, a.nq, a.nv, a.hasQuaternions]).toEqual([b.nLinks, b.nq, b.nv, b.hasQuaternions]);
  for (const f of arrays) {
    const x = a[f], y = b[f];
    expect(y.length, f).toBe(x.length);
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) expect.fail(`${f}[${i}]: ${x[i]} != ${y[i]}`);
  }
  expect(b.linkNames).toEqual(a.linkNames);
  expect(b.jointNames).toEqual(a.jointNames);
  expect(b.children.map((c) => Array.from(c))).toEqual(a.children.map((c) => Array.from(c)));
  const lim = (m: Model) => m.sphericalLimits.map((l) => (l ? { twistAxis: Array.from(l.twistAxis), swing: l.swing, twist: l.twist } : null));
  expect(lim(b)).toStrictEqual(lim(a));
  expect(JSON.stringify(b.shapes, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v))).toBe(JSON.stringify(a.shapes, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v)));
}

function roundTrip(desc: CharacterDescription): void {
  const a = characterFromJSON(desc);
  const text = JSON.stringify(characterToJSON(a.model, a.drives));
  const b = characterFromJSON(JSON.parse(text));
  expectSameModel(a.model, b.model);
  expect(b.drives).toEqual(a.drives);
  // and writing the second model gives the same text
  expect(JSON.stringify(characterToJSON(b.model, b.drives))).toBe(text);
}

describe('Model -> JSON text -> Model is exact', () => {
  it('presets: humanoid (two sizes), quadruped, snake', () => {
    roundTrip(humanoid());
    roundTrip(humanoid({ height: 1.62, mass: 58.7 }));
    roundTrip(quadruped({ length: 1.1, mass: 31 }));
    roundTrip(snake({ segments: 12 }));
  });

  it('MJCF imports: humanoid, humanoid_CMU (massless chain links, rotated joint frames), pendulum_chain (slide, ball)', () => {
    for (const f of ['humanoid.xml', 'dm_control/humanoid_CMU.xml', 'pendulum_chain.xml']) {
      const r = mjcfFile(f);
      roundTrip(r.description);
      // the importer's own model equals the one rebuilt from its JSON
      const b = characterFromJSON(JSON.parse(JSON.stringify(characterToJSON(r.model))));
      expectSameModel(r.model, b.model);
    }
  });

  it('random characters: every joint type, random frames, axes, limits, springs, shapes and drives', () => {
    let seed = 99;
    const rnd = (): number => { seed = (seed * 48271) % 2147483647; return seed / 2147483647; };
    const v3 = (s = 1): [number, number, number] => [s * (rnd() - 0.5), s * (rnd() - 0.5), s * (rnd() - 0.5)];
    for (let t = 0; t < 20; t++) {
      const links: CharacterDescription['links'] = [];
      const n = 2 + Math.floor(rnd() * 8);
      for (let i = 0; i < n; i++) {
        const type = i === 0 ? (['free', 'revolute', 'spherical', 'fixed'] as const)[Math.floor(rnd() * 4)] : (['revolute', 'prismatic', 'spherical', 'fixed'] as const)[Math.floor(rnd() * 4)];
        const joint: CharacterDescription['links'][number]['joint'] = { type, position: v3(), rotation: [...v3(), rnd()] as [number, number, number, number] };
        if (type === 'revolute' || type === 'prismatic') {
          joint.axis = v3();
          joint.limits = { lower: -rnd(), upper: rnd() < 0.3 ? null : rnd() };
          joint.stiffness = rnd();
          joint.springRef = rnd() - 0.5;
          joint.drive = rnd() < 0.5 ? { kp: 10 * rnd(), kd: rnd(), maxTorque: 1 + rnd() } : { settleTime: 0.1 + rnd(), dampingRatio: 0.5 + rnd() };
        }
        if (type === 'spherical') {
          joint.limits = { twistAxis: v3(), swing: [3 * rnd(), 3 * rnd()], twist: [-rnd(), rnd()] };
          joint.drive = { settleTime: 0.2 };
        }
        if (type !== 'fixed') { joint.damping = rnd(); joint.armature = 0.01 * rnd(); }
        const shapes = [
          { type: 'capsule' as const, radius: 0.05 + 0.05 * rnd(), halfLength: 0.2 * rnd(), position: v3(), rotation: [...v3(), 1] as [number, number, number, number], friction: rnd() },
          { type: 'box' as const, halfExtents: [0.1 + rnd(), 0.1 + rnd(), 0.1 + rnd()] as [number, number, number], position: v3() },
        ];
        links.push(rnd() < 0.5
          ? { name: `l${i}`, parent: i === 0 ? null : `l${Math.floor(rnd() * i)}`, joint, density: 500 + 1000 * rnd(), shapes }
          : { name: `l${i}`, parent: i === 0 ? null : `l${Math.floor(rnd() * i)}`, joint, mass: 0.5 + rnd(), com: v3(0.1), inertia: [0.2, 0.3, 0.4, 0.01 * rnd(), 0.01 * rnd(), 0.01 * rnd()], shapes: [shapes[1]] });
      }
      roundTrip({ format: 'sinew-character', version: 1, gravity: v3(20), links });
    }
  });

  it('models built directly with ModelBuilder: recovered rotations and axes rebuild the same model, or within a few ulps', () => {
    let seed = 5;
    const rnd = (): number => { seed = (seed * 48271) % 2147483647; return seed / 2147483647 - 0.5; };
    let exact = 0;
    const N = 40;
    for (let t = 0; t < N; t++) {
      const b = new ModelBuilder();
      b.addLink({ name: 'a', parent: null, joint: { type: 'revolute', axis: [rnd(), rnd(), rnd()], rotation: [rnd(), rnd(), rnd(), rnd()] }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
      b.addLink({ name: 'b', parent: 'a', joint: { type: 'spherical', position: [rnd(), 0, 1], limits: { twistAxis: [rnd(), 1, rnd()], swing: 1, twist: [-1, 1] } }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
      const m = b.build();
      const back = characterFromJSON(JSON.parse(JSON.stringify(characterToJSON(m)))).model;
      let same = true;
      for (const f of ['treeX', 'axis'] as const) {
        for (let i = 0; i < m[f].length; i++) {
          expect(Math.abs(back[f][i] - m[f][i])).toBeLessThanOrEqual(1e-15);
          if (!Object.is(back[f][i], m[f][i])) same = false;
        }
      }
      Array.from(m.sphericalLimits[1]!.twistAxis).forEach((x, k) => expect(Math.abs(back.sphericalLimits[1]!.twistAxis[k] - x)).toBeLessThanOrEqual(1e-15));
      if (same) exact++;
    }
    expect(exact).toBeGreaterThan(N / 2);
  });
});

describe('mass properties from shapes', () => {
  it('density: mass, centre of mass and inertia of a sphere, a rotated capsule and a box equal formulas written here', () => {
    const rho = 700;
    const c = Math.SQRT1_2;
    const d = characterFromJSON({
      format: 'sinew-character', version: 1,
      links: [{
        name: 'body', parent: null, joint: { type: 'free' }, density: rho,
        shapes: [
          { type: 'sphere', radius: 0.1, position: [0.3, 0, 0] },
          // capsule along local Y turned onto X (a quarter turn about Z)
          { type: 'capsule', radius: 0.05, halfLength: 0.2, position: [0, 0.1, 0], rotation: [0, 0, c, c] },
          { type: 'box', halfExtents: [0.1, 0.2, 0.3], position: [0, 0, -0.2] },
        ],
      }],
    }).model;
    const ms = rho * (4 / 3) * Math.PI * 0.1 ** 3;
    const mcyl = rho * Math.PI * 0.05 ** 2 * 0.4, mcap = rho * (4 / 3) * Math.PI * 0.05 ** 3;
    const mb = rho * 8 * 0.1 * 0.2 * 0.3;
    const m = ms + mcyl + mcap + mb;
    expect(d.mass[0]).toBeCloseTo(m, 12);
    const com = [(0.3 * ms) / m, (0.1 * (mcyl + mcap)) / m, (-0.2 * mb) / m];
    for (let k = 0; k < 3; k++) expect(d.com[k]).toBeCloseTo(com[k], 14);
    // about the capsule's own axis (now X) and across it: cylinder + hemispheres (centroid 3r/8 from the face)
    const r = 0.05, h = 0.4;
    const capAxial = mcyl * r * r / 2 + mcap * 0.4 * r * r;
    const hemiOwn = 0.4 * r * r - (3 * r / 8) ** 2; // about a hemisphere's centroid, per unit mass: 83/320 r^2
    const capAcross = mcyl * (3 * r * r + h * h) / 12 + mcap * (hemiOwn + (h / 2 + 3 * r / 8) ** 2);
    const Is = 0.4 * ms * 0.01;
    const box = [mb * (0.04 + 0.09) / 3, mb * (0.01 + 0.09) / 3, mb * (0.01 + 0.04) / 3];
    // parallel-axis terms about the joint centre of mass
    const pts: [number, number[]][] = [[ms, [0.3, 0, 0]], [mcyl + mcap, [0, 0.1, 0]], [mb, [0, 0, -0.2]]];
    const Ixx = Is + capAxial + box[0] + pts.reduce((s, [mi, p]) => s + mi * ((p[1] - com[1]) ** 2 + (p[2] - com[2]) ** 2), 0);
    const Iyy = Is + capAcross + box[1] + pts.reduce((s, [mi, p]) => s + mi * ((p[0] - com[0]) ** 2 + (p[2] - com[2]) ** 2), 0);
    const Izz = Is + capAcross + box[2] + pts.reduce((s, [mi, p]) => s + mi * ((p[0] - com[0]) ** 2 + (p[1] - com[1]) ** 2), 0);
    const product = (i: number, j: number): number => -pts.reduce((s, [mi, p]) => s + mi * (p[i] - com[i]) * (p[j] - com[j]), 0);
    const I = d.inertiaCom;
    [Ixx, Iyy, Izz, product(0, 1), product(0, 2), product(1, 2)].forEach((v, k) => expect(I[k]).toBeCloseTo(v, 14));
    expect(hemiOwn).toBeCloseTo((83 / 320) * r * r, 16);
  });

  it('mass with shapes and no inertia: the shapes at density mass / volume', () => {
    const m = characterFromJSON({
      format: 'sinew-character', version: 1,
      links: [{ name: 'b', parent: null, joint: { type: 'free' }, mass: 3, shapes: [{ type: 'box', halfExtents: [0.1, 0.2, 0.3] }] }],
    }).model;
    expect(m.mass[0]).toBe(3);
    [3 * (0.04 + 0.09) / 3, 3 * (0.01 + 0.09) / 3, 3 * (0.01 + 0.04) / 3].forEach((v, k) => expect(m.inertiaCom[k]).toBeCloseTo(v, 15));
  });
});

describe('massless links', () => {
  it('two hinges through one point joined by a massless link: the mass matrix of J^T I J with J = [Ry(q2)^T x, y]', () => {
    const [a, b, c] = [0.3, 0.5, 0.7];
    const model = characterFromJSON({
      format: 'sinew-character', version: 1, gravity: [0, 0, 0],
      links: [
        { name: 'gimbal', parent: null, joint: { type: 'revolute', axis: [1, 0, 0] }, mass: 0 },
        { name: 'body', parent: 'gimbal', joint: { type: 'revolute', axis: [0, 1, 0] }, mass: 2, inertia: [a, b, c, 0, 0, 0] },
      ],
    }).model;
    expect(model.mass[0]).toBe(0);
    expect(Array.from(model.I.subarray(0, 36)).every((x) => x === 0)).toBe(true);
    const st = new State(model);
    const M = new Float64Array(4);
    for (const q2 of [0, 0.4, 1.3, -2]) {
      st.q.set([0.7, q2]);
      massMatrix(model, st, M);
      // body-frame angular velocity: w = q1' Ry(q2)^T x + q2' y = q1' (cos q2, 0, sin q2) + q2' (0, 1, 0)
      const expected = [a * Math.cos(q2) ** 2 + c * Math.sin(q2) ** 2, 0, 0, b];
      M.forEach((v, k) => expect(v).toBeCloseTo(expected[k], 15));
    }
    st.q.set([0, 0.4]); st.qd.set([1, -2]); st.tau.set([0.3, 0.1]);
    const qdd = forwardDynamics(model, st);
    expect(Number.isFinite(qdd[0]) && Number.isFinite(qdd[1])).toBe(true);
  });
});

describe('drives from a settle time', () => {
  for (const zeta of [1, 2]) {
    it(`damping ratio ${zeta}: the simulated step response of the joint crosses 2 % at the settle time`, () => {
      const settle = 0.5;
      const c = characterFromJSON({
        format: 'sinew-character', version: 1, gravity: [0, 0, 0],
        links: [{
          name: 'arm', parent: null, joint: { type: 'revolute', axis: [0, 0, 1], armature: 0.01, drive: { settleTime: settle, dampingRatio: zeta } },
          mass: 2, com: [0.3, 0, 0], inertia: [0.01, 0.02, 0.02, 0, 0, 0],
        }],
      });
      const [{ kp, kd }] = c.drives;
      const I = 0.02 + 2 * 0.09 + 0.01; // about the axis: own + parallel axis + armature
      expect(kd / (2 * Math.sqrt(kp * I))).toBeCloseTo(zeta, 12);
      const st = new State(c.model);
      const dt = 1e-5, target = 1;
      let t = 0;
      const errAt = (time: number): number => {
        while (t < time - dt / 2) {
          st.tau[0] = kp * (target - st.q[0]) - kd * st.qd[0];
          const a = forwardDynamics(c.model, st)[0];
          st.qd[0] += a * dt;
          st.q[0] += st.qd[0] * dt;
          t += dt;
        }
        return Math.abs(target - st.q[0]);
      };
      expect(errAt(0.95 * settle)).toBeGreaterThan(0.02);
      const e = errAt(settle);
      expect(e).toBeGreaterThan(0.0195);
      expect(e).toBeLessThan(0.0205);
      expect(errAt(1.05 * settle)).toBeLessThan(0.02);
    });
  }
});
