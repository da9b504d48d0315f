/**
 * ModelBuilder refuses bad input with a ModelError whose path names the link and the field, and
 * whose message says what was expected. "NaN in any number" is checked exhaustively: every numeric
 * leaf of two complete link descriptions (a limited revolute joint with every option and a shape
 * of each kind, and a limited spherical joint) is set to NaN in turn.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder, ModelError, type LinkSpec } from '../src/index.js';

const ROOT: LinkSpec = { name: 'pelvis', parent: null, joint: { type: 'free' }, mass: 10, inertia: [0.1, 0.1, 0.1, 0, 0, 0] };

function withRoot(): ModelBuilder {
  const b = new ModelBuilder();
  b.addLink(ROOT);
  return b;
}

/** The error thrown by adding `spec` as the second link (after the root), or undefined. */
function errorOf(spec: unknown): ModelError | undefined {
  try {
    withRoot().addLink(spec as LinkSpec);
  } catch (e) {
    if (e instanceof ModelError) return e;
    throw e;
  }
  return undefined;
}

function expectError(spec: unknown, path: string, message: RegExp): void {
  const e = errorOf(spec);
  expect(e, `expected a ModelError at ${path}`).toBeInstanceOf(ModelError);
  expect(e!.path).toBe(path);
  expect(e!.message).toMatch(message);
  expect(e!.message.startsWith(`${path}: `)).toBe(true);
}

function thigh(): LinkSpec {
  return {
    name: 'thigh',
    parent: 'pelvis',
    joint: {
      type: 'revolute', axis: [1, 0, 0], position: [0.1, -0.1, 0], rotation: [0, 0, 0, 1],
      limits: { lower: -1, upper: 2 }, damping: 0.5, armature: 0.01, stiffness: 2, springRef: 0.1,
    },
    mass: 7,
    com: [0, -0.2, 0],
    inertia: [0.1, 0.02, 0.1, 0.001, 0, 0.002],
    shapes: [
      { geometry: { type: 'capsule', radius: 0.06, halfLength: 0.15 }, position: [0, -0.2, 0], rotation: [0, 0, 0, 1], friction: 0.9, restitution: 0.1 },
      { geometry: { type: 'sphere', radius: 0.05 } },
      { geometry: { type: 'box', halfExtents: [0.05, 0.1, 0.05] } },
      { geometry: { type: 'convex', points: [0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1] } },
    ],
  };
}

function shoulder(): LinkSpec {
  return {
    name: 'upperArm',
    parent: 0,
    joint: { type: 'spherical', position: [0.2, 0.4, 0], limits: { twistAxis: [0, -1, 0], swing: [1.2, 0.8], twist: [-0.5, 0.5] } },
    mass: 2,
    inertia: [0.01, 0.002, 0.01, 0, 0, 0],
  };
}

const PREFIX = { thigh: 'links[1] "thigh"', upperArm: 'links[1] "upperArm"' } as const;

/** Paths of every numeric leaf: ['joint', 'axis', 0], ... */
function numericLeaves(x: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof x === 'number') return [path];
  if (Array.isArray(x)) return x.flatMap((v, k) => numericLeaves(v, [...path, k]));
  if (x && typeof x === 'object') return Object.entries(x).flatMap(([k, v]) => numericLeaves(v, [...path, k]));
  return [];
}

function setAt(x: unknown, path: (string | number)[], value: number): void {
  let o = x as Record<string | number, unknown>;
  for (let k = 0; k < path.length - 1; k++) o = o[path[k]] as Record<string | number, unknown>;
  o[path[path.length - 1]] = value;
}

/** 'joint.axis[0]' style name of a leaf path. */
function fieldName(path: (string | number)[]): string {
  return path.map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? p : `.${p}`)).join('');
}

describe('ModelBuilder errors name the link and the field', () => {
  it('accepts the complete descriptions the NaN cases start from', () => {
    expect(errorOf(thigh())).toBeUndefined();
    expect(errorOf(shoulder())).toBeUndefined();
  });

  it('refuses a parent that comes later or is the link itself (a cycle) and a missing parent', () => {
    expectError({ ...thigh(), parent: 'shin' }, `${PREFIX.thigh}.parent`, /unknown parent link "shin" .*before their children.*cycle/);
    expectError({ ...thigh(), parent: 1 }, `${PREFIX.thigh}.parent`, /parent index 1 must be less than the link's own index 1.*cycle/);
    expectError({ ...thigh(), parent: 7 }, `${PREFIX.thigh}.parent`, /parent index 7 must be less than the link's own index 1/);
    expectError({ ...thigh(), parent: 'thigh' }, `${PREFIX.thigh}.parent`, /its own parent \(cycle\)/);
    expectError({ ...thigh(), parent: 'ghost' }, `${PREFIX.thigh}.parent`, /unknown parent link "ghost"/);
    expectError({ ...thigh(), parent: -3 }, `${PREFIX.thigh}.parent`, /invalid parent index -3/);
    expectError({ ...thigh(), parent: 0.5 }, `${PREFIX.thigh}.parent`, /expected a link index, a link name, or -1\/null/);
  });

  it('refuses a non-positive or non-finite mass', () => {
    for (const m of [0, -1, -0, Infinity]) expectError({ ...thigh(), mass: m }, `${PREFIX.thigh}.mass`, /expected a positive finite mass, got/);
    expectError({ ...thigh(), mass: 0 }, `${PREFIX.thigh}.mass`, /got 0$/);
  });

  it('refuses an inertia that is not symmetric positive definite', () => {
    const bad = [
      [-0.1, 0.1, 0.1, 0, 0, 0], // negative moment
      [0.1, 0.1, 0.1, 0.2, 0, 0], // indefinite through a product of inertia
      [0.1, 0.1, 0, 0, 0, 0], // singular
      [0, 0, 0, 0, 0, 0],
    ];
    for (const I of bad) expectError({ ...thigh(), inertia: I }, `${PREFIX.thigh}.inertia`, /is not symmetric positive definite/);
    expectError({ ...thigh(), inertia: [0.1, 0.1, 0.1] }, `${PREFIX.thigh}.inertia`, /expected 6 numbers/);
  });

  it('refuses an unknown joint type, including names inherited by every object', () => {
    for (const t of ['hinge', 'toString', 'constructor', 'Revolute']) {
      expectError({ ...thigh(), joint: { ...thigh().joint, type: t } }, `${PREFIX.thigh}.joint.type`, new RegExp(`unknown joint type "${t}" \\(expected one of fixed, revolute, prismatic, spherical, free\\)`));
    }
  });

  it('refuses a zero or missing axis on revolute and prismatic joints', () => {
    for (const type of ['revolute', 'prismatic'] as const) {
      expectError({ ...thigh(), joint: { ...thigh().joint, type, axis: [0, 0, 0] } }, `${PREFIX.thigh}.joint.axis`, /zero-length axis/);
      expectError({ ...thigh(), joint: { type } }, `${PREFIX.thigh}.joint.axis`, new RegExp(`a ${type} joint needs an axis`));
    }
  });

  it('refuses NaN in every number of a link description, naming the field (and the element)', () => {
    let cases = 0;
    for (const make of [thigh, shoulder]) {
      const prefix = PREFIX[make().name as keyof typeof PREFIX];
      for (const leaf of numericLeaves(make())) {
        if (leaf[0] === 'parent') continue; // a numeric parent index: NaN is not an index (checked above)
        const spec = make();
        setAt(spec, leaf, NaN);
        const e = errorOf(spec);
        const field = fieldName(leaf);
        expect(e, `NaN at ${field} was accepted`).toBeInstanceOf(ModelError);
        // the path is the field itself, or the vector it is an element of
        const last = leaf[leaf.length - 1];
        const vector = typeof last === 'number' ? fieldName(leaf.slice(0, -1)) : field;
        expect([`${prefix}.${field}`, `${prefix}.${vector}`], `NaN at ${field}: ${e!.message}`).toContain(e!.path);
        expect(e!.message).toMatch(/NaN/);
        if (typeof last === 'number' && e!.path === `${prefix}.${vector}` && /element/.test(e!.message)) expect(e!.message).toMatch(new RegExp(`element ${last} is NaN`));
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(40);
  });

  it('refuses NaN gravity and bad shape sizes', () => {
    expect(() => new ModelBuilder({ gravity: [0, NaN, 0] })).toThrow(/^model\.gravity: expected 3 finite numbers, element 1 is NaN$/);
    expect(() => new ModelBuilder().setGravity([0, -9.81, Infinity])).toThrow(/^model\.gravity: .*element 2 is Infinity$/);
    const spec = thigh();
    spec.shapes = [{ geometry: { type: 'sphere', radius: -1 } }];
    expectError(spec, `${PREFIX.thigh}.shapes[0].geometry.radius`, /expected a finite number > 0, got -1/);
    spec.shapes = [{ geometry: { type: 'cylinder', radius: 1 } as never }];
    expectError(spec, `${PREFIX.thigh}.shapes[0].geometry.type`, /unknown geometry type "cylinder"/);
  });

  it('an empty model cannot be built', () => {
    expect(() => new ModelBuilder().build()).toThrow(ModelError);
    expect(() => new ModelBuilder().build()).toThrow(/^model: no links$/);
  });
});
