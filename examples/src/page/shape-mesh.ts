/** three.js geometry for the shapes of @sinew/featherstone models (ShapeDesc). */
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import type { ShapeDesc, ShapeGeometry } from '@sinew/featherstone';

export function shapeGeometry(g: ShapeGeometry): THREE.BufferGeometry {
  switch (g.type) {
    case 'sphere':
      return new THREE.SphereGeometry(g.radius, 24, 16);
    case 'capsule':
      return new THREE.CapsuleGeometry(g.radius, 2 * g.halfLength, 8, 16);
    case 'box':
      return new THREE.BoxGeometry(2 * g.halfExtents[0], 2 * g.halfExtents[1], 2 * g.halfExtents[2]);
    case 'convex': {
      const pts: THREE.Vector3[] = [];
      for (let i = 0; i + 2 < g.points.length; i += 3) pts.push(new THREE.Vector3(g.points[i], g.points[i + 1], g.points[i + 2]));
      return new ConvexGeometry(pts);
    }
    case 'plane':
      return new THREE.PlaneGeometry(40, 40).rotateX(-Math.PI / 2);
    case 'trimesh': {
      const geo = new THREE.BufferGeometry();
      geo.setAttribute('position', new THREE.Float32BufferAttribute(g.vertices, 3));
      geo.setIndex(Array.from(g.indices));
      geo.computeVertexNormals();
      return geo;
    }
    case 'heightfield': {
      const pos: number[] = [], idx: number[] = [];
      for (let r = 0; r < g.rows; r++) for (let c = 0; c < g.cols; c++) pos.push(c * g.spacingX, g.heights[r * g.cols + c], r * g.spacingZ);
      for (let r = 0; r + 1 < g.rows; r++) {
        for (let c = 0; c + 1 < g.cols; c++) {
          const a = r * g.cols + c, b = a + 1, d = a + g.cols, e = d + 1;
          idx.push(a, d, b, b, d, e);
        }
      }
      const geo = new THREE.BufferGeometry();
      geo.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
      geo.setIndex(idx);
      geo.computeVertexNormals();
      return geo;
    }
  }
}

/** A mesh of one shape placed at its offset in its owner's frame. */
export function shapeMesh(shape: ShapeDesc, material: THREE.Material): THREE.Mesh {
  const mesh = new THREE.Mesh(shapeGeometry(shape.geometry), material);
  if (shape.position) mesh.position.set(shape.position[0], shape.position[1], shape.position[2]);
  if (shape.rotation) mesh.quaternion.set(shape.rotation[0], shape.rotation[1], shape.rotation[2], shape.rotation[3]);
  mesh.castShadow = shape.geometry.type !== 'plane' && shape.geometry.type !== 'heightfield';
  mesh.receiveShadow = true;
  return mesh;
}
