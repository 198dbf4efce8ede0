/**
 * What makes a shell command ask whatever the policy: destructive or workspace-escaping commands (a
 * documented, configurable list of patterns, plus structural checks on `rm` and redirections), and the
 * "command prefix" an "always" answer remembers for the session.
 */
import type { Workspace } from './workspace.js';

/** A pattern that makes a command always ask, with the reason shown to the person. */
export interface DangerousCommand {
  pattern: string;
  reason: string;
}

/**
 * The default list (config `dangerousCommands` replaces it). Each pattern is a JavaScript regular
 * expression matched against the whole command line.
 */
export const DEFAULT_DANGEROUS_COMMANDS: readonly DangerousCommand[] = [
  { pattern: String.raw`(^|[\s;&|(\x60])(sudo|su|doas|pkexec)(\s|$)`, reason: 'runs as another user' },
  {
    pattern: String.raw`\bgit\s+push\b[^;&|]*(\s--force\b|\s--force-with-lease\b|\s-[a-zA-Z]*f\b|\s\+\S)`,
    reason: 'force-pushes',
  },
  { pattern: String.raw`\bgit\s+reset\s+[^;&|]*--hard\b`, reason: 'discards uncommitted changes' },
  { pattern: String.raw`\bgit\s+clean\s+[^;&|]*-[a-zA-Z]*f`, reason: 'deletes untracked files' },
  {
    pattern: String.raw`\b(curl|wget|fetch)\b[^;&]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b`,
    reason: 'pipes a download into a shell',
  },
  { pattern: String.raw`\bmkfs(\.\w+)?\b`, reason: 'formats a file system' },
  { pattern: String.raw`\bdd\b[^;&|]*\bof=/dev/`, reason: 'writes to a device' },
  { pattern: String.raw`>\s*/dev/(sd|nvme|hd|disk)`, reason: 'writes to a device' },
  { pattern: String.raw`\b(shutdown|reboot|halt|poweroff)\b`, reason: 'stops the machine' },
  { pattern: String.raw`:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}`, reason: 'is a fork bomb' },
  {
    pattern: String.raw`\bchmod\s+-[a-zA-Z]*R[a-zA-Z]*\s+[0-7]*7{2}\s+/`,
    reason: 'opens permissions recursively',
  },
];

/** Shells whose `-c` argument is itself a command line. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'busybox']);
/** How deep `bash -c "sh -c '…'"` is followed before the command is treated as dangerous. */
const MAX_NESTING = 4;

/**
 * Why this command must ask whatever the policy, or undefined when nothing marks it. A command line
 * handed to a shell (`bash -c '…'`, `sh -lc "…"`) or to `eval` is checked as a command line of its own,
 * so a wrapper hides nothing; pipes, `&&`, `;` and wrappers such as `env`, `xargs`, `nice` or `timeout`
 * are seen through because every word of the line is checked.
 */
export function dangerReason(
  command: string,
  workspace: Workspace,
  patterns: readonly DangerousCommand[] = DEFAULT_DANGEROUS_COMMANDS,
  depth = 0,
): string | undefined {
  if (depth > MAX_NESTING) return 'the command nests shells too deeply to check';
  const own = ownDangerReason(command, workspace, patterns);
  if (own !== undefined) return own;
  for (const script of nestedScripts(splitWords(command))) {
    const nested = dangerReason(script, workspace, patterns, depth + 1);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/** The command lines run by `<shell> … -c SCRIPT` and `eval ARGS…` within these words. */
function nestedScripts(words: readonly string[]): string[] {
  const scripts: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const program = (words[index] ?? '').split('/').at(-1) ?? '';
    if (program === 'eval') scripts.push(argumentsOf(words, index + 1).join(' '));
    if (!SHELLS.has(program)) continue;
    const rest = argumentsOf(words, index + 1);
    const flag = rest.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word));
    const script = flag >= 0 ? rest[flag + 1] : undefined;
    if (script !== undefined) scripts.push(script);
  }
  return scripts;
}

function ownDangerReason(
  command: string,
  workspace: Workspace,
  patterns: readonly DangerousCommand[],
): string | undefined {
  for (const entry of patterns) {
    let regex: RegExp;
    try {
      regex = new RegExp(entry.pattern);
    } catch {
      continue;
    }
    if (regex.test(command)) return `the command ${entry.reason}`;
  }
  const words = splitWords(command);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (word === 'rm' || word.endsWith('/rm')) {
      for (const argument of argumentsOf(words, index + 1)) {
        if (argument.startsWith('-')) continue;
        const target = expandHome(argument);
        if (target === undefined)
          return `the command deletes ${argument}, which may be outside the workspace`;
        if (outside(globDirectory(target), workspace))
          return `the command deletes ${argument}, outside the workspace (or the workspace itself)`;
      }
    }
    if ((word === '>' || word === '>>' || word === '1>' || word === '2>') && words[index + 1] !== undefined) {
      const target = expandHome(words[index + 1] ?? '');
      if (target !== undefined && target !== '/dev/null' && outside(target, workspace))
        return `the command writes to ${words[index + 1] ?? ''}, outside the workspace`;
    }
  }
  return undefined;
}

/**
 * The words an "always" answer remembers: the program and, when the next word looks like a subcommand
 * (`npm test`, `git status`), that word too. Undefined for compound commands (pipes, `&&`, redirections,
 * substitutions), which are remembered only as the exact command line.
 */
export function commandPrefix(command: string): string | undefined {
  if (hasShellSyntax(command)) return undefined;
  const words = splitWords(command);
  const program = words[0];
  if (program === undefined) return undefined;
  const second = words[1];
  return second !== undefined && /^[A-Za-z0-9][\w:.-]*$/.test(second) ? `${program} ${second}` : program;
}

/** Whether a remembered prefix (or exact compound command) covers this command. */
export function prefixCovers(remembered: string, command: string): boolean {
  if (remembered === command.trim()) return true;
  if (hasShellSyntax(command)) return false;
  const want = remembered.split(' ');
  const words = splitWords(command);
  return want.every((word, index) => words[index] === word);
}

/** Whether the command uses anything beyond one simple command with plain arguments. */
export function hasShellSyntax(command: string): boolean {
  let quote: string | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] ?? '';
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') index += 1;
      else if (quote === '"' && (char === '$' || char === '`')) return true;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    else if (char === '\\') index += 1;
    else if (';&|<>`$\n(){}'.includes(char)) return true;
  }
  return false;
}

/** Splits a command line into words (quotes removed; operators become their own words). */
export function splitWords(command: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: string | undefined;
  const flush = (): void => {
    if (inWord) words.push(current);
    current = '';
    inWord = false;
  };
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] ?? '';
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && index + 1 < command.length) current += command[++index];
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < command.length) {
      current += command[++index];
      inWord = true;
    } else if (/\s/.test(char)) flush();
    else if (';&|<>'.includes(char)) {
      const digitPrefix = /^[0-9]$/.test(current) && char === '>' ? current : '';
      if (digitPrefix === '') flush();
      else {
        current = '';
        inWord = false;
      }
      let operator = digitPrefix + char;
      while (';&|<>'.includes(command[index + 1] ?? 'x') && operator.length < 3) operator += command[++index];
      words.push(operator);
    } else {
      current += char;
      inWord = true;
    }
  }
  flush();
  return words;
}

function argumentsOf(words: readonly string[], start: number): string[] {
  const result: string[] = [];
  for (let index = start; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (/^[;&|<>]/.test(word) || /^[0-9]>/.test(word)) break;
    result.push(word);
  }
  return result;
}

function expandHome(path: string): string | undefined {
  if (path === '~' || path.startsWith('~/')) return (process.env.HOME ?? '/') + path.slice(1);
  if (path.startsWith('~') || path.includes('$')) return undefined;
  return path;
}

function outside(path: string, workspace: Workspace): boolean {
  const real = workspace.resolve(path);
  return !workspace.contains(real) || real === workspace.root;
}

/** The fixed directory part of a path with wildcards (the path itself when it has none). */
function globDirectory(path: string): string {
  const wildcard = path.search(/[*?[]/);
  if (wildcard < 0) return path;
  const slash = path.lastIndexOf('/', wildcard);
  return slash < 0 ? '.' : path.slice(0, slash) || '/';
}
