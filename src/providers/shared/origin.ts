import type { ProviderOrigin, WireApi } from '../../protocol/index.js';
import { definitionOf } from '../lookup.js';
import { familyOfModelId } from './model-family.js';

/** A model's family on `api`, for deciding whether opaque reasoning data can be replayed to it. */
export function modelFamily(api: WireApi, model: string): string {
  return (definitionOf(api)?.modelFamily ?? familyOfModelId)(model);
}

/**
 * Whether opaque data produced by `origin` (encrypted reasoning, signatures) may be sent to `api`/`model`:
 * only to the API and model family that produced it, and never when another program's account produced it
 * (an imported Codex rollout). Anywhere else it would be rejected or misread.
 */
export function isReplayableTo(origin: ProviderOrigin | undefined, api: WireApi, model: string): boolean {
  if (!origin || origin.foreign === true) return false;
  return origin.api === api && modelFamily(origin.api, origin.model) === modelFamily(api, model);
}
