/**
 * The glTF skins of the #death, #follow and #pile scenes retargeted onto the humanoid preset
 * (src/scenes/skin-retarget.ts): the skins' rest poses (CesiumMan faces +X with its arms out,
 * RobotExpressive faces +Z with its arms angled down and forwards) carried onto the preset's
 * neutral pose (facing +Z, arms hanging). Checked against the model's own joints and centres of
 * mass, which the retargeting does not use as it is checked here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importGltf, type Skeleton } from '@sinew/characters';
import { forwardKinematics, State, type Model } from '@sinew/featherstone';
import { describe, expect, it } from 'vitest';
import { STATIC_DIR } from '../src/node/paths.js';
import { CESIUM_MAN_ON_HUMANOID, retargetSkin, ROBOT_EXPRESSIVE_ON_HUMANOID, transformPoint4, type SkinMap } from '../src/scenes/skin-retarget.js';
import { humanoidModel } from '../src/scenes/walker.js';

const HEIGHT = 1.8;
const model = humanoidModel({ height: HEIGHT });
const neutral = new State(model);
forwardKinematics(model, neutral, false);
const P = neutral.work.pose;
const joint = (l: number) => [P[12 * l + 9], P[12 * l + 10], P[12 * l + 11]];
const com = (l: number) => [0, 1, 2].map((r) => P[12 * l + 3 * r] * model.com[3 * l] + P[12 * l + 3 * r + 1] * model.com[3 * l + 1] + P[12 * l + 3 * r + 2] * model.com[3 * l + 2] + P[12 * l + 9 + r]);
const dist = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

function load(file: string): Skeleton {
  return importGltf(readFileSync(join(STATIC_DIR, 'data', file)), { file }).skeleton;
}

/** Each link's owned vertices (rest, world) carried by the retargeting onto the neutral pose: centroid, extent and count per link. */
function retargeted(skeleton: Skeleton, map: SkinMap, m: Model = model) {
  const r = retargetSkin(skeleton, m, map, { height: HEIGHT });
  const rest = skeleton.worldPose();
  const G = new Map(r.bones.map((b) => [b.node, b.restToModel]));
  const perLink = Array.from({ length: m.nLinks }, () => ({ sum: [0, 0, 0], n: 0 }));
  let lo = Infinity, hi = -Infinity;
  skeleton.bones.forEach((bone, b) => {
    const v = bone.vertices;
    if (!v) return;
    const q = rest.rotations.subarray(4 * b, 4 * b + 4);
    for (let i = 0; i < v.length; i += 3) {
      // rest world position of the vertex, then the link's G
      const [x, y, z, w] = q, vx = v[i], vy = v[i + 1], vz = v[i + 2];
      const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
      const world = [vx + w * tx + (y * tz - z * ty) + rest.positions[3 * b], vy + w * ty + (z * tx - x * tz) + rest.positions[3 * b + 1], vz + w * tz + (x * ty - y * tx) + rest.positions[3 * b + 2]];
      const p = transformPoint4(G.get(bone.node!)!, world);
      const s = perLink[r.boneLinks[b]];
      for (let k = 0; k < 3; k++) s.sum[k] += p[k];
      s.n++;
      lo = Math.min(lo, p[1]);
      hi = Math.max(hi, p[1]);
    }
  });
  const head = (name: string) => {
    const b = skeleton.indexOf(name);
    return transformPoint4(G.get(skeleton.bones[b].node!)!, rest.positions.subarray(3 * b, 3 * b + 3));
  };
  /** A bone's head carried by another link's G (the link of its parent bone). */
  const headBy = (name: string, byLink: number) => {
    const b = skeleton.indexOf(name);
    const other = r.bones.find((x) => x.link === byLink)!;
    return transformPoint4(other.restToModel, rest.positions.subarray(3 * b, 3 * b + 3));
  };
  return { r, centroid: perLink.map((s) => s.sum.map((x) => x / s.n)), count: perLink.map((s) => s.n), lo, hi, head, headBy };
}

const SKINS = [
  { file: 'CesiumMan.glb', map: CESIUM_MAN_ON_HUMANOID },
  { file: 'RobotExpressive.glb', map: ROBOT_EXPRESSIVE_ON_HUMANOID },
];

describe('a glTF skin retargeted onto the humanoid preset', () => {
  it.each(SKINS)('$file: each link\'s first bone has its head on the joint, and the next joint down a limb lands on the child link\'s joint (swing and stretch)', ({ file, map }) => {
    const k = retargeted(load(file), map);
    for (const [linkName, bones] of Object.entries(map)) {
      const l = model.linkIndex(linkName);
      expect(dist(k.head(bones[0]), joint(l)), `${file} ${bones[0]} on ${linkName}`).toBeLessThan(1e-9);
      // limbs and spine: one child link; its first bone carried by this link's transform
      const children = model.children[l];
      if (children.length !== 1) continue;
      const child = model.linkNames[children[0]];
      expect(dist(k.headBy(map[child][0], l), joint(children[0])), `${file}: ${map[child][0]} by ${linkName}'s transform`).toBeLessThan(1e-9);
    }
  });

  it.each(SKINS)('$file: the skin\'s arms hang and its feet point forward like the preset\'s; hands and forearms sit on their links', ({ file, map }) => {
    const k = retargeted(load(file), map);
    for (const side of ['left', 'right']) {
      // (the preset's arms hang straight down at x = +-0.187 m; CesiumMan's are out to the sides in its file)
      for (const part of ['forearm', 'hand']) {
        const l = model.linkIndex(`${part}_${side}`);
        expect(k.count[l]).toBeGreaterThan(30);
        expect(dist(k.centroid[l], com(l)), `${file} ${part}_${side}: skin centroid ${k.centroid[l].map((x) => x.toFixed(3))} vs com ${com(l).map((x) => x.toFixed(3))}`).toBeLessThan(0.06);
      }
      // the feet: the skin's foot lies ahead (+z, the preset's forward) of the ankle, as the model's does
      const foot = model.linkIndex(`foot_${side}`);
      expect(k.centroid[foot][2] - joint(foot)[2]).toBeGreaterThan(0.03);
      expect(com(foot)[2] - joint(foot)[2]).toBeGreaterThan(0.03);
      // and the left side is the left side (+x)
      const hand = model.linkIndex(`hand_${side}`);
      expect(Math.sign(k.centroid[hand][0])).toBe(side === 'left' ? 1 : -1);
    }
    // the head is above the thorax, the feet on the floor
    expect(k.centroid[model.linkIndex('head')][1]).toBeGreaterThan(joint(model.linkIndex('head'))[1]);
    expect(k.lo).toBeGreaterThan(-0.08);
    expect(k.lo).toBeLessThan(0.06);
  });

  it('CesiumMan: every segment of the skin is within 15 cm of its link\'s centre of mass (the limbs within 7 cm)', () => {
    const k = retargeted(load('CesiumMan.glb'), CESIUM_MAN_ON_HUMANOID);
    for (let l = 0; l < model.nLinks; l++) {
      const limb = /arm|hand|thigh|shank/.test(model.linkNames[l]);
      expect(dist(k.centroid[l], com(l)), model.linkNames[l]).toBeLessThan(limb ? 0.07 : 0.15);
    }
    // scaled from its own height (about 1.5 m) to the preset's
    expect(k.r.scale).toBeGreaterThan(1.1);
    expect(k.r.scale).toBeLessThan(1.3);
  });

  it('says which link or bone of the map does not exist', () => {
    const sk = load('CesiumMan.glb');
    expect(() => retargetSkin(sk, model, { ...CESIUM_MAN_ON_HUMANOID, tail: ['node_2'] }, { height: HEIGHT })).toThrow(/no link "tail"/);
    expect(() => retargetSkin(sk, model, { ...CESIUM_MAN_ON_HUMANOID, head: ['node_99'] }, { height: HEIGHT })).toThrow(/link "head": the skin has no bone "node_99"/);
    const { head: _, ...headless } = CESIUM_MAN_ON_HUMANOID;
    expect(() => retargetSkin(sk, model, headless, { height: HEIGHT })).toThrow(/link "head" has no bone in the map/);
    expect(() => retargetSkin(sk, model, CESIUM_MAN_ON_HUMANOID, { height: 0 })).toThrow(/options.height/);
  });
});
