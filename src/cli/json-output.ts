/**
 * The scripting contract. `--json` prints one object at the end; `--output-format stream-json` prints one
 * JSON line per event, the first (`init`) carrying the conversation id and the last always a `result` or
 * an `error` event, whatever happens. The shapes are described by schema/stream-json.schema.json.
 */
import { terminalSafeJson } from './sanitize.js';
import type { TokenUsage } from '../protocol/index.js';
import type { SessionEvent } from '../core/index.js';
import { errorKindOf, type CliErrorKind } from './error-kind.js';
import type { OutputStream } from './io.js';

export interface ToolCallRecord {
  callId: string;
  name: string;
  arguments: string;
  approved: boolean;
}

/** The last line of stream-json, and the whole output of `--json`. */
export interface FinalEvent {
  type: 'result' | 'error';
  conversationId: string | null;
  status: 'completed' | 'interrupted' | 'failed';
  reply: string;
  usage: TokenUsage | null;
  toolCalls: ToolCallRecord[];
  error: { kind: CliErrorKind; message: string } | null;
}

export interface JsonWriter {
  /** Once the conversation is known: stream-json prints the `init` event. */
  start(info: {
    conversationId: string;
    provider: string;
    api: string;
    model: string;
    ephemeral: boolean;
  }): void;
  handle(event: SessionEvent): void;
  /** Prints the final event (exactly once) and returns it. */
  finish(error?: unknown): FinalEvent;
}

export function createJsonWriter(stdout: OutputStream, mode: 'json' | 'stream-json'): JsonWriter {
  let conversationId: string | null = null;
  let reply = '';
  let usage: TokenUsage | null = null;
  const toolCalls: ToolCallRecord[] = [];
  let finished: FinalEvent | undefined;
  const line = (value: object): void => {
    stdout.write(`${terminalSafeJson(value)}\n`);
  };
  return {
    start(info) {
      conversationId = info.conversationId;
      if (mode === 'stream-json') line({ type: 'init', ...info });
    },
    handle(event) {
      switch (event.type) {
        case 'text-delta':
          reply += event.text;
          break;
        case 'retry':
          // The partial reply of the failed attempt is void; the retried one replaces it.
          if (event.discardedPartial) reply = '';
          break;
        case 'turn-started':
          reply = '';
          break;
        case 'usage':
          usage = event.usage;
          break;
        case 'tool-call':
          toolCalls.push({
            callId: event.call.call_id,
            name: event.call.name,
            arguments: event.call.arguments,
            approved: event.approved,
          });
          // The text before a tool call is not the final reply.
          reply = '';
          break;
        default:
          break;
      }
      if (mode === 'stream-json') line({ ...event, conversationId });
    },
    finish(error) {
      if (finished) return finished;
      const kind = error === undefined ? undefined : errorKindOf(error);
      finished = {
        type: error === undefined ? 'result' : 'error',
        conversationId,
        status: kind === undefined ? 'completed' : kind === 'interrupted' ? 'interrupted' : 'failed',
        reply,
        usage,
        toolCalls,
        error:
          kind === undefined
            ? null
            : { kind, message: error instanceof Error ? error.message : String(error) },
      };
      line(finished);
      return finished;
    },
  };
}
