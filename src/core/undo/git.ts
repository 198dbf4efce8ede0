/** Runs git without a shell, with an optional temporary index, and returns stdout as a Buffer. */
import { execFile } from 'node:child_process';

export interface GitOptions {
  cwd: string;
  /** A temporary index, so the repository's own index is never touched. */
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

export class GitError extends Error {}

export function git(args: readonly string[], options: GitOptions): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...SNAPSHOT_IDENTITY, GIT_TERMINAL_PROMPT: '0' };
    if (options.indexFile !== undefined) env.GIT_INDEX_FILE = options.indexFile;
    const child = execFile(
      'git',
      ['-c', 'core.quotePath=false', ...args],
      { cwd: options.cwd, env, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 },
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
