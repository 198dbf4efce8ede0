/**
 * Picks the estimator for a model: the exact o200k/cl100k encoding for OpenAI models when asked for,
 * the calibrated heuristic otherwise. The tokenizer is imported only on demand — building it costs
 * ~0.2 s and tens of MiB — so a process that stays far below the limit never loads it.
 */
import type { WireApi } from '../../protocol/index.js';
import { definitionOf, type ExactEncoding } from '../../providers/lookup.js';
import { boundedExactCount } from './bounded-count.js';
import { heuristicCountText, heuristicEstimator } from './heuristic-estimator.js';
import { countItemTokens, type TokenEstimator } from './token-estimator.js';

/** The exact encodings Cody can count with. */
export type { ExactEncoding };

/**
 * The exact encoding of a model on `api` (its definition's `exactEncoding`: OpenAI's o200k/cl100k), or
 * undefined for other APIs and unknown models (a local model behind an OpenAI-compatible server has its
 * own tokenizer).
 */
export function encodingFor(api: WireApi, model: string): ExactEncoding | undefined {
  return definitionOf(api)?.exactEncoding?.(model);
}

/** Special-token strings (`<|endoftext|>`) in user text are counted as plain text, never rejected. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

async function loadCounter(encoding: ExactEncoding): Promise<(text: string) => number> {
  switch (encoding) {
    case 'o200k': {
      const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
      return (text) => countTokens(text, PLAIN_TEXT);
    }
    case 'cl100k': {
      const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
      return (text) => countTokens(text, PLAIN_TEXT);
    }
    default: {
      const exhaustive: never = encoding;
      throw new Error(`unknown encoding ${String(exhaustive)}`);
    }
  }
}

/**
 * An estimator that counts text with `count` (an exact encoding), bounded in time whatever the text:
 * runs without a break are counted in slices and huge texts by the heuristic (see bounded-count).
 */
export function exactEstimator(
  kind: ExactEncoding,
  count: (text: string) => number,
  imageApi?: WireApi,
): TokenEstimator {
  const countText = (text: string): number => boundedExactCount(text, count, heuristicCountText);
  return {
    kind,
    countText,
    countItem: (item) => countItemTokens(item, countText, imageApi),
    ...(imageApi !== undefined ? { imageApi } : {}),
  };
}

/**
 * The exact tokenizer for an OpenAI model when `exact` is true, else (and for every other model) the
 * heuristic. Callers ask for `exact` only when the heuristic puts the history near the limit.
 */
export async function createTokenEstimator(options: {
  api: WireApi;
  model: string;
  exact: boolean;
}): Promise<TokenEstimator> {
  const encoding = options.exact ? encodingFor(options.api, options.model) : undefined;
  if (encoding === undefined) return heuristicEstimator(options.api);
  return exactEstimator(encoding, await loadCounter(encoding), options.api);
}
