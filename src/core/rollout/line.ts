/**
 * The one parse of a rollout line, used by every reader (resume, the listing, the transcript and the
 * recap): JSON, an object, a string `timestamp` and a string `type`. Payloads are checked by whoever uses
 * them. Checked by hand, not with zod: this runs on every line a resume reads, and `cody list` loads it.
 */
import { isRecord } from '../../protocol/index.js';

export interface RolloutLine {
  timestamp: string;
  type: string;
  payload: unknown;
}

/** Why a line is not a rollout line: `json` (not JSON at all: maybe a torn write) or `shape`. */
export interface LineProblem {
  problem: 'json' | 'shape';
  reason: string;
}

export function parseLine(text: string): RolloutLine | LineProblem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: 'json', reason: `not valid JSON (${(error as Error).message})` };
  }
  if (!isRecord(parsed) || typeof parsed.timestamp !== 'string' || typeof parsed.type !== 'string') {
    return { problem: 'shape', reason: 'not a rollout line (needs a timestamp and a type)' };
  }
  return { timestamp: parsed.timestamp, type: parsed.type, payload: parsed.payload };
}

/** The line, or undefined when it is not one (readers that skip what they cannot use). */
export function lineOrUndefined(text: string): RolloutLine | undefined {
  const line = parseLine(text);
  return 'problem' in line ? undefined : line;
}

/** A line's payload as a record (`{}` when it is not one). */
export function payloadRecord(line: RolloutLine | undefined): Record<string, unknown> {
  const payload = line?.payload;
  return isRecord(payload) ? payload : {};
}
