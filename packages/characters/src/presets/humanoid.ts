/**
 * A humanoid of given stature and body mass, as a character description (JSON format).
 *
 * 16 links: pelvis (free root), abdomen and thorax (spherical lumbar and thoracic joints), head
 * (spherical neck; listed last), upper arms (spherical shoulders), forearms (hinge elbows), hands (spherical
 * wrists), thighs (spherical hips), shanks (hinge knees), feet (spherical ankles).
 *
 * Geometry (Y up, facing +Z, the character's left on +X; neutral pose: upright, arms hanging):
 * joint heights from Winter's proportions (proportions.ts): ankle 0.039 H, knee 0.285 H, hip
 * 0.530 H, shoulder 0.818 H, elbow 0.630 H, wrist 0.485 H, and the cervicale at the chin's 0.870 H.
 * The trunk between the mid-hip point (0.530 H) and the cervicale is split into lower, middle and
 * upper trunk in the proportions of de Leva's segment lengths (145.7 : 215.5 : 170.7 mm), giving
 * the omphalion (lumbar joint) and xiphion (thoracic joint) heights. Head: cervicale to vertex
 * (1.000 H).
 *
 * Mass properties from de Leva (1996) (de-leva.ts): mass = fraction x body mass; centre of mass at
 * its percentage of the segment length from the origin landmark; principal moments
 * m (r L)^2 about the sagittal, transverse and longitudinal axes (link axes: X transverse, Y
 * longitudinal, Z sagittal for upright segments; for the foot, Z longitudinal and Y sagittal).
 * L is the model's own landmark-to-landmark length, except for the hand, whose landmark MET3 is not
 * a joint: its L is de Leva's 86.2 mm scaled by H / 1741 mm. The foot's centre of mass lies on its
 * heel-to-toe line, at mid-height of the foot.
 *
 * Shapes: capsules for the limbs (tip to tip over the segment; the hand's from the wrist to the
 * fingertip at 0.377 H), boxes for the trunk segments and feet, a sphere for the head touching the
 * vertex. Capsule radii, the trunk boxes' depth and the head radius are chosen so that each shape
 * holds the segment's mass at the density of water (1000 kg/m^3): a rough body density, which
 * keeps the shapes in proportion with the masses. Feet: Winter's foot length 0.152 H and width
 * 0.055 H, from the floor to the ankle's height, the ankle above the point a quarter of the foot
 * length from the heel. Trunk boxes: pelvis as wide as Winter's hip width 0.191 H, abdomen 0.17 H,
 * thorax Winter's shoulder width 0.259 H less both upper arms' diameters.
 *
 * Joint ranges (range-of-motion.ts, AAOS): a spherical joint's cone is symmetric about the neutral
 * pose, so each swing half-angle is half the published total arc in that plane (flexion +
 * extension, abduction + adduction); twist ranges keep the published asymmetry. The two spine
 * joints share the thoracolumbar range equally. Knee (0..135) and elbow (0..150) flex one way.
 */
import { DE_LEVA_MALE, DE_LEVA_STATURE_MM, type SegmentParameters } from './de-leva.js';
import { capsuleRadius, DEG, exactMasses, positive } from './helpers.js';
import { WINTER_PROPORTIONS as W } from './proportions.js';
import { AAOS_ROM_DEG as ROM } from './range-of-motion.js';
import type { Inertia6, Vec3 } from '../format/math.js';
import type { CharacterDescription, ConeLimits, DriveDescription, JointDescription, LinkDescription, ShapeDescription } from '../format/types.js';
import { detMath } from '@sinew/featherstone';

/** Options of the humanoid preset: height, mass, drive settle time and name. */
export interface HumanoidOptions {
  /** Stature in metres (default 1.8). */
  height?: number;
  /** Body mass in kg (default 75). */
  mass?: number;
  /** Settle time of the joint drives in seconds (default 0.2); null for no drives. */
  driveSettleTime?: number | null;
  name?: string;
}

/** Density used to size the shapes (kg/m^3). */
export const SHAPE_DENSITY = 1000;

interface Segment {
  name: string;
  parent: string | null;
  deLeva: SegmentParameters;
  joint: JointDescription;
  /** Centre of mass in the link frame. */
  com: Vec3;
  /** Length used for the radii of gyration. */
  length: number;
  /** Which link axis is longitudinal: 'y' (upright segments) or 'z' (foot). */
  long: 'y' | 'z';
  shape: (mass: number) => ShapeDescription;
}

function cone(swingAboutX: number, swingAboutZ: number, twist: [number, number], twistAxis: Vec3 = [0, -1, 0]): ConeLimits {
  return { twistAxis, swing: [swingAboutX * DEG, swingAboutZ * DEG], twist: [twist[0] * DEG, twist[1] * DEG] };
}

/** The humanoid preset: a character description with de Leva (1996) segment masses and real joint ranges, scaled to a height and mass. */
export function humanoid(options: HumanoidOptions = {}): CharacterDescription {
  const H = positive('height', options.height ?? 1.8);
  const M = positive('mass', options.mass ?? 75);
  const settle = options.driveSettleTime === undefined ? 0.2 : options.driveSettleTime;
  if (settle !== null) positive('driveSettleTime', settle);
  const D = DE_LEVA_MALE;

  // landmark heights (m)
  const yAnkle = W.ankleHeight * H, yKnee = W.kneeHeight * H, yHip = W.hipHeight * H;
  const yShoulder = W.shoulderHeight * H, yElbow = W.elbowHeight * H, yWrist = W.wristHeight * H;
  const yCerv = W.chinHeight * H, yVertex = H;
  const trunkMm = D.lowerTrunk.lengthMm + D.middleTrunk.lengthMm + D.upperTrunk.lengthMm;
  const Llt = ((yCerv - yHip) * D.lowerTrunk.lengthMm) / trunkMm;
  const Lmt = ((yCerv - yHip) * D.middleTrunk.lengthMm) / trunkMm;
  const Lut = yCerv - yHip - Llt - Lmt;
  const yOmph = yHip + Llt, yXyph = yOmph + Lmt;
  const Lhead = yVertex - yCerv;
  const Lua = yShoulder - yElbow, Lfa = yElbow - yWrist, Lhand = yWrist - W.fingertipHeight * H;
  const LhandDeLeva = (D.hand.lengthMm / DE_LEVA_STATURE_MM) * H;
  const Lth = yHip - yKnee, Lsh = yKnee - yAnkle;
  const Lfoot = W.footLength * H, footHalfWidth = (W.footWidth * H) / 2;
  const heelBehindAnkle = 0.25 * Lfoot;

  const segMass = (s: SegmentParameters): number => (M * s.massPercent) / 100;
  const rCap = (s: SegmentParameters, L: number): number => capsuleRadius(segMass(s) / SHAPE_DENSITY, L);
  const rUpperArm = rCap(D.upperArm, Lua);
  const rThigh = rCap(D.thigh, Lth);
  const shoulderX = (W.shoulderWidth * H) / 2 - rUpperArm;
  const hipX = (W.hipWidth * H) / 2 - rThigh;

  // a capsule from the link origin down (or along the given direction) over length L
  const limbCapsule = (s: SegmentParameters, L: number) => (m: number): ShapeDescription => {
    void m;
    const r = rCap(s, L);
    return { type: 'capsule', radius: r, halfLength: L / 2 - r, position: [0, -L / 2, 0] };
  };
  const trunkBox = (width: number, L: number, up: boolean) => (m: number): ShapeDescription => {
    const depth = m / SHAPE_DENSITY / (width * L);
    return { type: 'box', halfExtents: [width / 2, L / 2, depth / 2], position: [0, up ? L / 2 : -L / 2, 0] };
  };

  const spineRom = ROM.thoracolumbarSpine;
  const spine = (): ConeLimits => cone(
    (spineRom.flexion + spineRom.extension) / 4,
    spineRom.lateralFlexion / 2,
    [-spineRom.rotation / 2, spineRom.rotation / 2],
    [0, 1, 0],
  );
  const neck = ROM.cervicalSpine;
  const sh = ROM.shoulder, hip = ROM.hip, wr = ROM.wrist, ank = ROM.ankle, fa = ROM.forearm;

  const segments: Segment[] = [
    {
      name: 'pelvis', parent: null, deLeva: D.lowerTrunk,
      joint: { type: 'free', position: [0, yHip, 0] },
      // lower trunk: OMPH (origin, above) to MIDH (link origin)
      com: [0, Llt * (1 - D.lowerTrunk.comPercent / 100), 0], length: Llt, long: 'y',
      shape: trunkBox(W.hipWidth * H, Llt, true),
    },
    {
      name: 'abdomen', parent: 'pelvis', deLeva: D.middleTrunk,
      joint: { type: 'spherical', name: 'lumbar', position: [0, Llt, 0], limits: spine() },
      com: [0, Lmt * (1 - D.middleTrunk.comPercent / 100), 0], length: Lmt, long: 'y',
      shape: trunkBox(0.17 * H, Lmt, true),
    },
    {
      name: 'thorax', parent: 'abdomen', deLeva: D.upperTrunk,
      joint: { type: 'spherical', name: 'thoracic', position: [0, Lmt, 0], limits: spine() },
      com: [0, Lut * (1 - D.upperTrunk.comPercent / 100), 0], length: Lut, long: 'y',
      shape: trunkBox(W.shoulderWidth * H - 4 * rUpperArm, Lut, true),
    },
  ];
  for (const side of ['left', 'right'] as const) {
    const s = side === 'left' ? 1 : -1;
    // twist about the downward bone axis: positive is internal rotation on the left, external on the right
    const twist = (internal: number, external: number): [number, number] => (side === 'left' ? [-external, internal] : [-internal, external]);
    segments.push(
      {
        name: `upper_arm_${side}`, parent: 'thorax', deLeva: D.upperArm,
        joint: {
          type: 'spherical', name: `shoulder_${side}`, position: [s * shoulderX, yShoulder - yXyph, 0],
          limits: cone((sh.flexion + sh.extension) / 2, (sh.abduction + sh.adduction) / 2, twist(sh.internalRotation, sh.externalRotation)),
        },
        com: [0, (-Lua * D.upperArm.comPercent) / 100, 0], length: Lua, long: 'y',
        shape: limbCapsule(D.upperArm, Lua),
      },
      {
        name: `forearm_${side}`, parent: `upper_arm_${side}`, deLeva: D.forearm,
        joint: { type: 'revolute', name: `elbow_${side}`, position: [0, -Lua, 0], axis: [-1, 0, 0], limits: { lower: 0, upper: ROM.elbow.flexion * DEG } },
        com: [0, (-Lfa * D.forearm.comPercent) / 100, 0], length: Lfa, long: 'y',
        shape: limbCapsule(D.forearm, Lfa),
      },
      {
        name: `hand_${side}`, parent: `forearm_${side}`, deLeva: D.hand,
        joint: {
          type: 'spherical', name: `wrist_${side}`, position: [0, -Lfa, 0],
          // forearm pronation and supination are carried by the wrist's twist
          limits: cone((wr.flexion + wr.extension) / 2, (wr.radialDeviation + wr.ulnarDeviation) / 2, twist(fa.pronation, fa.supination)),
        },
        com: [0, (-LhandDeLeva * D.hand.comPercent) / 100, 0], length: LhandDeLeva, long: 'y',
        shape: limbCapsule(D.hand, Lhand),
      },
    );
  }
  for (const side of ['left', 'right'] as const) {
    const s = side === 'left' ? 1 : -1;
    const twist = (internal: number, external: number): [number, number] => (side === 'left' ? [-external, internal] : [-internal, external]);
    segments.push(
      {
        name: `thigh_${side}`, parent: 'pelvis', deLeva: D.thigh,
        joint: {
          type: 'spherical', name: `hip_${side}`, position: [s * hipX, 0, 0],
          limits: cone((hip.flexion + hip.extension) / 2, (hip.abduction + hip.adduction) / 2, twist(hip.internalRotation, hip.externalRotation)),
        },
        com: [0, (-Lth * D.thigh.comPercent) / 100, 0], length: Lth, long: 'y',
        shape: limbCapsule(D.thigh, Lth),
      },
      {
        name: `shank_${side}`, parent: `thigh_${side}`, deLeva: D.shank,
        joint: { type: 'revolute', name: `knee_${side}`, position: [0, -Lth, 0], axis: [1, 0, 0], limits: { lower: 0, upper: ROM.knee.flexion * DEG } },
        com: [0, (-Lsh * D.shank.comPercent) / 100, 0], length: Lsh, long: 'y',
        shape: limbCapsule(D.shank, Lsh),
      },
      {
        name: `foot_${side}`, parent: `shank_${side}`, deLeva: D.foot,
        joint: {
          type: 'spherical', name: `ankle_${side}`, position: [0, -Lsh, 0],
          // twist about the forward foot axis: inversion is negative on the left, positive on the right
          limits: {
            twistAxis: [0, 0, 1],
            swing: [((ank.dorsiflexion + ank.plantarflexion) / 2) * DEG, 15 * DEG],
            twist: side === 'left' ? [-ank.inversion * DEG, ank.eversion * DEG] : [-ank.eversion * DEG, ank.inversion * DEG],
          },
        },
        com: [0, -yAnkle / 2, -heelBehindAnkle + (Lfoot * D.foot.comPercent) / 100], length: Lfoot, long: 'z',
        shape: () => ({ type: 'box', halfExtents: [footHalfWidth, yAnkle / 2, Lfoot / 2], position: [0, -yAnkle / 2, Lfoot / 2 - heelBehindAnkle] }),
      },
    );
  }

  // the head last: the one link whose mass absorbs the rounding of the split (exactMasses) has no mirror image
  segments.push(
    {
      name: 'head', parent: 'thorax', deLeva: D.head,
      joint: {
        type: 'spherical', name: 'neck', position: [0, Lut, 0],
        limits: cone((neck.flexion + neck.extension) / 2, neck.lateralFlexion, [-neck.rotation, neck.rotation], [0, 1, 0]),
      },
      com: [0, Lhead * (1 - D.head.comPercent / 100), 0], length: Lhead, long: 'y',
      shape: (m) => {
        const r = detMath.cbrt((3 * m) / (4 * Math.PI * SHAPE_DENSITY));
        return { type: 'sphere', radius: r, position: [0, Lhead - r, 0] };
      },
    },
  );
  const masses = exactMasses(M, segments.map((s) => s.deLeva.massPercent));
  const drive: DriveDescription | undefined = settle === null ? undefined : { settleTime: settle };
  const links = segments.map((s, i): LinkDescription => {
    const m = masses[i];
    const L = s.length;
    const rs = (s.deLeva.rSagittal / 100) * L, rt = (s.deLeva.rTransverse / 100) * L, rl = (s.deLeva.rLongitudinal / 100) * L;
    // X transverse; longitudinal and sagittal on Y and Z (upright) or Z and Y (foot)
    const inertia: Inertia6 = s.long === 'y' ? [m * rt * rt, m * rl * rl, m * rs * rs, 0, 0, 0] : [m * rt * rt, m * rs * rs, m * rl * rl, 0, 0, 0];
    const joint: JointDescription = { ...s.joint };
    if (drive && joint.type !== 'free') joint.drive = { ...drive };
    return { name: s.name, parent: s.parent, joint, mass: m, com: s.com, inertia, shapes: [s.shape(m)] };
  });
  return {
    format: 'sinew-character',
    version: 1,
    name: options.name ?? 'humanoid',
    links,
    metadata: {
      preset: 'humanoid',
      height: H,
      mass: M,
      sources: [
        'de Leva P. (1996) Adjustments to Zatsiorsky-Seluyanov\'s segment inertia parameters. J. Biomech. 29(9):1223-1230, Table 4 (males)',
        'Winter D.A. (2009) Biomechanics and Motor Control of Human Movement, 4th ed., Fig. 4.1',
        'AAOS (1965) Joint Motion: Method of Measuring and Recording, via Norkin & White, Measurement of Joint Motion',
      ],
    },
  };
}
