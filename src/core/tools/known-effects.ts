/**
 * Which commands Cody can show stay in the workspace without a sandbox: programs whose every effect is
 * known (they read or change the paths they are given, and shell-analysis checks every one of those),
 * called without the options that add an effect (`sort --compress-program`, `sed 's/x/y/w file'`,
 * `printf -v PATH`). Everything else, however ordinary, may run code Cody cannot follow: an interpreter
 * (`python3 -c`, `node -e`, `awk`), a shell (`bash -c`, a here-document fed to `sh`), a wrapper that runs
 * another program (`env`, `setsid`, `xargs`, `timeout`), a build or test tool running the repository's
 * own code (`npm test`, `make`), a git command that may run hooks or write config, an archive tool.
 *
 * Also here: the options that make a reading command follow symbolic links while it recurses (`grep -R`,
 * `rg -L`, `find -L`), which take it through a link out of the workspace.
 */
import { isAbsolute } from 'node:path';
import type { ShellWord } from './shell-parse.js';
import { DEFAULT_SAFE_COMMANDS, safeByRule } from './safe-commands.js';
import { isPlainSedScript, sedArguments } from './sed-script.js';

/** Shell builtins that touch no file (their redirections are checked like any other). */
const QUIET_BUILTINS = new Set(['echo', 'pwd', 'true', 'false', ':', 'test', '[', '[[', 'exit', 'return']);
/** Shell words Cody reads itself (shellStateChange says when they change the shell). */
const SHELL_ONLY = new Set(['for', 'printf', 'set', 'cd', 'pushd']);
/** Programs that only read (or list) the paths they are given, and print. */
const READING = new Set(
  'cat head tail wc ls stat file du tree nl sort uniq cut od xxd hexdump strings md5sum sha1sum sha256sum sha512sum base64 printenv realpath readlink basename dirname tac rev column fold fmt paste comm join tr expand unexpand cmp diff grep egrep fgrep rg find which whoami id uname sleep'.split(
    ' ',
  ),
);
/** Programs that create, change or remove the paths they are given, and nothing else. */
const CHANGING = new Set('mkdir touch rm rmdir unlink mv cp tee truncate chmod'.split(' '));
/** Options that add an effect the operands do not show, by program (`*`: any program of the lists above). */
const ADDED_EFFECT: Record<string, RegExp> = {
  '*': /^--files0-from(=|$)/,
  sort: /^--compress-program(=|$)/,
  rg: /^(--pre(-glob)?|--search-zip|-[a-zA-Z]*z[a-zA-Z]*)(=|$)/,
  find: /^-(exec|execdir|ok|okdir)$/,
  file: /^(-f|--files-from)(=|$)/,
  md5sum: /^(-c|--check)$/,
  sha1sum: /^(-c|--check)$/,
  sha256sum: /^(-c|--check)$/,
  sha512sum: /^(-c|--check)$/,
  cp: /^(-[a-zA-Z]*s[a-zA-Z]*|--symbolic-link)$/,
};
/** Variables a shell word may not assign (`for PATH in …`). */
const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/;

export interface EffectContext {
  /** Whether the repository's git config is the one the session started with. */
  trustGitConfig: boolean;
  /** The PATH commands run with (a directory in the workspace there makes any program suspect). */
  pathVariable: string | undefined;
  /** The CDPATH commands run with (it sends `cd name` elsewhere). */
  cdpath: string | undefined;
  /** Whether a physical path is inside the workspace. */
  inside: (path: string) => boolean;
}

/**
 * How this simple command changes what later names mean (a variable assigned by a loop, an expansion,
 * `printf -v`, `set`), or makes a name run something in the workspace (PATH): a read-only command is
 * then no longer safe either. Undefined when it does not.
 */
export function shellStateChange(words: readonly ShellWord[], context: EffectContext): string | undefined {
  const first = words[0];
  if (first === undefined) return undefined;
  const name = first.text;
  const assigning = words.find((word) => /\$\{[^}]*:?=/.test(word.text));
  if (assigning) return `an expansion assigns a variable (${assigning.text})`;
  if (name === 'for') {
    const variable = words[1]?.text ?? '';
    return PLAIN_NAME.test(variable) ? undefined : `the loop assigns ${variable}`;
  }
  if (name === 'printf' && words.some((word) => word.text.startsWith('-v')))
    return 'printf -v assigns a variable';
  if (
    name === 'set' &&
    !words.slice(1).every((word) => /^([-+][a-zA-Z]+|pipefail|errexit|nounset|xtrace)$/.test(word.text))
  )
    return 'set changes the shell';
  if ((name === 'cd' || name === 'pushd') && context.cdpath) return 'CDPATH may send cd elsewhere';
  if (QUIET_BUILTINS.has(name) || SHELL_ONLY.has(name)) return undefined;
  return pathSuspect(context.pathVariable, context.inside);
}

/**
 * Why Cody cannot show every effect of this simple command (words after assignments and keywords);
 * undefined when it can (its paths are then checked by shell-analysis, its shell changes by
 * shellStateChange).
 */
export function unknownEffect(words: readonly ShellWord[], context: EffectContext): string | undefined {
  const first = words[0];
  if (first === undefined) return undefined;
  const name = first.text;
  if (first.dynamic || name.includes('/')) return `it runs a program named by a path or a variable (${name})`;
  if (QUIET_BUILTINS.has(name) || SHELL_ONLY.has(name)) return undefined;
  // `env` alone prints the environment; with a command it runs it.
  if (name === 'env' && words.slice(1).every((word) => /^(-0|--null)$/.test(word.text))) return undefined;
  return programEffect(name, words, context);
}

function programEffect(
  name: string,
  words: readonly ShellWord[],
  context: EffectContext,
): string | undefined {
  const args = words.slice(1);
  if (name === 'git') return gitEffect(words, context.trustGitConfig);
  if (name === 'sed')
    return sedArguments(args).scripts?.every(isPlainSedScript) === true
      ? undefined
      : 'the sed script may write files or run commands';
  if (!READING.has(name) && !CHANGING.has(name)) return `${name} may run code Cody cannot follow`;
  for (const word of optionWords(args)) {
    const rule = ADDED_EFFECT[name];
    if (ADDED_EFFECT['*']?.test(word.text) || rule?.test(word.text))
      return `${name} ${word.text} has effects Cody cannot check`;
    // `-o/tmp/x`: a value glued to a short option is a path Cody does not see.
    // (`cut -d/`, `sort -t/`: a one-character separator is not a path.)
    if (!word.text.startsWith('--') && word.text.includes('/') && !/^-[dt].$/.test(word.text))
      return `${name} ${word.text} names a path Cody does not check`;
  }
  return undefined;
}

/** git: only the reads of the safe list, with no global option, while the repository's config is unchanged. */
function gitEffect(words: readonly ShellWord[], trustGitConfig: boolean): string | undefined {
  if (words[1]?.text.startsWith('-')) return `git ${words[1].text} changes what git reads or where it works`;
  return safeByRule(words, DEFAULT_SAFE_COMMANDS, trustGitConfig)
    ? undefined
    : `git ${words[1]?.text ?? ''} may run hooks, filters or programs from the repository's config`;
}

/** The option words (before `--`). */
function optionWords(args: readonly ShellWord[]): ShellWord[] {
  const end = args.findIndex((word) => word.text === '--');
  return (end < 0 ? args : args.slice(0, end)).filter((word) => word.text.startsWith('-'));
}

/** A PATH entry that is relative or inside the workspace: a program written there would run instead. */
function pathSuspect(
  pathVariable: string | undefined,
  inside: (path: string) => boolean,
): string | undefined {
  for (const directory of (pathVariable ?? '').split(':')) {
    if (directory === '' || !isAbsolute(directory) || inside(directory))
      return `PATH holds ${directory || 'the current directory'}, where a program of the same name may be written`;
  }
  return undefined;
}

/** Link-following options, by program. */
const FOLLOWING: Record<string, RegExp> = {
  grep: /^(-[a-zA-Z]*R[a-zA-Z]*|--dereference-recursive)$/,
  rg: /^(-[a-zA-Z]*L[a-zA-Z]*|--follow)$/,
  ag: /^(-[a-zA-Z]*f[a-zA-Z]*|--follow)$/,
  find: /^(-L|-follow)$/,
  ls: /^(-[a-zA-Z]*L[a-zA-Z]*|--dereference)$/,
  du: /^(-[a-zA-Z]*L[a-zA-Z]*|--dereference)$/,
  cp: /^(-[a-zA-Z]*L[a-zA-Z]*|--dereference)$/,
  tree: /^(-[a-zA-Z]*l[a-zA-Z]*|--follow)$/,
  chmod: /^(-[a-zA-Z]*L[a-zA-Z]*)$/,
  chown: /^(-[a-zA-Z]*L[a-zA-Z]*)$/,
  chgrp: /^(-[a-zA-Z]*L[a-zA-Z]*)$/,
};

/**
 * The option that makes this command follow symbolic links as it walks directories (so a link in the
 * workspace takes it outside), or undefined. `diff -r` follows them unless told `--no-dereference`.
 */
export function linkFollowingOption(words: readonly ShellWord[]): string | undefined {
  const name = words[0]?.text ?? '';
  const program = name === 'egrep' || name === 'fgrep' ? 'grep' : name;
  const args = words.slice(1);
  if (program === 'diff') {
    const recursive = args.find((word) => /^(-[a-zA-Z]*r[a-zA-Z]*|--recursive)$/.test(word.text));
    return recursive && !args.some((word) => word.text === '--no-dereference') ? recursive.text : undefined;
  }
  const rule = FOLLOWING[program];
  if (rule === undefined) return undefined;
  // find's `-L` comes before its paths; its `-follow` anywhere in the expression.
  const candidates = program === 'find' ? args : optionWords(args);
  return candidates.find((word) => rule.test(word.text))?.text;
}

/**
 * Whether the command may create or move a symbolic link (`mv`, `cp -r`/`-a`/`-d`/`-P`): a path the same
 * line names after it may then lead elsewhere than it does now.
 */
export function mayMoveLinks(words: readonly ShellWord[]): boolean {
  const name = words[0]?.text ?? '';
  if (name === 'mv' || name === 'ln') return true;
  if (name !== 'cp') return false;
  return optionWords(words.slice(1)).some((word) =>
    /^(-[a-zA-Z]*[rRadPs][a-zA-Z]*|--recursive|--archive|--no-dereference|--preserve=.*links.*)$/.test(
      word.text,
    ),
  );
}
