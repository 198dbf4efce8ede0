/**
 * How a Cody tool call looks to the editor: its ACP kind, a one-line title, the files it touches
 * (`locations`, absolute) and its arguments (`rawInput`). Pure: the same call gives the same answer live
 * and when a conversation is replayed (session/load).
 */
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { isAbsolute, resolve } from 'node:path';
import type { ToolCallItem } from './core-types.js';

/** What a `tool_call` update says of a call before it runs. */
export interface ToolCallView {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
  rawInput: Record<string, unknown>;
}

/** A file a call changes: where it was (`from`, absent for a new file) and where it ends (absent: deleted). */
export interface FileChange {
  from?: string;
  to?: string;
}

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  list_directory: 'read',
  view_image: 'read',
  grep: 'search',
  glob: 'search',
  shell: 'execute',
  apply_patch: 'edit',
  write_file: 'edit',
  edit_file: 'edit',
  update_plan: 'think',
  web_fetch: 'fetch',
};

/** The call's arguments as an object ({} when the model sent something else). */
export function argumentsOf(call: ToolCallItem): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The kind, title, locations and arguments of a call, paths made absolute against `cwd`. */
export function toolCallView(call: ToolCallItem, cwd: string): ToolCallView {
  const args = argumentsOf(call);
  const changes = call.name === 'apply_patch' ? patchChanges(text(args.input) ?? '') : [];
  const paths =
    call.name === 'apply_patch'
      ? changes.flatMap((change) => [change.to ?? change.from ?? ''].filter((path) => path !== ''))
      : [text(args.path)].filter((path): path is string => path !== undefined);
  return {
    // The model writes the arguments: no control characters (a newline, an escape) reach the editor's title.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    title: titleOf(call.name, args, changes).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' '),
    kind: kindOf(call.name, changes),
    locations: paths.map((path) => ({ path: absolute(path, cwd) })),
    rawInput: args,
  };
}

function kindOf(name: string, changes: readonly FileChange[]): ToolKind {
  if (name === 'apply_patch' && changes.length > 0) {
    if (changes.every((change) => change.to === undefined)) return 'delete';
    if (changes.every((change) => change.from !== undefined && change.to !== change.from)) return 'move';
  }
  return KINDS[name] ?? 'other';
}

function titleOf(name: string, args: Record<string, unknown>, changes: readonly FileChange[]): string {
  const path = text(args.path);
  switch (name) {
    case 'read_file':
      return `Read ${path ?? 'a file'}`;
    case 'list_directory':
      return `List ${path ?? '.'}`;
    case 'view_image':
      return `View ${path ?? 'an image'}`;
    case 'grep':
      return `Search for ${text(args.pattern) ?? '…'}${path ? ` in ${path}` : ''}`;
    case 'glob':
      return `Find ${text(args.pattern) ?? '…'}${path ? ` in ${path}` : ''}`;
    case 'shell':
      return `Run ${text(args.command) ?? 'a command'}`;
    case 'apply_patch':
      return `Edit ${changes.map((change) => change.to ?? change.from).join(', ') || 'files'}`;
    case 'write_file':
      return `Write ${path ?? 'a file'}`;
    case 'edit_file':
      return `Edit ${path ?? 'a file'}`;
    case 'update_plan':
      return 'Update the plan';
    case 'web_fetch':
      return `Fetch ${text(args.url) ?? 'a page'}`;
    default:
      return name;
  }
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** The files a call may change (relative paths as the model gave them); none for a call that changes none. */
export function fileChanges(call: ToolCallItem): FileChange[] {
  const args = argumentsOf(call);
  if (call.name === 'apply_patch') return patchChanges(text(args.input) ?? '');
  const path = text(args.path);
  if ((call.name === 'write_file' || call.name === 'edit_file') && path) return [{ from: path, to: path }];
  return [];
}

/** The files an apply_patch input names: added, deleted, updated (and moved), in order. */
export function patchChanges(patch: string): FileChange[] {
  const changes: FileChange[] = [];
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Add|Delete|Update) File: (.+)$/.exec(line.trimEnd());
    if (header?.[1] && header[2]) {
      const path = header[2].trim();
      if (header[1] === 'Add') changes.push({ to: path });
      else if (header[1] === 'Delete') changes.push({ from: path });
      else changes.push({ from: path, to: path });
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line.trimEnd());
    const last = changes[changes.length - 1];
    if (move?.[1] && last?.from !== undefined) last.to = move[1].trim();
  }
  return changes;
}
