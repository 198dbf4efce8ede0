/**
 * Canonical items → a Chat Completions request body. The same body serves OpenAI and the servers that
 * imitate it (Ollama, vLLM, LM Studio, OpenRouter), so it sticks to the fields they all accept.
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  ContentPart,
  ConversionResult,
  FunctionCallOutputItem,
  ReasoningItem,
  ReasoningLevel,
  ResponseItem,
  ToolSpec,
} from '../../protocol/index.js';
import { openAIReasoningEffort } from '../openai-shared/reasoning-effort.js';
import { wrapLateInstruction } from '../shared/late-instruction.js';
import { normalizeItems } from '../shared/normalize-items.js';
import { isReplayableTo } from '../shared/origin.js';
import { REASONING_FIELD_KEY } from './reasoning-content.js';
import {
  deepSeekThinkingFields,
  isDeepSeekModel,
  isDeepSeekThinkingModel,
  returnsAllReasoning,
} from './deepseek.js';

/** What `convertToOpenAIChatRequest` needs: the history, the tools and the model it is for. */
export interface OpenAIChatRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  /** Cap on output tokens, sent as `max_completion_tokens`. */
  maxOutputTokens?: number;
  /** `none`: tools are sent but may not be called (the compaction summary). */
  toolChoice?: 'auto' | 'none';
  /**
   * Sent as `reasoning_effort` (DeepSeek's thinking models: `thinking` disabled for off, else `high` or
   * `max`). Core sets it only for models its catalogue says take it: most compatible servers have none.
   */
  reasoningEffort?: ReasoningLevel;
}

/** An assistant message as DeepSeek takes it back: with the reasoning that led to its tool calls. */
type AssistantMessageParam = ChatCompletionAssistantMessageParam & { reasoning_content?: string };

/**
 * What a tool message says in place of an image: tool messages carry text only, so the images follow
 * in a user message right after the turn's tool messages (see {@link TOOL_IMAGES_INTRO}).
 */
export const TOOL_IMAGE_PLACEHOLDER = '[image: sent in the next user message]';

/** The text opening the user message that carries the images of the tool results before it. */
export const TOOL_IMAGES_INTRO = 'Images returned by the tool calls above:';

/** Warnings the converter can return, one each at most per request. */
export const OPENAI_CHAT_WARNINGS = {
  droppedReasoning:
    'Reasoning from earlier turns was not sent: Chat Completions has no way to pass reasoning back.',
  assistantImages:
    'Images in assistant or system messages cannot be sent on Chat Completions; they were dropped.',
} as const;

/**
 * Whether `developer` messages should keep their role. o-series and GPT-5 models take the developer role
 * (the o1 snapshots even reject `system`); older OpenAI models and most OpenAI-compatible servers only
 * know `system`, so elsewhere developer instructions travel as system messages.
 */
export function usesDeveloperRole(model: string): boolean {
  // OpenRouter-style ids carry a vendor prefix: `openai/o3-mini`.
  const bare = model.toLowerCase().replace(/^.*\//, '');
  return /^(o\d|gpt-5)/.test(bare);
}

/**
 * Canonical items → a streaming Chat Completions body. Normalises the history first (every call answered,
 * orphans and ghosts gone); reasoning has no place on this API and is dropped. The instructions come
 * first, as one message: many OpenAI-compatible servers' chat templates accept a system message only at
 * the start, so one given later (an imported Codex compaction can leave one mid-history) travels as
 * tagged user text where it was given, as on Anthropic and Gemini. Pure.
 */
// eslint-disable-next-line max-lines-per-function -- one switch over the canonical item types, each case that item's wire shape, side by side
export function convertToOpenAIChatRequest(
  options: OpenAIChatRequestOptions,
): ConversionResult<ChatCompletionCreateParamsStreaming> {
  const warnings = new Set<string>();
  const messages: ChatCompletionMessageParam[] = [];
  const developerRole = usesDeveloperRole(options.model) ? 'developer' : 'system';
  const instructions: string[] = [];
  let instructionRole: 'system' | 'developer' = 'system';
  let conversationStarted = false;
  const items = normalizeItems(options.items);
  const currentTurnStart = items.findLastIndex((item) => item.type === 'message' && item.role === 'user');
  // DeepSeek V4 thinking wants the reasoning of every earlier tool-calling message back (deepseek.ts).
  const allTurns = returnsAllReasoning(options.model, options.reasoningEffort);
  // DeepSeek's reasoning waits here for the tool calls it led to (see `reasoningToReturn`).
  let pendingReasoning: string | undefined;
  // Images of the tool results just sent, for the user message that follows them.
  let toolImages: ChatCompletionContentPart[] = [];
  const flushToolImages = (): void => {
    if (toolImages.length === 0) return;
    messages.push({ role: 'user', content: [textPart(TOOL_IMAGES_INTRO), ...toolImages] });
    toolImages = [];
  };

  for (const [index, item] of items.entries()) {
    if (item.type !== 'function_call_output') flushToolImages();
    if (item.type !== 'message' || (item.role !== 'system' && item.role !== 'developer'))
      conversationStarted = true;
    switch (item.type) {
      case 'message':
        switch (item.role) {
          case 'user':
            pendingReasoning = undefined;
            messages.push({ role: 'user', content: toUserContent(item.content) });
            break;
          case 'assistant':
            if (hasImage(item.content)) warnings.add(OPENAI_CHAT_WARNINGS.assistantImages);
            messages.push({ role: 'assistant', content: textOf(item.content) || null });
            break;
          case 'system':
          case 'developer': {
            if (hasImage(item.content)) warnings.add(OPENAI_CHAT_WARNINGS.assistantImages);
            const text = textOf(item.content, '\n');
            if (text === '') break;
            if (conversationStarted) {
              messages.push({ role: 'user', content: wrapLateInstruction(item.role, text) });
              break;
            }
            instructions.push(text);
            if (item.role === 'developer') instructionRole = developerRole;
            break;
          }
          default: {
            const exhaustive: never = item.role;
            throw new Error(`unknown message role ${String(exhaustive)}`);
          }
        }
        break;
      case 'function_call':
        appendToolCall(
          messages,
          {
            id: item.call_id,
            type: 'function',
            function: { name: item.name, arguments: item.arguments === '' ? '{}' : item.arguments },
          },
          // A call DeepSeek did not reason about (another model's) still needs the field.
          pendingReasoning ?? (allTurns ? '' : undefined),
        );
        pendingReasoning = undefined;
        break;
      case 'function_call_output':
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: toolOutputText(item) });
        if (typeof item.output !== 'string')
          toolImages.push(...toUserParts(item.output.filter((part) => part.type === 'input_image')));
        break;
      case 'reasoning':
        pendingReasoning = allTurns
          ? deepSeekReasoningToReturn(item)
          : index > currentTurnStart
            ? reasoningToReturn(item, options.model)
            : undefined;
        if (pendingReasoning !== undefined) break;
        // Chat Completions takes no reasoning input; say so only when something readable is lost.
        if ([...item.summary, ...(item.content ?? [])].some((part) => part.text.trim() !== '')) {
          warnings.add(OPENAI_CHAT_WARNINGS.droppedReasoning);
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

  flushToolImages();
  if (instructions.length > 0)
    messages.unshift({ role: instructionRole, content: instructions.join('\n\n') });
  const body: ChatCompletionCreateParamsStreaming = {
    model: options.model,
    messages: messages.filter(isMeaningful),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (options.tools.length > 0) {
    body.tools = options.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    if (options.toolChoice === 'none') body.tool_choice = 'none';
  }
  if (options.maxOutputTokens !== undefined) body.max_completion_tokens = options.maxOutputTokens;
  if (isDeepSeekThinkingModel(options.model)) {
    // `thinking` and the `max` effort are DeepSeek's own fields, which the SDK's type does not name.
    Object.assign(body, deepSeekThinkingFields(options.reasoningEffort));
  } else if (options.reasoningEffort !== undefined) {
    body.reasoning_effort = openAIReasoningEffort(options.reasoningEffort, options.model);
  }
  return { body, warnings: [...warnings] };
}

/**
 * The `reasoning_content` to send back with the tool calls this reasoning led to, for any other model
 * that streams it (DeepSeek-R1 served elsewhere): the older DeepSeek models require it on the assistant
 * tool-call messages of the current user turn and refuse it anywhere else, so only reasoning of the
 * current turn, from the same server's same model family, that arrived as `reasoning_content`, goes back.
 */
function reasoningToReturn(item: ReasoningItem, model: string): string | undefined {
  if (item.provider_data?.[REASONING_FIELD_KEY] !== 'reasoning_content') return undefined;
  if (!isReplayableTo(item.origin, 'openai-chat', model)) return undefined;
  return (item.content ?? []).map((part) => part.text).join('');
}

/**
 * The `reasoning_content` a DeepSeek V4 thinking model takes back, from any turn: the text any DeepSeek
 * model produced in that field (plain text, not bound to one model as a signature is), through this API,
 * not from another program's account.
 */
function deepSeekReasoningToReturn(item: ReasoningItem): string | undefined {
  const origin = item.origin;
  if (item.provider_data?.[REASONING_FIELD_KEY] !== 'reasoning_content') return undefined;
  if (!origin || origin.foreign === true || origin.api !== 'openai-chat' || !isDeepSeekModel(origin.model))
    return undefined;
  return (item.content ?? []).map((part) => part.text).join('');
}

/**
 * Chat Completions carries a turn's tool calls on the assistant message itself: a call joins the
 * assistant message right before it (the text the model wrote, or the previous call's), and only opens
 * a new assistant message (content null) when something else came in between.
 */
function appendToolCall(
  messages: ChatCompletionMessageParam[],
  call: ChatCompletionMessageFunctionToolCall,
  reasoning: string | undefined,
): void {
  const last = messages.at(-1);
  if (last?.role === 'assistant') {
    const assistant: AssistantMessageParam = last;
    assistant.tool_calls = [...(assistant.tool_calls ?? []), call];
    // The message's reasoning is the first call's; a later call's empty stand-in never replaces it.
    if (reasoning !== undefined && (reasoning !== '' || assistant.reasoning_content === undefined))
      assistant.reasoning_content = reasoning;
    return;
  }
  const opened: AssistantMessageParam = { role: 'assistant', content: null, tool_calls: [call] };
  if (reasoning !== undefined) opened.reasoning_content = reasoning;
  messages.push(opened);
}

/** An assistant message with neither text nor calls says nothing, and some servers reject it. */
function isMeaningful(message: ChatCompletionMessageParam): boolean {
  return !(message.role === 'assistant' && message.content === null && !message.tool_calls?.length);
}

function toUserContent(parts: readonly ContentPart[]): string | ChatCompletionContentPart[] {
  const [only] = parts;
  if (parts.length === 1 && only && only.type !== 'input_image') return only.text;
  if (parts.length === 0) return '';
  return toUserParts(parts);
}

function toUserParts(parts: readonly ContentPart[]): ChatCompletionContentPart[] {
  return parts.map((part): ChatCompletionContentPart =>
    part.type === 'input_image'
      ? {
          type: 'image_url',
          image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) },
        }
      : textPart(part.text),
  );
}

function textPart(text: string): ChatCompletionContentPartText {
  return { type: 'text', text };
}

function toolOutputText(item: FunctionCallOutputItem): string {
  if (typeof item.output === 'string') return item.output;
  return item.output
    .map((part) => (part.type === 'input_image' ? TOOL_IMAGE_PLACEHOLDER : part.text))
    .join('\n');
}

function textOf(parts: readonly ContentPart[], separator = ''): string {
  return parts.flatMap((part) => (part.type === 'input_image' ? [] : [part.text])).join(separator);
}

function hasImage(parts: readonly ContentPart[]): boolean {
  return parts.some((part) => part.type === 'input_image');
}
