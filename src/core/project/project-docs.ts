/**
 * Project instructions (`AGENTS.md`): the user's own file in `$CODY_HOME`, then one file per directory
 * from the workspace root (git root, else the working directory) down to the working directory, nearer
 * later so they win. Per directory the first of `projectDocs` that exists is taken. Read again at every
 * turn; sent as one contextual user message in Codex's shape (`# AGENTS.md instructions for <cwd>` +
 * `<INSTRUCTIONS>`), which Codex's reader and Cody's (is-contextual-user-text) take as instructions.
 */
import { readFile, realpath } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { MessageItem, ResponseItem } from '../../protocol/index.js';
import type { CodyConfig } from '../config/index.js';
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
  const found: { path: string; content: Buffer; scope: 'user' | 'project' }[] = [];
  const seen = new Set<string>();
  const take = async (directory: string, scope: 'user' | 'project'): Promise<void> => {
    const file = await firstFound(directory, names);
    if (!file || seen.has(file.path)) return;
    seen.add(file.path);
    found.push({ ...file, scope });
  };
  await take(await realpath(options.home).catch(() => options.home), 'user');
  for (const directory of directoriesDown(findGitRoot(cwd) ?? cwd, cwd)) await take(directory, 'project');
  const files = found.map(({ path, content, scope }) => ({ path, bytes: content.length, scope }));
  if (found.length === 0) return { files, text: undefined, truncated: false, maxBytes };
  let budget = maxBytes;
  let truncated = false;
  const sections: string[] = [];
  for (const file of found) {
    if (budget <= 0) {
      truncated = true;
      sections.push(`<!-- ${file.path}: left out, over projectDocMaxBytes (${maxBytes}) -->`);
      continue;
    }
    const cut = file.content.length > budget;
    const body = cut ? utf8Prefix(file.content, budget) : file.content.toString('utf8');
    budget -= cut ? budget : file.content.length;
    truncated ||= cut;
    sections.push(
      `<!-- ${file.path} -->\n${body.trimEnd()}` +
        (cut ? `\n[… cut: instructions are limited to ${maxBytes} bytes (projectDocMaxBytes) …]` : ''),
    );
  }
  const text = `${INSTRUCTIONS_HEADING}${cwd}\n\n<INSTRUCTIONS>\n${sections.join('\n\n')}\n</INSTRUCTIONS>`;
  return { files, text, truncated, maxBytes };
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

async function firstFound(
  directory: string,
  names: readonly string[],
): Promise<{ path: string; content: Buffer } | undefined> {
  for (const name of names) {
    const path = join(directory, name);
    try {
      return { path, content: await readFile(path) };
    } catch {
      // Not there (or not readable): the next name.
    }
  }
  return undefined;
}

/** The longest prefix of `bytes` of at most `limit` bytes that ends on a character boundary. */
function utf8Prefix(bytes: Buffer, limit: number): string {
  let end = limit;
  // A continuation byte (10xxxxxx) means the cut is inside a character: back up to its start.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}
