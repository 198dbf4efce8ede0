/**
 * Turns a Codex CLI rollout into a Cody rollout. Kept: messages, function calls and outputs, reasoning
 * (tagged as OpenAI Responses output so its encrypted content only replays there), compactions, turn
 * contexts and token counts. Codex's custom tool calls (e.g. `apply_patch` with free-form `input`) become
 * ordinary function calls with `{"input": …}` arguments so every API can replay them. Items Cody does not
 * know (`web_search_call`, …) are kept as opaque items. Other `event_msg` kinds (UI notifications such as
 * `exec_command_end`, `agent_message`) duplicate what the items already hold and are dropped.
 */
import { readFile } from 'node:fs/promises';
import type { ResponseItem, WireApi } from '../../protocol/index.js';
import { errorMessage } from '../errors.js';
import { CorruptRolloutError, EmptyConversationError, StorageError } from '../errors.js';
import type { RolloutRecorder } from './recorder.js';
import { parseResponseItem, type SessionMetaPayload, type TurnContextPayload } from './schema.js';

/** Model assumed when a Codex rollout names none (Codex's default family at the time of writing). */
const DEFAULT_CODEX_MODEL = 'gpt-5';
const CODEX_API: WireApi = 'openai-responses';

type Json = Record<string, unknown>;

export type CodexRecord =
  | { kind: 'item'; item: ResponseItem }
  | { kind: 'turn_context'; payload: TurnContextPayload }
  | { kind: 'compacted'; payload: { message: string; replacement_history?: ResponseItem[] } }
  | { kind: 'event'; payload: { type: string } & Json };

export interface CodexRollout {
  sourceId: string | undefined;
  cwd: string;
  model: string;
  modelProvider: string;
  records: CodexRecord[];
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Maps one Codex response item to Cody's vocabulary. */
export function convertCodexItem(payload: Json, model: string): ResponseItem {
  if (
    payload.type === 'custom_tool_call' &&
    typeof payload.name === 'string' &&
    typeof payload.call_id === 'string'
  ) {
    return {
      type: 'function_call',
      name: payload.name,
      arguments: JSON.stringify({
        input: typeof payload.input === 'string' ? payload.input : JSON.stringify(payload.input ?? ''),
      }),
      call_id: payload.call_id,
    };
  }
  if (payload.type === 'custom_tool_call_output' && typeof payload.call_id === 'string') {
    return {
      type: 'function_call_output',
      call_id: payload.call_id,
      output: typeof payload.output === 'string' ? payload.output : JSON.stringify(payload.output ?? ''),
    };
  }
  const item = parseResponseItem(payload);
  if (item.type === 'reasoning' && !item.origin) return { ...item, origin: { api: CODEX_API, model } };
  return item;
}

/** Parses a Codex rollout's text (every line must be valid JSON but a torn last one). */
export function parseCodexRollout(text: string, sourcePath: string): CodexRollout {
  const lines = text.split('\n');
  const records: CodexRecord[] = [];
  let sourceId: string | undefined;
  let cwd = '';
  let model: string | undefined;
  let modelProvider = 'openai';
  const pending: Array<{ payload: Json; type: 'item' | 'compacted' }> = [];
  const userEvents: Array<{ at: number; text: string }> = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      if (index === lines.length - 1) continue; // torn last line
      throw new CorruptRolloutError(sourcePath, index + 1, `not valid JSON (${errorMessage(error)})`);
    }
    if (!isRecord(parsed) || typeof parsed.type !== 'string' || !isRecord(parsed.payload)) {
      throw new CorruptRolloutError(sourcePath, index + 1, 'not a rollout line (needs type and payload)');
    }
    const payload = parsed.payload;
    switch (parsed.type) {
      case 'session_meta':
        sourceId = typeof payload.id === 'string' ? payload.id : sourceId;
        cwd = typeof payload.cwd === 'string' ? payload.cwd : cwd;
        modelProvider = typeof payload.model_provider === 'string' ? payload.model_provider : modelProvider;
        if (typeof payload.model === 'string') model ??= payload.model;
        break;
      case 'turn_context':
        if (typeof payload.model === 'string') model ??= payload.model;
        records.push({
          kind: 'turn_context',
          payload: {
            provider: 'openai',
            api: CODEX_API,
            model: typeof payload.model === 'string' ? payload.model : (model ?? DEFAULT_CODEX_MODEL),
            ...(typeof payload.turn_id === 'string' ? { turn_id: payload.turn_id } : {}),
            ...(typeof payload.cwd === 'string' ? { cwd: payload.cwd } : {}),
            ...(typeof payload.approval_policy === 'string'
              ? { approval_policy: payload.approval_policy }
              : {}),
          },
        });
        break;
      case 'response_item':
        pending.push({ payload, type: 'item' });
        records.push({ kind: 'item', item: { type: 'opaque', raw: {} } });
        break;
      case 'compacted':
        pending.push({ payload, type: 'compacted' });
        records.push({ kind: 'compacted', payload: { message: '' } });
        break;
      case 'event_msg':
        if (payload.type === 'token_count') {
          records.push({ kind: 'event', payload: { ...payload, type: 'token_count' } });
        }
        if (
          payload.type === 'user_message' &&
          typeof payload.message === 'string' &&
          payload.message.trim() !== ''
        ) {
          userEvents.push({ at: records.length, text: payload.message });
        }
        break;
      default:
        break;
    }
  }
  if (sourceId === undefined && records.length === 0) throw new EmptyConversationError(sourcePath);
  // Items are converted once the model is known (reasoning is tagged with it).
  const resolvedModel = model ?? DEFAULT_CODEX_MODEL;
  let cursor = 0;
  for (const record of records) {
    if (record.kind !== 'item' && record.kind !== 'compacted') continue;
    const source = pending[cursor];
    cursor += 1;
    if (!source) continue;
    if (record.kind === 'item') record.item = convertCodexItem(source.payload, resolvedModel);
    else {
      record.payload.message = typeof source.payload.message === 'string' ? source.payload.message : '';
      if (Array.isArray(source.payload.replacement_history)) {
        record.payload.replacement_history = source.payload.replacement_history
          .filter(isRecord)
          .map((item) => convertCodexItem(item, resolvedModel));
      }
    }
  }
  return {
    sourceId,
    cwd,
    model: resolvedModel,
    modelProvider,
    records: withUserMessages(records, userEvents),
  };
}

/**
 * Some Codex builds (Codex Desktop) record what the person typed only as a `user_message` event, not as
 * a response item. Without it the history would have answers and no questions, so each such event whose
 * text no user message item carries becomes a user message at the event's place.
 */
function withUserMessages(
  records: CodexRecord[],
  events: ReadonlyArray<{ at: number; text: string }>,
): CodexRecord[] {
  const recorded = new Set<string>();
  for (const record of records) {
    if (record.kind === 'item' && record.item.type === 'message' && record.item.role === 'user') {
      recorded.add(
        record.item.content
          .map((part) => (part.type === 'input_image' ? '' : part.text))
          .join('')
          .trim(),
      );
    }
  }
  const missing = events.filter((event) => !recorded.has(event.text.trim()));
  const userMessage = (text: string): CodexRecord => ({
    kind: 'item',
    item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
  });
  const result: CodexRecord[] = [];
  let next = 0;
  records.forEach((record, index) => {
    for (let event = missing[next]; event !== undefined && event.at === index; event = missing[next]) {
      result.push(userMessage(event.text));
      next += 1;
    }
    result.push(record);
  });
  for (const event of missing.slice(next)) result.push(userMessage(event.text));
  return result;
}

export async function readCodexRollout(sourcePath: string): Promise<CodexRollout> {
  let text: string;
  try {
    text = await readFile(sourcePath, 'utf8');
  } catch (error) {
    throw new StorageError(`Cannot read ${sourcePath}: ${errorMessage(error)}`, { cause: error });
  }
  return parseCodexRollout(text, sourcePath);
}

/** Metadata for the Cody rollout an import creates. */
export function importedMeta(
  rollout: CodexRollout,
  sourcePath: string,
  id: string,
  cliVersion: string,
): Omit<SessionMetaPayload, 'timestamp'> {
  return {
    id,
    cwd: rollout.cwd,
    originator: 'cody',
    cli_version: cliVersion,
    provider: 'openai',
    api: CODEX_API,
    model: rollout.model,
    model_provider: rollout.modelProvider,
    imported_from: { path: sourcePath, ...(rollout.sourceId ? { id: rollout.sourceId } : {}) },
  };
}

/** Writes the converted records; returns how many items were written. */
export async function writeCodexRecords(
  recorder: RolloutRecorder,
  rollout: CodexRollout,
): Promise<{ itemCount: number; messageCount: number; firstUserMessage?: string }> {
  let itemCount = 0;
  let messageCount = 0;
  let firstUserMessage: string | undefined;
  for (const record of rollout.records) {
    switch (record.kind) {
      case 'item':
        await recorder.appendItem(record.item);
        itemCount += 1;
        if (
          record.item.type === 'message' &&
          (record.item.role === 'user' || record.item.role === 'assistant')
        ) {
          messageCount += 1;
          const first = record.item.content[0];
          if (
            record.item.role === 'user' &&
            firstUserMessage === undefined &&
            first &&
            first.type !== 'input_image' &&
            !first.text.startsWith('<')
          ) {
            firstUserMessage = first.text.slice(0, 200);
          }
        }
        break;
      case 'turn_context':
        await recorder.appendTurnContext(record.payload);
        break;
      case 'compacted':
        await recorder.appendCompacted(record.payload);
        break;
      case 'event':
        await recorder.appendEvent(record.payload);
        break;
      default: {
        const exhaustive: never = record;
        throw new Error(`unknown record ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return { itemCount, messageCount, ...(firstUserMessage !== undefined ? { firstUserMessage } : {}) };
}
