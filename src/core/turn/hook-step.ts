/**
 * The turn's side of hooks: runs an event's hooks (nothing at all when none is configured for it), says
 * what each did (`hook` events, recorded in the rollout), shows their warnings, and turns what they
 * returned into what the model sees (a contextual message, a note on a call's output).
 */
import type { ContentPart, MessageItem } from '../../protocol/index.js';
import { TurnFailedError } from './turn-failure.js';
import type { SessionEvent } from '../conversation/index.js';
import {
  hookInput,
  type HookEventName,
  type HookMatch,
  type HookOutcome,
  type HookRecord,
} from '../hooks/index.js';
import type { TurnContext } from './turn-context.js';

/** At most this many characters of hook text reach the model per event (the rest is cut). */
export const MAX_HOOK_CONTEXT_CHARS = 10_000;

/** Runs `event`'s matching hooks; returns what they decided (empty when none ran). */
export async function* runHooks(
  turn: TurnContext,
  event: HookEventName,
  fields: Record<string, unknown>,
  match: HookMatch = {},
): AsyncGenerator<SessionEvent, HookOutcome> {
  const { hooks, hookCommon } = turn;
  if (!hooks?.has(event) || !hookCommon) return {};
  const run = await hooks.run(event, hookInput(event, hookCommon, fields), match, turn.signal);
  for (const record of run.records) {
    yield { type: 'hook', ...record };
    if (turn.pendingHookRecords) turn.pendingHookRecords.push(record);
    else yield* recordHook(turn, record);
  }
  for (const message of run.outcome.messages ?? []) yield { type: 'warning', message: `Hook: ${message}` };
  return run.outcome;
}

/** Hook runs of the turn before its user message was on disk, recorded now (after it). */
export async function* flushHookRecords(turn: TurnContext): AsyncGenerator<SessionEvent> {
  const pending = turn.pendingHookRecords ?? [];
  delete turn.pendingHookRecords;
  for (const record of pending) yield* recordHook(turn, record);
}

function recordHook(turn: TurnContext, record: HookRecord): AsyncGenerator<SessionEvent> {
  return turn.handle.append((recorder) =>
    recorder.appendEvent({
      type: 'hook',
      hook_event_name: record.event,
      command: record.command,
      source: record.source,
      ...(record.decision !== undefined ? { decision: record.decision } : {}),
      status: record.status,
      duration_ms: record.durationMs,
    }),
  );
}

/** Hook text for the model, redacted and bounded. */
export function hookText(turn: TurnContext, texts: readonly string[]): string {
  const text = turn.redact(texts.join('\n\n').trim());
  return text.length > MAX_HOOK_CONTEXT_CHARS
    ? `${text.slice(0, MAX_HOOK_CONTEXT_CHARS)}\n[hook output truncated]`
    : text;
}

/** A contextual user message (never shown as something the person typed) with what hooks said. */
export function hookContextMessage(
  turn: TurnContext,
  event: HookEventName,
  texts: readonly string[],
): MessageItem {
  return {
    type: 'message',
    role: 'user',
    content: [
      {
        type: 'input_text',
        text: `<hook_context>\n${event} hook says:\n${hookText(turn, texts)}\n</hook_context>`,
      },
    ],
  };
}

/** Notification hooks (an approval waits, a turn ended), whose outcome is only shown. */
export function notify(
  turn: TurnContext,
  type: 'permission_prompt' | 'idle_prompt',
  message: string,
): AsyncGenerator<SessionEvent, HookOutcome> {
  return runHooks(turn, 'Notification', { message, notification_type: type }, { value: type });
}

/** The prompt's text, as UserPromptSubmit hooks read it (`prompt`). */
function promptText(content: readonly ContentPart[]): string {
  return content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
}

/**
 * Before the user message is recorded: the SessionStart due (a new conversation, one opened again, after a
 * compaction), then UserPromptSubmit. Returns the contextual messages to record after the user message;
 * throws (nothing recorded) when a hook blocks the prompt or stops the turn.
 */
export async function* promptHooks(
  turn: TurnContext,
  content: readonly ContentPart[],
): AsyncGenerator<SessionEvent, MessageItem[]> {
  const messages: MessageItem[] = [];
  const state = turn.hookState;
  turn.pendingHookRecords = [];
  const source = state?.pendingStart;
  if (state && source !== undefined) {
    delete state.pendingStart;
    state.started = true;
    const started = yield* runHooks(turn, 'SessionStart', { source }, { value: source });
    if (started.context?.length) messages.push(hookContextMessage(turn, 'SessionStart', started.context));
  }
  const submitted = yield* runHooks(turn, 'UserPromptSubmit', { prompt: promptText(content) });
  if (submitted.stop !== undefined || submitted.block === true) {
    const why = submitted.stop ?? submitted.reason ?? 'a hook blocked it';
    throw new TurnFailedError(
      `The prompt was blocked by a UserPromptSubmit hook: ${turn.redact(why)}`,
      'failure',
    );
  }
  if (submitted.context?.length)
    messages.push(hookContextMessage(turn, 'UserPromptSubmit', submitted.context));
  return messages;
}

/** Stop hooks sending the model back to work after this many times in one turn are not asked again. */
export const MAX_STOP_HOOK_CONTINUATIONS = 5;

/**
 * When the model is done: Stop hooks. Returns the message sending it back to work (a hook blocked the
 * stop with a reason), or undefined to end the turn. `continuations`: how often this turn was sent back.
 */
export async function* stopHooks(
  turn: TurnContext,
  continuations: number,
): AsyncGenerator<SessionEvent, MessageItem | undefined> {
  if (continuations >= MAX_STOP_HOOK_CONTINUATIONS) return undefined;
  const outcome = yield* runHooks(turn, 'Stop', { stop_hook_active: continuations > 0 });
  if (outcome.stop !== undefined || outcome.block !== true) return undefined;
  return hookContextMessage(turn, 'Stop', [
    `Do not stop yet. ${outcome.reason ?? 'A Stop hook asks you to continue.'}`,
  ]);
}

/** PreCompact hooks (`trigger` manual or auto, `custom_instructions` the focus): told, they decide nothing. */
export async function* preCompactHooks(
  turn: TurnContext,
  trigger: 'auto' | 'overflow' | 'manual',
  focus: string | undefined,
): AsyncGenerator<SessionEvent> {
  const value = trigger === 'manual' ? 'manual' : 'auto';
  yield* runHooks(turn, 'PreCompact', { trigger: value, custom_instructions: focus ?? '' }, { value });
}
