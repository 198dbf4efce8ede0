/**
 * The terminal in raw mode for the REPL: keys are parsed and handed to whoever listens now (the prompt,
 * the running turn, an approval question). Bracketed paste, the kitty keyboard protocol and xterm
 * modifyOtherKeys (so Shift+Enter is told from Enter) are switched on while Cody runs, and every way out
 * (normal exit, error, signal) restores the terminal: cooked mode, those modes off, cursor shown. Ctrl-Z
 * restores it too before the process stops, and `fg` enters the modes again and redraws.
 */
import { KeyParser, type Key } from './keys.js';

export interface RawInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  removeListener(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
  setEncoding?(encoding: BufferEncoding): unknown;
}

export interface TerminalOutput {
  write(text: string): unknown;
  columns?: number;
  rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
  removeListener?(event: 'resize', listener: () => void): unknown;
}

/** Bracketed paste on, kitty keyboard protocol (disambiguate) pushed, modifyOtherKeys level 2. */
export const ENTER_MODES = '\u001b[?2004h\u001b[>1u\u001b[>4;2m';
/** The reverse: modifyOtherKeys reset, kitty flags popped, paste off, cursor shown. */
export const LEAVE_MODES = '\u001b[>4;0m\u001b[<u\u001b[?2004l\u001b[?25h';

export class RawTerminal {
  private readonly parser = new KeyParser();
  private listener: ((key: Key) => void) | undefined;
  /** Keys typed while nobody listened (between turns, before the prompt): kept for the next prompt. */
  private readonly typedAhead: Key[] = [];
  private resizeListener: (() => void) | undefined;
  private started = false;
  private readonly onData = (chunk: Buffer | string): void => {
    for (const key of this.parser.parse(typeof chunk === 'string' ? chunk : chunk.toString('utf8'))) {
      if (key.name === 'ctrl-z') this.suspend();
      else if (this.listener) this.listener(key);
      else this.typedAhead.push(key);
    }
  };
  private readonly onResize = (): void => this.resizeListener?.();
  private readonly restoreOnExit = (): void => this.stop();
  /** SIGTERM/SIGHUP/SIGINT would end the process without 'exit' handlers: restore, then end as the signal. */
  private readonly restoreOnSignal = (signal: NodeJS.Signals): void => {
    this.stop();
    process.exit(signal === 'SIGHUP' ? 129 : 143);
  };
  /** A SIGINT from elsewhere (Ctrl-C here is a key): restore; whoever else listens decides the rest. */
  private readonly restoreOnInterrupt = (): void => {
    this.stop();
    if (process.listenerCount('SIGINT') <= 1) process.exit(130);
  };
  /** Ctrl-Z (a key in raw mode) or a SIGTSTP from elsewhere: the shell gets its terminal back as it was. */
  private readonly suspend = (): void => {
    if (!this.started) return;
    this.leave();
    process.once('SIGCONT', this.onContinue);
    // SIGSTOP cannot be caught: the process stops as the shell expects, and `fg` sends SIGCONT.
    process.kill(process.pid, 'SIGSTOP');
  };
  private readonly onContinue = (): void => {
    if (!this.started) return;
    this.enter();
    this.resizeListener?.();
  };

  constructor(
    private readonly input: RawInput,
    private readonly output: TerminalOutput,
  ) {}

  columns(): number {
    return this.output.columns ?? 80;
  }

  rows(): number {
    return this.output.rows ?? 24;
  }

  write(text: string): void {
    this.output.write(text);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.input.setEncoding?.('utf8');
    this.input.on('data', this.onData);
    this.input.resume();
    this.output.on?.('resize', this.onResize);
    this.enter();
    process.once('exit', this.restoreOnExit);
    process.once('SIGTERM', this.restoreOnSignal);
    process.once('SIGHUP', this.restoreOnSignal);
    process.once('SIGINT', this.restoreOnInterrupt);
    process.on('SIGTSTP', this.suspend);
  }

  private enter(): void {
    this.input.setRawMode?.(true);
    this.output.write(ENTER_MODES);
  }

  private leave(): void {
    this.output.write(LEAVE_MODES);
    this.input.setRawMode?.(false);
  }

  /**
   * Keys go to `listener` until another one is set. With `typedAhead` (a prompt, a turn's type-ahead) it
   * first gets the keys typed while nobody listened, in order, until it stops listening; a listener
   * without it (an approval or yes/no question) never does, so nothing typed before a question answers it.
   */
  listen(listener: ((key: Key) => void) | undefined, options: { typedAhead?: boolean } = {}): void {
    this.listener = listener;
    if (listener === undefined || options.typedAhead !== true) return;
    // One at a time: a key may end the prompt (Enter), and the rest then wait for the next one.
    while (this.listener === listener && this.typedAhead.length > 0) {
      const key = this.typedAhead.shift();
      if (key) listener(key);
    }
  }

  onResizeEvent(listener: (() => void) | undefined): void {
    this.resizeListener = listener;
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.leave();
    this.input.removeListener('data', this.onData);
    this.output.removeListener?.('resize', this.onResize);
    this.input.pause();
    process.removeListener('exit', this.restoreOnExit);
    process.removeListener('SIGTERM', this.restoreOnSignal);
    process.removeListener('SIGHUP', this.restoreOnSignal);
    process.removeListener('SIGINT', this.restoreOnInterrupt);
    process.removeListener('SIGTSTP', this.suspend);
    process.removeListener('SIGCONT', this.onContinue);
  }
}
