/**
 * Joint-space dynamics of imported MJCF models against oracles that share no code with the
 * importer or with featherstone:
 *
 * 1. MuJoCo itself. The accelerations qacc below were computed by MuJoCo 3.3.8 (its official
 *    WebAssembly build, npm mujoco-js 0.0.7) with mj_forward on the unmodified files in
 *    shared/data/mjcf, constraints disabled, at two states drawn by the generator in `mujocoState`
 *    (same seed, same order); xpos are its body positions at the first state. Printed to 13
 *    significant digits.
 * 2. A Jacobian-based M = sum_b (m_b Jv^T Jv + Jw^T I_b Jw) + armature, bias forces from Newton-Euler
 *    per body and gravity, written here from the MJCF bodies of pendulum_chain.xml and
 *    damped_pendulum.xml transcribed by hand, with this file's own solid formulas and kinematics.
 * 3. Spong's closed-form equations of the acrobot (M. W. Spong, "The swing up control problem for
 *    the acrobot", IEEE Control Systems 15(1), 1995, eq. 1-4) with the model's link lengths,
 *    masses and inertias.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lusolve } from 'mathjs';
import { forwardDynamics, forwardKinematics, massMatrix, State } from '@sinew/featherstone';
import { importMJCF, type MJCFImport } from '../src/mjcf/index.js';

const DATA = new URL('../../../../shared/data/mjcf/', import.meta.url);
function load(path: string): MJCFImport {
  const url = new URL(path, DATA);
  const dir = new URL('./', url);
  return importMJCF(readFileSync(url, 'utf8'), { fileName: path, readInclude: (p) => readFileSync(new URL(p, dir), 'utf8') });
}

/** MuJoCo 3.3.8: mj_getTotalmass, qacc at the two states of `mujocoState`, xpos (bodies 1..) at the first. */
const MUJOCO: Record<string, { totalMass: number; qacc: number[][]; xpos: number[] }> = {
  'humanoid.xml': {"totalMass":40.84402122162134,"qacc":[[-2.386724775115,-3.790580762771,-10.19636192781,-3.050913908987,20.70891271596,35.33322595292,-125.3039561129,-58.33775383003,-42.30268360084,-93.43010435124,213.1573961573,76.45380231965,-24.07715393224,-195.6122605279,71.80555520374,-52.0111097285,-51.72106235908,125.1857702069,20.28739663299,-153.722401317,74.73793242333,1.652251423581,-10.09947179382,9.959406895395,-9.172275377559,38.18638398951,-22.88839138281],[-1.161584061764,-0.4268323603347,-13.56779426479,-10.90664544672,11.78288589732,60.64893186669,-65.83271809843,-57.32871185283,48.83640396581,-15.66266104211,-36.00318960999,65.78646674526,93.32126863448,129.5750618104,6.603476464505,240.1536527009,-273.9762787809,94.72986549587,11.22396992914,-157.5332469272,237.3297279139,-55.62092639877,-88.23463984485,82.15627569436,48.36420662872,89.80490842857,-55.4958956611]],"xpos":[-0.4033834714924,0.3339946273873,1.947702497685,-0.3623043452235,0.1529182017777,1.907405680522,-0.4710998892452,0.5630399623772,2.038272316336,-0.497072749171,0.6793928087714,2.149023409323,-0.5961696913502,0.7197864379983,2.161195129359,-0.6897251848909,1.07046739722,2.32685199698,-0.8055390421702,1.420270540528,2.404600951363,-0.4003131238003,0.695405642448,2.193533678428,-0.2759543508455,1.005689834256,2.410706659176,-0.2614540372776,1.212371602033,2.731666300324,-0.550834049928,0.2516111212004,1.884684366744,-0.6795849387706,0.5337917188748,1.853104010216,-0.464066432366,0.3564045269764,1.714231559573,-0.229988181729,0.3020140752944,1.985270007261,-0.1992105159404,0.61223667476,1.981439332468,-0.2334964320773,0.4633489418142,1.709673037772]},
  'pendulum_chain.xml': {"totalMass":0.6841223743738973,"qacc":[[85.91145684656,-286.9589850917,-387.1563697056,-2005.251190087,-2093.178099233,-314.331398868],[217.9153562883,-394.197351137,514.1875671788,9980.648294038,-4506.536814605,-2825.771788026]],"xpos":[0,0,0,0.4432587421807,0,0.233057653964,0.5317700138705,0,0.2795953245532,0.5898996324139,0.08126005602788,0.2753821615679]},
  'damped_pendulum.xml': {"totalMass":0.6338568919164607,"qacc":[[86.22201834599,-328.9671512608,-1021.197818272,234.830895766,-3427.78954795,-836.0461481777],[208.9765223641,-462.1018933483,-248.5975244215,-2109.553589141,-5048.751883409,-3629.212540519]],"xpos":[0.15,0,0,0.5932587421807,0,0.233057653964,0.6817700138705,0,0.2795953245532,0.7398996324139,0.08126005602788,0.2753821615679]},
  'acrobot.xml': {"totalMass":2,"qacc":[[-8.538759860457,18.42310024984],[-6.580546417562,5.322484628296]],"xpos":[0,0,2,-0.4653767058918,0,2.885112716897]},
  'pendulum.xml': {"totalMass":1,"qacc":[[-9.360444891938],[2.586598742096]],"xpos":[0,0,0.6]},
  'humanoid_CMU.xml': {"totalMass":51.845941401700195,"qacc":[[-2.517125102968,-4.610645015437,-19.94885053557,4.513000274459,51.04414580701,-5.241066915638,-71.14887388184,-178.5859181297,-39.38087591544,-22.51369583396,672.9504966888,26.97112887099,-20.2618379491,-91.2965168158,120.3055860222,29.41990381139,3.565831393804,245.1341916359,189.5272313368,-83.78446787756,388.2469892276,-215.8481079216,181.3058576123,-332.0487192676,69.54256385232,76.54886333117,58.86743263988,104.4203076441,84.30545227035,270.6103081303,17.29740181528,-221.4121340619,65.62298305332,-29.27273851271,132.979458015,-238.867257567,-29.13157592245,95.34493198418,182.1895217412,-53.49163161928,144.4313064625,-1.186946844176,-26.99266792596,-146.0866269957,91.85175395261,-57.16394582814,-68.32463028275,-89.66383338285,-35.06921431502,32.3001776323,136.607927806,-86.67012042154,-112.7473648177,128.0383721299,35.26148243789,164.7783204531,62.56935143766,17.51902976549,-17.21643867558,98.97563285734,8.560664713573,-56.98594707113],[14.96304836429,9.126945045453,-8.414885794793,-96.38891116703,66.00056070641,51.32408143763,50.87989243542,107.8547495193,-70.67816278059,80.09429988844,-274.2916545897,31.2101353152,133.6155199218,-30.59561165757,-421.1644020989,86.42213448874,106.8050676401,-508.0006161005,-336.978692064,163.8684419685,-171.234297881,-193.0462748793,487.7675060931,-68.78452306147,-520.1409073868,-600.7504092677,-146.507795033,614.7444636536,644.5607081733,-100.2901076348,373.1808282363,-192.7161834112,587.8042584967,-300.5875248592,160.9647734757,-644.7625970769,112.5783499188,416.6979439328,-33.6072480592,307.8246496553,83.16538344656,41.04862180478,261.5721693733,-139.729529316,154.4345302134,-88.70309439946,67.55906345369,-93.25302085331,-59.96742584512,-166.6641425362,-315.1458853023,16.88030042746,-27.73880642078,50.91742445549,57.90284239343,137.774064939,-108.8805366346,87.34805986748,127.6583780504,-55.69125684295,103.5747272133,103.0994416041]],"xpos":[-0.4033834714924,0.3339946273873,1.947702497685,-0.4033834714924,0.3339946273873,1.947702497685,-0.4538388034986,0.2996429703238,1.814878466994,-0.8041164115637,0.3858783565403,1.630896107847,-1.13066403096,0.4172547002415,1.392214337342,-1.103463472045,0.3188322515586,1.354705917896,-0.4033834714924,0.3339946273873,1.947702497685,-0.5049417812678,0.2457660097472,2.004883095311,-0.845600812006,0.1362983915232,1.815281622844,-1.097974255763,-0.1621225875106,1.706472733465,-1.039717275009,-0.211884295687,1.783697256333,-0.4033834714924,0.3339946273873,1.947702497685,-0.3198596018593,0.3850744022777,1.970387730738,-0.2384379678734,0.3983850627998,2.04842847493,-0.1881529111393,0.3987451294621,2.150783994125,-0.1193992965784,0.348965403007,2.182326335808,-0.130058148272,0.2695325267721,2.22327517039,-0.1881529111393,0.3987451294621,2.150783994125,-0.2002854725886,0.5963943652045,2.138431643614,-0.3696271887855,0.7985266263104,2.05360869757,-0.3825281611765,0.9439431267109,1.966501830317,-0.3885992070075,1.012374421017,1.925510363374,-0.4123235743243,1.07274214695,1.878682037959,-0.386060816383,1.027999074368,1.893115506055,-0.1881529111393,0.3987451294621,2.150783994125,-0.2145716900839,0.2159736625207,2.22332115006,-0.3058791516109,-0.03002240139242,2.312078594867,-0.4281124968493,-0.1480891965622,2.316465072975,-0.4856340710791,-0.2036500413479,2.318529297968,-0.5585414846882,-0.233084415586,2.303760186483,-0.5056075521589,-0.2332697878599,2.313657884403]},
  'humanoid_CMU_V2020.xml': {"totalMass":66.954478833061,"qacc":[[-29.13831261909,-94.5857393747,10.98685468145,-7.037087367435,274.7859031502,323.4660748515,-66.11874069948,-54.69645854619,-184.0898957931,-0.8443713182824,-26.16202868785,379.8081898551,227.1568218096,-27.60632754161,-2421.474784025,795.9639598281,1373.095507761,4174.871414441,-1473.643979916,-742.4771672543,-935.1368867833,1076.208907735,398.3331944169,-648.8588019831,-391.3145692482,559.5442399928,-168.0042616395,295.780612979,404.899531539,874.6145062981,-1461.20249104,472.3403122884,-2092.660917179,-1581.260838805,-1086.665814777,1023.156420645,-126.717720605,541.7959427822,62.64869717243,-22.78735105768,56.08100709817,5.329841437291,-18.84142687784,129.3004262585,-1233.526593512,20.93722932366,-594.9613369957,-154.5097361968,-1407.0722591,237.5027354414,-37.70861851532,73.37031996673,-98.32591247413,-92.19947955421,-41.18780237787,-41.6051858627],[25.77836179866,67.83231008122,11.38644083498,-37.45419275036,89.58632038534,217.5828882644,22.51694240826,13.85795129219,71.13084699831,11.75215874304,8.644986760786,-190.6236178907,-203.8746346659,-132.9776576405,-1169.136610513,-211.9785472893,-1283.194012251,3412.906588944,-2732.694061844,1938.512006579,-3123.010105639,2744.464403555,1919.231207393,616.2214643316,849.7988521375,17.91210947939,-517.8813617341,-772.945354243,-898.8891525545,82.47751663112,-181.1598245407,-183.0181157016,-210.0885706754,682.2280917591,-333.3727033646,-286.0180427729,1336.956825781,-167.5982278426,-188.3703654616,-22.9917995509,134.9510069265,226.7401254535,314.3711773662,190.8537241705,1025.121019135,-676.9135618278,480.9943374463,-584.6794470487,1014.261539757,-41.56043608399,-167.3701665674,23.96904029374,-70.04282127711,-69.44621653081,190.5078408515,-37.98381764976]],"xpos":[0,0,0,0,0,0,0.101937,-0.0918074,0.0494461,-0.02500311490608,-0.4256580315508,-0.1413690358404,-0.07777219439552,-0.8379191527945,-0.1338283190498,-0.09640516228479,-0.7717670431441,0.008465887563858,0,0,0,-0.101937,-0.0918074,0.0494461,-0.2578386734621,-0.4461217725056,-0.06945069000164,-0.385413251024,-0.8384391764211,-0.1205628411392,-0.3647204763601,-0.8430787931102,0.03602966625835,0,0,0,-0.04954470863965,0.09853677705931,-0.02679887065267,-0.01967995177495,0.2053466995421,-0.0512273514728,-0.07670605133617,0.3022942907271,-0.07005704665316,-0.1168981960948,0.3643391696428,-0.01670174063836,-0.1390639066436,0.4705443481068,0.05506406470828,-0.07670605133617,0.3022942907271,-0.07005704665316,-0.05001053842604,0.5004467861521,-0.095310364972,0.01027519766123,0.6471771286315,0.1315770151736,-0.02566757241627,0.711637407204,0.2974333055623,-0.04363887825801,0.7438674044572,0.3803610853056,-0.05276721637388,0.7317878840132,0.453755750709,-0.05027591518022,0.7202303235519,0.3756453513045,-0.07670605133617,0.3022942907271,-0.07005704665316,-0.1465129686287,0.1992485765755,-0.2285605703739,-0.1801142118394,-0.01812349876533,-0.3966747695533,-0.2019187548129,-0.1606098263813,-0.5070266052618,-0.212820978255,-0.2318526762321,-0.5622022799646,-0.2359517037495,-0.2873254059958,-0.6063335152274,-0.2284997935489,-0.2395459476042,-0.5443140624297]},
};

const FILES: Record<string, string> = {
  'humanoid.xml': 'humanoid.xml',
  'pendulum_chain.xml': 'pendulum_chain.xml',
  'damped_pendulum.xml': 'damped_pendulum.xml',
  'acrobot.xml': 'dm_control/acrobot.xml',
  'pendulum.xml': 'dm_control/pendulum.xml',
  'humanoid_CMU.xml': 'dm_control/humanoid_CMU.xml',
  'humanoid_CMU_V2020.xml': 'dm_control/humanoid_CMU_V2020.xml',
};

type V3 = [number, number, number];
type Q4 = [number, number, number, number]; // x y z w
const qmul = (a: Q4, b: Q4): Q4 => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const qconj = (q: Q4): Q4 => [-q[0], -q[1], -q[2], q[3]];
const qrot = (q: Q4, v: readonly number[]): V3 => {
  const r = qmul(qmul(q, [v[0], v[1], v[2], 0]), qconj(q));
  return [r[0], r[1], r[2]];
};
const cross = (a: readonly number[], b: readonly number[]): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
/** The SDK's Y-up world from MuJoCo's: (x, y, z) -> (y, z, x). */
const toYUp = (v: readonly number[]): V3 => [v[1], v[2], v[0]];

/** The fixture generator's draw: Park-Miller minimal standard generator, seed 12345. */
function mujocoState(r: MJCFImport, state: number): { qpos: number[]; qvel: number[]; tau: number[] } {
  let seed = 12345;
  const rnd = (): number => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  let out = { qpos: [] as number[], qvel: [] as number[], tau: [] as number[] };
  for (let s = 0; s <= state; s++) {
    const qpos = new Array<number>(r.nq).fill(0), qvel = new Array<number>(r.nv).fill(0), tau = new Array<number>(r.nv).fill(0);
    for (const j of r.joints) {
      const a = j.qposAddress;
      if (j.type === 'free') {
        qpos[a] = rnd() - 0.5; qpos[a + 1] = rnd() - 0.5; qpos[a + 2] = 1 + rnd();
        const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
        const n = Math.hypot(...q);
        for (let i = 0; i < 4; i++) qpos[a + 3 + i] = q[i] / n;
      } else if (j.type === 'ball') {
        const q = [1 + rnd(), rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
        const n = Math.hypot(...q);
        for (let i = 0; i < 4; i++) qpos[a + i] = q[i] / n;
      } else qpos[a] = j.ref + (rnd() - 0.5) * 1.2;
    }
    for (let i = 0; i < r.nv; i++) { qvel[i] = (rnd() - 0.5) * 2; tau[i] = s === 0 ? 0 : (rnd() - 0.5) * 4; }
    for (const j of r.joints) if (j.type === 'free') for (let i = 0; i < 6; i++) tau[j.dofAddress + i] = 0;
    out = { qpos, qvel, tau };
  }
  return out;
}

/** Our qdd mapped into MuJoCo's qacc layout (free joints: world linear acceleration of the body origin, body angular acceleration). */
function toMujocoQacc(r: MJCFImport, st: State, qdd: Float64Array): number[] {
  const out = new Array<number>(r.nv).fill(0);
  for (const j of r.joints) {
    const info = r.model.joint(j.name);
    if (j.type !== 'free') {
      for (let i = 0; i < info.nv; i++) out[j.dofAddress + i] = qdd[info.v + i];
      continue;
    }
    // link frame = body frame rotated by B^-1 (B = frameInLink.rotation), same origin
    const B = r.bodies[j.body].frameInLink.rotation as Q4;
    const QL = Array.from(st.q.subarray(info.q + 3, info.q + 7)) as Q4;
    const w = Array.from(st.qd.subarray(info.v, info.v + 3)), v = Array.from(st.qd.subarray(info.v + 3, info.v + 6));
    const wd = Array.from(qdd.subarray(info.v, info.v + 3)), vd = Array.from(qdd.subarray(info.v + 3, info.v + 6));
    // d/dt (R v) = R (vd + w x v) in the SDK's world, then back to MuJoCo's axes (x, y, z) <- (z, x, y)
    const wxv = cross(w, v);
    const aY = qrot(QL, [vd[0] + wxv[0], vd[1] + wxv[1], vd[2] + wxv[2]]);
    const a = [aY[2], aY[0], aY[1]];
    const wdBody = qrot(qconj(B), wd);
    for (let i = 0; i < 3; i++) { out[j.dofAddress + i] = a[i]; out[j.dofAddress + 3 + i] = wdBody[i]; }
  }
  return out;
}

describe('MJCF dynamics against MuJoCo 3.3.8', () => {
  for (const [key, path] of Object.entries(FILES)) {
    // humanoid_CMU_V2020's feet carry two capsules at odd angles: MuJoCo keeps body inertias in
    // principal axes from its own eigen-decomposition (stopping at an absolute 1e-12), which there
    // is off by 1.2e-9 kg m^2; the importer's composition agrees with the geoms to 1e-17.
    const tol = key === 'humanoid_CMU_V2020.xml' ? 1e-8 : 1e-10;
    it(`${key}: qacc at two random states equals MuJoCo's (relative ${tol})`, () => {
      const r = load(path);
      const ref = MUJOCO[key];
      const st = new State(r.model);
      for (let s = 0; s < 2; s++) {
        const { qpos, qvel, tau } = mujocoState(r, s);
        st.q.set(r.qposToQ(qpos));
        st.qd.set(r.qvelToQd(qpos, qvel));
        st.tau.fill(0);
        for (const j of r.joints) {
          if (j.type === 'free') continue;
          const info = r.model.joint(j.name);
          for (let i = 0; i < info.nv; i++) st.tau[info.v + i] = tau[j.dofAddress + i];
        }
        const ours = toMujocoQacc(r, st, forwardDynamics(r.model, st));
        const scale = Math.max(...ref.qacc[s].map(Math.abs));
        const err = Math.max(...ours.map((x, i) => Math.abs(x - ref.qacc[s][i])));
        expect(scale).toBeGreaterThan(1);
        expect(err / scale).toBeLessThan(tol);
      }
    });
    it(`${key}: body positions at a random state equal MuJoCo's xpos`, () => {
      const r = load(path);
      const st = new State(r.model);
      const { qpos } = mujocoState(r, 0);
      st.q.set(r.qposToQ(qpos));
      forwardKinematics(r.model, st, false);
      const P = st.work.pose;
      r.bodies.forEach((b, i) => {
        let world: number[];
        if (b.link < 0) world = b.frameInLink.position;
        else {
          const o = 12 * b.link, p = b.frameInLink.position;
          world = [0, 1, 2].map((k) => P[o + 9 + k] + P[o + 3 * k] * p[0] + P[o + 3 * k + 1] * p[1] + P[o + 3 * k + 2] * p[2]);
        }
        const expected = toYUp(MUJOCO[key].xpos.slice(3 * i, 3 * i + 3));
        for (let k = 0; k < 3; k++) expect(world[k]).toBeCloseTo(expected[k], 11);
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// 2. An independent Jacobian-based oracle for the two 4-body chains (MuJoCo's Z-up world and
//    coordinates; the importer's only role is to be compared against).

type M3 = number[]; // row-major 3x3
const mm = (a: M3, b: M3): M3 => [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c]));
const mv = (a: M3, v: readonly number[]): V3 => [0, 1, 2].map((r) => a[3 * r] * v[0] + a[3 * r + 1] * v[1] + a[3 * r + 2] * v[2]) as V3;
const tr = (a: M3): M3 => [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];
const dot = (a: readonly number[], b: readonly number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/** Rodrigues: rotation by angle t about unit axis u. */
function rodrigues(u: readonly number[], t: number): M3 {
  const c = Math.cos(t), s = Math.sin(t), k = 1 - c;
  const [x, y, z] = u;
  return [c + x * x * k, x * y * k - z * s, x * z * k + y * s, y * x * k + z * s, c + y * y * k, y * z * k - x * s, z * x * k - y * s, z * y * k + x * s, c + z * z * k];
}
/** Rotation matrix of a unit quaternion given as MuJoCo writes it, [w, x, y, z]. */
function quatMatrix(q: readonly number[]): M3 {
  const [w, x, y, z] = q;
  return [
    w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z,
  ];
}

interface Solid { m: number; c: V3; I: M3 }
/** A solid of revolution (or square box) along the segment p0 -> p1, density 1000: axial and transverse moments. */
function alongSegment(p0: V3, p1: V3, m: number, axial: number, transverse: number): Solid {
  const d = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]];
  const n = Math.hypot(...d);
  const u = d.map((x) => x / n);
  // I = transverse (1 - u u^T) + axial u u^T
  const I = [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => (r === c ? transverse : 0) + (axial - transverse) * u[r] * u[c]));
  return { m, c: [(p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2, (p0[2] + p1[2]) / 2], I };
}
const RHO = 1000;
function capsule(r: number, p0: V3, p1: V3): Solid {
  const h = Math.hypot(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]);
  const mc = RHO * Math.PI * r * r * h, ms = RHO * (4 / 3) * Math.PI * r ** 3;
  // hemispheres: 2/5 m r^2 about their flat face's diameter, centres 3r/8 beyond the cylinder's ends
  const transverse = mc * (r * r / 4 + h * h / 12) + ms * (0.4 * r * r + h * h / 4 + (3 * h * r) / 8);
  return alongSegment(p0, p1, mc + ms, 0.5 * mc * r * r + 0.4 * ms * r * r, transverse);
}
function cylinder(r: number, p0: V3, p1: V3): Solid {
  const h = Math.hypot(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]);
  const m = RHO * Math.PI * r * r * h;
  return alongSegment(p0, p1, m, 0.5 * m * r * r, m * (r * r / 4 + h * h / 12));
}
/** MuJoCo's box with fromto: half-size a across, half the segment along. */
function squareBox(a: number, p0: V3, p1: V3): Solid {
  const half = Math.hypot(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]) / 2;
  const m = RHO * 8 * a * a * half;
  return alongSegment(p0, p1, m, (2 * m * a * a) / 3, (m * (a * a + half * half)) / 3);
}
function union(parts: Solid[]): Solid {
  const m = parts.reduce((s, p) => s + p.m, 0);
  const c = [0, 1, 2].map((k) => parts.reduce((s, p) => s + p.m * p.c[k], 0) / m) as V3;
  const I = new Array<number>(9).fill(0);
  for (const p of parts) {
    const d = [p.c[0] - c[0], p.c[1] - c[1], p.c[2] - c[2]];
    for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) I[3 * r + k] += p.I[3 * r + k] + p.m * ((r === k ? dot(d, d) : 0) - d[r] * d[k]);
  }
  return { m, c, I };
}

interface ChainBody { pos: V3; joint: 'hinge' | 'slide' | 'ball'; axis: V3; stiffness: number; solid: Solid }
/** pendulum_chain.xml and damped_pendulum.xml, transcribed. */
const CHAINS: Record<string, { damping: number; bodies: ChainBody[] }> = {
  'pendulum_chain.xml': {
    damping: 0,
    bodies: [
      { pos: [0, 0, 0], joint: 'hinge', axis: [0, 1, 0], stiffness: 0, solid: union([cylinder(0.02, [0, -0.02, 0], [0, 0.02, 0]), capsule(0.02, [0, 0, 0], [0.1, 0, 0])]) },
      { pos: [0.1, 0, 0], joint: 'slide', axis: [1, 0, 0], stiffness: 200, solid: capsule(0.015, [-0.1, 0, 0], [0.1, 0, 0]) },
      { pos: [0.1, 0, 0], joint: 'ball', axis: [0, 0, 0], stiffness: 0, solid: squareBox(0.02, [0, 0, 0], [0, 0.1, 0]) },
      { pos: [0, 0.1, 0], joint: 'hinge', axis: [1, 0, 0], stiffness: 0, solid: capsule(0.02, [0, 0, 0], [0, 0.1, 0]) },
    ],
  },
  'damped_pendulum.xml': {
    damping: 0.01,
    bodies: [
      { pos: [0.15, 0, 0], joint: 'hinge', axis: [0, 1, 0], stiffness: 0, solid: capsule(0.02, [0, 0, 0], [0.1, 0, 0]) },
      { pos: [0.1, 0, 0], joint: 'slide', axis: [1, 0, 0], stiffness: 200, solid: capsule(0.015, [-0.1, 0, 0], [0.1, 0, 0]) },
      { pos: [0.1, 0, 0], joint: 'ball', axis: [0, 0, 0], stiffness: 0, solid: squareBox(0.02, [0, 0, 0], [0, 0.1, 0]) },
      { pos: [0, 0.1, 0], joint: 'hinge', axis: [1, 0, 0], stiffness: 0, solid: capsule(0.02, [0, 0, 0], [0, 0, 0.1]) },
    ],
  },
};

/** World poses and Jacobians (6 x nv per body: angular rows, then the centre of mass's linear rows) at MuJoCo's qpos. */
function chainKinematics(bodies: ChainBody[], qpos: number[]): { R: M3[]; com: V3[]; J: number[][][] } {
  let R: M3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  let p: V3 = [0, 0, 0];
  const cols: { w: V3; anchor: V3; lin: V3 }[] = [];
  const Rs: M3[] = [], coms: V3[] = [], counts: number[] = [];
  let qa = 0;
  for (const b of bodies) {
    p = [0, 1, 2].map((k) => p[k] + mv(R, b.pos)[k]) as V3;
    if (b.joint === 'hinge') {
      cols.push({ w: mv(R, b.axis), anchor: p, lin: [0, 0, 0] });
      R = mm(R, rodrigues(b.axis, qpos[qa++]));
    } else if (b.joint === 'slide') {
      const a = mv(R, b.axis);
      p = [0, 1, 2].map((k) => p[k] + a[k] * qpos[qa]) as V3;
      qa++;
      cols.push({ w: [0, 0, 0], anchor: p, lin: a });
    } else {
      R = mm(R, quatMatrix(qpos.slice(qa, qa + 4)));
      qa += 4;
      for (let k = 0; k < 3; k++) cols.push({ w: [R[k], R[3 + k], R[6 + k]], anchor: p, lin: [0, 0, 0] });
    }
    Rs.push(R);
    coms.push([0, 1, 2].map((k) => p[k] + mv(R, b.solid.c)[k]) as V3);
    counts.push(cols.length);
  }
  const nv = cols.length;
  const J = bodies.map((_, i) => {
    const rows = Array.from({ length: 6 }, () => new Array<number>(nv).fill(0));
    for (let k = 0; k < counts[i]; k++) {
      const c = cols[k];
      const v = cross(c.w, [coms[i][0] - c.anchor[0], coms[i][1] - c.anchor[1], coms[i][2] - c.anchor[2]]);
      for (let e = 0; e < 3; e++) { rows[e][k] = c.w[e]; rows[3 + e][k] = v[e] + c.lin[e]; }
    }
    return rows;
  });
  return { R: Rs, com: coms, J };
}

/** qpos moved along qvel for time h (ball: body-frame angular velocity). */
function advance(bodies: ChainBody[], qpos: number[], qvel: number[], h: number): number[] {
  const out = qpos.slice();
  let qa = 0, va = 0;
  for (const b of bodies) {
    if (b.joint !== 'ball') { out[qa++] += h * qvel[va++]; continue; }
    const w = qvel.slice(va, va + 3);
    const n = Math.hypot(...w), half = (n * h) / 2;
    const s = n > 0 ? Math.sin(half) / n : h / 2;
    const d = [Math.cos(half), w[0] * s, w[1] * s, w[2] * s];
    const q = qpos.slice(qa, qa + 4);
    out[qa] = q[0] * d[0] - q[1] * d[1] - q[2] * d[2] - q[3] * d[3];
    out[qa + 1] = q[0] * d[1] + q[1] * d[0] + q[2] * d[3] - q[3] * d[2];
    out[qa + 2] = q[0] * d[2] - q[1] * d[3] + q[2] * d[0] + q[3] * d[1];
    out[qa + 3] = q[0] * d[3] + q[1] * d[2] - q[2] * d[1] + q[3] * d[0];
    qa += 4; va += 3;
  }
  return out;
}

/** M and qacc from Newton-Euler per body: M qacc = tau + passive + sum J^T (m g; 0) - sum J^T (I w' + w x I w, m a) bias. */
function chainDynamics(chain: { damping: number; bodies: ChainBody[] }, qpos: number[], qvel: number[], tau: number[]): { M: number[][]; qacc: number[] } {
  const { bodies } = chain;
  const k0 = chainKinematics(bodies, qpos);
  const h = 1e-6;
  const kp = chainKinematics(bodies, advance(bodies, qpos, qvel, h));
  const km = chainKinematics(bodies, advance(bodies, qpos, qvel, -h));
  const nv = qvel.length;
  const M = Array.from({ length: nv }, () => new Array<number>(nv).fill(0));
  const f = tau.slice();
  bodies.forEach((b, i) => {
    const J = k0.J[i];
    const Iw = mm(mm(k0.R[i], b.solid.I), tr(k0.R[i]));
    const times = (row: number[]): number => row.reduce((s, x, k) => s + x * qvel[k], 0);
    const w = [0, 1, 2].map((e) => times(J[e]));
    // Jdot qd by central differences along the motion
    const jd = [0, 1, 2, 3, 4, 5].map((e) => (times(kp.J[i][e]) - times(km.J[i][e])) / (2 * h));
    const Iww = mv(Iw, w);
    const gyro = cross(w, Iww);
    const moment = [0, 1, 2].map((e) => mv(Iw, jd.slice(0, 3))[e] + gyro[e]);
    const force = [0, 1, 2].map((e) => b.solid.m * jd[3 + e] - b.solid.m * [0, 0, -9.81][e]);
    for (let r = 0; r < nv; r++) {
      for (let c = 0; c < nv; c++) {
        let s = 0;
        for (let e = 0; e < 3; e++) s += b.solid.m * J[3 + e][r] * J[3 + e][c];
        for (let e = 0; e < 3; e++) for (let g = 0; g < 3; g++) s += J[e][r] * Iw[3 * e + g] * J[g][c];
        M[r][c] += s;
      }
      for (let e = 0; e < 3; e++) f[r] -= J[e][r] * moment[e] + J[3 + e][r] * force[e];
    }
  });
  let qa = 0, va = 0;
  for (const b of bodies) {
    const n = b.joint === 'ball' ? 3 : 1;
    for (let k = 0; k < n; k++) f[va + k] -= chain.damping * qvel[va + k];
    if (b.stiffness > 0) f[va] -= b.stiffness * qpos[qa];
    qa += b.joint === 'ball' ? 4 : 1;
    va += n;
  }
  const qacc = (lusolve(M, f) as number[][]).map((r) => r[0]);
  return { M, qacc };
}

describe('MJCF dynamics against an independent Jacobian oracle', () => {
  for (const key of Object.keys(CHAINS)) {
    it(`${key}: mass matrix and accelerations at 5 random states`, () => {
      const r = load(key);
      const chain = CHAINS[key];
      const total = chain.bodies.reduce((s, b) => s + b.solid.m, 0);
      expect(r.model.totalMass()).toBeCloseTo(total, 14);
      expect(r.totalMass).toBeCloseTo(MUJOCO[key].totalMass, 14);
      let seed = 7;
      const rnd = (): number => { seed = (seed * 48271) % 2147483647; return seed / 2147483647 - 0.5; };
      const st = new State(r.model);
      const Mo = new Float64Array(r.model.nv * r.model.nv);
      for (let s = 0; s < 5; s++) {
        const ball = [1 + rnd(), rnd(), rnd(), rnd()];
        const bn = Math.hypot(...ball);
        const qpos = [2 * rnd(), 0.1 * rnd(), ...ball.map((x) => x / bn), 2 * rnd()];
        const qvel = Array.from({ length: 6 }, () => 3 * rnd());
        const tau = Array.from({ length: 6 }, () => 0.2 * rnd());
        const ref = chainDynamics(chain, qpos, qvel, tau);
        st.q.set(r.qposToQ(qpos));
        st.qd.set(r.qvelToQd(qpos, qvel));
        st.tau.set(tau);
        massMatrix(r.model, st, Mo);
        const mScale = Math.max(...ref.M.flat().map(Math.abs));
        for (let i = 0; i < 6; i++) for (let k = 0; k < 6; k++) expect(Math.abs(Mo[6 * i + k] - ref.M[i][k]) / mScale).toBeLessThan(1e-13);
        const qdd = forwardDynamics(r.model, st);
        const aScale = Math.max(...ref.qacc.map(Math.abs));
        for (let i = 0; i < 6; i++) expect(Math.abs(qdd[i] - ref.qacc[i]) / aScale).toBeLessThan(1e-7);
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// 3. The acrobot in Spong's closed form.

describe('acrobot against Spong closed-form equations', () => {
  it('qdd of acrobot.xml at 20 random states equals D^-1 (tau - h - phi - b qd)', () => {
    const r = load('dm_control/acrobot.xml');
    const { model } = r;
    // the importer's mass properties are MuJoCo's: body_mass and body_inertia (principal, MuJoCo axes)
    expect(Array.from(model.mass)).toEqual([1, 1]);
    const I = model.inertiaCom;
    // a jointed body's link keeps the body's axes (the world's turn to Y-up sits in the joint frame)
    expect(Array.from(I.subarray(0, 6)).map((x) => +x.toPrecision(15))).toEqual([0.0955703125, 0.0955703125, 0.001234375, 0, 0, 0]);
    expect(Array.from(I.subarray(6, 12)).map((x) => +x.toPrecision(15))).toEqual([0.0953036571964956, 0.0953036571964956, 0.00118577546933667, 0, 0, 0]);
    expect(Array.from(model.axis)).toEqual([0, 1, 0, 0, 1, 0]);
    const m1 = model.mass[0], m2 = model.mass[1];
    const lc1 = Math.hypot(model.com[0], model.com[1], model.com[2]);
    const lc2 = Math.hypot(model.com[3], model.com[4], model.com[5]);
    const l1 = Math.hypot(model.treeX[12 + 9], model.treeX[12 + 10], model.treeX[12 + 11]);
    const I1 = I[1], I2 = I[7]; // about the hinge axis y
    expect([lc1, lc2, l1]).toEqual([0.5, 0.5, 1]);
    const b = 0.05, g = 9.81;
    const st = new State(model);
    let seed = 3;
    const rnd = (): number => { seed = (seed * 48271) % 2147483647; return seed / 2147483647 - 0.5; };
    for (let k = 0; k < 20; k++) {
      const [q1, q2, d1, d2, t1, t2] = [6 * rnd(), 6 * rnd(), 8 * rnd(), 8 * rnd(), 4 * rnd(), 4 * rnd()];
      const d11 = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * Math.cos(q2)) + I1 + I2;
      const d12 = m2 * (lc2 * lc2 + l1 * lc2 * Math.cos(q2)) + I2;
      const d22 = m2 * lc2 * lc2 + I2;
      const h1 = -m2 * l1 * lc2 * Math.sin(q2) * (d2 * d2 + 2 * d1 * d2);
      const h2 = m2 * l1 * lc2 * Math.sin(q2) * d1 * d1;
      // potential g (m1 lc1 cos q1 + m2 (l1 cos q1 + lc2 cos(q1 + q2))), angles from the upward vertical
      const p1 = -g * ((m1 * lc1 + m2 * l1) * Math.sin(q1) + m2 * lc2 * Math.sin(q1 + q2));
      const p2 = -g * m2 * lc2 * Math.sin(q1 + q2);
      const r1 = t1 - h1 - p1 - b * d1, r2 = t2 - h2 - p2 - b * d2;
      const det = d11 * d22 - d12 * d12;
      const e1 = (d22 * r1 - d12 * r2) / det, e2 = (d11 * r2 - d12 * r1) / det;
      st.q.set(r.qposToQ([q1, q2]));
      st.qd.set([d1, d2]);
      st.tau.set([t1, t2]);
      const qdd = forwardDynamics(model, st);
      const scale = Math.max(Math.abs(e1), Math.abs(e2), 1);
      expect(Math.abs(qdd[0] - e1) / scale).toBeLessThan(1e-12);
      expect(Math.abs(qdd[1] - e2) / scale).toBeLessThan(1e-12);
    }
  });
});
