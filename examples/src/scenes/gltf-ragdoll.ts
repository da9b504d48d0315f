/**
 * A glTF skinned character turned into a ragdoll automatically: importGltf reads CesiumMan's skin
 * (19 joints) and the vertices each bone owns, ragdollFromSkeleton makes one capsule per bone
 * sized from those vertices, masses from the capsule volumes, a free root and ball joints with
 * cone limits. On the page the same file is loaded with three.js and its skinned mesh follows the
 * links. Clicking a body part pushes it; the button throws it.
 */
import { World, type Body } from '@sinew/constraints';
import { excludeOverlappingLinkPairs, importGltf, ragdollFromSkeleton, type BodySegment, type Ragdoll } from '@sinew/characters';
import { forwardKinematics } from '@sinew/featherstone';
import { assertFinite } from '../sim/metrics.js';
import { pick } from '../sim/pick.js';
import type { PlotSpec, PointerRay, Scene, SceneContext, SceneControl, SceneStats, SceneView, SkinBinding } from '../sim/scene.js';
import { Gun } from './gun.js';
import { CESIUM_MAN } from './skins.js';
import { LinkMark, applyImpulse, ContactCollector, setRootVelocity, SOLVER_PLOT, solverSeries, worldEnergy, sceneStats } from './world-view.js';

/** Seconds between throws when they are automatic. */
const THROW_EVERY = 4;

const PLOTS: readonly PlotSpec[] = [
  { title: 'energy', unit: 'J', series: ['kinetic', 'potential'] },
  { title: 'contacts', unit: 'count', series: ['contacts'] },
  SOLVER_PLOT,
];

/** Names of the nodes of a .glb (its JSON chunk), for binding bones to three.js objects. */
export function glbNodeNames(bytes: Uint8Array): (string | undefined)[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0x46546c67) throw new Error('not a binary glTF (.glb) file');
  const length = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length))) as { nodes?: { name?: string }[] };
  return (json.nodes ?? []).map((n) => n.name);
}

/** glTF node index of each bone: by the node's name, or node_<index> for an unnamed node (importGltf's naming). */
export function boneNodes(boneNames: readonly string[], nodeNames: readonly (string | undefined)[]): number[] {
  return boneNames.map((name) => {
    const byName = nodeNames.indexOf(name);
    if (byName >= 0) return byName;
    const m = /^node_(\d+)$/.exec(name);
    return m && nodeNames[Number(m[1])] === undefined ? Number(m[1]) : -1;
  });
}

/** Body segment of each of CesiumMan's (unnamed) joint nodes: pelvis, spine, neck and head, arms from the shoulder, legs from the hip. */
const CESIUM_MAN_SEGMENTS: Readonly<Record<string, BodySegment>> = {
  node_2: 'lowerTrunk', node_11: 'middleTrunk', node_12: 'upperTrunk', node_19: 'head', node_20: 'head',
  node_16: 'upperArm', node_17: 'forearm', node_18: 'hand', node_13: 'upperArm', node_14: 'forearm', node_15: 'hand',
  node_7: 'thigh', node_8: 'shank', node_9: 'foot', node_10: 'foot', node_3: 'thigh', node_4: 'shank', node_5: 'foot', node_6: 'foot',
};

class GltfRagdollScene implements Scene {
  readonly name = 'gltf-ragdoll';
  readonly title = 'glTF ragdoll';
  readonly summary =
    'A character from a glTF file becomes a ragdoll: it is tossed into the air every few seconds and lands in a heap. Click it to fire a ball at it.';
  readonly details =
    'CesiumMan (glTF, 19-bone skin) made into a ragdoll: importGltf reads the skeleton and the vertices each bone owns, ragdollFromSkeleton sizes a capsule per bone from them, shares out 70 kg by de Leva\'s segment fractions (one small table names the segments of the unnamed bones) and gives it anatomical joints: hinged knees and elbows, hips and shoulders with their ranges, a spine that shares its bend. The skinned mesh (three.js) follows the links; the faint capsules are what collides.';
  readonly pointerLabel = 'pushes';
  readonly subject = ['capsules'];
  readonly hint = 'Click to fire a ball from the camera; with "pushes", a click shoves the body part under the pointer.';
  readonly timeStep = 1 / 60;
  readonly usesSolver = true;
  readonly camera = { position: [-0.3, 2.0, 3.9], target: [-0.35, 0.4, 0] } as const;
  readonly plots = PLOTS;
  readonly assets = [CESIUM_MAN];
  private auto = 'on';
  get controls(): readonly SceneControl[] {
    return [
      { kind: 'button', id: 'throw', label: 'Throw it up' },
      { kind: 'choice', id: 'auto', label: 'throw every 4 s', options: ['on', 'off'], value: this.auto },
    ];
  }
  private ctx!: SceneContext;
  private world!: World;
  private body!: Body;
  private ragdoll!: Ragdoll;
  private binding!: SkinBinding;
  private time = 0;
  private gun!: Gun;
  private throws = 0;
  private excluded = 0;
  private readonly contacts = new ContactCollector();
  private readonly lastPush = new LinkMark();

  setup(ctx: SceneContext): void {
    this.ctx = ctx;
    this.time = 0;
    this.throws = 0;
    this.lastPush.clear();
    const bytes = ctx.asset(CESIUM_MAN);
    const imported = importGltf(bytes, { file: CESIUM_MAN });
    this.ragdoll = ragdollFromSkeleton(imported.skeleton, {
      mass: 70,
      // CesiumMan's nodes have no names, so no name table can tell the body segments for the mass
      // fractions (de Leva); without this, masses go by capsule volume and the head weighs 20 kg
      segments: CESIUM_MAN_SEGMENTS,
      friction: 0.8,
      // (anatomical joints by default: hinged knees and elbows, hip and shoulder ranges, a spine
      // whose joints share its bend)
    });
    const model = this.ragdoll.model;
    this.binding = { asset: CESIUM_MAN, linkNodes: boneNodes(model.linkNames, glbNodeNames(bytes)) };
    this.world = new World({ solver: { maxIterations: ctx.settings.solverIterations, tolerance: 1e-8, sor: 1 } });
    this.gun = new Gun(this.world);
    this.world.addStatic({ geometry: { type: 'plane' } }, 'floor');
    this.body = this.world.addBody(model, { name: 'CesiumMan' });
    // capsules sized from the skin overlap their neighbours at rest: those pairs do not collide
    this.excluded = excludeOverlappingLinkPairs(this.world, this.body).length;
    // standing in its rest pose, 5 cm up, tipping backwards (it faces +X) and a little sideways
    const s = this.body.state;
    s.q[1] = 0.05;
    forwardKinematics(model, s);
    setRootVelocity(this.body, [0.5, 0, 1.2], [0, 0, 0]);
  }

  control(id: string, value?: number | string): void {
    if (id === 'auto') { this.auto = String(value); return; }
    if (id !== 'throw' || !this.world) return;
    // up and spinning, alternating directions
    const sign = this.throws++ % 2 === 0 ? 1 : -1;
    setRootVelocity(this.body, [2 * sign, 1, 3], [0.5 * sign, 4.5, 0.3]);
    this.world.wake(this.body);
  }

  pointerDown(ray: PointerRay): boolean {
    const hit = pick([this.body], ray);
    if (!hit) return false;
    const J = 45; // N s, along the view ray
    applyImpulse(this.world, this.body, hit.link, hit.point, [J * ray.direction[0], J * ray.direction[1], J * ray.direction[2]]);
    this.lastPush.set(this.body, hit.link, hit.point, this.time + 0.4);
    return true;
  }

  step(dt: number): void {
    if (this.auto === 'on' && this.time >= THROW_EVERY * (this.throws + 1)) this.control('throw');
    if (this.world.settings.solverOptions.maxIterations !== this.ctx.settings.solverIterations) this.world.configure({ solver: { maxIterations: this.ctx.settings.solverIterations } });
    const st = this.world.step(dt);
    this.time += dt;
    if (st.error) throw new Error(st.error);
    this.gun.afterStep(this.time);
    assertFinite(this.name, this.time, this.body.state);
    forwardKinematics(this.body.model, this.body.state);
  }

  shoot(ray: PointerRay): void {
    this.gun.fire(ray, this.time);
  }

  sync(view: SceneView): void {
    this.gun.draw(view, this.time);
    const { model, state } = this.body;
    view.skinnedMesh('cesium', this.binding, model, state);
    view.articulation('capsules', model, state, { colors: [0x7fd1ff, 0xffc36b], opacity: 0.22 });
    const mark = this.lastPush.at(this.time);
    if (mark) view.marker('push', mark[0], mark[1], mark[2], 0.035, 0xff5470);
    this.contacts.draw(view, 'floor', this.world);
  }

  stats(): SceneStats {
    const e = worldEnergy(this.world);
    const st = this.world.stats;
    return sceneStats(this.world, e, { kinetic: e.kinetic, potential: e.potential, contacts: st.contacts, ...solverSeries(this.world) });
  }
}

export const gltfRagdoll = (): Scene => new GltfRagdollScene();
