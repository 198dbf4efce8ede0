/**
 * The reply on stdout, exactly once (issue 7.5). When a connection drops mid-stream the engine retries
 * and announces it with a `retry` event whose `discardedPartial` says text of the failed attempt was
 * already streamed. On a terminal the text streams as it comes and a discarded part is marked as such
 * on the screen; anywhere else (a pipe, a file) a response's text is held until the attempt can no
 * longer be retried, so a script capturing stdout never receives `partial⏎full`. A response can be
 * retried only until its stream has ended: the first event after the deltas that is not a retry
 * settles it.
 */
import type { SessionEvent } from '../core/index.js';
import type { OutputStream } from './io.js';
import { sanitizeForTerminal } from './sanitize.js';

export interface ReplyOutput {
  /** Feeds one event of the turn; text deltas are written or held, other events settle or discard. */
  handle(event: SessionEvent): void;
  /** Writes whatever is still held (the turn is over). */
  end(): void;
  /** Whether any reply text reached stdout, and whether the last of it ended a line. */
  readonly wroteText: boolean;
  readonly atLineStart: boolean;
}

/** Events that come between a response's deltas and a retry of it: they settle nothing. */
const UNSETTLING = new Set<SessionEvent['type']>([
  'text-delta',
  'reasoning-delta',
  'retry',
  'state',
  'usage',
]);

export function createReplyOutput(
  stdout: OutputStream,
  options: {
    /** What marks a discarded partial reply on a terminal (a line of its own). */
    discardedMark: string;
    /** Writes reply text; default: sanitised, to `stdout`. */
    write?: (text: string) => void;
    /** Writes Cody's own text (the mark) as it is; default: to `stdout`. */
    writeOwn?: (text: string) => void;
  },
): ReplyOutput {
  const live = stdout.isTTY === true;
  const write = options.write ?? ((text: string) => stdout.write(sanitizeForTerminal(text)));
  const writeOwn = options.writeOwn ?? ((text: string) => stdout.write(text));
  let held = '';
  let wroteText = false;
  let atLineStart = true;
  let shownThisAttempt = false;
  const emit = (text: string): void => {
    if (text === '') return;
    write(text);
    wroteText = true;
    atLineStart = text.endsWith('\n');
  };
  const settle = (): void => {
    emit(held);
    held = '';
    shownThisAttempt = false;
  };
  return {
    handle(event) {
      if (event.type === 'text-delta') {
        if (live) {
          emit(event.text);
          shownThisAttempt = true;
        } else held += event.text;
        return;
      }
      if (event.type === 'retry') {
        if (live && shownThisAttempt && event.discardedPartial) {
          writeOwn(`${atLineStart ? '' : '\n'}${options.discardedMark}\n`);
          atLineStart = true;
        }
        held = '';
        shownThisAttempt = false;
        return;
      }
      if (!UNSETTLING.has(event.type)) settle();
    },
    end: settle,
    get wroteText() {
      return wroteText;
    },
    get atLineStart() {
      return atLineStart;
    },
  };
}
