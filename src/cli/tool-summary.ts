/**
 * Tool calls as a person wants to read them: one line (the command, the file), a small diff for edits,
 * never the raw JSON of a whole file; tool output folded to a few lines.
 */
import type { FunctionCallItem } from '../protocol/index.js';
import { editDiff, patchDiff, writeDiff } from './diff-view.js';
import { sanitizeForTerminal } from './sanitize.js';

function argsOf(call: FunctionCallItem): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function oneLine(text: string, max = 160): string {
  const flat = sanitizeForTerminal(text.replace(/\s*\n\s*/g, ' ⏎ '));
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length);

/**
 * "$ npm test", "read src/a.ts", "edit src/a.ts (+3 −1)", or the name and its short arguments. A failed
 * call (`failed`) leaves out the line counts: nothing was changed.
 */
export function summarizeToolCall(call: FunctionCallItem, options: { failed?: boolean } = {}): string {
  const args = argsOf(call);
  const counts = (text: string): string => (options.failed === true ? '' : ` ${text}`);
  const text = (key: string): string => (typeof args[key] === 'string' ? (args[key] as string) : '');
  switch (call.name) {
    case 'shell':
      return `$ ${oneLine(text('command') || (Array.isArray(args.command) ? args.command.join(' ') : ''))}`;
    case 'read_file':
      return `read ${oneLine(text('path'))}`;
    case 'list_directory':
      return `list ${oneLine(text('path') || '.')}`;
    case 'write_file':
      return `write ${oneLine(text('path'))}${counts(`(${lineCount(text('content'))} lines)`)}`;
    case 'edit_file':
      return `edit ${oneLine(text('path'))}${counts(`(+${lineCount(text('new_text'))} −${lineCount(text('old_text'))})`)}`;
    case 'apply_patch':
      return `patch ${oneLine(patchFiles(text('input') || text('patch')).join(', '))}`;
    case 'grep':
      return `grep ${oneLine(text('pattern'))}${text('path') ? ` in ${oneLine(text('path'))}` : ''}`;
    case 'glob':
      return `glob ${oneLine(text('pattern'))}`;
    default: {
      const shown = Object.entries(args)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      return `${call.name} ${oneLine(shown, 120)}`;
    }
  }
}

/** The files a patch touches: `app.js`, `new.js (new)`, `old.js (deleted)`. */
function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (Update|Add|Delete) File: (.*)$/gm)].map(
    ([, verb, path]) => `${path ?? ''}${verb === 'Add' ? ' (new)' : verb === 'Delete' ? ' (deleted)' : ''}`,
  );
}

/**
 * The header a shell call's output starts with for the model (how it ended, wall time): the call line
 * says how it ended, so the view leaves it out.
 */
const COMMAND_HEADER =
  /^(?:Exit code: -?\d+|Killed by .*|Aborted by the user; output so far:|Timed out after \d+ ms; the command was killed\. Output so far:)\nWall time: [\d.]+ seconds\nOutput:\n/;

/** A shell call's output without the header written for the model (exit code, wall time). */
export function commandOutput(output: string): string {
  return output.replace(COMMAND_HEADER, '');
}

/** Why a call failed, from its output, as one short line: `no such file: nope.txt`. */
export function failureReason(output: string): string {
  return oneLine((output.split('\n')[0] ?? '').replace(/^Error: /, ''), 120);
}

/**
 * How a call ended, for its call line: `✓ 0.3s`, `✗ exit 2 · 1.2s`, `⏹ stopped · 4.0s`, `✗ timed out ·
 * 10.0s`, and for a failed call that is not a command, why: `✗ no such file: nope.txt` (from `output`).
 */
export function callOutcome(
  call: FunctionCallItem,
  event: { status: string; durationMs: number; exitCode?: number },
  output?: string,
): string {
  const time = `${(event.durationMs / 1000).toFixed(1)}s`;
  if (event.status === 'ok') return `✓ ${time}`;
  if (event.status === 'aborted') return `⏹ stopped · ${time}`;
  if (event.status === 'denied') return '✗ not run';
  if (call.name === 'shell' && output?.startsWith('Timed out after') === true) return `✗ timed out · ${time}`;
  if (event.exitCode !== undefined && event.exitCode !== 0) return `✗ exit ${event.exitCode} · ${time}`;
  if (call.name === 'shell') return `✗ ${time}`;
  return output !== undefined && output.trim() !== '' ? `✗ ${failureReason(output)}` : '✗ failed';
}

/** For an edit: the lines it removes and adds, as a small unified-style diff (at most `max` lines). */
export function diffPreview(call: FunctionCallItem, max = 20): string[] {
  const args = argsOf(call);
  const lines: string[] = [];
  if (call.name === 'edit_file' && typeof args.old_text === 'string' && typeof args.new_text === 'string') {
    lines.push(
      ...editDiff({
        path: typeof args.path === 'string' ? args.path : '',
        old_text: args.old_text,
        new_text: args.new_text,
      }),
    );
  } else if (call.name === 'write_file' && typeof args.content === 'string') {
    lines.push(...writeDiff({ path: typeof args.path === 'string' ? args.path : '', content: args.content }));
  } else if (call.name === 'apply_patch' && typeof args.input === 'string') {
    lines.push(...patchDiff(args.input));
  } else {
    return [];
  }
  const shown = lines.slice(0, max).map((line) => sanitizeForTerminal(line));
  if (lines.length > max) shown.push(`… ${lines.length - max} more lines`);
  return shown;
}

/** The first few lines of a tool's output, and how many were left out. */
export function foldOutput(output: string, keep = 4): { lines: string[]; hidden: number } {
  const all = sanitizeForTerminal(output.replace(/\n+$/, '')).split('\n');
  if (all.length <= keep + 1) return { lines: all, hidden: 0 };
  return { lines: all.slice(0, keep), hidden: all.length - keep };
}
