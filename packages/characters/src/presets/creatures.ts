/**
 * Non-human presets of generic proportions (design choices, not measured animals): a quadruped
 * and a snake. Both are uniform-density bodies: each link's mass is the body mass shared in
 * proportion to its shapes' volumes, and its inertia follows from the shapes. Y is up, the
 * creature faces +Z, its left is +X; in the neutral pose it stands (lies) on the plane y = 0.
 */
import { DEG, exactMasses, positive } from './helpers.js';
import { FormatError } from '../format/errors.js';
import { shapeVolume } from '../format/link-mass.js';
import type { CharacterDescription, ConeLimits, JointDescription, LinkDescription, ShapeDescription } from '../format/types.js';

/** Options of the quadruped preset: length, mass, drive settle time and name. */
export interface QuadrupedOptions {
  /** Torso length in metres (default 0.8). */
  length?: number;
  /** Body mass in kg (default 25). */
  mass?: number;
  /** Settle time of the joint drives (default 0.2 s); null for no drives. */
  driveSettleTime?: number | null;
  name?: string;
}

interface Part {
  name: string;
  parent: string | null;
  joint: JointDescription;
  shapes: ShapeDescription[];
}

function finish(parts: Part[], mass: number, name: string, settle: number | null, metadata: Record<string, unknown>): CharacterDescription {
  const volumes = parts.map((p) => p.shapes.reduce((v, s) => v + shapeVolume(s), 0));
  const masses = exactMasses(mass, volumes);
  const links = parts.map((p, i): LinkDescription => {
    const joint: JointDescription = { ...p.joint };
    if (settle !== null && joint.type !== 'free' && joint.type !== 'fixed') joint.drive = { settleTime: settle };
    return { name: p.name, parent: p.parent, joint, mass: masses[i], shapes: p.shapes };
  });
  return { format: 'sinew-character', version: 1, name, links, metadata };
}

function cone(swing: [number, number], twist: number, twistAxis: [number, number, number]): ConeLimits {
  return { twistAxis, swing: [swing[0] * DEG, swing[1] * DEG], twist: [-twist * DEG, twist * DEG] };
}

/** A four-legged creature: torso (free root), head, tail, and four two-segment legs (11 links). */
export function quadruped(options: QuadrupedOptions = {}): CharacterDescription {
  const L = positive('length', options.length ?? 0.8);
  const mass = positive('mass', options.mass ?? 25);
  const settle = options.driveSettleTime === undefined ? 0.2 : options.driveSettleTime;
  if (settle !== null) positive('driveSettleTime', settle);
  const w = 0.3 * L, h = 0.3 * L; // torso width and height
  const seg = 0.3 * L, r = 0.06 * L; // leg segment length, leg radius
  const legHeight = 2 * seg;
  const capsuleDown = (len: number, rad: number): ShapeDescription => ({ type: 'capsule', radius: rad, halfLength: len / 2 - rad, position: [0, -len / 2, 0] });
  const parts: Part[] = [
    { name: 'torso', parent: null, joint: { type: 'free', position: [0, legHeight + h / 2, 0] }, shapes: [{ type: 'box', halfExtents: [w / 2, h / 2, L / 2] }] },
  ];
  for (const end of ['front', 'hind'] as const) {
    for (const side of ['left', 'right'] as const) {
      const x = (side === 'left' ? 1 : -1) * (w / 2 - r);
      const z = (end === 'front' ? 1 : -1) * (L / 2 - r);
      const upper = `${end}_upper_leg_${side}`;
      parts.push(
        {
          name: upper, parent: 'torso',
          joint: { type: 'spherical', name: `${end === 'front' ? 'shoulder' : 'hip'}_${side}`, position: [x, -h / 2, z], limits: cone([60, 30], 20, [0, -1, 0]) },
          shapes: [capsuleDown(seg, r)],
        },
        {
          name: `${end}_lower_leg_${side}`, parent: upper,
          // positive angles swing the paw backward
          joint: { type: 'revolute', name: `${end === 'front' ? 'elbow' : 'knee'}_${side}`, position: [0, -seg, 0], axis: [1, 0, 0], limits: { lower: 0, upper: 120 * DEG } },
          shapes: [capsuleDown(seg, 0.8 * r)],
        },
      );
    }
  }
  // head and tail last: the last link absorbs the rounding of the mass split and has no mirror image
  parts.push(
    {
      name: 'head', parent: 'torso',
      joint: { type: 'spherical', name: 'neck', position: [0, h / 2, L / 2], limits: cone([45, 45], 30, [0, 0, 1]) },
      shapes: [{ type: 'sphere', radius: 0.15 * L, position: [0, 0.1 * L, 0.12 * L] }],
    },
    {
      name: 'tail', parent: 'torso',
      joint: { type: 'spherical', name: 'tail_root', position: [0, h / 4, -L / 2], limits: cone([60, 60], 10, [0, 0, -1]) },
      shapes: [{ type: 'capsule', radius: 0.03 * L, halfLength: 0.2 * L, position: [0, 0, -0.23 * L], rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] }],
    },
  );
  return finish(parts, mass, options.name ?? 'quadruped', settle, { preset: 'quadruped', length: L, mass });
}

/** Options of the snake preset: segments, length, radius, mass, joint range, drive settle time and name. */
export interface SnakeOptions {
  /** Number of links (default 8). */
  segments?: number;
  /** Total length in metres (default 2). */
  length?: number;
  /** Body radius in metres (default 0.04). */
  radius?: number;
  /** Body mass in kg (default 4). */
  mass?: number;
  /** Joint range either way, radians (default 45 degrees). */
  range?: number;
  driveSettleTime?: number | null;
  name?: string;
}

/** A chain of capsules along +Z with alternating yaw (Y) and pitch (X) hinges; the head link is the free root. */
export function snake(options: SnakeOptions = {}): CharacterDescription {
  const n = options.segments ?? 8;
  if (!(Number.isInteger(n) && n >= 1)) throw new FormatError('options.segments', `expected an integer >= 1 (got ${String(n)})`);
  const length = positive('length', options.length ?? 2);
  const radius = positive('radius', options.radius ?? 0.04);
  const mass = positive('mass', options.mass ?? 4);
  const range = positive('range', options.range ?? 45 * DEG);
  const settle = options.driveSettleTime === undefined ? 0.2 : options.driveSettleTime;
  if (settle !== null) positive('driveSettleTime', settle);
  const l = length / n;
  if (!(2 * radius <= l)) throw new FormatError('options.radius', `expected at most half a segment's length, ${l / 2} m (got ${radius})`);
  const parts: Part[] = [];
  for (let i = 0; i < n; i++) {
    const joint: JointDescription = i === 0
      ? { type: 'free', position: [0, radius, 0] }
      : { type: 'revolute', name: `joint${i}`, position: [0, 0, -l], axis: i % 2 === 1 ? [0, 1, 0] : [1, 0, 0], limits: { lower: -range, upper: range } };
    // link i spans z in [-l, 0] of its own frame: the head at the front, the chain trailing behind
    parts.push({
      name: `segment${i}`, parent: i === 0 ? null : `segment${i - 1}`, joint,
      shapes: [{ type: 'capsule', radius, halfLength: l / 2 - radius, position: [0, 0, -l / 2], rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] }],
    });
  }
  return finish(parts, mass, options.name ?? 'snake', settle, { preset: 'snake', segments: n, length, radius, mass });
}
