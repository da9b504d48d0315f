/** The three.js stage every scene is drawn on: renderer, camera, orbit controls, lights, floor. */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Vec3 } from '../sim/scene.js';
import type { Quality } from './quality.js';

const BACKGROUND = 0x1c2029;
/** Where the sun is, from the point it lights (the camera's target). */
const SUN_OFFSET = new THREE.Vector3(4, 9, 6);

/**
 * The floor's grid as a texture: a line every metre, a fainter one every 25 cm, drawn once into a
 * canvas and repeated, mipmapped and filtered anisotropically. A grid of lines a millimetre above
 * the floor (THREE.GridHelper) breaks into dashes where the depth buffer cannot tell the two apart;
 * a texture on the floor itself cannot.
 */
function gridTexture(renderer: THREE.WebGLRenderer): THREE.Texture {
  const size = 256;
  const c = document.createElement('canvas');
  c.width = c.height = size;
  const g = c.getContext('2d')!;
  g.fillStyle = '#2c323d';
  g.fillRect(0, 0, size, size);
  g.strokeStyle = '#343b47';
  g.lineWidth = 2;
  for (let k = 1; k < 4; k++) {
    g.beginPath(); g.moveTo((k * size) / 4, 0); g.lineTo((k * size) / 4, size); g.stroke();
    g.beginPath(); g.moveTo(0, (k * size) / 4); g.lineTo(size, (k * size) / 4); g.stroke();
  }
  g.strokeStyle = '#4a5363';
  g.lineWidth = 4;
  g.strokeRect(0, 0, size, size); // the metre lines, half on each side of a tile's edge
  const t = new THREE.CanvasTexture(c);
  t.wrapS = t.wrapT = THREE.RepeatWrapping;
  t.colorSpace = THREE.SRGBColorSpace;
  t.anisotropy = renderer.capabilities.getMaxAnisotropy();
  return t;
}

export class Stage {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(45, 1, 0.05, 200);
  readonly controls: OrbitControls;
  /** Everything a scene draws goes under this group. */
  readonly content = new THREE.Group();
  private readonly sun: THREE.DirectionalLight;

  constructor(readonly canvas: HTMLCanvasElement, readonly quality: Quality) {
    // preserveDrawingBuffer lets the test hook read the pixels of the last frame.
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: quality.antialias, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, quality.maxPixelRatio));
    this.renderer.shadowMap.enabled = quality.shadows;
    this.renderer.shadowMap.type = quality.level === 'high' ? THREE.PCFShadowMap : THREE.BasicShadowMap;
    this.renderer.toneMapping = THREE.ACESFilmicToneMapping;

    this.scene.background = new THREE.Color(BACKGROUND);
    this.scene.fog = new THREE.Fog(BACKGROUND, 14, 40);
    this.scene.add(new THREE.HemisphereLight(0xdde6ff, 0x3a3128, 1.6));
    const sun = new THREE.DirectionalLight(0xfff3e0, 2.6);
    sun.position.copy(SUN_OFFSET);
    sun.castShadow = true;
    sun.shadow.mapSize.setScalar(quality.shadowMapSize);
    const sc = sun.shadow.camera;
    sc.left = -5; sc.right = 5; sc.top = 5; sc.bottom = -5; sc.near = 1; sc.far = 30;
    sun.shadow.bias = -0.0004;
    sun.shadow.normalBias = 0.02;
    this.sun = sun;
    this.scene.add(sun, sun.target);

    const tiles = 80;
    const grid = gridTexture(this.renderer);
    grid.repeat.set(tiles, tiles);
    const floor = new THREE.Mesh(
      new THREE.PlaneGeometry(tiles, tiles),
      new THREE.MeshStandardMaterial({ map: grid, roughness: 0.95, metalness: 0 }),
    );
    floor.rotation.x = -Math.PI / 2;
    floor.receiveShadow = true;
    floor.name = 'floor';
    this.scene.add(floor);
    this.scene.add(this.content);

    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.controls.dampingFactor = 0.12;
    this.controls.maxPolarAngle = 0.49 * Math.PI; // not under the floor
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

  /** Where a world point appears on the page, in client pixels, and whether it is in front of the camera. */
  project(x: number, y: number, z: number): { x: number; y: number; inFront: boolean } {
    this.camera.updateMatrixWorld();
    const v = new THREE.Vector3(x, y, z).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height, inFront: v.z < 1 && v.z > -1 };
  }

  /** The canvas size in CSS pixels. */
  get width(): number { return this.canvas.clientWidth || window.innerWidth; }
  get height(): number { return this.canvas.clientHeight || window.innerHeight; }

  resize(): void {
    this.renderer.setSize(this.width, this.height, false);
  }

  /** Shadows where the camera looks: the sun's shadow box follows the target, sized to the subject. */
  private placeSun(radius: number): void {
    const t = this.controls.target;
    this.sun.position.copy(t).add(SUN_OFFSET);
    this.sun.target.position.copy(t);
    const half = Math.min(12, Math.max(3, radius + 1.5));
    const sc = this.sun.shadow.camera;
    if (sc.right !== half) {
      sc.left = -half; sc.right = half; sc.top = half; sc.bottom = -half;
      sc.updateProjectionMatrix();
    }
  }

  render(subjectRadius = 2): void {
    this.controls.update();
    this.placeSun(subjectRadius);
    this.renderer.render(this.scene, this.camera);
  }
}
