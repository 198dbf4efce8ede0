import { createInterface } from 'node:readline/promises';
import { UsageError } from '../../core/index.js';
import { ExitCode } from '../exit-codes.js';
import { createContext } from '../context.js';
import type { Io } from '../io.js';

/** `cody delete <id>`: asks first on a terminal; scripts must pass --yes. */
export async function runDelete(options: { id: string; yes?: boolean }, io: Io): Promise<number> {
  const context = await createContext(io);
  const id = await context.cody.resolve(options.id);
  if (options.yes !== true) {
    if (io.stdin.isTTY !== true) {
      throw new UsageError(`Refusing to delete ${id} without confirmation: pass --yes.`);
    }
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await prompt.question(`Delete conversation ${id}? This cannot be undone. [y/N] `);
    prompt.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      io.stderr.write('Not deleted.\n');
      return ExitCode.failure;
    }
  }
  await context.cody.delete(id);
  io.stdout.write(`✓ Deleted conversation: ${id}\n`);
  return ExitCode.ok;
}
