/** What the tool end-to-end tests share: the four APIs, a scratch git work tree, the MCP servers. */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from './harness.js';

export const PROVIDERS = [
  { api: 'openai-chat', args: ['openai', '--api', 'chat'] },
  { api: 'openai-responses', args: ['openai', '--api', 'responses'] },
  { api: 'anthropic-messages', args: ['anthropic'] },
  { api: 'gemini', args: ['google'] },
] as const;

export const EVERYTHING = join(
  REPO_ROOT,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const FILESYSTEM = join(
  REPO_ROOT,
  'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);
/** A small MCP server whose tools crash it, time out, or fail. */
export const CRASHING_SERVER = join(REPO_ROOT, 'tests/unit/core/mcp/fixtures/test-mcp-server.mjs');

/** Makes the harness home (cody's working directory) a git work tree with one committed file. */
export async function makeRepo(home: string): Promise<void> {
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: home,
      stdio: 'ignore',
    });
  };
  git('init', '-q');
  await writeFile(join(home, '.gitignore'), '.cody/\n');
  await writeFile(join(home, 'a.txt'), 'alpha\nbeta\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  await writeFile(join(home, 'untracked-before.txt'), 'mine\n');
}
