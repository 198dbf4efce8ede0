/** Canonical items → a Gemini `generateContent` request: `systemInstruction` plus user/model `contents`. */
import { sanitizeGeminiSchema } from './sanitize-schema.js';
import {
  type Content,
  FunctionCallingConfigMode,
  type GenerateContentConfig,
  type GenerateContentParameters,
  type Part,
} from '@google/genai';
import {
  type ConversionResult,
  type FunctionCallItem,
  type FunctionCallOutputItem,
  type MessageItem,
  type ProviderOrigin,
  type ReasoningItem,
  type ReasoningLevel,
  type ResponseItem,
  type ToolSpec,
  isRecord,
} from '../../protocol/index.js';
import { wrapLateInstruction } from '../shared/late-instruction.js';
import { normalizeItems } from '../shared/normalize-items.js';
import { isReplayableTo } from '../shared/origin.js';
import { convertToGeminiParts } from './convert-to-gemini-parts.js';
import { GeminiContentBuilder } from './gemini-content-builder.js';
import { geminiThinkingConfig } from './gemini-thinking.js';

export interface GeminiRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  maxOutputTokens?: number;
  /** `none`: tools are sent but may not be called (the compaction summary). */
  toolChoice?: 'auto' | 'none';
  /** The conversation's reasoning level, for a model that thinks: its `thinkingConfig`. */
  reasoningEffort?: ReasoningLevel;
}

/** The SDK's request parameters, with the parts the converter always fills made non-optional. */
export interface GeminiRequest extends GenerateContentParameters {
  contents: Content[];
  config: GenerateContentConfig;
}

/**
 * The request for `items`. Leading system/developer messages become `systemInstruction`; consecutive
 * same-role items merge into one content; calls become `functionCall` parts and outputs
 * `functionResponse` parts named after their call. Gemini's own thought signatures and thought summaries
 * are replayed only to the model family that produced them; reasoning from any other provider is dropped
 * (its summary too: sent as text it would read as something the model said). Pure.
 */
// eslint-disable-next-line max-lines-per-function -- one switch over the canonical item types, each case that item's wire shape, side by side
export function convertToGeminiRequest(options: GeminiRequestOptions): ConversionResult<GeminiRequest> {
  const warnings: string[] = [];
  const system: string[] = [];
  const contents = new GeminiContentBuilder();
  const callNames = new Map<string, string>();
  const signatureFor = (item: { origin?: ProviderOrigin; provider_data?: Record<string, string> }) =>
    replayableSignature(item, options.model);
  let conversationStarted = false;
  let droppedReasoning = 0;

  for (const item of normalizeItems(options.items)) {
    switch (item.type) {
      case 'message': {
        if (item.role === 'system' || item.role === 'developer') {
          const text = instructionText(item, warnings);
          if (text === '') continue;
          if (!conversationStarted) system.push(text);
          else contents.append('user', [{ text: wrapLateInstruction(item.role, text) }]);
          continue;
        }
        conversationStarted = true;
        if (item.role === 'assistant')
          contents.append('model', modelParts(item, signatureFor(item), warnings));
        else contents.append('user', convertToGeminiParts(item.content, warnings));
        continue;
      }
      case 'function_call': {
        conversationStarted = true;
        callNames.set(item.call_id, item.name);
        const signature = signatureFor(item);
        contents.append('model', [
          {
            functionCall: { id: item.call_id, name: item.name, args: parseArguments(item, warnings) },
            ...(signature ? { thoughtSignature: signature } : {}),
          },
        ]);
        continue;
      }
      case 'function_call_output': {
        const { response, media } = convertToFunctionResponse(item, callNames.get(item.call_id), warnings);
        contents.addFunctionResponse(response);
        contents.append('user', media);
        continue;
      }
      case 'reasoning': {
        conversationStarted = true;
        const thought = convertToThought(item, options.model);
        if (thought) contents.append('model', [thought]);
        else if (!isReplayableTo(item.origin, 'gemini', options.model)) droppedReasoning += 1;
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
      `${droppedReasoning} reasoning item(s) from another provider or model were not sent to Gemini.`,
    );
  }

  const config: GenerateContentConfig = {
    ...(system.length > 0 ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] } } : {}),
    ...(options.tools.length > 0
      ? {
          tools: [
            {
              // `parametersJsonSchema` takes the tool's JSON Schema as it is; `parameters` would need it
              // rewritten into Gemini's OpenAPI subset (no additionalProperties, upper-case types).
              functionDeclarations: options.tools.map((tool) => ({
                name: tool.name,
                description: tool.description,
                // Gemini accepts a subset of JSON Schema (MCP tools may use more): the rest is dropped.
                parametersJsonSchema: sanitizeGeminiSchema(tool.parameters).schema,
              })),
            },
          ],
          ...(options.toolChoice === 'none'
            ? { toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } } }
            : {}),
        }
      : {}),
    ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
  };
  const thinkingConfig =
    options.reasoningEffort !== undefined
      ? geminiThinkingConfig(options.reasoningEffort, options.model)
      : undefined;
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  const built = contents.build(warnings);
  if (requiresCallSignatures(options.model)) signUnsignedCallTurns(built, warnings);
  return { body: { model: options.model, contents: built, config }, warnings };
}

/**
 * The value Google documents for a function call that has no signature of its own (made by another
 * provider or another Gemini family): it tells Gemini 3 to skip signature validation for that call.
 */
export const SKIP_THOUGHT_SIGNATURE_VALIDATOR = 'skip_thought_signature_validator';

/** Whether the model rejects a function-call turn without a thought signature (Gemini 3 and later). */
export function requiresCallSignatures(model: string): boolean {
  const major = /^(?:models\/)?gemini-(\d+)/i.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}

/**
 * Gemini 3 rejects a model turn whose function calls carry no thought signature (the first call of each
 * step holds it). A turn replayed from another provider or model has none, so its first call gets the
 * documented skip value; turns with a real signature are left as they are.
 */
function signUnsignedCallTurns(contents: Content[], warnings: string[]): void {
  let signed = 0;
  for (const content of contents) {
    if (content.role !== 'model') continue;
    const calls = (content.parts ?? []).filter((part) => part.functionCall !== undefined);
    const first = calls[0];
    if (!first || calls.some((part) => part.thoughtSignature)) continue;
    first.thoughtSignature = SKIP_THOUGHT_SIGNATURE_VALIDATOR;
    signed += 1;
  }
  if (signed > 0)
    warnings.push(
      `${signed} tool-call turn(s) from another provider or model were sent without a thought signature.`,
    );
}

function instructionText(item: MessageItem, warnings: string[]): string {
  const texts: string[] = [];
  for (const part of item.content) {
    if (part.type === 'input_image') warnings.push(`An image in a ${item.role} message was left out.`);
    else if (part.text !== '') texts.push(part.text);
  }
  return texts.join('\n');
}

/** A `thoughtSignature` that may be sent back: only to the Gemini model family that produced it. */
function replayableSignature(
  item: { origin?: ProviderOrigin; provider_data?: Record<string, string> },
  model: string,
): string | undefined {
  const signature = item.provider_data?.thoughtSignature;
  return signature && isReplayableTo(item.origin, 'gemini', model) ? signature : undefined;
}

/** An assistant message's parts; its signature rides on the last text part, where Gemini put it. */
function modelParts(item: MessageItem, signature: string | undefined, warnings: string[]): Part[] {
  const parts = convertToGeminiParts(item.content, warnings);
  if (!signature) return parts;
  const lastText = parts.findLastIndex((part) => part.text !== undefined);
  if (lastText < 0) return [...parts, { text: '', thoughtSignature: signature }];
  return parts.map((part, index) => (index === lastText ? { ...part, thoughtSignature: signature } : part));
}

function parseArguments(item: FunctionCallItem, warnings: string[]): Record<string, unknown> {
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

/**
 * The `functionResponse` part (`response.output` holds the text) and, for images the tool returned,
 * media parts that follow the responses in the same user content.
 */
function convertToFunctionResponse(
  item: FunctionCallOutputItem,
  name: string | undefined,
  warnings: string[],
): { response: Part; media: Part[] } {
  const parts =
    typeof item.output === 'string' ? [{ text: item.output }] : convertToGeminiParts(item.output, warnings);
  const output = parts
    .filter((part) => part.text !== undefined)
    .map((part) => part.text)
    .join('\n');
  return {
    response: { functionResponse: { id: item.call_id, name: name ?? 'unknown', response: { output } } },
    media: parts.filter((part) => part.text === undefined),
  };
}

/** A Gemini thought summary as a `thought: true` part, for the model family that wrote it. */
function convertToThought(item: ReasoningItem, model: string): Part | undefined {
  if (!isReplayableTo(item.origin, 'gemini', model)) return undefined;
  const text = item.summary.map((part) => part.text).join('');
  const signature = item.provider_data?.thoughtSignature;
  if (text === '' && !signature) return undefined;
  return { text, thought: true, ...(signature ? { thoughtSignature: signature } : {}) };
}
