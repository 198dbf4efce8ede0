/** Small builders for canonical items and a predictable estimator, shared by the compaction tests. */
import type {
  FunctionCallItem,
  FunctionCallOutputItem,
  GhostSnapshotItem,
  MessageItem,
  ResponseItem,
} from '../../../../src/protocol/index.js';
import { countItemTokens, type TokenEstimator } from '../../../../src/core/tokens/index.js';

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
export const user = (text: string): MessageItem => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});
export const assistant = (text: string): MessageItem => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});
export const call = (callId: string, name = 'shell', args = '{"command":"ls"}'): FunctionCallItem => ({
  type: 'function_call',
  name,
  arguments: args,
  call_id: callId,
});
export const output = (callId: string, text = 'ok'): FunctionCallOutputItem => ({
  type: 'function_call_output',
  call_id: callId,
  output: text,
});
export const ghost = (id: string): GhostSnapshotItem => ({ type: 'ghost_snapshot', ghost_commit: { id } });

/** The text of a message item (test helper; throws on anything else). */
export function textOf(item: ResponseItem | undefined): string {
  if (item?.type !== 'message') throw new Error(`not a message: ${JSON.stringify(item)}`);
  return item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
}

/** One token per code point: makes budgets in tables easy to reason about. */
export function codePointEstimator(): TokenEstimator {
  const countText = (text: string): number => [...text].length;
  return { kind: 'heuristic', countText, countItem: (item) => countItemTokens(item, countText) };
}

/** One token per whitespace-separated word. */
export function wordEstimator(): TokenEstimator {
  const countText = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;
  return { kind: 'heuristic', countText, countItem: (item) => countItemTokens(item, countText) };
}

/** `count` words `w0 w1 …`, each a distinct token for {@link wordEstimator}. */
export function words(count: number, prefix = 'w'): string {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
}
