/**
 * The REPL's status line and notifications (config `statusLine`, `notifications`): the line is drawn
 * under the prompt and refreshed after whatever changes its state (a turn, /model, /approval,
 * /reasoning, /compact, another conversation); the prompt never waits for the command.
 */
import { join } from 'node:path';
import type { SessionEvent } from '../core/index.js';
import type { CommandContext } from './context.js';
import { createNotifier, type NotificationMode } from './notify.js';
import { gitBranchOf, statusInput, type RunTotals, type StatusInput } from './status-line/status-input.js';
import { StatusLine } from './status-line/status-line.js';
import { CLI_VERSION } from './version.js';
import type { Conversation } from '../core/index.js';

/** Where the status line is drawn while a prompt waits (the prompt's editor), and how a warning is said. */
export interface StatusSurface {
  setFooter(line: string | undefined): void;
  /** Prints a line above the prompt, which is drawn again below it. */
  printAbove(text: string): void;
}

export class ReplStatus {
  readonly notify: (message: string) => void;
  private readonly line: StatusLine | undefined;
  private readonly totals: RunTotals = { inputTokens: 0, outputTokens: 0, turnMs: 0 };
  private surface: StatusSurface | undefined;
  private readonly warnings: string[] = [];
  private readonly context: CommandContext;
  private readonly cwd: string;

  private readonly session: () => Conversation | undefined;

  /** `session`: the REPL's open conversation (undefined until the first one has opened). */
  constructor(
    context: CommandContext,
    cwd: string,
    terminal: { write(text: string): void },
    session: () => Conversation | undefined,
  ) {
    this.context = context;
    this.session = session;
    this.cwd = cwd;
    const config = context.config;
    const mode: NotificationMode = config.notifications ?? 'auto';
    this.notify = createNotifier(mode, process.env, (text) => terminal.write(text));
    this.line =
      config.statusLine === undefined
        ? undefined
        : new StatusLine({
            command: config.statusLine.command,
            cwd,
            env: process.env,
            ...(config.statusLine.timeoutMs !== undefined ? { timeoutMs: config.statusLine.timeoutMs } : {}),
            ...(config.shellEnvironment !== undefined ? { policy: config.shellEnvironment } : {}),
            warn: (message) => this.warn(message),
          });
  }

  /** The line to draw under the next prompt (undefined: no `statusLine` configured). */
  footer(): string | undefined {
    const session = this.session();
    if (this.line === undefined || session === undefined) return undefined;
    return this.line.current(this.input(session));
  }

  /** Draws on `surface` from now on (undefined: the prompt is gone); says the warnings kept meanwhile. */
  attach(surface: StatusSurface | undefined): void {
    this.surface = surface;
    for (const warning of this.warnings.splice(0)) surface?.printAbove(warning);
    this.line?.onChange(surface === undefined ? undefined : (line) => surface.setFooter(line));
  }

  /** Runs the command again if the state of `session` (the open one) changed; never waited for. */
  refresh(session = this.session()): void {
    if (session !== undefined) void this.line?.refresh(this.input(session));
  }

  /** The turn's events, passed on, with its usage and cost counted into the run's totals. */
  async *count(events: AsyncIterable<SessionEvent>): AsyncIterable<SessionEvent> {
    const started = Date.now();
    try {
      for await (const event of events) {
        if (event.type === 'turn-complete') {
          this.totals.inputTokens += event.usage?.inputTokens ?? 0;
          this.totals.outputTokens += event.usage?.outputTokens ?? 0;
          if (event.costUsd !== undefined) this.totals.costUsd = (this.totals.costUsd ?? 0) + event.costUsd;
        }
        yield event;
      }
    } finally {
      this.totals.turnMs += Date.now() - started;
    }
  }

  private input(session: Conversation): StatusInput {
    const status = session.status();
    const branch = gitBranchOf(this.cwd);
    return statusInput({
      status,
      transcriptPath: join(this.context.paths.conversationsDir, `${status.id}.jsonl`),
      cwd: this.cwd,
      projectDir: this.cwd,
      version: CLI_VERSION,
      ...(branch !== undefined ? { gitBranch: branch } : {}),
      totals: { ...this.totals },
    });
  }

  private warn(message: string): void {
    const text = `⚠ ${message}`;
    if (this.surface !== undefined) this.surface.printAbove(text);
    else this.warnings.push(text);
  }
}
