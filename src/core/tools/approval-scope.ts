/**
 * What an "always" answer covers: a stated, narrow scope computed here, in core, so every front end (the
 * REPL, `cody chat`, `cody serve`, the library) names and honours the same one. Never a whole tool:
 * - `shell`: the command's program and subcommand (`git status`); a program Cody knows has no
 *   subcommands, only operands it checks (`touch`, `mkdir`, `cat`), alone; or one exact compound line.
 *   The policy still sees each later call's paths: one reaching outside the workspace asks again;
 * - `write_file` / `edit_file`: the same tool on the same file (`edits to app.js`);
 * - `apply_patch`: patches to the same files (`patches to app.js`);
 * - an external (MCP) tool: the same tool with the same arguments.
 * Deleting a file never gets a scope: it asks every time (unless the policy is full-auto); nor does a
 * change under `.git` or `.cody` (protected-paths.ts): it asks every time whatever the policy.
 */
import { isRecord } from '../../protocol/index.js';
import { parsePatch } from './apply-patch/apply-patch.js';
import { commandPrefix, splitWords } from './command-safety.js';
import { protectedTargets } from './protected-paths.js';
import { GREPS, NO_PATHS, READERS } from './shell-words.js';
import type { AlwaysScope } from './tool-runtime.js';
import type { Workspace } from './workspace.js';

export type { AlwaysScope };

/** A scope and the keys a later call must all have remembered to fall inside it. */
export interface ScopedApproval {
  scope: AlwaysScope;
  keys: readonly string[];
}

/** Programs (and git subcommands) that delete files: never remembered, each run asks again. */
const DELETING_PROGRAMS: ReadonlySet<string> = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'trash']);
const DELETING_GIT: ReadonlySet<string> = new Set(['rm', 'clean']);

/**
 * Programs without subcommands whose operands the shell analysis checks as paths: "always" covers the
 * program (`touch`), not only the line, since their second word is a file, not a subcommand. Those that
 * only read (less a hidden output file: `sort -o`, `uniq in out`), and those that create or write the
 * paths they name; not those that delete or move a file away (no scope, or the narrow one), make links,
 * change owners or copy to another machine.
 */
const PROGRAM_ONLY: ReadonlySet<string> = new Set([
  ...[...READERS, ...GREPS, ...NO_PATHS].filter((program) => program !== 'sort' && program !== 'uniq'),
  ...['touch', 'mkdir', 'chmod', 'cp', 'tee'],
]);

/**
 * The scope an "always" for this call would have, or undefined when it can have none (a deletion, a
 * read, a call whose arguments do not parse). `args` are the call's parsed arguments.
 */
export function alwaysScopeOf(
  tool: string,
  args: Record<string, unknown>,
  workspace: Workspace,
  external: boolean,
): ScopedApproval | undefined {
  if (external)
    return { scope: { kind: 'call', label: `${tool} with these arguments` }, keys: [callKey(tool, args)] };
  switch (tool) {
    case 'shell':
      return typeof args.command === 'string' ? shellScope(args.command) : undefined;
    case 'write_file':
    case 'edit_file': {
      if (typeof args.path !== 'string' || protectedTargets(workspace, [args.path]).length > 0)
        return undefined;
      const what = tool === 'edit_file' ? 'edits to' : 'writes to';
      return {
        scope: { kind: 'file', label: `${what} ${args.path}` },
        keys: [`${tool}:${workspace.resolve(args.path)}`],
      };
    }
    case 'apply_patch':
      return typeof args.input === 'string' ? patchScope(args.input, workspace) : undefined;
    case 'web_fetch':
      return typeof args.url === 'string' ? hostScope(args.url) : undefined;
    default:
      return undefined;
  }
}

/** "Always" for a web page: every fetch from the same host this session. */
function hostScope(url: string): ScopedApproval | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return host === ''
    ? undefined
    : { scope: { kind: 'call', label: `fetches from ${host}` }, keys: [`web_fetch:${host}`] };
}

function shellScope(command: string): ScopedApproval | undefined {
  const line = command.trim();
  if (line === '' || deletes(line)) return undefined;
  const prefix = commandPrefix(line);
  // A compound command (pipes, `&&`, redirections, substitutions) is remembered only as this exact line.
  if (prefix === undefined) return { scope: { kind: 'command', label: line }, keys: [`shell=${line}`] };
  const program = prefix.split(' ')[0] ?? prefix;
  if (PROGRAM_ONLY.has(program))
    return { scope: { kind: 'command', label: program }, keys: [`shell:${program}`] };
  return { scope: { kind: 'command', label: prefix }, keys: [`shell:${prefix}`] };
}

/** Whether any simple command of the line deletes files (`rm`, `git rm`, `git clean`, `find … -delete`). */
function deletes(command: string): boolean {
  const words = splitWords(command);
  return words.some((word, index) => {
    const program = word.split('/').at(-1) ?? '';
    if (DELETING_PROGRAMS.has(program)) return true;
    if (program === 'git' && DELETING_GIT.has(words[index + 1] ?? '')) return true;
    return word === '-delete';
  });
}

function patchScope(input: string, workspace: Workspace): ScopedApproval | undefined {
  let paths: string[];
  try {
    const operations = parsePatch(input);
    // A deleted file, or one moved away from its path, asks every time.
    const away = operations.some(
      (operation) =>
        operation.kind === 'delete' || (operation.kind === 'update' && operation.moveTo !== undefined),
    );
    if (away) return undefined;
    paths = [...new Set(operations.map((operation) => operation.path))];
  } catch {
    return undefined;
  }
  if (paths.length === 0 || protectedTargets(workspace, paths).length > 0) return undefined;
  return {
    scope: { kind: 'file', label: `patches to ${paths.join(', ')}` },
    keys: paths.map((path) => `apply_patch:${workspace.resolve(path)}`),
  };
}

/** The same tool with the same arguments (key order ignored). */
function callKey(tool: string, args: Record<string, unknown>): string {
  return `call:${tool}:${canonical(args)}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Remembered "always" answers of one tool runtime (a session's), by scope key. */
export class ApprovalMemory {
  private readonly keys = new Set<string>();

  remember(scoped: ScopedApproval): void {
    for (const key of scoped.keys) this.keys.add(key);
  }

  /** Whether every key of this call's scope was remembered. */
  covers(scoped: ScopedApproval | undefined): boolean {
    return scoped !== undefined && scoped.keys.every((key) => this.keys.has(key));
  }
}
