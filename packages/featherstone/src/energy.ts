/**
 * Energy and momentum of an articulated body. Require forwardKinematics (with velocities) on the
 * state first.
 */
import { forceLinkToWorld } from './aba.js';
import type { Model } from './model.js';
import { mulMat6Vec, shiftMomentum, type Arr } from './spatial.js';
import type { State } from './state.js';

const ENERGIES = new Float64Array(2);

/** Kinetic energy 1/2 sum v_i . I_i v_i (joules). */
export function kineticEnergy(model: Model, state: State): number {
  energiesInto(model, state, ENERGIES, 0);
  return ENERGIES[0];
}

/** Potential energy in the state's gravity, zero at the world origin: -sum m_i g . c_i (joules). */
export function potentialEnergy(model: Model, state: State): number {
  energiesInto(model, state, ENERGIES, 0);
  return ENERGIES[1];
}

/**
 * Kinetic energy 1/2 sum v_i . I_i v_i into out[k] and potential energy -sum m_i g . c_i (zero at
 * the world origin) into out[k + 1] (J); written to an array, so that a caller stepping every
 * frame boxes no returned double.
 */
export function energiesInto(model: Model, state: State, out: Float64Array, k: number): void {
  const w = state.work, v = w.v, tmp = w.tmp, g = state.gravity, wg = w.energiesGravity;
  // (the energies of the same work.v and work.pose, in the same gravity, are those computed last)
  if (w.energiesValid && model === state.model && g[0] === wg[0] && g[1] === wg[1] && g[2] === wg[2]) {
    out[k] = w.energies[0];
    out[k + 1] = w.energies[1];
    return;
  }
  let e = 0;
  for (let i = 0; i < model.nLinks; i++) {
    mulMat6Vec(model.I, 36 * i, v, 6 * i, tmp, 0);
    for (let c = 0; c < 6; c++) e += v[6 * i + c] * tmp[c];
  }
  out[k] = 0.5 * e;
  w.energies[0] = out[k];
  const P = w.pose;
  e = 0;
  for (let i = 0; i < model.nLinks; i++) {
    const po = 12 * i, co = 3 * i;
    const cx = model.com[co], cy = model.com[co + 1], cz = model.com[co + 2];
    const wx = P[po] * cx + P[po + 1] * cy + P[po + 2] * cz + P[po + 9];
    const wy = P[po + 3] * cx + P[po + 4] * cy + P[po + 5] * cz + P[po + 10];
    const wz = P[po + 6] * cx + P[po + 7] * cy + P[po + 8] * cz + P[po + 11];
    e -= model.mass[i] * (g[0] * wx + g[1] * wy + g[2] * wz);
  }
  out[k + 1] = e;
  w.energies[1] = e;
  wg[0] = g[0]; wg[1] = g[1]; wg[2] = g[2];
  w.energiesValid = model === state.model;
}

/**
 * Spatial momentum of the whole body in world coordinates: out[0..2] angular momentum about the
 * world origin, out[3..5] linear momentum.
 */
export function momentum(model: Model, state: State, out: Arr): Arr {
  const { v, tmp, pose } = state.work;
  out.fill(0, 0, 6);
  for (let i = 0; i < model.nLinks; i++) {
    mulMat6Vec(model.I, 36 * i, v, 6 * i, tmp, 0);
    forceLinkToWorld(pose, 12 * i, tmp, 0, tmp, 6);
    for (let k = 0; k < 6; k++) out[k] += tmp[6 + k];
  }
  return out;
}

/**
 * Spatial momentum with the angular part about the body's centre of mass (world coordinates):
 * L_c = L_o - c x p, then the linear momentum p. Requires forward kinematics with velocities.
 */
export function momentumAboutCenterOfMass(model: Model, state: State, out: Arr): Arr {
  momentum(model, state, out);
  const c = state.work.tmp;
  centerOfMass(model, state, c);
  shiftMomentum(out, 0, c, 0, -1);
  return out;
}

/** World position of the whole body's centre of mass. */
export function centerOfMass(model: Model, state: State, out: Arr): Arr {
  const P = state.work.pose;
  let m = 0, x = 0, y = 0, z = 0;
  for (let i = 0; i < model.nLinks; i++) {
    const po = 12 * i, co = 3 * i, mi = model.mass[i];
    const cx = model.com[co], cy = model.com[co + 1], cz = model.com[co + 2];
    x += mi * (P[po] * cx + P[po + 1] * cy + P[po + 2] * cz + P[po + 9]);
    y += mi * (P[po + 3] * cx + P[po + 4] * cy + P[po + 5] * cz + P[po + 10]);
    z += mi * (P[po + 6] * cx + P[po + 7] * cy + P[po + 8] * cz + P[po + 11]);
    m += mi;
  }
  out[0] = x / m; out[1] = y / m; out[2] = z / m;
  return out;
}
