/**
 * A careful tokenizer for the shell command lines the model asks to run: quotes, `&&`, `||`, `;`, `|`,
 * `&`, newlines, redirections and here-documents. Whatever it cannot see through statically (command
 * substitution `$(…)` or backticks, subshells `( … )`, process substitution, `case`, function
 * definitions, an unterminated quote) makes the whole line unparsable: the caller then asks.
 */

/** One word of a simple command, quotes removed. */
export interface ShellWord {
  text: string;
  /** Holds a parameter expansion (`$HOME`, `${x}`) or a brace expansion: its value is unknown here. */
  dynamic: boolean;
  /** Holds an unquoted `*`, `?` or `[`. */
  glob: boolean;
}

export interface ShellRedirect {
  /** The operator: `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `<<`, `<<<`, `>&`, `<&`. */
  op: string;
  target: ShellWord;
}

export interface SimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Runs in a pipeline with the command before it (so its `cd` changes nothing after it). */
  piped: boolean;
}

export type ParseResult = { ok: true; commands: SimpleCommand[] } | { ok: false; reason: string };

class Unparsable extends Error {}

const OPERATOR_START = ';&|<>';

/** Parses a command line into its simple commands, in order. */
export function parseShell(line: string): ParseResult {
  try {
    return { ok: true, commands: new Tokenizer(line).run() };
  } catch (error) {
    if (error instanceof Unparsable) return { ok: false, reason: error.message };
    throw error;
  }
}

class Tokenizer {
  private index = 0;
  private readonly commands: SimpleCommand[] = [];
  private current: SimpleCommand = { words: [], redirects: [], piped: false };
  private pendingRedirect: string | undefined;
  /** Here-documents whose bodies start at the next newline: [delimiter, strip tabs, quoted]. */
  private readonly heredocs: Array<[string, boolean, boolean]> = [];

  constructor(private readonly line: string) {}

  run(): SimpleCommand[] {
    while (this.index < this.line.length) {
      const char = this.line[this.index] ?? '';
      if (char === ' ' || char === '\t') this.index += 1;
      else if (char === '\n') {
        this.index += 1;
        this.endCommand(false);
        this.readHeredocBodies();
      } else if (char === '#') this.skipComment();
      else if (char === '(' || char === ')') throw new Unparsable('it uses a subshell or a grouping');
      else if (OPERATOR_START.includes(char)) this.operator();
      else this.word();
    }
    if (this.heredocs.length > 0) throw new Unparsable('a here-document has no body');
    this.endCommand(false);
    return this.commands;
  }

  private skipComment(): void {
    while (this.index < this.line.length && this.line[this.index] !== '\n') this.index += 1;
  }

  private endCommand(piped: boolean): void {
    if (this.pendingRedirect !== undefined) throw new Unparsable('a redirection has no target');
    if (this.current.words.length > 0 || this.current.redirects.length > 0) this.commands.push(this.current);
    else if (piped) throw new Unparsable('a pipe has no command before it');
    this.current = { words: [], redirects: [], piped };
  }

  private operator(): void {
    const rest = this.line.slice(this.index);
    const fixed = ['&>>', '&>', '>>', '>|', '>&', '<<<', '<<-', '<<', '<&', '<>', '>', '<'];
    const redirect = fixed.find((op) => rest.startsWith(op));
    if (rest.startsWith('<(') || rest.startsWith('>(')) throw new Unparsable('it uses process substitution');
    if (redirect !== undefined) {
      this.index += redirect.length;
      this.redirectOperator(redirect);
      return;
    }
    if (rest.startsWith(';;')) throw new Unparsable('it uses case');
    const control = ['&&', '||', '|&', ';', '|', '&'].find((op) => rest.startsWith(op)) ?? ';';
    this.index += control.length;
    this.endCommand(control === '|' || control === '|&');
  }

  private redirectOperator(op: string): void {
    if (this.pendingRedirect !== undefined) throw new Unparsable('a redirection has no target');
    this.pendingRedirect = op;
  }

  private word(): void {
    const word = this.readWord();
    const pending = this.pendingRedirect;
    if (pending !== undefined) {
      this.pendingRedirect = undefined;
      if (pending === '<<' || pending === '<<-') {
        this.heredocs.push([word.text, pending === '<<-', word.quoted]);
        this.current.redirects.push({ op: '<<', target: word });
      } else this.current.redirects.push({ op: pending, target: word });
      return;
    }
    // `2>file`, `1>>file`: a word of digits right before a redirection names a file descriptor.
    const next = this.line[this.index] ?? '';
    if (!word.quoted && /^[0-9]+$/.test(word.text) && (next === '>' || next === '<')) return;
    if (this.current.words.length === 0 && !word.quoted && (word.text === '{' || word.text === '}'))
      throw new Unparsable('it uses a command group');
    if (this.current.words.length === 0 && !word.quoted && /^(case|function|select|coproc)$/.test(word.text))
      throw new Unparsable(`it uses ${word.text}`);
    if (!word.quoted && /^[A-Za-z_][A-Za-z0-9_]*\(\)$/.test(word.text))
      throw new Unparsable('it defines a function');
    this.current.words.push({ text: word.text, dynamic: word.dynamic, glob: word.glob });
  }

  private readWord(): ShellWord & { quoted: boolean } {
    let text = '';
    let dynamic = false;
    let glob = false;
    let quoted = false;
    let unquoted = '';
    const start = this.index;
    while (this.index < this.line.length) {
      const char = this.line[this.index] ?? '';
      if (' \t\n'.includes(char) || OPERATOR_START.includes(char) || char === '(' || char === ')') break;
      if (char === '`') throw new Unparsable('it uses command substitution');
      if (char === "'") {
        quoted = true;
        const end = this.line.indexOf("'", this.index + 1);
        if (end < 0) throw new Unparsable('a quote is not closed');
        text += this.line.slice(this.index + 1, end);
        this.index = end + 1;
      } else if (char === '"') {
        quoted = true;
        const inner = this.doubleQuoted();
        text += inner.text;
        dynamic ||= inner.dynamic;
      } else if (char === '\\') {
        const escaped = this.line[this.index + 1];
        this.index += 2;
        if (escaped !== undefined && escaped !== '\n') text += escaped;
        quoted = true;
      } else if (char === '$') {
        if (this.line[this.index + 1] === "'") {
          quoted = true;
          const end = this.line.indexOf("'", this.index + 2);
          if (end < 0) throw new Unparsable('a quote is not closed');
          text += this.line.slice(this.index + 2, end);
          this.index = end + 1;
          dynamic = true;
        } else {
          const expansion = this.expansion();
          text += expansion;
          dynamic ||= expansion !== '$';
        }
      } else {
        if ('*?['.includes(char)) glob = true;
        if (char === '~' && this.index === start) {
          text += '~';
        } else text += char;
        unquoted += char;
        this.index += 1;
      }
    }
    if (/\{[^}]*(,|\.\.)[^}]*\}/.test(unquoted)) dynamic = true;
    const home = !this.line.startsWith('~', start) ? undefined : /^~(\/|$)/.test(text) ? 'home' : 'user';
    if (home === 'user') dynamic = true;
    return { text, dynamic, glob, quoted };
  }

  /** Reads `"…"` (the index at the opening quote); a substitution inside is unparsable. */
  private doubleQuoted(): { text: string; dynamic: boolean } {
    let text = '';
    let dynamic = false;
    this.index += 1;
    while (this.index < this.line.length) {
      const char = this.line[this.index] ?? '';
      if (char === '"') {
        this.index += 1;
        return { text, dynamic };
      }
      if (char === '`') throw new Unparsable('it uses command substitution');
      if (char === '\\') {
        const escaped = this.line[this.index + 1] ?? '';
        text += '"\\$`'.includes(escaped) ? escaped : escaped === '\n' ? '' : `\\${escaped}`;
        this.index += 2;
      } else if (char === '$') {
        const expansion = this.expansion();
        text += expansion;
        dynamic ||= expansion !== '$';
      } else {
        text += char;
        this.index += 1;
      }
    }
    throw new Unparsable('a quote is not closed');
  }

  /** Reads a `$…` expansion (the index at `$`); returns its source text, or `$` for a lone dollar. */
  private expansion(): string {
    const next = this.line[this.index + 1] ?? '';
    if (next === '(') throw new Unparsable('it uses command substitution');
    if (next === '{') {
      const end = this.line.indexOf('}', this.index);
      if (end < 0) throw new Unparsable('a ${…} expansion is not closed');
      const inner = this.line.slice(this.index, end + 1);
      if (inner.includes('$(') || inner.includes('`')) throw new Unparsable('it uses command substitution');
      this.index = end + 1;
      return inner;
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9?#@*!$-])/.exec(this.line.slice(this.index + 1));
    if (!name) {
      this.index += 1;
      return '$';
    }
    this.index += 1 + name[0].length;
    return `$${name[0]}`;
  }

  /** After a newline: skips the bodies of the here-documents opened on the line just ended. */
  private readHeredocBodies(): void {
    while (this.heredocs.length > 0) {
      const [delimiter, stripTabs, quoted] = this.heredocs.shift() ?? ['', false, false];
      for (;;) {
        if (this.index >= this.line.length) throw new Unparsable('a here-document is not closed');
        const end = this.line.indexOf('\n', this.index);
        const bodyLine = this.line.slice(this.index, end < 0 ? undefined : end);
        this.index = end < 0 ? this.line.length : end + 1;
        if ((stripTabs ? bodyLine.replace(/^\t+/, '') : bodyLine) === delimiter) break;
        if (!quoted && (bodyLine.includes('$(') || bodyLine.includes('`')))
          throw new Unparsable('a here-document uses command substitution');
      }
    }
  }
}
