/** Chat Completions usage and finish reasons → canonical ones. */
import type { CompletionUsage } from 'openai/resources/completions';
import type { FinishReason, TokenUsage } from '../../protocol/index.js';
import { extraField, tokenCount } from '../openai-shared/lenient.js';

/** The usage object as compatible servers may send it: every field optional, any of them odd. */
type LenientUsage = {
  [Key in keyof CompletionUsage]?: unknown;
};

/** `prompt_tokens` → input, `completion_tokens` → output, with cached and reasoning details when reported. */
export function mapOpenAIChatUsage(usage: LenientUsage): TokenUsage {
  const inputTokens = tokenCount(usage.prompt_tokens);
  const outputTokens = tokenCount(usage.completion_tokens);
  const cachedInputTokens = tokenCount(extraField(usage.prompt_tokens_details, 'cached_tokens'));
  const reasoningTokens = tokenCount(extraField(usage.completion_tokens_details, 'reasoning_tokens'));
  const totalTokens =
    tokenCount(usage.total_tokens) ??
    (inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined);
  return {
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(totalTokens !== undefined ? { totalTokens } : {}),
  };
}

/** `finish_reason` → canonical; anything unknown (a compatible server's own reason) is `other`. */
export function mapOpenAIChatFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
