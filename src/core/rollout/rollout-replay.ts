/**
 * Replays rollout lines into the live history: `response_item` lines append, a `compacted` line replaces
 * the whole history, events update token usage and counts. Every line is validated with zod; unknown line
 * types and event kinds are ignored.
 */
import { unansweredNote } from './unanswered-turn.js';
import { isRecord, type ResponseItem, type TokenUsage } from '../../protocol/index.js';
import { summaryMessage } from './summary-prefix.js';
import { messageText } from '../rollout/index.js';
import { CorruptRolloutError } from '../errors.js';
import { dropLastTurns } from '../rollout/index.js';
import { codyEventOf } from './codex-lines.js';
import { isCountedMessage, isTypedUserMessage } from './definitions.js';
import { parseLine } from './line.js';
import { isContextualUserText } from './is-contextual-user-text.js';
import {
  compactedSchema,
  parseResponseItem,
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
  /** When that turn context was recorded (its line's timestamp). */
  lastTurnContextAt?: string;
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
  /**
   * A turn was started (`turn_context`) and never ended (no `turn_complete` or `turn_aborted` after it):
   * the process running it died. Its id, or '' when the context carried none.
   */
  openTurnId?: string;
}

/** A parsed, envelope-checked line. */
export interface ParsedLine {
  type: string;
  payload: unknown;
  /** The canonical item of a `response_item` line, when already built (see `withItem`). */
  item?: ResponseItem;
  /** The line's timestamp, kept for `turn_context` lines only (when the selection was recorded). */
  timestamp?: string;
}

/**
 * The line with its item built now rather than at replay, so a reader that holds many lines before
 * replaying them keeps the canonical items and lets the raw JSON go at once.
 */
export function withItem(line: ParsedLine): ParsedLine {
  if (line.type !== 'response_item' || !isRecord(line.payload)) return line;
  if (codyEventOf(line.type, line.payload)) return line;
  return { type: line.type, payload: undefined, item: parseResponseItem(line.payload) };
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
  const parsed = parseLine(text);
  if ('problem' in parsed) {
    if (parsed.problem === 'json' && isUnterminatedLast) return undefined;
    throw new CorruptRolloutError(filePath, lineNumber, parsed.reason);
  }
  if (parsed.type === 'turn_context')
    return { type: parsed.type, payload: parsed.payload, timestamp: parsed.timestamp };
  return { type: parsed.type, payload: parsed.payload };
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

  /*
   * Events and turn contexts are kept raw and validated in finish(), newest first, until one is usable:
   * only the last usable one of each kind is ever read, so validating thousands of them is wasted work.
   */
  private readonly turnContexts: Array<{ payload: unknown; timestamp: string | undefined }> = [];
  /** Each `turn_complete` with how many counted messages had been recorded before it. */
  private readonly turnCompletes: Array<{ payload: unknown; countedBefore: number }> = [];
  /** Messages recorded in the lines replayed that the message count counts (definitions.ts). */
  private countedMessages = 0;
  /** `epoch` counts the compactions and rollbacks that void the token counts reported before them. */
  private readonly tokenCounts: Array<{ payload: unknown; historyLength: number; epoch: number }> = [];
  private epoch = 0;
  /** Whether a `turn_complete` or `turn_aborted` came after the last turn context. */
  private lastTurnEnded = true;

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
        const event = !line.item && isRecord(line.payload) ? codyEventOf(line.type, line.payload) : undefined;
        if (event) {
          this.applyEvent(event.payload);
          break;
        }
        const item = line.item ?? parseResponseItem(line.payload);
        state.history.push(item);
        if (isCountedMessage(item)) this.countedMessages += 1;
        break;
      }
      case 'compacted':
        this.applyCompacted(line.payload, lineNumber);
        break;
      case 'turn_context':
        this.turnContexts.push({ payload: line.payload, timestamp: line.timestamp });
        this.lastTurnEnded = false;
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
    this.epoch += 1;
  }

  /** The state once every line is applied: the last usable turn context, token count and counts. */
  finish(): ResumedRollout {
    const state = this.state;
    for (let index = this.turnContexts.length - 1; index >= 0; index -= 1) {
      const { payload, timestamp } = this.turnContexts[index]!;
      const context = toTurnContext(payload, state.meta);
      if (context) {
        state.lastTurnContext = context;
        if (timestamp !== undefined) state.lastTurnContextAt = timestamp;
        break;
      }
    }
    // Cody's own turns record the context window; an imported Codex turn (never closed the Cody way)
    // does not, and is not taken for a dead one.
    const open = this.lastTurnEnded
      ? undefined
      : toTurnContext(this.turnContexts.at(-1)?.payload, state.meta);
    if (open?.context_window !== undefined) state.openTurnId = open.turn_id ?? '';
    let needLast = true;
    for (let index = this.tokenCounts.length - 1; index >= 0; index -= 1) {
      const { payload, historyLength, epoch } = this.tokenCounts[index]!;
      const count = tokenCountSchema.safeParse(payload);
      const last = count.success ? count.data.info?.last_token_usage : undefined;
      if (!last) continue; // Codex writes `info: null` before the first response
      if (needLast && epoch === this.epoch) {
        state.lastTokenCount = { usage: toTokenUsage(last), historyLengthAtReport: historyLength };
      }
      needLast = false;
      const total = count.success ? count.data.info?.total_token_usage : undefined;
      if (total) {
        state.totalTokenUsage = toTokenUsage(total);
        break;
      }
    }
    for (let index = this.turnCompletes.length - 1; index >= 0; index -= 1) {
      const { payload, countedBefore } = this.turnCompletes[index]!;
      const complete = turnCompleteSchema.safeParse(payload);
      if (!complete.success) continue;
      // Messages recorded after it (a turn that failed or was interrupted) count too.
      const recordedSince = this.countedMessages - countedBefore;
      if (complete.data.message_count !== undefined)
        state.messageCount ??= complete.data.message_count + recordedSince;
      state.firstUserMessage ??= complete.data.first_user_message;
      if (state.messageCount !== undefined && state.firstUserMessage !== undefined) break;
    }
    if (state.messageCount === undefined) delete state.messageCount;
    if (state.firstUserMessage === undefined) delete state.firstUserMessage;
    return state;
  }

  private applyEvent(payload: unknown): void {
    if (!isRecord(payload) || typeof payload.type !== 'string') return;
    if (payload.type === 'turn_complete' || payload.type === 'turn_aborted') this.lastTurnEnded = true;
    if (payload.type === 'turn_aborted') {
      const note = unansweredNote(this.state.history, payload.reason);
      if (note) this.state.history.push(note);
    }
    if (payload.type === 'token_count') {
      this.tokenCounts.push({ payload, historyLength: this.state.history.length, epoch: this.epoch });
    } else if (payload.type === 'thread_rolled_back') {
      // `cody undo` (Codex's event): the last `num_turns` user turns leave the history.
      const turns = payload.num_turns;
      if (typeof turns === 'number' && Number.isInteger(turns) && turns > 0) {
        this.state.history = dropLastTurns(this.state.history, turns);
        this.epoch += 1;
      }
    } else if (payload.type === 'turn_complete') {
      this.turnCompletes.push({ payload, countedBefore: this.countedMessages });
    }
  }
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
  const userMessages = history.slice(initial.length).filter(isTypedUserMessage);
  return [...initial, ...userMessages, summaryMessage(summary)];
}
