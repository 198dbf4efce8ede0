/** Canonical items → a Responses API request body. Stateless: `store: false`, the whole history each time. */
import type {
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseInputMessageContentList,
  ResponseOutputMessage,
} from 'openai/resources/responses/responses';
import type {
  ContentPart,
  ConversionResult,
  FunctionCallOutputItem,
  MessageItem,
  ReasoningItem,
  ReasoningLevel,
  ResponseItem,
  ToolSpec,
} from '../../protocol/index.js';
import { openAIReasoningEffort } from '../openai-shared/reasoning-effort.js';
import { normalizeItems } from '../shared/normalize-items.js';
import { isReplayableTo } from '../shared/origin.js';

/** What `convertToOpenAIResponsesRequest` needs: the history, the tools and the model it is for. */
export interface OpenAIResponsesRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  /** Cap on output tokens, sent as `max_output_tokens`. */
  maxOutputTokens?: number;
  /** `none`: tools are sent but may not be called (the compaction summary). */
  toolChoice?: 'auto' | 'none';
  /**
   * Whether the model reasons. Only then is `reasoning.encrypted_content` asked for: OpenAI answers 400
   * ("Encrypted content is not supported with this model") for gpt-4o, gpt-4.1 and other models without it.
   */
  reasoning?: boolean;
  /**
   * The conversation's reasoning level, sent as `reasoning: {effort, summary: "auto"}` to a reasoning
   * model (never to another: it answers 400); absent, OpenAI's default effort applies.
   */
  reasoningEffort?: ReasoningLevel;
  /** Send no encrypted reasoning at all (the retry after OpenAI refused it as `invalid_encrypted_content`). */
  withoutEncryptedReasoning?: boolean;
}

/** Warnings the converter can return, one each at most per request. */
export const OPENAI_RESPONSES_WARNINGS = {
  droppedReasoning:
    'Reasoning from another model (or without its encrypted content) was not sent: only the model that produced it can read it.',
  assistantImages: 'Images in assistant messages cannot be sent on the Responses API; they were dropped.',
} as const;

/**
 * OpenAI's reasoning models by name (o-series, GPT-5.x except the `-chat` snapshots), for a caller that
 * does not say (`ClientOptions.reasoning`, which core sets from its catalogue and config).
 */
export function isOpenAIReasoningModelName(model: string): boolean {
  const bare = model.toLowerCase().replace(/^.*\//, '');
  return /^(o\d|gpt-5)/.test(bare) && !/-chat/.test(bare);
}

/** Key of `MessageItem.provider_data` holding a Responses assistant message's `phase`. */
export const PHASE_KEY = 'phase';

/**
 * Canonical items → a streaming, stateless Responses body: leading system/developer messages become
 * `instructions`; encrypted reasoning is replayed only to the model family that produced it. Pure.
 */
// eslint-disable-next-line max-lines-per-function -- one switch over the canonical item types, each case that item's wire shape, side by side
export function convertToOpenAIResponsesRequest(
  options: OpenAIResponsesRequestOptions,
): ConversionResult<ResponseCreateParamsStreaming> {
  const warnings = new Set<string>();
  const input: ResponseInputItem[] = [];
  const instructions: string[] = [];
  let leading = true;
  // A function call's `fc_` id makes the API look for the reasoning item before it; when that item could
  // not be sent, the id must go too ("provided without its required 'reasoning' item").
  let reasoningDroppedInTurn = false;

  const items = normalizeItems(options.items);
  for (const [index, item] of items.entries()) {
    if (leading && item.type === 'message' && (item.role === 'system' || item.role === 'developer')) {
      instructions.push(textOf(item.content));
      continue;
    }
    leading = false;
    switch (item.type) {
      case 'message':
        if (item.role === 'assistant') {
          const message = toAssistantInput(item, options.model, warnings);
          if (message) input.push(message);
        } else {
          if (item.role === 'user') reasoningDroppedInTurn = false;
          input.push({ type: 'message', role: item.role, content: toInputContent(item.content) });
        }
        break;
      case 'function_call': {
        const sendId =
          item.id?.startsWith('fc_') === true &&
          !reasoningDroppedInTurn &&
          isReplayableTo(item.origin, 'openai-responses', options.model);
        input.push({
          type: 'function_call',
          call_id: item.call_id,
          name: item.name,
          arguments: item.arguments === '' ? '{}' : item.arguments,
          ...(sendId && item.id ? { id: item.id } : {}),
        });
        break;
      }
      case 'function_call_output':
        input.push({ type: 'function_call_output', call_id: item.call_id, output: toToolOutput(item) });
        break;
      case 'reasoning':
        if (
          options.withoutEncryptedReasoning !== true &&
          isReplayable(item, options.model) &&
          isFollowedByItsOutput(items, index)
        ) {
          input.push({
            type: 'reasoning',
            id: item.id,
            summary: item.summary.map((part) => ({ type: 'summary_text', text: part.text })),
            encrypted_content: item.encrypted_content,
          });
        } else {
          reasoningDroppedInTurn = true;
          if (hasReadableText(item)) warnings.add(OPENAI_RESPONSES_WARNINGS.droppedReasoning);
        }
        break;
      case 'ghost_snapshot':
      case 'opaque':
        break;
      default: {
        const exhaustive: never = item;
        throw new Error(`unknown item ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  const body: ResponseCreateParamsStreaming = {
    model: options.model,
    input,
    stream: true,
    // Cody keeps the history itself; nothing is left on OpenAI's servers, so a reasoning model's
    // reasoning must travel encrypted in each response and come back in the next request.
    store: false,
  };
  if (options.reasoning === true) body.include = ['reasoning.encrypted_content'];
  if (options.reasoning === true && options.reasoningEffort !== undefined) {
    const effort = openAIReasoningEffort(options.reasoningEffort, options.model);
    // A summary of no reasoning is nothing to show; with some, `auto` is the most detailed each model gives.
    body.reasoning = effort === 'none' ? { effort } : { effort, summary: 'auto' };
  }
  if (instructions.length > 0) body.instructions = instructions.join('\n\n');
  if (options.tools.length > 0) {
    body.tools = options.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
    if (options.toolChoice === 'none') body.tool_choice = 'none';
  }
  if (options.maxOutputTokens !== undefined) body.max_output_tokens = options.maxOutputTokens;
  return { body, warnings: [...warnings] };
}

/** Encrypted reasoning replays only to the model family that produced it, and only with its id. */
function isReplayable(
  item: ReasoningItem,
  model: string,
): item is ReasoningItem & { id: string; encrypted_content: string } {
  return (
    typeof item.id === 'string' &&
    typeof item.encrypted_content === 'string' &&
    item.encrypted_content !== '' &&
    isReplayableTo(item.origin, 'openai-responses', model)
  );
}

/**
 * The API rejects a reasoning item that is not followed by the output it led to ("provided without its
 * required following item"): a turn cut short after its reasoning, or one that ended in empty text.
 */
function isFollowedByItsOutput(items: readonly ResponseItem[], index: number): boolean {
  const next = items.slice(index + 1).find((candidate) => candidate.type !== 'reasoning');
  if (next?.type === 'function_call') return true;
  return next?.type === 'message' && next.role === 'assistant' && textOf(next.content) !== '';
}

/**
 * An earlier assistant turn as input: `output_text` parts, no id or status (items are not stored). The
 * API takes this shape, as Codex sends it; the SDK only types the output shape, which requires both.
 */
function toAssistantInput(
  item: MessageItem,
  model: string,
  warnings: Set<string>,
): ResponseInputItem | undefined {
  if (item.content.some((part) => part.type === 'input_image')) {
    warnings.add(OPENAI_RESPONSES_WARNINGS.assistantImages);
  }
  const text = textOf(item.content);
  if (text === '') return undefined;
  const phase = item.provider_data?.[PHASE_KEY];
  const sendPhase =
    (phase === 'commentary' || phase === 'final_answer') &&
    isReplayableTo(item.origin, 'openai-responses', model);
  const message: Omit<ResponseOutputMessage, 'id' | 'status'> = {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
    ...(sendPhase ? { phase } : {}),
  };
  return message as ResponseOutputMessage;
}

function toInputContent(parts: readonly ContentPart[]): ResponseInputMessageContentList {
  return parts.map((part) =>
    part.type === 'input_image'
      ? { type: 'input_image', image_url: part.image_url, detail: part.detail ?? 'auto' }
      : { type: 'input_text', text: part.text },
  );
}

function toToolOutput(item: FunctionCallOutputItem): string | ResponseFunctionCallOutputItemList {
  if (typeof item.output === 'string') return item.output;
  return item.output.map((part) =>
    part.type === 'input_image'
      ? { type: 'input_image', image_url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) }
      : { type: 'input_text', text: part.text },
  );
}

function textOf(parts: readonly ContentPart[]): string {
  return parts.flatMap((part) => (part.type === 'input_image' ? [] : [part.text])).join('');
}

function hasReadableText(item: ReasoningItem): boolean {
  return [...item.summary, ...(item.content ?? [])].some((part) => part.text.trim() !== '');
}
