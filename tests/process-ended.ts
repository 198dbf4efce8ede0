/** Test helper: whether a process has ended (exited, or a zombie not yet reaped) within about five seconds. */
import { readFile } from 'node:fs/promises';

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
