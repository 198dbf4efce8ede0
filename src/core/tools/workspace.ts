/**
 * The workspace boundary: the git work tree containing the working directory (or the working directory
 * itself). Paths are resolved physically (symlinks followed, `..` applied to the real parent) before any
 * check, so neither a symlink nor `a/../..` walks out of the workspace unnoticed.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface Workspace {
  /** Real (symlink-free) absolute path of the workspace root. */
  readonly root: string;
  /** Real absolute path of the working directory. */
  readonly cwd: string;
  /** Whether the root is a git work tree. */
  readonly isGit: boolean;
  /** The physical absolute path `path` names (relative paths start at the working directory). */
  resolve(path: string): string;
  /** Whether a physical path is the root or below it. */
  contains(realPath: string): boolean;
  /** Path relative to the root, for messages (absolute when outside). */
  display(realPath: string): string;
}

/** Symlinks followed while resolving one path, before giving up on a loop. */
const MAX_LINKS = 40;

export function openWorkspace(cwd: string): Workspace {
  const realCwd = safeRealpath(resolve(cwd));
  const gitRoot = findGitRoot(realCwd);
  const root = gitRoot ?? realCwd;
  const contains = (path: string): boolean =>
    path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
  return {
    root,
    cwd: realCwd,
    isGit: gitRoot !== undefined,
    resolve: (path) => resolvePhysical(realCwd, path),
    contains,
    display: (path) => (contains(path) ? relative(root, path) || '.' : path),
  };
}

/** The nearest ancestor (or the directory itself) holding a `.git` entry. */
export function findGitRoot(directory: string): string | undefined {
  for (let current = directory; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}

/**
 * Resolves `path` component by component the way the kernel does: a symlink is replaced by its target
 * before the next component, and `..` goes to the parent of the real directory reached so far.
 * Components that do not exist yet are appended as written.
 */
export function resolvePhysical(cwd: string, path: string): string {
  // Not `join`: it would apply `..` lexically, before the symlinks are known.
  const pending = (isAbsolute(path) ? path : `${cwd}${sep}${path}`).split(sep).filter((part) => part !== '');
  pending.reverse();
  let current: string = sep;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.pop() ?? '';
    if (part === '.') continue;
    if (part === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    let target: string | undefined;
    try {
      if (lstatSync(next).isSymbolicLink()) target = readlinkSync(next);
    } catch {
      target = undefined;
    }
    if (target === undefined) {
      current = next;
      continue;
    }
    links += 1;
    if (links > MAX_LINKS) return next;
    const parts = target.split(sep).filter((piece) => piece !== '');
    for (let index = parts.length - 1; index >= 0; index -= 1) pending.push(parts[index] ?? '');
    if (isAbsolute(target)) current = sep;
  }
  return current;
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
