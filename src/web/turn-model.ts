/**
 * The turn the page is watching, built from its events: the person's message, then in order the
 * reasoning, the reply's text as it streams, each tool call's place (its view comes from the extension,
 * see extension.ts), warnings, and how the turn ended. Pure: `applyTurnEvent` returns a new turn.
 */
import { showsAsToolRow } from './tool-calls.js';
import type { ResponseItem, ServerEvent } from './types.js';

export type TurnBlock =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | { kind: 'tool'; callId: string; name: string; arguments: string }
  | { kind: 'notice'; level: 'warning' | 'error'; text: string }
  /** A hook that ran, folded to one line of text (`hookText`); `warn` when it did not end well. */
  | { kind: 'hook'; text: string; warn: boolean }
  | { kind: 'compaction'; running: boolean; tokensBefore: number; tokensAfter?: number };

export interface LiveTurn {
  turnId?: string;
  /** The person's message (sent from this page, or recorded by the engine). */
  userText?: string;
  blocks: TurnBlock[];
  /** The turn's last event came: completed, interrupted (Stop) or failed. */
  ended?: 'completed' | 'interrupted' | 'failed';
}

export function startTurn(userText?: string): LiveTurn {
  return { blocks: [], ...(userText !== undefined ? { userText } : {}) };
}

/** The turn after one event (a new turn when `turn-started` or a compaction starts one). */
export function applyTurnEvent(turn: LiveTurn | undefined, event: ServerEvent): LiveTurn | undefined {
  switch (event.type) {
    case 'turn-started':
      // This page's own message is already shown; another client's turn starts empty.
      return turn && turn.turnId === undefined && !turn.ended
        ? { ...turn, turnId: event.turnId }
        : { turnId: event.turnId, blocks: [] };
    case 'text-delta':
      return append(turn ?? startTurn(), 'text', event.text);
    case 'reasoning-delta':
      return append(turn ?? startTurn(), 'reasoning', event.text);
    case 'item-recorded':
      return recordItem(turn, event.item);
    case 'tool-call':
      // A plan that was set shows as its checklist (the extension's panel), not as a call.
      if (!showsAsToolRow(event.call.name, event.approved)) return turn;
      return withBlock(turn ?? startTurn(), {
        kind: 'tool',
        callId: event.call.call_id,
        name: event.call.name,
        arguments: event.call.arguments,
      });
    case 'retry':
      return turn && event.discardedPartial ? dropLastText(turn) : turn;
    case 'warning':
      return withBlock(turn ?? startTurn(), { kind: 'notice', level: 'warning', text: event.message });
    case 'hook':
      return withBlock(turn ?? startTurn(), {
        kind: 'hook',
        text: hookText(event),
        warn: event.status !== 'ok',
      });
    case 'compaction-started':
      return withBlock(turn ?? startTurn(), {
        kind: 'compaction',
        running: true,
        tokensBefore: event.tokensBefore,
      });
    case 'compaction-finished':
      return turn ? finishCompaction(turn, event.tokensAfter) : turn;
    case 'turn-complete':
      return turn ? { ...turn, ended: event.status === 'interrupted' ? 'interrupted' : 'completed' } : turn;
    case 'turn-failed':
      return {
        ...withBlock(turn ?? startTurn(), { kind: 'notice', level: 'error', text: event.error.message }),
        ended: 'failed',
      };
    default:
      return turn;
  }
}

/** A hook's folded line, as the terminal shows it: `↳ hook PreToolUse: ./check.sh → deny · 12 ms`. */
export function hookText(event: Extract<ServerEvent, { type: 'hook' }>): string {
  const outcome =
    event.status === 'timeout' ? ' → timed out' : event.decision !== undefined ? ` → ${event.decision}` : '';
  return `↳ hook ${event.event}: ${event.command}${outcome} · ${event.durationMs} ms`;
}

/**
 * What stays of the watched turn once the transcript is read again after it failed: its error's own
 * words, under the recorded failure (everything else is in the transcript now).
 */
export function failedTurnKept(turn: LiveTurn | undefined): LiveTurn | undefined {
  if (turn?.ended !== 'failed') return undefined;
  const errors = turn.blocks.filter((block) => block.kind === 'notice' && block.level === 'error');
  return { ...turn, userText: undefined, blocks: errors };
}

function append(turn: LiveTurn, kind: 'text' | 'reasoning', text: string): LiveTurn {
  const last = turn.blocks[turn.blocks.length - 1];
  if (last?.kind === kind) {
    return { ...turn, blocks: [...turn.blocks.slice(0, -1), { kind, text: last.text + text }] };
  }
  return withBlock(turn, { kind, text });
}

function withBlock(turn: LiveTurn, block: TurnBlock): LiveTurn {
  if (block.kind === 'tool' && turn.blocks.some((b) => b.kind === 'tool' && b.callId === block.callId))
    return turn;
  return { ...turn, blocks: [...turn.blocks, block] };
}

/** The person's message, when this page did not send it (another tab, the terminal, a reload). */
function recordItem(turn: LiveTurn | undefined, item: ResponseItem): LiveTurn | undefined {
  if (item.type !== 'message' || item.role !== 'user' || !turn || turn.userText !== undefined) return turn;
  const text = (item.content ?? []).map((part) => part.text ?? '').join('');
  return isContextualUserText(text) ? turn : { ...turn, userText: text };
}

/** Harness context riding in user messages (`<environment_context>`, AGENTS.md), as the engine tells it. */
export function isContextualUserText(text: string): boolean {
  return /^\s*(?:<[a-z][a-z_ -]*>|# AGENTS\.md instructions)/i.test(text);
}

function dropLastText(turn: LiveTurn): LiveTurn {
  const last = turn.blocks[turn.blocks.length - 1];
  return last?.kind === 'text' ? { ...turn, blocks: turn.blocks.slice(0, -1) } : turn;
}

function finishCompaction(turn: LiveTurn, tokensAfter: number): LiveTurn {
  return {
    ...turn,
    blocks: turn.blocks.map((block) =>
      block.kind === 'compaction' && block.running ? { ...block, running: false, tokensAfter } : block,
    ),
  };
}
