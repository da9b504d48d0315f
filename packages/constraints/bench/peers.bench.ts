/**
 * Sinew side by side with its peers on the scenes of ../shared/bench/peer-scenes/common.mjs, in one
 * run: MuJoCo (mujoco-js), Rapier (@dimforge/rapier3d-compat) with multibody joints and with impulse
 * joints, Jolt (jolt-physics) and cannon-es. Scene construction per engine: peer-ragdoll.ts (Sinew,
 * Rapier impulse), rapier-pile.ts (Rapier multibody, from the same Sinew Model), peer-engines.ts
 * (MuJoCo, Jolt, cannon-es); what each engine cannot express is said there and in the printed notes.
 *
 * Scenes:
 * - the ragdoll pile: N ragdolls of 15 parts dropped face down in 5 criss-cross layers, 300 steps of
 *   1/60 s (5 s) from the release, every step timed (wall and process CPU). Per engine and N: mean,
 *   median, p99 and worst step, CPU ms per step, at rest at 5 s (v_rms = sqrt(2 KE / M) < 1 cm/s),
 *   fraction of bodies asleep at 5 s, largest joint gap (distance between a joint's two anchors, over
 *   every joint at 5 s), lowest body centre at 5 s; and Sinew's mean step over each peer's.
 * - the 7-link chain: 10,000 steps of 1/240 s, hinges about +y, link 0 pinned, no contacts, damping 0:
 *   steps per second (the 10,000 steps timed as one), joint gap and energy change at the end.
 * - MuJoCo's humanoid.xml (../shared/data/mjcf) on its plane, from its qpos0, 5 s at dt 0.005 and 1/60:
 *   Sinew (importMJCF, new World() defaults, the file's static geoms as statics) against mujoco-js's
 *   mj_step on the same file (its options, the timestep overridden).
 *
 * Each engine, scene and N runs in a fresh Node process (this script started again with `--child`),
 * warmed up for 1.5 s (common.mjs's rule: wasm tiers up slowly; here 1.5 s of the process's CPU time
 * from after the engine has loaded, so that other jobs on a shared machine do not shorten it) on
 * throw-away copies of the scene, a fresh copy every 300 steps so that the fall and the landing are
 * what warms up, not a pile asleep (the chain: a fresh copy every 10,000 steps, the timed run's
 * length, so that a copy's first steps are warmed up too: a JIT-compiled engine's code compiled on
 * one copy stepped for 1.5 s had never run the first-step paths a fresh copy takes (caches filled
 * on the first step, a joint angle exactly 0), and the timed copy threw that code away and
 * recompiled it; Sinew timed 10,000 steps at 73k CPU steps/s of which the first 3,000 took 46, 34
 * and 11 ms per 1,000, the rest 5 ms), engines alternated (Sinew, MuJoCo, Rapier multibody, Rapier
 * impulse, Jolt, cannon-es, then again for the next run); with several runs the run with the
 * median mean is shown.
 *
 * Environment: BENCH_PEERS_N=1,10,50,100 (default 1,10: N = 50 and 100 take minutes per engine),
 * BENCH_PEERS_RUNS=3, BENCH_PEERS_ENGINES=sinew,jolt (a subset), BENCH_PEERS_SCENES=pile,chain,humanoid.
 *
 * Run from the repository root:
 *   pnpm bench peers (bundled by esbuild first; see scripts/bench.mjs)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { forwardKinematics, kineticEnergy, ModelBuilder, type Model, type State } from '@sinew/featherstone';
import { printTable, record, writeResults } from '../../../bench/harness.js';
import { World } from '../src/index.js';
import { importMJCF } from '../../characters/src/index.js';
import { cannonChain, cannonPile, joltChain, joltPile, loadCannon, loadJolt, loadMujoco, mujocoChainXML, mujocoPileXML, mujocoSim, type PeerPose, type PeerSim } from './peer-engines.js';
import { peerRagdollModel, rapierImpulsePile, sinewPeerPile, sinewPose, toSinew } from './peer-ragdoll.js';
import { ragdollState } from './ragdoll-pile.js';
import { loadRapier, matToQuat, rapierPile } from './rapier-pile.js';
// @ts-ignore: plain JavaScript shared by every engine's benchmark (no type declarations)
import * as peer from '../../../../shared/bench/peer-scenes/common.mjs';

type V3 = [number, number, number];
type Q4 = [number, number, number, number];
type Rapier = Awaited<ReturnType<typeof loadRapier>>;

const ENGINES = ['sinew', 'mujoco', 'rapier-mb', 'rapier-imp', 'jolt', 'cannon'] as const;
type Engine = (typeof ENGINES)[number];
const LABEL: Record<Engine, string> = { sinew: 'Sinew', mujoco: 'MuJoCo', 'rapier-mb': 'Rapier multibody', 'rapier-imp': 'Rapier impulse', jolt: 'Jolt', cannon: 'cannon-es' };
const SCENES = ['pile', 'chain', 'humanoid'] as const;
type Scene = (typeof SCENES)[number];

const E = process.env;
const NS = E.BENCH_PEERS_N ? E.BENCH_PEERS_N.split(',').map(Number) : [1, 10];
const RUNS = Math.max(1, Number(E.BENCH_PEERS_RUNS ?? 1));
const PICKED = E.BENCH_PEERS_ENGINES ? ENGINES.filter((e) => E.BENCH_PEERS_ENGINES!.split(',').includes(e)) : [...ENGINES];
const SCENES_RUN = E.BENCH_PEERS_SCENES ? SCENES.filter((s) => E.BENCH_PEERS_SCENES!.split(',').includes(s)) : [...SCENES];
const ENV = ['BENCH_PEERS_N', 'BENCH_PEERS_RUNS', 'BENCH_PEERS_ENGINES', 'BENCH_PEERS_SCENES'].filter((k) => E[k]).map((k) => `${k}=${E[k]}`).join(' ');
const COMMAND = `${ENV ? ENV + ' ' : ''}pnpm bench peers`;
const WARMUP_MS = 1500;
const DT = peer.RAGDOLL_DT as number, STEPS = peer.RAGDOLL_STEPS as number;
const CHAIN = peer.CHAIN as { links: number; mass: number; length: number; halfExtents: V3; axis: V3; dt: number; steps: number };
const HUMANOID = new URL('../../../../shared/data/mjcf/humanoid.xml', import.meta.url);
const HUMANOID_DTS = [0.005, 1 / 60];
const HUMANOID_SECONDS = 5;

// ---------------------------------------------------------------- frames and poses

/** A Sinew vector (a, b, c) as common.mjs's (c, a, b) (the inverse of toSinew). */
const fromSinew = (v: ArrayLike<number>): V3 => [v[2], v[0], v[1]];
/** A Sinew quaternion [x, y, z, w] as common.mjs's [w, x, y, z]. */
const quatFromSinew = (q: { x: number; y: number; z: number; w: number }): Q4 => [q.w, q.z, q.x, q.y];

/** Centre-of-mass pose (common.mjs frame) of a link from its frame pose in Sinew's frame and its centre of mass in the link frame. */
function linkCentre(p: ArrayLike<number>, R: ArrayLike<number>, ro: number, com: ArrayLike<number>, co: number, q: { x: number; y: number; z: number; w: number }): PeerPose {
  const c0 = com[co], c1 = com[co + 1], c2 = com[co + 2];
  const w: V3 = [
    p[0] + R[ro] * c0 + R[ro + 1] * c1 + R[ro + 2] * c2,
    p[1] + R[ro + 3] * c0 + R[ro + 4] * c1 + R[ro + 5] * c2,
    p[2] + R[ro + 6] * c0 + R[ro + 7] * c1 + R[ro + 8] * c2,
  ];
  return { p: fromSinew(w), q: quatFromSinew(q) };
}

/** Per link of `model`: its index among common.mjs's PARTS (by name). */
function partIndex(model: Model): number[] {
  const names = (peer.PARTS as { name: string }[]).map((p) => p.name);
  return Array.from({ length: model.nLinks }, (_, i) => names.indexOf(model.linkNames[i]));
}

/** Poses (common.mjs frame, PARTS order) of a Sinew body's links. */
function sinewPoses(model: Model, state: State, part: number[], out: PeerPose[], base: number): void {
  forwardKinematics(model, state, false);
  const pose = state.work.pose;
  for (let i = 0; i < model.nLinks; i++) {
    const o = 12 * i;
    out[base + part[i]] = linkCentre([pose[o + 9], pose[o + 10], pose[o + 11]], pose, o, model.com, 3 * i, matToQuat(pose, o));
  }
}

// ---------------------------------------------------------------- Sinew and Rapier scenes

function sinewPileSim(n: number): PeerSim & { world: World } {
  const model = peerRagdollModel();
  const world = sinewPeerPile(n, model);
  const part = partIndex(model);
  return {
    world,
    step: () => world.step(DT),
    poses: () => { const out: PeerPose[] = []; world.bodies.forEach((b, k) => sinewPoses(b.model, b.state, part, out, 15 * k)); return out; },
    kineticEnergy: () => world.bodies.reduce((s, b) => s + kineticEnergy(b.model, b.state), 0),
    asleep: () => world.stats.sleeping / n,
    free: () => {},
  };
}

/** The 7-link chain in Sinew: a fixed-base tree of revolute joints, no shapes (no contacts). */
function sinewChainModel(): Model {
  const b = new ModelBuilder();
  const h = CHAIN.halfExtents, I = peer.boxInertia(CHAIN.mass, h) as V3, Is = toSinew(I);
  for (let i = 0; i < CHAIN.links; i++) {
    b.addLink({
      name: `link${i}`, parent: i === 0 ? null : `link${i - 1}`,
      joint: { type: 'revolute', axis: toSinew(CHAIN.axis), position: i === 0 ? [0, 0, 0] : toSinew([CHAIN.length, 0, 0]) },
      mass: CHAIN.mass, com: toSinew([CHAIN.length / 2, 0, 0]), inertia: [Is[0], Is[1], Is[2], 0, 0, 0],
    });
  }
  return b.build();
}

function sinewChainSim(): PeerSim {
  const model = sinewChainModel();
  const world = new World();
  const body = world.addBody(model);
  const part = Array.from({ length: CHAIN.links }, (_, i) => i);
  return {
    step: () => world.step(CHAIN.dt),
    poses: () => { const out: PeerPose[] = []; sinewPoses(model, body.state, part, out, 0); return out; },
    kineticEnergy: () => kineticEnergy(model, body.state),
    asleep: () => world.stats.sleeping,
    free: () => {},
  };
}

/** Poses, KE and sleep of Rapier rigid bodies whose frames are Sinew link frames (com, inertia from the Model). */
function rapierSim(world: { step(): void; free(): void }, bodies: { translation(): { x: number; y: number; z: number }; rotation(): { x: number; y: number; z: number; w: number }; linvel(): { x: number; y: number; z: number }; angvel(): { x: number; y: number; z: number }; isSleeping(): boolean }[], mass: number[], com: number[], inertia: V3[], slot: number[]): PeerSim {
  return {
    step: () => world.step(),
    poses: () => {
      const out: PeerPose[] = [];
      bodies.forEach((b, k) => {
        const t = b.translation(), r = b.rotation();
        const m = quatToMat(r);
        out[slot[k]] = linkCentre([t.x, t.y, t.z], m, 0, com, 3 * k, r);
      });
      return out;
    },
    kineticEnergy: () => {
      let ke = 0;
      bodies.forEach((b, k) => {
        const r = b.rotation(), v = b.linvel(), w = b.angvel();
        ke += peer.bodyKE(mass[k], inertia[k], [r.w, r.x, r.y, r.z], [v.x, v.y, v.z], [w.x, w.y, w.z]) as number;
      });
      return ke;
    },
    asleep: () => bodies.filter((b) => b.isSleeping()).length / bodies.length,
    free: () => world.free(),
  };
}

function quatToMat(q: { x: number; y: number; z: number; w: number }): number[] {
  const { x, y, z, w } = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

function rapierMultibodyPile(R: Rapier, n: number): PeerSim {
  const model = peerRagdollModel();
  const states = Array.from({ length: n }, (_, i) => ragdollState(model, sinewPose(i)));
  const pile = rapierPile(R, model, states, { friction: peer.FRICTION as number, dt: DT, gravity: [0, -peer.G, 0] });
  const part = partIndex(model);
  const mass: number[] = [], com: number[] = [], inertia: V3[] = [], slot: number[] = [];
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < model.nLinks; i++) {
      mass.push(model.mass[i]);
      com.push(model.com[3 * i], model.com[3 * i + 1], model.com[3 * i + 2]);
      inertia.push([model.inertiaCom[6 * i], model.inertiaCom[6 * i + 1], model.inertiaCom[6 * i + 2]]);
      slot.push(15 * r + part[i]);
    }
  }
  return rapierSim(pile.world, pile.bodies, mass, com, inertia, slot);
}

function rapierImpulsePileSim(R: Rapier, n: number): PeerSim {
  const pile = rapierImpulsePile(R, n);
  const parts = peer.PARTS as { mass: number }[];
  const mass: number[] = [], com: number[] = [], inertia: V3[] = [], slot: number[] = [];
  pile.bodies.forEach((_, k) => {
    const p = parts[k % 15];
    mass.push(p.mass); com.push(0, 0, 0); inertia.push(toSinew(peer.partInertia(p) as V3)); slot.push(k);
  });
  return rapierSim(pile.world, pile.bodies, mass, com, inertia, slot);
}

/** The 7-link chain in Rapier (Sinew's frame, y up): multibody joints from a fixed body, or impulse joints. */
function rapierChain(R: Rapier, multibody: boolean): PeerSim {
  const world = new R.World({ x: 0, y: -peer.G, z: 0 });
  world.timestep = CHAIN.dt;
  const fixed = world.createRigidBody(R.RigidBodyDesc.fixed());
  const I = toSinew(peer.boxInertia(CHAIN.mass, CHAIN.halfExtents) as V3);
  const axis = toSinew(CHAIN.axis), hl = toSinew([CHAIN.length / 2, 0, 0]);
  const ax = { x: axis[0], y: axis[1], z: axis[2] };
  const bodies: ReturnType<typeof world.createRigidBody>[] = [];
  for (let i = 0; i < CHAIN.links; i++) {
    const c = toSinew(peer.chainLinkCenter(i) as V3);
    const body = world.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(c[0], c[1], c[2])
      .setAdditionalMassProperties(CHAIN.mass, { x: 0, y: 0, z: 0 }, { x: I[0], y: I[1], z: I[2] }, { x: 0, y: 0, z: 0, w: 1 }));
    const a1 = i === 0 ? { x: 0, y: 0, z: 0 } : { x: hl[0], y: hl[1], z: hl[2] };
    const a2 = { x: -hl[0], y: -hl[1], z: -hl[2] };
    const data = R.JointData.revolute(a1, a2, ax);
    const parent = i === 0 ? fixed : bodies[i - 1];
    if (multibody) world.createMultibodyJoint(data, parent, body, true);
    else world.createImpulseJoint(data, parent, body, true);
    bodies.push(body);
  }
  const n = CHAIN.links;
  return rapierSim(world, bodies, Array(n).fill(CHAIN.mass), Array(3 * n).fill(0), Array(n).fill(I), Array.from({ length: n }, (_, i) => i));
}

// ---------------------------------------------------------------- children

async function pileSim(engine: Engine, n: number): Promise<PeerSim> {
  switch (engine) {
    case 'sinew': return sinewPileSim(n);
    case 'mujoco': { const { xml, order } = mujocoPileXML(n); return mujocoSim(await loadMujoco(), xml, order); }
    case 'rapier-mb': return rapierMultibodyPile(await loadRapier(), n);
    case 'rapier-imp': return rapierImpulsePileSim(await loadRapier(), n);
    case 'jolt': return joltPile(await loadJolt(), n);
    case 'cannon': return cannonPile(await loadCannon(), n);
  }
}

async function chainSim(engine: Engine): Promise<PeerSim> {
  switch (engine) {
    case 'sinew': return sinewChainSim();
    case 'mujoco': return mujocoSim(await loadMujoco(), mujocoChainXML());
    case 'rapier-mb': return rapierChain(await loadRapier(), true);
    case 'rapier-imp': return rapierChain(await loadRapier(), false);
    case 'jolt': return joltChain(await loadJolt());
    case 'cannon': return cannonChain(await loadCannon());
  }
}

interface Timed { msPerStep: number; cpuMsPerStep: number; msMedian: number; msP99: number; msWorst: number; cpuP99?: number; cpuWorst?: number; stepsTimed: number }
interface PileRun extends Timed { engine: Engine; n: number; warmupSteps: number; ke: number; vRms: number; asleep: number | null; gap: number; minZ: number; diverged: boolean }
interface ChainRun { engine: Engine; warmupSteps: number; stepsPerSecond: number; cpuStepsPerSecond: number; gap: number; energy0: number; energyEnd: number }
interface HumanoidRun extends Timed { engine: Engine; dt: number; warmupSteps: number; minZ: number; note: string; warnings: string[] }

const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** Process CPU time (ms, user + system, every thread) so far. */
function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/**
 * Warm-up by time (common.mjs's rule: WARMUP_MS) on throw-away copies of the scene, each stepped at
 * most `steps` steps (the timed run's length) before a fresh copy replaces it: stepping one copy for
 * the whole time would warm up a pile that has fallen asleep, not the fall and the landing that the
 * timed run measures. The time is this process's CPU time, from after the first copy is built (the
 * engine's wasm loaded and compiled): what tiers code up is work done, and on a shared machine wall
 * time would count the other jobs' turns. Returns the steps taken.
 */
async function warmupScenes(make: () => Promise<{ step(): void; free(): void }>, steps: number): Promise<number> {
  let sim = await make();
  const t0 = cpuMs();
  let n = 0;
  for (;;) {
    for (let k = 0; k < steps && cpuMs() - t0 < WARMUP_MS; k++) { sim.step(); n++; }
    sim.free();
    if (cpuMs() - t0 >= WARMUP_MS) return n;
    sim = await make();
  }
}

async function childPile(engine: Engine, n: number): Promise<PileRun> {
  const warmupSteps = await warmupScenes(() => pileSim(engine, n), STEPS);
  const sim = await pileSim(engine, n);
  gc();
  const t = peer.timeSteps(() => sim.step(), STEPS, DT) as Timed;
  const ke = sim.kineticEnergy();
  const poses = sim.poses();
  let gap = 0, minZ = Infinity, diverged = !Number.isFinite(ke);
  for (let r = 0; r < n; r++) gap = Math.max(gap, peer.ragdollJointGap(poses.slice(15 * r, 15 * r + 15)) as number);
  for (const p of poses) { minZ = Math.min(minZ, p.p[2]); if (!Number.isFinite(p.p[2])) diverged = true; }
  const asleep = sim.asleep();
  sim.free();
  return { engine, n, warmupSteps, ...t, ke, vRms: peer.vRms(ke, n) as number, asleep, gap, minZ, diverged };
}

/** Chain energy: KE + potential m g z of every link centre (common.mjs frame, z up). */
function chainEnergy(sim: PeerSim): number {
  let pe = 0;
  for (const p of sim.poses()) pe += CHAIN.mass * (peer.G as number) * p.p[2];
  return sim.kineticEnergy() + pe;
}

async function childChain(engine: Engine): Promise<ChainRun> {
  const warmupSteps = await warmupScenes(() => chainSim(engine), CHAIN.steps);
  const sim = await chainSim(engine);
  const energy0 = chainEnergy(sim);
  gc();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let s = 0; s < CHAIN.steps; s++) sim.step();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const run = { engine, warmupSteps, stepsPerSecond: CHAIN.steps / (wall / 1000), cpuStepsPerSecond: CHAIN.steps / ((c.user + c.system) / 1e6), gap: peer.chainJointGap(sim.poses()) as number, energy0, energyEnd: chainEnergy(sim) };
  sim.free();
  return run;
}

async function humanoidSim(engine: Engine, dt: number): Promise<{ step(): void; minZ(): number; note: string; warnings: string[]; free(): void }> {
  const text = readFileSync(HUMANOID, 'utf8');
  if (engine === 'mujoco') {
    const M = await loadMujoco();
    M.FS.writeFile('/peers/humanoid.xml', text);
    const model = M.MjModel.loadFromXML('/peers/humanoid.xml');
    model.opt.timestep = dt;
    const data = new M.MjData(model);
    return {
      step: () => M.mj_step(model, data),
      minZ: () => { const x = data.xipos as Float64Array; let z = Infinity; for (let b = 1; b < model.nbody; b++) z = Math.min(z, x[3 * b + 2]); return z; },
      note: `mj_step, the file's options (timestep ${dt.toPrecision(3)})`,
      warnings: [],
      free: () => { data.delete(); model.delete(); },
    };
  }
  const imp = importMJCF(text, { fileName: 'humanoid.xml' });
  const world = new World();
  for (const s of imp.staticShapes) world.addStatic(s);
  const body = world.addBody(imp.model, { excludedLinkPairs: imp.excludedLinkPairs });
  const part = Array.from({ length: imp.model.nLinks }, (_, i) => i);
  return {
    step: () => world.step(dt),
    minZ: () => {
      const poses: PeerPose[] = [];
      sinewPoses(imp.model, body.state, part, poses, 0);
      let z = Infinity;
      for (let i = 0; i < poses.length; i++) if (imp.model.mass[i] > 0) z = Math.min(z, poses[i].p[2]);
      return z;
    },
    note: `importMJCF + new World() defaults (${imp.warnings.length} importer warnings)`,
    warnings: imp.warnings,
    free: () => {},
  };
}

async function childHumanoid(engine: Engine, dt: number): Promise<HumanoidRun> {
  const steps = Math.round(HUMANOID_SECONDS / dt);
  const warmupSteps = await warmupScenes(() => humanoidSim(engine, dt), steps);
  const sim = await humanoidSim(engine, dt);
  gc();
  const t = peer.timeSteps(() => sim.step(), steps, dt) as Timed;
  const run = { engine, dt, warmupSteps, ...t, minZ: sim.minZ(), note: sim.note, warnings: sim.warnings };
  sim.free();
  return run;
}

// ---------------------------------------------------------------- parent

function spawnChild<T>(args: string[]): T | { failed: string } {
  const r = spawnSync(process.execPath, ['--expose-gc', process.argv[1], '--child', ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('PEERS '));
  if (r.status !== 0 || !line) {
    const why = `${args.join(' ')}: status ${r.status}${r.signal ? ` (${r.signal})` : ''}: ${(r.stderr || r.stdout || '').trim().split('\n').slice(-3).join(' / ')}`;
    console.log(`  FAILED ${why}`);
    return { failed: why };
  }
  return JSON.parse(line.slice(6)) as T;
}
const ok = <T>(r: T | { failed: string }): r is T => !(r as { failed?: string }).failed;

const f = (x: number | null | undefined, d = 2) => (x == null || !Number.isFinite(x) ? '–' : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(d));
const g = (x: number) => (Number.isFinite(x) ? x.toExponential(1) : '–');
const median = <T>(runs: T[], key: (r: T) => number): T => runs.slice().sort((a, b) => key(a) - key(b))[runs.length >> 1];

const notes: Record<Engine, string> = {
  sinew: 'new World() defaults (sleep on); joints exact in reduced coordinates',
  mujoco: 'MJCF generated from PARTS/JOINTS; ball limits are a cone only (MJCF has no separate twist limit); no sleeping',
  'rapier-mb': 'multibody joints; no joint limits (the JS API has none for multibody joints)',
  'rapier-imp': 'impulse joints; revolute limits, ball joints without cone/twist limits (none in the JS API)',
  jolt: 'SwingTwist (cone + twist) and limited hinge constraints; group filter off for jointed neighbours',
  cannon: 'ConeTwist (cone + twist) and hinge constraints (no hinge limits in cannon); sleep switched on; naive broadphase',
};

/**
 * Mean / p99 ms per step recorded for the pile on this kind of machine (2 cores, Node 20, the machine
 * free): the peers from ../shared/bench/peer-scenes/README.md, Sinew from the performance
 * requirement's table (main at the time); printed beside this run's figures as a sanity check.
 */
const REFERENCE: Record<Engine, Record<number, [number, number]>> = {
  sinew: { 1: [0.31, 6.7], 10: [3.5, 84], 50: [71, 433], 100: [124, 944] },
  mujoco: { 1: [0.06, 0.15], 10: [2.2, 4.5], 50: [66, 287], 100: [133, 512] },
  'rapier-mb': { 1: [0.5, 2.9], 10: [11.9, 17.9], 50: [70, 98], 100: [146, 224] },
  'rapier-imp': { 1: [0.11, 1.4], 10: [1.5, 3.3], 50: [10.1, 15.4], 100: [21, 34] },
  jolt: { 1: [0.05, 0.35], 10: [1.3, 3.8], 50: [17.9, 23.9], 100: [33, 46] },
  cannon: { 1: [0.47, 3.2], 10: [5.3, 10.2], 50: [77, 151], 100: [193, 1126] },
};

async function main(): Promise<void> {
  console.log(`# Sinew and its peers on the shared peer scenes (command: ${COMMAND}; node ${process.version})`);
  console.log(`# engines ${PICKED.map((e) => LABEL[e]).join(', ')}; scenes ${SCENES_RUN.join(', ')}; pile N = ${NS.join(', ')}; one engine per fresh Node process, ${WARMUP_MS / 1000} s warm-up by time, engines alternated; ${RUNS} run(s)${RUNS > 1 ? ' (the run with the median mean shown)' : ''}`);
  for (const e of PICKED) console.log(`#   ${LABEL[e]}: ${notes[e]}`);

  if (SCENES_RUN.includes('pile')) {
    const rows: PileRun[] = [];
    for (const n of NS) {
      const runs = new Map<Engine, PileRun[]>();
      for (let k = 0; k < RUNS; k++) {
        for (const e of PICKED) {
          const r = spawnChild<PileRun>(['pile', e, String(n)]);
          if (ok(r)) runs.set(e, [...(runs.get(e) ?? []), r]);
        }
      }
      for (const e of PICKED) if (runs.get(e)) rows.push(median(runs.get(e)!, (r) => r.msPerStep));
      console.log(`  N = ${n}: ${PICKED.map((e) => `${LABEL[e]} ${runs.get(e) ? f(median(runs.get(e)!, (r) => r.msPerStep).msPerStep) : 'failed'}`).join(', ')} ms per step`);
    }
    const sinewAt = (n: number) => rows.find((r) => r.engine === 'sinew' && r.n === n);
    printTable(`Ragdoll pile, ${STEPS} steps of 1/60 s from the release, ms per step (${COMMAND})`, rows.map((r) => {
      const s = sinewAt(r.n);
      return {
        N: r.n, engine: LABEL[r.engine], mean: f(r.msPerStep), median: f(r.msMedian), p99: f(r.msP99), worst: f(r.msWorst), 'CPU mean / p99 / worst': `${f(r.cpuMsPerStep)} / ${f(r.cpuP99)} / ${f(r.cpuWorst)}`,
        'at rest 5 s': r.diverged ? 'DIVERGED' : r.vRms < (peer.REST_VRMS as number) ? 'yes' : 'no', 'v_rms m/s': r.vRms.toPrecision(2),
        asleep: r.asleep == null ? '–' : `${(100 * r.asleep).toFixed(0)} %`, 'joint gap m': g(r.gap), 'lowest body m': f(r.minZ, 3),
        'Sinew/peer mean': s && r.engine !== 'sinew' ? (s.msPerStep / r.msPerStep).toFixed(2) : '–',
        'Sinew/peer CPU': s && r.engine !== 'sinew' ? (s.cpuMsPerStep / r.cpuMsPerStep).toFixed(2) : '–',
        'recorded mean / p99': REFERENCE[r.engine][r.n] ? REFERENCE[r.engine][r.n].join(' / ') : '–',
        'warm-up steps': r.warmupSteps,
      };
    }));
    console.log('(recorded mean / p99: the same scene on this kind of machine with the machine free, peers from shared/bench/peer-scenes/README.md, Sinew from the performance requirement; wall time inflates with the load of other jobs, CPU time much less: compare CPU mean when the machine is busy)');
    for (const r of rows) record({ name: `pile N=${r.n} ${r.engine}`, medianUs: r.msMedian * 1000, minUs: NaN, maxUs: r.msWorst * 1000, calls: r.stepsTimed, meanMs: r.msPerStep, p99Ms: r.msP99, cpuMs: r.cpuMsPerStep, vRms: r.vRms, asleep: r.asleep ?? NaN, gap: r.gap, minZ: r.minZ, ratio: sinewAt(r.n) ? sinewAt(r.n)!.msPerStep / r.msPerStep : NaN });
  }

  if (SCENES_RUN.includes('chain')) {
    const rows: ChainRun[] = [];
    for (let k = 0; k < RUNS; k++) {
      for (const e of PICKED) {
        const r = spawnChild<ChainRun>(['chain', e]);
        if (ok(r)) rows.push(r);
      }
    }
    const chosen = PICKED.map((e) => rows.filter((r) => r.engine === e)).filter((rs) => rs.length).map((rs) => median(rs, (r) => r.stepsPerSecond));
    const s = chosen.find((r) => r.engine === 'sinew');
    printTable(`7-link chain, ${CHAIN.steps} steps of 1/240 s, no contacts, damping 0 (${COMMAND})`, chosen.map((r) => ({
      engine: LABEL[r.engine], 'steps/s': Math.round(r.stepsPerSecond), 'CPU steps/s': Math.round(r.cpuStepsPerSecond), 'joint gap m': g(r.gap),
      'energy change J': (r.energyEnd - r.energy0).toFixed(2), 'Sinew/peer steps/s': s && r.engine !== 'sinew' ? (s.stepsPerSecond / r.stepsPerSecond).toFixed(2) : '–',
    })));
    console.log(`(energy at the start: 0 J, the chain at rest and horizontal at z = 0; hanging straight down it would be ${(-(peer.G as number) * CHAIN.mass * CHAIN.length * (CHAIN.links * CHAIN.links) / 2).toFixed(1)} J: an energy change near that means the swing has died out)`);
    for (const r of chosen) record({ name: `chain ${r.engine}`, medianUs: 1e6 / r.stepsPerSecond, minUs: NaN, maxUs: NaN, calls: CHAIN.steps, stepsPerSecond: r.stepsPerSecond, gap: r.gap, energyChange: r.energyEnd - r.energy0 });
  }

  if (SCENES_RUN.includes('humanoid')) {
    const engines = PICKED.filter((e) => e === 'sinew' || e === 'mujoco');
    const rows: HumanoidRun[] = [];
    for (const dt of HUMANOID_DTS) {
      for (let k = 0; k < RUNS; k++) {
        for (const e of engines) {
          const r = spawnChild<HumanoidRun>(['humanoid', e, String(dt)]);
          if (ok(r)) rows.push(r);
        }
      }
    }
    const chosen = HUMANOID_DTS.flatMap((dt) => engines.map((e) => rows.filter((r) => r.engine === e && r.dt === dt)).filter((rs) => rs.length).map((rs) => median(rs, (r) => r.msPerStep)));
    printTable(`MuJoCo's humanoid.xml dropped on its plane from qpos0, ${HUMANOID_SECONDS} s, ms per step (${COMMAND})`, chosen.map((r) => {
      const m = chosen.find((c) => c.engine === 'mujoco' && c.dt === r.dt);
      return {
        dt: r.dt.toPrecision(3), engine: LABEL[r.engine], mean: f(r.msPerStep, 3), median: f(r.msMedian, 3), p99: f(r.msP99, 3), worst: f(r.msWorst, 3), 'CPU mean': f(r.cpuMsPerStep, 3),
        'lowest body m': f(r.minZ, 3), 'Sinew/MuJoCo mean': r.engine === 'sinew' && m ? (r.msPerStep / m.msPerStep).toFixed(2) : '–',
        'Sinew/MuJoCo CPU': r.engine === 'sinew' && m ? (r.cpuMsPerStep / m.cpuMsPerStep).toFixed(2) : '–', how: r.note,
      };
    }));
    const warned = chosen.find((r) => r.engine === 'sinew' && r.warnings.length);
    if (warned) console.log(`importMJCF's warnings on humanoid.xml:\n${warned.warnings.map((w) => '  ' + w).join('\n')}`);
    for (const r of chosen) record({ name: `humanoid.xml dt=${r.dt.toPrecision(3)} ${r.engine}`, medianUs: r.msMedian * 1000, minUs: NaN, maxUs: r.msWorst * 1000, calls: r.stepsTimed, meanMs: r.msPerStep, p99Ms: r.msP99, cpuMs: r.cpuMsPerStep, minZ: r.minZ });
  }
  record({ name: 'command', medianUs: NaN, minUs: NaN, maxUs: NaN, calls: 0, command: COMMAND });
  console.log(`\nwrote ${writeResults('peers')}`);
}

if (process.argv[2] === '--child') {
  const [scene, engine, arg] = process.argv.slice(3) as [Scene, Engine, string];
  const run = scene === 'pile' ? await childPile(engine, Number(arg)) : scene === 'chain' ? await childChain(engine) : await childHumanoid(engine, Number(arg));
  console.log('PEERS ' + JSON.stringify(run));
  process.exit(0);
} else {
  await main();
}
