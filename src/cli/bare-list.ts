/**
 * `cody list` with no options, started without the command-line parser and from one file: built on its
 * own (scripts/bundle.js) rather than as one of the shared chunks, because Node 20 spends about half a
 * millisecond on every module file it resolves and loads, and the listing is otherwise ~20 small chunks.
 * What the listing only reaches through a dynamic import (zod for a config file, the rollout reader) is
 * in that file too, but wrapped by the bundler so it runs only if it is imported. `cody list` with any
 * option goes through `main`, which gives the same rows.
 */
import { runList } from './commands/list.js';
import { processIo, type Io } from './io.js';
import { reportError } from './report-error.js';

export { exitCodeAfterSignal, installSignalHandling } from './signals.js';

export async function runBareList(io: Io = processIo()): Promise<number> {
  try {
    return await runList({}, io);
  } catch (error) {
    return reportError(error, io, false);
  }
}
