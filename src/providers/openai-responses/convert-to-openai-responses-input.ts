/** Canonical items → an OpenAI Responses API request body (stateless: `store: false`). */
import type {
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { ContentPart, ConversionResult, ResponseItem, ToolSpec } from '../../protocol/index.js';
import { normalizeItems } from '../shared/normalize-items.js';
import { isReplayableTo } from '../shared/origin.js';

export interface OpenAIResponsesRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  maxOutputTokens?: number;
}

function toInputContent(parts: readonly ContentPart[]): ResponseInputContent[] {
  return parts.map((part): ResponseInputContent =>
    part.type === 'input_image'
      ? { type: 'input_image', image_url: part.image_url, detail: part.detail ?? 'auto' }
      : { type: 'input_text', text: part.text },
  );
}

function textOf(parts: readonly ContentPart[]): string {
  return parts.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
}

export function convertToOpenAIResponsesRequest(
  options: OpenAIResponsesRequestOptions,
): ConversionResult<ResponseCreateParamsStreaming> {
  const warnings: string[] = [];
  const input: ResponseInputItem[] = [];
  const instructions: string[] = [];
  let leading = true;
  let droppedReasoning = 0;

  for (const item of normalizeItems(options.items)) {
    if (leading && item.type === 'message' && (item.role === 'system' || item.role === 'developer')) {
      instructions.push(textOf(item.content));
      continue;
    }
    leading = false;
    switch (item.type) {
      case 'message':
        if (item.role === 'assistant')
          input.push({ type: 'message', role: 'assistant', content: textOf(item.content) });
        else input.push({ type: 'message', role: item.role, content: toInputContent(item.content) });
        continue;
      case 'function_call': {
        const sameOrigin = isReplayableTo(item.origin, 'openai-responses', options.model);
        input.push({
          type: 'function_call',
          call_id: item.call_id,
          name: item.name,
          arguments: item.arguments === '' ? '{}' : item.arguments,
          // Responses item ids (fc_…) only mean something to the API that issued them.
          ...(sameOrigin && item.id?.startsWith('fc_') ? { id: item.id } : {}),
        });
        continue;
      }
      case 'function_call_output':
        input.push({
          type: 'function_call_output',
          call_id: item.call_id,
          output: typeof item.output === 'string' ? item.output : toInputContent(item.output),
        });
        continue;
      case 'reasoning':
        // Encrypted reasoning replays only to the model family that produced it; elsewhere it is noise.
        if (
          item.encrypted_content &&
          item.id &&
          isReplayableTo(item.origin, 'openai-responses', options.model)
        ) {
          input.push({
            type: 'reasoning',
            id: item.id,
            summary: item.summary.map((part) => ({ type: 'summary_text', text: part.text })),
            encrypted_content: item.encrypted_content,
          });
        } else if (item.summary.length > 0 || item.content?.length) {
          droppedReasoning += 1;
        }
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
  if (droppedReasoning > 0) {
    warnings.push(
      `${droppedReasoning} reasoning item(s) from another model were not sent (their data only replays to that model).`,
    );
  }
  const body: ResponseCreateParamsStreaming = {
    model: options.model,
    input,
    stream: true,
    store: false,
    include: ['reasoning.encrypted_content'],
  };
  if (instructions.length > 0) body.instructions = instructions.join('\n\n');
  if (options.tools.length > 0) {
    body.tools = options.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
  }
  if (options.maxOutputTokens !== undefined) body.max_output_tokens = options.maxOutputTokens;
  return { body, warnings };
}
