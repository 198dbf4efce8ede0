/** Test helpers: whether a process has ended (exited, or a zombie not yet reaped) within about five seconds. */
import { readdir, readFile } from 'node:fs/promises';

export async function processEnded(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      if (/^\d+ \(.*\) Z/.test(stat)) return true;
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/**
 * Whether no process whose command line is exactly `argv` is left within about five seconds. For a
 * process started inside the sandbox's own PID namespace, whose `$!` means nothing outside it.
 */
export async function commandEnded(argv: readonly string[]): Promise<boolean> {
  const wanted = `${argv.join('\0')}\0`;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (!(await anyRunning(wanted))) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

async function anyRunning(cmdline: string): Promise<boolean> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ((await readFile(`/proc/${entry}/cmdline`, 'utf8')) !== cmdline) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (!/^\d+ \(.*\) Z/.test(stat)) return true;
    } catch {
      // Gone while we looked.
    }
  }
  return false;
}
