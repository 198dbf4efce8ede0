import { ExitCode, UsageError } from '../../core/errors.js';
import { createContext, openSession } from '../context.js';
import type { Io } from '../io.js';
import { createTurnRenderer, formatTokens } from '../render.js';

/** `cody compact [--focus]`: the same algorithm as automatic compaction, on demand. */
export async function runCompact(
  options: { conversation?: string; focus?: string; json?: boolean },
  io: Io,
): Promise<number> {
  const context = await createContext(io);
  const id = options.conversation
    ? await context.manager.resolveId(options.conversation)
    : await context.manager.getActiveId();
  if (id === undefined)
    throw new UsageError('No active conversation: start one with cody new, or pass --conversation.');
  const session = await openSession(context, id);
  const renderer = createTurnRenderer(io, { json: options.json === true });
  const generator = session.compact(options.focus);
  let step = await generator.next();
  while (step.done !== true) {
    renderer.handle(step.value);
    step = await generator.next();
  }
  renderer.end();
  const outcome = step.value;
  if (outcome.status === 'compacted') {
    if (!options.json) {
      io.stdout.write(
        `✓ Compacted ${id}: ${formatTokens(outcome.tokensBefore)} → ${formatTokens(outcome.tokensAfter)} tokens\n`,
      );
    }
    return ExitCode.ok;
  }
  if (outcome.status === 'noop') {
    if (!options.json) io.stdout.write(`Nothing to compact in ${id}.\n`);
    return ExitCode.ok;
  }
  io.stderr.write(`cody: compaction ${outcome.status}; the history was kept as it was.\n`);
  return ExitCode.failure;
}
