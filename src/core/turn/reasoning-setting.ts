/**
 * The conversation's reasoning level: how it is recorded in `turn_context` (Codex's `effort` and
 * `summary`, so Codex reads it), read back, and what a turn tells the person when the model cannot use it.
 */
import { isReasoningLevel, REASONING_LEVELS, type ReasoningLevel } from '../../protocol/index.js';
import type { ReasoningSupport } from '../selection/index.js';
import { UsageError } from '../errors.js';
import type { TurnContextPayload } from '../rollout/index.js';

/** `turn_context`'s `effort` and `summary` for a level: `off` is Codex's `none`, the rest their own name. */
export function codexReasoningFields(
  level: ReasoningLevel | undefined,
): Pick<TurnContextPayload, 'effort' | 'summary'> {
  if (level === undefined) return {};
  return level === 'off' ? { effort: 'none', summary: 'none' } : { effort: level, summary: 'auto' };
}

/** The level a recorded `effort` stands for (Codex's `none` is `off`, its `xhigh` is `high`). */
export function levelFromCodexEffort(effort: string | undefined): ReasoningLevel | undefined {
  if (effort === 'none') return 'off';
  if (effort === 'xhigh') return 'high';
  return isReasoningLevel(effort) ? effort : undefined;
}

/** A level typed by a person or sent by a client; a `UsageError` naming the levels otherwise. */
export function parseReasoningLevel(value: string): ReasoningLevel {
  const level = value.trim().toLowerCase();
  if (isReasoningLevel(level)) return level;
  throw new UsageError(`Unknown reasoning level '${value}'. Choose one of: ${REASONING_LEVELS.join(', ')}.`);
}

/**
 * The one warning for a level the model cannot use (never sent, so never a 400); undefined when it can,
 * or when the level asks for nothing (`off` on a model that does not reason).
 */
export function unusableReasoningWarning(
  model: string,
  level: ReasoningLevel | undefined,
  support: ReasoningSupport,
): string | undefined {
  if (level === undefined || support.effort) return undefined;
  if (!support.reasons) {
    return level === 'off'
      ? undefined
      : `Model '${model}' does not reason: the reasoning setting '${level}' is ignored (set models.${model}.reasoning to true if it does).`;
  }
  return `Model '${model}' reasons on its own and takes no effort setting: the reasoning setting '${level}' is ignored.`;
}
