/**
 * The whole story of a conversation for `cody show`: every item ever recorded (also those a compaction
 * later replaced), with compactions, provider switches and aborted turns marked. Reads the whole file,
 * unlike resume, because a person asked to see all of it.
 */
import { readFile } from 'node:fs/promises';
import type { ResponseItem } from '../protocol/index.js';
import { errorMessage, isErrno } from './errors.js';
import { CorruptRolloutError, EmptyConversationError, StorageError } from './errors.js';
import { parseResponseItem } from './rollout/schema.js';

export type TranscriptEntry =
  | { kind: 'item'; item: ResponseItem }
  | { kind: 'compacted'; summary: string; tokensBefore?: number; tokensAfter?: number }
  | { kind: 'turn-context'; provider: string; api: string; model: string }
  | { kind: 'aborted'; reason: string };

export interface TranscriptMeta {
  id: string;
  timestamp: string;
  provider: string;
  api: string;
  model: string;
}

export interface Transcript {
  meta: TranscriptMeta;
  entries: TranscriptEntry[];
  warnings: string[];
}

export async function readTranscript(filePath: string): Promise<Transcript> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new StorageError(`${filePath} does not exist.`, { cause: error });
    throw new StorageError(`Cannot read ${filePath}: ${errorMessage(error)}`, { cause: error });
  }
  const lines = text.split('\n');
  const warnings: string[] = [];
  const entries: TranscriptEntry[] = [];
  let meta: TranscriptMeta | undefined;
  let lastTurn = '';
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let parsed: { type?: unknown; payload?: unknown };
    try {
      parsed = JSON.parse(line) as { type?: unknown; payload?: unknown };
    } catch (error) {
      if (index === lines.length - 1) {
        warnings.push(`the last line of ${filePath} is incomplete (an interrupted write) and was skipped`);
        continue;
      }
      throw new CorruptRolloutError(filePath, index + 1, errorMessage(error));
    }
    const payload = (
      typeof parsed.payload === 'object' && parsed.payload !== null ? parsed.payload : {}
    ) as Record<string, unknown>;
    switch (parsed.type) {
      case 'session_meta':
        meta = {
          id: String(payload.id ?? ''),
          timestamp: String(payload.timestamp ?? ''),
          provider: String(payload.provider ?? payload.model_provider ?? 'unknown'),
          api: String(payload.api ?? 'unknown'),
          model: String(payload.model ?? 'unknown'),
        };
        break;
      case 'response_item':
        entries.push({ kind: 'item', item: parseResponseItem(payload) });
        break;
      case 'turn_context': {
        const turn = `${String(payload.provider)}|${String(payload.api)}|${String(payload.model)}`;
        if (turn !== lastTurn && payload.provider !== undefined) {
          entries.push({
            kind: 'turn-context',
            provider: String(payload.provider),
            api: String(payload.api),
            model: String(payload.model),
          });
        }
        lastTurn = turn;
        break;
      }
      case 'compacted':
        entries.push({ kind: 'compacted', summary: String(payload.message ?? '') });
        break;
      case 'event_msg': {
        const last = entries.at(-1);
        if (payload.type === 'context_compacted' && last?.kind === 'compacted') {
          if (typeof payload.tokens_before === 'number') last.tokensBefore = payload.tokens_before;
          if (typeof payload.tokens_after === 'number') last.tokensAfter = payload.tokens_after;
        }
        if (payload.type === 'turn_aborted')
          entries.push({ kind: 'aborted', reason: String(payload.reason ?? 'unknown') });
        break;
      }
      default:
        break;
    }
  }
  if (!meta) {
    if (entries.length === 0) throw new EmptyConversationError(filePath);
    throw new CorruptRolloutError(filePath, 1, 'the first line is not session_meta');
  }
  return { meta, entries, warnings };
}
