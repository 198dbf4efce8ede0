/**
 * Sign-in files (Codex's auth.json, Claude Code's credentials, Cody's key store) live outside any
 * workspace and may be links, but are read as Cody reads its own files (issue 36.5): a regular file,
 * opened without blocking, never more than MAX_CREDENTIAL_FILE_BYTES read.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonObject } from '../../../../src/core/auth/credential-file.js';
import { knownSecrets } from '../../../../src/core/redact/index.js';

describe('credential files Cody reads on its own', () => {
  let directory: string;
  let file: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cody-credentials-'));
    await mkdir(join(directory, 'codex'));
    file = join(directory, 'codex', 'auth.json');
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const problem = async (): Promise<unknown> =>
    readJsonObject(file, 'Sign in again.').then(
      () => undefined,
      (error: unknown) => error,
    );

  it('reads a link to a real file anywhere', async () => {
    await writeFile(join(directory, 'real.json'), '{"OPENAI_API_KEY":"sk-fake"}');
    await symlink(join(directory, 'real.json'), file);
    await expect(readJsonObject(file, 'Sign in again.')).resolves.toEqual({ OPENAI_API_KEY: 'sk-fake' });
  });

  it('refuses a FIFO at once, and knownSecrets does not wait on it either', async () => {
    execFileSync('mkfifo', [file]);
    const started = Date.now();
    expect(await problem()).toMatchObject({
      kind: 'auth',
      message: `${file} is a FIFO, not a regular file. Sign in again.`,
    });
    await expect(
      knownSecrets({ CODEX_HOME: join(directory, 'codex'), HOME: directory }, directory),
    ).resolves.toEqual([]);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('refuses a link to /dev/zero as a device', async () => {
    await symlink('/dev/zero', file);
    expect(await problem()).toMatchObject({
      message: `${file} is a character device, not a regular file. Sign in again.`,
    });
  });

  it('refuses a huge file without reading it', async () => {
    await writeFile(file, '{}');
    await truncate(file, 4 * 1024 * 1024 * 1024);
    expect(await problem()).toMatchObject({
      message: `${file} is over the 1,048,576-byte limit. Sign in again.`,
    });
  });
});
