/** Canonical items → an OpenAI Chat Completions request body (also what OpenAI-compatible servers take). */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { ContentPart, ConversionResult, ResponseItem, ToolSpec } from '../../protocol/index.js';
import { normalizeItems } from '../shared/normalize-items.js';

export interface OpenAIChatRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  maxOutputTokens?: number;
}

/**
 * o-series and GPT-5 models take instructions as `developer` messages; older and compatible models only
 * know `system` (some o1 snapshots reject `system` outright — see the recorded 400 unsupported_value).
 */
export function usesDeveloperRole(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model.replace(/^[\w.-]+\//, ''));
}

function textOf(parts: readonly ContentPart[]): string {
  return parts.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
}

function toUserContent(parts: readonly ContentPart[]): string | ChatCompletionContentPart[] {
  if (parts.every((part) => part.type !== 'input_image')) return textOf(parts);
  return parts.map((part): ChatCompletionContentPart =>
    part.type === 'input_image'
      ? {
          type: 'image_url',
          image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) },
        }
      : { type: 'text', text: part.text },
  );
}

export function convertToOpenAIChatRequest(
  options: OpenAIChatRequestOptions,
): ConversionResult<ChatCompletionCreateParamsStreaming> {
  const warnings: string[] = [];
  const messages: ChatCompletionMessageParam[] = [];
  const instructionRole = usesDeveloperRole(options.model) ? 'developer' : 'system';
  let assistant: ChatCompletionAssistantMessageParam | undefined;
  let droppedReasoning = false;
  let droppedToolImages = false;

  const openAssistant = (): ChatCompletionAssistantMessageParam => {
    if (!assistant) {
      assistant = { role: 'assistant', content: null };
      messages.push(assistant);
    }
    return assistant;
  };

  for (const item of normalizeItems(options.items)) {
    switch (item.type) {
      case 'message': {
        if (item.role === 'assistant') {
          // Consecutive assistant text and tool calls are one assistant message on this API.
          const target = openAssistant();
          const text = textOf(item.content);
          target.content =
            typeof target.content === 'string' && target.content !== ''
              ? `${target.content}${text}`
              : text || target.content;
          continue;
        }
        assistant = undefined;
        if (item.role === 'user') messages.push({ role: 'user', content: toUserContent(item.content) });
        else messages.push({ role: instructionRole, content: textOf(item.content) });
        continue;
      }
      case 'function_call': {
        const target = openAssistant();
        const call: ChatCompletionMessageToolCall = {
          id: item.call_id,
          type: 'function',
          function: { name: item.name, arguments: item.arguments === '' ? '{}' : item.arguments },
        };
        target.tool_calls = [...(target.tool_calls ?? []), call];
        continue;
      }
      case 'function_call_output': {
        assistant = undefined;
        let content: string;
        if (typeof item.output === 'string') content = item.output;
        else {
          if (item.output.some((part) => part.type === 'input_image')) droppedToolImages = true;
          content = item.output
            .map((part) => (part.type === 'input_image' ? '[image omitted]' : part.text))
            .join('\n');
        }
        messages.push({ role: 'tool', tool_call_id: item.call_id, content });
        continue;
      }
      case 'reasoning':
        // Chat Completions has no way to send reasoning back.
        if (item.summary.length > 0) droppedReasoning = true;
        continue;
      case 'ghost_snapshot':
      case 'opaque':
        continue;
      default: {
        const exhaustive: never = item;
        throw new Error(`unknown item ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  if (droppedReasoning)
    warnings.push('Reasoning summaries are not sent on Chat Completions (the API has no field for them).');
  if (droppedToolImages)
    warnings.push('Images in tool outputs cannot be sent on Chat Completions; replaced by a placeholder.');

  const body: ChatCompletionCreateParamsStreaming = {
    model: options.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (options.tools.length > 0) {
    body.tools = options.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (options.maxOutputTokens !== undefined) body.max_completion_tokens = options.maxOutputTokens;
  return { body, warnings };
}
