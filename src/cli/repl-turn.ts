/**
 * One turn on a raw-mode terminal (the REPL, and `cody chat` on a terminal): Esc / Ctrl-C stop the turn,
 * keys typed meanwhile are kept as the next message, and the approval question is answered with keys.
 * What the turn shows is the live terminal view's (`turn-view/terminal-view.ts`), fed by the one
 * dispatcher (`turn-view/dispatch.ts`).
 */
import type { Conversation } from '../core/index.js';
import type { SessionEvent } from '../core/index.js';
import type { ChalkInstance } from 'chalk';
import type { ApprovalAnswer, ApprovalRequest } from './approval-question.js';
import { sanitizeForTerminal } from './sanitize.js';
import { dispatchTurn } from './turn-view/dispatch.js';
import { createTerminalView } from './turn-view/terminal-view.js';
import { createTypeAheadEcho, type TypeAheadEcho } from './type-ahead-echo.js';
import type { Key } from './tty/keys.js';
import { LineEditor } from './tty/line-editor.js';
import type { RawTerminal } from './tty/terminal.js';

export interface TurnUi {
  terminal: RawTerminal;
  stdout: { write(text: string): unknown };
  color: ChalkInstance;
  /** Render Markdown (a terminal; without colour under NO_COLOR); otherwise the text as it comes. */
  markdown: boolean;
  /** `cody chat` on a terminal: nothing is sent after this turn, so typed-ahead text is not queued. */
  oneShot?: boolean;
  /** Show the model's thinking as it streams (config `showReasoning`); default true. */
  showReasoning?: boolean;
  /** Runs once the reply is over, before the status line (the REPL's `N files changed` line). */
  beforeStatus?: () => Promise<void>;
  /** A warning that holds for every turn (full-auto with no sandbox), ended the status line in yellow. */
  statusWarning?: () => string | undefined;
  /** Whether the model reasons (core's status): the spinner says Thinking… or Working…. */
  modelReasons?: boolean;
  /** Tells the person (bell or desktop notification) an approval waits or a long turn ended. */
  notify?: (message: string) => void;
  /** A turn longer than this notifies when it ends (default `LONG_TURN_MS`). */
  longTurnMs?: number;
}

/** A turn that ran longer than this (approval waits not counted) notifies when it ends. */
export const LONG_TURN_MS = 10_000;

export interface TurnOutcome {
  status: 'completed' | 'interrupted' | 'failed';
  /** Why it failed: the view has said it already. */
  error?: unknown;
  /** Messages typed during the turn (and a denial's reason), in order. */
  queued: string[];
  /** Text typed but not sent, for the next prompt. */
  draft: string;
  lastToolOutput?: string;
  /** The turn's thinking, whole (what `/expand` shows). */
  lastReasoning?: string;
}

type Run = (signal: AbortSignal) => AsyncIterable<SessionEvent>;

/** Keys typed during the turn: kept as the next message (or announced as not sent, for cody chat). */
interface TypeAhead {
  editor: LineEditor;
  echo: TypeAheadEcho;
  queued: string[];
  /** Queued messages already announced on screen. */
  announced: Set<string>;
}

export async function runTurn(
  ui: TurnUi,
  session: Pick<Conversation, 'respond'>,
  run: Run,
  model: string,
): Promise<TurnOutcome> {
  const { terminal, color } = ui;
  const abort = new AbortController();
  const interrupt = (): void => {
    if (!abort.signal.aborted) abort.abort(new Error('interrupted'));
  };
  const editor = new LineEditor(
    { write: () => undefined, columns: () => terminal.columns() },
    { prompt: '', promptWidth: 0, history: [] },
  );
  const queued: string[] = [];
  const announced = new Set<string>();
  // What is typed meanwhile shows dim under the output (not for cody chat, which sends nothing after),
  // and a message sent with Enter shows as queued at once, until the output can say it on its own line.
  const echo = createTypeAheadEcho(
    (text) => terminal.write(text),
    () => (ui.oneShot === true ? '' : editor.buffer),
    () => terminal.columns(),
    color,
    () => (ui.oneShot === true ? [] : queued.filter((entry) => !announced.has(entry))),
  );
  const typed: TypeAhead = { editor, echo, queued, announced };
  let approval: ((key: Key) => void) | undefined;
  const clock = turnClock();
  const view = createTerminalView({
    terminal,
    stdout: ui.stdout,
    color,
    markdown: ui.markdown,
    ...(ui.showReasoning !== undefined ? { showReasoning: ui.showReasoning } : {}),
    expandable: ui.oneShot !== true,
    echo,
    ask: async (event) => {
      ui.notify?.('Cody is waiting for your approval');
      const answer = await clock.waiting(
        askOnKeys(ui, typed, event, (listener) => (approval = listener), view.say),
      );
      if (answer.decision === 'abort') interrupt();
      return answer;
    },
    ...(ui.statusWarning ? { statusWarning: ui.statusWarning } : {}),
    ...(ui.modelReasons !== undefined ? { modelReasons: ui.modelReasons } : {}),
  });
  terminal.listen(
    (key) => {
      if (approval) return approval(key);
      if (key.name === 'escape' || key.name === 'ctrl-c') return interrupt();
      typeAheadKey(ui, typed, key, view.atLineStart, view.say);
    },
    { typedAhead: true },
  );
  const outcome = await dispatchTurn(run(abort.signal), view, {
    model,
    respond: (id, decision, reason) => session.respond(id, decision, reason),
    signal: abort.signal,
    beforeEnding: async () => {
      terminal.listen(undefined);
      await ui.beforeStatus?.();
    },
  });
  notifyLongTurn(ui, outcome.status, clock.ran());
  announceQueued(ui, typed, view.say);
  return {
    status: outcome.status,
    ...(outcome.status === 'failed' ? { error: outcome.error } : {}),
    queued: typed.queued,
    draft: editor.expanded(),
    ...(outcome.lastToolOutput !== undefined ? { lastToolOutput: outcome.lastToolOutput } : {}),
    ...(view.reasoningText !== '' ? { lastReasoning: view.reasoningText } : {}),
  };
}

/** Messages queued during the turn that the output has not shown yet, said now. */
function announceQueued(ui: TurnUi, typed: TypeAhead, say: (text: string) => void): void {
  for (const text of typed.queued.filter((entry) => !typed.announced.has(entry))) {
    const first = sanitizeForTerminal(text.split('\n')[0] ?? '');
    say(
      ui.color.dim(
        ui.oneShot === true
          ? `not sent (cody chat sends one message; continue with cody chat -c): ${first}\n`
          : `⏎ queued: ${first}\n`,
      ),
    );
  }
}

/** How long the turn ran, the time its approval questions waited for the person not counted. */
function turnClock(): { waiting: <T>(asked: Promise<T>) => Promise<T>; ran: () => number } {
  const started = Date.now();
  let waited = 0;
  return {
    waiting: async (asked) => {
      const from = Date.now();
      try {
        return await asked;
      } finally {
        waited += Date.now() - from;
      }
    },
    ran: () => Date.now() - started - waited,
  };
}

/** A long turn (the person may have looked away) says it ended; one they interrupted does not. */
function notifyLongTurn(ui: TurnUi, status: TurnOutcome['status'], ran: number): void {
  if (status === 'interrupted' || ran <= (ui.longTurnMs ?? LONG_TURN_MS)) return;
  ui.notify?.(
    `Cody ${status === 'completed' ? 'finished' : 'stopped on an error'} (${Math.round(ran / 1000)} s)`,
  );
}

/** A key typed while the turn runs: edits the next message; Enter queues it (and says so at a line start). */
function typeAheadKey(
  ui: TurnUi,
  typed: TypeAhead,
  key: Key,
  atLineStart: boolean,
  say: (text: string) => void,
): void {
  const result = typed.editor.handle(key);
  typed.echo.show();
  if (result?.kind !== 'submit' || result.text.trim() === '') return;
  typed.queued.push(result.text);
  typed.editor.buffer = '';
  typed.editor.cursor = 0;
  // Mid-line, the echo line under the output says it is queued (the output says it at its line's end).
  if (!atLineStart || ui.oneShot === true) return typed.echo.show();
  typed.echo.hide();
  typed.announced.add(result.text);
  // Over the spinner's line, if it is drawing; it draws again on the next one.
  say(`\r\u001b[2K${ui.color.dim('⏎ queued:')}`);
  say(ui.color.dim(` ${sanitizeForTerminal(result.text.split('\n')[0] ?? '')}\n`));
}

/** The approval question on keys; keys typed before it stay where they went, and it says so. */
async function askOnKeys(
  ui: TurnUi,
  typed: TypeAhead,
  event: ApprovalRequest,
  listen: (listener: ((key: Key) => void) | undefined) => void,
  write: (text: string) => void,
): Promise<ApprovalAnswer> {
  typed.echo.pause(true);
  const { askWithKeys } = await import('./approval-question.js');
  const before = typed.editor.buffer.trim() !== '' || typed.queued.length > 0;
  const note = !before
    ? undefined
    : ui.oneShot === true
      ? 'what you typed before this question is not an answer (and is not sent: cody chat sends one message)'
      : 'what you typed before this question is not an answer: it is kept for your next prompt';
  const keys = {
    listen,
    columns: () => ui.terminal.columns(),
    onResize: (listener: (() => void) | undefined) => ui.terminal.onResizeEvent(listener),
  };
  const answer = await askWithKeys(keys, write, event, {
    color: ui.color,
    ...(note !== undefined ? { note } : {}),
  });
  listen(undefined);
  typed.echo.pause(false);
  return answer;
}
