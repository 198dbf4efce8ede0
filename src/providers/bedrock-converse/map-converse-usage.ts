/** Converse usage and stop reasons → canonical usage and finish reasons. */
import type { TokenUsage as ConverseTokenUsage } from '@aws-sdk/client-bedrock-runtime';
import type { FinishReason, TokenUsage } from '../../protocol/index.js';

/**
 * Canonical usage from a `metadata` event. Converse's `inputTokens` leaves out the prompt cache (as
 * Anthropic's does), so the prompt is input + cache reads + cache writes; of those only the reads were
 * served from the cache. Unknown counts stay undefined.
 */
export function mapConverseUsage(usage: ConverseTokenUsage | undefined): TokenUsage | undefined {
  if (!usage) return undefined;
  const input = count(usage.inputTokens);
  const cacheRead = count(usage.cacheReadInputTokens);
  const cacheWrite = count(usage.cacheWriteInputTokens);
  const output = count(usage.outputTokens);
  const result: TokenUsage = {};
  if (input !== undefined) result.inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  if (cacheRead !== undefined) result.cachedInputTokens = cacheRead;
  if (output !== undefined) result.outputTokens = output;
  if (result.inputTokens !== undefined && result.outputTokens !== undefined)
    result.totalTokens = result.inputTokens + result.outputTokens;
  return Object.keys(result).length > 0 ? result : undefined;
}

/** The finish reason for a Converse `stopReason` (unknown and missing ones are `other`). */
export function mapConverseStopReason(reason: string | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'content_filtered':
    case 'guardrail_intervened':
      return 'content-filter';
    default:
      // Includes malformed_model_output and malformed_tool_use.
      return 'other';
  }
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
