/** The REPL's slash commands (parsed by `repl-input`). */
import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { ChalkInstance } from 'chalk';
import { applyProviderChoice } from '../core/provider-choice.js';
import { APPROVAL_POLICIES, noSandboxWarning, type ApprovalPolicy } from '../core/tools/policy.js';
import { readTitles } from '../core/conversation-titles.js';
import { createRedactor, redactDeep } from '../core/redact.js';
import { resolveSelection } from '../core/config.js';
import { forkThrough, wireApiOf, type Conversation } from '../core/index.js';
import { readTranscript } from '../core/transcript.js';
import { relativeTime } from './commands/list.js';
import { toHtml, toMarkdown } from './commands/export.js';
import type { CommandContext } from './context.js';
import type { Io } from './io.js';
import { unknownModelWarning } from './known-models.js';
import { formatTokens } from './render.js';
import { helpText } from './repl-input.js';
import { sanitizeForTerminal } from './sanitize.js';
import { LineEditor } from './tty/line-editor.js';
import type { RawTerminal } from './tty/terminal.js';
import { runTurn } from './repl-turn.js';
import { reasoningCommand, reasoningLabel } from './repl-reasoning.js';
import type { ReasoningLevel } from '../protocol/index.js';
import { throwing } from './turn-events.js';

export interface ReplState {
  context: CommandContext;
  session: Conversation;
  open: (context: CommandContext, id: string) => Promise<Conversation>;
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
}

/** Runs a command; returns a message to send next, if the command produces one. */
export async function runSlashCommand(
  name: string,
  argument: string,
  state: ReplState,
  ui: Ui,
): Promise<string | undefined> {
  const say = (text: string): void => ui.terminal.write(text.replace(/\n/g, '\r\n'));
  switch (name) {
    case '/help':
      say(helpText());
      return undefined;
    case '/id':
      say(`${state.session.id}\n`);
      return undefined;
    case '/status':
      statusCommand(state, ui, say);
      return undefined;
    case '/reasoning':
      reasoningCommand(argument, state, ui.color, say);
      return undefined;
    case '/model':
    case '/provider': {
      const current = state.session.status();
      if (argument === '') {
        say(`${current.provider} (${wireApiOf(current)}) · ${current.model}. Switch with ${name} NAME.\n`);
        return undefined;
      }
      const [first, second] = argument.split(/\s+/);
      const choice =
        name === '/model'
          ? { provider: current.provider, model: first ?? '' }
          : { provider: first ?? '', ...(second !== undefined ? { api: second } : {}) };
      // For this conversation in this session only: config.json keeps its default.
      const config = applyProviderChoice(state.context.config, choice, new Date());
      state.context = { ...state.context, config };
      state.session = await state.open(state.context, state.session.id);
      const selection = resolveSelection(config);
      const typo = unknownModelWarning(selection.provider, selection.model, selection.baseUrl !== undefined);
      if (typo !== undefined) say(ui.color.yellow(`warning: ${typo}\n`));
      say(
        ui.color.green(
          `✓ Now ${selection.provider} (${selection.api}) · ${selection.model} for this conversation\n`,
        ),
      );
      return undefined;
    }
    case '/approval':
      approvalCommand(argument, state, ui, say);
      return undefined;
    case '/new':
    case '/clear': {
      const id = await state.context.store.start({ config: state.context.config });
      state.session = await state.open(state.context, id);
      if (name === '/clear') say('\u001b[2J\u001b[3J\u001b[H');
      say(ui.color.dim(`Started conversation ${id}\n`));
      return undefined;
    }
    case '/fork': {
      const at = argument === '' ? undefined : Number(argument);
      if (at !== undefined && (!Number.isInteger(at) || at < 1)) {
        say('Usage: /fork [N] (N: keep the history up to user turn N)\n');
        return undefined;
      }
      const from = state.session.id;
      const id = await forkThrough(state.context.manager, from, at);
      state.session = await state.open(state.context, id);
      say(ui.color.green(`✓ Forked ${from.slice(0, 8)} into ${id}; you are now in the fork\n`));
      return undefined;
    }
    case '/resume': {
      const id = await pickConversation(state, ui, argument);
      if (id === undefined) return undefined;
      state.session = await state.open(state.context, id);
      await state.context.manager.setActive(id);
      say(ui.color.green(`✓ Resumed ${id}\n`));
      const { printRecap } = await import('./repl-recap.js');
      printRecap(
        { ...ui.io, stderr: { write: (text: string) => say(text) } },
        state.context.manager.rolloutPath(id),
        ui.color,
      );
      return undefined;
    }
    case '/undo':
      await undoCommand(argument, state, ui, say);
      return undefined;
    case '/compact': {
      const session = state.session;
      const outcome = await runTurn(
        { terminal: ui.terminal, stdout: ui.io.stdout, color: ui.color, markdown: false },
        session,
        (signal) => compactEvents(session, argument === '' ? undefined : argument, signal),
        session.status().model,
      );
      if (outcome.status === 'failed') throw outcome.error;
      return undefined;
    }
    case '/export': {
      const [format = 'md', file] = argument.split(/\s+/).filter((word) => word !== '');
      if (format !== 'md' && format !== 'json' && format !== 'html') {
        say('Usage: /export [md|json|html] [FILE]\n');
        return undefined;
      }
      const id = state.session.id;
      const transcript = redactDeep(
        await readTranscript(state.context.manager.rolloutPath(id)),
        createRedactor(state.context.config.redact ?? []),
      );
      const title = readTitles(state.context.paths.home).get(id);
      const text =
        format === 'json'
          ? `${JSON.stringify({ id, meta: transcript.meta, entries: transcript.entries }, null, 2)}\n`
          : format === 'md'
            ? toMarkdown(id, title, transcript)
            : toHtml(id, title, transcript);
      const target = resolvePath(ui.io.cwd, file ?? `cody-${id.slice(0, 8)}.${format}`);
      await writeFile(target, text, { mode: 0o600, flag: 'wx' }).catch(async (error: unknown) => {
        if ((error as { code?: unknown }).code === 'EEXIST')
          throw new Error(`${target} exists; give another file name.`);
        throw error;
      });
      say(ui.color.green(`✓ Exported (redacted) to ${target}\n`));
      return undefined;
    }
    case '/diff':
      await showDiff(state.session.id, argument, ui.io, say);
      return undefined;
    case '/expand':
      say(expandText(state, ui.color));
      return undefined;
    default:
      say(`${name} is not available.\n`);
      return undefined;
  }
}

function compactEvents(session: Conversation, focus: string | undefined, signal: AbortSignal) {
  return throwing(session.compact(focus, { signal }));
}

/** A searchable list of recent conversations: type to filter, ↑/↓ to move, Enter to open, Esc to cancel. */
async function pickConversation(state: ReplState, ui: Ui, initialQuery: string): Promise<string | undefined> {
  const all = await state.context.manager.listConversations({ limit: 200 });
  const rows = all.map((conversation) => ({
    id: conversation.id,
    label: sanitizeForTerminal(
      `${conversation.id.slice(0, 8)}  ${relativeTime(conversation.updatedAt, Date.now()).padEnd(9)}  ${
        conversation.title ?? '(no messages)'
      }`,
    ),
  }));
  if (rows.length === 0) {
    ui.terminal.write('No saved conversations.\r\n');
    return undefined;
  }
  const query = new LineEditor(
    { write: () => undefined, columns: () => ui.terminal.columns() },
    { prompt: '', promptWidth: 0, history: [] },
    initialQuery,
  );
  let selected = 0;
  let drawn = 0;
  const visible = (): typeof rows =>
    rows.filter((row) => row.label.toLowerCase().includes(query.buffer.toLowerCase())).slice(0, 10);
  const draw = (): void => {
    const columns = ui.terminal.columns();
    const shown = visible();
    let out = `${drawn > 0 ? `\u001b[${drawn}A` : ''}\r\u001b[J`;
    out += `${ui.color.bold('Resume:')} ${query.buffer}${ui.color.dim('  (type to search, ↑/↓, Enter, Esc)')}`;
    shown.forEach((row, index) => {
      const text = row.label.length > columns - 3 ? `${row.label.slice(0, columns - 4)}…` : row.label;
      out += `\r\n${index === selected ? ui.color.inverse(`› ${text}`) : `  ${text}`}`;
    });
    if (shown.length === 0) out += `\r\n${ui.color.dim('  no match')}`;
    drawn = Math.max(1, shown.length);
    ui.terminal.write(out);
  };
  draw();
  return new Promise((resolve) => {
    const finish = (id: string | undefined): void => {
      ui.terminal.listen(undefined);
      ui.terminal.write(`${drawn > 0 ? `\u001b[${drawn}A` : ''}\r\u001b[J`);
      resolve(id);
    };
    ui.terminal.listen((key) => {
      const shown = visible();
      if (key.name === 'escape' || key.name === 'ctrl-c') return finish(undefined);
      if (key.name === 'enter') return finish(shown[selected]?.id);
      if (key.name === 'up') selected = Math.max(0, selected - 1);
      else if (key.name === 'down') selected = Math.min(Math.max(0, shown.length - 1), selected + 1);
      else {
        query.handle(key);
        selected = 0;
      }
      draw();
    });
  });
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
  return `${status.provider} (${wireApiOf(status)}) · ${status.model} · ${formatTokens(status.contextTokens)} of ${formatTokens(status.contextWindow)} tokens (${percent}%) · ${status.compactions} compactions · conversation ${status.id} · reasoning ${reasoningLabel(status.reasoning)}${thought} · ${approvalStatus({ session })}\n`;
}

/** `/expand`: the last turn's thinking (dimmed) and the last tool output, whole. */
function expandText(state: ReplState, color: ChalkInstance): string {
  const parts: string[] = [];
  if (state.lastReasoning !== undefined)
    parts.push(color.dim.italic(`${sanitizeForTerminal(state.lastReasoning)}\n`));
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
  const unconfined = noSandboxWarning(status.approvalPolicy, sandboxed);
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
