/** Gemini `usageMetadata` and finish reasons → canonical usage and finish reasons. */
import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import type { FinishReason, TokenUsage } from '../../protocol/index.js';

/**
 * Canonical usage for one `usageMetadata` (each chunk carries the running totals, so the last one is the
 * response's). Gemini counts thinking apart from the answer, so output = candidates + thoughts, of which
 * the thoughts are reasoning. Unknown counts stay undefined.
 */
export function mapGeminiUsage(usage: Partial<GenerateContentResponseUsageMetadata>): TokenUsage {
  const result: TokenUsage = {};
  const prompt = count(usage.promptTokenCount);
  const cached = count(usage.cachedContentTokenCount);
  const candidates = count(usage.candidatesTokenCount);
  const thoughts = count(usage.thoughtsTokenCount);
  const total = count(usage.totalTokenCount);
  if (prompt !== undefined) result.inputTokens = prompt;
  if (cached !== undefined) result.cachedInputTokens = cached;
  if (candidates !== undefined || thoughts !== undefined)
    result.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  if (thoughts !== undefined) result.reasoningTokens = thoughts;
  if (total !== undefined) result.totalTokens = total;
  return result;
}

/** Finish reasons that mean the answer was withheld or cut by a safety or policy filter. */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * The finish reason for Gemini's `finishReason` (or a prompt's `blockReason`). Gemini says `STOP` after
 * function calls too, so `madeCalls` turns that into `tool-calls`.
 */
export function mapGeminiFinishReason(reason: string | undefined, madeCalls: boolean): FinishReason {
  if (reason === 'STOP') return madeCalls ? 'tool-calls' : 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && FILTERED.has(reason)) return 'content-filter';
  // OTHER, MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, TOO_MANY_TOOL_CALLS, and anything newer.
  return madeCalls ? 'tool-calls' : 'other';
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
