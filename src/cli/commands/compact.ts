import { UsageError } from '../../core/index.js';
import type { SessionEvent } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';
import { describeError } from '../report-error.js';
import { terminalSafeJson } from '../sanitize.js';
import { throwing } from '../turn-events.js';
import { dispatchTurn } from '../turn-view/dispatch.js';
import { createPlainView } from '../turn-view/plain-view.js';
import { formatTokens } from '../turn-view/wording.js';

type Finished = Extract<SessionEvent, { type: 'compaction-finished' }>;

/** `cody compact [--focus]`: the same algorithm as automatic compaction, on demand. */
export async function runCompact(
  options: { conversation?: string; focus?: string; json?: boolean },
  io: Io,
): Promise<number> {
  const context = await createContext(io, { engine: { tools: false } });
  const id = options.conversation
    ? await context.cody.resolve(options.conversation)
    : await context.cody.active();
  if (id === undefined)
    throw new UsageError('No active conversation: start one with cody new, or pass --conversation.');
  const conversation = await context.cody.open(id);
  const abort = new AbortController();
  const onInterrupt = (): void => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  let report: Finished | undefined;
  async function* events(): AsyncGenerator<SessionEvent> {
    for await (const event of throwing(conversation.compact(options.focus, { signal: abort.signal }))) {
      // The compaction's own end: the turn-complete the public API adds is not part of this output.
      if (event.type === 'turn-complete') continue;
      if (event.type === 'compaction-finished') report = event;
      yield event;
    }
  }
  try {
    if (options.json) {
      // Every event as one JSON line, as the engine emits it (errors end the command as usual).
      for await (const event of events()) io.stdout.write(`${terminalSafeJson(event)}\n`);
      return ExitCode.ok;
    }
    const outcome = await dispatchTurn(events(), createPlainView(io, { status: false }), {
      model: conversation.status().model,
      respond: (callId, decision, reason) => conversation.respond(callId, decision, reason),
      signal: abort.signal,
    });
    if (outcome.status === 'interrupted') return ExitCode.interrupted;
    if (outcome.status === 'failed') return describeError(outcome.error).exitCode;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    await context.dispose();
  }
  if (report !== undefined) io.stdout.write(compactedLine(id, report));
  return ExitCode.ok;
}

/** The command's own last line, on stdout: the same figures as the progress line, the event and `cody show`. */
function compactedLine(id: string, report: Finished): string {
  if (report.status === 'compacted')
    return `✓ Compacted ${id}: ${formatTokens(report.tokensBefore)} → ${formatTokens(report.tokensAfter)} tokens\n`;
  return `Nothing to compact in ${id}: ${report.reason ?? 'the history is already small'}.\n`;
}
