import type { TokenEstimator } from '../tokens/index.js';
import { DEFAULT_TOOL_OUTPUT_TOKENS } from '../config/index.js';
import { truncateMiddle } from './truncate-middle.js';

/**
 * A tool's output as it is recorded: at most `maxTokens` (default 10,000, configurable as
 * `toolOutputTokens`), head and tail kept around a `…N tokens truncated…` marker — the start of a
 * command's output says what ran, the end says how it finished.
 */
export function truncateToolOutput(
  output: string,
  maxTokens: number = DEFAULT_TOOL_OUTPUT_TOKENS,
  estimator: TokenEstimator,
): string {
  return truncateMiddle(output, maxTokens, estimator);
}
