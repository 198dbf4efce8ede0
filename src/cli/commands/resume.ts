import { sanitizeForTerminal } from '../sanitize.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody resume <id|prefix>`: makes the conversation active for the next `cody chat`. */
export async function runResume(options: { id: string }, io: Io): Promise<number> {
  const context = await createContext(io);
  const resumed = await context.cody.peek(options.id);
  await context.cody.activate(resumed.id);
  const { ranWith, messages, next } = resumed;
  io.stdout.write(`✓ Resumed conversation: ${resumed.id}\n`);
  io.stdout.write(
    `  provider: ${ranWith.provider} (${ranWith.api}) · model: ${ranWith.model} · ${messages} messages in context\n`,
  );
  if (next.api !== ranWith.api || next.model !== ranWith.model) {
    io.stderr.write(
      `Next turn runs with ${next.provider} (${next.apiName}) ${next.model}, the current selection; change it with: cody set-provider\n`,
    );
  }
  for (const warning of resumed.warnings) io.stderr.write(`warning: ${sanitizeForTerminal(warning)}\n`);
  return ExitCode.ok;
}
