/**
 * Token counting: the heuristic and exact estimators and the per-conversation accountant.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export {
  countItemTokens,
  countItemsTokens,
  encryptedReasoningTokens,
  IMAGE_TOKENS,
  ITEM_OVERHEAD_TOKENS,
  LOW_DETAIL_IMAGE_TOKENS,
  type TokenEstimator,
} from './token-estimator.js';
export { heuristicCountText, heuristicEstimator, SAFETY_MARGIN } from './heuristic-estimator.js';
export {
  createTokenEstimator,
  encodingFor,
  exactEstimator,
  type ExactEncoding,
} from './create-token-estimator.js';
export { TokenAccountant, type ReportedTokens } from './token-accountant.js';
