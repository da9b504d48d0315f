/**
 * The page's SceneView: turns a scene's immediate-mode drawing calls into three.js objects, made
 * the first time a key is seen and hidden in frames that do not draw them.
 */
import * as THREE from 'three';
import type { Model, ShapeDesc, State } from '@sinew/featherstone';
import type { BodyStyle, SceneView } from '../sim/scene.js';
import { ArticulationMesh } from './articulation-mesh.js';
import { shapeMesh } from './shape-mesh.js';

class ArrowSet {
  readonly group = new THREE.Group();
  private readonly arrows: THREE.ArrowHelper[] = [];
  private readonly dir = new THREE.Vector3();
  private readonly origin = new THREE.Vector3();

  constructor(private readonly color: number) {}

  set(data: ArrayLike<number>, count: number, stride: number, length: (o: number) => number, direction: (o: number, out: THREE.Vector3) => void): void {
    while (this.arrows.length < count) {
      const a = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 1, this.color);
      // Drawn over the shapes: forces act at points inside bodies.
      for (const part of [a.line, a.cone]) {
        for (const m of Array.isArray(part.material) ? part.material : [part.material]) m.depthTest = false;
        part.renderOrder = 10;
      }
      this.arrows.push(a);
      this.group.add(a);
    }
    for (let i = 0; i < this.arrows.length; i++) {
      const a = this.arrows[i];
      if (i >= count) { a.visible = false; continue; }
      const o = stride * i;
      const len = length(o);
      direction(o, this.dir);
      if (!(len > 1e-6) || !(this.dir.lengthSq() > 0)) { a.visible = false; continue; }
      a.visible = true;
      a.position.copy(this.origin.set(data[o], data[o + 1], data[o + 2]));
      a.setDirection(this.dir.normalize());
      const head = Math.min(0.35 * len, 0.08);
      a.setLength(len, head, 0.6 * head);
    }
  }
}

interface Item {
  object: THREE.Object3D;
  seen: boolean;
  dispose(): void;
  /** Force or contact arrows drawn under `object`. */
  arrows?: ArrowSet;
}

export class ThreeView implements SceneView {
  private readonly items = new Map<string, Item>();
  private readonly bodies = new Map<string, ArticulationMesh>();
  private readonly overlays = new THREE.Group();
  private shapesShown = true;

  constructor(private readonly parent: THREE.Group) {
    parent.add(this.overlays);
  }

  set showShapes(on: boolean) {
    this.shapesShown = on;
    for (const b of this.bodies.values()) b.showShapes = on;
  }

  set showOverlays(on: boolean) {
    this.overlays.visible = on;
  }

  /** Call before a scene's sync(). */
  beginFrame(): void {
    for (const it of this.items.values()) it.seen = false;
  }

  /** Call after a scene's sync(): hides what the scene did not draw this frame. */
  endFrame(): void {
    for (const it of this.items.values()) it.object.visible = it.seen;
  }

  /** Removes and frees everything (scene change or reset). */
  clear(): void {
    for (const it of this.items.values()) {
      it.object.removeFromParent();
      it.dispose();
    }
    this.items.clear();
    this.bodies.clear();
  }

  private item(key: string, make: () => Item): Item {
    let it = this.items.get(key);
    if (!it) {
      it = make();
      this.items.set(key, it);
    }
    it.seen = true;
    return it;
  }

  articulation(key: string, model: Model, state: State, style?: BodyStyle): void {
    let body = this.bodies.get(key);
    if (body && body.model !== model) {
      this.items.get(`body:${key}`)?.object.removeFromParent();
      this.items.get(`body:${key}`)?.dispose();
      this.items.delete(`body:${key}`);
      body = undefined;
    }
    if (!body) {
      const b = new ArticulationMesh(model, style);
      b.showShapes = this.shapesShown;
      this.parent.add(b.root);
      this.bodies.set(key, b);
      body = b;
    }
    const made = body;
    this.item(`body:${key}`, () => ({ object: made.root, seen: true, dispose: () => made.dispose() }));
    body.update(state);
  }

  staticShape(key: string, shape: ShapeDesc, color = 0x59606e): void {
    this.item(`static:${key}`, () => {
      const material = new THREE.MeshStandardMaterial({ color, roughness: 0.9 });
      const mesh = shapeMesh(shape, material);
      if (shape.geometry.type === 'plane') mesh.position.y += 0.001; // above the stage's floor
      this.parent.add(mesh);
      return { object: mesh, seen: true, dispose: () => { mesh.geometry.dispose(); material.dispose(); } };
    });
  }

  forces(key: string, data: ArrayLike<number>, count: number, metresPerNewton: number, color = 0x7bd88f): void {
    const it = this.item(`forces:${key}`, () => {
      const group = new THREE.Group();
      this.overlays.add(group);
      return { object: group, seen: true, dispose: () => disposeTree(group) };
    });
    arrowSetOf(it, color).set(
      data, count, 6,
      (o) => metresPerNewton * Math.hypot(data[o + 3], data[o + 4], data[o + 5]),
      (o, out) => out.set(data[o + 3], data[o + 4], data[o + 5]),
    );
  }

  contacts(key: string, data: ArrayLike<number>, count: number, metresPerNewton = 0.01): void {
    const it = this.item(`contacts:${key}`, () => {
      const group = new THREE.Group();
      const dots = new THREE.InstancedMesh(new THREE.SphereGeometry(0.02, 10, 6), new THREE.MeshBasicMaterial({ color: 0xff5470, depthTest: false }), 256);
      dots.frustumCulled = false;
      dots.renderOrder = 10;
      group.add(dots);
      group.userData.dots = dots;
      this.overlays.add(group);
      return { object: group, seen: true, dispose: () => disposeTree(group) };
    });
    const group = it.object as THREE.Group;
    const dots = group.userData.dots as THREE.InstancedMesh;
    const m = new THREE.Matrix4();
    const n = Math.min(count, dots.instanceMatrix.count);
    for (let i = 0; i < n; i++) dots.setMatrixAt(i, m.makeTranslation(data[7 * i], data[7 * i + 1], data[7 * i + 2]));
    dots.count = n;
    dots.instanceMatrix.needsUpdate = true;
    arrowSetOf(it, 0xff5470).set(data, count, 7, (o) => metresPerNewton * data[o + 6], (o, out) => out.set(data[o + 3], data[o + 4], data[o + 5]));
  }
}

function arrowSetOf(it: Item, color: number): ArrowSet {
  if (!it.arrows) {
    it.arrows = new ArrowSet(color);
    it.object.add(it.arrows.group);
  }
  return it.arrows;
}

function disposeTree(root: THREE.Object3D): void {
  root.traverse((o) => {
    if (o instanceof THREE.Mesh || o instanceof THREE.Line) {
      o.geometry.dispose();
      const m = o.material;
      for (const x of Array.isArray(m) ? m : [m]) x.dispose();
    }
  });
}
