import { UsageError } from '../../core/errors.js';
import type { SessionEvent } from '../../core/conversation/session-events.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';
import { createTurnRenderer, formatTokens } from '../render.js';
import { throwing } from '../turn-events.js';

/** `cody compact [--focus]`: the same algorithm as automatic compaction, on demand. */
export async function runCompact(
  options: { conversation?: string; focus?: string; json?: boolean },
  io: Io,
): Promise<number> {
  const context = await createContext(io, { engine: { tools: false } });
  const id = options.conversation
    ? await context.manager.resolveId(options.conversation)
    : await context.manager.getActiveId();
  if (id === undefined)
    throw new UsageError('No active conversation: start one with cody new, or pass --conversation.');
  const conversation = await context.cody.open(id);
  const renderer = createTurnRenderer(io, { json: options.json === true });
  const abort = new AbortController();
  const onInterrupt = (): void => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  let report: Extract<SessionEvent, { type: 'compaction-finished' }> | undefined;
  try {
    for await (const event of throwing(conversation.compact(options.focus, { signal: abort.signal }))) {
      // The compaction's own end: the turn-complete the public API adds is not part of this output.
      if (event.type === 'turn-complete') continue;
      if (event.type === 'compaction-finished') report = event;
      renderer.handle(event);
    }
  } finally {
    renderer.end();
    process.removeListener('SIGINT', onInterrupt);
    await context.dispose();
  }
  if (options.json || report === undefined) return ExitCode.ok;
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
