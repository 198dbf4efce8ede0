/**
 * What the sandbox lays over the writable workspace, looked up afresh for each command (only what exists
 * can be mounted over): the repository's git directories and the workspace's `.cody` read-only, so a
 * command cannot plant a hook or a config that runs later outside any sandbox; and the agents' sign-in
 * files hidden, so a command cannot print a key into the model's context.
 */
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

/** One mount bubblewrap adds after the workspace's writable bind, in order. */
export type SandboxMount =
  /** Bound read-only onto itself. */
  | { kind: 'read-only'; path: string }
  /** An empty private directory laid over it (writes vanish with the sandbox). */
  | { kind: 'tmpfs'; path: string }
  /** /dev/null bound over a file: it reads as empty. */
  | { kind: 'empty'; path: string };

/**
 * The mounts for a workspace: `.git` (the file and the directory a `gitdir:` line names, and the common
 * directory of a linked worktree) and `.cody` read-only; then each of `hide` (files) hidden.
 */
export function sandboxMounts(
  root: string,
  hide: readonly string[],
  home: string = process.env.HOME ?? homedir(),
): SandboxMount[] {
  const mounts: SandboxMount[] = [];
  const seen = new Set<string>();
  const add = (mount: SandboxMount): void => {
    const key = `${mount.kind}:${mount.path}`;
    if (seen.has(key)) return;
    seen.add(key);
    mounts.push(mount);
  };
  for (const path of protectedPaths(root)) add({ kind: 'read-only', path });
  for (const file of hide) {
    const mount = hidingMount(file, root, home);
    if (mount) add(mount);
  }
  return mounts;
}

/** The git directories of the work tree at `root`, and its `.cody`, as real paths; only those that exist. */
export function protectedPaths(root: string): string[] {
  const paths: string[] = [];
  const dotGit = join(root, '.git');
  const push = (path: string | undefined): void => {
    const real = path === undefined ? undefined : realOrUndefined(path);
    if (real !== undefined && !paths.includes(real)) paths.push(real);
  };
  if (exists(dotGit)) {
    push(dotGit);
    const gitDir = isFile(dotGit) ? gitDirOfFile(dotGit, root) : realOrUndefined(dotGit);
    push(gitDir);
    if (gitDir !== undefined) push(commonDirOf(gitDir));
  }
  push(join(root, '.cody'));
  return paths;
}

/**
 * A tmpfs over the file's directory when that directory is the agent's own (neither the workspace, nor
 * above it, nor the home directory or above): a file created or replaced there later stays hidden too.
 * Otherwise /dev/null over the file itself, when it exists.
 */
function hidingMount(file: string, root: string, home: string): SandboxMount | undefined {
  const directory = realOrUndefined(dirname(resolve(file)));
  if (directory === undefined) return undefined;
  const realHome = realOrUndefined(home) ?? home;
  if (!isWithin(root, directory) && !isWithin(realHome, directory)) return { kind: 'tmpfs', path: directory };
  const real = realOrUndefined(file);
  return real !== undefined && isFile(real) ? { kind: 'empty', path: real } : undefined;
}

/** The directory a `.git` file's `gitdir:` line names. */
function gitDirOfFile(dotGit: string, root: string): string | undefined {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readOrEmpty(dotGit));
  return match?.[1] === undefined ? undefined : realOrUndefined(resolve(root, match[1]));
}

/** A linked worktree's git directory names the repository's common directory (hooks, config) in `commondir`. */
function commonDirOf(gitDir: string): string | undefined {
  const named = readOrEmpty(join(gitDir, 'commondir')).trim();
  return named === '' ? undefined : realOrUndefined(resolve(gitDir, named));
}

/** Whether `path` is `directory` or below it. */
function isWithin(path: string, directory: string): boolean {
  return path === directory || path.startsWith(directory.endsWith(sep) ? directory : directory + sep);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return existsSync(path) ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** bubblewrap's arguments for the mounts, in order. */
export function mountArguments(mounts: readonly SandboxMount[]): string[] {
  return mounts.flatMap((mount) => {
    switch (mount.kind) {
      case 'read-only':
        return ['--ro-bind', mount.path, mount.path];
      case 'tmpfs':
        return ['--tmpfs', mount.path];
      case 'empty':
        return ['--ro-bind', '/dev/null', mount.path];
      default: {
        const exhaustive: never = mount;
        throw new Error(`unknown mount ${JSON.stringify(exhaustive)}`);
      }
    }
  });
}
