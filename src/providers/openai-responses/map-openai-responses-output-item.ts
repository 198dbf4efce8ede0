/** Completed Responses output items, usage and end states → canonical items, usage and finish reasons. */
import type { Response, ResponseOutputItem, ResponseUsage } from 'openai/resources/responses/responses';
import type {
  FinishReason,
  ProviderOrigin,
  ReasoningTextPart,
  ResponseItem,
  TokenUsage,
} from '../../protocol/index.js';
import { extraField, type Lenient, tokenCount } from '../openai-shared/lenient.js';
import { PHASE_KEY } from './convert-to-openai-responses-input.js';

/**
 * A completed output item in canonical form, or undefined for kinds Cody neither shows nor replays
 * (hosted tool calls such as web search). `model` is the model the response reported.
 */
export function mapOpenAIResponsesOutputItem(
  item: Lenient<ResponseOutputItem>,
  model: string,
): ResponseItem | undefined {
  const origin: ProviderOrigin = { api: 'openai-responses', model };
  switch (item.type) {
    case 'message': {
      const text = (item.content ?? [])
        .map((part) => {
          if (part?.type === 'output_text') return part.text ?? '';
          if (part?.type === 'refusal') return part.refusal ?? '';
          return '';
        })
        .join('');
      const phase = item.phase;
      return {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text }],
        ...(item.id ? { id: item.id } : {}),
        ...(phase ? { origin, provider_data: { [PHASE_KEY]: phase } } : {}),
      };
    }
    case 'function_call':
      return {
        type: 'function_call',
        name: item.name ?? '',
        arguments: item.arguments ? item.arguments : '{}',
        call_id: item.call_id ?? item.id ?? '',
        ...(item.id ? { id: item.id } : {}),
        origin,
      };
    case 'reasoning': {
      const content: ReasoningTextPart[] = (item.content ?? []).flatMap((part) =>
        part?.text ? [{ type: 'reasoning_text', text: part.text }] : [],
      );
      return {
        type: 'reasoning',
        ...(item.id ? { id: item.id } : {}),
        summary: (item.summary ?? []).flatMap((part) =>
          typeof part?.text === 'string' ? [{ type: 'summary_text' as const, text: part.text }] : [],
        ),
        ...(content.length > 0 ? { content } : {}),
        encrypted_content: typeof item.encrypted_content === 'string' ? item.encrypted_content : null,
        origin,
      };
    }
    default:
      // Hosted tools and item kinds newer than this code: not part of the conversation Cody replays.
      return undefined;
  }
}

/** `input_tokens` → input (cached tokens included), `output_tokens` → output (reasoning included). */
export function mapOpenAIResponsesUsage(usage: Lenient<ResponseUsage>): TokenUsage {
  const inputTokens = tokenCount(usage.input_tokens);
  const outputTokens = tokenCount(usage.output_tokens);
  const cachedInputTokens = tokenCount(extraField(usage.input_tokens_details, 'cached_tokens'));
  const reasoningTokens = tokenCount(extraField(usage.output_tokens_details, 'reasoning_tokens'));
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

/**
 * How a response that ended normally finished: `completed` → tool-calls when it called a function,
 * else stop; `incomplete` → length (max_output_tokens) or content-filter, by its reason.
 */
export function mapOpenAIResponsesFinishReason(
  status: 'completed' | 'incomplete',
  response: Lenient<Response> | null | undefined,
  items: readonly ResponseItem[],
): { reason: FinishReason; rawReason?: string } {
  if (status === 'completed') {
    return { reason: items.some((item) => item.type === 'function_call') ? 'tool-calls' : 'stop' };
  }
  const rawReason = response?.incomplete_details?.reason ?? undefined;
  return {
    reason: rawReason === 'content_filter' ? 'content-filter' : 'length',
    ...(rawReason ? { rawReason } : {}),
  };
}
