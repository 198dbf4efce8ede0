/** Looks a program up on PATH without running anything (for `rg` and `bwrap`). */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const directory of (env.PATH ?? '').split(delimiter)) {
    if (directory !== '' && existsSync(join(directory, name))) return join(directory, name);
  }
  return undefined;
}
