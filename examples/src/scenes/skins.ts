/**
 * The skinned characters of the walking and ragdoll scenes: CesiumMan and RobotExpressive (glTF)
 * retargeted onto the humanoid preset (skin-retarget.ts), so that the preset's physics (the walk
 * it follows, its joint limits, its shapes) stays as it is and the skin follows its links.
 */
import { importGltf } from '@sinew/characters';
import type { Model } from '@sinew/featherstone';
import type { SceneContext, SkinBinding } from '../sim/scene.js';
import { CESIUM_MAN_ON_HUMANOID, retargetSkin, ROBOT_EXPRESSIVE_ON_HUMANOID, type SkinMap } from './skin-retarget.js';

export const CESIUM_MAN = 'data/CesiumMan.glb';
export const ROBOT_EXPRESSIVE = 'data/RobotExpressive.glb';

const MAPS: Readonly<Record<string, SkinMap>> = { [CESIUM_MAN]: CESIUM_MAN_ON_HUMANOID, [ROBOT_EXPRESSIVE]: ROBOT_EXPRESSIVE_ON_HUMANOID };

/** A skin (CESIUM_MAN or ROBOT_EXPRESSIVE, listed in the scene's assets) on a humanoid preset of `height` metres. */
export function humanoidSkin(ctx: SceneContext, asset: string, model: Model, height: number): SkinBinding {
  const map = MAPS[asset];
  if (!map) throw new RangeError(`humanoidSkin: no bone map for "${asset}" (known: ${Object.keys(MAPS).join(', ')})`);
  const { skeleton } = importGltf(ctx.asset(asset), { file: asset });
  return { asset, bones: retargetSkin(skeleton, model, map, { height }).bones };
}
