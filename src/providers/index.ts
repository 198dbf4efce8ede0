/**
 * The providers' public face: the registry of wire APIs (src/providers/registry.ts) and what derives
 * from it, and the client factory. Each adapter (and so each SDK) is imported only when a client for it
 * is built (its definition's `createClient`), so `cody list` loads no SDK and `cody chat` loads exactly one.
 */
import type { ClientOptions, ModelClient } from '../protocol/index.js';
import { requireDefinition } from './lookup.js';

export {
  apiKeyVariables,
  credentialHint,
  apisOfProvider,
  definitions,
  registerDefinition,
  definitionOf,
  isProviderName,
  isWireApi,
  modelEntries,
  ownProviderOf,
  presetOf,
  priceEntries,
  providerNames,
  providerPresets,
  requireDefinition,
  requirePreset,
  secretVariables,
  wireApis,
} from './lookup.js';
export { normalizeItems, ABORTED_OUTPUT } from './shared/normalize-items.js';
export type * from './definition.js';
export { isReplayableTo, modelFamily } from './shared/origin.js';
export { listModels } from './shared/list-models.js';
export { SIGN_IN_FAILED_CODE, SIGN_IN_REFUSED_CODE } from './shared/bearer-fetch.js';

export async function createModelClient(options: ClientOptions): Promise<ModelClient> {
  return requireDefinition(options.api).createClient(options);
}
