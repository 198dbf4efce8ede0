import { statSync } from 'node:fs';
import { errorMessage, isErrno, UsageError } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody import PATH`: a Codex rollout becomes a Cody conversation (made active); prints its id. */
export async function runImport(options: { path: string }, io: Io): Promise<number> {
  // A missing or unreadable source is the caller's mistake (usage), not a CODY_HOME storage failure.
  try {
    if (!statSync(options.path).isFile()) throw new UsageError(`${options.path} is not a file.`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Cannot read ${options.path}: ${isErrno(error, 'ENOENT') ? 'no such file' : errorMessage(error)}.`,
    );
  }
  const context = await createContext(io);
  const imported = await context.cody.import(options.path, { activate: true });
  io.stdout.write(`${imported.id}\n`);
  io.stderr.write(`Imported ${imported.importedItems} items from ${options.path}\n`);
  return ExitCode.ok;
}
