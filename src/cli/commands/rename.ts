import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody rename <id> <title>`: the title `cody list` shows ('' goes back to the generated one). */
export async function runRename(options: { id: string; title: string }, io: Io): Promise<number> {
  const context = await createContext(io);
  const { id } = await context.cody.rename(options.id, options.title);
  io.stdout.write(`✓ Renamed ${id}: ${options.title.replace(/\s+/g, ' ').trim()}\n`);
  return ExitCode.ok;
}
