import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signInFiles } from '../../../../src/core/auth/index.js';
import { sandboxMounts } from '../../../../src/core/tools/sandbox-mounts.js';
import { bwrapArguments } from '../../../../src/core/tools/shell-runner.js';

describe('sandbox mounts', () => {
  let base: string;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'cody-mounts-')));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('a linked worktree: .git, its gitdir and the common dir, and .cody read-only; sign-ins hidden, in order', async () => {
    // home/ holds the workspace (a linked worktree of home/repo) and the sign-in directories.
    const home = join(base, 'home');
    const repo = join(home, 'repo');
    const workspace = join(home, 'ws');
    const gitDir = join(repo, '.git', 'worktrees', 'ws');
    await mkdir(gitDir, { recursive: true });
    await writeFile(join(gitDir, 'commondir'), '../..\n');
    await mkdir(join(workspace, '.cody'), { recursive: true });
    await writeFile(join(workspace, '.git'), 'gitdir: ../repo/.git/worktrees/ws\n');
    // CODY_HOME inside the workspace; Codex's home elsewhere; Claude Code's sign-in missing.
    const codyHome = join(workspace, '.cody-home');
    await mkdir(codyHome);
    await writeFile(join(codyHome, 'auth.json'), '{"keys":{}}');
    await mkdir(join(home, '.codex'));
    await writeFile(join(home, '.codex', 'auth.json'), '{}');
    // A sign-in file in the home directory itself, and one in the workspace root: only the file is hidden.
    await writeFile(join(home, 'token.json'), '{}');
    await writeFile(join(workspace, 'key.json'), '{}');
    const hide = [
      ...signInFiles(codyHome, { HOME: home }),
      join(home, 'token.json'),
      join(workspace, 'key.json'),
      join(base, 'missing', 'auth.json'),
    ];
    const args = bwrapArguments(
      { writableRoot: workspace, network: false, mounts: sandboxMounts(workspace, hide, home) },
      workspace,
      'true',
    );
    expect(args).toEqual([
      ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
      ...['--bind', workspace, workspace],
      ...['--ro-bind', join(workspace, '.git'), join(workspace, '.git')],
      ...['--ro-bind', gitDir, gitDir],
      ...['--ro-bind', join(repo, '.git'), join(repo, '.git')],
      ...['--ro-bind', join(workspace, '.cody'), join(workspace, '.cody')],
      ...['--tmpfs', codyHome],
      ...['--tmpfs', join(home, '.codex')],
      ...['--ro-bind', '/dev/null', join(home, 'token.json')],
      ...['--ro-bind', '/dev/null', join(workspace, 'key.json')],
      ...['--unshare-net', '--unshare-pid', '--new-session', '--die-with-parent'],
      ...['--chdir', workspace, 'bash', '-c', 'true'],
    ]);
  });

  it('a plain repository: .git only; nothing to hide when no sign-in file exists', async () => {
    await mkdir(join(base, '.git'));
    expect(
      sandboxMounts(base, signInFiles(join(base, 'nowhere'), { HOME: join(base, 'nobody') }), base),
    ).toEqual([{ kind: 'read-only', path: join(base, '.git') }]);
  });
});
