import type { ProviderError } from './errors.js';
import type { ResponseItem, WireApi } from './items.js';

/** Token usage of one response, as the provider reported it. Unknown counts stay undefined, never 0. */
export interface TokenUsage {
  /** Prompt tokens, including cached ones. */
  inputTokens?: number;
  /** Of `inputTokens`, how many were served from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** Completion tokens, including reasoning tokens. */
  outputTokens?: number;
  /** Of `outputTokens`, how many were hidden reasoning/thinking. */
  reasoningTokens?: number;
  /** input + output, when the provider reports or implies it. */
  totalTokens?: number;
}

export type FinishReason =
  'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'aborted' | 'other';

/** A tool the model may call: name, description and a JSON Schema for its arguments object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What a model client streams back for one request. Exactly one `finish` ends every stream. */
export type StreamEvent =
  /** Visible assistant text, as it arrives. */
  | { type: 'text-delta'; text: string }
  /** Reasoning/thinking text (summary or raw), as it arrives. */
  | { type: 'reasoning-delta'; text: string }
  /** A piece of a tool call's arguments, as it arrives (for progress display only). */
  | { type: 'tool-call-delta'; callId: string; name: string; argumentsDelta: string }
  /** A completed canonical item (assistant message, function call, reasoning), ready to record. */
  | { type: 'item'; item: ResponseItem }
  /** Usage for this response; may arrive more than once (later replaces earlier). */
  | { type: 'usage'; usage: TokenUsage }
  /** The request failed (before or during the stream). Followed by `finish` with reason `error`. */
  | { type: 'error'; error: ProviderError }
  /** The end of the stream. */
  | { type: 'finish'; reason: FinishReason; rawReason?: string };

/** One request to a model, in canonical terms. */
export interface ModelRequest {
  /** The normalised history to send (system/developer messages included; ghosts already removed). */
  items: ResponseItem[];
  /** Tools the model may call; empty for none (e.g. the compaction summary request). */
  tools: ToolSpec[];
  /** Cap on output tokens for this response. */
  maxOutputTokens?: number;
  /**
   * `none`: the tools are defined (the history's tool blocks need them on Anthropic, and they keep the
   * cached prompt prefix) but the model may not call one, as for the compaction summary. Default `auto`.
   */
  toolChoice?: 'auto' | 'none';
  signal?: AbortSignal;
}

/** Seam between core and providers: one configured model on one wire API. */
export interface ModelClient {
  readonly api: WireApi;
  readonly model: string;
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
}

/** What a converter from canonical items to a wire request returns. */
export interface ConversionResult<Body> {
  body: Body;
  /** Things that could not be represented on this API (dropped reasoning, unsupported part, …). */
  warnings: string[];
}
