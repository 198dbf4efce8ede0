/** Canonical items → an Anthropic Messages request body: top-level system, strictly alternating turns. */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ContentPart, ConversionResult, ResponseItem, ToolSpec } from '../../protocol/index.js';
import { normalizeItems } from '../shared/normalize-items.js';
import { isReplayableTo } from '../shared/origin.js';

export interface AnthropicRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  maxOutputTokens?: number;
}

/** Anthropic requires `max_tokens`; 8,192 fits every current Claude model's output limit. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8_192;

interface Turn {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
}

/** Tool-use ids must match `^[a-zA-Z0-9_-]+$`; ids from other APIs are adapted deterministically. */
export function toAnthropicToolId(callId: string): string {
  const cleaned = callId.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned === '' ? 'toolu_empty' : cleaned.slice(0, 200);
}

function imageBlock(url: string): ImageBlockParam | undefined {
  const match = /^data:(image\/(?:jpeg|png|gif|webp));base64,(.*)$/s.exec(url);
  if (match?.[1] && match[2] !== undefined) {
    return {
      type: 'image',
      source: {
        type: 'base64',
        media_type: match[1] as 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp',
        data: match[2],
      },
    };
  }
  if (/^https?:\/\//.test(url)) return { type: 'image', source: { type: 'url', url } };
  return undefined;
}

function toBlocks(
  parts: readonly ContentPart[],
  warnings: string[],
): Array<TextBlockParam | ImageBlockParam> {
  const blocks: Array<TextBlockParam | ImageBlockParam> = [];
  for (const part of parts) {
    if (part.type === 'input_image') {
      const block = imageBlock(part.image_url);
      if (block) blocks.push(block);
      else
        warnings.push(
          'An image in an unsupported format was left out (Anthropic takes jpeg, png, gif or webp).',
        );
    } else if (part.text !== '') {
      blocks.push({ type: 'text', text: part.text });
    }
  }
  return blocks;
}

/** Appends to the last turn when it has the same role (Anthropic requires strict alternation). */
function pushTurn(turns: Turn[], role: Turn['role'], blocks: ContentBlockParam[]): void {
  if (blocks.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === role) last.content.push(...blocks);
  else turns.push({ role, content: [...blocks] });
}

/** Tool results must open the user turn that follows their tool_use, before any other text. */
function pushToolResult(turns: Turn[], block: ToolResultBlockParam): void {
  const last = turns.at(-1);
  if (last?.role === 'user') {
    const firstOther = last.content.findIndex((candidate) => candidate.type !== 'tool_result');
    if (firstOther < 0) last.content.push(block);
    else last.content.splice(firstOther, 0, block);
  } else {
    turns.push({ role: 'user', content: [block] });
  }
}

export function convertToAnthropicRequest(
  options: AnthropicRequestOptions,
): ConversionResult<MessageCreateParamsStreaming> {
  const warnings: string[] = [];
  const system: string[] = [];
  const turns: Turn[] = [];
  let leading = true;
  let droppedReasoning = 0;

  for (const item of normalizeItems(options.items)) {
    if (item.type === 'message' && (item.role === 'system' || item.role === 'developer')) {
      const text = item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
      // Leading instructions go in `system`; a later developer note would lose its place there, so it
      // stays in the conversation as clearly labelled user-turn text.
      if (leading) system.push(text);
      else pushTurn(turns, 'user', [{ type: 'text', text: `[${item.role} instructions]\n${text}` }]);
      continue;
    }
    leading = false;
    switch (item.type) {
      case 'message':
        pushTurn(turns, item.role === 'assistant' ? 'assistant' : 'user', toBlocks(item.content, warnings));
        continue;
      case 'function_call': {
        let input: unknown = {};
        try {
          input = JSON.parse(item.arguments === '' ? '{}' : item.arguments);
        } catch {
          warnings.push(`Tool call ${item.call_id} had arguments that are not JSON; sent as {}.`);
        }
        if (typeof input !== 'object' || input === null || Array.isArray(input)) input = {};
        pushTurn(turns, 'assistant', [
          { type: 'tool_use', id: toAnthropicToolId(item.call_id), name: item.name, input },
        ]);
        continue;
      }
      case 'function_call_output': {
        const content =
          typeof item.output === 'string'
            ? item.output
            : toBlocks(item.output, warnings).filter(
                (block): block is TextBlockParam | ImageBlockParam =>
                  block.type === 'text' || block.type === 'image',
              );
        pushToolResult(turns, { type: 'tool_result', tool_use_id: toAnthropicToolId(item.call_id), content });
        continue;
      }
      case 'reasoning': {
        if (isReplayableTo(item.origin, 'anthropic-messages', options.model)) {
          const signature = item.provider_data?.signature;
          const redacted = item.provider_data?.redacted_data;
          const thinking = (item.content ?? []).map((part) => part.text).join('');
          let block: ContentBlockParam | undefined;
          if (redacted) block = { type: 'redacted_thinking', data: redacted };
          else if (signature) block = { type: 'thinking', thinking, signature };
          // Thinking opens its assistant turn, as the API returned it.
          if (block) {
            const last = turns.at(-1);
            if (last?.role === 'assistant') last.content.unshift(block);
            else turns.push({ role: 'assistant', content: [block] });
            continue;
          }
        }
        if (item.summary.length > 0 || item.content?.length) droppedReasoning += 1;
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
  if (turns[0]?.role === 'assistant') {
    warnings.push('The history started with an assistant turn; a placeholder user turn was added before it.');
    turns.unshift({ role: 'user', content: [{ type: 'text', text: '(conversation continues)' }] });
  }
  if (droppedReasoning > 0)
    warnings.push(`${droppedReasoning} reasoning item(s) from another provider were not sent.`);

  const body: MessageCreateParamsStreaming = {
    model: options.model,
    max_tokens: options.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: turns.map((turn) => ({ role: turn.role, content: turn.content })),
    stream: true,
  };
  if (system.length > 0) body.system = system.join('\n\n');
  if (options.tools.length > 0) {
    body.tools = options.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters as { type: 'object'; properties?: Record<string, unknown> },
    }));
  }
  return { body, warnings };
}
