/**
 * `cody` with no arguments: the REPL on a new conversation, started without building the whole command line (commander and
 * every command's definition), because the time to the prompt is what a person waits for. Anything
 * with arguments goes through `main`.
 */
import { processIo, type Io } from './io.js';
import { reportError } from './report-error.js';

export { exitCodeAfterSignal, installSignalHandling } from './signals.js';

export async function runBare(io: Io = processIo()): Promise<number> {
  try {
    const { runRepl } = await import('./repl.js');
    return await runRepl({ format: 'text', words: [], fresh: true }, io);
  } catch (error) {
    return reportError(error, io, false);
  }
}
