/**
 * World.debugLines' joint limits and pins (debug-joints.ts), checked against geometry computed
 * here from the readers (Body.linkPosition / linkRotation): a hinge's arc lies at JOINT_DRAW_SIZE
 * from the joint in the plane normal to its world axis, its end spokes span the range, the
 * current-angle spoke follows the link; a ball joint's cone rim makes the limit angles with the
 * twist axis (swing[0] and swing[1] on the ellipse's axes); a pin is drawn from its anchor to its target.
 */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '@sinew/featherstone';
import { DEBUG_LINE_STRIDE, JOINT_DRAW_SIZE, PointPin, World } from '../src/index.js';

type V = [number, number, number];
const YELLOW: V = [1, 0.85, 0.2], MAGENTA: V = [1, 0.3, 1];

function matrixOfQuaternion(q: ArrayLike<number>): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}
const mul = (R: number[], v: ArrayLike<number>): V => [0, 1, 2].map((r) => R[3 * r] * v[0] + R[3 * r + 1] * v[1] + R[3 * r + 2] * v[2]) as V;
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: ArrayLike<number>): number => Math.sqrt(dot(a, a));

function segs(world: World): { a: V; b: V; c: V }[] {
  const n = world.debugLines(), d = world.debugLineData, out = [];
  for (let k = 0; k < n; k++) {
    const o = DEBUG_LINE_STRIDE * k;
    out.push({ a: [d[o], d[o + 1], d[o + 2]] as V, b: [d[o + 3], d[o + 4], d[o + 5]] as V, c: [d[o + 6], d[o + 7], d[o + 8]] as V });
  }
  return out;
}
const coloured = (s: { c: V }, c: V): boolean => Math.abs(s.c[0] - c[0]) < 1e-6 && Math.abs(s.c[1] - c[1]) < 1e-6 && Math.abs(s.c[2] - c[2]) < 1e-6;

describe('debugLines: joint limits and pins', () => {
  it('a hinge: arc at JOINT_DRAW_SIZE in the plane normal to its axis, end spokes spanning the range, a spoke following the link', () => {
    const b = new ModelBuilder();
    const lo = -0.5, hi = 1.1, axis: V = [0.6, 0, 0.8];
    b.addLink({ name: 'base', parent: null, joint: { type: 'free' }, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
    b.addLink({ name: 'arm', parent: 0, joint: { type: 'revolute', axis, position: [0.2, 0.1, 0], limits: { lower: lo, upper: hi } }, mass: 1, com: [0, -0.2, 0], inertia: [0.01, 0.01, 0.01, 0, 0, 0] });
    const world = new World({ gravity: [0, 0, 0] });
    const body = world.addBody(b.build(), { name: 'hinge' });
    body.state.q.set([0.3, 1, -0.2, Math.sin(0.2), 0, 0, Math.cos(0.2)], 0);
    const angle = 0.4;
    body.state.q[7] = angle;
    const hinge = segs(world).filter((s) => coloured(s, YELLOW));
    const o = body.linkPosition('arm'), Rc = matrixOfQuaternion(body.linkRotation('arm'));
    const worldAxis = mul(Rc, axis);
    const spokes = hinge.filter((s) => len(sub(s.a, o)) < 1e-6);
    const rim = hinge.filter((s) => len(sub(s.a, o)) > 1e-6);
    expect(rim.length).toBe(16);
    for (const s of rim) for (const e of [s.a, s.b]) {
      expect(Math.abs(len(sub(e, o)) - JOINT_DRAW_SIZE)).toBeLessThan(1e-6);
      expect(Math.abs(dot(sub(e, o), worldAxis))).toBeLessThan(1e-6);
    }
    expect(spokes.length).toBe(3);
    const dir = spokes.map((s) => sub(s.b, o));
    // the range spokes: hi - lo apart about the axis; the current one at angle - lo from the first
    const angleBetween = (a: V, c: V): number => Math.atan2(dot(worldAxis, [a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]]), dot(a, c));
    expect(Math.abs(angleBetween(dir[0], dir[1]) - (hi - lo))).toBeLessThan(1e-5);
    expect(Math.abs(angleBetween(dir[0], dir[2]) - (angle - lo))).toBeLessThan(1e-5);
    expect(Math.abs(len(dir[2]) - 1.2 * JOINT_DRAW_SIZE)).toBeLessThan(1e-6);
  });

  it("a ball joint's cone: rim angles with the twist axis run from swing[1] to swing[0], the axes of the ellipse at exactly those", () => {
    const b = new ModelBuilder();
    const s1 = 0.8, s2 = 0.4;
    b.addLink({ name: 'root', parent: null, joint: { type: 'free' }, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
    b.addLink({ name: 'ball', parent: 0, joint: { type: 'spherical', position: [0, -0.3, 0], limits: { twistAxis: [0, -1, 0], swing: [s1, s2], twist: [-0.3, 0.3] } }, mass: 1, com: [0, -0.2, 0], inertia: [0.01, 0.01, 0.01, 0, 0, 0] });
    const world = new World({ gravity: [0, 0, 0] });
    const body = world.addBody(b.build(), { name: 'ball' });
    body.state.q.set([0, 1, 0, Math.sin(0.3), 0, 0, Math.cos(0.3)], 0);
    expect([...body.state.q.subarray(7, 11)]).toEqual([0, 0, 0, 1]);
    const o = body.linkPosition('ball'), R = matrixOfQuaternion(body.linkRotation('ball'));
    const twist = mul(R, [0, -1, 0]); // (the ball joint at its neutral q: the child frame is the rest frame)
    const drawn = segs(world).filter((s) => coloured(s, YELLOW));
    const spokes = drawn.filter((s) => len(sub(s.a, o)) < 1e-6);
    expect(spokes.length).toBe(17); // 16 to the rim, 1 the current axis
    const angles = spokes.slice(0, 16).map((s) => Math.acos(Math.min(1, dot(sub(s.b, o), twist) / len(sub(s.b, o)))));
    expect(Math.abs(angles[0] - s1)).toBeLessThan(1e-5);
    expect(Math.abs(angles[4] - s2)).toBeLessThan(1e-5);
    for (const a of angles) { expect(a).toBeGreaterThan(s2 - 1e-5); expect(a).toBeLessThan(s1 + 1e-5); }
    const current = sub(spokes[16].b, o);
    expect(len(sub(current, twist.map((x) => 1.2 * JOINT_DRAW_SIZE * x)))).toBeLessThan(1e-6);
  });

  it('a pin: a line from its point on the body to its world target, and a cross there', () => {
    const b = new ModelBuilder();
    b.addLink({ name: 'rod', parent: null, joint: { type: 'free' }, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0] });
    const world = new World({ gravity: [0, 0, 0] });
    const body = world.addBody(b.build(), { name: 'rod' });
    body.state.q.set([1, 2, 3, 0, Math.sin(0.4), 0, Math.cos(0.4)], 0);
    world.addConstraint(new PointPin(body.index, 0, [0.5, 0, 0], { body: -1, link: -1, point: [1.2, 2.5, 2.6] }));
    const pins = segs(world).filter((s) => coloured(s, MAGENTA));
    expect(pins.length).toBe(4);
    const anchor = [0, 1, 2].map((k) => body.linkPosition(0)[k] + mul(matrixOfQuaternion(body.linkRotation(0)), [0.5, 0, 0])[k]);
    expect(len(sub(pins[0].a, anchor))).toBeLessThan(1e-6);
    expect(len(sub(pins[0].b, [1.2, 2.5, 2.6]))).toBeLessThan(1e-6);
    for (const s of pins.slice(1)) expect(len(sub([(s.a[0] + s.b[0]) / 2, (s.a[1] + s.b[1]) / 2, (s.a[2] + s.b[2]) / 2], [1.2, 2.5, 2.6]))).toBeLessThan(1e-6);
  });
});
