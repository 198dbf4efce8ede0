/**
 * The program tables and word helpers shell-analysis reads command lines with: which programs read,
 * write or copy their operands, which take none, and how an option's value or a grep's pattern is told
 * from a path.
 */
import type { ShellWord } from './shell-parse.js';

/** Programs whose operands are all paths they change. */
export const WRITERS = new Set(
  'rm rmdir mv tee chmod chown chgrp touch mkdir truncate unlink shred mkfifo mknod'.split(' '),
);
/** Programs that read every operand but the last, which they write (`cp a b dir/`). */
export const COPIERS = new Set(['cp', 'ln', 'install', 'rsync', 'scp']);
/** Programs whose operands are paths they only read. */
export const READERS = new Set(
  'cat head tail wc ls stat file du tree diff cmp nl less more sort uniq cut od xxd hexdump strings md5sum sha1sum sha256sum sha512sum base64 jq realpath readlink basename dirname tac rev column fold fmt paste comm join expand unexpand'.split(
    ' ',
  ),
);
/** grep-like programs: their first operand is a pattern, not a path. */
export const GREPS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag']);
/** Programs and builtins that take no paths. */
export const NO_PATHS = new Set(
  'echo printf pwd true false : sleep tr which type date whoami uname hostname id export unset set exit return wait jobs alias history test [ [['.split(
    ' ',
  ),
);
/** Reserved words that only introduce the command after them. */
export const LEADING_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'time']);
export const CLOSING_KEYWORDS = new Set(['fi', 'done', 'esac', '}', ']]']);
/** Devices a command may name freely. */
export const DEVICES = /^\/dev\/(null|zero|u?random|tty|stdin|stdout|stderr|fd\/\d+)$/;
export const GIT_READS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'branch',
  'blame',
  'grep',
  'ls-files',
  'rev-parse',
]);
/** git's global options that take their value as the next word. */
export const GIT_VALUED = /^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix)$/;

export function basename(program: string): string {
  return program.split('/').at(-1) ?? program;
}

/** The value of `--option=value` (or `key=value`), as a word of its own. */
export function optionValue(word: ShellWord): ShellWord | undefined {
  const equals = word.text.indexOf('=');
  return equals < 0 ? undefined : { ...word, text: word.text.slice(equals + 1) };
}

/** Whether a word of an unknown program's arguments may name a path outside the workspace. */
export function looksLikePath(word: ShellWord): boolean {
  if (word.dynamic) return true;
  const text = word.text;
  return text.startsWith('/') || text.startsWith('~') || text.split('/').includes('..');
}

/** A grep's arguments without its pattern (the first operand, unless `-e`/`-f` gave it). */
export function withoutPattern(args: readonly ShellWord[]): ShellWord[] {
  const result: ShellWord[] = [];
  let patternGiven = args.some((word) => /^(-[a-zA-Z]*[ef]|--regexp|--file)/.test(word.text));
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (word.text === '-e' || word.text === '--regexp') {
      index += 1;
      continue;
    }
    if (!patternGiven && !word.text.startsWith('-')) {
      patternGiven = true;
      continue;
    }
    result.push(word);
  }
  return result;
}

/** The fixed directory part of a path with wildcards. */
export function globDirectory(path: string): string {
  const wildcard = path.search(/[*?[]/);
  if (wildcard < 0) return path;
  const slash = path.lastIndexOf('/', wildcard);
  return slash < 0 ? '.' : path.slice(0, slash) || '/';
}
