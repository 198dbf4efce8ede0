import type { ProviderOrigin, WireApi } from '../../protocol/index.js';

/**
 * A model's family for deciding whether opaque reasoning data can be replayed to it: the model id without
 * date stamps and preview/latest tags. Anthropic accepts thinking signatures from any Claude model, so its
 * family is the API itself.
 */
export function modelFamily(api: WireApi, model: string): string {
  if (api === 'anthropic-messages') return 'claude';
  return model
    .toLowerCase()
    .replace(/^models\//, '')
    .replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|\d{2}-\d{2})$/, '')
    .replace(/-(preview|latest|exp)(-.*)?$/, '');
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
