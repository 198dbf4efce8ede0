/**
 * Where a work tree's repository lives: its git directory (`.git`, or where a `gitdir:` file points, for
 * linked worktrees and submodules) and the common directory (`commondir`) that holds the config, the
 * objects and the refs. Read from the files themselves: no git process, nothing the config says runs.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface GitDirs {
  /** The work tree's own git directory: HEAD, the index. */
  gitDir: string;
  /** Config, objects, refs, info/ (the git directory itself unless this is a linked worktree). */
  commonDir: string;
}

export function gitDirsOf(root: string): GitDirs | undefined {
  const dotGit = join(root, '.git');
  let gitDir = dotGit;
  try {
    if (statSync(dotGit).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (!pointer) return undefined;
      gitDir = resolve(root, pointer);
    }
  } catch {
    return undefined;
  }
  let commonDir = gitDir;
  try {
    commonDir = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    // Not a linked worktree.
  }
  return { gitDir, commonDir };
}
