/**
 * MJCF contacts as MuJoCo makes them. Which links collide: MuJoCo never lets a body touch its
 * parent body (filterparent) nor the pairs of <contact><exclude>, and lets every other pair touch;
 * the import carries a body with several joints on shapeless links between its joint axes, so the
 * World's rule (a link never collides with its nearest ancestor that has shapes) and the import's
 * excludedLinkPairs must give MuJoCo's set. Checked over random poses within the joints' ranges,
 * against an overlap test of the capsules and spheres computed here. Friction: a contact takes the
 * larger of its geoms' frictions, and two condim 1 geoms slide freely (MuJoCo's documented rule).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardKinematics, pointPosition, type Model } from '@sinew/featherstone';
import { World } from '@sinew/constraints';
import { importMJCF, type MJCFImport } from '../src/mjcf/index.js';
import { slidingDeceleration } from '../../constraints/test/body-measures.js';

const DATA = new URL('../../../../shared/data/mjcf/', import.meta.url);
function load(path: string): { imp: MJCFImport; text: string } {
  const url = new URL(path, DATA);
  const dir = new URL('./', url);
  const text = readFileSync(url, 'utf8');
  return { imp: importMJCF(text, { fileName: path, readInclude: (p) => readFileSync(new URL(p, dir), 'utf8') }), text };
}

/** v rotated by the unit quaternion q = [x, y, z, w]. */
function rotate(q: ArrayLike<number>, v: number[]): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** Distance between segments p1-q1 and p2-q2 (closest points of two segments, Ericson, Real-Time Collision Detection 5.1.9). */
function segmentDistance(p1: number[], q1: number[], p2: number[], q2: number[]): number {
  const sub = (a: number[], b: number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const d1 = sub(q1, p1), d2 = sub(q2, p2), r = sub(p1, p2);
  const a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  const clamp = (x: number): number => Math.min(1, Math.max(0, x));
  let s: number, t: number;
  if (a <= 1e-15 && e <= 1e-15) { s = 0; t = 0; }
  else if (a <= 1e-15) { s = 0; t = clamp(f / e); }
  else {
    const c = dot(d1, r);
    if (e <= 1e-15) { t = 0; s = clamp(-c / a); }
    else {
      const b = dot(d1, d2), denom = a * e - b * b;
      s = denom > 1e-15 ? clamp((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) { t = 0; s = clamp(-c / a); } else if (t > 1) { t = 1; s = clamp((b - c) / a); }
    }
  }
  const c1 = [p1[0] + d1[0] * s, p1[1] + d1[1] * s, p1[2] + d1[2] * s];
  const c2 = [p2[0] + d2[0] * t, p2[1] + d2[1] * t, p2[2] + d2[2] * t];
  const d = sub(c1, c2);
  return Math.sqrt(dot(d, d));
}

/** Each link's capsules and spheres in the world as segments and radii (other shapes left out). */
function segments(model: Model, state: Parameters<typeof pointPosition>[0]): { p: number[]; q: number[]; r: number }[][] {
  return model.shapes.map((shapes, link) => shapes.flatMap((s) => {
    const g = s.geometry;
    if (g.type !== 'capsule' && g.type !== 'sphere') return [];
    const c = Array.from(s.position ?? [0, 0, 0]), rot = s.rotation ?? [0, 0, 0, 1];
    const h = g.type === 'capsule' ? rotate(rot, [0, g.halfLength, 0]) : [0, 0, 0];
    const p = new Float64Array(3), q = new Float64Array(3);
    pointPosition(state, link, [c[0] - h[0], c[1] - h[1], c[2] - h[2]], p);
    pointPosition(state, link, [c[0] + h[0], c[1] + h[1], c[2] + h[2]], q);
    return [{ p: Array.from(p), q: Array.from(q), r: g.radius }];
  }));
}

/** MuJoCo's rule for a pair of links: excluded when their bodies are parent and child (welded bodies as one) or a <contact><exclude> pair. */
function mujocoExcludes(imp: MJCFImport, text: string): (la: number, lb: number) => boolean {
  const bodies = imp.bodies;
  const weld = (b: number): number => (b < 0 || bodies[b].joints.length > 0 ? b : weld(bodies[b].parent));
  const owner = new Map<number, number>();
  bodies.forEach((b, i) => { if (b.link >= 0 && b.joints.length > 0) owner.set(b.link, i); });
  const excluded = new Set<string>();
  for (const m of text.matchAll(/<exclude\s+body1="([^"]+)"\s+body2="([^"]+)"/g)) {
    const a = bodies.findIndex((b) => b.name === m[1]), b = bodies.findIndex((x) => x.name === m[2]);
    excluded.add(`${a},${b}`); excluded.add(`${b},${a}`);
  }
  return (la, lb) => {
    const a = owner.get(la)!, b = owner.get(lb)!;
    const pa = weld(bodies[a].parent), pb = weld(bodies[b].parent);
    return (pa >= 0 && pa === b) || (pb >= 0 && pb === a) || excluded.has(`${a},${b}`);
  };
}

describe('MJCF: which links collide is MuJoCo\'s rule', () => {
  for (const file of ['humanoid.xml', 'dm_control/humanoid_CMU.xml']) {
    it(`${file}: over 200 random poses, no pair MuJoCo excludes touches, and every other pair of overlapping capsules and spheres (2 mm or deeper) does`, () => {
      const { imp, text } = load(file);
      const model = imp.model;
      const world = new World({ gravity: [0, 0, 0], sleep: false, contactEvents: true });
      const body = world.addBody(model, { excludedLinkPairs: imp.excludedLinkPairs, excludeRestOverlaps: false });
      const excludes = mujocoExcludes(imp, text);
      let seed = 7;
      const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
      let overlapping = 0, touchedExcluded = 0;
      const missed: string[] = [];
      const seenExcluded = new Set<string>();
      for (let pose = 0; pose < 200; pose++) {
        const q = body.state.q;
        q.fill(0); q[6] = 1; // (the free root at the origin, unturned: [x, y, z, qx, qy, qz, qw])
        body.state.qd.fill(0);
        for (let d = 0; d < model.nv; d++) {
          const link = model.dofLink[d];
          if (model.jointNq[link] !== 1) continue;
          const lo = Math.max(model.lower[d], -Math.PI), hi = Math.min(model.upper[d], Math.PI);
          q[model.qOffset[link] + (d - model.vOffset[link])] = lo + (hi - lo) * rnd();
        }
        forwardKinematics(model, body.state, true);
        const seg = segments(model, body.state);
        const touching = new Set<string>();
        world.step(1e-6);
        world.contactForces((c) => {
          if (c.bodyA !== body || c.bodyB !== body) return;
          touching.add(`${Math.min(c.linkA, c.linkB)},${Math.max(c.linkA, c.linkB)}`);
        });
        for (let a = 0; a < model.nLinks; a++) for (let b = a + 1; b < model.nLinks; b++) {
          if (model.shapes[a].length === 0 || model.shapes[b].length === 0) continue;
          const key = `${a},${b}`;
          if (excludes(a, b)) {
            if (touching.has(key)) { touchedExcluded++; seenExcluded.add(`${model.linkNames[a]}-${model.linkNames[b]}`); }
            continue;
          }
          let deepest = -Infinity;
          for (const sa of seg[a]) for (const sb of seg[b]) deepest = Math.max(deepest, sa.r + sb.r - segmentDistance(sa.p, sa.q, sb.p, sb.q));
          if (deepest < 0.002) continue;
          overlapping++;
          if (!touching.has(key)) missed.push(`pose ${pose}: ${model.linkNames[a]}-${model.linkNames[b]} (${(1000 * deepest).toFixed(1)} mm deep)`);
        }
      }
      console.log(`[mjcf-contacts] ${file}: ${overlapping} overlapping pairs that MuJoCo lets touch over 200 poses, ${missed.length} without a contact; pairs MuJoCo excludes that touched: ${touchedExcluded}`);
      expect([...seenExcluded]).toEqual([]);
      expect(missed.slice(0, 5)).toEqual([]);
      expect(overlapping).toBeGreaterThan(50);
    });
  }
});

describe('MJCF: a contact\'s friction is MuJoCo\'s', () => {
  // a 2 kg box slides at 3 m/s on a plane: MuJoCo gives the contact the larger condim of its two
  // geoms and the larger friction; condim 1 on both is frictionless. Deceleration mu g (1 %).
  const cases: [number, number, number, number, number][] = [
    // box friction, box condim, floor friction, floor condim, expected mu
    [0.3, 3, 0.6, 3, 0.6],
    [0.6, 3, 0.3, 3, 0.6],
    [0.3, 1, 0.6, 3, 0.6],
    [0.5, 3, 0.9, 1, 0.5],
    [0.3, 1, 0.6, 1, 0],
  ];
  for (const [boxMu, boxCondim, floorMu, floorCondim, mu] of cases) {
    it(`box friction ${boxMu} condim ${boxCondim} on a floor of friction ${floorMu} condim ${floorCondim}: mu ${mu}`, () => {
      const imp = importMJCF(`<mujoco><worldbody><geom type="plane" size="5 5 .1" friction="${floorMu}" condim="${floorCondim}"/>
        <body pos="0 0 0.1"><freejoint/><geom type="box" size=".2 .15 .1" mass="2" friction="${boxMu}" condim="${boxCondim}"/></body></worldbody></mujoco>`);
      const world = new World({ sleep: false });
      for (const s of imp.staticShapes) world.addStatic(s);
      // (MuJoCo's y is the SDK's x)
      const body = world.addBody(imp.model, { excludedLinkPairs: imp.excludedLinkPairs, linearVelocity: [3, 0, 0] });
      const a = slidingDeceleration(world, body);
      if (mu === 0) expect(Math.abs(a)).toBeLessThan(1e-9);
      else expect(Math.abs(a - mu * 9.81) / (mu * 9.81)).toBeLessThan(0.01);
    });
  }

  it('warns about what it does not import: condim 4 and 6, priority, soft contacts, a condim 1 geom whose own friction MuJoCo would use', () => {
    const imp = importMJCF(`<mujoco><worldbody><geom type="plane" size="5 5 .1" friction="0.2"/>
      <body><freejoint/><geom type="box" size=".2 .15 .1" friction="0.9" condim="1" solref=".02 1"/><geom type="sphere" size=".1" pos="0 0 1" condim="6" priority="1"/></body></worldbody></mujoco>`);
    expect(imp.warnings).toEqual([
      'condim 6 is imported as condim 3 (1 geom): sliding friction only, no torsional or rolling friction',
      "condim 1 geoms (friction up to 0.9) meet geoms of friction 0.2 with that lesser friction here; MuJoCo would take the condim 1 geom's",
      'priority is not imported (1 geom): every contact takes the larger friction',
      'solref, solimp, solmix, margin and gap are not imported (1 geom): contacts are hard rows',
    ]);
  });
});
