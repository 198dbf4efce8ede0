/**
 * Turns a Codex CLI rollout into a new Cody rollout. Kept: messages, function calls and outputs,
 * reasoning (tagged as OpenAI Responses output of the turn's model and as foreign: its encrypted content
 * belongs to the account Codex ran under, so it is kept but never replayed), compactions, turn contexts
 * and `token_count` events. Codex's custom tool calls (`apply_patch` with free-form `input`) and local
 * shell calls become ordinary function calls, so every API can replay them with their outputs. Codex's
 * developer messages (its sandbox, skills and tool instructions) are harness instructions for Codex's own
 * tools: they stay in the file, opaque and never sent, and Cody's own instructions (`instructions`) come
 * first instead. Items Cody does not know (`web_search_call`, …) stay opaque: kept, never sent. Every
 * other `event_msg` kind (`agent_message`, `exec_command_end`, `task_started`, …) is a UI notification
 * that duplicates what the items hold, and is dropped — except `user_message`, see
 * `withEventOnlyUserMessages`.
 */
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { isRecord, type MessageItem, type ResponseItem, type WireApi } from '../../protocol/index.js';
import { CorruptRolloutError, EmptyConversationError, errorMessage, StorageError } from '../errors.js';
import { isCountedMessage, previewText, typedUserText } from './definitions.js';
import { readWholeRollout } from './read-bytes.js';
import { type RecorderFileSystem, type RolloutEntry, RolloutRecorder } from './recorder.js';
import { CODEX_HARNESS_FIELD } from './codex-lines.js';
import { parseResponseItem, turnContextSchema } from './schema.js';
import { withEventOnlyUserMessages } from './with-event-only-user-messages.js';

/** Model assumed when a Codex rollout names none: Codex's default family when these files were written. */
export const DEFAULT_CODEX_MODEL = 'gpt-5';
const CODEX_API: WireApi = 'openai-responses';
/** Lines per write while importing: one fsync per batch instead of per line, bounded memory per write. */
const IMPORT_BATCH_LINES = 500;

const codexLineSchema = z.object({ type: z.string(), payload: z.record(z.unknown()) }).passthrough();
const codexMetaSchema = z
  .object({
    id: z.string().optional().catch(undefined),
    cwd: z.string().optional().catch(undefined),
    model: z.string().optional().catch(undefined),
    model_provider: z.string().optional().catch(undefined),
  })
  .passthrough();
/** A line of Codex's first format: a bare meta object, bare items, and `record_type` state lines. */
const legacyLineSchema = z.record(z.unknown());
const userMessageEventSchema = z
  .object({ type: z.literal('user_message'), message: z.string() })
  .passthrough();

export interface CodexConversion {
  sourceId?: string;
  cwd: string;
  /** The first model the rollout names (else `DEFAULT_CODEX_MODEL`). */
  model: string;
  modelProvider: string;
  /** The Cody lines to write after session_meta, ending with a `turn_complete`. */
  entries: RolloutEntry[];
  itemCount: number;
  messageCount: number;
  firstUserMessage?: string;
}

type Json = Record<string, unknown>;
type SourceLine = { type: string; payload: Json };

/** Maps one Codex response item to Cody's vocabulary. */
export function convertCodexItem(payload: Json, model: string): ResponseItem {
  // Codex's own harness instructions: kept in the file (Codex still reads them), never sent by Cody.
  if (payload.type === 'message' && payload.role === 'developer')
    return { type: 'opaque', raw: { ...payload, [CODEX_HARNESS_FIELD]: true } };
  const shell = localShellCall(payload);
  if (shell) return shell;
  if (
    payload.type === 'custom_tool_call' &&
    typeof payload.name === 'string' &&
    typeof payload.call_id === 'string'
  ) {
    const input = typeof payload.input === 'string' ? payload.input : JSON.stringify(payload.input ?? '');
    return {
      type: 'function_call',
      name: payload.name,
      arguments: JSON.stringify({ input }),
      call_id: payload.call_id,
    };
  }
  if (payload.type === 'custom_tool_call_output' && typeof payload.call_id === 'string') {
    const output = typeof payload.output === 'string' ? payload.output : JSON.stringify(payload.output ?? '');
    return { type: 'function_call_output', call_id: payload.call_id, output };
  }
  const item = parseResponseItem(payload);
  if (item.type === 'reasoning') return { ...item, origin: { api: CODEX_API, model, foreign: true } };
  return item;
}

/**
 * Codex's `local_shell_call` (`action: {type: "exec", command: [...], working_directory, timeout_ms}`) as
 * an ordinary `local_shell` function call whose arguments are the action's fields; its output is already
 * a `function_call_output` with the same `call_id`, which then has its call.
 */
function localShellCall(payload: Json): ResponseItem | undefined {
  if (payload.type !== 'local_shell_call') return undefined;
  const callId = typeof payload.call_id === 'string' ? payload.call_id : payload.id;
  if (typeof callId !== 'string') return undefined;
  const action = typeof payload.action === 'object' && payload.action !== null ? payload.action : {};
  const args: Json = { ...(action as Json) };
  delete args.type;
  return { type: 'function_call', name: 'local_shell', arguments: JSON.stringify(args), call_id: callId };
}

/**
 * Parses the source lines: every line must be a JSON object with a string `type` (a torn last line is
 * skipped). Codex's first, unversioned format (a bare meta line, then bare items) is read too.
 */
function parseSourceLines(lines: readonly string[], sourcePath: string): SourceLine[] {
  const parsed: SourceLine[] = [];
  const last = lines.findLastIndex((line) => line.trim() !== '');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (index === last) return; // torn last line
      throw new CorruptRolloutError(sourcePath, index + 1, `not valid JSON (${errorMessage(error)})`);
    }
    const envelope = codexLineSchema.safeParse(value);
    if (envelope.success) {
      parsed.push({ type: envelope.data.type, payload: envelope.data.payload });
      return;
    }
    const bare = legacyLineSchema.safeParse(value);
    if (!bare.success || 'payload' in bare.data) {
      throw new CorruptRolloutError(
        sourcePath,
        index + 1,
        'not a Codex rollout line (needs a type and a payload)',
      );
    }
    const record = bare.data;
    if (record.record_type !== undefined) return; // the old format's state lines
    if (index === 0 && typeof record.id === 'string' && record.type === undefined) {
      parsed.push({ type: 'session_meta', payload: record });
    } else if (typeof record.type === 'string' && parsed.length > 0) {
      parsed.push({ type: 'response_item', payload: record });
    } else {
      throw new CorruptRolloutError(sourcePath, index + 1, 'not a Codex rollout line (needs a type)');
    }
  });
  if (parsed[0]?.type !== 'session_meta') {
    if (parsed.length === 0) throw new EmptyConversationError(sourcePath);
    throw new CorruptRolloutError(sourcePath, 1, 'not a Codex rollout: the first line is not session_meta');
  }
  return parsed;
}

/**
 * Converts a Codex rollout's lines (the file split on newlines) to Cody rollout entries. `instructions`
 * open the history and every compaction's replacement history (which replaces the whole history).
 */
export function convertCodexRollout(
  lines: readonly string[],
  sourcePath: string,
  instructions?: MessageItem,
): CodexConversion {
  const source = parseSourceLines(lines, sourcePath);
  const meta = codexMetaSchema.parse(source[0]?.payload ?? {});
  const turnModel = (payload: Json): string | undefined => turnContextSchema.safeParse(payload).data?.model;
  const firstModel =
    meta.model ??
    source.map((line) => (line.type === 'turn_context' ? turnModel(line.payload) : undefined)).find(Boolean);
  let model = firstModel ?? DEFAULT_CODEX_MODEL;
  const entries: RolloutEntry[] = instructions ? [{ type: 'response_item', item: instructions }] : [];
  const userEvents: Array<{ at: number; text: string }> = [];
  for (const { type, payload } of source) {
    switch (type) {
      case 'turn_context': {
        model = turnModel(payload) ?? model;
        entries.push(importedTurnContext(payload, model));
        break;
      }
      case 'response_item':
        entries.push({ type: 'response_item', item: convertCodexItem(payload, model) });
        break;
      case 'compacted':
        entries.push(importedCompaction(payload, model, instructions));
        break;
      case 'event_msg': {
        if (payload.type === 'token_count')
          entries.push({ type: 'event_msg', payload: { ...payload, type: 'token_count' } });
        const userMessage = userMessageEventSchema.safeParse(payload);
        if (userMessage.success && userMessage.data.message.trim() !== '') {
          userEvents.push({ at: entries.length, text: userMessage.data.message });
        }
        break;
      }
      default:
        break; // session_meta, and line types of newer Codex versions
    }
  }
  const withUsers = withEventOnlyUserMessages(entries, userEvents);
  const counts = countMessages(withUsers);
  const compactions = withUsers.filter((entry) => entry.type === 'compacted').length;
  withUsers.push({
    type: 'event_msg',
    payload: {
      type: 'turn_complete',
      turn_id: 'import',
      provider: 'openai',
      api: CODEX_API,
      model,
      message_count: counts.messageCount,
      ...(counts.firstUserMessage !== undefined ? { first_user_message: counts.firstUserMessage } : {}),
      ...(compactions > 0 ? { compaction_count: compactions } : {}),
    },
  });
  return {
    ...(meta.id !== undefined ? { sourceId: meta.id } : {}),
    cwd: meta.cwd ?? '',
    model: firstModel ?? DEFAULT_CODEX_MODEL,
    modelProvider: meta.model_provider ?? 'openai',
    entries: withUsers,
    itemCount: withUsers.filter((entry) => entry.type === 'response_item').length,
    ...counts,
  };
}

/** A Codex turn_context as Cody records it: the OpenAI Responses selection with the model in force. */
function importedTurnContext(payload: Json, model: string): RolloutEntry {
  const context = turnContextSchema.safeParse(payload);
  return {
    type: 'turn_context',
    payload: {
      ...(context.data?.turn_id !== undefined ? { turn_id: context.data.turn_id } : {}),
      ...(context.data?.cwd !== undefined ? { cwd: context.data.cwd } : {}),
      provider: 'openai',
      api: CODEX_API,
      model,
      ...(context.data?.approval_policy !== undefined
        ? { approval_policy: context.data.approval_policy }
        : {}),
      ...(isRecord(payload.sandbox_policy) ? { sandbox_policy: payload.sandbox_policy } : {}),
    },
  };
}

/** A Codex compaction: its replacement history converted, opened by the instructions when given. */
function importedCompaction(
  payload: Json,
  model: string,
  instructions: MessageItem | undefined,
): RolloutEntry {
  const history = Array.isArray(payload.replacement_history) ? payload.replacement_history : undefined;
  const replacement = history
    ?.filter((item): item is Json => typeof item === 'object' && item !== null)
    .map((item) => convertCodexItem(item, model));
  if (replacement && instructions) replacement.unshift(instructions);
  const message = typeof payload.message === 'string' ? payload.message : '';
  return {
    type: 'compacted',
    payload: { message, ...(replacement ? { replacement_history: replacement } : {}) },
  };
}

/** Messages the person typed or the model wrote, and the preview: the store's one definition of both. */
function countMessages(entries: readonly RolloutEntry[]): {
  messageCount: number;
  firstUserMessage?: string;
} {
  let messageCount = 0;
  let firstUserMessage: string | undefined;
  for (const entry of entries) {
    if (entry.type !== 'response_item' || !isCountedMessage(entry.item)) continue;
    messageCount += 1;
    if (firstUserMessage !== undefined || entry.item.type !== 'message') continue;
    const typed = typedUserText(entry.item);
    if (typed !== undefined) firstUserMessage = previewText(typed);
  }
  return { messageCount, ...(firstUserMessage !== undefined ? { firstUserMessage } : {}) };
}

export interface ImportCodexOptions {
  /** The new conversation's id (the target file is `<id>.jsonl`). */
  id: string;
  /** Cody's own instructions, written first: the model works with Cody's tools from now on. */
  instructions?: MessageItem;
  cliVersion: string;
  now?: () => Date;
  fileSystem?: RecorderFileSystem;
}

/** Writes a new Cody rollout at `targetPath` from the Codex rollout at `sourcePath`; no file on failure. */
export async function importCodexRollout(
  sourcePath: string,
  targetPath: string,
  options: ImportCodexOptions,
): Promise<CodexConversion> {
  let text: string;
  try {
    text = (await readWholeRollout(sourcePath)).toString('utf8');
  } catch (error) {
    throw new StorageError(`Cannot read ${sourcePath}: ${errorMessage(error)}`, { cause: error });
  }
  const conversion = convertCodexRollout(text.split('\n'), sourcePath, options.instructions);
  const recorderOptions = {
    ...(options.now ? { now: options.now } : {}),
    ...(options.fileSystem ? { fileSystem: options.fileSystem } : {}),
  };
  const recorder = await RolloutRecorder.create(
    targetPath,
    {
      id: options.id,
      cwd: conversion.cwd,
      originator: 'cody',
      cli_version: options.cliVersion,
      provider: 'openai',
      api: CODEX_API,
      model: conversion.model,
      model_provider: conversion.modelProvider,
      imported_from: { path: sourcePath, ...(conversion.sourceId ? { id: conversion.sourceId } : {}) },
    },
    recorderOptions,
  );
  try {
    for (let start = 0; start < conversion.entries.length; start += IMPORT_BATCH_LINES) {
      await recorder.appendEntries(conversion.entries.slice(start, start + IMPORT_BATCH_LINES));
    }
  } catch (error) {
    await recorder.close().catch(() => undefined);
    await rm(targetPath, { force: true });
    throw error;
  }
  await recorder.close();
  return conversion;
}
