/**
 * The page's SceneView: turns a scene's immediate-mode drawing calls into three.js objects, made
 * the first time a key is seen and hidden in frames that do not draw them.
 */
import * as THREE from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { forwardKinematics, linkMatrix4, State, type Model, type ShapeDesc } from '@sinew/featherstone';
import type { BodyStyle, SceneView, SkinBinding } from '../sim/scene.js';
import { ArticulationMesh } from './articulation-mesh.js';
import { SubjectBox } from '../sim/subject.js';
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
  skin?: SkinnedCharacter;
}

export class ThreeView implements SceneView {
  private readonly items = new Map<string, Item>();
  private readonly bodies = new Map<string, ArticulationMesh>();
  private readonly overlays = new THREE.Group();
  private shapesShown = true;
  /** The box of the scene's subject, gathered while the scene draws (see sim/subject.ts). */
  readonly subject = new SubjectBox();
  private readonly heard = new Set<number>();
  private audio: AudioContext | null = null;
  /** Sound on: the page turns it on at the first click (browsers allow audio only after one). */
  soundOn = false;

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

  /** For the test hook: the skinned characters drawn in the last frame, and whether each body's shapes are shown. */
  probe(): { skins: SkinProbe[]; shapes: Record<string, boolean> } {
    const skins: SkinProbe[] = [];
    for (const it of this.items.values()) if (it.skin && it.seen) skins.push(it.skin.probe());
    const shapes: Record<string, boolean> = {};
    for (const [key, b] of this.bodies) if (this.items.get(`body:${key}`)?.seen) shapes[key] = b.shapesVisible;
    return { skins, shapes };
  }

  /** Called with an error when a skinned mesh's file fails to load. */
  onError: (e: unknown) => void = (e) => console.error(e);

  /** Call before a scene's sync(). */
  beginFrame(): void {
    for (const it of this.items.values()) it.seen = false;
    this.subject.clear();
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
    this.heard.clear();
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
    this.subject.add(key, model, state);
  }

  /** A short knock through Web Audio, once per id, louder for a harder hit (0..1); silent until soundOn. */
  sound(id: number, strength: number): void {
    if (this.heard.has(id)) return;
    this.heard.add(id);
    if (!this.soundOn || typeof AudioContext === 'undefined') return;
    this.audio ??= new AudioContext();
    const a = this.audio, t = a.currentTime;
    const osc = a.createOscillator(), gain = a.createGain();
    osc.type = 'triangle';
    osc.frequency.setValueAtTime(180 + 220 * strength, t);
    osc.frequency.exponentialRampToValueAtTime(60, t + 0.12);
    gain.gain.setValueAtTime(0.05 + 0.25 * Math.min(1, strength), t);
    gain.gain.exponentialRampToValueAtTime(1e-4, t + 0.15);
    osc.connect(gain).connect(a.destination);
    osc.start(t);
    osc.stop(t + 0.16);
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

  lines(key: string, data: ArrayLike<number>, count: number, color = 0xffd27a, overlay = false): void {
    const it = this.item(`lines:${key}`, () => {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * Math.max(16, count)), 3));
      const material = new THREE.LineBasicMaterial({ color, depthTest: !overlay, transparent: overlay, opacity: overlay ? 0.95 : 1 });
      const segments = new THREE.LineSegments(geometry, material);
      segments.frustumCulled = false;
      if (overlay) segments.renderOrder = 11;
      this.parent.add(segments);
      return { object: segments, seen: true, dispose: () => { geometry.dispose(); material.dispose(); } };
    });
    const segments = it.object as THREE.LineSegments;
    let attr = segments.geometry.getAttribute('position') as THREE.BufferAttribute;
    if (attr.count < 2 * count) {
      attr = new THREE.BufferAttribute(new Float32Array(6 * Math.max(2 * attr.count, count)), 3);
      segments.geometry.setAttribute('position', attr);
    }
    const a = attr.array as Float32Array;
    for (let k = 0; k < 6 * count; k++) a[k] = data[k];
    attr.needsUpdate = true;
    segments.geometry.setDrawRange(0, 2 * count);
  }

  marker(key: string, x: number, y: number, z: number, radius: number, color = 0xff5470): void {
    const it = this.item(`marker:${key}`, () => {
      const geometry = new THREE.SphereGeometry(1, 16, 10);
      const material = new THREE.MeshBasicMaterial({ color, depthTest: false, transparent: true, opacity: 0.9 });
      const mesh = new THREE.Mesh(geometry, material);
      mesh.renderOrder = 12;
      this.parent.add(mesh);
      return { object: mesh, seen: true, dispose: () => { geometry.dispose(); material.dispose(); } };
    });
    it.object.position.set(x, y, z);
    it.object.scale.setScalar(radius);
  }

  skinnedMesh(key: string, binding: SkinBinding, model: Model, state: State): void {
    const it = this.item(`skin:${key}`, () => {
      const skin = new SkinnedCharacter(key, binding, model, this.onError);
      this.parent.add(skin.root);
      return { object: skin.root, seen: true, dispose: () => skin.dispose(), skin };
    });
    it.skin?.update(state);
  }
}

/** What the test hook reads of a skinned character: per link, where its bones and skinned vertices are. */
export interface SkinProbe {
  key: string;
  asset: string;
  /** The file is loaded and its bones are bound. */
  loaded: boolean;
  /** Skinned meshes in the character. */
  meshes: number;
  links: {
    link: number;
    /** Head of the bone of this link nearest its joint (world, metres). */
    bone: [number, number, number];
    /** Centroid of the vertices as drawn that follow a bone of this link (their largest skin weight, or the bone a rigid mesh hangs from). */
    centroid: [number, number, number];
    vertices: number;
    /** The link's centre of mass, from the state the scene drew. */
    com: [number, number, number];
  }[];
}

/** Each glTF file is fetched and parsed once; every character that shows it is a clone of that scene. */
const loaded = new Map<string, Promise<GLTF>>();

/**
 * A glTF character loaded with three.js whose bones are driven by the links of a body: each bone's
 * world matrix is the link's world transform times a constant offset from the link to the bone,
 * taken in the rest pose: offset = link(neutral)^-1 restToModel bone(rest). For a ragdoll built
 * from the skeleton the link frames are the bones' rest frames (restToModel is the identity); for
 * a skin retargeted onto another model restToModel comes from scenes/skin-retarget.ts.
 */
class SkinnedCharacter {
  readonly root = new THREE.Group();
  private bones: { object: THREE.Object3D; link: number; offset: THREE.Matrix4 }[] = [];
  private meshes: THREE.SkinnedMesh[] = [];
  /** Meshes that are not skinned but hang from a bone (RobotExpressive's head, trunk and legs). */
  private rigid: THREE.Mesh[] = [];
  private disposed = false;
  private ready = false;
  private state: State | null = null;
  private readonly m4 = new Float64Array(16);
  private readonly link = new THREE.Matrix4();

  constructor(readonly key: string, private readonly binding: SkinBinding, private readonly model: Model, onError: (e: unknown) => void) {
    let load = loaded.get(binding.asset);
    if (!load) {
      load = new GLTFLoader().loadAsync(binding.asset);
      loaded.set(binding.asset, load);
      load.catch(() => loaded.delete(binding.asset)); // a later character tries again
    }
    load.then((gltf) => {
      if (this.disposed) return;
      const scene = cloneSkinned(gltf.scene);
      // the clone's objects by glTF node index: the two trees have the same shape
      const nodeOf = new Map<THREE.Object3D, number>();
      const sources: THREE.Object3D[] = [], copies: THREE.Object3D[] = [];
      gltf.scene.traverse((o) => sources.push(o));
      scene.traverse((o) => copies.push(o));
      sources.forEach((o, k) => {
        const node = gltf.parser.associations.get(o)?.nodes;
        if (node !== undefined && copies[k]) nodeOf.set(copies[k], node);
      });
      scene.scale.setScalar(binding.scale ?? 1);
      scene.updateMatrixWorld(true);
      // rest link frames: the model's neutral pose
      const neutral = new State(model);
      forwardKinematics(model, neutral, false);
      const byNode = new Map<number, { link: number; restToModel: THREE.Matrix4 }>();
      if (binding.bones) {
        for (const b of binding.bones) byNode.set(b.node, { link: b.link, restToModel: new THREE.Matrix4().fromArray(Array.from(b.restToModel)) });
      } else {
        (binding.linkNodes ?? []).forEach((node, link) => { if (node >= 0) byNode.set(node, { link, restToModel: new THREE.Matrix4() }); });
      }
      scene.traverse((o) => {
        if (o instanceof THREE.Mesh) {
          o.castShadow = true;
          o.receiveShadow = true;
          o.frustumCulled = false; // the bind-pose bounds do not follow the ragdoll
          if (o instanceof THREE.SkinnedMesh) this.meshes.push(o);
          else this.rigid.push(o);
        }
        const node = nodeOf.get(o);
        const bound = node === undefined ? undefined : byNode.get(node);
        if (bound === undefined) return;
        linkMatrix4(neutral, bound.link, this.m4);
        const rest = new THREE.Matrix4().fromArray(this.m4);
        const offset = rest.invert().multiply(bound.restToModel).multiply(o.matrixWorld);
        o.matrixAutoUpdate = false;
        o.matrixWorldAutoUpdate = false;
        this.bones.push({ object: o, link: bound.link, offset });
      });
      if (this.bones.length === 0) throw new Error(`${binding.asset}: no node of the file is bound to a link`);
      this.root.add(scene);
      this.ready = true;
      if (this.state) this.update(this.state);
    }).catch((e: unknown) => onError(new Error(`loading ${binding.asset}: ${e instanceof Error ? e.message : String(e)}`)));
  }

  update(state: State): void {
    this.state = state;
    for (const b of this.bones) {
      linkMatrix4(state, b.link, this.m4);
      this.link.fromArray(this.m4);
      b.object.matrixWorld.multiplyMatrices(this.link, b.offset);
    }
  }

  /** For the test hook: where the bones and the skinned vertices of each link are now (CPU skinning, slow). */
  probe(): SkinProbe {
    const { model } = this;
    const out: SkinProbe = { key: this.key, asset: this.binding.asset, loaded: this.ready, meshes: this.meshes.length, links: [] };
    const state = this.state;
    if (!this.ready || !state) return out;
    this.root.updateMatrixWorld(true);
    const P = state.work.pose;
    const sums = Array.from({ length: model.nLinks }, () => ({ c: [0, 0, 0], n: 0, bone: Infinity, at: [0, 0, 0] as [number, number, number] }));
    const linkOfBone = new Map<THREE.Object3D, number>();
    for (const b of this.bones) {
      linkOfBone.set(b.object, b.link);
      const e = b.object.matrixWorld.elements, o = 12 * b.link;
      const d = Math.hypot(e[12] - P[o + 9], e[13] - P[o + 10], e[14] - P[o + 11]);
      if (d < sums[b.link].bone) { sums[b.link].bone = d; sums[b.link].at = [e[12], e[13], e[14]]; }
    }
    const v = new THREE.Vector3();
    for (const mesh of this.meshes) {
      const index = mesh.geometry.getAttribute('skinIndex'), weight = mesh.geometry.getAttribute('skinWeight');
      const bones = mesh.skeleton.bones;
      for (let i = 0; i < index.count; i++) {
        let best = 0;
        for (let k = 1; k < 4; k++) if (weight.getComponent(i, k) > weight.getComponent(i, best)) best = k;
        const link = linkOfBone.get(bones[index.getComponent(i, best)]);
        if (link === undefined) continue;
        mesh.getVertexPosition(i, v);
        v.applyMatrix4(mesh.matrixWorld);
        const s = sums[link];
        s.c[0] += v.x; s.c[1] += v.y; s.c[2] += v.z; s.n++;
      }
    }
    for (const mesh of this.rigid) {
      let bone: THREE.Object3D | null = mesh.parent;
      while (bone && !linkOfBone.has(bone)) bone = bone.parent;
      if (!bone) continue;
      const s = sums[linkOfBone.get(bone)!], pos = mesh.geometry.getAttribute('position');
      for (let i = 0; i < pos.count; i++) {
        v.fromBufferAttribute(pos, i).applyMatrix4(mesh.matrixWorld);
        s.c[0] += v.x; s.c[1] += v.y; s.c[2] += v.z; s.n++;
      }
    }
    sums.forEach((s, link) => {
      if (s.n === 0 && s.bone === Infinity) return;
      const c = [model.com[3 * link], model.com[3 * link + 1], model.com[3 * link + 2]], o = 12 * link;
      const com = [0, 1, 2].map((r) => P[o + 3 * r] * c[0] + P[o + 3 * r + 1] * c[1] + P[o + 3 * r + 2] * c[2] + P[o + 9 + r]) as [number, number, number];
      out.links.push({ link, bone: s.at, centroid: [s.c[0] / s.n, s.c[1] / s.n, s.c[2] / s.n], vertices: s.n, com });
    });
    return out;
  }

  dispose(): void {
    this.disposed = true;
    // the geometry and materials are shared with the cached file's scene: three.js uploads them
    // again if another character still draws them
    disposeTree(this.root);
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
