/**
 * A ragdoll from a skeleton: one link per bone, a free joint at the root, hinges at the knees and
 * elbows and ball joints elsewhere with anatomical ranges (anatomical-joints.ts; or ball joints
 * everywhere with `joints: 'ball'`), link frames at the bone heads in the rest pose (joint frame =
 * the bone's rest transform, so q = 0 and identity is the rest pose), one capsule per bone, masses from segment mass
 * fractions, inertias from the capsules.
 *
 * Bone geometry, in the bone's frame: the head is the origin; the tip is the mean of the child
 * heads (the farthest child when they point in opposite directions), else the mean End Site,
 * else, for a leaf, the direction of its vertices' centroid (or its parent's direction) carried
 * on as far as the vertices reach (or half the parent's length). Bones shorter than `minBoneLength` become spheres of `minRadius`
 * at their head, so coincident joints get a finite size and no direction is ever 0 / 0; so do
 * bones that own no vertices of a skinned character (roots at the floor, IK targets).
 */
import { ModelBuilder, setJointDampingTimeConstant, type Model, type ShapeDesc, type SphericalLimits } from '@sinew/featherstone';
import { anatomicalJoints, type AnatomicalJoint } from './anatomical-joints.js';
import { boneSides, classifyBones, type SegmentSource } from './bone-names.js';
import { capsuleInertiaTensor, capsuleVolume, percentile, radiusFromVertices } from './capsule.js';
import { quatFromYTo, quatRotate, quatRotateInverse } from './quat.js';
import { BILATERAL_SEGMENTS, DE_LEVA_1996_MALE, DEFAULT_RADIUS_RATIO, type BodySegment } from './segment-mass.js';
import type { Bone, Skeleton } from './skeleton.js';
import { detMath } from '@sinew/featherstone';

/** Options of `ragdollFromSkeleton`: total mass and segment fractions, capsule radii, joint limits, damping, material and gravity. */
export interface RagdollOptions {
  /** Total mass in kg (default 70). */
  mass?: number;
  /** Mass fraction of each segment, per side for limbs (default de Leva 1996, males). */
  massFractions?: Readonly<Partial<Record<BodySegment, number>>>;
  /** BodySegment of each bone: 'auto' (default: name tables, patterns, inheritance), a name table, or a function. */
  segments?: SegmentSource;
  /** Smallest capsule radius (default 1 % of the rest pose's largest extent, at least 1 mm). */
  minRadius?: number;
  /** Bones shorter than this are spheres (default: minRadius). */
  minBoneLength?: number;
  /** Capsule radius over bone length when no vertices are known, per segment (default DEFAULT_RADIUS_RATIO). */
  radiusRatio?: Readonly<Partial<Record<BodySegment | 'other', number>>>;
  /** Percentile (0..1) of the owned vertices' distances to the bone taken as radius (default 0.8). */
  radiusPercentile?: number;
  /** Fewest owned vertices for a measured radius (default 8). */
  minVertices?: number;
  /**
   * 'anatomical' (default): hinges at knees and elbows, ball joints with anatomical ranges
   * elsewhere, from the bones' segments and the rest pose (anatomical-joints.ts); 'ball': a ball
   * joint at every bone, limited only by `limits`.
   */
  joints?: 'anatomical' | 'ball';
  /** Joint limits of each ball joint, instead of the anatomical ones; `axis` is the bone direction in the joint frame, a natural twist axis. */
  limits?: (bone: Bone, segment: BodySegment | null, axis: [number, number, number]) => SphericalLimits | undefined;
  /**
   * Joint damping as a time constant (s, default 0.25): each joint gets its composite inertia at
   * the rest pose over this (setJointDampingTimeConstant), so limbs settle the way real joints
   * do, a wrist as quickly as a hip. Null: no damping (an undamped limb hanging in the air swings
   * for ever). Ignored when `damping` is given.
   */
  dampingTime?: number | null;
  /** One viscous damping (N m s / rad) for every spherical joint, instead of dampingTime. */
  damping?: number;
  armature?: number;
  /** Passed to every capsule. */
  friction?: number;
  restitution?: number;
  gravity?: ArrayLike<number>;
}

/** The capsule a ragdoll link carries: radius, half length, centre and axis in the link's frame, and whether its radius came from skin vertices. */
export interface RagdollCapsule {
  radius: number;
  halfLength: number;
  /** Centre in the link frame. */
  center: [number, number, number];
  /** Unit axis in the link frame. */
  axis: [number, number, number];
  /** Bone length head to tip (0 for a bone below minBoneLength). */
  length: number;
  /** True when the radius was measured from skinned vertices. */
  fromVertices: boolean;
}

/** A ragdoll built from a skeleton: its ModelBuilder and Model, each link's body segment, mass and capsule. */
export interface Ragdoll {
  /**
   * The builder with one link per bone (link i = bone i), ready for more links. A model built
   * again from it has no dampingTime damping: call setJointDampingTimeConstant on it.
   */
  builder: ModelBuilder;
  model: Model;
  segments: (BodySegment | null)[];
  masses: Float64Array;
  capsules: RagdollCapsule[];
  /** Each link's anatomical joint (null for the root, and for every link with joints: 'ball'). */
  joints: (AnatomicalJoint | null)[];
}

/** Builds a ragdoll from an imported skeleton: a capsule per bone, segment masses (de Leva 1996) and joint limits per body segment. */
export function ragdollFromSkeleton(skeleton: Skeleton, options: RagdollOptions = {}): Ragdoll {
  const bones = skeleton.bones, n = bones.length;
  const totalMass = options.mass ?? 70;
  if (!(Number.isFinite(totalMass) && totalMass > 0)) throw new RangeError(`ragdollFromSkeleton: mass ${totalMass}; expected a positive number of kg`);
  const rest = skeleton.worldPose();
  const extent = restExtent(skeleton, rest.positions, rest.rotations);
  const minRadius = options.minRadius ?? Math.max(0.01 * extent, 1e-3);
  const minLength = options.minBoneLength ?? minRadius;
  const pct = options.radiusPercentile ?? 0.8;
  const minVertices = options.minVertices ?? 8;
  if (!(minRadius > 0 && Number.isFinite(minRadius))) throw new RangeError(`ragdollFromSkeleton: minRadius ${minRadius}; expected a positive number`);
  const ratios = { ...DEFAULT_RADIUS_RATIO, ...options.radiusRatio };
  const fractions = { ...DE_LEVA_1996_MALE, ...options.massFractions };
  const segments = classifyBones(skeleton, options.segments ?? 'auto');

  // with skinned vertices known, a bone that owns none (a root at the floor, an IK target) is no
  // body part: it gets the smallest sphere
  const skinned = bones.some((b) => b.vertices !== undefined && b.vertices.length > 0);
  // in bone order, so that a leaf can follow its parent's direction
  const capsules: RagdollCapsule[] = [];
  const tips: Float64Array[] = [];
  const virtual: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const tip = boneTip(skeleton, i, tips, minVertices);
    tips.push(tip);
    const b = bones[i];
    const seg = segments[i];
    virtual.push(skinned && !(b.vertices && b.vertices.length > 0));
    const len = virtual[i] ? 0 : detMath.hypot(tip[0], tip[1], tip[2]);
    if (virtual[i] || !(len >= minLength) || !Number.isFinite(len)) {
      let r = minRadius;
      if (b.vertices && b.vertices.length >= 3 * minVertices) r = Math.max(r, radiusFromVertices(b.vertices, [0, 0, 0], pct));
      capsules.push({ radius: r, halfLength: 0, center: [0, 0, 0], axis: [0, 1, 0], length: 0, fromVertices: r > minRadius });
      continue;
    }
    let r: number, fromVertices = false;
    if (b.vertices && b.vertices.length >= 3 * minVertices) {
      r = radiusFromVertices(b.vertices, tip, pct);
      fromVertices = true;
    } else {
      r = (ratios[seg ?? 'other'] ?? ratios.other) * len;
    }
    if (!(r >= minRadius)) r = minRadius; // also catches NaN
    capsules.push({
      radius: r,
      halfLength: Math.max(0, 0.5 * len - r),
      center: [0.5 * tip[0], 0.5 * tip[1], 0.5 * tip[2]],
      axis: [tip[0] / len, tip[1] / len, tip[2] / len],
      length: len,
      fromVertices,
    });
  }

  const masses = distributeMass(skeleton, segments.map((sg, i) => (virtual[i] ? null : sg)), capsules, fractions, totalMass);

  const jointMode = options.joints ?? 'anatomical';
  if (jointMode !== 'anatomical' && jointMode !== 'ball') throw new RangeError(`ragdollFromSkeleton: joints "${String(jointMode)}"; expected 'anatomical' or 'ball'`);
  const plan = jointMode === 'anatomical'
    ? anatomicalJoints(skeleton, segments, capsules.map((c) => c.axis.map((a) => a * c.length)), options.gravity)
    : bones.map(() => null);
  const builder = new ModelBuilder(options.gravity ? { gravity: options.gravity } : {});
  const q = new Float64Array(4);
  for (let i = 0; i < n; i++) {
    const b = bones[i], c = capsules[i];
    quatFromYTo(c.axis[0], c.axis[1], c.axis[2], q, 0);
    const shape: ShapeDesc = {
      geometry: { type: 'capsule', radius: c.radius, halfLength: c.halfLength },
      position: c.center,
      rotation: Array.from(q),
    };
    if (options.friction !== undefined) shape.friction = options.friction;
    if (options.restitution !== undefined) shape.restitution = options.restitution;
    const j = plan[i];
    const hinge = j?.type === 'revolute' ? j : null;
    const limits = b.parent < 0 ? undefined : hinge ? { lower: hinge.lower, upper: hinge.upper }
      : options.limits ? options.limits(b, segments[i], c.axis) : j?.type === 'spherical' ? j.limits : undefined;
    builder.addLink({
      name: b.name,
      parent: b.parent >= 0 ? b.parent : null,
      joint: {
        type: b.parent < 0 ? 'free' : hinge ? 'revolute' : 'spherical',
        ...(hinge ? { axis: hinge.axis } : {}),
        position: b.offset,
        rotation: b.rotation,
        ...(limits ? { limits } : {}),
        ...(options.damping !== undefined ? { damping: options.damping } : {}),
        ...(options.armature !== undefined ? { armature: options.armature } : {}),
      },
      mass: masses[i],
      com: c.center,
      inertia: capsuleInertiaTensor(masses[i], c.radius, c.halfLength, q),
      shapes: [shape],
    });
  }
  const model = builder.build();
  const dampingTime = options.damping !== undefined ? null : options.dampingTime === undefined ? 0.25 : options.dampingTime;
  if (dampingTime !== null) setJointDampingTimeConstant(model, dampingTime);
  return { builder, model, segments, masses, capsules, joints: plan };
}

/** Tip of bone i in its own frame (see the module comment); `tips` holds the tips of bones before i. */
function boneTip(skeleton: Skeleton, i: number, tips: Float64Array[], minVertices: number): Float64Array {
  const b = skeleton.bones[i];
  const kids = skeleton.children[i];
  const tip = new Float64Array(3);
  const points: readonly ArrayLike<number>[] = kids.length > 0 ? kids.map((k) => skeleton.bones[k].offset) : b.endSites;
  if (points.length > 0) {
    let far = 0, farLen = -1;
    for (let k = 0; k < points.length; k++) {
      const p = points[k];
      tip[0] += p[0] / points.length; tip[1] += p[1] / points.length; tip[2] += p[2] / points.length;
      const l = detMath.hypot(p[0], p[1], p[2]);
      if (l > farLen) { farLen = l; far = k; }
    }
    if (detMath.hypot(tip[0], tip[1], tip[2]) < 0.25 * farLen) tip.set(Array.from(points[far]).slice(0, 3));
    return tip;
  }
  // a leaf: towards the centroid of its vertices, else on in its parent's direction
  const dir = new Float64Array(3);
  const v = b.vertices;
  let reach = 0;
  if (v && v.length >= 3 * minVertices) {
    for (let k = 0; k < v.length; k += 3) { dir[0] += v[k]; dir[1] += v[k + 1]; dir[2] += v[k + 2]; }
  }
  let len = detMath.hypot(dir[0], dir[1], dir[2]);
  if (!(len > 0) && b.parent >= 0) {
    const pt = tips[b.parent];
    quatRotateInverse(b.rotation, 0, pt, 0, dir, 0);
    len = detMath.hypot(dir[0], dir[1], dir[2]);
    reach = 0.5 * len;
  }
  if (!(len > 0) || !Number.isFinite(len)) return tip;
  dir[0] /= len; dir[1] /= len; dir[2] /= len;
  if (v && v.length >= 3) {
    // as far as the vertices reach along that direction (95th percentile of their projections)
    const proj = new Float64Array(v.length / 3);
    for (let k = 0; k < v.length; k += 3) proj[k / 3] = v[k] * dir[0] + v[k + 1] * dir[1] + v[k + 2] * dir[2];
    const r = percentile(proj, 0.95);
    if (r > 0 && Number.isFinite(r)) reach = r;
  }
  tip[0] = dir[0] * reach; tip[1] = dir[1] * reach; tip[2] = dir[2] * reach;
  return tip;
}

/**
 * BodySegment fractions spread over the bones of each (segment, side) group in proportion to capsule
 * volume; a bone without a side in its name takes its nearest sided ancestor's. A bilateral
 * segment whose bones have no side at all gets both sides' share. Fractions are
 * renormalised over the segments present; bones of no segment (and bones that own no vertices
 * of a skinned character) get the mean density of the classified ones (all by volume when none is classified); the sum is scaled to the total mass,
 * with no bone of no segment below 1e-3 of it.
 */
function distributeMass(skeleton: Skeleton, segments: (BodySegment | null)[], capsules: RagdollCapsule[], fractions: Record<BodySegment, number>, total: number): Float64Array {
  const n = segments.length;
  const volume = capsules.map((c) => capsuleVolume(c.radius, c.halfLength));
  const sides = boneSides(skeleton);
  const groupOf: (string | null)[] = segments.map((s, i) => {
    if (s === null) return null;
    if (!BILATERAL_SEGMENTS.has(s)) return s;
    return `${s}:${sides[i] ?? 'both'}`;
  });
  const groupVolume = new Map<string, number>();
  groupOf.forEach((g, i) => { if (g !== null) groupVolume.set(g, (groupVolume.get(g) ?? 0) + volume[i]); });
  let fractionSum = 0;
  const groupFraction = new Map<string, number>();
  for (const g of groupVolume.keys()) {
    const seg = g.split(':')[0] as BodySegment;
    const f = Math.max(0, fractions[seg] ?? 0) * (g.endsWith(':both') ? 2 : 1);
    groupFraction.set(g, f);
    fractionSum += f;
  }
  const m = new Float64Array(n);
  let classifiedMass = 0, classifiedVolume = 0;
  for (let i = 0; i < n; i++) {
    const g = groupOf[i];
    if (g === null || !(fractionSum > 0)) continue;
    m[i] = (total * groupFraction.get(g)! / fractionSum) * (volume[i] / groupVolume.get(g)!);
    classifiedMass += m[i];
    classifiedVolume += volume[i];
  }
  const density = classifiedMass > 0 ? classifiedMass / classifiedVolume : 1;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (!(m[i] > 0)) m[i] = density * volume[i];
    sum += m[i];
  }
  // Floors: a bone of a zero-fraction segment still needs positive mass (1e-6 of the total); a bone
  // of no segment (one that owns no vertices: a tiny sphere of minRadius) keeps 1e-3 of the total,
  // because a root of a few grams carrying a 70 kg body through ball joints leaves the free joint's
  // articulated inertia at the mercy of rounding (a Fox skeleton with its hip turned 180 degrees
  // came out indefinite, pivot -3e-11, at 1/40000 of the total). Classified bones keep their share.
  for (let i = 0; i < n; i++) m[i] = Math.max((m[i] * total) / sum, (groupOf[i] === null ? 1e-3 : 1e-6) * total);
  sum = m.reduce((a, b) => a + b, 0);
  for (let i = 0; i < n; i++) m[i] *= total / sum;
  return m;
}

/** Largest distance between rest-pose bone heads and End Sites, a size scale for defaults. */
function restExtent(skeleton: Skeleton, positions: Float64Array, rotations: Float64Array): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const add = (x: number, y: number, z: number) => {
    lo[0] = Math.min(lo[0], x); lo[1] = Math.min(lo[1], y); lo[2] = Math.min(lo[2], z);
    hi[0] = Math.max(hi[0], x); hi[1] = Math.max(hi[1], y); hi[2] = Math.max(hi[2], z);
  };
  const tmp = new Float64Array(3);
  skeleton.bones.forEach((b, i) => {
    add(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
    for (const e of b.endSites) {
      quatRotate(rotations, 4 * i, e, 0, tmp, 0);
      add(positions[3 * i] + tmp[0], positions[3 * i + 1] + tmp[1], positions[3 * i + 2] + tmp[2]);
    }
  });
  const e = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  return Number.isFinite(e) ? e : 0;
}
