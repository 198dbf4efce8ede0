/**
 * Which provider, API, model and sign-in a turn runs with, the model catalogue and list prices.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { costField, costOf } from './cost.js';
export type { UsageTotals } from './cost.js';
export { inferProvider } from './infer-provider.js';
export {
  acceptsImages,
  configuredReasoning,
  isKnownModel,
  isReasoningModel,
  lookupModelLimits,
  reasoningSupport,
} from './model-catalog.js';
export type { ModelLimits, ReasoningSupport } from './model-catalog.js';
export {
  MODEL_LIST_FILE,
  MODEL_LIST_MAX_AGE_MS,
  cachedModelList,
  canListModels,
  listedLimits,
  providerModelList,
  saveModelList,
} from './model-lists.js';
export type { ListKey, ModelListQuery } from './model-lists.js';
export { providerCatalogue } from './provider-catalogue.js';
export { MODEL_ID, applyProviderChoice, droppedSignIn } from './provider-choice.js';
export { recordedSelectionOf, resolveConversationSelection } from './resolve-selection.js';
export type { RecordedSelection, ResolvedSelection } from './resolve-selection.js';
export { checkSelection } from './selection-check.js';
export { tokenWindowPhrase } from './token-window.js';
export { wireApiOf } from './wire-api-of.js';
