/** Runs every benchmark in bench/ in turn (after `npm run build`). */
import { readdir } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const files = (await readdir(import.meta.dirname)).filter((name) => name.endsWith('.bench.js')).sort();
for (const file of files) {
  process.stdout.write(`\n=== ${file}\n`);
  const result = spawnSync(process.execPath, [join(import.meta.dirname, file)], { stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = 1;
}
