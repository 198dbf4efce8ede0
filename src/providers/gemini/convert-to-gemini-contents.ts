/** Canonical items → a Gemini `generateContent` request (systemInstruction + user/model contents). */
import type { Content, GenerateContentParameters, Part } from '@google/genai';
import type {
  ContentPart,
  ConversionResult,
  ProviderOrigin,
  ResponseItem,
  ToolSpec,
} from '../../protocol/index.js';
import { normalizeItems } from '../shared/normalize-items.js';
import { isReplayableTo } from '../shared/origin.js';

export interface GeminiRequestOptions {
  items: readonly ResponseItem[];
  tools: readonly ToolSpec[];
  model: string;
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

function toParts(parts: readonly ContentPart[], warnings: string[]): Part[] {
  const result: Part[] = [];
  for (const part of parts) {
    if (part.type !== 'input_image') {
      if (part.text !== '') result.push({ text: part.text });
      continue;
    }
    const match = /^data:([^;]+);base64,(.*)$/s.exec(part.image_url);
    if (match?.[1] && match[2] !== undefined)
      result.push({ inlineData: { mimeType: match[1], data: match[2] } });
    else if (/^https?:\/\//.test(part.image_url))
      result.push({ fileData: { fileUri: part.image_url, mimeType: 'image/*' } });
    else warnings.push('An image that is neither a data: URL nor an https: URL was left out.');
  }
  return result;
}

/** Consecutive items of one role are one content on Gemini. */
function pushContent(contents: Content[], role: 'user' | 'model', parts: Part[]): void {
  if (parts.length === 0) return;
  const last = contents.at(-1);
  if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
  else contents.push({ role, parts });
}

export function convertToGeminiRequest(
  options: GeminiRequestOptions,
): ConversionResult<GenerateContentParameters> {
  const warnings: string[] = [];
  const system: string[] = [];
  const contents: Content[] = [];
  const callNames = new Map<string, string>();
  let leading = true;
  let droppedReasoning = 0;
  const signatureOf = (item: {
    origin?: ProviderOrigin;
    provider_data?: Record<string, string>;
  }): Partial<Part> => {
    const signature = item.provider_data?.thoughtSignature;
    return signature && isReplayableTo(item.origin, 'gemini', options.model)
      ? { thoughtSignature: signature }
      : {};
  };

  for (const item of normalizeItems(options.items)) {
    if (item.type === 'message' && (item.role === 'system' || item.role === 'developer')) {
      const text = item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
      // Leading instructions become systemInstruction; later ones keep their place as labelled user text.
      if (leading) system.push(text);
      else pushContent(contents, 'user', [{ text: `[${item.role} instructions]\n${text}` }]);
      continue;
    }
    leading = false;
    switch (item.type) {
      case 'message': {
        const parts = toParts(item.content, warnings);
        if (item.role === 'assistant') {
          const signature = signatureOf(item);
          if (parts[0] && signature.thoughtSignature) parts[0] = { ...parts[0], ...signature };
          pushContent(contents, 'model', parts);
        } else pushContent(contents, 'user', parts);
        continue;
      }
      case 'function_call': {
        let args: Record<string, unknown> = {};
        try {
          const parsed: unknown = JSON.parse(item.arguments === '' ? '{}' : item.arguments);
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
            args = parsed as Record<string, unknown>;
        } catch {
          warnings.push(`Tool call ${item.call_id} had arguments that are not JSON; sent as {}.`);
        }
        callNames.set(item.call_id, item.name);
        pushContent(contents, 'model', [
          { functionCall: { id: item.call_id, name: item.name, args }, ...signatureOf(item) },
        ]);
        continue;
      }
      case 'function_call_output': {
        const output =
          typeof item.output === 'string'
            ? item.output
            : item.output.map((part) => (part.type === 'input_image' ? '[image]' : part.text)).join('\n');
        // Gemini matches a response to its call by name (and id): the response follows its call's turn.
        pushContent(contents, 'user', [
          {
            functionResponse: {
              id: item.call_id,
              name: callNames.get(item.call_id) ?? 'unknown',
              response: { output },
            },
          },
        ]);
        continue;
      }
      case 'reasoning': {
        const text = item.summary.map((part) => part.text).join('\n');
        if (isReplayableTo(item.origin, 'gemini', options.model) && text !== '') {
          pushContent(contents, 'model', [{ text, thought: true, ...signatureOf(item) }]);
        } else if (text !== '' || item.content?.length) {
          droppedReasoning += 1;
        }
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
  if (droppedReasoning > 0)
    warnings.push(`${droppedReasoning} reasoning item(s) from another provider were not sent.`);
  const body: GenerateContentParameters = {
    model: options.model,
    contents,
    config: {
      ...(system.length > 0 ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] } } : {}),
      ...(options.tools.length > 0
        ? {
            tools: [
              {
                functionDeclarations: options.tools.map((tool) => ({
                  name: tool.name,
                  description: tool.description,
                  parametersJsonSchema: tool.parameters,
                })),
              },
            ],
          }
        : {}),
      ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
      ...(options.signal ? { abortSignal: options.signal } : {}),
    },
  };
  return { body, warnings };
}
