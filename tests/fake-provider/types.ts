/**
 * The fake provider server's scripting vocabulary. A test (or the manual-test CLI) queues steps; each
 * incoming model request consumes the next step. With no step queued, the server answers with an
 * automatic reply that echoes the last user message, so shell loops and manual sessions just work.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type FakeApi =
  'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini' | 'bedrock-converse';

/** A tool call the fake model makes. */
export interface FakeToolCall {
  /** Provider call id; generated when omitted. */
  id?: string;
  name: string;
  /** Arguments object; serialised and streamed in pieces by the protocol module. */
  arguments: Record<string, unknown>;
}

/** A successful model reply, rendered by the protocol module in that API's exact wire format. */
export interface ReplyStep {
  type: 'reply';
  /** Assistant text, streamed in several deltas. */
  text?: string;
  /** The assistant text as exactly these deltas (joined, they are the reply's `text`, which they replace). */
  textDeltas?: string[];
  /** Reasoning/thinking text (protocols that support it). */
  reasoning?: string;
  toolCalls?: FakeToolCall[];
  /** Reported usage; computed from the request/reply sizes when omitted. */
  usage?: { inputTokens: number; outputTokens: number };
  /** Close the connection after this many SSE frames (a mid-stream disconnect). */
  disconnectAfterFrames?: number;
}

/** A non-2xx HTTP answer. `body` omitted → the protocol's canonical error body for that status. */
export interface ErrorStep {
  type: 'error';
  status: number;
  body?: unknown;
  /** Raw body text, sent verbatim (takes precedence over `body`). */
  bodyText?: string;
  headers?: Record<string, string>;
  /** For status 400: make it the protocol's own context-overflow error. */
  contextOverflow?: boolean;
}

/** Exact bytes, e.g. a recorded `.sse` body, optionally split into chunks. */
export interface RawStep {
  type: 'raw';
  status?: number;
  headers?: Record<string, string>;
  /** Body chunks, written in order with a flush between each. */
  chunks: string[];
  /** Binary body chunks (AWS event-stream frames), written instead of `chunks`. */
  binary?: Uint8Array[];
}

export type Step = ReplyStep | ErrorStep | RawStep;

/** One request as the server received it. */
export interface RecordedRequest {
  api: FakeApi | 'unknown';
  method: string;
  /** Path and query string. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when not JSON). */
  body: unknown;
  /** Model named in the body or in the URL (Gemini). */
  model: string | undefined;
  /** Whether the response was streamed. */
  stream: boolean;
  /** Step the server answered with (the automatic reply when none was queued). */
  answeredWith: Step;
  /** Set when the protocol's validator rejected the body (the error the real API would give). */
  rejected?: string;
}

/** Context handed to a protocol module for one request. */
export interface ProtocolRequest {
  url: URL;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/** What a protocol module renders. */
export interface RenderedResponse {
  status: number;
  headers: Record<string, string>;
  /** SSE frames or JSON text, written one after another. */
  chunks: string[];
  /** Binary frames (AWS event-stream), written instead of `chunks`. */
  binary?: Uint8Array[];
  /** Drop the connection after writing this many chunks. */
  disconnectAfter?: number;
}

/** One wire API's behaviour inside the fake server. */
export interface ProtocolModule {
  api: FakeApi;
  /** Whether this module serves the request (method + path). */
  matches(method: string, url: URL): boolean;
  /** Model named by the request. */
  model(request: ProtocolRequest): string | undefined;
  /** Whether the client asked for a stream. */
  isStream(request: ProtocolRequest): boolean;
  /** What the real API would reject up front: an error step, or undefined when the body is valid. */
  validate(request: ProtocolRequest): ErrorStep | undefined;
  /** Last user text in the request (for the automatic echo reply and for assertions). */
  lastUserText(request: ProtocolRequest): string;
  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse;
  renderError(step: ErrorStep): RenderedResponse;
}
