/** Collects a model client's stream into what provider tests assert on. */
import type {
  FinishReason,
  ProviderError,
  ResponseItem,
  StreamEvent,
  TokenUsage,
} from '../../src/protocol/index.js';

export interface CollectedStream {
  events: StreamEvent[];
  /** All text deltas joined. */
  text: string;
  /** All reasoning deltas joined. */
  reasoning: string;
  /** Tool-call argument deltas joined per call id. */
  toolArguments: Record<string, string>;
  items: ResponseItem[];
  /** The last usage reported. */
  usage: TokenUsage | undefined;
  errors: ProviderError[];
  /** Every finish event (a correct stream has exactly one, last). */
  finishes: Array<{ reason: FinishReason; rawReason?: string }>;
}

export async function collectEvents(stream: AsyncIterable<StreamEvent>): Promise<CollectedStream> {
  const collected: CollectedStream = {
    events: [],
    text: '',
    reasoning: '',
    toolArguments: {},
    items: [],
    usage: undefined,
    errors: [],
    finishes: [],
  };
  for await (const event of stream) {
    collected.events.push(event);
    switch (event.type) {
      case 'text-delta':
        collected.text += event.text;
        break;
      case 'reasoning-delta':
        collected.reasoning += event.text;
        break;
      case 'tool-call-delta':
        collected.toolArguments[event.callId] =
          (collected.toolArguments[event.callId] ?? '') + event.argumentsDelta;
        break;
      case 'item':
        collected.items.push(event.item);
        break;
      case 'usage':
        collected.usage = event.usage;
        break;
      case 'error':
        collected.errors.push(event.error);
        break;
      case 'finish':
        collected.finishes.push(
          event.rawReason === undefined
            ? { reason: event.reason }
            : { reason: event.reason, rawReason: event.rawReason },
        );
        break;
      default: {
        const exhaustive: never = event;
        throw new Error(`unknown event ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return collected;
}

/** An async iterable over fixed values, for feeding stream mappers directly. */
export async function* fromArray<T>(values: readonly T[], failWith?: unknown): AsyncGenerator<T> {
  for (const value of values) yield value;
  if (failWith !== undefined) throw failWith;
}
