/**
 * The JSON character format's validator and its JSON Schema. A small draft 2020-12 interpreter
 * written here (for the keywords the schema uses, which the test checks) confirms that the schema
 * and the hand-written validator accept the same documents and reject the same structural errors;
 * the validator alone also rejects what a schema cannot express (cycles, unknown parents,
 * duplicate names, ordered ranges, non-zero axes, positive semi-definite inertias).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { characterFromJSON, characterToJSON, FormatError, validateCharacter } from '../src/format/index.js';
import { humanoid, quadruped, snake } from '../src/presets/index.js';
import { importMJCF } from '../src/mjcf/index.js';

const SCHEMA = JSON.parse(readFileSync(new URL('../schema/character.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;

type Schema = boolean | Record<string, unknown>;
const KEYWORDS = new Set([
  '$schema', '$id', '$defs', '$ref', 'title', 'description', 'type', 'const', 'enum', 'properties', 'required',
  'additionalProperties', 'propertyNames', 'items', 'prefixItems', 'minItems', 'minLength', 'minimum', 'maximum',
  'exclusiveMinimum', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else',
]);

function typeOk(t: string, v: unknown): boolean {
  switch (t) {
    case 'object': return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array': return Array.isArray(v);
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'null': return v === null;
    case 'boolean': return typeof v === 'boolean';
    default: throw new Error(`type ${t}`);
  }
}

/** JSON Schema draft 2020-12 validation for the keywords in KEYWORDS (annotations ignored). */
function valid(s: Schema, v: unknown): boolean {
  if (s === true) return true;
  if (s === false) return false;
  if (typeof s.$ref === 'string') {
    const target = (s.$ref as string).replace(/^#\//, '').split('/').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], SCHEMA);
    if (!valid(target as Schema, v)) return false;
  }
  if (s.type !== undefined && !([] as string[]).concat(s.type as string).some((t) => typeOk(t, v))) return false;
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v)) return false;
  if (s.enum && !(s.enum as unknown[]).some((e) => JSON.stringify(e) === JSON.stringify(v))) return false;
  if (typeof v === 'number') {
    if (typeof s.minimum === 'number' && v < s.minimum) return false;
    if (typeof s.maximum === 'number' && v > s.maximum) return false;
    if (typeof s.exclusiveMinimum === 'number' && !(v > s.exclusiveMinimum)) return false;
  }
  if (typeof v === 'string' && typeof s.minLength === 'number' && v.length < s.minLength) return false;
  if (Array.isArray(v)) {
    const prefix = (s.prefixItems as Schema[] | undefined) ?? [];
    if (typeof s.minItems === 'number' && v.length < s.minItems) return false;
    for (let i = 0; i < v.length; i++) {
      if (i < prefix.length) { if (!valid(prefix[i], v[i])) return false; }
      else if (s.items !== undefined && !valid(s.items as Schema, v[i])) return false;
    }
  }
  if (typeOk('object', v)) {
    const o = v as Record<string, unknown>;
    const props = (s.properties as Record<string, Schema> | undefined) ?? {};
    for (const r of (s.required as string[] | undefined) ?? []) if (!(r in o)) return false;
    for (const [k, x] of Object.entries(o)) {
      if (k in props) { if (!valid(props[k], x)) return false; }
      else if (s.additionalProperties !== undefined && !valid(s.additionalProperties as Schema, x)) return false;
      if (s.propertyNames !== undefined && !valid(s.propertyNames as Schema, k)) return false;
    }
  }
  if (s.allOf && !(s.allOf as Schema[]).every((x) => valid(x, v))) return false;
  if (s.anyOf && !(s.anyOf as Schema[]).some((x) => valid(x, v))) return false;
  if (s.oneOf && (s.oneOf as Schema[]).filter((x) => valid(x, v)).length !== 1) return false;
  if (s.not !== undefined && valid(s.not as Schema, v)) return false;
  if (s.if !== undefined) {
    if (valid(s.if as Schema, v)) { if (s.then !== undefined && !valid(s.then as Schema, v)) return false; }
    else if (s.else !== undefined && !valid(s.else as Schema, v)) return false;
  }
  return true;
}

function walk(s: unknown, f: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(s)) s.forEach((x) => walk(x, f));
  else if (s && typeof s === 'object') {
    f(s as Record<string, unknown>);
    for (const [k, x] of Object.entries(s)) if (k !== 'properties' && k !== '$defs') walk(x, f);
    for (const k of ['properties', '$defs']) if ((s as Record<string, unknown>)[k]) Object.values((s as Record<string, Record<string, unknown>>)[k]).forEach((x) => walk(x, f));
  }
}

/** A small valid character: a free root, a revolute arm with a drive, a spherical hand. */
function base(): Record<string, any> {
  return {
    format: 'sinew-character',
    version: 1,
    name: 'test',
    links: [
      { name: 'root', parent: null, joint: { type: 'free' }, mass: 2, inertia: [0.1, 0.1, 0.1, 0, 0, 0], shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1] }] },
      {
        name: 'arm', parent: 'root',
        joint: { type: 'revolute', axis: [1, 0, 0], position: [0, 0.2, 0], limits: { lower: -1, upper: null }, damping: 0.1, drive: { kp: 10, kd: 1, maxTorque: 5 } },
        density: 1000, shapes: [{ type: 'capsule', radius: 0.03, halfLength: 0.1, position: [0, 0.13, 0] }],
      },
      {
        name: 'hand', parent: 'arm',
        joint: { type: 'spherical', position: [0, 0.26, 0], rotation: [0, 0, 0, 1], limits: { swing: [0.5, 0.3], twist: [-0.2, 0.2] }, drive: { settleTime: 0.3 } },
        mass: 0.3, shapes: [{ type: 'sphere', radius: 0.04 }],
      },
    ],
  };
}

describe('JSON Schema (draft 2020-12)', () => {
  it('declares draft 2020-12, resolves every $ref, and uses only keywords this test interprets', () => {
    expect(SCHEMA.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const used = new Set<string>();
    walk(SCHEMA, (o) => {
      Object.keys(o).forEach((k) => used.add(k));
      if (typeof o.$ref === 'string') {
        const name = (o.$ref as string).replace('#/$defs/', '');
        expect((SCHEMA.$defs as Record<string, unknown>)[name], o.$ref as string).toBeDefined();
      }
    });
    for (const k of used) expect(KEYWORDS.has(k), k).toBe(true);
  });

  it('accepts what the validator accepts: the README example, presets, an MJCF import, a hand-written character', () => {
    const mjcf = importMJCF(readFileSync(new URL('../../../../shared/data/mjcf/humanoid.xml', import.meta.url), 'utf8'));
    const readme = readFileSync(new URL('../src/format/README.md', import.meta.url), 'utf8');
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(readme)![1]);
    expect(characterFromJSON(example).model.nLinks).toBe(3);
    const docs = [example, base(), humanoid(), humanoid({ height: 1.55, mass: 52 }), quadruped(), snake({ segments: 5 }), mjcf.description];
    const built = characterFromJSON(humanoid());
    docs.push(characterToJSON(built.model, built.drives));
    for (const d of docs) {
      const json = JSON.parse(JSON.stringify(d));
      expect(() => validateCharacter(json)).not.toThrow();
      expect(valid(SCHEMA, json)).toBe(true);
    }
  });
});

describe('validation errors name the JSON path and what was expected', () => {
  type Case = [string, (d: Record<string, any>) => unknown, string, RegExp, boolean];
  // [what, mutation (returns the document), path, message, also rejected by the schema]
  const cases: Case[] = [
    ['not an object', () => [1, 2], '(root)', /expected an object \(got an array of 2\)/, true],
    ['wrong format tag', (d) => ({ ...d, format: 'urdf' }), 'format', /expected "sinew-character"/, true],
    ['unknown version', (d) => ({ ...d, version: 2 }), 'version', /expected 1 \(got 2\)/, true],
    ['no links', (d) => ({ ...d, links: [] }), 'links', /expected a non-empty array of links/, true],
    ['axis of two numbers', (d) => { d.links[1].joint.axis = [1, 0]; return d; }, 'links[1].joint.axis', /^links\[1\]\.joint\.axis: expected 3 numbers \(got an array of 2\)$/, true],
    ['axis with a string', (d) => { d.links[1].joint.axis = ['1', 0, 0]; return d; }, 'links[1].joint.axis[0]', /expected 3 finite numbers \(element 0 is the string "1"\)/, true],
    ['unknown joint type', (d) => { d.links[1].joint.type = 'hinge'; return d; }, 'links[1].joint.type', /expected one of fixed, revolute, prismatic, spherical, free \(got the string "hinge"\)/, true],
    ['revolute without axis', (d) => { delete d.links[1].joint.axis; return d; }, 'links[1].joint.axis', /a revolute joint needs an axis: expected 3 numbers/, true],
    ['negative mass', (d) => { d.links[0].mass = -1; return d; }, 'links[0].mass', /expected a number >= 0 \(got -1\)/, true],
    ['NaN mass', (d) => { d.links[0].mass = Number.NaN; return d; }, 'links[0].mass', /expected a finite number \(got NaN\)/, true],
    ['neither mass nor density', (d) => { delete d.links[2].mass; return d; }, 'links[2].mass', /missing required property \(give mass, or density with shapes\)/, true],
    ['mass and density', (d) => { d.links[2].density = 1000; return d; }, 'links[2].density', /give mass or density, not both/, true],
    ['inertia of five numbers', (d) => { d.links[0].inertia = [1, 1, 1, 0, 0]; return d; }, 'links[0].inertia', /expected 6 numbers/, true],
    ['unknown property', (d) => { d.links[1].joint.dampng = 1; return d; }, 'links[1].joint.dampng', /unknown property \(expected one of type, name, position/, true],
    ['swing beyond pi', (d) => { d.links[2].joint.limits.swing = [4, 0.3]; return d; }, 'links[2].joint.limits.swing[0]', /expected a number <= 3\.14159/, true],
    ['limits on a free joint', (d) => { d.links[0].joint.limits = { lower: 0, upper: 1 }; return d; }, 'links[0].joint.limits', /a free joint takes no limits/, true],
    ['drive on a free joint', (d) => { d.links[0].joint.drive = { kp: 1, kd: 1 }; return d; }, 'links[0].joint.drive', /a free joint cannot be driven/, true],
    ['drive without kd', (d) => { delete d.links[1].joint.drive.kd; return d; }, 'links[1].joint.drive.kd', /missing required property/, true],
    ['capsule without halfLength', (d) => { delete d.links[1].shapes[0].halfLength; return d; }, 'links[1].shapes[0].halfLength', /missing required property/, true],
    ['plane shape on a link', (d) => { d.links[1].shapes[0] = { type: 'plane' }; return d; }, 'links[1].shapes[0].type', /expected one of sphere, capsule, box, convex/, true],
    ['gravity of two numbers', (d) => ({ ...d, gravity: [0, -9.81] }), 'gravity', /expected 3 numbers/, true],
    ['stiffness on a spherical joint', (d) => { d.links[2].joint.stiffness = 3; return d; }, 'links[2].joint.stiffness', /only revolute and prismatic joints have a spring/, true],
    ['density without shapes', (d) => { delete d.links[1].shapes; return d; }, 'links[1].density', /a density needs sphere, capsule or box shapes/, true],
    ['name not a string', (d) => { d.links[0].name = 7; return d; }, 'links[0].name', /expected a non-empty string \(got 7\)/, true],
    // beyond the schema
    ['inertia not positive semi-definite', (d) => { d.links[0].inertia = [1, 1, 1, 2, 0, 0]; return d; }, 'links[0].inertia', /expected a positive semi-definite inertia/, false],
    ['inertia breaking the triangle inequality', (d) => { d.links[0].inertia = [1, 1, 3, 0, 0, 0]; return d; }, 'links[0].inertia', /break the triangle inequality/, false],
    ['unknown parent', (d) => { d.links[2].parent = 'elbow'; return d; }, 'links[2].parent', /no link is named "elbow"/, false],
    ['cycle', (d) => { d.links[1].parent = 'hand'; return d; }, 'links[1].parent', /the links "arm" -> "hand" -> "arm" form a cycle/, false],
    ['duplicate link name', (d) => { d.links[2].name = 'arm'; d.links[2].parent = 'root'; return d; }, 'links[2].name', /expected a unique link name \("arm" is also links\[1\]\)/, false],
    ['lower above upper', (d) => { d.links[1].joint.limits = { lower: 1, upper: -1 }; return d; }, 'links[1].joint.limits', /expected lower <= upper \(got 1 > -1\)/, false],
    ['zero quaternion', (d) => { d.links[2].joint.rotation = [0, 0, 0, 0]; return d; }, 'links[2].joint.rotation', /expected a non-zero quaternion/, false],
    ['zero axis', (d) => { d.links[1].joint.axis = [0, 0, 0]; return d; }, 'links[1].joint.axis', /expected a non-zero axis/, false],
  ];
  it(`rejects ${cases.length} malformed documents`, () => {
    expect(cases.length).toBe(32);
    expect(validateCharacter(base()).links.length).toBe(3);
    for (const [what, mutate, path, message, schemaRejects] of cases) {
      const doc = mutate(base());
      let err: unknown;
      try {
        validateCharacter(doc);
      } catch (e) {
        err = e;
      }
      expect(err, what).toBeInstanceOf(FormatError);
      expect((err as FormatError).path, what).toBe(path);
      expect((err as FormatError).message, what).toMatch(message);
      const json = JSON.parse(JSON.stringify(doc, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? 'NaN' : v)));
      expect(valid(SCHEMA, json), `${what}: schema`).toBe(!schemaRejects);
    }
  });

  it('characterFromJSON reports JSON syntax, builder-level and mass-matrix problems by path', () => {
    expect(() => characterFromJSON('{"format": ')).toThrow(FormatError);
    expect(() => characterFromJSON('{"format": ')).toThrow(/^\(root\): expected JSON text/);
    // a massless leaf: no mass for its joint to move
    const d = base();
    d.links[2].mass = 0;
    delete d.links[2].shapes;
    expect(() => characterFromJSON(d)).toThrow(/^links\[2\]: expected a positive definite joint-space mass matrix, but joint "hand" moves no mass/);
  });
});
