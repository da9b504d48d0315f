/**
 * MJCF import: structure (body, joint and dof counts of shared/data/SOURCES.md), masses by
 * MuJoCo's documented rules (computed here from the geom sizes, and as MuJoCo 3.3.8 reports them),
 * default classes, frame orientations, compiler settings, includes, and malformed input.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, passiveForce, State } from '@sinew/featherstone';
import { importMJCF, MJCFError, type MJCFImport, type MJCFOptions } from '../src/mjcf/index.js';

const DATA = new URL('../../../../shared/data/mjcf/', import.meta.url);
function load(path: string): MJCFImport {
  const url = new URL(path, DATA);
  const dir = new URL('./', url);
  return importMJCF(readFileSync(url, 'utf8'), { fileName: path, readInclude: (p) => readFileSync(new URL(p, dir), 'utf8') });
}
const mjcf = (body: string, head = '', options: MJCFOptions = {}): MJCFImport => importMJCF(`<mujoco>${head}<worldbody>${body}</worldbody></mujoco>`, options);

const RHO = 1000;
/** Volume of a capsule of radius r whose segment (between the hemisphere centres) has length L. */
const capsuleV = (r: number, L: number): number => Math.PI * r * r * L + (4 / 3) * Math.PI * r ** 3;
const sphereV = (r: number): number => (4 / 3) * Math.PI * r ** 3;
const len = (...d: number[]): number => Math.hypot(...d);

describe('MJCF models of shared/data: counts of SOURCES.md', () => {
  const cases: [string, number, number, number, number][] = [
    // file, bodies, joints, free joints, dofs
    ['humanoid.xml', 16, 22, 1, 27],
    ['pendulum_chain.xml', 4, 4, 0, 6],
    ['damped_pendulum.xml', 4, 4, 0, 6],
    ['dm_control/humanoid_CMU.xml', 31, 57, 1, 62],
    ['dm_control/humanoid_CMU_V2020.xml', 31, 56, 0, 56],
    ['dm_control/acrobot.xml', 2, 2, 0, 2],
    ['dm_control/pendulum.xml', 1, 1, 0, 1],
  ];
  for (const [file, nb, nj, nfree, ndof] of cases) {
    it(`${file}: ${nb} bodies, ${nj} joints, ${ndof} dofs`, () => {
      const r = load(file);
      expect(r.bodies.length).toBe(nb);
      expect(r.joints.length).toBe(nj);
      expect(r.joints.filter((j) => j.type === 'free').length).toBe(nfree);
      expect(r.nv).toBe(ndof);
      expect(r.model.nv).toBe(ndof);
      // one link per joint: multi-joint bodies become chains, jointless bodies merge
      expect(r.model.nLinks).toBe(nj);
      expect(r.model.nq).toBe(r.nq);
    });
  }
});

describe('MJCF masses by MuJoCo rules', () => {
  it('humanoid.xml: body masses from the geom sizes at density 1000 equal MuJoCo 3.3.8 body_mass; total 40.844021 kg', () => {
    const r = load('humanoid.xml');
    // geoms of humanoid.xml with their default classes applied (capsules by fromto, radius = size)
    const arm = len(0.16, 0.16, 0.16);
    const expected: Record<string, [number, number]> = {
      // body: [from geoms, MuJoCo 3.3.8 body_mass]
      torso: [RHO * (capsuleV(0.07, 0.14) + capsuleV(0.06, 0.12)), 5.853834311188983],
      head: [RHO * sphereV(0.09), 3.053628059289279],
      waist_lower: [RHO * capsuleV(0.06, 0.12), 2.261946710584651],
      pelvis: [RHO * capsuleV(0.09, 0.14), 6.616194128460103],
      thigh_right: [RHO * capsuleV(0.06, len(0.01, 0.34)), 4.751750928806242],
      shin_right: [RHO * capsuleV(0.049, 0.3), 2.7556961671836424],
      foot_right: [RHO * 2 * capsuleV(0.027, len(0.21, 0.02)), 1.1311412323899843],
      upper_arm_right: [RHO * capsuleV(0.04, arm), 1.6610804848382084],
      lower_arm_right: [RHO * capsuleV(0.031, arm), 0.9614576197247512],
      hand_right: [RHO * sphereV(0.04), 0.26808257310632905],
    };
    let total = 0;
    for (const b of r.bodies) {
      const key = b.name.replace('_left', '_right');
      const [formula, mujoco] = expected[key];
      expect(b.mass).toBeCloseTo(formula, 13);
      expect(b.mass).toBeCloseTo(mujoco, 13);
      total += formula;
    }
    expect(r.totalMass).toBeCloseTo(total, 12);
    expect(r.totalMass).toBeCloseTo(40.84402122162134, 12);
    expect(r.model.totalMass()).toBeCloseTo(40.84402122162134, 12);
    // jointless bodies join their parent's link: head into torso, hands into lower arms
    const torso = r.model.linkIndex('torso');
    expect(r.model.mass[torso]).toBeCloseTo(expected.torso[0] + expected.head[0], 13);
    expect(r.bodies.find((b) => b.name === 'head')!.link).toBe(torso);
  });

  it('humanoid.xml: joint chains have massless links before the body\'s link', () => {
    const r = load('humanoid.xml');
    const m = r.model;
    for (const side of ['right', 'left']) {
      expect(m.mass[m.linkIndex(`thigh_${side}/hip_x_${side}`)]).toBe(0);
      expect(m.mass[m.linkIndex(`thigh_${side}/hip_z_${side}`)]).toBe(0);
      expect(m.jointOfLink(m.linkIndex(`thigh_${side}`)).name).toBe(`hip_y_${side}`);
      expect(m.mass[m.linkIndex(`thigh_${side}`)]).toBeGreaterThan(4.7);
    }
    const massless = Array.from(m.mass).filter((x) => x === 0).length;
    expect(massless).toBe(22 - 13); // 22 joints over 13 jointed bodies
  });

  it('pendulum_chain, damped_pendulum, acrobot, pendulum, humanoid_CMU: totals equal the geom formulas and MuJoCo', () => {
    const chain = RHO * (Math.PI * 0.02 ** 2 * 0.04 + capsuleV(0.02, 0.1) + capsuleV(0.015, 0.2) + 8 * 0.02 * 0.02 * 0.05 + capsuleV(0.02, 0.1));
    expect(load('pendulum_chain.xml').totalMass).toBeCloseTo(chain, 14);
    expect(load('pendulum_chain.xml').totalMass).toBeCloseTo(0.6841223743738973, 14);
    const damped = RHO * (capsuleV(0.02, 0.1) + capsuleV(0.015, 0.2) + 8 * 0.02 * 0.02 * 0.05 + capsuleV(0.02, 0.1));
    expect(load('damped_pendulum.xml').totalMass).toBeCloseTo(damped, 14);
    expect(load('damped_pendulum.xml').totalMass).toBeCloseTo(0.6338568919164607, 14);
    // geom mass attributes override density; mass="0" geoms add nothing
    expect(load('dm_control/acrobot.xml').totalMass).toBe(2);
    expect(load('dm_control/pendulum.xml').totalMass).toBe(1);
    expect(load('dm_control/humanoid_CMU.xml').totalMass).toBeCloseTo(51.845941401700195, 12);
    const v2020 = load('dm_control/humanoid_CMU_V2020.xml');
    expect(v2020.totalMass).toBeCloseTo(66.954478833061, 11);
    // without a free joint its root is welded to the world: static, outside the model
    expect(v2020.bodies[0].link).toBe(-1);
    expect(v2020.model.totalMass()).toBeLessThan(v2020.totalMass - 5);
  });

  it('compiler: inertiafromgeom, boundmass, boundinertia, balanceinertia, settotalmass', () => {
    const body = '<body><joint axis="0 1 0"/><inertial pos="0 0 0" mass="2" diaginertia="1 1 1"/><geom type="sphere" size="0.1"/></body>';
    expect(mjcf(body).model.mass[0]).toBe(2);
    expect(mjcf(body, '<compiler inertiafromgeom="true"/>').model.mass[0]).toBeCloseTo(RHO * sphereV(0.1), 14);
    const light = '<body><joint/><geom type="sphere" size="0.01"/></body>';
    const bounded = mjcf(light, '<compiler boundmass="0.5" boundinertia="0.25"/>');
    expect(bounded.model.mass[0]).toBe(0.5);
    expect(Array.from(bounded.model.inertiaCom.subarray(0, 3))).toEqual([0.25, 0.25, 0.25]);
    const flat = '<body><joint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 3"/></body>';
    expect(() => mjcf(flat)).toThrow(/A \+ B >= C/);
    expect(Array.from(mjcf(flat, '<compiler balanceinertia="true"/>').model.inertiaCom.subarray(0, 3))).toEqual([5 / 3, 5 / 3, 5 / 3]);
    const two = '<body><joint/><geom type="sphere" size="0.1"/><body pos="1 0 0"><joint/><geom type="box" size="0.1 0.2 0.3"/></body></body>';
    const scaled = mjcf(two, '<compiler settotalmass="10"/>');
    const ratio = sphereV(0.1) / (sphereV(0.1) + 8 * 0.1 * 0.2 * 0.3);
    expect(scaled.model.mass[0]).toBeCloseTo(10 * ratio, 13);
    expect(scaled.totalMass).toBeCloseTo(10, 13);
  });

  it('inertial: pos, quat, diaginertia and fullinertia land in the link frame', () => {
    // a 90 degree turn about z swaps the x and y moments
    const r = mjcf('<body><joint/><inertial pos="0.1 0.2 0.3" quat="0.7071067811865476 0 0 0.7071067811865476" mass="3" diaginertia="1 2 3"/></body>');
    Array.from(r.model.com.subarray(0, 3)).forEach((v, k) => expect(v).toBeCloseTo([0.1, 0.2, 0.3][k], 15));
    const I = Array.from(r.model.inertiaCom.subarray(0, 6));
    [2, 1, 3, 0, 0, 0].forEach((v, k) => expect(I[k]).toBeCloseTo(v, 14));
    const full = mjcf('<body><joint/><inertial pos="0 0 0" mass="1" fullinertia="2 3 4 0.1 0.2 0.3"/></body>');
    Array.from(full.model.inertiaCom.subarray(0, 6)).forEach((v, k) => expect(v).toBeCloseTo([2, 3, 4, 0.1, 0.2, 0.3][k], 15));
  });
});

describe('MJCF semantics', () => {
  it('humanoid.xml: default classes, degrees, joint positions, passive parameters', () => {
    const r = load('humanoid.xml');
    const m = r.model;
    const deg = Math.PI / 180;
    const knee = m.joint('knee_right');
    expect(m.lower[knee.v]).toBeCloseTo(-160 * deg, 15);
    expect(m.upper[knee.v]).toBeCloseTo(2 * deg, 15);
    // class "knee": pos="0 0 .02" axis="0 -1 0"; shin body at 0 .01 -.4 in a thigh whose last joint is at the origin
    const k = knee.link;
    expect([m.treeX[12 * k + 9], m.treeX[12 * k + 10], m.treeX[12 * k + 11]].map((x) => +x.toFixed(15))).toEqual([0, 0.01, -0.38]);
    expect(Array.from(m.axis.subarray(3 * k, 3 * k + 3))).toEqual([0, -1, 0]);
    // class "body" joint defaults: damping .2, stiffness 1, armature .01; joint_big: damping 5, stiffness 10
    expect([m.damping[knee.v], m.stiffness[knee.v], m.armature[knee.v]]).toEqual([0.2, 1, 0.01]);
    const hipX = m.joint('hip_x_right');
    expect([m.damping[hipX.v], m.stiffness[hipX.v]]).toEqual([5, 10]);
    expect(m.lower[hipX.v]).toBeCloseTo(-30 * deg, 15);
    expect(m.stiffness[m.joint('abdomen_z').v]).toBe(20); // joint_big_stiff inherits joint_big
    expect(m.axis.subarray(3 * m.joint('hip_y_right').link, 3 * m.joint('hip_y_right').link + 3)).toEqual(new Float64Array([0, 1, 0]));
    // <freejoint> ignores the joint defaults
    const root = m.joint('root');
    expect(root.type).toBe('free');
    for (let i = 0; i < 6; i++) expect([m.damping[root.v + i], m.armature[root.v + i]]).toEqual([0, 0]);
    // ankle_x axis "1 0 .5" normalised
    const ax = m.joint('ankle_x_right').link;
    expect(m.axis[3 * ax]).toBeCloseTo(1 / Math.sqrt(1.25), 15);
    expect(r.timestep).toBe(0.005);
    expect(Array.from(m.gravity)).toEqual([0, -9.81, 0]);
    expect(r.warnings.some((w) => w.includes('<tendon>'))).toBe(true);
    expect(r.warnings.some((w) => w.includes('<actuator>'))).toBe(true);
  });

  it('humanoid.xml keyframe "squat": the torso at height 0.596 m, tilted by the key\'s quaternion', () => {
    const r = load('humanoid.xml');
    const key = r.keyframes.find((k) => k.name === 'squat')!;
    expect(r.keyframes.map((k) => k.name)).toEqual(['squat', 'stand_on_left_leg', 'prone', 'supine']);
    const st = new State(r.model);
    st.q.set(key.q);
    forwardKinematics(r.model, st, false);
    const t = r.model.linkIndex('torso');
    const P = st.work.pose;
    expect(P[12 * t + 10]).toBeCloseTo(0.596, 14);
    // body z axis (MuJoCo up) after quat (0.988015, 0, 0.154359, 0): its height component is 1 - 2 y^2
    const b = r.bodies.find((x) => x.name === 'torso')!;
    expect(b.frameInLink.rotation).toEqual([-0.5, -0.5, -0.5, 0.5]);
    const n = Math.hypot(0.988015, 0.154359);
    const zUp = 1 - 2 * (0.154359 / n) ** 2;
    // the body's +Z is the link's rotation of (0, 1, 0)... the SDK's up: row 1 of R_link times R_T (0,0,1) = R_link (0, 1, 0)
    expect(P[12 * t + 4]).toBeCloseTo(zUp, 14);
  });

  it('option gravity and timestep, Z-up and Y-up worlds', () => {
    const r = mjcf('<body><joint/><geom size="0.1"/></body>', '<option timestep="0.01" gravity="1 2 3"/>');
    expect(r.timestep).toBe(0.01);
    expect(r.gravity).toEqual([2, 3, 1]);
    const z = mjcf('<body><joint/><geom size="0.1"/></body>', '<option gravity="1 2 3"/>', { yUp: false });
    expect(z.gravity).toEqual([1, 2, 3]);
    expect(mjcf('<body><joint/><geom size="0.1"/></body>').timestep).toBe(0.002);
  });

  it('ref and springref in degrees: q = qpos - ref, spring force equals MuJoCo\'s qfrc_passive', () => {
    const r = mjcf('<body><joint name="h" springref="90" ref="30" stiffness="1" range="-45 45"/><geom type="sphere" size=".1" pos="1 0 0"/></body>'
      + '<body pos="0 0 1"><joint name="s" type="slide" springref="0.5" ref="0.2" stiffness="1"/><geom type="box" size=".1 .1 .1"/></body>');
    const st = new State(r.model);
    expect(Array.from(r.qposToQ([Math.PI / 6, 0.2]))).toEqual([0, 0]);
    // MuJoCo 3.3.8 at qpos = qpos0: qfrc_passive = [1.0471975511965979, 0.3]
    expect(passiveForce(r.model, st, 0)).toBeCloseTo(1.0471975511965979, 15);
    expect(passiveForce(r.model, st, 1)).toBeCloseTo(0.3, 15);
    expect(r.model.lower[0]).toBeCloseTo(-75 * Math.PI / 180, 15);
  });

  it('frame orientations: quat, axisangle, euler (eulerseq), xyaxes and zaxis give the same joint frame', () => {
    // Rodrigues in this file: 120 degrees about (1, 1, 1) maps x -> y -> z -> x
    const specs: [string, string][] = [
      ['quat="0.5 0.5 0.5 0.5"', ''],
      ['axisangle="1 1 1 120"', ''],
      ['xyaxes="0 1 0 0 0 1"', ''],
      ['zaxis="1 0 0"', ''], // z -> x by the shortest turn (about y), then x -> -z: not the same frame, checked below
      ['euler="90 0 90"', '<compiler eulerseq="zyx"/>'], // intrinsic: z by 90, then x by 90: R = Rz Rx
    ];
    const frames = specs.filter(([s]) => !s.startsWith('zaxis')).map(([s, head]) => {
      const m = mjcf(`<body ${s}><joint/><geom size="0.1"/></body>`, head, { yUp: false }).model;
      return Array.from(m.treeX.subarray(0, 9));
    });
    expect(frames.length).toBe(4);
    // E = R^T, with R columns the body's axes in the world: x -> (0,1,0), y -> (0,0,1), z -> (1,0,0)
    const E = [0, 1, 0, 0, 0, 1, 1, 0, 0];
    for (const f of frames) f.forEach((v, k) => expect(v).toBeCloseTo(E[k], 15));
    const radians = mjcf('<body euler="1.5707963267948966 0 1.5707963267948966"><joint/><geom size="0.1"/></body>', '<compiler angle="radian" eulerseq="zyx"/>', { yUp: false }).model;
    Array.from(radians.treeX.subarray(0, 9)).forEach((v, k) => expect(v).toBeCloseTo(E[k], 15));
    // extrinsic ZYX equals intrinsic xyz reversed: "XYZ" 90 0 90 = z-turn after x-turn about fixed axes
    const ext = mjcf('<body euler="90 0 90"><joint/><geom size="0.1"/></body>', '<compiler eulerseq="ZYX"/>', { yUp: false }).model;
    // about fixed Z by 90, then fixed Y by 0, then fixed X by 90: R = Rx Ry Rz
    const Rext = [0, -1, 0, 0, 0, -1, 1, 0, 0];
    Array.from(ext.treeX.subarray(0, 9)).forEach((v, k) => expect(v).toBeCloseTo([Rext[0], Rext[3], Rext[6], Rext[1], Rext[4], Rext[7], Rext[2], Rext[5], Rext[8]][k], 15));
    // zaxis: the shortest turn from z (to x: a quarter turn about y); opposite z is half a turn about x
    const zx = mjcf('<body zaxis="1 0 0"><joint/><geom size="0.1"/></body>', '', { yUp: false }).model;
    expect(Array.from(zx.treeX.subarray(0, 9)).map((x) => +x.toFixed(15) + 0)).toEqual([0, 0, -1, 0, 1, 0, 1, 0, 0]); // E = Ry(90)^T
    const za = mjcf('<body zaxis="0 0 -1"><joint/><geom size="0.1"/></body>', '', { yUp: false }).model;
    expect(Array.from(za.treeX.subarray(0, 9)).map((x) => +x.toFixed(15) + 0)).toEqual([1, 0, 0, 0, -1, 0, 0, 0, -1]);
  });

  it('several joints in one body at different anchors move the body as MuJoCo\'s kinematics', () => {
    // body at (0, 0, 1); hinge about y at (0, 0, 0.2), then hinge about x at (0, 0.1, 0)
    const r = mjcf('<body pos="0 0 1"><joint name="a" axis="0 1 0" pos="0 0 0.2"/><joint name="b" axis="1 0 0" pos="0 0.1 0"/><geom size="0.1"/></body>', '', { yUp: false });
    const [qa, qb] = [0.7, -0.4];
    const st = new State(r.model);
    st.q.set(r.qposToQ([qa, qb]));
    forwardKinematics(r.model, st, false);
    // MuJoCo: R = Ry(qa) Rx(qb); each joint keeps its anchor: p = anchor - R pos
    const ca = Math.cos(qa), sa = Math.sin(qa), cb = Math.cos(qb), sb = Math.sin(qb);
    const Ry = [ca, 0, sa, 0, 1, 0, -sa, 0, ca], Rx = [1, 0, 0, 0, cb, -sb, 0, sb, cb];
    const mul = (A: number[], B: number[]): number[] => [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j]));
    const app = (A: number[], v: number[]): number[] => [0, 1, 2].map((i) => A[3 * i] * v[0] + A[3 * i + 1] * v[1] + A[3 * i + 2] * v[2]);
    let p = [0, 0, 1];
    const anchorA = [p[0], p[1], p[2] + 0.2];
    p = app(Ry, [0, 0, -0.2]).map((x, i) => x + anchorA[i]);
    const anchorB = app(Ry, [0, 0.1, 0]).map((x, i) => x + p[i]);
    const R = mul(Ry, Rx);
    p = app(R, [0, -0.1, 0]).map((x, i) => x + anchorB[i]);
    const b = r.bodies[0];
    const link = b.link, P = st.work.pose, o = 12 * link;
    const f = b.frameInLink.position;
    const world = [0, 1, 2].map((k) => P[o + 9 + k] + P[o + 3 * k] * f[0] + P[o + 3 * k + 1] * f[1] + P[o + 3 * k + 2] * f[2]);
    world.forEach((v, k) => expect(v).toBeCloseTo(p[k], 15));
    for (let k = 0; k < 9; k++) expect(P[o + k]).toBeCloseTo(R[k], 15);
    expect(r.model.mass[r.model.linkIndex('body1/a')]).toBe(0);
  });

  it('names: unnamed free joints take the body name, unnamed bodies body<id>', () => {
    const r = mjcf('<body name="ball"><freejoint/><geom size="0.1"/></body><body><joint type="free"/><geom size="0.1"/></body>');
    expect(r.joints.map((j) => j.name)).toEqual(['ball', 'body2']);
    expect(r.model.linkNames).toEqual(['ball', 'body2']);
    expect(load('dm_control/humanoid_CMU.xml').joints[0].name).toBe('root');
  });

  it('includes: nested files through readInclude; world geoms become static shapes', () => {
    const files: Record<string, string> = {
      'a.xml': '<mujoco><include file="b.xml"/><default><geom type="box" size="0.1 0.2 0.3"/></default></mujoco>',
      'b.xml': '<mujoco><option timestep="0.004"/></mujoco>',
    };
    const r = importMJCF('<mujoco><include file="a.xml"/><worldbody><geom type="plane" size="1 1 .1"/><body><joint/><geom/></body></worldbody></mujoco>', {
      readInclude: (p) => files[p],
    });
    expect(r.timestep).toBe(0.004);
    expect(r.model.totalMass()).toBeCloseTo(RHO * 8 * 0.1 * 0.2 * 0.3, 13);
    expect(r.staticShapes.map((s) => s.geometry.type)).toEqual(['plane']);
    // the plane's normal (MuJoCo +Z) is the SDK's up after the Y-up turn
    const q = r.staticShapes[0].rotation!;
    const up = [2 * (q[0] * q[1] - q[3] * q[2]), 1 - 2 * (q[0] * q[0] + q[2] * q[2]), 2 * (q[1] * q[2] + q[3] * q[0])];
    up.forEach((v, k) => expect(v).toBeCloseTo([0, 1, 0][k], 15));
  });
});

describe('malformed MJCF: MJCFError with file, line, column and what was expected', () => {
  /** [name, text, expected line, expected column, message pattern, options] */
  const reader = (files: Record<string, string>) => (p: string): string => {
    if (!(p in files)) throw new Error(`ENOENT: no such file "${p}"`);
    return files[p];
  };
  const cases: [string, string, number, number, RegExp, MJCFOptions?][] = [
    ['truncated document', '<mujoco>\n<worldbody>\n  <body name="a">', 3, 18, /unexpected end of file: <body> opened at line 3, column 3 is not closed/],
    ['mismatched closing tag', '<mujoco>\n<worldbody>\n</body>', 3, 1, /mismatched closing tag <\/body>: expected <\/worldbody>/],
    ['duplicate attribute', '<mujoco>\n <worldbody>\n  <body pos="0 0 0" pos="1 1 1"/>', 3, 21, /duplicate attribute "pos"/],
    ['unquoted attribute', '<mujoco>\n<worldbody>\n<body pos=0/>', 3, 11, /expected a quoted value for the attribute "pos"/],
    ['unknown entity', '<mujoco model="a &nbsp; b"/>', 1, 18, /unknown entity "&nbsp;"/],
    ['second root element', '<mujoco/>\n<mujoco/>', 2, 1, /a second element follows the root/],
    ['root element is not mujoco', '<robot/>', 1, 1, /expected the root element <mujoco>/],
    ['unknown joint type', '<mujoco><worldbody>\n<body><joint type="screw"/><geom size="1"/></body></worldbody></mujoco>', 2, 14, /type: expected one of "free", "ball", "slide", "hinge" \(got "screw"\)/],
    ['NaN in a vector', '<mujoco><worldbody>\n<body pos="0 nan 0"><joint/><geom size="1"/></body></worldbody></mujoco>', 2, 7, /pos: expected 3 finite numbers, element 1 is "nan"/],
    ['too few numbers', '<mujoco><worldbody>\n<body><joint axis="1 0"/><geom size="1"/></body></worldbody></mujoco>', 2, 14, /axis: expected 3 numbers \(got "1 0"\)/],
    ['zero axis', '<mujoco><worldbody>\n<body><joint axis="0 0 0"/><geom size="1"/></body></worldbody></mujoco>', 2, 14, /expected a non-zero axis/],
    ['sphere without size', '<mujoco><worldbody>\n<body><joint/><geom/></body></worldbody></mujoco>', 2, 15, /a sphere needs 1 positive size \(got none\)/],
    ['inertial without mass', '<mujoco><worldbody>\n<body><joint/><inertial pos="0 0 0" diaginertia="1 1 1"/></body></worldbody></mujoco>', 2, 15, /expected a mass attribute/],
    ['range lower above upper', '<mujoco><worldbody>\n<body><joint range="10 -10"/><geom size="1"/></body></worldbody></mujoco>', 2, 14, /range: expected lower <= upper/],
    ['unknown default class', '<mujoco><worldbody>\n<body><joint class="stiff"/><geom size="1"/></body></worldbody></mujoco>', 2, 14, /unknown default class "stiff"/],
    ['free joint below the top level', '<mujoco><worldbody><body><joint/><geom size="1"/>\n<body><freejoint/><geom size="1"/></body></body></worldbody></mujoco>', 2, 7, /a free joint is allowed only in a child of the world body/],
    ['ball with a hinge', '<mujoco><worldbody>\n<body><joint type="ball"/><joint/><geom size="1"/></body></worldbody></mujoco>', 2, 7, /a ball joint cannot share body/],
    ['unknown element in a body', '<mujoco><worldbody>\n<body><jiont/><geom size="1"/></body></worldbody></mujoco>', 2, 7, /unknown element <jiont>/],
    ['moving body without mass', '<mujoco><worldbody>\n<body><joint/></body></worldbody></mujoco>', 2, 7, /positive definite joint-space mass matrix/],
    ['global coordinates', '<mujoco>\n<compiler coordinate="global"/><worldbody/></mujoco>', 2, 11, /global coordinates were removed/],
    ['missing include', '<mujoco>\n  <include file="missing.xml"/></mujoco>', 2, 12, /cannot read included file "missing.xml": ENOENT/, { readInclude: reader({}) }],
    ['include cycle (reported in b.xml)', '<mujoco><include file="a.xml"/></mujoco>', 2, 10, /include cycle: model.xml -> a.xml -> b.xml -> a.xml/, { readInclude: reader({ 'a.xml': '<mujoco><include file="b.xml"/></mujoco>', 'b.xml': '<mujoco>\n<include file="a.xml"/></mujoco>' }) }],
    ['include without a reader', '<mujoco><include file="a.xml"/></mujoco>', 1, 18, /expected a readInclude option/],
    ['error inside an included file', '<mujoco><include file="a.xml"/></mujoco>', 2, 3, /unexpected end of file/, { readInclude: reader({ 'a.xml': '<mujoco>\n  <option' }) }],
  ];
  it(`rejects ${cases.length} malformed inputs at the right place`, () => {
    expect(cases.length).toBe(24);
    for (const [name, text, line, column, message, options] of cases) {
      let err: unknown;
      try {
        importMJCF(text, options);
      } catch (e) {
        err = e;
      }
      expect(err, name).toBeInstanceOf(MJCFError);
      const e = err as MJCFError;
      expect(e.message, name).toMatch(message);
      expect([e.line, e.column], `${name}: ${e.message}`).toEqual([line, column]);
    }
  });
  it('names the included file in which the error is', () => {
    try {
      importMJCF('<mujoco><include file="a.xml"/></mujoco>', { readInclude: () => '<mujoco>\n  <option' });
      expect.unreachable();
    } catch (e) {
      expect((e as MJCFError).file).toBe('a.xml');
      expect((e as MJCFError).message).toMatch(/^a\.xml:2:3: /);
    }
  });
});
