/** Small builders for canonical items, shared by the provider tests. */
import type {
  ContentPart,
  FunctionCallItem,
  FunctionCallOutputItem,
  MessageItem,
  ProviderOrigin,
  ReasoningItem,
} from '../../src/protocol/index.js';

export const system = (text: string): MessageItem => ({
  type: 'message',
  role: 'system',
  content: [{ type: 'input_text', text }],
});

export const developer = (text: string): MessageItem => ({
  type: 'message',
  role: 'developer',
  content: [{ type: 'input_text', text }],
});

export const user = (text: string, ...more: ContentPart[]): MessageItem => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }, ...more],
});

export const assistant = (text: string): MessageItem => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});

export const image = (url: string, detail?: 'auto' | 'low' | 'high'): ContentPart => ({
  type: 'input_image',
  image_url: url,
  ...(detail ? { detail } : {}),
});

export const call = (
  callId: string,
  name = 'shell',
  args = '{"command":"ls"}',
  extra: Partial<FunctionCallItem> = {},
): FunctionCallItem => ({ type: 'function_call', name, arguments: args, call_id: callId, ...extra });

export const output = (callId: string, result: string | ContentPart[] = 'ok'): FunctionCallOutputItem => ({
  type: 'function_call_output',
  call_id: callId,
  output: result,
});

export const reasoning = (summary: string, extra: Partial<ReasoningItem> = {}): ReasoningItem => ({
  type: 'reasoning',
  summary: summary === '' ? [] : [{ type: 'summary_text', text: summary }],
  ...extra,
});

export const origin = (api: ProviderOrigin['api'], model: string): ProviderOrigin => ({ api, model });
