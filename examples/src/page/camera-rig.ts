/**
 * The camera that frames a scene's subject and follows it. The orbit controls stay: dragging turns
 * the view around the subject (the rig keeps the angle chosen); a zoom or a pan hands the distance
 * to the user, and the rig then only carries the camera along as the subject moves. `home()`
 * (the page's "Frame" button) goes back to framing from the scene's own direction.
 *
 * Framing: the subject's box is enclosed in a sphere of radius r; seen from distance
 * d = r / sin(a), the sphere's outline is a circle of angular radius a, which spans the free
 * rectangle's shorter side s when tan(a) = tan(fov / 2) s / H (H the canvas height). A view offset
 * (PerspectiveCamera.setViewOffset) puts the camera's axis at the free rectangle's centre.
 */
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Box } from '../sim/subject.js';
import type { Vec3 } from '../sim/scene.js';
import type { Rect } from './free-rect.js';

/** Room left around the subject's sphere: its outline fills 1 / MARGIN of the free side. */
const MARGIN = 1.2;
/** Time constant of the camera's approach to the framing, wall seconds. */
const LAG = 0.12;
/** Smallest radius framed, metres (a small subject is not filled to the edges). */
const MIN_RADIUS = 0.5;

export class CameraRig {
  /** True while the rig sets the distance (until the user zooms or pans). */
  auto = true;
  private readonly homeDir = new THREE.Vector3(0, 0.4, 1).normalize();
  private readonly centre = new THREE.Vector3();
  private readonly last = new THREE.Vector3();
  private readonly dir = new THREE.Vector3();
  private readonly v = new THREE.Vector3();
  private hasLast = false;
  private snap = true;
  private interacting = false;
  private startDistance = 0;
  private readonly startTarget = new THREE.Vector3();

  constructor(private readonly camera: THREE.PerspectiveCamera, private readonly controls: OrbitControls) {
    controls.addEventListener('start', () => {
      this.interacting = true;
      this.startDistance = camera.position.distanceTo(controls.target);
      this.startTarget.copy(controls.target);
    });
    controls.addEventListener('end', () => {
      this.interacting = false;
      const d = camera.position.distanceTo(controls.target);
      if (Math.abs(d - this.startDistance) > 0.01 * this.startDistance || controls.target.distanceTo(this.startTarget) > 1e-3) this.auto = false;
    });
  }

  /** A new scene: look from `position` towards `target` (their direction is kept), framing at the next update. */
  setScene(position: Vec3, target: Vec3): void {
    this.homeDir.set(position[0] - target[0], position[1] - target[1], position[2] - target[2]).normalize();
    this.controls.target.set(target[0], target[1], target[2]);
    this.camera.position.set(position[0], position[1], position[2]);
    this.home();
  }

  /** Back to framing the subject from the scene's direction. */
  home(): void {
    this.auto = true;
    this.snap = true;
    this.hasLast = false;
    this.camera.position.copy(this.controls.target).addScaledVector(this.homeDir, Math.max(1, this.camera.position.distanceTo(this.controls.target)));
  }

  /** The distance at which a sphere of radius r fills the free rectangle's shorter side. */
  fitDistance(radius: number, free: Rect, canvasHeight: number): number {
    const side = Math.max(40, Math.min(free.right - free.left, free.bottom - free.top));
    const tanHalf = Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2);
    const a = Math.atan((tanHalf * side) / Math.max(1, canvasHeight));
    return (MARGIN * Math.max(radius, MIN_RADIUS)) / Math.sin(a);
  }

  /**
   * Once per frame: aim at the subject `box` (null: nothing to frame) so that it shows in `free`
   * (CSS pixels of the canvas, whose size is width x height), `dt` wall seconds after the last call.
   */
  update(box: Box | null, free: Rect, width: number, height: number, dt: number): void {
    const cam = this.camera;
    const fx = (free.left + free.right) / 2, fy = (free.top + free.bottom) / 2;
    cam.aspect = width / Math.max(1, height);
    cam.setViewOffset(width, height, width / 2 - fx, height / 2 - fy, width, height);
    cam.updateProjectionMatrix();
    if (!box || !(box[3] >= box[0])) return;
    this.centre.set((box[0] + box[3]) / 2, (box[1] + box[4]) / 2, (box[2] + box[5]) / 2);
    const radius = 0.5 * Math.hypot(box[3] - box[0], box[4] - box[1], box[5] - box[2]);
    const target = this.controls.target;
    if (this.interacting) {
      // the user is turning the view: leave it alone, and move on from here afterwards
      this.last.copy(this.centre);
      this.hasLast = true;
      return;
    }
    if (this.auto) {
      const k = this.snap ? 1 : 1 - Math.exp(-Math.max(0, dt) / LAG);
      this.dir.copy(cam.position).sub(target);
      const d0 = this.dir.length();
      if (d0 > 1e-9) this.dir.divideScalar(d0); else this.dir.copy(this.homeDir);
      const d = d0 + (this.fitDistance(radius, free, height) - d0) * k;
      target.lerp(this.centre, k);
      cam.position.copy(target).addScaledVector(this.dir, d);
    } else if (this.hasLast) {
      // the user's distance and offset, carried along with the subject
      this.v.copy(this.centre).sub(this.last);
      target.add(this.v);
      cam.position.add(this.v);
    }
    this.snap = false;
    this.last.copy(this.centre);
    this.hasLast = true;
  }
}
