/**
 * Project instructions (`AGENTS.md`): the user's own file in `$CODY_HOME`, then one file per directory
 * from the workspace root (git root, else the working directory) down to the working directory, nearer
 * later so they win. Per directory the first of `projectDocs` that exists is taken. Read again at every
 * turn; sent as one contextual user message in Codex's shape (`# AGENTS.md instructions for <cwd>` +
 * `<INSTRUCTIONS>`), which Codex's reader and Cody's (is-contextual-user-text) take as instructions.
 */
import { realpath } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { MessageItem, ResponseItem } from '../../protocol/index.js';
import type { CodyConfig } from '../config/index.js';
import { readOwnFile, RefusedFileError } from '../fs/index.js';
import { findGitRoot } from '../tools/index.js';

export const DEFAULT_PROJECT_DOCS: readonly string[] = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];
export const DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024;
export const INSTRUCTIONS_HEADING = '# AGENTS.md instructions for ';

export interface ProjectDocFile {
  /** Absolute path of the file. */
  path: string;
  /** Its size on disk, in bytes. */
  bytes: number;
  /** `user`: `$CODY_HOME`; `project`: the workspace. */
  scope: 'user' | 'project';
}

export interface ProjectInstructions {
  files: ProjectDocFile[];
  /** The text sent (undefined when no file is in effect). */
  text: string | undefined;
  /** Whether `projectDocMaxBytes` cut the text. */
  truncated: boolean;
  maxBytes: number;
  /** Files there but not read (a FIFO, a device, a link out of the workspace), one line each for the person. */
  warnings: string[];
}

export interface ProjectDocsOptions {
  home: string;
  cwd: string;
  config: Pick<CodyConfig, 'projectDocs' | 'projectDocMaxBytes'>;
}

/** The instruction files in effect for `cwd` and the text to send. */
export async function loadProjectInstructions(options: ProjectDocsOptions): Promise<ProjectInstructions> {
  const names = options.config.projectDocs ?? DEFAULT_PROJECT_DOCS;
  const maxBytes = options.config.projectDocMaxBytes ?? DEFAULT_PROJECT_DOC_MAX_BYTES;
  const cwd = await realpath(options.cwd).catch(() => options.cwd);
  const workspace = findGitRoot(cwd) ?? cwd;
  const found: FoundDoc[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  let budget = maxBytes;
  const take = async (directory: string, scope: 'user' | 'project'): Promise<void> => {
    // The user's own file may be a link anywhere (dotfiles); a workspace's stays in the workspace.
    const root = scope === 'project' ? workspace : undefined;
    const file = await firstFound(directory, names, { root, budget, seen, warnings });
    if (!file) return;
    budget -= file.content.length;
    found.push({ ...file, scope });
  };
  await take(await realpath(options.home).catch(() => options.home), 'user');
  for (const directory of directoriesDown(workspace, cwd)) await take(directory, 'project');
  const files = found.map(({ path, size, scope }) => ({ path, bytes: size, scope }));
  if (found.length === 0) return { files, text: undefined, truncated: false, maxBytes, warnings };
  const sections = found.map((file) => section(file, maxBytes));
  const truncated = found.some((file) => file.truncated);
  const text = `${INSTRUCTIONS_HEADING}${cwd}\n\n<INSTRUCTIONS>\n${sections.join('\n\n')}\n</INSTRUCTIONS>`;
  return { files, text, truncated, maxBytes, warnings };
}

interface FoundDoc {
  path: string;
  /** What was read: at most what was left of `projectDocMaxBytes`. */
  content: Buffer;
  /** Its size on disk. */
  size: number;
  truncated: boolean;
  scope: 'user' | 'project';
}

function section(file: FoundDoc, maxBytes: number): string {
  if (file.truncated && file.content.length === 0)
    return `<!-- ${file.path}: left out, over projectDocMaxBytes (${maxBytes}) -->`;
  const body = file.truncated ? completeCharacters(file.content) : file.content.toString('utf8');
  return (
    `<!-- ${file.path} -->\n${body.trimEnd()}` +
    (file.truncated ? `\n[… cut: instructions are limited to ${maxBytes} bytes (projectDocMaxBytes) …]` : '')
  );
}

/** The contextual user message carrying the instructions. */
export function instructionsMessage(text: string): MessageItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

/** Whether the item is an instructions message (Codex's or Cody's). */
export function isInstructionsMessage(item: ResponseItem): item is MessageItem {
  if (item.type !== 'message' || item.role !== 'user') return false;
  const first = item.content[0];
  return first?.type === 'input_text' && first.text.startsWith(INSTRUCTIONS_HEADING);
}

/** The text of the last instructions message in the history, if any. */
export function lastInstructionsText(history: readonly ResponseItem[]): string | undefined {
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const item = history[index];
    if (item && isInstructionsMessage(item)) {
      return item.content.map((part) => (part.type === 'input_text' ? part.text : '')).join('');
    }
  }
  return undefined;
}

/** The instructions text that says the files in effect earlier are gone. */
export function noInstructionsText(cwd: string): string {
  return `${INSTRUCTIONS_HEADING}${cwd}\n\n<INSTRUCTIONS>\n(no instruction files are in effect any more)\n</INSTRUCTIONS>`;
}

/** From `root` down to `cwd` (just `cwd` when it is not inside `root`). */
function directoriesDown(root: string, cwd: string): string[] {
  const path = relative(root, cwd);
  if (path.startsWith('..') || path.startsWith(sep)) return [cwd];
  const directories = [cwd];
  let current = cwd;
  while (current !== root && dirname(current) !== current) {
    current = dirname(current);
    directories.unshift(current);
  }
  return directories;
}

interface FindOptions {
  root: string | undefined;
  budget: number;
  seen: Set<string>;
  warnings: string[];
}

/**
 * The first of `names` in `directory` (read up to the budget left), or none; a file that is there but
 * may not be read (a FIFO, a device, a link out of the workspace) takes its directory's turn, with a warning.
 */
async function firstFound(
  directory: string,
  names: readonly string[],
  options: FindOptions,
): Promise<Omit<FoundDoc, 'scope'> | undefined> {
  for (const name of names) {
    const path = join(directory, name);
    if (options.seen.has(path)) return undefined;
    try {
      const file = await readOwnFile(path, {
        maxBytes: Math.max(0, options.budget),
        overLimit: 'truncate',
        ...(options.root !== undefined ? { root: options.root } : {}),
      });
      if (!file) continue;
      options.seen.add(path);
      return { path, content: file.bytes, size: file.size, truncated: file.truncated };
    } catch (error) {
      options.seen.add(path);
      if (error instanceof RefusedFileError) {
        options.warnings.push(`Project instructions not read: ${error.message}.`);
        return undefined;
      }
      // Not readable (permissions): the next name.
    }
  }
  return undefined;
}

/** The text of `bytes` without a character the cut left incomplete at its end. */
function completeCharacters(bytes: Buffer): string {
  return new TextDecoder().decode(bytes, { stream: true });
}
