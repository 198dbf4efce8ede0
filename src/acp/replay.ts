/**
 * A recorded conversation as the `session/update` notifications `session/load` replays: the user's
 * messages (text and images), the replies, the reasoning summaries, each tool call with its output, and
 * every plan the model set. Items a later undo took back are left out, as the model no longer sees them.
 * Tool calls replay with the same kind, title, locations and arguments as live; a call's status comes from
 * its recorded output (declined or not run: failed), and file diffs are not replayed (the old text is gone).
 */
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import type { TranscriptEntry } from '../core/index.js';
import type { HistoryItem, MessagePart } from './core-types.js';
import { argumentsOf } from './tool-calls.js';
import { announceCall, outputText, textContent } from './turn-updates.js';

/** Recorded outputs of calls that did not run or were stopped (declined, refused, aborted): Cody's own words. */
const NOT_RUN = /^(Declined|Error: |Not run: |The user (declined|stopped)|Aborted by the user)/;

/** Updates for one transcript entry. */
export function replayEntry(entry: TranscriptEntry, cwd: string): SessionUpdate[] {
  if (entry.kind !== 'item' || entry.undone === true) return [];
  return replayItem(entry.item, cwd);
}

function replayItem(item: HistoryItem, cwd: string): SessionUpdate[] {
  switch (item.type) {
    case 'message':
      if (item.role === 'user')
        return blocksOf(item.content).map((content) => ({ sessionUpdate: 'user_message_chunk', content }));
      if (item.role === 'assistant')
        return blocksOf(item.content).map((content) => ({ sessionUpdate: 'agent_message_chunk', content }));
      return [];
    case 'reasoning': {
      const text = [...item.summary, ...(item.content ?? [])].map((part) => part.text).join('\n');
      return text === '' ? [] : [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } }];
    }
    case 'function_call':
      return [announceCall(item, cwd), ...planOf(item)];
    case 'function_call_output': {
      const output = outputText(item.output);
      return [
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: item.call_id,
          status: NOT_RUN.test(output) ? 'failed' : 'completed',
          content: textContent(output),
          rawOutput: { output },
        },
      ];
    }
    default:
      return [];
  }
}

/** An update_plan call's plan (the one it set when it ran). */
function planOf(call: Extract<HistoryItem, { type: 'function_call' }>): SessionUpdate[] {
  if (call.name !== 'update_plan') return [];
  const plan = argumentsOf(call).plan;
  if (!Array.isArray(plan)) return [];
  const entries = plan.flatMap((step: unknown) => {
    if (typeof step !== 'object' || step === null) return [];
    const { step: content, status } = step as Record<string, unknown>;
    if (typeof content !== 'string' || !['pending', 'in_progress', 'completed'].includes(String(status)))
      return [];
    return [
      { content, priority: 'medium' as const, status: status as 'pending' | 'in_progress' | 'completed' },
    ];
  });
  return [{ sessionUpdate: 'plan', entries }];
}

function blocksOf(parts: readonly MessagePart[]): ContentBlock[] {
  return parts.flatMap((part): ContentBlock[] => {
    if (part.type !== 'input_image') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url);
    return data?.[1] && data[2] !== undefined ? [{ type: 'image', mimeType: data[1], data: data[2] }] : [];
  });
}
