/** Cody's own small state files (titles.json, active) are read as regular files only (issue 36.5). */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCodyPaths } from '../../../../src/core/config/index.js';
import { readActiveId } from '../../../../src/core/store/conversation-list.js';
import { readTitles } from '../../../../src/core/store/conversation-titles.js';

describe("Cody's own state files", () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'cody-state-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('a FIFO titles.json is no titles, at once', () => {
    execFileSync('mkfifo', [join(home, 'titles.json')]);
    const started = Date.now();
    expect(readTitles(home).size).toBe(0);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('a FIFO or /dev/zero as the active file is one clear error, at once', async () => {
    const paths = resolveCodyPaths({ CODY_HOME: home });
    execFileSync('mkfifo', [paths.activeFile]);
    const started = Date.now();
    expect(() => readActiveId(paths)).toThrow(
      `Cannot read ${paths.activeFile}: is a FIFO, not a regular file`,
    );
    expect(Date.now() - started).toBeLessThan(500);
    await rm(paths.activeFile);
    await symlink('/dev/zero', paths.activeFile);
    expect(() => readActiveId(paths)).toThrow('is a character device, not a regular file');
  });
});
