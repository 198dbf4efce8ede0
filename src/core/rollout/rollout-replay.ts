/**
 * Replays rollout lines into the live history: `response_item` lines append, a `compacted` line replaces
 * the whole history, events update token usage and counts. Every line is validated with zod; unknown line
 * types and event kinds are ignored.
 */
import type { ResponseItem, TokenUsage } from '../../protocol/index.js';
import { summaryMessage } from '../compact/build-replacement-history.js';
import { isRealUserMessage } from '../compact/is-summary-message.js';
import { messageText } from '../compact/message-text.js';
import { CorruptRolloutError, errorMessage } from '../errors.js';
import { dropLastTurns } from '../undo/rollback.js';
import { codyEventOf } from './codex-lines.js';
import { isContextualUserText } from './is-contextual-user-text.js';
import {
  compactedSchema,
  eventSchema,
  parseResponseItem,
  rolloutLineSchema,
  type SessionMetaPayload,
  tokenCountSchema,
  toSessionMeta,
  toTurnContext,
  turnCompleteSchema,
  type TurnContextPayload,
} from './schema.js';

export interface ResumedRollout {
  meta: SessionMetaPayload;
  /** The live history: what the next prompt is built from. */
  history: ResponseItem[];
  /** What the last turn ran with. */
  lastTurnContext?: TurnContextPayload;
  /** The last usage the provider reported, and how long the history was then (cleared by a compaction). */
  lastTokenCount?: { usage: TokenUsage; historyLengthAtReport: number };
  /** The conversation's running token total (`total_token_usage` of the last `token_count`). */
  totalTokenUsage?: TokenUsage;
  compactionCount: number;
  /** From the last `turn_complete` event, when there is one. */
  messageCount?: number;
  firstUserMessage?: string;
  /** Lines parsed to rebuild the history (fewer than the file holds when resume started at a compaction). */
  lineCount: number;
  warnings: string[];
  /** The last line was incomplete (an interrupted write); it is set aside on the next append. */
  tornTail: boolean;
}

/** A parsed, envelope-checked line. */
export interface ParsedLine {
  type: string;
  payload: unknown;
}

/**
 * Parses one line. `undefined` for a torn last line (tolerated; the caller records the warning); a
 * corrupt line throws with its number (0 when unknown: the caller then re-reads from the start).
 */
export function parseRolloutLine(
  filePath: string,
  text: string,
  lineNumber: number,
  isUnterminatedLast: boolean,
): ParsedLine | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    if (isUnterminatedLast) return undefined;
    throw new CorruptRolloutError(filePath, lineNumber, `not valid JSON (${errorMessage(error)})`);
  }
  const envelope = rolloutLineSchema.safeParse(parsed);
  if (!envelope.success) {
    throw new CorruptRolloutError(filePath, lineNumber, 'not a rollout line (needs a timestamp and a type)');
  }
  return { type: envelope.data.type, payload: envelope.data.payload };
}

/** The session_meta of line 1, or a CorruptRolloutError naming line 1. */
export function parseMetaLine(filePath: string, line: ParsedLine): SessionMetaPayload {
  if (line.type !== 'session_meta')
    throw new CorruptRolloutError(filePath, 1, 'the first line is not session_meta');
  const meta = toSessionMeta(line.payload);
  if (!meta) throw new CorruptRolloutError(filePath, 1, 'session_meta lacks an id or a timestamp');
  return meta;
}

export function tornTailWarning(filePath: string): string {
  return `${filePath}: the last line is incomplete (interrupted write); it will be set aside on the next save.`;
}

/** Accumulates the state of a conversation, one line at a time. */
export class RolloutReplay {
  readonly state: ResumedRollout;
  private readonly filePath: string;

  constructor(filePath: string, meta: SessionMetaPayload) {
    this.filePath = filePath;
    this.state = { meta, history: [], compactionCount: 0, lineCount: 1, warnings: [], tornTail: false };
  }

  markTorn(): void {
    this.state.tornTail = true;
    this.state.warnings.push(tornTailWarning(this.filePath));
  }

  apply(line: ParsedLine, lineNumber: number): void {
    const state = this.state;
    state.lineCount += 1;
    switch (line.type) {
      case 'response_item': {
        // Cody's own events ride in `cody_*` response items, which Codex ignores (codex-lines.ts).
        const event = isRecord(line.payload) ? codyEventOf(line.type, line.payload) : undefined;
        if (event) this.applyEvent(event.payload);
        else state.history.push(parseResponseItem(line.payload));
        break;
      }
      case 'compacted':
        this.applyCompacted(line.payload, lineNumber);
        break;
      case 'turn_context':
        state.lastTurnContext = toTurnContext(line.payload, state.meta) ?? state.lastTurnContext;
        break;
      case 'event_msg':
        this.applyEvent(line.payload);
        break;
      default:
        break; // a repeated session_meta, or a line type from a newer version: ignored
    }
  }

  private applyCompacted(payload: unknown, lineNumber: number): void {
    const compacted = compactedSchema.safeParse(payload);
    if (!compacted.success) {
      throw new CorruptRolloutError(
        this.filePath,
        lineNumber,
        `malformed compacted line (${compacted.error.issues[0]?.message ?? 'invalid'})`,
      );
    }
    const state = this.state;
    state.compactionCount = compacted.data.compaction_count ?? state.compactionCount + 1;
    const replacement = compacted.data.replacement_history;
    state.history = replacement
      ? replacement.map(parseResponseItem)
      : rebuildLegacyCompaction(state.history, compacted.data.message);
    delete state.lastTokenCount;
  }

  private applyEvent(payload: unknown): void {
    const event = eventSchema.safeParse(payload);
    if (!event.success) return;
    if (event.data.type === 'token_count') {
      const count = tokenCountSchema.safeParse(payload);
      const last = count.success ? count.data.info?.last_token_usage : undefined;
      if (!last) return; // Codex writes `info: null` before the first response
      this.state.lastTokenCount = {
        usage: toTokenUsage(last),
        historyLengthAtReport: this.state.history.length,
      };
      const total = count.success ? count.data.info?.total_token_usage : undefined;
      if (total) this.state.totalTokenUsage = toTokenUsage(total);
    } else if (event.data.type === 'thread_rolled_back') {
      // `cody undo` (Codex's event): the last `num_turns` user turns leave the history.
      const turns = (payload as { num_turns?: unknown }).num_turns;
      if (typeof turns === 'number' && Number.isInteger(turns) && turns > 0) {
        this.state.history = dropLastTurns(this.state.history, turns);
        delete this.state.lastTokenCount;
      }
    } else if (event.data.type === 'turn_complete') {
      const complete = turnCompleteSchema.safeParse(payload);
      if (!complete.success) return;
      if (complete.data.message_count !== undefined) this.state.messageCount = complete.data.message_count;
      if (complete.data.first_user_message !== undefined) {
        this.state.firstUserMessage = complete.data.first_user_message;
      }
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toTokenUsage(counts: {
  input_tokens?: number | undefined;
  cached_input_tokens?: number | undefined;
  output_tokens?: number | undefined;
  reasoning_output_tokens?: number | undefined;
  total_tokens?: number | undefined;
}): TokenUsage {
  return definedOnly({
    inputTokens: counts.input_tokens,
    cachedInputTokens: counts.cached_input_tokens,
    outputTokens: counts.output_tokens,
    reasoningTokens: counts.reasoning_output_tokens,
    totalTokens: counts.total_tokens,
  });
}

function definedOnly(usage: Record<keyof TokenUsage, number | undefined>): TokenUsage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined));
}

/**
 * Older Codex `compacted` lines carry only the summary. The history Codex built then is: the initial
 * context (the leading system/developer and harness-context messages), the real user messages of the
 * history so far (earlier summaries and harness context excluded), then the summary as a user message.
 */
export function rebuildLegacyCompaction(history: readonly ResponseItem[], summary: string): ResponseItem[] {
  const initial: ResponseItem[] = [];
  for (const item of history) {
    if (item.type !== 'message') break;
    if (item.role === 'user' && !isContextualUserText(messageText(item))) break;
    if (item.role === 'assistant') break;
    initial.push(item);
  }
  const userMessages = history
    .slice(initial.length)
    .filter(isRealUserMessage)
    .filter((item) => !isContextualUserText(messageText(item)));
  return [...initial, ...userMessages, summaryMessage(summary)];
}
