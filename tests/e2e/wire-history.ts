/**
 * Reads the conversation history back out of a request body in each API's own shape, as
 * `role: text` lines, so tests can assert that every request carried the whole history.
 */
import type { RecordedRequest } from '../fake-provider/types.js';

type Json = Record<string, unknown>;

function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => {
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'tool_use') return `tool_use ${String(part.name)} ${JSON.stringify(part.input)}`;
      if (part.type === 'tool_result') return `tool_result ${textOf(part.content)}`;
      return `[${String(part.type)}]`;
    })
    .join(' ');
}

/** The system/instructions text of a request. */
export function systemText(request: RecordedRequest): string {
  const body = request.body as Json;
  switch (request.api) {
    case 'openai-chat':
      return asArray(body.messages)
        .filter((message) => message.role === 'system' || message.role === 'developer')
        .map((message) => textOf(message.content))
        .join('\n');
    case 'openai-responses':
      return typeof body.instructions === 'string' ? body.instructions : '';
    case 'anthropic-messages':
      return textOf(body.system);
    case 'gemini': {
      const instruction = (body.systemInstruction ?? (body.config as Json | undefined)?.systemInstruction) as
        Json | undefined;
      return instruction
        ? asArray(instruction.parts)
            .map((part) => String(part.text ?? ''))
            .join('\n')
        : '';
    }
    default:
      return '';
  }
}

/** Conversation turns (system excluded) as `user: …` / `assistant: …` lines. */
export function historyLines(request: RecordedRequest): string[] {
  const body = request.body as Json;
  switch (request.api) {
    case 'openai-chat':
      return asArray(body.messages)
        .filter((message) => message.role !== 'system' && message.role !== 'developer')
        .map((message) => `${String(message.role)}: ${textOf(message.content)}`);
    case 'openai-responses':
      return asArray(body.input)
        .filter(
          (item) =>
            (item.type === 'message' || item.type === undefined) &&
            item.role !== 'system' &&
            item.role !== 'developer',
        )
        .map((item) => `${String(item.role)}: ${textOf(item.content)}`);
    case 'anthropic-messages':
      return asArray(body.messages).map((message) => `${String(message.role)}: ${textOf(message.content)}`);
    case 'gemini':
      return asArray(body.contents).map(
        (content) =>
          `${content.role === 'model' ? 'assistant' : String(content.role)}: ${asArray(content.parts)
            .map((part) => String(part.text ?? ''))
            .join(' ')}`,
      );
    default:
      return [];
  }
}
