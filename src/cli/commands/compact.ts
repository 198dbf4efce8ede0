import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../exit-codes.js';
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
  const abort = new AbortController();
  const onInterrupt = (): void => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  const generator = session.compact(options.focus, abort.signal);
  let step = await generator.next();
  try {
    while (step.done !== true) {
      renderer.handle(step.value);
      step = await generator.next();
    }
  } finally {
    renderer.end();
    process.removeListener('SIGINT', onInterrupt);
  }
  const report = step.value;
  if (options.json) return ExitCode.ok;
  if (report.status === 'compacted') {
    // The same figures as the progress line, the event and `cody show`.
    io.stdout.write(
      `✓ Compacted ${id}: ${formatTokens(report.tokensBefore)} → ${formatTokens(report.tokensAfter)} tokens\n`,
    );
  } else {
    io.stdout.write(`Nothing to compact in ${id}: ${report.reason ?? 'the history is already small'}.\n`);
  }
  return ExitCode.ok;
}
