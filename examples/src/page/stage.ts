/** The three.js stage every scene is drawn on: renderer, camera, orbit controls, lights, floor. */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Vec3 } from '../sim/scene.js';
import type { Quality } from './quality.js';

const BACKGROUND = 0x1c2029;

export class Stage {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(45, 1, 0.05, 200);
  readonly controls: OrbitControls;
  /** Everything a scene draws goes under this group. */
  readonly content = new THREE.Group();

  constructor(readonly canvas: HTMLCanvasElement, quality: Quality) {
    // preserveDrawingBuffer lets the test hook read the pixels of the last frame.
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: quality.antialias, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, quality.maxPixelRatio));
    this.renderer.shadowMap.enabled = quality.shadows;
    this.renderer.shadowMap.type = THREE.PCFShadowMap;
    this.renderer.toneMapping = THREE.ACESFilmicToneMapping;

    this.scene.background = new THREE.Color(BACKGROUND);
    this.scene.fog = new THREE.Fog(BACKGROUND, 10, 32);
    this.scene.add(new THREE.HemisphereLight(0xdde6ff, 0x3a3128, 1.6));
    const sun = new THREE.DirectionalLight(0xfff3e0, 2.6);
    sun.position.set(4, 9, 6);
    sun.castShadow = true;
    sun.shadow.mapSize.set(2048, 2048);
    const sc = sun.shadow.camera;
    sc.left = -7; sc.right = 7; sc.top = 7; sc.bottom = -7; sc.near = 1; sc.far = 30;
    sun.shadow.bias = -0.0004;
    this.scene.add(sun);

    const floor = new THREE.Mesh(
      new THREE.PlaneGeometry(80, 80),
      new THREE.MeshStandardMaterial({ color: 0x2c323d, roughness: 0.95, metalness: 0 }),
    );
    floor.rotation.x = -Math.PI / 2;
    floor.receiveShadow = true;
    this.scene.add(floor);
    const grid = new THREE.GridHelper(16, 32, 0x4d5666, 0x363d48);
    grid.position.y = 0.002;
    this.scene.add(grid);
    this.scene.add(this.content);

    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.controls.dampingFactor = 0.12;
    this.resize();
    window.addEventListener('resize', () => this.resize());
  }

  private readonly raycaster = new THREE.Raycaster();
  private readonly ndc = new THREE.Vector2();

  /** The ray from the camera through a point of the canvas (client pixels). */
  ray(clientX: number, clientY: number): { origin: Vec3; direction: Vec3 } {
    const r = this.canvas.getBoundingClientRect();
    this.ndc.set(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(this.ndc, this.camera);
    const o = this.raycaster.ray.origin, d = this.raycaster.ray.direction;
    return { origin: [o.x, o.y, o.z], direction: [d.x, d.y, d.z] };
  }

  /** Where a world point appears on the page, in client pixels. */
  project(x: number, y: number, z: number): { x: number; y: number } {
    const v = new THREE.Vector3(x, y, z).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }

  lookFrom(position: Vec3, target: Vec3): void {
    this.camera.position.set(position[0], position[1], position[2]);
    this.controls.target.set(target[0], target[1], target[2]);
    this.controls.update();
  }

  /**
   * Where on the canvas (CSS pixels) the camera's target appears: the middle of what the panels
   * leave free, so that a scene is not drawn behind them. Null: the canvas centre.
   */
  private focus: (w: number, h: number) => { x: number; y: number } | null = () => null;

  /** Puts the camera's target at `focus(width, height)` on the canvas instead of its centre. */
  setFocus(focus: (w: number, h: number) => { x: number; y: number } | null): void {
    this.focus = focus;
    this.resize();
  }

  resize(): void {
    const w = this.canvas.clientWidth || window.innerWidth;
    const h = this.canvas.clientHeight || window.innerHeight;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / Math.max(1, h);
    const f = this.focus(w, h);
    // a view offset shifts the picture without changing the perspective: the target (at the
    // centre of the full view) lands on the focus point
    if (f) this.camera.setViewOffset(w, h, w / 2 - f.x, h / 2 - f.y, w, h);
    else this.camera.clearViewOffset();
    this.camera.updateProjectionMatrix();
  }

  render(): void {
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
  }
}
