/**
 * Converse's sequencing rules for `messages`, one named method each: turns alternate between user and
 * assistant, tool results open the user turn right after the assistant turn with their `toolUse`,
 * reasoning opens its assistant turn, and the first turn is the user's.
 */
import type { ContentBlock, Message } from '@aws-sdk/client-bedrock-runtime';

/** The user turn put first when a history would otherwise start with the assistant (or be empty). */
export const CONVERSATION_START_PLACEHOLDER = '(continuing the conversation)';

interface Turn {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export class ConverseTurnBuilder {
  private readonly turns: Turn[] = [];

  /** Adds blocks to the last turn when it has the same role (so roles alternate), else opens a turn. */
  append(role: Turn['role'], blocks: readonly ContentBlock[]): void {
    if (blocks.length === 0) return;
    const last = this.turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else this.turns.push({ role, content: [...blocks] });
  }

  /** A tool result goes first in the user turn after its call, after the results already there. */
  addToolResult(block: ContentBlock): void {
    this.insertBefore('user', block, (candidate) => candidate.toolResult === undefined);
  }

  /** Reasoning comes first in its assistant turn, after reasoning already there. */
  addReasoning(block: ContentBlock): void {
    this.insertBefore('assistant', block, (candidate) => candidate.reasoningContent === undefined);
  }

  private insertBefore(
    role: Turn['role'],
    block: ContentBlock,
    other: (block: ContentBlock) => boolean,
  ): void {
    const last = this.turns.at(-1);
    if (last?.role !== role) {
      this.turns.push({ role, content: [block] });
      return;
    }
    const firstOther = last.content.findIndex(other);
    if (firstOther < 0) last.content.push(block);
    else last.content.splice(firstOther, 0, block);
  }

  /** The finished `messages`, starting with a user turn (a placeholder one, with a warning, if needed). */
  build(warnings: string[]): Message[] {
    const first = this.turns[0];
    if (first?.role !== 'user') {
      warnings.push(
        first
          ? 'The history starts with an assistant turn; a placeholder user turn was put before it.'
          : 'The history has no user or assistant turn; a placeholder user turn was sent.',
      );
      this.turns.unshift({ role: 'user', content: [{ text: CONVERSATION_START_PLACEHOLDER }] });
    }
    return this.turns.map((turn) => ({ role: turn.role, content: turn.content }));
  }
}
