/**
 * Paths a write never reaches unasked, under any policy (issue 36): git's repository data — a `.git`
 * directory or file at any depth, and the git directory the workspace's `.git` file points to — whose
 * config names programs git runs and whose hooks are programs, and `.cody/`, Cody's own project settings.
 * Matched on the physical path (symlinks and `..` resolved by the workspace) and on names the way
 * case-insensitive file systems compare them (`.GIT`, `.git.`, `GIT~1`, invisible code points), so no
 * spelling reaches the same file unasked. Only an explicit confinement bypass lets such a write run freely.
 */
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gitDirsOf } from './git-dirs.js';
import type { Workspace } from './workspace.js';

/** Code points macOS ignores in names (so `.g\u200cit` is `.git` there). */
const IGNORED_CODE_POINTS = /[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;

/** A name as a case-insensitive, Windows- or macOS-style file system may compare it. */
function comparable(name: string): string {
  const plain = name
    .replace(IGNORED_CODE_POINTS, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
  return plain === 'git~1' ? '.git' : plain;
}

/** What a path inside git's directory is, for the question. */
function gitPart(inside: readonly string[]): string {
  const [first = '', second = ''] = inside.map(comparable);
  if (first === '') return 'where git finds the repository';
  if (first === 'config' || first === 'config.worktree') return 'repository configuration';
  if (first === 'hooks') return 'a git hook (a program git runs)';
  if (first === 'info' && second === 'attributes') return 'git attributes (which filters git runs)';
  if (first === 'modules' || first === 'worktrees') return "another repository's git data";
  return "git's repository data";
}

/**
 * What each protected path among `paths` (as the call wrote them) is, as `path — what`, for the
 * question; empty when none is. Paths outside the workspace are the boundary's business, except the git
 * directory the workspace's `.git` file points to.
 */
export function protectedTargets(workspace: Workspace, paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const path of paths) {
    const what = protectedWhat(workspace, workspace.resolve(path));
    if (what !== undefined) found.push(`${workspace.display(workspace.resolve(path))} — ${what}`);
  }
  return [...new Set(found)];
}

/** A write access's `protectedPaths`, when any of `paths` is protected. */
export function guarded(
  workspace: Workspace,
  paths: readonly string[],
): { protectedPaths?: readonly string[] } {
  const found = protectedTargets(workspace, paths);
  return found.length > 0 ? { protectedPaths: found } : {};
}

/** Why a physical path is protected, or undefined. */
export function protectedWhat(workspace: Workspace, realPath: string): string | undefined {
  const dirs = gitDirsOf(workspace.root);
  for (const directory of dirs ? [dirs.gitDir, dirs.commonDir] : []) {
    const real = workspace.resolve(directory);
    if (realPath === real || realPath.startsWith(real + sep))
      return gitPart(
        relative(real, realPath)
          .split(sep)
          .filter((part) => part !== ''),
      );
  }
  if (!workspace.contains(realPath)) return undefined;
  const parts = relative(workspace.root, realPath).split(sep);
  for (let index = 0; index < parts.length; index += 1) {
    const name = comparable(parts[index] ?? '');
    if (name === '.git') return gitPart(parts.slice(index + 1));
    if (name === '.cody') return "Cody's project settings";
  }
  return hardLinkedConfig(realPath, dirs);
}

/** A file elsewhere in the workspace that is a hard link to the repository's config or one of its hooks. */
function hardLinkedConfig(realPath: string, dirs: ReturnType<typeof gitDirsOf>): string | undefined {
  const target = statOf(realPath);
  if (dirs === undefined || target === undefined || target.nlink < 2) return undefined;
  const same = (file: string): boolean => {
    const other = statOf(file);
    return other !== undefined && other.ino === target.ino && other.dev === target.dev;
  };
  const configs = [join(dirs.commonDir, 'config'), join(dirs.gitDir, 'config.worktree')];
  if (configs.some(same)) return 'repository configuration (a hard link to it)';
  const hooks = join(dirs.commonDir, 'hooks');
  let names: string[] = [];
  try {
    names = readdirSync(hooks);
  } catch {
    names = [];
  }
  return names.some((name) => same(join(hooks, name))) ? 'a git hook (a hard link to it)' : undefined;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
