/** The headless demo (the function `npm start -- demo` calls) against the physics of a pendulum chain. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo, type DemoFinalPose } from '../src/node/demo.js';
import { EXAMPLES_DIR } from '../src/node/paths.js';
import { parseCli } from '../src/node/args.js';
import { sceneEntries } from '../src/scenes/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'sinew-demo-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('headless demo of the 6-link chain', () => {
  const out = join(tmp, 'chain.pose.json');
  const report = runDemo({ scene: 'chain', seconds: 2, out });
  // Six 1 kg links of 0.3 m hung at y = 2.2 and released horizontal: the energy gravity can
  // release (the chain hanging straight down) is sum m g (i + 1/2) L = 9.81 * 0.3 * 18 J.
  const released = 9.81 * 0.3 * 18;

  it('simulates exactly 2 s in whole steps and reports each second', () => {
    expect(report.time).toBeCloseTo(2, 12);
    expect(report.steps).toBe(120);
    expect(report.rows.map((r) => r.time)).toEqual([1, 2]);
  });

  it('reports 6 links, no contacts, no penetration and no limit violation', () => {
    for (const r of report.rows) {
      expect(r.links).toBe(6);
      expect(r.contacts).toBe(0);
      expect(r.maxPenetration).toBe(0);
      expect(r.maxLimitViolation).toBe(0);
      expect(r.stepMsMean).toBeGreaterThan(0);
    }
  });

  it('keeps the total energy of the frictionless chain within 1% of the energy released, at every step', () => {
    const e0 = report.initial.series['total energy'];
    expect(report.initial.kineticEnergy).toBe(0);
    // Starting horizontal at rest, the chain has potential m g y = 6 * 9.81 * 2.2 J.
    expect(e0).toBeCloseTo(6 * 9.81 * 2.2, 9);
    let worst = 0;
    for (const r of report.rows) {
      const [lo, hi] = r.seriesRange['energy error'];
      worst = Math.max(worst, Math.abs(lo), Math.abs(hi));
      expect(r.series['total energy'] - e0).toBeCloseTo(r.series['energy error'], 9);
      expect(r.series['kinetic'] + r.series['potential']).toBeCloseTo(r.series['total energy'], 9);
    }
    expect(worst).toBeLessThan(0.01 * released);
    // ...while the chain does move: a good part of that energy is kinetic at some point.
    expect(Math.max(...report.rows.map((r) => r.seriesRange['kinetic'][1]))).toBeGreaterThan(0.3 * released);
  });

  it('writes the final pose: the first joint stays on the pivot and the links stay 0.3 m apart', () => {
    const pose = JSON.parse(readFileSync(out, 'utf8')) as DemoFinalPose;
    expect(pose.scene).toBe('chain');
    expect(pose.time).toBeCloseTo(2, 12);
    expect(pose.bodies).toHaveLength(1);
    const links = pose.bodies[0].links;
    expect(links).toHaveLength(6);
    expect(links[0].position[0]).toBeCloseTo(0, 12);
    expect(links[0].position[1]).toBeCloseTo(2.2, 12);
    expect(links[0].position[2]).toBeCloseTo(0, 12);
    for (let i = 1; i < 6; i++) {
      const a = links[i - 1].position, b = links[i].position;
      expect(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2])).toBeCloseTo(0.3, 12);
      expect(b[2]).toBeCloseTo(0, 12); // a planar chain stays in its plane
    }
    for (const l of links) expect(Math.hypot(...l.quaternion)).toBeCloseTo(1, 12);
    // Planar chain: the link rotations are about Z only.
    for (const l of links) { expect(l.quaternion[0]).toBeCloseTo(0, 12); expect(l.quaternion[1]).toBeCloseTo(0, 12); }
    expect(pose.bodies[0].q).toHaveLength(6);
    expect(pose.bodies[0].qd).toHaveLength(6);
  });

  it('gives the same bits on a second run', () => {
    const again = runDemo({ scene: 'chain', seconds: 2 });
    expect(again.final.bodies).toEqual(report.final.bodies);
  });
});

describe('every registered scene', () => {
  it.each(sceneEntries().map((e) => e.name))('%s runs headless for half a second with finite stats', (name) => {
    const r = runDemo({ scene: name, seconds: 0.5 });
    expect(r.rows).toHaveLength(1);
    const last = r.rows[0];
    expect(last.links).toBeGreaterThan(0);
    expect(Number.isFinite(last.kineticEnergy)).toBe(true);
    for (const x of Object.values(last.series)) expect(Number.isFinite(x)).toBe(true);
    expect(r.final.bodies.length).toBeGreaterThan(0);
  });

  it('keeps scene and simulation modules free of three.js, so they run in Node', () => {
    for (const dir of ['sim', 'scenes']) {
      for (const f of readdirSync(join(EXAMPLES_DIR, 'src', dir))) {
        const text = readFileSync(join(EXAMPLES_DIR, 'src', dir, f), 'utf8');
        expect(text, `${dir}/${f}`).not.toMatch(/from\s+['"]three(\/|['"])/);
        expect(text, `${dir}/${f}`).not.toMatch(/from\s+['"]\.\.\/(page|node)\//);
      }
    }
  });

  it('has unique names usable in a URL hash', () => {
    const names = sceneEntries().map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z0-9-]+$/);
  });
});

describe('the scenes of the examples issue, headless', () => {
  it('death: the walker follows the clip, the ball kills it, the tone fades and it ends on the floor', () => {
    const r = runDemo({ scene: 'death', seconds: 4, controls: { fade: 0.5 } });
    // walking: the joints track the clip to a few hundredths of a radian, at full tone
    expect(r.rows[0].series['tone']).toBe(1);
    expect(r.rows[0].seriesRange['tracking error'][1]).toBeLessThan(0.06);
    // dead by 2 s (the ball arrives at about 1.6 s), tone faded to its residual
    expect(r.rows[1].series['tone']).toBeLessThan(1);
    expect(r.rows[3].series['tone']).toBeCloseTo(0.05, 6);
    // lying down: the pelvis low, nothing through the floor
    const walker = r.final.bodies.find((b) => b.key === 'walker')!;
    expect(walker.links[0].position[1]).toBeLessThan(0.4);
    for (const row of r.rows) expect(row.maxPenetration).toBeLessThan(0.02);
  });

  it('death: once the dead walker lies still it gets up (GetUp) and stands; with "stays down" it stays on the floor', () => {
    // the walker's potential energy tells lying (about 110 J) from standing (760 J, 742 J walking)
    const r = runDemo({ scene: 'death', seconds: 12, controls: { fade: 0.5 } });
    const pe = r.rows.map((row) => row.series['potential']);
    const standing = r.rows[0].series['potential'];
    console.log(`[demo] death, potential energy of the walker each second: ${pe.map((e) => e.toFixed(0)).join(', ')} J`);
    expect(pe[3]).toBeLessThan(0.25 * standing); // lying at 4 s
    // up by 8 s and standing to the end, nothing through the floor and no joint past its range
    for (let k = 7; k < r.rows.length; k++) expect(pe[k]).toBeGreaterThan(0.95 * standing);
    for (const row of r.rows) { expect(row.maxPenetration).toBeLessThan(0.02); expect(row.maxLimitViolation).toBeLessThan(0.02); }
    const walker = r.final.bodies.find((b) => b.key === 'walker')!;
    expect(walker.links[0].position[1]).toBeGreaterThan(0.85);
    const down = runDemo({ scene: 'death', seconds: 12, controls: { fade: 0.5, afterwards: 'stays down' } });
    expect(down.rows[11].series['potential']).toBeLessThan(0.25 * standing);
  });

  it('getup: the man dropped face down on the floor lies still, gets up and stands (GetUp)', () => {
    const r = runDemo({ scene: 'getup', seconds: 10 });
    const pe = r.rows.map((row) => row.series['potential']);
    console.log(`[demo] getup, potential energy of the man each second: ${pe.map((e) => e.toFixed(0)).join(', ')} J`);
    // lying at 2 s (the walking death scene's man: 110 J lying, 742 J walking), standing from 7 s on
    expect(pe[1]).toBeLessThan(200);
    for (let k = 6; k < r.rows.length; k++) expect(pe[k]).toBeGreaterThan(700);
    for (const row of r.rows) { expect(row.maxPenetration).toBeLessThan(0.02); expect(row.maxLimitViolation).toBeLessThan(0.02); }
    const man = r.final.bodies.find((b) => b.key === 'walker')!;
    expect(man.links[0].position[1]).toBeGreaterThan(0.85);
  });

  it('follow: pushed every 3.5 s, it is back on the clip within a second or two; stable PD and PD keep it walking too', () => {
    const rows = runDemo({ scene: 'follow', seconds: 5 });
    // pushes at 2 s: the error jumps, then by 4 to 5 s it is small again
    expect(rows.rows[2].seriesRange['root error'][1]).toBeGreaterThan(rows.rows[0].seriesRange['root error'][1]);
    expect(rows.rows[4].seriesRange['root error'][1]).toBeLessThan(0.06);
    // back on the clip: over 4 to 5 s the joints track as well as an unpushed walker does over the
    // same second (at 1/60 s steps the clip's own tracking error peaks at 0.07 rad there)
    const calm = runDemo({ scene: 'follow', seconds: 5, controls: { auto: 'off' } });
    expect(rows.rows[4].seriesRange['joint error'][1]).toBeLessThan(1.1 * calm.rows[4].seriesRange['joint error'][1]);
    expect(rows.rows[4].seriesRange['joint error'][1]).toBeLessThan(0.08);
    // the joint torques of stable PD and PD keep it on its feet and near the clip as well: the
    // pelvis stands at 0.93 m and lies at about 0.15 m after a fall; plain PD, which knows nothing
    // of the body's dynamics, walks with bent knees, the pelvis 0.65-0.72 m high at 3 s (with and
    // without warm-started contact forces), stable PD at 0.90 m
    for (const drive of ['stable PD', 'PD']) {
      const pd = runDemo({ scene: 'follow', seconds: 3, controls: { drive, auto: 'off' } });
      expect(pd.final.bodies[0].links[0].position[1]).toBeGreaterThan(drive === 'PD' ? 0.6 : 0.85);
      for (const row of pd.rows) expect(row.seriesRange['joint error'][1]).toBeLessThan(0.5);
    }
  });

  it('stabilization: post-stabilisation keeps the pin closed to far less than Baumgarte, and Baumgarte less than none', () => {
    const r = runDemo({ scene: 'stabilization', seconds: 2 });
    const last = r.rows[1].seriesRange;
    expect(last['post'][1]).toBeLessThan(1e-9);
    expect(last['post'][1]).toBeLessThan(1e-3 * last['Baumgarte'][1]);
    expect(last['Baumgarte'][1]).toBeLessThan(last['none'][1]);
    expect(last['none'][1]).toBeGreaterThan(1e-7);
    expect(last['loop gap'][1]).toBeLessThan(1e-4);
    expect(r.rows[1].links).toBe(3 * 6 + 100 + 11);
  });

  it('pile: the count control sets the number of ragdolls; the step phases are reported', () => {
    const r = runDemo({ scene: 'pile', seconds: 1, controls: { count: 2 } });
    expect(r.rows[0].links).toBe(2 * 16);
    expect(r.final.bodies).toHaveLength(2);
    expect(r.rows[0].series['step']).toBeGreaterThan(0);
    expect(r.rows[0].series['K']).toBeGreaterThan(0);
    expect(() => runDemo({ scene: 'pile', seconds: 1, controls: { count: 500 } })).toThrow(/from 1 to 100/);
    expect(() => runDemo({ scene: 'pile', seconds: 1, controls: { nope: 1 } })).toThrow(/no control "nope"/);
  });

  it('limits: the flung ragdoll on its string stays within its joint ranges', () => {
    const r = runDemo({ scene: 'limits', seconds: 3 });
    for (const row of r.rows) expect(row.maxLimitViolation).toBeLessThan(0.1);
    expect(Math.max(...r.rows.map((row) => row.seriesRange['kinetic'][1]))).toBeGreaterThan(1);
  });

  it('gltf-ragdoll: CesiumMan becomes a 19-link ragdoll that comes to rest on the floor', () => {
    const r = runDemo({ scene: 'gltf-ragdoll', seconds: 3, controls: { auto: 'off' } });
    expect(r.rows[0].links).toBe(19);
    const links = r.final.bodies[0].links;
    for (const l of links) expect(l.position[1]).toBeGreaterThan(-0.02);
    expect(r.rows[2].kineticEnergy).toBeLessThan(5);
  });
});

describe('command line', () => {
  it('parses the demo command and its options, and PORT from the environment', () => {
    expect(parseCli(['demo', '--scene', 'long-chain', '--seconds', '2.5', '--out', 'p.json'])).toMatchObject({
      command: 'demo', scene: 'long-chain', seconds: 2.5, out: 'p.json',
    });
    expect(parseCli([], { PORT: '8080' })).toMatchObject({ command: 'auto', port: 8080 });
    expect(parseCli(['serve', '--port=0'])).toMatchObject({ command: 'serve', port: 0 });
    expect(() => parseCli(['demo', '--seconds', 'abc'])).toThrow(/--seconds/);
    expect(() => parseCli(['dmeo'])).toThrow(/unknown command "dmeo"/);
    expect(parseCli(['demo', '--scene', 'pile', '--set', 'count=20', '--set', 'x=a=b'])).toMatchObject({ controls: { count: '20', x: 'a=b' } });
    expect(() => parseCli(['demo', '--set', 'count'])).toThrow(/--set/);
  });

  it('`npm start -- demo` prints a row per second, writes the pose and exits 0', () => {
    const out = join(tmp, 'cli.pose.json');
    const r = spawnSync(process.execPath, ['--conditions=sinew-source', '--import', 'tsx', join(EXAMPLES_DIR, 'src', 'main.ts'), 'demo', '--scene', 'chain', '--seconds', '2', '--out', out], {
      cwd: join(EXAMPLES_DIR, '..'), encoding: 'utf8', env: { ...process.env, CI: 'true' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^scene chain: 6-link chain/);
    expect(lines.filter((l) => /^\s+[12]\.00\s+6\s+0\s/.test(l))).toHaveLength(2);
    expect(existsSync(out)).toBe(true);
  });

  it('names the known scenes when asked for an unknown one, and exits 1', () => {
    const r = spawnSync(process.execPath, ['--conditions=sinew-source', '--import', 'tsx', join(EXAMPLES_DIR, 'src', 'main.ts'), 'demo', '--scene', 'nope'], {
      cwd: join(EXAMPLES_DIR, '..'), encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/unknown scene "nope" \(scenes: chain, long-chain/);
  });
});
