import type { FunctionCallOutputItem, ResponseItem } from '../../protocol/index.js';

/** Output recorded for a call that never got one (the turn was interrupted or the tool never ran). */
export const ABORTED_OUTPUT = 'aborted';

/**
 * The history every API accepts: each function call followed (after any sibling calls) by exactly one
 * output, outputs without a call dropped, and items no model may see (ghost snapshots, opaque items)
 * removed. Pure; never reorders messages.
 */
export function normalizeItems(items: readonly ResponseItem[]): ResponseItem[] {
  const outputs = new Map<string, FunctionCallOutputItem>();
  const calls = new Set<string>();
  for (const item of items) {
    if (item.type === 'function_call_output' && !outputs.has(item.call_id)) outputs.set(item.call_id, item);
    if (item.type === 'function_call') calls.add(item.call_id);
  }
  const result: ResponseItem[] = [];
  const emitted = new Set<string>();
  const pendingCalls: string[] = [];
  const flushPending = (): void => {
    for (const callId of pendingCalls) {
      if (!emitted.has(callId)) {
        result.push({ type: 'function_call_output', call_id: callId, output: ABORTED_OUTPUT });
        emitted.add(callId);
      }
    }
    pendingCalls.length = 0;
  };
  for (const item of items) {
    switch (item.type) {
      case 'ghost_snapshot':
      case 'opaque':
        continue;
      case 'function_call':
        if (emitted.has(item.call_id) || pendingCalls.includes(item.call_id)) continue;
        result.push(item);
        pendingCalls.push(item.call_id);
        continue;
      case 'function_call_output': {
        if (!calls.has(item.call_id) || emitted.has(item.call_id)) continue;
        if (!pendingCalls.includes(item.call_id)) continue;
        result.push(item);
        emitted.add(item.call_id);
        continue;
      }
      case 'reasoning':
        result.push(item);
        continue;
      case 'message':
        // The model's own text or reasoning may sit between its calls and their outputs (Anthropic
        // interleaves text and tool_use); only a message from someone else ends the round of calls.
        if (item.role !== 'assistant') flushPending();
        result.push(item);
        continue;
      default: {
        const exhaustive: never = item;
        throw new Error(`unknown item ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  flushPending();
  return result;
}
