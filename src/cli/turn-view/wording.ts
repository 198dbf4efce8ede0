/**
 * What the CLI says about each event of a turn, in one place: `cody chat` (plain), the REPL (Markdown,
 * live) and the JSON outputs read the same event stream, and both text views take their words from
 * here, so a retry, a compaction, a declined call or an interruption reads the same everywhere. Each
 * function returns the text and a tone; the view decides colour, placement and line ends.
 */
import type { ChalkInstance } from 'chalk';
import type { FunctionCallItem } from '../../protocol/index.js';
import type { SessionEvent } from '../../core/index.js';
import { costOf, type UsageTotals } from '../../core/index.js';
import { formatCost } from '../prices.js';
import { describeError } from '../report-error.js';
import { sanitizeForTerminal } from '../sanitize.js';
import { callOutcome, summarizeToolCall } from '../tool-summary.js';

/** How a line is painted: a view maps each tone to a colour (or none). */
export type Tone = 'warn' | 'info' | 'dim' | 'error' | 'ok';

export interface Said {
  text: string;
  tone: Tone;
}

type Of<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

/** `3.2k`, `12k`, `1.5M`: token counts in status and compaction lines. */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`;
  if (tokens >= 10_000) return `${Math.round(tokens / 1000)}k`;
  if (tokens >= 1_000) return `${(tokens / 1000).toFixed(1)}k`;
  return String(tokens);
}

export function warningLine(event: Of<'warning'>): Said {
  return { text: `warning: ${sanitizeForTerminal(event.message)}`, tone: 'warn' };
}

/** A hook's folded line: `↳ hook PreToolUse: ./check.sh → deny · 12 ms`. */
export function hookLine(event: Of<'hook'>): Said {
  const outcome =
    event.status === 'timeout' ? ' → timed out' : event.decision !== undefined ? ` → ${event.decision}` : '';
  return {
    text: `↳ hook ${event.event}: ${sanitizeForTerminal(event.command)}${outcome} · ${event.durationMs} ms`,
    tone: event.status === 'ok' ? 'dim' : 'warn',
  };
}

/**
 * `Retrying (1/5) in 2.0 s: HTTP 503 · overloaded — the partial reply above is discarded`. `shown` says
 * whether the partial reply reached the screen (a live view) or was held back (a pipe).
 */
export function retryLine(event: Of<'retry'>, shown: boolean): Said {
  const status = event.statusCode !== undefined ? `HTTP ${event.statusCode} · ` : '';
  const discarded = !event.discardedPartial
    ? ''
    : shown
      ? ' — the partial reply above is discarded'
      : ' — its partial reply is discarded';
  return {
    text: `Retrying (${event.attempt}/${event.maxRetries}) in ${(event.delayMs / 1000).toFixed(1)} s: ${status}${sanitizeForTerminal(event.reason)}${discarded}`,
    tone: 'warn',
  };
}

/** The start of the one compaction line: `Compacting conversation (auto)…` (no line end). */
export function compactionStartedText(event: Of<'compaction-started'>): Said {
  return { text: `Compacting conversation (${event.trigger})…`, tone: 'info' };
}

/**
 * The end of the compaction line: ` 3.2k → 1.0k tokens`, ` nothing to do.`, ` failed: the history was
 * kept as it was.`; `continued` says whether it follows the started text on the same line.
 */
export function compactionFinishedText(event: Of<'compaction-finished'>, continued: boolean): Said {
  const lead = continued ? '' : 'Compaction';
  if (event.status === 'compacted') {
    const trimmed =
      event.trimmedItems > 0
        ? `, ${event.trimmedItems} oldest items left out of the summary request to fit`
        : '';
    return {
      text: `${lead} ${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens${trimmed}`,
      tone: 'info',
    };
  }
  if (event.status === 'noop') return { text: `${lead} nothing to do.`, tone: 'info' };
  return { text: `${lead} ${event.status}: the history was kept as it was.`, tone: 'warn' };
}

/**
 * A call that will not run, with its real reason: `✗ $ rm -rf x — declined by policy: …`, or, with no
 * terminal to ask, what to pass to allow it. The person's own "no" was said by the question: no reason.
 */
export function declinedCallLine(event: Of<'tool-call'>): Said {
  const reason = event.reason !== undefined ? sanitizeForTerminal(event.reason) : undefined;
  const why =
    event.declinedBy === 'policy'
      ? ` — declined by policy${reason !== undefined ? `: ${reason}` : ''}`
      : event.declinedBy === 'nobody-to-ask'
        ? ` — declined (no terminal to ask; pass --approval full-auto to allow)${reason !== undefined ? `: needs approval: ${reason}` : ''}`
        : event.declinedBy === 'no-answer'
          ? ' — declined: nobody answered in time'
          : event.declinedBy === 'cannot-apply' && reason !== undefined
            ? ` — not run: ${reason}`
            : event.declinedBy === 'hook'
              ? ` — blocked by a hook${reason !== undefined ? `: ${reason}` : ''}`
              : '';
  const failed = event.declinedBy === 'cannot-apply';
  return { text: `✗ ${summarizeToolCall(event.call, { failed })}${why}`, tone: 'error' };
}

/** A call as it starts, as the plain view names it above its streamed output: `⏺ $ npm test`. */
export function callLine(call: FunctionCallItem): Said {
  return { text: `⏺ ${summarizeToolCall(call)}`, tone: 'dim' };
}

/**
 * A finished call's row, as the live view prints it once the call is over: its mark (`⏺`, or `✗` when it
 * failed), the call (a failed edit without line counts) and its outcome: `⏺ $ ls  ✓ 0.0s`.
 */
export function finishedCallLine(
  call: FunctionCallItem,
  event: Of<'tool-finished'>,
): { mark: Said; text: string; outcome: Said } {
  const ok = event.status === 'ok';
  return {
    mark: ok ? { text: '⏺', tone: 'info' } : { text: '✗', tone: 'error' },
    text: summarizeToolCall(call, { failed: !ok }),
    outcome: outcomeText(call, event),
  };
}

/** How a call ended: `✓ 0.3s`, `✗ exit 2 · 1.2s`, `✗ no such file: a.txt` (tone ok or error). */
export function outcomeText(call: FunctionCallItem, event: Of<'tool-finished'>, output?: string): Said {
  return { text: callOutcome(call, event, output), tone: event.status === 'ok' ? 'ok' : 'error' };
}

/** After a stopped turn; `partialKept` when a reply was cut short (what was shown of it is kept). */
export function interruptedLine(partialKept: boolean): Said {
  return {
    text: partialKept ? '⏹ Interrupted — the partial reply is kept in the conversation.' : '⏹ Interrupted.',
    tone: 'warn',
  };
}

/**
 * A failed turn (or command), as every text view says it: `cody: <what failed>`, and for an unexpected
 * error the way to learn more.
 */
export function failureLines(error: unknown): Said[] {
  const { message, expected } = describeError(error);
  const first: Said = { text: `cody: ${sanitizeForTerminal(message)}`, tone: 'error' };
  return expected ? [first] : [first, { text: 'Run again with --debug for details.', tone: 'dim' }];
}

/** What a turn used, summed over its responses (the dispatcher keeps it). */
export interface TurnSummary {
  model: string;
  usage: UsageTotals;
  /** The context after the last response: tokens in it and the model's window. */
  context?: { tokens: number; window: number };
}

/** The status line of a turn: its model, context, tokens and cost (at list prices, when known). */
export function summaryLine(summary: TurnSummary): Said {
  const cost = costOf(summary.model, summary.usage);
  return statusLine(
    summary.model,
    {
      input: summary.usage.inputTokens,
      output: summary.usage.outputTokens,
      ...(cost !== undefined ? { cost: formatCost(cost) } : {}),
    },
    summary.context,
  );
}

/** The turn's status line: `gpt-5 · 12% context · 3.2k in · 410 out · $0.01`. */
export function statusLine(
  model: string,
  usage: { input: number; output: number; cost?: string },
  context?: { tokens: number; window: number },
): Said {
  const parts = [model];
  if (context) parts.push(`${Math.round((context.tokens / context.window) * 100)}% context`);
  if (usage.input + usage.output > 0) {
    parts.push(`${formatTokens(usage.input)} in · ${formatTokens(usage.output)} out`);
    if (usage.cost !== undefined) parts.push(usage.cost);
  }
  return { text: parts.join(' · '), tone: 'dim' };
}

/** A line in its tone's colour (none when `color` has colour off). */
export function paint(said: Said, color: ChalkInstance): string {
  const brush = {
    warn: color.yellow,
    info: color.cyan,
    dim: color.dim,
    error: color.red,
    ok: color.green,
  }[said.tone];
  return brush(said.text);
}
