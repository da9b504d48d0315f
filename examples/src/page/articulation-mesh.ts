/**
 * Draws one articulated body: a group per link holding the link's shapes, moved every frame from
 * the state's link poses, and a skeleton (joint dots, bones from each joint to its children)
 * shown when the shapes are hidden. A body drawn as the overlay of a skinned mesh (style.overlay)
 * shows its shapes translucent over everything, and nothing at all when the shapes are hidden.
 */
import * as THREE from 'three';
import { linkMatrix4, type Model, type State } from '@sinew/featherstone';
import type { BodyStyle } from '../sim/scene.js';
import { shapeMesh } from './shape-mesh.js';

const DEFAULT_COLORS = [0xe8833a, 0x3aa6a0];

export class ArticulationMesh {
  readonly root = new THREE.Group();
  private readonly links: THREE.Group[] = [];
  private readonly shapes = new THREE.Group();
  private readonly skeleton = new THREE.Group();
  private readonly joints: THREE.InstancedMesh;
  private readonly bones: THREE.LineSegments;
  private readonly bonePositions: Float32Array;
  private readonly m4 = new Float64Array(16);
  private readonly tmp = new THREE.Matrix4();
  private readonly overlay: boolean;

  constructor(readonly model: Model, style: BodyStyle = {}) {
    const colors = style.colors ?? DEFAULT_COLORS;
    this.overlay = style.overlay ?? false;
    const opacity = style.opacity ?? (this.overlay ? 0.4 : 1);
    const materials = colors.map((c) => new THREE.MeshStandardMaterial({
      color: c, roughness: 0.5, metalness: 0.05,
      ...(opacity < 1 ? { transparent: true, opacity, depthWrite: false } : {}),
      // an overlay is seen through the skin that covers it
      ...(this.overlay ? { depthTest: false } : {}),
    }));
    for (let i = 0; i < model.nLinks; i++) {
      const g = new THREE.Group();
      g.matrixAutoUpdate = false;
      for (const s of model.shapes[i]) {
        const mesh = shapeMesh(s, materials[i % materials.length]);
        if (opacity < 1) mesh.castShadow = false;
        if (this.overlay) mesh.renderOrder = 5;
        g.add(mesh);
      }
      this.links.push(g);
      this.shapes.add(g);
    }
    const n = model.nLinks;
    const size = Math.max(0.008, 0.07 * typicalLinkLength(model));
    this.joints = new THREE.InstancedMesh(new THREE.SphereGeometry(size, 12, 8), new THREE.MeshBasicMaterial({ color: 0xf4f1e8 }), n);
    // One bone per link: from its joint to each child's joint, or to twice its centre of mass for a leaf.
    this.bonePositions = new Float32Array(6 * n * 2);
    const bonesGeometry = new THREE.BufferGeometry();
    bonesGeometry.setAttribute('position', new THREE.BufferAttribute(this.bonePositions, 3));
    this.bones = new THREE.LineSegments(bonesGeometry, new THREE.LineBasicMaterial({ color: 0xffd27a }));
    this.bones.frustumCulled = false;
    this.joints.frustumCulled = false;
    this.skeleton.add(this.bones, this.joints);
    this.skeleton.visible = false;
    this.root.add(this.shapes, this.skeleton);
  }

  set showShapes(on: boolean) {
    this.shapes.visible = on;
    this.skeleton.visible = !on && !this.overlay;
  }

  /** Whether the shapes are drawn. */
  get shapesVisible(): boolean {
    return this.shapes.visible;
  }

  update(state: State): void {
    const { model, m4, tmp } = this;
    const n = model.nLinks;
    for (let i = 0; i < n; i++) {
      linkMatrix4(state, i, m4);
      const g = this.links[i];
      for (let k = 0; k < 16; k++) g.matrix.elements[k] = m4[k];
      g.matrixWorldNeedsUpdate = true;
    }
    if (!this.skeleton.visible) return;
    const P = state.work.pose, b = this.bonePositions;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const po = 12 * i;
      tmp.makeTranslation(P[po + 9], P[po + 10], P[po + 11]);
      this.joints.setMatrixAt(i, tmp);
      const children = model.children[i];
      if (children.length === 0) {
        const cx = 2 * model.com[3 * i], cy = 2 * model.com[3 * i + 1], cz = 2 * model.com[3 * i + 2];
        b.set([P[po + 9], P[po + 10], P[po + 11]], s);
        b.set([P[po] * cx + P[po + 1] * cy + P[po + 2] * cz + P[po + 9], P[po + 3] * cx + P[po + 4] * cy + P[po + 5] * cz + P[po + 10], P[po + 6] * cx + P[po + 7] * cy + P[po + 8] * cz + P[po + 11]], s + 3);
        s += 6;
      }
      for (const c of children) {
        if (s + 6 > b.length) break;
        const co = 12 * c;
        b.set([P[po + 9], P[po + 10], P[po + 11], P[co + 9], P[co + 10], P[co + 11]], s);
        s += 6;
      }
    }
    this.bones.geometry.setDrawRange(0, s / 3);
    this.bones.geometry.attributes.position.needsUpdate = true;
    this.joints.instanceMatrix.needsUpdate = true;
  }

  dispose(): void {
    this.root.traverse((o) => {
      if (o instanceof THREE.Mesh || o instanceof THREE.LineSegments) {
        o.geometry.dispose();
        const m = o.material;
        for (const x of Array.isArray(m) ? m : [m]) x.dispose();
      }
    });
  }
}

/** Median distance from a link's joint to its centre of mass, doubled: a size for markers. */
function typicalLinkLength(model: Model): number {
  const d: number[] = [];
  for (let i = 0; i < model.nLinks; i++) d.push(2 * Math.hypot(model.com[3 * i], model.com[3 * i + 1], model.com[3 * i + 2]));
  d.sort((a, b) => a - b);
  return d[d.length >> 1] || 0.1;
}
