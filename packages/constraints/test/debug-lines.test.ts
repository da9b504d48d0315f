/**
 * World.debugLines: the segments of known scenes checked against geometry computed here from the
 * bodies' poses (Body.linkPosition / linkRotation): a box resting on a plane (its 12 edges, the
 * plane's square and normal, one red segment per contact point of the contact buffer, along its
 * normal, as long as debugForceScale times the normal force, the forces carrying the box's
 * weight), the outlines of a sphere and a capsule (every end at the radius), a triangle mesh's and a
 * heightfield's triangle edges (each once, at their poses), a too-small array
 * (the count is still returned, nothing written past its end), the world's own growing array, and
 * stepping with debugLines every frame keeps the same bits as without.
 */
import { describe, expect, it } from 'vitest';
import { DEBUG_LINE_STRIDE, DebugLines, PointPin, RigidBody, World } from '../src/index.js';
import { humanoidTree } from './humanoid-fixture.js';
import { CONTACT_F64_STRIDE, CONTACT_NORMAL, CONTACT_POINT_A } from '../src/internals.js';
import { stateBits, sameBits } from './state-bits.js';

type V = [number, number, number];

function matrixOfQuaternion(q: ArrayLike<number>): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

interface Segment { a: V; b: V; c: V }

function segments(data: Float32Array, n: number): Segment[] {
  const out: Segment[] = [];
  for (let k = 0; k < n; k++) {
    const o = DEBUG_LINE_STRIDE * k;
    out.push({ a: [data[o], data[o + 1], data[o + 2]], b: [data[o + 3], data[o + 4], data[o + 5]], c: [data[o + 6], data[o + 7], data[o + 8]] });
  }
  return out;
}

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number): boolean => Math.abs(a[0] - b[0]) < tol && Math.abs(a[1] - b[1]) < tol && Math.abs(a[2] - b[2]) < tol;
const isColour = (s: Segment, c: V): boolean => close(s.c, c, 1e-6);
const GREEN: V = [0.3, 0.9, 0.4], GREY: V = [0.6, 0.6, 0.6], RED: V = [1, 0.2, 0.2], BLUE: V = [0.4, 0.5, 0.9];

function boxOnPlane(events: boolean): { world: World; he: V; mass: number } {
  const world = new World({ contactEvents: events });
  world.addStatic({ geometry: { type: 'plane' } });
  const he: V = [0.3, 0.2, 0.4], mass = 5;
  world.addBody(RigidBody.box(he, { mass }), { position: [0.5, he[1] + 0.002, -0.25], rotation: [0, Math.sin(0.3), 0, Math.cos(0.3)], name: 'crate' });
  for (let s = 0; s < 20; s++) world.step(1 / 60);
  return { world, he, mass };
}

describe('World.debugLines', () => {
  it("a box on a plane: its 12 edges at the box's pose, the plane's outline, each contact of the buffer along its normal", () => {
    const { world, he } = boxOnPlane(false);
    const out = new Float32Array(9 * 200);
    const n = world.debugLines(out);
    const segs = segments(out, n);
    const box = world.bodies[0];
    const p = box.linkPosition(0), R = matrixOfQuaternion(box.linkRotation(0));
    const corner = (c: number): V => {
      const l = [(c & 1 ? 1 : -1) * he[0], (c & 2 ? 1 : -1) * he[1], (c & 4 ? 1 : -1) * he[2]];
      return [0, 1, 2].map((r) => p[r] + R[3 * r] * l[0] + R[3 * r + 1] * l[1] + R[3 * r + 2] * l[2]) as V;
    };
    // the 12 edges: corner pairs differing in one bit
    const edges: [V, V][] = [];
    for (let c = 0; c < 8; c++) for (const bit of [1, 2, 4]) if (!(c & bit)) edges.push([corner(c), corner(c | bit)]);
    const boxSegs = segs.filter((s) => isColour(s, GREEN) || isColour(s, BLUE));
    expect(boxSegs.length).toBe(12);
    for (const [a, b] of edges) {
      const found = boxSegs.filter((s) => (close(s.a, a, 1e-6) && close(s.b, b, 1e-6)) || (close(s.a, b, 1e-6) && close(s.b, a, 1e-6)));
      expect(found.length).toBe(1);
    }
    const planeSegs = segs.filter((s) => isColour(s, GREY));
    expect(planeSegs.length).toBe(5);
    expect(planeSegs.filter((s) => s.a[1] === 0 && s.b[1] === 0).length).toBe(4);
    expect(planeSegs.some((s) => close(s.a, [0, 0, 0], 1e-12) && close(s.b, [0, 1, 0], 1e-12))).toBe(true);
    // contacts: one red segment per point of the buffer, from point A along 0.1 m of its normal
    const cb = world.collision.contacts, f = cb.f64;
    const red = segs.filter((s) => isColour(s, RED));
    expect(cb.count).toBeGreaterThanOrEqual(4);
    expect(red.length).toBe(cb.count);
    for (let k = 0; k < cb.count; k++) {
      const o = k * CONTACT_F64_STRIDE, a = [f[o + CONTACT_POINT_A], f[o + CONTACT_POINT_A + 1], f[o + CONTACT_POINT_A + 2]];
      const nrm = [f[o + CONTACT_NORMAL], f[o + CONTACT_NORMAL + 1], f[o + CONTACT_NORMAL + 2]];
      const s = red[k];
      expect(close(s.a, a, 1e-6)).toBe(true);
      expect(close(s.b, a.map((x, i) => x + 0.1 * nrm[i]), 1e-6)).toBe(true);
    }
    expect(n).toBe(12 + 5 + cb.count);
  });

  it("with contact events on, each contact's segment is debugForceScale times its normal force, and they carry the box's weight", () => {
    const { world, mass } = boxOnPlane(true);
    world.debugForceScale = 0.02;
    const forces: { p: V; n: V; f: number }[] = [];
    world.contactForces((c) => { forces.push({ p: [c.point[0], c.point[1], c.point[2]], n: [c.normal[0], c.normal[1], c.normal[2]], f: c.normalForce }); });
    const count = world.debugLines();
    const red = segments(world.debugLineData, count).filter((s) => isColour(s, RED));
    expect(red.length).toBe(forces.length);
    let total = 0;
    red.forEach((s, k) => {
      const { p, n, f } = forces[k];
      expect(close(s.a, p, 1e-6)).toBe(true);
      expect(close(s.b, p.map((x, i) => x + 0.02 * f * n[i]), 1e-6)).toBe(true);
      total += Math.hypot(s.b[0] - s.a[0], s.b[1] - s.a[1], s.b[2] - s.a[2]) / 0.02;
    });
    // a box at rest: its contacts' normal forces sum to its weight (within 2 %)
    expect(Math.abs(total - mass * 9.81) / (mass * 9.81)).toBeLessThan(0.02);
  });

  it('the outline of a sphere lies on the sphere; that of a capsule at its radius from its axis', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const q = [0.2, 0.4, -0.1, 0.9], len = Math.hypot(...q), rot = q.map((x) => x / len);
    const ball = world.addBody(RigidBody.sphere(0.35, { mass: 1 }), { position: [1, 2, 3] });
    const pill = world.addBody(RigidBody.capsule(0.5, 0.2, { mass: 1 }), { position: [-1, 1, 0], rotation: rot });
    const n = world.debugLines();
    const segs = segments(world.debugLineData, n);
    expect(segs.length).toBe(48 + 68);
    const c = ball.linkPosition(0);
    const p = pill.linkPosition(0), R = matrixOfQuaternion(pill.linkRotation(0)), axis: V = [R[1], R[4], R[7]];
    let onBall = 0, onPill = 0;
    for (const s of segs) {
      for (const e of [s.a, s.b]) {
        const dBall = Math.hypot(e[0] - c[0], e[1] - c[1], e[2] - c[2]);
        if (Math.abs(dBall - 0.35) < 1e-5) { onBall++; continue; }
        const rel = [e[0] - p[0], e[1] - p[1], e[2] - p[2]];
        const t = Math.max(-0.5, Math.min(0.5, rel[0] * axis[0] + rel[1] * axis[1] + rel[2] * axis[2]));
        const d = Math.hypot(rel[0] - t * axis[0], rel[1] - t * axis[1], rel[2] - t * axis[2]);
        expect(Math.abs(d - 0.2)).toBeLessThan(1e-5);
        onPill++;
      }
    }
    expect(onBall).toBe(2 * 48);
    expect(onPill).toBe(2 * 68);
  });

  it('a triangle mesh draws each edge of its triangles once, a heightfield the edges of its triangles, both at their poses', () => {
    const world = new World({ gravity: [0, 0, 0] });
    // a mesh of two quads (four triangles, two of the same quad sharing the diagonal; the quads
    // share an edge), and a 3 x 4 heightfield; both rotated and moved
    const vertices = [0, 0, 0, 1, 0.2, 0, 1, 0.1, 1, 0, 0, 1, 2, 0.3, 0, 2, 0.4, 1];
    const indices = [0, 2, 1, 0, 3, 2, 1, 2, 5, 1, 5, 4];
    const qm = [0.1, 0.3, 0.2, 0.9], qh = [-0.2, 0.1, 0.05, 0.95];
    const unitQ = (q: number[]) => q.map((x) => x / Math.hypot(...q));
    const pm: V = [1, 2, -1], ph: V = [-3, 0.5, 2];
    world.addStatic({ geometry: { type: 'trimesh', vertices, indices }, position: pm, rotation: unitQ(qm) });
    const rows = 3, cols = 4, sx = 0.5, sz = 0.7, heights = [0, 0.1, 0.3, 0.2, 0.5, 0.4, 0.1, 0, 0.2, 0.2, 0.6, 0.3];
    world.addStatic({ geometry: { type: 'heightfield', rows, cols, spacingX: sx, spacingZ: sz, heights }, position: ph, rotation: unitQ(qh) });
    const toWorld = (q: number[], p: V, l: number[]): V => {
      const R = matrixOfQuaternion(unitQ(q));
      return [0, 1, 2].map((r) => p[r] + R[3 * r] * l[0] + R[3 * r + 1] * l[1] + R[3 * r + 2] * l[2]) as V;
    };
    // the expected segments: every edge of every triangle, once, as unordered pairs of world points
    const expected: [V, V][] = [];
    const addEdge = (a: V, b: V) => {
      if (!expected.some(([x, y]) => (close(x, a, 1e-9) && close(y, b, 1e-9)) || (close(x, b, 1e-9) && close(y, a, 1e-9)))) expected.push([a, b]);
    };
    for (let t = 0; t < indices.length; t += 3) {
      const c = [0, 1, 2].map((k) => toWorld(qm, pm, vertices.slice(3 * indices[t + k], 3 * indices[t + k] + 3)));
      addEdge(c[0], c[1]); addEdge(c[1], c[2]); addEdge(c[2], c[0]);
    }
    const meshEdges = expected.length;
    const hv = (r: number, c: number): V => toWorld(qh, ph, [c * sx, heights[r * cols + c], r * sz]);
    for (let r = 0; r < rows - 1; r++) for (let c = 0; c < cols - 1; c++) {
      for (const tri of [[hv(r, c), hv(r + 1, c), hv(r + 1, c + 1)], [hv(r, c), hv(r + 1, c + 1), hv(r, c + 1)]]) {
        addEdge(tri[0], tri[1]); addEdge(tri[1], tri[2]); addEdge(tri[2], tri[0]);
      }
    }
    expect(meshEdges).toBe(9);
    expect(expected.length - meshEdges).toBe(rows * (cols - 1) + cols * (rows - 1) + (rows - 1) * (cols - 1)); // along x, along z, diagonals
    const n = world.debugLines();
    const segs = segments(world.debugLineData, n);
    expect(segs.length).toBe(expected.length);
    for (const s of segs) {
      expect(isColour(s, GREY)).toBe(true);
      const k = expected.findIndex(([a, b]) => (close(s.a, a, 1e-5) && close(s.b, b, 1e-5)) || (close(s.a, b, 1e-5) && close(s.b, a, 1e-5)));
      expect(k, `segment [${s.a}] [${s.b}]`).toBeGreaterThanOrEqual(0);
      expected.splice(k, 1);
    }
    expect(expected.length).toBe(0);
  });

  it('include picks shapes, joints and contacts: each alone gives its part of the full drawing, in order; a bad flag is refused', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const ragdoll = world.addBody(humanoidTree(), { name: 'lying', position: [0, 0.3, 0], rotation: [-Math.SQRT1_2, 0, 0, Math.SQRT1_2] });
    world.addConstraint(new PointPin(ragdoll.index, 0, [0, 0, 0], { body: -1, link: -1, point: [0, 0.5, 0] }));
    for (let s = 0; s < 30; s++) world.step(1 / 60);
    const all = new Float32Array(9 * 4000);
    const n = world.debugLines(all);
    const parts = [DebugLines.shapes, DebugLines.joints, DebugLines.contacts].map((flag) => {
      const out = new Float32Array(9 * 4000);
      const m = world.debugLines(out, flag);
      return Array.from(out.subarray(0, 9 * m));
    });
    // every part drew something (shapes, the ragdoll's ranges and the pin, its contacts), and the
    // three parts one after the other are the full drawing
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    expect(parts.flat()).toEqual(Array.from(all.subarray(0, 9 * n)));
    expect(world.debugLines(all, DebugLines.joints | DebugLines.contacts)).toBe((parts[1].length + parts[2].length) / 9);
    expect(world.debugLines(all, 0)).toBe(0);
    expect(() => world.debugLines(all, 8)).toThrow('World.debugLines: include must be a sum of DebugLines.shapes (1), joints (2) and contacts (4), got 8');
  });

  it('an array too small gets the segments that fit and the full count; without one the world grows its own', () => {
    const { world } = boxOnPlane(false);
    const full = new Float32Array(9 * 100);
    const n = world.debugLines(full);
    const small = new Float32Array(9 * 5 + 4).fill(-7);
    expect(world.debugLines(small)).toBe(n);
    expect([...small.subarray(0, 45)]).toEqual([...full.subarray(0, 45)]);
    expect([...small.subarray(45)]).toEqual([-7, -7, -7, -7]);
    expect(world.debugLines()).toBe(n);
    const own = world.debugLineData;
    expect(own.length).toBeGreaterThanOrEqual(9 * n);
    expect([...own.subarray(0, 9 * n)]).toEqual([...full.subarray(0, 9 * n)]);
    world.debugLines();
    expect(world.debugLineData).toBe(own); // large enough: the same array, nothing allocated
    expect(() => world.debugLines([] as never)).toThrow(/World.debugLines: out must be a Float32Array/);
  });

  it('drawing every frame leaves the simulation bit for bit as it is without drawing', () => {
    const run = (draw: boolean): Uint8Array => {
      const world = new World({ contactEvents: true });
      world.addStatic({ geometry: { type: 'plane' } });
      for (let k = 0; k < 3; k++) world.addBody(RigidBody.box([0.2, 0.15, 0.25], { mass: 2 }), { position: [0.1 * k, 0.5 + 0.4 * k, 0.05 * k], rotation: [0, Math.sin(0.2 * k), 0, Math.cos(0.2 * k)], name: `b${k}` });
      world.addBody(RigidBody.sphere(0.2, { mass: 1 }), { position: [0.3, 2, 0], name: 'ball' });
      const out = new Float32Array(9 * 1000);
      for (let s = 0; s < 120; s++) {
        if (draw) world.debugLines(out);
        world.step(1 / 60);
        if (draw) world.debugLines(out);
      }
      return stateBits(world);
    };
    expect(sameBits(run(false), run(true))).toBe(true);
  });
});
