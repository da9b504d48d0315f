/** A SceneView for Node: draws nothing and keeps the latest pose of every articulated body. */
import type { Model, State } from '@sinew/featherstone';
import { bodyPose, type BodyPose } from './pose.js';
import type { SceneView } from './scene.js';

export class PoseRecorder implements SceneView {
  private readonly bodies = new Map<string, { model: Model; state: State }>();

  articulation(key: string, model: Model, state: State): void {
    this.bodies.set(key, { model, state });
  }

  staticShape(): void {}
  forces(): void {}
  contacts(): void {}
  lines(): void {}
  marker(): void {}
  skinnedMesh(): void {}

  /** Poses of the bodies seen by the last sync, in the order they were first drawn. */
  poses(): BodyPose[] {
    return [...this.bodies].map(([key, b]) => bodyPose(key, b.model, b.state));
  }
}
