/**
 * The user's own slash commands: Markdown files in `$CODY_HOME/prompts/` and `<workspace>/.cody/prompts/`
 * (`review.md` → `/review`; the project's override the user's; none shadows a built-in command), plus
 * Cody's own `/init`. A message whose first word is `/name` (no further `/`: `/usr/bin is…` is a path,
 * so a message) is a command: expanded here, for every front end alike, or refused when unknown.
 */
import { readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { readOwnFile, RefusedFileError } from '../fs/index.js';
import { findGitRoot } from '../tools/index.js';

export interface PromptCommand {
  /** Without the slash. */
  name: string;
  description?: string;
  /** The file it comes from; absent for Cody's own. */
  path?: string;
  scope: 'user' | 'project' | 'cody';
  body: string;
  /** Why its file is not read (a FIFO, a device, a link out of the workspace, too large): it cannot run. */
  refused?: string;
}

/** The largest prompt file read: a prompt is a page or two, and the whole of it is sent. */
export const MAX_PROMPT_COMMAND_BYTES = 64 * 1024;

/**
 * Names no prompt file can take: the REPL's built-in commands (a REPL test holds its list to this one)
 * and `init`, which Cody provides.
 */
export const RESERVED_COMMAND_NAMES: readonly string[] = [
  'help',
  'status',
  'model',
  'provider',
  'resume',
  'new',
  'fork',
  'compact',
  'approval',
  'reasoning',
  'undo',
  'diff',
  'export',
  'expand',
  'clear',
  'id',
  'exit',
  'quit',
  'plan',
  'hooks',
  'init',
];

const INIT_PROMPT = `Write an AGENTS.md file at the root of this repository for coding agents that will work on it. Look around first (the README, the build and test configuration, the source layout), then describe in a page or two: what the project is, how to build, test and lint it (exact commands), the code layout, and the conventions a change must follow. If an AGENTS.md exists already, improve it rather than starting over. Use your file tools to write it.`;

const INIT: PromptCommand = {
  name: 'init',
  description: 'ask the model to write an AGENTS.md for this repository',
  scope: 'cody',
  body: INIT_PROMPT,
};

const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Every command available in `cwd`, by name: Cody's, then the user's, then the project's (which win). */
export async function loadPromptCommands(home: string, cwd: string): Promise<Map<string, PromptCommand>> {
  const realCwd = await realpath(cwd).catch(() => cwd);
  const workspace = findGitRoot(realCwd) ?? realCwd;
  const commands = new Map<string, PromptCommand>([[INIT.name, INIT]]);
  for (const [directory, scope] of [
    [join(home, 'prompts'), 'user'],
    [join(workspace, '.cody', 'prompts'), 'project'],
  ] as const) {
    // The user's own files may link anywhere (dotfiles); the project's stay in the workspace.
    const root = scope === 'project' ? workspace : undefined;
    for (const command of await readDirectory(directory, scope, root)) {
      // A file that cannot be read never hides one that can.
      if (command.refused === undefined || !commands.has(command.name)) commands.set(command.name, command);
    }
  }
  return commands;
}

async function readDirectory(
  directory: string,
  scope: 'user' | 'project',
  root: string | undefined,
): Promise<PromptCommand[]> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.endsWith('.md')).sort();
  } catch {
    return [];
  }
  const commands: PromptCommand[] = [];
  for (const file of names) {
    const name = file.slice(0, -'.md'.length);
    if (!COMMAND_NAME.test(name) || RESERVED_COMMAND_NAMES.includes(name.toLowerCase())) continue;
    const path = join(directory, file);
    try {
      const read = await readOwnFile(path, {
        maxBytes: MAX_PROMPT_COMMAND_BYTES,
        ...(root !== undefined ? { root } : {}),
      });
      if (!read) continue;
      const { description, body } = parseFrontMatter(read.bytes.toString('utf8'));
      commands.push({ name, path, scope, body, ...(description !== undefined ? { description } : {}) });
    } catch (error) {
      // There but not read: kept, so using it says why. Unreadable otherwise: not a command.
      if (error instanceof RefusedFileError)
        commands.push({ name, path, scope, body: '', refused: error.message });
    }
  }
  return commands;
}

/** `---\ndescription: …\n---\n` at the top of the file, if there. */
export function parseFrontMatter(text: string): { description?: string; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { body: text };
  const body = text.slice(match[0].length);
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const field = /^description:\s*(.*)$/.exec(line);
    if (field) {
      const description = (field[1] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
      return description === '' ? { body } : { description, body };
    }
  }
  return { body };
}

/** `$ARGUMENTS` → everything after the command; `$1`…`$9` → its words ("quoted words" kept whole). */
export function expandPromptBody(body: string, argumentsText: string): string {
  const words = splitWords(argumentsText);
  return body.replace(/\$(ARGUMENTS|[1-9])/g, (_whole, key: string) =>
    key === 'ARGUMENTS' ? argumentsText : (words[Number(key) - 1] ?? ''),
  );
}

function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

export type SlashMessage =
  | { kind: 'message' }
  | { kind: 'command'; command: PromptCommand; text: string }
  | { kind: 'unknown'; name: string }
  | { kind: 'refused'; name: string; reason: string };

/** `/name rest` at the start of the message (a path such as `/usr/bin …` is not a command). */
export function parseCommandMessage(text: string): { name: string; argumentsText: string } | undefined {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1] ?? '', argumentsText: (match[2] ?? '').trim() };
}

/** What a message is: plain text, a command (with its expansion) or an unknown command. */
export function resolveSlashMessage(
  text: string,
  commands: ReadonlyMap<string, PromptCommand>,
): SlashMessage {
  const parsed = parseCommandMessage(text);
  if (!parsed) return { kind: 'message' };
  const command = commands.get(parsed.name);
  if (!command) return { kind: 'unknown', name: parsed.name };
  if (command.refused !== undefined) return { kind: 'refused', name: parsed.name, reason: command.refused };
  return { kind: 'command', command, text: expandPromptBody(command.body, parsed.argumentsText).trim() };
}
