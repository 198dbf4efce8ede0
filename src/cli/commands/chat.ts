import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import type { ReasoningLevel } from '../../protocol/index.js';
import { UnsentMessageError, UsageError } from '../../core/index.js';
import { noSandboxWarning } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import {
  loadImage,
  wireApiOf,
  type Conversation,
  type ImageInput,
  type SubmitOptions,
} from '../../core/index.js';
import { approvalFromFlags, confinementFromFlags } from '../approval-flag.js';
import { askApproval, canAskOn } from '../approval.js';
import { conversationChoice, hasChoice } from '../conversation-choice.js';
import { chooseConversation } from '../choose-conversation.js';
import { createContext, ephemeralContext, type CommandContext, type EngineOptions } from '../context.js';

export { chooseConversation };
import { type Io, readAll } from '../io.js';
import { createJsonWriter } from '../json-output.js';
import { withStdinBlock } from '../message.js';
import { stderrChalk } from '../color.js';
import { createChangeReporter } from '../turn-changes.js';
import { describeError, reportError } from '../report-error.js';
import { throwing } from '../turn-events.js';
import { dispatchTurn, type TurnOutcome } from '../turn-view/dispatch.js';
import { createJsonView } from '../turn-view/json-view.js';
import { createPlainView } from '../turn-view/plain-view.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface ChatOptions {
  words: string[];
  conversation?: string;
  /** `-c/--continue`: the most recently used conversation. */
  continueLast?: boolean;
  /** Nothing of the turn is saved. */
  ephemeral?: boolean;
  format?: OutputFormat;
  autoApprove?: boolean;
  /** `--approval read-only|ask|auto-edit|full-auto`. */
  approval?: string;
  /** `--dangerously-skip-confinement`: full-auto without a sandbox runs what Cody cannot check. */
  dangerouslySkipConfinement?: boolean;
  /** `--reasoning off|minimal|low|medium|high`: the conversation's reasoning level from this turn on. */
  reasoning?: ReasoningLevel;
  /** `--provider`, `--api`, `--model`: for this conversation (config.json keeps its selection). */
  provider?: string;
  api?: string;
  model?: string;
  /** Bare `cody` and `cody "question"`: a new conversation unless --conversation or --continue names one. */
  fresh?: boolean;
  /** `--image <file>` (repeatable): images attached to the message. */
  images?: string[];
  /** `--plain`: the plain view on a terminal too (no Markdown, no redrawing; questions read lines). */
  plain?: boolean;
}

/** The session option for `--reasoning`, when it was given. */
export function reasoningFlag(options: Pick<ChatOptions, 'reasoning'>): { reasoning?: ReasoningLevel } {
  return options.reasoning !== undefined ? { reasoning: options.reasoning } : {};
}

/**
 * The `--image` files, read and checked (PNG, JPEG, GIF or WebP by their bytes, at most 20 MB) before any
 * conversation is opened: a bad file is a one-line usage error and nothing is started or sent.
 */
async function readImages(options: Pick<ChatOptions, 'images'>, io: Io): Promise<ImageInput[]> {
  const images: ImageInput[] = [];
  for (const path of options.images ?? []) {
    const image = await loadImage({ path: resolve(io.cwd, path), name: path });
    images.push({ data: image.bytes, name: image.name });
  }
  return images;
}

/** What a chat turn is submitted with: its signal, `--reasoning`, its images. */
function turnOptions(
  options: Pick<ChatOptions, 'reasoning'>,
  signal: AbortSignal,
  images: readonly ImageInput[],
): SubmitOptions {
  return { signal, ...reasoningFlag(options), ...(images.length > 0 ? { images } : {}) };
}

/**
 * The message: the words, with piped stdin appended as a quoted block (or stdin alone). It may be empty
 * only when images go with it.
 */
export async function readMessage(words: readonly string[], io: Io, withImages = false): Promise<string> {
  const typed = words.join(' ');
  const piped = io.stdin.isTTY === true ? '' : await readAll(io.stdin);
  const message = withStdinBlock(typed, piped);
  if (message.trim() === '' && !withImages) {
    throw new UsageError('Nothing to send: give a message (cody chat "hello") or pipe one on stdin.');
  }
  return message;
}

/** `cody chat`: one turn. The reply streams to stdout; everything else goes to stderr. */
export async function runChat(options: ChatOptions, io: Io): Promise<number> {
  const format = options.format ?? 'text';
  if (format === 'text') return runTextChat(options, io);
  const writer = createJsonWriter(io.stdout, format);
  const abort = new AbortController();
  const onSignal = (): void => abort.abort(new Error('interrupted'));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const message = await readMessage(options.words, io, (options.images?.length ?? 0) > 0);
    const images = await readImages(options, io);
    const { context, conversation } = await openChosen(options, io, engineOptions(options));
    const status = conversation.status();
    writer.start({
      conversationId: conversation.id,
      provider: status.provider,
      api: wireApiOf(status),
      model: status.model,
      ephemeral: options.ephemeral === true,
    });
    try {
      const events = conversation.submit(message, turnOptions(options, abort.signal, images));
      return exitCodeOf(
        await dispatchTurn(throwing(events), createJsonView(writer, io), {
          model: status.model,
          respond: (id, decision, reason) => conversation.respond(id, decision, reason),
          signal: abort.signal,
        }),
      );
    } finally {
      await context.dispose();
    }
  } catch (error) {
    // Before the turn (no message, no conversation): the object says what failed, stderr says it too.
    const final = writer.finish(error);
    const code = reportError(error, io, false);
    return final.error?.kind === 'interrupted' ? ExitCode.interrupted : code;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

/** How a turn ended (the view has said it). */
type Ending = Pick<TurnOutcome, 'status' | 'error'>;

/** How `cody chat` exits after a turn: 0, 130 when it was stopped, or the failure's own code. */
function exitCodeOf(outcome: Ending): number {
  if (outcome.status === 'completed') return ExitCode.ok;
  if (outcome.status === 'interrupted') return ExitCode.interrupted;
  return describeError(outcome.error).exitCode;
}

/**
 * The engine for a chat command (its approval flags, whether it can ask) and the conversation it works
 * on: the chosen one, or a new one (in a scratch directory with --ephemeral).
 */
async function openChosen(
  options: ChatOptions,
  io: Io,
  engine: EngineOptions,
  onStarted?: (id: string) => void,
): Promise<{ context: CommandContext; conversation: Conversation }> {
  let context = await createContext(io, { engine });
  try {
    const chosen = await chooseConversation(context, options);
    if (options.ephemeral) context = await ephemeralContext(context, chosen, engine);
    const id = options.ephemeral ? await context.cody.active() : chosen;
    // A conversation the CLI starts becomes the active one (the library's and the server's do not).
    const conversation = await context.cody.open(id ?? (await context.cody.start({ activate: true })));
    if (hasChoice(options))
      conversation.setSelection(conversationChoice(context.config, conversation.status(), options));
    if (id === undefined && !options.ephemeral) onStarted?.(conversation.id);
    return { context, conversation };
  } catch (error) {
    await context.dispose();
    throw error;
  }
}

function engineOptions(options: ChatOptions, extra: EngineOptions = {}): EngineOptions {
  const approvalPolicy = approvalFromFlags(options);
  return {
    ...(approvalPolicy !== undefined ? { approvalPolicy } : {}),
    ...confinementFromFlags(options),
    ...extra,
  };
}

async function runTextChat(options: ChatOptions, io: Io): Promise<number> {
  const message = await readMessage(options.words, io, (options.images?.length ?? 0) > 0);
  const images = await readImages(options, io);
  const color = stderrChalk(io);
  const canAsk = canAskOn(io);
  const engine = engineOptions(options, {
    canAsk,
    onLockWait: () => {
      io.stderr.write(
        color.yellow('Waiting for another cody process to finish writing to this conversation…\n'),
      );
    },
  });
  const { context, conversation } = await openChosen(options, io, engine, (id) =>
    io.stderr.write(color.dim(`Started conversation ${id}\n`)),
  );
  const turn = { ...options, images, showReasoning: context.config.showReasoning !== false };
  warnUnconfined(io, conversation.status());
  try {
    const live = canAsk && io.stderr.isTTY === true && options.plain !== true;
    const outcome = live
      ? await terminalTurn(io, conversation, message, turn)
      : await plainTurn(io, conversation, message, turn);
    if (outcome === 'quiet') return ExitCode.ok;
    if (outcome.status === 'failed') keepUnsent(outcome.error, io);
    return exitCodeOf(outcome);
  } finally {
    await context.dispose();
  }
}

/** With confinement turned off, full-auto without a sandbox says so loudly before the turn. */
function warnUnconfined(io: Io, status: ReturnType<Conversation['status']>): void {
  if (status.confinement !== 'off' || status.sandbox === undefined) return;
  const warning = noSandboxWarning(status.approvalPolicy, status.sandbox === 'bubblewrap', true);
  if (warning !== undefined) io.stderr.write(stderrChalk(io).yellow(`⚠ ${warning}\n`));
}

type TurnFlags = Pick<ChatOptions, 'reasoning' | 'plain'> & {
  images: readonly ImageInput[];
  /** Config `showReasoning`: the model's thinking shows, folded. */
  showReasoning: boolean;
};

/**
 * Where no terminal can be driven (or with --plain): the plain view, approval questions on lines, Ctrl-C
 * and SIGTERM stop the turn. `quiet` when stdout was closed (`cody chat … | head -1`): the turn is
 * recorded as interrupted, and the command stops quietly, as `head` expects.
 */
async function plainTurn(
  io: Io,
  conversation: Conversation,
  message: string,
  options: TurnFlags,
): Promise<TurnOutcome | 'quiet'> {
  const abort = new AbortController();
  const onInterrupt = (): void => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  let brokenPipe = false;
  const onOutputError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') return;
    brokenPipe = true;
    abort.abort(new Error('broken pipe'));
  };
  const stdoutEvents = eventsOf(io.stdout);
  stdoutEvents?.on('error', onOutputError);
  const view = createPlainView(io, {
    ask: (event) => askApproval(io, event),
    ...(options.plain === true ? { markdown: false } : {}),
    showReasoning: options.showReasoning,
    quietInterrupt: () => brokenPipe,
    modelReasons: conversation.status().modelReasons !== false,
  });
  const changes = createChangeReporter((line) => io.stderr.write(`${line}\n`), io.cwd);
  try {
    const events = conversation.submit(message, turnOptions(options, abort.signal, options.images));
    const outcome = await dispatchTurn(changes.watch(throwing(events)), view, {
      model: conversation.status().model,
      respond: (id, decision, reason) => conversation.respond(id, decision, reason),
      signal: abort.signal,
      beforeEnding: () => changes.report(),
    });
    return brokenPipe && outcome.status === 'interrupted' ? 'quiet' : outcome;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    process.removeListener('SIGTERM', onInterrupt);
    stdoutEvents?.removeListener('error', onOutputError);
  }
}

/**
 * On a terminal, the turn runs as in the REPL: the approval question always visible, Esc or Ctrl-C stop
 * the turn (exit 130), Markdown when stdout is the terminal too.
 */
async function terminalTurn(
  io: Io,
  conversation: Conversation,
  message: string,
  options: TurnFlags,
): Promise<Ending> {
  const [{ runTurn }, { RawTerminal }] = await Promise.all([
    import('../repl-turn.js'),
    import('../tty/terminal.js'),
  ]);
  const terminal = new RawTerminal(process.stdin, process.stderr);
  const changes = createChangeReporter((line) => io.stderr.write(`${line}\n`), io.cwd);
  terminal.start();
  try {
    const outcome = await runTurn(
      {
        terminal,
        stdout: io.stdout,
        color: stderrChalk(io),
        markdown: io.stdout.isTTY === true,
        oneShot: true,
        showReasoning: options.showReasoning,
        beforeStatus: () => changes.report(),
        modelReasons: conversation.status().modelReasons !== false,
      },
      conversation,
      (signal) =>
        changes.watch(throwing(conversation.submit(message, turnOptions(options, signal, options.images)))),
      conversation.status().model,
    );
    return outcome;
  } finally {
    terminal.stop();
  }
}

/** Nothing was sent or saved (a full disk): give the message back so it is not lost. */
function keepUnsent(error: unknown, io: Io): void {
  if (error instanceof UnsentMessageError) {
    io.stderr.write(`cody: your message was not sent; here it is:\n${error.unsentText}\n`);
  }
}

/** The stream's event emitter side, when it has one (the process's stdout does; test fakes may not). */
function eventsOf(stream: unknown): NodeJS.EventEmitter | undefined {
  return stream instanceof EventEmitter ? stream : undefined;
}
