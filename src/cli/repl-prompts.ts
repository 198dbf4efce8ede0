/**
 * The user's own slash commands in the REPL (prompt files in `$CODY_HOME/prompts/` and
 * `.cody/prompts/`): their names for Tab completion and /help, read before every prompt (the first one
 * too: they depend only on `$CODY_HOME` and the working directory, not on the conversation still
 * opening), and the expansion shown dimmed before core sends it.
 */
import type { ChalkInstance } from 'chalk';
import type { Conversation, PromptCommand } from '../core/index.js';
import { loadPromptCommands } from '../core/index.js';
import { sanitizeForTerminal } from './sanitize.js';

export class UserCommands {
  private commands: PromptCommand[] = [];

  constructor(
    private readonly home: string,
    private readonly cwd: string,
  ) {}

  /** Reads the commands again (best effort: a failure keeps the last list). */
  async refresh(): Promise<void> {
    try {
      this.commands = [...(await loadPromptCommands(this.home, this.cwd)).values()];
    } catch {
      // An unreadable prompts folder keeps the last list; sending such a command says what is wrong.
    }
  }

  /**
   * `/name` and description of each, for completion and /help: all of them, or only Cody's built-in
   * ones (`/init`) or only yours (prompt files, one of which may replace a built-in).
   */
  entries(which: 'all' | 'built-in' | 'yours' = 'all'): [string, string][] {
    return this.commands
      .filter((command) => which === 'all' || (command.scope === 'cody') === (which === 'built-in'))
      .map((command): [string, string] => [`/${command.name}`, describe(command)])
      .sort(([a], [b]) => a.localeCompare(b));
  }
}

function describe(command: PromptCommand): string {
  const origin = command.scope === 'cody' ? '' : ` (${command.scope})`;
  if (command.refused !== undefined) return `not read: ${sanitizeForTerminal(command.refused)}${origin}`;
  const text = sanitizeForTerminal(command.description ?? 'your prompt').replace(/\s+/g, ' ');
  return `${text}${origin}`;
}

/**
 * A `/name …` line that is no built-in: a prompt file's command (its expansion shown dimmed, then the
 * line is sent and core expands it the same way) or an unknown command (said so; nothing is sent).
 */
export async function userCommandLine(
  conversation: Conversation,
  text: string,
  slash: { name: string; suggestion: string | undefined },
  color: ChalkInstance,
): Promise<{ view: string; send: boolean }> {
  const resolved = await conversation.resolveMessage(text);
  if (resolved.kind === 'command') {
    return {
      view: `${color.dim(sanitizeForTerminal(resolved.text).replace(/\n/g, '\r\n  '))}\r\n`,
      send: true,
    };
  }
  if (resolved.kind === 'refused')
    return {
      view: color.yellow(
        `${slash.name} cannot run: ${sanitizeForTerminal(resolved.reason)} (nothing was sent)\n`,
      ),
      send: false,
    };
  const hint = slash.suggestion ? ` Did you mean ${slash.suggestion}?` : '';
  return {
    view: color.yellow(`Unknown command ${slash.name}.${hint} (/help lists them; nothing was sent)\n`),
    send: false,
  };
}
