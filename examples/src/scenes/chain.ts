/**
 * Pendulum chains: links in series on revolute joints, hung from a fixed pivot and released.
 * Nothing but the articulated-body algorithm and semi-implicit Euler is involved, so a chain
 * without joint damping must keep its energy; the plots show how well it does.
 */
import {
  ModelBuilder, State, forwardKinematics, kineticEnergy, momentum, potentialEnergy, simulate,
  type Model,
} from '@sinew/featherstone';
import { capsuleLink } from './capsule.js';
import { assertFinite, maxLimitViolation } from '../sim/metrics.js';
import type { PlotSpec, Scene, SceneStats, SceneView, Vec3 } from '../sim/scene.js';

export interface ChainOptions {
  links: number;
  /** Length, capsule radius and mass of each link. */
  linkLength: number;
  radius: number;
  linkMass: number;
  /** World position of the fixed pivot. */
  pivot: Vec3;
  /** Angle of the straight chain below the horizontal at release, radians (0: horizontal). */
  dropAngle: number;
  /** Joints alternate between the Z axis and the Y axis (a 3D chain) instead of all Z (a planar chain). */
  alternateAxes: boolean;
  /** Initial bend of every Y-axis joint, radians: curls the chain out of its plane. */
  bend: number;
  /** Symmetric range of every joint, radians (none when absent). */
  limit?: number;
  /** Viscous damping of every joint, N m s / rad. */
  damping: number;
  /** Integration sub-steps per step of the scene. */
  substeps: number;
  colors: readonly number[];
}

/** A chain of `links` capsules on revolute joints, link i's joint at the tip of link i-1. */
export function buildChain(o: ChainOptions): Model {
  const b = new ModelBuilder();
  for (let i = 0; i < o.links; i++) {
    b.addLink({
      name: `link${i}`,
      parent: i === 0 ? null : i - 1,
      joint: {
        type: 'revolute',
        axis: o.alternateAxes && i % 2 === 1 ? [0, 1, 0] : [0, 0, 1],
        position: i === 0 ? o.pivot : [o.linkLength, 0, 0],
        damping: o.damping,
        limits: o.limit === undefined ? undefined : { lower: -o.limit, upper: o.limit },
      },
      ...capsuleLink(o.linkLength, o.radius, o.linkMass),
    });
  }
  return b.build();
}

const ENERGY_PLOT: PlotSpec = { title: 'energy', unit: 'J', series: ['total energy', 'kinetic', 'potential'] };
const DRIFT_PLOT: PlotSpec = { title: 'energy error E - E0', unit: 'J', series: ['energy error'] };
const PIVOT_PLOT: PlotSpec = { title: 'pivot reaction force', unit: 'N', series: ['pivot force'] };

export class ChainScene implements Scene {
  readonly timeStep = 1 / 60;
  readonly usesSolver = false;
  readonly plots: readonly PlotSpec[];
  private model!: Model;
  private state!: State;
  private initialEnergy = 0;
  private pivotForce = new Float64Array(3);
  private readonly momentumBefore = new Float64Array(6);
  private readonly momentumAfter = new Float64Array(6);
  private forceData = new Float64Array(0);
  private readonly pivotData = new Float64Array(6);
  private time = 0;

  constructor(
    readonly name: string,
    readonly title: string,
    readonly summary: string,
    readonly details: string,
    readonly camera: Scene['camera'],
    private readonly options: ChainOptions,
  ) {
    this.plots = options.damping === 0 ? [ENERGY_PLOT, DRIFT_PLOT, PIVOT_PLOT] : [ENERGY_PLOT, PIVOT_PLOT];
  }

  setup(): void {
    const o = this.options;
    this.model = buildChain(o);
    this.state = new State(this.model);
    const q = this.state.q;
    q[0] = -o.dropAngle;
    if (o.alternateAxes) for (let i = 1; i < o.links; i += 2) q[i] = o.bend;
    forwardKinematics(this.model, this.state);
    this.initialEnergy = kineticEnergy(this.model, this.state) + potentialEnergy(this.model, this.state);
    this.pivotForce.fill(0);
    this.pivotForce[1] = -this.model.totalMass() * this.state.gravity[1];
    this.forceData = new Float64Array(6 * o.links);
    this.time = 0;
  }

  step(dt: number): void {
    const { model, state } = this;
    momentum(model, state, this.momentumBefore);
    simulate(model, state, dt, this.options.substeps);
    this.time += dt;
    assertFinite(this.name, this.time, state);
    forwardKinematics(model, state);
    momentum(model, state, this.momentumAfter);
    // The pivot is the only force besides gravity: F = dP/dt - M g.
    const M = model.totalMass();
    for (let k = 0; k < 3; k++) this.pivotForce[k] = (this.momentumAfter[3 + k] - this.momentumBefore[3 + k]) / dt - M * state.gravity[k];
  }

  sync(view: SceneView): void {
    const { model, state } = this;
    view.articulation('chain', model, state, { colors: this.options.colors });
    drawStand(view, this.options.pivot, this.options.radius);
    // Weight of every link at its centre of mass, and the pivot's reaction.
    const f = this.forceData;
    const P = state.work.pose;
    const g = state.gravity;
    for (let i = 0; i < model.nLinks; i++) {
      const o = 6 * i, po = 12 * i;
      const cx = model.com[3 * i], cy = model.com[3 * i + 1], cz = model.com[3 * i + 2];
      f[o] = P[po] * cx + P[po + 1] * cy + P[po + 2] * cz + P[po + 9];
      f[o + 1] = P[po + 3] * cx + P[po + 4] * cy + P[po + 5] * cz + P[po + 10];
      f[o + 2] = P[po + 6] * cx + P[po + 7] * cy + P[po + 8] * cz + P[po + 11];
      for (let k = 0; k < 3; k++) f[o + 3 + k] = model.mass[i] * g[k];
    }
    const p = this.pivotData;
    for (let k = 0; k < 3; k++) { p[k] = this.options.pivot[k]; p[3 + k] = this.pivotForce[k]; }
    // Scaled so that the whole chain's weight would be drawn a fifth of the chain long.
    const scale = (0.2 * this.options.links * this.options.linkLength) / (model.totalMass() * Math.hypot(g[0], g[1], g[2]));
    view.forces('gravity', f, model.nLinks, scale, 0x7bd88f);
    view.forces('pivot', p, 1, scale, 0xff6b6b);
  }

  stats(): SceneStats {
    const { model, state } = this;
    const kinetic = kineticEnergy(model, state);
    const potential = potentialEnergy(model, state);
    const total = kinetic + potential;
    return {
      links: model.nLinks,
      contacts: 0,
      kineticEnergy: kinetic,
      maxPenetration: 0,
      maxLimitViolation: Math.max(0, maxLimitViolation(model, state)),
      series: {
        'total energy': total,
        kinetic,
        potential,
        'energy error': total - this.initialEnergy,
        'pivot force': Math.hypot(this.pivotForce[0], this.pivotForce[1], this.pivotForce[2]),
      },
    };
  }
}

/** A post behind a pivot, from the floor up, and the pin a chain of links of `radius` hangs on. */
export function drawStand(view: SceneView, pivot: Vec3, radius: number): void {
  const [x, y, z] = pivot;
  const back = z - 2.5 * radius;
  view.staticShape('post', { geometry: { type: 'box', halfExtents: [0.03, y / 2, 0.03] }, position: [x, y / 2, back - 0.03] }, 0x4a5160);
  view.staticShape('pin', {
    geometry: { type: 'capsule', radius: 0.4 * radius, halfLength: 1.25 * radius },
    position: [x, y, back + 1.25 * radius],
    rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2],
  }, 0xb9c0cc);
}

/** `n` colours from `a` to `b`, component-wise linear in sRGB. */
function gradient(a: number, b: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = n > 1 ? i / (n - 1) : 0;
    let c = 0;
    for (const shift of [16, 8, 0]) c |= Math.round(((a >> shift) & 255) * (1 - t) + ((b >> shift) & 255) * t) << shift;
    out.push(c);
  }
  return out;
}

export const WARM = [0xe8833a, 0xf2b541, 0x3aa6a0, 0x2f6f8f];

/** Six links falling from horizontal, no damping: the energy must stay constant. */
export const chain = (): Scene =>
  new ChainScene(
    'chain',
    '6-link chain',
    'Six links hang from a pin and swing freely with nothing to slow them down, so they should swing for ever: the energy plot stays flat. Watch the tip whip around.',
    'Six 30 cm links on frictionless revolute joints fall from horizontal. Only gravity and the pivot act, so the total energy should stay constant; the middle plot shows how far semi-implicit Euler (128 sub-steps per 1/60 s step) lets it drift.',
    { position: [-0.2, 2.1, 4.9], target: [-0.45, 1.25, 0] },
    {
      links: 6, linkLength: 0.3, radius: 0.035, linkMass: 1, pivot: [0, 2.2, 0],
      dropAngle: 0, alternateAxes: false, bend: 0, damping: 0, substeps: 128, colors: WARM,
    },
  );

/** A hundred links with alternating joint axes, so the chain moves in 3D. */
export const longChain = (): Scene =>
  new ChainScene(
    'long-chain',
    '100-link chain',
    'A long necklace of a hundred beads falls from a pin and whips about in 3D, slowly calming down.',
    'A hundred beads on hinges that alternate between the Z and Y axes, curled out of plane and released at 45 degrees, with light joint damping. 100 joint coordinates, where maximal coordinates would carry 600 and 500 joint constraints; a step costs O(n).',
    { position: [0.1, 2.4, 4.8], target: [-0.6, 1.75, 0] },
    {
      links: 100, linkLength: 0.03, radius: 0.015, linkMass: 0.05, pivot: [0, 3.3, 0],
      dropAngle: Math.PI / 4, alternateAxes: true, bend: 0.03, damping: 0.002, substeps: 32,
      colors: gradient(0xf2a541, 0x3aa6a0, 100),
    },
  );
