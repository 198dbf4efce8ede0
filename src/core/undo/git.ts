/**
 * Cody's own git, the only way Cody runs git for itself (snapshots, diffs, undo, file lists): without a
 * shell, with an optional temporary index, and with the repository's config never loaded (a private git
 * directory, private-git-dir.ts), so nothing the repository or the environment configures runs.
 */
import { execFile } from 'node:child_process';
import { cleanEnvironment, withPrivateGitDir } from './private-git-dir.js';

export interface GitOptions {
  /** The work tree's root (where `.git` is). */
  cwd: string;
  /** Where git runs, inside the work tree (default: its root): paths are relative to it. */
  directory?: string;
  /** A temporary index, so the repository's own index is never touched (default: the repository's, read only). */
  indexFile?: string;
  input?: string;
}

/** Identity for snapshot commits, so they work where no git user is configured. */
const SNAPSHOT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Cody',
  GIT_AUTHOR_EMAIL: 'cody@localhost',
  GIT_COMMITTER_NAME: 'Cody',
  GIT_COMMITTER_EMAIL: 'cody@localhost',
};

/** Settings that would name a program, off again in case a later git reads one from somewhere new. */
const OVERRIDES = [
  'core.quotePath=false',
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'credential.helper=',
];

export class GitError extends Error {}

export async function git(args: readonly string[], options: GitOptions): Promise<Buffer> {
  try {
    return await withPrivateGitDir(options.cwd, (privateEnv) => run(args, options, privateEnv));
  } catch (error) {
    if (error instanceof GitError) throw error;
    throw new GitError(
      `git ${args[0] ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function run(args: readonly string[], options: GitOptions, privateEnv: NodeJS.ProcessEnv): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const env: NodeJS.ProcessEnv = { ...cleanEnvironment(process.env), ...privateEnv, ...SNAPSHOT_IDENTITY };
    if (options.indexFile !== undefined) env.GIT_INDEX_FILE = options.indexFile;
    const child = execFile(
      'git',
      ['--no-pager', ...OVERRIDES.flatMap((setting) => ['-c', setting]), ...args],
      { cwd: options.directory ?? options.cwd, env, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const message = stderr.toString('utf8').trim().split('\n')[0] ?? error.message;
          reject(new GitError(`git ${args[0] ?? ''} failed: ${message || error.message}`));
        } else resolvePromise(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

export async function gitText(args: readonly string[], options: GitOptions): Promise<string> {
  return (await git(args, options)).toString('utf8').trim();
}
