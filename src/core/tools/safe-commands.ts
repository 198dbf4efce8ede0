/**
 * The read-only commands that run without asking under `ask` and `auto-edit` (config `safeCommands`
 * replaces the list), and the argument rules that keep them read-only whatever the list says: `find`
 * without `-exec`/`-delete`, `rg` without `--pre`, `git` without `-c` or `--output`, `git branch` only
 * listing, and `git` only while the repository's config is the one the session started with. Whether
 * their paths stay inside the workspace is checked by shell-analysis.
 */
import type { ShellWord } from './shell-parse.js';

/** The default safe list: a program, or a program and its subcommand. */
export const DEFAULT_SAFE_COMMANDS: readonly string[] = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'find',
  'pwd',
  'echo',
  'git status',
  'git log',
  'git diff',
  'git show',
  'git branch',
  'stat',
  'file',
  'tree',
  'du',
  'which',
];

/** Programs that run the command after their own options. */
export const WRAPPERS = new Set([
  'env',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'command',
  'builtin',
  'exec',
  'time',
  'sudo',
  'doas',
]);

/** Shells whose `-c` argument is itself a command line. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'busybox']);

const FIND_ACTIONS = /^-(exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls)$/;
const BRANCH_LISTING =
  /^(-a|--all|-r|--remotes|-v|-vv|--verbose|-l|--list|--show-current|--no-color|--color(=\w+)?|--sort=.*|--merged|--no-merged|--contains|--no-contains|--format=.*|--column|--no-column)$/;

/**
 * Whether a simple command (its words, assignments and keywords removed) is on the safe list and keeps
 * to its read-only rules. A program named by a path (`./ls`) is never on the list.
 */
export function safeByRule(
  words: readonly ShellWord[],
  safeCommands: readonly string[],
  trustGitConfig = true,
): boolean {
  const texts = words.map((word) => word.text);
  const program = texts[0] ?? '';
  if (program.includes('/') || words[0]?.dynamic === true) return false;
  // `cd` inside the workspace changes nothing by itself (shell-analysis checks where it goes).
  if (program === 'cd') return true;
  const listed = safeCommands.some((entry) => {
    const wanted = entry.trim().split(/\s+/);
    return wanted.every((word, index) => texts[index] === word);
  });
  if (program === 'git' && !trustGitConfig) return false;
  return listed && keepsReadOnly(texts);
}

function keepsReadOnly(texts: readonly string[]): boolean {
  const [program, ...args] = texts;
  switch (program) {
    case 'find':
      return !args.some((arg) => FIND_ACTIONS.test(arg));
    case 'rg':
      return !args.some((arg) => arg === '--pre' || arg.startsWith('--pre='));
    case 'git': {
      const [subcommand, ...rest] = args;
      if (subcommand === undefined || subcommand.startsWith('-')) return false;
      if (rest.some((arg) => arg.startsWith('--output') || arg === '--ext-diff')) return false;
      if (subcommand === 'branch') return rest.every((arg) => BRANCH_LISTING.test(arg));
      return true;
    }
    default:
      return true;
  }
}
