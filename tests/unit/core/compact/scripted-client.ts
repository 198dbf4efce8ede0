/**
 * A scripted ModelClient: each call to `stream` takes the next scripted response (a summary text, or a
 * ProviderError), and every request it receives is kept for assertions.
 */
import {
  ProviderError,
  type ModelClient,
  type ModelRequest,
  type ProviderErrorKind,
  type StreamEvent,
  type WireApi,
} from '../../../../src/protocol/index.js';

export type ScriptedResponse =
  /** Streams `text` as deltas; `asItem` also (or, with 'only', instead) reports the completed message. */
  | { text: string; asItem?: boolean | 'only' }
  /** Streams an `error` event then `finish`. */
  | { error: ProviderError }
  /** Throws the error from the stream instead of reporting it as an event. */
  | { throws: unknown };

export class ScriptedClient implements ModelClient {
  readonly api: WireApi = 'openai-responses';
  readonly model = 'scripted-model';
  readonly requests: ModelRequest[] = [];
  private readonly script: ScriptedResponse[];

  constructor(script: ScriptedResponse[]) {
    this.script = [...script];
  }

  /** Responses not yet used. */
  get remaining(): number {
    return this.script.length;
  }

  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    this.requests.push({ ...request, items: [...request.items] });
    const response = this.script.shift();
    if (response === undefined) throw new Error(`unscripted request #${this.requests.length}`);
    if ('throws' in response) throw response.throws;
    if ('error' in response) {
      yield { type: 'error', error: response.error };
      yield { type: 'finish', reason: 'error' };
      return;
    }
    if (response.asItem !== 'only') {
      for (const piece of response.text.match(/.{1,16}/gsu) ?? []) yield { type: 'text-delta', text: piece };
    }
    if (response.asItem) {
      yield {
        type: 'item',
        item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: response.text }] },
      };
    }
    yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } };
    yield { type: 'finish', reason: 'stop' };
  }
}

/** A ProviderError of `kind`, retryable by the kind's default. */
export function providerError(kind: ProviderErrorKind, extra: { retryAfterMs?: number } = {}): ProviderError {
  return new ProviderError({ api: 'openai-responses', kind, message: `scripted ${kind}`, ...extra });
}
