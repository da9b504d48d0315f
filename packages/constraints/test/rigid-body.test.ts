/**
 * RigidBody.box / sphere / capsule / hull: the mass properties against computations that share
 * nothing with mass-properties.ts (a sphere's and a capsule's by integrating discs along the axis
 * with Gauss-Legendre quadrature, exact for their polynomial profiles; a box's by the hull
 * integration of its corners, rotated too; a random hull's by counting grid points inside its face
 * planes), and the bodies placed and simulated in a World.
 */
import { describe, expect, it } from 'vitest';
import { pointPosition, pointVelocity } from '@sinew/featherstone';
import { RigidBody, World, boxMassProperties, capsuleMassProperties, hullMassProperties, sphereMassProperties } from '../src/index.js';
import { ConvexHullData } from '../src/collision/hull.js';
import { SeededRandom } from '../src/lcp/random-problems.js';

/** 5-point Gauss-Legendre nodes and weights on [-1, 1]: exact for polynomials up to degree 9. */
const GL_X = [0, -0.5384693101056831, 0.5384693101056831, -0.906179845938664, 0.906179845938664];
const GL_W = [0.5688888888888889, 0.47862867049936647, 0.47862867049936647, 0.23692688505618908, 0.23692688505618908];

/**
 * Volume, Ixx and Iyy (about the origin, on the axis) of a solid of revolution about Y of unit
 * density, radius rho(y), integrated piece by piece over [a, b] pieces: each disc at height y has
 * volume pi rho^2 dy, Iyy pi rho^4 / 2 dy and Ixx pi rho^2 (rho^2 / 4 + y^2) dy.
 */
function revolve(pieces: [number, number, (y: number) => number][]): { V: number; Ixx: number; Iyy: number } {
  let V = 0, Ixx = 0, Iyy = 0;
  for (const [a, b, rho] of pieces) {
    const half = (b - a) / 2, mid = (a + b) / 2;
    for (let k = 0; k < 5; k++) {
      const y = mid + half * GL_X[k], w = half * GL_W[k], r2 = rho(y) ** 2;
      V += w * Math.PI * r2;
      Iyy += (w * Math.PI * r2 * r2) / 2;
      Ixx += w * Math.PI * r2 * (r2 / 4 + y * y);
    }
  }
  return { V, Ixx, Iyy };
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('mass properties against independent integrations', () => {
  it('sphere: volume and inertia equal the integral over discs (to 1e-13)', () => {
    for (const r of [0.05, 0.3, 2]) {
      const p = sphereMassProperties(r, { density: 1 });
      const x = revolve([[-r, r, (y) => Math.sqrt(Math.max(0, r * r - y * y))]]);
      expect(rel(p.volume, x.V)).toBeLessThan(1e-13);
      expect(rel(p.inertia[0], x.Ixx)).toBeLessThan(1e-13);
      expect(rel(p.inertia[1], x.Iyy)).toBeLessThan(1e-13);
      expect(p.mass).toBeCloseTo(x.V, 12);
    }
  });

  it('capsule: volume and inertia equal the integral over discs of the cylinder and its caps (to 1e-13), with mass given', () => {
    for (const [h, r] of [[0.5, 0.1], [0.2, 0.3], [0, 0.4], [1.5, 0.05]]) {
      const pieces: [number, number, (y: number) => number][] = [
        [-h - r, -h, (y) => Math.sqrt(Math.max(0, r * r - (y + h) ** 2))],
        [-h, h, () => r],
        [h, h + r, (y) => Math.sqrt(Math.max(0, r * r - (y - h) ** 2))],
      ];
      const x = revolve(pieces.filter(([a, b]) => b > a));
      const p = capsuleMassProperties(h, r, { mass: 7 });
      expect(rel(p.volume, x.V)).toBeLessThan(1e-13);
      // mass 7 spread over the volume: the integrals scale by 7 / V
      expect(rel(p.inertia[0], (7 * x.Ixx) / x.V)).toBeLessThan(1e-13);
      expect(rel(p.inertia[2], (7 * x.Ixx) / x.V)).toBeLessThan(1e-13);
      expect(rel(p.inertia[1], (7 * x.Iyy) / x.V)).toBeLessThan(1e-13);
    }
  });

  it('box: the closed form equals the tetrahedral integration of its corners, and a rotated box gives R I R^T with products of inertia', () => {
    const [a, b, c] = [0.3, 0.1, 0.45];
    const corners: number[] = [];
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) corners.push(sx * a, sy * b, sz * c);
    const box = boxMassProperties([a, b, c], { density: 800 });
    const hull = hullMassProperties(corners, { density: 800 });
    expect(rel(hull.mass, box.mass)).toBeLessThan(1e-13);
    for (let k = 0; k < 3; k++) expect(rel(hull.inertia[k], box.inertia[k])).toBeLessThan(1e-12);
    for (let k = 3; k < 6; k++) expect(Math.abs(hull.inertia[k])).toBeLessThan(1e-14);
    // rotated about z by 0.5 rad and shifted: inertia R diag(I) R^T about the shifted centre
    const th = 0.5, cs = Math.cos(th), sn = Math.sin(th);
    const moved: number[] = [];
    for (let k = 0; k < corners.length; k += 3) moved.push(cs * corners[k] - sn * corners[k + 1] + 1, sn * corners[k] + cs * corners[k + 1] - 2, corners[k + 2] + 0.5);
    const r = hullMassProperties(moved, { density: 800 });
    const [Ix, Iy, Iz] = box.inertia;
    expect(r.com[0]).toBeCloseTo(1, 13); expect(r.com[1]).toBeCloseTo(-2, 13); expect(r.com[2]).toBeCloseTo(0.5, 13);
    expect(rel(r.inertia[0], cs * cs * Ix + sn * sn * Iy)).toBeLessThan(1e-12);
    expect(rel(r.inertia[1], sn * sn * Ix + cs * cs * Iy)).toBeLessThan(1e-12);
    expect(rel(r.inertia[2], Iz)).toBeLessThan(1e-12);
    expect(rel(r.inertia[3], cs * sn * (Ix - Iy))).toBeLessThan(1e-12);
    expect(Math.abs(r.inertia[4]) + Math.abs(r.inertia[5])).toBeLessThan(1e-13);
  });

  it('a random hull of 40 points: volume, centre of mass and inertia within 0.05 % of counting the points of a 160^3 grid inside its face planes (the grid count itself errs by 2e-5 in volume, 7e-5 in Ixx)', () => {
    const rnd = new SeededRandom(7);
    const pts: number[] = [];
    for (let i = 0; i < 40; i++) pts.push(0.4 * (rnd.next() - 0.3), 0.25 * (rnd.next() - 0.6), 0.6 * (rnd.next() - 0.5));
    const p = hullMassProperties(pts, { density: 1 });
    const hull = new ConvexHullData(pts, 'test');
    const [x0, y0, z0, x1, y1, z1] = hull.bounds;
    const N = 160, hx = (x1 - x0) / N, hy = (y1 - y0) / N, hz = (z1 - z0) / N, dv = hx * hy * hz;
    let V = 0, sx = 0, sy = 0, sz = 0, xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
    const P = hull.planes;
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) for (let k = 0; k < N; k++) {
      const x = x0 + (i + 0.5) * hx, y = y0 + (j + 0.5) * hy, z = z0 + (k + 0.5) * hz;
      let inside = true;
      for (let f = 0; f < hull.faceCount && inside; f++) inside = P[4 * f] * x + P[4 * f + 1] * y + P[4 * f + 2] * z <= P[4 * f + 3];
      if (!inside) continue;
      V += dv; sx += x * dv; sy += y * dv; sz += z * dv;
      xx += x * x * dv; yy += y * y * dv; zz += z * z * dv; xy += x * y * dv; xz += x * z * dv; yz += y * z * dv;
    }
    const c = [sx / V, sy / V, sz / V];
    // second moments about the centre of mass
    const Cxx = xx - V * c[0] * c[0], Cyy = yy - V * c[1] * c[1], Czz = zz - V * c[2] * c[2];
    const Cxy = xy - V * c[0] * c[1], Cxz = xz - V * c[0] * c[2], Cyz = yz - V * c[1] * c[2];
    const grid = [Cyy + Czz, Cxx + Czz, Cxx + Cyy, -Cxy, -Cxz, -Cyz];
    expect(rel(p.volume, V)).toBeLessThan(5e-4);
    const ext = Math.max(x1 - x0, y1 - y0, z1 - z0);
    for (let k = 0; k < 3; k++) expect(Math.abs(p.com[k] - c[k]) / ext).toBeLessThan(1e-4);
    const scale = Math.max(grid[0], grid[1], grid[2]);
    for (let k = 0; k < 6; k++) expect(Math.abs(p.inertia[k] - grid[k]) / scale).toBeLessThan(5e-4);
    // the products of inertia are not all zero (the test sees them)
    expect(Math.max(Math.abs(grid[3]), Math.abs(grid[4]), Math.abs(grid[5])) / scale).toBeGreaterThan(1e-2);
  });

  it('refuses a body without a mass or density, with both, or with bad sizes', () => {
    expect(() => RigidBody.box([1, 1, 1], {})).toThrow('RigidBody.box: give exactly one of mass (kg) and density (kg/m^3)');
    expect(() => RigidBody.sphere(1, { mass: 1, density: 2 })).toThrow('RigidBody.sphere: give exactly one of mass');
    expect(() => RigidBody.capsule(-1, 0.2, { mass: 1 })).toThrow('RigidBody.capsule: halfHeight must be a finite number >= 0');
    expect(() => RigidBody.box([1, 0, 1], { mass: 1 })).toThrow('RigidBody.box: halfExtents[1] must be a finite number > 0');
    expect(() => RigidBody.sphere(0.5, { mass: NaN })).toThrow('RigidBody.sphere: mass must be a finite number > 0');
    expect(() => RigidBody.hull([0, 0, 0, 1, 0, 0, 0, 1, 0], { mass: 1 })).toThrow(/RigidBody.hull/);
  });
});

describe('RigidBody in a World', () => {
  it('the model carries the mass properties and the shape; addBody places it by position, rotation and world velocities', () => {
    const m = RigidBody.capsule(0.3, 0.1, { density: 1000, friction: 0.4 });
    const p = capsuleMassProperties(0.3, 0.1, { density: 1000 });
    expect(m.mass[0]).toBe(p.mass);
    expect(Array.from(m.inertiaCom.subarray(0, 6))).toEqual(p.inertia);
    expect(m.shapes[0][0]).toMatchObject({ geometry: { type: 'capsule', radius: 0.1, halfLength: 0.3 }, friction: 0.4 });
    const world = new World();
    const s = Math.sin(Math.PI / 4), c = Math.cos(Math.PI / 4);
    // a quarter turn about z: the capsule's axis (local y) along world -x
    const body = world.addBody(m, { position: [1, 2, 3], rotation: [0, 0, 2 * s, 2 * c], linearVelocity: [0.5, 0, -1], angularVelocity: [0, 0, 2] });
    const tip = new Float64Array(3), v = new Float64Array(3);
    pointPosition(body.state, 0, [0, 0.3, 0], tip);
    expect(tip[0]).toBeCloseTo(0.7, 12); expect(tip[1]).toBeCloseTo(2, 12); expect(tip[2]).toBeCloseTo(3, 12);
    pointVelocity(body.state, 0, [0, 0, 0], v);
    expect(v[0]).toBeCloseTo(0.5, 12); expect(v[1]).toBeCloseTo(0, 12); expect(v[2]).toBeCloseTo(-1, 12);
    // the tip, 0.3 m along -x from the centre, moves at w x r = (0, 0, 2) x (-0.3, 0, 0) = (0, -0.6, 0) more
    pointVelocity(body.state, 0, [0, 0.3, 0], v);
    expect(v[0]).toBeCloseTo(0.5, 12); expect(v[1]).toBeCloseTo(-0.6, 12); expect(v[2]).toBeCloseTo(-1, 12);
    expect(() => world.addBody(m, { rotation: [0, 0, 0, 0] })).toThrow('World.addBody: rotation must be a non-zero quaternion');
    expect(() => world.addBody(m, { position: [0, NaN, 0] })).toThrow('World.addBody: position must be 3 finite numbers');
  });

  it('a box, a sphere, a capsule lying down and a tetrahedral hull come to rest on the ground at the heights their shapes give', () => {
    const world = new World();
    world.addStatic({ geometry: { type: 'plane' } });
    const box = world.addBody(RigidBody.box([0.3, 0.2, 0.25], { mass: 10 }), { position: [0, 1, 0], name: 'box' });
    const ball = world.addBody(RigidBody.sphere(0.15, { density: 500 }), { position: [2, 1, 0], name: 'ball' });
    const s = Math.sin(Math.PI / 4), c = Math.cos(Math.PI / 4);
    const cap = world.addBody(RigidBody.capsule(0.4, 0.1, { mass: 3 }), { position: [4, 1, 0], rotation: [s, 0, 0, c], name: 'capsule' });
    // a tetrahedron standing on its base triangle, its apex 0.5 m up
    const tet = world.addBody(RigidBody.hull([-0.3, 0, -0.2, 0.3, 0, -0.2, 0, 0, 0.35, 0, 0.5, 0], { density: 700 }), { position: [6, 0.3, 0], name: 'tetra' });
    for (let k = 0; k < 180; k++) expect(world.step(1 / 60).error).toBe('');
    expect(box.state.q[1]).toBeCloseTo(0.2, 2);
    expect(ball.state.q[1]).toBeCloseTo(0.15, 2);
    expect(cap.state.q[1]).toBeCloseTo(0.1, 2);
    expect(tet.state.q[1]).toBeCloseTo(0, 2);
    expect(world.stats.sleeping).toBe(4);
  });
});
