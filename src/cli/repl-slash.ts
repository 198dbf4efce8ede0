/** The REPL's slash commands (parsed by `repl-input`). */
import type { ChalkInstance } from 'chalk';
import { APPROVAL_POLICIES, noSandboxWarning, type ApprovalPolicy } from '../core/index.js';
import { wireApiOf, type Conversation } from '../core/index.js';
import type { CommandContext } from './context.js';
import { conversationChoice } from './conversation-choice.js';
import type { Io } from './io.js';
import { unknownModelWarning } from './known-models.js';
import { cachedModelList } from '../core/index.js';
import { planLines } from './plan-view.js';
import { renderMarkdown } from './markdown.js';
import { STYLES } from './markdown-text.js';
import { formatTokens } from './turn-view/wording.js';
import { helpText } from './repl-input.js';
import type { UserCommands } from './repl-prompts.js';
import { instructionsLines } from './instructions-view.js';
import { layoutBlock, layoutColumns } from './layout/layout.js';
import { sanitizeForTerminal } from './sanitize.js';
import type { RawTerminal } from './tty/terminal.js';
import { runTurn } from './repl-turn.js';
import { reasoningCommand, reasoningLabel } from './repl-reasoning.js';
import type { ReasoningLevel } from '../protocol/index.js';
import { throwing } from './turn-events.js';

export interface ReplState {
  context: CommandContext;
  session: Conversation;
  open: (context: CommandContext, id: string) => Promise<Conversation>;
  /** A new conversation, written at its first message. */
  openNew: (context: CommandContext) => Promise<Conversation>;
  lastToolOutput: string | undefined;
  /** /approval chose a policy: conversations opened later in this session keep it. */
  policyChosen: (policy: ApprovalPolicy) => void;
  /** The last turn's thinking, whole (for `/expand`). */
  lastReasoning?: string | undefined;
  /** /reasoning chose a level: conversations opened later in this session keep it. */
  reasoningChosen: (level: ReasoningLevel) => void;
}

interface Ui {
  io: Io;
  terminal: RawTerminal;
  color: ChalkInstance;
  userCommands?: UserCommands;
}

/** Runs a command; returns a message to send next, if the command produces one. */
export async function runSlashCommand(
  name: string,
  argument: string,
  state: ReplState,
  ui: Ui,
): Promise<string | undefined> {
  // Every line a command prints is laid out on words at the terminal's width, indented as it starts.
  const say = (text: string): void =>
    ui.terminal.write(layoutBlock(text, ui.terminal.columns()).replace(/\n/g, '\r\n'));
  switch (name) {
    case '/help':
      await ui.userCommands?.refresh();
      say(
        layoutColumns(
          helpText(ui.userCommands?.entries('yours'), ui.userCommands?.entries('built-in')),
          ui.terminal.columns(),
        ),
      );
      return undefined;
    case '/id':
      say(`${state.session.id}\n`);
      return undefined;
    case '/status':
      statusCommand(state, ui, say);
      say(instructionsLines(await state.session.projectInstructions()));
      return undefined;
    case '/reasoning':
      reasoningCommand(argument, state, ui.color, say);
      return undefined;
    case '/model':
    case '/provider':
      selectionCommand(name, argument, state, ui, say);
      return undefined;
    case '/approval':
      approvalCommand(argument, state, ui, say);
      return undefined;
    case '/new':
    case '/clear':
      await newCommand(name, state, ui, say);
      return undefined;
    case '/fork':
      await forkCommand(argument, state, ui, say);
      return undefined;
    case '/resume':
      await resumeCommand(argument, state, ui, say);
      return undefined;
    case '/undo':
      await undoCommand(argument, state, ui, say);
      return undefined;
    case '/compact':
      await compactCommand(argument, state, ui);
      return undefined;
    case '/export': {
      const { exportConversation } = await import('./repl-export.js');
      const target = await exportConversation(state.context, state.session.id, argument, ui.io.cwd);
      say(ui.color.green(`✓ Exported (redacted) to ${sanitizeForTerminal(target)}\n`));
      return undefined;
    }
    case '/diff':
      await showDiff(state.session.id, argument, ui.io, (text) => say(paintDiff(text, ui.color)));
      return undefined;
    case '/expand':
      say(expandText(state, ui));
      return undefined;
    case '/plan':
      say(planText(state, ui));
      return undefined;
    case '/hooks': {
      const { reviewHooks } = await import('./repl-hooks.js');
      await reviewHooks(state.context.cody, ui, say);
      return undefined;
    }
    default:
      say(`${name} is not available.\n`);
      return undefined;
  }
}

type Say = (text: string) => void;

/** `/model NAME`, `/provider NAME [API]`: for this conversation only; alone, what is in use. */
function selectionCommand(name: string, argument: string, state: ReplState, ui: Ui, say: Say): void {
  const current = state.session.status();
  if (argument === '') {
    say(`${current.provider} (${wireApiOf(current)}) · ${current.model}. Switch with ${name} NAME.\n`);
    return;
  }
  const [first = '', second] = argument.split(/\s+/);
  const words =
    name === '/model' ? { model: first } : { provider: first, ...(second ? { api: second } : {}) };
  // For this conversation only: config.json and the conversations opened later keep theirs.
  const status = state.session.setSelection(conversationChoice(state.context.config, current, words));
  // The provider's cached list only: a slash command asks no server.
  const baseUrl = (state.context.config.baseUrls as Partial<Record<string, string>> | undefined)?.[
    status.provider
  ];
  const listed = cachedModelList(state.context.paths.home, { provider: status.provider, baseUrl });
  const typo = unknownModelWarning(
    status.provider,
    status.model,
    hasBaseUrl(state, status.provider),
    listed?.map((model) => model.id),
  );
  if (typo !== undefined) say(ui.color.yellow(`warning: ${typo}\n`));
  say(
    ui.color.green(
      `✓ Now ${status.provider} (${wireApiOf(status)}) · ${status.model} for this conversation\n`,
    ),
  );
}

/** `/new`, `/clear` (the screen too): a new conversation, written at its first message. */
async function newCommand(name: string, state: ReplState, ui: Ui, say: Say): Promise<void> {
  state.session = await state.openNew(state.context);
  if (name === '/clear') say('\u001b[2J\u001b[3J\u001b[H');
  say(ui.color.dim(`Started conversation ${state.session.id}\n`));
}

/** `/fork [N]`: a fork up to user turn N (all of it without N), which becomes the open conversation. */
async function forkCommand(argument: string, state: ReplState, ui: Ui, say: Say): Promise<void> {
  const at = argument === '' ? undefined : Number(argument);
  if (at !== undefined && (!Number.isInteger(at) || at < 1)) {
    say('Usage: /fork [N] (N: keep the history up to user turn N)\n');
    return;
  }
  const from = state.session.id;
  const id = await state.context.cody.startFork(from, {
    ...(at !== undefined ? { atUserTurn: at } : {}),
    activate: true,
  });
  state.session = await state.open(state.context, id);
  say(ui.color.green(`✓ Forked ${from.slice(0, 8)} into ${id}; you are now in the fork\n`));
}

/** `/resume [id]`: the picker (or that conversation), made active, with its recap. */
async function resumeCommand(argument: string, state: ReplState, ui: Ui, say: Say): Promise<void> {
  const { pickConversation } = await import('./conversation-picker.js');
  const id = await pickConversation(state.context.cody, ui, argument, ui.io.cwd);
  if (id === undefined) return;
  state.session = await state.open(state.context, id);
  await state.context.cody.activate(id);
  say(ui.color.green(`✓ Resumed ${id}\n`));
  const { printRecap } = await import('./repl-recap.js');
  await printRecap(
    { ...ui.io, stderr: { write: (text: string) => say(text), columns: ui.terminal.columns() } },
    state.context.cody,
    id,
    ui.color,
  );
}

/** `/compact [focus]`: run as a turn, so Esc stops it; how it ended (a failure too) is said by its view. */
async function compactCommand(argument: string, state: ReplState, ui: Ui): Promise<void> {
  const session = state.session;
  await runTurn(
    { terminal: ui.terminal, stdout: ui.io.stdout, color: ui.color, markdown: false },
    session,
    (signal) => compactEvents(session, argument === '' ? undefined : argument, signal),
    session.status().model,
  );
}

/** `/plan`: the model's plan as its checklist, or what a plan is. */
function planText(state: ReplState, ui: Ui): string {
  const plan = state.session.status().plan;
  return plan
    ? `${planLines(plan, ui.color, ui.terminal.columns()).join('\n')}\n`
    : 'No plan yet: the model sets one with update_plan for work of several steps.\n';
}

/** Whether config.json gives this provider an endpoint of its own (any model id may then be right). */
function hasBaseUrl(state: ReplState, provider: string): boolean {
  const urls: Partial<Record<string, string>> = state.context.config.baseUrls ?? {};
  return urls[provider] !== undefined;
}

function compactEvents(session: Conversation, focus: string | undefined, signal: AbortSignal) {
  return throwing(session.compact(focus, { signal }));
}

/** `/undo [N] [--force]`: `cody undo` on this conversation; --force asks here before overwriting. */
async function undoCommand(
  argument: string,
  state: ReplState,
  ui: Ui,
  say: (text: string) => void,
): Promise<void> {
  const { runUndo } = await import('./commands/undo.js');
  const words = argument.split(/\s+/).filter((word) => word !== '');
  const turns = words.find((word) => word !== '--force');
  await runUndo(
    {
      conversation: state.session.id,
      force: words.includes('--force'),
      forceCommand: '/undo --force',
      ...(turns !== undefined ? { turns } : {}),
    },
    { ...ui.io, stdout: { write: say }, stderr: { write: say } },
    state.context,
    (paths) => askYesNo(ui, say, `Overwrite your changes since the turn to ${paths.join(', ')}? [y/N] `),
  );
}

/** One key: `y` is yes, anything else no (as the `!command` question). */
async function askYesNo(ui: Ui, say: (text: string) => void, question: string): Promise<boolean> {
  say(sanitizeForTerminal(question));
  const answer = await new Promise<boolean>((resolve) => {
    ui.terminal.listen((key) => resolve(key.name === 'text' && key.text.toLowerCase() === 'y'));
  });
  ui.terminal.listen(undefined);
  say(answer ? 'yes\n' : 'no\n');
  return answer;
}

/** A unified diff coloured as git colours it: added green, removed red, hunk headers cyan, file headers bold. */
export function paintDiff(text: string, color: ChalkInstance): string {
  return text
    .split('\n')
    .map((line) =>
      /^(diff --git|index |\+\+\+ |--- )/.test(line)
        ? color.bold(line)
        : line.startsWith('@@')
          ? color.cyan(line)
          : line.startsWith('+')
            ? color.green(line)
            : line.startsWith('-')
              ? color.red(line)
              : line,
    )
    .join('\n');
}

/** `cody diff` on this conversation, printed on the terminal (control characters made visible). */
async function showDiff(id: string, turn: string, io: Io, say: (text: string) => void): Promise<void> {
  const { runDiff } = await import('./commands/diff.js');
  await runDiff(
    { conversation: id, ...(turn !== '' ? { turn } : {}) },
    { ...io, stdout: { write: say, isTTY: true }, stderr: { write: say } },
  );
}

/** `/status`: provider, model, context used, compactions, reasoning and approval policy, on one line. */
function statusLine(session: Conversation): string {
  const status = session.status();
  const percent = Math.round((status.contextTokens / status.contextWindow) * 100);
  const thought = status.reasoningTokens ? ` (${formatTokens(status.reasoningTokens)} reasoning tokens)` : '';
  return `${status.provider} (${wireApiOf(status)}) · ${status.model} · ${formatTokens(status.contextTokens)} of ${formatTokens(status.contextWindow)} tokens (${percent}%) · ${status.compactions} ${status.compactions === 1 ? 'compaction' : 'compactions'} · conversation ${status.id} · reasoning ${reasoningLabel(status.reasoning)}${thought} · ${approvalStatus({ session })}\n`;
}

/** `/expand`: the last turn's thinking (dimmed) and the last tool output, whole. */
function expandText(state: ReplState, ui: Ui): string {
  const parts: string[] = [];
  if (state.lastReasoning !== undefined)
    parts.push(
      renderMarkdown(state.lastReasoning, {
        columns: () => ui.terminal.columns(),
        color: ui.color.level > 0,
        styles: [STYLES.dim, STYLES.italic],
      }),
    );
  if (state.lastToolOutput !== undefined) parts.push(`${sanitizeForTerminal(state.lastToolOutput)}\n`);
  return parts.length > 0 ? parts.join('') : 'No tool output or thinking yet.\n';
}

/** `/approval [policy]`: shows or sets the approval policy of this conversation's tool calls. */
function approvalCommand(argument: string, state: ReplState, ui: Ui, say: (text: string) => void): void {
  if (argument === '') {
    const current = state.session.status().approvalPolicy;
    say(
      current === undefined
        ? 'This conversation has no tools.\n'
        : `Approval policy: ${current}. Change it with /approval ${APPROVAL_POLICIES.join('|')}.\n`,
    );
    return;
  }
  try {
    // The engine checks the name (a usage error names the valid ones).
    state.session.setApprovalPolicy(argument as ApprovalPolicy);
  } catch (error) {
    say(ui.color.red(`${error instanceof Error ? error.message : String(error)}\n`));
    return;
  }
  state.policyChosen(argument as ApprovalPolicy);
  say(
    ui.color.green(
      `✓ Approval policy ${argument} for this conversation: it keeps it when opened again (--approval on the command line applies to one run only)\n`,
    ),
  );
  sayUnconfined(state, ui, say);
}

/** `/status`: the selection, the context used, and whether full-auto runs unconfined. */
function statusCommand(state: ReplState, ui: Ui, say: (text: string) => void): void {
  say(statusLine(state.session));
  sayUnconfined(state, ui, say);
}

/** The warning that full-auto runs commands with no sandbox, while it holds. */
function sayUnconfined(state: ReplState, ui: Ui, say: (text: string) => void): void {
  const status = state.session.status();
  const sandboxed = status.sandbox === undefined ? undefined : status.sandbox === 'bubblewrap';
  const unconfined = noSandboxWarning(status.approvalPolicy, sandboxed, status.confinement === 'off');
  if (unconfined !== undefined) say(ui.color.yellow(`⚠ ${unconfined}\n`));
}

/** `approval ask`, or `approval full-auto (this run only; the conversation keeps ask)`. */
export function approvalStatus(state: Pick<ReplState, 'session'>): string {
  const inForce = state.session.status().approvalPolicy;
  if (inForce === undefined) return 'no tools';
  const kept = state.session.keptApprovalPolicy().policy;
  return inForce === kept
    ? `approval ${inForce}`
    : `approval ${inForce} (this run only; the conversation keeps ${kept})`;
}
