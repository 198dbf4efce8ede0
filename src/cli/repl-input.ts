/**
 * What the REPL does with a line before it becomes a message: slash commands (matched exactly; unknown
 * ones answered with a suggestion, never sent), Tab completion of commands and paths, `@path` mentions
 * that attach a file's content, and `!command` lines the person runs themselves.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Completion } from './tty/line-editor.js';
import { attachPastedImages, isImageFile } from './repl-images.js';
import { closestMatch } from './suggest.js';
import { completeSlashArgument } from './slash-arguments.js';

export const SLASH_COMMANDS: ReadonlyArray<[string, string]> = [
  ['/help', 'this list'],
  ['/status', 'provider, model, context used, compactions'],
  ['/model', '/model NAME: switch the model for this conversation'],
  ['/provider', '/provider NAME [API]: switch provider (Tab lists them) for this conversation'],
  ['/resume', 'pick a recent conversation (type to search)'],
  ['/new', 'start a new conversation'],
  ['/fork', '/fork [N]: continue in a copy of this conversation (up to user turn N)'],
  ['/compact', '/compact [focus]: summarise older history now'],
  ['/approval', '/approval [read-only|ask|auto-edit|full-auto]: what tool calls may do without asking'],
  ['/reasoning', '/reasoning [off|minimal|low|medium|high]: how hard the model thinks'],
  ['/undo', '/undo [N] [--force]: take back the last N turns that changed files (later edits kept)'],
  ['/diff', '/diff [TURN]: what a turn changed, as a unified diff (default: the last)'],
  ['/export', '/export [md|json|html] [FILE]: write this conversation out'],
  ['/expand', "show the last turn's thinking and tool output in full"],
  ['/plan', "the model's current plan (update_plan), as a checklist"],
  ['/hooks', 'the hooks that run here; trust the workspace’s .cody/hooks.json'],
  ['/clear', 'clear the screen and start a new conversation'],
  ['/id', 'print this conversation’s id'],
  ['/exit', 'leave (also Ctrl-D)'],
];

export type SlashParse =
  | { kind: 'command'; name: string; argument: string }
  | { kind: 'unknown'; name: string; suggestion: string | undefined };

/** `/name rest`; undefined when the line is not a slash command (e.g. a path like /etc/hosts with a space). */
export function parseSlash(line: string): SlashParse | undefined {
  const match = /^\/(\S*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  const name = `/${match[1] ?? ''}`;
  if (SLASH_COMMANDS.some(([command]) => command === name) || name === '/quit')
    return { kind: 'command', name: name === '/quit' ? '/exit' : name, argument: (match[2] ?? '').trim() };
  // A path ("/tmp/x is empty, why?") is a message, not a command.
  if (name.slice(1).includes('/')) return undefined;
  const names = SLASH_COMMANDS.map(([command]) => command.slice(1));
  const close = closestMatch(name.slice(1), names);
  return { kind: 'unknown', name, suggestion: close === undefined ? undefined : `/${close}` };
}

/**
 * /help: the built-in commands (with Cody's built-in prompt commands such as `/init`), then the user's
 * own (`[/name, description]`).
 */
export function helpText(
  own: ReadonlyArray<[string, string]> = [],
  builtIn: ReadonlyArray<[string, string]> = [],
): string {
  const width = Math.max(...[...SLASH_COMMANDS, ...builtIn, ...own].map(([name]) => name.length));
  const lines = [...SLASH_COMMANDS, ...builtIn].map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
  const ownLines = own.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
  return [
    'Commands:',
    ...lines,
    ...(ownLines.length > 0 ? ['Your commands ($CODY_HOME/prompts, .cody/prompts):', ...ownLines] : []),
    'Keys: Enter sends · Shift+Enter, Alt+Enter, Ctrl+J or a trailing \\ for a new line · ↑/↓ history · Ctrl-R search',
    '      Tab completes commands and paths · @path attaches a file (an image as an image) · !cmd runs a shell command',
    '      Alt-D deletes the next word, Ctrl-W the previous · Ctrl-Z suspends (fg resumes)',
    '      Esc or Ctrl-C stops a reply · Ctrl-C clears the prompt; twice on an empty prompt quits',
    '',
  ].join('\n');
}

/**
 * Tab: slash commands at the start of the line, their argument's values after them, otherwise the path
 * under the cursor (after an @ too).
 */
export function completeInput(
  buffer: string,
  cursor: number,
  cwd: string,
  own: ReadonlyArray<[string, string]> = [],
): Completion | undefined {
  const before = buffer.slice(0, cursor);
  if (/^\/\S*$/.test(before)) {
    const all = [...SLASH_COMMANDS, ...own];
    return {
      start: 0,
      options: all.map(([name]) => name).filter((name) => name.startsWith(before)),
      descriptions: Object.fromEntries(own),
    };
  }
  // A slash command's argument: its values (an unknown command's or a FILE argument: paths below).
  const argument = before.startsWith('/') ? completeSlashArgument(before) : undefined;
  if (argument !== undefined) return argument;
  const word = /(?:^|\s)@?([^\s@]*)$/.exec(before);
  if (!word) return undefined;
  const typed = word[1] ?? '';
  const start = cursor - typed.length;
  const directoryPart = typed.endsWith('/')
    ? typed
    : dirname(typed) === '.' && !typed.startsWith('./')
      ? ''
      : `${dirname(typed)}/`;
  const namePart = typed.endsWith('/') ? '' : basename(typed);
  let entries: string[];
  try {
    entries = readdirSync(resolve(cwd, directoryPart || '.'), { withFileTypes: true })
      .filter(
        (entry) =>
          entry.name.startsWith(namePart) && (namePart.startsWith('.') || !entry.name.startsWith('.')),
      )
      .map((entry) => `${directoryPart}${entry.name}${entry.isDirectory() ? '/' : ''}`)
      .sort();
  } catch {
    return undefined;
  }
  return { start, options: entries };
}

/** Largest file an @mention attaches. */
export const MENTION_MAX_BYTES = 100 * 1024;

/**
 * Appends the content of each `@path` that names a readable file (at most `MENTION_MAX_BYTES` each); an
 * image (PNG, JPEG, GIF or WebP by its bytes) is not appended but returned in `images` (absolute paths),
 * to go with the message as an image. Returns the message, one note per mention for the person and one
 * warning per mention that names no file (the message is still sent, with the mention as plain text).
 */
export function attachMentions(
  text: string,
  cwd: string,
): { message: string; notes: string[]; warnings: string[]; images: string[] } {
  const images: string[] = [];
  const notes: string[] = [];
  const warnings: string[] = [];
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const path = (match[1] ?? '').replace(/[.,;:!?)]+$/, '');
    if (seen.has(path)) continue;
    seen.add(path);
    const full = resolve(cwd, path);
    let size: number;
    try {
      const info = statSync(full);
      if (!info.isFile()) continue;
      size = info.size;
    } catch {
      warnings.push(`@${path}: no such file here; sent as plain text, nothing attached`);
      continue;
    }
    if (isImageFile(full)) {
      images.push(full);
      notes.push(`attached image @${path} (${size} bytes)`);
      continue;
    }
    if (size > MENTION_MAX_BYTES) {
      notes.push(
        `@${path} not attached: ${Math.round(size / 1024)} KiB is over the ${MENTION_MAX_BYTES / 1024} KiB limit`,
      );
      continue;
    }
    const content = readFileSync(full, 'utf8');
    const longest = Math.max(2, ...Array.from(content.matchAll(/`+/g), (run) => run[0].length));
    const fence = '`'.repeat(longest + 1);
    blocks.push(`${path}:\n${fence}\n${content.replace(/\n$/, '')}\n${fence}`);
    notes.push(`attached @${path} (${size} bytes)`);
  }
  return {
    message: blocks.length === 0 ? text : `${text}\n\n${blocks.join('\n\n')}`,
    notes,
    warnings,
    images,
  };
}

/** What a line sends: pasted image paths and `@` mentions attached (see attachPastedImages, attachMentions). */
export function withAttachments(
  text: string,
  cwd: string,
): { message: string; notes: string[]; warnings: string[]; images: string[] } {
  const pasted = attachPastedImages(text, cwd);
  const mentioned = attachMentions(pasted.message, cwd);
  return {
    message: mentioned.message,
    notes: [...pasted.notes, ...mentioned.notes],
    warnings: mentioned.warnings,
    images: [...pasted.images, ...mentioned.images],
  };
}
