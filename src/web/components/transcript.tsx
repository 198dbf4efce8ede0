/**
 * The recorded conversation: messages, reasoning, tool calls (each with its recorded output, through the
 * extension's view), compactions, model switches and interrupted turns.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { extension, type Extras } from '../extension.js';
import { recordedFailure, retryPoint } from '../failure.js';
import { showsAsToolRow } from '../tool-calls.js';
import { userText } from '../transcript-read.js';
import type { ForkPoint, FunctionCall, ResponseItem, TranscriptEntry } from '../types.js';
import { CompactionMarker } from './compaction-marker.js';
import { FailureNotice } from './failure-notice.js';
import { ForkButton } from './fork-button.js';
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

/**
 * Where each typed user message forks, by entry index: its `userTurn` (the `atUserTurn` that keeps the
 * live history through it) when the server states one, else its transcript cursor (`atEntry`: a message
 * a compaction summarised away forks into the history as it stood after its turn). None on a message an
 * undo took back (gone by the person's choice), nor on one without a cursor (not read from the server).
 */
export function forkPoints(entries: readonly TranscriptEntry[]): Map<number, ForkPoint> {
  const points = new Map<number, ForkPoint>();
  entries.forEach((entry, index) => {
    if (entry.kind !== 'item' || userText(entry) === undefined) return;
    if (entry.userTurn !== undefined) points.set(index, { atUserTurn: entry.userTurn });
    else if (entry.cursor !== undefined && entry.undone !== true)
      points.set(index, { atEntry: entry.cursor });
  });
  return points;
}

/**
 * Entries rendered when a conversation opens: its end, which is what shows (a long conversation's 1,000
 * messages took ~1 s to render whole; see DECISIONS). Older ones are rendered on request.
 */
export const FIRST_WINDOW = 80;
/** Entries each "Show earlier" adds. */
export const MORE_WINDOW = 200;

export interface TranscriptProps {
  entries: TranscriptEntry[];
  extras: Extras;
  /** Fork from a user message (a button on each one), when the page offers it. */
  onFork?: (at: ForkPoint) => void;
  /** Send a message again (Retry on the last turn, when it failed in a way retrying may fix). */
  onRetry?: (text: string) => void;
}

export function Transcript({ entries, extras, onFork, onRetry }: TranscriptProps) {
  const outputs = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind === 'item' && entry.item.type === 'function_call_output' && entry.item.call_id) {
      outputs.set(entry.item.call_id, outputText(entry.item.output));
    }
  }
  const forks = onFork ? forkPoints(entries) : new Map<number, ForkPoint>();
  const retry = onRetry ? retryPoint(entries) : undefined;
  const [shown, setShown] = useState(FIRST_WINDOW);
  const start = Math.max(0, entries.length - shown);
  return (
    <>
      {start > 0 ? (
        <button type="button" class="show-earlier" onClick={() => setShown(shown + MORE_WINDOW)}>
          Show {Math.min(start, MORE_WINDOW)} earlier of {start}
        </button>
      ) : null}
      {entries.slice(start).map((entry, offset) => {
        const index = start + offset;
        const at = forks.get(index);
        return (
          <TranscriptEntryView
            key={index}
            entry={entry}
            extras={extras}
            outputs={outputs}
            {...(retry?.index === index && onRetry ? { onRetry: () => onRetry(retry.text) } : {})}
          >
            {at !== undefined && onFork ? <ForkButton at={at} onFork={onFork} /> : null}
          </TranscriptEntryView>
        );
      })}
    </>
  );
}

function TranscriptEntryView({
  entry,
  extras,
  outputs,
  onRetry,
  children,
}: {
  entry: TranscriptEntry;
  extras: Extras;
  outputs: Map<string, string>;
  onRetry?: () => void;
  /** Shown after the entry (a user message's fork button). */
  children?: ComponentChildren;
}) {
  switch (entry.kind) {
    case 'item':
      return (
        <>
          <ItemView item={entry.item} extras={extras} outputs={outputs} />
          {children}
        </>
      );
    case 'compacted':
      return (
        <CompactionMarker
          summary={entry.summary}
          {...(entry.tokensBefore !== undefined ? { tokensBefore: entry.tokensBefore } : {})}
          {...(entry.tokensAfter !== undefined ? { tokensAfter: entry.tokensAfter } : {})}
        />
      );
    case 'turn-context':
      return null;
    case 'aborted':
      return <FailureNotice view={recordedFailure(entry.reason)} {...(onRetry ? { onRetry } : {})} />;
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
  // A plan call shows as the plan checklist, not as a tool row (as in the terminal).
  if (item.type === 'function_call' && item.call_id && showsAsToolRow(item.name ?? '')) {
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
