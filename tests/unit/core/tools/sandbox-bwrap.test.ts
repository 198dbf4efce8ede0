/** The sandbox as bubblewrap really builds it (bwrap is installed wherever the tests run, CI included). */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInFiles } from '../../../../src/core/auth/index.js';
import { runShellCommand } from '../../../../src/core/tools/shell-runner.js';

describe('commands in bubblewrap', () => {
  let root: string;
  let codyHome: string;
  let codexHome: string;
  const run = (command: string) =>
    runShellCommand({
      command,
      cwd: root,
      timeoutMs: 20_000,
      sandbox: {
        bwrap: 'bwrap',
        writableRoot: root,
        network: false,
        hide: signInFiles(codyHome, { CODEX_HOME: codexHome, HOME: root }),
      },
    });

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'cody-bwrap-')));
    execFileSync('git', ['init', '-q', root]);
    // Both sign-in directories inside the writable workspace: the hardest case (nothing else hides them).
    codyHome = join(root, '.cody-home');
    codexHome = join(root, '.codex-home');
    await mkdir(codyHome);
    await mkdir(codexHome);
    await writeFile(join(codyHome, 'auth.json'), '{"keys":{"openai":"sk-cody-secret"}}');
    await writeFile(join(codyHome, 'config.json'), '{}');
    await writeFile(join(codexHome, 'auth.json'), '{"OPENAI_API_KEY":"sk-codex-secret"}');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('the git directory is read-only: no hook planted, no fsmonitor set; the rest of the workspace is writable', async () => {
    const configBefore = await readFile(join(root, '.git', 'config'), 'utf8');
    const outcome = await run(
      [
        'echo "touch pwned" > .git/hooks/pre-commit && echo planted',
        'git config core.fsmonitor "touch pwned" && echo configured',
        'echo fine > work.txt',
      ].join('; '),
    );
    expect(outcome.output).toContain('Read-only file system');
    expect(outcome.output).not.toContain('planted');
    expect(outcome.output).not.toContain('configured');
    await expect(readFile(join(root, '.git', 'hooks', 'pre-commit'), 'utf8')).rejects.toThrow();
    expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(await readFile(join(root, 'work.txt'), 'utf8')).toBe('fine\n');
  });

  it('sign-in files read as nothing, and CODY_HOME in the workspace cannot be changed', async () => {
    const outcome = await run(
      'cat .cody-home/auth.json .codex-home/auth.json; ls -A .cody-home; echo \'{"approval":"full-auto"}\' > .cody-home/config.json; echo done',
    );
    expect(outcome.output).not.toContain('secret');
    expect(outcome.output).toContain('done');
    expect(await readFile(join(codyHome, 'config.json'), 'utf8')).toBe('{}');
    expect(await readFile(join(codyHome, 'auth.json'), 'utf8')).toContain('sk-cody-secret');
  });

  it("Cody's process is not there to read, and what a command leaves running dies with it", async () => {
    const marker = `31.${process.pid}`;
    const started = performance.now();
    const outcome = await run(
      [
        `cat /proc/${process.pid}/environ && echo READ-$((40 + 2))`,
        `echo pids: $(ls /proc | grep -c '^[0-9]')`,
        'echo "names: $(cat /proc/[0-9]*/comm | sort -u | tr "\\n" " ")"',
        `sleep ${marker} & setsid sleep ${marker} & nohup sleep ${marker} >/dev/null 2>&1 &`,
        'echo left',
      ].join('\n'),
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(outcome.output).toContain('left');
    expect(outcome.output).not.toContain('READ-42');
    // Only the sandbox's own processes: bubblewrap's init, the shell and what it runs now.
    const names = (/names: (.*)/.exec(outcome.output)?.[1] ?? '').trim().split(' ');
    expect(
      names.filter((name) => !['bwrap', 'bash', 'cat', 'sort', 'tr', 'ls', 'grep'].includes(name)),
    ).toEqual([]);
    // The shell, bubblewrap's init and the commands of the line: a handful, not the machine's.
    expect(Number(/pids: (\d+)/.exec(outcome.output)?.[1])).toBeLessThan(10);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const running = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(running).not.toContain(`sleep ${marker}`);
  });
});
