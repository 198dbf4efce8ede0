import { ProviderError, type ModelClient, type ResponseItem, type ToolSpec } from '../../protocol/index.js';
import { messageText } from '../rollout/index.js';

/** What one summary request produced: the model's text, or the provider's error. */
export type SummaryResponse = { kind: 'text'; text: string } | { kind: 'error'; error: ProviderError };

/**
 * Streams one summary request and collects the assistant's text: from completed assistant message items
 * when the client reports them, else from the text deltas. The conversation's tools are defined but may
 * not be called (`toolChoice: 'none'`): Anthropic refuses a history with tool blocks and no tools, and the
 * same tools keep the provider's cached prompt prefix. A ProviderError, streamed or thrown, is returned;
 * anything else thrown is a bug and propagates.
 */
export async function requestSummary(
  client: ModelClient,
  items: ResponseItem[],
  maxOutputTokens: number,
  signal: AbortSignal | undefined,
  tools: readonly ToolSpec[] = [],
): Promise<SummaryResponse> {
  let fromDeltas = '';
  let fromItems = '';
  try {
    for await (const event of client.stream({
      items,
      tools: [...tools],
      ...(tools.length > 0 ? { toolChoice: 'none' as const } : {}),
      maxOutputTokens,
      ...(signal ? { signal } : {}),
    })) {
      switch (event.type) {
        case 'text-delta':
          fromDeltas += event.text;
          break;
        case 'item':
          if (event.item.type === 'message' && event.item.role === 'assistant') {
            fromItems += messageText(event.item);
          }
          break;
        case 'error':
          return { kind: 'error', error: event.error };
        case 'reasoning-delta':
        case 'tool-call-delta':
        case 'usage':
        case 'finish':
          break;
        default: {
          const exhaustive: never = event;
          throw new Error(`unknown stream event ${JSON.stringify(exhaustive)}`);
        }
      }
    }
  } catch (error) {
    if (error instanceof ProviderError) return { kind: 'error', error };
    throw error;
  }
  return { kind: 'text', text: fromItems !== '' ? fromItems : fromDeltas };
}
