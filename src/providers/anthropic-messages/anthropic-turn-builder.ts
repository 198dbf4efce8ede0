/**
 * Anthropic's sequencing rules for `messages`, one named method each: turns strictly alternate between
 * user and assistant, tool results open the user turn right after the assistant turn with their
 * `tool_use`, thinking opens its assistant turn, and the first turn is the user's.
 */
import type {
  ContentBlockParam,
  MessageParam,
  RedactedThinkingBlockParam,
  ThinkingBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';

/**
 * Text of the user turn added when a history would otherwise start with the assistant (or hold no turn
 * at all): Anthropic requires the first message to be the user's. Worded as a neutral marker so the
 * model does not answer it.
 */
export const CONVERSATION_START_PLACEHOLDER = '(continuing the conversation)';

interface Turn {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
}

export class AnthropicTurnBuilder {
  private readonly turns: Turn[] = [];

  /** Adds blocks to the last turn when it has the same role (so roles alternate), else opens a turn. */
  append(role: Turn['role'], blocks: readonly ContentBlockParam[]): void {
    if (blocks.length === 0) return;
    const last = this.turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else this.turns.push({ role, content: [...blocks] });
  }

  /**
   * A tool result goes in the user turn that follows the assistant turn holding its `tool_use`, after the
   * results already there and before any other user content: Anthropic rejects a `tool_use` whose next
   * message does not start with its result.
   */
  addToolResult(block: ToolResultBlockParam): void {
    const last = this.turns.at(-1);
    if (last?.role !== 'user') {
      this.turns.push({ role: 'user', content: [block] });
      return;
    }
    const firstOther = last.content.findIndex((candidate) => candidate.type !== 'tool_result');
    if (firstOther < 0) last.content.push(block);
    else last.content.splice(firstOther, 0, block);
  }

  /**
   * Thinking comes first in its assistant turn, as the API returned it (after any thinking already
   * there, keeping their order); with no assistant turn open it opens one.
   */
  addThinking(block: ThinkingBlockParam | RedactedThinkingBlockParam): void {
    const last = this.turns.at(-1);
    if (last?.role !== 'assistant') {
      this.turns.push({ role: 'assistant', content: [block] });
      return;
    }
    const firstOther = last.content.findIndex(
      (candidate) => candidate.type !== 'thinking' && candidate.type !== 'redacted_thinking',
    );
    if (firstOther < 0) last.content.push(block);
    else last.content.splice(firstOther, 0, block);
  }

  /** The finished `messages`, starting with a user turn (a placeholder one, with a warning, if needed). */
  build(warnings: string[]): MessageParam[] {
    const first = this.turns[0];
    if (first?.role !== 'user') {
      warnings.push(
        first
          ? 'The history starts with an assistant turn; a placeholder user turn was put before it.'
          : 'The history has no user or assistant turn; a placeholder user turn was sent.',
      );
      this.turns.unshift({ role: 'user', content: [{ type: 'text', text: CONVERSATION_START_PLACEHOLDER }] });
    }
    return this.turns.map((turn) => ({ role: turn.role, content: turn.content }));
  }
}
