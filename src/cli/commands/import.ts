import { ExitCode } from '../../core/errors.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody import PATH`: a Codex rollout becomes a Cody conversation (made active); prints its id. */
export async function runImport(options: { path: string }, io: Io): Promise<number> {
  const context = await createContext(io);
  const imported = await context.manager.importCodexRollout(options.path);
  io.stdout.write(`${imported.id}\n`);
  io.stderr.write(`Imported ${imported.itemCount} items from ${options.path}\n`);
  return ExitCode.ok;
}
