/**
 * `cody list` with no options, started without the command-line parser and from one small file: built on
 * its own (scripts/bundle.js) rather than from the shared chunks, because Node 20 spends about half a
 * millisecond on every module file it resolves and loads, and the listing was ~23 small chunks. The
 * listing reads the directory through core/store/conversation-list.ts, so none of ConversationManager's
 * writers or reader is in the file; the config schema (zod) is `bare-list-config.js` beside it, loaded
 * only when there is a config file. `cody list` with any option goes through `main`: the same rows.
 */
import { runList } from './commands/list.js';
import { processIo, type Io } from './io.js';
import { reportError } from './report-error.js';

export { exitCodeAfterSignal, installSignalHandling } from './signals.js';

export async function runBare(io: Io = processIo()): Promise<number> {
  try {
    return await runList({}, io);
  } catch (error) {
    return reportError(error, io, false);
  }
}
