/**
 * Renders session events: the reply text to stdout as it streams, everything else (spinner, retries,
 * compaction notices, warnings) to stderr. With --json, every event is one JSON line on stdout.
 */
import type { SessionEvent } from '../core/conversation/session-events.js';
import { type Io, useColor } from './io.js';
import { stderrChalk } from './color.js';
import { UPDATE_PLAN_TOOL } from '../core/conversation/plan.js';
import { planLines } from './plan-view.js';
import { createReplyOutput } from './reply-output.js';
import { createLiveReply } from './live-reply.js';
import { createMarkdownStream } from './markdown.js';
import { startSpinner as startLineSpinner } from './spinner.js';
import { sanitizeForTerminal, terminalSafeJson } from './sanitize.js';
import { diffPreview, summarizeToolCall } from './tool-summary.js';
import {
  compactionFinishedText,
  compactionStartedText,
  declinedCallLine,
  formatTokens,
  outcomeText,
  paint,
  retryLine,
  startedCallLine,
  warningLine,
} from './turn-view/wording.js';
import type { FunctionCallItem } from '../protocol/index.js';

export { stderrChalk };

export interface TurnRenderer {
  handle(event: SessionEvent): void;
  /** Ends the output (final newline, spinner stopped). */
  end(): void;
}

interface Spinner {
  stop(): void;
}

export { formatTokens };

export function createTurnRenderer(io: Io, options: { json?: boolean; spinner?: Spinner }): TurnRenderer {
  if (options.json) {
    return {
      handle: (event) => {
        io.stdout.write(`${terminalSafeJson(event)}\n`);
      },
      end: () => undefined,
    };
  }
  const color = stderrChalk(io);
  // Markdown on a colour terminal; plain text (sanitised) in pipes and with NO_COLOR.
  const markdown =
    io.stdout.isTTY === true && useColor(io.stdout, io.env)
      ? createLiveReply(
          (text) => io.stdout.write(text),
          () => io.stdout.columns ?? 80,
          createMarkdownStream,
        )
      : undefined;
  // Plain text: held in a pipe until it can no longer be retried, so stdout gets the reply once.
  const reply = markdown
    ? undefined
    : createReplyOutput(io.stdout, {
        discardedMark: color.dim('[the partial reply above is discarded; retrying]'),
      });
  let spinner = options.spinner;
  const stopSpinner = (): void => {
    spinner?.stop();
    spinner = undefined;
  };
  let compacting = false;
  /** Calls whose approval question (with its diff) was shown. */
  const asked = new Set<string>();
  const calls = new Map<string, FunctionCallItem>();
  const toolLines = createToolLines((text) => io.stderr.write(color.dim(text)), calls);
  const note = (text: string): void => {
    stopSpinner();
    io.stderr.write(`${compacting ? '\n' : ''}${text}\n`);
    compacting = false;
  };
  return {
    handle(event) {
      reply?.handle(event);
      switch (event.type) {
        case 'text-delta':
          stopSpinner();
          markdown?.push(event.text);
          return;
        case 'reasoning-delta':
          return;
        case 'warning':
          note(paint(warningLine(event), color));
          return;
        case 'retry':
          markdown?.end();
          note(paint(retryLine(event, io.stdout.isTTY === true), color));
          return;
        case 'compaction-started':
          // One line per compaction: "Compacting conversation (auto)… 3.2k → 1.0k tokens".
          stopSpinner();
          io.stderr.write(paint(compactionStartedText(event), color));
          compacting = true;
          return;
        case 'compaction-finished':
          io.stderr.write(`${paint(compactionFinishedText(event, compacting), color)}\n`);
          compacting = false;
          return;
        case 'tool-call':
          // A plan that was set shows as its checklist (plan-updated).
          if (event.approved && event.call.name === UPDATE_PLAN_TOOL) return;
          markdown?.end();
          calls.set(event.call.call_id, event.call);
          toolLines.header(event.call.call_id);
          note(paint(event.approved ? startedCallLine(event.call) : declinedCallLine(event), color));
          // An edit that ran without asking shows its diff (an asked one showed it with the question).
          if (event.approved && !asked.has(event.call.call_id))
            for (const line of diffPreview(event.call, 8)) io.stderr.write(color.dim(`  ${line}\n`));
          return;
        case 'plan-updated':
          markdown?.end();
          note(planLines(event, color).join('\n'));
          return;
        case 'approval-requested':
          asked.add(event.call.call_id);
          // The command asks the question (with the whole preview); the spinner must not draw over it.
          stopSpinner();
          markdown?.end();
          return;
        case 'tool-output':
          toolLines.output(event.callId, event.chunk);
          return;
        case 'tool-finished': {
          toolLines.flush(event.callId);
          const call = calls.get(event.callId);
          if (call && event.status !== 'denied')
            io.stderr.write(`  ${paint(outcomeText(call, event), color)}\n`);
          return;
        }
        case 'turn-started':
        case 'state':
        case 'item-recorded':
        case 'usage':
        case 'approval-resolved':
        case 'tool-started':
        case 'turn-complete':
        case 'turn-failed':
          return;
        default: {
          const exhaustive: never = event;
          throw new Error(`unknown event ${JSON.stringify(exhaustive)}`);
        }
      }
    },
    end() {
      stopSpinner();
      markdown?.end();
      reply?.end();
      if (reply?.wroteText === true && !reply.atLineStart) io.stdout.write('\n');
    },
  };
}

/**
 * A running command's output on stderr as it comes, a line at a time (`  │ tick1`), under its call
 * line; when another call's lines came in between, the call is named again above its lines.
 */
function createToolLines(
  write: (text: string) => void,
  calls: ReadonlyMap<string, FunctionCallItem>,
): {
  header(callId: string): void;
  output(callId: string, chunk: string): void;
  flush(callId: string): void;
} {
  const open = new Map<string, string>();
  let last: string | undefined;
  const line = (callId: string, text: string): void => {
    const call = calls.get(callId);
    // The line above names another call (calls running at once): this one names its own.
    const label = call && last !== callId ? `${summarizeToolCall(call)}\n` : '';
    last = callId;
    write(`${label !== '' ? `  ${label}` : ''}  │ ${sanitizeForTerminal(text)}\n`);
  };
  return {
    header(callId) {
      last = callId;
    },
    output(callId, chunk) {
      const lines = `${open.get(callId) ?? ''}${chunk.replace(/\r\n/g, '\n')}`.split('\n');
      open.set(callId, lines.pop() ?? '');
      for (const text of lines) line(callId, text);
    },
    flush(callId) {
      const rest = open.get(callId);
      open.delete(callId);
      if (rest !== undefined && rest !== '') line(callId, rest);
    },
  };
}

/**
 * A spinner on stderr, only when stderr is a colour terminal. Cody's own (a timer and one escape
 * sequence): ora cost ~60 ms of import on every chat turn for the same effect (DECISIONS.md).
 */
export function startSpinner(io: Io, text: string): Promise<Spinner | undefined> {
  if (io.stderr.isTTY !== true || !useColor(io.stderr, io.env)) return Promise.resolve(undefined);
  return Promise.resolve(startLineSpinner(io.stderr, text));
}
