/** Anthropic usage and stop reasons → canonical usage and finish reasons. */
import type { FinishReason, TokenUsage } from '../../protocol/index.js';

/**
 * Usage fields as they arrive in `message_start.message.usage` and `message_delta.usage`; read leniently
 * (any may be missing or null, and later events repeat or update earlier ones).
 */
export interface AnthropicUsageFields {
  input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** The counts seen so far in one stream; a later report of a field replaces the earlier one. */
export interface AnthropicUsageCounts {
  input?: number;
  cacheRead?: number;
  cacheCreation?: number;
  output?: number;
  thinking?: number;
}

/** Folds one usage report into the running counts (fields it lacks keep their earlier values). */
export function absorbAnthropicUsage(
  counts: AnthropicUsageCounts,
  usage: AnthropicUsageFields | null | undefined,
): void {
  if (!usage) return;
  const input = count(usage.input_tokens);
  const cacheRead = count(usage.cache_read_input_tokens);
  const cacheCreation = count(usage.cache_creation_input_tokens);
  const output = count(usage.output_tokens);
  const thinking = count(usage.output_tokens_details?.thinking_tokens);
  if (input !== undefined) counts.input = input;
  if (cacheRead !== undefined) counts.cacheRead = cacheRead;
  if (cacheCreation !== undefined) counts.cacheCreation = cacheCreation;
  if (output !== undefined) counts.output = output;
  if (thinking !== undefined) counts.thinking = thinking;
}

/**
 * Canonical usage. Anthropic's `input_tokens` leaves out cached input, so the prompt size is input +
 * cache reads + cache writes; of those, only cache reads were served from the cache. Unknown stays
 * undefined.
 */
export function mapAnthropicUsage(counts: AnthropicUsageCounts): TokenUsage | undefined {
  const usage: TokenUsage = {};
  if (counts.input !== undefined)
    usage.inputTokens = counts.input + (counts.cacheRead ?? 0) + (counts.cacheCreation ?? 0);
  if (counts.cacheRead !== undefined) usage.cachedInputTokens = counts.cacheRead;
  if (counts.output !== undefined) usage.outputTokens = counts.output;
  if (counts.thinking !== undefined) usage.reasoningTokens = counts.thinking;
  if (usage.inputTokens !== undefined && usage.outputTokens !== undefined)
    usage.totalTokens = usage.inputTokens + usage.outputTokens;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** The finish reason for a `stop_reason` (unknown and missing ones are `other`). */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      // Includes `pause_turn` (a server-tool turn paused, to be continued by sending it back).
      return 'other';
  }
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
