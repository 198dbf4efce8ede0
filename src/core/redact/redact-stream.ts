/**
 * Redaction of text that arrives in pieces. A key split across two deltas is in neither, so a per-delta
 * replace lets it through; a `StreamRedactor` holds back the shortest tail that could still be the start
 * of a secret (a partial key shape, a prefix of a known value, the last word — or line — for config
 * patterns) and releases it, redacted, once the next piece proves what it is, or at the stream's end.
 *
 * `redactEvents` applies it to a turn's events, one stream per kind of delta (`text-delta`,
 * `reasoning-delta`, and `tool-output` per call), and every other event's string values as a whole. It
 * never touches JSON keys or structure: it works on the events, not on their serialization.
 */
import { type Matchers, redactDeep, redactText } from './redact.js';
import { formSpans, formTail } from './secret-forms.js';
import type { SessionEvent } from '../conversation/index.js';

export class StreamRedactor {
  private held = '';

  constructor(private readonly matchers: Matchers) {}

  /** Feeds one piece; returns the redacted text that is now safe to show (possibly empty). */
  push(delta: string): string {
    const text = this.held + delta;
    const cut = safeCut(text, this.matchers);
    this.held = text.slice(cut);
    return cut === 0 ? '' : redactText(text.slice(0, cut), this.matchers);
  }

  /** The stream ended: whatever is held, redacted. */
  flush(): string {
    const text = this.held;
    this.held = '';
    return text === '' ? '' : redactText(text, this.matchers);
  }

  /** Characters held back right now. */
  get holding(): number {
    return this.held.length;
  }
}

/** Where the released part of `text` ends: before every tail that could still be a secret. */
export function safeCut(text: string, matchers: Matchers): number {
  let cut = text.length;
  for (const { open } of matchers.shapes) {
    const match = open.exec(text);
    if (match && match.index < cut) cut = match.index;
  }
  cut = Math.min(cut, formTail(text, matchers.forms));
  if (matchers.patterns.length > 0) cut = Math.min(cut, patternTail(text, matchers.patternsSpanWords));
  return outsideMatches(text, cut, matchers);
}

/** A config pattern is arbitrary: hold the last word (or, when it can match whitespace, the last line). */
function patternTail(text: string, spanWords: boolean): number {
  if (spanWords) return text.lastIndexOf('\n') + 1;
  for (let index = text.length; index > 0; index -= 1) if (/\s/.test(text.charAt(index - 1))) return index;
  return 0;
}

/** Moves `cut` back to the start of any whole secret it would split. */
function outsideMatches(text: string, cut: number, matchers: Matchers): number {
  let at = cut;
  const inside = (start: number, length: number): boolean => start < at && start + length > at;
  const spans = formSpans(text, matchers.forms);
  for (let moved = true; moved && at > 0;) {
    moved = false;
    for (const [start, end] of spans) {
      if (start >= at) break;
      if (inside(start, end - start)) [at, moved] = [start, true];
    }
    for (const pattern of [...matchers.shapes.map((shape) => shape.find), ...matchers.patterns]) {
      for (const match of text.matchAll(pattern)) {
        if (match.index >= at) break;
        if (inside(match.index, match[0].length)) [at, moved] = [match.index, true];
      }
    }
  }
  return at;
}

type DeltaEvent = Extract<SessionEvent, { type: 'text-delta' | 'reasoning-delta' }>;

/** Events that come between a response's deltas without ending its text. */
const WITHIN_A_RESPONSE = new Set<SessionEvent['type']>([
  'text-delta',
  'reasoning-delta',
  'tool-output',
  'state',
  'usage',
]);

/** One turn's open text streams. */
class TurnStreams {
  private readonly deltas = new Map<DeltaEvent['type'], StreamRedactor>();
  private readonly outputs = new Map<string, StreamRedactor>();

  constructor(private readonly matchers: Matchers) {}

  /** The events to pass on for one event of the turn. */
  *pass(event: SessionEvent): Generator<SessionEvent> {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
      const text = this.stream(this.deltas, event.type).push(event.text);
      if (text !== '') yield { type: event.type, text };
      return;
    }
    if (event.type === 'tool-output') {
      const chunk = this.stream(this.outputs, event.callId).push(event.chunk);
      if (chunk !== '') yield { type: 'tool-output', callId: event.callId, chunk };
      return;
    }
    if (!WITHIN_A_RESPONSE.has(event.type)) yield* this.flushDeltas();
    if (event.type === 'tool-finished') yield* this.flushOutput(event.callId);
    yield redactDeep(event, (text) => redactText(text, this.matchers));
  }

  /** The end of the turn: everything still held. */
  *flushAll(): Generator<SessionEvent> {
    yield* this.flushDeltas();
    for (const callId of [...this.outputs.keys()]) yield* this.flushOutput(callId);
  }

  private *flushDeltas(): Generator<SessionEvent> {
    for (const [type, stream] of this.deltas) {
      const text = stream.flush();
      if (text !== '') yield { type, text };
    }
  }

  private *flushOutput(callId: string): Generator<SessionEvent> {
    const chunk = this.outputs.get(callId)?.flush() ?? '';
    this.outputs.delete(callId);
    if (chunk !== '') yield { type: 'tool-output', callId, chunk };
  }

  private stream<K>(streams: Map<K, StreamRedactor>, key: K): StreamRedactor {
    let stream = streams.get(key);
    if (!stream) {
      stream = new StreamRedactor(this.matchers);
      streams.set(key, stream);
    }
    return stream;
  }
}

/**
 * A turn's (or a compaction's) events with every secret replaced: deltas through one streaming redactor
 * per stream, flushed when their response ends and when the turn ends (also when it throws); the inner
 * generator is closed when the consumer stops early, so its cleanup runs.
 */
export async function* redactEvents<R>(
  events: AsyncGenerator<SessionEvent, R>,
  matchers: Matchers,
): AsyncGenerator<SessionEvent, R> {
  const streams = new TurnStreams(matchers);
  let finished = false;
  const next = async (): Promise<IteratorResult<SessionEvent, R>> => {
    try {
      const step = await events.next();
      finished = step.done === true;
      return step;
    } catch (error) {
      finished = true;
      throw error;
    }
  };
  try {
    for (let step = await next(); ; step = await next()) {
      if (step.done === true) {
        yield* streams.flushAll();
        return step.value;
      }
      yield* streams.pass(step.value);
    }
  } catch (error) {
    if (finished) yield* streams.flushAll();
    // The front end shows the failure's message (`turn-failed`, a CLI error line): it is text too.
    if (error instanceof Error) error.message = redactText(error.message, matchers);
    throw error;
  } finally {
    if (!finished) await events.return(undefined as R);
  }
}
