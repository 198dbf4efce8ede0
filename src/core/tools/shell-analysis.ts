/**
 * What a shell command line reaches, for the approval policy: the paths outside the workspace it may
 * change or work in (`escapes`), the paths outside it reads (`readsOutside`), whether every part of it
 * is a read-only command from the safe list with its paths inside (`safe`), whether every part is a
 * program whose every effect Cody knows with its paths inside (`staysInside`, known-effects.ts), or why
 * it cannot be checked (`unparsable`). A wildcard is checked against what it matches now. Static and conservative: a path whose value is unknown (`$HOME`, `~user`, a brace
 * expansion, the input of `xargs`) counts as outside.
 */
import { isAbsolute } from 'node:path';
import { globMatches } from './glob-paths.js';
import { linkFollowingOption, mayMoveLinks, shellStateChange, unknownEffect } from './known-effects.js';
import { parseShell, type ShellRedirect, type ShellWord } from './shell-parse.js';
import { safeByRule, SHELLS, WRAPPERS } from './safe-commands.js';
import { sedArguments } from './sed-script.js';
import {
  basename,
  CLOSING_KEYWORDS,
  COPIERS,
  DEVICES,
  GIT_READS,
  GIT_VALUED,
  globDirectory,
  GREPS,
  LEADING_KEYWORDS,
  looksLikePath,
  NO_PATHS,
  optionValue,
  READERS,
  withoutPattern,
  WRITERS,
} from './shell-words.js';
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
  /**
   * Every part is a program whose every effect Cody knows (known-effects.ts), with every path inside
   * the workspace: what full-auto runs unasked without a sandbox.
   */
  staysInside: boolean;
  /** Why Cody cannot show the command stays inside (absent when it can, or when paths are the reason). */
  leaves?: string;
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
  /** The environment commands run with (its PATH and CDPATH); default process.env. */
  environment?: Readonly<Record<string, string | undefined>>;
}

const MAX_NESTING = 4;

/** Analyses one command line (see the module comment). */
export function analyseCommand(command: string, options: AnalysisOptions, depth = 0): CommandAnalysis {
  const parsed = parseShell(command);
  if (!parsed.ok) return unparsableLine(parsed.reason);
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
  private leaves: string | undefined;
  /** An earlier command may have created or moved a symbolic link: later paths may lead elsewhere. */
  private linksMoved = false;

  constructor(
    private readonly options: AnalysisOptions,
    private readonly depth: number,
  ) {
    this.cwd = options.cwd;
  }

  result(): CommandAnalysis {
    if (this.unparsable !== undefined) return unparsableLine(this.unparsable);
    const escapes = [...this.escapes];
    const readsOutside = [...this.reads];
    const inside = escapes.length === 0 && readsOutside.length === 0;
    const safe = this.safe && inside;
    const leaves = this.leaves !== undefined ? { leaves: this.leaves } : {};
    return { escapes, readsOutside, safe, staysInside: inside && this.leaves === undefined, ...leaves };
  }

  /** Notes the first reason the line may leave the workspace. */
  private leave(why: string): void {
    this.leaves ??= why;
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
      // `GIT_EXTERNAL_DIFF=… git diff`, `PATH=./shim`: a variable can make any command run anything.
      this.safe = false;
      this.leave(`it sets ${words[0].text.split('=')[0] ?? ''}`);
      words.shift();
    }
    while (words[0] && LEADING_KEYWORDS.has(words[0].text)) words.shift();
    const first = words[0];
    if (first === undefined || CLOSING_KEYWORDS.has(first.text)) return;
    this.effects(words);
    if (first.text === 'for') return; // `for x in …`: the list is words, not commands.
    if (first.dynamic) {
      this.safe = false;
      this.escapes.add(first.text);
      return;
    }
    if (!safeByRule(words, this.options.safeCommands, this.options.trustGitConfig)) this.safe = false;
    this.program(words);
  }

  /** Whether Cody knows every effect of this command, and whether it follows links out as it recurses. */
  private effects(words: readonly ShellWord[]): void {
    const environment = this.options.environment ?? process.env;
    const context = {
      trustGitConfig: this.options.trustGitConfig ?? true,
      pathVariable: environment.PATH,
      cdpath: environment.CDPATH,
      inside: (path: string) => this.options.workspace.contains(resolvePhysical('/', path)),
    };
    const state = shellStateChange(words, context);
    if (state !== undefined) {
      this.safe = false;
      this.leave(state);
    }
    const unknown = unknownEffect(words, context);
    if (unknown !== undefined) this.leave(unknown);
    // `grep -R`, `find -L`: a link anywhere below takes it out of the workspace, like a read outside.
    const following = linkFollowingOption(words);
    if (following !== undefined)
      this.reads.add(`what ${words[0]?.text ?? ''} ${following} reaches through symbolic links`);
    if (this.linksMoved)
      this.leave('an earlier command may create or move a symbolic link, so later paths cannot be checked');
    if (mayMoveLinks(words)) this.linksMoved = true;
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
    if (name === 'sed') return this.sed(args);
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
      const separate = GIT_VALUED.test(option) ? args[index + 1] : undefined;
      const inline = /^--(git-dir|work-tree)=/.test(option)
        ? optionValue(args[index] as ShellWord)
        : undefined;
      const value = separate ?? inline;
      if (value && /^(-C|--git-dir|--work-tree)/.test(option)) this.path(value, 'write');
      index += separate ? 2 : 1;
    }
    const kind = GIT_READS.has(args[index]?.text ?? '') ? 'read' : 'write';
    // Every operand that may name a file is checked (`git diff --no-index a docs/b`); `HEAD:path` names
    // a blob in the repository, not a file.
    for (const word of args.slice(index + 1)) {
      const value = word.text.startsWith('-') ? optionValue(word) : word;
      if (value === undefined || word.text === '--') continue;
      if (!value.dynamic && value.text.includes(':') && !looksLikePath(value)) continue;
      this.path(value, kind);
    }
  }

  /** `sed SCRIPT FILE…`, `sed -e SCRIPT -i FILE…`: the files are read, or rewritten with `-i`. */
  private sed(args: readonly ShellWord[]): void {
    const { files, inPlace } = sedArguments(args);
    for (const file of files) this.path(file, inPlace ? 'write' : 'read');
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
    if (word.glob && !word.dynamic) this.globbed(word, kind);
    const real = this.resolve(word);
    if (real !== undefined && this.options.workspace.contains(real)) return;
    // A read of a known path outside asks like read_file; an unknown value may be anything.
    if (kind === 'read' && real !== undefined) this.reads.add(real);
    else this.escapes.add(display(word, real));
  }

  /** Each path a wildcard word matches now is checked like one written out (glob-paths.ts). */
  private globbed(word: ShellWord, kind: 'read' | 'write'): void {
    const text = this.expandHome(word.text);
    if (this.cwd === undefined && !isAbsolute(text)) return;
    const matches = globMatches(this.cwd ?? '/', text);
    if (matches === undefined) {
      this.safe = false;
      this.leave(`${word.text} matches too many paths to check`);
      return;
    }
    for (const match of matches) this.path({ text: match, dynamic: false, glob: false }, kind);
  }

  private expandHome(text: string): string {
    if (text !== '~' && !text.startsWith('~/')) return text;
    return (this.options.home ?? process.env.HOME ?? '/') + text.slice(1);
  }

  private resolve(word: ShellWord): string | undefined {
    if (word.dynamic) return undefined;
    let text = this.expandHome(word.text);
    if (word.glob) text = globDirectory(text);
    if (this.cwd === undefined && !isAbsolute(text)) return undefined;
    return resolvePhysical(this.cwd ?? '/', text);
  }
}

function unparsableLine(reason: string): CommandAnalysis {
  return { unparsable: reason, escapes: [], readsOutside: [], safe: false, staysInside: false };
}

function display(word: ShellWord, real: string | undefined): string {
  return real === undefined || real === word.text ? word.text : `${word.text} (${real})`;
}
