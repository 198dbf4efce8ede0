/**
 * A fingerprint of the repository's own git config files. `git status`, `git diff`… run without asking
 * only while it is unchanged: a config written during the session (by the model, under auto-edit) could
 * make them run a program (`core.fsmonitor`, `diff.external`, a textconv or clean filter).
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function gitConfigStamp(root: string): string {
  const dotGit = join(root, '.git');
  let gitDir = dotGit;
  try {
    if (statSync(dotGit).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (pointer) gitDir = resolve(root, pointer);
    }
  } catch {
    return 'no git';
  }
  let common = gitDir;
  try {
    common = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    // Not a linked worktree.
  }
  return [join(common, 'config'), join(gitDir, 'config.worktree')]
    .map((file) => {
      try {
        const stat = statSync(file);
        return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
      } catch {
        return 'absent';
      }
    })
    .join('|');
}
