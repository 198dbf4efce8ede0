/**
 * A fingerprint of the repository's own git config files. `git status`, `git diff`… run without asking
 * only while it is unchanged: a config written during the session (by the model, under auto-edit) could
 * make them run a program (`core.fsmonitor`, `diff.external`, a textconv or clean filter).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { gitDirsOf } from './git-dirs.js';

export function gitConfigStamp(root: string): string {
  const dirs = gitDirsOf(root);
  if (dirs === undefined) return 'no git';
  return [join(dirs.commonDir, 'config'), join(dirs.gitDir, 'config.worktree')]
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
