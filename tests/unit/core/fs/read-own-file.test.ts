/** The one reader of files Cody opens on its own (issue 36.5): regular files only, inside their root, capped. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readOwnFile,
  readOwnFileSync,
  type OwnFile,
  type ReadOwnFileOptions,
} from '../../../../src/core/fs/index.js';

type Reader = (path: string, options: ReadOwnFileOptions) => Promise<OwnFile | undefined>;
const readers: [string, Reader][] = [
  ['readOwnFile', readOwnFile],
  ['readOwnFileSync', (path, options) => Promise.resolve().then(() => readOwnFileSync(path, options))],
];

describe.each(readers)('%s', (_name, read) => {
  let directory: string;
  let root: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cody-own-file-'));
    root = join(directory, 'workspace');
    await mkdir(root);
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const refusal = async (path: string, options: ReadOwnFileOptions): Promise<Error & { reason?: string }> => {
    const error: unknown = await read(path, options).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    return error as Error & { reason?: string };
  };

  it('reads a regular file, and a link to one inside the root', async () => {
    await writeFile(join(root, 'AGENTS.md'), 'hello');
    await symlink('AGENTS.md', join(root, 'CLAUDE.md'));
    const file = await read(join(root, 'CLAUDE.md'), { root, maxBytes: 100 });
    expect(file?.bytes.toString()).toBe('hello');
    expect(file?.truncated).toBe(false);
  });

  it('says undefined for a missing file or a dangling link', async () => {
    await symlink(join(directory, 'nowhere'), join(root, 'AGENTS.md'));
    await expect(read(join(root, 'AGENTS.md'), { root, maxBytes: 100 })).resolves.toBeUndefined();
    await expect(read(join(root, 'nothing.md'), { maxBytes: 100 })).resolves.toBeUndefined();
  });

  it('refuses a FIFO at once, with or without a root', async () => {
    const fifo = join(root, 'AGENTS.md');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const error = await refusal(fifo, { root, maxBytes: 100 });
    expect(error.message).toBe(`${fifo} is a FIFO, not a regular file`);
    expect((await refusal(fifo, { maxBytes: 100 })).reason).toBe('not-regular');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('refuses /dev/zero through a link as outside the root, and as a device without one', async () => {
    const link = join(root, 'AGENTS.md');
    await symlink('/dev/zero', link);
    const error = await refusal(link, { root, maxBytes: 100 });
    expect(error.reason).toBe('outside-root');
    expect(error.message).toBe(`${link} links to /dev/zero, outside ${root}`);
    const device = await refusal(link, { maxBytes: 100 });
    expect(device.message).toBe(`${link} is a character device, not a regular file`);
    expect(device.reason).toBe('not-regular');
  });

  it('refuses a link to a file outside the root, and a directory', async () => {
    await writeFile(join(directory, 'auth.json'), '{"token":"secret"}');
    await symlink(join(directory, 'auth.json'), join(root, 'AGENTS.md'));
    expect((await refusal(join(root, 'AGENTS.md'), { root, maxBytes: 100 })).reason).toBe('outside-root');
    // A parent directory that is a link out counts too.
    await symlink(directory, join(root, 'up'));
    expect((await refusal(join(root, 'up', 'auth.json'), { root, maxBytes: 100 })).reason).toBe(
      'outside-root',
    );
    await mkdir(join(root, 'dir.md'));
    expect((await refusal(join(root, 'dir.md'), { root, maxBytes: 100 })).message).toMatch(
      /is a directory, not a regular file$/,
    );
  });

  it('refuses a socket', async () => {
    const path = join(root, 'sock.md');
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(path, done));
    try {
      expect((await refusal(path, { root, maxBytes: 100 })).message).toMatch(
        /is a socket, not a regular file$/,
      );
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('reads a huge file only up to its cap, or refuses it', async () => {
    const path = join(root, 'huge.md');
    await writeFile(path, '');
    await truncate(path, 4 * 1024 * 1024 * 1024);
    const cut = await read(path, { root, maxBytes: 1000, overLimit: 'truncate' });
    expect(cut?.bytes.length).toBe(1000);
    expect(cut?.truncated).toBe(true);
    expect(cut?.size).toBe(4 * 1024 * 1024 * 1024);
    expect((await refusal(path, { maxBytes: 1000 })).message).toBe(`${path} is over the 1,000-byte limit`);
  });

  it('stops at the cap when the size on disk says less (a /proc file says 0)', async () => {
    const file = await read('/proc/self/maps', { maxBytes: 10, overLimit: 'truncate' });
    expect(file?.size).toBe(0);
    expect(file?.bytes.length).toBe(10);
    expect(file?.truncated).toBe(true);
    expect((await refusal('/proc/self/maps', { maxBytes: 10 })).reason).toBe('too-large');
  });
});
