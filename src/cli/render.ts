/**
 * Renders session events: the reply text to stdout as it streams, everything else (spinner, retries,
 * compaction notices, warnings) to stderr. With --json, every event is one JSON line on stdout.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { SessionEvent } from '../core/session-events.js';
import { type Io, useColor } from './io.js';

export interface TurnRenderer {
  handle(event: SessionEvent): void;
  /** Ends the output (final newline, spinner stopped). */
  end(): void;
}

interface Spinner {
  stop(): void;
}

export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`;
  if (tokens >= 10_000) return `${Math.round(tokens / 1000)}k`;
  if (tokens >= 1_000) return `${(tokens / 1000).toFixed(1)}k`;
  return String(tokens);
}

export function stderrChalk(io: Io): ChalkInstance {
  return new Chalk({ level: useColor(io.stderr, io.env) ? 1 : 0 });
}

export function createTurnRenderer(io: Io, options: { json?: boolean; spinner?: Spinner }): TurnRenderer {
  if (options.json) {
    return {
      handle: (event) => {
        io.stdout.write(`${JSON.stringify(event)}\n`);
      },
      end: () => undefined,
    };
  }
  const color = stderrChalk(io);
  let spinner = options.spinner;
  let atLineStart = true;
  let wroteText = false;
  const stopSpinner = (): void => {
    spinner?.stop();
    spinner = undefined;
  };
  let compacting = false;
  const note = (text: string): void => {
    stopSpinner();
    io.stderr.write(`${compacting ? '\n' : ''}${text}\n`);
    compacting = false;
  };
  return {
    handle(event) {
      switch (event.type) {
        case 'text-delta':
          stopSpinner();
          io.stdout.write(event.text);
          wroteText = true;
          atLineStart = event.text.endsWith('\n');
          return;
        case 'reasoning-delta':
          return;
        case 'warning':
          note(color.yellow(`warning: ${event.message}`));
          return;
        case 'retry':
          if (event.discardedPartial && !atLineStart) {
            io.stdout.write('\n');
            atLineStart = true;
          }
          note(
            color.yellow(
              `Retrying (${event.attempt}/${event.maxRetries}) in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}${
                event.discardedPartial ? ' — the partial reply above is discarded' : ''
              }`,
            ),
          );
          return;
        case 'compaction-started':
          // One line per compaction: "Compacting conversation (auto)… 3.2k → 1.0k tokens".
          stopSpinner();
          io.stderr.write(color.cyan(`Compacting conversation (${event.trigger})…`));
          compacting = true;
          return;
        case 'compaction-finished': {
          const trimmed =
            event.trimmedItems > 0
              ? `, ${event.trimmedItems} oldest items left out of the summary request to fit`
              : '';
          const text =
            event.status === 'compacted'
              ? color.cyan(
                  ` ${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens${trimmed}`,
                )
              : color.yellow(` ${event.status}: the history was kept as it was.`);
          io.stderr.write(`${compacting ? '' : 'Compaction'}${text}\n`);
          compacting = false;
          return;
        }
        case 'tool-call':
          note(color.dim(`${event.approved ? '▶' : '✗'} ${event.call.name} ${event.call.arguments}`));
          return;
        case 'approval-requested':
          // The command asks the question; the spinner must not draw over it.
          stopSpinner();
          return;
        case 'turn-started':
        case 'state':
        case 'item-recorded':
        case 'usage':
        case 'approval-resolved':
        case 'tool-started':
        case 'tool-output':
        case 'tool-finished':
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
      if (wroteText && !atLineStart) io.stdout.write('\n');
    },
  };
}

/** A spinner on stderr, only when stderr is a terminal (ora is imported only then). */
export async function startSpinner(io: Io, text: string): Promise<Spinner | undefined> {
  if (io.stderr.isTTY !== true || !useColor(io.stderr, io.env)) return undefined;
  const { default: ora } = await import('ora');
  return ora({ text, stream: process.stderr, discardStdin: false }).start();
}
