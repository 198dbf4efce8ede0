/**
 * What a shell command line reaches, for the approval policy: the paths outside the workspace it may
 * change or work in (`escapes`), the paths outside it reads (`readsOutside`), whether every part of it
 * is a read-only command from the safe list with its paths inside (`safe`), or why it cannot be checked
 * (`unparsable`). Static and conservative: a path whose value is unknown (`$HOME`, `~user`, a brace
 * expansion, the input of `xargs`) counts as outside.
 */
import { isAbsolute } from 'node:path';
import { parseShell, type ShellRedirect, type ShellWord } from './shell-parse.js';
import { safeByRule, SHELLS, WRAPPERS } from './safe-commands.js';
import { resolvePhysical, type Workspace } from './workspace.js';

export interface CommandAnalysis {
  /** Why the command line cannot be checked (command substitution, a subshell…). */
  unparsable?: string;
  /** Paths outside the workspace (or of unknown value) the command may change, run or work in. */
  escapes: string[];
  /** Paths outside the workspace the command reads. */
  readsOutside: string[];
  /** Every part is a read-only command of the safe list, with every path inside the workspace. */
  safe: boolean;
}

export interface AnalysisOptions {
  workspace: Workspace;
  /** Real directory the command starts in. */
  cwd: string;
  /** The safe list: `ls`, `git status`… (a program, optionally with its subcommand). */
  safeCommands: readonly string[];
  home?: string;
  /** False once the repository's git config changed during the session: git commands are not safe. */
  trustGitConfig?: boolean;
}

/** Programs whose operands are all paths they change. */
const WRITERS = new Set(
  'rm rmdir mv tee chmod chown chgrp touch mkdir truncate unlink shred mkfifo mknod'.split(' '),
);
/** Programs that read every operand but the last, which they write (`cp a b dir/`). */
const COPIERS = new Set(['cp', 'ln', 'install', 'rsync', 'scp']);
/** Programs whose operands are paths they only read. */
const READERS = new Set(
  'cat head tail wc ls stat file du tree diff cmp nl less more sort uniq cut od xxd hexdump strings md5sum sha1sum sha256sum sha512sum base64 jq realpath readlink basename dirname tac rev column fold fmt paste comm join tr expand unexpand'.split(
    ' ',
  ),
);
/** grep-like programs: their first operand is a pattern, not a path. */
const GREPS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag']);
/** Programs and builtins that take no paths. */
const NO_PATHS = new Set(
  'echo printf pwd true false : sleep which type date whoami uname hostname id export unset set exit return wait jobs alias history test [ [['.split(
    ' ',
  ),
);
/** Reserved words that only introduce the command after them. */
const LEADING_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'time']);
const CLOSING_KEYWORDS = new Set(['fi', 'done', 'esac', '}', ']]']);
/** Devices a command may name freely. */
const DEVICES = /^\/dev\/(null|zero|u?random|tty|stdin|stdout|stderr|fd\/\d+)$/;
const GIT_READS = new Set([
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
const MAX_NESTING = 4;

/** Analyses one command line (see the module comment). */
export function analyseCommand(command: string, options: AnalysisOptions, depth = 0): CommandAnalysis {
  const parsed = parseShell(command);
  if (!parsed.ok) return { unparsable: parsed.reason, escapes: [], readsOutside: [], safe: false };
  const analysis = new Analysis(options, depth);
  for (const simple of parsed.commands) {
    const before = analysis.cwd;
    analysis.redirects(simple.redirects);
    analysis.command(simple.words);
    // A command in a pipeline runs in a subshell: its `cd` changes nothing after it.
    if (simple.piped) analysis.cwd = before;
  }
  return analysis.result();
}

class Analysis {
  cwd: string | undefined;
  private readonly escapes = new Set<string>();
  private readonly reads = new Set<string>();
  private safe = true;
  private unparsable: string | undefined;

  constructor(
    private readonly options: AnalysisOptions,
    private readonly depth: number,
  ) {
    this.cwd = options.cwd;
  }

  result(): CommandAnalysis {
    if (this.unparsable !== undefined)
      return { unparsable: this.unparsable, escapes: [], readsOutside: [], safe: false };
    const escapes = [...this.escapes];
    const readsOutside = [...this.reads];
    const safe = this.safe && escapes.length === 0 && readsOutside.length === 0;
    return { escapes, readsOutside, safe };
  }

  redirects(redirects: readonly ShellRedirect[]): void {
    for (const { op, target } of redirects) {
      if (op === '<<' || op === '<<<') continue;
      if ((op === '>&' || op === '<&') && /^([0-9]+-?|-)$/.test(target.text)) continue;
      if (op === '<') {
        this.path(target, 'read');
        continue;
      }
      // `2>/dev/null` keeps a read-only command read-only; any other output file does not.
      if (!target.dynamic && DEVICES.test(target.text)) continue;
      this.safe = false;
      this.path(target, 'write');
    }
  }

  /** One simple command's words (assignments, keywords and wrappers seen through). */
  command(all: readonly ShellWord[]): void {
    const words = [...all];
    while (words[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0].text)) {
      // `GIT_EXTERNAL_DIFF=… git diff`: a variable can make a read-only command run anything.
      this.safe = false;
      words.shift();
    }
    while (words[0] && LEADING_KEYWORDS.has(words[0].text)) words.shift();
    const first = words[0];
    if (first === undefined || CLOSING_KEYWORDS.has(first.text)) return;
    if (first.text === 'for') return; // `for x in …`: the list is words, not commands.
    if (first.dynamic) {
      this.safe = false;
      this.escapes.add(first.text);
      return;
    }
    if (!safeByRule(words, this.options.safeCommands, this.options.trustGitConfig)) this.safe = false;
    this.program(words);
  }

  private program(words: readonly ShellWord[]): void {
    const name = basename(words[0]?.text ?? '');
    const args = words.slice(1);
    if (WRAPPERS.has(name)) return this.wrapped(name, args);
    if (SHELLS.has(name)) return this.shell(args);
    if (name === 'eval') return this.nested(args.map((word) => word.text).join(' '));
    if (name === 'xargs') return this.xargs(args);
    if (name === 'cd' || name === 'pushd') return this.cd(args);
    if (name === 'popd') {
      this.cwd = undefined;
      return;
    }
    if (name === 'find') return this.find(args);
    if (name === 'git') return this.git(args);
    if (NO_PATHS.has(name)) return;
    if (WRITERS.has(name)) return this.operands(args, 'write');
    if (COPIERS.has(name)) return this.copy(args);
    if (name === 'dd') return this.dd(args);
    if (READERS.has(name)) return this.operands(args, 'read');
    if (GREPS.has(name)) return this.operands(withoutPattern(args), 'read');
    // Any other program: whatever of its arguments looks like a path may be written.
    for (const word of args) {
      const value = optionValue(word) ?? word;
      if (looksLikePath(value)) this.path(value, 'write');
    }
  }

  /** `env`, `nice`, `timeout`, `sudo`…: the command after their options. */
  private wrapped(name: string, args: readonly ShellWord[]): void {
    let index = 0;
    const valued = name === 'timeout' ? /^-[sk]$/ : name === 'nice' ? /^-n$/ : /^-[uCgpU]$/;
    while (index < args.length) {
      const text = args[index]?.text ?? '';
      if (valued.test(text)) index += 2;
      else if (text.startsWith('-') || (name === 'env' && text.includes('='))) index += 1;
      else if (name === 'timeout' && /^[0-9.]+[smhd]?$/.test(text)) index += 1;
      else break;
    }
    if (index < args.length) this.program(args.slice(index));
  }

  private shell(args: readonly ShellWord[]): void {
    const flag = args.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.text));
    const script = flag >= 0 ? args[flag + 1] : undefined;
    if (script === undefined) return this.operands(args, 'write');
    if (script.dynamic) this.escapes.add(script.text);
    else this.nested(script.text);
  }

  private nested(script: string): void {
    this.safe = false;
    if (this.depth >= MAX_NESTING) {
      this.unparsable = 'it nests shells too deeply';
      return;
    }
    const inner = analyseCommand(
      script,
      { ...this.options, cwd: this.cwd ?? this.options.cwd },
      this.depth + 1,
    );
    if (inner.unparsable !== undefined) this.unparsable = inner.unparsable;
    for (const path of inner.escapes) this.escapes.add(path);
    for (const path of inner.readsOutside) this.reads.add(path);
    if (this.cwd === undefined) this.escapes.add('the directory of an earlier popd');
  }

  private xargs(args: readonly ShellWord[]): void {
    let index = 0;
    while (index < args.length && (args[index]?.text ?? '').startsWith('-')) {
      const flag = args[index]?.text ?? '';
      index += /^-[IdELnPsa]$/.test(flag) ? 2 : 1;
    }
    const program = args.slice(index);
    const name = basename(program[0]?.text ?? 'echo');
    // Its operands come from its input, which this analysis cannot see.
    if (!READERS.has(name) && !GREPS.has(name) && !NO_PATHS.has(name))
      this.escapes.add(`the input of xargs ${name}`);
    if (program.length > 0) this.program(program);
  }

  private cd(args: readonly ShellWord[]): void {
    const target = args.find((word) => !word.text.startsWith('-') || word.text === '-');
    if (target === undefined || target.text === '-') {
      this.escapes.add(target === undefined ? '~ (cd)' : '- (cd)');
      this.cwd = undefined;
      return;
    }
    const real = this.resolve(target);
    if (real === undefined || !this.options.workspace.contains(real)) this.escapes.add(display(target, real));
    this.cwd = real;
  }

  private find(args: readonly ShellWord[]): void {
    let index = 0;
    const roots: ShellWord[] = [];
    while (index < args.length && !/^[-(!)]/.test(args[index]?.text ?? '-'))
      roots.push(args[index++] as ShellWord);
    if (roots.length === 0) roots.push({ text: '.', dynamic: false, glob: false });
    const expression = args.slice(index);
    const deletes = expression.some((word) => word.text === '-delete');
    for (const root of roots) this.path(root, deletes ? 'write' : 'read');
    for (let at = 0; at < expression.length; at += 1) {
      const text = expression[at]?.text ?? '';
      if (/^-(fprint0?|fprintf|fls)$/.test(text) && expression[at + 1])
        this.path(expression[at + 1] as ShellWord, 'write');
      if (!/^-(exec|execdir|ok|okdir)$/.test(text)) continue;
      const end = expression.findIndex(
        (word, position) => position > at && (word.text === ';' || word.text === '+'),
      );
      const command = expression.slice(at + 1, end < 0 ? undefined : end);
      for (const root of roots) this.program(command.map((word) => (word.text === '{}' ? root : word)));
      if (end < 0) break;
      at = end;
    }
  }

  private git(args: readonly ShellWord[]): void {
    let index = 0;
    while (index < args.length && (args[index]?.text ?? '').startsWith('-')) {
      const option = args[index]?.text ?? '';
      const value = option === '-C' || option === '-c' ? args[index + 1] : undefined;
      if (option === '-C' && value) this.path(value, 'write');
      const inline = /^--(git-dir|work-tree)=/.test(option)
        ? optionValue(args[index] as ShellWord)
        : undefined;
      if (inline) this.path(inline, 'write');
      index += value ? 2 : 1;
    }
    const kind = GIT_READS.has(args[index]?.text ?? '') ? 'read' : 'write';
    for (const word of args.slice(index + 1)) {
      const value = optionValue(word) ?? word;
      if (looksLikePath(value)) this.path(value, kind);
    }
  }

  /** `cp a b dest`: the sources are read, the destination written (`-t DIR` names it first). */
  private copy(args: readonly ShellWord[]): void {
    const target = args.findIndex((word) => word.text === '-t' || word.text.startsWith('--target-directory'));
    if (target >= 0) return this.operands(args, 'write');
    const operands = args.filter((word) => !word.text.startsWith('-'));
    const last = operands.at(-1);
    this.operands(
      args.filter((word) => word !== last),
      'read',
    );
    if (last) this.path(last, 'write');
  }

  /** `dd if=… of=…`. */
  private dd(args: readonly ShellWord[]): void {
    for (const word of args) {
      const value = optionValue(word);
      if (value && word.text.startsWith('if=')) this.path(value, 'read');
      else if (value && word.text.startsWith('of=')) this.path(value, 'write');
    }
  }

  /** Every operand (and `--option=value` or `key=value` value) is a path of this kind. */
  private operands(args: readonly ShellWord[], kind: 'read' | 'write'): void {
    let options = true;
    for (const word of args) {
      if (options && word.text === '--') {
        options = false;
        continue;
      }
      if (options && word.text.startsWith('-') && word.text !== '-') {
        const value = optionValue(word);
        if (value && looksLikePath(value)) this.path(value, kind);
        continue;
      }
      const assigned = /^[A-Za-z_]+=/.test(word.text) ? optionValue(word) : undefined;
      this.path(assigned ?? word, kind);
    }
  }

  private path(word: ShellWord, kind: 'read' | 'write'): void {
    if (!word.dynamic && DEVICES.test(word.text)) return;
    const real = this.resolve(word);
    if (real !== undefined && this.options.workspace.contains(real)) return;
    // A read of a known path outside asks like read_file; an unknown value may be anything.
    if (kind === 'read' && real !== undefined) this.reads.add(real);
    else this.escapes.add(display(word, real));
  }

  private resolve(word: ShellWord): string | undefined {
    if (word.dynamic) return undefined;
    let text = word.text;
    if (text === '~' || text.startsWith('~/'))
      text = (this.options.home ?? process.env.HOME ?? '/') + text.slice(1);
    if (word.glob) text = globDirectory(text);
    if (this.cwd === undefined && !isAbsolute(text)) return undefined;
    return resolvePhysical(this.cwd ?? '/', text);
  }
}

function display(word: ShellWord, real: string | undefined): string {
  return real === undefined || real === word.text ? word.text : `${word.text} (${real})`;
}

function basename(program: string): string {
  return program.split('/').at(-1) ?? program;
}

/** The value of `--option=value` (or `key=value`), as a word of its own. */
function optionValue(word: ShellWord): ShellWord | undefined {
  const equals = word.text.indexOf('=');
  return equals < 0 ? undefined : { ...word, text: word.text.slice(equals + 1) };
}

/** Whether a word of an unknown program's arguments may name a path outside the workspace. */
function looksLikePath(word: ShellWord): boolean {
  if (word.dynamic) return true;
  const text = word.text;
  return text.startsWith('/') || text.startsWith('~') || text.split('/').includes('..');
}

/** A grep's arguments without its pattern (the first operand, unless `-e`/`-f` gave it). */
function withoutPattern(args: readonly ShellWord[]): ShellWord[] {
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
function globDirectory(path: string): string {
  const wildcard = path.search(/[*?[]/);
  if (wildcard < 0) return path;
  const slash = path.lastIndexOf('/', wildcard);
  return slash < 0 ? '.' : path.slice(0, slash) || '/';
}
