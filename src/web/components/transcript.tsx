/**
 * The recorded conversation: messages, reasoning, tool calls (each with its recorded output, through the
 * extension's view), compactions, model switches and interrupted turns.
 */
import { extension, type Extras } from '../extension.js';
import { userText } from '../transcript-read.js';
import type { FunctionCall, ResponseItem, TranscriptEntry } from '../types.js';
import { Message, Reasoning } from './message.js';

function partsText(item: ResponseItem): string {
  return (item.content ?? []).map((part) => part.text ?? '').join('');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object' && 'content' in output) {
    const content = (output as { content: unknown }).content;
    if (typeof content === 'string') return content;
  }
  if (Array.isArray(output)) {
    return output
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join('');
  }
  return JSON.stringify(output ?? '');
}

export function Transcript({ entries, extras }: { entries: TranscriptEntry[]; extras: Extras }) {
  const outputs = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind === 'item' && entry.item.type === 'function_call_output' && entry.item.call_id) {
      outputs.set(entry.item.call_id, outputText(entry.item.output));
    }
  }
  return (
    <>
      {entries.map((entry, index) => (
        <TranscriptEntryView key={index} entry={entry} extras={extras} outputs={outputs} />
      ))}
    </>
  );
}

function TranscriptEntryView({
  entry,
  extras,
  outputs,
}: {
  entry: TranscriptEntry;
  extras: Extras;
  outputs: Map<string, string>;
}) {
  switch (entry.kind) {
    case 'item':
      return <ItemView item={entry.item} extras={extras} outputs={outputs} />;
    case 'compacted':
      return <div class="marker">Conversation compacted</div>;
    case 'turn-context':
      return null;
    case 'aborted':
      return <div class="marker">Turn interrupted</div>;
    case 'undo':
      return <div class="marker">Undo of turn {entry.turns.join(', ')}</div>;
  }
}

function ItemView({
  item,
  extras,
  outputs,
}: {
  item: ResponseItem;
  extras: Extras;
  outputs: Map<string, string>;
}) {
  if (item.type === 'message' && item.role === 'user') {
    const text = userText({ kind: 'item', item });
    return text === undefined ? null : <Message role="user" text={text} />;
  }
  if (item.type === 'message' && item.role === 'assistant')
    return <Message role="assistant" text={partsText(item)} />;
  if (item.type === 'reasoning') {
    const text = (item.summary ?? []).map((part) => part.text ?? '').join('\n');
    return text === '' ? null : <Reasoning text={text} />;
  }
  if (item.type === 'function_call' && item.call_id) {
    const call: FunctionCall = {
      type: 'function_call',
      name: item.name ?? '',
      arguments: item.arguments ?? '',
      call_id: item.call_id,
    };
    const recorded = outputs.get(item.call_id);
    return (
      <extension.ToolCall
        extras={extras}
        call={call}
        live={false}
        {...(recorded !== undefined ? { recordedOutput: recorded } : {})}
      />
    );
  }
  return null;
}
