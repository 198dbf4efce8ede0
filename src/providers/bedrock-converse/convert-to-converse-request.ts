/** Canonical items → a Converse request: `system` blocks, alternating turns, tools as `toolSpec`s. */
import type {
  ContentBlock,
  ConverseStreamCommandInput,
  Message,
  Tool,
  ToolResultContentBlock,
} from '@aws-sdk/client-bedrock-runtime';
import type { DocumentType } from '@smithy/types';
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
import { convertToConverseContent, toConverseToolId } from './convert-to-converse-content.js';
import { converseReasoning } from './converse-reasoning.js';
import { BEDROCK_API, bedrockModelFamily, isClaude } from './definition.js';
import { ConverseTurnBuilder } from './converse-turn-builder.js';

export interface ConverseRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  maxOutputTokens?: number;
  /** `none`: the model may not call a tool (the compaction summary). */
  toolChoice?: 'auto' | 'none';
  reasoningEffort?: ReasoningLevel;
}

/** Warning when a Claude tool loop begun without thinking is continued with thinking on. */
export const THINKING_PAUSED_WARNING =
  'Thinking was left off for this request: the tool calls it answers were made without thinking, and Claude requires thinking to open that turn.';

/** What a tool result with no output says: Converse rejects a blank text block. */
export const EMPTY_TOOL_OUTPUT = '(no output)';

/**
 * The request for `items`. Leading system/developer messages become `system`; consecutive same-role items
 * merge into one turn; calls and results become `toolUse`/`toolResult` blocks. Converse has no "tools
 * defined but none may be called", and refuses tool blocks without a `toolConfig`: so without tools, or
 * with `toolChoice: none`, no tools are sent and the history's calls and results travel as text. The
 * model's own reasoning is replayed with its signature; reasoning from anywhere else is dropped. Pure.
 */
export function convertToConverseRequest(
  options: ConverseRequestOptions,
): ConversionResult<ConverseStreamCommandInput> {
  const warnings: string[] = [];
  const system: string[] = [];
  const turns = new ConverseTurnBuilder();
  const toolBlocks = options.tools.length > 0 && options.toolChoice !== 'none';
  const callNames = new Map<string, string>();
  let started = false;
  let droppedReasoning = 0;
  for (const item of normalizeItems(options.items)) {
    switch (item.type) {
      case 'message': {
        if (item.role === 'system' || item.role === 'developer') {
          const text = instructionText(item, warnings);
          if (text === '') continue;
          if (!started) system.push(text);
          else turns.append('user', [{ text: wrapLateInstruction(item.role, text) }]);
          continue;
        }
        started = true;
        const role = item.role === 'assistant' ? 'assistant' : 'user';
        turns.append(role, convertToConverseContent(item.content, role, warnings));
        continue;
      }
      case 'function_call':
        started = true;
        callNames.set(item.call_id, item.name);
        turns.append('assistant', [toolBlocks ? toolUseBlock(item, warnings) : { text: toolCallText(item) }]);
        continue;
      case 'function_call_output':
        if (toolBlocks) turns.addToolResult(toolResultBlock(item, warnings));
        else turns.append('user', toolResultText(item, callNames.get(item.call_id), warnings));
        continue;
      case 'reasoning': {
        started = true;
        const block = reasoningBlock(item, options.model);
        if (block) turns.addReasoning(block);
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
      `${droppedReasoning} reasoning item(s) were not sent: only this model's own signed reasoning can be replayed.`,
    );
  }
  const messages = turns.build(warnings);
  let reasoning = converseReasoning(options.model, options.reasoningEffort, options.maxOutputTokens);
  if (reasoning && !reasoning.adaptive && isClaude(options.model) && toolLoopLacksReasoning(messages)) {
    warnings.push(THINKING_PAUSED_WARNING);
    reasoning = undefined;
  }
  const maxTokens = options.maxOutputTokens ?? reasoning?.maxTokens;
  const body: ConverseStreamCommandInput = {
    modelId: options.model,
    messages,
    ...(system.length > 0 ? { system: [{ text: system.join('\n\n') }] } : {}),
    ...(maxTokens !== undefined ? { inferenceConfig: { maxTokens } } : {}),
    ...(toolBlocks ? { toolConfig: { tools: options.tools.map(toolSpec) } } : {}),
    ...(reasoning ? { additionalModelRequestFields: reasoning.fields } : {}),
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

function toolUseBlock(item: FunctionCallItem, warnings: string[]): ContentBlock {
  return {
    toolUse: { toolUseId: toConverseToolId(item.call_id), name: item.name, input: toolInput(item, warnings) },
  };
}

/** The arguments as the object `input` must be; `{}` for none, and `{}` with a warning if not an object. */
function toolInput(item: FunctionCallItem, warnings: string[]): DocumentType {
  if (item.arguments.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(item.arguments);
    if (isRecord(parsed)) return parsed as DocumentType;
  } catch {
    // Reported below.
  }
  warnings.push(
    `The arguments of tool call ${item.call_id} (${item.name}) are not a JSON object; sent as {}.`,
  );
  return {};
}

function toolResultBlock(item: FunctionCallOutputItem, warnings: string[]): ContentBlock {
  const content: ToolResultContentBlock[] =
    typeof item.output === 'string'
      ? [{ text: item.output === '' ? EMPTY_TOOL_OUTPUT : item.output }]
      : convertToConverseContent(item.output, 'user', warnings).flatMap((block): ToolResultContentBlock[] =>
          block.text !== undefined ? [{ text: block.text }] : block.image ? [{ image: block.image }] : [],
        );
  return {
    toolResult: {
      toolUseId: toConverseToolId(item.call_id),
      content: content.length > 0 ? content : [{ text: EMPTY_TOOL_OUTPUT }],
    },
  };
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
): ContentBlock[] {
  const heading: ContentBlock = { text: `[result of tool ${name ?? 'call'} (${item.call_id})]` };
  const body: ContentBlock[] =
    typeof item.output === 'string'
      ? item.output === ''
        ? []
        : [{ text: item.output }]
      : convertToConverseContent(item.output, 'user', warnings);
  return [heading, ...body];
}

/** The model's own reasoning, replayed with its signature (or redacted bytes); else undefined. */
function reasoningBlock(item: ReasoningItem, model: string): ContentBlock | undefined {
  const origin = item.origin;
  if (!origin || origin.foreign === true || origin.api !== BEDROCK_API) return undefined;
  if (bedrockModelFamily(origin.model) !== bedrockModelFamily(model)) return undefined;
  const redacted = item.provider_data?.redacted_data;
  if (redacted) return { reasoningContent: { redactedContent: Buffer.from(redacted, 'base64') } };
  const signature = item.provider_data?.signature;
  // Reasoning without its signature is refused; the text alone is not worth a failed request.
  if (!signature) return undefined;
  const text = (item.content ?? []).map((part) => part.text).join('');
  return { reasoningContent: { reasoningText: { text, signature } } };
}

function toolSpec(tool: ToolSpec): Tool {
  const schema = { ...tool.parameters, type: 'object' } as DocumentType;
  return { toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: schema } } };
}

/**
 * With thinking on, Claude requires the assistant turn of a tool loop in progress (the last, whose results
 * end the request) to open with its reasoning. A loop begun without thinking has none.
 */
function toolLoopLacksReasoning(messages: readonly Message[]): boolean {
  const last = messages.at(-1);
  const assistant = messages.at(-2);
  if (last?.role !== 'user' || assistant?.role !== 'assistant') return false;
  if (!(last.content ?? []).some((block) => block.toolResult !== undefined)) return false;
  return assistant.content?.[0]?.reasoningContent === undefined;
}
