/**
 * The REPL's status line when the person configured `statusLine`: the command runs after each change of
 * the state it is given (never twice for the same state, never two at once: the latest state waits), and
 * the prompt never waits for it: until its line arrives the previous one stays. A command that fails shows
 * Cody's own line instead, with one warning per run; one that is slow keeps the previous line.
 */
import { runStatusCommand, type StatusCommandOptions, type StatusRun } from './run-status-command.js';
import type { StatusInput } from './status-input.js';

export interface StatusLineOptions extends StatusCommandOptions {
  command: string;
  /** Says a warning once (the REPL prints it above the prompt). */
  warn: (message: string) => void;
  /** Runs the command (the test's stand-in). */
  run?: (command: string, input: unknown, options: StatusCommandOptions) => Promise<StatusRun>;
}

export class StatusLine {
  private line: string | undefined;
  private lastKey: string | undefined;
  private running = false;
  private waiting: StatusInput | undefined;
  private warned = false;
  private listener: ((line: string) => void) | undefined;
  private readonly options: StatusLineOptions;

  constructor(options: StatusLineOptions) {
    this.options = options;
  }

  /** The line to show now: the command's last, or Cody's own until it has one. */
  current(input: StatusInput): string {
    return this.line ?? codyStatusLine(input);
  }

  /** Called with each new line while the prompt shows it (undefined: nobody is listening). */
  onChange(listener: ((line: string) => void) | undefined): void {
    this.listener = listener;
  }

  /** Runs the command for this state unless it ran for the same state already; resolves when it is shown. */
  async refresh(input: StatusInput): Promise<void> {
    const key = JSON.stringify(input);
    if (key === this.lastKey) return;
    this.lastKey = key;
    if (this.running) {
      this.waiting = input;
      return;
    }
    this.running = true;
    try {
      let next: StatusInput | undefined = input;
      while (next !== undefined) {
        this.waiting = undefined;
        await this.runOnce(next);
        next = this.waiting;
      }
    } finally {
      this.running = false;
    }
  }

  private async runOnce(input: StatusInput): Promise<void> {
    const run = this.options.run ?? runStatusCommand;
    const result = await run(this.options.command, input, this.options);
    if (result.kind === 'line') this.line = result.text;
    else {
      const slow = result.reason.startsWith('timed out');
      // A slow command keeps the line it drew last; a failing one gives way to Cody's own.
      if (!slow || this.line === undefined) this.line = codyStatusLine(input);
      if (!this.warned) {
        this.warned = true;
        this.options.warn(
          `statusLine command ${result.reason}: ${slow ? 'the previous line stays' : "Cody's own status line is shown"} (it is tried again at each change)`,
        );
      }
    }
    this.listener?.(this.line);
  }
}

/** Cody's own status line, from the same state: `gpt-5 · 12% context · approval ask`. */
export function codyStatusLine(input: StatusInput): string {
  const parts = [input.model.display_name, `${input.context_percent}% context`];
  if (input.approval_policy !== null) parts.push(`approval ${input.approval_policy}`);
  if (input.reasoning !== null) parts.push(`reasoning ${input.reasoning}`);
  return parts.join(' · ');
}
