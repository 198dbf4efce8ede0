/**
 * Reads the tool calls and their outputs back out of a request body in each API's own shape, in the
 * order the request carries them, so tests can assert that every call got exactly one output.
 */
import type { RecordedRequest } from '../fake-provider/types.js';

type Json = Record<string, unknown>;

export interface WireCall {
  id: string;
  name: string;
  args: Json;
}

export interface WireOutput {
  id: string;
  text: string;
}

function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function parse(args: unknown): Json {
  if (typeof args !== 'string') return (args ?? {}) as Json;
  return JSON.parse(args === '' ? '{}' : args) as Json;
}

export function toolExchanges(request: RecordedRequest): { calls: WireCall[]; outputs: WireOutput[] } {
  const body = request.body as Json;
  const calls: WireCall[] = [];
  const outputs: WireOutput[] = [];
  switch (request.api) {
    case 'openai-chat':
      for (const message of asArray(body.messages)) {
        for (const call of asArray(message.tool_calls)) {
          const fn = call.function as Json;
          calls.push({ id: String(call.id), name: String(fn.name), args: parse(fn.arguments) });
        }
        if (message.role === 'tool')
          outputs.push({ id: String(message.tool_call_id), text: text(message.content) });
      }
      break;
    case 'openai-responses':
      for (const item of asArray(body.input)) {
        if (item.type === 'function_call')
          calls.push({ id: String(item.call_id), name: String(item.name), args: parse(item.arguments) });
        if (item.type === 'function_call_output')
          outputs.push({ id: String(item.call_id), text: text(item.output) });
      }
      break;
    case 'anthropic-messages':
      for (const message of asArray(body.messages)) {
        for (const part of asArray(message.content)) {
          if (part.type === 'tool_use')
            calls.push({ id: String(part.id), name: String(part.name), args: parse(part.input) });
          if (part.type === 'tool_result')
            outputs.push({ id: String(part.tool_use_id), text: text(part.content) });
        }
      }
      break;
    case 'gemini':
      for (const content of asArray(body.contents)) {
        for (const part of asArray(content.parts)) {
          const call = part.functionCall as Json | undefined;
          if (call)
            calls.push({ id: String(call.id ?? call.name), name: String(call.name), args: parse(call.args) });
          const response = part.functionResponse as Json | undefined;
          if (response)
            outputs.push({
              id: String(response.id ?? response.name),
              text: String((response.response as Json).output ?? ''),
            });
        }
      }
      break;
    default:
      break;
  }
  return { calls, outputs };
}
