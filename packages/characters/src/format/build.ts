/**
 * characterFromJSON: a validated character description -> featherstone Model and drive gains.
 *
 * Massless and point-mass links. ModelBuilder refuses a link whose mass is not positive or whose
 * inertia is singular, since that is nearly always an input error. The dynamics are nevertheless
 * well defined for such a link as long as the joint-space mass matrix stays positive definite
 * (Featherstone 2008, section 7.3: the articulated-body algorithm only inverts
 * D_i = S_i^T I^A_i S_i, which the link's descendants keep positive). A MuJoCo body with several
 * joints is exactly that: a chain of massless links between the joints. Such links are added with a
 * placeholder mass and inertia, and right after build(), before the model is handed out, their
 * true mass properties are written into the model's mass, com, inertiaCom and spatial inertia I
 * (the same arrays build() fills, by the same rigidBodyInertia). The mass matrix at the neutral pose
 * is then factored to check that it is positive definite.
 */
import {
  choleskyFactor,
  forwardDynamics,
  massMatrix,
  ModelBuilder,
  ModelError,
  rigidBodyInertia,
  State,
  type JointSpec,
  type Model,
  type SphericalLimits,
} from '@sinew/featherstone';
import { FormatError } from './errors.js';
import { jsonSyntaxError } from './json-text.js';
import { rememberInputs, type BuilderInputs } from './exact.js';
import { gainsFromSettleTime } from './drives.js';
import { linkMassProps } from './link-mass.js';
import { isPositiveDefiniteInertia, type MassProps, type Vec3 } from './math.js';
import { shapeToDesc } from './shapes.js';
import type { CharacterDescription, JointDescription, JointDrive } from './types.js';
import { validateCharacter } from './validate.js';

/** A character built from its description: the Model, the drives of its joints, and the validated description. */
export interface Character {
  model: Model;
  /** Drive gains of the joints that have a drive, in link order. */
  drives: JointDrive[];
  /** The validated description the model was built from. */
  description: CharacterDescription;
}

const PLACEHOLDER_INERTIA = [1, 1, 1, 0, 0, 0];

function jointSpec(j: JointDescription): JointSpec {
  const s: JointSpec = { type: j.type };
  if (j.name !== undefined) s.name = j.name;
  if (j.axis) s.axis = j.axis.slice();
  if (j.position) s.position = j.position.slice();
  if (j.rotation) s.rotation = j.rotation.slice();
  if (j.limits) {
    if ('swing' in j.limits) {
      const l: SphericalLimits = { swing: Array.isArray(j.limits.swing) ? [j.limits.swing[0], j.limits.swing[1]] : j.limits.swing, twist: [j.limits.twist[0], j.limits.twist[1]] };
      if (j.limits.twistAxis) (l as { twistAxis?: Vec3 }).twistAxis = j.limits.twistAxis.slice() as Vec3;
      if (j.limits.swingCentre) l.swingCentre = [j.limits.swingCentre[0], j.limits.swingCentre[1]];
      s.limits = l;
    } else {
      s.limits = { lower: j.limits.lower ?? -Infinity, upper: j.limits.upper ?? Infinity };
    }
  }
  for (const k of ['damping', 'armature', 'stiffness', 'springRef'] as const) if (j[k] !== undefined) s[k] = j[k];
  return s;
}

/** Writes a link's true mass properties into a built model (see the note at the top). */
function setLinkMass(model: Model, i: number, mp: MassProps): void {
  model.mass[i] = mp.mass;
  model.com.set(mp.com, 3 * i);
  model.inertiaCom.set(mp.inertia, 6 * i);
  rigidBodyInertia(mp.mass, mp.com[0], mp.com[1], mp.com[2], mp.inertia, model.I, 36 * i);
}

/** Cholesky factorisation of the row-major n x n matrix M; returns the first dof with a pivot not above 1e-12 of the largest diagonal, or -1. */
function firstSingularDof(M: Float64Array, n: number): number {
  const scale = Math.max(...Array.from({ length: n }, (_, k) => Math.abs(M[k * n + k])), 1e-300);
  return choleskyFactor(M, n, new Float64Array(n * n), 1e-12 * scale);
}

/**
 * Huge but finite numbers (lengths or masses near 1e308) overflow in the spatial inertia or the
 * joint transforms: such a model is refused, naming the first link whose numbers overflowed.
 */
function checkFiniteModel(model: Model): void {
  const fields: [string, Float64Array, number][] = [
    ['mass', model.mass, 1], ['centre of mass', model.com, 3], ['inertia', model.inertiaCom, 6],
    ['spatial inertia (mass times the square of the centre-of-mass offset)', model.I, 36], ['joint frame', model.treeX, 12],
  ];
  for (let i = 0; i < model.nLinks; i++) {
    for (const [what, a, k] of fields) {
      for (let j = 0; j < k; j++) {
        const v = a[k * i + j];
        if (!Number.isFinite(v)) throw new FormatError(`links[${i}]`, `expected lengths, masses and inertias whose ${what} is finite, got ${v} (the numbers overflow float64)`);
      }
    }
  }
}

/**
 * The dynamics at the neutral pose must be finite and the mass matrix positive: lengths and masses
 * far from a character's (1e154 m, 1e-300 kg) overflow or underflow inside the algorithms even
 * when every number of the model is finite. Refused naming the link of the first bad joint.
 */
function checkFiniteDynamics(model: Model, M: Float64Array): void {
  const n = model.nv;
  const fail = (d: number, what: string, link = model.dofLink[d]): never => {
    const i = link;
    throw new FormatError(`links[${i}]`, `expected lengths, masses and inertias of a size float64 dynamics can hold, but joint "${model.jointNames[i]}" ${what} at the neutral pose`);
  };
  for (let d = 0; d < n; d++) for (let k = 0; k < n; k++) if (!Number.isFinite(M[d * n + k])) fail(d, `has a non-finite mass matrix entry (${M[d * n + k]})`);
  const d0 = firstNonPositivePivot(M, n);
  if (d0 >= 0) fail(d0, 'moves no mass (its mass matrix pivot is not positive: the numbers underflow or cancel)');
  const state = new State(model);
  let qdd: Float64Array;
  try {
    qdd = forwardDynamics(model, state);
  } catch (e) {
    const msg = (e as Error).message;
    const j = /joint "([^"]+)"/.exec(msg);
    return fail(0, `has singular dynamics (${msg})`, j && model.hasJoint(j[1]) ? model.joint(j[1]).link : model.dofLink[0]);
  }
  for (let d = 0; d < n; d++) if (!Number.isFinite(qdd[d])) fail(d, `has a non-finite acceleration (${qdd[d]})`);
}

/** Cholesky of M with an absolute test: the first dof whose pivot is not a positive finite number, or -1. */
function firstNonPositivePivot(M: Float64Array, n: number): number {
  return choleskyFactor(M, n, new Float64Array(n * n), 0, Number.MAX_VALUE);
}

/**
 * Builds a character from the JSON format: a parsed object or JSON text. Throws FormatError naming
 * the JSON path of the first problem.
 */
export function characterFromJSON(json: unknown): Character {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (e) {
      const at = jsonSyntaxError(json);
      const where = at ? `line ${at.line}, column ${at.column}: expected ${at.expected}, found ${at.found}; ` : '';
      throw new FormatError('(root)', `expected JSON text (${where}${(e as Error).message})`);
    }
  }
  const description = validateCharacter(value);
  const b = new ModelBuilder(description.gravity ? { gravity: description.gravity } : {});
  const singular: { index: number; mp: MassProps }[] = [];
  const inputs: BuilderInputs = { rotation: [], axis: [], twistAxis: [] };
  description.links.forEach((link, i) => {
    const mp = linkMassProps(link);
    const joint = jointSpec(link.joint);
    const regular = mp.mass > 0 && isPositiveDefiniteInertia(mp.inertia);
    if (!regular) singular.push({ index: i, mp });
    inputs.rotation.push(link.joint.rotation?.slice() as BuilderInputs['rotation'][number]);
    inputs.axis.push(link.joint.axis?.slice() as Vec3 | undefined);
    inputs.twistAxis.push(link.joint.limits && 'swing' in link.joint.limits ? (link.joint.limits.twistAxis?.slice() as Vec3 | undefined) : undefined);
    try {
      b.addLink({
        name: link.name,
        parent: link.parent,
        joint,
        mass: regular ? mp.mass : 1,
        com: mp.com,
        inertia: regular ? mp.inertia : PLACEHOLDER_INERTIA,
        shapes: (link.shapes ?? []).map(shapeToDesc),
      });
    } catch (e) {
      if (e instanceof ModelError) throw new FormatError(`links[${i}]`, e.message);
      throw e;
    }
  });
  const model = b.build();
  for (const { index, mp } of singular) setLinkMass(model, index, mp);
  checkFiniteModel(model);

  let M: Float64Array | undefined;
  const mass = (): Float64Array => {
    if (!M) M = massMatrix(model, new State(model), new Float64Array(model.nv * model.nv));
    return M;
  };
  if (singular.length > 0) {
    const d = firstSingularDof(mass(), model.nv);
    if (d >= 0) {
      const i = model.dofLink[d];
      throw new FormatError(`links[${i}]`, `expected a positive definite joint-space mass matrix, but joint "${model.jointNames[i]}" moves no mass at the neutral pose (a massless link needs massive descendants that its joint moves)`);
    }
  }
  checkFiniteDynamics(model, mass());

  const drives: JointDrive[] = [];
  description.links.forEach((link, i) => {
    const d = link.joint.drive;
    if (!d) return;
    let kp: number, kd: number;
    if ('settleTime' in d) {
      const Mx = mass();
      const v0 = model.vOffset[i], nv = model.jointNv[i];
      let inertia = 0;
      for (let k = 0; k < nv; k++) inertia += Mx[(v0 + k) * model.nv + v0 + k];
      ({ kp, kd } = gainsFromSettleTime(inertia / nv, d.settleTime, d.dampingRatio ?? 1));
    } else {
      ({ kp, kd } = d);
    }
    drives.push({ joint: model.jointNames[i], kp, kd, maxTorque: d.maxTorque ?? Infinity });
  });
  rememberInputs(model, inputs);
  return { model, drives, description };
}
