/** Measures scenes report, computed the same way for every scene. */
import { JointType, type Model, type State } from '@sinew/featherstone';

/**
 * Largest distance beyond a position limit over the 1-dof (revolute, prismatic) joints, in
 * radians or metres; 0 when every joint is within its range.
 */
export function maxLimitViolation(model: Model, state: State): number {
  let worst = 0;
  for (let i = 0; i < model.nLinks; i++) {
    const t = model.jointType[i];
    if (t !== JointType.revolute && t !== JointType.prismatic) continue;
    const d = model.vOffset[i];
    const q = state.q[model.qOffset[i]];
    worst = Math.max(worst, model.lower[d] - q, q - model.upper[d]);
  }
  return worst;
}

/** Throws, naming the scene and the time, when a state has a non-finite coordinate. */
export function assertFinite(scene: string, time: number, state: State): void {
  const k = state.firstNonFinite();
  if (k < 0) return;
  const nq = state.q.length;
  const what = k < nq ? `q[${k}]` : `qd[${k - nq}]`;
  throw new Error(`scene "${scene}": ${what} became non-finite at t = ${time.toFixed(4)} s`);
}
