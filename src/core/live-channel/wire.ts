/**
 * The live channel's lines: one header, then one event per line, JSON each. The header says what runs
 * (a turn or a compaction) and how many of its first events the publisher no longer kept (a very long
 * run; 0 otherwise).
 */
import { isRecord } from '../../protocol/index.js';
import type { SessionEvent } from '../conversation/index.js';

export type LiveRunKind = 'turn' | 'compaction';

export interface LiveHeader {
  cody: 'live';
  version: 1;
  conversationId: string;
  kind: LiveRunKind;
  /** Events from the run's start that were dropped before this subscriber came. */
  skipped: number;
}

export function headerLine(header: Omit<LiveHeader, 'cody' | 'version'>): string {
  return `${JSON.stringify({ cody: 'live', version: 1, ...header })}\n`;
}

export function parseHeader(line: string): LiveHeader | undefined {
  const value = parseLine(line);
  if (!isRecord(value) || value.cody !== 'live' || value.version !== 1) return undefined;
  if (typeof value.conversationId !== 'string') return undefined;
  if (value.kind !== 'turn' && value.kind !== 'compaction') return undefined;
  const skipped = typeof value.skipped === 'number' && value.skipped >= 0 ? value.skipped : 0;
  return { cody: 'live', version: 1, conversationId: value.conversationId, kind: value.kind, skipped };
}

/** An event line; undefined for anything that is not an object with a `type`. */
export function parseEvent(line: string): SessionEvent | undefined {
  const value = parseLine(line);
  return isRecord(value) && typeof value.type === 'string' ? (value as unknown as SessionEvent) : undefined;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
