/** Canonical items → an Anthropic Messages request body: top-level `system`, strictly alternating turns. */
import type {
  MessageCreateParamsStreaming,
  RedactedThinkingBlockParam,
  ThinkingBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import {
  type ConversionResult,
  type FunctionCallItem,
  type FunctionCallOutputItem,
  type MessageItem,
  type ReasoningItem,
  type ReasoningLevel,
  type ResponseItem,
  type ToolSpec,
  isRecord,
} from '../../protocol/index.js';
import { wrapLateInstruction } from '../shared/late-instruction.js';
import { normalizeItems } from '../shared/normalize-items.js';
import { isReplayableTo } from '../shared/origin.js';
import { claudeThinkingFields, toolLoopLacksThinking } from './anthropic-thinking.js';
import { AnthropicTurnBuilder } from './anthropic-turn-builder.js';
import { type AnthropicContentBlock, convertToAnthropicContent } from './convert-to-anthropic-content.js';
import { toAnthropicToolId } from './to-anthropic-tool-id.js';

export interface AnthropicRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  maxOutputTokens?: number;
  /** `none`: tools are sent but may not be called (the compaction summary). */
  toolChoice?: 'auto' | 'none';
  /**
   * The conversation's reasoning level, for a model that thinks: extended thinking with its budget, or
   * adaptive thinking with its effort (anthropic-thinking.ts).
   */
  reasoningEffort?: ReasoningLevel;
}

/** Warning when a tool loop begun without thinking is continued with thinking on. */
export const THINKING_PAUSED_WARNING =
  'Thinking was left off for this request: the tool calls it answers were made without thinking, and Anthropic requires thinking to open that turn.';

/**
 * `max_tokens` when the caller sets no cap. Anthropic requires one; 8,192 is within every current Claude
 * model's output limit (the smallest, Haiku 3.5, allows 8,192) and long enough for a full reply.
 */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8_192;

/**
 * The request for `items`. Leading system/developer messages become `system`; consecutive same-role
 * items merge into one turn; tool calls and results become `tool_use`/`tool_result` blocks paired by an
 * adapted id; Claude's own thinking is replayed with its signature, reasoning from any other provider is
 * dropped (its summary too: injected as text it would read as something the assistant said). Pure.
 */
export function convertToAnthropicRequest(
  options: AnthropicRequestOptions,
): ConversionResult<MessageCreateParamsStreaming> {
  const warnings: string[] = [];
  const system: string[] = [];
  const turns = new AnthropicTurnBuilder();
  let conversationStarted = false;
  let droppedReasoning = 0;
  // Anthropic refuses tool_use and tool_result blocks in a request that defines no tools (400 "Requests
  // which include `tool_use` or `tool_result` blocks must define tools."): without tools, the calls and
  // their results travel as text, so a history with tool calls can still be sent.
  const toolBlocks = options.tools.length > 0;
  const callNames = new Map<string, string>();

  for (const item of normalizeItems(options.items)) {
    switch (item.type) {
      case 'message': {
        if (item.role === 'system' || item.role === 'developer') {
          const text = instructionText(item, warnings);
          if (text === '') continue;
          if (!conversationStarted) system.push(text);
          else turns.append('user', [{ type: 'text', text: wrapLateInstruction(item.role, text) }]);
          continue;
        }
        conversationStarted = true;
        const role = item.role === 'assistant' ? 'assistant' : 'user';
        turns.append(role, convertToAnthropicContent(item.content, role, warnings));
        continue;
      }
      case 'function_call':
        conversationStarted = true;
        callNames.set(item.call_id, item.name);
        if (toolBlocks) turns.append('assistant', [convertToToolUse(item, warnings)]);
        else turns.append('assistant', [{ type: 'text', text: toolCallText(item) }]);
        continue;
      case 'function_call_output':
        if (toolBlocks) turns.addToolResult(convertToToolResult(item, warnings));
        else turns.append('user', toolResultText(item, callNames.get(item.call_id), warnings));
        continue;
      case 'reasoning': {
        conversationStarted = true;
        const block = convertToThinking(item, options.model);
        if (block) turns.addThinking(block);
        else droppedReasoning += 1;
        continue;
      }
      case 'ghost_snapshot':
      case 'opaque':
        continue;
      default: {
        const exhaustive: never = item;
        throw new Error(`unknown item ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  if (droppedReasoning > 0) {
    warnings.push(
      `${droppedReasoning} reasoning item(s) were not sent: only Claude's own signed thinking can be replayed to Anthropic.`,
    );
  }

  const maxTokens = options.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  const messages = turns.build(warnings);
  const fields =
    options.reasoningEffort !== undefined
      ? claudeThinkingFields(options.model, options.reasoningEffort, maxTokens)
      : { adaptive: false };
  let thinking = fields.thinking;
  // Adaptive thinking may skip thinking on any turn, so only a budget needs the loop to open with it.
  if (thinking && !fields.adaptive && toolLoopLacksThinking(messages)) {
    warnings.push(THINKING_PAUSED_WARNING);
    thinking = undefined;
  }
  // Cody sends no temperature, top_p or top_k, which thinking forbids, and only `auto`/`none` tool choices.
  const body: MessageCreateParamsStreaming = {
    model: options.model,
    max_tokens: maxTokens,
    ...(thinking ? { thinking } : {}),
    ...(fields.effort ? { output_config: { effort: fields.effort } } : {}),
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    messages,
    ...(toolBlocks ? { tools: options.tools.map(convertToAnthropicTool) } : {}),
    ...(toolBlocks && options.toolChoice === 'none' ? { tool_choice: { type: 'none' as const } } : {}),
    stream: true,
  };
  return { body, warnings };
}

function instructionText(item: MessageItem, warnings: string[]): string {
  const texts: string[] = [];
  for (const part of item.content) {
    if (part.type === 'input_image') warnings.push(`An image in a ${item.role} message was left out.`);
    else if (part.text !== '') texts.push(part.text);
  }
  return texts.join('\n');
}

function convertToToolUse(item: FunctionCallItem, warnings: string[]): ToolUseBlockParam {
  return {
    type: 'tool_use',
    id: toAnthropicToolId(item.call_id),
    name: item.name,
    input: parseToolInput(item, warnings),
  };
}

/** The arguments as the object `input` must be; `{}` for none, and `{}` with a warning if not an object. */
function parseToolInput(item: FunctionCallItem, warnings: string[]): Record<string, unknown> {
  if (item.arguments.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(item.arguments);
    if (isRecord(parsed)) return parsed;
  } catch {
    // Reported below.
  }
  warnings.push(
    `The arguments of tool call ${item.call_id} (${item.name}) are not a JSON object; sent as {}.`,
  );
  return {};
}

/** A tool call as assistant text, for a request without tools. */
function toolCallText(item: FunctionCallItem): string {
  return `[called tool ${item.name} (${item.call_id}) with ${item.arguments.trim() || '{}'}]`;
}

/** A tool result as user content, for a request without tools. */
function toolResultText(
  item: FunctionCallOutputItem,
  name: string | undefined,
  warnings: string[],
): AnthropicContentBlock[] {
  const heading = { type: 'text' as const, text: `[result of tool ${name ?? 'call'} (${item.call_id})]` };
  const body =
    typeof item.output === 'string'
      ? item.output === ''
        ? []
        : [{ type: 'text' as const, text: item.output }]
      : convertToAnthropicContent(item.output, 'user', warnings);
  return [heading, ...body];
}

function convertToToolResult(item: FunctionCallOutputItem, warnings: string[]): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: toAnthropicToolId(item.call_id) };
  if (typeof item.output === 'string') {
    if (item.output !== '') block.content = item.output;
  } else {
    const content = convertToAnthropicContent(item.output, 'user', warnings);
    if (content.length > 0) block.content = content;
  }
  return block;
}

/** Claude's own thinking, replayed unchanged with its signature; undefined when it cannot be sent. */
function convertToThinking(
  item: ReasoningItem,
  model: string,
): ThinkingBlockParam | RedactedThinkingBlockParam | undefined {
  if (!isReplayableTo(item.origin, 'anthropic-messages', model)) return undefined;
  const redacted = item.provider_data?.redacted_data;
  if (redacted) return { type: 'redacted_thinking', data: redacted };
  const signature = item.provider_data?.signature;
  // Thinking without its signature is rejected; the text alone is not worth a failed request.
  if (!signature) return undefined;
  const thinking = (item.content ?? []).map((part) => part.text).join('');
  return { type: 'thinking', thinking, signature };
}

function convertToAnthropicTool(tool: ToolSpec): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: 'object' },
  };
}
