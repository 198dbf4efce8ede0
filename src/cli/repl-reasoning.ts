/** The REPL's `/reasoning [level]`: shows or sets how hard the conversation's model reasons. */
import type { ChalkInstance } from 'chalk';
import { REASONING_LEVELS, type ReasoningLevel } from '../protocol/index.js';
import type { Conversation } from '../core/index.js';

/** What `/reasoning` needs: the session and a place to keep the choice for conversations opened later. */
export interface ReasoningChoice {
  session: Pick<Conversation, 'setReasoning' | 'status'>;
  /** /reasoning chose a level: conversations opened later in this session keep it. */
  reasoningChosen: (level: ReasoningLevel) => void;
}

/** The level as `/status` and `/reasoning` word it. */
export function reasoningLabel(level: string | undefined): string {
  return level ?? "the API's default";
}

export function reasoningCommand(
  argument: string,
  state: ReasoningChoice,
  color: ChalkInstance,
  say: (text: string) => void,
): void {
  if (argument === '') {
    say(
      `Reasoning: ${reasoningLabel(state.session.status().reasoning)}. Change it with /reasoning ${REASONING_LEVELS.join('|')}.\n`,
    );
    return;
  }
  let level: ReasoningLevel;
  let ignored: string | undefined;
  try {
    // The engine checks the name (a usage error names the valid ones) and knows whether the model takes it.
    const status = state.session.setReasoning(argument as ReasoningLevel);
    level = (status.reasoning ?? argument) as ReasoningLevel;
    ignored = status.reasoningIgnored;
  } catch (error) {
    say(color.red(`${error instanceof Error ? error.message : String(error)}\n`));
    return;
  }
  state.reasoningChosen(level);
  // Said now, not at the next turn: the model in use cannot take the level.
  if (ignored !== undefined) say(color.yellow(`⚠ ${ignored}\n`));
  else say(color.green(`✓ Reasoning ${level} for this conversation (kept with its next turn)\n`));
}
