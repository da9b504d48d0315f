/**
 * The 6-link chain again, now with joint limits, hung low enough to hit the floor: a World from
 * @sinew/constraints solves contacts, friction and limits with projected Gauss-Seidel, and
 * post-stabilisation removes the drift. The solver iterations control acts on this scene.
 */
import { World, type Body } from '@sinew/constraints';
import { forwardKinematics, kineticEnergy, potentialEnergy, type Model } from '@sinew/featherstone';
import { assertFinite, maxLimitViolation } from '../sim/metrics.js';
import type { PlotSpec, Scene, SceneContext, SceneStats, SceneView } from '../sim/scene.js';
import { WARM, buildChain, drawStand, type ChainOptions } from './chain.js';
import { ContactCollector } from './world-view.js';

const CHAIN: ChainOptions = {
  links: 6, linkLength: 0.3, radius: 0.035, linkMass: 1, pivot: [0, 1.2, 0],
  dropAngle: 0, alternateAxes: false, bend: 0, limit: 1, damping: 0, substeps: 1, colors: WARM,
};

const PLOTS: readonly PlotSpec[] = [
  { title: 'energy', unit: 'J', series: ['total energy', 'kinetic', 'potential'] },
  { title: 'constraint error', unit: 'm, rad', series: ['before stabilisation', 'after stabilisation'] },
  { title: 'PGS residual', unit: 'm/s², rad/s²', series: ['residual'] },
];

class ChainFloorScene implements Scene {
  readonly name = 'chain-floor';
  readonly title = 'Chain with limits on the floor';
  readonly summary =
    'A short chain hangs from a post and falls onto the floor; its joints bend only so far. It bounces, slides and settles without sinking into the floor. Try fewer solver iterations to see it get sloppier.';
  readonly details =
    'The 6-link chain with ±1 rad joint limits, pinned 1.2 m up, falls onto the floor. Contacts with friction and the limits are rows of one LCP solved by projected Gauss-Seidel; post-stabilisation removes the position drift. Fewer solver iterations leave a larger residual.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly camera = { position: [-0.1, 1.9, 3.4], target: [0.15, 0.45, 0] } as const;
  readonly plots = PLOTS;
  private ctx!: SceneContext;
  private model!: Model;
  private world!: World;
  private body!: Body;
  private readonly contacts = new ContactCollector();
  private time = 0;

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    this.model = buildChain(CHAIN);
    this.world = new World({ solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-8, sor: 1 } });
    this.world.addStatic({ geometry: { type: 'plane' } }, 'floor');
    this.body = this.world.addBody(this.model, { name: 'chain' });
    forwardKinematics(this.model, this.body.state);
    this.time = 0;
  }

  step(dt: number): void {
    if (this.world.settings.solverOptions.maxIterations !== this.ctx.settings.solverIterations) this.world.configure({ solver: { maxIterations: this.ctx.settings.solverIterations } });
    const st = this.world.step(dt);
    this.time += dt;
    if (st.error) throw new Error(st.error);
    assertFinite(this.name, this.time, this.body.state);
    forwardKinematics(this.model, this.body.state);
  }

  sync(view: SceneView): void {
    const state = this.body.state;
    view.articulation('chain', this.model, state, { colors: CHAIN.colors });
    drawStand(view, CHAIN.pivot, CHAIN.radius);
    this.contacts.draw(view, 'floor', this.world);
  }

  stats(): SceneStats {
    const { model } = this;
    const state = this.body.state;
    const st = this.world.stats;
    const kinetic = kineticEnergy(model, state);
    const potential = potentialEnergy(model, state);
    return {
      links: model.nLinks,
      contacts: st.contacts,
      kineticEnergy: kinetic,
      maxPenetration: st.maxPenetration,
      maxLimitViolation: Math.max(0, maxLimitViolation(model, state)),
      series: {
        'total energy': kinetic + potential,
        kinetic,
        potential,
        'before stabilisation': st.errorBefore,
        'after stabilisation': st.errorAfter,
        residual: st.residual,
      },
    };
  }
}

export const chainFloor = (): Scene => new ChainFloorScene();
