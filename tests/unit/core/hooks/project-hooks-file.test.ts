import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProjectHooks } from '../../../../src/core/hooks/project-hooks-file.js';

let work: string;
let elsewhere: string;
beforeEach(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), 'cody-hooks-file-')));
  elsewhere = await realpath(await mkdtemp(join(tmpdir(), 'cody-hooks-elsewhere-')));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(elsewhere, { recursive: true, force: true });
});

const hooks = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });

describe('reading .cody/hooks.json', () => {
  it('reads a regular file inside the workspace, with its content hash', async () => {
    await mkdir(join(work, '.cody'));
    await writeFile(join(work, '.cody', 'hooks.json'), hooks);
    const file = readProjectHooks(work);
    expect(file).toMatchObject({
      kind: 'read',
      entries: [{ event: 'Stop', command: 'true', source: 'project' }],
    });
    expect(file.kind === 'read' && file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readProjectHooks(elsewhere)).toEqual({ kind: 'none' });
  });

  it('refuses a FIFO without waiting, a link out of the workspace, and invalid content', async () => {
    await mkdir(join(work, '.cody'));
    execFileSync('mkfifo', [join(work, '.cody', 'hooks.json')]);
    expect(readProjectHooks(work).kind).toBe('invalid');
    await rm(join(work, '.cody'), { recursive: true });
    await writeFile(join(elsewhere, 'hooks.json'), hooks);
    await symlink(elsewhere, join(work, '.cody'));
    expect(readProjectHooks(work).kind).toBe('invalid');
    await rm(join(work, '.cody'));
    await mkdir(join(work, '.cody'));
    await writeFile(join(work, '.cody', 'hooks.json'), '{"PreToolUse": [{"matcher": "(", "hooks": []}]}');
    expect(readProjectHooks(work).kind).toBe('invalid');
    await writeFile(join(work, '.cody', 'hooks.json'), '{"__proto__": {"x": 1}}');
    expect(readProjectHooks(work).kind).toBe('invalid');
  });
});
