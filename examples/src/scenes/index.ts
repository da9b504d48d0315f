/**
 * Every scene of the page and the headless demo, in menu order. A new scene is one module that
 * exports a SceneFactory, added to this list.
 */
import type { Scene, SceneFactory } from '../sim/scene.js';
import { chain, longChain } from './chain.js';
import { chainFloor } from './chain-floor.js';
import { crowd } from './crowd.js';
import { death, getUp } from './death.js';
import { follow } from './follow.js';
import { gltfRagdoll } from './gltf-ragdoll.js';
import { limits } from './limits.js';
import { pile } from './pile.js';
import { shootingRange } from './shooting-range.js';
import { stabilization } from './stabilization.js';

export const SCENES: readonly SceneFactory[] = [chain, longChain, chainFloor, death, getUp, crowd, follow, gltfRagdoll, pile, shootingRange, stabilization, limits];

export const DEFAULT_SCENE = 'chain';

export interface SceneEntry {
  readonly name: string;
  readonly title: string;
  readonly summary: string;
  readonly create: SceneFactory;
}

/** Names, titles and factories of the registered scenes (instances are cheap until setup()). */
export function sceneEntries(): SceneEntry[] {
  return SCENES.map((create) => {
    const s = create();
    return { name: s.name, title: s.title, summary: s.summary, create };
  });
}

/** A fresh instance of the named scene; throws listing the known names. */
export function createScene(name: string): Scene {
  const entry = sceneEntries().find((e) => e.name === name);
  if (!entry) throw new Error(`unknown scene "${name}" (scenes: ${sceneEntries().map((e) => e.name).join(', ')})`);
  return entry.create();
}
