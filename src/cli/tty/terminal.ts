/**
 * The terminal in raw mode for the REPL: keys are parsed and handed to whoever listens now (the prompt,
 * the running turn, an approval question). Bracketed paste is switched on while Cody runs, and every way
 * out (normal exit, error, signal) restores the terminal: cooked mode, paste mode off, cursor shown.
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

export class RawTerminal {
  private readonly parser = new KeyParser();
  private listener: ((key: Key) => void) | undefined;
  private resizeListener: (() => void) | undefined;
  private started = false;
  private readonly onData = (chunk: Buffer | string): void => {
    for (const key of this.parser.parse(typeof chunk === 'string' ? chunk : chunk.toString('utf8'))) {
      this.listener?.(key);
    }
  };
  private readonly onResize = (): void => this.resizeListener?.();
  private readonly restoreOnExit = (): void => this.stop();
  /** SIGTERM/SIGHUP would end the process without 'exit' handlers: restore first, then end as the signal. */
  private readonly restoreOnSignal = (signal: NodeJS.Signals): void => {
    this.stop();
    process.exit(signal === 'SIGHUP' ? 129 : 143);
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
    this.input.setRawMode?.(true);
    this.input.setEncoding?.('utf8');
    this.input.on('data', this.onData);
    this.input.resume();
    this.output.on?.('resize', this.onResize);
    this.output.write('\u001b[?2004h');
    process.once('exit', this.restoreOnExit);
    process.once('SIGTERM', this.restoreOnSignal);
    process.once('SIGHUP', this.restoreOnSignal);
  }

  /** Keys go to `listener` until another one is set. */
  listen(listener: ((key: Key) => void) | undefined): void {
    this.listener = listener;
  }

  onResizeEvent(listener: (() => void) | undefined): void {
    this.resizeListener = listener;
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.output.write('\u001b[?2004l\u001b[?25h');
    this.input.removeListener('data', this.onData);
    this.output.removeListener?.('resize', this.onResize);
    this.input.setRawMode?.(false);
    this.input.pause();
    process.removeListener('exit', this.restoreOnExit);
    process.removeListener('SIGTERM', this.restoreOnSignal);
    process.removeListener('SIGHUP', this.restoreOnSignal);
  }
}
