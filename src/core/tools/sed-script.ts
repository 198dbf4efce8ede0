/**
 * Whether a sed script only edits the text that passes through it: addresses, then the commands that
 * print, delete, quit, hold or substitute. Anything else (`w`/`W`/`r`/`R` name files, `e` and the `s///e`
 * flag run commands, `{ … }`, `a`/`i`/`c` text, labels) is not understood, so the command counts as one
 * whose effects Cody cannot show.
 */
import type { ShellWord } from './shell-parse.js';

/** A sed command's arguments: its scripts (undefined with `-f FILE`), the files it reads or edits. */
export interface SedArguments {
  scripts: string[] | undefined;
  files: ShellWord[];
  /** `-i`: the files are rewritten. */
  inPlace: boolean;
}

export function sedArguments(args: readonly ShellWord[]): SedArguments {
  const scripts: string[] = [];
  const operands: ShellWord[] = [];
  let fromFile = false;
  let inPlace = false;
  let options = true;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    const text = word.text;
    if (!options || !text.startsWith('-') || text === '-') operands.push(word);
    else if (text === '--') options = false;
    else if (text === '--expression' || /^-[nrEsuz]*e$/.test(text))
      scripts.push(args[(index += 1)]?.text ?? '');
    else if (text.startsWith('--expression=')) scripts.push(text.slice('--expression='.length));
    else if (/^(--file|-[nrEsuz]*f)/.test(text)) fromFile = true;
    else if (/^(-[nrEsuz]*i|--in-place)/.test(text)) inPlace = true;
  }
  if (scripts.length === 0 && !fromFile) scripts.push(operands.shift()?.text ?? '');
  return { scripts: fromFile ? undefined : scripts, files: operands, inPlace };
}

/** Commands with no argument that touch nothing but the pattern and hold spaces and standard output. */
const PLAIN_COMMANDS = new Set('pdqQ=nNPDhHgGxlz'.split(''));
/** The `s` flags that neither write a file (`w`) nor run the result (`e`). */
const SUBSTITUTE_FLAGS = /^[gpiImM0-9]*$/;

/** Whether every command of the script is one of the plain ones above. */
export function isPlainSedScript(script: string): boolean {
  const reader = new ScriptReader(script);
  try {
    while (reader.skipSeparators()) {
      reader.address();
      if (reader.peek() === ',') {
        reader.next();
        reader.address();
      }
      reader.skipBlanks();
      if (reader.peek() === '!') reader.next();
      reader.skipBlanks();
      const command = reader.next();
      if (command === 's') reader.substitute();
      else if (command === 'y') reader.transliterate();
      else if (PLAIN_COMMANDS.has(command)) reader.exitCode(command);
      else return false;
      reader.endOfCommand();
    }
    return true;
  } catch {
    return false;
  }
}

class ScriptReader {
  private index = 0;

  constructor(private readonly script: string) {}

  peek(): string {
    return this.script[this.index] ?? '';
  }

  next(): string {
    const char = this.peek();
    if (char === '') throw new Error('the script ends early');
    this.index += 1;
    return char;
  }

  skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.index += 1;
  }

  /** Skips blanks, `;` and newlines; false at the end of the script. */
  skipSeparators(): boolean {
    while (/^[ \t;\n]$/.test(this.peek())) this.index += 1;
    return this.index < this.script.length;
  }

  /** `12`, `$`, `0~3`, `/re/I`, `\%re%`, or nothing. */
  address(): void {
    const rest = this.script.slice(this.index);
    const fixed = /^(\$|[0-9]+(~[0-9]+)?|\+[0-9]+|~[0-9]+)/.exec(rest);
    if (fixed) {
      this.index += fixed[0].length;
      return;
    }
    if (this.peek() === '/') this.delimited(this.next());
    else if (this.peek() === '\\') {
      this.next();
      this.delimited(this.next());
    } else return;
    while (this.peek() === 'I' || this.peek() === 'M') this.next();
  }

  /** `s/regex/replacement/flags`: no `w` or `e` flag. */
  substitute(): void {
    const delimiter = this.next();
    if (delimiter === '\n' || delimiter === '\\') throw new Error('a bad delimiter');
    this.delimited(delimiter);
    this.delimited(delimiter);
    const flags = /^[a-zA-Z0-9]*/.exec(this.script.slice(this.index))?.[0] ?? '';
    if (!SUBSTITUTE_FLAGS.test(flags)) throw new Error('a flag that writes or runs');
    this.index += flags.length;
  }

  transliterate(): void {
    const delimiter = this.next();
    this.delimited(delimiter);
    this.delimited(delimiter);
  }

  /** `q5`, `Q1`: an exit code. */
  exitCode(command: string): void {
    if (command !== 'q' && command !== 'Q') return;
    this.skipBlanks();
    while (/^[0-9]$/.test(this.peek())) this.next();
  }

  endOfCommand(): void {
    this.skipBlanks();
    const char = this.peek();
    if (char === '' || char === ';' || char === '\n') return;
    if (char === '}' || char === '#') throw new Error('a block or comment');
    throw new Error('text after a command');
  }

  /** Reads up to (and past) the next unescaped delimiter. */
  private delimited(delimiter: string): void {
    for (;;) {
      const char = this.next();
      if (char === '\\') this.next();
      else if (char === delimiter) return;
      else if (char === '\n') throw new Error('a newline inside');
    }
  }
}
