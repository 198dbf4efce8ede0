/**
 * Rollout entries → the lines written to disk, in the shape the real Codex CLI parses (see
 * codex-lines.ts for what Codex 0.169 refuses and why each rule exists).
 */
import type { RolloutEntry } from './recorder.js';
import { codexPermissions, codyEventItemType, isCodyEventKind, userMessageEvent } from './codex-lines.js';
import { type RolloutLine, serializeResponseItem, type TurnContextPayload } from './schema.js';

type Line = Omit<RolloutLine, 'timestamp'>;
type Json = Record<string, unknown>;

/** The lines of one entry (a typed user message is two: the item and its `user_message` event). */
export function toCodexLines(entry: RolloutEntry): Line[] {
  switch (entry.type) {
    case 'response_item': {
      const line: Line = { type: 'response_item', payload: serializeResponseItem(entry.item) };
      const event = entry.item.type === 'message' ? userMessageEvent(entry.item) : undefined;
      return event ? [line, { type: 'event_msg', payload: event }] : [line];
    }
    case 'compacted': {
      const history = entry.payload.replacement_history;
      return [
        {
          type: 'compacted',
          payload: history
            ? { ...entry.payload, replacement_history: history.map(serializeResponseItem) }
            : entry.payload,
        },
      ];
    }
    case 'turn_context':
      return [{ type: 'turn_context', payload: withPermissions(entry.payload) }];
    case 'event_msg': {
      const payload: Json = { ...entry.payload };
      if (isCodyEventKind(payload.type))
        return [{ type: 'response_item', payload: { ...payload, type: codyEventItemType(payload.type) } }];
      if (payload.type === 'token_count') return [{ type: 'event_msg', payload: withTotal(payload) }];
      return [{ type: 'event_msg', payload }];
    }
    default: {
      const unknown: never = entry;
      throw new Error(`unknown rollout entry ${JSON.stringify(unknown)}`);
    }
  }
}

/** Codex requires `approval_policy` and `sandbox_policy`; a writer that gave none gets Cody's default. */
function withPermissions(payload: TurnContextPayload): TurnContextPayload {
  if (payload.approval_policy !== undefined && payload.sandbox_policy !== undefined) return payload;
  return { ...codexPermissions(payload.cody_approval_policy), ...payload };
}

/** Codex requires `total_token_usage`; a writer that kept no total gets the last usage as the total. */
function withTotal(payload: Json): Json {
  const info = payload.info;
  if (typeof info !== 'object' || info === null) return payload;
  const record = info as Json;
  if (record.total_token_usage !== undefined || record.last_token_usage === undefined) return payload;
  return { ...payload, info: { total_token_usage: record.last_token_usage, ...record } };
}
