/**
 * The interactive chat: a raw-mode prompt (multi-line editing, paste, history, completion) over one
 * conversation, slash commands, and turns rendered by `repl-turn`. Opens the conversation before touching
 * the terminal, so a start-up error is one line and an exit, never a hang; every exit restores the terminal.
 */
import { ExitCode } from './exit-codes.js';
import { createRedactor } from '../core/index.js';
import type { Conversation } from '../core/index.js';
import type { ApprovalPolicy } from '../core/index.js';
import { approvalFromFlags, confinementFromFlags } from './approval-flag.js';
import { canAskOn } from './approval.js';
import { createChangeReporter } from './turn-changes.js';
import type { ChatOptions } from './commands/chat.js';
import { chooseConversation } from './choose-conversation.js';
import { createContext, ephemeralContext, type CommandContext, type EngineOptions } from './context.js';
import { appendHistory, readHistory } from './history.js';
import { type Io, readAll } from './io.js';
import { stderrChalk } from './color.js';
import { layoutBlock } from './layout/layout.js';
import { printRecap } from './repl-recap.js';
import { ReplStatus } from './repl-status.js';
import { firstConversation, showBanner } from './repl-start.js';
import type { ReplState } from './repl-slash.js';
import type { TurnUi } from './repl-turn.js';
import { completeInput, parseSlash, withAttachments } from './repl-input.js';
import { userCommandLine, UserCommands } from './repl-prompts.js';
import { reportError } from './report-error.js';
import { sanitizeForTerminal } from './sanitize.js';
import { throwing } from './turn-events.js';
import { type Completion, LineEditor } from './tty/line-editor.js';
import { RawTerminal } from './tty/terminal.js';

/** How long a first Ctrl-C on an empty prompt waits for the second. */
const DOUBLE_PRESS_MS = 2000;

/** `cody --resume` with no id: the picker chooses the conversation before the REPL starts. */
export type ReplOptions = ChatOptions & { resume?: true };

export async function runRepl(options: ReplOptions, io: Io): Promise<number> {
  if (io.stdin.isTTY !== true) {
    // Not a terminal: behave like `cody chat` with the message on stdin.
    const text = await readAll(io.stdin);
    if (text.trim() === '') {
      io.stderr.write('cody: nothing on stdin. Usage: cody chat "message" (see cody --help)\n');
      return ExitCode.usage;
    }
    const { runChat } = await import('./commands/chat.js');
    return runChat({ ...options, words: [text] }, io);
  }
  const approvalPolicy = approvalFromFlags(options);
  const engine: EngineOptions = {
    ...(approvalPolicy !== undefined ? { approvalPolicy } : {}),
    ...confinementFromFlags(options),
    canAsk: canAskOn(io),
  };
  let context: CommandContext = await createContext(io, { engine });
  try {
    const chosen = options.resume
      ? await pickAtStart(context, io)
      : await chooseConversation(context, options);
    if (chosen === null) return ExitCode.ok;
    if (options.ephemeral) context = await ephemeralContext(context, chosen, engine);
    return await interactive(context, options, io, options.ephemeral ? await context.cody.active() : chosen);
  } finally {
    await context.dispose();
  }
}

/** The `/resume` picker, on its own terminal session; null when the person cancels it. */
async function pickAtStart(context: CommandContext, io: Io): Promise<string | null> {
  const { pickConversation } = await import('./conversation-picker.js');
  const terminal = new RawTerminal(process.stdin, process.stderr);
  terminal.start();
  try {
    const id = await pickConversation(context.cody, { terminal, color: stderrChalk(io) }, '', io.cwd);
    return id ?? null;
  } finally {
    terminal.stop();
  }
}

/**
 * The REPL's state, made when the first line needs it (the first conversation opens meanwhile), and how
 * every conversation it opens is configured: without --approval, each keeps the policy it last ran under
 * until /approval picks one, which conversations opened later then get; --reasoning, then /reasoning,
 * is the level they start with.
 */
function replStates(
  initialContext: CommandContext,
  options: ChatOptions,
  chosen: string | undefined,
): {
  first: ReturnType<typeof firstConversation>;
  ready: () => Promise<ReplState>;
  current: () => ReplState | undefined;
} {
  let policy: ApprovalPolicy | undefined;
  let reasoning = options.reasoning;
  const configure = (conversation: Conversation): Conversation => {
    if (policy !== undefined) conversation.setApprovalPolicy(policy);
    if (reasoning !== undefined) conversation.setReasoning(reasoning);
    return conversation;
  };
  const first = firstConversation(initialContext, options, chosen, configure);
  let state: ReplState | undefined;
  const ready = async (): Promise<ReplState> => {
    state ??= {
      context: initialContext,
      session: await first.open(),
      open: async (context, id) => configure(await context.cody.open(id)),
      // A new conversation is written at its first message: quitting before one leaves nothing behind.
      openNew: async (context) => configure(await context.cody.draft({ activate: true }).open()),
      lastToolOutput: undefined,
      policyChosen: (chosen) => (policy = chosen),
      reasoningChosen: (level) => (reasoning = level),
    };
    return state;
  };
  return { first, ready, current: () => state };
}

async function interactive(
  initialContext: CommandContext,
  options: ChatOptions,
  io: Io,
  chosen: string | undefined,
): Promise<number> {
  const color = stderrChalk(io);
  const states = replStates(initialContext, options, chosen);
  const { id, open: startOpening, failed: openFailed } = states.first;
  const userCommands = new UserCommands(initialContext.paths.home, io.cwd);
  const redact = createRedactor(initialContext.config.redact ?? []);
  const history = options.ephemeral ? [] : readHistory(initialContext.paths.home);
  const terminal = new RawTerminal(process.stdin, process.stderr);
  const status = new ReplStatus(initialContext, io.cwd, terminal, () => states.current()?.session);
  const session: ReplUi = { io, terminal, color, userCommands, status };
  const bannerPolicy = await showBanner(initialContext, options, io, chosen, id, startOpening);
  /** The policy in force: the open conversation's, else the one shown in the banner. */
  const policyInForce = (): string | undefined => {
    const current = states.current();
    return current !== undefined ? current.session.status().approvalPolicy : bannerPolicy;
  };
  if (chosen !== undefined) await printRecap(io, initialContext.cody, id, color);

  const queue: string[] = [];
  /** How a queued message is shown when it is sent, when not as itself (a `!command`'s hand-over). */
  const shownAs = new Map<string, string>();
  const firstPrompt = options.words.join(' ').trim();
  if (firstPrompt !== '') queue.push(firstPrompt);
  let draft = '';
  let exitCode: number = ExitCode.ok;
  terminal.start();
  await (await import('./repl-hooks.js')).reviewHooksAtStart(initialContext.cody, session);
  try {
    for (;;) {
      let text: string;
      const next = queue.shift();
      if (next !== undefined) {
        text = next;
        const shown = shownAs.get(text) ?? text;
        shownAs.delete(text);
        io.stderr.write(`${color.bold('› ')}${sanitizeForTerminal(shown).replace(/\n/g, '\r\n  ')}\r\n`);
      } else {
        await userCommands.refresh();
        const complete = (buffer: string, cursor: number): Completion | undefined =>
          completeInput(buffer, cursor, io.cwd, userCommands.entries());
        const result = await prompt(
          terminal,
          color,
          history,
          complete,
          draft,
          openFailed,
          policyInForce(),
          openWhenDrawn(startOpening, status),
          status,
        );
        draft = '';
        if (result.kind === 'cancelled') throw await openFailed;
        if (result.kind === 'exit') {
          exitCode = result.code;
          break;
        }
        text = result.text;
      }
      if (text.trim() === '') continue;
      const state = await states.ready();
      if (!options.ephemeral) rememberLine(text, state, history, redact);
      const line = await runCommandLine(text, state, session);
      if (line.kind === 'exit') break;
      if (line.kind === 'done') {
        if (line.next !== undefined) queue.unshift(line.next);
        if (line.next !== undefined && line.shown !== undefined) shownAs.set(line.next, line.shown);
        continue;
      }
      const sent = await sendMessage(text, state, session);
      queue.push(...sent.queued);
      draft = sent.draft;
    }
  } finally {
    terminal.stop();
  }
  return exitCode;
}

/** A line typed (or queued) goes into the prompt's history and, redacted, the history file. */
function rememberLine(
  text: string,
  state: ReplState,
  history: string[],
  redact: ReturnType<typeof createRedactor>,
): void {
  history.push(text);
  appendHistory(
    state.context.paths.home,
    { text, conversationId: state.session.id, time: new Date().toISOString() },
    redact,
  );
}

/** What the REPL's helpers write with. */
interface ReplUi {
  io: Io;
  terminal: RawTerminal;
  color: ReturnType<typeof stderrChalk>;
  userCommands: UserCommands;
  status: ReplStatus;
}

/** `next`: a message to send now; `shown`: how it is shown, when not in full (its output is on screen). */
type CommandLine = { kind: 'exit' } | { kind: 'done'; next?: string; shown?: string } | { kind: 'message' };

/**
 * A line that is a command, not a message: one of your own commands that only shows something, a slash
 * command (`/exit` ends the REPL; some give a message to send next) or `!command`. Anything else is a
 * message (your own command that sends, too).
 */
async function runCommandLine(text: string, state: ReplState, ui: ReplUi): Promise<CommandLine> {
  const { io, terminal, color, userCommands } = ui;
  const slash = parseSlash(text);
  const own =
    slash?.kind === 'unknown' ? await userCommandLine(state.session, text, slash, color) : undefined;
  if (own !== undefined) io.stderr.write(own.view);
  if (own?.send === false) return { kind: 'done' };
  if (slash?.kind === 'command') {
    if (slash.name === '/exit') return { kind: 'exit' };
    try {
      // Loaded when first used: the prompt must not wait for the export/transcript modules.
      const { runSlashCommand } = await import('./repl-slash.js');
      const next = await runSlashCommand(slash.name, slash.argument, state, {
        io,
        terminal,
        color,
        userCommands,
      });
      return next !== undefined ? { kind: 'done', next } : { kind: 'done' };
    } catch (error) {
      reportError(
        error,
        {
          ...io,
          stderr: {
            write: (chunk: string) => terminal.write(chunk.replace(/\n/g, '\r\n')),
            columns: terminal.columns(),
          },
        },
        false,
      );
      return { kind: 'done' };
    }
  }
  if (!text.startsWith('!')) return { kind: 'message' };
  const { runBang } = await import('./repl-bang.js');
  const handOver = await runBang(text.slice(1), io.cwd, terminal, color);
  // The output is on screen already: the message that hands it over is not printed again.
  return handOver !== undefined
    ? { kind: 'done', next: handOver, shown: `${text} (its output sent to the model)` }
    : { kind: 'done' };
}

/** Sends a message (with the files and images it names) as one turn; what was typed meanwhile is kept. */
async function sendMessage(
  text: string,
  state: ReplState,
  ui: ReplUi,
): Promise<{ queued: string[]; draft: string }> {
  const { io, terminal, color } = ui;
  const { message, notes, warnings, images } = withAttachments(text, io.cwd);
  const own = (text: string): string => `${layoutBlock(text, terminal.columns()).replace(/\n/g, '\r\n')}\r\n`;
  for (const note of notes) io.stderr.write(own(color.dim(note)));
  for (const warning of warnings) io.stderr.write(own(color.yellow(`⚠ ${sanitizeForTerminal(warning)}`)));
  const current = state.session;
  const { runTurn } = await import('./repl-turn.js');
  const changes = createChangeReporter((line) => terminal.write(`${line}\r\n`), io.cwd);
  const outcome = await runTurn(
    { ...turnUi(terminal, io.stdout, color, state, () => changes.report()), notify: ui.status.notify },
    current,
    (signal) =>
      ui.status.count(
        changes.watch(
          throwing(current.submit(message, { signal, ...(images.length > 0 ? { images } : {}) })),
        ),
      ),
    current.status().model,
  );
  if (outcome.lastToolOutput !== undefined) state.lastToolOutput = outcome.lastToolOutput;
  // A failed turn was said by the turn's view, in the words every view uses.
  state.lastReasoning = outcome.lastReasoning;
  return { queued: outcome.queued, draft: outcome.draft };
}

/** Once the first prompt is drawn, the first conversation opens; its status line is drawn once it has. */
function openWhenDrawn(open: () => Promise<Conversation>, status: ReplStatus): () => void {
  return () =>
    setImmediate(
      () =>
        void open()
          .then((conversation) => status.refresh(conversation))
          .catch(() => undefined),
    );
}

type PromptResult = { kind: 'line'; text: string } | { kind: 'exit'; code: number } | { kind: 'cancelled' };

/** One prompt: resolves with the submitted text, or an exit (Ctrl-D, or Ctrl-C twice on an empty prompt). */
function prompt(
  terminal: RawTerminal,
  color: ReturnType<typeof stderrChalk>,
  history: readonly string[],
  complete: (buffer: string, cursor: number) => Completion | undefined,
  initial: string,
  cancel: Promise<unknown>,
  policy: string | undefined,
  drawn: () => void,
  status: ReplStatus,
): Promise<PromptResult> {
  // The approval policy in force is shown beside the prompt when it is not the default, ask.
  const label = policy === undefined || policy === 'ask' ? '' : `${policy} `;
  status.refresh();
  return new Promise((resolve) => {
    let settled = false;
    const editor = new LineEditor(
      { write: (text) => terminal.write(text), columns: () => terminal.columns() },
      {
        prompt: `${color.yellow(label)}${color.bold('› ')}`,
        promptWidth: label.length + 2,
        history,
        complete,
        ...(status.footer() !== undefined ? { footer: status.footer() } : {}),
      },
      initial,
    );
    let armedUntil = 0;
    const done = (value: PromptResult): void => {
      settled = true;
      status.attach(undefined);
      terminal.listen(undefined);
      terminal.onResizeEvent(undefined);
      resolve(value);
    };
    editor.render();
    status.attach({
      setFooter: (footer) => editor.setFooter(footer),
      printAbove: (text) => {
        editor.clear();
        terminal.write(`${color.yellow(sanitizeForTerminal(text))}\r\n`);
        editor.render();
      },
    });
    drawn();
    terminal.onResizeEvent(() => editor.render());
    // Keys typed before it was drawn (between turns, during start-up) are its first keys.
    terminal.listen(
      (key) => {
        const result = editor.handle(key);
        if (!result) return;
        if (result.kind === 'ctrl-c-empty') {
          if (Date.now() < armedUntil) {
            editor.setHint(undefined);
            editor.finish();
            return done({ kind: 'exit', code: ExitCode.interrupted });
          }
          armedUntil = Date.now() + DOUBLE_PRESS_MS;
          editor.setHint('Press Ctrl-C again to exit (or Ctrl-D)');
          return;
        }
        editor.finish();
        if (result.kind === 'eof') return done({ kind: 'exit', code: ExitCode.ok });
        done({ kind: 'line', text: result.text });
      },
      { typedAhead: true },
    );
    void cancel.then(() => {
      if (settled) return;
      editor.clear();
      done({ kind: 'cancelled' });
    });
  });
}

/** How the REPL shows a turn: Markdown on a terminal, thinking unless config hides it, the files-changed line. */
function turnUi(
  terminal: RawTerminal,
  stdout: TurnUi['stdout'] & { isTTY?: boolean },
  color: TurnUi['color'],
  state: ReplState,
  beforeStatus: () => Promise<void>,
): TurnUi {
  return {
    terminal,
    stdout,
    color,
    markdown: stdout.isTTY === true,
    showReasoning: state.context.config.showReasoning !== false,
    beforeStatus,
    statusWarning: () => unconfinedNote(state.session.status()),
    modelReasons: state.session.status().modelReasons !== false,
  };
}

/** Said on every turn's status line while it holds: full-auto runs shell commands with no sandbox here. */
function unconfinedNote(status: { approvalPolicy?: string; sandbox?: string }): string | undefined {
  return status.approvalPolicy === 'full-auto' && status.sandbox === 'none'
    ? 'full-auto, no sandbox'
    : undefined;
}
