import { UsageError } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { loadConfig } from '../../core/index.js';
import {
  isInWorkspace,
  listConversations,
  readActiveId,
  workspaceFirst,
  workspaceOf,
} from '../../core/index.js';
import { resolveCodyPaths } from '../../core/index.js';
import type { ConversationSummary } from '../../core/index.js';
import type { Io } from '../io.js';
import { sanitizeForTerminal, terminalSafeJson } from '../sanitize.js';

export interface ListOptions {
  json?: boolean;
  /** Every conversation (the current workspace's first), with each one's workspace; else this workspace's. */
  all?: boolean;
  limit?: string;
  search?: string;
}

/** `cody list`: newest activity first, one row per conversation that fits the terminal's width. */
export async function runList(options: ListOptions, io: Io): Promise<number> {
  let limit: number | undefined;
  if (options.limit !== undefined) {
    limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new UsageError(`--limit must be a positive whole number, not '${options.limit}'.`);
  }
  // Read only: CODY_HOME is not created. The config is still checked, as every command checks it. The
  // listing reads the directory itself, not through ConversationManager: bare `cody list` is one bundle
  // file, and the manager's writers and reader would be most of it.
  const paths = resolveCodyPaths(io.env);
  await loadConfig(paths.configFile);
  // Each with its title: the one set with `cody rename`, else generated (and cached) from the first message.
  const all = listConversations(paths);
  const root = workspaceOf(io.cwd);
  const inScope =
    options.all === true ? workspaceFirst(all, root) : all.filter((c) => isInWorkspace(c, root));
  const search = options.search?.toLowerCase();
  const matching =
    search === undefined
      ? inScope
      : inScope.filter((conversation) =>
          [conversation.id, conversation.title, conversation.preview, conversation.model].some((field) =>
            field?.toLowerCase().includes(search),
          ),
        );
  const conversations = limit !== undefined ? matching.slice(0, limit) : matching;
  if (options.json) {
    io.stdout.write(
      `${terminalSafeJson(
        conversations.map(({ filePath: _filePath, ...rest }) => rest),
        2,
      )}\n`,
    );
    return ExitCode.ok;
  }
  const elsewhere = all.length - inScope.length;
  const more = elsewhere > 0 ? `${elsewhere} more in other workspaces: cody list --all\n` : '';
  if (conversations.length === 0) {
    io.stdout.write(
      (search !== undefined
        ? `No conversation matches '${options.search ?? ''}'.\n`
        : elsewhere > 0
          ? `No conversation in ${sanitizeForTerminal(root)}.\n`
          : 'No saved conversations. Start one with: cody new (or just cody chat "hello")\n') + more,
    );
    return ExitCode.ok;
  }
  const active = readActiveId(paths);
  const prefixes = uniquePrefixes(all.map((conversation) => conversation.id));
  const width = terminalWidth(io);
  const now = Date.now();
  const lines = formatRows(
    conversations.map((conversation) => ({
      marker: conversation.id === active ? '*' : ' ',
      id: prefixes.get(conversation.id) ?? conversation.id,
      when: relativeTime(conversation.updatedAt, now),
      model: conversation.model,
      messages: conversation.messageCount === undefined ? '–' : String(conversation.messageCount),
      text: sanitizeForTerminal(
        conversation.problem
          ? `(${conversation.problem})`
          : (conversation.title ?? conversation.preview ?? ''),
      ),
      ...(options.all === true
        ? { workspace: sanitizeForTerminal(workspaceLabel(conversation.cwd, io)) }
        : {}),
    })),
    width,
  );
  // One write: a thousand small writes to a pipe cost more than the listing itself.
  io.stdout.write(`${lines.join('\n')}\n${more}`);
  return ExitCode.ok;
}

interface Row {
  marker: string;
  id: string;
  when: string;
  model: string;
  messages: string;
  text: string;
  /** `cody list --all`: where the conversation was started (`~` for the home directory). */
  workspace?: string;
}

function workspaceLabel(cwd: string | undefined, io: Io): string {
  if (cwd === undefined) return '?';
  const home = io.env.HOME;
  return home !== undefined && home !== '' && (cwd === home || cwd.startsWith(`${home}/`))
    ? `~${cwd.slice(home.length)}`
    : cwd;
}

/** The terminal's width; unlimited when stdout is not a terminal and COLUMNS is not set. */
function terminalWidth(io: Io): number {
  if (io.stdout.isTTY === true && io.stdout.columns !== undefined && io.stdout.columns > 0)
    return io.stdout.columns;
  const fromEnv = Number(io.env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Number.POSITIVE_INFINITY;
}

/**
 * Columns sized to their content; the model column shrinks, then goes, before the title does; on a very
 * narrow terminal the message count and the time go too, so a (truncated) title always remains.
 */
export function formatRows(rows: readonly Row[], width: number): string[] {
  const header: Row = {
    marker: ' ',
    id: 'ID',
    when: 'UPDATED',
    model: 'MODEL',
    messages: 'MSGS',
    text: 'TITLE',
    ...(rows.some((row) => row.workspace !== undefined) ? { workspace: 'WORKSPACE' } : {}),
  };
  const table = [header, ...rows];
  let workspaceWidth = 0;
  if (header.workspace !== undefined)
    for (const row of table)
      workspaceWidth = Math.min(32, Math.max(workspaceWidth, row.workspace?.length ?? 0));
  // One pass for every column's width (a thousand rows are listed on every `cody list`).
  let idWidth = 0;
  let whenWidth = 0;
  let messagesWidth = 0;
  let widestModel = 0;
  for (const row of table) {
    idWidth = Math.max(idWidth, row.id.length);
    whenWidth = Math.max(whenWidth, row.when.length);
    messagesWidth = Math.max(messagesWidth, row.messages.length);
    widestModel = Math.max(widestModel, row.model.length);
  }
  // Narrow terminals: the model goes first, then the message count, then the time; the title stays.
  const minTitle = 12;
  let showMessages = true;
  let showWhen = true;
  const fixedWidth = (): number =>
    2 +
    idWidth +
    2 +
    (showWhen ? whenWidth + 2 : 0) +
    (showMessages ? messagesWidth + 2 : 0) +
    (workspaceWidth > 0 ? workspaceWidth + 2 : 0);
  const minText = 24;
  let modelWidth = Math.min(widestModel, 24);
  if (fixedWidth() + modelWidth + 2 + minText > width)
    modelWidth = Math.max(0, width - fixedWidth() - minText - 2);
  // Shrunk below 8 a model name says nothing; a column whose widest name is shorter stays whole.
  if (modelWidth < Math.min(8, widestModel)) modelWidth = 0;
  if (modelWidth === 0 && width - fixedWidth() < minTitle) showMessages = false;
  if (modelWidth === 0 && width - fixedWidth() < minTitle) showWhen = false;
  const textWidth = width - fixedWidth() - (modelWidth > 0 ? modelWidth + 2 : 0);
  return table.map((row) => {
    const model = modelWidth > 0 ? `${truncate(row.model, modelWidth).padEnd(modelWidth)}  ` : '';
    const when = showWhen ? `${row.when.padEnd(whenWidth)}  ` : '';
    const messages = showMessages ? `${row.messages.padStart(messagesWidth)}  ` : '';
    const workspace =
      workspaceWidth > 0
        ? `${truncateStart(row.workspace ?? '', workspaceWidth).padEnd(workspaceWidth)}  `
        : '';
    const line =
      `${row.marker} ${row.id.padEnd(idWidth)}  ${when}${model}` +
      `${messages}${workspace}${truncate(row.text, Math.max(1, textWidth))}`;
    return truncate(line.trimEnd(), width);
  });
}

/** The end of a path is what tells workspaces apart: cut from the start. */
function truncateStart(text: string, width: number): string {
  return text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;
}

function truncate(text: string, width: number): string {
  if (!Number.isFinite(width) || text.length <= width) return text;
  return width <= 1 ? '…' : `${text.slice(0, width - 1)}…`;
}

/**
 * The shortest prefix of each id that no other id starts with (at least 8 characters, never ending in a
 * dash), so `cody resume <prefix>` works with what the list shows.
 */
export function uniquePrefixes(ids: readonly string[]): Map<string, string> {
  const sorted = [...ids].sort();
  const result = new Map<string, string>();
  sorted.forEach((id, index) => {
    const shared = (other: string | undefined): number => {
      if (other === undefined) return 0;
      let length = 0;
      while (length < id.length && id[length] === other[length]) length += 1;
      return length;
    };
    let length = Math.max(8, shared(sorted[index - 1]) + 1, shared(sorted[index + 1]) + 1);
    if (id[length - 1] === '-') length += 1;
    result.set(id, id.slice(0, Math.min(length, id.length)));
  });
  return result;
}

/** "just now", "5m ago", "3h ago", "yesterday", "4d ago", then the date. */
export function relativeTime(iso: string, now: number): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days}d ago`;
  const date = new Date(time);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export type { ConversationSummary };
