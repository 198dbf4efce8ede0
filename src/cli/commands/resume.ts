import { sanitizeForTerminal } from '../sanitize.js';
import { recordedSelectionOf, resolveConversationSelection } from '../../core/selection/index.js';
import { countMessages } from '../../core/store/index.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody resume <id|prefix>`: makes the conversation active for the next `cody chat`. */
export async function runResume(options: { id: string }, io: Io): Promise<number> {
  const context = await createContext(io);
  const resumed = await context.manager.resumeConversation(options.id);
  await context.manager.setActive(resumed.id);
  const ranWith = resumed.lastTurnContext ?? resumed.meta;
  const messages = countMessages(resumed.history);
  io.stdout.write(`✓ Resumed conversation: ${resumed.id}\n`);
  io.stdout.write(
    `  provider: ${ranWith.provider} (${ranWith.api}) · model: ${ranWith.model} · ${messages} messages in context\n`,
  );
  const next = resolveConversationSelection({
    recorded: recordedSelectionOf(resumed),
    config: context.config,
  });
  if (next.api !== ranWith.api || next.model !== ranWith.model) {
    io.stderr.write(
      `Next turn runs with ${next.provider} (${next.apiName}) ${next.model}, the current selection; change it with: cody set-provider\n`,
    );
  }
  for (const warning of resumed.warnings) io.stderr.write(`warning: ${sanitizeForTerminal(warning)}\n`);
  return ExitCode.ok;
}
